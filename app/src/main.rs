//! `kibitz`: the desktop app.
//!
//! Usage: `kibitz [--screenshot FILE] [GAMES.pgn]`. With `--screenshot`, the window saves a picture of
//! itself after its first frames and closes (used for the README and for start-up timing).

use std::path::PathBuf;
use std::process::ExitCode;

use kibitz_app::{AppOptions, KibitzApp, Settings, mark_process_start, window_icon};

fn main() -> ExitCode {
    mark_process_start();
    let all: Vec<String> = std::env::args().skip(1).collect();
    if let Some(code) = kibitz_engine::cli::run(&all) {
        return code;
    }
    let mut options = AppOptions::from_env();
    let mut args = all.into_iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--screenshot" => match args.next() {
                Some(path) => options.screenshot = Some(PathBuf::from(path)),
                None => return usage("--screenshot needs a file name"),
            },
            "-h" | "--help" => {
                print!("{}", kibitz_engine::cli::usage());
                return ExitCode::SUCCESS;
            }
            other if !other.starts_with('-') && options.open.is_none() => {
                options.open = Some(PathBuf::from(other))
            }
            other => return usage(&format!("unknown argument {other}")),
        }
    }
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

fn usage(message: &str) -> ExitCode {
    eprintln!("kibitz: {message}\n{}", kibitz_engine::cli::usage());
    ExitCode::from(2)
}
