//! Test suites in EPD (Crafty's `test`): search each position for a fixed time and check
//! the move against the `bm` (best move) and `am` (avoid move) operations.
//!
//! ```
//! use std::time::Duration;
//! use kibitz_engine::{EpdTest, run_suite};
//! let suite = "6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id \"mate\";";
//! let tests: Vec<EpdTest> = suite.lines().filter_map(|l| EpdTest::parse(l).transpose()).collect::<Result<_, _>>().unwrap();
//! let report = run_suite(&tests, Duration::from_millis(200), 2, |_| {});
//! assert_eq!((report.solved, report.total), (1, 1));
//! ```

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use shakmaty::{CastlingMode, Chess, Move, PositionError, fen::Fen, san::San};

use crate::search::Engine;

/// Iterations shallower than this never count towards an early exit: at low depth the
/// right move is often found for the wrong reason.
pub const EARLY_EXIT_MIN_DEPTH: u32 = 6;
use crate::{SearchInfo, SearchLimits};

/// One position of a test suite.
#[derive(Clone, Debug, PartialEq)]
pub struct EpdTest {
    /// The `id` operation, or the FEN when there is none.
    pub id: String,
    /// The position.
    pub pos: Chess,
    /// Moves that solve it (`bm`); any of them will do.
    pub best: Vec<Move>,
    /// Moves that fail it (`am`).
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
        let text = format!("{board} {turn} {castling} {ep} 0 1");
        let fen: Fen = text.parse().map_err(|e| format!("bad position '{text}': {e}"))?;
        let pos: Chess = fen
            .into_position(CastlingMode::Standard)
            .or_else(PositionError::ignore_impossible_check)
            .map_err(|e| format!("impossible position '{text}': {e}"))?;
        let mut test = EpdTest { id: text.clone(), pos, best: Vec::new(), avoid: Vec::new() };
        for op in ops.first().copied().unwrap_or_default().split(';') {
            let op = op.trim();
            let (name, args) = op.split_once(' ').unwrap_or((op, ""));
            match name {
                "bm" | "am" => {
                    for word in args.split_whitespace() {
                        let san: San =
                            word.parse().map_err(|_| format!("bad move '{word}' in {}", test.id))?;
                        let m = san
                            .to_move(&test.pos)
                            .map_err(|_| format!("illegal move '{word}' in {}", test.id))?;
                        if name == "bm" { test.best.push(m) } else { test.avoid.push(m) }
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

    /// Whether playing `m` solves the position.
    #[must_use]
    pub fn is_solved_by(&self, m: Move) -> bool {
        (self.best.is_empty() || self.best.contains(&m)) && !self.avoid.contains(&m)
    }
}

/// What happened to one position.
#[derive(Clone, Debug, PartialEq)]
pub struct EpdResult {
    /// The position's `id`.
    pub id: String,
    /// The move the engine chose.
    pub chosen: Option<Move>,
    /// Whether it solves the position.
    pub solved: bool,
    /// The last completed iteration.
    pub info: Option<SearchInfo>,
}

/// The tally of a suite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdReport {
    /// Positions solved.
    pub solved: usize,
    /// Positions searched.
    pub total: usize,
}

/// Searches every test for `time`, stopping early once a solving move has been the best
/// for `early_exit` completed iterations in a row (0: never) of depth
/// [`EARLY_EXIT_MIN_DEPTH`] or more, and reports each result.
pub fn run_suite(
    tests: &[EpdTest],
    time: Duration,
    early_exit: u32,
    mut on_result: impl FnMut(&EpdResult),
) -> EpdReport {
    let mut engine = Engine::default();
    let mut solved = 0;
    for test in tests {
        engine.new_game();
        let stop = AtomicBool::new(false);
        let mut held = 0;
        let outcome = engine.search(&test.pos, &[], &SearchLimits::movetime(time), &stop, |info| {
            if info.multipv != 1 || info.bound.is_some() {
                return;
            }
            if info.depth < EARLY_EXIT_MIN_DEPTH {
                return;
            }
            if info.pv.first().is_some_and(|&m| test.is_solved_by(m)) {
                held += 1;
                if early_exit > 0 && held >= early_exit {
                    stop.store(true, Ordering::Relaxed);
                }
            } else {
                held = 0;
            }
        });
        let ok = outcome.best.is_some_and(|m| test.is_solved_by(m));
        solved += usize::from(ok);
        on_result(&EpdResult { id: test.id.clone(), chosen: outcome.best, solved: ok, info: outcome.info });
    }
    EpdReport { solved, total: tests.len() }
}

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
}
