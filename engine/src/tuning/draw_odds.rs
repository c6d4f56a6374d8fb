//! How often Kibitz's own games are drawn from a position, by the men on the board and the
//! size of the score: what a referee may require of a draw before it calls one right
//! ([`super::Margins::draw_odds`]).
//!
//! Judged by a margin alone (a draw is right unless a side is more than 1.5 pawns ahead),
//! most positions soon after the opening are "drawn", and a population learns to agree at
//! once; judged by games played on, most level middlegames are won by someone, and it learns
//! never to offer (docs/BENCHMARKS.md, "Self-play tuning"). This table says how often a
//! position like this one was in fact drawn between engines like the members: a level
//! position with 28 men or more was drawn 56% of the time, one with 12 to 15 men 86%.
//!
//! Measured over 2,296,420 positions of Kibitz's own games (network self-play at 6,000 nodes
//! a move, the data generated in sessions 22, 24 and 25, docs/STRENGTH.md), with
//! `python3 tools/draw_rate.py DATA.txt ...` on the files `datagen` writes. The scores are
//! Kibitz's own; a referee of another engine reads them on its own scale, close near level.

use shakmaty::Position;

/// The lowest count of men (kings included) of each row of [`DRAWN`].
pub const MEN: [usize; 7] = [2, 8, 12, 16, 20, 24, 28];

/// The lowest size of the score, in centipawns for either side, of each column of [`DRAWN`].
pub const SCORE: [u32; 7] = [0, 25, 50, 100, 150, 200, 300];

/// The percentage of positions drawn, by men ([`MEN`], rows) and score ([`SCORE`],
/// columns); each cell is over 2,158 to 153,680 positions.
pub const DRAWN: [[u8; 7]; 7] = [
    [98, 97, 96, 96, 94, 89, 43],
    [93, 89, 87, 84, 80, 70, 26],
    [86, 82, 79, 74, 69, 58, 23],
    [78, 73, 70, 66, 59, 48, 21],
    [67, 65, 63, 57, 51, 41, 21],
    [60, 59, 56, 52, 47, 36, 20],
    [56, 55, 51, 47, 41, 32, 21],
];

/// The percentage of Kibitz's games drawn from a position with `men` on the board that a
/// side scores `cp` (either side's view: only the size counts).
#[must_use]
pub fn drawn_percent(men: usize, cp: i32) -> u8 {
    let row = MEN.iter().rposition(|&low| men >= low).unwrap_or(0);
    let column = SCORE.iter().rposition(|&low| cp.unsigned_abs() >= low).unwrap_or(0);
    DRAWN[row][column]
}

/// The men on the board of `position`, kings included.
#[must_use]
pub fn men(position: &impl Position) -> usize {
    position.board().occupied().count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_draw_grows_likelier_as_men_come_off_and_less_likely_as_the_score_grows() {
        for row in DRAWN {
            assert!(row.windows(2).all(|w| w[0] >= w[1]), "{row:?}");
        }
        for column in 0..SCORE.len() - 1 {
            assert!(DRAWN.windows(2).all(|w| w[0][column] >= w[1][column]), "column {column}");
        }
    }

    #[test]
    fn reads_the_cell_of_the_men_and_the_score() {
        assert_eq!(drawn_percent(32, 0), 56, "the opening, level");
        assert_eq!(drawn_percent(28, -24), 56);
        assert_eq!(drawn_percent(27, 25), 59);
        assert_eq!(drawn_percent(14, -120), 74);
        assert_eq!(drawn_percent(3, 5000), 43);
        assert_eq!(drawn_percent(0, 0), 98, "no men is not a position, read as the fewest");
    }
}
