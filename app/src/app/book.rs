//! The app's side of the Book workspace: opening a book to edit (Kibitz's own without a copy,
//! or a file read in the background), its keys, saving it (the engine plays from the edited
//! book at once; files are written atomically, off the UI thread), save as, export, and
//! switching the book Kibitz plays from.

use std::path::PathBuf;
use std::sync::Arc;

use egui::{Key, Modifiers};
use kibitz_engine::{Book, BookFile, BookFormat, Job};

use super::KibitzApp;
use crate::book_files::{BookDone, BookJob, BookTask, file_name, save_book};
use crate::book_view::{BookRequest, BookView};
use crate::workspace::Workspace;

/// A book job running for the Book workspace.
pub(super) struct Running {
    /// What the panel says meanwhile.
    pub what: String,
    job: BookJob,
    /// The file was saved as a new book: edit that one afterwards.
    save_as: bool,
}

impl KibitzApp {
    /// Opens the book Kibitz plays from in the Book workspace the first time it is shown: the
    /// engine's own copy, shared, and copied in the background before the first edit.
    pub(super) fn open_book_view(&mut self) {
        if self.workspace == Workspace::Book && self.book.is_none() {
            let book = self.learning.own_book().unwrap_or_else(|| Arc::new(Book::new()));
            let mut view = BookView::shared(book, self.learning.book_file().to_path_buf());
            let repaint = Arc::clone(&self.repaint);
            view.prepare_copy(move || repaint());
            let repaint = Arc::clone(&self.repaint);
            view.prepare_taught(self.learning.taught_games(), move || repaint());
            self.book = Some(view);
        }
    }

    /// The Book workspace's keys: ← takes a move back, Ctrl+Z undoes, Ctrl+Y (or Ctrl+Shift+Z)
    /// redoes. Returns whether the workspace took the keys.
    pub(super) fn book_keys(&mut self, ctx: &egui::Context) -> bool {
        let Some(book) = self.book.as_mut().filter(|_| self.workspace == Workspace::Book) else {
            return false;
        };
        let (back, undo, redo) = ctx.input_mut(|i| {
            (
                i.consume_key(Modifiers::NONE, Key::ArrowLeft),
                i.consume_key(Modifiers::COMMAND, Key::Z),
                i.consume_key(Modifiers::COMMAND, Key::Y)
                    || i.consume_key(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z),
            )
        });
        if back {
            book.back();
        }
        let editable = book.read_only().is_none() && self.book_job.is_none();
        if redo && editable {
            book.redo();
        } else if undo && editable {
            book.undo();
        }
        true
    }

    /// Carries out what the Book workspace asked.
    pub(super) fn book_request(&mut self, request: BookRequest) {
        let Some(view) = self.book.as_mut() else { return };
        let name = file_name(view.path());
        let task = match request {
            BookRequest::Save => {
                if self.book_job.is_none() {
                    self.save_book();
                }
                return;
            }
            BookRequest::SaveAs => {
                let stem =
                    view.path().file_stem().map_or("book".into(), |s| s.to_string_lossy().into_owned());
                BookTask::WriteAs(format!("{stem}.kbook"), view.snapshot(), BookFormat::Kibitz)
            }
            BookRequest::Export => {
                let stem =
                    view.path().file_stem().map_or("book".into(), |s| s.to_string_lossy().into_owned());
                BookTask::WriteAs(format!("{stem}.bin"), view.snapshot(), BookFormat::Polyglot)
            }
            BookRequest::Open | BookRequest::OpenPath(_) if view.is_dirty() => {
                self.notices.push(format!("{name} has edits not saved: save them (or undo them) first."));
                return;
            }
            BookRequest::Open => BookTask::Pick,
            BookRequest::OpenPath(path) if path == self.learning.book_file() => {
                self.book = None;
                self.open_book_view();
                return;
            }
            BookRequest::OpenPath(path) => BookTask::Open(path),
            BookRequest::PlayFrom => {
                self.play_from_book();
                return;
            }
            BookRequest::OpenTaught(index, ply) => {
                self.open_taught(index, ply);
                return;
            }
            BookRequest::Cancel => {
                if let Some(running) = self.book_job.take() {
                    running.job.cancel();
                }
                return;
            }
            BookRequest::Rules => {
                self.learning.configure(&self.settings);
                self.send_learning();
                return;
            }
        };
        if self.book_job.is_some() {
            return;
        }
        let save_as = matches!(&task, BookTask::WriteAs(_, _, BookFormat::Kibitz));
        let what = task.describe();
        let repaint = Arc::clone(&self.repaint);
        let job = task.spawn(self.files.picker(), move || repaint());
        self.book_job = Some(Running { what, job, save_as });
    }

    /// Saves the edits, in place when only values changed. The book Kibitz plays from is
    /// handed to the engine at once (no copy). The file is written on the writer thread, after
    /// any writes still pending (the whole book that learning after a game wrote).
    fn save_book(&mut self) {
        let Some(view) = self.book.as_mut() else { return };
        let path = view.path().to_path_buf();
        let plays = path == self.learning.book_file();
        if plays {
            if !self.learning.adopt_book(view.snapshot()) {
                self.notices.push(
                    "Kibitz is still learning from the last game; save the book again in a moment.".into(),
                );
                return;
            }
            let repaint = Arc::clone(&self.repaint);
            view.prepare_copy(move || repaint());
        }
        let (file, book, touched) = view.take_for_save();
        let (tx, rx) = crossbeam_channel::bounded(1);
        let target = path.clone();
        self.files.in_order(move || {
            let _ = tx.send(save_book(&target, file, &book, &touched));
        });
        let repaint = Arc::clone(&self.repaint);
        let job = Job::spawn(
            "kibitz-book-save",
            move || repaint(),
            move |_| rx.recv().unwrap_or_else(|_| Err("the writer thread stopped".into())),
        );
        self.book_job =
            Some(Running { what: format!("Saving {}…", file_name(&path)), job, save_as: false });
        if plays {
            self.send_learning();
            self.notices.push("Kibitz plays from the edited book now.".into());
        }
    }

    /// Kibitz plays and learns from the book in the workspace from now on.
    fn play_from_book(&mut self) {
        let Some(view) = self.book.as_mut() else { return };
        let path = view.path().to_path_buf();
        if !self.learning.switch_book(path.clone(), view.snapshot()) {
            self.notices.push("Kibitz is still learning from the last game; try again in a moment.".into());
            return;
        }
        let repaint = Arc::clone(&self.repaint);
        view.prepare_copy(move || repaint());
        let own = self.paths.book_file();
        self.settings.play_book = (path != own).then(|| path.clone());
        self.settings.remember_book(&own);
        self.send_learning();
        self.notices.push(format!("Kibitz plays and learns from {} now.", file_name(&path)));
    }

    /// Opens one of the games Kibitz learned from to study, at the ply of the book move.
    fn open_taught(&mut self, index: usize, ply: usize) {
        let games = self.learning.taught_games();
        let game = games.pgn(index).and_then(|pgn| kibitz_engine::read_games(pgn.as_bytes()).next());
        match game {
            Some(Ok(game)) => {
                // The main line starts with the root: the move at `ply` leads to node `ply + 1`.
                let at = game.main_line().get(ply + 1).copied();
                self.open_study(game);
                self.set_cursor(at);
            }
            _ => self.notices.push("That game can no longer be read from learned-games.pgn.".into()),
        }
    }

    /// Takes the outcome of the book job once it is done.
    pub(super) fn poll_book_job(&mut self) {
        let Some(running) = self.book_job.as_mut() else { return };
        let Some(outcome) = running.job.try_finish() else { return };
        let save_as = running.save_as;
        self.book_job = None;
        match outcome {
            Ok(BookDone::Nothing) => {}
            Ok(BookDone::Opened(opened)) => {
                self.settings.remember_book(&opened.path);
                self.book = Some(BookView::opened(opened));
            }
            Ok(BookDone::Saved { path, format, written, file }) => {
                self.book_saved(path, format, file, save_as);
                self.notices.push(written);
            }
            Err(e) => self.notices.push(format!("The book: {e}")),
        }
    }

    /// Kibitz learned from a game: the book shown, if it is the one Kibitz plays from and has
    /// no edits, shows what was learned.
    pub(super) fn book_learned(&mut self) {
        let Some(view) = self.book.as_mut() else { return };
        if view.path() != self.learning.book_file() {
            return;
        }
        if view.is_dirty() {
            self.notices.push(
                "Kibitz learned from the last game; the book being edited does not show it, and saving the \
                 edits replaces what it learned from that game."
                    .into(),
            );
        } else if let Some(book) = self.learning.own_book() {
            view.reload(book);
            let repaint = Arc::clone(&self.repaint);
            view.prepare_copy(move || repaint());
        }
        let repaint = Arc::clone(&self.repaint);
        view.prepare_taught(self.learning.taught_games(), move || repaint());
    }

    fn book_saved(&mut self, path: PathBuf, format: BookFormat, file: Option<BookFile>, save_as: bool) {
        let name = file_name(&path);
        match format {
            BookFormat::Polyglot => self.notices.push(format!("Exported the book to {name} (Polyglot).")),
            BookFormat::Kibitz => {
                if let Some(view) = self.book.as_mut() {
                    if save_as {
                        view.saved_as(path.clone(), file);
                    } else {
                        view.saved(file);
                    }
                }
                self.settings.remember_book(&path);
                self.notices.push(format!("Saved the book to {name}."));
            }
        }
    }
}
