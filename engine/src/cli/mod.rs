//! The headless command line of the `kibitz` program: `kibitz <subcommand> ...` works without
//! a window, for scripts and for the measurements in `docs/BENCHMARKS.md`. Each subcommand
//! lives in its own file and prints its stable last line on stdout, errors on stderr.

use std::process::ExitCode;

mod book;
mod pgn;
mod progress;
mod selfplay;

/// The subcommands, with a one-line summary each.
const SUBCOMMANDS: &[(&str, &str)] = &[
    ("book", "build, merge, annotate, export and probe opening books (kibitz book help)"),
    ("pgn", "count and replay the games of PGN files, index them (kibitz pgn stats FILE)"),
    ("selfplay", "engine-against-itself games with the draw and resign policy (kibitz selfplay help)"),
];

/// Runs a subcommand if `args` (without the program name) starts with one. Returns `None`
/// when they do not, so that the caller opens the window instead.
#[must_use]
pub fn run(args: &[String]) -> Option<ExitCode> {
    let first = args.first()?;
    match first.as_str() {
        "book" => Some(book::run(&args[1..])),
        "pgn" => Some(pgn::run(&args[1..])),
        "selfplay" => Some(selfplay::run(&args[1..])),
        "help" => {
            println!("{}", usage());
            Some(ExitCode::SUCCESS)
        }
        _ => None,
    }
}

/// The list of subcommands, for `kibitz help`.
#[must_use]
pub fn usage() -> String {
    let mut text = String::from(
        "Usage: kibitz [--screenshot FILE] [GAMES.pgn] | kibitz <subcommand> ...\n\nSubcommands:\n",
    );
    for (name, summary) in SUBCOMMANDS {
        text.push_str(&format!("  {name:<8} {summary}\n"));
    }
    text.push_str("  help     this list\n");
    text
}
