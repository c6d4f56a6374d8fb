//! The study's tools: the evaluation graph under the board, the tags editor, the score
//! breakdown and replacing a move, clicked through by their labels.

mod common;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use kibitz_app::{AppOptions, FilePicker, KibitzApp, Paths};
use kibitz_engine::{evaluate, read_pgn};
use shakmaty::{Color, Position};

/// Opens `game.pgn` and saves to `saved.pgn`, both in the test's folder.
struct Files(PathBuf);

impl FilePicker for Files {
    fn open_pgn(&self) -> Option<PathBuf> {
        Some(self.0.join("game.pgn"))
    }
    fn save_pgn(&self, _: &str) -> Option<PathBuf> {
        Some(self.0.join("saved.pgn"))
    }
}

/// The app with `pgn` opened as a study, its files in `root`.
fn studied(root: &Path, pgn: &str) -> Harness<'static, KibitzApp> {
    std::fs::write(root.join("game.pgn"), pgn).unwrap();
    let options = AppOptions {
        paths: Paths::under(root.to_path_buf()),
        picker: Arc::new(Files(root.to_path_buf())),
        screenshot: None,
        open: None,
    };
    let mut h = Harness::builder().with_size([1100.0, 800.0]).build_eframe(|cc| KibitzApp::new(cc, options));
    h.run_steps(2);
    h.get_by_label("Open game").click();
    let start = Instant::now();
    while !h.state().is_study() {
        assert!(start.elapsed() < Duration::from_secs(20), "the game did not open");
        h.step();
        std::thread::sleep(Duration::from_millis(5));
    }
    h.run_steps(3);
    h
}

fn click(h: &mut Harness<'_, KibitzApp>, label: &str) {
    h.get_by_label(label).click();
    h.run_steps(3);
}

fn type_into(h: &mut Harness<'_, KibitzApp>, label: &str, text: &str) {
    h.get_by_label(label).focus();
    h.step();
    h.get_by_label(label).type_text(text);
    h.step();
}

/// Saves the game and reads the file back.
fn save(h: &mut Harness<'_, KibitzApp>, root: &Path) -> String {
    let file = root.join("saved.pgn");
    let _ = std::fs::remove_file(&file);
    click(h, "Save game");
    let start = Instant::now();
    while !file.exists() {
        assert!(start.elapsed() < Duration::from_secs(10), "not saved");
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    std::fs::read_to_string(file).unwrap()
}

const EVALS: &str = "[Event \"E\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n[ECO \"C20\"]\n\n\
    1. e4 { [%eval 0.2] } e5 { [%eval 0.3] } 2. Nf3 { [%eval 0.25] } Nc6 { [%eval 0.3] } \
    3. Bc4 { [%eval 0.2] } Nd4?? { [%eval 2.5] } 4. Nxe5 { [%eval 2.4] } Qg5 { [%eval 2.3] } *\n";

const PLAIN: &str = "[Event \"S\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 *\n";

#[test]
fn the_graph_appears_with_evaluations_and_clicks_go_to_a_move() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = studied(dir.path(), EVALS);
    let rect = h.get_by_label("Evaluation graph").rect();
    // The plot spans the graph less the axis labels on the left and a margin on the right.
    let (left, right) = (rect.left() + 26.0, rect.right() - 4.0);
    let at = |ply: f32| egui::pos2(left + (right - left) * ply / 8.0, rect.center().y);
    h.drag_at(at(6.0));
    h.run_steps(2);
    h.drop_at(at(6.0));
    h.run_steps(3);
    assert_eq!(h.state().viewing(), 6, "a click goes to the move under the pointer");
    assert_eq!(h.state().game().node(h.state().current()).unwrap().san(), "Nd4");
    // Dragging follows the pointer.
    h.drag_at(at(2.0));
    h.run_steps(2);
    h.hover_at(at(3.1));
    h.run_steps(2);
    assert_eq!(h.state().viewing(), 3);
    h.drop_at(at(3.1));
    h.run_steps(2);
    assert_eq!(h.state().viewing(), 3);

    let dir = tempfile::tempdir().unwrap();
    let h = studied(dir.path(), PLAIN);
    assert!(h.query_by_label("Evaluation graph").is_none(), "no graph without evaluations");
}

#[test]
fn tags_are_edited_added_removed_and_saved() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = studied(dir.path(), EVALS);
    click(&mut h, "Edit tags");
    h.run_steps(10);
    // Event is "E": replace it.
    h.get_by_label("Event").focus();
    h.step();
    h.key_press(egui::Key::Backspace);
    h.get_by_label("Event").type_text("Club match");
    h.step();
    type_into(&mut h, "New tag", "Annotator");
    type_into(&mut h, "Value", "Kibitz \"K\" user");
    click(&mut h, "Add tag");
    h.run_steps(10);
    click(&mut h, "Remove ECO");
    h.run_steps(10);
    click(&mut h, "Apply");
    assert!(h.query_by_label("Add tag").is_none(), "the dialog closed");
    let game = h.state().game();
    assert_eq!(game.tag("Event"), Some("Club match"));
    assert_eq!(game.tag("ECO"), None);

    let text = save(&mut h, dir.path());
    let saved = read_pgn(&text).unwrap();
    assert_eq!(saved.tag("Event"), Some("Club match"), "{text}");
    assert_eq!(saved.tag("Annotator"), Some("Kibitz \"K\" user"), "{text}");
    assert_eq!(saved.tag("ECO"), None, "{text}");
    assert_eq!(saved.tag("White"), Some("A"));
}

#[test]
fn bad_tags_are_refused_with_a_message() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = studied(dir.path(), EVALS);
    click(&mut h, "Edit tags");
    h.run_steps(10);
    type_into(&mut h, "New tag", "Two words");
    click(&mut h, "Add tag");
    h.run_steps(5);
    assert!(h.query_by_label_contains("is not a tag name").is_some(), "the bad name is explained");
    assert!(h.query_by_label("Two words").is_none(), "and not added");

    h.get_by_label("Result").focus();
    h.step();
    h.key_press(egui::Key::Backspace);
    h.get_by_label("Result").type_text("1-1");
    h.step();
    click(&mut h, "Apply");
    h.run_steps(5);
    assert!(h.query_by_label_contains("is not a result").is_some(), "the bad result is explained");
    assert_eq!(h.state().game().tag("Result"), Some("*"), "nothing was applied");
    click(&mut h, "Cancel");
    assert!(h.query_by_label("Add tag").is_none(), "the dialog closed");
}

#[test]
fn the_score_shows_every_part_and_the_evaluation() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = studied(dir.path(), EVALS);
    h.key_press(egui::Key::End);
    h.run_steps(2);
    click(&mut h, "Score");
    h.run_steps(10);
    for part in ["Material", "Piece squares", "Mobility", "Pawns", "King safety", "Threats", "Tempo", "Sum"] {
        assert!(h.query_by_label(part).is_some(), "{part} is listed");
    }
    let pos = h.state().game().position_at_node(h.state().current()).clone();
    let white = if pos.turn() == Color::White { evaluate(&pos) } else { -evaluate(&pos) };
    let expected = format!("Evaluation {:+.2} for White", f64::from(white) / 100.0);
    assert!(h.query_by_label(&expected).is_some(), "{expected}");
    let network = kibitz_engine::Network::embedded().evaluate_white(&pos);
    let shown = if network == 0 { "0.00".to_owned() } else { format!("{:+.2}", f64::from(network) / 100.0) };
    let expected = format!("Network {shown} for White");
    assert!(h.query_by_label(&expected).is_some(), "{expected}");
    assert!(h.query_by_label_contains("after 4... Qg5").is_some(), "the position is named");
    click(&mut h, "Close");
    assert!(h.query_by_label("Material").is_none(), "closed");
}

#[test]
fn a_move_is_replaced_and_the_old_one_kept_as_a_variation() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = studied(dir.path(), PLAIN);
    for _ in 0..3 {
        h.key_press(egui::Key::ArrowRight);
        h.run_steps(2);
    }
    let nf3 = h.state().current();
    assert_eq!(h.state().game().node(nf3).unwrap().san(), "Nf3");
    click(&mut h, "Replace move");
    assert_eq!(h.state().viewing(), 2, "the board goes back to the position before 2. Nf3");
    assert!(h.query_by_label_contains("replaces 2. Nf3").is_some(), "the banner says what happens");
    click(&mut h, "f1, white bishop");
    click(&mut h, "c4, empty");
    let game = h.state().game();
    assert_eq!(game.san_moves(), ["e4", "e5", "Bc4"], "Bc4 took the main line");
    assert!(!game.is_main_line(nf3), "Nf3 is a variation");
    let old_line: Vec<&str> =
        game.path_to(game.line_end(nf3)).iter().map(|&id| game.node(id).unwrap().san()).collect();
    assert_eq!(old_line, ["", "e4", "e5", "Nf3", "Nc6", "Bb5"], "with its continuation");
    assert!(h.query_by_label_contains("replaces 2. Nf3").is_none(), "the banner is gone");

    // From the move list's menu: 1... e5 becomes 1... c5, the next move typed.
    h.get_by_label("e5").click_secondary();
    h.run_steps(3);
    click(&mut h, "Replace with the next move");
    assert_eq!(h.state().viewing(), 1);
    type_into(&mut h, "Move", "c5");
    h.key_press(egui::Key::Enter);
    h.run_steps(3);
    let game = h.state().game();
    assert_eq!(game.san_moves(), ["e4", "c5"]);
    let after_e4 = game.main_line()[1];
    let sans: Vec<&str> =
        game.node(after_e4).unwrap().children().iter().map(|&id| game.node(id).unwrap().san()).collect();
    assert_eq!(sans, ["c5", "e5"]);

    // A replacement can be called off.
    click(&mut h, "Replace move");
    click(&mut h, "Keep the move");
    click(&mut h, "d7, black pawn");
    click(&mut h, "d5, empty");
    assert_eq!(h.state().game().san_moves(), ["e4", "c5"], "d5 became a variation");
}

#[test]
fn the_score_asks_an_engine_for_its_own_evaluation() {
    const STOCKFISH: &str = "/usr/games/stockfish";
    if !std::path::Path::new(STOCKFISH).exists() {
        eprintln!("skipped: {STOCKFISH} is not installed (.ci/run installs it)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut settings = kibitz_app::Settings::default();
    for (name, path, protocol) in [
        ("Stockfish", STOCKFISH.to_string(), kibitz_engine::Protocol::Uci),
        (
            "No eval",
            concat!(env!("CARGO_MANIFEST_DIR"), "/../engine/tests/engines/uci-no-eval").to_string(),
            kibitz_engine::Protocol::Uci,
        ),
    ] {
        let mut config = kibitz_engine::EngineConfig::from_path(path);
        config.name = name.into();
        config.protocol = Some(protocol);
        settings.engines.push(config);
    }
    let paths = kibitz_app::Paths::under(dir.path().to_path_buf());
    std::fs::create_dir_all(paths.settings_file().parent().unwrap()).unwrap();
    std::fs::write(paths.settings_file(), settings.to_json()).unwrap();
    let mut h = studied(dir.path(), EVALS);
    h.key_press(egui::Key::End);
    h.run_steps(2);
    click(&mut h, "Score");
    h.run_steps(10);
    click(&mut h, "Ask");
    common::wait_for_text(&mut h, "Final evaluation");
    assert!(h.query_by_label("Stockfish's evaluation:").is_some());
    // An engine without such a command: the dialog says so.
    // The dialog grew by the answer: let it settle before clicking.
    h.run_steps(10);
    click(&mut h, "No eval");
    click(&mut h, "Ask");
    common::wait_for_text(&mut h, "has no command that prints its evaluation");
}
