//! The Book workspace: the player's opening book as Kibitz plays it, position by position.
//! Every legal move of the position on the board is a row, book moves first: its user value
//! as a bar to drag, the probability of being played under the current selection rules, its
//! games and results, what was learned, and why it is excluded. The NAG buttons set the value
//! as annotated PGN does; every change shows all the new probabilities at once, and undo and
//! redo (Ctrl+Z, Ctrl+Y) step through the edits. Clicking a move plays it and follows the line.
//! The panel's head picks the book (Kibitz's own, or any Kibitz or Polyglot book file), saves
//! it, saves it as a new file, exports it to Polyglot, and makes it the book Kibitz plays from.
//! A damaged or unwritable file is shown read-only with the reason.

use egui::{Grid, RichText, ScrollArea, Slider, Ui};
use std::collections::{HashSet, VecDeque};
use std::convert::Infallible;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use kibitz_engine::{
    Book, BookDocument, BookEdit, BookFile, BookFormat, BookSettings, Candidate, Job, Nag, TaughtGames,
    TaughtIndex, book_key, nag_symbol, nag_value, san_line,
};
use shakmaty::san::San;
use shakmaty::{Chess, Color, Move, Position};

use crate::board_marks::Arrow;

use crate::book_files::{OpenedBook, file_name};

/// How far "next choice" looks ahead, in plies.
pub const CHOICE_PLIES: usize = 40;

/// The NAG buttons' codes, best first: `!!` `!` `!?` `?!` `?` `??`.
const NAGS: [u8; 6] = [3, 1, 5, 6, 2, 4];

/// What the panel asks of the app.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookRequest {
    /// Write the edits to the book's file (and, for the book Kibitz plays from, hand it over).
    Save,
    /// Write the book to a new Kibitz book file the user picks, and edit that one.
    SaveAs,
    /// Write the book as a Polyglot file the user picks.
    Export,
    /// Ask the user for a book file and open it.
    Open,
    /// Open this book (from the list of books).
    OpenPath(PathBuf),
    /// Kibitz plays (and learns) from this book from now on.
    PlayFrom,
    /// Stop reading or writing a book.
    Cancel,
    /// Open the game (its index among the games Kibitz learned from) at this ply, to study.
    OpenTaught(usize, usize),
    /// The selection rules changed: keep them and give them to the engine.
    Rules,
}

/// What the app tells the panel each frame: the books it knows and what is running.
pub struct Shelf<'a> {
    /// The book Kibitz plays from.
    pub playing: &'a Path,
    /// Other books the user opened, newest first.
    pub recent: &'a [PathBuf],
    /// What a book job is doing, while one runs.
    pub busy: Option<&'a str>,
}

/// The book being edited and the line shown.
pub struct BookView {
    doc: BookDocument,
    path: PathBuf,
    format: BookFormat,
    /// The Kibitz book file as last read or saved, to save in place; `None` while a save has
    /// it, for a read-only book, or until the book Kibitz plays from is first saved.
    file: Option<BookFile>,
    read_only: Option<String>,
    /// A copy of the book being made in the background after it was handed to the engine,
    /// so that the next edit does not copy it on the UI thread.
    copy: Option<(Arc<Book>, Job<(), Book, Infallible>)>,
    line: Vec<Move>,
    position: Chess,
    error: Option<String>,
    /// The games Kibitz learned from and their index (made in the background), for the book
    /// Kibitz plays from.
    taught: Option<TaughtIndex>,
    taught_job: Option<Job<(), TaughtIndex, Infallible>>,
    /// The book's number of moves and of positions, counted when the number of moves
    /// changes (counting positions reads the whole book).
    size: (usize, usize),
}

impl BookView {
    /// A view of `book` at the initial position, without a file.
    #[cfg(test)]
    #[must_use]
    pub fn new(book: Book) -> Self {
        BookView::shared(Arc::new(book), PathBuf::new())
    }

    /// A view of a book others hold too (the engine plays from it); `path` is its file.
    #[must_use]
    pub fn shared(book: Arc<Book>, path: PathBuf) -> Self {
        BookView {
            doc: BookDocument::shared(book),
            path,
            format: BookFormat::Kibitz,
            file: None,
            read_only: None,
            copy: None,
            line: Vec::new(),
            position: Chess::default(),
            error: None,
            size: (usize::MAX, 0),
            taught: None,
            taught_job: None,
        }
    }

    /// A view of a book read from a file.
    #[must_use]
    pub fn opened(opened: OpenedBook) -> Self {
        let size = (opened.book.len(), opened.positions);
        let mut view = BookView::shared(Arc::new(opened.book), opened.path);
        view.size = size;
        view.format = opened.format;
        view.file = opened.file;
        view.read_only = opened.read_only;
        view
    }

    /// The book's file.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Why the book may not be edited, if so.
    #[must_use]
    pub fn read_only(&self) -> Option<&str> {
        self.read_only.as_deref()
    }

    /// Whether there are edits not saved.
    #[must_use]
    pub fn is_dirty(&self) -> bool {
        self.doc.is_dirty()
    }

    /// The book now, without a copy: to hand to the engine or to a writer.
    #[must_use]
    pub fn snapshot(&self) -> Arc<Book> {
        self.doc.snapshot()
    }

    /// Shows `book` (what the file holds now) in place of the one shown, which had no edits;
    /// the line shown stays.
    pub fn reload(&mut self, book: Arc<Book>) {
        self.doc = BookDocument::shared(book);
        self.copy = None;
        self.size = (usize::MAX, 0);
    }

    /// What a save needs: the file as last saved (taken until [`BookView::saved`] gives it
    /// back), the book now, and the moves edited since.
    pub fn take_for_save(&mut self) -> (Option<BookFile>, Arc<Book>, Vec<(u64, u16)>) {
        (self.file.take(), self.doc.snapshot(), self.doc.unsaved_moves())
    }

    /// The book was saved to its file; `file` is the file now.
    pub fn saved(&mut self, file: Option<BookFile>) {
        self.file = file;
        self.doc.mark_saved();
    }

    /// The book was written to `path` in Kibitz's format: it is now that file's, saved and
    /// editable.
    pub fn saved_as(&mut self, path: PathBuf, file: Option<BookFile>) {
        self.file = file;
        self.path = path;
        self.format = BookFormat::Kibitz;
        self.read_only = None;
        self.doc.mark_saved();
    }

    /// Copies the book in the background while someone else holds it, so that the next
    /// edit does not copy a large book on the UI thread; `wake` is called when it is done.
    pub fn prepare_copy(&mut self, wake: impl Fn() + Send + Sync + 'static) {
        if !self.doc.is_shared() {
            return;
        }
        let of = self.doc.snapshot();
        let source = Arc::clone(&of);
        let job = Job::spawn("kibitz-book-copy", wake, move |_| Ok(Book::clone(&source)));
        self.copy = Some((of, job));
    }

    /// Indexes the games Kibitz learned from in the background, to list under each book move
    /// those that taught it; `wake` is called when it is done.
    pub fn prepare_taught(&mut self, games: Arc<TaughtGames>, wake: impl Fn() + Send + Sync + 'static) {
        self.taught_job = Some(Job::spawn("kibitz-taught-games", wake, move |_| Ok(games.index())));
    }

    /// Takes what the background jobs made once they are done: the index of the games that
    /// taught the book, and the copy of the book.
    fn poll_jobs(&mut self) {
        if let Some(outcome) = self.taught_job.as_mut().and_then(Job::try_finish) {
            self.taught = outcome.ok();
            self.taught_job = None;
        }
        let Some((of, job)) = self.copy.as_mut() else { return };
        if let Some(outcome) = job.try_finish() {
            if let Ok(copy) = outcome {
                self.doc.adopt_copy(copy, of);
            }
            self.copy = None;
        }
    }

    /// The position shown.
    #[must_use]
    pub fn position(&self) -> &Chess {
        &self.position
    }

    /// Plays `m` (if legal) and shows the position after it.
    pub fn play(&mut self, m: Move) {
        if self.position.is_legal(m) {
            self.position.play_unchecked(m);
            self.line.push(m);
        }
    }

    /// Takes back the last move of the line.
    pub fn back(&mut self) {
        if self.line.pop().is_some() {
            self.position = Chess::default();
            for &m in &self.line {
                self.position.play_unchecked(m);
            }
        }
    }

    /// Undoes the last edit.
    pub fn undo(&mut self) {
        self.doc.undo();
    }

    /// Redoes the last undone edit.
    pub fn redo(&mut self) {
        self.doc.redo();
    }

    /// Follows the book from the position shown, breadth first, to the nearest position where
    /// `side` is to move and more than one book move may be played, and shows it (with its
    /// line). Returns whether one was found within [`CHOICE_PLIES`] plies.
    pub fn next_choice(&mut self, side: Color, settings: &BookSettings) -> bool {
        let mut queue = VecDeque::from([(self.position.clone(), self.line.clone())]);
        let mut seen = HashSet::from([book_key(&self.position)]);
        while let Some((pos, line)) = queue.pop_front() {
            let candidates = self.doc.book().explain(&pos, settings);
            let playable: Vec<Move> = candidates.iter().filter(|c| c.is_playable()).map(|c| c.mv).collect();
            if line.len() > self.line.len() && pos.turn() == side && playable.len() > 1 {
                self.position = pos;
                self.line = line;
                return true;
            }
            if line.len() - self.line.len() >= CHOICE_PLIES {
                continue;
            }
            for m in playable {
                let mut next = pos.clone();
                next.play_unchecked(m);
                if seen.insert(book_key(&next)) {
                    let mut longer = line.clone();
                    longer.push(m);
                    queue.push_back((next, longer));
                }
            }
        }
        false
    }

    /// The book moves of the position with their chances under `settings`.
    #[must_use]
    pub fn candidates(&self, settings: &BookSettings) -> Vec<Candidate> {
        self.doc.book().explain(&self.position, settings)
    }

    /// An arrow for each book move with a chance, as wide as its probability, labelled with it.
    #[must_use]
    pub fn arrows(&self, settings: &BookSettings) -> Vec<Arrow> {
        self.candidates(settings)
            .iter()
            .filter(|c| c.is_playable())
            .map(|c| {
                let mut arrow =
                    Arrow::from_move(&c.mv, Arrow::BOOK, Some(format!("{:.0}%", c.probability * 100.0)));
                arrow.width = Arrow::WIDTH * (0.35 + 0.65 * c.probability as f32);
                arrow
            })
            .collect()
    }

    /// "N positions, M moves": counted again only when the number of moves changed.
    fn size_text(&mut self) -> String {
        let book = self.doc.book();
        if self.size.0 != book.len() {
            self.size = (book.len(), book.positions());
        }
        format!("{} positions, {} moves", self.size.1, self.size.0)
    }

    /// The wheel turned over the `index`th arrow: its move's value goes up (or down) 5 a
    /// notch, from its probability when it had none. A spin is one step to undo.
    pub fn nudge(&mut self, index: usize, notches: f32, settings: &BookSettings) {
        if self.read_only.is_some() {
            return;
        }
        let candidates = self.candidates(settings);
        let Some(c) = candidates.iter().filter(|c| c.is_playable()).nth(index) else { return };
        let from = c.entry.user.map_or_else(|| (c.probability * 100.0).round(), f64::from);
        let value = (from + f64::from(notches.round()) * 5.0).clamp(0.0, 100.0) as u8;
        self.edit(BookEdit::set_user(&self.position, c.mv, Some(value)), true);
    }

    fn edit(&mut self, edit: BookEdit, continuing: bool) {
        self.error = None;
        let result = if continuing { self.doc.apply_continuing(edit) } else { self.doc.apply(edit) };
        self.error = result.err().map(|e| e.to_string());
    }

    /// Shows the panel.
    pub fn ui(&mut self, ui: &mut Ui, settings: &mut BookSettings, shelf: &Shelf<'_>) -> Option<BookRequest> {
        self.poll_jobs();
        let mut request = None;
        ui.heading("Opening book");
        self.files_ui(ui, shelf, &mut request);
        if let Some(why) = &self.read_only {
            ui.colored_label(ui.visuals().warn_fg_color, why);
        }
        let editable = self.read_only.is_none() && shelf.busy.is_none();
        ui.horizontal_wrapped(|ui| {
            if ui
                .add_enabled(editable && self.doc.can_undo(), egui::Button::new("Undo"))
                .on_hover_text("Ctrl+Z")
                .clicked()
            {
                self.undo();
            }
            if ui
                .add_enabled(editable && self.doc.can_redo(), egui::Button::new("Redo"))
                .on_hover_text("Ctrl+Y")
                .clicked()
            {
                self.redo();
            }
            if ui.add_enabled(!self.line.is_empty(), egui::Button::new("Back")).on_hover_text("←").clicked()
            {
                self.back();
            }
            for (side, name) in [(Color::White, "White"), (Color::Black, "Black")] {
                let button = ui.button(format!("Next choice for {name}")).on_hover_text(format!(
                    "The nearest position down the book where {name} has more than one move to choose from"
                ));
                if button.clicked() && !self.next_choice(side, settings) {
                    self.error = Some(format!("No position ahead where {name} has a choice."));
                }
            }
        });
        ui.label(line_text(&self.line));
        if let Some(error) = &self.error {
            ui.colored_label(ui.visuals().error_fg_color, error);
        }
        ui.weak(self.size_text());
        let before = *settings;
        egui::CollapsingHeader::new("Selection rules")
            .show(ui, |ui| crate::learning_settings::rules_ui(ui, settings));
        if *settings != before {
            *settings = settings.sanitized();
            request = Some(BookRequest::Rules);
        }
        ui.separator();
        let candidates = self.candidates(settings);
        let mut clicked = None;
        ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
            Grid::new("book-moves").striped(true).num_columns(5).show(ui, |ui| {
                for c in &candidates {
                    clicked = self.row_ui(ui, c, editable, &mut request).or(clicked);
                    ui.end_row();
                }
                let mut others: Vec<Move> = self
                    .position
                    .legal_moves()
                    .into_iter()
                    .filter(|m| !candidates.iter().any(|c| c.mv == *m))
                    .collect();
                others.sort_by_key(|m| San::from_move(&self.position, *m).to_string());
                for m in others {
                    let san = San::from_move(&self.position, m).to_string();
                    if ui.button(&san).on_hover_text("Play it").clicked() {
                        clicked = Some(m);
                    }
                    ui.weak("not in the book");
                    ui.label("");
                    ui.label("");
                    let add = ui
                        .add_enabled(editable, egui::Button::new("Add").small())
                        .on_hover_text(format!("Add {san} to the book"));
                    let label = format!("Add {san}");
                    add.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, label.clone()));
                    if add.clicked() {
                        self.edit(BookEdit::add(&self.position, m), false);
                    }
                    ui.end_row();
                }
            });
        });
        if let Some(m) = clicked {
            self.play(m);
        }
        request
    }

    /// The book's file: which book, open another, save, save as, export, play from it.
    fn files_ui(&mut self, ui: &mut Ui, shelf: &Shelf<'_>, request: &mut Option<BookRequest>) {
        if let Some(busy) = shelf.busy {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label(busy);
                if ui.button("Cancel").clicked() {
                    *request = Some(BookRequest::Cancel);
                }
            });
        }
        let idle = shelf.busy.is_none();
        let plays = self.path == shelf.playing;
        ui.horizontal_wrapped(|ui| {
            ui.add_enabled_ui(idle, |ui| {
                egui::ComboBox::from_id_salt("book-file")
                    .selected_text(file_name(&self.path))
                    .width(180.0)
                    .show_ui(ui, |ui| {
                        let mut books = vec![shelf.playing.to_path_buf()];
                        books.extend(shelf.recent.iter().filter(|p| p.as_path() != shelf.playing).cloned());
                        for path in books {
                            let mut text = file_name(&path);
                            if path == shelf.playing {
                                text.push_str(" (Kibitz plays it)");
                            }
                            let chosen = path == self.path;
                            if ui
                                .selectable_label(chosen, text)
                                .on_hover_text(path.display().to_string())
                                .clicked()
                                && !chosen
                            {
                                *request = Some(BookRequest::OpenPath(path));
                            }
                        }
                    })
                    .response
                    .on_hover_text(self.path.display().to_string())
                    .widget_info(|| {
                        let mut info = egui::WidgetInfo::labeled(egui::Role::ComboBox, true, "Books");
                        info.current_text_value = Some(file_name(&self.path));
                        info
                    });
                if ui
                    .button("Open book…")
                    .on_hover_text("A Kibitz book (.kbook) or a Polyglot book (.bin)")
                    .clicked()
                {
                    *request = Some(BookRequest::Open);
                }
            });
        });
        ui.horizontal_wrapped(|ui| {
            ui.add_enabled_ui(idle, |ui| {
                let can_save =
                    self.doc.is_dirty() && self.read_only.is_none() && self.format == BookFormat::Kibitz;
                let hover = match self.format {
                    BookFormat::Polyglot => {
                        "A Polyglot book keeps no values: save it as a Kibitz book, or export it"
                    }
                    BookFormat::Kibitz if plays => "Write the edits; Kibitz plays from them at once",
                    BookFormat::Kibitz => "Write the edits to the book's file",
                };
                if ui.add_enabled(can_save, egui::Button::new("Save book")).on_hover_text(hover).clicked() {
                    *request = Some(BookRequest::Save);
                }
                if ui.button("Save as…").on_hover_text("Write the book to a new Kibitz book file").clicked()
                {
                    *request = Some(BookRequest::SaveAs);
                }
                if ui
                    .button("Export to Polyglot…")
                    .on_hover_text(
                        "Write a Polyglot .bin: each move's weight; a value of 0 is written as weight 0",
                    )
                    .clicked()
                {
                    *request = Some(BookRequest::Export);
                }
                if plays {
                    ui.weak("Kibitz plays from this book");
                } else {
                    let can_play =
                        self.format == BookFormat::Kibitz && self.read_only.is_none() && !self.doc.is_dirty();
                    let why = if can_play {
                        "Kibitz plays and learns from this book from now on"
                    } else {
                        "Save the book (as a Kibitz book) first"
                    };
                    if ui
                        .add_enabled(can_play, egui::Button::new("Play from this book"))
                        .on_hover_text(why)
                        .clicked()
                    {
                        *request = Some(BookRequest::PlayFrom);
                    }
                }
                if self.doc.is_dirty() {
                    ui.weak("edited");
                }
            });
        });
    }

    /// One book move: returns it when its name was clicked (to play it).
    fn row_ui(
        &mut self,
        ui: &mut Ui,
        c: &Candidate,
        editable: bool,
        request: &mut Option<BookRequest>,
    ) -> Option<Move> {
        let san = San::from_move(&self.position, c.mv).to_string();
        let mut clicked = None;
        if ui.button(RichText::new(&san).strong()).on_hover_text("Play it").clicked() {
            clicked = Some(c.mv);
        }
        let chance = match c.excluded {
            None => format!("{:.1}%", c.probability * 100.0),
            Some(why) => format!("excluded: {why}"),
        };
        ui.label(RichText::new(chance).monospace()).on_hover_text(stats_text(c));
        ui.label(RichText::new(results_text(c)).monospace().weak()).on_hover_text(stats_text(c));
        let mut value = c.entry.user.map_or(-1, i32::from);
        ui.spacing_mut().slider_width = 70.0;
        let slider = ui
            .add_enabled(
                editable,
                Slider::new(&mut value, -1..=100)
                    .custom_formatter(|v, _| if v < 0.0 { "none".into() } else { format!("{v:.0}") }),
            )
            .on_hover_text(format!(
                "The user value of {san}: none (the statistics decide), 0 never ... 100 always"
            ));
        let label = format!("value of {san}");
        slider.widget_info(|| egui::WidgetInfo::slider(true, f64::from(value), label.clone()));
        if slider.changed() {
            let user = u8::try_from(value).ok();
            self.edit(BookEdit::set_user(&self.position, c.mv, user), true);
        }
        ui.horizontal(|ui| {
            ui.add_enabled_ui(editable, |ui| self.edit_buttons(ui, c, &san));
            self.taught_ui(ui, c, &san, request);
        });
        clicked
    }

    /// The games that taught Kibitz about this move, as a menu; choosing one opens it to
    /// study at the move.
    fn taught_ui(&self, ui: &mut Ui, c: &Candidate, san: &str, request: &mut Option<BookRequest>) {
        let Some(taught) = &self.taught else { return };
        let games = taught.taught_by(c.entry.key, c.entry.mv);
        if games.is_empty() {
            return;
        }
        let title = if games.len() == 1 { "1 game".to_string() } else { format!("{} games", games.len()) };
        let response = ui.menu_button(title, |ui| {
            ui.weak(format!("Kibitz's games with {san}, newest first"));
            for g in &games {
                let text = format!("{} – {}, {} {}", g.white, g.black, g.result, g.date);
                if ui.button(text).on_hover_text("Open it to study, at this move").clicked() {
                    *request = Some(BookRequest::OpenTaught(g.index, g.ply));
                }
            }
        });
        let label = format!("games that taught {san}");
        response.response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, label.clone()));
    }

    /// The NAG buttons, "Forget learned" and "Remove" of a book move.
    fn edit_buttons(&mut self, ui: &mut Ui, c: &Candidate, san: &str) {
        ui.horizontal(|ui| {
            for code in NAGS {
                let glyph = nag_symbol(Nag(code)).unwrap_or_default();
                let hover = format!("{glyph}: value {}", nag_value(code).unwrap_or_default());
                let button = ui.small_button(glyph).on_hover_text(hover);
                let label = format!("{glyph} {san}");
                button.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, label.clone()));
                if button.clicked() {
                    self.edit(BookEdit::set_user(&self.position, c.mv, nag_value(code)), false);
                }
            }
            if c.entry.learned.games > 0 || c.entry.never_play {
                let reset = ui.small_button("Forget learned").on_hover_text(learned_text(c));
                if reset.clicked() {
                    self.edit(BookEdit::reset_learned(&self.position, c.mv), false);
                }
            }
            let remove = ui.small_button("×").on_hover_text(format!("Remove {san} and its subtree"));
            let label = format!("Remove {san}");
            remove.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, label.clone()));
            if remove.clicked() {
                self.edit(BookEdit::remove(&self.position, c.mv), false);
            }
        });
    }
}

fn line_text(line: &[Move]) -> String {
    if line.is_empty() { "The initial position".into() } else { san_line(&Chess::default(), line) }
}

/// The move's games and results, and what Kibitz learned with it: "120 +50 =40 -30 · L +1 =0 -2".
fn results_text(c: &Candidate) -> String {
    let f = c.entry.fixed;
    let mut text = if f.games > 0 {
        format!("{} +{} ={} -{}", f.games, f.wins, f.draws, f.losses)
    } else if c.entry.weight > 0 {
        format!("weight {}", c.entry.weight)
    } else {
        String::new()
    };
    let l = c.entry.learned;
    if l.games > 0 {
        text.push_str(&format!(" · learned +{} ={} -{}", l.wins, l.draws, l.losses));
    }
    if c.entry.never_play {
        text.push_str(" · never again");
    }
    text
}

fn stats_text(c: &Candidate) -> String {
    let f = c.entry.fixed;
    format!("{} games: +{} ={} -{}; {}", f.games, f.wins, f.draws, f.losses, learned_text(c))
}

fn learned_text(c: &Candidate) -> String {
    let l = c.entry.learned;
    if l.games == 0 && !c.entry.never_play {
        return "nothing learned".into();
    }
    let never = if c.entry.never_play { "; never play again (lost with it)" } else { "" };
    format!("learned from {} of Kibitz's games: +{} ={} -{}{never}", l.games, l.wins, l.draws, l.losses)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kibitz_engine::encode_move;

    /// 1. e4 e5 2. Nf3 or 2. Bc4: White's first choice is at move 2.
    fn book() -> Book {
        let mut book = Book::new();
        for line in ["e4 e5 Nf3", "e4 e5 Bc4"] {
            let mut pos = Chess::default();
            for san in line.split_whitespace() {
                let m =
                    san.parse::<San>().ok().and_then(|s| s.to_move(&pos).ok()).expect("legal in the test");
                book.entry_mut(book_key(&pos), encode_move(m)).fixed.games = 10;
                pos.play_unchecked(m);
            }
        }
        book
    }

    #[test]
    fn next_choice_finds_the_nearest_position_with_two_moves() {
        let settings = BookSettings::default();
        let mut view = BookView::new(book());
        assert!(!view.next_choice(Color::Black, &settings), "Black never chooses in this book");
        assert!(view.line.is_empty(), "nothing moved");
        assert!(view.next_choice(Color::White, &settings));
        assert_eq!(line_text(&view.line), "1. e4 e5");
        assert_eq!(view.candidates(&settings).len(), 2);
        assert!(!view.next_choice(Color::White, &settings), "no other choice further down");
    }
}
