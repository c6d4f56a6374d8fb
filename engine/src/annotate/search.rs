//! One search of an annotation through a [`Player`]: the position and the moves that led to it,
//! a `Go` with the annotation's limits, and every report gathered into an [`Analysis`] until
//! the search's best move. A search that runs far past its time is stopped, one that never
//! answers is an error, and the owner may cancel it.

use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use shakmaty::{Chess, Move};

use super::AnnotateError;
use crate::{Analysis, Command, Event, Line, Player, Purpose, SearchLimits};

/// How long a timed search may run past its time before it is told to stop (the first search
/// also waits for an external engine's handshake).
const STOP_GRACE: Duration = Duration::from_secs(10);
/// How long a search may take to answer after `Stop`.
const ANSWER_GRACE: Duration = Duration::from_secs(10);
/// How often the owner is asked whether to go on while a search runs.
const POLL: Duration = Duration::from_millis(100);

/// What a finished search found: its lines (the last exact report of each, by MultiPV index)
/// and its best move.
pub(crate) struct Found {
    pub lines: Vec<Line>,
    pub best: Option<Move>,
}

impl Found {
    /// The best line, if the search reported one.
    pub fn first(&self) -> Option<&Line> {
        self.lines.first()
    }
}

/// A search of the position reached from `start` by `moves`, whose `Go` carries `id`.
/// `go_on` is asked every [`POLL`] whether to continue; a `Break` stops the search and ends in
/// [`AnnotateError::Cancelled`].
pub(crate) fn search(
    player: &dyn Player,
    (start, moves, root): (&Chess, &[Move], &Chess),
    id: u64,
    limits: SearchLimits,
    go_on: &mut dyn FnMut() -> ControlFlow<()>,
) -> Result<Found, AnnotateError> {
    let lines = limits.multipv.unwrap_or(1).max(1);
    let mut analysis = Analysis::new(root.clone(), id, lines);
    let mut exact: Vec<Line> = Vec::new();
    let stop_at = limits.movetime.map(|time| Instant::now() + time + STOP_GRACE);
    player.send(Command::Position { start: start.clone(), moves: moves.to_vec() });
    player.send(Command::Go { id, purpose: Purpose::Annotate, limits });
    let mut stopped: Option<Instant> = None;
    let mut cancelled = false;
    let mut asked = Instant::now();
    loop {
        if let Some(event) = player.recv_timeout(POLL) {
            if analysis.update(&event) {
                for line in analysis.lines().iter().filter(|l| l.is_exact()) {
                    match exact.binary_search_by_key(&line.multipv, |l| l.multipv) {
                        Ok(i) => exact[i] = line.clone(),
                        Err(i) => exact.insert(i, line.clone()),
                    }
                }
            }
            match event {
                Event::BestMove { id: got, best, .. } if got == id => {
                    if cancelled {
                        return Err(AnnotateError::Cancelled);
                    }
                    // Lines that only ever came as bounds still say something.
                    for line in analysis.lines() {
                        if let Err(i) = exact.binary_search_by_key(&line.multipv, |l| l.multipv) {
                            exact.insert(i, line.clone());
                        }
                    }
                    return Ok(Found { lines: exact, best });
                }
                Event::Failed(failure) => return Err(AnnotateError::Engine(failure)),
                _ => {}
            }
        }
        let now = Instant::now();
        if stopped.is_none() {
            let overdue = stop_at.is_some_and(|at| now >= at);
            if now.duration_since(asked) >= POLL {
                asked = now;
                cancelled = go_on().is_break();
            }
            if overdue || cancelled {
                player.send(Command::Stop);
                stopped = Some(now);
            }
        } else if stopped.is_some_and(|at| now.duration_since(at) >= ANSWER_GRACE) {
            if cancelled {
                return Err(AnnotateError::Cancelled);
            }
            return Err(AnnotateError::NoAnswer {
                engine: player.name().to_owned(),
                seconds: ANSWER_GRACE.as_secs(),
            });
        }
    }
}
