//! Static evaluation: material and piece-square tables (PeSTO's figures) plus classical terms
//! (mobility, pawn structure with passed pawns weighed by the kings' distances, bishop pair,
//! rook files, threats against pieces, king safety as a quadratic king danger) and a tempo for
//! the side to move, each a middlegame/endgame pair blended by the material left on the board
//! (a "tapered" evaluation). The weights are in `eval/weights.rs`; `eval/trace.rs` exposes the
//! evaluation as a linear model of them for the tuner (`engine/examples/tune.rs`); the king
//! danger, being quadratic, is outside that model and counts as fixed there, as is the push of
//! a bare king to the edge (`eval/mop_up.rs`).

mod attacks;
mod breakdown;
mod king_safety;
mod masks;
mod mobility;
mod mop_up;
mod pawns;
mod pieces;
mod psqt;
mod tables;
mod tapered;
mod threats;
mod trace;
mod weights;

pub use breakdown::{Breakdown, EvalPart, breakdown};
pub use trace::{EvalTrace, Term, current_weights, trace};

use shakmaty::{Board, Chess, Color, Position};

use attacks::{Attacks, KingAttack};
use king_safety::king_safety;
use mobility::mobility;
use pawns::pawn_structure;
use pieces::pieces;
use psqt::psqt;
use tapered::Tapered;
use threats::threats;
use trace::Trace;
use weights::TEMPO;

/// The game phase of a full set of pieces; fewer pieces mean a more endgame-like blend.
const MAX_PHASE: i32 = 24;

/// Evaluates `pos` in centipawns from the point of view of the side to move.
///
/// ```
/// use kibitz_engine::evaluate;
/// use shakmaty::Chess;
/// assert!(evaluate(&Chess::default()).abs() < 50);
/// ```
#[must_use]
pub fn evaluate(pos: &Chess) -> i32 {
    let (score, phase) = score_white(pos, &mut ());
    let white = score.blend(phase, MAX_PHASE);
    match pos.turn() {
        Color::White => white,
        Color::Black => -white,
    }
}

/// The unblended score of `pos` from White's point of view with the side to move's tempo, and
/// the game phase.
fn score_white(pos: &Chess, trace: &mut impl Trace) -> (Tapered, i32) {
    let (score, phase) = board_score(pos.board(), trace);
    trace.add(pos.turn(), trace::Term::Tempo, 0, 1.0);
    let tempo = match pos.turn() {
        Color::White => TEMPO,
        Color::Black => -TEMPO,
    };
    let lone_king = mop_up::mop_up(pos.board());
    (score + tempo + Tapered { mg: lone_king, eg: lone_king }, phase)
}

/// The unblended score of a board from White's point of view, and the game phase.
fn board_score(board: &Board, trace: &mut impl Trace) -> (Tapered, i32) {
    let (white, white_phase) = psqt(board, Color::White, trace);
    let (black, black_phase) = psqt(board, Color::Black, trace);
    let (white_mobility, on_black_king, white_attacks) = mobility(board, Color::White, trace);
    let (black_mobility, on_white_king, black_attacks) = mobility(board, Color::Black, trace);
    let score = white - black + white_mobility - black_mobility
        + terms(board, Color::White, on_white_king, &white_attacks, &black_attacks, trace)
        - terms(board, Color::Black, on_black_king, &black_attacks, &white_attacks, trace)
        + threats(board, Color::White, &white_attacks, &black_attacks, trace)
        - threats(board, Color::Black, &black_attacks, &white_attacks, trace);
    (score, (white_phase + black_phase).min(MAX_PHASE))
}

/// The classical terms for one side beyond material, piece-square tables and mobility;
/// `attack` is the enemy pieces found attacking its king, `ours` and `theirs` the squares each
/// side's pieces attack.
fn terms(
    board: &Board,
    color: Color,
    attack: KingAttack,
    ours: &Attacks,
    theirs: &Attacks,
    trace: &mut impl Trace,
) -> Tapered {
    pawn_structure(board, color, trace)
        + pieces(board, color, trace)
        + king_safety(board, color, attack, ours, theirs, trace)
}

/// Evaluates a board in centipawns from White's point of view, without the tempo.
#[cfg(test)]
fn evaluate_white(board: &Board) -> i32 {
    let (score, phase) = board_score(board, &mut ());
    score.blend(phase, MAX_PHASE)
}

/// The board of a FEN, for the evaluation terms' tests.
#[cfg(test)]
fn test_board(fen: &str) -> shakmaty::Board {
    let fen: shakmaty::fen::Fen = fen.parse().expect("test FEN parses");
    let pos: Chess = fen.into_position(shakmaty::CastlingMode::Standard).expect("test FEN is legal");
    pos.board().clone()
}

#[cfg(test)]
mod tests {
    use shakmaty::{CastlingMode, Chess, EnPassantMode, PositionError, fen::Fen};

    use super::*;

    pub(super) fn pos(fen: &str) -> Chess {
        let fen: Fen = fen.parse().expect("test FEN parses");
        fen.into_position(CastlingMode::Standard).expect("test FEN is legal")
    }

    #[test]
    fn start_position_is_symmetric() {
        let start = Chess::default();
        assert_eq!(evaluate_white(start.board()), 0);
    }

    #[test]
    fn mirrored_positions_score_the_same_for_the_side_to_move() {
        let white = pos("4k3/8/8/8/8/8/4P3/4KQ2 w - - 0 1");
        let black = pos("4kq2/4p3/8/8/8/8/8/4K3 b - - 0 1");
        assert_eq!(evaluate(&white), evaluate(&black));
        assert!(evaluate(&white) > 800);
    }

    #[test]
    fn extra_material_is_good() {
        let up_a_rook = pos("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        assert!(evaluate(&up_a_rook) > 400);
        let down_a_rook = pos("4k3/8/8/8/8/8/8/R3K3 b - - 0 1");
        assert!(evaluate(&down_a_rook) < -400);
    }

    /// The perft suite: a varied sample of legal positions.
    const STANDARD: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/perft/standard.epd");

    /// `pos` with the board flipped top to bottom, the colours swapped and the other side to move.
    fn mirrored(pos: &Chess) -> Chess {
        let setup = pos.to_setup(EnPassantMode::Legal).into_mirrored();
        setup
            .position(CastlingMode::Standard)
            .or_else(PositionError::ignore_impossible_check)
            .expect("a mirrored suite position is valid")
    }

    #[test]
    fn mirrored_perft_positions_score_the_same() {
        let text = std::fs::read_to_string(STANDARD).expect("data/perft/standard.epd is readable");
        let mut checked = 0;
        for line in text.lines().filter(|line| !line.trim().is_empty()) {
            let fen = line.split(';').next().unwrap_or_default().trim();
            // A few suite positions have checks that no legal move could give; they are fine here.
            let parsed: Fen = fen.parse().expect("suite FEN parses");
            let pos: Chess = parsed
                .into_position(CastlingMode::Standard)
                .or_else(PositionError::ignore_impossible_check)
                .expect("suite position is valid");
            let flipped = mirrored(&pos);
            assert_eq!(evaluate(&pos), evaluate(&flipped), "{fen}");
            assert_eq!(evaluate_white(pos.board()), -evaluate_white(flipped.board()), "{fen}");
            checked += 1;
        }
        assert!(checked > 100, "only {checked} positions");
    }

    #[test]
    fn a_far_advanced_passed_pawn_is_worth_more() {
        let sixth = pos("4k3/8/2P5/8/8/8/8/4K3 w - - 0 1");
        let third = pos("4k3/8/8/8/8/2P5/8/4K3 w - - 0 1");
        assert!(evaluate(&sixth) > evaluate(&third) + 50);
    }

    #[test]
    fn a_doubled_isolated_structure_is_worse() {
        let healthy = pos("4k3/ppp5/8/8/8/8/PPP5/4K3 w - - 0 1");
        let broken = pos("4k3/ppp5/8/8/8/P7/P1P5/4K3 w - - 0 1");
        assert!(evaluate(&healthy) > evaluate(&broken));
    }

    #[test]
    fn a_king_with_a_pawn_shield_is_safer() {
        let shielded = pos("r2q1rk1/ppp2ppp/8/8/8/8/PPP2PPP/R2Q1RK1 w - - 0 1");
        let stripped = pos("r2q1rk1/ppp2ppp/8/8/8/5P1P/PPP3P1/R2Q1RK1 w - - 0 1");
        assert!(evaluate(&shielded) > evaluate(&stripped));
    }
}
