//! `kibitz test SUITE --time SECONDS [--engine PATH] [--workers N] [--early N]`: Crafty's
//! `test`. Every position of an EPD suite (or one in Crafty's own format) is searched for the
//! time given, by Kibitz or by an external UCI or xboard engine; each failed position gets a
//! line, and the last line is `solved S of T`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use shakmaty::san::SanPlus;

use super::progress::Progress;
use crate::{
    EngineConfig, EngineHandle, EpdResult, EpdSuiteError, EpdTest, ExternalEngine, Player, SuiteLimits,
    run_suite,
};

/// The most players that may share a suite.
const MAX_WORKERS: usize = 16;

/// `kibitz test ...`.
#[derive(Debug, Args)]
#[command(after_help = "Each failed position gets a line; the last line is `solved S of T`.")]
pub struct TestArgs {
    /// The suite: EPD (`bm`, `am`, `id`) or Crafty's `title`/`setboard`/`solution` lines.
    suite: PathBuf,
    /// The time per position.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    time: Duration,
    /// An external UCI or xboard engine to test instead of Kibitz.
    #[arg(long, value_name = "PATH")]
    engine: Option<PathBuf>,
    /// How many positions to search at once, each by its own engine (1 to 16).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=MAX_WORKERS as i64))]
    workers: u16,
    /// Move on once the solution has been the best for this many iterations in a row (0:
    /// search for the whole time).
    #[arg(long, value_name = "N", default_value_t = 2)]
    early: u32,
}

/// `--time SECONDS`: a number of seconds above zero.
fn parse_seconds(text: &str) -> Result<Duration, String> {
    match text.parse::<f64>() {
        Ok(secs) if secs > 0.0 && secs < 1e6 => Ok(Duration::from_secs_f64(secs)),
        _ => Err("expected seconds above zero".to_owned()),
    }
}

impl TestArgs {
    /// Runs the suite: exit code 2 when the suite cannot be read, 1 when the engine failed.
    #[must_use]
    pub fn run(self) -> ExitCode {
        let file = self.suite.display();
        let tests = match EpdTest::read_suite(&self.suite) {
            Ok(tests) => tests,
            Err(e) => {
                match e {
                    EpdSuiteError::BadLine { number, why } => {
                        eprintln!("kibitz test: {file}:{number}: {why}")
                    }
                    EpdSuiteError::Empty => eprintln!("kibitz test: nothing to test in '{file}': {e}"),
                    EpdSuiteError::Unreadable { .. } => eprintln!("kibitz test: {e}"),
                }
                return ExitCode::from(2);
            }
        };
        let players: Vec<Box<dyn Player>> = (0..self.workers)
            .map(|_| match &self.engine {
                Some(path) => {
                    Box::new(ExternalEngine::spawn(EngineConfig::from_path(path), || {})) as Box<dyn Player>
                }
                None => Box::new(EngineHandle::spawn(|| {})),
            })
            .collect();
        let limits = SuiteLimits { time: self.time, early_exit: self.early };
        let mut progress = Progress::stderr();
        let suite = tests.len() as u64;
        let report = run_suite(players, &tests, limits, &|| false, |result, so_far| {
            if !result.solved {
                // The failed line goes out whole, between two redraws of the bar.
                progress.finish();
                println!("{}", failed_line(result, &tests));
            }
            let detail = format!("{} of {} positions, {} solved", so_far.total, suite, so_far.solved);
            progress.report(so_far.total as u64, suite, &detail);
        });
        progress.finish();
        drop(progress);
        let code = match &report.failure {
            Some(failure) => {
                eprintln!("kibitz test: the engine failed {failure}");
                ExitCode::FAILURE
            }
            None => ExitCode::SUCCESS,
        };
        println!("solved {} of {}", report.solved, report.total);
        code
    }
}

/// "FAIL WAC.002: played Rxb2, expected c3 (depth 12)", and what went wrong with the engine
/// if anything did (an illegal move).
fn failed_line(result: &EpdResult, tests: &[EpdTest]) -> String {
    let Some(test) = tests.get(result.index) else { return format!("FAIL {}", result.id) };
    let san = |m| SanPlus::from_move(test.pos.clone(), m).to_string();
    let played = result.chosen.map_or_else(|| "no move".to_owned(), san);
    let mut expected: Vec<String> = test.best.iter().map(|&m| san(m)).collect();
    expected.extend(test.avoid.iter().map(|&m| format!("not {}", san(m))));
    let depth = result.info.as_ref().map_or(0, |i| i.depth);
    let mut line =
        format!("FAIL {}: played {played}, expected {} (depth {depth})", result.id, expected.join(" or "));
    if let Some(failure) = &result.failure {
        line.push_str(&format!(": {}", failure.to_string().lines().next().unwrap_or_default()));
    }
    line
}
