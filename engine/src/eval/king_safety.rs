//! King safety: the pawn shield of a castled king and the enemy pieces bearing on its zone.

use shakmaty::{Bitboard, Board, Color, File, Rank, Role, Square, attacks};

use super::masks::{NEIGHBOUR_FILES, relative_rank, relative_rank_squares};
use super::pawns::count;
use super::tapered::Tapered;
use super::trace::{Term, Trace};
use super::weights::{
    KING_ATTACK, KING_ATTACK_UNITS, KING_ATTACKERS_SCALE, PAWN_SHIELD_CLOSE, PAWN_SHIELD_FAR,
};

/// Scores the safety of `us`'s king, given the enemy pieces found attacking its zone.
#[must_use]
pub fn king_safety(board: &Board, us: Color, attack: KingAttack, trace: &mut impl Trace) -> Tapered {
    let Some(king) = board.king_of(us) else {
        return Tapered::ZERO;
    };
    pawn_shield(board, us, king, trace) + attack.penalty(us, trace)
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

/// The enemy pieces attacking a king's zone (its square and neighbours), tallied while their
/// moves are generated for mobility.
#[derive(Clone, Copy, Debug)]
pub struct KingAttack {
    /// The king's square and its neighbours.
    zone: Bitboard,
    /// How many pieces attack the zone.
    attackers: usize,
    /// The sum of their [`KING_ATTACK_UNITS`].
    units: i32,
}

impl KingAttack {
    /// An empty tally against `color`'s king.
    #[must_use]
    pub fn on(board: &Board, color: Color) -> KingAttack {
        let zone =
            board.king_of(color).map_or(Bitboard::EMPTY, |king| attacks::king_attacks(king).with(king));
        KingAttack { zone, attackers: 0, units: 0 }
    }

    /// Counts a piece of `role` that attacks `reach`, if that touches the zone.
    pub fn add(&mut self, role: Role, reach: Bitboard) {
        if reach.intersects(self.zone) {
            self.attackers += 1;
            self.units += KING_ATTACK_UNITS[role as usize - 1];
        }
    }

    /// The penalty of `us`, the side whose king this is: growing with the attackers' weight,
    /// scaled up by their number.
    #[must_use]
    pub fn penalty(self, us: Color, trace: &mut impl Trace) -> Tapered {
        let scale = KING_ATTACKERS_SCALE[self.attackers.min(KING_ATTACKERS_SCALE.len() - 1)];
        trace.add(us, Term::KingAttack, 0, f64::from(self.units * scale) / 256.0);
        let penalty = KING_ATTACK * self.units;
        Tapered { mg: penalty.mg * scale / 256, eg: penalty.eg * scale / 256 }
    }
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
        let (_, attack, _) = super::super::mobility::mobility(board, !us, &mut ());
        king_safety(board, us, attack, &mut ())
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
