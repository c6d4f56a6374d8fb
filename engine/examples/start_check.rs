//! `cargo run --release -p kibitz-engine --example start_check -- HOME [BEFORE.json]`: reads
//! the files of a Kibitz home (`$KIBITZ_HOME`) the way the app does when it starts, for
//! `tools/kill_test.sh`, which kills the app at random moments.
//!
//! The saved game is read by the app's own code (`app/src/session.rs`, included below), the
//! book, learned positions and PostBook by the engine's loaders, the settings as JSON. With
//! `BEFORE.json` (a copy of `current-game.json` taken just before the kill), every move it
//! holds must still be in the saved game. Prints one line,
//! `files F torn T lost L tmp S shown N resume R` (N: the plies in `BEFORE.json`; R: the plies
//! offered to resume, `none` when no unfinished game is offered), with details of any torn file or lost move on stderr; exits
//! with 1 when a file is torn or a move lost.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use kibitz_engine::{Book, GameRecord, LearnedData, LearningFiles};

/// The app's saved game, compiled here as it is in the app.
#[allow(dead_code)]
#[path = "../../app/src/session.rs"]
mod session;

use session::SavedGame;

/// What was found in one home.
#[derive(Default)]
struct Report {
    files: usize,
    torn: usize,
    lost: usize,
    tmp: usize,
    shown: usize,
    resume: Option<usize>,
}

impl Report {
    fn torn(&mut self, path: &Path, why: impl std::fmt::Display) {
        eprintln!("start_check: TORN {}: {why}", path.display());
        self.torn += 1;
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (home, before) = match args.as_slice() {
        [home] => (PathBuf::from(home), None),
        [home, before] => (PathBuf::from(home), Some(PathBuf::from(before))),
        _ => {
            eprintln!("usage: start_check HOME [BEFORE.json]");
            return ExitCode::from(2);
        }
    };
    let (config, data) = (home.join("config"), home.join("data"));
    let mut report = Report::default();

    let settings = config.join("settings.json");
    if let Ok(bytes) = fs::read(&settings) {
        report.files += 1;
        match serde_json::from_slice::<serde_json::Value>(&bytes) {
            Ok(value) if value.is_object() => {}
            Ok(_) => report.torn(&settings, "not a JSON object"),
            Err(e) => report.torn(&settings, e),
        }
    }

    let saved_path = data.join("current-game.json");
    let saved = if saved_path.exists() {
        report.files += 1;
        check_saved_game(&saved_path, &mut report)
    } else {
        None
    };

    let learned = LearningFiles::in_folder(&data);
    if learned.book.exists() {
        report.files += 1;
        if let Err(e) = Book::load(&learned.book) {
            report.torn(&learned.book, e);
        }
    }
    if learned.positions.exists() {
        report.files += 1;
        if let Err(e) = LearnedData::default().load_positions(&learned.positions) {
            report.torn(&learned.positions, e);
        }
    }
    if learned.postbook.exists() {
        report.files += 1;
        if let Err(e) = LearnedData::default().load_postbook(&learned.postbook) {
            report.torn(&learned.postbook, e);
        }
    }

    for dir in [&config, &data] {
        for entry in fs::read_dir(dir).into_iter().flatten().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') && name.ends_with(".tmp") {
                report.tmp += 1;
            }
            if name.ends_with(".bad") {
                report.torn(&entry.path(), "a damaged file was set aside");
            }
        }
    }

    if let Some(before) = before {
        let shown = fs::read_to_string(&before)
            .ok()
            .and_then(|text| serde_json::from_str::<SavedGame>(&text).ok())
            .and_then(|saved| saved.game().ok());
        if let Some(shown) = shown {
            let after = saved.as_ref().map_or(&[][..], GameRecord::san_moves);
            let kept = shown.san_moves().iter().zip(after).take_while(|(a, b)| a == b).count();
            report.shown = shown.len();
            report.lost = shown.len() - kept;
            if report.lost > 0 {
                eprintln!(
                    "start_check: LOST {} of {} moves shown before the kill (saved now: {})",
                    report.lost,
                    shown.len(),
                    after.join(" ")
                );
            }
        }
    }

    let resume = report.resume.map_or_else(|| "none".to_string(), |n| n.to_string());
    println!(
        "files {} torn {} lost {} tmp {} shown {} resume {resume}",
        report.files, report.torn, report.lost, report.tmp, report.shown
    );
    if report.torn + report.lost > 0 { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}

/// Reads the saved game with the app's [`SavedGame::load_unfinished`] on a copy (it sets a
/// damaged file aside), and returns the game as saved, finished or not.
fn check_saved_game(path: &Path, report: &mut Report) -> Option<GameRecord> {
    let scratch = std::env::temp_dir().join(format!("kibitz-start-check-{}", std::process::id()));
    if let Err(e) = fs::create_dir(&scratch) {
        report.torn(&scratch, format!("no scratch folder: {e}"));
        return None;
    }
    let copy = scratch.join("current-game.json");
    let offered = fs::copy(path, &copy).map(|_| SavedGame::load_unfinished(&copy));
    let _ = fs::remove_dir_all(&scratch);
    match offered {
        Ok((Some((_, game)), _)) => {
            report.resume = Some(game.len());
            Some(game)
        }
        Ok((None, Some(notice))) => {
            report.torn(path, notice);
            None
        }
        // A finished game is not offered; its moves are still compared.
        Ok((None, None)) => fs::read_to_string(path)
            .ok()
            .and_then(|text| serde_json::from_str::<SavedGame>(&text).ok())
            .and_then(|saved| saved.game().ok()),
        Err(e) => {
            report.torn(path, e);
            None
        }
    }
}
