//! Small modal prompts: the game is over; resume the saved game.

use egui::{Context, Id, Modal, RichText};
use kibitz_engine::GameRecord;

use crate::action::Action;

/// "Game over" with the reason, who explained it and the result.
pub fn game_over_ui(ctx: &Context, game: &GameRecord, note: Option<&str>, actions: &mut Vec<Action>) {
    let modal = Modal::new(Id::unique("game-over")).show(ctx, |ui| {
        ui.set_width(320.0);
        ui.heading("Game over");
        let reason = game.ending().map_or_else(|| "The game has ended.".to_string(), |e| format!("{e}."));
        ui.label(reason);
        if let Some(note) = note {
            ui.label(RichText::new(note).italics());
        }
        ui.label(RichText::new(format!("Result {}", game.result())).strong());
        ui.horizontal(|ui| {
            if ui.button("New game").clicked() {
                actions.push(Action::CloseDialog);
                actions.push(Action::ShowNewGame);
            }
            if ui.button("Close").clicked() {
                actions.push(Action::CloseDialog);
            }
        });
    });
    if modal.should_close() {
        actions.push(Action::CloseDialog);
    }
}

/// The keys, shown by `?`.
pub fn keys_ui(ctx: &Context, open: &mut bool) {
    const KEYS: [(&str, &str); 12] = [
        ("← →", "previous / next move"),
        ("↑ / Home", "previous fork / start of the game"),
        ("↓ / End", "next fork / end of the line (the current position in a game)"),
        ("Shift + ←", "out of the variation"),
        ("F", "flip the board"),
        ("1 2 3 4 5 6", "glyphs ! ? !! ?? !? ?! on the move (study)"),
        ("Ctrl + V", "paste a FEN or a PGN game to study it"),
        ("Enter", "play the move typed in the Move field"),
        ("Esc", "cancel a promotion"),
        ("Right click", "variation commands on a move (study)"),
        ("Drag or click", "move a piece"),
        ("?", "show or hide this list"),
    ];
    let mut keep = true;
    egui::Window::new("Keys").open(&mut keep).collapsible(false).resizable(false).show(ctx, |ui| {
        egui::Grid::new("keys").striped(true).show(ui, |ui| {
            for (key, what) in KEYS {
                ui.label(RichText::new(key).monospace().strong());
                ui.label(what);
                ui.end_row();
            }
        });
    });
    *open &= keep;
}

/// Asks the player to confirm a resignation.
pub fn confirm_resign_ui(ctx: &Context, actions: &mut Vec<Action>) {
    let modal = Modal::new(Id::unique("confirm-resign")).show(ctx, |ui| {
        ui.heading("Resign this game?");
        ui.horizontal(|ui| {
            if ui.button("Yes, resign").clicked() {
                actions.push(Action::Resign);
            }
            if ui.button("Keep playing").clicked() {
                actions.push(Action::CloseDialog);
            }
        });
    });
    if modal.should_close() {
        actions.push(Action::CloseDialog);
    }
}

/// Offers to resume the game that was in progress when Kibitz last closed.
pub fn resume_ui(ctx: &Context, game: &GameRecord, actions: &mut Vec<Action>) {
    Modal::new(Id::unique("resume")).show(ctx, |ui| {
        ui.set_width(340.0);
        ui.heading("Resume your game?");
        let moves = game.len();
        ui.label(format!("A game of {moves} moves (plies) was in progress when Kibitz last closed."));
        ui.horizontal(|ui| {
            if ui.button("Resume").clicked() {
                actions.push(Action::Resume);
            }
            if ui.button("Start afresh").clicked() {
                actions.push(Action::DiscardSaved);
            }
        });
    });
}
