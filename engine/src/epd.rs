//! Test suite positions: EPD lines with `bm` (best move), `am` (avoid move) and `id`, or
//! Crafty's own format of `title`, `setboard` and `solution` lines (see `epd/crafty.rs`).
//! Running a suite is [`run_suite`](crate::run_suite)'s work.
//!
//! ```
//! use kibitz_engine::EpdTest;
//! let epd = EpdTest::parse_suite("6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id \"mate\";").unwrap();
//! let crafty = EpdTest::parse_suite("title mate\nsetboard 6k1/5ppp/8/8/8/8/8/R5K1 w\nsolution Ra8\n").unwrap();
//! assert_eq!(epd, crafty);
//! ```

mod crafty;

use std::path::{Path, PathBuf};

use shakmaty::{CastlingMode, Chess, Move, PositionError, fen::Fen, san::San};

/// One position of a test suite.
#[derive(Clone, Debug, PartialEq)]
pub struct EpdTest {
    /// The `id` operation (Crafty's `title`), or the FEN when there is none.
    pub id: String,
    /// The position.
    pub pos: Chess,
    /// Moves that solve it (`bm`); any of them will do.
    pub best: Vec<Move>,
    /// Moves that fail it (`am`, Crafty's moves marked `?`).
    pub avoid: Vec<Move>,
}

impl EpdTest {
    /// Parses one EPD line; `Ok(None)` for blank lines and comments (`#`).
    ///
    /// # Errors
    /// Says what is wrong: a bad position, an unreadable or illegal move, no `bm`/`am`.
    pub fn parse(line: &str) -> Result<Option<EpdTest>, String> {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return Ok(None);
        }
        let fields: Vec<&str> = line.splitn(5, ' ').collect();
        let [board, turn, castling, ep, ops @ ..] = fields.as_slice() else {
            return Err(format!("too few fields in '{line}'"));
        };
        let mut test = EpdTest::at(board, turn, castling, ep)?;
        for op in ops.first().copied().unwrap_or_default().split(';') {
            let op = op.trim();
            let (name, args) = op.split_once(' ').unwrap_or((op, ""));
            match name {
                "bm" | "am" => {
                    for word in args.split_whitespace() {
                        test.add_move(word, name == "am")?;
                    }
                }
                "id" => test.id = args.trim().trim_matches('"').to_owned(),
                _ => {}
            }
        }
        if test.best.is_empty() && test.avoid.is_empty() {
            return Err(format!("no bm or am in {}", test.id));
        }
        Ok(Some(test))
    }

    /// A test of the position of these four FEN fields, with no move yet; its id is the FEN.
    fn at(board: &str, turn: &str, castling: &str, ep: &str) -> Result<EpdTest, String> {
        let text = format!("{board} {turn} {castling} {ep} 0 1");
        let fen: Fen = text.parse().map_err(|e| format!("bad position '{text}': {e}"))?;
        let pos: Chess = fen
            .into_position(CastlingMode::Standard)
            .or_else(PositionError::ignore_impossible_check)
            .map_err(|e| format!("impossible position '{text}': {e}"))?;
        Ok(EpdTest { id: text, pos, best: Vec::new(), avoid: Vec::new() })
    }

    /// Adds a move in SAN to the solutions, or to the moves to avoid.
    fn add_move(&mut self, word: &str, avoid: bool) -> Result<(), String> {
        let san: San = word.parse().map_err(|_| format!("bad move '{word}' in {}", self.id))?;
        let m = san.to_move(&self.pos).map_err(|_| format!("illegal move '{word}' in {}", self.id))?;
        if avoid {
            self.avoid.push(m)
        } else {
            self.best.push(m)
        }
        Ok(())
    }

    /// Parses a whole suite: EPD, one test a line, or Crafty's format when the first line
    /// that is not blank or a comment is a `title`, `setboard` or `solution` command.
    ///
    /// # Errors
    /// [`EpdSuiteError::BadLine`] for the first line that is not a test, blank or a
    /// comment; [`EpdSuiteError::Empty`] when there is no test at all.
    pub fn parse_suite(text: &str) -> Result<Vec<EpdTest>, EpdSuiteError> {
        let first = text.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with('#'));
        let first_word = first.and_then(|l| l.split_whitespace().next()).unwrap_or("");
        let tests = if crafty::COMMANDS.contains(&first_word) {
            crafty::parse(text)?
        } else {
            let mut tests = Vec::new();
            for (index, line) in text.lines().enumerate() {
                match EpdTest::parse(line) {
                    Ok(Some(test)) => tests.push(test),
                    Ok(None) => {}
                    Err(why) => return Err(EpdSuiteError::BadLine { number: index + 1, why }),
                }
            }
            tests
        };
        if tests.is_empty() { Err(EpdSuiteError::Empty) } else { Ok(tests) }
    }

    /// Reads and parses the suite in the file at `path` (see
    /// [`parse_suite`](EpdTest::parse_suite)).
    ///
    /// # Errors
    /// [`EpdSuiteError::Unreadable`] when the file cannot be read as text, and the errors of
    /// [`parse_suite`](EpdTest::parse_suite).
    pub fn read_suite(path: &Path) -> Result<Vec<EpdTest>, EpdSuiteError> {
        let unreadable = |reason: String| EpdSuiteError::Unreadable { path: path.to_path_buf(), reason };
        let bytes = std::fs::read(path).map_err(|e| unreadable(e.to_string()))?;
        let text = String::from_utf8(bytes).map_err(|_| unreadable("it is not UTF-8 text".into()))?;
        EpdTest::parse_suite(&text)
    }

    /// Whether playing `m` solves the position.
    #[must_use]
    pub fn is_solved_by(&self, m: Move) -> bool {
        (self.best.is_empty() || self.best.contains(&m)) && !self.avoid.contains(&m)
    }
}

/// Why a test suite could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EpdSuiteError {
    /// The file could not be read.
    Unreadable {
        /// The file.
        path: PathBuf,
        /// The system's reason.
        reason: String,
    },
    /// There is no test: the text is empty, or only blank lines and comments.
    Empty,
    /// A line that is not a test.
    BadLine {
        /// The line's number, from 1.
        number: usize,
        /// What is wrong with it.
        why: String,
    },
}

impl std::fmt::Display for EpdSuiteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EpdSuiteError::Unreadable { path, reason } => {
                write!(f, "cannot read '{}': {reason}", path.display())
            }
            EpdSuiteError::Empty => write!(f, "no test positions (empty, or only blank lines and comments)"),
            EpdSuiteError::BadLine { number, why } => write!(f, "line {number}: {why}"),
        }
    }
}

impl std::error::Error for EpdSuiteError {}

#[cfg(test)]
mod tests {
    use shakmaty::Position;

    use super::*;

    #[test]
    fn parses_bm_am_and_id() {
        let test = EpdTest::parse("6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; am Ra7; id \"WAC.x\";")
            .expect("parses")
            .expect("a test");
        assert_eq!(test.id, "WAC.x");
        assert_eq!(test.best.len(), 1);
        assert_eq!(test.avoid.len(), 1);
        assert!(test.is_solved_by(test.best[0]));
        assert!(!test.is_solved_by(test.avoid[0]));
        assert_eq!(EpdTest::parse("  # comment"), Ok(None));
        assert_eq!(EpdTest::parse(""), Ok(None));
    }

    #[test]
    fn am_only_solves_with_any_other_move() {
        let test = EpdTest::parse("4k3/8/8/3q4/8/8/3R4/4K3 w - - am Kf1;").expect("parses").expect("a test");
        let pos = test.pos.clone();
        let other = pos.legal_moves().into_iter().find(|m| !test.avoid.contains(m)).expect("a move");
        assert!(test.is_solved_by(other));
    }

    #[test]
    fn bad_lines_are_errors() {
        for line in [
            "only three fields",
            "8/8/8/8/8/8/8/8 w - - bm Ka1;",
            "6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Zz9;",
            "6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra2a9;",
            "6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Qh5;",
            "6k1/5ppp/8/8/8/8/8/R5K1 w - - id \"no solution\";",
        ] {
            assert!(EpdTest::parse(line).is_err(), "{line}");
        }
    }

    #[test]
    fn a_suite_needs_a_test_and_names_its_first_bad_line() {
        let suite =
            EpdTest::parse_suite("# mates\n\n6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#;\n").expect("a suite");
        assert_eq!(suite.len(), 1);
        assert_eq!(EpdTest::parse_suite(""), Err(EpdSuiteError::Empty));
        assert_eq!(EpdTest::parse_suite("# nothing\n\n  \n"), Err(EpdSuiteError::Empty));
        let bad = EpdTest::parse_suite("# junk follows\n\nnot a position\n8/8 w\n").expect_err("bad");
        assert!(matches!(bad, EpdSuiteError::BadLine { number: 3, .. }), "{bad:?}");
        assert!(bad.to_string().starts_with("line 3: "), "{bad}");
    }

    #[test]
    fn a_missing_file_is_unreadable() {
        let error = EpdTest::read_suite(Path::new("/no/such/suite.epd")).expect_err("no file");
        assert!(matches!(error, EpdSuiteError::Unreadable { .. }), "{error:?}");
        assert!(error.to_string().starts_with("cannot read '/no/such/suite.epd': "), "{error}");
    }
}
