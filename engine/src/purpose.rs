//! Why a search runs. The caller says it with every `Go`, so that nobody guesses it from the
//! limits: the opening book, the PostBook and learning apply only when the engine plays.

use serde::{Deserialize, Serialize};

/// What a search is for.
///
/// ```
/// use kibitz_engine::Purpose;
/// assert!(Purpose::Play.uses_book());
/// assert!(!Purpose::Annotate.uses_book());
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Purpose {
    /// Choose a move to play in a game.
    #[default]
    Play,
    /// Analyse a position for a person watching the lines.
    Analyse,
    /// Suggest a move to the player (a hint).
    Hint,
    /// Judge the moves of a game (automatic annotation).
    Annotate,
    /// Solve a position of a test suite.
    TestSuite,
}

impl Purpose {
    /// Whether the book, the PostBook and learned data steer this search: only in play.
    #[must_use]
    pub fn uses_book(self) -> bool {
        self == Purpose::Play
    }

    /// A word for messages: "play", "analysis", ...
    #[must_use]
    pub fn describe(self) -> &'static str {
        match self {
            Purpose::Play => "play",
            Purpose::Analyse => "analysis",
            Purpose::Hint => "hint",
            Purpose::Annotate => "annotation",
            Purpose::TestSuite => "test suite",
        }
    }
}
