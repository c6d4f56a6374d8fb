//! The Book workspace's files, clicked through by accessible labels: a Polyglot book opens,
//! is saved as a Kibitz book and exported back; a damaged book opens read-only and is left as
//! it is; another book becomes the one Kibitz plays from, also after a restart.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use kibitz_app::KibitzApp;
use kibitz_engine::{Book, book_key, encode_move};
use shakmaty::{Chess, Position, san::San};

/// Steps until a label or value containing `text` shows, and lets the panel settle.
fn until_shown(h: &mut Harness<'_, KibitzApp>, text: &str) {
    common::wait_for_text(h, text);
    h.run_steps(3);
}

/// Steps until no book is being read or written (the panel's Cancel button is gone).
fn until_idle(h: &mut Harness<'_, KibitzApp>) {
    let started = Instant::now();
    while h.query_by_label("Cancel").is_some() {
        assert!(started.elapsed() < Duration::from_secs(20), "the book job ends");
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    h.run_steps(3);
}

/// Steps until the settings file (saved at most once a second, by the writer thread) says
/// what `saved` checks.
fn until_saved_settings(
    h: &mut Harness<'_, KibitzApp>,
    root: &Path,
    saved: impl Fn(&kibitz_app::Settings) -> bool,
) {
    let file = kibitz_app::Paths::under(root.to_path_buf()).settings_file();
    let started = Instant::now();
    while !saved(&kibitz_app::Settings::load(&file).0) {
        assert!(started.elapsed() < Duration::from_secs(20), "the settings were saved");
        h.step();
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The Book workspace, then "Open book…" (the test's picker answers `open.kbook` or `open.bin`).
fn open_book(h: &mut Harness<'_, KibitzApp>, name: &str) {
    h.get_by_label("Book").click();
    h.run_steps(3);
    h.get_by_label("Open book…").click();
    until_shown(h, name);
}

/// A book of 1. e4 (ten games) and, after it, 1... a6 set to always.
fn a6_book() -> Book {
    let mut book = Book::new();
    let mut pos = Chess::default();
    let e4 = "e4".parse::<San>().expect("SAN").to_move(&pos).expect("legal");
    book.entry_mut(book_key(&pos), encode_move(e4)).fixed.games = 10;
    pos.play_unchecked(e4);
    let a6 = "a6".parse::<San>().expect("SAN").to_move(&pos).expect("legal");
    book.entry_mut(book_key(&pos), encode_move(a6)).user = Some(100);
    book
}

fn wait_for(path: &Path) {
    let started = Instant::now();
    while !path.exists() {
        assert!(started.elapsed() < Duration::from_secs(20), "{} was written", path.display());
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn a_polyglot_book_is_saved_as_a_kibitz_book_and_exported() {
    let dir = tempfile::tempdir().expect("temp dir");
    let polyglot = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../data/books/gm2600.bin"))
        .expect("the shared Polyglot book");
    std::fs::write(dir.path().join("open.bin"), &polyglot).expect("copied");
    let mut h = common::app_in(dir.path());
    open_book(&mut h, "open.bin");
    let original = Book::from_polyglot(&polyglot).expect("a Polyglot book");
    assert!(
        h.query_by_label_contains(&format!("{} moves", original.len())).is_some(),
        "the whole book is shown"
    );
    // A Polyglot book has no place for values: Save is off; Save as writes a Kibitz book.
    assert!(h.get_by_label("Save book").accesskit_node().is_disabled());
    h.get_by_label("Save as…").click();
    until_shown(&mut h, "Saved the book to saved.kbook");
    let saved = Book::load(&dir.path().join("saved.kbook")).expect("a Kibitz book");
    assert_eq!(saved.len(), original.len());
    // Now the workspace edits saved.kbook: an edit and Save write it there.
    h.get_by_label("!! d4").click();
    h.run_steps(2);
    h.get_by_label("Save book").click();
    h.run_steps(2);
    until_idle(&mut h);
    // One value changed: one record written in place, not the whole file.
    assert!(h.query_by_label_contains("Wrote 1 records in place (88 bytes").is_some(), "saved in place");
    let start = Chess::default();
    let d4 = "d4".parse::<San>().expect("SAN").to_move(&start).expect("legal");
    let edited = Book::load(&dir.path().join("saved.kbook")).expect("a Kibitz book");
    assert_eq!(edited.get(book_key(&start), encode_move(d4)).and_then(|e| e.user), Some(100));
    // Start again: the book is in the list of books, and reopened it has the edit.
    until_saved_settings(&mut h, dir.path(), |s| s.recent_books.iter().any(|p| p.ends_with("saved.kbook")));
    drop(h);
    let mut h = common::app_in(dir.path());
    h.get_by_label("Book").click();
    h.run_steps(10);
    h.get_by_label("Books").click();
    h.run_steps(3);
    h.get_by_label_contains("saved.kbook").click();
    until_shown(&mut h, &format!("{} moves", original.len()));
    h.run_steps(10);
    assert_eq!(h.get_by_label("value of d4").accesskit_node().numeric_value(), Some(100.0));
    // `?` on d4: it leaves the moves played and joins the avoid list.
    h.get_by_label("? d4").click();
    h.run_steps(3);
    assert!(h.query_by_label_contains("user value 0 (avoid list)").is_some(), "d4 is avoided");
    // Export writes Polyglot again, byte for byte what was imported, but for d4 at weight 0.
    h.get_by_label("Export to Polyglot…").click();
    until_shown(&mut h, "Exported the book to exported.bin");
    wait_for(&dir.path().join("exported.bin"));
    let exported = Book::from_polyglot(&std::fs::read(dir.path().join("exported.bin")).expect("exported"))
        .expect("a Polyglot book");
    assert_eq!(exported.len(), original.len());
    for (e, o) in exported.entries().iter().zip(original.entries()) {
        let d4_here = e.key == book_key(&start) && e.mv == encode_move(d4);
        assert_eq!((e.key, e.mv), (o.key, o.mv));
        assert_eq!(e.weight, if d4_here { 0 } else { o.weight }, "only d4 changed");
    }
}

#[test]
fn a_damaged_book_opens_read_only_and_is_left_as_it_is() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut bytes = a6_book().to_bytes();
    // The last record's game count: the record still reads, the checksum does not match.
    let last = bytes.len() - 56 + 16;
    bytes[last] ^= 0x5a;
    let path = dir.path().join("open.kbook");
    std::fs::write(&path, &bytes).expect("written");
    let mut h = common::app_in(dir.path());
    open_book(&mut h, "open.kbook");
    assert!(h.query_by_label_contains("is damaged").is_some(), "the reason is shown");
    assert!(h.get_by_label("Save book").accesskit_node().is_disabled());
    assert!(h.get_by_label("Play from this book").accesskit_node().is_disabled());
    h.get_by_label("e4").click();
    h.run_steps(3);
    assert!(h.get_by_label("!! a6").accesskit_node().is_disabled(), "no edits in a read-only book");
    h.get_by_label("!! a6").click();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(3);
    assert_eq!(std::fs::read(&path).expect("still there"), bytes, "the damaged file is untouched");
}

#[test]
fn kibitz_plays_from_another_book_also_after_a_restart() {
    let dir = tempfile::tempdir().expect("temp dir");
    a6_book().save(&dir.path().join("open.kbook")).expect("written");
    let mut h = common::app_in(dir.path());
    open_book(&mut h, "open.kbook");
    h.get_by_label("Play from this book").click();
    until_shown(&mut h, "Kibitz plays and learns from open.kbook");
    assert!(h.query_by_label("Kibitz plays from this book").is_some());
    for round in ["now", "after a restart"] {
        h.get_by_label("Play").click();
        // The side panel changes width with the workspace: let it settle before clicking.
        h.run_steps(10);
        if let Some(afresh) = h.query_by_label("Start afresh") {
            afresh.click();
            h.run_steps(5);
        }
        // "Start afresh" opens the New game dialog itself.
        if h.query_by_label("Start").is_none() {
            h.get_by_label("New game").click();
            h.run_steps(3);
        }
        h.get_by_label("White").click();
        h.get_by_label("Start").click();
        h.run_steps(3);
        common::play_typed(&mut h, "e4");
        common::step_until(&mut h, "Kibitz's reply", |app| app.game().len() == 2);
        assert_eq!(h.state().game().san_moves()[1], "a6", "Kibitz plays the other book {round}");
        // Start again in the same folder once the settings name the book.
        until_saved_settings(&mut h, dir.path(), |s| {
            s.play_book.as_deref().is_some_and(|p| p.ends_with("open.kbook"))
        });
        drop(h);
        h = common::app_in(dir.path());
    }
}
