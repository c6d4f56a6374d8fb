//! Kibitz's engine crate: everything that is not GUI.
//!
//! The vocabulary is re-exported here so that callers write `kibitz_engine::GameRecord`,
//! `kibitz_engine::Command`, and so on. The crate never depends on a GUI toolkit: the app,
//! the `kibitz-engine` program and (later) the match runner all drive it the same way, by
//! sending [`Command`]s to an [`EngineHandle`] and draining its [`Event`]s.

mod game;
mod level;
mod limits;
mod pgn;
mod protocol;
mod score;
mod storage;

pub use game::{Ending, GameRecord, IllegalMove, Termination};
pub use level::Level;
pub use limits::SearchLimits;
pub use pgn::{PgnError, read_pgn, write_pgn};
pub use protocol::{Command, Event, SearchInfo};
pub use score::Score;
pub use storage::write_atomic;
