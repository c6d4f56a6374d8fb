//! Material and piece-square tables (PeSTO's figures), with the game phase they imply.

use shakmaty::{Board, Color, Role};

use super::masks::index;
use super::tables::{EG_PST, MG_PST, PHASE_WEIGHT};
use super::tapered::{Tapered, s};
use super::trace::{Term, Trace};
use super::weights::PIECE_VALUE;

/// Piece value plus square bonus, indexed by colour (White first), role and square (a1 = 0).
type Table = [[[Tapered; 64]; 6]; 2];

/// Builds the combined table from the values and diagrams of both game stages.
const fn build() -> Table {
    let mut table = [[[Tapered::ZERO; 64]; 6]; 2];
    let mut role = 0;
    while role < 6 {
        let mut sq = 0;
        while sq < 64 {
            // The diagrams start at rank 8, so White reads them with the rank flipped.
            let white = sq ^ 56;
            let value = PIECE_VALUE[role];
            table[0][role][sq] = s(value.mg + MG_PST[role][white], value.eg + EG_PST[role][white]);
            table[1][role][sq] = s(value.mg + MG_PST[role][sq], value.eg + EG_PST[role][sq]);
            sq += 1;
        }
        role += 1;
    }
    table
}

/// Values of every piece on every square.
static PSQT: Table = build();

/// Material and square bonuses of `color`'s pieces, and the phase they add to the game.
#[must_use]
pub fn psqt(board: &Board, color: Color, trace: &mut impl Trace) -> (Tapered, i32) {
    let ci = index(color);
    let ours = board.by_color(color);
    let mut score = Tapered::ZERO;
    let mut phase = 0;
    for (ri, role) in Role::ALL.into_iter().enumerate() {
        let pieces = board.by_role(role) & ours;
        trace.add(color, Term::PieceValue, ri, pieces.count() as f64);
        for sq in pieces {
            score += PSQT[ci][ri][sq.to_usize()];
            phase += PHASE_WEIGHT[ri];
        }
    }
    (score, phase)
}
