//! Mobility: how many squares each knight, bishop, rook and queen can go to. The same pass
//! tallies the pieces that attack the enemy king's zone, for [`super::king_safety`].

use shakmaty::{Board, Color, Piece, attacks};

use super::attacks::{Attacks, KingAttack, MOBILE};
use super::masks::pawn_attacks;
use super::pawns::count;
use super::tapered::Tapered;
use super::trace::{Term, Trace};
use super::weights::{MOBILITY, MOBILITY_BASE};

/// Scores the pseudo-legal moves of `us`'s pieces, leaving out squares held by own pieces or
/// attacked by enemy pawns, tallies the pieces attacking the enemy king's zone and gathers
/// the squares the pieces attack.
#[must_use]
pub fn mobility(board: &Board, us: Color, trace: &mut impl Trace) -> (Tapered, KingAttack, Attacks) {
    let enemy_pawns = board.pawns() & board.by_color(!us);
    let area = !(board.by_color(us) | pawn_attacks(!us, enemy_pawns));
    let occupied = board.occupied();
    let mut king_attack = KingAttack::on(board, !us);
    let mut score = Tapered::ZERO;
    let mut attacks = Attacks::of_pawns_and_king(board, us);
    for (i, role) in MOBILE.into_iter().enumerate() {
        let piece = Piece { color: us, role };
        for sq in board.by_piece(piece) {
            let reach = attacks::attacks(sq, piece, occupied);
            let squares = count(reach & area) - MOBILITY_BASE[i];
            trace.add(us, Term::Mobility, i, f64::from(squares));
            score += MOBILITY[i] * squares;
            king_attack.add(i, reach);
            attacks.add(i, reach);
        }
    }
    (score, king_attack, attacks)
}

#[cfg(test)]
mod tests {

    use super::*;

    use crate::eval::test_board as board;

    #[test]
    fn a_central_knight_is_more_mobile_than_a_cornered_one() {
        let centre = board("4k3/8/8/8/3N4/8/8/4K3 w - - 0 1");
        let corner = board("4k3/8/8/8/8/8/8/N3K3 w - - 0 1");
        assert!(
            mobility(&centre, Color::White, &mut ()).0.mg > mobility(&corner, Color::White, &mut ()).0.mg
        );
    }

    #[test]
    fn squares_attacked_by_enemy_pawns_do_not_count() {
        let free = board("4k3/8/8/8/3N4/8/8/4K3 w - - 0 1");
        let watched = board("4k3/8/2p1p3/8/3N4/8/8/4K3 w - - 0 1");
        assert!(mobility(&free, Color::White, &mut ()).0.mg > mobility(&watched, Color::White, &mut ()).0.mg);
    }
}
