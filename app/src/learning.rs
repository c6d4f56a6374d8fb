//! The app's side of Kibitz's learning ([`kibitz_engine::Learning`]): the files are in the data
//! folder, the switches in the settings, the default book is built into the app, and the
//! learning after a game runs in the background and wakes the app when it is done.

use std::convert::Infallible;
use std::path::PathBuf;
use std::sync::Arc;

use kibitz_engine::{Book, Command, GameRecord, JobOutcome, LearnFlags, Learned, LearningSettings};
use shakmaty::Color;

pub use kibitz_engine::LearnedSummary;

use crate::paths::Paths;
use crate::settings::Settings;

/// Kibitz's default book, built from public master games (see `books/README.md`).
const DEFAULT_BOOK: &[u8] = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../books/kibitz.kbook"));

/// The book, the learned positions, the PostBook, and the current game's record of Kibitz's
/// searches (see [`kibitz_engine::Learning`]).
pub struct Learning {
    inner: kibitz_engine::Learning,
}

/// The learning switches of the settings.
fn switches(settings: &Settings) -> LearningSettings {
    LearningSettings {
        own_book: settings.own_book,
        flags: LearnFlags::from_bits(settings.learn),
        postbook: settings.postbook,
        book: settings.book,
    }
}

impl Learning {
    /// Loads the player's book (or the default one the first time), the learned positions
    /// and the PostBook; the settings say which of them are used. A damaged file is kept
    /// beside as `.bad`, with a notice; the default book, or nothing learned, is used instead.
    #[must_use]
    pub fn load(paths: &Paths, settings: &Settings) -> (Learning, Vec<String>) {
        let mut files = paths.learning_files();
        let mut notices = Vec::new();
        // Another book than its own is read once and never moved aside: if it is damaged,
        // Kibitz plays from its own, and the file stays as it is.
        let chosen = settings.play_book.as_ref().and_then(|path| match kibitz_engine::Book::load(path) {
            Ok(book) => Some((path.clone(), book)),
            Err(_) => {
                notices.push(format!(
                    "Kibitz could not read the book it played from, {}; it plays from its own book.",
                    path.display()
                ));
                None
            }
        });
        let (inner, set_aside) = match chosen {
            Some((path, book)) => {
                files.book = path;
                kibitz_engine::Learning::load_with_book(files, switches(settings), book)
            }
            None => kibitz_engine::Learning::load(files, switches(settings), DEFAULT_BOOK),
        };
        notices.extend(set_aside.iter().map(ToString::to_string));
        (Learning { inner }, notices)
    }

    /// Takes the player's switches from the settings: whether Kibitz plays from its book,
    /// which kinds of learning are on, whether the PostBook is used, and how the book
    /// chooses. Send [`Learning::command`] and the book to the engine afterwards.
    pub fn configure(&mut self, settings: &Settings) {
        self.inner.configure(switches(settings));
    }

    /// How much has been learned so far.
    #[must_use]
    pub fn summary(&self) -> LearnedSummary {
        self.inner.summary()
    }

    /// Forgets everything learned; returns the files to write (atomically, through the app's
    /// writer, after any writes still pending); then send the book and
    /// [`Learning::command`] to the engine.
    pub fn clear(&mut self) -> Vec<(PathBuf, Vec<u8>)> {
        self.inner.clear()
    }

    /// The book to play from: `None` when Kibitz is set not to play from its book.
    #[must_use]
    pub fn book(&self) -> Option<Arc<Book>> {
        self.inner.book()
    }

    /// The player's book whether or not Kibitz plays from it, for the book editor.
    #[must_use]
    pub fn own_book(&self) -> Option<Arc<Book>> {
        self.inner.own_book()
    }

    /// Plays and learns from an edited book from now on, without copying it; `false` while
    /// learning from a game runs. The editor writes the file itself.
    pub fn adopt_book(&mut self, book: Arc<Book>) -> bool {
        self.inner.adopt_book(book)
    }

    /// Plays and learns from the Kibitz book `book`, read from `path`, from now on; `false`
    /// while learning from a game runs.
    pub fn switch_book(&mut self, path: PathBuf, book: Arc<Book>) -> bool {
        self.inner.switch_book(path, book)
    }

    /// The games Kibitz learned from, newest last.
    #[must_use]
    pub fn taught_games(&self) -> Arc<kibitz_engine::TaughtGames> {
        self.inner.taught_games()
    }

    /// The file of the book Kibitz plays and learns from.
    #[must_use]
    pub fn book_file(&self) -> &std::path::Path {
        self.inner.book_file()
    }

    /// The command that gives the engine what was learned and is switched on.
    #[must_use]
    pub fn command(&self) -> Command {
        self.inner.command()
    }

    /// A new game starts.
    pub fn new_game(&mut self) {
        self.inner.new_game();
    }

    /// Kibitz played the move at `ply`, after a search with this score and depth (or from
    /// its book, `None`).
    pub fn engine_moved(&mut self, ply: usize, search: Option<(i32, u8)>) {
        self.inner.engine_moved(ply, search);
    }

    /// Moves were taken back: the game now has `plies` moves.
    pub fn take_back(&mut self, plies: usize) {
        self.inner.take_back(plies);
    }

    /// Starts learning from a finished game of Kibitz's (once, in the background; called
    /// every frame while the game is over, it starts when it can); `repaint` wakes the app
    /// when [`Learning::try_finish`] has the result.
    pub fn after_game(&mut self, game: &GameRecord, engine: Color, repaint: &Arc<dyn Fn() + Send + Sync>) {
        let repaint = Arc::clone(repaint);
        self.inner.after_game(game, engine, move || repaint());
    }

    /// What the learning after a game produced, once it has ended: the files to write (hand
    /// them to the writer), after which send the book and [`Learning::command`] to the engine.
    pub fn try_finish(&mut self) -> Option<JobOutcome<Learned, Infallible>> {
        self.inner.try_finish()
    }
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

    /// Learns from `game` and waits for the files to write.
    fn learn(learning: &mut Learning, game: &GameRecord) -> Vec<PathBuf> {
        let repaint: Arc<dyn Fn() + Send + Sync> = Arc::new(|| {});
        learning.after_game(game, Color::White, &repaint);
        let learned = learning.inner.wait().expect("learning started").expect("learning ended");
        for (path, bytes) in &learned.files {
            write_atomic(path, bytes).expect("writable");
        }
        learned.files.into_iter().map(|(path, _)| path).collect()
    }

    #[test]
    fn the_settings_switch_what_is_learned_and_used() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let paths = Paths::under(dir.path().to_path_buf());
        // Book and result learning with the PostBook, no position learning, no book.
        let settings = Settings { own_book: false, learn: 5, ..Settings::default() };
        let (mut learning, notices) = Learning::load(&paths, &settings);
        assert!(notices.is_empty(), "{notices:?}");
        let game = lost_game(&mut learning, &["d4", "d5", "c4", "e6"], &[30, -200]);
        let taught = paths.learning_files().taught;
        assert_eq!(learn(&mut learning, &game), [paths.postbook_file(), taught.clone()]);
        assert!(matches!(learning.command(), Command::SetLearning { positions: None, postbook: Some(_) }));

        // Position learning on, the PostBook off: the positions are learned and used instead.
        let settings = Settings { own_book: false, learn: 7, postbook: false, ..Settings::default() };
        learning.configure(&settings);
        let game = lost_game(&mut learning, &["d4", "d5", "c4", "e6"], &[30, -200]);
        assert_eq!(learn(&mut learning, &game), [paths.positions_file(), taught]);
        assert!(matches!(learning.command(), Command::SetLearning { positions: Some(_), postbook: None }));
        assert_eq!(learning.summary(), LearnedSummary { book_moves: 0, positions: 1, postbook_moves: 2 });

        // With the book on, the default book is played from and learns.
        learning.configure(&Settings { own_book: true, ..settings });
        assert!(learning.book().is_some_and(|book| book.positions() > 1000), "the default book");
        let game = lost_game(&mut learning, &["d4", "d5", "c4", "e6"], &[30, -200]);
        assert!(learn(&mut learning, &game).contains(&paths.book_file()));
        assert!(learning.summary().book_moves > 0);
    }
}
