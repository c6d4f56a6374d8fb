//! The Book workspace, clicked through by accessible labels: the player's book position by
//! position, a NAG that changes every probability at once, undo and redo, following a line,
//! and Save, after which the book file holds the edit.

mod common;

use std::time::{Duration, Instant};

use egui_kittest::kittest::{NodeT, Queryable};
use kibitz_app::{KibitzApp, Paths};
use kibitz_engine::{Book, book_key, encode_move};
use shakmaty::{Chess, san::San};

/// The probabilities shown, in the order of the rows.
fn chances(h: &egui_kittest::Harness<'_, KibitzApp>) -> Vec<String> {
    h.query_all_by(|n| {
        n.role() == egui::accesskit::Role::Label
            && n.value().is_some_and(|v| v.ends_with('%') || v.starts_with("excluded"))
    })
    .filter_map(|n| n.accesskit_node().value())
    .collect()
}

#[test]
fn a_nag_changes_every_probability_undo_redo_and_save() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut h = common::app_in(dir.path());
    h.get_by_label("Book").click();
    h.run_steps(3);
    assert!(h.query_by_label("Opening book").is_some());
    let before = chances(&h);
    assert!(before.len() >= 3, "the book has moves in the initial position: {before:?}");
    assert!(!before.contains(&"100.0%".to_string()));

    // The selection rules sit in the panel: Terra's "best value" leaves one move at 100%.
    h.get_by_label("Selection rules").click();
    h.run_steps(2);
    h.get_by_label("Best value, no randomness").click();
    h.run_steps(2);
    let best = chances(&h);
    assert_eq!(best.iter().filter(|c| *c == "100.0%").count(), 1, "{best:?}");
    // The panel widens to the longer words; let it settle before the next click.
    h.run_steps(10);
    h.get_by_label("Learned win%, else frequency").click();
    h.run_steps(2);
    assert_eq!(chances(&h), before, "back to the default rule");

    // !! on 1. d4: it is always played, every other move is excluded.
    h.get_by_label("!! d4").click();
    h.run_steps(2);
    let always = chances(&h);
    assert_eq!(always.iter().filter(|c| *c == "100.0%").count(), 1, "{always:?}");
    assert!(always.iter().filter(|c| c.starts_with("excluded")).count() == always.len() - 1, "{always:?}");

    // Undo and redo, by keys.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(2);
    assert_eq!(chances(&h), before, "undo restores every probability");
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Y);
    h.run_steps(2);
    assert_eq!(chances(&h), always, "redo applies the edit again");

    // Clicking a move follows the line.
    h.get_by_label("d4").click();
    h.run_steps(2);
    assert!(h.query_by_label("1. d4").is_some(), "the line shown");
    h.key_press(egui::Key::ArrowLeft);
    h.run_steps(2);
    assert!(h.query_by_label("The initial position").is_some());

    // Save: the player's book file has the edit.
    h.get_by_label("Save book").click();
    let file = Paths::under(dir.path().to_path_buf()).book_file();
    let start = Chess::default();
    let d4 = "d4".parse::<San>().expect("SAN").to_move(&start).expect("legal");
    let started = Instant::now();
    loop {
        h.step();
        let saved = Book::load(&file)
            .ok()
            .and_then(|b| b.get(book_key(&start), encode_move(d4)).and_then(|e| e.user));
        if saved == Some(100) {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(10), "the book file has 1. d4 at 100");
        std::thread::sleep(Duration::from_millis(20));
    }
    // The notices are drawn on the frame after the one that saved.
    h.run_steps(2);
    assert!(h.query_by_label_contains("Kibitz plays from the edited book now").is_some());
    assert!(h.query_by_label_contains("Saved the book to kibitz.kbook").is_some());
}

#[test]
fn the_engine_in_play_follows_a_saved_edit_at_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut h = common::app_in(dir.path());
    h.get_by_label("Book").click();
    h.run_steps(3);
    // After 1. e4, add 1... a6, a move the book does not have, and make it the only answer.
    h.get_by_label("e4").click();
    h.run_steps(3);
    assert!(h.query_by_label("1. e4").is_some());
    assert!(h.query_by_label("!! a6").is_none(), "a6 is not in the book");
    h.get_by_label("Add a6").click();
    // A new row: let the panel settle before the next click.
    h.run_steps(10);
    h.get_by_label("!! a6").click();
    h.run_steps(2);
    let shown = chances(&h);
    assert_eq!(shown.iter().filter(|c| *c == "100.0%").count(), 1, "{shown:?}");
    h.get_by_label("Save book").click();
    h.run_steps(3);
    h.get_by_label("Play").click();
    h.run_steps(3);
    common::play_typed(&mut h, "e4");
    common::step_until(&mut h, "Kibitz's reply", |app| app.game().len() == 2);
    assert_eq!(h.state().game().san_moves()[1], "a6", "Kibitz plays the edited book");
}

/// The accessible value of the slider labelled `label`.
fn slider_value(h: &egui_kittest::Harness<'_, KibitzApp>, label: &str) -> Option<f64> {
    h.get_by_label(label).accesskit_node().numeric_value()
}

#[test]
fn dragging_a_value_or_turning_the_wheel_on_an_arrow_changes_every_probability() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut h = common::app_in(dir.path());
    h.get_by_label("Book").click();
    h.run_steps(10);
    let before = chances(&h);
    assert!(before.iter().all(|c| c != "100.0%"), "{before:?}");

    // Drag e4's bar from its left end to its right end: "always", so every other move is out.
    let bar = h.get_by_label("value of e4").rect();
    // Past the right end: the bar stops at its maximum.
    let (from, to) = (bar.left_center() + egui::vec2(2.0, 0.0), bar.right_center() + egui::vec2(150.0, 0.0));
    let button = |pos, pressed| egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: egui::Modifiers::NONE,
    };
    h.event(egui::Event::PointerMoved(from));
    h.event(button(from, true));
    h.step();
    for step in 1..=8 {
        h.event(egui::Event::PointerMoved(from.lerp(to, step as f32 / 8.0)));
        h.step();
    }
    h.event(button(to, false));
    h.run_steps(3);
    assert_eq!(slider_value(&h, "value of e4"), Some(100.0));
    let dragged = chances(&h);
    assert_eq!(dragged.iter().filter(|c| *c == "100.0%").count(), 1, "{dragged:?}");
    assert_eq!(
        dragged.iter().filter(|c| c.starts_with("excluded")).count(),
        dragged.len() - 1,
        "{dragged:?}"
    );
    // The whole drag is one step to undo.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(3);
    assert_eq!(chances(&h), before, "one undo takes the whole drag back");

    // The wheel over 1. d4's arrow (at d3, White at the bottom) raises its value a notch at a time.
    let board = h.get_by_label("Chess board").rect();
    let square = board.width() / 8.0;
    let d3 = board.left_top() + egui::vec2(3.5 * square, 5.5 * square);
    let wheel = |notches: f32| egui::Event::MouseWheel {
        unit: egui::MouseWheelUnit::Line,
        delta: egui::vec2(0.0, notches),
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Unknown,
        modifiers: egui::Modifiers::NONE,
    };
    h.event(egui::Event::PointerMoved(d3));
    h.step();
    h.event(wheel(2.0));
    h.run_steps(3);
    let raised = slider_value(&h, "value of d4").expect("d4 has a value now");
    let turned = chances(&h);
    assert_ne!(turned, before, "every probability follows the new value");
    h.event(wheel(1.0));
    h.run_steps(3);
    assert_eq!(slider_value(&h, "value of d4"), Some(raised + 5.0), "5 a notch");
    h.event(wheel(-40.0));
    h.run_steps(3);
    assert_eq!(slider_value(&h, "value of d4"), Some(0.0), "down to 0, no further");
    assert!(
        chances(&h).iter().any(|c| c.contains("avoid list")),
        "at 0 the move joins the avoid list: {:?}",
        chances(&h)
    );
    // The wheel over an empty square changes nothing.
    let a5 = board.left_top() + egui::vec2(0.5 * square, 3.5 * square);
    let now = chances(&h);
    h.event(egui::Event::PointerMoved(a5));
    h.step();
    h.event(wheel(3.0));
    h.run_steps(3);
    assert_eq!(chances(&h), now);
}

#[test]
fn the_games_that_taught_a_move_are_listed_and_open_to_study() {
    let dir = tempfile::tempdir().expect("temp dir");
    let files = Paths::under(dir.path().to_path_buf()).learning_files();
    // Kibitz (White) played 1. e4 in a game it lost, and learned from it.
    let mut game = kibitz_engine::GameRecord::new();
    for san in ["e4", "f5", "exf5", "g5", "Qh5#"] {
        let m = game.parse_move(san).expect("legal");
        game.play(m).expect("legal");
    }
    game.set_tag("White", "Kibitz");
    game.set_tag("Black", "Ada");
    let mut taught = kibitz_engine::TaughtGames::new();
    taught.add(&game, shakmaty::Color::White);
    kibitz_engine::write_atomic(&files.taught, taught.to_pgn().as_bytes()).expect("written");
    let start = Chess::default();
    let e4 = "e4".parse::<San>().expect("SAN").to_move(&start).expect("legal");
    let mut book = Book::new();
    let entry = book.entry_mut(book_key(&start), encode_move(e4));
    entry.fixed.games = 10;
    entry.learned.games = 1;
    entry.learned.wins = 1;
    book.save(&files.book).expect("written");

    let mut h = common::app_in(dir.path());
    h.get_by_label("Book").click();
    common::wait_for_text(&mut h, "games that taught e4");
    // The row grew by the button: let the panel settle before clicking.
    h.run_steps(10);
    h.get_by_label("games that taught e4").click();
    h.run_steps(3);
    h.get_by_label_contains("Kibitz – Ada").click();
    h.run_steps(5);
    assert!(h.state().is_study(), "the game opens to study");
    assert_eq!(h.state().game().len(), 5, "the whole game");
    assert_eq!(h.state().viewing(), 1, "shown just after 1. e4, the move it taught");
}
