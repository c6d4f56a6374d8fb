//! Which moves an annotation looks at, as Crafty's `annotate` picks them: a side (White,
//! Black, both, or a player's name, found in the `White` and `Black` tags) and a range of move
//! numbers (`20-33`, or `20` for move 20 to the end).

use std::fmt;
use std::str::FromStr;

use shakmaty::{ByColor, Color};

use crate::GameRecord;

/// The side whose moves are annotated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Side {
    /// White's moves only (Crafty's `w`).
    White,
    /// Black's moves only (`b`).
    Black,
    /// Both sides' moves (`wb`, `bw`).
    Both,
    /// The moves of the player whose `White` or `Black` tag contains this text (ignoring case):
    /// the side changes from game to game.
    Player(String),
}

/// A player's name that does not pick one side of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SideError {
    /// The name is in both players' tags.
    MatchesBoth {
        /// The name asked for.
        name: String,
        /// The game's `White` tag.
        white: String,
        /// The game's `Black` tag.
        black: String,
    },
    /// The name is in neither player's tag.
    MatchesNeither {
        /// The name asked for.
        name: String,
        /// The game's `White` tag.
        white: String,
        /// The game's `Black` tag.
        black: String,
    },
}

impl fmt::Display for SideError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SideError::MatchesBoth { name, white, black } => write!(
                f,
                "\"{name}\" matches both players (White \"{white}\", Black \"{black}\"): give more of the name"
            ),
            SideError::MatchesNeither { name, white, black } => {
                write!(f, "\"{name}\" matches neither player (White \"{white}\", Black \"{black}\")")
            }
        }
    }
}

impl std::error::Error for SideError {}

impl Side {
    /// Which colours to annotate in `game`: for a player's name, the one side whose tag holds it.
    ///
    /// ```
    /// use kibitz_engine::{GameRecord, Side};
    /// let mut game = GameRecord::new();
    /// game.set_tag("White", "Karpov, Anatoly");
    /// game.set_tag("Black", "Kasparov, Garry");
    /// let colors = Side::Player("karpov".into()).colors(&game).unwrap();
    /// assert!(colors.white && !colors.black);
    /// assert!(Side::Player("Ka".into()).colors(&game).is_err(), "both");
    /// assert!(Side::Player("Tal".into()).colors(&game).is_err(), "neither");
    /// ```
    pub fn colors(&self, game: &GameRecord) -> Result<ByColor<bool>, SideError> {
        Ok(match self {
            Side::White => ByColor { white: true, black: false },
            Side::Black => ByColor { white: false, black: true },
            Side::Both => ByColor { white: true, black: true },
            Side::Player(name) => {
                let white = game.tag("White").unwrap_or("").to_owned();
                let black = game.tag("Black").unwrap_or("").to_owned();
                let wanted = name.to_lowercase();
                let found = ByColor {
                    white: white.to_lowercase().contains(&wanted),
                    black: black.to_lowercase().contains(&wanted),
                };
                let name = name.clone();
                match (found.white, found.black) {
                    (true, true) => return Err(SideError::MatchesBoth { name, white, black }),
                    (false, false) => return Err(SideError::MatchesNeither { name, white, black }),
                    _ => found,
                }
            }
        })
    }
}

impl FromStr for Side {
    type Err = std::convert::Infallible;

    /// `white`/`w`, `black`/`b`, `both`/`wb`/`bw` (any case); anything else is a player's name.
    fn from_str(text: &str) -> Result<Side, Self::Err> {
        Ok(match text.trim().to_lowercase().as_str() {
            "w" | "white" => Side::White,
            "b" | "black" => Side::Black,
            "wb" | "bw" | "both" => Side::Both,
            _ => Side::Player(text.trim().to_owned()),
        })
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Side::White => f.write_str("white"),
            Side::Black => f.write_str("black"),
            Side::Both => f.write_str("both"),
            Side::Player(name) => f.write_str(name),
        }
    }
}

/// The move numbers annotated, inclusive.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MoveRange {
    /// The first move number.
    pub first: u32,
    /// The last move number.
    pub last: u32,
}

impl MoveRange {
    /// Every move of any game (Crafty's `1-999`, without its limit).
    pub const ALL: MoveRange = MoveRange { first: 1, last: u32::MAX };

    /// Whether move number `number` is in the range.
    #[must_use]
    pub fn contains(self, number: u32) -> bool {
        (self.first..=self.last).contains(&number)
    }
}

impl Default for MoveRange {
    fn default() -> Self {
        MoveRange::ALL
    }
}

/// A move range that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadMoveRange(pub String);

impl fmt::Display for BadMoveRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\"{}\" is not a move range: write FIRST-LAST (20-33) or FIRST (20 to the end)", self.0)
    }
}

impl std::error::Error for BadMoveRange {}

impl FromStr for MoveRange {
    type Err = BadMoveRange;

    /// `20-33`, or `20` for move 20 to the end, as Crafty reads them.
    ///
    /// ```
    /// use kibitz_engine::MoveRange;
    /// assert_eq!("20-33".parse(), Ok(MoveRange { first: 20, last: 33 }));
    /// assert!("20".parse::<MoveRange>().unwrap().contains(120));
    /// assert!("33-20".parse::<MoveRange>().is_err());
    /// ```
    fn from_str(text: &str) -> Result<MoveRange, BadMoveRange> {
        let bad = || BadMoveRange(text.to_owned());
        let number = |t: &str| t.trim().parse::<u32>().ok().filter(|&n| n >= 1).ok_or_else(bad);
        let range = match text.split_once('-') {
            Some((first, last)) => MoveRange { first: number(first)?, last: number(last)? },
            None => MoveRange { first: number(text)?, last: u32::MAX },
        };
        if range.first > range.last {
            return Err(bad());
        }
        Ok(range)
    }
}

/// Whether a move by `mover` at move number `number` is selected.
pub(crate) fn selected(colors: ByColor<bool>, range: MoveRange, mover: Color, number: u32) -> bool {
    *colors.get(mover) && range.contains(number)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(white: &str, black: &str) -> GameRecord {
        let mut game = GameRecord::new();
        game.set_tag("White", white);
        game.set_tag("Black", black);
        game
    }

    #[test]
    fn sides_are_read_as_crafty_writes_them() {
        for (text, side) in
            [("w", Side::White), ("Black", Side::Black), ("bw", Side::Both), ("both", Side::Both)]
        {
            assert_eq!(text.parse::<Side>(), Ok(side));
        }
        assert_eq!("Karpov".parse::<Side>(), Ok(Side::Player("Karpov".into())));
    }

    #[test]
    fn a_name_picks_the_one_side_that_holds_it() {
        let g = game("Anatoly Karpov", "unknown");
        let colors = Side::Player("KARPOV".into()).colors(&g).expect("one side");
        assert_eq!((colors.white, colors.black), (true, false));
        let colors = Side::Player("unk".into()).colors(&g).expect("one side");
        assert_eq!((colors.white, colors.black), (false, true));
        let both = Side::Player("n".into()).colors(&g).expect_err("in both names");
        assert!(matches!(both, SideError::MatchesBoth { .. }), "{both:?}");
        assert!(both.to_string().contains("both players"), "{both}");
        let neither = Side::Player("Tal".into()).colors(&g).expect_err("in neither");
        assert!(neither.to_string().contains("neither player"), "{neither}");
    }

    #[test]
    fn ranges_and_selection() {
        let range: MoveRange = "20-33".parse().expect("a range");
        assert!(!range.contains(19) && range.contains(20) && range.contains(33) && !range.contains(34));
        assert_eq!("7".parse::<MoveRange>().map(|r| r.contains(7) && !r.contains(6)), Ok(true));
        for bad in ["", "x", "0-3", "5-", "-5", "9-8"] {
            assert!(bad.parse::<MoveRange>().is_err(), "{bad}");
        }
        let white = ByColor { white: true, black: false };
        assert!(selected(white, range, Color::White, 25));
        assert!(!selected(white, range, Color::Black, 25));
        assert!(!selected(white, range, Color::White, 34));
    }
}
