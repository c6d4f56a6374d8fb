//! What the PGN reader builds as it replays a game's moves: the whole game (a [`GameRecord`]
//! with its tags, comments and glyphs), or only the positions of its move tree, which is all
//! that counting a file's games and moves (`kibitz pgn stats`) needs. Both are built by the
//! same reader, so that they accept, refuse and count the same moves.

use shakmaty::{Chess, Move, Position};

use crate::game::NodeId;
use crate::{GameRecord, Node};

/// A game tree the reader replays moves into.
pub(crate) trait Replay: Default {
    /// Whether the reader decodes comments and glyphs for it.
    const ANNOTATED: bool;

    /// Starts from the first position of `game`, which has no tags yet.
    fn start(game: GameRecord) -> Self;

    /// Sets a tag of the game.
    fn set_tag(&mut self, name: &str, value: &str);

    /// The position after the move of node `id`.
    fn position(&self, id: NodeId) -> Option<&Chess>;

    /// The node before `id`.
    fn parent(&self, id: NodeId) -> Option<NodeId>;

    /// Adds a legal move after `parent`, as its last continuation.
    fn add_child(&mut self, parent: NodeId, m: Move) -> NodeId;

    /// The node, to give it comments and glyphs (`None` when they are not kept).
    fn node_mut(&mut self, id: NodeId) -> Option<&mut Node>;

    /// Settles the ending and the result once every move is in.
    fn finish(&mut self, result: Option<String>);
}

impl Replay for GameRecord {
    const ANNOTATED: bool = true;

    fn start(game: GameRecord) -> Self {
        game
    }

    fn set_tag(&mut self, name: &str, value: &str) {
        GameRecord::set_tag(self, name, value);
    }

    fn position(&self, id: NodeId) -> Option<&Chess> {
        self.node(id).map(Node::position)
    }

    fn parent(&self, id: NodeId) -> Option<NodeId> {
        self.node(id).and_then(Node::parent)
    }

    fn add_child(&mut self, parent: NodeId, m: Move) -> NodeId {
        GameRecord::add_child(self, parent, m)
    }

    fn node_mut(&mut self, id: NodeId) -> Option<&mut Node> {
        GameRecord::node_mut(self, id)
    }

    fn finish(&mut self, result: Option<String>) {
        self.update_ending();
        if self.ending().is_none() {
            self.set_tag("Result", result.as_deref().unwrap_or("*"));
        }
    }
}

/// The positions of a game's move tree and how they hang together, nothing else.
#[derive(Default)]
pub(crate) struct Positions {
    /// Each node's parent and position; the root first.
    nodes: Vec<(Option<NodeId>, Chess)>,
}

impl Positions {
    /// The moves replayed: main line and variations.
    pub fn moves(&self) -> u64 {
        self.nodes.len().saturating_sub(1) as u64
    }
}

impl Replay for Positions {
    const ANNOTATED: bool = false;

    fn start(game: GameRecord) -> Self {
        Positions { nodes: vec![(None, game.start().clone())] }
    }

    fn set_tag(&mut self, _: &str, _: &str) {}

    fn position(&self, id: NodeId) -> Option<&Chess> {
        self.nodes.get(id.index()).map(|(_, position)| position)
    }

    fn parent(&self, id: NodeId) -> Option<NodeId> {
        self.nodes.get(id.index()).and_then(|&(parent, _)| parent)
    }

    fn add_child(&mut self, parent: NodeId, m: Move) -> NodeId {
        let mut next = self.nodes[parent.index()].1.clone();
        next.play_unchecked(m);
        self.nodes.push((Some(parent), next));
        NodeId((self.nodes.len() - 1) as u32)
    }

    fn node_mut(&mut self, _: NodeId) -> Option<&mut Node> {
        None
    }

    fn finish(&mut self, _: Option<String>) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_follow_the_moves_of_each_line() {
        let mut tree = Positions::start(GameRecord::new());
        let e4 = tree.add_child(
            NodeId::ROOT,
            Move::Normal {
                role: shakmaty::Role::Pawn,
                from: shakmaty::Square::E2,
                capture: None,
                to: shakmaty::Square::E4,
                promotion: None,
            },
        );
        let d4 = tree.add_child(
            NodeId::ROOT,
            Move::Normal {
                role: shakmaty::Role::Pawn,
                from: shakmaty::Square::D2,
                capture: None,
                to: shakmaty::Square::D4,
                promotion: None,
            },
        );
        assert_eq!(
            (tree.parent(e4), tree.parent(d4), tree.parent(NodeId::ROOT)),
            (Some(NodeId::ROOT), Some(NodeId::ROOT), None)
        );
        assert_eq!(tree.position(d4).map(|p| p.turn()), Some(shakmaty::Color::Black));
        assert!(tree.position(e4).is_some_and(|p| p.board().piece_at(shakmaty::Square::E4).is_some()));
        assert_eq!(tree.moves(), 2);
        assert!(tree.node_mut(e4).is_none());
    }
}
