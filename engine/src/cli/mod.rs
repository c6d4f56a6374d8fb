//! The headless command line of the `kibitz` program: `kibitz <subcommand> ...` works without
//! a window, for scripts and for the measurements in `docs/BENCHMARKS.md`. Each subcommand
//! lives in its own file and prints its stable last line on stdout, errors on stderr.
//!
//! The subcommands are one clap definition, [`Command`]: the app adds its window options to it
//! (`app/src/main.rs`), and [`run`] parses it alone for the examples and tests.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod annotate;
mod book;
mod book_edit;
mod levels;
mod match_printer;
mod matches;
mod pgn;
mod progress;
mod selfplay;
mod test_suite;
mod tune_policy;

/// The headless subcommands of `kibitz`.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Crafty's annotate: judge the moves of a PGN file's games with an engine, mark the
    /// mistakes, add the better lines; --html also writes a report with diagrams.
    Annotate(annotate::AnnotateArgs),
    /// Build, merge, export and probe opening books; import and export their user values (NAGs).
    #[command(subcommand)]
    Book(book::BookCommand),
    /// Measure the levels' ratings against Stockfish (UCI_LimitStrength, UCI_Elo), the
    /// weakest through the stronger ones, and print the table of docs/STRENGTH.md.
    Levels(levels::LevelsArgs),
    /// Engine matches and tournaments: built-in and external engines in game pairs, PGN out,
    /// resume.
    Match(Box<matches::MatchArgs>),
    /// Count and replay the games of PGN files, or index one.
    #[command(subcommand)]
    Pgn(pgn::PgnCommand),
    /// Engine-against-itself games with the draw and resign policy on.
    Selfplay(selfplay::SelfplayArgs),
    /// Run a test suite (Crafty's `test`): EPD or Crafty's format, with Kibitz or any engine.
    Test(test_suite::TestArgs),
    /// Self-play tuning of the draw and resign policy: a population whose games' endings
    /// decide who is cloned, mated and replaced; a log to resume and plot, BEST.json out.
    TunePolicy(tune_policy::TunePolicyArgs),
}

impl Command {
    /// Runs the subcommand; its stable last line goes to stdout, its errors to stderr.
    #[must_use]
    pub fn run(self) -> ExitCode {
        match self {
            Command::Annotate(args) => args.run(),
            Command::Book(command) => command.run(),
            Command::Levels(args) => args.run(),
            Command::Match(args) => (*args).run(),
            Command::Pgn(command) => command.run(),
            Command::Selfplay(args) => args.run(),
            Command::Test(args) => args.run(),
            Command::TunePolicy(args) => args.run(),
        }
    }
}

/// `kibitz` without its window: only the subcommands.
#[derive(Debug, Parser)]
#[command(name = "kibitz", version, propagate_version = true)]
struct Headless {
    #[command(subcommand)]
    command: Command,
}

/// Parses `args` (without the program name) as `kibitz <subcommand> ...` and runs it. A
/// malformed command line prints clap's message and exits with its code (2; 0 for `--help`
/// and `--version`).
#[must_use]
pub fn run(args: &[String]) -> ExitCode {
    let all = std::iter::once("kibitz").chain(args.iter().map(String::as_str));
    match Headless::try_parse_from(all) {
        Ok(headless) => headless.command.run(),
        Err(e) => exit_code_of(&e),
    }
}

/// Prints a clap error (or the help or version it stands for) and returns its exit code.
#[must_use]
pub fn exit_code_of(error: &clap::Error) -> ExitCode {
    let _ = error.print();
    ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(2))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_definition_is_consistent() {
        Headless::command().debug_assert();
    }

    #[test]
    fn unknown_subcommands_and_options_are_usage_errors() {
        for args in [
            &["bogus"][..],
            &["book", "bogus"],
            &["pgn", "stats"],
            &["selfplay", "--bogus"],
            &["match"],
            &["match", "--engine", "cmd=x", "--format", "swiss"],
            &["annotate", "in.pgn"],
            &["test"],
            &["test", "x.epd", "--time", "0"],
        ] {
            let all = std::iter::once("kibitz").chain(args.iter().copied());
            let error = Headless::try_parse_from(all).expect_err("refused");
            assert_eq!(error.exit_code(), 2, "{args:?}: {error}");
        }
    }
}
