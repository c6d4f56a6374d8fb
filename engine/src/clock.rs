//! The game clock: one per game, shared by the app, the engine's time management and the
//! match runner.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use shakmaty::{ByColor, Color};

use crate::{SearchLimits, TimeControl};

/// Where the clock reads the time: the system's monotonic clock, or a hand-driven one in
/// tests.
pub trait TimeSource: Send + Sync {
    /// Time since some fixed origin.
    fn now(&self) -> Duration;
}

/// The system's monotonic clock.
#[derive(Debug)]
pub struct SystemTime {
    origin: Instant,
}

impl Default for SystemTime {
    fn default() -> Self {
        SystemTime { origin: Instant::now() }
    }
}

impl TimeSource for SystemTime {
    fn now(&self) -> Duration {
        self.origin.elapsed()
    }
}

/// A clock that moves only when told to, for tests.
#[derive(Debug, Default, Clone)]
pub struct ManualTime {
    micros: Arc<AtomicU64>,
}

impl ManualTime {
    /// Moves time forward.
    pub fn advance(&self, by: Duration) {
        self.micros.fetch_add(by.as_micros() as u64, Ordering::SeqCst);
    }
}

impl TimeSource for ManualTime {
    fn now(&self) -> Duration {
        Duration::from_micros(self.micros.load(Ordering::SeqCst))
    }
}

/// The clock's readings after a move, kept for take-backs and PGN `[%clk]` comments.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ClockReading {
    /// Both sides' remaining time.
    pub remaining: ByColor<Duration>,
    /// Moves each side has made.
    pub moves_made: ByColor<u32>,
    /// The side whose clock runs next.
    pub to_move: Color,
}

/// A chess clock for two sides, each with its own [`TimeControl`] (time odds).
///
/// ```
/// use std::time::Duration;
/// use kibitz_engine::{Clock, ManualTime, TimeControl};
/// use shakmaty::Color;
///
/// let time = ManualTime::default();
/// let control = TimeControl::sudden_death(Duration::from_secs(60), Duration::from_secs(2));
/// let mut clock = Clock::with_source(control.clone(), control, Box::new(time.clone()));
/// clock.start(Color::White);
/// time.advance(Duration::from_secs(5));
/// clock.press();
/// assert_eq!(clock.remaining(Color::White), Duration::from_secs(57));
/// assert_eq!(clock.running(), Some(Color::Black));
/// ```
pub struct Clock {
    controls: ByColor<TimeControl>,
    source: Box<dyn TimeSource>,
    remaining: ByColor<Duration>,
    moves_made: ByColor<u32>,
    to_move: Color,
    /// When the running side's clock was last started; `None` while stopped or paused.
    since: Option<Duration>,
    started: bool,
    history: Vec<ClockReading>,
    /// How far past zero a side may go before its flag falls (a match's allowance for
    /// process latency); zero by default.
    margin: Duration,
}

impl fmt::Debug for Clock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Clock")
            .field("controls", &self.controls)
            .field("remaining", &self.remaining)
            .field("to_move", &self.to_move)
            .field("running", &self.since.is_some())
            .finish()
    }
}

impl Clock {
    /// A clock on the system time with these controls for White and Black.
    #[must_use]
    pub fn new(white: TimeControl, black: TimeControl) -> Self {
        Self::with_source(white, black, Box::new(SystemTime::default()))
    }

    /// A clock reading time from `source`.
    #[must_use]
    pub fn with_source(white: TimeControl, black: TimeControl, source: Box<dyn TimeSource>) -> Self {
        let remaining = ByColor { white: white.initial_time(), black: black.initial_time() };
        let moves_made = ByColor { white: 0, black: 0 };
        let to_move = Color::White;
        Clock {
            controls: ByColor { white, black },
            source,
            remaining,
            moves_made,
            to_move,
            since: None,
            started: false,
            history: vec![ClockReading { remaining, moves_made, to_move }],
            margin: Duration::ZERO,
        }
    }

    /// Lets a side go `margin` past zero before its flag falls: a move made within the
    /// margin still counts, and earns its increment (cutechess's `timemargin`).
    #[must_use]
    pub fn with_margin(mut self, margin: Duration) -> Self {
        self.margin = margin;
        self
    }

    /// The control of one side.
    #[must_use]
    pub fn control(&self, side: Color) -> &TimeControl {
        self.controls.get(side)
    }

    /// Whether both sides' clocks count down (the controls are clocks, not depths or node
    /// counts).
    #[must_use]
    pub fn is_timed(&self) -> bool {
        self.counts_down(Color::White) && self.counts_down(Color::Black)
    }

    /// Whether `side`'s clock counts down: its control is a clock, not a depth, a node count
    /// or a fixed time a move. With mixed controls only that side can lose on time.
    #[must_use]
    pub fn counts_down(&self, side: Color) -> bool {
        matches!(self.controls.get(side), TimeControl::Clock { .. } | TimeControl::Sandclock(_))
    }

    /// Whether either side's clock counts down: moves are timed and pressed.
    #[must_use]
    pub fn is_partly_timed(&self) -> bool {
        self.counts_down(Color::White) || self.counts_down(Color::Black)
    }

    /// Starts the game: `side`'s clock runs.
    pub fn start(&mut self, side: Color) {
        self.to_move = side;
        self.started = true;
        if let Some(first) = self.history.first_mut() {
            first.to_move = side;
        }
        self.since = Some(self.source.now());
    }

    /// Whether [`Clock::start`] was called.
    #[must_use]
    pub fn is_started(&self) -> bool {
        self.started
    }

    /// The side whose clock runs, if any runs.
    #[must_use]
    pub fn running(&self) -> Option<Color> {
        self.since.map(|_| self.to_move)
    }

    /// Whether the clocks are paused (or not started).
    #[must_use]
    pub fn is_paused(&self) -> bool {
        self.since.is_none()
    }

    /// Stops both clocks, keeping the time used so far.
    pub fn pause(&mut self) {
        self.settle();
        self.since = None;
    }

    /// Restarts the clock of the side to move.
    pub fn resume(&mut self) {
        if self.started && self.since.is_none() {
            self.since = Some(self.source.now());
        }
    }

    /// Charges the running side for the time since its clock last started.
    fn settle(&mut self) {
        if let Some(since) = self.since {
            let now = self.source.now();
            let spent = now.saturating_sub(since);
            let side = self.to_move;
            let left = self.remaining.get(side).saturating_sub(spent);
            *self.remaining.get_mut(side) = left;
            if let TimeControl::Sandclock(_) = self.controls.get(side) {
                *self.remaining.get_mut(!side) += spent;
            }
            self.since = Some(now);
        }
    }

    /// A side's remaining time now, counting the running side's current thinking.
    #[must_use]
    pub fn remaining(&self, side: Color) -> Duration {
        let base = *self.remaining.get(side);
        match self.since {
            Some(since) if side == self.to_move => {
                base.saturating_sub(self.source.now().saturating_sub(since))
            }
            Some(since) if matches!(self.controls.get(!side), TimeControl::Sandclock(_)) => {
                base + self.source.now().saturating_sub(since)
            }
            _ => base,
        }
    }

    /// The side whose time has run out, if a clock that counts down reached zero (and went
    /// past it by more than the margin, when there is one). A side without a clock (a depth,
    /// a node count, a fixed time a move) never runs out, even when its opponent has one.
    #[must_use]
    pub fn flagged(&self) -> Option<Color> {
        if !self.started {
            return None;
        }
        [Color::White, Color::Black].into_iter().find(|&side| self.counts_down(side) && self.is_out(side))
    }

    /// Whether `side`'s time is gone: its clock shows zero and it is overdrawn by at least
    /// the margin.
    fn is_out(&self, side: Color) -> bool {
        let overdrawn = match self.since {
            Some(since) if side == self.to_move => {
                self.source.now().saturating_sub(since).saturating_sub(*self.remaining.get(side))
            }
            _ => Duration::ZERO,
        };
        self.remaining(side).is_zero() && overdrawn >= self.margin
    }

    /// The side to move completed its move: its time is charged, its increment (and a new
    /// period's time at a control) added, and the other clock starts. Returns the mover's
    /// remaining time after the move, as PGN's `[%clk]` records it.
    pub fn press(&mut self) -> Duration {
        let side = self.to_move;
        let out = self.is_out(side);
        self.settle();
        let made = *self.moves_made.get(side);
        let bonus = if out { Duration::ZERO } else { self.controls.get(side).bonus_after_move(made) };
        *self.remaining.get_mut(side) += bonus;
        *self.moves_made.get_mut(side) = made + 1;
        self.to_move = !side;
        self.history.push(ClockReading {
            remaining: self.remaining,
            moves_made: self.moves_made,
            to_move: self.to_move,
        });
        *self.remaining.get(side)
    }

    /// Takes back `plies` moves: both clocks return to their readings before them, and the
    /// clock of the side to move runs again (if it was running).
    pub fn take_back(&mut self, plies: usize) {
        let keep = self.history.len().saturating_sub(plies).max(1);
        self.history.truncate(keep);
        if let Some(reading) = self.history.last() {
            self.remaining = reading.remaining;
            self.moves_made = reading.moves_made;
            self.to_move = reading.to_move;
        }
        if self.since.is_some() {
            self.since = Some(self.source.now());
        }
    }

    /// Sets a side's remaining time by hand (Crafty's `clock`).
    pub fn set_remaining(&mut self, side: Color, time: Duration) {
        self.settle();
        *self.remaining.get_mut(side) = time;
    }

    /// The readings after each move, the start first.
    #[must_use]
    pub fn history(&self) -> &[ClockReading] {
        &self.history
    }

    /// The limits for an engine about to move for `side`: remaining times, increments and
    /// moves to go from the clock, or the control's fixed time, depth or nodes. An opponent
    /// without a clock has no remaining time to tell.
    #[must_use]
    pub fn limits(&self, side: Color) -> SearchLimits {
        match self.controls.get(side) {
            TimeControl::MoveTime(t) => SearchLimits::movetime(*t),
            TimeControl::Depth(d) => SearchLimits::depth(*d),
            TimeControl::Nodes(n) => SearchLimits::nodes(*n),
            TimeControl::Infinite => SearchLimits { infinite: true, ..Default::default() },
            control @ (TimeControl::Clock { .. } | TimeControl::Sandclock(_)) => SearchLimits {
                wtime: self.counts_down(Color::White).then(|| self.remaining(Color::White)),
                btime: self.counts_down(Color::Black).then(|| self.remaining(Color::Black)),
                winc: Some(self.controls.white.increment()),
                binc: Some(self.controls.black.increment()),
                movestogo: control.moves_to_go(*self.moves_made.get(side)),
                ..Default::default()
            },
        }
    }
}

/// `1:05:03`, `4:59`, `9.8` (tenths under ten seconds), as clocks show time.
///
/// ```
/// use std::time::Duration;
/// assert_eq!(kibitz_engine::format_clock(Duration::from_secs(3903)), "1:05:03");
/// assert_eq!(kibitz_engine::format_clock(Duration::from_millis(299_400)), "4:59");
/// assert_eq!(kibitz_engine::format_clock(Duration::from_millis(9_870)), "9.8");
/// ```
#[must_use]
pub fn format_clock(d: Duration) -> String {
    let ms = d.as_millis();
    if ms < 10_000 {
        return format!("{}.{}", ms / 1000, (ms % 1000) / 100);
    }
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// PGN's `[%clk h:mm:ss]` value.
#[must_use]
pub fn pgn_clk(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    fn clock(white: &str, black: &str) -> (Clock, ManualTime) {
        let time = ManualTime::default();
        let w: TimeControl = white.parse().unwrap();
        let b: TimeControl = black.parse().unwrap();
        (Clock::with_source(w, b, Box::new(time.clone())), time)
    }

    /// Plays `moves` plies, each taking `each`.
    fn play(clock: &mut Clock, time: &ManualTime, moves: usize, each: Duration) {
        for _ in 0..moves {
            time.advance(each);
            clock.press();
        }
    }

    #[test]
    fn fischer_increment_is_added_after_each_move() {
        let (mut c, t) = clock("level 0 5 3", "level 0 5 3");
        c.start(Color::White);
        t.advance(secs(10));
        assert_eq!(c.remaining(Color::White), secs(290), "the running clock counts down live");
        assert_eq!(c.press(), secs(293));
        assert_eq!(c.remaining(Color::Black), secs(300));
        let limits = c.limits(Color::Black);
        assert_eq!((limits.wtime, limits.binc, limits.movestogo), (Some(secs(293)), Some(secs(3)), None));
    }

    #[test]
    fn repeating_and_secondary_controls_add_time_at_each_control() {
        // 2 moves in 1 minute, repeating.
        let (mut c, t) = clock("level 2 1 0", "level 2 1 0");
        c.start(Color::White);
        assert_eq!(c.limits(Color::White).movestogo, Some(2));
        play(&mut c, &t, 4, secs(10)); // two moves each: the control is reached
        assert_eq!(c.remaining(Color::White), secs(60 - 20 + 60));
        assert_eq!(c.limits(Color::White).movestogo, Some(2));
        // 60 moves in 30 minutes, then 30 minutes sudden death.
        let (mut c, t) = clock("time 60/30/sd/30", "time 60/30/sd/30");
        c.start(Color::White);
        play(&mut c, &t, 118, secs(1));
        assert_eq!(c.limits(Color::White).movestogo, Some(1));
        play(&mut c, &t, 1, secs(1));
        assert_eq!(c.remaining(Color::White), secs(1800 - 60 + 1800));
        assert_eq!(c.limits(Color::Black).movestogo, Some(1));
    }

    #[test]
    fn time_odds_take_back_pause_and_correction() {
        let (mut c, t) = clock("level 0 10 0", "level 0 1 0");
        c.start(Color::White);
        play(&mut c, &t, 2, secs(5));
        assert_eq!((c.remaining(Color::White), c.remaining(Color::Black)), (secs(595), secs(55)));
        c.pause();
        t.advance(secs(100));
        assert_eq!(c.remaining(Color::White), secs(595), "a paused clock does not run");
        c.resume();
        t.advance(secs(1));
        c.take_back(2);
        assert_eq!((c.remaining(Color::White), c.remaining(Color::Black)), (secs(600), secs(60)));
        assert_eq!(c.running(), Some(Color::White));
        c.set_remaining(Color::Black, secs(42));
        assert_eq!(c.remaining(Color::Black), secs(42));
    }

    #[test]
    fn flag_falls_at_zero_and_fixed_controls_have_no_flag() {
        let (mut c, t) = clock("level 0 1 0", "level 0 1 0");
        c.start(Color::White);
        t.advance(Duration::from_millis(59_999));
        assert_eq!(c.flagged(), None);
        t.advance(Duration::from_millis(1));
        assert_eq!(c.flagged(), Some(Color::White));
        let (mut c, t) = clock("st 5", "sd 8");
        c.start(Color::White);
        t.advance(secs(100));
        assert_eq!(c.flagged(), None);
        assert_eq!(c.limits(Color::White), SearchLimits::movetime(secs(5)));
        assert_eq!(c.limits(Color::Black), SearchLimits::depth(8));
    }

    #[test]
    fn with_mixed_controls_only_the_side_on_a_clock_can_lose_on_time() {
        let (mut c, t) = clock("level 0 1 0", "sd 8");
        assert!(c.is_partly_timed() && !c.is_timed());
        c.start(Color::White);
        t.advance(secs(30));
        c.press();
        // Black thinks for ever on its depth: no flag falls.
        t.advance(secs(600));
        assert_eq!(c.flagged(), None);
        c.press();
        let limits = c.limits(Color::White);
        assert_eq!((limits.wtime, limits.btime), (Some(secs(30)), None), "Black has no clock to tell");
        t.advance(secs(30));
        assert_eq!(c.flagged(), Some(Color::White));
        // The other way round.
        let (mut c, t) = clock("st 1", "level 0 1 0");
        c.start(Color::White);
        t.advance(secs(100));
        assert_eq!(c.flagged(), None);
        c.press();
        t.advance(secs(61));
        assert_eq!(c.flagged(), Some(Color::Black));
    }

    #[test]
    fn a_margin_lets_a_side_go_past_zero_and_keep_its_increment() {
        let control = TimeControl::sudden_death(secs(1), Duration::from_millis(100));
        let time = ManualTime::default();
        let mut c = Clock::with_source(control.clone(), control, Box::new(time.clone()))
            .with_margin(Duration::from_millis(50));
        c.start(Color::White);
        time.advance(Duration::from_millis(1030));
        assert_eq!((c.remaining(Color::White), c.flagged()), (Duration::ZERO, None));
        assert_eq!(c.press(), Duration::from_millis(100), "within the margin: the increment is earned");
        time.advance(Duration::from_millis(1050));
        assert_eq!(c.flagged(), Some(Color::Black), "50 ms past zero is out");
        // Without a margin the same move is out at once, and earns nothing.
        let control = TimeControl::sudden_death(secs(1), Duration::from_millis(100));
        let time = ManualTime::default();
        let mut c = Clock::with_source(control.clone(), control, Box::new(time.clone()));
        c.start(Color::White);
        time.advance(Duration::from_millis(1030));
        assert_eq!(c.flagged(), Some(Color::White));
        assert_eq!(c.press(), Duration::ZERO);
    }

    #[test]
    fn readings_for_pgn() {
        assert_eq!(pgn_clk(secs(3903)), "1:05:03");
        assert_eq!(format_clock(secs(59)), "0:59");
    }
}
