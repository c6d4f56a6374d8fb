//! What bounds a search: depth, nodes, time, or a clock.

use std::time::Duration;

use shakmaty::Move;

/// The limits of one search, as UCI's `go` carries them. Empty limits mean "search until
/// stopped" only when `infinite` is set; otherwise the engine picks a modest default.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchLimits {
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Maximum number of nodes.
    pub nodes: Option<u64>,
    /// Exactly this much time for the move.
    pub movetime: Option<Duration>,
    /// White's remaining time.
    pub wtime: Option<Duration>,
    /// Black's remaining time.
    pub btime: Option<Duration>,
    /// White's increment per move.
    pub winc: Option<Duration>,
    /// Black's increment per move.
    pub binc: Option<Duration>,
    /// Moves until the next time control.
    pub movestogo: Option<u32>,
    /// Search until told to stop.
    pub infinite: bool,
    /// Prove a mate in at most this many moves: the search prunes and reduces nothing, stops
    /// once it finds one, and, when there is none, after the mate's length, `2 × mate − 1`
    /// plies (a mate in 0 counts as 1).
    pub mate: Option<u32>,
    /// Search on the opponent's time: no deadline counts until `Command::PonderHit`, and
    /// the best move is only reported after that (or after `Command::Stop`).
    pub ponder: bool,
    /// Consider only these root moves (all legal moves when empty).
    pub searchmoves: Vec<Move>,
    /// How many best lines to report; `None` or `Some(1)` for the usual single line.
    pub multipv: Option<u32>,
    /// Time kept in reserve for communication delays; `None` for the engine's default.
    pub move_overhead: Option<Duration>,
}

impl SearchLimits {
    /// Search to a fixed depth.
    #[must_use]
    pub fn depth(depth: u32) -> Self {
        SearchLimits { depth: Some(depth), ..Default::default() }
    }

    /// Search for a fixed time.
    #[must_use]
    pub fn movetime(time: Duration) -> Self {
        SearchLimits { movetime: Some(time), ..Default::default() }
    }

    /// Search a fixed number of nodes.
    #[must_use]
    pub fn nodes(nodes: u64) -> Self {
        SearchLimits { nodes: Some(nodes), ..Default::default() }
    }
}
