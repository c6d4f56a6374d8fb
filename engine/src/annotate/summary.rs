//! One side's figures in an annotated game: the moves judged, the marks and the centipawns lost.

use super::MoveVerdict;
use crate::Judgement;

/// One side's figures in a game.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// Moves judged.
    pub moves: usize,
    /// Moves marked `?!`.
    pub inaccuracies: usize,
    /// Moves marked `?`.
    pub mistakes: usize,
    /// Moves marked `??`.
    pub blunders: usize,
    /// Centipawns lost over all the moves judged.
    pub centipawns_lost: i64,
}

impl Summary {
    /// How many moves got this mark.
    #[must_use]
    pub fn count(&self, judgement: Judgement) -> usize {
        match judgement {
            Judgement::Inaccuracy => self.inaccuracies,
            Judgement::Mistake => self.mistakes,
            Judgement::Blunder => self.blunders,
        }
    }

    /// The average centipawn loss per move judged (lichess's "average centipawn loss"), or
    /// `None` when no move was.
    #[must_use]
    pub fn average_loss(&self) -> Option<f64> {
        (self.moves > 0).then(|| self.centipawns_lost as f64 / self.moves as f64)
    }

    /// Adds another game's figures.
    pub fn add(&mut self, other: &Summary) {
        self.moves += other.moves;
        self.inaccuracies += other.inaccuracies;
        self.mistakes += other.mistakes;
        self.blunders += other.blunders;
        self.centipawns_lost += other.centipawns_lost;
    }

    pub(super) fn record(&mut self, verdict: &MoveVerdict) {
        self.moves += 1;
        self.centipawns_lost += i64::from(verdict.centipawns_lost);
        match verdict.judgement {
            Some(Judgement::Inaccuracy) => self.inaccuracies += 1,
            Some(Judgement::Mistake) => self.mistakes += 1,
            Some(Judgement::Blunder) => self.blunders += 1,
            None => {}
        }
    }
}
