//! Bonuses for pieces in good spots: the bishop pair and rooks on open files.

use shakmaty::{Bitboard, Board, Color, Piece, Role};

use super::tapered::Tapered;
use super::trace::{Term, Trace};
use super::weights::{BISHOP_PAIR, ROOK_OPEN_FILE, ROOK_SEMI_OPEN_FILE};

/// Scores `us`'s bishop pair and rook files.
#[must_use]
pub fn pieces(board: &Board, us: Color, trace: &mut impl Trace) -> Tapered {
    bishop_pair(board, us, trace) + rook_files(board, us, trace)
}

/// The bishop pair: bishops on both square colours.
fn bishop_pair(board: &Board, us: Color, trace: &mut impl Trace) -> Tapered {
    let bishops = board.by_piece(Piece { color: us, role: Role::Bishop });
    if bishops.intersects(Bitboard::LIGHT_SQUARES) && bishops.intersects(Bitboard::DARK_SQUARES) {
        trace.add(us, Term::BishopPair, 0, 1.0);
        BISHOP_PAIR
    } else {
        Tapered::ZERO
    }
}

/// Rooks on files without pawns (open) or without own pawns (semi-open).
fn rook_files(board: &Board, us: Color, trace: &mut impl Trace) -> Tapered {
    let own_pawns = board.pawns() & board.by_color(us);
    let mut score = Tapered::ZERO;
    for sq in board.by_piece(Piece { color: us, role: Role::Rook }) {
        let file = Bitboard::from_file(sq.file());
        if !board.pawns().intersects(file) {
            score += ROOK_OPEN_FILE;
            trace.add(us, Term::RookOpenFile, 0, 1.0);
        } else if !own_pawns.intersects(file) {
            score += ROOK_SEMI_OPEN_FILE;
            trace.add(us, Term::RookSemiOpenFile, 0, 1.0);
        }
    }
    score
}

#[cfg(test)]
mod tests {

    use super::*;

    use crate::eval::test_board as board;

    #[test]
    fn two_bishops_on_different_colours_make_a_pair() {
        assert_eq!(
            bishop_pair(&board("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1"), Color::White, &mut ()),
            BISHOP_PAIR
        );
        assert_eq!(
            bishop_pair(&board("4k3/8/8/8/8/8/3B4/2B1K3 w - - 0 1"), Color::White, &mut ()),
            Tapered::ZERO
        );
    }

    #[test]
    fn rooks_like_open_files() {
        let open = board("4k3/p7/8/8/8/8/P7/3RK3 w - - 0 1");
        let semi = board("4k3/3p4/8/8/8/8/P7/3RK3 w - - 0 1");
        let closed = board("4k3/8/8/8/8/8/3P4/3RK3 w - - 0 1");
        assert_eq!(rook_files(&open, Color::White, &mut ()), ROOK_OPEN_FILE);
        assert_eq!(rook_files(&semi, Color::White, &mut ()), ROOK_SEMI_OPEN_FILE);
        assert_eq!(rook_files(&closed, Color::White, &mut ()), Tapered::ZERO);
    }
}
