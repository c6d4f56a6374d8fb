//! Replacing a move with another (Crafty's `force`): the new move takes the old one's place
//! and the old one, with everything after it, becomes the next variation.

use shakmaty::Move;

use super::{GameRecord, IllegalMove, NodeId};

impl GameRecord {
    /// Replaces the move at `id` with `new` played from the same position: `new` takes the
    /// old move's place among its siblings (so it becomes the main line where the old move
    /// was the main line) and the old move, with its continuation and annotations, becomes
    /// the variation right after it. A move that already was a variation there is moved
    /// rather than played again; replacing a move with itself changes nothing. Returns the
    /// node of `new`.
    ///
    /// ```
    /// use kibitz_engine::GameRecord;
    /// let mut game = GameRecord::new();
    /// for m in ["e4", "e5", "Nf3"] {
    ///     game.play_text(m).unwrap();
    /// }
    /// let nf3 = game.main_end();
    /// let bc4 = game.parse_move_at(game.main_line()[2], "Bc4").unwrap();
    /// let new = game.replace_move(nf3, bc4).unwrap();
    /// assert_eq!(game.san_moves(), ["e4", "e5", "Bc4"]);
    /// assert_eq!(game.node(game.main_line()[2]).unwrap().children(), [new, nf3]);
    /// ```
    pub fn replace_move(&mut self, id: NodeId, new: Move) -> Result<NodeId, IllegalMove> {
        let Some(parent) = self.node(id).and_then(|n| n.parent()) else {
            return Err(IllegalMove("There is no move there to replace".into()));
        };
        let new_id = self.play_at(parent, new)?;
        if new_id == id {
            return Ok(id);
        }
        let children = &mut self.nodes[parent.index()].children;
        children.retain(|&c| c != new_id);
        let place = children.iter().position(|&c| c == id).unwrap_or(0);
        children.insert(place, new_id);
        if place == 0 {
            self.rebuild_main_line();
        }
        Ok(new_id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(moves: &str) -> GameRecord {
        let mut game = GameRecord::new();
        for m in moves.split_whitespace() {
            game.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        }
        game
    }

    #[test]
    fn the_old_main_move_becomes_the_first_variation_with_its_continuation() {
        let mut g = game("e4 e5 Nf3 Nc6 Bb5");
        let after_e5 = g.main_line()[2];
        let nf3 = g.main_line()[3];
        g.add_nag(nf3, crate::Nag(1));
        let d4 = g.parse_move_at(after_e5, "d4").unwrap();
        let new = g.replace_move(nf3, d4).unwrap();
        assert_eq!(g.san_moves(), ["e4", "e5", "d4"], "the main line ends at the new move");
        assert_eq!(g.node(after_e5).unwrap().children(), [new, nf3]);
        assert!(!g.is_main_line(nf3));
        let old = g.node(nf3).unwrap();
        assert_eq!(old.nags(), [crate::Nag(1)], "the old move keeps its glyphs");
        assert_eq!(g.node(g.line_end(nf3)).unwrap().san(), "Bb5", "and its continuation");
        assert_eq!(g.result(), "*");
    }

    #[test]
    fn a_variation_is_replaced_in_its_place() {
        let mut g = game("e4 e5 Nf3");
        let after_e4 = g.main_line()[1];
        let c5 = g.play_text_at(after_e4, "c5").unwrap();
        let e6 = g.parse_move_at(after_e4, "e6").unwrap();
        let new = g.replace_move(c5, e6).unwrap();
        let e5 = g.main_line()[2];
        assert_eq!(g.node(after_e4).unwrap().children(), [e5, new, c5]);
        assert_eq!(g.san_moves(), ["e4", "e5", "Nf3"], "the main line is untouched");
    }

    #[test]
    fn an_existing_variation_is_moved_not_duplicated() {
        let mut g = game("e4 e5");
        let root = NodeId::ROOT;
        let e4 = g.main_line()[1];
        let d4 = g.play_text_at(root, "d4").unwrap();
        let m = g.node(d4).unwrap().mv().unwrap();
        assert_eq!(g.replace_move(e4, m), Ok(d4));
        assert_eq!(g.node(root).unwrap().children(), [d4, e4]);
        assert_eq!(g.san_moves(), ["d4"]);
        // The same move again changes nothing.
        assert_eq!(g.replace_move(d4, m), Ok(d4));
        assert_eq!(g.node(root).unwrap().children(), [d4, e4]);
    }

    #[test]
    fn bad_replacements_change_nothing() {
        let mut g = game("e4 e5");
        let e5 = g.main_line()[2];
        let nf3 = g.parse_move_at(e5, "Nf3").unwrap();
        assert!(g.replace_move(e5, nf3).is_err(), "Nf3 is not Black's move");
        assert!(g.replace_move(NodeId::ROOT, nf3).is_err(), "the root is no move");
        assert_eq!(g.san_moves(), ["e4", "e5"]);
    }

    #[test]
    fn replacing_a_mating_move_updates_the_ending() {
        let mut g = game("f3 e5 g4 Qh4#");
        assert!(g.ending().is_some());
        let mate = g.main_end();
        let at = g.main_line()[3];
        let qe7 = g.parse_move_at(at, "Qe7").unwrap();
        g.replace_move(mate, qe7).unwrap();
        assert!(g.ending().is_none());
        assert_eq!(g.result(), "*");
    }
}
