//! Resuming a knockout from its PGN. The knockout makes its fixtures round by round as
//! before, and each one whose `Round` tag (`round.duel.game`) the file holds is taken from
//! there instead of played, once its White, Black and opening are checked: duels decided
//! are not replayed, a duel half played plays only its missing games. Before the first new
//! game is played every game of the file must have been taken (the rounds before hold them
//! all), or the file is another run's.

use std::path::Path;

use super::super::resume::{PlayedBefore, ReadBack, ReadGame, ResumeError};
use super::super::schedule::Fixture;
use crate::matches::Opening;

/// The games of the file not yet taken.
pub(super) struct Replay {
    games: Vec<Option<ReadGame>>,
}

impl Replay {
    /// Nothing to replay: a new run.
    pub fn none() -> Replay {
        Replay { games: Vec::new() }
    }

    /// The games of `path`, its torn last game cut.
    ///
    /// # Errors
    /// [`ResumeError`] when the file is unreadable, damaged or repeats a game.
    pub fn read(path: &Path) -> Result<Replay, ResumeError> {
        let back = ReadBack::read(path)?;
        back.cut_torn_end()?;
        Ok(Replay { games: back.games.into_iter().map(Some).collect() })
    }

    /// The game of `fixture`, played from `opening` by engines named `names`, when the file
    /// holds it.
    ///
    /// # Errors
    /// [`ResumeError::Foreign`] when the file's game of that round has other engines or
    /// another opening.
    pub fn take(
        &mut self,
        fixture: &Fixture,
        opening: &Opening,
        names: &[String],
    ) -> Result<Option<PlayedBefore>, ResumeError> {
        let round = fixture.round_tag();
        let Some(slot) = self.games.iter_mut().find(|g| g.as_ref().is_some_and(|g| g.tag("Round") == round))
        else {
            return Ok(None);
        };
        let Some(read) = slot.take() else { return Ok(None) };
        let same_opening = opening.name.as_ref().is_none_or(|name| read.game.tag("Opening") == Some(name));
        if read.tag("White") != names[fixture.white]
            || read.tag("Black") != names[fixture.black]
            || !same_opening
        {
            return Err(read.foreign());
        }
        Ok(Some(PlayedBefore {
            index: fixture.number - 1,
            game: read.game,
            outcome: read.outcome,
            termination: read.termination,
        }))
    }

    /// Checks that every game of the file was taken.
    ///
    /// # Errors
    /// [`ResumeError::Foreign`] for the first game left: it belongs to no fixture of this
    /// knockout.
    pub fn check_spent(&self) -> Result<(), ResumeError> {
        match self.games.iter().flatten().next() {
            Some(left) => Err(left.foreign()),
            None => Ok(()),
        }
    }
}
