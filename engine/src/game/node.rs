//! One node of a game tree: a move with its annotations, the position it leads to, and the
//! moves that may follow it (the first is the main continuation, the others are variations).

use std::time::Duration;

use shakmaty::{Chess, Move};

use super::annotation::{Eval, Nag};

/// The address of a node in a [`GameRecord`](crate::GameRecord)'s tree. Ids stay valid while
/// other nodes are added, moved or deleted; the id of a deleted node resolves to nothing.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub(crate) u32);

impl NodeId {
    /// The root: the start position, before any move.
    pub const ROOT: NodeId = NodeId(0);

    pub(crate) fn index(self) -> usize {
        self.0 as usize
    }
}

/// A move in the game tree, or the root (which has no move).
#[derive(Clone, Debug)]
pub struct Node {
    pub(crate) parent: Option<NodeId>,
    pub(crate) children: Vec<NodeId>,
    pub(crate) mv: Option<Move>,
    pub(crate) san: String,
    pub(crate) position: Chess,
    pub(crate) hash: u64,
    pub(crate) ply: usize,
    pub(crate) nags: Vec<Nag>,
    pub(crate) comment: String,
    pub(crate) starting_comment: String,
    pub(crate) eval: Option<Eval>,
    pub(crate) clock: Option<Duration>,
    pub(crate) deleted: bool,
}

impl Node {
    pub(crate) fn new(
        parent: Option<NodeId>,
        mv: Option<Move>,
        san: String,
        position: Chess,
        hash: u64,
        ply: usize,
    ) -> Self {
        Node {
            parent,
            children: Vec::new(),
            mv,
            san,
            position,
            hash,
            ply,
            nags: Vec::new(),
            comment: String::new(),
            starting_comment: String::new(),
            eval: None,
            clock: None,
            deleted: false,
        }
    }

    /// The node this move was played from; `None` for the root.
    #[must_use]
    pub fn parent(&self) -> Option<NodeId> {
        self.parent
    }

    /// The moves that follow: the main continuation first, then the variations.
    #[must_use]
    pub fn children(&self) -> &[NodeId] {
        &self.children
    }

    /// The move that leads here; `None` for the root.
    #[must_use]
    pub fn mv(&self) -> Option<Move> {
        self.mv
    }

    /// The move in SAN with check and mate suffixes; empty for the root.
    #[must_use]
    pub fn san(&self) -> &str {
        &self.san
    }

    /// The position after the move (the start position for the root).
    #[must_use]
    pub fn position(&self) -> &Chess {
        &self.position
    }

    /// Number of moves from the start position to here.
    #[must_use]
    pub fn ply(&self) -> usize {
        self.ply
    }

    /// The annotation glyphs of the move, in the order given.
    #[must_use]
    pub fn nags(&self) -> &[Nag] {
        &self.nags
    }

    /// The comment after the move (for the root: the comment before the first move), as the
    /// user wrote it: the clock and the evaluation are apart ([`Node::clock`],
    /// [`Node::eval`]), other commands such as `[%csl ...]` stay in; empty when there is none.
    #[must_use]
    pub fn comment(&self) -> &str {
        &self.comment
    }

    /// The comment before the move, as in `( {Better is} 12. Nf3 )`; empty when there is none.
    #[must_use]
    pub fn starting_comment(&self) -> &str {
        &self.starting_comment
    }

    /// The clock time the mover had left after the move (PGN's `[%clk]`), when recorded.
    #[must_use]
    pub fn clock(&self) -> Option<Duration> {
        self.clock
    }

    /// The engine evaluation of the position after the move (PGN's `[%eval]`), when recorded.
    #[must_use]
    pub fn eval(&self) -> Option<Eval> {
        self.eval
    }
}
