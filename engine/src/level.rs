//! Playing strength presets offered to human players.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::SearchLimits;

/// A playing strength. The levels are provisional: the strength issue calibrates them in Elo.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Looks one move ahead.
    Beginner,
    /// Looks three plies ahead.
    Casual,
    /// Half a second per move.
    #[default]
    Club,
    /// Three seconds per move.
    Strong,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 4] = [Level::Beginner, Level::Casual, Level::Club, Level::Strong];

    /// The name shown to the player.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Level::Beginner => "Beginner",
            Level::Casual => "Casual",
            Level::Club => "Club",
            Level::Strong => "Strong",
        }
    }

    /// What the engine is allowed to search at this level.
    #[must_use]
    pub fn limits(self) -> SearchLimits {
        match self {
            Level::Beginner => SearchLimits::depth(1),
            Level::Casual => SearchLimits::depth(3),
            Level::Club => SearchLimits::movetime(Duration::from_millis(500)),
            Level::Strong => SearchLimits::movetime(Duration::from_secs(3)),
        }
    }
}
