//! The "New game" dialog: colour, opponent (Kibitz at a level, or a configured external
//! engine), or two engines to watch, and the start position.

use egui::{ComboBox, Context, Id, Modal, TextEdit, Ui};
use kibitz_engine::{GameRecord, Level};
use shakmaty::{ByColor, Color};

use crate::action::{Action, NewGameRequest, SeatChoice};
use crate::settings::{ColorChoice, MAX_HINTS, Settings};

/// What a level means, for its tooltip.
fn level_hint(level: Level) -> &'static str {
    match level {
        Level::Elo(_) => {
            "Rated against Stockfish's UCI_Elo (docs/STRENGTH.md); it sees less, \
                          thinks less and picks among the good moves as a player of that rating might"
        }
        Level::Full => "Kibitz as strong as it plays, on the game's clock",
    }
}

/// The dialog's state while it is open.
pub struct NewGameDialog {
    /// The colour asked for, or watching two engines.
    pub color: ColorChoice,
    /// Kibitz's strength.
    pub level: Level,
    /// The opponent: an engine's name, or `None` for Kibitz.
    pub opponent: Option<String>,
    /// The engines to watch (White, Black): names, `None` for Kibitz.
    pub watch: [Option<String>; 2],
    /// A FEN to start from; empty for the initial position.
    pub fen: String,
    /// How many hints the game allows (0: none).
    pub hints: u32,
    /// The names of the configured engines.
    engines: Vec<String>,
    /// The clocks the game will have, in words.
    clocks: String,
    error: Option<String>,
}

impl NewGameDialog {
    /// A dialog preset with the last choices.
    #[must_use]
    pub fn new(settings: &Settings) -> Self {
        let engines: Vec<String> = settings.engines.iter().map(|e| e.name.clone()).collect();
        let known = |name: &Option<String>| name.clone().filter(|n| engines.contains(n));
        NewGameDialog {
            color: settings.color,
            level: settings.level,
            opponent: known(&settings.opponent),
            watch: [known(&settings.watch[0]), known(&settings.watch[1])],
            fen: String::new(),
            hints: settings.hints_per_game,
            engines,
            clocks: match settings.clock.controls() {
                Some((player, engine)) => {
                    format!(
                        "Clocks: yours {}, the engines' {} (see Clock settings).",
                        player.to_pgn(),
                        engine.to_pgn()
                    )
                }
                None => "No clock (see Clock settings).".into(),
            },
            error: None,
        }
    }

    /// Shows the dialog. Returns `false` once it should close.
    pub fn ui(&mut self, ctx: &Context, actions: &mut Vec<Action>) -> bool {
        let mut open = true;
        let modal = Modal::new(Id::unique("new-game")).show(ctx, |ui| {
            ui.set_width(440.0);
            ui.heading("New game");
            ui.add_space(6.0);
            ui.horizontal(|ui| {
                ui.label("Play as");
                ui.radio_value(&mut self.color, ColorChoice::White, "White");
                ui.radio_value(&mut self.color, ColorChoice::Black, "Black");
                ui.radio_value(&mut self.color, ColorChoice::Random, "Random colour");
            });
            ui.radio_value(&mut self.color, ColorChoice::Watch, "Watch two engines play each other");
            if self.color == ColorChoice::Watch {
                let engines = self.engines.clone();
                ui.horizontal(|ui| engine_combo(ui, "White engine", &engines, &mut self.watch[0]));
                ui.horizontal(|ui| engine_combo(ui, "Black engine", &engines, &mut self.watch[1]));
            } else {
                ui.horizontal_wrapped(|ui| {
                    ui.label("Opponent");
                    ui.radio_value(&mut self.opponent, None, "Kibitz");
                    for name in &self.engines {
                        ui.radio_value(&mut self.opponent, Some(name.clone()), name);
                    }
                });
                if self.engines.is_empty() {
                    ui.weak("Add UCI or xboard engines under \"Engines\" to play them.");
                }
            }
            ui.horizontal_wrapped(|ui| {
                ui.label("Kibitz's strength");
                for level in Level::all() {
                    ui.radio_value(&mut self.level, level, level.label()).on_hover_text(level_hint(level));
                }
            });
            ui.weak(&self.clocks);
            if self.color != ColorChoice::Watch {
                ui.horizontal(|ui| {
                    let label = ui.label("Hints per game");
                    ui.add(egui::DragValue::new(&mut self.hints).range(0..=MAX_HINTS)).labelled_by(label.id);
                    ui.weak("(0 turns hints off; H asks for one)");
                });
            }
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
        let choice = |name: &Option<String>| name.clone().map_or(SeatChoice::Kibitz, SeatChoice::Engine);
        let human = match self.color {
            ColorChoice::White | ColorChoice::Watch => Color::White,
            ColorChoice::Black => Color::Black,
            ColorChoice::Random => Color::from_white(rand::random::<bool>()),
        };
        if self.color == ColorChoice::Watch {
            let seats = ByColor { white: choice(&self.watch[0]), black: choice(&self.watch[1]) };
            return Ok(NewGameRequest { human, level: self.level, game, seats });
        }
        Ok(NewGameRequest::against(human, choice(&self.opponent), self.level, game))
    }
}

/// A combo box choosing Kibitz or one of the configured engines.
fn engine_combo(ui: &mut Ui, label: &str, engines: &[String], chosen: &mut Option<String>) {
    let caption = ui.label(label);
    let text = chosen.clone().unwrap_or_else(|| "Kibitz".into());
    ComboBox::from_id_salt(label)
        .selected_text(text)
        .show_ui(ui, |ui| {
            ui.selectable_value(chosen, None, "Kibitz");
            for name in engines {
                ui.selectable_value(chosen, Some(name.clone()), name);
            }
        })
        .response
        .labelled_by(caption.id);
}
