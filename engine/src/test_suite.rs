//! Running a test suite (Crafty's `test`): each position is searched for a fixed time by a
//! [`Player`] (the built-in engine or an external one, alike), with
//! [`Purpose::TestSuite`], and the move it chooses is checked against the position's
//! solutions. A search ends early once a solving move has stayed the best for a few
//! iterations; several players may share a suite, one position each at a time.
//!
//! ```
//! use std::time::Duration;
//! use kibitz_engine::{EngineHandle, EpdTest, Player, SuiteLimits, run_suite};
//! let tests = EpdTest::parse_suite("6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id \"mate\";").unwrap();
//! let players: Vec<Box<dyn Player>> = vec![Box::new(EngineHandle::spawn(|| {}))];
//! let limits = SuiteLimits { time: Duration::from_millis(200), early_exit: 2 };
//! let report = run_suite(players, &tests, limits, &|| false, |_, _| {});
//! assert_eq!((report.solved, report.total), (1, 1));
//! ```

use std::convert::Infallible;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crossbeam_channel::unbounded;
use shakmaty::Move;

use crate::{
    Command, EpdTest, Event, FailureKind, Job, Player, PlayerFailure, Purpose, SearchInfo, SearchLimits,
};

/// Iterations shallower than this never count towards an early exit: at low depth the
/// right move is often found for the wrong reason.
pub const EARLY_EXIT_MIN_DEPTH: u32 = 6;

/// How long a search may run past its time before it is stopped, and then how long it may
/// take to answer the stop before the player counts as hung.
const GRACE: Duration = Duration::from_secs(5);

/// How often a waiting search looks whether the suite was cancelled.
const POLL: Duration = Duration::from_millis(20);

/// How a suite is searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SuiteLimits {
    /// The time for each position.
    pub time: Duration,
    /// Stop a position once a solving move has been the best for this many completed
    /// iterations in a row of depth [`EARLY_EXIT_MIN_DEPTH`] or more (0: never; Crafty's
    /// `test FILE N`).
    pub early_exit: u32,
}

/// What happened to one position.
#[derive(Clone, Debug, PartialEq)]
pub struct EpdResult {
    /// The position's place in the suite, from 0.
    pub index: usize,
    /// The position's `id`.
    pub id: String,
    /// The move the player chose; `None` when it chose none (no legal move, an illegal one).
    pub chosen: Option<Move>,
    /// Whether it solves the position.
    pub solved: bool,
    /// The player's last complete line (best line, exact score).
    pub info: Option<SearchInfo>,
    /// How long the search took.
    pub time: Duration,
    /// What went wrong without ending the suite (an illegal move), if anything.
    pub failure: Option<PlayerFailure>,
}

/// The player failed for good: the suite ended at this position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteFailure {
    /// The position's place in the suite, from 0.
    pub index: usize,
    /// The position's `id`.
    pub id: String,
    /// What happened.
    pub failure: PlayerFailure,
}

impl fmt::Display for SuiteFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at position {} ({}): {}", self.index + 1, self.id, self.failure)
    }
}

impl std::error::Error for SuiteFailure {}

/// The tally of a suite, whole or so far.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EpdReport {
    /// Positions solved.
    pub solved: usize,
    /// Positions searched (all of the suite unless it was cancelled or the player failed).
    pub total: usize,
    /// Positions in the suite.
    pub suite: usize,
    /// Each searched position's result, in the suite's order.
    pub results: Vec<EpdResult>,
    /// Why the suite ended before its last position, if a player failed.
    pub failure: Option<SuiteFailure>,
}

impl EpdReport {
    fn add(&mut self, result: EpdResult) {
        self.solved += usize::from(result.solved);
        self.total += 1;
        let at = self.results.partition_point(|r| r.index < result.index);
        self.results.insert(at, result);
    }
}

/// A suite run in the background; its progress is the report so far. Cancelling stops the
/// position being searched at once; the job then ends in
/// [`JobError::Cancelled`](crate::JobError::Cancelled) and its last progress tells how far it
/// came.
///
/// ```
/// use std::time::Duration;
/// use kibitz_engine::{EngineHandle, EpdJob, EpdTest, Player, SuiteLimits};
/// let test = EpdTest::parse("6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#;").unwrap().unwrap();
/// let players: Vec<Box<dyn Player>> = vec![Box::new(EngineHandle::spawn(|| {}))];
/// let limits = SuiteLimits { time: Duration::from_millis(200), early_exit: 2 };
/// let report = EpdJob::start(players, vec![test], limits, || {}).wait().unwrap();
/// assert_eq!((report.solved, report.total), (1, 1));
/// ```
pub type EpdJob = Job<EpdReport, EpdReport, Infallible>;

impl EpdJob {
    /// Starts [`run_suite`]'s work on a new thread; `wake` is called whenever there is news.
    pub fn start(
        players: Vec<Box<dyn Player>>,
        tests: Vec<EpdTest>,
        limits: SuiteLimits,
        wake: impl Fn() + Send + Sync + 'static,
    ) -> EpdJob {
        Job::spawn("test suite", wake, move |ctx| {
            let cancelled = || ctx.is_cancelled();
            Ok(run_suite(players, &tests, limits, &cancelled, |_, report| ctx.progress(report.clone())))
        })
    }
}

/// What a worker tells the suite.
enum News {
    Result(EpdResult),
    Failed(SuiteFailure),
}

/// Searches every test with one of `players` (each takes the next position when it is
/// free) and reports each result with the tally so far, on the calling thread. Ends early
/// when `cancelled` holds (the positions being searched are dropped) or when a player fails
/// for good (the report says which and where).
pub fn run_suite(
    players: Vec<Box<dyn Player>>,
    tests: &[EpdTest],
    limits: SuiteLimits,
    cancelled: &(dyn Fn() -> bool + Sync),
    mut on_result: impl FnMut(&EpdResult, &EpdReport),
) -> EpdReport {
    let mut report = EpdReport { suite: tests.len(), ..EpdReport::default() };
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let (news_tx, news) = unbounded();
    std::thread::scope(|scope| {
        for player in players {
            let news_tx = news_tx.clone();
            let (next, failed) = (&next, &failed);
            scope.spawn(move || {
                let over = || cancelled() || failed.load(Ordering::SeqCst);
                loop {
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    let Some(test) = tests.get(index).filter(|_| !over()) else { break };
                    match solve(player.as_ref(), test, index, limits, &over) {
                        Searched::Done(result) => {
                            let _ = news_tx.send(News::Result(result));
                        }
                        Searched::Failed(failure) => {
                            failed.store(true, Ordering::SeqCst);
                            let failure = SuiteFailure { index, id: test.id.clone(), failure };
                            let _ = news_tx.send(News::Failed(failure));
                            break;
                        }
                        Searched::Cancelled => break,
                    }
                }
            });
        }
        drop(news_tx);
        for item in news {
            match item {
                News::Result(result) => {
                    report.add(result.clone());
                    on_result(&result, &report);
                }
                // With several players, the first failure is the one reported.
                News::Failed(failure) => {
                    report.failure.get_or_insert(failure);
                }
            }
        }
    });
    report
}

/// How a position's search ended.
enum Searched {
    Done(EpdResult),
    Failed(PlayerFailure),
    Cancelled,
}

/// Counts the completed iterations in a row whose best move solves the position.
#[derive(Default)]
struct Held {
    /// The depth of the last iteration counted.
    depth: u32,
    /// How many in a row.
    count: u32,
}

impl Held {
    /// Takes a line of the search into account. An engine may report the same depth again
    /// (after a re-search): a better line of that depth that does not solve breaks the run,
    /// one that solves does not count twice.
    fn see(&mut self, info: &SearchInfo, test: &EpdTest) {
        if info.multipv != 1 || info.bound.is_some() || info.depth < EARLY_EXIT_MIN_DEPTH {
            return;
        }
        let solves = info.pv.first().is_some_and(|&m| test.is_solved_by(m));
        if !solves {
            self.count = 0;
        } else if info.depth > self.depth {
            self.count += 1;
        }
        self.depth = self.depth.max(info.depth);
    }
}

/// Searches one position with `player`.
fn solve(
    player: &dyn Player,
    test: &EpdTest,
    index: usize,
    limits: SuiteLimits,
    cancelled: &dyn Fn() -> bool,
) -> Searched {
    // Every position is its own search id, so that a late answer to an earlier one is ignored.
    let id = index as u64 + 1;
    player.send(Command::NewGame);
    player.send(Command::Position { start: test.pos.clone(), moves: Vec::new() });
    player.send(Command::Go { id, purpose: Purpose::TestSuite, limits: SearchLimits::movetime(limits.time) });
    let mut started = Instant::now();
    let mut stopped: Option<Instant> = None;
    let mut held = Held::default();
    let mut last = None;
    let mut trouble = None;
    loop {
        if cancelled() {
            player.send(Command::Stop);
            return Searched::Cancelled;
        }
        match player.recv_timeout(POLL) {
            // An external engine's handshake delays the search: its time starts now.
            Some(Event::Ready { .. }) => started = Instant::now(),
            Some(Event::Info { id: i, info }) if i == id => {
                held.see(&info, test);
                if limits.early_exit > 0 && held.count >= limits.early_exit && stopped.is_none() {
                    player.send(Command::Stop);
                    stopped = Some(Instant::now());
                }
                if info.multipv == 1 && info.bound.is_none() {
                    last = Some(info);
                }
            }
            Some(Event::BestMove { id: i, best, .. }) if i == id => {
                let solved = best.is_some_and(|m| test.is_solved_by(m));
                let result = EpdResult {
                    index,
                    id: test.id.clone(),
                    chosen: best,
                    solved,
                    info: last,
                    time: started.elapsed(),
                    failure: trouble,
                };
                return Searched::Done(result);
            }
            Some(Event::Failed(failure)) if failure.is_fatal() => return Searched::Failed(failure),
            // The search's best move, without a move, follows.
            Some(Event::Failed(failure)) => trouble = Some(failure),
            _ => {}
        }
        match stopped {
            None if started.elapsed() > limits.time + GRACE => {
                player.send(Command::Stop);
                stopped = Some(Instant::now());
            }
            Some(at) if at.elapsed() > GRACE => {
                let what = format!("no move {} s after stop", GRACE.as_secs());
                let failure = PlayerFailure {
                    engine: player.name().to_owned(),
                    kind: FailureKind::Hung(what),
                    last_lines: Vec::new(),
                };
                return Searched::Failed(failure);
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{EngineHandle, JobError, JobOutcome, Score};

    fn mate_in_one(id: &str) -> EpdTest {
        EpdTest::parse(&format!("6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; am Ra7; id \"{id}\";"))
            .expect("parses")
            .expect("a test")
    }

    fn builtin(n: usize) -> Vec<Box<dyn Player>> {
        (0..n).map(|_| Box::new(EngineHandle::spawn(|| {})) as Box<dyn Player>).collect()
    }

    /// Polls a job until it ends, failing after `limit`.
    fn finish(job: &mut EpdJob, limit: Duration) -> JobOutcome<EpdReport, Infallible> {
        let start = Instant::now();
        loop {
            if let Some(outcome) = job.try_finish() {
                return outcome;
            }
            assert!(start.elapsed() < limit, "the suite did not end");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    #[test]
    fn the_job_reports_each_position() {
        // The second position lists the mate as a move to avoid, so the engine, which mates,
        // fails it.
        let mut unsolvable = mate_in_one("b");
        unsolvable.avoid = unsolvable.best.clone();
        let tests = vec![mate_in_one("a"), unsolvable];
        let limits = SuiteLimits { time: Duration::from_millis(300), early_exit: 1 };
        let mut job = EpdJob::start(builtin(1), tests.clone(), limits, || {});
        let report = finish(&mut job, Duration::from_secs(30)).expect("the suite ran");
        assert_eq!((report.solved, report.total, report.suite), (1, 2, 2));
        let verdicts: Vec<(usize, bool)> = report.results.iter().map(|r| (r.index, r.solved)).collect();
        assert_eq!(verdicts, [(0, true), (1, false)]);
        assert_eq!(report.results[1].chosen, tests[1].best.first().copied());
        assert_eq!(job.progress(), Some(report.clone()));
        // Two players share the suite; the report is the same, in the suite's order.
        let mut ids = Vec::new();
        let shared = run_suite(builtin(2), &tests, limits, &|| false, |r, _| ids.push(r.id.clone()));
        ids.sort();
        assert_eq!(ids, ["a", "b"]);
        assert_eq!(shared.results.iter().map(|r| r.solved).collect::<Vec<_>>(), [true, false]);
    }

    #[test]
    fn cancelling_the_job_stops_the_search_at_once() {
        let opening = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4;";
        let test = EpdTest::parse(opening).expect("parses").expect("a test");
        let tests = vec![test.clone(), test];
        // Without early exit each position would take a minute.
        let limits = SuiteLimits { time: Duration::from_secs(60), early_exit: 0 };
        let mut job = EpdJob::start(builtin(1), tests, limits, || {});
        std::thread::sleep(Duration::from_millis(200));
        let asked = Instant::now();
        job.cancel();
        assert_eq!(finish(&mut job, Duration::from_secs(5)), Err(JobError::Cancelled));
        assert!(asked.elapsed() < Duration::from_secs(2), "{:?}", asked.elapsed());
        assert_eq!(job.progress(), None, "no position was finished");
    }

    fn line(depth: u32, bound: Option<crate::ScoreBound>, pv: Vec<Move>) -> SearchInfo {
        SearchInfo {
            depth,
            seldepth: depth,
            multipv: 1,
            score: Score::Cp(0),
            bound,
            nodes: 0,
            nps: 0,
            time: Duration::ZERO,
            hashfull: 0,
            tbhits: 0,
            pv,
        }
    }

    #[test]
    fn a_solution_is_held_over_deep_exact_iterations_only() {
        let test = mate_in_one("a");
        let (mate, avoid) = (test.best[0], test.avoid[0]);
        let mut held = Held::default();
        held.see(&line(EARLY_EXIT_MIN_DEPTH - 1, None, vec![mate]), &test);
        assert_eq!(held.count, 0, "too shallow");
        held.see(&line(EARLY_EXIT_MIN_DEPTH, Some(crate::ScoreBound::Lower), vec![mate]), &test);
        assert_eq!(held.count, 0, "a bound is no complete iteration");
        held.see(&line(EARLY_EXIT_MIN_DEPTH, None, vec![mate]), &test);
        held.see(&line(EARLY_EXIT_MIN_DEPTH, None, vec![mate]), &test);
        assert_eq!(held.count, 1, "the same depth again does not count twice");
        held.see(&line(EARLY_EXIT_MIN_DEPTH + 1, None, vec![mate]), &test);
        assert_eq!(held.count, 2);
        held.see(&line(EARLY_EXIT_MIN_DEPTH + 1, None, vec![avoid]), &test);
        assert_eq!(held.count, 0, "a change of mind breaks the run");
    }
}
