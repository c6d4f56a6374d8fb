//! What Kibitz learns from the games it plays, and the files it keeps it in: the player's own
//! copy of the opening book (book and result learning), the learned positions (Crafty's
//! position learning), the PostBook (Terra's), and the games it learned from. [`Learning`]
//! loads them from a data folder, follows a game's searches, and learns from a finished game
//! as a background [`Job`]; the protocol front ends use the same loader, [`LearnedData`], for
//! their file options.

use std::convert::Infallible;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use shakmaty::Color;

use crate::{
    Book, BookSettings, Command, GameRecord, Job, JobOutcome, LearnFlags, LearnedFileError, PlayedGame,
    PositionTable, PostBook, TaughtGames,
};

/// Where the learned data is kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LearningFiles {
    /// The player's copy of the opening book, with what it learned.
    pub book: PathBuf,
    /// The learned positions.
    pub positions: PathBuf,
    /// The PostBook.
    pub postbook: PathBuf,
    /// The games Kibitz learned from (PGN, the newest [`TAUGHT_GAMES_KEPT`](crate::TAUGHT_GAMES_KEPT)).
    pub taught: PathBuf,
}

impl LearningFiles {
    /// The files' usual names in a data folder.
    ///
    /// ```
    /// use std::path::Path;
    /// let files = kibitz_engine::LearningFiles::in_folder(Path::new("data"));
    /// assert_eq!(files.postbook, Path::new("data/postbook.txt"));
    /// ```
    #[must_use]
    pub fn in_folder(folder: &Path) -> Self {
        LearningFiles {
            book: folder.join("kibitz.kbook"),
            positions: folder.join("learned-positions.kpos"),
            postbook: folder.join("postbook.txt"),
            taught: folder.join("learned-games.pgn"),
        }
    }
}

/// The player's switches for the book and learning.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LearningSettings {
    /// Whether Kibitz plays from its book (and learns into it).
    pub own_book: bool,
    /// Which kinds of learning are on.
    pub flags: LearnFlags,
    /// Whether the PostBook is used (with book learning).
    pub postbook: bool,
    /// How the book's moves are chosen; result learning judges the choices with it.
    pub book: BookSettings,
}

impl Default for LearningSettings {
    fn default() -> Self {
        LearningSettings {
            own_book: true,
            flags: LearnFlags::default(),
            postbook: true,
            book: BookSettings::default(),
        }
    }
}

impl LearningSettings {
    /// Whether the PostBook is used and learned: book learning and the PostBook both on.
    #[must_use]
    pub fn postbook_on(&self) -> bool {
        self.flags.book && self.postbook
    }
}

/// The learned positions and the PostBook, each with whether the engine uses it: the one
/// loader of these files, for the app's [`Learning`] and the protocols' file options.
#[derive(Clone, Debug)]
pub struct LearnedData {
    positions: Arc<PositionTable>,
    postbook: Arc<PostBook>,
    /// Seed the transposition table with the learned positions.
    pub use_positions: bool,
    /// Avoid and prefer moves after the book as the PostBook says.
    pub use_postbook: bool,
}

impl Default for LearnedData {
    fn default() -> Self {
        LearnedData {
            positions: Arc::default(),
            postbook: Arc::default(),
            use_positions: true,
            use_postbook: true,
        }
    }
}

impl LearnedData {
    /// The learned positions.
    #[must_use]
    pub fn positions(&self) -> &PositionTable {
        &self.positions
    }

    /// The PostBook.
    #[must_use]
    pub fn postbook(&self) -> &PostBook {
        &self.postbook
    }

    /// Replaces the learned positions.
    pub fn set_positions(&mut self, positions: PositionTable) {
        self.positions = Arc::new(positions);
    }

    /// Replaces the PostBook.
    pub fn set_postbook(&mut self, postbook: PostBook) {
        self.postbook = Arc::new(postbook);
    }

    /// Loads the learned positions from `path` and returns how many; on failure the
    /// positions loaded before stay.
    pub fn load_positions(&mut self, path: &Path) -> Result<usize, LearnedFileError> {
        let table = PositionTable::load(path, PositionTable::default().capacity())?;
        self.set_positions(table);
        Ok(self.positions.len())
    }

    /// Loads the PostBook from `path` and returns how many moves it has; on failure the
    /// PostBook loaded before stays.
    pub fn load_postbook(&mut self, path: &Path) -> Result<usize, LearnedFileError> {
        self.set_postbook(PostBook::load(path)?);
        Ok(self.postbook.len())
    }

    /// The command that gives the engine thread what is switched on and not empty.
    #[must_use]
    pub fn command(&self) -> Command {
        let positions =
            (self.use_positions && !self.positions.is_empty()).then(|| Arc::clone(&self.positions));
        let postbook = (self.use_postbook && !self.postbook.is_empty()).then(|| Arc::clone(&self.postbook));
        Command::SetLearning { positions, postbook }
    }
}

/// A part of the learned data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LearnedPart {
    /// The player's copy of the opening book.
    Book,
    /// The learned positions.
    Positions,
    /// The PostBook.
    PostBook,
}

/// A learned-data file that could not be read at start: it was moved aside, under its name
/// with `.bad` added, and the default book or nothing learned is used instead.
#[derive(Debug)]
pub struct SetAside {
    /// Which file.
    pub part: LearnedPart,
    /// Why it was refused.
    pub error: LearnedFileError,
    /// Where it was kept.
    pub kept_as: PathBuf,
}

impl std::fmt::Display for SetAside {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (what, instead) = match self.part {
            LearnedPart::Book => ("Your opening book could not be read", "it was kept as"),
            LearnedPart::Positions => ("Kibitz's learned positions could not be read", "they were kept as"),
            LearnedPart::PostBook => ("Kibitz's PostBook could not be read", "it was kept as"),
        };
        let then = match self.part {
            LearnedPart::Book => "the default book is used",
            LearnedPart::Positions | LearnedPart::PostBook => "learning starts afresh",
        };
        write!(f, "{what} ({}); {instead} {} and {then}.", self.error, self.kept_as.display())
    }
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

/// What a finished game taught Kibitz: the files to write and the updated data, which
/// [`Learning::try_finish`] adopts.
#[derive(Debug)]
pub struct Learned {
    /// The files to write (atomically, after any writes still pending): path and contents.
    pub files: Vec<(PathBuf, Vec<u8>)>,
    book: Option<Arc<Book>>,
    positions: Option<Arc<PositionTable>>,
    postbook: Option<Arc<PostBook>>,
    taught: Option<Arc<TaughtGames>>,
}

/// The learning after a game, running in the background.
type LearningJob = Job<(), Learned, Infallible>;

/// The book, the learned positions, the PostBook, and the current game's record of Kibitz's
/// searches.
pub struct Learning {
    /// The player's copy of the book (or the default one), loaded whether or not Kibitz plays
    /// from it, so that the switch takes effect at once.
    book: Option<Arc<Book>>,
    /// The learned positions and the PostBook, used as the settings say.
    data: LearnedData,
    /// The games learned from.
    taught: Arc<TaughtGames>,
    settings: LearningSettings,
    files: LearningFiles,
    /// Per ply: Kibitz's score (centipawns, its side) and depth where it searched.
    scores: Vec<Option<(i32, u8)>>,
    /// Whether Kibitz played a move in this game (opened games teach nothing).
    engine_played: bool,
    /// Whether this game's learning was started.
    learned: bool,
    job: Option<LearningJob>,
}

impl Learning {
    /// Loads the player's book (or `default_book`, a Kibitz book file's bytes, when there is
    /// none yet), the learned positions, the PostBook and the games learned from, from
    /// `files`. A file that cannot be read is moved aside as `NAME.bad` and reported; the
    /// default book, or nothing learned, is used instead, and the other files still load. (The
    /// games are PGN, read whatever their text; a file that cannot be read at all counts as
    /// none, and is replaced after the next game learned from.)
    #[must_use]
    pub fn load(
        files: LearningFiles,
        settings: LearningSettings,
        default_book: &[u8],
    ) -> (Learning, Vec<SetAside>) {
        let mut set_aside = Vec::new();
        let mut book = None;
        if files.book.exists() {
            match Book::load(&files.book) {
                Ok(loaded) => book = Some(loaded),
                Err(e) => {
                    let error = LearnedFileError::from(e).in_file(&files.book);
                    set_aside.push(SetAside {
                        part: LearnedPart::Book,
                        error,
                        kept_as: keep_bad(&files.book),
                    });
                }
            }
        }
        let book = book.or_else(|| Book::from_bytes(default_book).ok());
        Learning::with_book(files, settings, book, set_aside)
    }

    /// As [`Learning::load`], with the book at `files.book` already read by the caller (a book
    /// the user chose to play from, which is read once and never set aside).
    #[must_use]
    pub fn load_with_book(
        files: LearningFiles,
        settings: LearningSettings,
        book: Book,
    ) -> (Learning, Vec<SetAside>) {
        Learning::with_book(files, settings, Some(book), Vec::new())
    }

    /// Loads the learned positions, the PostBook and the taught games beside `book`.
    fn with_book(
        files: LearningFiles,
        settings: LearningSettings,
        book: Option<Book>,
        mut set_aside: Vec<SetAside>,
    ) -> (Learning, Vec<SetAside>) {
        let mut refused = |part, path: &Path, error| {
            set_aside.push(SetAside { part, error, kept_as: keep_bad(path) });
        };
        let mut data = LearnedData::default();
        if files.positions.exists()
            && let Err(e) = data.load_positions(&files.positions)
        {
            refused(LearnedPart::Positions, &files.positions, e);
        }
        if files.postbook.exists()
            && let Err(e) = data.load_postbook(&files.postbook)
        {
            refused(LearnedPart::PostBook, &files.postbook, e);
        }
        let taught = Arc::new(TaughtGames::load(&files.taught).unwrap_or_default());
        let mut learning = Learning {
            book: book.map(Arc::new),
            data,
            taught,
            settings,
            files,
            scores: Vec::new(),
            engine_played: false,
            learned: false,
            job: None,
        };
        learning.configure(settings);
        (learning, set_aside)
    }

    /// Takes the player's switches. Send [`Learning::book`] and [`Learning::command`] to the
    /// engine afterwards.
    pub fn configure(&mut self, settings: LearningSettings) {
        self.settings = settings;
        self.data.use_positions = settings.flags.position;
        self.data.use_postbook = settings.postbook_on();
    }

    /// How much has been learned so far.
    #[must_use]
    pub fn summary(&self) -> LearnedSummary {
        let book_moves = self
            .book
            .as_deref()
            .map_or(0, |book| book.entries().iter().filter(|e| e.learned.games > 0 || e.never_play).count());
        LearnedSummary {
            book_moves,
            positions: self.data.positions().len(),
            postbook_moves: self.data.postbook().len(),
        }
    }

    /// Forgets everything learned (Crafty's `import ... clear`, and deleting Terra's
    /// PostBook): the book's learned statistics, scores and "never play again" flags, the
    /// learned positions, the PostBook and the games learned from; learning still running is
    /// cancelled. The book's own statistics and the player's values stay. Returns the files to
    /// write; then send the book and [`Learning::command`] to the engine.
    pub fn clear(&mut self) -> Vec<(PathBuf, Vec<u8>)> {
        self.job = None;
        let mut files = Vec::new();
        let learned = self.summary().book_moves > 0;
        if let Some(book) = self.book.as_mut()
            && (learned || self.files.book.exists())
        {
            Arc::make_mut(book).clear_learning();
            files.push((self.files.book.clone(), book.to_bytes()));
        }
        if !self.data.positions().is_empty() || self.files.positions.exists() {
            self.data.set_positions(PositionTable::default());
            files.push((self.files.positions.clone(), self.data.positions().to_bytes()));
        }
        if !self.data.postbook().is_empty() || self.files.postbook.exists() {
            self.data.set_postbook(PostBook::new());
            files.push((self.files.postbook.clone(), self.data.postbook().to_text().into_bytes()));
        }
        if !self.taught.is_empty() || self.files.taught.exists() {
            self.taught = Arc::default();
            files.push((self.files.taught.clone(), Vec::new()));
        }
        files
    }

    /// The games Kibitz learned from, oldest first; [`TaughtGames::index`] (off the UI
    /// thread) says which of them taught a book move.
    #[must_use]
    pub fn taught_games(&self) -> Arc<TaughtGames> {
        Arc::clone(&self.taught)
    }

    /// The book to play from: `None` when Kibitz is set not to play from its book.
    #[must_use]
    pub fn book(&self) -> Option<Arc<Book>> {
        self.book.clone().filter(|_| self.settings.own_book)
    }

    /// The player's book whether or not Kibitz plays from it, to edit it (a copy is taken
    /// only when it is changed).
    #[must_use]
    pub fn own_book(&self) -> Option<Arc<Book>> {
        self.book.clone()
    }

    /// Plays and learns from another book file from now on: `book` as read from `path` (a
    /// Kibitz book). Send [`Learning::book`] to the engine afterwards. `false`, and nothing
    /// changes, while learning from a game runs.
    pub fn switch_book(&mut self, path: PathBuf, book: Arc<Book>) -> bool {
        if self.is_learning() {
            return false;
        }
        self.files.book = path;
        self.book = Some(book);
        true
    }

    /// The file of the book Kibitz plays and learns from.
    #[must_use]
    pub fn book_file(&self) -> &Path {
        &self.files.book
    }

    /// Adopts an edited book as the player's book without writing it, for a book the editor
    /// saved itself through a [`BookFile`](crate::BookFile) at `files().book` (in place when
    /// it can): from now on Kibitz plays and learns from it; send [`Learning::book`] to the
    /// engine. `false`, and nothing changes, while learning from a game runs (its result would
    /// overwrite the edit; and after it, the file learning wrote makes the `BookFile` rewrite
    /// the whole file, [`Rewrite::ChangedOnDisk`](crate::Rewrite::ChangedOnDisk)).
    pub fn adopt_book(&mut self, book: Arc<Book>) -> bool {
        if self.is_learning() {
            return false;
        }
        self.book = Some(book);
        true
    }

    /// Where the learned data is kept.
    #[must_use]
    pub fn files(&self) -> &LearningFiles {
        &self.files
    }

    /// The command that gives the engine what was learned: the learned positions (when
    /// position learning is on) and the PostBook (when book learning and the PostBook are on),
    /// if not empty.
    #[must_use]
    pub fn command(&self) -> Command {
        self.data.command()
    }

    /// A new game starts (learning from the last one may still be running).
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

    /// Starts learning from a finished game, once, in the background: the book (book and
    /// result learning, when Kibitz plays from it), the PostBook (book learning with the
    /// PostBook on) and the learned positions (position learning), as the switches say.
    /// `wake` is called when the result is ready for [`Learning::try_finish`]. Returns whether
    /// learning started: not for an unfinished game, one Kibitz did not play, one already
    /// learned, nor while the last game's learning still runs (call again later).
    pub fn after_game(
        &mut self,
        game: &GameRecord,
        engine: Color,
        wake: impl Fn() + Send + Sync + 'static,
    ) -> bool {
        if self.learned || !self.engine_played || game.result() == "*" || self.job.is_some() {
            return false;
        }
        self.learned = true;
        let lesson = Lesson {
            game: game.clone(),
            engine,
            scores: self.scores.clone(),
            book: self.book.clone(),
            data: self.data.clone(),
            taught: Arc::clone(&self.taught),
            settings: self.settings,
            files: self.files.clone(),
        };
        self.job = Some(Job::spawn("learning", wake, move |_| Ok(lesson.learn())));
        true
    }

    /// Whether learning from a game is running.
    #[must_use]
    pub fn is_learning(&self) -> bool {
        self.job.is_some()
    }

    /// The learning's outcome once it has ended, never blocking: what changed is adopted here
    /// (send [`Learning::book`] and [`Learning::command`] to the engine), and the result holds
    /// the files to write; `Ok` with no files when nothing was learned.
    pub fn try_finish(&mut self) -> Option<JobOutcome<Learned, Infallible>> {
        let outcome = self.job.as_mut()?.try_finish()?;
        self.job = None;
        Some(self.adopt(outcome))
    }

    /// Waits for learning still running and returns its outcome as [`Learning::try_finish`]
    /// does (for commands and tests; a GUI uses `try_finish`).
    pub fn wait(&mut self) -> Option<JobOutcome<Learned, Infallible>> {
        let outcome = self.job.take()?.wait();
        Some(self.adopt(outcome))
    }

    fn adopt(&mut self, outcome: JobOutcome<Learned, Infallible>) -> JobOutcome<Learned, Infallible> {
        let learned = outcome?;
        if let Some(book) = &learned.book {
            self.book = Some(Arc::clone(book));
        }
        if let Some(positions) = &learned.positions {
            self.data.positions = Arc::clone(positions);
        }
        if let Some(postbook) = &learned.postbook {
            self.data.postbook = Arc::clone(postbook);
        }
        if let Some(taught) = &learned.taught {
            self.taught = Arc::clone(taught);
        }
        Ok(learned)
    }
}

/// What the learning after a game starts from: copies of the game and of what was learned
/// before.
struct Lesson {
    game: GameRecord,
    engine: Color,
    scores: Vec<Option<(i32, u8)>>,
    book: Option<Arc<Book>>,
    data: LearnedData,
    taught: Arc<TaughtGames>,
    settings: LearningSettings,
    files: LearningFiles,
}

impl Lesson {
    /// Learns from the game and serialises the files that changed; a game that taught
    /// anything is added to the games learned from.
    fn learn(mut self) -> Learned {
        let played = PlayedGame { game: &self.game, engine: self.engine, scores: &self.scores };
        let mut learned =
            Learned { files: Vec::new(), book: None, positions: None, postbook: None, taught: None };
        let own_book = self.book.as_mut().filter(|_| self.settings.own_book);
        if self.settings.postbook_on() {
            let empty = Book::new();
            let active = own_book.as_deref().map_or(&empty, |book| &**book);
            let mut postbook = self.data.postbook;
            if Arc::make_mut(&mut postbook).learn(active, &played) > 0 {
                learned.files.push((self.files.postbook, postbook.to_text().into_bytes()));
                learned.postbook = Some(postbook);
            }
        }
        let mut positions = self.data.positions;
        if self.settings.flags.position && Arc::make_mut(&mut positions).learn(&played) > 0 {
            learned.files.push((self.files.positions, positions.to_bytes()));
            learned.positions = Some(positions);
        }
        if let Some(book) = own_book {
            let report = Arc::make_mut(book).learn(&played, self.settings.flags, &self.settings.book);
            if report.updated > 0 || report.never_play.is_some() {
                learned.files.push((self.files.book, book.to_bytes()));
                learned.book = Some(Arc::clone(book));
            }
        }
        if !learned.files.is_empty() {
            Arc::make_mut(&mut self.taught).add(&self.game, self.engine);
            learned.files.push((self.files.taught, self.taught.to_pgn().into_bytes()));
            learned.taught = Some(self.taught);
        }
        learned
    }
}

/// Moves a damaged file aside as `NAME.bad` and returns that path.
fn keep_bad(path: &Path) -> PathBuf {
    let mut name = path.file_name().map(std::ffi::OsStr::to_os_string).unwrap_or_default();
    name.push(".bad");
    let bad = path.with_file_name(name);
    let _ = std::fs::rename(path, &bad);
    bad
}
