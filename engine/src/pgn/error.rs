//! Why a game could not be read to its end, and where.

use std::fmt;

use crate::GameRecord;

/// Why a PGN game could not be read to its end: the message, where in the text it broke, and
/// the game as far as it could be read (tags and every move up to the last legal one).
#[derive(Clone, Debug)]
pub struct PgnError {
    /// What went wrong, for the player to read.
    pub message: String,
    /// The 1-based line of the text where it went wrong (0 when unknown).
    pub line: usize,
    /// The 1-based column, in characters, where it went wrong (0 when unknown).
    pub column: usize,
    /// The game as far as it could be read, when its tags could be: up to the last legal move
    /// of the main line, or the whole game but a broken variation (or with its parentheses
    /// unbalanced).
    pub partial: Option<Box<GameRecord>>,
}

impl PgnError {
    pub(crate) fn new(message: impl Into<String>) -> Self {
        PgnError { message: message.into(), line: 0, column: 0, partial: None }
    }

    pub(crate) fn at(mut self, (line, column): (usize, usize)) -> Self {
        self.line = line;
        self.column = column;
        self
    }
}

impl fmt::Display for PgnError {
    /// "line 3, column 14: Move 4. Ka1 is illegal: illegal san." (the location only when known).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "line {}, column {}: ", self.line, self.column)?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for PgnError {}
