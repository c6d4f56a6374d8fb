//! `cargo run --release -p kibitz-engine --example start_check -- HOME [BEFORE.json [SHOWN.log]]`:
//! reads the files of a Kibitz home (`$KIBITZ_HOME`) the way the app does when it starts, for
//! `tools/kill_test.sh`, which kills the app at random moments.
//!
//! The saved games (Play and study) are read by the app's own code (`app/src/session.rs`,
//! included below), the book, learned positions and PostBook by the engine's loaders, the
//! settings as JSON. With `BEFORE.json` (a copy of `current-game.json` taken just before the
//! kill), every move it holds must still be in the saved game. With `SHOWN.log` (what the app
//! logged as shown on its board, `KIBITZ_SHOWN_LOG`), the moves of its last line must be
//! saved too. Prints one line,
//! `files F torn T lost L tmp S shown N resume R painted P unsaved U` (N: the plies in
//! `BEFORE.json`; R: the plies offered to resume, `none` when no unfinished game is offered;
//! P: the plies of the last line of the log; U: how many of them are not in the saved game),
//! with details of any torn file or lost move on stderr; exits with 1 when a file is torn or
//! a move lost.

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
    painted: usize,
    unsaved: usize,
}

impl Report {
    fn torn(&mut self, path: &Path, why: impl std::fmt::Display) {
        eprintln!("start_check: TORN {}: {why}", path.display());
        self.torn += 1;
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (home, before, log) = match args.as_slice() {
        [home] => (PathBuf::from(home), None, None),
        [home, before] => (PathBuf::from(home), Some(PathBuf::from(before)), None),
        [home, before, log] => (PathBuf::from(home), Some(PathBuf::from(before)), Some(PathBuf::from(log))),
        _ => {
            eprintln!("usage: start_check HOME [BEFORE.json [SHOWN.log]]");
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
    let study = data.join("current-study.json");
    if study.exists() {
        report.files += 1;
        match on_a_copy(&study, SavedGame::load) {
            Ok((_, Some(notice))) => report.torn(&study, notice),
            Err(e) => report.torn(&study, e),
            Ok((_, None)) => {}
        }
    }

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

    if let Some((plies, last)) =
        log.and_then(|log| fs::read_to_string(log).ok()).and_then(|text| last_shown(&text))
    {
        let after = saved.as_ref().map_or(&[][..], GameRecord::san_moves);
        let kept = plies == 0 || after.get(plies - 1).is_some_and(|san| *san == last);
        report.painted = plies;
        if !kept {
            report.unsaved = plies.saturating_sub(after.len()).max(1);
            eprintln!(
                "start_check: UNSAVED {} of {plies} plies painted (last {last}; saved now: {})",
                report.unsaved,
                after.join(" ")
            );
        }
    }

    let resume = report.resume.map_or_else(|| "none".to_string(), |n| n.to_string());
    println!(
        "files {} torn {} lost {} tmp {} shown {} resume {resume} painted {} unsaved {}",
        report.files, report.torn, report.lost, report.tmp, report.shown, report.painted, report.unsaved
    );
    if report.torn + report.lost + report.unsaved > 0 { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}

/// The plies and last move of the last line of the app's log of what it showed
/// (`PLIES SAN MICROSECONDS`).
fn last_shown(log: &str) -> Option<(usize, String)> {
    let mut words = log.lines().last()?.split(' ');
    Some((words.next()?.parse().ok()?, words.next()?.to_string()))
}

/// Runs `load` on a copy of `path` in a scratch folder (the app's loaders set a damaged file
/// aside, which must not change the home under test).
fn on_a_copy<T>(path: &Path, load: impl FnOnce(&Path) -> T) -> std::io::Result<T> {
    let scratch = std::env::temp_dir().join(format!("kibitz-start-check-{}", std::process::id()));
    fs::create_dir(&scratch)?;
    let copy = scratch.join(path.file_name().unwrap_or_default());
    let loaded = fs::copy(path, &copy).map(|_| load(&copy));
    let _ = fs::remove_dir_all(&scratch);
    loaded
}

/// Reads the saved game with the app's [`SavedGame::load_unfinished`] on a copy (it sets a
/// damaged file aside), and returns the game as saved, finished or not.
fn check_saved_game(path: &Path, report: &mut Report) -> Option<GameRecord> {
    match on_a_copy(path, SavedGame::load_unfinished) {
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
