//! Workspaces: the Play game goes on while an opened game is studied, each keeps its own
//! moves, and the tabs switch between them.

mod common;

use common::step_until;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use kibitz_app::{AppOptions, FilePicker, KibitzApp, Paths, SavedGame, Workspace};
use kibitz_engine::write_atomic;

/// Opens the file it was given.
struct FixedFile(PathBuf);

impl FilePicker for FixedFile {
    fn open_pgn(&self) -> Option<PathBuf> {
        Some(self.0.clone())
    }
    fn save_pgn(&self, _: &str) -> Option<PathBuf> {
        None
    }
}

fn click(h: &mut Harness<'_, KibitzApp>, label: &str) {
    h.get_by_label(label).click();
    h.run_steps(4);
}

/// Settings without Kibitz's book or a clock in `root`, and a game to study there.
fn without_book_or_clock(root: &std::path::Path) -> (Paths, std::path::PathBuf) {
    let paths = Paths::under(root.to_path_buf());
    write_atomic(&paths.settings_file(), br#"{"own_book": false, "clock": {"enabled": false}}"#)
        .expect("settings");
    let pgn = root.join("study.pgn");
    std::fs::write(&pgn, "[Event \"Study\"]\n\n1. d4 d5 2. c4 e6 *\n").expect("a PGN file");
    (paths, pgn)
}

#[test]
fn the_play_game_waits_in_its_tab_while_a_game_is_studied() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let (paths, pgn) = without_book_or_clock(dir.path());
    let options = AppOptions { paths, picker: Arc::new(FixedFile(pgn)), screenshot: None, open: None };
    let mut h = Harness::builder().with_size([1100.0, 760.0]).build_eframe(|cc| KibitzApp::new(cc, options));
    h.run_steps(2);
    let study_tab = h.get_by_label("Study");
    assert!(study_tab.accesskit_node().is_disabled(), "no study is open yet");

    click(&mut h, "e2, white pawn");
    click(&mut h, "e4, empty");
    step_until(&mut h, "Kibitz's reply", |app| app.game().len() == 2);
    let played = h.state().game().san_moves().to_vec();

    click(&mut h, "Open game");
    step_until(&mut h, "the study", |app| app.workspace() == Workspace::Study);
    assert_eq!(h.state().game().san_moves(), ["d4", "d5", "c4", "e6"]);

    click(&mut h, "Play");
    assert_eq!(h.state().workspace(), Workspace::Play);
    assert_eq!(h.state().game().san_moves(), played, "the Play game was kept");
    click(&mut h, "Study");
    assert_eq!(h.state().game().san_moves(), ["d4", "d5", "c4", "e6"], "the study was kept");
}

/// The moves of a saved game (none when there is no file).
fn saved_moves(path: &std::path::Path) -> Vec<String> {
    let Ok(text) = std::fs::read_to_string(path) else { return Vec::new() };
    let saved: SavedGame = serde_json::from_str(&text).expect("a saved game");
    saved.game().expect("a readable game").san_moves().to_vec()
}

#[test]
fn a_kill_loses_neither_the_play_game_nor_the_study() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let (paths, pgn) = without_book_or_clock(dir.path());
    let options = || AppOptions {
        paths: paths.clone(),
        picker: Arc::new(FixedFile(pgn.clone())),
        screenshot: None,
        open: None,
    };
    let start = |options: AppOptions| {
        let mut h =
            Harness::builder().with_size([1100.0, 760.0]).build_eframe(|cc| KibitzApp::new(cc, options));
        h.run_steps(2);
        h
    };
    let played = {
        let mut h = start(options());
        click(&mut h, "e2, white pawn");
        click(&mut h, "e4, empty");
        // Each move is in the file by the end of the frame that shows it (before it is painted).
        let since = Instant::now();
        while h.state().game().len() < 2 {
            assert!(since.elapsed() < Duration::from_secs(60), "Kibitz did not reply");
            h.step();
            assert_eq!(saved_moves(&paths.current_game_file()), h.state().game().san_moves());
        }
        let played = h.state().game().san_moves().to_vec();

        click(&mut h, "Open game");
        step_until(&mut h, "the study", |app| app.workspace() == Workspace::Study);
        click(&mut h, "Play");
        played
        // The harness is dropped without any shutdown: as if the process were killed.
    };
    assert_eq!(saved_moves(&paths.current_game_file()), played, "opening a study kept the Play game");
    assert_eq!(saved_moves(&paths.study_file()), ["d4", "d5", "c4", "e6"], "the study has its own file");

    let mut h = start(options());
    assert!(!h.get_by_label("Study").accesskit_node().is_disabled(), "the study is back in its tab");
    click(&mut h, "Resume");
    assert_eq!(h.state().workspace(), Workspace::Play);
    assert_eq!(h.state().game().san_moves(), played, "the Play game is resumed");
    click(&mut h, "Study");
    assert_eq!(h.state().game().san_moves(), ["d4", "d5", "c4", "e6"], "and the study kept");
}
