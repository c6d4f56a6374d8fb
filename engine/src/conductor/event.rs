//! What happens in a conducted game, as typed events with their explanations.

use std::fmt;

use shakmaty::{Color, Move};

use crate::{Ending, PlayerFailure, Termination};

/// One thing that happened in a game. A game's end is always reported last, as
/// [`GameEvent::GameOver`], after the event that caused it.
#[derive(Clone, Debug, PartialEq)]
pub enum GameEvent {
    /// A move was played.
    Moved {
        /// Who moved.
        side: Color,
        /// The move.
        mv: Move,
        /// The move in SAN.
        san: String,
    },
    /// A side offered a draw; the offer stands until answered or until the other side moves.
    DrawOffered {
        /// Who offered.
        side: Color,
        /// Why, when an engine's rules decided it.
        why: Option<String>,
    },
    /// A side tried to offer a draw again: an offer may be made once per side and game, so
    /// this one was not sent.
    OfferNotSent {
        /// Who tried.
        side: Color,
    },
    /// A side declined the standing offer (by saying so, or by moving).
    DrawDeclined {
        /// Who declined.
        side: Color,
        /// Why, when an engine's rules decided it.
        why: Option<String>,
    },
    /// A side accepted the standing offer; the game is drawn.
    DrawAccepted {
        /// Who accepted.
        side: Color,
        /// Why, when an engine's rules decided it.
        why: Option<String>,
    },
    /// A side claimed a draw by repetition or the fifty-move rule.
    DrawClaimed {
        /// Who claimed.
        side: Color,
        /// Which rule.
        rule: Termination,
        /// Why, when an engine claimed: its score was no better than a draw.
        why: Option<String>,
    },
    /// A side resigned.
    Resigned {
        /// Who resigned.
        side: Color,
        /// Why, when an engine's rules decided it.
        why: Option<String>,
    },
    /// A side's time ran out.
    Flagged {
        /// Whose flag fell.
        side: Color,
    },
    /// A player failed (crashed, hung, sent an illegal move).
    PlayerFailed {
        /// Whose player.
        side: Color,
        /// What went wrong.
        failure: PlayerFailure,
    },
    /// The adjudicator ended the game.
    Adjudicated {
        /// The rule that decided.
        why: String,
    },
    /// The game is over.
    GameOver {
        /// The result and the reason.
        ending: Ending,
    },
}

impl GameEvent {
    /// The side the event is about, if one.
    #[must_use]
    pub fn side(&self) -> Option<Color> {
        match self {
            GameEvent::Moved { side, .. }
            | GameEvent::DrawOffered { side, .. }
            | GameEvent::OfferNotSent { side }
            | GameEvent::DrawDeclined { side, .. }
            | GameEvent::DrawAccepted { side, .. }
            | GameEvent::DrawClaimed { side, .. }
            | GameEvent::Resigned { side, .. }
            | GameEvent::Flagged { side }
            | GameEvent::PlayerFailed { side, .. } => Some(*side),
            GameEvent::Adjudicated { .. } | GameEvent::GameOver { .. } => None,
        }
    }
}

/// "White" or "Black".
pub(crate) fn color_name(side: Color) -> &'static str {
    if side == Color::White { "White" } else { "Black" }
}

impl fmt::Display for GameEvent {
    /// One sentence for a log: "Black offers a draw: my score has stayed ...".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let because = |why: &Option<String>| why.as_ref().map(|w| format!(": {w}")).unwrap_or_default();
        match self {
            GameEvent::Moved { side, san, .. } => write!(f, "{} plays {san}", color_name(*side)),
            GameEvent::DrawOffered { side, why } => {
                write!(f, "{} offers a draw{}", color_name(*side), because(why))
            }
            GameEvent::OfferNotSent { side } => {
                write!(
                    f,
                    "{} already offered a draw in this game; a second offer is not sent",
                    color_name(*side)
                )
            }
            GameEvent::DrawDeclined { side, why } => {
                write!(f, "{} declines the draw offer{}", color_name(*side), because(why))
            }
            GameEvent::DrawAccepted { side, why } => {
                write!(f, "{} accepts the draw offer{}", color_name(*side), because(why))
            }
            GameEvent::DrawClaimed { side, rule, why } => {
                write!(f, "{} claims a draw by {}{}", color_name(*side), rule.describe(), because(why))
            }
            GameEvent::Resigned { side, why } => write!(f, "{} resigns{}", color_name(*side), because(why)),
            GameEvent::Flagged { side } => write!(f, "{}'s time ran out", color_name(*side)),
            GameEvent::PlayerFailed { side, failure } => write!(f, "{}: {failure}", color_name(*side)),
            GameEvent::Adjudicated { why } => write!(f, "Adjudicated: {why}"),
            GameEvent::GameOver { ending } => write!(f, "{ending}"),
        }
    }
}
