//! The Book workspace: the player's opening book as Kibitz plays it, position by position.
//! Every legal move of the position on the board is a row, book moves first: its user value
//! as a bar to drag, the probability of being played under the current selection rules, its
//! games and results, what was learned, and why it is excluded. The NAG buttons set the value
//! as annotated PGN does; every change shows all the new probabilities at once, and undo and
//! redo (Ctrl+Z, Ctrl+Y) step through the edits. Clicking a move plays it and follows the line.
//! Save hands the book to Kibitz's engine and writes it.

use egui::{Grid, RichText, ScrollArea, Slider, Ui};
use std::collections::{HashSet, VecDeque};

use kibitz_engine::{
    Book, BookDocument, BookEdit, BookSettings, Candidate, Nag, book_key, nag_symbol, nag_value, san_line,
};
use shakmaty::san::San;
use shakmaty::{Chess, Color, Move, Position};

use crate::board_marks::Arrow;

/// How far "next choice" looks ahead, in plies.
pub const CHOICE_PLIES: usize = 40;

/// The NAG buttons' codes, best first: `!!` `!` `!?` `?!` `?` `??`.
const NAGS: [u8; 6] = [3, 1, 5, 6, 2, 4];

/// What the panel asks of the app.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BookRequest {
    /// Hand the edited book to the engine and write it.
    Save,
    /// The selection rules changed: keep them and give them to the engine.
    Rules,
}

/// The book being edited and the line shown.
pub struct BookView {
    doc: BookDocument,
    line: Vec<Move>,
    position: Chess,
    error: Option<String>,
}

impl BookView {
    /// A view of `book` at the initial position.
    #[must_use]
    pub fn new(book: Book) -> Self {
        BookView { doc: BookDocument::new(book), line: Vec::new(), position: Chess::default(), error: None }
    }

    /// The position shown.
    #[must_use]
    pub fn position(&self) -> &Chess {
        &self.position
    }

    /// The book as edited.
    #[must_use]
    pub fn book(&self) -> &Book {
        self.doc.book()
    }

    /// The edits are saved.
    pub fn mark_saved(&mut self) {
        self.doc.mark_saved();
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

    fn edit(&mut self, edit: BookEdit, continuing: bool) {
        self.error = None;
        let result = if continuing { self.doc.apply_continuing(edit) } else { self.doc.apply(edit) };
        self.error = result.err().map(|e| e.to_string());
    }

    /// Shows the panel.
    pub fn ui(&mut self, ui: &mut Ui, settings: &mut BookSettings) -> Option<BookRequest> {
        let mut request = None;
        ui.heading("Opening book");
        ui.horizontal_wrapped(|ui| {
            if ui
                .add_enabled(self.doc.can_undo(), egui::Button::new("Undo"))
                .on_hover_text("Ctrl+Z")
                .clicked()
            {
                self.undo();
            }
            if ui
                .add_enabled(self.doc.can_redo(), egui::Button::new("Redo"))
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
            let save = ui.add_enabled(self.doc.is_dirty(), egui::Button::new("Save book"));
            if save.on_hover_text("Kibitz plays from the edited book at once").clicked() {
                request = Some(BookRequest::Save);
            }
            if self.doc.is_dirty() {
                ui.weak("edited");
            }
        });
        ui.label(line_text(&self.line));
        if let Some(error) = &self.error {
            ui.colored_label(ui.visuals().error_fg_color, error);
        }
        ui.weak(format!("{} positions, {} moves", self.doc.book().positions(), self.doc.book().len()));
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
            Grid::new("book-moves").striped(true).num_columns(4).show(ui, |ui| {
                for c in &candidates {
                    clicked = self.row_ui(ui, c).or(clicked);
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
                    let add = ui.small_button("Add").on_hover_text(format!("Add {san} to the book"));
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

    /// One book move: returns it when its name was clicked (to play it).
    fn row_ui(&mut self, ui: &mut Ui, c: &Candidate) -> Option<Move> {
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
        let mut value = c.entry.user.map_or(-1, i32::from);
        ui.spacing_mut().slider_width = 80.0;
        let slider = ui
            .add(
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
            if ui
                .small_button(format!("Remove {san}"))
                .on_hover_text("Remove the move and its subtree")
                .clicked()
            {
                self.edit(BookEdit::remove(&self.position, c.mv), false);
            }
        });
        clicked
    }
}

fn line_text(line: &[Move]) -> String {
    if line.is_empty() { "The initial position".into() } else { san_line(&Chess::default(), line) }
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
