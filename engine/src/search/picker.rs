//! Handing out a node's moves best key first, in stages: the transposition table's move before
//! any move is generated, then the moves scored at generation (captures, promotions, killers
//! and the counter-move), then the quiet moves, whose history is only looked up once every
//! better move was searched (and which a node out of check generates only then), then the
//! captures that lose material. Most nodes cut off in the first stages, and never score their
//! quiet moves.

use shakmaty::{Chess, Color, Move, MoveList};

use super::check::Checks;
use super::generation::{quiet_checks, tactical_moves};
use super::ordering::{Lineage, OrderingTables, QUIET_FLOOR, is_tactical, tactical_key};

/// A key and a move's place in generation order in one number: among equal keys the earlier
/// move comes first, whatever order the moves are scored in. A node has fewer than 256 moves
/// and the ordering keys lie within ±2²³, so that ranks are distinct and fit an `i32`.
fn ranked(key: i32, place: usize) -> i32 {
    debug_assert!(key.abs() < 1 << 23 && place < 256);
    key * 256 - place as i32
}

/// One node's moves, handed out best first. One picker per ply is reused from node to node, so
/// that ordering allocates nothing.
pub struct MovePicker {
    /// The scored moves; those before `next` were handed out.
    entries: Vec<(Move, i32)>,
    next: usize,
    /// A move handed out before all others, such as the transposition table's move.
    first: Option<Move>,
    /// Quiet moves not scored yet, each with its place in generation order.
    pending: Vec<(Move, usize)>,
    /// The side to move and the moves that led to the node, for scoring `pending`.
    turn: Color,
    lineage: Lineage,
    /// Whether the node generates its quiet moves only once they are due: then the picker
    /// hands out nothing below them until they are loaded.
    quiets_later: bool,
}

impl Default for MovePicker {
    fn default() -> Self {
        MovePicker {
            entries: Vec::new(),
            next: 0,
            first: None,
            pending: Vec::new(),
            turn: Color::White,
            lineage: Lineage::default(),
            quiets_later: false,
        }
    }
}

impl MovePicker {
    /// Empties the picker, leaving only `first` to hand out until moves are loaded.
    pub fn reset(&mut self, first: Option<Move>) {
        self.load(Color::White, Lineage::default());
        self.first = first;
    }

    /// Empties the picker of loaded moves (keeping the first move) for a node where `turn` is
    /// to move after `lineage`.
    pub(super) fn load(&mut self, turn: Color, lineage: Lineage) {
        self.entries.clear();
        self.pending.clear();
        self.next = 0;
        self.turn = turn;
        self.lineage = lineage;
        self.quiets_later = false;
    }

    /// Marks the quiet moves as not generated yet: once every loaded move above them was
    /// handed out, [`MovePicker::next`] returns `None` for the node to [`MovePicker::defer`]
    /// them.
    pub(super) fn await_quiets(&mut self) {
        self.quiets_later = true;
    }

    /// Adds `m` with its ordering key.
    pub(super) fn push(&mut self, m: Move, key: i32) {
        let place = self.loaded();
        self.entries.push((m, ranked(key, place)));
    }

    /// Adds the quiet move `m`, to be scored by its history once it is needed.
    pub(super) fn defer(&mut self, m: Move) {
        let place = self.loaded();
        self.pending.push((m, place));
    }

    /// How many moves were loaded so far (while loading, none was dropped or scored yet).
    fn loaded(&self) -> usize {
        self.entries.len() + self.pending.len()
    }

    /// Loads `moves` (quiescence search's evasions), ordered by MVV-LVA alone.
    pub fn tactical(&mut self, moves: &MoveList) {
        self.reset(None);
        for &m in moves {
            self.push(m, tactical_key(m));
        }
    }

    /// Loads the captures and promotions of `pos`, which is not in check, and with `checks`
    /// then its quiet checks, ordered by MVV-LVA alone (for quiescence search).
    pub fn captures(&mut self, pos: &Chess, checks: bool) {
        self.reset(None);
        tactical_moves(pos, |m| self.push(m, tactical_key(m)));
        if checks {
            quiet_checks(pos, &Checks::new(pos), |m| self.push(m, tactical_key(m)));
        }
    }

    /// Leaves out the quiet moves not handed out yet, but those `keep` accepts: once a node
    /// skips its remaining quiet moves, they are neither scored nor picked.
    pub fn drop_quiets(&mut self, mut keep: impl FnMut(Move) -> bool) {
        self.pending.retain(|&(m, _)| keep(m));
        let mut kept = self.next;
        for i in self.next..self.entries.len() {
            let m = self.entries[i].0;
            if is_tactical(m) || keep(m) {
                self.entries.swap(kept, i);
                kept += 1;
            }
        }
        self.entries.truncate(kept);
    }

    /// The next move, best key first, scoring the quiet moves by `tables` when they are due.
    pub fn next(&mut self, tables: &OrderingTables) -> Option<Move> {
        if let Some(first) = self.first.take() {
            return Some(first);
        }
        let mut best = self.best();
        let quiets_due = best.is_none_or(|i| self.entries[i].1 < ranked(QUIET_FLOOR, 0));
        if quiets_due && self.quiets_later {
            self.quiets_later = false;
            return None;
        }
        if quiets_due && !self.pending.is_empty() {
            let rows = tables.continuation_rows(self.turn, self.lineage);
            for &(m, place) in &self.pending {
                self.entries.push((m, ranked(tables.quiet_key(self.turn, m, rows), place)));
            }
            self.pending.clear();
            best = self.best();
        }
        let best = best?;
        self.entries.swap(self.next, best);
        self.next += 1;
        Some(self.entries[self.next - 1].0)
    }

    /// Where the best of the moves not handed out yet is.
    fn best(&self) -> Option<usize> {
        let rest = self.entries.get(self.next..).filter(|rest| !rest.is_empty())?;
        let mut best = 0;
        for (i, entry) in rest.iter().enumerate().skip(1) {
            if entry.1 > rest[best].1 {
                best = i;
            }
        }
        Some(self.next + best)
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{CastlingMode, Chess, Position, fen::Fen};

    use super::*;

    /// Every move `picker` hands out, in order.
    fn drain(picker: &mut MovePicker, tables: &OrderingTables) -> Vec<Move> {
        std::iter::from_fn(|| picker.next(tables)).collect()
    }

    #[test]
    fn lazy_scoring_hands_out_the_order_of_scoring_everything_at_once() {
        let fen: Fen =
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1".parse().expect("FEN");
        let pos: Chess = fen.into_position(CastlingMode::Standard).expect("legal");
        let moves = pos.legal_moves();
        let mut tables = OrderingTables::default();
        let lineage = Lineage::default();
        // Some history, so the quiet moves are not all equal, and some ties left.
        let quiets: Vec<Move> = moves.iter().copied().filter(|m| !is_tactical(*m)).collect();
        for (i, &m) in quiets.iter().enumerate().step_by(3) {
            tables.reward(Color::White, m, &quiets[..i], lineage, 20, 1 + i as i32 % 4);
        }
        let mut picker = MovePicker::default();
        picker.reset(None);
        tables.order(&mut picker, &pos, &moves, 3, lineage, None);
        let lazy = drain(&mut picker, &tables);
        // Every move scored up front, sorted by key, ties in generation order.
        let rows = tables.continuation_rows(Color::White, lineage);
        let mut eager: Vec<(usize, Move, i32)> = moves
            .iter()
            .enumerate()
            .map(|(i, &m)| {
                let key = if is_tactical(m) {
                    OrderingTables::capture_key(&pos, m)
                } else {
                    tables.quiet_key(Color::White, m, rows)
                };
                (i, m, key)
            })
            .collect();
        eager.sort_by_key(|&(i, _, key)| (std::cmp::Reverse(key), i));
        let eager: Vec<Move> = eager.into_iter().map(|(_, m, _)| m).collect();
        assert_eq!(lazy.len(), moves.len());
        assert_eq!(lazy, eager);
    }

    #[test]
    fn dropped_quiets_are_not_handed_out_but_kept_ones_and_captures_are() {
        let fen: Fen = "4k3/8/8/3q4/4P3/8/1r6/R3K3 w - - 0 1".parse().expect("FEN");
        let pos: Chess = fen.into_position(CastlingMode::Standard).expect("legal");
        let tables = OrderingTables::default();
        let moves = pos.legal_moves();
        let mut picker = MovePicker::default();
        picker.reset(None);
        tables.order(&mut picker, &pos, &moves, 0, Lineage::default(), None);
        let first = picker.next(&tables).expect("a move");
        assert!(first.is_capture(), "the best capture first: {first}");
        let checks = |m: Move| pos.clone().play(m).expect("legal").is_check();
        picker.drop_quiets(checks);
        let rest = drain(&mut picker, &tables);
        let expected: Vec<Move> =
            moves.iter().copied().filter(|&m| m != first && (is_tactical(m) || checks(m))).collect();
        assert_eq!(rest.len(), expected.len(), "{rest:?}");
        assert!(expected.iter().all(|m| rest.contains(m)));
        assert!(rest.iter().any(|m| !is_tactical(*m)), "a quiet check is kept");
    }
}
