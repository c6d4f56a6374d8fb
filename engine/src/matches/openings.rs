//! The openings a match starts its games from: a suite of positions (EPD) or of lines (PGN,
//! each game's moves from its start), taken in order or shuffled with a seed, or lines drawn
//! from an opening book, each move at random weighted by the book, to a given depth.
//!
//! An opening is found by its index alone, so that the two games of a pair, and a resumed
//! run, get the same one.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;

use crate::{Book, BookSettings, GameRecord, RandomType, read_games};

/// One opening: where the game starts, with the moves that lead there.
#[derive(Clone, Debug)]
pub struct Opening {
    /// Its name, when the suite gives one (EPD's `id`, PGN's `Opening` or `ECO` tag).
    pub name: Option<String>,
    /// The start position and the opening's moves.
    pub game: GameRecord,
}

/// In which order a suite is played.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Order {
    /// As in the file.
    Sequential,
    /// Shuffled with the seed.
    Random,
}

/// Where the openings come from.
#[derive(Clone, Debug)]
pub enum OpeningSource {
    /// Every game starts from the initial position.
    Start,
    /// A suite, in the order given by `order` (indices into `openings`), repeated when the
    /// match needs more openings than it has.
    Suite {
        /// The openings as read.
        openings: Vec<Opening>,
        /// The order they are played in.
        order: Vec<usize>,
    },
    /// Lines drawn from a book.
    Book {
        /// The book.
        book: Arc<Book>,
        /// How many plies deep (a line ends early where the book has no move).
        plies: usize,
        /// Seeds the draw of each line, together with the line's index.
        seed: u64,
    },
}

impl OpeningSource {
    /// A suite played in `order` (shuffled with `seed` when random).
    #[must_use]
    pub fn suite(openings: Vec<Opening>, order: Order, seed: u64) -> OpeningSource {
        let mut indices: Vec<usize> = (0..openings.len()).collect();
        if order == Order::Random {
            indices.shuffle(&mut StdRng::seed_from_u64(seed));
        }
        OpeningSource::Suite { openings, order: indices }
    }

    /// The opening of index `index`.
    #[must_use]
    pub fn opening(&self, index: usize) -> Opening {
        match self {
            OpeningSource::Start => Opening { name: None, game: GameRecord::new() },
            OpeningSource::Suite { openings, order } if !order.is_empty() => {
                let at = order[index % order.len()];
                let mut opening = openings[at].clone();
                if opening.name.is_none() {
                    opening.name = Some(format!("suite #{}", at + 1));
                }
                opening
            }
            OpeningSource::Suite { .. } => Opening { name: None, game: GameRecord::new() },
            OpeningSource::Book { book, plies, seed } => book_line(book, *plies, *seed, index),
        }
    }
}

/// A line drawn from `book`: each move at random, weighted by how often the book's games
/// played it (moves the book marks to avoid are left out).
fn book_line(book: &Book, plies: usize, seed: u64, index: usize) -> Opening {
    let settings = BookSettings { random_type: RandomType::Frequency, ..BookSettings::default() };
    let mut rng = StdRng::seed_from_u64(seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut game = GameRecord::new();
    for _ in 0..plies {
        let Some(choice) = book.choose(game.position(), &settings, &mut rng) else { break };
        if game.play(choice.mv).is_err() {
            break;
        }
    }
    Opening { name: Some(format!("book line {}", index + 1)), game }
}

/// Why a suite could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningsError {
    /// The file could not be read.
    Unreadable {
        /// The file.
        path: PathBuf,
        /// The system's reason.
        reason: String,
    },
    /// An EPD line or PGN game is not an opening.
    Bad {
        /// The file.
        path: PathBuf,
        /// The line (EPD) or game (PGN) number, from 1.
        number: usize,
        /// What is wrong.
        why: String,
    },
    /// The file holds no opening.
    Empty(PathBuf),
}

impl fmt::Display for OpeningsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningsError::Unreadable { path, reason } => write!(f, "{}: {reason}", path.display()),
            OpeningsError::Bad { path, number, why } => write!(f, "{}:{number}: {why}", path.display()),
            OpeningsError::Empty(path) => write!(f, "{}: no opening in the file", path.display()),
        }
    }
}

impl std::error::Error for OpeningsError {}

/// Reads a suite: PGN when the file's name ends in `.pgn` (each game's moves from its start,
/// cut to `plies` when given), EPD otherwise (one position a line).
///
/// # Errors
/// [`OpeningsError`] for a file that cannot be read, holds no opening or a bad one.
pub fn read_suite(path: &Path, plies: Option<usize>) -> Result<Vec<Opening>, OpeningsError> {
    let bytes = std::fs::read(path)
        .map_err(|e| OpeningsError::Unreadable { path: path.to_path_buf(), reason: e.to_string() })?;
    let pgn = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("pgn"));
    let bad = |number: usize, why: String| OpeningsError::Bad { path: path.to_path_buf(), number, why };
    let mut openings = Vec::new();
    if pgn {
        for (i, game) in read_games(&bytes).enumerate() {
            let mut game = game.map_err(|e| bad(i + 1, e.to_string()))?;
            if let Some(plies) = plies {
                game.truncate(plies.min(game.len()));
            }
            let name = game.tag("Opening").or_else(|| game.tag("ECO")).map(str::to_owned);
            openings.push(Opening { name, game: bare(&game) });
        }
    } else {
        let text = String::from_utf8_lossy(&bytes);
        for (i, line) in text.lines().enumerate() {
            if let Some(opening) = epd_opening(line).map_err(|why| bad(i + 1, why))? {
                openings.push(opening);
            }
        }
    }
    if openings.is_empty() {
        return Err(OpeningsError::Empty(path.to_path_buf()));
    }
    Ok(openings)
}

/// The game's start and main line, without its tags, comments or result.
fn bare(game: &GameRecord) -> GameRecord {
    let mut line = GameRecord::from_position(game.start().clone());
    for &m in game.moves() {
        if line.play(m).is_err() {
            break;
        }
    }
    line
}

/// The position of an EPD line (its four fields, and the `hmvc` and `fmvn` operations or
/// the FEN's last two fields), named by its `id` or `c0`; `None` for a blank or `#` line.
fn epd_opening(line: &str) -> Result<Option<Opening>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let fields: Vec<&str> = line.splitn(5, ' ').collect();
    let [board, turn, castling, ep, rest @ ..] = fields.as_slice() else {
        return Err(format!("too few fields in '{line}'"));
    };
    let rest = rest.first().copied().unwrap_or("");
    let numbers: Vec<&str> = rest.split_whitespace().take(2).collect();
    let (mut halfmoves, mut fullmoves) = ("0".to_owned(), "1".to_owned());
    if numbers.len() == 2 && numbers.iter().all(|n| n.parse::<u32>().is_ok()) {
        (halfmoves, fullmoves) = (numbers[0].to_owned(), numbers[1].to_owned());
    }
    let mut name = None;
    for op in rest.split(';') {
        let (op, arg) = op.trim().split_once(' ').unwrap_or((op.trim(), ""));
        let arg = arg.trim().trim_matches('"');
        match op {
            "hmvc" if arg.parse::<u32>().is_ok() => halfmoves = arg.to_owned(),
            "fmvn" if arg.parse::<u32>().is_ok() => fullmoves = arg.to_owned(),
            "id" => name = Some(arg.to_owned()),
            "c0" if name.is_none() => name = Some(arg.to_owned()),
            _ => {}
        }
    }
    let fen = format!("{board} {turn} {castling} {ep} {halfmoves} {fullmoves}");
    let game = GameRecord::from_fen(&fen).map_err(|e| format!("bad position '{fen}': {e}"))?;
    Ok(Some(Opening { name, game }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(path: &str) -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data").join(path)
    }

    #[test]
    fn epd_lines_give_positions_named_by_their_id() {
        let wac = read_suite(&data("epd/wac.epd"), None).expect("WAC");
        assert_eq!(wac.len(), 300);
        assert_eq!(wac[0].name.as_deref(), Some("WAC.001"));
        assert!(wac[0].game.start_fen().is_some_and(|f| f.starts_with("2rr3k/pp3pp1/")));
        let numbered = epd_opening("8/8/8/8/8/8/8/K1k5 w - - 12 40").expect("valid").expect("a line");
        assert!(
            numbered.game.start_fen().is_some_and(|f| f.ends_with(" 12 40")),
            "{:?}",
            numbered.game.start_fen()
        );
        assert!(epd_opening("# a comment").expect("skipped").is_none());
        assert!(epd_opening("not a position at all").is_err());
    }

    #[test]
    fn pgn_lines_are_their_moves_cut_to_the_plies_asked() {
        let lines = read_suite(&data("openings/2moves_v2.pgn"), Some(2)).expect("fishtest's openings");
        assert_eq!(lines.len(), 12092);
        assert_eq!(lines[0].game.san_moves(), ["f4", "e6"]);
        assert!(lines[0].game.tag("Result").is_none_or(|r| r == "*"));
        let whole = read_suite(&data("openings/2moves_v2.pgn"), None).expect("whole lines");
        assert_eq!(whole[2].game.san_moves(), ["e4", "d5", "Bb5+", "c6"]);
    }

    #[test]
    fn a_seed_shuffles_the_suite_the_same_way_every_time() {
        let lines = read_suite(&data("openings/2moves_v2.pgn"), None).expect("openings");
        let first = |source: &OpeningSource| -> Vec<Vec<String>> {
            (0..5).map(|i| source.opening(i).game.san_moves().to_vec()).collect()
        };
        let in_order = OpeningSource::suite(lines.clone(), Order::Sequential, 7);
        assert_eq!(first(&in_order)[1], ["f4", "h6", "f5", "a6"]);
        let a = OpeningSource::suite(lines.clone(), Order::Random, 7);
        let b = OpeningSource::suite(lines.clone(), Order::Random, 7);
        let c = OpeningSource::suite(lines, Order::Random, 8);
        assert_eq!(first(&a), first(&b));
        assert_ne!(first(&a), first(&c));
        assert_ne!(first(&a), first(&in_order));
    }

    #[test]
    fn book_lines_follow_the_book_to_their_depth() {
        let book = Arc::new(Book::open(&data("books/gm2600.bin")).expect("Scid's book"));
        let source = OpeningSource::Book { book: Arc::clone(&book), plies: 6, seed: 3 };
        let lines: Vec<Opening> = (0..8).map(|i| source.opening(i)).collect();
        for line in &lines {
            assert!(line.game.len() <= 6 && line.game.len() >= 2, "{:?}", line.game.san_moves());
            // Every move is a book move of its position.
            for ply in 0..line.game.len() {
                let pos = line.game.position_at(ply);
                let m = line.game.moves()[ply];
                assert!(book.legal_moves(pos).iter().any(|(b, _)| *b == m));
            }
        }
        assert_eq!(source.opening(5).game.moves(), lines[5].game.moves(), "the same index, the same line");
        assert!(lines.iter().any(|l| l.game.moves() != lines[0].game.moves()), "lines differ");
    }
}
