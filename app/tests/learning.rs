//! Kibitz learns from the games it plays: its book moves are updated after the game.

mod common;

use common::NoFiles;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use kibitz_app::{AppOptions, KibitzApp, Paths};
use kibitz_engine::{Book, book_key, encode_move};

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
