//! The app's side of hints in the Play workspace: asking, and noting each hint used on the
//! player's next move, so that the saved PGN tells which moves were helped.

use std::sync::Arc;

use kibitz_engine::Player;
use shakmaty::Position;

use super::KibitzApp;
use crate::engine_choice::spawn_kibitz;
use crate::workspace::Workspace;

impl KibitzApp {
    /// The player asked for a hint (the button or H): only on their own turn of a live game.
    pub(super) fn hint(&mut self) {
        let game = self.play.game();
        let mine = game.position().turn() == self.human && !self.play.is_engine(self.human);
        if self.workspace != Workspace::Play || self.game_finished() || !mine {
            self.notices.push("Hints are for your own moves in a game being played.".into());
            return;
        }
        let (start, moves) = (game.start().clone(), game.moves().to_vec());
        let book = self.learning.book();
        let repaint = Arc::clone(&self.repaint);
        let tables = self.tablebases();
        let spawn = move || -> Box<dyn Player> { Box::new(spawn_kibitz(tables.clone(), repaint)) };
        let allowed = self.settings.hints_per_game;
        if let Err(refusal) =
            self.hints.ask(&start, &moves, book.as_deref(), &self.settings.book, allowed, spawn)
        {
            self.notices.push(refusal.to_string());
        }
        self.cursor = None;
    }

    /// After the player's move: the hint shown before it, if any, becomes its comment.
    pub(super) fn note_hint(&mut self) {
        let Some(text) = self.hints.take_note() else { return };
        let game = self.play.conductor.game_mut();
        let node = game.main_end();
        let comment = match game.node(node).map(|n| n.comment().trim().to_string()) {
            Some(old) if !old.is_empty() => format!("{old} {text}"),
            _ => text,
        };
        game.set_comment(node, &comment);
    }
}
