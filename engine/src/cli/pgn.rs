//! `kibitz pgn stats FILE...`: read every game and replay every move, main lines and
//! variations, printing where games broke (on stderr) and ending with
//! `games N moves M errors E`. `kibitz pgn index FILE` builds the game
//! list of a file the way the app opens it, ending with `games N seconds S`.

use std::fs::File;
use std::process::ExitCode;
use std::time::Instant;

use crate::{GameIndex, PgnError, PgnStats, pgn_stats_with};

/// How many errors of a file `kibitz pgn stats` prints (on stderr) before counting the rest.
const MAX_ERRORS_SHOWN: usize = 20;

const USAGE: &str = "Usage: kibitz pgn stats FILE...   replay every game, last line: games N moves M errors E
       kibitz pgn index FILE      build the game list, last line: games N seconds S";

/// Runs `kibitz pgn ...` with the arguments after `pgn`.
#[must_use]
pub fn run(args: &[String]) -> ExitCode {
    match (args.first().map(String::as_str), &args.get(1..).unwrap_or_default()) {
        (Some("stats"), files) if !files.is_empty() => stats(files),
        (Some("index"), [file]) => index(file),
        _ => {
            eprintln!("{USAGE}");
            ExitCode::FAILURE
        }
    }
}

fn stats(files: &[String]) -> ExitCode {
    let started = Instant::now();
    let mut total = PgnStats::default();
    let mut bytes = 0;
    for path in files {
        let mut shown = 0;
        let mut show = |e: &PgnError| {
            shown += 1;
            if shown <= MAX_ERRORS_SHOWN {
                eprintln!("{path}: {e}");
            }
        };
        let counted = File::open(path).and_then(|file| {
            bytes += file.metadata()?.len();
            pgn_stats_with(file, &mut show)
        });
        if shown > MAX_ERRORS_SHOWN {
            eprintln!("{path}: {} more errors", shown - MAX_ERRORS_SHOWN);
        }
        match counted {
            Ok(stats) => {
                total.games += stats.games;
                total.moves += stats.moves;
                total.errors += stats.errors;
            }
            Err(e) => {
                eprintln!("{path}: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    let seconds = started.elapsed().as_secs_f64().max(1e-9);
    eprintln!(
        "{:.3} s, {:.0} games/s, {:.1} MB/s",
        seconds,
        total.games as f64 / seconds,
        bytes as f64 / 1e6 / seconds
    );
    println!("{total}");
    ExitCode::SUCCESS
}

fn index(path: &str) -> ExitCode {
    let started = Instant::now();
    match GameIndex::build(path.as_ref(), &mut |_| std::ops::ControlFlow::Continue(())) {
        Ok(index) => {
            println!("games {} seconds {:.3}", index.len(), started.elapsed().as_secs_f64());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{path}: {e}");
            ExitCode::FAILURE
        }
    }
}
