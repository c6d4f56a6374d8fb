//! Workspaces: the Play game goes on while an opened game is studied, each keeps its own
//! moves, and the tabs switch between them.

mod common;

use common::step_until;

use std::path::PathBuf;
use std::sync::Arc;

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use kibitz_app::{AppOptions, FilePicker, KibitzApp, Paths, Workspace};
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

#[test]
fn the_play_game_waits_in_its_tab_while_a_game_is_studied() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let paths = Paths::under(dir.path().to_path_buf());
    write_atomic(&paths.settings_file(), br#"{"own_book": false, "clock": {"enabled": false}}"#)
        .expect("settings");
    let pgn = dir.path().join("study.pgn");
    std::fs::write(&pgn, "[Event \"Study\"]\n\n1. d4 d5 2. c4 e6 *\n").expect("a PGN file");
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
