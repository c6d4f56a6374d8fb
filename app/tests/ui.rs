//! The app driven through its accessible labels, as a player (or a screen reader) would.

mod common;

use common::{new_game, step_until};

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use kibitz_app::{AppOptions, FilePicker, KibitzApp, Paths};
use shakmaty::{Color, Position, Role, Square};

/// Answers every dialog with one fixed file.
struct FixedFile(PathBuf);

impl FilePicker for FixedFile {
    fn open_pgn(&self) -> Option<PathBuf> {
        Some(self.0.clone())
    }
    fn save_pgn(&self, _suggested: &str) -> Option<PathBuf> {
        Some(self.0.clone())
    }
}

fn app(root: &Path) -> Harness<'static, KibitzApp> {
    let options = AppOptions {
        paths: Paths::under(root.to_path_buf()),
        picker: Arc::new(FixedFile(root.join("saved.pgn"))),
        screenshot: None,
        open: None,
    };
    Harness::builder().with_size([1100.0, 760.0]).build_eframe(|cc| KibitzApp::new(cc, options))
}

fn click_square(h: &mut Harness<'_, KibitzApp>, label: &str) {
    h.get_by_label(label).click();
    h.step();
}

fn square_center(h: &Harness<'_, KibitzApp>, square: &str) -> egui::Pos2 {
    h.get_by_label_contains(&format!("{square}, ")).rect().center()
}

#[test]
fn plays_moves_by_click_and_by_drag_and_the_engine_answers() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = app(dir.path());
    h.step();
    new_game(&mut h, "White", None);
    assert_eq!(h.state().human(), Color::White);

    // Click-click: select the pawn, then its target.
    click_square(&mut h, "e2, white pawn");
    click_square(&mut h, "e4, empty");
    assert_eq!(h.state().game().san_moves()[0], "e4");
    step_until(&mut h, "the engine's reply", |app| app.game().len() == 2);
    assert!(h.get_by_label("e4, white pawn").rect().width() > 10.0);

    // Drag and drop the king's knight.
    let (from, to) = (square_center(&h, "g1"), square_center(&h, "f3"));
    h.hover_at(from);
    h.drag_at(from);
    h.step();
    h.hover_at(to);
    h.step();
    h.drop_at(to);
    h.step();
    assert_eq!(h.state().game().san_moves()[2], "Nf3");
    step_until(&mut h, "the engine's second reply", |app| app.game().len() == 4);

    // An illegal click does nothing: a pawn cannot jump three squares.
    click_square(&mut h, "a2, white pawn");
    click_square(&mut h, "a5, empty");
    assert_eq!(h.state().game().len(), 4);

    // Take back the last full move: the engine's reply and the knight move.
    h.get_by_label("Take back").click();
    h.step();
    assert_eq!(h.state().game().len(), 2);
    assert_eq!(h.state().game().position().turn(), Color::White);
}

#[test]
fn keyboard_entry_plays_san_and_uci_and_explains_refusals() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = app(dir.path());
    h.step();
    new_game(&mut h, "White", None);
    h.get_by_label("Move").focus();
    h.step();
    h.get_by_label("Move").type_text("Nf3");
    h.step();
    h.key_press(egui::Key::Enter);
    h.run_steps(2);
    assert_eq!(h.state().game().san_moves()[0], "Nf3");
    step_until(&mut h, "the engine's reply", |app| app.game().len() == 2);
    h.step();
    h.get_by_label("Move").focus();
    h.step();
    h.get_by_label("Move").type_text("Qxh7");
    h.step();
    h.key_press(egui::Key::Enter);
    h.run_steps(2);
    assert_eq!(h.state().game().len(), 2, "an illegal move is refused");
    assert!(h.query_all_by_value("Qxh7: illegal san").next().is_some(), "the refusal is explained");
    h.get_by_label("Move").focus();
    h.step();
    h.get_by_label("Move").type_text("d2d4");
    h.step();
    h.key_press(egui::Key::Enter);
    h.run_steps(2);
    assert_eq!(h.state().game().san_moves()[2], "d4");
}

#[test]
fn checkmate_ends_the_game_with_its_result() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = app(dir.path());
    h.step();
    // Rd8 is mate on the back rank.
    new_game(&mut h, "White", Some("6k1/5ppp/8/8/8/8/8/3R2K1 w - - 0 1"));
    click_square(&mut h, "d1, white rook");
    click_square(&mut h, "d8, empty");
    h.step();
    assert_eq!(h.state().game().ending().map(|e| e.to_string()).as_deref(), Some("White wins by checkmate"));
    h.get_by_label_contains("Game over");
    assert!(h.query_all_by_value("White wins by checkmate.").next().is_some());
    assert!(h.query_all_by_value("Result 1-0").next().is_some());
    h.get_by_label("Close").click();
    h.run_steps(3);
    assert!(h.query_all_by_value("Result 1-0").next().is_none());
    // The finished game takes no more moves.
    click_square(&mut h, "g8, black king");
    assert_eq!(h.state().game().len(), 1);
}

#[test]
fn a_stalemate_fen_starts_finished_and_a_bad_fen_starts_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = app(dir.path());
    h.step();
    new_game(&mut h, "White", Some("not a position"));
    let explained =
        h.query_all_by(|node| node.value().is_some_and(|v| v.starts_with("This FEN cannot be read"))).next();
    assert!(explained.is_some(), "the bad FEN is explained");
    assert_eq!(h.state().game().start(), &shakmaty::Chess::default(), "nothing started");
    h.get_by_label("Cancel").click();
    h.run_steps(3);

    new_game(&mut h, "Black", Some("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"));
    assert_eq!(h.state().human(), Color::Black);
    assert!(h.query_all_by_value("Draw by stalemate.").next().is_some());
    assert!(h.query_all_by_value("Result 1/2-1/2").next().is_some());
    assert!(!h.state().is_thinking());
}

#[test]
fn promotion_offers_a_choice_of_pieces() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = app(dir.path());
    h.step();
    new_game(&mut h, "White", Some("8/1P6/8/8/8/k7/8/4K3 w - - 0 1"));
    click_square(&mut h, "b7, white pawn");
    click_square(&mut h, "b8, empty");
    assert_eq!(h.state().game().len(), 0, "the picker waits for a choice");
    h.get_by_label("Promote to knight").click();
    h.step();
    let game = h.state().game();
    assert_eq!(game.san_moves()[0], "b8=N");
    assert_eq!(game.position().board().role_at(Square::B8), Some(Role::Knight));
}

#[test]
fn flip_key_and_button_turn_the_board() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = app(dir.path());
    h.step();
    new_game(&mut h, "White", None);
    let a1_before = square_center(&h, "a1");
    h.key_press(egui::Key::F);
    h.step();
    assert!(h.state().is_flipped());
    let a1_after = square_center(&h, "a1");
    assert!(a1_after.y < a1_before.y, "a1 moved to the top");
    h.get_by_label("Flip").click();
    h.step();
    assert!(!h.state().is_flipped());
    h.key_press(egui::Key::F);
    h.step();
    assert!(h.state().is_flipped());

    // The orientation and the last strength survive a restart.
    let file = dir.path().join("config").join("settings.json");
    let start = Instant::now();
    while !std::fs::read_to_string(&file).is_ok_and(|t| t.contains("\"flipped\": true")) {
        assert!(start.elapsed() < Duration::from_secs(10), "settings were not saved");
        h.step();
        std::thread::sleep(Duration::from_millis(20));
    }
    drop(h);
    let mut h = app(dir.path());
    h.step();
    assert!(h.state().is_flipped());
    assert_eq!(h.state().level(), kibitz_engine::Level::weakest());
}

#[test]
fn browsing_the_move_list_with_keys_and_clicks() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = app(dir.path());
    h.step();
    new_game(&mut h, "White", None);
    click_square(&mut h, "e2, white pawn");
    click_square(&mut h, "e4, empty");
    step_until(&mut h, "the engine's reply", |app| app.game().len() == 2);
    h.key_press(egui::Key::Home);
    h.step();
    assert_eq!(h.state().viewing(), 0);
    assert!(h.query_by_label("e2, white pawn").is_some(), "the start position is shown");
    h.key_press(egui::Key::ArrowRight);
    h.step();
    assert_eq!(h.state().viewing(), 1);
    h.key_press(egui::Key::End);
    h.step();
    assert_eq!(h.state().viewing(), 2);
    h.get_by_label("1. e4").click();
    h.step();
    assert_eq!(h.state().viewing(), 1);
}

#[test]
fn save_and_reopen_a_game() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = app(dir.path());
    h.step();
    new_game(&mut h, "White", None);
    click_square(&mut h, "d2, white pawn");
    click_square(&mut h, "d4, empty");
    step_until(&mut h, "the engine's reply", |app| app.game().len() == 2);
    let moves = h.state().game().san_moves().to_vec();
    h.get_by_label("Save game").click();
    let file = dir.path().join("saved.pgn");
    step_until(&mut h, "the saved file", |app| app.notices().iter().any(|n| n.starts_with("Saved to")));
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.contains("[White \"Player\"]")
            && text.contains(&format!("[Black \"Kibitz ({})\"]", kibitz_engine::Level::weakest())),
        "{text}"
    );
    assert!(text.contains("[Event \"Kibitz game\"]") && !text.contains("[Date \"?\"]"), "{text}");

    new_game(&mut h, "White", None);
    assert_eq!(h.state().game().len(), 0);
    h.get_by_label("Open game").click();
    step_until(&mut h, "the opened game", |app| app.game().len() == 2);
    assert_eq!(h.state().game().san_moves(), moves.as_slice());
}

#[test]
fn resumes_the_game_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let moves = {
        let mut h = app(dir.path());
        h.step();
        new_game(&mut h, "Black", None);
        step_until(&mut h, "the engine's first move", |app| app.game().len() == 1);
        let reply = if h.state().game().san_moves()[0] == "e4" {
            ("c7, black pawn", "c5, empty")
        } else {
            ("g8, black knight", "f6, empty")
        };
        click_square(&mut h, reply.0);
        click_square(&mut h, reply.1);
        assert_eq!(h.state().game().len(), 2);
        h.state().game().san_moves().to_vec()
        // The harness is dropped here without any shutdown: as if the process were killed.
    };
    // Both moves were saved before they were shown: no waiting.
    let file = dir.path().join("data").join("current-game.json");
    assert!(std::fs::read_to_string(&file).is_ok_and(|t| t.contains(&moves[1])), "the game was not saved");

    let mut h = app(dir.path());
    h.step();
    h.get_by_label("Resume").click();
    h.step();
    assert_eq!(h.state().game().san_moves(), moves.as_slice());
    assert_eq!(h.state().human(), Color::Black);
}

#[test]
fn temporary_files_left_by_a_killed_save_are_removed_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let paths = Paths::under(dir.path().to_path_buf());
    std::fs::create_dir_all(&paths.config_dir).unwrap();
    std::fs::create_dir_all(&paths.data_dir).unwrap();
    // A process that ran and is gone left them.
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let gone = child.id();
    child.wait().unwrap();
    let stale = [
        paths.config_dir.join(format!(".settings.json.{gone}.tmp")),
        paths.data_dir.join(format!(".kibitz.kbook.{gone}.tmp")),
    ];
    let kept =
        [paths.data_dir.join("notes.tmp"), paths.data_dir.join(format!(".notes.{}.tmp", std::process::id()))];
    for path in stale.iter().chain(&kept) {
        std::fs::write(path, b"half a file").unwrap();
    }
    let mut h = app(dir.path());
    let start = Instant::now();
    while stale.iter().any(|p| p.exists()) {
        assert!(start.elapsed() < Duration::from_secs(10), "the stale temporary files are still there");
        h.step();
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(kept.iter().all(|p| p.exists()), "other files, and a running process's, are kept");
}

#[test]
fn corrupt_settings_and_saved_game_give_notices_not_crashes() {
    let dir = tempfile::tempdir().unwrap();
    let paths = Paths::under(dir.path().to_path_buf());
    std::fs::create_dir_all(&paths.config_dir).unwrap();
    std::fs::create_dir_all(&paths.data_dir).unwrap();
    std::fs::write(paths.settings_file(), b"\xff\xfe{garbage").unwrap();
    std::fs::write(paths.current_game_file(), b"{\"pgn\": \"1. e4 e5 2. Ke3\", \"human_white\": true}")
        .unwrap();
    let mut h = app(dir.path());
    h.step();
    h.step();
    let notices = h.state().notices().join("\n");
    assert!(notices.contains("settings"), "{notices}");
    assert!(notices.contains("saved game could not be restored"), "{notices}");
    assert!(h.query_by_label("Resume").is_none());
    // The damaged files are kept for the user, not deleted.
    assert!(paths.settings_file().with_extension("json.bad").exists());
    assert!(paths.current_game_file().with_extension("json.bad").exists());
}
