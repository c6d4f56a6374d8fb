//! Pawn structure: doubled, isolated and passed pawns.

use shakmaty::{Bitboard, Board, Color, Square};

use super::masks::{FRONT_SPAN, PASSED_SPAN, index, relative_rank};
use super::tapered::Tapered;
use super::trace::{Term, Trace};
use super::weights::{
    DOUBLED_PAWN, ISOLATED_PAWN, PASSED_ENEMY_KING, PASSED_FREE_PATH, PASSED_OWN_KING, PASSED_PAWN,
};

/// King distances to a passed pawn's path count up to this many squares.
const MAX_KING_DISTANCE: u32 = 5;

/// Scores `us`'s pawn structure.
#[must_use]
pub fn pawn_structure(board: &Board, us: Color, trace: &mut impl Trace) -> Tapered {
    let ours = board.pawns() & board.by_color(us);
    let theirs = board.pawns() & board.by_color(!us);
    let files = files(ours);
    let lonely = files & !((files << 1) | (files >> 1));
    let doubled = count(ours) - files.count_ones() as i32;
    let isolated = count(ours & spread(lonely));
    trace.add(us, Term::DoubledPawn, 0, f64::from(doubled));
    trace.add(us, Term::IsolatedPawn, 0, f64::from(isolated));
    let mut score = DOUBLED_PAWN * doubled + ISOLATED_PAWN * isolated;
    let side = index(us);
    for sq in ours {
        let front = FRONT_SPAN[side][sq.to_usize()];
        // The rear pawn of a doubled pair is not passed: its own pawn blocks it.
        if (theirs & PASSED_SPAN[side][sq.to_usize()]).any() || (ours & front).any() {
            continue;
        }
        let rank = relative_rank(us, sq).to_usize();
        score += PASSED_PAWN[rank];
        trace.add(us, Term::PassedPawn, rank, 1.0);
        if (board.occupied() & front).is_empty() {
            score += PASSED_FREE_PATH[rank];
            trace.add(us, Term::PassedFreePath, rank, 1.0);
        }
        score += king_distances(board, us, sq, rank, trace);
    }
    score
}

/// The passed pawn on `sq` (relative rank index `rank`) gains with the enemy king's distance
/// from the square in front of it and loses with the own king's.
fn king_distances(board: &Board, us: Color, sq: Square, rank: usize, trace: &mut impl Trace) -> Tapered {
    let step = if us == Color::White { 8 } else { -8 };
    let (Some(stop), Some(own), Some(enemy)) = (sq.offset(step), board.king_of(us), board.king_of(!us))
    else {
        return Tapered::ZERO;
    };
    // At most MAX_KING_DISTANCE, so the conversions never truncate.
    let enemy = stop.distance(enemy).min(MAX_KING_DISTANCE) as i32;
    let own = stop.distance(own).min(MAX_KING_DISTANCE) as i32;
    trace.add(us, Term::PassedEnemyKing, rank, f64::from(enemy));
    trace.add(us, Term::PassedOwnKing, rank, f64::from(own));
    PASSED_ENEMY_KING[rank] * enemy + PASSED_OWN_KING[rank] * own
}

/// The files that hold a square of `squares`, as a bit set with bit 0 for the a-file.
const fn files(squares: Bitboard) -> u8 {
    let mut bits = squares.0;
    bits |= bits >> 32;
    bits |= bits >> 16;
    bits |= bits >> 8;
    bits as u8
}

/// Every square of the files in `files` (bit 0 for the a-file).
const fn spread(files: u8) -> Bitboard {
    Bitboard(files as u64 * 0x0101_0101_0101_0101)
}

/// The number of squares in `squares`, as a score multiplier.
#[must_use]
pub fn count(squares: Bitboard) -> i32 {
    // At most 64, so the conversion never truncates.
    squares.count() as i32
}

#[cfg(test)]
mod tests {

    use super::*;

    use crate::eval::test_board as board;

    #[test]
    fn passed_pawn_on_the_sixth_beats_one_on_the_third() {
        let sixth = board("4k3/8/4P3/8/8/8/8/4K3 w - - 0 1");
        let third = board("4k3/8/8/8/8/4P3/8/4K3 w - - 0 1");
        let (s6, s3) =
            (pawn_structure(&sixth, Color::White, &mut ()), pawn_structure(&third, Color::White, &mut ()));
        assert!(s6.mg > s3.mg && s6.eg > s3.eg, "{s6:?} vs {s3:?}");
    }

    #[test]
    fn a_blocked_passed_pawn_loses_its_free_path_bonus() {
        let free = board("4k3/8/1P6/8/8/8/8/4K3 w - - 0 1");
        let blocked = board("1n2k3/8/1P6/8/8/8/8/4K3 w - - 0 1");
        assert!(
            pawn_structure(&free, Color::White, &mut ()).eg
                > pawn_structure(&blocked, Color::White, &mut ()).eg
        );
    }

    #[test]
    fn a_pawn_facing_an_enemy_pawn_on_a_neighbouring_file_is_not_passed() {
        let stopped = board("4k3/3p4/8/8/8/4P3/8/4K3 w - - 0 1");
        let passed = board("4k3/p7/8/8/8/4P3/8/4K3 w - - 0 1");
        assert!(
            pawn_structure(&passed, Color::White, &mut ()).eg
                > pawn_structure(&stopped, Color::White, &mut ()).eg
        );
    }

    #[test]
    fn doubled_and_isolated_pawns_are_worse() {
        let healthy = board("4k3/8/8/8/8/8/5PP1/4K3 w - - 0 1");
        let doubled_isolated = board("4k3/8/8/8/8/6P1/6P1/4K3 w - - 0 1");
        let (good, bad) = (
            pawn_structure(&healthy, Color::White, &mut ()),
            pawn_structure(&doubled_isolated, Color::White, &mut ()),
        );
        assert!(good.mg > bad.mg && good.eg > bad.eg, "{good:?} vs {bad:?}");
        let isolated = board("4k3/8/8/8/8/8/5P1P/4K3 w - - 0 1");
        assert!(pawn_structure(&isolated, Color::White, &mut ()).eg < good.eg);
    }

    #[test]
    fn a_passed_pawn_far_from_the_enemy_king_is_worth_more() {
        let escorted = board("8/8/1k6/8/4P3/4K3/8/8 w - - 0 1");
        let runaway = board("k7/8/8/8/4P3/4K3/8/8 w - - 0 1");
        let alone = board("k7/8/8/8/4P3/8/8/K7 w - - 0 1");
        let score = |b: &Board| pawn_structure(b, Color::White, &mut ()).eg;
        assert!(score(&runaway) > score(&escorted));
        assert!(score(&runaway) > score(&alone));
    }

    #[test]
    fn file_sets_round_trip() {
        let pawns = Bitboard::from_square(shakmaty::Square::A2) | shakmaty::Square::C7 | shakmaty::Square::C3;
        assert_eq!(files(pawns), 0b101);
        assert_eq!(
            spread(0b101),
            Bitboard::from_file(shakmaty::File::A) | Bitboard::from_file(shakmaty::File::C)
        );
    }

    #[test]
    fn black_pawns_are_scored_from_blacks_side() {
        let white = board("4k3/8/8/8/8/1P6/8/4K3 w - - 0 1");
        let black = board("4k3/8/1p6/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(
            pawn_structure(&white, Color::White, &mut ()),
            pawn_structure(&black, Color::Black, &mut ())
        );
    }
}
