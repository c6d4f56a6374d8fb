//! The games of a match as they are played, for live boards: each worker's game starts and
//! moves, with both clocks and the arbiter's countdowns after every move. The end of each
//! game reaches the [`Watcher`](super::Watcher).

use std::time::Duration;

use crossbeam_channel::Sender;
use shakmaty::{ByColor, Color, Move};

use super::Fixture;
use crate::GameRecord;
use crate::conductor::Conductor;
use crate::runner::MoveReport;
use crate::tournament::Countdown;

/// Where a match sends its live games ([`MatchSetup::live`](super::MatchSetup::live)).
pub type LiveFeed = Sender<LiveEvent>;

/// What happened on one of the boards of a running match.
#[derive(Clone, Debug)]
pub enum LiveEvent {
    /// A game began on `board` (the worker that plays it, from 0).
    Started {
        /// The worker's board.
        board: usize,
        /// The game of the schedule.
        fixture: Fixture,
        /// The engines, White's and Black's.
        names: ByColor<String>,
        /// The opening the game starts from.
        opening: Box<GameRecord>,
    },
    /// An engine moved on `board`.
    Moved(Box<LiveMove>),
}

/// A move of a live game, with what the runner saw of it.
#[derive(Clone, Debug)]
pub struct LiveMove {
    /// The worker's board.
    pub board: usize,
    /// The game of the schedule.
    pub fixture: Fixture,
    /// The move.
    pub mv: Move,
    /// The engine's score, depth and time for it.
    pub report: MoveReport,
    /// Each side's time left, for a side on a clock.
    pub clocks: ByColor<Option<Duration>>,
    /// How far each of the arbiter's counting rules is from ending the game.
    pub countdowns: Vec<Countdown>,
}

impl LiveMove {
    /// The move just played by `conductor`, as the runner reported it.
    #[must_use]
    pub fn of(
        board: usize,
        fixture: Fixture,
        conductor: &Conductor,
        report: &MoveReport,
    ) -> Option<LiveMove> {
        let mv = *conductor.game().moves().last()?;
        let clocks = ByColor::new_with(|side: Color| {
            let clock = conductor.clock()?;
            clock.counts_down(side).then(|| clock.remaining(side))
        });
        Some(LiveMove {
            board,
            fixture,
            mv,
            report: report.clone(),
            clocks,
            countdowns: conductor.countdowns(),
        })
    }
}
