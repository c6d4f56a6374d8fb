//! The Book workspace's files: reading a book the user picked (Kibitz's own format or
//! Polyglot), writing it (save, save as, export to Polyglot), all on a worker thread, and
//! what the editor may do with a book it could only partly read.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use kibitz_engine::{Book, Job, write_atomic};

use crate::files::FilePicker;

/// How a book file is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BookFormat {
    /// Kibitz's `.kbook`: statistics, learning, user values and play percentages.
    Kibitz,
    /// Polyglot's `.bin`: a weight per move, nothing else.
    Polyglot,
}

impl BookFormat {
    /// The format of a file's bytes: Kibitz's by its magic, Polyglot otherwise.
    #[must_use]
    pub fn of(bytes: &[u8]) -> Self {
        if bytes.starts_with(b"KIBITZBK") { BookFormat::Kibitz } else { BookFormat::Polyglot }
    }
}

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
        /// How many bytes.
        bytes: usize,
        /// How long it took, in milliseconds.
        millis: u128,
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
    /// Writes the book to this file, in this format.
    Write(PathBuf, Arc<Book>, BookFormat),
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
            BookTask::Write(path, ..) => format!("Writing {}…", file_name(path)),
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
            BookTask::Write(path, book, format) => write_book(path, &book, format),
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

/// Reads a book in either format. A damaged Kibitz book opens read-only with what could be
/// read (the file is left as it is); so does one the user may not write.
///
/// # Errors
/// The file cannot be read, or it is no book at all.
pub fn read_book(path: &Path) -> Result<OpenedBook, String> {
    let name = file_name(path);
    let bytes = std::fs::read(path).map_err(|e| format!("{name} cannot be read: {e}"))?;
    let format = BookFormat::of(&bytes);
    let (book, mut read_only) = match format {
        BookFormat::Polyglot => (Book::from_polyglot(&bytes).map_err(|e| format!("{name}: {e}"))?, None),
        BookFormat::Kibitz => match Book::from_bytes(&bytes) {
            Ok(book) => (book, None),
            Err(e) => {
                let book = salvage(&bytes);
                let message = format!(
                    "{name} is damaged ({e}); {} moves could be read. It is open read-only and the \
                     file is left as it is: Save as keeps what was read in a new file.",
                    book.len()
                );
                (book, Some(message))
            }
        },
    };
    let unwritable = std::fs::metadata(path).is_ok_and(|m| m.permissions().readonly());
    if read_only.is_none() && unwritable {
        read_only = Some(format!("{name} is read-only on disk: Save as writes the edits to a new file."));
    }
    let positions = book.positions();
    Ok(OpenedBook { path: path.to_path_buf(), format, book, positions, read_only })
}

// Replaced by the engine's salvage when it lands.
fn salvage(_bytes: &[u8]) -> Book {
    Book::new()
}

/// Writes the book atomically in `format`.
fn write_book(path: PathBuf, book: &Book, format: BookFormat) -> Result<BookDone, String> {
    let started = Instant::now();
    let bytes = match format {
        BookFormat::Kibitz => book.to_bytes(),
        BookFormat::Polyglot => {
            if book.is_empty() {
                return Err("the book has no moves to write".into());
            }
            book.to_polyglot()
        }
    };
    write_atomic(&path, &bytes).map_err(|e| format!("{} cannot be written: {e}", file_name(&path)))?;
    Ok(BookDone::Saved { path, format, bytes: bytes.len(), millis: started.elapsed().as_millis() })
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
            book.entry_mut(key, mv).fixed.games = 5;
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
            assert!(matches!(done, BookDone::Saved { bytes, .. } if bytes > 0));
            let opened = read_book(&path).expect("read back");
            assert_eq!(opened.format, format);
            assert!(opened.read_only.is_none());
            assert_eq!(opened.book.len(), 3);
        }
        assert!(read_book(&dir.join("missing.kbook")).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
