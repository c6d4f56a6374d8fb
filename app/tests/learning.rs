//! Kibitz learns from the games it plays: its book moves are updated after the game. The
//! learning and book settings panel switches each kind of learning, the book and its rules,
//! and clears what was learned; its settings reach the engine and are kept.

mod common;

use common::NoFiles;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use egui::accesskit::Toggled;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use kibitz_app::{AppOptions, KibitzApp, Paths, Settings};
use kibitz_engine::{Book, BookMode, book_key, encode_move};

const BOOK_LEARNING: &str = "Book learning: how Kibitz's book moves fared";
const RESULT_LEARNING: &str = "Result learning: after a loss, never repeat the last book choice";
const POSITION_LEARNING: &str = "Position learning: positions where Kibitz's score dropped";
const PANEL: &str = "Learning and book settings";

fn app(paths: &Paths) -> Harness<'static, KibitzApp> {
    let options =
        AppOptions { paths: paths.clone(), picker: Arc::new(NoFiles), screenshot: None, open: None };
    let mut h = Harness::builder().with_size([1100.0, 760.0]).build_eframe(|cc| KibitzApp::new(cc, options));
    h.run_steps(2);
    h
}

fn click(h: &mut Harness<'_, KibitzApp>, label: &str) {
    h.get_by_label(label).click();
    // Dialogs settle in place over a few frames.
    h.run_steps(4);
}

/// Starts a game with Kibitz as White and waits for its first move.
fn first_move(h: &mut Harness<'_, KibitzApp>) -> shakmaty::Move {
    click(h, "New game");
    click(h, "Black");
    click(h, "Start");
    let start = Instant::now();
    while h.state().game().is_empty() {
        assert!(start.elapsed() < Duration::from_secs(30), "no first move");
        h.step();
        std::thread::sleep(Duration::from_millis(5));
    }
    h.run_steps(2);
    h.state().game().moves()[0]
}

fn resign(h: &mut Harness<'_, KibitzApp>) {
    click(h, "Resign");
    click(h, "Yes, resign");
    assert_eq!(h.state().game().result(), "1-0");
}

/// Steps frames until `done` holds, for things the writer thread does.
fn wait_for(h: &mut Harness<'_, KibitzApp>, what: &str, done: impl Fn() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < Duration::from_secs(10), "timed out waiting for {what}");
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn saved_settings(paths: &Paths) -> Settings {
    Settings::peek(&paths.settings_file()).unwrap_or_default()
}

fn checked(h: &Harness<'_, KibitzApp>, label: &str) -> bool {
    h.get_by_label(label).accesskit_node().toggled() == Some(Toggled::True)
}

#[test]
fn a_finished_game_updates_the_players_book() {
    let dir = tempfile::tempdir().unwrap();
    let paths = Paths::under(dir.path().to_path_buf());
    let options =
        AppOptions { paths: paths.clone(), picker: Arc::new(NoFiles), screenshot: None, open: None };
    let mut h = Harness::builder().with_size([1100.0, 760.0]).build_eframe(|cc| KibitzApp::new(cc, options));
    h.run_steps(2);
    h.get_by_label("New game").click();
    h.run_steps(3);
    h.get_by_label("Black").click();
    h.get_by_label("Start").click();
    h.run_steps(3);
    // Kibitz (White) plays its first move from the book.
    let start = Instant::now();
    while h.state().game().is_empty() {
        assert!(start.elapsed() < Duration::from_secs(30), "no first move");
        h.step();
        std::thread::sleep(Duration::from_millis(5));
    }
    let first = h.state().game().moves()[0];
    assert!(!paths.book_file().exists(), "nothing learned yet");
    h.get_by_label("Resign").click();
    h.run_steps(4);
    h.get_by_label("Yes, resign").click();
    h.run_steps(4);
    assert_eq!(h.state().game().result(), "1-0");

    let start = Instant::now();
    while !paths.book_file().exists() {
        assert!(start.elapsed() < Duration::from_secs(10), "the book was not saved");
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    let book = Book::load(&paths.book_file()).unwrap();
    let entry = book.get(book_key(&shakmaty::Chess::default()), encode_move(first)).unwrap();
    assert_eq!(entry.learned.games, 1, "one learned game for the move Kibitz played");
    assert_eq!(entry.learned.wins, 1, "and it won");
}

#[test]
fn damaged_learning_files_give_notices_and_are_kept_aside() {
    let dir = tempfile::tempdir().unwrap();
    let paths = Paths::under(dir.path().to_path_buf());
    // Book, position and result learning on (Crafty's `learn 7`).
    kibitz_engine::write_atomic(&paths.settings_file(), br#"{"learn": 7}"#).unwrap();
    kibitz_engine::write_atomic(&paths.positions_file(), b"damaged").unwrap();
    kibitz_engine::write_atomic(&paths.postbook_file(), b"damaged\n").unwrap();
    let options =
        AppOptions { paths: paths.clone(), picker: Arc::new(NoFiles), screenshot: None, open: None };
    let mut h = Harness::builder().with_size([1100.0, 760.0]).build_eframe(|cc| KibitzApp::new(cc, options));
    h.run_steps(2);
    let notices = h.state().notices().join("\n");
    assert!(notices.contains("learned positions could not be read"), "{notices}");
    assert!(notices.contains("PostBook could not be read"), "{notices}");
    let bad = |path: PathBuf| {
        let mut name = path.file_name().unwrap().to_os_string();
        name.push(".bad");
        path.with_file_name(name)
    };
    assert!(bad(paths.positions_file()).exists() && bad(paths.postbook_file()).exists());
    assert!(!paths.positions_file().exists() && !paths.postbook_file().exists());
}

#[test]
fn learning_switched_off_in_the_panel_learns_nothing_and_stays_off() {
    let dir = tempfile::tempdir().unwrap();
    let paths = Paths::under(dir.path().to_path_buf());
    let mut h = app(&paths);
    click(&mut h, PANEL);
    assert!(checked(&h, BOOK_LEARNING) && checked(&h, RESULT_LEARNING), "learn 5 by default");
    assert!(!checked(&h, POSITION_LEARNING));
    click(&mut h, BOOK_LEARNING);
    click(&mut h, RESULT_LEARNING);
    click(&mut h, "Apply");
    wait_for(&mut h, "the settings file", || saved_settings(&paths).learn == 0);

    first_move(&mut h);
    resign(&mut h);
    // Give the writer time to write anything it was (wrongly) asked to.
    for _ in 0..50 {
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(!paths.book_file().exists(), "the book learned with book learning off");
    assert!(!paths.postbook_file().exists(), "the PostBook learned with book learning off");
    drop(h);

    // The next run shows the switches as they were left.
    let mut h = app(&paths);
    click(&mut h, PANEL);
    assert!(!checked(&h, BOOK_LEARNING) && !checked(&h, RESULT_LEARNING) && !checked(&h, POSITION_LEARNING));
    click(&mut h, "Cancel");
}

#[test]
fn the_book_switch_and_its_rules_reach_the_engine_and_are_kept() {
    let dir = tempfile::tempdir().unwrap();
    let paths = Paths::under(dir.path().to_path_buf());
    let mut h = app(&paths);
    first_move(&mut h);
    assert!(h.query_by_label_contains("Book move").is_some(), "Kibitz played from its book");
    resign(&mut h);
    click(&mut h, "Close");

    click(&mut h, PANEL);
    click(&mut h, "Crafty's rules");
    // Out of range: the field keeps the largest width allowed.
    h.get_by_label("Book width").set_value_accesskit(500.0);
    h.run_steps(3);
    click(&mut h, "Play from the opening book");
    click(&mut h, "Apply");
    wait_for(&mut h, "the settings file", || !saved_settings(&paths).own_book);
    let saved = saved_settings(&paths);
    assert_eq!((saved.book.mode, saved.book.width), (BookMode::Crafty, 100));

    first_move(&mut h);
    assert!(h.query_by_label_contains("Book move").is_none(), "Kibitz still played from its book");
}

#[test]
fn clearing_learned_data_asks_first_then_forgets() {
    let dir = tempfile::tempdir().unwrap();
    let paths = Paths::under(dir.path().to_path_buf());
    let mut h = app(&paths);
    let first = first_move(&mut h);
    resign(&mut h);
    click(&mut h, "Close");
    let learned = |paths: &Paths| {
        let book = Book::load(&paths.book_file()).ok()?;
        book.get(book_key(&shakmaty::Chess::default()), encode_move(first)).map(|e| e.learned.games)
    };
    wait_for(&mut h, "the learned book", || learned(&paths) == Some(1));

    click(&mut h, PANEL);
    assert!(h.query_by_label_contains("Learned so far: 1 book move,").is_some());
    click(&mut h, "Clear learned data");
    click(&mut h, "Keep it");
    assert!(h.query_by_label_contains("Learned so far: 1 book move,").is_some(), "kept");
    click(&mut h, "Clear learned data");
    click(&mut h, "Yes, forget it");
    assert!(
        h.query_by_label_contains("Learned so far: 0 book moves, 0 positions, 0 PostBook moves").is_some()
    );
    wait_for(&mut h, "the cleared book", || learned(&paths) == Some(0));
    click(&mut h, "Cancel");
    let notices = h.state().notices().join("\n");
    assert!(notices.contains("forgot everything it had learned"), "{notices}");
}
