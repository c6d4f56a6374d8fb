//! Playing a match, a gauntlet or a round robin: every fixture of the schedule, those of a
//! resumed run's PGN read back rather than played, the others in the [`Hall`].

use std::sync::atomic::AtomicBool;

use super::hall::{Hall, Job, check_names};
use super::resume::played_before;
use super::schedule::schedule;
use super::{Fixture, MatchError, MatchReport, MatchSetup, Watcher};

/// Plays the match `setup` describes, telling `watcher` of every game. Setting `cancel`
/// abandons the games under way (they are not written: a resumed run plays them again) and
/// ends the run.
///
/// # Errors
/// [`MatchError`] when the match cannot start (a bad schedule, two engines of one name, an
/// engine that cannot be started, a PGN that cannot be resumed from or opened), or when the
/// PGN cannot be written (the games under way are finished first).
pub fn run(
    setup: &MatchSetup,
    watcher: &mut dyn Watcher,
    cancel: &AtomicBool,
) -> Result<MatchReport, MatchError> {
    let names = check_names(setup)?;
    let fixtures =
        schedule(setup.format, names.len(), setup.rounds, setup.games).map_err(MatchError::Schedule)?;
    let before = match (&setup.pgn_out, setup.resume) {
        (Some(path), true) => played_before(path, &fixtures, &names).map_err(MatchError::Resume)?,
        (None, true) => return Err(MatchError::ResumeWithoutPgn),
        _ => Vec::new(),
    };
    let mut hall = Hall::open(setup)?;
    for p in &before {
        hall.read_back(fixtures[p.index], p);
    }
    if !hall.games.is_empty() {
        watcher.resumed(&hall.games, &hall.standings);
    }
    let jobs = fixtures
        .iter()
        .enumerate()
        .filter(|(i, _)| !before.iter().any(|p| p.index == *i))
        .map(|(_, f)| Job::new(setup, *f, setup.openings.opening(f.opening)))
        .collect();
    hall.play(jobs, watcher, cancel)?;
    let complete = hall.games.len() == fixtures.len();
    Ok(MatchReport { standings: hall.standings, games: hall.games, complete, overhead: hall.overhead })
}

/// Plays `fixtures`, a caller's own pairing (the policy tuner's generation), in the
/// `Hall`: each from its opening index in `setup.openings`, at its engines' controls,
/// several at once, each written to the PGN when there is one. There is no schedule and no
/// resuming: the caller keeps its own record. The report's games are in the order they
/// ended.
///
/// # Errors
/// [`MatchError`] for two engines of one name, an engine that cannot be started, or a PGN
/// that cannot be opened or written.
pub fn play_fixtures(
    setup: &MatchSetup,
    fixtures: &[Fixture],
    watcher: &mut dyn Watcher,
    cancel: &AtomicBool,
) -> Result<MatchReport, MatchError> {
    check_names(setup)?;
    let mut hall = Hall::open(setup)?;
    let jobs = fixtures.iter().map(|f| Job::new(setup, *f, setup.openings.opening(f.opening))).collect();
    hall.play(jobs, watcher, cancel)?;
    let complete = hall.games.len() == fixtures.len();
    Ok(MatchReport { standings: hall.standings, games: hall.games, complete, overhead: hall.overhead })
}
