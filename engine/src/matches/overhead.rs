//! What the runner itself costs the engines' clocks: per move, the time from the mover's
//! clock starting to its `go` being sent plus the time from its best move arriving to the
//! clock being pressed; and, on a clock, what the clock charged beyond the search time the
//! engine reported (the runner's share plus the pipe or channel the move came through and
//! the engine's own delay in reporting).

use std::fmt;
use std::time::Duration;

use crate::runner::MoveReport;

/// The runner's overhead over the moves of a match.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Overhead {
    /// Moves counted.
    pub moves: u64,
    /// The runner's own time on each move, in the order counted.
    pub samples: Vec<Duration>,
    /// The runner's own time, over all moves.
    pub total: Duration,
    /// The runner's own time on the dearest move.
    pub max: Duration,
    /// Moves on a clock that counts down.
    pub timed_moves: u64,
    /// Over those moves, the clock's charge minus the engine's reported search time, in
    /// microseconds (negative when engines report more than the clock saw).
    pub charge_beyond_search_us: i64,
}

impl Overhead {
    /// Counts one move.
    pub fn add(&mut self, report: &MoveReport) {
        self.moves += 1;
        self.samples.push(report.overhead);
        self.total += report.overhead;
        self.max = self.max.max(report.overhead);
        if report.timed && !report.book {
            self.timed_moves += 1;
            let micros = |d: Duration| i64::try_from(d.as_micros()).unwrap_or(i64::MAX);
            self.charge_beyond_search_us += micros(report.time) - micros(report.engine_time);
        }
    }

    /// The runner's time on the move at `fraction` (0.5: the median) of the moves sorted by
    /// it.
    #[must_use]
    pub fn percentile(&self, fraction: f64) -> Duration {
        let mut sorted = self.samples.clone();
        sorted.sort_unstable();
        let last = sorted.len().saturating_sub(1);
        let at = ((last as f64) * fraction.clamp(0.0, 1.0)).round() as usize;
        sorted.get(at).copied().unwrap_or_default()
    }

    /// The runner's mean time per move.
    #[must_use]
    pub fn mean(&self) -> Duration {
        if self.moves == 0 {
            Duration::ZERO
        } else {
            self.total / u32::try_from(self.moves).unwrap_or(u32::MAX)
        }
    }
}

impl fmt::Display for Overhead {
    /// `runner overhead per move: mean 0.041 ms, median 0.030 ms, p99 0.300 ms, max 0.812 ms
    /// (1234 moves); clock charge beyond the engines' reported search: mean 0.520 ms (1100
    /// moves)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        write!(
            f,
            "runner overhead per move: mean {:.3} ms, median {:.3} ms, p99 {:.3} ms, max {:.3} ms ({} moves)",
            ms(self.mean()),
            ms(self.percentile(0.5)),
            ms(self.percentile(0.99)),
            ms(self.max),
            self.moves
        )?;
        if self.timed_moves > 0 {
            let mean = self.charge_beyond_search_us as f64 / self.timed_moves as f64 / 1000.0;
            write!(
                f,
                "; clock charge beyond the engines' reported search: mean {mean:.3} ms ({} moves)",
                self.timed_moves
            )?;
        }
        Ok(())
    }
}
