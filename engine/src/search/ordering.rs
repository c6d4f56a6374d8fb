//! Move ordering: the transposition table's move first (handed out by [`MovePicker::reset`]
//! before the other moves are even generated), then captures that do not lose
//! material by MVV-LVA, then killer moves and the counter-move, then quiet moves by their
//! history score, and losing captures (by static exchange evaluation) last.

use shakmaty::{Chess, Color, Move, MoveList, Position, Role};

use super::params::{HISTORY_BONUS_MAX, HISTORY_LIMIT, MAX_PLY};
use super::see::see;

/// Base ordering key of captures and promotions.
const CAPTURE: i32 = 2_000_000;
/// Ordering key of the first killer move; the second one gets one less.
const KILLER: i32 = 1_000_000;
/// Ordering key of the counter-move to the previous move.
const COUNTER: i32 = KILLER - 2;
/// Base ordering key of captures that lose material: after every quiet move.
const BAD_CAPTURE: i32 = -2_000_000;

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
fn tactical_key(m: Move) -> i32 {
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
}

impl Default for OrderingTables {
    fn default() -> Self {
        OrderingTables {
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; 2 * 64 * 64],
            counters: vec![None; 6 * 64],
        }
    }
}

impl OrderingTables {
    /// Forgets everything learned.
    pub fn clear(&mut self) {
        self.killers.fill([None; 2]);
        self.history.fill(0);
        self.counters.fill(None);
    }

    /// Forgets the killers, which belong to one search's plies; history is kept.
    pub fn new_search(&mut self) {
        self.killers.fill([None; 2]);
        for h in &mut self.history {
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
        prev: Option<Move>,
        ply: usize,
        depth: i32,
    ) {
        if let Some(prev) = prev {
            self.counters[counter_index(prev)] = Some(m);
        }
        if let Some(killers) = self.killers.get_mut(ply)
            && killers[0] != Some(m)
        {
            killers[1] = killers[0];
            killers[0] = Some(m);
        }
        let bonus = (depth * depth * 16).min(HISTORY_BONUS_MAX);
        self.adjust(color, m, bonus);
        for &f in failed {
            self.adjust(color, f, -bonus);
        }
    }

    /// Moves a history score by `delta`, less so the nearer it is to the limit in that
    /// direction, so scores stay within the limit and recent results count most.
    fn adjust(&mut self, color: Color, m: Move, delta: i32) {
        let entry = &mut self.history[Self::history_index(color, m)];
        *entry += delta - *entry * delta.abs() / HISTORY_LIMIT;
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

    /// The ordering key of `m` at `ply`; higher is searched first.
    fn key(&self, pos: &Chess, m: Move, ply: usize, counter: Option<Move>) -> i32 {
        if is_tactical(m) {
            let key = tactical_key(m);
            if loses_material(pos, m) { key - CAPTURE + BAD_CAPTURE } else { key }
        } else if self.killers.get(ply).is_some_and(|k| k[0] == Some(m)) {
            KILLER
        } else if self.killers.get(ply).is_some_and(|k| k[1] == Some(m)) {
            KILLER - 1
        } else if counter == Some(m) {
            COUNTER
        } else {
            self.history[Self::history_index(pos.turn(), m)]
        }
    }

    /// Loads `picker` with `moves` of `pos`, ordered for searching at `ply`, `prev` being
    /// the move that led there.
    pub fn order(
        &self,
        picker: &mut MovePicker,
        pos: &Chess,
        moves: &MoveList,
        ply: usize,
        prev: Option<Move>,
    ) {
        let counter = prev.and_then(|p| self.counters[counter_index(p)]);
        picker.entries.clear();
        picker.entries.extend(moves.iter().map(|&m| (m, self.key(pos, m, ply, counter))));
        picker.next = 0;
    }
}

/// Hands out moves best key first, sorting lazily since most nodes cut off early. One picker
/// per ply is reused from node to node, so that ordering allocates nothing.
#[derive(Default)]
pub struct MovePicker {
    entries: Vec<(Move, i32)>,
    next: usize,
    /// A move handed out before all others, such as the transposition table's move.
    first: Option<Move>,
}

impl MovePicker {
    /// Empties the picker, leaving only `first` to hand out until moves are loaded.
    pub fn reset(&mut self, first: Option<Move>) {
        self.entries.clear();
        self.next = 0;
        self.first = first;
    }

    /// Loads the captures and promotions `moves`, ordered by MVV-LVA alone (for quiescence
    /// search).
    pub fn tactical(&mut self, moves: &MoveList) {
        self.reset(None);
        self.entries.extend(moves.iter().map(|&m| (m, tactical_key(m))));
    }
}

impl Iterator for MovePicker {
    type Item = Move;

    fn next(&mut self) -> Option<Move> {
        if let Some(first) = self.first.take() {
            return Some(first);
        }
        let start = self.next;
        let rest = self.entries.get(start..)?;
        let mut best = 0;
        for (i, entry) in rest.iter().enumerate().skip(1) {
            // A strict comparison keeps generation order among equal keys: deterministic.
            if entry.1 > rest[best].1 {
                best = i;
            }
        }
        let chosen = rest.first()?.0;
        let chosen = if best == 0 {
            chosen
        } else {
            self.entries.swap(start, start + best);
            self.entries[start].0
        };
        self.next += 1;
        Some(chosen)
    }
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
        tables.order(&mut picker, &pos, &moves, 0, None);
        assert_eq!(picker.next(), Some(quiet));
        let second = picker.next().expect("more moves");
        assert_eq!(second.capture(), Some(Role::Queen));
    }
}
