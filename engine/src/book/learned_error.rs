//! Why a file of learned data (the player's book, the learned positions, the PostBook, or
//! exported learned data) could not be read.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::book::BookError;

/// A learned-data file, or text, that was refused: where, and why.
///
/// ```
/// use kibitz_engine::PostBook;
/// let error = PostBook::from_text("# Kibitz PostBook, version 1\nnot a move\n").unwrap_err();
/// assert_eq!(error.line, Some(2));
/// assert_eq!(error.to_string(), "line 2: \"not a move\" is not a PostBook line");
/// ```
#[derive(Debug)]
pub struct LearnedFileError {
    /// The file, when the text came from one.
    pub path: Option<PathBuf>,
    /// The line (counted from 1) of a text file that could not be read.
    pub line: Option<usize>,
    /// What was wrong.
    pub kind: LearnedFileErrorKind,
}

/// What was wrong with a learned-data file.
#[derive(Debug)]
pub enum LearnedFileErrorKind {
    /// The file could not be read.
    Io(std::io::Error),
    /// A line of a text file does not have the form expected.
    BadLine {
        /// The line as found.
        text: String,
        /// What the line should have been, e.g. "a PostBook line".
        expected: &'static str,
    },
    /// The file is not of the kind expected.
    WrongKind {
        /// What the file should have been, e.g. "a table of learned positions".
        expected: &'static str,
    },
    /// A format version this program does not read.
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
    /// The player's book was refused.
    Book(BookError),
}

impl LearnedFileError {
    /// A line that does not have the expected form.
    pub(crate) fn bad_line(line: usize, text: &str, expected: &'static str) -> Self {
        LearnedFileError {
            path: None,
            line: Some(line),
            kind: LearnedFileErrorKind::BadLine { text: text.to_owned(), expected },
        }
    }

    /// An error of this kind, not yet tied to a file or line.
    pub(crate) fn of(kind: LearnedFileErrorKind) -> Self {
        LearnedFileError { path: None, line: None, kind }
    }

    /// The same error, naming the file it came from.
    #[must_use]
    pub fn in_file(mut self, path: &Path) -> Self {
        self.path = Some(path.to_path_buf());
        self
    }
}

impl From<std::io::Error> for LearnedFileError {
    fn from(e: std::io::Error) -> Self {
        LearnedFileError::of(LearnedFileErrorKind::Io(e))
    }
}

impl From<BookError> for LearnedFileError {
    fn from(e: BookError) -> Self {
        LearnedFileError::of(match e {
            BookError::Io(e) => LearnedFileErrorKind::Io(e),
            other => LearnedFileErrorKind::Book(other),
        })
    }
}

impl fmt::Display for LearnedFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.path, self.line) {
            (Some(path), Some(line)) => write!(f, "{}, line {line}: ", path.display())?,
            (Some(path), None) => write!(f, "{}: ", path.display())?,
            (None, Some(line)) => write!(f, "line {line}: ")?,
            (None, None) => {}
        }
        match &self.kind {
            LearnedFileErrorKind::Io(e) => write!(f, "cannot read the file: {e}"),
            LearnedFileErrorKind::BadLine { text, expected } => write!(f, "{text:?} is not {expected}"),
            LearnedFileErrorKind::WrongKind { expected } => write!(f, "not {expected}"),
            LearnedFileErrorKind::WrongVersion(v) => {
                write!(f, "format version {v} is not supported by this Kibitz")
            }
            LearnedFileErrorKind::Truncated { expected, found } => {
                write!(f, "the file is damaged: {found} bytes where {expected} were expected")
            }
            LearnedFileErrorKind::Checksum => f.write_str("the file is damaged: checksum mismatch"),
            LearnedFileErrorKind::Book(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for LearnedFileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            LearnedFileErrorKind::Io(e) => Some(e),
            LearnedFileErrorKind::Book(e) => Some(e),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_message_names_the_file_and_line() {
        let error =
            LearnedFileError::bad_line(7, "zz 1 2", "a PostBook line").in_file(Path::new("/d/postbook.txt"));
        assert_eq!(error.to_string(), "/d/postbook.txt, line 7: \"zz 1 2\" is not a PostBook line");
        let damaged = LearnedFileError::of(LearnedFileErrorKind::Checksum).in_file(Path::new("/d/p.kpos"));
        assert_eq!(damaged.to_string(), "/d/p.kpos: the file is damaged: checksum mismatch");
        let book = LearnedFileError::from(BookError::NotABook).in_file(Path::new("/d/k.kbook"));
        assert!(matches!(book.kind, LearnedFileErrorKind::Book(BookError::NotABook)), "{book:?}");
        let missing =
            LearnedFileError::from(BookError::Io(std::io::Error::from(std::io::ErrorKind::NotFound)));
        assert!(matches!(missing.kind, LearnedFileErrorKind::Io(_)), "{missing:?}");
        assert!(missing.to_string().starts_with("cannot read the file: "), "{missing}");
    }
}
