//! The score breakdown (Crafty's `score`): the classical static evaluation of the position on
//! the board by part (material, piece squares, mobility, pawns, pieces, king safety, threats,
//! tempo) for each side, in pawns, with the evaluation they add up to; the evaluation network's
//! score, which Kibitz's search uses and which has no parts; and, asked of one of the user's
//! engines, that engine's own evaluation as it prints it (Stockfish's `eval`).

use std::sync::Arc;

use egui::{Context, Grid, Id, Modal, RichText, ScrollArea};
use kibitz_engine::{
    Breakdown, Command, EngineConfig, Event, GameRecord, Network, NodeId, Player, breakdown,
};
use shakmaty::{Chess, Color, Position};

use crate::engine_choice::spawn_player;

/// Centipawns as pawns with a sign and two decimals; no "-0.00".
#[must_use]
pub fn pawns(cp: f64) -> String {
    if cp.abs() < 0.5 { "0.00".to_string() } else { format!("{:+.2}", cp / 100.0) }
}

/// The dialog: the breakdown of one position, taken when it opened.
pub struct ScoreDialog {
    /// Which position: "the start", "after 12. Nf3".
    place: String,
    to_move: Color,
    position: Chess,
    breakdown: Breakdown,
    /// The user's external engines, and the one to ask.
    engines: Vec<EngineConfig>,
    chosen: String,
    asked: Option<Asked>,
    wake: Arc<dyn Fn() + Send + Sync>,
}

/// An engine asked for its own evaluation, and its answer once it came.
struct Asked {
    name: String,
    player: Box<dyn Player>,
    answer: Option<Result<Option<String>, String>>,
}

impl Asked {
    /// Takes the engine's answer, or its failure, when it came.
    fn drain(&mut self) {
        while let Some(event) = self.player.try_recv() {
            match event {
                Event::Evaluation { text, .. } => self.answer = Some(Ok(text)),
                Event::Failed(failure) if failure.is_fatal() => self.answer = Some(Err(failure.to_string())),
                _ => {}
            }
        }
    }
}

impl ScoreDialog {
    /// The breakdown of the position at `at` in `game`; `engines` may be asked for their own,
    /// and `wake` repaints when one answers.
    #[must_use]
    pub fn new(
        game: &GameRecord,
        at: NodeId,
        engines: Vec<EngineConfig>,
        wake: Arc<dyn Fn() + Send + Sync>,
    ) -> Self {
        let pos = game.position_at_node(at);
        let place = match game.node(at).and_then(|n| Some((n, game.node(n.parent()?)?))) {
            Some((node, parent)) => {
                let before = parent.position();
                let dots = if before.turn() == Color::White { "." } else { "..." };
                format!("after {}{dots} {}", before.fullmoves(), node.san())
            }
            None => "at the start".to_string(),
        };
        let chosen = engines.first().map(|e| e.name.clone()).unwrap_or_default();
        ScoreDialog {
            place,
            to_move: pos.turn(),
            position: pos.clone(),
            breakdown: Breakdown { network: Some(Network::embedded().evaluate_white(pos)), ..breakdown(pos) },
            engines,
            chosen,
            asked: None,
            wake,
        }
    }

    /// Asks the chosen engine for its own evaluation of the position.
    fn ask(&mut self) {
        let player = spawn_player(&self.chosen, &self.engines, None, Arc::clone(&self.wake));
        player.send(Command::Position { start: self.position.clone(), moves: Vec::new() });
        player.send(Command::Evaluate { id: 1 });
        self.asked = Some(Asked { name: self.chosen.clone(), player, answer: None });
    }

    /// The engines part: choose one, ask it, show what it printed.
    fn engine_ui(&mut self, ui: &mut egui::Ui) {
        if self.engines.is_empty() {
            return;
        }
        ui.separator();
        ui.horizontal_wrapped(|ui| {
            ui.label("Ask an engine:");
            for engine in &self.engines {
                ui.selectable_value(&mut self.chosen, engine.name.clone(), &engine.name);
            }
            let busy = self.asked.as_ref().is_some_and(|a| a.answer.is_none());
            if ui
                .add_enabled(!busy, egui::Button::new("Ask"))
                .on_hover_text("Its own evaluation, as it prints it")
                .clicked()
            {
                self.ask();
            }
        });
        let Some(asked) = self.asked.as_mut() else { return };
        asked.drain();
        match &asked.answer {
            None => {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label(format!("Asking {}…", asked.name));
                });
            }
            Some(Ok(Some(text))) => {
                ui.label(format!("{}'s evaluation:", asked.name));
                ScrollArea::both().max_height(240.0).max_width(560.0).show(ui, |ui| {
                    ui.add(egui::Label::new(RichText::new(text).monospace().small()).extend());
                });
            }
            Some(Ok(None)) => {
                ui.weak(format!("{} has no command that prints its evaluation.", asked.name));
            }
            Some(Err(e)) => {
                ui.colored_label(ui.visuals().error_fg_color, format!("{}: {e}", asked.name));
            }
        }
    }

    /// Shows the dialog; returns whether it stays open.
    pub fn ui(&mut self, ctx: &Context) -> bool {
        let mut open = true;
        let modal = Modal::new(Id::unique("score-breakdown")).show(ctx, |ui| {
            ui.set_width(380.0);
            ui.heading("Score breakdown");
            let side = if self.to_move == Color::White { "White" } else { "Black" };
            ui.label(format!("Kibitz's classical static evaluation {}, {side} to move, in pawns.", self.place));
            Grid::new("score-terms").num_columns(4).striped(true).min_col_width(60.0).show(ui, |ui| {
                for head in ["Term", "White", "Black", "Total"] {
                    ui.label(RichText::new(head).strong());
                }
                ui.end_row();
                let (mut white, mut black) = (0.0, 0.0);
                for (part, value) in &self.breakdown.parts {
                    ui.label(part.label());
                    ui.monospace(pawns(value.white));
                    ui.monospace(pawns(value.black));
                    ui.monospace(pawns(value.white - value.black));
                    ui.end_row();
                    white += value.white;
                    black += value.black;
                }
                ui.label(RichText::new("Sum").strong());
                ui.monospace(pawns(white));
                ui.monospace(pawns(black));
                ui.monospace(pawns(white - black));
                ui.end_row();
            });
            let eval = f64::from(self.breakdown.eval);
            ui.label(RichText::new(format!("Evaluation {} for White", pawns(eval))).strong());
            if let Some(network) = self.breakdown.network {
                ui.label(RichText::new(format!("Network {} for White", pawns(f64::from(network)))).strong())
                    .on_hover_text("The evaluation network's score, the one Kibitz's search uses; it has no parts to show");
            }
            ui.weak(format!(
                "Phase {} of {}: the middlegame and endgame values are blended by the material left.",
                self.breakdown.phase,
                kibitz_engine::EvalTrace::MAX_PHASE
            ));
            self.engine_ui(ui);
            if ui.button("Close").clicked() {
                open = false;
            }
        });
        open && !modal.should_close()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pawns_have_a_sign_and_no_negative_zero() {
        assert_eq!(pawns(123.0), "+1.23");
        assert_eq!(pawns(-5.0), "-0.05");
        assert_eq!(pawns(-0.2), "0.00");
        assert_eq!(pawns(0.0), "0.00");
    }

    #[test]
    fn the_dialog_names_the_position() {
        let mut game = GameRecord::new();
        game.play_text("e4").expect("legal");
        game.play_text("e5").expect("legal");
        let wake: Arc<dyn Fn() + Send + Sync> = Arc::new(|| {});
        let dialog = ScoreDialog::new(&game, game.main_end(), Vec::new(), Arc::clone(&wake));
        assert_eq!(dialog.place, "after 1... e5");
        assert_eq!(dialog.to_move, Color::White);
        assert_eq!(ScoreDialog::new(&game, NodeId::ROOT, Vec::new(), wake).place, "at the start");
    }
}
