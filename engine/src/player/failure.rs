//! What can go wrong with a player, in words a user can act on: the engine's name, what
//! happened, and the last lines it wrote.

use std::fmt;

/// How a player failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FailureKind {
    /// The program could not be started (missing, not executable, ...): the system's reason.
    CouldNotStart(String),
    /// The program answered neither the UCI nor the xboard handshake in time.
    NoProtocol,
    /// The program stopped answering: what it was asked and how long it was waited for.
    Hung(String),
    /// The program exited or closed its output; the exit status if known.
    Crashed(Option<String>),
    /// The program sent a move that is illegal in the position (the move as sent, and the
    /// position's FEN).
    IllegalMove {
        /// The move as the engine wrote it.
        sent: String,
        /// The position it was asked to move in.
        fen: String,
    },
    /// The built-in engine's search panicked: a bug in Kibitz, reported instead of hidden.
    Panicked(String),
}

/// A player's failure, with what the user needs to understand it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerFailure {
    /// The engine's name as the user configured it.
    pub engine: String,
    /// What went wrong.
    pub kind: FailureKind,
    /// The last lines the engine wrote (its standard output and error), oldest first.
    pub last_lines: Vec<String>,
}

impl PlayerFailure {
    /// Whether the player is gone for good (it must be restarted to play again). After a
    /// failure that is not fatal (an illegal move, a search that panicked) the search still
    /// ends with its `BestMove`, without a move.
    #[must_use]
    pub fn is_fatal(&self) -> bool {
        !matches!(self.kind, FailureKind::IllegalMove { .. } | FailureKind::Panicked(_))
    }
}

impl fmt::Display for PlayerFailure {
    /// "Stockfish crashed (exit status: signal 11). Its last lines: ...".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = &self.engine;
        match &self.kind {
            FailureKind::CouldNotStart(why) => write!(f, "{name} could not be started: {why}")?,
            FailureKind::NoProtocol => {
                write!(f, "{name} does not speak UCI or xboard: it answered neither handshake")?
            }
            FailureKind::Hung(what) => write!(f, "{name} stopped answering: {what}")?,
            FailureKind::Crashed(Some(status)) => write!(f, "{name} crashed ({status})")?,
            FailureKind::Crashed(None) => write!(f, "{name} crashed")?,
            FailureKind::IllegalMove { sent, fen } => {
                write!(f, "{name} played an illegal move, {sent}, in {fen}")?
            }
            FailureKind::Panicked(why) => write!(f, "{name}'s search failed (a bug in Kibitz): {why}")?,
        }
        if self.last_lines.is_empty() {
            f.write_str(".")
        } else {
            write!(f, ". Its last lines:\n{}", self.last_lines.join("\n"))
        }
    }
}

impl std::error::Error for PlayerFailure {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_names_the_engine_and_quotes_its_last_lines() {
        let failure = PlayerFailure {
            engine: "Crashy".into(),
            kind: FailureKind::Crashed(Some("exit status: 3".into())),
            last_lines: vec!["info depth 1".into(), "boom".into()],
        };
        assert_eq!(
            failure.to_string(),
            "Crashy crashed (exit status: 3). Its last lines:\ninfo depth 1\nboom"
        );
        assert!(failure.is_fatal());
    }
}
