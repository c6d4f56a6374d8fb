//! Threats: enemy pieces attacked by lesser pieces, and enemy pieces attacked but not
//! defended. The search resolves captures, but a position with more of the opponent's pieces
//! under fire is better than quiescence alone can tell, since only one threat can be parried.

use shakmaty::{Board, Color};

use super::attacks::{Attacks, MOBILE};
use super::pawns::count;
use super::tapered::Tapered;
use super::trace::{Term, Trace};
use super::weights::{HANGING, THREAT_BY_MINOR, THREAT_BY_PAWN, THREAT_BY_ROOK};

/// Scores the threats `us` makes, given the attacks of `us`'s pieces (`ours`) and of the
/// enemy's (`theirs`).
#[must_use]
pub fn threats(
    board: &Board,
    us: Color,
    ours: &Attacks,
    theirs: &Attacks,
    trace: &mut impl Trace,
) -> Tapered {
    let enemy = board.by_color(!us);
    let pieces = enemy & !board.pawns() & !board.kings();
    let heavy = enemy & (board.rooks() | board.queens());
    let mut score = Tapered::ZERO;

    for (i, role) in MOBILE.into_iter().enumerate() {
        let n = count(ours.by_pawns & pieces & board.by_role(role));
        trace.add(us, Term::ThreatByPawn, i, f64::from(n));
        score += THREAT_BY_PAWN[i] * n;
    }
    for (i, victims) in [heavy & board.rooks(), heavy & board.queens()].into_iter().enumerate() {
        let n = count(ours.by_minors() & victims);
        trace.add(us, Term::ThreatByMinor, i, f64::from(n));
        score += THREAT_BY_MINOR[i] * n;
    }
    let n = count(ours.by_rooks() & enemy & board.queens());
    trace.add(us, Term::ThreatByRook, 0, f64::from(n));
    score += THREAT_BY_ROOK * n;

    let n = count(pieces & ours.all() & !theirs.all());
    trace.add(us, Term::Hanging, 0, f64::from(n));
    score + HANGING * n
}

#[cfg(test)]
mod tests {
    use shakmaty::{Piece, Role, Square, attacks};

    use super::*;

    use crate::eval::test_board as board;

    /// The attacks of `color`'s pieces, gathered as mobility does.
    fn attacks_of(board: &Board, color: Color) -> Attacks {
        let mut all = Attacks::of_pawns_and_king(board, color);
        for (i, role) in MOBILE.into_iter().enumerate() {
            let piece = Piece { color, role };
            for sq in board.by_piece(piece) {
                all.add(i, attacks::attacks(sq, piece, board.occupied()));
            }
        }
        all
    }

    fn white_threats(fen: &str) -> Tapered {
        let b = board(fen);
        threats(&b, Color::White, &attacks_of(&b, Color::White), &attacks_of(&b, Color::Black), &mut ())
    }

    #[test]
    fn a_pawn_forking_two_pieces_is_a_big_threat() {
        let fork = white_threats("4k3/8/3p4/2n1b3/3P4/8/8/4K3 w - - 0 1");
        assert_eq!(fork, THREAT_BY_PAWN[0] + THREAT_BY_PAWN[1]);
    }

    #[test]
    fn a_piece_attacked_and_undefended_hangs() {
        let hanging = white_threats("4k3/8/8/8/1n6/8/8/1R2K3 w - - 0 1");
        let defended = white_threats("4k3/8/8/2p5/1n6/8/8/1R2K3 w - - 0 1");
        assert_eq!(hanging, HANGING);
        assert_eq!(defended, Tapered::ZERO);
    }

    #[test]
    fn minors_and_rooks_threaten_heavier_pieces() {
        let b = board("4k3/8/8/8/8/8/1q6/R2NK3 w - - 0 1");
        let ours = attacks_of(&b, Color::White);
        assert!(ours.by_rooks().contains(Square::A8));
        let t = threats(&b, Color::White, &ours, &attacks_of(&b, Color::Black), &mut ());
        // The knight on d1 attacks the undefended queen on b2; the rook on a1 does not.
        assert_eq!(t, THREAT_BY_MINOR[1] + HANGING);
        let mut near = b.clone();
        near.discard_piece_at(Square::D1);
        near.set_piece_at(Square::D3, Piece { color: Color::White, role: Role::Knight });
        near.discard_piece_at(Square::A1);
        near.set_piece_at(Square::B1, Piece { color: Color::White, role: Role::Rook });
        let ours = attacks_of(&near, Color::White);
        let t = threats(&near, Color::White, &ours, &attacks_of(&near, Color::Black), &mut ());
        assert_eq!(t, THREAT_BY_MINOR[1] + THREAT_BY_ROOK + HANGING);
    }
}
