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
use crate::settings::Settings;

/// Kibitz's default book, built from public master games (see `books/README.md`).
const DEFAULT_BOOK: &[u8] = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../books/kibitz.kbook"));

/// The book, the learned positions, the PostBook, and the current game's record of Kibitz's
/// searches.
pub struct Learning {
    /// The player's copy of the book (or the default one), loaded whether or not Kibitz plays
    /// from it, so that the switch takes effect at once.
    book: Option<Arc<Book>>,
    /// Whether Kibitz plays from its book (and learns into it).
    own_book: bool,
    /// Positions where Kibitz's score dropped sharply; used and learned only with position
    /// learning on.
    positions: Arc<PositionTable>,
    /// Kibitz's first moves after the book and how they fared; used and learned only with
    /// book learning and the PostBook on.
    postbook: Arc<PostBook>,
    /// Where the book, the positions and the PostBook are saved.
    files: LearningFiles,
    flags: LearnFlags,
    /// Whether the PostBook is on (with book learning).
    use_postbook: bool,
    /// Per ply: Kibitz's score (centipawns, its side) and depth where it searched.
    scores: Vec<Option<(i32, u8)>>,
    /// Whether Kibitz played a move in this game (opened games teach nothing).
    engine_played: bool,
    learned: bool,
}

/// How much Kibitz has learned, for the settings panel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LearnedSummary {
    /// Book moves with learned results or flagged "never play again".
    pub book_moves: usize,
    /// Learned positions.
    pub positions: usize,
    /// Moves in the PostBook.
    pub postbook_moves: usize,
}

impl Learning {
    /// Loads the player's book (or the default one the first time), the learned positions
    /// and the PostBook; the settings say which of them are used. A damaged file is kept
    /// beside as `.bad`, with a notice; the default book, or nothing learned, is used instead.
    #[must_use]
    pub fn load(paths: &Paths, settings: &Settings) -> (Learning, Vec<String>) {
        let files = LearningFiles {
            book: paths.book_file(),
            positions: paths.positions_file(),
            postbook: paths.postbook_file(),
        };
        let mut notices = Vec::new();
        let book = if files.book.exists() {
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
        if files.positions.exists() {
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
        if files.postbook.exists() {
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
        let mut learning = Learning {
            book: book.map(Arc::new),
            own_book: true,
            positions: Arc::new(positions),
            postbook: Arc::new(postbook),
            files,
            flags: LearnFlags::default(),
            use_postbook: true,
            scores: Vec::new(),
            engine_played: false,
            learned: false,
        };
        learning.configure(settings);
        (learning, notices)
    }

    /// Takes the player's switches from the settings: whether Kibitz plays from its book,
    /// which kinds of learning are on and whether the PostBook is used. Send
    /// [`Learning::command`] and the book to the engine afterwards.
    pub fn configure(&mut self, settings: &Settings) {
        self.own_book = settings.own_book;
        self.flags = LearnFlags::from_bits(settings.learn);
        self.use_postbook = settings.postbook;
    }

    /// Whether the PostBook is used and learned: book learning and the PostBook both on.
    fn postbook_on(&self) -> bool {
        self.flags.book && self.use_postbook
    }

    /// How much has been learned so far.
    #[must_use]
    pub fn summary(&self) -> LearnedSummary {
        let book_moves = self
            .book
            .as_deref()
            .map_or(0, |book| book.entries().iter().filter(|e| e.learned.games > 0 || e.never_play).count());
        LearnedSummary { book_moves, positions: self.positions.len(), postbook_moves: self.postbook.len() }
    }

    /// Forgets everything learned (Crafty's `import ... clear`, and deleting Terra's
    /// PostBook): the book's learned statistics, scores and "never play again" flags, the
    /// learned positions and the PostBook. The book's own statistics and the player's values
    /// stay. Returns the files to write (atomically, through the app's writer, after any
    /// writes still pending); then send the book and [`Learning::command`] to the engine.
    pub fn clear(&mut self) -> Vec<(PathBuf, Vec<u8>)> {
        let mut files = Vec::new();
        let learned = self.summary().book_moves > 0;
        if let Some(book) = self.book.as_mut()
            && (learned || self.files.book.exists())
        {
            Arc::make_mut(book).clear_learning();
            files.push((self.files.book.clone(), book.to_bytes()));
        }
        if !self.positions.is_empty() || self.files.positions.exists() {
            Arc::make_mut(&mut self.positions).clear();
            files.push((self.files.positions.clone(), self.positions.to_bytes()));
        }
        if !self.postbook.is_empty() || self.files.postbook.exists() {
            Arc::make_mut(&mut self.postbook).clear();
            files.push((self.files.postbook.clone(), self.postbook.to_text().into_bytes()));
        }
        files
    }

    /// The book to play from: `None` when Kibitz is set not to play from its book.
    #[must_use]
    pub fn book(&self) -> Option<Arc<Book>> {
        if self.own_book { self.book.clone() } else { None }
    }

    /// The command that gives the engine what was learned: the learned positions (when
    /// position learning is on) and the PostBook (when book learning and the PostBook are on),
    /// if not empty.
    #[must_use]
    pub fn command(&self) -> Command {
        let positions =
            (self.flags.position && !self.positions.is_empty()).then(|| Arc::clone(&self.positions));
        let postbook = (self.postbook_on() && !self.postbook.is_empty()).then(|| Arc::clone(&self.postbook));
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

    /// Learns from a finished game once: the book (book and result learning, when Kibitz
    /// plays from it), the PostBook (book learning with the PostBook on) and the learned
    /// positions (position learning), as the switches say; result learning judges the book's
    /// choices with `settings`. Returns what changed, with the files to write, when anything
    /// was learned.
    pub fn after_game(
        &mut self,
        game: &GameRecord,
        engine: Color,
        settings: &BookSettings,
    ) -> Option<Learned> {
        if self.learned || !self.engine_played || game.result() == "*" {
            return None;
        }
        self.learned = true;
        let played = PlayedGame { game, engine, scores: &self.scores };
        let mut learned = Learned { files: Vec::new() };
        if self.postbook_on() {
            let empty = Book::new();
            let active = self.book();
            let book = active.as_deref().unwrap_or(&empty);
            if Arc::make_mut(&mut self.postbook).learn(book, &played) > 0 {
                learned.files.push((self.files.postbook.clone(), self.postbook.to_text().into_bytes()));
            }
        }
        if self.flags.position && Arc::make_mut(&mut self.positions).learn(&played) > 0 {
            learned.files.push((self.files.positions.clone(), self.positions.to_bytes()));
        }
        if let Some(book) = self.book.as_mut().filter(|_| self.own_book) {
            let report = Arc::make_mut(book).learn(&played, self.flags, settings);
            if report.updated > 0 || report.never_play.is_some() {
                learned.files.push((self.files.book.clone(), book.to_bytes()));
            }
        }
        (!learned.files.is_empty()).then_some(learned)
    }
}

/// What a finished game taught Kibitz.
pub struct Learned {
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

    fn switches(own_book: bool, learn: u8) -> Settings {
        Settings { own_book, learn, ..Settings::default() }
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
        let (mut learning, notices) = Learning::load(&paths, &switches(false, 7));
        assert!(notices.is_empty(), "{notices:?}");
        assert_eq!(learned_parts(&learning), (None, None), "nothing learned yet");
        // The score falls by 170 centipawns at Kibitz's third move.
        let game = lost_game(&mut learning, &["e4", "e5", "Nf3", "Nc6", "Bc4", "Nd4"], &[30, 20, -150]);
        let learned = learning
            .after_game(&game, Color::White, &BookSettings::default())
            .expect("something was learned");
        let book_written = learned.files.iter().any(|(path, _)| *path == paths.book_file());
        assert!(!book_written, "no book in use");
        assert!(
            learning.after_game(&game, Color::White, &BookSettings::default()).is_none(),
            "a game is learned once"
        );
        for (path, bytes) in &learned.files {
            write_atomic(path, bytes).expect("writable");
        }
        assert!(paths.positions_file().exists() && paths.postbook_file().exists());

        let (learning, notices) = Learning::load(&paths, &switches(false, 7));
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
        let (mut learning, _) = Learning::load(&paths, &switches(false, 5));
        assert!(learned_parts(&learning).0.is_none());
        let game = lost_game(&mut learning, &["d4", "d5", "c4", "e6"], &[30, -200]);
        let learned =
            learning.after_game(&game, Color::White, &BookSettings::default()).expect("the PostBook learned");
        let written: Vec<&PathBuf> = learned.files.iter().map(|(path, _)| path).collect();
        assert_eq!(written, [&paths.postbook_file()]);
    }

    #[test]
    fn damaged_learning_files_are_kept_aside_with_a_notice() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let paths = Paths::under(dir.path().to_path_buf());
        write_atomic(&paths.positions_file(), b"not learned positions").expect("writable");
        write_atomic(&paths.postbook_file(), b"not a PostBook\n").expect("writable");
        let (learning, notices) = Learning::load(&paths, &switches(false, 7));
        assert_eq!(notices.len(), 2, "{notices:?}");
        assert_eq!(learned_parts(&learning), (None, None));
        assert!(!paths.positions_file().exists() && !paths.postbook_file().exists());
        assert!(dir.path().join("data/learned-positions.kpos.bad").exists());
        assert!(dir.path().join("data/postbook.txt.bad").exists());
    }

    #[test]
    fn clearing_forgets_what_was_learned_and_the_postbook_switch_is_kept() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let paths = Paths::under(dir.path().to_path_buf());
        let (mut learning, _) = Learning::load(&paths, &switches(true, 7));
        assert_eq!(learning.summary(), LearnedSummary::default());
        let game = lost_game(&mut learning, &["e4", "e5", "Nf3", "Nc6", "Bc4", "Nd4"], &[30, 20, -150]);
        let learned = learning
            .after_game(&game, Color::White, &BookSettings::default())
            .expect("something was learned");
        for (path, bytes) in &learned.files {
            write_atomic(path, bytes).expect("writable");
        }
        let before = learning.summary();
        assert!(before.book_moves > 0 && before.positions == 1, "{before:?}");

        for (path, bytes) in learning.clear() {
            write_atomic(&path, &bytes).expect("writable");
        }
        assert_eq!(learning.summary(), LearnedSummary::default());
        assert_eq!(learned_parts(&learning), (None, None));
        let (again, _) = Learning::load(&paths, &switches(true, 7));
        assert_eq!(again.summary(), LearnedSummary::default(), "the files were cleared too");

        // With the PostBook off, it is neither used nor learned; the other kinds still are.
        let settings = Settings { postbook: false, ..switches(false, 7) };
        let (mut learning, _) = Learning::load(&paths, &settings);
        let game = lost_game(&mut learning, &["d4", "d5", "c4", "e6"], &[30, -200]);
        let learned = learning.after_game(&game, Color::White, &BookSettings::default()).expect("positions");
        let written: Vec<&PathBuf> = learned.files.iter().map(|(path, _)| path).collect();
        assert_eq!(written, [&paths.positions_file()]);
        assert!(learned_parts(&learning).1.is_none());
        assert_eq!(learning.summary().postbook_moves, 0);
    }
}
