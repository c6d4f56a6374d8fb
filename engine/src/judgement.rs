//! Winning chance and the judgement of a move by the winning chance it gives away, as
//! lichess judges moves: a score becomes a chance in −1..=1 on a logistic curve, and a move
//! that loses at least 0.1, 0.2 or 0.3 of it is an inaccuracy (`?!`), a mistake (`?`) or a
//! blunder (`??`).
//!
//! ```
//! use kibitz_engine::{Judgement, Score, win_chance};
//! assert_eq!(win_chance(Score::Cp(0)), 0.0);
//! assert!(win_chance(Score::Cp(300)) > 0.5);
//! assert_eq!(Judgement::of(Score::Cp(200), Score::Cp(-200)), Some(Judgement::Blunder));
//! assert_eq!(Judgement::of(Score::Cp(20), Score::Cp(0)), None);
//! ```

use std::fmt;

use crate::Score;

/// The slope of the logistic curve, per centipawn (lichess's, fitted on its games).
const SLOPE: f64 = 0.003_682_08;

/// Centipawn scores are clipped to ±this before the curve; a mate counts as this.
const CLIP: i32 = 1000;

/// The winning chance a score gives its side, from −1 (lost) through 0 (even) to 1 (won).
#[must_use]
pub fn win_chance(score: Score) -> f64 {
    let cp = match score {
        Score::Cp(cp) => cp.clamp(-CLIP, CLIP),
        Score::Mate(n) if n > 0 => CLIP,
        Score::Mate(0) => -CLIP,
        Score::Mate(_) => -CLIP,
    };
    2.0 / (1.0 + (-SLOPE * f64::from(cp)).exp()) - 1.0
}

/// How bad a move was, by the winning chance it gave away.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Judgement {
    /// Lost at least 0.1 of winning chance: `?!`.
    Inaccuracy,
    /// Lost at least 0.2: `?`.
    Mistake,
    /// Lost at least 0.3: `??`.
    Blunder,
}

impl Judgement {
    /// All of them, mildest first.
    pub const ALL: [Judgement; 3] = [Judgement::Inaccuracy, Judgement::Mistake, Judgement::Blunder];

    /// The judgement of a move that changed its side's score from `before` (the best move's)
    /// to `after` (the played move's), both from the mover's point of view; `None` for a
    /// move that lost less than 0.1.
    #[must_use]
    pub fn of(before: Score, after: Score) -> Option<Judgement> {
        Judgement::of_loss(win_chance(before) - win_chance(after))
    }

    /// The judgement of a loss of winning chance.
    #[must_use]
    pub fn of_loss(loss: f64) -> Option<Judgement> {
        Judgement::ALL.into_iter().rev().find(|j| loss >= j.threshold())
    }

    /// The least loss of winning chance that earns this judgement.
    #[must_use]
    pub fn threshold(self) -> f64 {
        match self {
            Judgement::Inaccuracy => 0.1,
            Judgement::Mistake => 0.2,
            Judgement::Blunder => 0.3,
        }
    }

    /// The PGN suffix: `?!`, `?` or `??`.
    #[must_use]
    pub fn symbol(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }

    /// The numeric annotation glyph: $6, $2 or $4.
    #[must_use]
    pub fn nag(self) -> u8 {
        match self {
            Judgement::Inaccuracy => 6,
            Judgement::Mistake => 2,
            Judgement::Blunder => 4,
        }
    }

    /// The word: "inaccuracy", "mistake" or "blunder".
    #[must_use]
    pub fn word(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "inaccuracy",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }
}

impl fmt::Display for Judgement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.symbol())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_curve_is_odd_and_bounded() {
        for cp in [1, 50, 150, 400, 999, 5000, i32::MAX] {
            let up = win_chance(Score::Cp(cp));
            assert!(up > 0.0 && up < 1.0, "{cp}: {up}");
            assert!((up + win_chance(Score::Cp(-cp))).abs() < 1e-12);
        }
        assert!(win_chance(Score::Cp(100)) < win_chance(Score::Cp(200)));
        assert_eq!(win_chance(Score::Mate(3)), win_chance(Score::Cp(5000)));
        assert!((win_chance(Score::Mate(-1)) + win_chance(Score::Mate(1))).abs() < 1e-12);
    }

    #[test]
    fn judgements_follow_the_lost_chance_not_the_centipawns() {
        // Two pawns thrown away at +8 change little; one pawn at equality is a mistake.
        assert_eq!(Judgement::of(Score::Cp(800), Score::Cp(600)), None);
        assert_eq!(Judgement::of(Score::Cp(0), Score::Cp(-60)), Some(Judgement::Inaccuracy));
        assert_eq!(Judgement::of(Score::Cp(0), Score::Cp(-120)), Some(Judgement::Mistake));
        assert_eq!(Judgement::of(Score::Mate(2), Score::Cp(0)), Some(Judgement::Blunder));
        assert_eq!(Judgement::of(Score::Cp(30), Score::Cp(-30)), Some(Judgement::Inaccuracy));
    }
}
