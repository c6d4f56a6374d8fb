//! Why a book could not be read, written or built.

use std::fmt;

/// A book file that was refused, or a failed book operation. The messages are written for the
/// player; a refused file is never modified.
#[derive(Debug)]
pub enum BookError {
    /// The file could not be read or written.
    Io(std::io::Error),
    /// The file does not start with Kibitz's book magic and is not a Polyglot book either.
    NotABook,
    /// A Kibitz book of a version this program does not read.
    WrongVersion(u32),
    /// The file is shorter or longer than its header says.
    Truncated {
        /// Bytes the header announces.
        expected: u64,
        /// Bytes found.
        found: u64,
    },
    /// The records do not match the checksum in the header.
    Checksum,
    /// The entries are not sorted by key and move (entry index given).
    Unsorted(usize),
    /// A record holds an impossible value (entry index and what).
    BadRecord(usize, &'static str),
    /// A PGN file could not be read.
    Pgn(String),
    /// The operation was cancelled.
    Cancelled,
    /// The book to be written has no moves (a Polyglot file of no entries is no book), so
    /// nothing was written.
    Empty,
    /// Save was asked to write over a Polyglot book, which cannot hold what a Kibitz book
    /// holds: nothing was written (save it as a Kibitz book, or export it).
    PolyglotNotSaved,
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Io(e) => write!(f, "cannot access the book file: {e}"),
            BookError::NotABook => {
                f.write_str("not an opening book (neither a Kibitz book nor a Polyglot .bin)")
            }
            BookError::WrongVersion(v) => {
                write!(f, "book format version {v} is not supported by this Kibitz")
            }
            BookError::Truncated { expected, found } => {
                write!(f, "the book file is damaged: {found} bytes where {expected} were expected")
            }
            BookError::Checksum => f.write_str("the book file is damaged: checksum mismatch"),
            BookError::Unsorted(i) => write!(f, "the book file is damaged: entry {i} is out of order"),
            BookError::BadRecord(i, what) => write!(f, "the book file is damaged: entry {i} has {what}"),
            BookError::Pgn(message) => write!(f, "cannot read the PGN: {message}"),
            BookError::Cancelled => f.write_str("cancelled"),
            BookError::Empty => f.write_str("the book has no moves to write, so nothing was written"),
            BookError::PolyglotNotSaved => f.write_str(
                "a Polyglot book is not saved over (it cannot keep user values): save it as a Kibitz book, or export it",
            ),
        }
    }
}

impl std::error::Error for BookError {}

impl From<std::io::Error> for BookError {
    fn from(e: std::io::Error) -> Self {
        BookError::Io(e)
    }
}
