//! Static evaluation: material plus piece-square tables, blended between middlegame and
//! endgame by the material left on the board (a "tapered" evaluation with PeSTO's figures).

mod tables;

use shakmaty::{Board, Chess, Color, Position, Role};

use tables::{EG_PST, EG_VALUE, MG_PST, MG_VALUE, PHASE_WEIGHT};

/// The game phase of a full set of pieces; fewer pieces mean a more endgame-like blend.
const MAX_PHASE: i32 = 24;

/// Piece value plus square bonus, indexed by colour (White first), role and square (a1 = 0).
type Table = [[[i32; 64]; 6]; 2];

/// Builds a combined table for one game stage from its values and diagrams.
const fn build(values: [i32; 6], pst: [[i32; 64]; 6]) -> Table {
    let mut table = [[[0; 64]; 6]; 2];
    let mut role = 0;
    while role < 6 {
        let mut sq = 0;
        while sq < 64 {
            // The diagrams start at rank 8, so White reads them with the rank flipped.
            table[0][role][sq] = values[role] + pst[role][sq ^ 56];
            table[1][role][sq] = values[role] + pst[role][sq];
            sq += 1;
        }
        role += 1;
    }
    table
}

/// Middlegame values of every piece on every square.
static MG: Table = build(MG_VALUE, MG_PST);
/// Endgame values of every piece on every square.
static EG: Table = build(EG_VALUE, EG_PST);

/// Evaluates `pos` in centipawns from the point of view of the side to move.
///
/// ```
/// use kibitz_engine::evaluate;
/// use shakmaty::Chess;
/// assert!(evaluate(&Chess::default()).abs() < 50);
/// ```
#[must_use]
pub fn evaluate(pos: &Chess) -> i32 {
    let white = evaluate_white(pos.board());
    match pos.turn() {
        Color::White => white,
        Color::Black => -white,
    }
}

/// Evaluates a board in centipawns from White's point of view.
fn evaluate_white(board: &Board) -> i32 {
    let mut mg = 0;
    let mut eg = 0;
    let mut phase = 0;
    for (ci, color) in [Color::White, Color::Black].into_iter().enumerate() {
        let sign = if ci == 0 { 1 } else { -1 };
        let ours = board.by_color(color);
        for (ri, role) in Role::ALL.into_iter().enumerate() {
            for sq in board.by_role(role) & ours {
                mg += sign * MG[ci][ri][sq.to_usize()];
                eg += sign * EG[ci][ri][sq.to_usize()];
                phase += PHASE_WEIGHT[ri];
            }
        }
    }
    let phase = phase.min(MAX_PHASE);
    (mg * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE
}

#[cfg(test)]
mod tests {
    use shakmaty::{CastlingMode, Chess, fen::Fen};

    use super::*;

    fn pos(fen: &str) -> Chess {
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
}
