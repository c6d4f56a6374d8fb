//! The arbiter's hook: rules that may end a game before its natural end (after cutechess's
//! `GameAdjudicator`). Match presets (TCEC's draw and win rules, tablebases) plug in here.

use shakmaty::ByColor;

use crate::tournament::Countdown;
use crate::{Ending, GameRecord, Score, Termination};

/// Decides, after every move, whether a game ends by an arbiter's rule.
pub trait Adjudicator: Send {
    /// Called after each move with the game and each side's latest score (from its own side,
    /// `None` for a side that reports none). Returns the ending and the rule that decided.
    fn adjudicate(&mut self, game: &GameRecord, scores: ByColor<Option<Score>>) -> Option<(Ending, String)>;

    /// Forgets what it saw after `plies` moves were taken back.
    fn take_back(&mut self, _plies: usize) {}

    /// How far each of its counting rules is from ending the game, for a display (none by
    /// default).
    fn countdowns(&self) -> Vec<Countdown> {
        Vec::new()
    }
}

/// Scores a game still going after a number of plies as a draw (self-play's safety net).
#[derive(Clone, Debug)]
pub struct MoveLimit {
    /// The most plies played before the draw.
    pub plies: usize,
}

impl Adjudicator for MoveLimit {
    fn adjudicate(&mut self, game: &GameRecord, _: ByColor<Option<Score>>) -> Option<(Ending, String)> {
        (game.len() >= self.plies).then(|| {
            (
                Ending::draw(Termination::Adjudication),
                format!("the game reached the limit of {} plies", self.plies),
            )
        })
    }
}
