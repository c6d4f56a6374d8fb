//! Precomputed bitboards for pawn and file patterns, indexed by colour (White first) and
//! square (a1 = 0), and helpers to see the board from either side.

use shakmaty::{Bitboard, Color, Rank, Square};

/// The a-file.
const FILE_A: u64 = 0x0101_0101_0101_0101;

/// Squares strictly ahead of `rank` from `color`'s side (index 0 is White).
const fn ahead(color: usize, rank: u32) -> u64 {
    if color == 0 {
        if rank == 7 { 0 } else { u64::MAX << (8 * (rank + 1)) }
    } else {
        (1u64 << (8 * rank)) - 1
    }
}

/// The files next to `file`, without `file` itself.
const fn neighbours(file: u32) -> u64 {
    let mut files = 0;
    if file > 0 {
        files |= FILE_A << (file - 1);
    }
    if file < 7 {
        files |= FILE_A << (file + 1);
    }
    files
}

/// Builds the forward spans of every square: its own file only, or with the neighbouring files.
const fn spans(with_neighbours: bool) -> [[Bitboard; 64]; 2] {
    let mut t = [[Bitboard(0); 64]; 2];
    let mut color = 0;
    while color < 2 {
        let mut sq = 0;
        while sq < 64 {
            let (file, rank) = (sq % 8, sq / 8);
            let mut files = FILE_A << file;
            if with_neighbours {
                files |= neighbours(file);
            }
            t[color][sq as usize] = Bitboard(ahead(color, rank) & files);
            sq += 1;
        }
        color += 1;
    }
    t
}

/// The squares ahead of a pawn on its own file: its path to promotion.
pub static FRONT_SPAN: [[Bitboard; 64]; 2] = spans(false);

/// The squares ahead of a pawn on its own and neighbouring files: an enemy pawn there can stop
/// it or capture it on the way, so a pawn with none is passed.
pub static PASSED_SPAN: [[Bitboard; 64]; 2] = spans(true);

/// The files next to each file.
pub static NEIGHBOUR_FILES: [Bitboard; 8] = {
    let mut t = [Bitboard(0); 8];
    let mut file = 0;
    while file < 8 {
        t[file as usize] = Bitboard(neighbours(file));
        file += 1;
    }
    t
};

/// Index of a colour in the tables (White first).
#[must_use]
pub const fn index(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// The rank of `sq` as seen from `color`'s side: a pawn starts on [`Rank::Second`].
#[must_use]
pub const fn relative_rank(color: Color, sq: Square) -> Rank {
    match color {
        Color::White => sq.rank(),
        Color::Black => sq.rank().flip_vertical(),
    }
}

/// All of `color`'s rank `rank`, counted from its side.
#[must_use]
pub const fn relative_rank_squares(color: Color, rank: Rank) -> Bitboard {
    match color {
        Color::White => Bitboard::from_rank(rank),
        Color::Black => Bitboard::from_rank(rank.flip_vertical()),
    }
}

/// The squares attacked by `pawns` of `color`.
#[must_use]
pub const fn pawn_attacks(color: Color, pawns: Bitboard) -> Bitboard {
    let west = pawns.0 & !FILE_A;
    let east = pawns.0 & !(FILE_A << 7);
    Bitboard(match color {
        Color::White => (west << 7) | (east << 9),
        Color::Black => (west >> 9) | (east >> 7),
    })
}

#[cfg(test)]
mod tests {
    use shakmaty::{File, attacks};

    use super::*;

    #[test]
    fn pawn_attacks_match_shakmaty() {
        for sq in Square::ALL {
            for color in Color::ALL {
                let one = Bitboard::from_square(sq);
                assert_eq!(pawn_attacks(color, one), attacks::pawn_attacks(color, sq), "{color:?} {sq}");
            }
        }
    }

    #[test]
    fn spans_look_forward() {
        assert_eq!(FRONT_SPAN[0][Square::E6.to_usize()], Bitboard::from_square(Square::E7) | Square::E8);
        assert_eq!(FRONT_SPAN[1][Square::E3.to_usize()], Bitboard::from_square(Square::E2) | Square::E1);
        assert_eq!(FRONT_SPAN[0][Square::E8.to_usize()], Bitboard::EMPTY);
        assert_eq!(PASSED_SPAN[0][Square::A7.to_usize()], Bitboard::from_square(Square::A8) | Square::B8);
        assert_eq!(PASSED_SPAN[1][Square::H2.to_usize()], Bitboard::from_square(Square::H1) | Square::G1);
    }

    #[test]
    fn neighbour_files_exclude_the_file() {
        assert_eq!(NEIGHBOUR_FILES[0], Bitboard::from_file(File::B));
        assert_eq!(NEIGHBOUR_FILES[4], Bitboard::from_file(File::D) | Bitboard::from_file(File::F));
    }
}
