//! Engine matches and tournaments under TCEC's rules: the arbiter's adjudication rules (TCEC's
//! draw and win rules, Fishtest's, Syzygy tablebases), the statistics of a match (Elo, LOS, the
//! pentanomial counts of game pairs, the SPRT), and who plays whom (round robin, gauntlet, the
//! TCEC Cup's knockout seeding).
//!
//! A match runner builds one [`Arbiter`] per game from its [`AdjudicationRules`] and hands it to
//! the [`Conductor`](crate::Conductor):
//!
//! ```
//! use std::sync::Arc;
//! use kibitz_engine::{AdjudicationRules, Conductor, GameRecord, SyzygyTables};
//! use shakmaty::ByColor;
//!
//! let rules: AdjudicationRules = "tcec,draw.moves=6".parse().unwrap();
//! let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/syzygy");
//! let tables = Arc::new(SyzygyTables::open(folder).unwrap());
//! let conductor = Conductor::new(GameRecord::new(), None, ByColor::new_with(|_| None))
//!     .with_adjudicator(rules.adjudicator(Some(tables)));
//! assert!(!conductor.is_over());
//! ```

mod adjudication;
mod arbiter;
mod pairing;
mod rules;
mod sprt;
mod stats;
mod tablebase;

pub use adjudication::{Countdown, DrawRule, Ply, WinRule};
pub use arbiter::Arbiter;
pub use pairing::{KnockoutMatch, Pairing, gauntlet, knockout, next_round, round_robin};
pub use rules::{AdjudicationError, AdjudicationRules};
pub use sprt::{Sprt, SprtDecision, SprtError, SprtModel, SprtStatus};
pub use stats::{EloEstimate, GameResult, Pentanomial, WinDrawLoss, Z95, elo_from_score, score_from_elo};
pub use tablebase::TablebaseRule;
