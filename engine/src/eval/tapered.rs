//! A score with a middlegame and an endgame part, blended by the game phase.

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// A middlegame/endgame pair of centipawn scores.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tapered {
    /// The score when all pieces are on the board.
    pub mg: i32,
    /// The score when only kings and pawns are left.
    pub eg: i32,
}

/// Builds a [`Tapered`] score; short because the weight tables are written with it.
#[must_use]
pub const fn s(mg: i32, eg: i32) -> Tapered {
    Tapered { mg, eg }
}

impl Tapered {
    /// Nothing in either stage.
    pub const ZERO: Tapered = s(0, 0);

    /// Blends the two parts: `phase` out of `max_phase` middlegame, the rest endgame.
    #[must_use]
    pub const fn blend(self, phase: i32, max_phase: i32) -> i32 {
        (self.mg * phase + self.eg * (max_phase - phase)) / max_phase
    }
}

impl Add for Tapered {
    type Output = Tapered;
    fn add(self, rhs: Tapered) -> Tapered {
        s(self.mg + rhs.mg, self.eg + rhs.eg)
    }
}

impl AddAssign for Tapered {
    fn add_assign(&mut self, rhs: Tapered) {
        *self = *self + rhs;
    }
}

impl Sub for Tapered {
    type Output = Tapered;
    fn sub(self, rhs: Tapered) -> Tapered {
        s(self.mg - rhs.mg, self.eg - rhs.eg)
    }
}

impl SubAssign for Tapered {
    fn sub_assign(&mut self, rhs: Tapered) {
        *self = *self - rhs;
    }
}

impl Neg for Tapered {
    type Output = Tapered;
    fn neg(self) -> Tapered {
        s(-self.mg, -self.eg)
    }
}

impl Mul<i32> for Tapered {
    type Output = Tapered;
    fn mul(self, rhs: i32) -> Tapered {
        s(self.mg * rhs, self.eg * rhs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blend_moves_from_middlegame_to_endgame() {
        let score = s(100, 20);
        assert_eq!(score.blend(24, 24), 100);
        assert_eq!(score.blend(0, 24), 20);
        assert_eq!(score.blend(12, 24), 60);
    }

    #[test]
    fn blend_is_symmetric_around_zero() {
        let score = s(37, -11);
        for phase in 0..=24 {
            assert_eq!((-score).blend(phase, 24), -score.blend(phase, 24));
        }
    }

    #[test]
    fn arithmetic_works_on_both_parts() {
        assert_eq!(s(1, 2) + s(3, 4) - s(1, 1), s(3, 5));
        assert_eq!(s(2, -3) * 3, s(6, -9));
    }
}
