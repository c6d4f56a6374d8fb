//! The Book workspace's files: reading a book the user picked (Kibitz's own format or
//! Polyglot), writing it (save, save as, export to Polyglot), all on a worker thread, and
//! what the editor may do with a book it could only partly read.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use kibitz_engine::{Book, BookFile, BookFormat, Job, Rewrite, SaveMethod, SaveReport, write_atomic};

use crate::files::FilePicker;

/// A book read from a file.
pub struct OpenedBook {
    /// The file.
    pub path: PathBuf,
    /// Its format.
    pub format: BookFormat,
    /// What was read.
    pub book: Book,
    /// How many positions it has (counted here, off the UI thread: it reads the whole book).
    pub positions: usize,
    /// The file, to save edits in place; `None` when it is read-only.
    pub file: Option<BookFile>,
    /// Why the book may not be edited in place (a damaged or unwritable file), if so.
    pub read_only: Option<String>,
}

/// What a book job ended with.
pub enum BookDone {
    /// The user cancelled the file dialog.
    Nothing,
    /// A book was read.
    Opened(OpenedBook),
    /// A book was written.
    Saved {
        /// The file written.
        path: PathBuf,
        /// In which format.
        format: BookFormat,
        /// What was written: the whole file, or records in place.
        written: String,
        /// The Kibitz book file, for the next save in place.
        file: Option<BookFile>,
    },
}

/// A book being read or written in the background.
pub type BookJob = Job<(), BookDone, String>;

/// What a book job does.
pub enum BookTask {
    /// Asks the user for a book and reads it.
    Pick,
    /// Reads this book.
    Open(PathBuf),
    /// Asks the user where, then writes the book in this format.
    WriteAs(String, Arc<Book>, BookFormat),
}

impl BookTask {
    /// What the panel says while the task runs.
    #[must_use]
    pub fn describe(&self) -> String {
        match self {
            BookTask::Pick => "Choosing a book…".into(),
            BookTask::Open(path) => format!("Reading {}…", file_name(path)),
            BookTask::WriteAs(..) => "Saving the book…".into(),
        }
    }

    /// Starts the task on a worker thread; `wake` is called when it is done.
    pub fn spawn(self, picker: Arc<dyn FilePicker>, wake: impl Fn() + Send + Sync + 'static) -> BookJob {
        Job::spawn("kibitz-book-file", wake, move |_| match self {
            BookTask::Pick => match picker.open_book() {
                Some(path) => read_book(&path).map(BookDone::Opened),
                None => Ok(BookDone::Nothing),
            },
            BookTask::Open(path) => read_book(&path).map(BookDone::Opened),
            BookTask::WriteAs(name, book, format) => match picker.save_book(&name, format) {
                Some(path) => write_book(path, &book, format),
                None => Ok(BookDone::Nothing),
            },
        })
    }
}

/// The file's name, for messages.
#[must_use]
pub fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
}

/// Reads a book in either format (replaying the journal of a save a crash interrupted). A
/// damaged Kibitz book opens read-only with what could be read (the file is left as it is);
/// so does one the user may not write.
///
/// # Errors
/// The file cannot be read, or it is no book at all.
pub fn read_book(path: &Path) -> Result<OpenedBook, String> {
    let name = file_name(path);
    let (file, book, mut read_only) = match BookFile::open(path) {
        Ok((file, book)) => (Some(file), book, None),
        Err(e) => {
            let bytes = std::fs::read(path).map_err(|e| format!("{name} cannot be read: {e}"))?;
            if !bytes.starts_with(b"KIBITZBK") {
                return Err(format!("{name}: {e}"));
            }
            let salvaged = Book::salvage(&bytes);
            let message = format!(
                "{name} is damaged ({salvaged}). It is open read-only and the file is left as it is: \
                 Save as keeps what was read in a new file."
            );
            (None, salvaged.book, Some(message))
        }
    };
    let format = file.as_ref().map_or(BookFormat::Kibitz, BookFile::format);
    let unwritable = std::fs::metadata(path).is_ok_and(|m| m.permissions().readonly());
    if read_only.is_none() && unwritable {
        read_only = Some(format!("{name} is read-only on disk: Save as writes the edits to a new file."));
    }
    let positions = book.positions();
    Ok(OpenedBook { path: path.to_path_buf(), format, book, positions, file, read_only })
}

/// Saves the edits of a Kibitz book: in place when only values changed (`touched` are the
/// moves edited since the last save), else the whole file; `file` is the book's file as last
/// read or saved, or `None` to open it now (or create it, if it does not exist yet).
///
/// # Errors
/// The file cannot be read or written.
pub fn save_book(
    path: &Path,
    file: Option<BookFile>,
    book: &Book,
    touched: &[(u64, u16)],
) -> Result<BookDone, String> {
    let started = Instant::now();
    let failed = |e: kibitz_engine::BookError| format!("{} cannot be saved: {e}", file_name(path));
    let (file, report) = match file {
        Some(mut file) => {
            let report = file.save(book, touched).map_err(failed)?;
            (file, report)
        }
        None if path.exists() => {
            let (mut file, _) = BookFile::open(path).map_err(failed)?;
            let report = file.save(book, touched).map_err(failed)?;
            (file, report)
        }
        None => BookFile::create(path, book).map_err(failed)?,
    };
    Ok(BookDone::Saved {
        path: path.to_path_buf(),
        format: BookFormat::Kibitz,
        written: describe(&report, started.elapsed().as_millis()),
        file: Some(file),
    })
}

/// "Wrote 2 records in place (88 bytes, 156 to the journal) in 3 ms".
fn describe(report: &SaveReport, millis: u128) -> String {
    match report.method {
        SaveMethod::Patched { records } => format!(
            "Wrote {records} records in place ({} bytes, {} to the journal) in {millis} ms.",
            report.book_bytes, report.journal_bytes
        ),
        SaveMethod::Rewritten(why) => {
            let why = match why {
                Rewrite::NewFile => "a new file",
                Rewrite::MovesAddedOrRemoved => "moves were added or removed",
                Rewrite::ChangedOnDisk => "the file had changed on disk",
                Rewrite::ManyRecords => "most moves changed",
            };
            format!("Wrote the whole file ({} bytes: {why}) in {millis} ms.", report.book_bytes)
        }
    }
}

/// Writes the book anew, atomically, in `format`.
fn write_book(path: PathBuf, book: &Book, format: BookFormat) -> Result<BookDone, String> {
    let started = Instant::now();
    let failed = |e: String| format!("{} cannot be written: {e}", file_name(&path));
    if format == BookFormat::Kibitz {
        let (file, report) = BookFile::create(&path, book).map_err(|e| failed(e.to_string()))?;
        let written = describe(&report, started.elapsed().as_millis());
        return Ok(BookDone::Saved { path, format, written, file: Some(file) });
    }
    let bytes = book.to_polyglot();
    if bytes.is_empty() {
        // An empty file is no Polyglot book: nothing is written.
        return Err(failed(kibitz_engine::BookError::Empty.to_string()));
    }
    write_atomic(&path, &bytes).map_err(|e| failed(e.to_string()))?;
    let written = format!("Wrote {} bytes in {} ms.", bytes.len(), started.elapsed().as_millis());
    Ok(BookDone::Saved { path, format, written, file: None })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("kibitz-book-files-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        dir
    }

    fn small_book() -> Book {
        let mut book = Book::new();
        for (key, mv) in [(1, 10), (1, 11), (2, 12)] {
            let entry = book.entry_mut(key, mv);
            entry.fixed.games = 5;
            entry.weight = 5;
        }
        book
    }

    #[test]
    fn a_damaged_book_opens_read_only_and_is_left_as_it_is() {
        let dir = folder("damaged");
        let path = dir.join("book.kbook");
        let mut bytes = small_book().to_bytes();
        let last = bytes.len() - 1;
        bytes[last] ^= 0x55;
        std::fs::write(&path, &bytes).expect("written");
        let opened = read_book(&path).expect("opens");
        assert_eq!(opened.format, BookFormat::Kibitz);
        assert!(opened.read_only.as_deref().is_some_and(|m| m.contains("damaged")), "{:?}", opened.read_only);
        assert_eq!(std::fs::read(&path).expect("still there"), bytes, "the file is untouched");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn books_round_trip_in_both_formats() {
        let dir = folder("round-trip");
        let book = Arc::new(small_book());
        for (name, format) in [("b.kbook", BookFormat::Kibitz), ("b.bin", BookFormat::Polyglot)] {
            let path = dir.join(name);
            let done = write_book(path.clone(), &book, format).expect("written");
            assert!(matches!(done, BookDone::Saved { written, .. } if written.starts_with("Wrote")));
            let opened = read_book(&path).expect("read back");
            assert_eq!(opened.format, format);
            assert!(opened.read_only.is_none());
            assert_eq!(opened.book.len(), 3);
        }
        assert!(read_book(&dir.join("missing.kbook")).is_err());
        // A book whose moves all have weight 0 has nothing for Polyglot: no empty file.
        let mut lost = small_book();
        for key in [1, 2] {
            for mv in [10, 11, 12] {
                if let Some(e) = lost.get_mut(key, mv) {
                    e.weight = 0;
                }
            }
        }
        let empty = dir.join("empty.bin");
        assert!(write_book(empty.clone(), &lost, BookFormat::Polyglot).is_err());
        assert!(!empty.exists());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
