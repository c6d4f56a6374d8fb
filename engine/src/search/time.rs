//! Turning [`SearchLimits`] into deadlines and node budgets.

use std::time::{Duration, Instant};

use shakmaty::Color;

use super::params::{
    DEFAULT_MOVES_TO_GO, DEFAULT_MOVETIME, INCREMENT_SHARE, MAX_DEPTH, MOVE_OVERHEAD, SOFT_LIMIT_PERCENT,
};
use crate::SearchLimits;

/// When one search must end.
#[derive(Clone, Debug)]
pub struct Budget {
    /// When the search started.
    pub start: Instant,
    /// The search stops at once when this passes.
    pub hard: Option<Duration>,
    /// No new iteration starts after this.
    pub soft: Option<Duration>,
    /// The search stops after this many nodes.
    pub nodes: Option<u64>,
    /// The last iteration to search.
    pub depth: u32,
}

impl Budget {
    /// The budget for `limits` with `turn` to move, starting now.
    #[must_use]
    pub fn new(limits: &SearchLimits, turn: Color) -> Budget {
        let (time, inc) = match turn {
            Color::White => (limits.wtime, limits.winc),
            Color::Black => (limits.btime, limits.binc),
        };
        let mut hard = None;
        let mut soft = None;
        if !limits.infinite {
            if let Some(movetime) = limits.movetime {
                // Keep a small reserve, but never more than a tenth of the time.
                let time = movetime.saturating_sub(MOVE_OVERHEAD.min(movetime / 10));
                hard = Some(time);
                soft = Some(time);
            } else if let Some(remaining) = time {
                let allotted = allot(remaining, inc.unwrap_or_default(), limits.movestogo);
                hard = Some(allotted);
                soft = Some(allotted * SOFT_LIMIT_PERCENT / 100);
            } else if limits.depth.is_none() && limits.nodes.is_none() {
                hard = Some(DEFAULT_MOVETIME);
                soft = Some(DEFAULT_MOVETIME);
            }
        }
        Budget {
            start: Instant::now(),
            hard,
            soft,
            nodes: limits.nodes,
            depth: limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH),
        }
    }

    /// Time spent since the start.
    #[must_use]
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether the hard deadline has passed.
    #[must_use]
    pub fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|hard| self.elapsed() >= hard)
    }

    /// Whether it is too late to start another iteration.
    #[must_use]
    pub fn soft_expired(&self) -> bool {
        self.soft.is_some_and(|soft| self.elapsed() >= soft)
    }
}

/// The time for one move: the remaining time spread over the moves to go plus most of the
/// increment, capped at half the remaining time minus the safety overhead.
#[must_use]
pub fn allot(remaining: Duration, increment: Duration, movestogo: Option<u32>) -> Duration {
    let moves = movestogo.filter(|&n| n > 0).unwrap_or(DEFAULT_MOVES_TO_GO);
    let (num, den) = INCREMENT_SHARE;
    let wanted = remaining / moves + increment * num / den;
    let cap = (remaining / 2).saturating_sub(MOVE_OVERHEAD);
    wanted.min(cap)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allotment_follows_the_formula() {
        let ms = Duration::from_millis;
        assert_eq!(allot(ms(60_000), ms(0), None), ms(2_000));
        assert_eq!(allot(ms(60_000), ms(1_000), Some(10)), ms(6_750));
        // Little time left: never more than half of it minus the overhead.
        assert_eq!(allot(ms(100), ms(1_000), None), ms(20));
        assert_eq!(allot(ms(40), ms(0), None), ms(0));
    }

    #[test]
    fn depth_only_has_no_deadline() {
        let budget = Budget::new(&SearchLimits::depth(5), Color::White);
        assert_eq!(budget.hard, None);
        assert_eq!(budget.depth, 5);
    }

    #[test]
    fn infinite_ignores_the_clock() {
        let limits =
            SearchLimits { infinite: true, wtime: Some(Duration::from_millis(10)), ..Default::default() };
        assert_eq!(Budget::new(&limits, Color::White).hard, None);
    }
}
