//! The `kibitz-engine` program: a UCI or xboard engine, plus `bench`, `perft` and `epd`.
//!
//! ```text
//! kibitz-engine                  UCI or xboard on stdin/stdout, chosen by the first line
//! kibitz-engine bench [DEPTH] [--eval classical|network]
//!                                search fixed positions; last line "<nodes> nodes <nps> nps"
//! kibitz-engine perft DEPTH [FEN]  count move paths; last line is the total
//! kibitz-engine epd FILE --time SECONDS [--early N]
//!                                a test suite (EPD or Crafty's format); last line "solved X of Y"
//! ```

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::{Parser, Subcommand};
use kibitz_engine::{
    BENCH_DEPTH, EngineHandle, EpdSuiteError, EpdTest, Evaluation, Player, SuiteLimits, bench, divide,
    run_suite, run_uci_lines, run_xboard_lines, stdin_lines,
};
use shakmaty::{CastlingMode, Chess, PositionError, fen::Fen, san::SanPlus};

/// How many iterations in a row the solution must hold before `epd` moves on, by default.
const DEFAULT_EARLY_EXIT: u32 = 2;

/// The deepest `bench` accepts; deeper would take hours.
const MAX_BENCH_DEPTH: u32 = 30;

/// Kibitz's chess engine: without a subcommand, UCI or xboard on stdin/stdout, chosen by the
/// first line.
#[derive(Debug, Parser)]
#[command(name = "kibitz-engine", version, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

/// The engine's measurements.
#[derive(Debug, Subcommand)]
enum Command {
    /// Searches fixed positions; the last line is "<nodes> nodes <nps> nps".
    Bench {
        /// How deep to search each position.
        #[arg(default_value_t = BENCH_DEPTH, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_BENCH_DEPTH)))]
        depth: u32,
        /// The evaluation to search with; the engine's default when not given.
        #[arg(long, value_enum)]
        eval: Option<EvalChoice>,
    },
    /// Counts the move paths of a position to a depth; the last line is the total.
    Perft {
        /// How many plies deep.
        depth: u32,
        /// The position, quoted or as several words; the initial position by default.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        fen: Vec<String>,
    },
    /// Runs a test suite (EPD with `bm`, `am`, or Crafty's `title`/`setboard`/`solution`) with
    /// the built-in engine; the last line is "solved X of Y".
    Epd {
        /// The EPD file.
        file: PathBuf,
        /// The time per position.
        #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
        time: Duration,
        /// How many iterations in a row the solution must hold before moving on.
        #[arg(long, value_name = "N", default_value_t = DEFAULT_EARLY_EXIT)]
        early: u32,
    },
}

/// `bench --eval`.
#[derive(Copy, Clone, Debug, clap::ValueEnum)]
enum EvalChoice {
    /// The hand-written evaluation.
    Classical,
    /// The network built into the engine.
    Network,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None => {
            run_protocol();
            Ok(())
        }
        Some(Command::Bench { depth, eval }) => {
            let evaluation = match eval {
                None => Evaluation::default(),
                Some(EvalChoice::Classical) => Evaluation::Classical,
                Some(EvalChoice::Network) => Evaluation::Network,
            };
            run_bench(depth, evaluation);
            Ok(())
        }
        Some(Command::Epd { file, time, early }) => run_epd(&file, time, early),
        Some(Command::Perft { depth, fen }) => run_perft(depth, &fen),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("kibitz-engine: {message}");
            ExitCode::from(2)
        }
    }
}

/// `--time SECONDS`: a number of seconds above zero.
fn parse_seconds(text: &str) -> Result<Duration, String> {
    match text.parse::<f64>() {
        Ok(secs) if secs > 0.0 && secs < 1e6 => Ok(Duration::from_secs_f64(secs)),
        _ => Err("expected seconds above zero".to_owned()),
    }
}

/// Speaks xboard if the first line is `xboard`, UCI otherwise (the first line included).
fn run_protocol() {
    let mut input = stdin_lines();
    let Some(first) = input.next() else {
        return;
    };
    if first.as_deref().is_ok_and(|line| line.trim() == "xboard") {
        run_xboard_lines(input);
    } else {
        run_uci_lines(std::iter::once(first).chain(input));
    }
}

fn run_bench(depth: u32, evaluation: Evaluation) {
    let report = bench(depth, evaluation, |fen, nodes| println!("{nodes:>12} {fen}"));
    println!("{} nodes {} nps", report.nodes, report.nps());
}

fn run_perft(depth: u32, fen: &[String]) -> Result<(), String> {
    let pos = if fen.is_empty() {
        Chess::default()
    } else {
        // The FEN may come as one argument or as several (an unquoted FEN).
        let text = fen.join(" ");
        let fen: Fen = text.parse().map_err(|e| format!("bad FEN '{text}': {e}"))?;
        fen.into_position(CastlingMode::Standard)
            .or_else(PositionError::ignore_impossible_check)
            .map_err(|e| format!("impossible position '{text}': {e}"))?
    };
    let started = Instant::now();
    let split = divide(&pos, depth);
    let total: u64 = if depth == 0 { 1 } else { split.iter().map(|(_, n)| n).sum() };
    for (m, nodes) in &split {
        println!("{}: {nodes}", m.to_uci(CastlingMode::Standard));
    }
    eprintln!("perft {depth}: {total} nodes in {:.3} s", started.elapsed().as_secs_f64());
    println!("{total}");
    Ok(())
}

fn run_epd(path: &Path, time: Duration, early: u32) -> Result<(), String> {
    let file = path.display();
    let tests = EpdTest::read_suite(path).map_err(|e| match e {
        EpdSuiteError::Empty => format!("nothing to test in '{file}': {e}"),
        EpdSuiteError::BadLine { number, why } => format!("{file}:{number}: {why}"),
        EpdSuiteError::Unreadable { .. } => e.to_string(),
    })?;
    let players: Vec<Box<dyn Player>> = vec![Box::new(EngineHandle::spawn(|| {}))];
    let limits = SuiteLimits { time, early_exit: early };
    let report = run_suite(players, &tests, limits, &|| false, |result, _| {
        let chosen = match (result.chosen, tests.get(result.index)) {
            (Some(m), Some(test)) => SanPlus::from_move(test.pos.clone(), m).to_string(),
            _ => "-".to_owned(),
        };
        let depth = result.info.as_ref().map_or(0, |i| i.depth);
        let verdict = if result.solved { "ok  " } else { "FAIL" };
        println!("{verdict} {:<12} {chosen:<8} depth {depth}", result.id);
    });
    if let Some(failure) = &report.failure {
        return Err(failure.to_string());
    }
    println!("solved {} of {}", report.solved, report.total);
    Ok(())
}
