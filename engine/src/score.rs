//! Search scores: centipawns or distance to mate.

use std::fmt;

use shakmaty::Color;

/// A search score from the point of view of the side to move (as UCI reports it).
///
/// ```
/// use kibitz_engine::Score;
/// use shakmaty::Color;
/// assert_eq!(Score::Cp(35).white_pov(Color::Black), Score::Cp(-35));
/// assert_eq!(Score::Mate(3).to_string(), "#3");
/// assert_eq!(Score::Cp(-120).to_string(), "-1.20");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// Centipawns; positive is good for the side to move.
    Cp(i32),
    /// Mate in this many moves (not plies); negative when the side to move is mated.
    Mate(i32),
}

/// How a reported score bounds the true value, when it is not exact (after an aspiration
/// window failed and before the re-search settled it).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ScoreBound {
    /// The true score is at least this (the search failed high).
    Lower,
    /// The true score is at most this (the search failed low).
    Upper,
}

impl ScoreBound {
    /// The word UCI writes after the score: `lowerbound` or `upperbound`.
    #[must_use]
    pub fn to_uci(self) -> &'static str {
        match self {
            ScoreBound::Lower => "lowerbound",
            ScoreBound::Upper => "upperbound",
        }
    }
}

impl Score {
    /// The score in centipawns for comparing scores, a mate as `mate` less the moves to it
    /// (`mate` beyond any evaluation, so that mates lie past every evaluation, sooner ones
    /// further).
    #[must_use]
    pub fn centipawns(self, mate: i32) -> i32 {
        match self {
            Score::Cp(cp) => cp,
            Score::Mate(n) if n > 0 => mate - n,
            Score::Mate(n) => -mate - n,
        }
    }

    /// The same score seen from White's side, as Crafty prints scores.
    #[must_use]
    pub fn white_pov(self, side_to_move: Color) -> Score {
        match side_to_move {
            Color::White => self,
            Color::Black => self.negate(),
        }
    }

    /// The score seen from the other side.
    #[must_use]
    pub fn negate(self) -> Score {
        match self {
            // Saturating: an external engine may send `cp -2147483648`.
            Score::Cp(cp) => Score::Cp(cp.saturating_neg()),
            Score::Mate(n) => Score::Mate(n.saturating_neg()),
        }
    }

    /// The score as UCI writes it after `score`: `cp 35` or `mate -2`.
    #[must_use]
    pub fn to_uci(self) -> String {
        match self {
            Score::Cp(cp) => format!("cp {cp}"),
            Score::Mate(n) => format!("mate {n}"),
        }
    }
}

impl fmt::Display for Score {
    /// Pawns with two decimals and a sign (`+0.35`, `-1.20`), or `#3` / `#-2` for mates.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::Cp(cp) => {
                let sign = if cp < 0 { "-" } else { "+" };
                let abs = cp.unsigned_abs();
                write!(f, "{sign}{}.{:02}", abs / 100, abs % 100)
            }
            Score::Mate(n) => write!(f, "#{n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lowest_scores_an_engine_can_send_negate() {
        assert_eq!(Score::Cp(35).negate(), Score::Cp(-35));
        assert_eq!(Score::Cp(i32::MIN).negate(), Score::Cp(i32::MAX));
        assert_eq!(Score::Mate(i32::MIN).negate(), Score::Mate(i32::MAX));
    }
}
