//! The study's analysis, clicked through by accessible labels: start and stop, lines that
//! follow the board, MultiPV, clicking a move of a line, the evaluation bar, Space, and an
//! engine that falls over and is restarted.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use kibitz_app::{KibitzApp, Paths, Settings};
use kibitz_engine::{EngineConfig, NodeId, Protocol};

/// White mates with Ra8#.
const MATE_IN_ONE: &str = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";

/// The labels of the first moves of the lines shown (`1. e4`, `1... e5`).
fn first_moves(h: &Harness<'_, KibitzApp>, number: &str) -> Vec<String> {
    let mut labels: Vec<String> = h
        .query_all_by(|n| n.label().is_some_and(|l| l.starts_with(number)))
        .filter_map(|n| n.accesskit_node().label())
        .collect();
    labels.sort();
    labels.dedup();
    labels
}

/// How many lines the analysis shows: each has its "+" button.
fn lines_shown(h: &Harness<'_, KibitzApp>) -> usize {
    h.query_all_by_label("+").count()
}

fn san_shown(h: &Harness<'_, KibitzApp>) -> String {
    let app = h.state();
    app.game().node(app.current()).map(|n| n.san().to_string()).unwrap_or_default()
}

#[test]
fn analysis_finds_the_mate_and_a_clicked_move_plays_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pgn = format!("[FEN \"{MATE_IN_ONE}\"]\n[SetUp \"1\"]\n\n*\n");
    let mut h = common::studied(dir.path(), &pgn);
    assert!(h.query_by_label("Stop analysis").is_none());
    h.get_by_label("Start analysis").click();
    h.run_steps(2);
    assert!(h.query_by_label("Stop analysis").is_some(), "the button turns into Stop");
    common::wait_for_text(&mut h, "1. Ra8#");
    // The score from White's side, and the bar filled by it.
    assert!(h.query_by_label("#1").is_some(), "the score is written as a mate");
    assert!(h.query_by_label("Evaluation bar #1").is_some(), "the bar shows the mate");
    h.get_by_label("1. Ra8#").click();
    h.run_steps(3);
    assert_eq!(san_shown(&h), "Ra8#", "the clicked move was played");
    common::wait_for_text(&mut h, "no legal move: checkmate");
    assert!(h.query_by_label("#1").is_none(), "no line in a mated position");
    // Back to the start: the engine analyses it again.
    h.key_press(egui::Key::ArrowLeft);
    h.run_steps(2);
    assert_eq!(h.state().current(), NodeId::ROOT);
    common::wait_for_text(&mut h, "#1");
    // A stops it; the lines stay.
    h.key_press(egui::Key::A);
    h.run_steps(2);
    assert!(h.query_by_label("Start analysis").is_some());
    // The move list and the line both show the move.
    assert_eq!(h.query_all_by_label("1. Ra8#").count(), 2, "the last lines stay shown");
}

#[test]
fn three_lines_follow_the_moves_and_space_plays_the_best() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut h = common::studied(dir.path(), "1. e4 e5 2. Nf3 *\n");
    h.key_press(egui::Key::Home);
    h.run_steps(2);
    h.key_press(egui::Key::A);
    h.run_steps(2);
    common::wait_for_text(&mut h, "1. ");
    let lines = h.get_by_label("Lines");
    lines.focus();
    h.run_steps(1);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.run_steps(1);
    h.get_by_label("Lines").type_text("3");
    h.run_steps(1);
    h.key_press(egui::Key::Enter);
    h.run_steps(2);
    // Click away, so that the keys go to the board again.
    h.get_by_label("Chess board").click();
    h.run_steps(2);
    // Three lines with three different first moves (while the search deepens, a line may
    // briefly show a move another line has, until the new iteration's lines arrive).
    let start = Instant::now();
    while lines_shown(&h) < 3 || first_moves(&h, "1. ").len() < 3 {
        assert!(start.elapsed() < Duration::from_secs(30), "three lines: {:?}", first_moves(&h, "1. "));
        h.step();
        std::thread::sleep(Duration::from_millis(5));
    }
    // Each line has its "+" button; the game's own 1. e4 is in the move list too.
    assert_eq!(lines_shown(&h), 3);
    // The next position: Black's lines.
    h.key_press(egui::Key::ArrowRight);
    h.run_steps(2);
    assert_eq!(san_shown(&h), "e4");
    let start = Instant::now();
    while first_moves(&h, "1... ").len() < 3 || lines_shown(&h) < 3 {
        assert!(start.elapsed() < Duration::from_secs(30), "Black's lines: {:?}", first_moves(&h, "1... "));
        h.step();
        std::thread::sleep(Duration::from_millis(5));
    }
    // "+" adds a line as a variation and stays.
    let at = h.state().current();
    let children = h.state().game().node(at).map_or(0, |n| n.children().len());
    h.get_all_by_label("+").next().expect("a line's + button").click();
    h.run_steps(2);
    assert_eq!(h.state().current(), at, "adding a line stays where we are");
    let grown = h.state().game().node(at).map_or(0, |n| n.children().len());
    assert!(grown >= children.max(1), "the line's first move is a child of the position");
    // Space plays the first line's move, a new variation unless it is 1... e5.
    let before = h.state().game().path_to(h.state().current()).len();
    h.key_press(egui::Key::Space);
    h.run_steps(3);
    let after = h.state().game().path_to(h.state().current()).len();
    assert_eq!(after, before + 1, "Space played a move");
    let turn = shakmaty::Position::turn(h.state().game().position_at_node(h.state().current()));
    assert_eq!(turn, shakmaty::Color::White);
}

#[test]
fn a_second_engine_that_falls_over_is_reported_and_restarted() {
    let dir = tempfile::tempdir().expect("temp dir");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../engine/tests/engines/crash-at-third-go");
    let mut settings = Settings::default();
    settings.engines.push(EngineConfig {
        name: "Crashy".into(),
        path: script,
        protocol: Some(Protocol::Uci),
        ..Default::default()
    });
    let paths = Paths::under(dir.path().to_path_buf());
    std::fs::create_dir_all(paths.settings_file().parent().expect("a folder")).expect("settings folder");
    std::fs::write(paths.settings_file(), settings.to_json()).expect("settings");
    let mut h = common::studied(dir.path(), "1. e4 e5 2. Nf3 Nc6 *\n");
    h.key_press(egui::Key::Home);
    h.run_steps(2);
    h.get_by_label("Start analysis").click();
    h.run_steps(2);
    h.get_by_label("Add engine").click();
    h.run_steps(2);
    h.get_by_label("Crashy").click();
    h.run_steps(2);
    common::wait_for_text(&mut h, "1. e4");
    // Its third search makes it fall over; Kibitz's analysis goes on.
    for _ in 0..2 {
        h.key_press(egui::Key::ArrowRight);
        h.run_steps(2);
        std::thread::sleep(Duration::from_millis(100));
    }
    common::wait_for_text(&mut h, "Crashy crashed");
    assert!(h.query_by_label("Stop analysis").is_some(), "analysis is still on");
    // By its accessible action, not by a pointer at where it was drawn: Kibitz's own lines
    // above it grow as they arrive and can move the button between two frames. (Before each
    // engine's widgets had ids of their own, those lines changed the button's id too, and
    // one click in about twenty was lost.)
    h.get_by_label("Restart").click_accesskit();
    h.run_steps(2);
    let start = Instant::now();
    while h.query_all_by_label_contains("Crashy crashed").next().is_some() {
        assert!(start.elapsed() < Duration::from_secs(10), "the failure stays after the restart");
        h.step();
    }
    // Removing it leaves Kibitz alone.
    let removes = h.query_all_by_label("Remove").count();
    assert_eq!(removes, 2);
}

#[test]
fn with_tablebases_chosen_the_analysis_scores_an_ending_by_them() {
    let dir = tempfile::tempdir().expect("temp dir");
    let tables = format!("{}/../data/syzygy", env!("CARGO_MANIFEST_DIR"));
    std::os::unix::fs::symlink(tables, dir.path().join("tablebases")).expect("a link to the tables");
    let mut h = common::app_in(dir.path());
    h.get_by_label("Tablebases").click();
    common::wait_for_text(&mut h, "Tablebases: 70 files, up to 4 pieces");
    // KRvK: the tables' win (19999 centipawns), where the evaluation says a rook or so.
    std::fs::write(
        dir.path().join("game.pgn"),
        "[FEN \"8/8/8/4k3/8/8/8/R3K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n*\n",
    )
    .expect("the test's folder is writable");
    h.get_by_label("Open game").click();
    common::step_until(&mut h, "the study", KibitzApp::is_study);
    h.get_by_label("Start analysis").click();
    common::wait_for_text(&mut h, "+199.99");
}
