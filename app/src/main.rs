//! `kibitz`: the desktop app.
//!
//! Usage: `kibitz [--screenshot FILE] [GAMES.pgn]`, or `kibitz <subcommand> ...` headless
//! (`kibitz help`). With `--screenshot`, the window saves a picture of
//! itself after its first frames and closes (used for the README and for start-up timing).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use kibitz_app::{AppOptions, KibitzApp, Settings, mark_process_start, window_icon};

/// Kibitz, a desktop chess program: opens its window, or runs a subcommand without one.
#[derive(Debug, Parser)]
#[command(name = "kibitz", version, propagate_version = true, args_conflicts_with_subcommands = true)]
struct Cli {
    /// Saves a picture of the window after its first frames, then closes it.
    #[arg(long, value_name = "FILE")]
    screenshot: Option<PathBuf>,
    /// A PGN file to open (several games open as a game list).
    #[arg(value_name = "GAMES.pgn")]
    games: Option<PathBuf>,
    #[command(subcommand)]
    command: Option<kibitz_engine::cli::Command>,
}

fn main() -> ExitCode {
    mark_process_start();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return kibitz_engine::cli::exit_code_of(&e),
    };
    if let Some(command) = cli.command {
        return command.run();
    }
    let mut options = AppOptions::from_env();
    options.screenshot = cli.screenshot;
    options.open = cli.games;
    // Only a peek: the app loads the settings itself and reports a damaged file.
    let settings = Settings::peek(&options.paths.settings_file()).unwrap_or_default();
    let viewport = egui::ViewportBuilder::default()
        .with_title("Kibitz")
        .with_app_id("io.github.kibitz.Kibitz")
        .with_inner_size(settings.window_size)
        .with_min_inner_size([640.0, 420.0])
        .with_icon(window_icon());
    let native = eframe::NativeOptions { viewport, ..Default::default() };
    match eframe::run_native("Kibitz", native, Box::new(|cc| Ok(Box::new(KibitzApp::new(cc, options))))) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("kibitz: could not open a window: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        Cli::try_parse_from(std::iter::once("kibitz").chain(args.iter().copied()))
    }

    #[test]
    fn the_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn a_file_opens_the_window_and_a_subcommand_runs_headless() {
        let cli = parse(&["--screenshot", "shot.png", "games.pgn"]).expect("valid");
        assert_eq!(cli.screenshot, Some(PathBuf::from("shot.png")));
        assert_eq!(cli.games, Some(PathBuf::from("games.pgn")));
        assert!(cli.command.is_none());
        let cli = parse(&["pgn", "stats", "games.pgn"]).expect("valid");
        assert!(cli.games.is_none());
        assert!(matches!(cli.command, Some(kibitz_engine::cli::Command::Pgn(_))));
        assert_eq!(parse(&["a.pgn", "b.pgn"]).expect_err("one file").exit_code(), 2);
        assert_eq!(parse(&["--screenshot"]).expect_err("needs a file").exit_code(), 2);
    }
}
