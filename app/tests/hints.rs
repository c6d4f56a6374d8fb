//! Hints while playing, clicked through by accessible labels: the first press names the
//! piece, the second the move; the hint is noted on the player's move; 0 hints per game
//! turns them off.

mod common;

use std::path::Path;
use std::sync::Arc;

use common::{NoFiles, new_game, play_typed, step_until};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use kibitz_app::{AppOptions, KibitzApp, Paths};

fn app(root: &Path) -> Harness<'static, KibitzApp> {
    let options = AppOptions {
        paths: Paths::under(root.to_path_buf()),
        picker: Arc::new(NoFiles),
        screenshot: None,
        open: None,
    };
    let mut h = Harness::builder().with_size([1100.0, 760.0]).build_eframe(|cc| KibitzApp::new(cc, options));
    h.run_steps(2);
    h
}

/// The label of the hint shown in the side panel, once there is one starting with `prefix`.
fn hint_text(h: &mut Harness<'_, KibitzApp>, prefix: &str) -> String {
    let start = std::time::Instant::now();
    loop {
        if let Some(node) = h.query_by_label_contains(prefix) {
            // A label's text is its value.
            let node = node.accesskit_node();
            return node.label().filter(|l| !l.is_empty()).or_else(|| node.value()).unwrap_or_default();
        }
        assert!(start.elapsed() < std::time::Duration::from_secs(30), "no '{prefix}'");
        h.step();
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

#[test]
fn a_hint_names_the_piece_then_the_move_and_is_noted_on_the_move() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut h = app(dir.path());
    new_game(&mut h, "White", None);
    h.get_by_label("Hint").click();
    h.run_steps(2);
    let piece = hint_text(&mut h, "Hint: move the");
    h.get_by_label("Hint").click();
    h.run_steps(2);
    let words = hint_text(&mut h, "Hint: ");
    let words = if words.starts_with("Hint: move the") { hint_text(&mut h, "Hint: ") } else { words };
    let san = words.trim_start_matches("Hint: ").split_whitespace().next().expect("a move").to_string();
    // The piece named first is the one the move moves.
    let start = shakmaty::Chess::default();
    let mv = san.parse::<shakmaty::san::San>().expect("SAN").to_move(&start).expect("a legal hint");
    let from = mv.from().expect("a move from a square").to_string();
    assert!(piece.contains(&format!(" on {from};")), "{piece} / {words}");
    play_typed(&mut h, &san);
    assert_eq!(h.state().game().san_moves().first().map(String::as_str), Some(san.as_str()));
    let first = h.state().game().main_line()[1];
    let comment = h.state().game().node(first).map(|n| n.comment().to_string()).unwrap_or_default();
    assert!(comment.contains(&format!("Hint 1 of 3: {san}")), "the hint is noted on the move: {comment}");
    assert!(h.query_by_label_contains("Hint: ").is_none(), "the hint is gone once played");
    step_until(&mut h, "Kibitz's reply", |app| app.game().len() == 2);
}

#[test]
fn no_hints_per_game_turns_them_off() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut h = app(dir.path());
    h.get_by_label("New game").click();
    h.run_steps(3);
    h.get_by_label("Hints per game").focus();
    h.step();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_by_label("Hints per game").type_text("0");
    h.key_press(egui::Key::Enter);
    h.run_steps(2);
    h.get_by_label("White").click();
    h.get_by_label("Start").click();
    h.run_steps(3);
    assert!(h.get_by_label("Hint").accesskit_node().is_disabled(), "the Hint button is disabled");
    h.key_press(egui::Key::H);
    h.run_steps(2);
    assert!(h.query_by_label_contains("Hints are off").is_some(), "H says why there is no hint");
}
