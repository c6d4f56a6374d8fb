//! The opening book Kibitz plays from, and what it learns from the games it plays: the
//! player's own copy of the book, the learned positions (Crafty) and the PostBook (Terra) live
//! in the data folder and are updated after each finished game.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use kibitz_engine::{
    Book, BookSettings, Command, GameRecord, LearnFlags, PlayedGame, PositionTable, PostBook,
};
use shakmaty::Color;

use crate::paths::Paths;

/// Kibitz's default book, built from public master games (see `books/README.md`).
const DEFAULT_BOOK: &[u8] = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../books/kibitz.kbook"));

/// The book, the learned positions, the PostBook, and the current game's record of Kibitz's
/// searches.
pub struct Learning {
    book: Option<Arc<Book>>,
    /// Positions where Kibitz's score dropped sharply; empty unless position learning is on.
    positions: Arc<PositionTable>,
    /// Kibitz's first moves after the book and how they fared; empty unless book learning is on.
    postbook: Arc<PostBook>,
    /// Where the book, the positions and the PostBook are saved.
    files: LearningFiles,
    flags: LearnFlags,
    /// Per ply: Kibitz's score (centipawns, its side) and depth where it searched.
    scores: Vec<Option<(i32, u8)>>,
    /// Whether Kibitz played a move in this game (opened games teach nothing).
    engine_played: bool,
    learned: bool,
}

impl Learning {
    /// Loads the player's book (or the default one the first time), and the learned positions
    /// and PostBook when position and book learning are on. A damaged file is kept beside as
    /// `.bad`, with a notice; the default book, or nothing learned, is used instead.
    #[must_use]
    pub fn load(paths: &Paths, own_book: bool, learn_bits: u8) -> (Learning, Vec<String>) {
        let flags = LearnFlags::from_bits(learn_bits);
        let files = LearningFiles {
            book: paths.book_file(),
            positions: paths.positions_file(),
            postbook: paths.postbook_file(),
        };
        let mut notices = Vec::new();
        let book = if !own_book {
            None
        } else if files.book.exists() {
            match Book::load(&files.book) {
                Ok(book) => Some(book),
                Err(e) => {
                    let bad = keep_bad(&files.book);
                    notices.push(format!(
                        "Your opening book could not be read ({e}); it was kept as {} and the default book is used.",
                        bad.display()
                    ));
                    Book::from_bytes(DEFAULT_BOOK).ok()
                }
            }
        } else {
            Book::from_bytes(DEFAULT_BOOK).ok()
        };
        let mut positions = PositionTable::default();
        if flags.position && files.positions.exists() {
            match PositionTable::load(&files.positions, positions.capacity()) {
                Ok(table) => positions = table,
                Err(e) => {
                    let bad = keep_bad(&files.positions);
                    notices.push(format!(
                        "Kibitz's learned positions could not be read ({e}); they were kept as {} and learning starts afresh.",
                        bad.display()
                    ));
                }
            }
        }
        let mut postbook = PostBook::new();
        if flags.book && files.postbook.exists() {
            match PostBook::load(&files.postbook) {
                Ok(loaded) => postbook = loaded,
                Err(e) => {
                    let bad = keep_bad(&files.postbook);
                    notices.push(format!(
                        "Kibitz's PostBook could not be read ({e}); it was kept as {} and learning starts afresh.",
                        bad.display()
                    ));
                }
            }
        }
        let learning = Learning {
            book: book.map(Arc::new),
            positions: Arc::new(positions),
            postbook: Arc::new(postbook),
            files,
            flags,
            scores: Vec::new(),
            engine_played: false,
            learned: false,
        };
        (learning, notices)
    }

    /// The book to play from.
    #[must_use]
    pub fn book(&self) -> Option<Arc<Book>> {
        self.book.clone()
    }

    /// The command that gives the engine what was learned: the learned positions (when
    /// position learning is on) and the PostBook (when book learning is on), if not empty.
    #[must_use]
    pub fn command(&self) -> Command {
        let positions =
            (self.flags.position && !self.positions.is_empty()).then(|| Arc::clone(&self.positions));
        let postbook = (self.flags.book && !self.postbook.is_empty()).then(|| Arc::clone(&self.postbook));
        Command::SetLearning { positions, postbook }
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

    /// Learns from a finished game once: the book, the PostBook (book learning) and the
    /// learned positions (position learning), as the learning bits say. Returns what changed,
    /// with the files to write, when anything was learned.
    pub fn after_game(&mut self, game: &GameRecord, engine: Color) -> Option<Learned> {
        if self.learned || !self.engine_played || game.result() == "*" {
            return None;
        }
        self.learned = true;
        let played = PlayedGame { game, engine, scores: &self.scores };
        let mut learned = Learned { book: None, files: Vec::new() };
        if self.flags.book {
            let empty = Book::new();
            let book = self.book.as_deref().unwrap_or(&empty);
            if Arc::make_mut(&mut self.postbook).learn(book, &played) > 0 {
                learned.files.push((self.files.postbook.clone(), self.postbook.to_text().into_bytes()));
            }
        }
        if self.flags.position && Arc::make_mut(&mut self.positions).learn(&played) > 0 {
            learned.files.push((self.files.positions.clone(), self.positions.to_bytes()));
        }
        if let Some(book) = self.book.as_mut() {
            let report = Arc::make_mut(book).learn(&played, self.flags, &BookSettings::default());
            if report.updated > 0 || report.never_play.is_some() {
                learned.files.push((self.files.book.clone(), book.to_bytes()));
                learned.book = Some(Arc::clone(book));
            }
        }
        (!learned.files.is_empty()).then_some(learned)
    }
}

/// What a finished game taught Kibitz.
pub struct Learned {
    /// The updated book, to play from, when it changed.
    pub book: Option<Arc<Book>>,
    /// The files to write (atomically, through the app's writer): path and contents.
    pub files: Vec<(PathBuf, Vec<u8>)>,
}

/// Where the learned data is saved.
struct LearningFiles {
    book: PathBuf,
    positions: PathBuf,
    postbook: PathBuf,
}

/// Moves a damaged file aside as `NAME.bad` and returns that path.
fn keep_bad(path: &Path) -> PathBuf {
    let mut name = path.file_name().map(std::ffi::OsStr::to_os_string).unwrap_or_default();
    name.push(".bad");
    let bad = path.with_file_name(name);
    let _ = std::fs::rename(path, &bad);
    bad
}

#[cfg(test)]
mod tests {
    use kibitz_engine::{Ending, Termination, write_atomic};

    use super::*;

    /// Plays `moves` with Kibitz as White, searching with these scores, then White resigns.
    fn lost_game(learning: &mut Learning, moves: &[&str], scores: &[i32]) -> GameRecord {
        let mut game = GameRecord::new();
        learning.new_game();
        for (ply, san) in moves.iter().enumerate() {
            game.play_text(san).expect("legal test move");
            if ply % 2 == 0 {
                learning.engine_moved(ply, Some((scores[ply / 2], 8)));
            }
        }
        game.finish(Ending::win(Color::Black, Termination::Resignation));
        game
    }

    fn learned_parts(learning: &Learning) -> (Option<Arc<PositionTable>>, Option<Arc<PostBook>>) {
        match learning.command() {
            Command::SetLearning { positions, postbook } => (positions, postbook),
            other => panic!("expected SetLearning, got {other:?}"),
        }
    }

    #[test]
    fn a_finished_game_teaches_positions_and_the_postbook() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let paths = Paths::under(dir.path().to_path_buf());
        let (mut learning, notices) = Learning::load(&paths, false, 7);
        assert!(notices.is_empty(), "{notices:?}");
        assert_eq!(learned_parts(&learning), (None, None), "nothing learned yet");
        // The score falls by 170 centipawns at Kibitz's third move.
        let game = lost_game(&mut learning, &["e4", "e5", "Nf3", "Nc6", "Bc4", "Nd4"], &[30, 20, -150]);
        let learned = learning.after_game(&game, Color::White).expect("something was learned");
        assert!(learned.book.is_none(), "no book in use");
        assert!(learning.after_game(&game, Color::White).is_none(), "a game is learned once");
        for (path, bytes) in &learned.files {
            write_atomic(path, bytes).expect("writable");
        }
        assert!(paths.positions_file().exists() && paths.postbook_file().exists());

        let (learning, notices) = Learning::load(&paths, false, 7);
        assert!(notices.is_empty(), "{notices:?}");
        let (positions, postbook) = learned_parts(&learning);
        let positions = positions.expect("learned positions are used");
        let third = game.position_at(4);
        assert_eq!(
            positions.entries().map(|p| (p.key, p.score)).collect::<Vec<_>>(),
            [(kibitz_engine::book_key(third), -150)]
        );
        let postbook = postbook.expect("the PostBook is used");
        assert_eq!(postbook.len(), 3, "Kibitz's three moves out of (no) book");
        let e4 = game.moves()[0];
        let stats =
            postbook.get(kibitz_engine::book_key(game.position_at(0)), kibitz_engine::encode_move(e4));
        assert_eq!(stats.map(|s| (s.stats.games, s.stats.losses)), Some((1, 1)));

        // With position learning off (bits 1 + 4), the positions are neither used nor learned.
        let (mut learning, _) = Learning::load(&paths, false, 5);
        assert!(learned_parts(&learning).0.is_none());
        let game = lost_game(&mut learning, &["d4", "d5", "c4", "e6"], &[30, -200]);
        let learned = learning.after_game(&game, Color::White).expect("the PostBook learned");
        let written: Vec<&PathBuf> = learned.files.iter().map(|(path, _)| path).collect();
        assert_eq!(written, [&paths.postbook_file()]);
    }

    #[test]
    fn damaged_learning_files_are_kept_aside_with_a_notice() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let paths = Paths::under(dir.path().to_path_buf());
        write_atomic(&paths.positions_file(), b"not learned positions").expect("writable");
        write_atomic(&paths.postbook_file(), b"not a PostBook\n").expect("writable");
        let (learning, notices) = Learning::load(&paths, false, 7);
        assert_eq!(notices.len(), 2, "{notices:?}");
        assert_eq!(learned_parts(&learning), (None, None));
        assert!(!paths.positions_file().exists() && !paths.postbook_file().exists());
        assert!(dir.path().join("data/learned-positions.kpos.bad").exists());
        assert!(dir.path().join("data/postbook.txt.bad").exists());
    }
}
