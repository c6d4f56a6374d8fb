//! An analyst: one [`Player`] analysing whatever position it is shown, without end, as
//! Crafty's `analyze` does. Each new position stops the running search and starts another;
//! the lines of the current search are an [`Analysis`].
//!
//! The owner shows it positions with [`Analyst::show`] (as often as it likes: the same
//! position twice changes nothing), turns it on and off with [`Analyst::start`] and
//! [`Analyst::stop`], and drains its player with [`Analyst::drain`] (the app, once per frame).
//! Every search says [`Purpose::Analyse`], so the book and learning never answer it.

use std::time::{Duration, Instant};

use shakmaty::{Chess, KnownOutcome, Move, Position};

use crate::{
    Analysis, Command, EngineOption, Event, OptionKind, Player, PlayerFailure, Purpose, SearchLimits,
};

/// The most lines an analyst shows when the engine does not say how many it can give.
pub const MAX_LINES: u32 = 5;

/// What an analyst is doing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnalystState {
    /// Turned off: the lines of the last search stay shown.
    Stopped,
    /// Analysing the position shown.
    Running,
    /// The position shown has no legal move: nothing to analyse.
    GameOver(KnownOutcome),
    /// The player failed (crashed, hung, could not start); it needs a restart.
    Failed,
}

/// A player analysing the position it is shown.
pub struct Analyst {
    player: Box<dyn Player>,
    state: AnalystState,
    multipv: u32,
    /// The position shown: the start and the moves from it (the history for repetitions).
    shown: Option<(Chess, Vec<Move>)>,
    analysis: Option<Analysis>,
    next_id: u64,
    /// When the current search was asked for, until its first line.
    asked: Option<Instant>,
    /// How long the latest search took to show its first line.
    first_line: Option<Duration>,
    failure: Option<PlayerFailure>,
    said: Option<String>,
}

impl Analyst {
    /// An analyst of `player`'s, turned off, showing one line.
    #[must_use]
    pub fn new(player: Box<dyn Player>) -> Self {
        Analyst {
            player,
            state: AnalystState::Stopped,
            multipv: 1,
            shown: None,
            analysis: None,
            next_id: 1,
            asked: None,
            first_line: None,
            failure: None,
            said: None,
        }
    }

    /// The player's name.
    #[must_use]
    pub fn name(&self) -> &str {
        self.player.name()
    }

    /// What it is doing.
    #[must_use]
    pub fn state(&self) -> &AnalystState {
        &self.state
    }

    /// Whether it analyses the positions it is shown.
    #[must_use]
    pub fn is_running(&self) -> bool {
        self.state == AnalystState::Running
    }

    /// The lines of the current (or, when stopped, the last) search.
    #[must_use]
    pub fn analysis(&self) -> Option<&Analysis> {
        self.analysis.as_ref()
    }

    /// Why the player failed, until it is restarted.
    #[must_use]
    pub fn failure(&self) -> Option<&PlayerFailure> {
        self.failure.as_ref()
    }

    /// The last thing the engine said for the user (UCI's `info string`).
    #[must_use]
    pub fn said(&self) -> Option<&str> {
        self.said.as_deref()
    }

    /// How long the latest search took from the position shown to its first line.
    #[must_use]
    pub fn first_line_after(&self) -> Option<Duration> {
        self.first_line
    }

    /// How many lines it shows.
    #[must_use]
    pub fn multipv(&self) -> u32 {
        self.multipv
    }

    /// The most lines the engine can give: its `MultiPV` option's maximum when it declares
    /// one, else [`MAX_LINES`].
    #[must_use]
    pub fn max_lines(&self) -> u32 {
        max_lines(&self.player.options())
    }

    /// Shows `n` lines (clamped to 1..=[`max_lines`](Analyst::max_lines)); a running search
    /// starts again with the new count.
    pub fn set_multipv(&mut self, n: u32) {
        let n = n.clamp(1, self.max_lines().max(1));
        if n != self.multipv {
            self.multipv = n;
            if self.is_running() {
                self.search();
            }
        }
    }

    /// Shows the position after `moves` from `start`. A running analyst analyses it at once,
    /// leaving the previous search; the same position again changes nothing.
    pub fn show(&mut self, start: &Chess, moves: &[Move]) {
        if self.shown.as_ref().is_some_and(|(s, m)| s == start && m == moves) {
            return;
        }
        self.shown = Some((start.clone(), moves.to_vec()));
        if matches!(self.state, AnalystState::Running | AnalystState::GameOver(_)) {
            self.search();
        } else {
            // Lines of another position would mislead once the analyst starts again.
            self.analysis = None;
        }
    }

    /// Turns it on: it analyses the position shown (after a failure, the player must have
    /// been [restarted](Analyst::restart) first).
    pub fn start(&mut self) {
        if self.state == AnalystState::Failed {
            return;
        }
        self.state = AnalystState::Running;
        self.search();
    }

    /// Turns it off; the last lines stay shown.
    pub fn stop(&mut self) {
        if self.is_running() {
            self.player.send(Command::Stop);
        }
        if self.state != AnalystState::Failed {
            self.state = AnalystState::Stopped;
        }
        self.asked = None;
    }

    /// Replaces a failed (or any) player by a fresh one and starts analysing again.
    pub fn restart(&mut self, player: Box<dyn Player>) {
        self.player.send(Command::Quit);
        self.player = player;
        self.failure = None;
        self.said = None;
        self.state = AnalystState::Stopped;
        self.multipv = self.multipv.min(self.max_lines());
        self.start();
    }

    /// Takes the player's events; returns whether anything shown changed.
    pub fn drain(&mut self) -> bool {
        let mut changed = false;
        while let Some(event) = self.player.try_recv() {
            changed |= self.take(event);
        }
        changed
    }

    fn take(&mut self, event: Event) -> bool {
        match &event {
            Event::Failed(failure) => {
                let fatal = failure.is_fatal();
                self.failure = Some(failure.clone());
                if fatal {
                    self.state = AnalystState::Failed;
                }
                return true;
            }
            Event::Message(text) => {
                self.said = Some(text.clone());
                return true;
            }
            Event::Ready { .. } => {
                // The engine's own MultiPV limit is known now.
                self.multipv = self.multipv.min(self.max_lines());
                return true;
            }
            _ => {}
        }
        let Some(analysis) = self.analysis.as_mut() else { return false };
        let changed = analysis.update(&event);
        if changed && let Some(asked) = self.asked.take() {
            self.first_line = Some(asked.elapsed());
        }
        changed
    }

    /// Starts a search of the position shown, leaving any other.
    fn search(&mut self) {
        let Some((start, moves)) = self.shown.clone() else { return };
        let mut root = start.clone();
        for &m in &moves {
            root.play_unchecked(m);
        }
        if let Some(outcome) = root.outcome().known() {
            if self.is_running() {
                self.player.send(Command::Stop);
            }
            self.state = AnalystState::GameOver(outcome);
            self.analysis = None;
            return;
        }
        self.state = AnalystState::Running;
        let id = self.next_id;
        self.next_id += 1;
        self.player.send(Command::Position { start, moves });
        let limits = SearchLimits { infinite: true, multipv: Some(self.multipv), ..SearchLimits::default() };
        self.player.send(Command::Go { id, purpose: Purpose::Analyse, limits });
        self.analysis = Some(Analysis::new(root, id, self.multipv));
        self.asked = Some(Instant::now());
    }
}

impl Drop for Analyst {
    fn drop(&mut self) {
        self.player.send(Command::Stop);
        self.player.send(Command::Quit);
    }
}

/// The `MultiPV` maximum among `options`, or [`MAX_LINES`].
fn max_lines(options: &[EngineOption]) -> u32 {
    options
        .iter()
        .find(|o| o.name.eq_ignore_ascii_case("MultiPV"))
        .and_then(|o| match &o.kind {
            OptionKind::Spin { max, .. } => u32::try_from(*max).ok(),
            _ => None,
        })
        .map_or(MAX_LINES, |max| max.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::EngineHandle;

    fn wait_for_lines(analyst: &mut Analyst, n: usize) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while analyst.analysis().is_none_or(|a| a.lines().len() < n) {
            assert!(Instant::now() < deadline, "no {n} lines in time");
            analyst.drain();
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    #[test]
    fn a_new_position_starts_a_new_search_and_old_lines_go() {
        let mut analyst = Analyst::new(Box::new(EngineHandle::spawn(|| {})));
        let start = Chess::default();
        analyst.show(&start, &[]);
        analyst.start();
        wait_for_lines(&mut analyst, 1);
        let first = analyst.analysis().map(Analysis::id);
        let e4 = shakmaty::uci::UciMove::from_ascii(b"e2e4").ok().and_then(|u| u.to_move(&start).ok());
        let e4 = e4.expect("e4 is legal");
        analyst.show(&start, &[e4]);
        let analysis = analyst.analysis().expect("a search of the new position");
        assert_ne!(Some(analysis.id()), first);
        assert!(analysis.lines().is_empty(), "no line of the old position is kept");
        assert_eq!(analysis.root().turn(), shakmaty::Color::Black);
        wait_for_lines(&mut analyst, 1);
        assert!(analyst.first_line_after().is_some());
        // Showing the same position again does not restart the search.
        let id = analyst.analysis().map(Analysis::id);
        analyst.show(&start, &[e4]);
        assert_eq!(analyst.analysis().map(Analysis::id), id);
    }

    #[test]
    fn more_lines_restart_the_search_and_the_count_is_bounded() {
        let mut analyst = Analyst::new(Box::new(EngineHandle::spawn(|| {})));
        analyst.show(&Chess::default(), &[]);
        analyst.start();
        analyst.set_multipv(3);
        wait_for_lines(&mut analyst, 3);
        analyst.set_multipv(99);
        assert_eq!(analyst.multipv(), MAX_LINES);
        analyst.set_multipv(0);
        assert_eq!(analyst.multipv(), 1);
    }

    #[test]
    fn a_position_without_moves_is_over_not_analysed() {
        let mate: Chess = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
            .parse::<shakmaty::fen::Fen>()
            .ok()
            .and_then(|f| f.into_position(shakmaty::CastlingMode::Standard).ok())
            .expect("fool's mate");
        let mut analyst = Analyst::new(Box::new(EngineHandle::spawn(|| {})));
        analyst.show(&mate, &[]);
        analyst.start();
        assert!(matches!(analyst.state(), AnalystState::GameOver(KnownOutcome::Decisive { .. })));
        assert!(analyst.analysis().is_none());
        analyst.show(&Chess::default(), &[]);
        assert!(analyst.is_running(), "it goes on with the next position");
    }
}
