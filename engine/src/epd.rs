//! Test suites in EPD (Crafty's `test`): search each position for a fixed time and check
//! the move against the `bm` (best move) and `am` (avoid move) operations.
//!
//! ```
//! use std::time::Duration;
//! use kibitz_engine::{EpdTest, run_suite};
//! let suite = "6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id \"mate\";";
//! let tests: Vec<EpdTest> = suite.lines().filter_map(|l| EpdTest::parse(l).transpose()).collect::<Result<_, _>>().unwrap();
//! let report = run_suite(&tests, Duration::from_millis(200), 2, |_| {});
//! assert_eq!((report.solved, report.total), (1, 1));
//! ```

use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use shakmaty::{CastlingMode, Chess, Move, PositionError, fen::Fen, san::San};

use crate::Job;
use crate::search::Engine;

/// Iterations shallower than this never count towards an early exit: at low depth the
/// right move is often found for the wrong reason.
pub const EARLY_EXIT_MIN_DEPTH: u32 = 6;
use crate::{SearchInfo, SearchLimits};

/// One position of a test suite.
#[derive(Clone, Debug, PartialEq)]
pub struct EpdTest {
    /// The `id` operation, or the FEN when there is none.
    pub id: String,
    /// The position.
    pub pos: Chess,
    /// Moves that solve it (`bm`); any of them will do.
    pub best: Vec<Move>,
    /// Moves that fail it (`am`).
    pub avoid: Vec<Move>,
}

impl EpdTest {
    /// Parses one EPD line; `Ok(None)` for blank lines and comments (`#`).
    ///
    /// # Errors
    /// Says what is wrong: a bad position, an unreadable or illegal move, no `bm`/`am`.
    pub fn parse(line: &str) -> Result<Option<EpdTest>, String> {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return Ok(None);
        }
        let fields: Vec<&str> = line.splitn(5, ' ').collect();
        let [board, turn, castling, ep, ops @ ..] = fields.as_slice() else {
            return Err(format!("too few fields in '{line}'"));
        };
        let text = format!("{board} {turn} {castling} {ep} 0 1");
        let fen: Fen = text.parse().map_err(|e| format!("bad position '{text}': {e}"))?;
        let pos: Chess = fen
            .into_position(CastlingMode::Standard)
            .or_else(PositionError::ignore_impossible_check)
            .map_err(|e| format!("impossible position '{text}': {e}"))?;
        let mut test = EpdTest { id: text.clone(), pos, best: Vec::new(), avoid: Vec::new() };
        for op in ops.first().copied().unwrap_or_default().split(';') {
            let op = op.trim();
            let (name, args) = op.split_once(' ').unwrap_or((op, ""));
            match name {
                "bm" | "am" => {
                    for word in args.split_whitespace() {
                        let san: San =
                            word.parse().map_err(|_| format!("bad move '{word}' in {}", test.id))?;
                        let m = san
                            .to_move(&test.pos)
                            .map_err(|_| format!("illegal move '{word}' in {}", test.id))?;
                        if name == "bm" { test.best.push(m) } else { test.avoid.push(m) }
                    }
                }
                "id" => test.id = args.trim().trim_matches('"').to_owned(),
                _ => {}
            }
        }
        if test.best.is_empty() && test.avoid.is_empty() {
            return Err(format!("no bm or am in {}", test.id));
        }
        Ok(Some(test))
    }

    /// Parses a whole suite, one test a line.
    ///
    /// # Errors
    /// [`EpdSuiteError::BadLine`] for the first line that is not a test, blank or a
    /// comment; [`EpdSuiteError::Empty`] when there is no test at all.
    pub fn parse_suite(text: &str) -> Result<Vec<EpdTest>, EpdSuiteError> {
        let mut tests = Vec::new();
        for (index, line) in text.lines().enumerate() {
            match EpdTest::parse(line) {
                Ok(Some(test)) => tests.push(test),
                Ok(None) => {}
                Err(why) => return Err(EpdSuiteError::BadLine { number: index + 1, why }),
            }
        }
        if tests.is_empty() { Err(EpdSuiteError::Empty) } else { Ok(tests) }
    }

    /// Whether playing `m` solves the position.
    #[must_use]
    pub fn is_solved_by(&self, m: Move) -> bool {
        (self.best.is_empty() || self.best.contains(&m)) && !self.avoid.contains(&m)
    }
}

/// Why a test suite could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EpdSuiteError {
    /// There is no test: the text is empty, or only blank lines and comments.
    Empty,
    /// A line that is not a test.
    BadLine {
        /// The line's number, from 1.
        number: usize,
        /// What is wrong with it.
        why: String,
    },
}

impl std::fmt::Display for EpdSuiteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EpdSuiteError::Empty => write!(f, "no test positions (empty, or only blank lines and comments)"),
            EpdSuiteError::BadLine { number, why } => write!(f, "line {number}: {why}"),
        }
    }
}

impl std::error::Error for EpdSuiteError {}

/// What happened to one position.
#[derive(Clone, Debug, PartialEq)]
pub struct EpdResult {
    /// The position's `id`.
    pub id: String,
    /// The move the engine chose.
    pub chosen: Option<Move>,
    /// Whether it solves the position.
    pub solved: bool,
    /// The last completed iteration.
    pub info: Option<SearchInfo>,
}

/// The tally of a suite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdReport {
    /// Positions solved.
    pub solved: usize,
    /// Positions searched (all of the suite unless it was cancelled).
    pub total: usize,
}

/// How far a suite has come.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EpdProgress {
    /// Positions searched so far.
    pub done: usize,
    /// Positions solved so far.
    pub solved: usize,
    /// Positions in the suite.
    pub total: usize,
}

/// A suite run in the background, reporting [`EpdProgress`] after each position. Cancelling
/// stops the position being searched at once; the job then ends in
/// [`JobError::Cancelled`](crate::JobError::Cancelled) and its last progress tells how far it
/// came.
///
/// ```
/// use std::time::Duration;
/// use kibitz_engine::{EpdJob, EpdTest};
/// let test = EpdTest::parse("6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#;").unwrap().unwrap();
/// let job = EpdJob::start(vec![test], Duration::from_millis(200), 2, || {});
/// let report = job.wait().unwrap();
/// assert_eq!((report.solved, report.total), (1, 1));
/// ```
pub type EpdJob = Job<EpdProgress, EpdReport, Infallible>;

impl EpdJob {
    /// Starts [`run_suite`]'s work on a new thread; `wake` is called whenever there is news.
    pub fn start(
        tests: Vec<EpdTest>,
        time: Duration,
        early_exit: u32,
        wake: impl Fn() + Send + Sync + 'static,
    ) -> EpdJob {
        Job::spawn("epd", wake, move |ctx| {
            let stop = Arc::new(AtomicBool::new(false));
            ctx.stop_on_cancel(&stop);
            let total = tests.len();
            let cancelled = || ctx.is_cancelled();
            Ok(search_suite(&tests, time, early_exit, &stop, &cancelled, &mut |_, report| {
                ctx.progress(EpdProgress { done: report.total, solved: report.solved, total });
            }))
        })
    }
}

/// Searches every test for `time`, stopping early once a solving move has been the best
/// for `early_exit` completed iterations in a row (0: never) of depth
/// [`EARLY_EXIT_MIN_DEPTH`] or more, and reports each result.
pub fn run_suite(
    tests: &[EpdTest],
    time: Duration,
    early_exit: u32,
    mut on_result: impl FnMut(&EpdResult),
) -> EpdReport {
    let stop = AtomicBool::new(false);
    search_suite(tests, time, early_exit, &stop, &|| false, &mut |result, _| on_result(result))
}

/// [`run_suite`] with a way out: `stop` is the searches' stop flag, set from outside once
/// `cancelled` holds; `on_result` also gets the tally so far.
fn search_suite(
    tests: &[EpdTest],
    time: Duration,
    early_exit: u32,
    stop: &AtomicBool,
    cancelled: &dyn Fn() -> bool,
    on_result: &mut dyn FnMut(&EpdResult, &EpdReport),
) -> EpdReport {
    let mut engine = Engine::default();
    let mut report = EpdReport { solved: 0, total: 0 };
    for test in tests {
        // Cleared before looking at `cancelled`, so that a cancel after the look still stops.
        stop.store(false, Ordering::SeqCst);
        if cancelled() {
            break;
        }
        engine.new_game();
        let mut held = 0;
        let outcome = engine.search(&test.pos, &[], &SearchLimits::movetime(time), stop, |info| {
            if info.multipv != 1 || info.bound.is_some() {
                return;
            }
            if info.depth < EARLY_EXIT_MIN_DEPTH {
                return;
            }
            if info.pv.first().is_some_and(|&m| test.is_solved_by(m)) {
                held += 1;
                if early_exit > 0 && held >= early_exit {
                    stop.store(true, Ordering::Relaxed);
                }
            } else {
                held = 0;
            }
        });
        if cancelled() {
            // A search cut short by the cancel is no result.
            break;
        }
        let ok = outcome.best.is_some_and(|m| test.is_solved_by(m));
        report.solved += usize::from(ok);
        report.total += 1;
        let result = EpdResult { id: test.id.clone(), chosen: outcome.best, solved: ok, info: outcome.info };
        on_result(&result, &report);
    }
    report
}

#[cfg(test)]
mod tests {
    use shakmaty::Position;

    use super::*;

    #[test]
    fn parses_bm_am_and_id() {
        let test = EpdTest::parse("6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; am Ra7; id \"WAC.x\";")
            .expect("parses")
            .expect("a test");
        assert_eq!(test.id, "WAC.x");
        assert_eq!(test.best.len(), 1);
        assert_eq!(test.avoid.len(), 1);
        assert!(test.is_solved_by(test.best[0]));
        assert!(!test.is_solved_by(test.avoid[0]));
        assert_eq!(EpdTest::parse("  # comment"), Ok(None));
        assert_eq!(EpdTest::parse(""), Ok(None));
    }

    #[test]
    fn am_only_solves_with_any_other_move() {
        let test = EpdTest::parse("4k3/8/8/3q4/8/8/3R4/4K3 w - - am Kf1;").expect("parses").expect("a test");
        let pos = test.pos.clone();
        let other = pos.legal_moves().into_iter().find(|m| !test.avoid.contains(m)).expect("a move");
        assert!(test.is_solved_by(other));
    }

    #[test]
    fn bad_lines_are_errors() {
        for line in [
            "only three fields",
            "8/8/8/8/8/8/8/8 w - - bm Ka1;",
            "6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Zz9;",
            "6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra2a9;",
            "6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Qh5;",
            "6k1/5ppp/8/8/8/8/8/R5K1 w - - id \"no solution\";",
        ] {
            assert!(EpdTest::parse(line).is_err(), "{line}");
        }
    }

    #[test]
    fn a_suite_needs_a_test_and_names_its_first_bad_line() {
        let suite =
            EpdTest::parse_suite("# mates\n\n6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#;\n").expect("a suite");
        assert_eq!(suite.len(), 1);
        assert_eq!(EpdTest::parse_suite(""), Err(EpdSuiteError::Empty));
        assert_eq!(EpdTest::parse_suite("# nothing\n\n  \n"), Err(EpdSuiteError::Empty));
        let bad = EpdTest::parse_suite("# junk follows\n\nnot a position\n8/8 w\n").expect_err("bad");
        assert!(matches!(bad, EpdSuiteError::BadLine { number: 3, .. }), "{bad:?}");
        assert!(bad.to_string().starts_with("line 3: "), "{bad}");
    }

    fn mate_in_one(id: &str) -> EpdTest {
        EpdTest::parse(&format!("6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; am Ra7; id \"{id}\";"))
            .expect("parses")
            .expect("a test")
    }

    /// Polls a job until it ends, failing after `limit`.
    fn finish(job: &mut EpdJob, limit: Duration) -> crate::JobOutcome<EpdReport, Infallible> {
        let start = std::time::Instant::now();
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
        let mut job = EpdJob::start(tests.clone(), Duration::from_millis(300), 1, || {});
        let report = finish(&mut job, Duration::from_secs(30)).expect("the suite ran");
        assert_eq!(report, EpdReport { solved: 1, total: 2 });
        assert_eq!(job.progress(), Some(EpdProgress { done: 2, solved: 1, total: 2 }));
        let mut ids = Vec::new();
        assert_eq!(run_suite(&tests, Duration::from_millis(300), 1, |r| ids.push(r.id.clone())), report);
        assert_eq!(ids, ["a", "b"]);
    }

    #[test]
    fn cancelling_the_job_stops_the_search_at_once() {
        let opening = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4;";
        let test = EpdTest::parse(opening).expect("parses").expect("a test");
        let tests = vec![test.clone(), test];
        // Without early exit each position would take a minute.
        let mut job = EpdJob::start(tests, Duration::from_secs(60), 0, || {});
        std::thread::sleep(Duration::from_millis(200));
        let asked = std::time::Instant::now();
        job.cancel();
        assert_eq!(finish(&mut job, Duration::from_secs(5)), Err(crate::JobError::Cancelled));
        assert!(asked.elapsed() < Duration::from_secs(2), "{:?}", asked.elapsed());
        assert_eq!(job.progress(), None, "no position was finished");
    }
}
