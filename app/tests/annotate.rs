//! "Analyze game", clicked through by accessible labels: the annotation of a game with a
//! known blunder opens as a study with the mark, the summary's marked move jumps to it, and
//! a long annotation can be cancelled, leaving the game as it was.

mod common;

use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use kibitz_app::KibitzApp;
use kibitz_engine::Nag;

/// 2. g4?? allows 2... Qh4#, the fool's mate; the game goes on to show the blunder.
const FOOLS_MATE: &str = "[White \"Fool\"]\n[Black \"Sage\"]\n\n1. f3 e5 2. g4 Nc6 3. Nc3 *\n";

fn set_value(h: &mut Harness<'_, KibitzApp>, label: &str, value: &str) {
    h.get_by_label(label).focus();
    h.step();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_by_label(label).type_text(value);
    h.key_press(egui::Key::Enter);
    h.run_steps(2);
}

#[test]
fn the_blunder_is_marked_and_the_summary_jumps_to_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut h = common::studied(dir.path(), FOOLS_MATE);
    h.get_by_label("Analyze game").click();
    h.run_steps(3);
    h.get_by_label("Depth").click();
    h.run_steps(1);
    set_value(&mut h, "Depth", "4");
    h.get_by_label("Analyze").click();
    let start = Instant::now();
    while h.query_by_label("blunders ??").is_none() {
        assert!(start.elapsed() < Duration::from_secs(60), "the annotation did not finish");
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    h.run_steps(2);
    // The annotated game is the study now: 2. g4 has ?? and a better line.
    let game = h.state().game();
    let g4 = game.main_line()[3];
    let node = game.node(g4).expect("2. g4");
    assert_eq!(node.san(), "g4");
    assert!(node.nags().contains(&Nag(4)), "2. g4 is a blunder: {:?}", node.nags());
    assert!(node.eval().is_some(), "every judged move has its [%eval]");
    let before = game.main_line()[2];
    assert!(game.node(before).is_some_and(|n| n.children().len() > 1), "the better line is a variation");
    // The summary counts White's blunder and its marked move jumps to it.
    h.get_all_by_label_contains("2. g4??").next().expect("button").click();
    h.run_steps(3);
    assert_eq!(h.state().current(), g4, "the mark jumps to the move");
}

#[test]
fn a_long_annotation_is_cancelled_and_the_game_is_unchanged() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut h = common::studied(dir.path(), FOOLS_MATE);
    let before = kibitz_engine::write_pgn(h.state().game());
    h.get_by_label("Analyze game").click();
    h.run_steps(3);
    set_value(&mut h, "Seconds per search", "30");
    h.get_by_label("Analyze").click();
    h.run_steps(5);
    assert!(h.query_by_label_contains("of 5 moves").is_some(), "a progress bar counts the moves");
    h.get_by_label("Cancel").click();
    let start = Instant::now();
    while h.query_by_label_contains("Cancelled").is_none() {
        assert!(start.elapsed() < Duration::from_secs(5), "Cancel is quick");
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(kibitz_engine::write_pgn(h.state().game()), before, "the game is unchanged");
}
