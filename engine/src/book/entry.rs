//! One move of one position in the book, with everything Kibitz knows about it.

use crate::book::Stats;

/// One book move: the position's Polyglot key, the move, and its statistics and settings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BookEntry {
    /// Polyglot key of the position before the move ([`crate::book_key`]).
    pub key: u64,
    /// The move, Polyglot-encoded ([`crate::encode_move`]).
    pub mv: u16,
    /// Polyglot weight: imported from a `.bin` book, or `2 * wins + draws` when built from games.
    pub weight: u16,
    /// Polyglot's `learn` field, kept so that an imported book exports unchanged.
    pub polyglot_learn: u32,
    /// Order among the moves of the position in the Polyglot file it was imported from (after
    /// the weight), so that an imported book exports byte for byte the same; 0 otherwise.
    pub polyglot_rank: u8,
    /// Fixed statistics from the games the book was built from (side to move).
    pub fixed: Stats,
    /// Dynamic statistics learned from Kibitz's own games (side to move).
    pub learned: Stats,
    /// Average search score in centipawns, for the side that played the move, about ten moves
    /// after leaving the book in the games it was learned from (Crafty's learned value).
    pub learn_score: i32,
    /// User-set value, 0 (never) to 100 (always), or `None`.
    pub user: Option<u8>,
    /// Crafty's `{play nn%}`: how often to play the move, in percent, or `None`.
    pub play_pct: Option<u8>,
    /// Set by result learning after a loss: never play this move again.
    pub never_play: bool,
}

impl BookEntry {
    /// A fresh entry with no statistics.
    #[must_use]
    pub fn new(key: u64, mv: u16) -> Self {
        BookEntry { key, mv, ..Default::default() }
    }

    /// How often the move was played: the game count, or the Polyglot weight for a book imported
    /// without game counts.
    #[must_use]
    pub fn frequency(&self) -> u32 {
        if self.fixed.games > 0 { self.fixed.games } else { u32::from(self.weight) }
    }

    /// The move was set to "never" (user value 0) or flagged by result learning.
    #[must_use]
    pub fn is_avoided(&self) -> bool {
        self.user == Some(0) || self.never_play
    }
}
