//! Turning [`SearchLimits`] into deadlines and node budgets.
//!
//! On a clock the engine gets two limits: a soft one, after which no new iteration starts,
//! and a hard one, at which the search is abandoned. The hard limit never exceeds the
//! remaining time minus the move overhead, so the engine does not lose on time. The soft
//! limit of a clock is elastic: iterative deepening stretches it while the best move keeps
//! changing or the score falls, and shrinks it once the best move has settled.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use shakmaty::Color;

use super::params::{
    DEFAULT_MOVES_TO_GO, DEFAULT_MOVETIME, HARD_LIMIT_FACTOR, INCREMENT_SHARE, LAST_MOVE_SHARE_PERCENT,
    MAX_DEPTH, MAX_SHARE_PERCENT, MOVE_OVERHEAD, SOFT_LIMIT_PERCENT,
};
use crate::SearchLimits;

/// The deepest a search for a mate in `moves` goes (`go mate`), so that it ends when there
/// is no such mate: the mate's length, `2 × moves − 1` plies, which is enough because that
/// search prunes and reduces nothing (see `Searcher::proving`). A mate in 0 moves, which
/// only a side already mated has, is taken as a mate in 1.
#[must_use]
pub fn mate_depth(moves: u32) -> u32 {
    moves.max(1).saturating_mul(2) - 1
}

/// The time one move may take on a clock.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Allotment {
    /// No new iteration starts after this.
    pub soft: Duration,
    /// The search is abandoned at this; never more than the remaining time minus the
    /// overhead.
    pub hard: Duration,
}

/// When one search must end.
#[derive(Debug)]
pub struct Budget<'a> {
    /// When the search started.
    pub start: Instant,
    /// The search stops at once when this passes.
    pub hard: Option<Duration>,
    /// No new iteration starts after this.
    pub soft: Option<Duration>,
    /// Whether the soft limit comes from a clock, and so may stretch or shrink with how
    /// settled the search is (a fixed move time is kept as given).
    pub elastic: bool,
    /// The search stops after this many nodes.
    pub nodes: Option<u64>,
    /// The last iteration to search.
    pub depth: u32,
    /// While set, the search ponders and no deadline applies.
    pub pondering: &'a AtomicBool,
}

impl<'a> Budget<'a> {
    /// The budget for `limits` with `turn` to move, starting now. Deadlines only count
    /// once `pondering` is clear.
    #[must_use]
    pub fn new(limits: &SearchLimits, turn: Color, pondering: &'a AtomicBool) -> Budget<'a> {
        let (time, inc) = match turn {
            Color::White => (limits.wtime, limits.winc),
            Color::Black => (limits.btime, limits.binc),
        };
        let overhead = limits.move_overhead.unwrap_or(MOVE_OVERHEAD);
        let mut hard = None;
        let mut soft = None;
        let elastic = !limits.infinite && limits.movetime.is_none() && time.is_some();
        if !limits.infinite {
            if let Some(movetime) = limits.movetime {
                // Keep the overhead in reserve, but never more than half the time.
                let time = movetime.saturating_sub(overhead.min(movetime / 2));
                hard = Some(time);
                soft = Some(time);
            }
            if let Some(remaining) = time {
                let allotted = allot(remaining, inc.unwrap_or_default(), limits.movestogo, overhead);
                hard = Some(hard.map_or(allotted.hard, |h: Duration| h.min(allotted.hard)));
                soft = Some(soft.map_or(allotted.soft, |s: Duration| s.min(allotted.soft)));
            }
            if hard.is_none() && limits.depth.is_none() && limits.nodes.is_none() && limits.mate.is_none() {
                hard = Some(DEFAULT_MOVETIME);
                soft = Some(DEFAULT_MOVETIME);
            }
        }
        Budget {
            start: Instant::now(),
            hard,
            soft,
            elastic,
            nodes: limits.nodes,
            depth: limits
                .depth
                .unwrap_or(MAX_DEPTH)
                .min(limits.mate.map_or(MAX_DEPTH, mate_depth))
                .clamp(1, MAX_DEPTH),
            pondering,
        }
    }

    /// Time spent since the start.
    #[must_use]
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    fn timing(&self) -> bool {
        !self.pondering.load(Ordering::Relaxed)
    }

    /// Whether the hard deadline has passed.
    #[must_use]
    pub fn hard_expired(&self) -> bool {
        self.timing() && self.hard.is_some_and(|hard| self.elapsed() >= hard)
    }

    /// Whether it is too late to start another iteration, the soft limit scaled by
    /// `percent` when it is elastic, never beyond the hard limit.
    #[must_use]
    pub fn soft_expired(&self, percent: u32) -> bool {
        let limit = |soft: Duration| match self.elastic {
            true => (soft * percent / 100).min(self.hard.unwrap_or(Duration::MAX)),
            false => soft,
        };
        self.timing() && self.soft.is_some_and(|soft| self.elapsed() >= limit(soft))
    }
}

/// The time for one move with `remaining` on the clock, `increment` per move and
/// `movestogo` moves to the next control (`None`: sudden death). The target is the time
/// left after the overhead spread over the moves to go, plus most of the increment; the
/// soft limit is part of that, the hard limit a multiple of it, capped at a share of the
/// time left after the overhead (most of it on the last move before a control).
///
/// ```
/// use std::time::Duration;
/// use kibitz_engine::allot;
/// let ms = Duration::from_millis;
/// let a = allot(ms(60_000), ms(0), None, ms(30));
/// assert!(a.soft < a.hard && a.hard <= ms(60_000 - 30));
/// ```
#[must_use]
pub fn allot(
    remaining: Duration,
    increment: Duration,
    movestogo: Option<u32>,
    overhead: Duration,
) -> Allotment {
    let available = remaining.saturating_sub(overhead);
    let moves = movestogo.filter(|&n| n > 0).unwrap_or(DEFAULT_MOVES_TO_GO);
    let (num, den) = INCREMENT_SHARE;
    let cap_percent = if moves == 1 { LAST_MOVE_SHARE_PERCENT } else { MAX_SHARE_PERCENT };
    let cap = available * cap_percent / 100;
    let target = (available / moves + increment * num / den).min(cap);
    Allotment { soft: target * SOFT_LIMIT_PERCENT / 100, hard: (target * HARD_LIMIT_FACTOR).min(cap) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn allotment_follows_the_formula() {
        let a = allot(ms(60_030), ms(0), None, ms(30));
        assert_eq!(a.soft, ms(2_000) * SOFT_LIMIT_PERCENT / 100);
        assert_eq!(a.hard, ms(2_000 * HARD_LIMIT_FACTOR as u64));
        let b = allot(ms(60_030), ms(1_000), Some(10), ms(30));
        assert_eq!(b.soft, ms(6_750) * SOFT_LIMIT_PERCENT / 100);
    }

    #[test]
    fn never_more_than_remaining_minus_overhead() {
        for remaining in [0, 1, 10, 29, 30, 31, 50, 100, 1_000, 10_000, 600_000] {
            for inc in [0, 10, 1_000, 30_000] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    for overhead in [0, 30, 100] {
                        let a = allot(ms(remaining), ms(inc), mtg, ms(overhead));
                        let limit = ms(remaining).saturating_sub(ms(overhead));
                        assert!(a.hard <= limit, "{remaining} {inc} {mtg:?} {overhead}: {a:?}");
                        assert!(a.soft <= a.hard);
                    }
                }
            }
        }
    }

    #[test]
    fn little_time_left_is_spent_carefully() {
        // A big increment does not tempt the engine into using time it does not have.
        let a = allot(ms(100), ms(1_000), None, ms(30));
        assert!(a.hard <= ms(35));
        assert_eq!(allot(ms(40), ms(0), None, ms(50)).hard, ms(0));
        // The last move before a control may use most of the clock, never all of it.
        let last = allot(ms(10_030), ms(0), Some(1), ms(30));
        assert!(last.hard > ms(5_000) && last.hard < ms(10_000));
    }

    #[test]
    fn depth_only_has_no_deadline() {
        let pondering = AtomicBool::new(false);
        let budget = Budget::new(&SearchLimits::depth(5), Color::White, &pondering);
        assert_eq!(budget.hard, None);
        assert_eq!(budget.depth, 5);
    }

    #[test]
    fn a_mate_search_ends_at_the_mate_length() {
        let pondering = AtomicBool::new(false);
        let depth = |mate: u32, depth: Option<u32>| {
            let limits = SearchLimits { mate: Some(mate), depth, ..Default::default() };
            Budget::new(&limits, Color::White, &pondering).depth
        };
        // A mate in 0 is looked for as a mate in 1: 1 ply.
        assert_eq!((depth(0, None), depth(1, None), depth(3, None)), (1, 1, 5));
        assert_eq!(depth(3, Some(4)), 4);
        assert_eq!(depth(u32::MAX, None), MAX_DEPTH);
    }

    #[test]
    fn infinite_ignores_the_clock() {
        let pondering = AtomicBool::new(false);
        let limits = SearchLimits { infinite: true, wtime: Some(ms(10)), ..Default::default() };
        assert_eq!(Budget::new(&limits, Color::White, &pondering).hard, None);
    }

    #[test]
    fn pondering_suspends_the_deadlines() {
        let pondering = AtomicBool::new(true);
        let budget = Budget::new(&SearchLimits::movetime(ms(1)), Color::White, &pondering);
        std::thread::sleep(ms(5));
        assert!(!budget.hard_expired() && !budget.soft_expired(100));
        pondering.store(false, Ordering::Relaxed);
        assert!(budget.hard_expired() && budget.soft_expired(100));
    }

    #[test]
    fn only_a_clock_stretches_the_soft_limit_and_never_past_the_hard_one() {
        let pondering = AtomicBool::new(false);
        let clock = SearchLimits { wtime: Some(ms(60_000)), ..Default::default() };
        let budget = Budget::new(&clock, Color::White, &pondering);
        let (soft, hard) = (budget.soft.expect("a soft limit"), budget.hard.expect("a hard limit"));
        let at = |elapsed: Duration, percent| {
            let budget =
                Budget { start: Instant::now() - elapsed, ..Budget::new(&clock, Color::White, &pondering) };
            budget.soft_expired(percent)
        };
        assert!(at(soft, 100) && !at(soft, 150) && at(soft * 3 / 2, 150));
        assert!(at(soft / 2, 50) && !at(soft / 2 - ms(10), 50));
        // Stretched beyond the hard limit, the soft one stops at it.
        assert!(at(hard, 10_000));
        // A fixed move time is kept as given.
        let fixed = Budget::new(&SearchLimits::movetime(ms(1_000)), Color::White, &pondering);
        assert!(!fixed.elastic);
        let fixed = Budget { start: Instant::now() - fixed.soft.expect("soft"), ..fixed };
        assert!(fixed.soft_expired(300));
    }

    #[test]
    fn move_overhead_is_configurable() {
        let pondering = AtomicBool::new(false);
        let limits =
            SearchLimits { btime: Some(ms(1_000)), move_overhead: Some(ms(500)), ..Default::default() };
        let budget = Budget::new(&limits, Color::Black, &pondering);
        assert!(budget.hard.is_some_and(|h| h <= ms(500)));
    }
}
