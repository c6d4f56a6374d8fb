//! The side panel: whose turn it is, the engine's line, the move list, move entry and the
//! game buttons.

use std::time::Duration;

use egui::{Key, RichText, ScrollArea, TextEdit, Ui};
use kibitz_engine::{Clock, GameRecord, NodeId, Termination};
use shakmaty::{Color, Position};

use crate::action::Action;
use crate::clock_view::clock_ui;
use crate::move_tree::{edit_toolbar, move_tree_ui};

/// An engine's line as the panel shows it.
pub struct EngineLine<'a> {
    /// The engine's name.
    pub name: &'a str,
    /// Its current or last line, already formatted.
    pub line: Option<&'a str>,
    /// The last thing it said for the user.
    pub said: Option<&'a str>,
}

/// What the side panel shows this frame.
pub struct PanelModel<'a> {
    /// The game.
    pub game: &'a GameRecord,
    /// The move shown on the board.
    pub current: NodeId,
    /// Whether the game is a study (browse, annotate, add variations) rather than a game.
    pub study: bool,
    /// The ply on the board (`game.len()` when live).
    pub viewing: usize,
    /// The player's colour.
    pub human: Color,
    /// The name of each side's player ("You", "Kibitz", an engine's name).
    pub names: [&'a str; 2],
    /// Each engine's current or last line.
    pub lines: Vec<EngineLine<'a>>,
    /// Whether two engines play and the player watches.
    pub watching: bool,
    /// Messages for the player.
    pub notices: &'a [String],
    /// The game's clock, if it has one.
    pub clock: Option<&'a Clock>,
    /// Clocks turn red under this.
    pub warn: Duration,
    /// Whether the game is still being played.
    pub live: bool,
    /// The draw the player may claim now.
    pub claimable: Option<Termination>,
    /// The engine's standing draw offer, in its words ("Kibitz: I offer a draw: ...").
    pub engine_offer: Option<&'a str>,
    /// Whether the player's own offer awaits Kibitz's answer.
    pub offer_pending: bool,
    /// The hints left in the game being played and how many it allows; `None` in a study
    /// or while watching.
    pub hints: Option<(u32, u32)>,
    /// The hint shown on the board, in words.
    pub hint: Option<String>,
    /// The folder of the Syzygy tablebases, if the user chose one.
    pub tablebases: Option<&'a std::path::Path>,
    /// Whether Kibitz thinks on the player's time.
    pub ponder: bool,
}

impl PanelModel<'_> {
    /// The name of `side`'s player.
    #[must_use]
    pub fn name(&self, side: Color) -> &str {
        self.names[usize::from(side == Color::Black)]
    }
}

/// The side panel's own state: the move being typed and its error.
#[derive(Default)]
pub struct SidePanel {
    /// The text in the move entry field.
    pub move_text: String,
    /// Why the last typed move was refused.
    pub move_error: Option<String>,
    /// The comment being edited for the current move of a study.
    pub comment: String,
    focus_entry: bool,
}

impl SidePanel {
    /// Shows the panel and collects the player's actions.
    pub fn ui(&mut self, ui: &mut Ui, model: &PanelModel<'_>, actions: &mut Vec<Action>) {
        if let Some(clock) = model.clock {
            egui::Panel::top("engine-clock")
                .show(ui, |ui| clock_ui(ui, clock, !model.human, model.name(!model.human), model.warn));
            egui::Panel::bottom("player-clock").show(ui, |ui| {
                ui.horizontal(|ui| {
                    clock_ui(ui, clock, model.human, model.name(model.human), model.warn);
                    let running = clock.is_started() && !clock.is_paused();
                    let pause =
                        if clock.is_started() && clock.is_paused() { "Resume clock" } else { "Pause clock" };
                    let enabled = model.live && clock.is_started() && (running || clock.is_paused());
                    if ui.add_enabled(enabled, egui::Button::new(pause)).clicked() {
                        actions.push(Action::ToggleClock);
                    }
                });
            });
        }
        egui::CentralPanel::default().show(ui, |ui| self.body(ui, model, actions));
    }

    fn body(&mut self, ui: &mut Ui, model: &PanelModel<'_>, actions: &mut Vec<Action>) {
        notices_ui(ui, model.notices, actions);
        ui.heading(status_text(model));
        ui.horizontal_wrapped(|ui| {
            if ui.button("New game").clicked() {
                actions.push(Action::ShowNewGame);
            }
            let can_take_back = !model.game.is_empty() && !model.watching;
            if ui.add_enabled(can_take_back, egui::Button::new("Take back")).clicked() {
                actions.push(Action::TakeBack);
            }
            if ui.button("Flip").on_hover_text("Turn the board around (F)").clicked() {
                actions.push(Action::Flip);
            }
            if ui.button("Open game").clicked() {
                actions.push(Action::OpenGame);
            }
            if ui.button("Save game").clicked() {
                actions.push(Action::SaveGame);
            }
        });
        ui.horizontal_wrapped(|ui| {
            if ui.button("Copy FEN").clicked() {
                actions.push(Action::CopyFen);
            }
            if ui.button("Copy PGN").clicked() {
                actions.push(Action::CopyPgn);
            }
            if ui.button("Save position").clicked() {
                actions.push(Action::SavePosition);
            }
            if ui.button("Set up position").clicked() {
                actions.push(Action::SetUpPosition);
            }
            if model.study && ui.button("Play from here").clicked() {
                actions.push(Action::PlayFromHere);
            }
            let analyze = ui.add_enabled(!model.game.is_empty(), egui::Button::new("Analyze game"));
            if analyze.on_hover_text("Annotate the game's moves with an engine").clicked() {
                actions.push(Action::ShowAnnotate);
            }
            if ui.button("Keys (?)").clicked() {
                actions.push(Action::ToggleKeys);
            }
        });
        ui.horizontal_wrapped(|ui| {
            let live = model.live && !model.watching;
            let can_offer = live && !model.offer_pending && model.engine_offer.is_none();
            if ui.add_enabled(can_offer, egui::Button::new("Offer draw")).clicked() {
                actions.push(Action::OfferDraw);
            }
            if ui.add_enabled(live, egui::Button::new("Resign")).clicked() {
                actions.push(Action::AskResign);
            }
            if let Some((left, allowed)) = model.hints {
                let my_turn = model.game.position().turn() == model.human;
                let hint = ui.add_enabled(live && my_turn && left > 0, egui::Button::new("Hint"));
                let words = if allowed == 0 {
                    "Hints are off (see New game)".to_string()
                } else {
                    format!("{left} of {allowed} hints left: the first press shows the piece, the second the move (H)")
                };
                if hint.on_hover_text(words).on_disabled_hover_text("No hint now").clicked() {
                    actions.push(Action::Hint);
                }
            }
            let claim = ui.add_enabled(live && model.claimable.is_some(), egui::Button::new("Claim draw"));
            if claim.clicked() {
                actions.push(Action::ClaimDraw);
            }
            if let Some(t) = model.claimable {
                claim.on_hover_text(format!("A draw by {} may be claimed now", t.describe()));
            }
            if ui.button("Clock settings").clicked() {
                actions.push(Action::ShowClockSettings);
            }
            if ui.button("Draw and resign settings").clicked() {
                actions.push(Action::ShowPolicySettings);
            }
            if ui.button("Learning and book settings").clicked() {
                actions.push(Action::ShowLearningSettings);
            }
            if ui.button("Engines").clicked() {
                actions.push(Action::ShowEngines);
            }
            if ui.button("Test suite").clicked() {
                actions.push(Action::ShowTestSuite);
            }
            let mut ponder = model.ponder;
            let hover = "Kibitz thinks on your time about the reply it expects (Crafty's ponder on)";
            if ui.checkbox(&mut ponder, "Think on my time").on_hover_text(hover).changed() {
                actions.push(Action::SetPonder(ponder));
            }
            let tables = match model.tablebases {
                Some(folder) => format!("Syzygy tables: {}. Choose another folder.", folder.display()),
                None => "Choose a folder of Syzygy tables (KRvK.rtbw, ...)".to_owned(),
            };
            let why = "Kibitz at full strength, analysis, annotations and hints play endings by them; tournaments adjudicate by them.";
            if ui.button("Tablebases").on_hover_text(format!("{tables}\n{why}")).clicked() {
                actions.push(Action::PickTablebases);
            }
        });
        if let Some(hint) = &model.hint {
            ui.label(RichText::new(hint).color(ui.visuals().hyperlink_color));
        }
        if model.offer_pending {
            ui.weak(format!(
                "You offered a draw; {} answers after it has thought about its move.",
                model.name(!model.human)
            ));
        }
        if let Some(offer) = model.engine_offer {
            egui::Frame::group(ui.style()).show(ui, |ui| {
                ui.label(RichText::new(offer).strong());
                ui.horizontal(|ui| {
                    if ui.button("Accept").clicked() {
                        actions.push(Action::AcceptDraw);
                    }
                    if ui.button("Decline").clicked() {
                        actions.push(Action::DeclineDraw);
                    }
                });
            });
        }
        ui.separator();
        self.move_entry(ui, model, actions);
        ui.separator();
        for engine in &model.lines {
            ui.label(RichText::new(engine.name).strong());
            match engine.line {
                Some(line) => ui.label(RichText::new(line).monospace()),
                None => ui.weak("Waiting for its turn."),
            };
            if let Some(said) = engine.said {
                ui.weak(said);
            }
        }
        if !model.lines.is_empty() {
            ui.separator();
        }
        if model.study {
            edit_toolbar(ui, model.game, model.current, &mut self.comment, actions);
            ui.separator();
        }
        ui.horizontal(|ui| {
            ui.label(RichText::new("Moves").strong());
            if !model.study && model.viewing < model.game.len() {
                ui.weak(format!("viewing move {} of {}: End returns", model.viewing, model.game.len()));
            }
        });
        ScrollArea::vertical().auto_shrink([false, false]).stick_to_bottom(!model.study).show(ui, |ui| {
            move_tree_ui(ui, model.game, model.current, model.study, actions);
        });
    }

    fn move_entry(&mut self, ui: &mut Ui, model: &PanelModel<'_>, actions: &mut Vec<Action>) {
        ui.horizontal(|ui| {
            let label = ui.label("Move");
            let edit = TextEdit::singleline(&mut self.move_text)
                .hint_text("Nf3 or g1f3, then Enter")
                .desired_width(160.0);
            let response = ui.add(edit).labelled_by(label.id);
            if self.focus_entry {
                response.request_focus();
                self.focus_entry = false;
            }
            if response.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter)) {
                let text = std::mem::take(&mut self.move_text);
                if !text.trim().is_empty() {
                    actions.push(Action::PlayText(text));
                }
                self.focus_entry = true;
            }
        });
        if let Some(error) = &self.move_error {
            ui.colored_label(ui.visuals().error_fg_color, error);
        }
        let _ = model;
    }
}

/// The messages for the player, each with its Dismiss button.
pub fn notices_ui(ui: &mut Ui, notices: &[String], actions: &mut Vec<Action>) {
    for (i, notice) in notices.iter().enumerate() {
        ui.horizontal_wrapped(|ui| {
            ui.colored_label(ui.visuals().warn_fg_color, notice);
            if ui.small_button("Dismiss").clicked() {
                actions.push(Action::DismissNotice(i));
            }
        });
    }
}

fn status_text(model: &PanelModel<'_>) -> String {
    let game = model.game;
    if let Some(ending) = game.ending() {
        return format!("{ending} ({})", game.result());
    }
    if game.result() != "*" {
        return format!("Game over ({})", game.result());
    }
    if model.study {
        let turn = game.position_at_node(model.current).turn();
        return format!("Study: {} to move", if turn == Color::White { "White" } else { "Black" });
    }
    let turn = game.position().turn();
    let side = if turn == Color::White { "White" } else { "Black" };
    if turn == model.human && !model.watching {
        format!("{side} to move: your turn")
    } else {
        format!("{side} to move: {} is thinking", model.name(turn))
    }
}
