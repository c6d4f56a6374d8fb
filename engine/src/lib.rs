//! Kibitz's engine crate: everything that is not GUI.
//!
//! The vocabulary is re-exported here so that callers write `kibitz_engine::GameRecord`,
//! `kibitz_engine::Command`, and so on. The crate never depends on a GUI toolkit: the app,
//! the `kibitz-engine` program and (later) the match runner all drive it the same way, by
//! sending [`Command`]s to an [`EngineHandle`] and draining its [`Event`]s.

mod bench;
pub mod cli;
mod eval;
mod game;
mod level;
mod limits;
mod perft;
mod pgn;
mod protocol;
mod score;
mod search;
mod storage;
mod thread;
mod uci;

pub use bench::{BENCH_DEPTH, BENCH_POSITIONS, BenchReport, bench};
pub use eval::evaluate;
pub use game::{Ending, GameRecord, IllegalMove, Termination};
pub use level::Level;
pub use limits::SearchLimits;
pub use perft::{divide, perft};
pub use pgn::{PgnError, pgn_date_today, read_pgn, write_pgn};
pub use protocol::{Command, Event, SearchInfo};
pub use score::Score;
pub use search::{Engine, SearchOutcome, allot, position_hash};
pub use storage::write_atomic;
pub use thread::EngineHandle;
pub use uci::{ENGINE_AUTHOR, ENGINE_NAME, UciCommand, format_bestmove, format_info, parse_line, run_uci};
