//! Replacing a move of a study (Crafty's `force`): "Replace move" on the move shown, or
//! "Replace with the next move" on a move of the list, goes back to the position before that
//! move; the next move made there takes its place and the old move, with everything after it,
//! stays as a variation.

use egui::{RichText, Ui};
use kibitz_engine::{GameRecord, IllegalMove, NodeId};
use shakmaty::{Color, Move, Position};

use crate::action::Action;
use crate::workspace::Study;

impl Study {
    /// Waits for the move that replaces `id`, showing the position before it. The start of
    /// the game has no move to replace.
    pub fn replace_next(&mut self, id: NodeId) {
        let parent = self.table.game().node(id).and_then(|n| n.parent());
        if parent.is_some() {
            self.replacing = Some(id);
            self.cursor = parent;
        }
    }
}

/// Plays `m` at `at` in a study: when `replacing` is a move from `at` the new move replaces it
/// ([`GameRecord::replace_move`]), otherwise it is added as usual (a new variation unless it
/// is already there). Returns the node after the move.
pub fn play(
    game: &mut GameRecord,
    replacing: Option<NodeId>,
    at: NodeId,
    m: Move,
) -> Result<NodeId, IllegalMove> {
    match replacing {
        Some(old) if game.node(old).and_then(|n| n.parent()) == Some(at) => game.replace_move(old, m),
        _ => game.play_at(at, m),
    }
}

/// The notice over the board while a move waits to be replaced, with a button to cancel.
pub fn replace_banner(ui: &mut Ui, game: &GameRecord, replacing: Option<NodeId>, actions: &mut Vec<Action>) {
    let Some(node) = replacing.and_then(|id| game.node(id)) else { return };
    let Some(parent) = node.parent().and_then(|p| game.node(p)) else { return };
    let before = parent.position();
    let dots = if before.turn() == Color::White { "." } else { "..." };
    let text = format!(
        "Make the move that replaces {}{dots} {}; the old move stays as a variation.",
        before.fullmoves(),
        node.san()
    );
    egui::Panel::top("replace-move").show(ui, |ui| {
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new(text).strong().color(ui.visuals().warn_fg_color));
            if ui.button("Keep the move").clicked() {
                actions.push(Action::CancelReplace);
            }
        });
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_move_from_the_replaced_moves_position_replaces_it() {
        let mut game = GameRecord::new();
        for m in ["e4", "e5", "Nf3"] {
            game.play_text(m).expect("legal");
        }
        let [_, _, e5, nf3] = game.main_line().to_vec()[..] else { panic!("four nodes") };
        // Elsewhere, a move is added as usual.
        let nc6 = game.parse_move_at(nf3, "Nc6").expect("legal");
        let id = play(&mut game, Some(nf3), nf3, nc6).expect("legal");
        assert_eq!(game.san_moves(), ["e4", "e5", "Nf3", "Nc6"]);
        assert_eq!(game.node(id).map(|n| n.san()), Some("Nc6"));
        // From the position before Nf3, Bc4 replaces it.
        let bc4 = game.parse_move_at(e5, "Bc4").expect("legal");
        let id = play(&mut game, Some(nf3), e5, bc4).expect("legal");
        assert_eq!(game.san_moves(), ["e4", "e5", "Bc4"]);
        assert_eq!(game.node(e5).map(|n| n.children().to_vec()), Some(vec![id, nf3]));
    }
}
