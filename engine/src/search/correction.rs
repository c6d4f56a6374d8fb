//! Correction history: how far the static evaluation missed what the search found, learned
//! per pawn structure and per each side's pieces, and added to the evaluation the search
//! prunes with. A position whose pawn structure the network misjudges in this game is then
//! misjudged less at the next node with that structure.
//!
//! Each table holds, per side to move, a correction in sixteenths of a centipawn that moves
//! towards the residual miss of the corrected evaluation, with the history's gravity (a
//! step shrinks as the entry nears its limit). Only results that bound the node's value on
//! the far side of the evaluation teach it: a fail-high above the evaluation, a fail-low
//! below it, or an exact score, at a node not in check whose best move is quiet (a capture's
//! gain is the capture's, not the position's).

use shakmaty::{Bitboard, Board, Chess, Color, Move, Position};

use super::ordering::is_tactical;
use super::params::TB_BOUND;
use super::tt::Bound;

/// Entries per side to move in each table (a power of two).
const ENTRIES: usize = 1 << 14;

/// Sixteenths of a centipawn per unit of correction.
const GRAIN: i32 = 16;

/// The largest magnitude of an entry, in sixteenths of a centipawn.
const LIMIT: i32 = 64 * GRAIN;

/// The largest step of one update, in sixteenths of a centipawn.
const MAX_STEP: i32 = LIMIT / 4;

/// One table: a correction per side to move and key.
#[derive(Clone)]
struct Table(Vec<i16>);

impl Default for Table {
    fn default() -> Self {
        Table(vec![0; 2 * ENTRIES])
    }
}

impl Table {
    /// The key's low bits pick the entry. After `mix` they miss part of the board (the pawn
    /// key ignores Black's pawns from d6 up, so 1...d6 shares the start's entry); indexing
    /// by the top bits, which see every square, measured -7.2 ± 8.0 Elo over 4000 games at
    /// fixed nodes (docs/STRENGTH.md, session 47), so the coarser index stays.
    fn index(turn: Color, key: u64) -> usize {
        (key as usize & (ENTRIES - 1)) + if turn == Color::White { 0 } else { ENTRIES }
    }

    fn get(&self, turn: Color, key: u64) -> i32 {
        i32::from(self.0[Self::index(turn, key)])
    }

    fn update(&mut self, turn: Color, key: u64, step: i32) {
        let entry = &mut self.0[Self::index(turn, key)];
        let value = i32::from(*entry);
        let next = value + step - value * step.abs() / LIMIT;
        *entry = next.clamp(-LIMIT, LIMIT) as i16;
    }

    fn clear(&mut self) {
        self.0.fill(0);
    }
}

/// The keys of a position in the correction tables.
#[derive(Clone, Copy)]
pub struct Keys {
    pawns: u64,
    /// Each side's pieces but pawns, White's first.
    pieces: [u64; 2],
}

impl Keys {
    /// The keys of `pos`.
    #[must_use]
    pub fn of(pos: &Chess) -> Keys {
        let board = pos.board();
        let pawns = board.pawns();
        Keys {
            pawns: mix(mix(0, pawns & board.white()), pawns & board.black()),
            pieces: [Color::White, Color::Black].map(|color| pieces_key(board, color)),
        }
    }
}

/// A hash of `color`'s pieces other than pawns.
fn pieces_key(board: &Board, color: Color) -> u64 {
    let ours = board.by_color(color);
    [board.knights(), board.bishops(), board.rooks(), board.queens(), board.kings()]
        .into_iter()
        .fold(0, |key, pieces| mix(key, pieces & ours))
}

/// Folds `bits` into `key`: a multiply-xorshift mix, enough to spread bitboards over a
/// table's index bits.
fn mix(key: u64, bits: Bitboard) -> u64 {
    let x = (key ^ u64::from(bits)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x ^ (x >> 29)
}

/// Whether a search result `score` of `bound` kind, at a node not in check whose corrected
/// evaluation was `eval` and whose best move was `best`, teaches the correction history: a
/// result on the evaluation's far side, neither a mate nor a tablebase value, and for a
/// fail-high or an exact score, a quiet best move.
#[must_use]
pub fn teaches(bound: Bound, score: i32, eval: i32, best: Option<Move>) -> bool {
    let far_side = match bound {
        Bound::Lower => score > eval,
        Bound::Upper => score < eval,
        Bound::Exact => true,
    };
    far_side && score.abs() < TB_BOUND && (bound == Bound::Upper || best.is_none_or(|m| !is_tactical(m)))
}

/// The correction tables of one search thread, kept between searches of a game.
#[derive(Clone, Default)]
pub struct CorrectionHistory {
    pawns: Table,
    /// Indexed by the colour whose pieces form the key.
    pieces: [Table; 2],
}

impl CorrectionHistory {
    /// The correction, in centipawns, to the static evaluation of a position with `keys`
    /// and `turn` to move.
    #[must_use]
    pub fn correction(&self, turn: Color, keys: Keys) -> i32 {
        let sum = 2 * self.pawns.get(turn, keys.pawns)
            + self.pieces[0].get(turn, keys.pieces[0])
            + self.pieces[1].get(turn, keys.pieces[1]);
        sum / (2 * GRAIN)
    }

    /// Learns from a search of `depth` plies that found `score` where the corrected static
    /// evaluation said `eval`, at a node with `keys` and `turn` to move. The caller decides
    /// whether the result teaches anything (see the module's documentation).
    pub fn learn(&mut self, turn: Color, keys: Keys, depth: i32, score: i32, eval: i32) {
        let step = ((score - eval) * depth / 8).clamp(-MAX_STEP, MAX_STEP);
        self.pawns.update(turn, keys.pawns, step);
        self.pieces[0].update(turn, keys.pieces[0], step);
        self.pieces[1].update(turn, keys.pieces[1], step);
    }

    /// Forgets every correction.
    pub fn clear(&mut self) {
        self.pawns.clear();
        self.pieces.iter_mut().for_each(Table::clear);
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{CastlingMode, fen::Fen};

    use super::*;

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
    }

    #[test]
    fn repeated_misses_pull_the_correction_towards_them_and_no_further() {
        let pos = position("4k3/pp3ppp/8/8/8/8/PPP2PPP/4K3 w - - 0 1");
        let keys = Keys::of(&pos);
        let mut history = CorrectionHistory::default();
        let raw = 10;
        for _ in 0..500 {
            let eval = raw + history.correction(Color::White, keys);
            history.learn(Color::White, keys, 8, raw + 50, eval);
        }
        let learned = history.correction(Color::White, keys);
        assert!((40..=50).contains(&learned), "{learned}");
        // The other side to move learned nothing.
        assert_eq!(history.correction(Color::Black, keys), 0);
    }

    #[test]
    fn corrections_stay_within_the_limit() {
        let keys = Keys::of(&Chess::default());
        let mut history = CorrectionHistory::default();
        for _ in 0..1000 {
            history.learn(Color::Black, keys, 30, -20_000, 0);
        }
        // Each table at its limit; the pawns' counts twice, as much as the two others.
        assert_eq!(history.correction(Color::Black, keys), -2 * LIMIT / GRAIN);
        history.clear();
        assert_eq!(history.correction(Color::Black, keys), 0);
    }

    #[test]
    fn a_pawn_move_changes_the_pawn_key_and_a_piece_move_the_pieces_key() {
        let start = Keys::of(&Chess::default());
        let e4 = Keys::of(&position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"));
        let nf3 = Keys::of(&position("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1"));
        assert_ne!(start.pawns, e4.pawns);
        assert_eq!(start.pieces, e4.pieces);
        assert_eq!(start.pawns, nf3.pawns);
        assert_ne!(start.pieces[0], nf3.pieces[0]);
        assert_eq!(start.pieces[1], nf3.pieces[1]);
    }
}
