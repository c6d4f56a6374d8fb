//! The playing hall, shared by [`super::run`] and [`super::run_knockout`]: `concurrency`
//! workers play the games handed in, each with its own engine instances; the calling thread
//! writes every game to the PGN as it ends, keeps the score and tells the [`Watcher`].

use std::collections::VecDeque;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use crossbeam_channel::{Sender, bounded, unbounded};
use shakmaty::{ByColor, KnownOutcome};

use super::pgn_out::{GameTags, PgnLog, match_record};
use super::resume::PlayedBefore;
use super::schedule::Fixture;
use super::seats::Seats;
use super::verdict::verdict;
use super::{FinishedGame, Flow, MatchError, MatchSetup, Opening, Overhead, Program, Standings, Watcher};
use crate::runner::PlayedGame;
use crate::{Event, FailureKind, TimeControl};

/// One game to play: its fixture, where it starts, and each side's time control.
#[derive(Clone, Debug)]
pub(super) struct Job {
    /// The fixture.
    pub fixture: Fixture,
    /// The opening.
    pub opening: Opening,
    /// White's and Black's controls (a knockout's tiebreaks shorten them).
    pub controls: ByColor<TimeControl>,
}

impl Job {
    /// The fixture at its engines' own controls.
    pub fn new(setup: &MatchSetup, fixture: Fixture, opening: Opening) -> Job {
        let controls = ByColor {
            white: setup.engines[fixture.white].control.clone(),
            black: setup.engines[fixture.black].control.clone(),
        };
        Job { fixture, opening, controls }
    }
}

/// The games of a run, played and read back, with the score, the PGN they go to and what
/// the runner cost the engines.
pub(super) struct Hall<'a> {
    setup: &'a MatchSetup,
    log: Option<PgnLog>,
    /// Every engine's score.
    pub standings: Standings,
    /// Every game, those read back first, then in the order they ended.
    pub games: Vec<FinishedGame>,
    /// What the runner cost the engines' clocks.
    pub overhead: Overhead,
    /// The watcher said stop.
    pub stopped: bool,
}

impl<'a> Hall<'a> {
    /// Opens the PGN (to append to it, when resuming) and checks that the external engines'
    /// programs can be started.
    ///
    /// # Errors
    /// [`MatchError`] for two engines of one name, a PGN that cannot be opened, or an engine
    /// that cannot be started.
    pub fn open(setup: &'a MatchSetup) -> Result<Hall<'a>, MatchError> {
        let log = setup
            .pgn_out
            .as_deref()
            .map(|p| PgnLog::open(p, setup.resume))
            .transpose()
            .map_err(MatchError::Pgn)?;
        check_programs(setup)?;
        let names: Vec<String> = setup.engines.iter().map(|e| e.name.clone()).collect();
        Ok(Hall {
            setup,
            log,
            standings: Standings::new(&names),
            games: Vec::new(),
            overhead: Overhead::default(),
            stopped: false,
        })
    }

    /// Counts a game of an earlier run, read back from the PGN, as `fixture`'s.
    pub fn read_back(&mut self, fixture: Fixture, read: &PlayedBefore) {
        self.standings.record(fixture.white, fixture.black, read.outcome, read.termination);
        self.games.push(FinishedGame {
            fixture,
            white: self.setup.engines[fixture.white].name.clone(),
            black: self.setup.engines[fixture.black].name.clone(),
            outcome: read.outcome,
            termination: read.termination,
            verdict: written_verdict(&read.game),
            record: read.game.clone(),
            moves: Vec::new(),
            remarks: Vec::new(),
            resumed: true,
        });
    }

    /// Plays `jobs`, in their order as workers come free, writing and counting each game as
    /// it ends. A game abandoned through `cancel` is neither written nor counted; once the
    /// watcher says stop, no new game starts.
    ///
    /// # Errors
    /// [`MatchError::Pgn`] when a game cannot be written (the games under way are finished
    /// first, and no new one starts).
    pub fn play(
        &mut self,
        jobs: Vec<Job>,
        watcher: &mut dyn Watcher,
        cancel: &AtomicBool,
    ) -> Result<(), MatchError> {
        let setup = self.setup;
        let workers = setup.concurrency.clamp(1, jobs.len().max(1));
        let queue: Mutex<VecDeque<Job>> = Mutex::new(jobs.into());
        let stop = AtomicBool::new(false);
        // A worker waits until its game is written and the watcher has seen it before it
        // takes the next job: a stop or cancel the watcher asks for then starts nothing new.
        let (tx, rx) = unbounded::<(Job, PlayedGame, Sender<()>)>();
        let mut failure = None;
        std::thread::scope(|scope| {
            for board in 0..workers {
                let tx = tx.clone();
                let (queue, stop) = (&queue, &stop);
                scope.spawn(move || {
                    let mut seats = Seats::new(&setup.engines, setup.ping_timeout);
                    let (seen_tx, seen) = bounded::<()>(1);
                    loop {
                        if stop.load(Ordering::Relaxed) || cancel.load(Ordering::Relaxed) {
                            break;
                        }
                        let Some(job) = queue.lock().ok().and_then(|mut q| q.pop_front()) else { break };
                        let played = super::board::play_job(setup, &mut seats, (board, &job), cancel);
                        if tx.send((job, played, seen_tx.clone())).is_err() || seen.recv().is_err() {
                            break;
                        }
                    }
                });
            }
            drop(tx);
            for (job, played, seen) in rx {
                match self.finish(&job, played, watcher) {
                    Ok(Flow::Continue) => {}
                    Ok(Flow::Stop) => {
                        self.stopped = true;
                        stop.store(true, Ordering::Relaxed);
                    }
                    Err(e) => {
                        stop.store(true, Ordering::Relaxed);
                        failure.get_or_insert(e);
                    }
                }
                let _ = seen.send(());
            }
        });
        failure.map_or(Ok(()), Err)
    }

    /// Writes, counts and reports a game played (one abandoned through the cancel flag is
    /// passed over).
    fn finish(
        &mut self,
        job: &Job,
        played: PlayedGame,
        watcher: &mut dyn Watcher,
    ) -> Result<Flow, MatchError> {
        let Some(outcome) = outcome(&played) else { return Ok(Flow::Continue) };
        let fixture = job.fixture;
        let verdict = verdict(played.game.ending(), &played.remarks);
        let (white, black) = (&self.setup.engines[fixture.white], &self.setup.engines[fixture.black]);
        let tags = GameTags {
            event: &self.setup.event,
            fixture: &fixture,
            names: ByColor { white: &white.name, black: &black.name },
            controls: ByColor { white: &job.controls.white, black: &job.controls.black },
            opening: &job.opening,
            verdict: &verdict,
        };
        let record = match_record(&played, &tags);
        if let Some(log) = self.log.as_mut() {
            log.append(&record).map_err(MatchError::Pgn)?;
        }
        let termination = played.game.ending().map(|e| e.termination);
        self.standings.record(fixture.white, fixture.black, outcome, termination);
        for report in &played.moves {
            self.overhead.add(report);
        }
        let game = FinishedGame {
            fixture,
            white: white.name.clone(),
            black: black.name.clone(),
            outcome,
            termination,
            verdict,
            record,
            moves: played.moves,
            remarks: played.remarks,
            resumed: false,
        };
        let flow = watcher.finished(&game, &self.standings);
        self.games.push(game);
        Ok(flow)
    }
}

/// Refuses two engines of one name (their games could not be told apart).
///
/// # Errors
/// [`MatchError::SameName`].
pub(super) fn check_names(setup: &MatchSetup) -> Result<Vec<String>, MatchError> {
    let names: Vec<String> = setup.engines.iter().map(|e| e.name.clone()).collect();
    for (i, name) in names.iter().enumerate() {
        if names[..i].contains(name) {
            return Err(MatchError::SameName(name.clone()));
        }
    }
    Ok(names)
}

/// The verdict written after a game's last move (after the move's own comment).
fn written_verdict(game: &crate::GameRecord) -> String {
    let comment = game.node(game.main_end()).map(|n| n.comment().to_owned()).unwrap_or_default();
    match comment.split_once(", ") {
        Some((first, rest)) if super::MoveComment::parse(first).is_some() => rest.to_owned(),
        _ => comment,
    }
}

/// The result of a finished game; `None` for one abandoned through the cancel flag.
fn outcome(played: &PlayedGame) -> Option<KnownOutcome> {
    if played.cancelled {
        return None;
    }
    played.game.ending().map(|e| e.outcome)
}

/// Refuses to begin when an external engine's program cannot be started at all (a wrong
/// path: every one of its games would be lost for nothing).
fn check_programs(setup: &MatchSetup) -> Result<(), MatchError> {
    for spec in setup.engines.iter().filter(|e| matches!(e.program, Program::External(_))) {
        let player = spec.start();
        if let Some(Event::Failed(failure)) = player.try_recv()
            && matches!(failure.kind, FailureKind::CouldNotStart(_))
        {
            return Err(MatchError::CannotStart(failure));
        }
    }
    Ok(())
}
