//! Players: anything that plays and analyses chess behind one interface.
//!
//! The built-in engine (an [`EngineHandle`](crate::EngineHandle), Kibitz's own search on a
//! thread) and external engines run as child processes speaking UCI or xboard
//! ([`ExternalEngine`]) take the same [`Command`]s and report the same [`Event`]s, so the app,
//! the game conductor, the match runner and the tests drive any of them alike (after
//! cutechess's `ChessPlayer`). Every `Go` says its [`Purpose`](crate::Purpose).

mod builtin;
mod config;
mod external;
mod failure;
mod option;
pub(crate) mod uci_wire;
pub(crate) mod xboard_wire;

use std::time::Duration;

use crate::{Command, Event};

pub use config::{EngineConfig, Protocol};
pub use external::ExternalEngine;
pub use failure::{FailureKind, PlayerFailure};
pub use option::{EngineOption, OptionError, OptionKind, check_option};

/// Something that plays and analyses chess.
///
/// Sending never blocks; events are drained with [`try_recv`](Player::try_recv) (the app, once
/// per frame) or waited for with [`recv_timeout`](Player::recv_timeout) (the runner). A player
/// that fails reports [`Event::Failed`] and carries on answering calls without panicking.
pub trait Player: Send {
    /// The player's name, for messages and PGN tags.
    fn name(&self) -> &str;

    /// The options the player declared, once known (after [`Event::Ready`] for an external
    /// engine).
    fn options(&self) -> Vec<EngineOption>;

    /// Sends a command.
    fn send(&self, cmd: Command);

    /// Sends commands in order, at once: an external engine's driver thread is woken once
    /// for all of them (the runner sends a move's `Position` and `Go` this way, so that the
    /// second send does not wait on the thread the first one woke).
    fn send_all(&self, commands: Vec<Command>) {
        for cmd in commands {
            self.send(cmd);
        }
    }

    /// The next event, if one is waiting.
    fn try_recv(&self) -> Option<Event>;

    /// Waits up to `timeout` for the next event.
    fn recv_timeout(&self, timeout: Duration) -> Option<Event>;
}
