//! The learning and book settings panel: Crafty's `learn` bits (book, position and result
//! learning), Terra's PostBook, forgetting what was learned (Crafty's `import ... clear`), and
//! how the book chooses its moves (Terra's or Crafty's rules).

use std::ops::RangeInclusive;

use egui::{Context, DragValue, Id, Modal, ScrollArea, Ui};
use kibitz_engine::{BookMode, BookSettings, LearnFlags, RandomType};

use crate::learning::LearnedSummary;

/// The switches and book settings the panel edits, as the settings keep them.
#[derive(Clone, Debug, PartialEq)]
pub struct LearningChoices {
    /// Kibitz plays its opening moves from its book.
    pub own_book: bool,
    /// Book, position and result learning.
    pub flags: LearnFlags,
    /// Terra's PostBook, with book learning.
    pub postbook: bool,
    /// How the book chooses.
    pub book: BookSettings,
}

impl Default for LearningChoices {
    fn default() -> Self {
        let settings = crate::settings::Settings::default();
        LearningChoices {
            own_book: settings.own_book,
            flags: LearnFlags::from_bits(settings.learn),
            postbook: settings.postbook,
            book: settings.book,
        }
    }
}

/// What the dialog asks the app to do.
pub enum LearningDialogResult {
    /// Keep it open.
    Open,
    /// Close without changes.
    Cancel,
    /// Use these settings now, and save them.
    Apply(LearningChoices),
    /// Forget everything learned (confirmed); the dialog stays open.
    Clear,
}

/// The dialog, editing a copy of the settings.
pub struct LearningDialog {
    draft: LearningChoices,
    /// How much has been learned, as the app last reported it.
    pub summary: LearnedSummary,
    /// The player asked to clear the learned data and has not confirmed yet.
    confirm_clear: bool,
}

impl LearningDialog {
    /// A dialog on a copy of `choices`, showing how much has been learned.
    #[must_use]
    pub fn new(choices: LearningChoices, summary: LearnedSummary) -> Self {
        LearningDialog { draft: choices, summary, confirm_clear: false }
    }

    /// Shows the dialog.
    pub fn ui(&mut self, ctx: &Context) -> LearningDialogResult {
        let mut result = LearningDialogResult::Open;
        let id = Id::unique("learning-settings");
        // Anchored at the top, so that switching between Terra's and Crafty's rules (which
        // changes the height) leaves the controls where they were.
        let area = Modal::default_area(id).anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, 40.0));
        let modal = Modal::new(id).area(area).show(ctx, |ui| {
            ui.set_width(460.0);
            ui.heading("Learning and book");
            let max_height = (ctx.content_rect().height() - 180.0).max(200.0);
            ScrollArea::vertical().max_height(max_height).show(ui, |ui| {
                self.learning_ui(ui, &mut result);
                ui.separator();
                book_ui(ui, &mut self.draft);
            });
            ui.separator();
            ui.weak("Changes apply from Kibitz's next move on.");
            ui.horizontal(|ui| {
                if ui.button("Apply").clicked() {
                    result = LearningDialogResult::Apply(self.draft.clone());
                }
                if ui.button("Defaults").clicked() {
                    self.draft = LearningChoices::default();
                }
                if ui.button("Cancel").clicked() {
                    result = LearningDialogResult::Cancel;
                }
            });
        });
        if modal.should_close() && matches!(result, LearningDialogResult::Open) {
            result = LearningDialogResult::Cancel;
        }
        result
    }

    fn learning_ui(&mut self, ui: &mut Ui, result: &mut LearningDialogResult) {
        ui.strong("What Kibitz learns from its games");
        let d = &mut self.draft;
        ui.checkbox(&mut d.flags.book, "Book learning: how Kibitz's book moves fared")
            .on_hover_text("Crafty's learn bit 1, Terra's dynamic values: results and scores of the book moves Kibitz played");
        ui.indent("postbook", |ui| {
            ui.add_enabled(
                d.flags.book,
                egui::Checkbox::new(&mut d.postbook, "PostBook: Kibitz's first moves after the book"),
            )
            .on_hover_text(
                "Terra's PostBook: avoid moves that fared badly after the book, prefer the best one when the search agrees",
            );
        });
        ui.checkbox(&mut d.flags.position, "Position learning: positions where Kibitz's score dropped")
            .on_hover_text("Crafty's learn bit 2: the positions seed the search in later games");
        ui.checkbox(&mut d.flags.result, "Result learning: after a loss, never repeat the last book choice")
            .on_hover_text("Crafty's learn bit 4");
        let s = self.summary;
        ui.weak(format!(
            "Learned so far: {}, {}, {}.",
            count(s.book_moves, "book move"),
            count(s.positions, "position"),
            count(s.postbook_moves, "PostBook move")
        ));
        if self.confirm_clear {
            egui::Frame::group(ui.style()).show(ui, |ui| {
                ui.label(
                    "Forget everything Kibitz learned from its games? The book's own statistics and your values stay.",
                );
                ui.horizontal(|ui| {
                    if ui.button("Yes, forget it").clicked() {
                        self.confirm_clear = false;
                        *result = LearningDialogResult::Clear;
                    }
                    if ui.button("Keep it").clicked() {
                        self.confirm_clear = false;
                    }
                });
            });
        } else if ui.button("Clear learned data").clicked() {
            self.confirm_clear = true;
        }
    }
}

/// The book's switch, its rules and their numbers.
fn book_ui(ui: &mut Ui, d: &mut LearningChoices) {
    ui.strong("Opening book");
    ui.checkbox(&mut d.own_book, "Play from the opening book");
    ui.add_enabled_ui(d.own_book, |ui| rules_ui(ui, &mut d.book));
}

/// How the book chooses: Terra's or Crafty's rules and their numbers (here and in the Book
/// workspace, where every change shows the new probabilities at once).
pub fn rules_ui(ui: &mut Ui, b: &mut BookSettings) {
    {
        ui.horizontal(|ui| {
            ui.radio_value(&mut b.mode, BookMode::Terra, "Terra's rules");
            ui.radio_value(&mut b.mode, BookMode::Crafty, "Crafty's rules");
        });
        match b.mode {
            BookMode::Terra => {
                ui.label("How a move's value is found (RandomType)");
                ui.indent("random-type", |ui| {
                    for (value, text) in [
                        (RandomType::Frequency, "Frequency in the book's games"),
                        (RandomType::LearnedOrFrequency, "Learned win%, else frequency"),
                        (RandomType::LearnedOrWinPct, "Learned win%, else win%"),
                        (RandomType::Best, "Best value, no randomness"),
                    ] {
                        ui.radio_value(&mut b.random_type, value, text);
                    }
                });
                egui::Grid::new("terra-numbers").num_columns(2).show(ui, |ui| {
                    let pct = BookSettings::PCT_RANGE;
                    real(ui, "Lowest win% of a move (BookLimit)", &mut b.book_limit, pct.clone(), 0.5);
                    let games = BookSettings::BOOK_GAMES_RANGE;
                    whole(ui, "Fewest games of a move (MinBookGames)", &mut b.min_book_games, games);
                    let learned = BookSettings::LEARNED_GAMES_RANGE;
                    whole(ui, "Learned games that count (MinTerraGames)", &mut b.min_learned_games, learned);
                    real(ui, "Avoid below this learned win% (TerraLim)", &mut b.learned_limit, pct, 0.5);
                });
            }
            BookMode::Crafty => {
                let mut random = b.crafty_random == 1;
                ui.checkbox(&mut random, "Random choice (book random 1); off: search among the book moves");
                b.crafty_random = u8::from(random);
                let w = &mut b.weights;
                egui::Grid::new("crafty-numbers").num_columns(2).show(ui, |ui| {
                    let label = ui.label("Book width");
                    let (lo, hi) = (*BookSettings::WIDTH_RANGE.start(), *BookSettings::WIDTH_RANGE.end());
                    ui.add(DragValue::new(&mut b.width).range(lo..=hi)).labelled_by(label.id);
                    ui.end_row();
                    ui.label("Weights (bookw):");
                    ui.end_row();
                    let range = BookSettings::WEIGHT_RANGE;
                    real(ui, "Frequency", &mut w.freq, range.clone(), 0.01);
                    real(ui, "Win/loss ratio", &mut w.ratio, range.clone(), 0.01);
                    real(ui, "Evaluation", &mut w.eval, range.clone(), 0.01);
                    real(ui, "Learned score", &mut w.learn, range, 0.01);
                });
            }
        }
    }
}

/// One grid row: a label and the number field it names.
fn real(ui: &mut Ui, label: &str, value: &mut f64, range: RangeInclusive<f64>, speed: f64) {
    let label = ui.label(label);
    ui.add(DragValue::new(value).range(range).speed(speed)).labelled_by(label.id);
    ui.end_row();
}

/// One grid row with a whole number.
fn whole(ui: &mut Ui, label: &str, value: &mut u32, range: RangeInclusive<u32>) {
    let label = ui.label(label);
    ui.add(DragValue::new(value).range(range)).labelled_by(label.id);
    ui.end_row();
}

/// "1 position", "3 positions".
fn count(n: usize, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}
