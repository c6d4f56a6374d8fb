//! The move list as a tree: the main line and its variations (indented), comments and
//! annotation glyphs, and the commands that edit them.

use egui::{RichText, Ui};
use kibitz_engine::{GameRecord, Nag, NodeId, nag_symbol};
use shakmaty::{Color, Position};

use crate::action::Action;

/// The glyphs on keys 1 to 6, as in most chess programs: ! ? !! ?? !? ?!.
pub const KEY_NAGS: [u8; 6] = [1, 2, 3, 4, 5, 6];

/// Shows the game's moves with their variations; `current` is highlighted. In a study the
/// editing commands are offered too.
pub fn move_tree_ui(ui: &mut Ui, game: &GameRecord, current: NodeId, study: bool, actions: &mut Vec<Action>) {
    let root = NodeId::ROOT;
    if let Some(text) = game.node(root).map(|n| visible_comment(n.comment())).filter(|t| !t.is_empty()) {
        ui.label(RichText::new(text).italics().weak());
    }
    if let Some(&first) = game.node(root).and_then(|n| n.children().first()) {
        line_ui(ui, game, first, 0, current, study, actions);
    }
    if game.result() != "*" {
        ui.label(RichText::new(game.result()).strong());
    }
}

/// The commands on the current move of a study.
pub fn edit_toolbar(
    ui: &mut Ui,
    game: &GameRecord,
    current: NodeId,
    comment: &mut String,
    actions: &mut Vec<Action>,
) {
    let Some(node) = game.node(current) else { return };
    let is_move = current != NodeId::ROOT;
    let is_variation =
        node.parent().and_then(|p| game.node(p)).is_some_and(|p| p.children().first() != Some(&current));
    ui.horizontal_wrapped(|ui| {
        if ui.add_enabled(is_variation, egui::Button::new("Promote variation")).clicked() {
            actions.push(Action::Promote(current));
        }
        if ui.add_enabled(is_move, egui::Button::new("Demote variation")).clicked() {
            actions.push(Action::Demote(current));
        }
        if ui.add_enabled(is_move, egui::Button::new("Delete variation")).clicked() {
            actions.push(Action::DeleteVariation(current));
        }
        if ui.add_enabled(!node.children().is_empty(), egui::Button::new("Delete after")).clicked() {
            actions.push(Action::DeleteAfter(current));
        }
    });
    ui.horizontal_wrapped(|ui| {
        let replace = ui.add_enabled(is_move, egui::Button::new("Replace move"));
        if replace.on_hover_text("The next move made replaces this one, which stays as a variation").clicked()
        {
            actions.push(Action::ReplaceMove(current));
        }
        if ui.button("Edit tags").clicked() {
            actions.push(Action::ShowTags);
        }
        if ui.button("Score").on_hover_text("The static evaluation of the position, term by term").clicked() {
            actions.push(Action::ShowScore);
        }
    });
    ui.horizontal_wrapped(|ui| {
        for n in KEY_NAGS {
            let nag = Nag(n);
            let symbol = nag_symbol(nag).unwrap_or("?");
            let on = node.nags().contains(&nag);
            let button = ui.add_enabled(is_move, egui::Button::new(symbol).selected(on));
            let button = button.on_hover_text(format!("Key {n}"));
            if button.clicked() {
                actions.push(Action::ToggleNag(current, nag));
            }
        }
    });
    ui.horizontal(|ui| {
        let label = ui.label("Comment");
        let edit = egui::TextEdit::singleline(comment)
            .hint_text("after this move, Enter to keep")
            .desired_width(220.0);
        let response = ui.add(edit).labelled_by(label.id);
        if response.lost_focus() {
            actions.push(Action::SetComment(current, comment.clone()));
        }
    });
}

/// One line (main line or variation) from `first`, following first children; variations
/// branching from it are shown indented after the move they replace.
fn line_ui(
    ui: &mut Ui,
    game: &GameRecord,
    first: NodeId,
    depth: usize,
    current: NodeId,
    study: bool,
    actions: &mut Vec<Action>,
) {
    let mut at = Some(first);
    let mut need_number = true;
    while let Some(id) = at {
        // A run of moves without branches, as wrapped text.
        let mut branches: Vec<NodeId> = Vec::new();
        let mut next = None;
        ui.horizontal_wrapped(|ui| {
            ui.spacing_mut().item_spacing.x = 3.0;
            if depth > 0 {
                ui.add_space(14.0 * depth as f32);
            }
            let mut id = id;
            loop {
                move_ui(ui, game, id, need_number, current, study, actions);
                need_number = false;
                let comment = game.node(id).map(|n| visible_comment(n.comment())).unwrap_or_default();
                if !comment.is_empty() {
                    ui.label(RichText::new(comment).italics().weak());
                    need_number = true;
                }
                let children = game.node(id).map(|n| n.children().to_vec()).unwrap_or_default();
                match children.as_slice() {
                    [] => break,
                    [only] => id = *only,
                    [main, rest @ ..] => {
                        // The main continuation's move comes first, then its alternatives.
                        move_ui(ui, game, *main, need_number, current, study, actions);
                        let comment =
                            game.node(*main).map(|n| visible_comment(n.comment())).unwrap_or_default();
                        if !comment.is_empty() {
                            ui.label(RichText::new(comment).italics().weak());
                        }
                        branches = rest.to_vec();
                        next = game.node(*main).and_then(|n| n.children().first().copied());
                        break;
                    }
                }
            }
        });
        for branch in branches {
            line_ui(ui, game, branch, depth + 1, current, study, actions);
        }
        need_number = true;
        at = next;
    }
}

/// One move: "12." or "12..." when needed, the SAN with its glyphs, clickable.
fn move_ui(
    ui: &mut Ui,
    game: &GameRecord,
    id: NodeId,
    need_number: bool,
    current: NodeId,
    study: bool,
    actions: &mut Vec<Action>,
) {
    let Some(node) = game.node(id) else { return };
    let Some(parent) = node.parent().and_then(|p| game.node(p)) else { return };
    let before = parent.position();
    let number = before.fullmoves().get();
    let prefix = match (before.turn(), need_number) {
        (Color::White, _) => format!("{number}. "),
        (Color::Black, true) => format!("{number}... "),
        (Color::Black, false) => String::new(),
    };
    let glyphs: String = node.nags().iter().filter_map(|&n| nag_symbol(n)).collect();
    let text = format!("{prefix}{}{glyphs}", node.san());
    let response = ui.selectable_label(id == current, text);
    if response.clicked() {
        actions.push(Action::GoTo(Some(id)));
    }
    if study {
        response.context_menu(|ui| {
            if ui.button("Make main line").clicked() {
                actions.push(Action::MakeMain(id));
                ui.close();
            }
            if ui.button("Promote variation").clicked() {
                actions.push(Action::Promote(id));
                ui.close();
            }
            if ui.button("Delete variation").clicked() {
                actions.push(Action::DeleteVariation(id));
                ui.close();
            }
            if ui.button("Delete after").clicked() {
                actions.push(Action::DeleteAfter(id));
                ui.close();
            }
            if ui.button("Replace with the next move").clicked() {
                actions.push(Action::ReplaceMove(id));
                ui.close();
            }
        });
    }
}

/// A comment as shown: without the commands meant for programs (`[%csl ...]`, `[%cal ...]`,
/// `[%emt ...]`). The clock and the evaluation are not in the comment at all: they are the
/// node's own fields.
#[must_use]
pub fn visible_comment(comment: &str) -> String {
    let mut out = String::new();
    let mut rest = comment;
    while let Some(start) = rest.find("[%") {
        out.push_str(&rest[..start]);
        match rest[start..].find(']') {
            Some(end) => rest = &rest[start + end + 1..],
            None => {
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Where the arrow keys lead from `at`, as on lichess.
pub mod navigate {
    use kibitz_engine::{GameRecord, NodeId};

    /// ←: the previous move.
    #[must_use]
    pub fn back(game: &GameRecord, at: NodeId) -> NodeId {
        game.node(at).and_then(|n| n.parent()).unwrap_or(at)
    }

    /// →: the next move of the current line.
    #[must_use]
    pub fn forward(game: &GameRecord, at: NodeId) -> NodeId {
        game.node(at).and_then(|n| n.children().first().copied()).unwrap_or(at)
    }

    /// ↑: the previous fork, or the start.
    #[must_use]
    pub fn previous_fork(game: &GameRecord, at: NodeId) -> NodeId {
        let mut id = back(game, at);
        while id != NodeId::ROOT && game.node(id).is_some_and(|n| n.children().len() < 2) {
            id = back(game, id);
        }
        id
    }

    /// ↓: the next fork, or the end of the line.
    #[must_use]
    pub fn next_fork(game: &GameRecord, at: NodeId) -> NodeId {
        let mut id = forward(game, at);
        while game.node(id).is_some_and(|n| n.children().len() == 1) {
            id = forward(game, id);
        }
        id
    }

    /// Shift+←: out of the current variation, to the move it branches from.
    #[must_use]
    pub fn out_of_variation(game: &GameRecord, at: NodeId) -> NodeId {
        let mut id = at;
        while let Some(parent) = game.node(id).and_then(|n| n.parent()) {
            let first = game.node(parent).and_then(|p| p.children().first().copied());
            if first != Some(id) {
                return parent;
            }
            id = parent;
        }
        NodeId::ROOT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_hide_program_commands() {
        assert_eq!(visible_comment("[%emt 0:00:03] A fine move [%csl Ga4]"), "A fine move");
        assert_eq!(visible_comment("[%cal Ge2e4]"), "");
        assert_eq!(visible_comment("unclosed [%csl"), "unclosed");
    }

    #[test]
    fn arrows_follow_lines_and_forks() {
        let mut game = GameRecord::new();
        for m in ["e4", "e5", "Nf3", "Nc6"] {
            game.play_text(m).unwrap();
        }
        let main = game.main_line().to_vec();
        // 2... d6 instead of 2... Nc6, then 3. d4.
        let d6 = game.play_text_at(main[3], "d6").unwrap();
        let d4 = game.play_text_at(d6, "d4").unwrap();
        assert_eq!(navigate::back(&game, d4), d6);
        assert_eq!(navigate::out_of_variation(&game, d4), main[3]);
        assert_eq!(navigate::previous_fork(&game, main[4]), main[3]);
        assert_eq!(navigate::next_fork(&game, NodeId::ROOT), main[3]);
        assert_eq!(navigate::forward(&game, main[4]), main[4], "the end stays");
    }
}
