//! A round of the knockout (rule 3 of the TCEC Cup): the regular game pairs of all its duels
//! first, played together as the runner's concurrency allows, then the tiebreak pairs of the
//! duels still tied, one pair a tied duel at a time (together again) until every duel is
//! decided, each pair a step shorter from game 33 on (see [`tiebreak_control`]).

use std::sync::atomic::AtomicBool;

use shakmaty::{ByColor, KnownOutcome};

use super::Duel;
use super::books::Books;
use super::replay::Replay;
use super::tiebreak::tiebreak_control;
use crate::matches::hall::{Hall, Job};
use crate::matches::{Fixture, MatchError, MatchSetup, Opening, Watcher};

/// How far tiebreaks go before a duel is given to the better seed (a safety net: at the last
/// step's control a decisive pair comes long before).
const MAX_TIEBREAK_PAIRS: usize = 200;

/// A duel under way.
pub(super) struct DuelState {
    round: usize,
    /// Its number within the round, from 1.
    number: usize,
    high: usize,
    low: Option<usize>,
    /// The better seed's half-points and the other's.
    half_points: (u32, u32),
    /// Games finished.
    games: usize,
    /// Games scheduled.
    scheduled: usize,
    /// Whether this is the match for third place.
    pub third_place: bool,
}

impl DuelState {
    /// Duel `number` of `round` between `high` and `low` (`None`: a bye).
    pub fn new(round: usize, number: usize, high: usize, low: Option<usize>) -> DuelState {
        DuelState {
            round,
            number,
            high,
            low,
            half_points: (0, 0),
            games: 0,
            scheduled: 0,
            third_place: false,
        }
    }

    /// Whether the scores are level (a bye is never tied).
    fn tied(&self) -> bool {
        self.low.is_some() && self.half_points.0 == self.half_points.1
    }

    /// The duel as it ended: the engine with more points goes through (the better seed when
    /// the safety net gave up).
    pub fn decided(&self) -> Duel {
        let (high, low) = self.half_points;
        let winner = match self.low {
            Some(other) if low > high => other,
            _ => self.high,
        };
        Duel {
            round: self.round,
            high: self.high,
            low: self.low,
            points: (f64::from(high) / 2.0, f64::from(low) / 2.0),
            games: self.games,
            winner,
            third_place: self.third_place,
        }
    }
}

/// The knockout as it goes: the hall its games are played in, the file being resumed from,
/// the books, and how many games were scheduled.
pub(super) struct Cup<'a, 'w> {
    setup: &'a MatchSetup,
    hall: Hall<'a>,
    replay: Replay,
    /// The books by phase.
    pub books: Books,
    pairs: usize,
    watcher: &'w mut dyn Watcher,
    cancel: &'w AtomicBool,
    names: Vec<String>,
    /// Fixtures made so far.
    scheduled: usize,
    /// The watcher was told of the games read back.
    told: bool,
}

impl<'a, 'w> Cup<'a, 'w> {
    /// The knockout's state before its first game.
    pub fn new(
        setup: &'a MatchSetup,
        hall: Hall<'a>,
        replay: Replay,
        books: Books,
        pairs: usize,
        watcher: &'w mut dyn Watcher,
        cancel: &'w AtomicBool,
    ) -> Cup<'a, 'w> {
        let names = setup.engines.iter().map(|e| e.name.clone()).collect();
        Cup { setup, hall, replay, books, pairs, watcher, cancel, names, scheduled: 0, told: false }
    }

    /// Plays a round's duels from `book` to their end; `false` when the run stopped first.
    ///
    /// # Errors
    /// [`MatchError`] when the PGN cannot be written or resumed from.
    pub fn play_round(&mut self, duels: &mut [DuelState], book: usize) -> Result<bool, MatchError> {
        let mut jobs = Vec::new();
        for duel in duels.iter_mut().filter(|d| d.low.is_some()) {
            for _ in 0..self.pairs {
                let opening = self.books.next(book);
                jobs.extend(self.pair(duel, &opening, false));
            }
        }
        if !self.play(jobs, duels)? {
            return Ok(false);
        }
        for pair in 0..MAX_TIEBREAK_PAIRS {
            let book = self.books.of_tiebreak(book, pair);
            let mut jobs = Vec::new();
            for duel in duels.iter_mut().filter(|d| d.tied()) {
                let opening = self.books.next(book);
                jobs.extend(self.pair(duel, &opening, true));
            }
            if jobs.is_empty() {
                break;
            }
            if !self.play(jobs, duels)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The next game pair of `duel` from `opening`: the better seed White in the first game;
    /// a tiebreak pair at the control for the games played before it (rule 3.c.iii).
    fn pair(&mut self, duel: &mut DuelState, opening: &Opening, tiebreak: bool) -> Vec<Job> {
        let Some(low) = duel.low else { return Vec::new() };
        let (setup, before) = (self.setup, duel.scheduled);
        let control = |engine: usize| {
            let own = &setup.engines[engine].control;
            if tiebreak { tiebreak_control(own, before) } else { own.clone() }
        };
        let mut jobs = Vec::new();
        for (white, black) in [(duel.high, low), (low, duel.high)] {
            self.scheduled += 1;
            duel.scheduled += 1;
            let fixture = Fixture {
                number: self.scheduled,
                round: duel.round,
                game: duel.scheduled,
                encounter: duel.number,
                white,
                black,
                opening: before / 2,
                duel: Some(duel.number),
            };
            let controls = ByColor { white: control(white), black: control(black) };
            jobs.push(Job { fixture, opening: opening.clone(), controls });
        }
        jobs
    }

    /// Plays `jobs` (the games the file holds are read back instead) and counts them in
    /// their duels; `false` when not all were finished.
    fn play(&mut self, jobs: Vec<Job>, duels: &mut [DuelState]) -> Result<bool, MatchError> {
        let wanted = jobs.len();
        let start = self.hall.games.len();
        let mut new = Vec::new();
        for job in jobs {
            match self.replay.take(&job.fixture, &job.opening, &self.names).map_err(MatchError::Resume)? {
                Some(before) => self.hall.read_back(job.fixture, &before),
                None => new.push(job),
            }
        }
        if !new.is_empty() {
            // The rounds so far hold every game of the file, or it is another run's.
            self.replay.check_spent().map_err(MatchError::Resume)?;
            self.tell_resumed();
            self.hall.play(new, self.watcher, self.cancel)?;
        }
        for game in &self.hall.games[start..] {
            let f = &game.fixture;
            let Some(duel) = duels.iter_mut().find(|d| Some(d.number) == f.duel) else { continue };
            let (white, black) = match game.outcome {
                KnownOutcome::Decisive { winner } if winner.is_white() => (2, 0),
                KnownOutcome::Decisive { .. } => (0, 2),
                KnownOutcome::Draw => (1, 1),
            };
            let (high, low) = if f.white == duel.high { (white, black) } else { (black, white) };
            duel.half_points.0 += high;
            duel.half_points.1 += low;
            duel.games += 1;
        }
        Ok(self.hall.games.len() - start == wanted && !self.hall.stopped)
    }

    /// Tells the watcher of the games read back, once, before the first new game.
    fn tell_resumed(&mut self) {
        if !self.told && !self.hall.games.is_empty() {
            self.watcher.resumed(&self.hall.games, &self.hall.standings);
        }
        self.told = true;
    }

    /// The hall once the knockout is over or stopped.
    ///
    /// # Errors
    /// [`MatchError::Resume`] when games of the file were never reached: another run's.
    pub fn finish(mut self) -> Result<Hall<'a>, MatchError> {
        self.replay.check_spent().map_err(MatchError::Resume)?;
        self.tell_resumed();
        Ok(self.hall)
    }
}
