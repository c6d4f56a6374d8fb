//! Mating a bare king: with nothing but its king left to one side, the other side's mating
//! material scores more the nearer the lone king is to the edge (to a corner of the bishop's
//! colour with bishop and knight) and the nearer its own king comes. Without it the search has
//! no notion of progress in KQvK, KRvK or KBNvK short of seeing the mate, and a game runs into
//! the fifty-move rule. It is endgame knowledge outside the tuner's linear model.

use shakmaty::{Bitboard, Board, Color, Square};

/// Centipawns per step of the lone king away from the centre (or towards the right corner).
const EDGE: i32 = 20;

/// Centipawns per step the kings come closer.
const CLOSE: i32 = 10;

/// The bonus, from White's point of view, when one side has a bare king and the other mating
/// material (a queen, a rook, two bishops or a bishop and a knight) and no pawn.
pub(super) fn mop_up(board: &Board) -> i32 {
    for strong in [Color::White, Color::Black] {
        let weak = !strong;
        if board.by_color(weak).count() != 1 || !(board.by_color(strong) & board.pawns()).is_empty() {
            continue;
        }
        let ours = board.by_color(strong);
        let bishops = ours & board.bishops();
        let knights = ours & board.knights();
        let heavy = !(ours & (board.queens() | board.rooks())).is_empty();
        let bishop_and_knight = !bishops.is_empty() && !knights.is_empty();
        if !heavy && bishops.count() < 2 && !bishop_and_knight {
            continue;
        }
        let (Some(lone), Some(king)) = (board.king_of(weak), board.king_of(strong)) else { continue };
        let edge = if !heavy && bishops.count() == 1 && bishop_and_knight {
            7 - corner_distance(lone, bishops)
        } else {
            centre_distance(lone)
        };
        let bonus = EDGE * edge + CLOSE * (7 - lone.distance(king) as i32);
        return if strong == Color::White { bonus } else { -bonus };
    }
    0
}

/// The Manhattan distance from the square to the nearest of the four centre squares (0 to 6).
fn centre_distance(square: Square) -> i32 {
    let file = i32::from(u8::from(square.file()));
    let rank = i32::from(u8::from(square.rank()));
    let off = |x: i32| if x < 4 { 3 - x } else { x - 4 };
    off(file) + off(rank)
}

/// The king's distance to the nearer corner of the colour of the bishop (the corners a bishop
/// and knight can mate in).
fn corner_distance(square: Square, bishops: Bitboard) -> i32 {
    let light = !(bishops & Bitboard::LIGHT_SQUARES).is_empty();
    let corners = if light { [Square::H1, Square::A8] } else { [Square::A1, Square::H8] };
    corners.iter().map(|&c| square.distance(c) as i32).min().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Position};

    use super::*;

    fn board(fen: &str) -> Board {
        let fen: Fen = fen.parse().expect("fen");
        let pos: Chess = fen.into_position(CastlingMode::Standard).expect("legal");
        pos.board().clone()
    }

    #[test]
    fn a_lone_king_on_the_edge_near_the_other_king_scores_more() {
        let centre = mop_up(&board("8/8/8/3k4/8/8/8/R3K3 w - - 0 1"));
        let edge = mop_up(&board("3k4/8/8/8/8/8/8/R3K3 w - - 0 1"));
        let closer = mop_up(&board("3k4/8/3K4/8/8/8/8/R7 w - - 0 1"));
        assert!(0 < centre && centre < edge && edge < closer, "{centre} {edge} {closer}");
        // The same for Black, with the sign turned.
        assert!(mop_up(&board("r3k3/8/8/8/8/8/8/3K4 w - - 0 1")) < 0);
    }

    #[test]
    fn bishop_and_knight_drive_to_the_bishops_corner() {
        // A dark-squared bishop (c1) mates in a1 or h8.
        let right = mop_up(&board("8/8/8/8/8/8/2K5/k1BN4 w - - 0 1"));
        let right_far = mop_up(&board("7k/8/8/8/8/8/8/2BN2K1 w - - 0 1"));
        // a8 is light: the wrong corner, as far from the right ones as a square can be.
        let wrong = mop_up(&board("k7/8/8/8/8/8/8/2BN2K1 w - - 0 1"));
        assert!(right > right_far && right_far > wrong, "{right} {right_far} {wrong}");
    }

    #[test]
    fn nothing_without_mating_material_or_with_pawns_or_pieces_on_both_sides() {
        for fen in [
            "8/8/8/3k4/8/8/8/B3K3 w - - 0 1",
            "8/8/8/3k4/8/8/8/NN2K3 w - - 0 1",
            "8/8/8/3k4/8/8/P7/R3K3 w - - 0 1",
            "8/8/8/3k4/8/8/r7/R3K3 w - - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ] {
            assert_eq!(mop_up(&board(fen)), 0, "{fen}");
        }
    }
}
