//! Helpers the app's UI tests share. Each test binary uses some of them.
#![allow(dead_code)]

use std::path::PathBuf;
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use kibitz_app::{FilePicker, KibitzApp};

/// A file picker for tests that never open or save files.
pub struct NoFiles;

impl FilePicker for NoFiles {
    fn open_pgn(&self) -> Option<PathBuf> {
        None
    }
    fn save_pgn(&self, _: &str) -> Option<PathBuf> {
        None
    }
}

/// Steps frames until `done` holds (the engine works on its own thread meanwhile), then a
/// few more so that dialogs have appeared.
pub fn step_until(h: &mut Harness<'_, KibitzApp>, what: &str, done: impl Fn(&KibitzApp) -> bool) {
    let start = Instant::now();
    while !done(h.state()) {
        assert!(start.elapsed() < Duration::from_secs(60), "timed out waiting for {what}");
        h.step();
        std::thread::sleep(Duration::from_millis(5));
    }
    h.run_steps(3);
}

/// Starts a game at the "Beginner" level through the "New game" dialog.
pub fn new_game(h: &mut Harness<'_, KibitzApp>, color: &str, fen: Option<&str>) {
    h.get_by_label("New game").click();
    h.run_steps(3);
    h.get_by_label(color).click();
    h.get_by_label("Beginner").click();
    h.step();
    if let Some(fen) = fen {
        h.get_by_label_contains("Start from FEN").focus();
        h.step();
        h.get_by_label_contains("Start from FEN").type_text(fen);
        h.step();
    }
    h.get_by_label("Start").click();
    h.run_steps(3);
}
