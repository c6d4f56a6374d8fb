//! The `kibitz-engine` program: a UCI or xboard engine, plus `bench`, `perft` and `epd`.
//!
//! ```text
//! kibitz-engine                  UCI or xboard on stdin/stdout, chosen by the first line
//! kibitz-engine bench [DEPTH]    search fixed positions; last line "<nodes> nodes <nps> nps"
//! kibitz-engine perft DEPTH [FEN]  count move paths; last line is the total
//! kibitz-engine epd FILE --time SECONDS [--early N]
//!                                a test suite; last line "solved X of Y"
//! ```

use std::process::ExitCode;
use std::time::{Duration, Instant};

use kibitz_engine::{
    BENCH_DEPTH, EpdSuiteError, EpdTest, bench, divide, run_suite, run_uci_lines, run_xboard_lines,
    stdin_lines,
};
use shakmaty::{CastlingMode, Chess, PositionError, fen::Fen, san::SanPlus};

const USAGE: &str =
    "usage: kibitz-engine [bench [DEPTH] | perft DEPTH [FEN] | epd FILE --time SECONDS [--early N]]";

/// How many iterations in a row the solution must hold before `epd` moves on, by default.
const DEFAULT_EARLY_EXIT: u32 = 2;

/// The deepest `bench` accepts; deeper would take hours.
const MAX_BENCH_DEPTH: u32 = 30;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        None => {
            run_protocol();
            Ok(())
        }
        Some("bench") => run_bench(&args[1..]),
        Some("epd") => run_epd(&args[1..]),
        Some("perft") => run_perft(&args[1..]),
        Some(other) => Err(format!("unknown command '{other}'")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("kibitz-engine: {message}");
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
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

fn run_bench(args: &[String]) -> Result<(), String> {
    let depth = match args {
        [] => BENCH_DEPTH,
        [depth] => parse_depth(depth, 1, MAX_BENCH_DEPTH)?,
        _ => return Err("bench takes at most one argument, the depth".to_owned()),
    };
    let report = bench(depth, |fen, nodes| println!("{nodes:>12} {fen}"));
    println!("{} nodes {} nps", report.nodes, report.nps());
    Ok(())
}

fn run_perft(args: &[String]) -> Result<(), String> {
    let Some((depth, fen)) = args.split_first() else {
        return Err("perft needs a depth".to_owned());
    };
    let depth = parse_depth(depth, 0, u32::MAX)?;
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

fn run_epd(args: &[String]) -> Result<(), String> {
    let Some((file, options)) = args.split_first() else {
        return Err("epd needs a file".to_owned());
    };
    let mut time = None;
    let mut early = DEFAULT_EARLY_EXIT;
    let mut options = options.iter();
    while let Some(option) = options.next() {
        let value = options.next().ok_or_else(|| format!("'{option}' needs a value"))?;
        match option.as_str() {
            "--time" => match value.parse::<f64>() {
                Ok(secs) if secs > 0.0 && secs < 1e6 => time = Some(Duration::from_secs_f64(secs)),
                _ => return Err(format!("bad time '{value}': expected seconds above zero")),
            },
            "--early" => early = value.parse().map_err(|_| format!("bad early exit count '{value}'"))?,
            other => return Err(format!("unknown option '{other}'")),
        }
    }
    let time = time.ok_or("epd needs --time SECONDS")?;
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read '{file}': {e}"))?;
    let tests = EpdTest::parse_suite(&text).map_err(|e| match e {
        EpdSuiteError::Empty => format!("nothing to test in '{file}': {e}"),
        EpdSuiteError::BadLine { number, why } => format!("{file}:{number}: {why}"),
    })?;
    let report = run_suite(&tests, time, early, |result| {
        let test = tests.iter().find(|t| t.id == result.id);
        let chosen = match (result.chosen, test) {
            (Some(m), Some(test)) => SanPlus::from_move(test.pos.clone(), m).to_string(),
            _ => "-".to_owned(),
        };
        let depth = result.info.as_ref().map_or(0, |i| i.depth);
        let verdict = if result.solved { "ok  " } else { "FAIL" };
        println!("{verdict} {:<12} {chosen:<8} depth {depth}", result.id);
    });
    println!("solved {} of {}", report.solved, report.total);
    Ok(())
}

fn parse_depth(text: &str, min: u32, max: u32) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(depth) if (min..=max).contains(&depth) => Ok(depth),
        _ => Err(format!("bad depth '{text}': expected a whole number from {min} to {max}")),
    }
}
