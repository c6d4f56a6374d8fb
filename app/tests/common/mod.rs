//! Helpers the app's UI tests share. Each test binary uses some of them.
#![allow(dead_code)]

use std::path::PathBuf;
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use kibitz_app::{AppOptions, FilePicker, KibitzApp, Paths};

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

/// Opens `game.pgn`, saves games to `saved.pgn` and positions to `position.epd`; opens the
/// book `open.kbook` (or `open.bin`), saves books as `saved.kbook` and exports them to
/// `exported.bin`; picks the suite `suite.epd` and the tablebases folder `tablebases` when
/// they are there, and the tuning log `run.log`; all in one folder (the test's).
pub struct InFolder(pub PathBuf);

impl FilePicker for InFolder {
    fn open_pgn(&self) -> Option<PathBuf> {
        Some(self.0.join("game.pgn"))
    }
    fn save_pgn(&self, _: &str) -> Option<PathBuf> {
        Some(self.0.join("saved.pgn"))
    }
    fn save_position(&self, _: &str) -> Option<PathBuf> {
        Some(self.0.join("position.epd"))
    }
    fn open_suite(&self) -> Option<PathBuf> {
        Some(self.0.join("suite.epd")).filter(|p| p.exists())
    }
    fn pick_tablebases(&self) -> Option<PathBuf> {
        Some(self.0.join("tablebases")).filter(|p| p.exists())
    }
    fn open_tuning_log(&self) -> Option<PathBuf> {
        Some(self.0.join("run.log"))
    }
    fn open_book(&self) -> Option<PathBuf> {
        ["open.kbook", "open.bin"].iter().map(|name| self.0.join(name)).find(|p| p.exists())
    }
    fn save_book(&self, _: &str, format: kibitz_app::BookFormat) -> Option<PathBuf> {
        Some(self.0.join(match format {
            kibitz_app::BookFormat::Kibitz => "saved.kbook",
            kibitz_app::BookFormat::Polyglot => "exported.bin",
        }))
    }
}

/// The app with its files (settings, session, opened and saved games) in `root`.
pub fn app_in(root: &std::path::Path) -> Harness<'static, KibitzApp> {
    let options = AppOptions {
        paths: Paths::under(root.to_path_buf()),
        picker: std::sync::Arc::new(InFolder(root.to_path_buf())),
        screenshot: None,
        open: None,
    };
    let mut h = Harness::builder().with_size([1100.0, 760.0]).build_eframe(|cc| KibitzApp::new(cc, options));
    h.run_steps(2);
    h
}

/// Steps until a widget whose label or value contains `text` is shown (at most 30 s).
pub fn wait_for_text(h: &mut Harness<'_, KibitzApp>, text: &str) {
    let start = Instant::now();
    let shows = |n: &egui_kittest::kittest::AccessKitNode<'_>| {
        n.label().is_some_and(|l| l.contains(text)) || n.value().is_some_and(|v| v.contains(text))
    };
    while h.query_all_by(shows).next().is_none() {
        assert!(start.elapsed() < Duration::from_secs(30), "no '{text}' shown");
        h.step();
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Types `san` into the Move box and presses Enter.
pub fn play_typed(h: &mut Harness<'_, KibitzApp>, san: &str) {
    h.get_by_label("Move").focus();
    h.step();
    h.get_by_label("Move").type_text(san);
    h.step();
    h.key_press(egui::Key::Enter);
    h.run_steps(2);
}

/// The app with its files in `root` and the game `pgn` opened (with "Open game") as a study.
pub fn studied(root: &std::path::Path, pgn: &str) -> Harness<'static, KibitzApp> {
    std::fs::write(root.join("game.pgn"), pgn).expect("the test's folder is writable");
    let mut h = app_in(root);
    h.get_by_label("Open game").click();
    step_until(&mut h, "the study", KibitzApp::is_study);
    h
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

/// Starts a game at the weakest level through the "New game" dialog.
pub fn new_game(h: &mut Harness<'_, KibitzApp>, color: &str, fen: Option<&str>) {
    h.get_by_label("New game").click();
    h.run_steps(3);
    h.get_by_label(color).click();
    h.get_by_label(&kibitz_engine::Level::weakest().label()).click();
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
