//! What bounds a search: depth, nodes, time, or a clock.

use std::time::Duration;

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
