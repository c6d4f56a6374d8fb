//! A book file being edited: where it is, its format, and what is on disk, so that saving an
//! edit that changes fields of moves already in the book patches just those records (through
//! the journal, see `journal`) instead of rewriting the whole file.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::book::file::{HEADER, MAGIC, RECORD, record_bytes, u32_at};
use crate::book::journal::{self, Journal, Recovery};
use crate::book::{Book, BookError};
use crate::write_atomic;

/// The format of a book file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BookFormat {
    /// Kibitz's own `.kbook`: saved in place or rewritten.
    Kibitz,
    /// Polyglot's `.bin`: never saved over (it cannot hold user values); save it as a Kibitz
    /// book or export it.
    Polyglot,
}

/// How a save wrote the book.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SaveMethod {
    /// The changed records and the header were written in place (none when nothing changed).
    Patched {
        /// Records written.
        records: usize,
    },
    /// The whole file was written anew (atomically), for this reason.
    Rewritten(Rewrite),
}

/// Why a save rewrote the whole file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rewrite {
    /// A new file (Save As, or a book created).
    NewFile,
    /// Moves were added or removed: the records no longer sit where they were.
    MovesAddedOrRemoved,
    /// The file changed on disk since it was read or last saved (its size, time or header
    /// differ, or a record is not the move expected there): it is replaced by the book as
    /// edited.
    ChangedOnDisk,
    /// So many records changed that the journal would be larger than the file.
    ManyRecords,
}

/// What a save wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SaveReport {
    /// In place or anew.
    pub method: SaveMethod,
    /// Bytes written to the book file.
    pub book_bytes: u64,
    /// Bytes written to the journal beside it (0 for a rewrite).
    pub journal_bytes: u64,
}

/// The (key, move) layout of the records on disk, as a count and a 64-bit fingerprint of the
/// keys and moves in order (16 bytes instead of a copy of every key and move).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Layout {
    count: usize,
    fingerprint: u64,
}

impl Layout {
    /// Each (index, key, move) is hashed on its own and the hashes are added, so that the
    /// processor hashes several entries at once (a chained hash took 20 ms for two million
    /// entries, this about a quarter of that).
    fn of(book: &Book) -> Layout {
        let fingerprint =
            book.entries().iter().enumerate().fold(0u64, |sum, (i, e)| {
                sum.wrapping_add(mix(e.key ^ mix(u64::from(e.mv) << 32 | i as u64)))
            });
        Layout { count: book.len(), fingerprint }
    }
}

/// SplitMix64's finaliser: a bijection that spreads every input bit over the output.
fn mix(mut x: u64) -> u64 {
    x ^= x >> 30;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// What the file looked like when it was read or last saved.
#[derive(Clone, Debug, PartialEq, Eq)]
struct DiskState {
    len: u64,
    modified: Option<SystemTime>,
    header: [u8; HEADER],
}

impl DiskState {
    /// The state of the open file: its size and time, and its header read.
    fn of(file: &mut File) -> io::Result<DiskState> {
        let meta = file.metadata()?;
        let mut header = [0; HEADER];
        if meta.len() >= HEADER as u64 {
            file.seek(SeekFrom::Start(0))?;
            file.read_exact(&mut header)?;
        }
        Ok(DiskState { len: meta.len(), modified: meta.modified().ok(), header })
    }
}

/// A book file open for editing. Saving an edit that only changes fields of moves already in
/// the book (a user value, a play percentage, learned statistics reset) writes the changed
/// records and the header in place, crash-safely: the new records are first written to a
/// journal beside the file and flushed, then the file is patched and flushed, then the
/// journal is deleted; reading the book after a crash replays a complete journal and
/// discards a torn one. Adding or removing moves, or a file changed on disk, rewrites the
/// file atomically. A Polyglot file is never saved over.
///
/// ```
/// use kibitz_engine::{Book, BookFile, SaveMethod};
/// let path = std::env::temp_dir().join(format!("kibitz-doc-{}.kbook", std::process::id()));
/// let mut book = Book::new();
/// for key in 1..=100 {
///     book.entry_mut(key, 7).fixed.games = 10;
/// }
/// let (mut file, _) = BookFile::create(&path, &book).unwrap();
/// book.get_mut(50, 7).unwrap().user = Some(100);
/// let report = file.save(&book, &[(50, 7)]).unwrap();
/// assert_eq!(report.method, SaveMethod::Patched { records: 1 });
/// assert_eq!(report.book_bytes, 56 + 32);
/// assert_eq!(std::fs::read(&path).unwrap(), book.to_bytes());
/// # std::fs::remove_file(&path).unwrap();
/// ```
#[derive(Debug)]
pub struct BookFile {
    path: PathBuf,
    format: BookFormat,
    layout: Layout,
    /// `None` for a Polyglot file.
    disk: Option<DiskState>,
    recovery: Option<Recovery>,
}

impl BookFile {
    /// Opens a book file in either format, replaying or discarding the journal of a save cut
    /// short (see [`BookFile::recovery`]).
    ///
    /// # Errors
    /// The file cannot be read, or is not a book, or is damaged (see [`Book::salvage`] to
    /// read what can be read of it).
    pub fn open(path: &Path) -> Result<(BookFile, Book), BookError> {
        let mut bytes = fs::read(path)?;
        let kibitz = !bytes.is_empty() && bytes.starts_with(&MAGIC[..bytes.len().min(8)]);
        if !kibitz {
            let book = Book::from_polyglot(&bytes)?;
            let file = BookFile {
                path: path.to_path_buf(),
                format: BookFormat::Polyglot,
                layout: Layout::of(&book),
                disk: None,
                recovery: None,
            };
            return Ok((file, book));
        }
        let recovery = journal::recover(path, &mut bytes);
        let book = Book::from_bytes(&bytes)?;
        let meta = fs::metadata(path)?;
        let mut header = [0; HEADER];
        header.copy_from_slice(&bytes[..HEADER]);
        let disk = DiskState { len: meta.len(), modified: meta.modified().ok(), header };
        let file = BookFile {
            path: path.to_path_buf(),
            format: BookFormat::Kibitz,
            layout: Layout::of(&book),
            disk: Some(disk),
            recovery,
        };
        Ok((file, book))
    }

    /// Writes `book` as a new Kibitz book file at `path` (atomically, replacing any file
    /// there) and opens it.
    ///
    /// # Errors
    /// The file cannot be written; nothing is changed then.
    pub fn create(path: &Path, book: &Book) -> Result<(BookFile, SaveReport), BookError> {
        let mut file = BookFile {
            path: path.to_path_buf(),
            format: BookFormat::Kibitz,
            layout: Layout::of(book),
            disk: None,
            recovery: None,
        };
        let report = file.rewrite(book, Rewrite::NewFile)?;
        Ok((file, report))
    }

    /// Saves the book to another path as a Kibitz book (Save As); this file then stands for
    /// the new one.
    ///
    /// # Errors
    /// The file cannot be written; this file then still stands for the old path.
    pub fn save_as(&mut self, book: &Book, path: &Path) -> Result<SaveReport, BookError> {
        let (file, report) = BookFile::create(path, book)?;
        *self = file;
        Ok(report)
    }

    /// The file's path.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The file's format.
    #[must_use]
    pub fn format(&self) -> BookFormat {
        self.format
    }

    /// What opening the file did with the journal of a save cut short, if there was one.
    #[must_use]
    pub fn recovery(&self) -> Option<&Recovery> {
        self.recovery.as_ref()
    }

    /// Saves `book`, the book read from this file as edited since, where `touched` holds
    /// every (key, move) whose entry changed since it was read or last saved (in any order,
    /// repeats allowed; [`BookDocument::unsaved_moves`](crate::BookDocument::unsaved_moves)).
    /// When no move was added or removed and the file is as it was left, the changed records
    /// and the header are patched in place through the journal; otherwise the whole file is
    /// rewritten atomically. The report says which, and the bytes written.
    ///
    /// # Errors
    /// A Polyglot file ([`BookError::PolyglotNotSaved`]: save it as a Kibitz book), or the
    /// file cannot be read or written. A failure while patching leaves a complete journal,
    /// which the next reading of the book replays.
    pub fn save(&mut self, book: &Book, touched: &[(u64, u16)]) -> Result<SaveReport, BookError> {
        let Some(known) = self.disk.clone() else { return Err(BookError::PolyglotNotSaved) };
        let mut file = match OpenOptions::new().read(true).write(true).open(&self.path) {
            Ok(file) => file,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return self.rewrite(book, Rewrite::ChangedOnDisk);
            }
            Err(e) => return Err(e.into()),
        };
        let state = DiskState::of(&mut file)?;
        if state != known {
            return self.rewrite(book, Rewrite::ChangedOnDisk);
        }
        if Layout::of(book) != self.layout {
            return self.rewrite(book, Rewrite::MovesAddedOrRemoved);
        }
        let mut touched = touched.to_vec();
        touched.sort_unstable();
        touched.dedup();
        let journal_len = (touched.len() as u64).saturating_mul(8 + RECORD as u64);
        if journal_len >= state.len {
            return self.rewrite(book, Rewrite::ManyRecords);
        }
        match self.patches(&mut file, &state, book, &touched)? {
            Err(reason) => self.rewrite(book, reason),
            Ok(None) => {
                Ok(SaveReport { method: SaveMethod::Patched { records: 0 }, book_bytes: 0, journal_bytes: 0 })
            }
            Ok(Some(journal)) => {
                let journal_bytes = journal.write(&self.path)?;
                journal.apply_to(&mut file)?;
                // The file is saved; a journal that cannot be deleted is replayed harmlessly.
                let _ = journal::remove(&self.path);
                self.disk = Some(DiskState::of(&mut file)?);
                let records = journal.patches.len();
                Ok(SaveReport {
                    method: SaveMethod::Patched { records },
                    book_bytes: (records * RECORD + HEADER) as u64,
                    journal_bytes,
                })
            }
        }
    }

    /// The journal of the records of `touched` that differ from the file's: `Ok(None)` when
    /// none does, `Err` when the file cannot be patched after all. The new records checksum
    /// is the old one corrected for each changed record (CRC-32 is linear: the checksums of
    /// two messages of one length differ by the checksum, without its initial and final
    /// inversions, of their XOR), so nothing but the changed records is read or hashed.
    fn patches(
        &self,
        file: &mut File,
        state: &DiskState,
        book: &Book,
        touched: &[(u64, u16)],
    ) -> io::Result<Result<Option<Journal>, Rewrite>> {
        let records_len = state.len - HEADER as u64;
        let mut crc = u32_at(&state.header, 24);
        let mut patches = Vec::new();
        for &(key, mv) in touched {
            let Ok(i) = book.entries().binary_search_by_key(&(key, mv), |e| (e.key, e.mv)) else {
                return Ok(Err(Rewrite::MovesAddedOrRemoved));
            };
            let offset = (HEADER + i * RECORD) as u64;
            let mut old = [0; RECORD];
            file.seek(SeekFrom::Start(offset))?;
            file.read_exact(&mut old)?;
            let new = record_bytes(&book.entries()[i]);
            if old[..10] != new[..10] {
                return Ok(Err(Rewrite::ChangedOnDisk));
            }
            if old != new {
                let after = records_len - (offset - HEADER as u64 + RECORD as u64);
                crc ^= shift(crc32fast::hash(&old) ^ crc32fast::hash(&new), after);
                patches.push((offset, new));
            }
        }
        if patches.is_empty() {
            return Ok(Ok(None));
        }
        let mut new_header = state.header;
        new_header[24..28].copy_from_slice(&crc.to_le_bytes());
        let header_crc = crc32fast::hash(&new_header[..28]);
        new_header[28..].copy_from_slice(&header_crc.to_le_bytes());
        Ok(Ok(Some(Journal { book_len: state.len, old_header: state.header, new_header, patches })))
    }

    /// Writes the whole book atomically, deletes any journal left beside it, and remembers
    /// the new file.
    fn rewrite(&mut self, book: &Book, reason: Rewrite) -> Result<SaveReport, BookError> {
        let bytes = book.to_bytes();
        write_atomic(&self.path, &bytes)?;
        let _ = journal::remove(&self.path);
        let meta = fs::metadata(&self.path)?;
        let mut header = [0; HEADER];
        header.copy_from_slice(&bytes[..HEADER]);
        self.disk = Some(DiskState { len: meta.len(), modified: meta.modified().ok(), header });
        self.layout = Layout::of(book);
        self.format = BookFormat::Kibitz;
        Ok(SaveReport {
            method: SaveMethod::Rewritten(reason),
            book_bytes: bytes.len() as u64,
            journal_bytes: 0,
        })
    }
}

/// The CRC-32 state `crc` followed by `len` zero bytes, without the final inversion: what a
/// difference at one place becomes `len` bytes before the end of the message.
fn shift(crc: u32, len: u64) -> u32 {
    let mut state = crc32fast::Hasher::new_with_initial(crc);
    state.combine(&crc32fast::Hasher::new_with_initial_len(0, len));
    state.finalize()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::{BookEntry, Stats};

    struct Dir(PathBuf);

    impl Dir {
        fn new(name: &str) -> Dir {
            let dir = std::env::temp_dir().join(format!("kibitz-on-disk-{name}-{}", std::process::id()));
            let _ = fs::remove_dir_all(&dir);
            fs::create_dir_all(&dir).expect("a temporary folder");
            Dir(dir)
        }
    }

    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    fn sample(n: u64) -> Book {
        let entries = (0..n)
            .map(|i| {
                let mut e = BookEntry::new(i.wrapping_mul(0x9e37_79b9_7f4a_7c15), (i % 4000) as u16 + 1);
                e.fixed = Stats { games: i as u32 + 1, wins: 1, draws: 0, losses: 0 };
                e.learned = Stats { games: 2, wins: 1, draws: 1, losses: 0 };
                e
            })
            .collect();
        Book::from_entries(entries)
    }

    fn pair(book: &Book, i: usize) -> (u64, u16) {
        (book.entries()[i].key, book.entries()[i].mv)
    }

    #[test]
    fn the_shifted_checksum_is_the_checksum_of_the_patched_records() {
        let records: Vec<u8> = (0..1000u32).map(|i| (i * 7 % 251) as u8).collect();
        let mut patched = records.clone();
        patched[300..356].iter_mut().for_each(|b| *b ^= 0x5a);
        let delta = crc32fast::hash(&records[300..356]) ^ crc32fast::hash(&patched[300..356]);
        let crc = crc32fast::hash(&records) ^ shift(delta, 1000 - 356);
        assert_eq!(crc, crc32fast::hash(&patched));
        assert_eq!(shift(delta, 0) ^ crc32fast::hash(&records[..356]), crc32fast::hash(&patched[..356]));
    }

    #[test]
    fn an_edit_is_patched_in_place_and_the_file_is_the_whole_save() {
        let dir = Dir::new("patch");
        let path = dir.0.join("book.kbook");
        let mut book = sample(500);
        let (mut file, report) = BookFile::create(&path, &book).expect("writable");
        assert_eq!(report.method, SaveMethod::Rewritten(Rewrite::NewFile));
        for (round, idx) in [[0usize, 499, 250], [3, 3, 17], [100, 101, 102]].iter().enumerate() {
            for &i in idx {
                let (key, mv) = pair(&book, i);
                let e = book.get_mut(key, mv).expect("in the book");
                e.user = Some(round as u8 * 10);
                e.learned = Stats::default();
            }
            let touched: Vec<_> = idx.iter().map(|&i| pair(&book, i)).collect();
            let report = file.save(&book, &touched).expect("saved");
            let records = touched.iter().collect::<std::collections::HashSet<_>>().len();
            assert_eq!(report.method, SaveMethod::Patched { records });
            assert_eq!(report.book_bytes, (records * RECORD + HEADER) as u64);
            assert!(report.journal_bytes > 0);
            assert_eq!(fs::read(&path).expect("readable"), book.to_bytes(), "round {round}");
            assert!(!Journal::path_for(&path).exists(), "the journal is deleted");
        }
        // Saving again with nothing changed writes nothing.
        let touched = [pair(&book, 0)];
        let report = file.save(&book, &touched).expect("saved");
        assert_eq!(
            report,
            SaveReport { method: SaveMethod::Patched { records: 0 }, book_bytes: 0, journal_bytes: 0 }
        );
    }

    #[test]
    fn added_or_removed_moves_and_a_file_changed_underneath_rewrite_it() {
        let dir = Dir::new("rewrite");
        let path = dir.0.join("book.kbook");
        let mut book = sample(200);
        let (mut file, _) = BookFile::create(&path, &book).expect("writable");
        book.entry_mut(5, 5).user = Some(100);
        let report = file.save(&book, &[(5, 5)]).expect("saved");
        assert_eq!(report.method, SaveMethod::Rewritten(Rewrite::MovesAddedOrRemoved));
        assert_eq!(report.book_bytes, fs::metadata(&path).expect("there").len());
        assert_eq!(fs::read(&path).expect("readable"), book.to_bytes());

        // Another program writes the file: the next save replaces it by the book as edited.
        let mut other = book.clone();
        other.get_mut(5, 5).expect("there").user = Some(3);
        other.save(&path).expect("writable");
        let (key, mv) = pair(&book, 10);
        book.get_mut(key, mv).expect("there").play_pct = Some(40);
        let report = file.save(&book, &[(key, mv)]).expect("saved");
        assert_eq!(report.method, SaveMethod::Rewritten(Rewrite::ChangedOnDisk));
        assert_eq!(fs::read(&path).expect("readable"), book.to_bytes());

        // A file of the same size and header whose record holds another move.
        let mut bytes = book.to_bytes();
        bytes[HEADER + 10 * RECORD + 8] ^= 1;
        fs::write(&path, &bytes).expect("writable");
        file.disk = Some(DiskState::of(&mut File::open(&path).expect("there")).expect("readable"));
        book.get_mut(key, mv).expect("there").play_pct = Some(41);
        let report = file.save(&book, &[(key, mv)]).expect("saved");
        assert_eq!(report.method, SaveMethod::Rewritten(Rewrite::ChangedOnDisk));
        assert_eq!(fs::read(&path).expect("readable"), book.to_bytes());

        // Removed underneath.
        fs::remove_file(&path).expect("removable");
        let report = file.save(&book, &[]).expect("saved");
        assert_eq!(report.method, SaveMethod::Rewritten(Rewrite::ChangedOnDisk));
        assert_eq!(Book::load(&path).expect("readable"), book);
    }

    #[test]
    fn a_polyglot_file_is_never_saved_over() {
        let dir = Dir::new("polyglot");
        let path = dir.0.join("book.bin");
        let mut book = sample(50);
        for e in book.entries().to_vec() {
            book.get_mut(e.key, e.mv).expect("there").weight = 4;
        }
        fs::write(&path, book.to_polyglot()).expect("writable");
        let before = fs::read(&path).expect("readable");
        let (mut file, mut opened) = BookFile::open(&path).expect("a Polyglot book");
        assert_eq!(file.format(), BookFormat::Polyglot);
        let e = opened.entries()[0];
        opened.get_mut(e.key, e.mv).expect("there").user = Some(0);
        assert!(matches!(file.save(&opened, &[(e.key, e.mv)]), Err(BookError::PolyglotNotSaved)));
        assert_eq!(fs::read(&path).expect("readable"), before);
        let kbook = dir.0.join("book.kbook");
        let report = file.save_as(&opened, &kbook).expect("saved as");
        assert_eq!(report.method, SaveMethod::Rewritten(Rewrite::NewFile));
        assert_eq!((file.format(), file.path()), (BookFormat::Kibitz, kbook.as_path()));
        assert_eq!(Book::load(&kbook).expect("readable"), opened);
    }

    /// Writes a journal for one edit of `book` at `path` as a save would, without patching.
    fn journal_of_an_edit(path: &Path, book: &mut Book) -> (Journal, Vec<u8>) {
        let (file, _) = BookFile::create(path, book).expect("writable");
        let (key, mv) = pair(book, 7);
        book.get_mut(key, mv).expect("there").user = Some(42);
        let mut open = File::open(path).expect("there");
        let state = DiskState::of(&mut open).expect("readable");
        let journal = file.patches(&mut open, &state, book, &[(key, mv)]).expect("read").expect("patchable");
        let journal = journal.expect("a change");
        let bytes = journal.to_bytes();
        (journal, bytes)
    }

    #[test]
    fn a_complete_journal_is_replayed_when_the_book_is_read() {
        let dir = Dir::new("replay");
        let path = dir.0.join("book.kbook");
        let mut book = sample(100);
        let old = book.to_bytes();
        let (journal, bytes) = journal_of_an_edit(&path, &mut book);
        // The crash came after the journal and half of the patch: the header is torn.
        let mut half = old.clone();
        half[26..28].copy_from_slice(&journal.new_header[26..28]);
        for (name, on_disk) in [("untouched", old.clone()), ("torn header", half)] {
            fs::write(&path, &on_disk).expect("writable");
            fs::write(Journal::path_for(&path), &bytes).expect("writable");
            let (file, read) = BookFile::open(&path).expect("replayed");
            assert_eq!(read, book, "{name}");
            assert_eq!(file.recovery(), Some(&Recovery::Replayed { records: 1, on_disk: true }));
            assert_eq!(fs::read(&path).expect("readable"), book.to_bytes(), "{name}: repaired on disk");
            assert!(!Journal::path_for(&path).exists());
        }
        // Book::load replays too.
        fs::write(&path, &old).expect("writable");
        fs::write(Journal::path_for(&path), &bytes).expect("writable");
        assert_eq!(Book::load(&path).expect("replayed"), book);
        assert!(!Journal::path_for(&path).exists());
    }

    #[test]
    fn a_torn_journal_is_discarded_at_every_length_and_the_book_is_the_old_one() {
        let dir = Dir::new("torn");
        let path = dir.0.join("book.kbook");
        let mut book = sample(30);
        let old_book = book.clone();
        let old = book.to_bytes();
        let (_, bytes) = journal_of_an_edit(&path, &mut book);
        for len in 0..bytes.len() {
            fs::write(&path, &old).expect("writable");
            fs::write(Journal::path_for(&path), &bytes[..len]).expect("writable");
            let (file, read) = BookFile::open(&path).expect("the old book");
            assert_eq!(read, old_book, "cut at {len}");
            assert_eq!(file.recovery(), Some(&Recovery::Discarded));
            assert!(!Journal::path_for(&path).exists());
            assert_eq!(fs::read(&path).expect("readable"), old);
        }
        // A complete journal of another version of the file is discarded too.
        let mut other = old_book.clone();
        other.get_mut(pair(&old_book, 0).0, pair(&old_book, 0).1).expect("there").user = Some(1);
        fs::write(&path, other.to_bytes()).expect("writable");
        fs::write(Journal::path_for(&path), &bytes).expect("writable");
        assert_eq!(BookFile::open(&path).expect("readable").1, other);
    }

    #[test]
    fn a_save_that_fails_after_the_journal_is_finished_at_the_next_reading() {
        let dir = Dir::new("crash");
        let path = dir.0.join("book.kbook");
        let mut book = sample(64);
        let (journal, _) = journal_of_an_edit(&path, &mut book);
        journal.write(&path).expect("writable");
        // Only the first record is written before the "crash".
        let mut file = OpenOptions::new().write(true).open(&path).expect("there");
        let (offset, record) = journal.patches[0];
        file.seek(SeekFrom::Start(offset)).expect("seekable");
        std::io::Write::write_all(&mut file, &record).expect("writable");
        drop(file);
        assert!(Book::from_bytes(&fs::read(&path).expect("readable")).is_err(), "half-patched");
        assert_eq!(Book::open(&path).expect("replayed"), book);
    }
}
