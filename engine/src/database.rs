//! A PGN file as a game database: an index of its games (where each starts and the columns of
//! the game list) built in the background, sorted and filtered without touching the file, and
//! one game loaded from it when it is selected. The index holds compact headers, not games, so
//! a file of a million games opens in bounded memory.

mod index;
mod indexer;

pub use index::{Column, GameHeader, GameIndex};
pub use indexer::{IndexJob, IndexProgress};
