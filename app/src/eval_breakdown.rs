//! The score breakdown (Crafty's `score`): the static evaluation of the position on the board
//! by part (material, piece squares, mobility, pawns, pieces, king safety, threats, tempo) for
//! each side, in pawns, with the evaluation they add up to.

use egui::{Context, Grid, Id, Modal, RichText};
use kibitz_engine::{Breakdown, GameRecord, NodeId, breakdown};
use shakmaty::{Color, Position};

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
    breakdown: Breakdown,
}

impl ScoreDialog {
    /// The breakdown of the position at `at` in `game`.
    #[must_use]
    pub fn new(game: &GameRecord, at: NodeId) -> Self {
        let pos = game.position_at_node(at);
        let place = match game.node(at).and_then(|n| Some((n, game.node(n.parent()?)?))) {
            Some((node, parent)) => {
                let before = parent.position();
                let dots = if before.turn() == Color::White { "." } else { "..." };
                format!("after {}{dots} {}", before.fullmoves(), node.san())
            }
            None => "at the start".to_string(),
        };
        ScoreDialog { place, to_move: pos.turn(), breakdown: breakdown(pos) }
    }

    /// Shows the dialog; returns whether it stays open.
    pub fn ui(&self, ctx: &Context) -> bool {
        let mut open = true;
        let modal = Modal::new(Id::unique("score-breakdown")).show(ctx, |ui| {
            ui.set_width(380.0);
            ui.heading("Score breakdown");
            let side = if self.to_move == Color::White { "White" } else { "Black" };
            ui.label(format!("Kibitz's static evaluation {}, {side} to move, in pawns.", self.place));
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
            ui.weak(format!(
                "Phase {} of {}: the middlegame and endgame values are blended by the material left.",
                self.breakdown.phase,
                kibitz_engine::EvalTrace::MAX_PHASE
            ));
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
        let dialog = ScoreDialog::new(&game, game.main_end());
        assert_eq!(dialog.place, "after 1... e5");
        assert_eq!(dialog.to_move, Color::White);
        assert_eq!(ScoreDialog::new(&game, NodeId::ROOT).place, "at the start");
    }
}
