//! Self-play tuning of the draw and resign policy (the design note's tuning plan): a
//! population of engines, identical but for their draw and resign numbers, plays games in
//! pairs; how each game ends decides who is cloned, who is mated with whom and who is
//! replaced ([`replacement`] has the rules). The aim is to reward reading a game's outcome
//! accurately: offering and not offering a draw both carry risks, and resigning keeps some
//! of the resigner's genes where being mated does not.
//!
//! - [`Genome`]: the tuned numbers, named and ranged by [`crate::policy::PolicySettings::PARAMETERS`].
//! - [`Member`]: one engine's numbers; [`Variation`]: mutation and mating (see [`variation`]).
//! - [`pair`]: a generation's pairing; [`Finish`]: how a game ended, read from its remarks.
//! - [`Breeder`]: the replacement rules, with declined offers, agreed draws and resignations
//!   checked by playing the game on ([`Playout`]) or by a [`Referee`]'s evaluation; [`Tuner`]: a run, its games played by the match
//!   runner; [`TuningLog`]: the log, read back for resuming and plotting
//!   ([`GenerationSummary`] per generation).
//! - [`Trial`]: the run's closing trial, in which [`candidates`] from its last generations
//!   play fresh games judged by the referee, and the one that meets the issue's [`Targets`]
//!   becomes BEST ([`chosen`]).

pub mod draw_odds;
mod ending;
mod genome;
mod log;
mod member;
mod pairing;
mod playout;
pub mod referee;
pub mod replacement;
mod run;
mod summary;
mod trial;
pub mod variation;

pub use ending::{Finish, HowEnded, Offer, Playout, Reply, Seat, Tally};
pub use genome::{Genome, GenomeError};
pub use log::{
    GenerationRecord, LOG_VERSION, LogWriter, RefereeJudges, RunHeader, TunedGame, TuningLog, TuningLogError,
};
pub use member::{Member, Origin};
pub use pairing::pair;
pub use referee::{DRAW_AHEAD, Margins, NoFixedLimit, RESIGN_BEHIND, Reading, Referee};
pub use replacement::{Breeder, Replacement, RuleApplied};
pub use run::{Tuner, TuningError};
pub use summary::{EndingCounts, GenerationSummary, ParameterStats};
pub use trial::{Miss, Targets, Trial, TrialCounts, TrialRecord, candidates, chosen};
pub use variation::{Crossover, Variation};
