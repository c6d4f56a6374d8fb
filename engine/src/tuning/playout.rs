//! Checking a reading by playing on: when a run checks readings, every declined draw offer
//! of a generation is played on from the position where it was made, and every agreed draw
//! and resignation from the position where the game ended, by the run's judge on both sides
//! (the built-in engine at the run's time control, or the engine `--judge` names, at its own
//! limits), neither side offering, answering or resigning (no policy), until the rules or
//! the move limit end it. How that game ends judges the reading ([`super::replacement`] says
//! what it changes): an offer, accepted or not, of a game one side then wins was a
//! misreading, so was declining one of a game then drawn, and so was a resignation of a
//! game the resigner does not then lose.
//!
//! A run may play each reading on several times (`--playouts K`, the colours alternating):
//! a side that wins more than half of the games won, otherwise the position counts as drawn
//! ([`Playout::majority`]). One game played on from a level middlegame by an engine at 50 ms
//! a move is decided more often than not, so a single game refutes most offers that a
//! majority of such games would call drawn.
//!
//! The same engine plays both sides because the members differ only in their policies,
//! which the game played on leaves out: it is the game the two would have played had
//! neither spoken.

use std::sync::atomic::AtomicBool;

use super::run::Quiet;
use super::{Playout, Seat, Tuner};
use crate::matches::{EngineSpec, Fixture, MatchError, Opening, OpeningSource, Order, play_fixtures};
use crate::{GameRecord, Termination};

/// The game's first `plies` moves, without its result: where playing on starts.
fn position_reached(record: &GameRecord, plies: usize) -> GameRecord {
    let mut on = GameRecord::from_position(record.start().clone());
    for &m in record.moves().iter().take(plies) {
        if on.play(m).is_err() {
            break;
        }
    }
    on
}

impl Tuner {
    /// Plays each of `starts` (a game and how many of its moves were played at the
    /// reading) on from there; one [`Playout`] per start, in order (`None` for one the run
    /// was cancelled before or whose judge failed).
    ///
    /// # Errors
    /// [`MatchError`] when the engines cannot be started.
    pub(super) fn play_on(
        &self,
        starts: &[(&GameRecord, usize)],
        cancel: &AtomicBool,
    ) -> Result<Vec<Option<Playout>>, MatchError> {
        if starts.is_empty() {
            return Ok(Vec::new());
        }
        let openings: Vec<Opening> = starts
            .iter()
            .map(|&(game, plies)| Opening { name: None, game: position_reached(game, plies) })
            .collect();
        let engines = [1, 2]
            .iter()
            .map(|k| EngineSpec { name: format!("{} playing on {k}", self.judge.name), ..self.judge.clone() })
            .collect();
        let suite = OpeningSource::suite(openings.clone(), Order::Sequential, 0);
        let setup = self.hall(engines, suite, "Kibitz policy tuning, playing on");
        // Each start `playouts` times, the judge's two instances swapping colours.
        let each = self.header.playouts.max(1);
        let fixtures: Vec<Fixture> = (0..starts.len() * each)
            .map(|k| Fixture {
                number: k + 1,
                round: 1,
                game: k + 1,
                encounter: 0,
                white: k % 2,
                black: 1 - k % 2,
                opening: k / each,
                duel: None,
            })
            .collect();
        let report = play_fixtures(&setup, &fixtures, &mut Quiet, cancel)?;
        let games: Vec<Option<(Option<Seat>, usize)>> = fixtures
            .iter()
            .map(|fixture| {
                let played = report.games.iter().find(|g| g.fixture.number == fixture.number)?;
                // A judge that crashed, stalled, broke the rules or lost on time says
                // nothing of the reading.
                let failed = [Termination::Abandoned, Termination::RulesInfraction, Termination::TimeForfeit];
                played.termination.filter(|t| !failed.contains(t))?;
                let plies = played.record.len().saturating_sub(openings[fixture.opening].game.len());
                Some((Seat::winner(played.outcome), plies))
            })
            .collect();
        Ok(games
            .chunks(each)
            .map(|of_one| Playout::majority(&of_one.iter().flatten().copied().collect::<Vec<_>>()))
            .collect())
    }
}
