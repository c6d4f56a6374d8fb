//! The `kibitz-engine` program: a UCI engine, plus `bench` and `perft` tools.
//!
//! ```text
//! kibitz-engine                  UCI on stdin/stdout
//! kibitz-engine bench [DEPTH]    search fixed positions; last line "<nodes> nodes <nps> nps"
//! kibitz-engine perft DEPTH [FEN]  count move paths; last line is the total
//! ```

use std::process::ExitCode;
use std::time::Instant;

use kibitz_engine::{BENCH_DEPTH, bench, divide, run_uci};
use shakmaty::{CastlingMode, Chess, PositionError, fen::Fen};

const USAGE: &str = "usage: kibitz-engine [bench [DEPTH] | perft DEPTH [FEN]]";

/// The deepest `bench` accepts; deeper would take hours.
const MAX_BENCH_DEPTH: u32 = 30;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        None => {
            run_uci();
            Ok(())
        }
        Some("bench") => run_bench(&args[1..]),
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

fn parse_depth(text: &str, min: u32, max: u32) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(depth) if (min..=max).contains(&depth) => Ok(depth),
        _ => Err(format!("bad depth '{text}': expected a whole number from {min} to {max}")),
    }
}
