//! File work off the UI thread: the native open/save dialogs, reading and writing PGN, and
//! the ordered background writer for settings, books and the disk flushes of the game in
//! progress (which the UI thread itself writes, see [`Files::write_now`]).

use std::io;
use std::path::PathBuf;
use std::sync::Arc;

use crossbeam_channel::{Receiver, Sender, unbounded};
use kibitz_engine::{
    GameRecord, SyzygyTables, remove_stale_temporaries, replace_file, sync_file, write_atomic,
};

use kibitz_engine::BookFormat;

/// Asks the user for a file. The native implementation opens dialogs; tests substitute one
/// that answers at once. Called on a worker thread, never on the UI thread.
pub trait FilePicker: Send + Sync {
    /// A PGN file to open, or `None` if the user cancelled.
    fn open_pgn(&self) -> Option<PathBuf>;
    /// Where to save a PGN file, or `None` if the user cancelled.
    fn save_pgn(&self, suggested_name: &str) -> Option<PathBuf>;
    /// Where to save a position (`.fen` or `.epd`), or `None` if the user cancelled.
    fn save_position(&self, suggested_name: &str) -> Option<PathBuf> {
        self.save_pgn(suggested_name)
    }
    /// An engine program to add, or `None` if the user cancelled.
    fn open_engine(&self) -> Option<PathBuf> {
        None
    }
    /// A test suite (EPD) to run, or `None` if the user cancelled.
    fn open_suite(&self) -> Option<PathBuf> {
        None
    }
    /// An opening book to open (Kibitz's or Polyglot), or `None` if the user cancelled.
    fn open_book(&self) -> Option<PathBuf> {
        None
    }
    /// The folder of the Syzygy tablebases, or `None` if the user cancelled.
    fn pick_tablebases(&self) -> Option<PathBuf> {
        None
    }
    /// The log of a tuning run (`kibitz tune-policy --log`), or `None` if the user cancelled.
    fn open_tuning_log(&self) -> Option<PathBuf> {
        None
    }
    /// Where to write a book in `format`, or `None` if the user cancelled.
    fn save_book(&self, _suggested_name: &str, _format: BookFormat) -> Option<PathBuf> {
        None
    }
}

/// The platform's file dialogs (XDG portal, or zenity as a fallback).
pub struct NativePicker;

impl FilePicker for NativePicker {
    fn open_pgn(&self) -> Option<PathBuf> {
        rfd::FileDialog::new().add_filter("PGN", &["pgn", "PGN"]).set_title("Open game").pick_file()
    }

    fn save_pgn(&self, suggested_name: &str) -> Option<PathBuf> {
        rfd::FileDialog::new()
            .add_filter("PGN", &["pgn"])
            .set_title("Save game")
            .set_file_name(suggested_name)
            .save_file()
    }

    fn save_position(&self, suggested_name: &str) -> Option<PathBuf> {
        rfd::FileDialog::new()
            .add_filter("FEN", &["fen"])
            .add_filter("EPD", &["epd"])
            .set_title("Save position")
            .set_file_name(suggested_name)
            .save_file()
    }

    fn open_engine(&self) -> Option<PathBuf> {
        rfd::FileDialog::new().set_title("Add a UCI or xboard engine").pick_file()
    }

    fn open_suite(&self) -> Option<PathBuf> {
        rfd::FileDialog::new().add_filter("EPD", &["epd", "EPD"]).set_title("Run a test suite").pick_file()
    }

    fn open_book(&self) -> Option<PathBuf> {
        rfd::FileDialog::new()
            .add_filter("Opening book", &["kbook", "bin", "BIN"])
            .set_title("Open book")
            .pick_file()
    }

    fn open_tuning_log(&self) -> Option<PathBuf> {
        rfd::FileDialog::new()
            .add_filter("Tuning log", &["log", "jsonl"])
            .set_title("Open a tuning run's log")
            .pick_file()
    }

    fn pick_tablebases(&self) -> Option<PathBuf> {
        rfd::FileDialog::new().set_title("The folder of the Syzygy tablebases").pick_folder()
    }

    fn save_book(&self, suggested_name: &str, format: BookFormat) -> Option<PathBuf> {
        let (filter, title) = match format {
            BookFormat::Kibitz => (("Kibitz book", ["kbook"]), "Save book as"),
            BookFormat::Polyglot => (("Polyglot book", ["bin"]), "Export to Polyglot"),
        };
        rfd::FileDialog::new()
            .add_filter(filter.0, &filter.1)
            .set_title(title)
            .set_file_name(suggested_name)
            .save_file()
    }
}

/// The outcome of a background file operation.
#[derive(Debug)]
pub enum FileEvent {
    /// A game was read (or failed to be).
    Opened(PathBuf, Result<GameRecord, String>),
    /// The file holds several games: it opens as a game list.
    Database(PathBuf),
    /// The game is broken: it was read up to its last legal move; the message says where.
    Partial(GameRecord, String),
    /// A game was written (or failed to be).
    Saved(PathBuf, Result<(), String>),
    /// A write of the user's own data (settings, game in progress) failed.
    WriteFailed(PathBuf, String),
    /// The user picked an engine program to add.
    EnginePicked(PathBuf),
    /// The user picked a test suite to run.
    SuitePicked(PathBuf),
    /// The user picked a tournament's openings.
    OpeningsPicked(PathBuf),
    /// The folder of the Syzygy tablebases was opened (or failed to be): `chosen` when the
    /// user just picked it, not when the settings named it at start-up.
    TablebasesOpened {
        /// The folder.
        folder: PathBuf,
        /// Its tables, or why they cannot be used.
        tables: Result<Arc<SyzygyTables>, String>,
        /// Whether the user just picked it.
        chosen: bool,
    },
    /// The user picked a tuning run's log.
    TuningLogPicked(PathBuf),
}

/// Opens a folder of Syzygy tables (a directory listing) for [`FileEvent::TablebasesOpened`].
fn open_tables(folder: PathBuf, chosen: bool) -> FileEvent {
    let tables = SyzygyTables::open(&folder).map(Arc::new).map_err(|e| e.to_string());
    FileEvent::TablebasesOpened { folder, tables, chosen }
}

/// One piece of work for the writer thread: a failed write names its file and the error.
type Task = Box<dyn FnOnce() -> Result<(), (PathBuf, String)> + Send>;

/// Runs file operations on worker threads and reports back through a channel.
pub struct Files {
    picker: Arc<dyn FilePicker>,
    events_tx: Sender<FileEvent>,
    events: Receiver<FileEvent>,
    writer: Sender<Task>,
    notify: Arc<dyn Fn() + Send + Sync>,
}

impl Files {
    /// Starts the background writer. `notify` wakes the UI when something is reported.
    pub fn new(picker: Arc<dyn FilePicker>, notify: Arc<dyn Fn() + Send + Sync>) -> Self {
        let (events_tx, events) = unbounded();
        let (writer, jobs) = unbounded::<Task>();
        let failures = events_tx.clone();
        let wake = notify.clone();
        std::thread::Builder::new()
            .name("kibitz-writer".into())
            .spawn(move || {
                for task in jobs {
                    if let Err((path, e)) = task() {
                        let _ = failures.send(FileEvent::WriteFailed(path, e));
                        wake();
                    }
                }
            })
            .ok();
        Files { picker, events_tx, events, writer, notify }
    }

    /// The file dialogs, for work that asks for a file on a thread of its own.
    #[must_use]
    pub fn picker(&self) -> Arc<dyn FilePicker> {
        Arc::clone(&self.picker)
    }

    /// Writes a file atomically on the writer thread; writes happen in the order asked.
    pub fn write(&self, path: PathBuf, bytes: Vec<u8>) {
        let _ = self
            .writer
            .send(Box::new(move || write_atomic(&path, &bytes).map_err(|e| (path, e.to_string()))));
    }

    /// Runs `work` on the writer thread, after the writes asked before it (a book saved in
    /// place after the whole-file write that learning asked for); it reports its own outcome.
    pub fn in_order(&self, work: impl FnOnce() + Send + 'static) {
        let _ = self.writer.send(Box::new(move || {
            work();
            Ok(())
        }));
    }

    /// Writes a small file now, on the calling (UI) thread: when this returns it is written
    /// and renamed into place, so a kill of the process cannot lose it (the kernel has it);
    /// the writer thread then flushes it to disk against a power loss. For the game in
    /// progress, whose every move must be saved before the frame that shows it is painted.
    /// The file must not also be written with [`Files::write`] (both use one temporary name).
    pub fn write_now(&self, path: PathBuf, bytes: &[u8]) -> io::Result<()> {
        replace_file(&path, bytes)?;
        let _ = self.writer.send(Box::new(move || match sync_file(&path) {
            // A file removed since it was written needs no flush.
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err((path, e.to_string())),
            _ => Ok(()),
        }));
        Ok(())
    }

    /// Removes, in the background, the temporary files that saves interrupted by a kill left
    /// in `folders` (see [`remove_stale_temporaries`]).
    pub fn remove_stale_temporaries(&self, folders: Vec<PathBuf>) {
        self.spawn(move || {
            for folder in folders {
                remove_stale_temporaries(&folder);
            }
            None
        });
    }

    /// Asks for a PGN file and opens it, in the background.
    pub fn open_game(&self) {
        let picker = self.picker.clone();
        self.spawn(move || picker.open_pgn().map(open_file));
    }

    /// Asks for an engine program to add, in the background.
    pub fn pick_engine(&self) {
        let picker = self.picker.clone();
        self.spawn(move || picker.open_engine().map(FileEvent::EnginePicked));
    }

    /// Asks for a test suite to run, in the background.
    pub fn pick_suite(&self) {
        let picker = self.picker.clone();
        self.spawn(move || picker.open_suite().map(FileEvent::SuitePicked));
    }

    /// Asks for a tournament's openings (an EPD or PGN suite), in the background.
    pub fn pick_openings(&self) {
        let picker = self.picker.clone();
        self.spawn(move || picker.open_suite().map(FileEvent::OpeningsPicked));
    }

    /// Asks for the folder of the Syzygy tablebases and opens it, in the background.
    pub fn pick_tablebases(&self) {
        let picker = self.picker.clone();
        self.spawn(move || picker.pick_tablebases().map(|folder| open_tables(folder, true)));
    }

    /// Opens the folder of the Syzygy tablebases the settings name, in the background.
    pub fn open_tablebases(&self, folder: PathBuf) {
        self.spawn(move || Some(open_tables(folder, false)));
    }

    /// Asks for a tuning run's log, in the background.
    pub fn pick_tuning_log(&self) {
        let picker = self.picker.clone();
        self.spawn(move || picker.open_tuning_log().map(FileEvent::TuningLogPicked));
    }

    /// Opens a file given on the command line or dropped on the window, in the background.
    pub fn open_path(&self, path: PathBuf) {
        self.spawn(move || Some(open_file(path)));
    }

    /// Asks where to save and writes the PGN there, in the background.
    pub fn save_game(&self, pgn: String, suggested_name: String) {
        let picker = self.picker.clone();
        self.spawn(move || {
            picker.save_pgn(&suggested_name).map(|path| {
                let result = write_atomic(&path, pgn.as_bytes()).map_err(|e| e.to_string());
                FileEvent::Saved(path, result)
            })
        });
    }

    /// Asks where to save and writes the position there, in the background: EPD (the four
    /// position fields) for a `.epd` file, FEN otherwise (Crafty's `savepos`).
    pub fn save_position(&self, pos: shakmaty::Chess) {
        let picker = self.picker.clone();
        self.spawn(move || {
            picker.save_position("position.fen").map(|path| {
                let fen = shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal).to_string();
                let epd = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("epd"));
                let text = if epd { fen.split(' ').take(4).collect::<Vec<_>>().join(" ") } else { fen };
                let result = write_atomic(&path, format!("{text}\n").as_bytes()).map_err(|e| e.to_string());
                FileEvent::Saved(path, result)
            })
        });
    }

    /// The next finished operation, if any.
    pub fn try_recv(&self) -> Option<FileEvent> {
        self.events.try_recv().ok()
    }

    fn spawn(&self, job: impl FnOnce() -> Option<FileEvent> + Send + 'static) {
        let tx = self.events_tx.clone();
        let notify = self.notify.clone();
        let spawned = std::thread::Builder::new().name("kibitz-file".into()).spawn(move || {
            if let Some(event) = job() {
                let _ = tx.send(event);
            }
            notify();
        });
        if let Err(e) = spawned {
            let _ = self.events_tx.send(FileEvent::WriteFailed(PathBuf::new(), e.to_string()));
        }
    }
}

/// Reads a PGN file: its game, or `Database` when it holds several (they are then indexed
/// by the game list, never read whole). Text that is not UTF-8 is read as Latin-1.
fn open_file(path: PathBuf) -> FileEvent {
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) => {
            let message = format!("{} cannot be read: {e}", path.display());
            return FileEvent::Opened(path, Err(message));
        }
    };
    let mut games = kibitz_engine::read_games(&bytes);
    let first = games.next();
    if games.next().is_some() {
        return FileEvent::Database(path);
    }
    let game = match first {
        Some(Ok(game)) => Ok(game),
        Some(Err(e)) => {
            let message = format!("{}: {e}", path.display());
            match e.partial {
                Some(partial) => return FileEvent::Partial(*partial, message),
                None => Err(message),
            }
        }
        None => Err(format!("{}: the file holds no game", path.display())),
    };
    FileEvent::Opened(path, game)
}
