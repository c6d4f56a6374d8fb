//! Every tunable number of the search, named and in one place.

use std::time::Duration;

/// The deepest ply the search ever reaches (main search and quiescence together).
pub const MAX_PLY: usize = 128;

/// The deepest iteration iterative deepening starts.
pub const MAX_DEPTH: u32 = 100;

/// A score outside every reachable window.
pub const INFINITY: i32 = 32_000;

/// The score of delivering mate at the root; mate in `p` plies scores `MATE - p`.
pub const MATE: i32 = 31_000;

/// Scores beyond this magnitude are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;

/// The default transposition table size in megabytes.
pub const DEFAULT_HASH_MB: usize = 16;

/// The largest transposition table size the engine accepts, in megabytes.
pub const MAX_HASH_MB: usize = 1024;

/// How many nodes pass between two looks at the clock.
pub const TIME_CHECK_INTERVAL: u64 = 1024;

/// Time kept in reserve for communication delays when playing on a clock.
pub const MOVE_OVERHEAD: Duration = Duration::from_millis(30);

/// How many moves the remaining time is spread over when `movestogo` is not given.
pub const DEFAULT_MOVES_TO_GO: u32 = 30;

/// The share of the increment spent on each move, as a numerator and denominator.
pub const INCREMENT_SHARE: (u32, u32) = (3, 4);

/// The time used when `go` has no limit at all and is not infinite.
pub const DEFAULT_MOVETIME: Duration = Duration::from_secs(1);

/// With a clock, no new iteration starts after this share (in percent) of the allotted time.
pub const SOFT_LIMIT_PERCENT: u32 = 50;

/// Null-move pruning is tried from this remaining depth on.
pub const NULL_MOVE_MIN_DEPTH: i32 = 3;

/// The depth reduction of the null-move search.
pub const NULL_MOVE_REDUCTION: i32 = 2;

/// Late-move reductions apply from this remaining depth on.
pub const LMR_MIN_DEPTH: i32 = 3;

/// Late-move reductions apply to quiet moves after this many moves were searched.
pub const LMR_MIN_MOVES: usize = 3;

/// After this many searched moves the reduction grows by one more ply.
pub const LMR_DEEP_MOVES: usize = 8;
