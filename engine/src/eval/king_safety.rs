//! King safety: the pawn shield of a castled king, and the danger from the enemy pieces bearing
//! on its zone (the king's square and its neighbours) and from safe checks.

use shakmaty::{Bitboard, Board, Color, File, Rank, Square, attacks};

use super::attacks::{Attacks, KingAttack};
use super::masks::{NEIGHBOUR_FILES, relative_rank, relative_rank_squares};
use super::pawns::count;
use super::tapered::Tapered;
use super::trace::{Term, Trace};
use super::weights::{
    KING_DANGER_EG_DIVISOR, KING_DANGER_MG_DIVISOR, KING_DANGER_OFFSET, KING_NO_QUEEN, KING_SAFE_CHECK,
    KING_WEAK_SQUARE, KING_ZONE_ATTACK, PAWN_SHIELD_CLOSE, PAWN_SHIELD_FAR,
};

/// Scores the safety of `us`'s king, given the enemy pieces found attacking its zone and the
/// squares `us`'s pieces (`ours`) and the enemy's (`theirs`) attack.
#[must_use]
pub fn king_safety(
    board: &Board,
    us: Color,
    attack: KingAttack,
    ours: &Attacks,
    theirs: &Attacks,
    trace: &mut impl Trace,
) -> Tapered {
    let Some(king) = board.king_of(us) else {
        return Tapered::ZERO;
    };
    let danger = danger(attack, board, us, king, ours, theirs);
    pawn_shield(board, us, king, trace)
        - Tapered { mg: danger * danger / KING_DANGER_MG_DIVISOR, eg: danger / KING_DANGER_EG_DIVISOR }
}

/// Own pawns in front of a king that has castled (or walked) to a wing of its back rank.
fn pawn_shield(board: &Board, us: Color, king: Square, trace: &mut impl Trace) -> Tapered {
    if relative_rank(us, king) != Rank::First || matches!(king.file(), File::D | File::E) {
        return Tapered::ZERO;
    }
    let files = Bitboard::from_file(king.file()) | NEIGHBOUR_FILES[king.file().to_usize()];
    let pawns = board.pawns() & board.by_color(us) & files;
    let close = count(pawns & relative_rank_squares(us, Rank::Second));
    let far = count(pawns & relative_rank_squares(us, Rank::Third));
    trace.add(us, Term::PawnShieldClose, 0, f64::from(close));
    trace.add(us, Term::PawnShieldFar, 0, f64::from(far));
    PAWN_SHIELD_CLOSE * close + PAWN_SHIELD_FAR * far
}

/// The danger units against `us`'s king on `king`: the attackers, the zone squares only the
/// enemy holds, and the safe checks the enemy has. Never negative.
fn danger(
    attack: KingAttack,
    board: &Board,
    us: Color,
    king: Square,
    ours: &Attacks,
    theirs: &Attacks,
) -> i32 {
    let enemy = board.by_color(!us);
    // The own king is left out: it cannot hold a square the enemy attacks.
    let defended = ours.by_pieces() | ours.by_pawns;
    let weak = count(attack.zone & theirs.all() & !defended);
    // Squares a checking piece could go to without being taken.
    let safe = !enemy & !defended & !attacks::king_attacks(king);
    let occupied = board.occupied();
    let diagonal = attacks::bishop_attacks(king, occupied);
    let straight = attacks::rook_attacks(king, occupied);
    let from = [attacks::knight_attacks(king), diagonal, straight, diagonal | straight];
    let mut checks = 0;
    for (i, squares) in from.into_iter().enumerate() {
        if (squares & theirs.by_role[i] & safe).any() {
            checks += KING_SAFE_CHECK[i];
        }
    }
    let no_queen = if (board.queens() & enemy).is_empty() { KING_NO_QUEEN } else { 0 };
    (attack.attackers * attack.weight + KING_ZONE_ATTACK * attack.hits + KING_WEAK_SQUARE * weak + checks
        - no_queen
        - KING_DANGER_OFFSET)
        .max(0)
}

#[cfg(test)]
mod tests {

    use super::*;

    use crate::eval::test_board as board;

    #[test]
    fn a_king_with_a_pawn_shield_is_safer() {
        let shielded = board("6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1");
        let bare = board("6k1/5ppp/8/8/8/5PPP/8/6K1 w - - 0 1");
        let stripped = board("6k1/5ppp/8/8/8/8/8/6K1 w - - 0 1");
        let (a, b, c) =
            (safety(&shielded, Color::White), safety(&bare, Color::White), safety(&stripped, Color::White));
        assert!(a.mg > b.mg && b.mg > c.mg, "{a:?} {b:?} {c:?}");
    }

    /// The king safety of `us`, tallying the enemy attackers as the evaluation does.
    fn safety(board: &Board, us: Color) -> Tapered {
        let (_, attack, theirs) = super::super::mobility::mobility(board, !us, &mut ());
        let (_, _, ours) = super::super::mobility::mobility(board, us, &mut ());
        king_safety(board, us, attack, &ours, &theirs, &mut ())
    }

    #[test]
    fn a_safe_queen_check_is_dangerous() {
        // The black queen can check from e1 safely in the first, not in the second (a rook
        // guards the back rank).
        let open = board("6k1/5ppp/8/8/8/8/4qPPP/6K1 w - - 0 1");
        let guarded = board("6k1/5ppp/8/8/8/8/4qPPP/3R2K1 w - - 0 1");
        let (a, b) = (safety(&open, Color::White), safety(&guarded, Color::White));
        assert!(a.mg < b.mg, "{a:?} {b:?}");
    }

    #[test]
    fn more_attackers_mean_more_danger() {
        let one = board("6k1/5ppp/8/8/8/8/5PPP/1q4K1 w - - 0 1");
        let two = board("6k1/5ppp/8/8/8/5n2/5PPP/1q4K1 w - - 0 1");
        let three = board("6k1/5ppp/8/8/8/5n1b/5PPP/1q4K1 w - - 0 1");
        let (a, b, c) =
            (safety(&one, Color::White), safety(&two, Color::White), safety(&three, Color::White));
        assert!(a.mg > b.mg && b.mg > c.mg, "{a:?} {b:?} {c:?}");
    }

    #[test]
    fn black_is_scored_from_its_side() {
        let white = board("6k1/8/8/8/8/5n2/5PPP/1q4K1 w - - 0 1");
        let black = board("1Q4k1/5ppp/5N2/8/8/8/8/6K1 b - - 0 1");
        assert_eq!(safety(&white, Color::White), safety(&black, Color::Black));
    }
}
