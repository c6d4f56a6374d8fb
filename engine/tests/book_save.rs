//! Saving the shipped book as the book editor does: edits through a `BookDocument`, saved by a
//! `BookFile` in place when only values changed and anew when moves were added or removed,
//! byte for byte what a whole save writes; and damaged copies of it salvaged for reading.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::TempDir;
use kibitz_engine::{
    Book, BookDocument, BookEdit, BookError, BookFile, GameRecord, Recovery, Rewrite, SaveMethod, book_key,
    encode_move,
};

fn shipped() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../books/kibitz.kbook")
}

/// The shipped book copied into `dir`.
fn copy_in(dir: &TempDir) -> PathBuf {
    let path = dir.0.join("kibitz.kbook");
    fs::copy(shipped(), &path).expect("the shipped book is copied");
    path
}

/// The position after the moves of `line` and the move `san` in it.
fn at(line: &[&str], san: &str) -> (shakmaty::Chess, shakmaty::Move) {
    let mut game = GameRecord::new();
    for m in line {
        game.play_text(m).expect("a legal test move");
    }
    let mv = game.parse_move(san).expect("a legal test move");
    (game.position().clone(), mv)
}

#[test]
fn edits_of_values_are_saved_in_place_and_adding_a_move_rewrites_the_file() {
    let dir = TempDir::new("book-save-edits");
    let path = copy_in(&dir);
    let (mut file, book) = BookFile::open(&path).expect("the shipped book opens");
    assert_eq!(file.recovery(), None);
    let mut doc = BookDocument::new(book);

    let (start, e4) = at(&[], "e4");
    let (sicilian, c5) = at(&["e4"], "c5");
    assert!(doc.book().get(book_key(&start), encode_move(e4)).is_some(), "1. e4 is in the book");
    doc.apply(BookEdit::set_user(&start, e4, Some(100))).expect("edit");
    doc.apply(BookEdit::set_play(&sicilian, c5, Some(30))).expect("edit");
    doc.apply(BookEdit::reset_learned(&sicilian, c5)).expect("edit");
    assert!(!doc.adds_or_removes());
    let report = file.save(doc.book(), &doc.unsaved_moves()).expect("saved");
    assert_eq!(report.method, SaveMethod::Patched { records: 2 });
    assert_eq!(report.book_bytes, 2 * 56 + 32, "two records and the header");
    let len = fs::metadata(&path).expect("there").len();
    assert!(report.journal_bytes < 300 && len > 100_000, "{report:?} for a file of {len} bytes");
    assert_eq!(fs::read(&path).expect("readable"), doc.book().to_bytes());
    doc.mark_saved();

    // Undoing the play percentage (and the reset that changed nothing) is saved in place too.
    doc.undo();
    doc.undo();
    let report = file.save(doc.book(), &doc.unsaved_moves()).expect("saved");
    assert_eq!(report.method, SaveMethod::Patched { records: 1 });
    assert_eq!(Book::load(&path).expect("readable"), *doc.book());
    doc.mark_saved();

    // Adding a move moves the records after it: the file is written anew.
    let (start, a4) = at(&[], "a4");
    assert!(doc.book().get(book_key(&start), encode_move(a4)).is_none(), "1. a4 is not in the book");
    doc.apply(BookEdit::set_user(&start, a4, Some(10))).expect("edit");
    assert!(doc.adds_or_removes());
    let report = file.save(doc.book(), &doc.unsaved_moves()).expect("saved");
    assert_eq!(report.method, SaveMethod::Rewritten(Rewrite::MovesAddedOrRemoved));
    assert_eq!(report.book_bytes, fs::metadata(&path).expect("there").len());
    assert_eq!(fs::read(&path).expect("readable"), doc.book().to_bytes());
    doc.mark_saved();

    // And the file stays patchable after the rewrite.
    doc.apply(BookEdit::set_user(&start, a4, Some(20))).expect("edit");
    let report = file.save(doc.book(), &doc.unsaved_moves()).expect("saved");
    assert_eq!(report.method, SaveMethod::Patched { records: 1 });
    assert_eq!(fs::read(&path).expect("readable"), doc.book().to_bytes());
    let (again, reread) = BookFile::open(&path).expect("reads");
    assert_eq!((&reread, again.recovery()), (doc.book(), None));
}

#[test]
fn a_journal_left_by_a_crash_is_replayed_and_a_torn_one_discarded() {
    let dir = TempDir::new("book-save-crash");
    let path = copy_in(&dir);
    let old = fs::read(&path).expect("readable");
    let (mut file, book) = BookFile::open(&path).expect("opens");
    let mut doc = BookDocument::new(book);
    let (start, d4) = at(&[], "d4");
    doc.apply(BookEdit::set_user(&start, d4, Some(75))).expect("edit");
    file.save(doc.book(), &doc.unsaved_moves()).expect("saved");
    let new = fs::read(&path).expect("readable");

    // Reconstruct the journal that save wrote: the file's header before and after, the record.
    let journal = journal_for(&old, &new);
    let journal_path = dir.0.join("kibitz.kbook.journal");
    // A crash after the journal, before the book was touched: the next reading is the new book.
    fs::write(&path, &old).expect("writable");
    fs::write(&journal_path, &journal).expect("writable");
    assert_eq!(Book::load(&path).expect("replayed"), *doc.book());
    assert_eq!(fs::read(&path).expect("readable"), new, "repaired on disk");
    assert!(!journal_path.exists());
    // A crash while the journal was written: the old book, the journal gone.
    for cut in [0, 1, 40, journal.len() / 2, journal.len() - 1] {
        fs::write(&path, &old).expect("writable");
        fs::write(&journal_path, &journal[..cut]).expect("writable");
        let (file, book) = BookFile::open(&path).expect("the old book");
        assert_eq!(file.recovery(), Some(&Recovery::Discarded));
        assert_eq!(book.to_bytes(), old, "cut at {cut}");
        assert!(!journal_path.exists());
    }
}

/// The journal of a patch from `old` to `new` (one record differing), in the layout of
/// docs/BOOK-FORMAT.md.
fn journal_for(old: &[u8], new: &[u8]) -> Vec<u8> {
    let changed: Vec<usize> = (0..(old.len() - 32) / 56)
        .filter(|i| old[32 + i * 56..32 + (i + 1) * 56] != new[32 + i * 56..32 + (i + 1) * 56])
        .collect();
    let mut out = b"KIBITZBJ".to_vec();
    out.extend_from_slice(&1u32.to_le_bytes());
    out.extend_from_slice(&(changed.len() as u32).to_le_bytes());
    out.extend_from_slice(&(old.len() as u64).to_le_bytes());
    out.extend_from_slice(&old[..32]);
    out.extend_from_slice(&new[..32]);
    for i in changed {
        out.extend_from_slice(&((32 + i * 56) as u64).to_le_bytes());
        out.extend_from_slice(&new[32 + i * 56..32 + (i + 1) * 56]);
    }
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

#[test]
fn damaged_copies_of_the_shipped_book_are_salvaged() {
    let good = fs::read(shipped()).expect("the shipped book");
    let book = Book::from_bytes(&good).expect("whole");
    let n = book.len();
    let record = |i: usize| 32 + i * 56;

    // Truncated in the middle of a record: the records before it.
    let cut = &good[..record(1000) + 20];
    let salvaged = Book::salvage(cut);
    assert!(matches!(salvaged.damage, Some(BookError::Truncated { .. })), "{salvaged}");
    assert_eq!(salvaged.book.entries(), &book.entries()[..1000]);
    assert_eq!(salvaged.announced, Some(n as u64));

    // A flipped bit in a statistic: a checksum error, every record still read.
    let mut flipped = good.clone();
    flipped[record(500) + 20] ^= 0x08;
    let salvaged = Book::salvage(&flipped);
    assert!(matches!(salvaged.damage, Some(BookError::Checksum)));
    assert_eq!((salvaged.book.len(), salvaged.dropped), (n, 0));

    // A block of 100 records overwritten with zeros: they go, the rest stays.
    let mut zeroed = good.clone();
    zeroed[record(2000)..record(2100)].fill(0);
    let salvaged = Book::salvage(&zeroed);
    assert_eq!(salvaged.book.len(), n - 100, "{salvaged}");
    assert_eq!(&salvaged.book.entries()[..2000], &book.entries()[..2000]);
    assert_eq!(&salvaged.book.entries()[2000..], &book.entries()[2100..]);

    // Two records swapped, checksums made right: out of order, one of them left out.
    let mut swapped = good.clone();
    let first = swapped[record(10)..record(11)].to_vec();
    swapped.copy_within(record(11)..record(12), record(10));
    swapped[record(11)..record(12)].copy_from_slice(&first);
    let crc = crc32fast::hash(&swapped[32..]);
    swapped[24..28].copy_from_slice(&crc.to_le_bytes());
    let crc = crc32fast::hash(&swapped[..28]);
    swapped[28..32].copy_from_slice(&crc.to_le_bytes());
    let salvaged = Book::salvage(&swapped);
    assert!(matches!(salvaged.damage, Some(BookError::Unsorted(11))), "{salvaged}");
    assert_eq!((salvaged.book.len(), salvaged.dropped), (n - 1, 1));

    // Garbage appended: every record, the header's count trusted.
    let mut longer = good.clone();
    longer.extend_from_slice(&[0xab; 300]);
    let salvaged = Book::salvage(&longer);
    assert!(matches!(salvaged.damage, Some(BookError::Truncated { .. })));
    assert_eq!(salvaged.book, book);

    // The damaged header's count: the records are read by the file's length.
    let mut header = good.clone();
    header[16] ^= 0xff;
    assert_eq!(Book::salvage(&header).book, book);
}
