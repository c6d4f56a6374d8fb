//! The opening book Kibitz plays from, and what it learns from the games it plays: the
//! player's own copy lives in the data folder and is updated after each finished game.

use std::path::Path;
use std::sync::Arc;

use kibitz_engine::{Book, BookSettings, GameRecord, LearnFlags, PlayedGame};
use shakmaty::Color;

/// Kibitz's default book, built from public master games (see `books/README.md`).
const DEFAULT_BOOK: &[u8] = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../books/kibitz.kbook"));

/// The book and the current game's record of Kibitz's searches.
pub struct Learning {
    book: Option<Arc<Book>>,
    flags: LearnFlags,
    /// Per ply: Kibitz's score (centipawns, its side) and depth where it searched.
    scores: Vec<Option<(i32, u8)>>,
    /// Whether Kibitz played a move in this game (opened games teach nothing).
    engine_played: bool,
    learned: bool,
}

impl Learning {
    /// Loads the player's book, or the default one the first time. A damaged book is kept
    /// beside as `.bad`, with a notice, and the default is used.
    #[must_use]
    pub fn load(path: &Path, own_book: bool, learn_bits: u8) -> (Learning, Option<String>) {
        let mut notice = None;
        let book = if !own_book {
            None
        } else if path.exists() {
            match Book::load(path) {
                Ok(book) => Some(book),
                Err(e) => {
                    let bad = path.with_extension("kbook.bad");
                    let _ = std::fs::rename(path, &bad);
                    notice = Some(format!(
                        "Your opening book could not be read ({e}); it was kept as {} and the default book is used.",
                        bad.display()
                    ));
                    Book::from_bytes(DEFAULT_BOOK).ok()
                }
            }
        } else {
            Book::from_bytes(DEFAULT_BOOK).ok()
        };
        let learning = Learning {
            book: book.map(Arc::new),
            flags: LearnFlags::from_bits(learn_bits),
            scores: Vec::new(),
            engine_played: false,
            learned: false,
        };
        (learning, notice)
    }

    /// The book to play from.
    #[must_use]
    pub fn book(&self) -> Option<Arc<Book>> {
        self.book.clone()
    }

    /// A new game starts.
    pub fn new_game(&mut self) {
        self.scores.clear();
        self.engine_played = false;
        self.learned = false;
    }

    /// Kibitz played the move at `ply`, after a search with this score and depth (or from
    /// its book, `None`).
    pub fn engine_moved(&mut self, ply: usize, search: Option<(i32, u8)>) {
        if self.scores.len() <= ply {
            self.scores.resize(ply + 1, None);
        }
        self.scores[ply] = search;
        self.engine_played = true;
    }

    /// Moves were taken back: the game now has `plies` moves.
    pub fn take_back(&mut self, plies: usize) {
        self.scores.truncate(plies);
        self.learned = false;
    }

    /// Learns from a finished game once. Returns the updated book (to play from and to save)
    /// when anything was learned.
    pub fn after_game(&mut self, game: &GameRecord, engine: Color) -> Option<Arc<Book>> {
        if self.learned || !self.engine_played || game.result() == "*" {
            return None;
        }
        self.learned = true;
        let book = self.book.as_mut()?;
        let played = PlayedGame { game, engine, scores: &self.scores };
        let report = Arc::make_mut(book).learn(&played, self.flags, &BookSettings::default());
        (report.updated > 0 || report.never_play.is_some()).then(|| Arc::clone(book))
    }
}
