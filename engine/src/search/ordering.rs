//! Move ordering: the transposition table's move first (handed out by [`MovePicker::reset`]
//! before the other moves are even generated), then captures that do not lose
//! material by MVV-LVA, then killer moves and the counter-move, then quiet moves by their
//! history score plus their continuation history after the moves one and two plies before
//! (scored only when the picker reaches them, and out of check generated only then), and
//! losing captures (by static exchange evaluation) last.

use shakmaty::{Bitboard, Chess, Color, Move, MoveList, Position, Role};

use super::check::Checks;
use super::generation::{is_legal_out_of_check, quiet_checks, quiet_moves, tactical_moves};
use super::params::{HISTORY_BONUS_MAX, HISTORY_LIMIT, MAX_PLY};
use super::picker::MovePicker;
use super::see::see;

/// Base ordering key of captures and promotions.
const CAPTURE: i32 = 2_000_000;
/// Ordering key of the first killer move; the second one gets one less.
const KILLER: i32 = 1_000_000;
/// Ordering key of the counter-move to the previous move.
const COUNTER: i32 = KILLER - 2;
/// Base ordering key of captures that lose material: after every quiet move.
const BAD_CAPTURE: i32 = -2_000_000;
/// Every quiet move's key is above this (history and continuation history stay within
/// `3 × HISTORY_LIMIT`), every losing capture's below: the picker scores the quiet moves once
/// nothing above it is left.
pub(super) const QUIET_FLOOR: i32 = BAD_CAPTURE / 2;

/// The value of a role for MVV-LVA, pawn to king.
fn role_value(role: Role) -> i32 {
    match role {
        Role::Pawn => 1,
        Role::Knight => 3,
        Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 20,
    }
}

/// The MVV-LVA key of a capture or promotion: the most valuable victim first, then the
/// least valuable attacker.
pub(super) fn tactical_key(m: Move) -> i32 {
    let victim = m.capture().map_or(0, role_value);
    let promotion = m.promotion().map_or(0, role_value);
    CAPTURE + (victim + promotion) * 100 - role_value(m.role())
}

/// Whether a move changes material (and so belongs in quiescence search).
#[must_use]
pub fn is_tactical(m: Move) -> bool {
    m.is_capture() || m.promotion().is_some()
}

/// Whether the capture or promotion `m` may lose material: only when the attacker is worth
/// more than what it takes is the exchange evaluated.
#[must_use]
pub fn loses_material(pos: &Chess, m: Move) -> bool {
    let victim = m.capture().map_or(0, role_value) + m.promotion().map_or(0, role_value);
    role_value(m.role()) > victim && see(pos, m) < 0
}

/// Where the counter-move to `m` is kept.
fn counter_index(m: Move) -> usize {
    (m.role() as usize - 1) * 64 + m.to().to_usize()
}

/// Killer moves and the history table, learned during search and kept between searches.
pub struct OrderingTables {
    killers: Vec<[Option<Move>; 2]>,
    history: Vec<i32>,
    /// The quiet move that last refuted each move, by the refuted move's role and target.
    counters: Vec<Option<Move>>,
    /// Continuation history: how often a quiet move (by piece and target) cut off after a
    /// move one or two plies earlier (by piece and target), 768 × 768 entries. +28.1 [+17.2,
    /// +39.1] over 2166 games at 20,000 nodes a move (docs/STRENGTH.md, session 39). Its scores
    /// stay within `HISTORY_LIMIT` as the history's do, so 16 bits hold them.
    continuation: Vec<i16>,
}

/// The index of `m`, played by `color`, among the 768 pieces on targets.
fn piece_target(color: Color, m: Move) -> usize {
    (usize::from(color == Color::Black) * 6 + m.role() as usize - 1) * 64 + m.to().to_usize()
}

/// `value` moved by `delta`, less so the nearer it is to `HISTORY_LIMIT` in that direction,
/// so scores stay within the limit and recent results count most.
fn gravity(value: i32, delta: i32) -> i32 {
    value + delta - value * delta.abs() / HISTORY_LIMIT
}

/// The continuation score of the quiet move `m` by `color` in the `rows` its lineage reads.
fn continuation_score(rows: [Option<&[i16]>; 2], color: Color, m: Move) -> i32 {
    let target = piece_target(color, m);
    rows.iter().flatten().map(|row| i32::from(row[target])).sum()
}

/// The moves one and two plies before a node, each with the side that played it; either is
/// `None` at the root's first plies or after a null move.
#[derive(Clone, Copy, Default)]
pub struct Lineage {
    /// The move that led to the node (played by the side not to move).
    pub prev: Option<Move>,
    /// The move before that (played by the side to move).
    pub prev2: Option<Move>,
}

impl Default for OrderingTables {
    fn default() -> Self {
        OrderingTables {
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; 2 * 64 * 64],
            counters: vec![None; 6 * 64],
            continuation: vec![0; 768 * 768],
        }
    }
}

impl OrderingTables {
    /// Forgets everything learned.
    pub fn clear(&mut self) {
        self.killers.fill([None; 2]);
        self.history.fill(0);
        self.counters.fill(None);
        self.continuation.fill(0);
    }

    /// Forgets the killers, which belong to one search's plies; history is kept.
    pub fn new_search(&mut self) {
        self.killers.fill([None; 2]);
        for h in &mut self.history {
            *h /= 2;
        }
        for h in &mut self.continuation {
            *h /= 2;
        }
    }

    fn history_index(color: Color, m: Move) -> usize {
        let from = m.from().map_or(0, |sq| sq.to_usize());
        let side = usize::from(color == Color::Black);
        (side * 64 + from) * 64 + m.to().to_usize()
    }

    /// Records that the quiet move `m`, played in reply to `prev`, caused a beta cutoff at
    /// `ply` with `depth` to go, after the quiet moves `failed` were tried in vain.
    pub fn reward(
        &mut self,
        color: Color,
        m: Move,
        failed: &[Move],
        lineage: Lineage,
        ply: usize,
        depth: i32,
    ) {
        if let Some(prev) = lineage.prev {
            self.counters[counter_index(prev)] = Some(m);
        }
        if let Some(killers) = self.killers.get_mut(ply)
            && killers[0] != Some(m)
        {
            killers[1] = killers[0];
            killers[0] = Some(m);
        }
        let bonus = (depth * depth * 16).min(HISTORY_BONUS_MAX);
        self.adjust(color, m, bonus, lineage);
        for &f in failed {
            self.adjust(color, f, -bonus, lineage);
        }
    }

    /// Where the rows of the continuation history that `color`'s moves after `lineage` use
    /// start: one for each move of the lineage, by that move's piece and target.
    fn row_starts(color: Color, lineage: Lineage) -> [Option<usize>; 2] {
        [(lineage.prev, !color), (lineage.prev2, color)]
            .map(|(before, by)| before.map(|b| piece_target(by, b) * 768))
    }

    /// Moves the history and continuation scores of `m` by `color` after `lineage` by `delta`
    /// (see [`gravity`]).
    fn adjust(&mut self, color: Color, m: Move, delta: i32, lineage: Lineage) {
        let entry = &mut self.history[Self::history_index(color, m)];
        *entry = gravity(*entry, delta);
        let target = piece_target(color, m);
        for start in Self::row_starts(color, lineage).into_iter().flatten() {
            let entry = &mut self.continuation[start + target];
            // Within ±HISTORY_LIMIT, so the 16 bits hold it.
            *entry = gravity(i32::from(*entry), delta) as i16;
        }
    }

    /// The history score of the quiet move `m` by `color`.
    #[must_use]
    pub fn history(&self, color: Color, m: Move) -> i32 {
        self.history[Self::history_index(color, m)]
    }

    /// Whether `m` is a killer at `ply` or the counter-move to `prev`.
    #[must_use]
    pub fn is_refutation(&self, m: Move, ply: usize, prev: Option<Move>) -> bool {
        self.killers.get(ply).is_some_and(|k| k.contains(&Some(m)))
            || prev.is_some_and(|p| self.counters[counter_index(p)] == Some(m))
    }

    /// The ordering key of the capture or promotion `m` in `pos`: MVV-LVA, after every quiet
    /// move when it loses material.
    pub(super) fn capture_key(pos: &Chess, m: Move) -> i32 {
        let key = tactical_key(m);
        if loses_material(pos, m) { key - CAPTURE + BAD_CAPTURE } else { key }
    }

    /// The ordering key of the quiet move `m` by `color`: its history plus its continuation
    /// history in the `rows` of its node's lineage.
    pub(super) fn quiet_key(&self, color: Color, m: Move, rows: [Option<&[i16]>; 2]) -> i32 {
        self.history[Self::history_index(color, m)] + continuation_score(rows, color, m)
    }

    /// The rows of the continuation history that `color`'s moves after `lineage` read: one
    /// for each move of the lineage, indexed by the new move's piece and target.
    pub(super) fn continuation_rows(&self, color: Color, lineage: Lineage) -> [Option<&[i16]>; 2] {
        Self::row_starts(color, lineage)
            .map(|start| start.map(|start| &self.continuation[start..start + 768]))
    }

    /// Loads `picker` with `moves` of `pos` but `skip` (searched already), ordered for searching
    /// at `ply`, `lineage` holding the moves that led there: captures, promotions, killers and
    /// the counter-move scored now, the other quiet moves when the picker reaches them.
    pub fn order(
        &self,
        picker: &mut MovePicker,
        pos: &Chess,
        moves: &MoveList,
        ply: usize,
        lineage: Lineage,
        skip: Option<Move>,
    ) {
        let refutations = self.refutations(ply, lineage);
        let targets = targets_of(refutations.map(|(m, _)| m), skip);
        picker.load(pos.turn(), lineage);
        for &m in moves {
            let special = targets.contains(m.to());
            if special && skip == Some(m) {
                continue;
            }
            if is_tactical(m) {
                picker.push(m, Self::capture_key(pos, m));
            } else if special && let Some(&(_, key)) = refutations.iter().find(|(r, _)| *r == Some(m)) {
                picker.push(m, key);
            } else {
                picker.defer(m);
            }
        }
    }

    /// The killers at `ply` and the counter-move to `lineage`'s last move, with their keys.
    fn refutations(&self, ply: usize, lineage: Lineage) -> [(Option<Move>, i32); 3] {
        let counter = lineage.prev.and_then(|p| self.counters[counter_index(p)]);
        let killers = self.killers.get(ply).copied().unwrap_or_default();
        [(killers[0], KILLER), (killers[1], KILLER - 1), (counter, COUNTER)]
    }

    /// The first stage of a node not in check: loads `picker` with the captures and
    /// promotions of `pos` but `skip` (searched already) and with the killers and counter-move
    /// that are legal here, to be searched at `ply` after `lineage`; the other quiet moves
    /// wait for [`OrderingTables::order_quiets`]. Returns the killers and counter-move loaded.
    pub fn order_tactical(
        &self,
        picker: &mut MovePicker,
        pos: &Chess,
        ply: usize,
        lineage: Lineage,
        skip: Option<Move>,
    ) -> [Option<Move>; 3] {
        picker.load(pos.turn(), lineage);
        tactical_moves(pos, |m| {
            if skip != Some(m) {
                picker.push(m, Self::capture_key(pos, m));
            }
        });
        let mut loaded = [None; 3];
        for (i, (m, key)) in self.refutations(ply, lineage).into_iter().enumerate() {
            // A move that is two of them takes the first one's key, as in `order`.
            if let Some(m) = m
                && skip != Some(m)
                && !loaded.contains(&Some(m))
                && is_legal_out_of_check(pos, m)
            {
                picker.push(m, key);
                loaded[i] = Some(m);
            }
        }
        picker.await_quiets();
        loaded
    }

    /// The second stage of a node not in check: loads `picker` with the quiet moves of `pos`
    /// but `skip` and the `refutations` loaded already, or with `only` the node's checks, just
    /// its quiet checks.
    pub fn order_quiets(
        picker: &mut MovePicker,
        pos: &Chess,
        skip: Option<Move>,
        refutations: [Option<Move>; 3],
        only: Option<&Checks>,
    ) {
        let targets = targets_of(refutations, skip);
        let defer = |m: Move| {
            if !targets.contains(m.to()) || (skip != Some(m) && !refutations.contains(&Some(m))) {
                picker.defer(m);
            }
        };
        match only {
            Some(checks) => quiet_checks(pos, checks, defer),
            None => quiet_moves(pos, defer),
        }
    }
}

/// The targets of `refutations` and `skip`: only a move to one of these squares can be one of
/// them, and comparing targets first spares most moves the comparisons of whole moves.
fn targets_of(refutations: [Option<Move>; 3], skip: Option<Move>) -> Bitboard {
    refutations
        .into_iter()
        .chain([skip])
        .flatten()
        .fold(Bitboard::EMPTY, |targets, m| targets | Bitboard::from(m.to()))
}

#[cfg(test)]
mod tests {
    use shakmaty::{CastlingMode, fen::Fen};

    use super::*;

    #[test]
    fn tt_move_then_best_capture_first() {
        let fen: Fen = "4k3/8/8/3q4/4P3/8/1r6/R3K3 w - - 0 1".parse().expect("FEN");
        let pos: Chess = fen.into_position(CastlingMode::Standard).expect("legal");
        let tables = OrderingTables::default();
        let mut moves = pos.legal_moves();
        let quiet = moves.iter().copied().find(|m| !m.is_capture()).expect("a quiet move");
        moves.retain(|m| *m != quiet);
        let mut picker = MovePicker::default();
        picker.reset(Some(quiet));
        tables.order(&mut picker, &pos, &moves, 0, Lineage::default(), None);
        assert_eq!(picker.next(&tables), Some(quiet));
        let second = picker.next(&tables).expect("more moves");
        assert_eq!(second.capture(), Some(Role::Queen));
    }

    /// The continuation history of the quiet move `m` by `color` after `lineage`.
    fn continuation(tables: &OrderingTables, color: Color, m: Move, lineage: Lineage) -> i32 {
        continuation_score(tables.continuation_rows(color, lineage), color, m)
    }

    /// The first quiet move `order` hands out for `pos` at ply 0 after `lineage`.
    fn first_quiet(tables: &OrderingTables, pos: &Chess, lineage: Lineage) -> Move {
        let mut picker = MovePicker::default();
        picker.reset(None);
        tables.order(&mut picker, pos, &pos.legal_moves(), 0, lineage, None);
        std::iter::from_fn(|| picker.next(tables)).find(|m| !is_tactical(*m)).expect("a quiet move")
    }

    #[test]
    fn a_quiet_move_that_cut_off_after_a_move_comes_first_after_it_again() {
        let pos = Chess::default();
        let san = |s: &str| s.parse::<shakmaty::san::San>().expect("SAN").to_move(&pos).expect("legal");
        let (knight, pawn) = (san("Nf3"), san("d4"));
        // Two of Black's moves, as if played two plies back (the side to move's own last move).
        let black = Chess::default().swap_turn().expect("Black to move");
        let black_move =
            |s: &str| s.parse::<shakmaty::san::San>().expect("SAN").to_move(&black).expect("legal");
        let (a, b) = (black_move("e5"), black_move("c5"));
        let after = |m: Move| Lineage { prev: None, prev2: Some(m) };
        let mut tables = OrderingTables::default();
        // Both moves cut off once, at a ply whose killers ordering at ply 0 does not see, so
        // their plain history is the same: only what they followed tells them apart.
        tables.reward(Color::White, knight, &[], after(a), 10, 5);
        tables.reward(Color::White, pawn, &[], after(b), 11, 5);
        assert_eq!(tables.history(Color::White, knight), tables.history(Color::White, pawn));
        assert_eq!(first_quiet(&tables, &pos, after(a)), knight);
        assert_eq!(first_quiet(&tables, &pos, after(b)), pawn);
    }

    #[test]
    fn continuation_scores_stay_within_the_history_limit() {
        let pos = Chess::default();
        let m = pos.legal_moves()[0];
        let lineage = Lineage { prev: Some(m), prev2: Some(m) };
        let mut tables = OrderingTables::default();
        for _ in 0..1_000 {
            tables.reward(Color::White, m, &[], lineage, 10, 20);
        }
        assert_eq!(continuation(&tables, Color::White, m, lineage), 2 * HISTORY_LIMIT);
        for _ in 0..1_000 {
            tables.reward(Color::White, pos.legal_moves()[1], &[m], lineage, 10, 20);
        }
        assert_eq!(continuation(&tables, Color::White, m, lineage), -2 * HISTORY_LIMIT);
    }
}
