//! Every tunable number of the search, named and in one place.

use std::sync::OnceLock;
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

/// The score of a tablebase win found `p` plies from the root: `TB_WIN - p`. Below every
/// mate score and above every evaluation.
pub const TB_WIN: i32 = 20_000;

/// Scores beyond this magnitude are tablebase values or mates; every evaluation is below it.
pub const TB_BOUND: i32 = TB_WIN - MAX_PLY as i32;

/// How much deeper than the current depth a tablebase value is stored: it is exact, and no
/// search of any depth improves on it.
pub const TB_DEPTH_BONUS: i32 = 6;

/// The largest draw score the search takes, in centipawns (the policy's `contempt` range).
pub const MAX_DRAW_SCORE: i32 = 500;

/// The default transposition table size in megabytes.
pub const DEFAULT_HASH_MB: usize = 16;

/// The largest transposition table size the engine accepts, in megabytes.
pub const MAX_HASH_MB: usize = 1024;

/// How many nodes pass between two looks at the clock.
pub const TIME_CHECK_INTERVAL: u64 = 1024;

/// Each thread of a search adds its nodes to the search's count every this many nodes, so a
/// node limit on several threads is passed by at most about this many nodes per helper.
pub const NODE_TALLY_INTERVAL: u64 = 64;

/// Time kept in reserve for communication delays when playing on a clock.
pub const MOVE_OVERHEAD: Duration = Duration::from_millis(50);

/// How many moves the remaining time is spread over when `movestogo` is not given.
pub const DEFAULT_MOVES_TO_GO: u32 = 30;

/// The share of the increment spent on each move, as a numerator and denominator.
pub const INCREMENT_SHARE: (u32, u32) = (3, 4);

/// The time used when `go` has no limit at all and is not infinite.
pub const DEFAULT_MOVETIME: Duration = Duration::from_secs(1);

/// With a clock, no new iteration starts after this share (in percent) of the target time,
/// before iterative deepening scales it by how settled the search is. 70 beat 50 at 10+0.1 by
/// +19.1 ± 21.3 over 400 games (docs/STRENGTH.md, session 34): a game then ends with about
/// 1.5 s of a 10 s clock left instead of 3 s (90% of the clock used instead of 81%).
pub const SOFT_LIMIT_PERCENT: u32 = 70;

/// With a clock, the search is abandoned at this multiple of the target time.
pub const HARD_LIMIT_FACTOR: u32 = 3;

/// The most of the time left (after the overhead), in percent, one move may take.
pub const MAX_SHARE_PERCENT: u32 = 40;

/// The most of the time left (after the overhead), in percent, the last move before a
/// time control may take.
pub const LAST_MOVE_SHARE_PERCENT: u32 = 80;

/// Null-move pruning is tried from this remaining depth on.
pub const NULL_MOVE_MIN_DEPTH: i32 = 3;

/// The depth reduction of the null-move search, before the depth and margin terms.
pub const NULL_MOVE_REDUCTION: i32 = 3;

/// The null-move reduction grows by one ply per this many plies of remaining depth.
pub const NULL_MOVE_DEPTH_DIVISOR: i32 = 3;

/// The null-move reduction grows by one ply per this much the static evaluation exceeds
/// beta, up to [`NULL_MOVE_MARGIN_MAX`] plies.
pub const NULL_MOVE_MARGIN_DIVISOR: i32 = 150;

/// The most plies the evaluation margin adds to the null-move reduction.
pub const NULL_MOVE_MARGIN_MAX: i32 = 3;

/// Late-move reductions apply from this remaining depth on.
pub const LMR_MIN_DEPTH: i32 = 3;

/// Late-move reductions: the constant part of `base + ln(depth) * ln(moves) / divisor`.
/// 1.0 and 2.0 (reducing more) beat session 3's 0.75 and 2.25 by +12.0 Elo [+2.6, +21.5]
/// over 3000 games at 20,000 nodes a move (docs/STRENGTH.md, sessions 36 and 37).
pub const LMR_BASE: f64 = 1.0;

/// Late-move reductions: the divisor of `ln(depth) * ln(moves)`.
pub const LMR_DIVISOR: f64 = 2.0;

/// A quiet move's history score changes its reduction by one ply per this much.
pub const LMR_HISTORY_DIVISOR: i32 = 6_000;

/// Late-move pruning applies up to this remaining depth.
pub const LMP_MAX_DEPTH: i32 = 8;

/// Late-move pruning: quiet moves after `LMP_BASE + depth * depth` searched moves are
/// skipped (half as many when the position is not improving).
pub const LMP_BASE: i32 = 3;

/// Static exchange pruning applies up to this remaining depth, outside PV nodes.
pub const SEE_PRUNE_MAX_DEPTH: i32 = 8;

/// Static exchange pruning: a capture losing more than this much per ply is skipped.
pub const SEE_CAPTURE_MARGIN: i32 = 100;

/// Static exchange pruning: a quiet move losing more than this much per ply squared is
/// skipped.
pub const SEE_QUIET_MARGIN: i32 = 20;

/// Internal iterative reduction: a node without a transposition table move searched at
/// least this deep is searched one ply shallower.
pub const IIR_MIN_DEPTH: i32 = 4;

/// The largest history bonus or malus of one cutoff.
pub const HISTORY_BONUS_MAX: i32 = 1_600;

/// History scores stay within plus or minus this (the bonus shrinks near the limit).
pub const HISTORY_LIMIT: i32 = 16_384;

/// Quiescence delta pruning: a capture that cannot raise the score above alpha even with
/// this much positional gain is skipped.
pub const DELTA_MARGIN: i32 = 200;

/// Iterations from this depth on start with a window around the previous score.
pub const ASPIRATION_MIN_DEPTH: u32 = 4;

/// The half-width of the first aspiration window, in centipawns.
pub const ASPIRATION_WINDOW: i32 = 19;

/// After a failed aspiration search the window widens by this factor.
pub const ASPIRATION_GROWTH: i32 = 2;

/// The root move being searched is reported once a search has run this long.
pub const CURRMOVE_AFTER: Duration = Duration::from_secs(1);

/// Transposition table entries per bucket.
pub const BUCKET_SIZE: usize = 4;

/// When choosing an entry to replace, each search of age counts as this many plies of depth.
pub const TT_AGE_WEIGHT: i32 = 8;

/// Lazy SMP: helper thread `i` (from 1) skips the iterations whose depth `d` has
/// `(d + SKIP_PHASE[k]) / SKIP_SIZE[k]` odd, `k = (i - 1) % 20`, so that the helpers spread over
/// several depths rather than all search the main thread's (Stockfish 9's tables).
pub const SKIP_SIZE: [u32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];

/// Lazy SMP: the phase of each helper's depth skipping; see [`SKIP_SIZE`].
pub const SKIP_PHASE: [u32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

/// Singular extensions are tried from this remaining depth on.
pub const SINGULAR_MIN_DEPTH: i32 = 8;

/// Singular extensions: the table's entry must be at most this many plies shallower than
/// the node.
pub const SINGULAR_DEPTH_MARGIN: i32 = 3;

/// Singular extensions: the other moves must stay this much per ply below the table's score.
pub const SINGULAR_MARGIN: i32 = 2;

/// Piece values for static exchange evaluation, pawn to king.
pub const SEE_VALUES: [i32; 6] = [100, 320, 330, 500, 900, 20_000];

/// Reverse futility pruning applies up to this remaining depth.
pub const RFP_MAX_DEPTH: i32 = 6;

/// Reverse futility pruning: the static evaluation must beat beta by this much per ply.
pub const RFP_MARGIN: i32 = 60;

/// Futility pruning of quiet moves applies up to this remaining depth.
pub const FUTILITY_MAX_DEPTH: i32 = 3;

/// Futility pruning: a quiet move is skipped when the static evaluation plus this much per
/// ply of remaining depth (plus the base) cannot reach alpha.
pub const FUTILITY_MARGIN: i32 = 75;

/// The part of the futility margin that does not depend on depth.
pub const FUTILITY_BASE: i32 = 38;

/// The late-move reduction, in plies, of the `number`th move (from 1) searched with `depth`
/// plies to go, before adjustments: `LMR_BASE + ln(depth) * ln(number) / LMR_DIVISOR`.
#[must_use]
pub fn lmr_reduction(depth: i32, number: usize) -> i32 {
    static TABLE: OnceLock<Vec<[i8; 64]>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        (0..64)
            .map(|d| {
                let mut row = [0i8; 64];
                for (n, r) in row.iter_mut().enumerate().skip(1) {
                    if d > 0 {
                        let value = LMR_BASE + (d as f64).ln() * (n as f64).ln() / LMR_DIVISOR;
                        *r = value as i8;
                    }
                }
                row
            })
            .collect()
    });
    i32::from(table[depth.clamp(0, 63) as usize][number.min(63)])
}

/// On a clock, the soft limit in percent by how many iterations in a row ended with the same
/// best move (0, 1, 2, 3, 4 or more): a move that keeps changing gets more time, a settled
/// one less.
pub const STABILITY_PERCENT: [u32; 5] = [220, 140, 110, 95, 85];

/// On a clock, a score that fell by `d` centipawns since the last iteration stretches the
/// soft limit by `min(d, SCORE_DROP_MAX)` percent.
pub const SCORE_DROP_MAX: i32 = 80;
