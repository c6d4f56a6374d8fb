//! The "New game" dialog: colour, strength and start position.

use egui::{Context, Id, Modal, TextEdit};
use kibitz_engine::{GameRecord, Level};
use shakmaty::Color;

use crate::action::{Action, NewGameRequest};
use crate::settings::ColorChoice;

/// The dialog's state while it is open.
pub struct NewGameDialog {
    /// The colour asked for.
    pub color: ColorChoice,
    /// The strength asked for.
    pub level: Level,
    /// A FEN to start from; empty for the initial position.
    pub fen: String,
    error: Option<String>,
}

impl NewGameDialog {
    /// A dialog preset with the last choices.
    #[must_use]
    pub fn new(color: ColorChoice, level: Level) -> Self {
        NewGameDialog { color, level, fen: String::new(), error: None }
    }

    /// Shows the dialog. Returns `false` once it should close.
    pub fn ui(&mut self, ctx: &Context, actions: &mut Vec<Action>) -> bool {
        let mut open = true;
        let modal = Modal::new(Id::unique("new-game")).show(ctx, |ui| {
            ui.set_width(420.0);
            ui.heading("New game");
            ui.add_space(6.0);
            ui.horizontal(|ui| {
                ui.label("Play as");
                ui.radio_value(&mut self.color, ColorChoice::White, "White");
                ui.radio_value(&mut self.color, ColorChoice::Black, "Black");
                ui.radio_value(&mut self.color, ColorChoice::Random, "Random colour");
            });
            ui.horizontal(|ui| {
                ui.label("Strength");
                for level in Level::ALL {
                    ui.radio_value(&mut self.level, level, level.label());
                }
            });
            ui.add_space(6.0);
            let label = ui.label("Start from FEN (leave empty for the initial position)");
            ui.add(
                TextEdit::singleline(&mut self.fen)
                    .desired_width(f32::INFINITY)
                    .hint_text("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            )
            .labelled_by(label.id);
            if let Some(error) = &self.error {
                ui.colored_label(ui.visuals().error_fg_color, error);
            }
            ui.add_space(6.0);
            ui.horizontal(|ui| {
                if ui.button("Start").clicked() {
                    match self.request() {
                        Ok(request) => {
                            actions.push(Action::NewGame(request));
                            open = false;
                        }
                        Err(e) => self.error = Some(e),
                    }
                }
                if ui.button("Cancel").clicked() {
                    open = false;
                }
            });
        });
        open && !modal.should_close()
    }

    fn request(&self) -> Result<NewGameRequest, String> {
        let game = if self.fen.trim().is_empty() {
            GameRecord::new()
        } else {
            GameRecord::from_fen(&self.fen).map_err(|e| e.to_string())?
        };
        let human = match self.color {
            ColorChoice::White => Color::White,
            ColorChoice::Black => Color::Black,
            ColorChoice::Random => Color::from_white(rand::random::<bool>()),
        };
        Ok(NewGameRequest { human, level: self.level, game })
    }
}
