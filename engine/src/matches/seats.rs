//! The engine instances of one of the runner's workers: started when first needed, pinged
//! before every game (an engine that does not answer in time is restarted, once), and
//! restarted after a game it failed or lost on time (TCEC's rule 7: it loses the game, and
//! the event goes on).

use std::time::{Duration, Instant};

use super::engine::EngineSpec;
use crate::{Command, Event, FailureKind, Player, PlayerFailure};

/// One worker's engines, by engine index.
pub(super) struct Seats<'a> {
    specs: &'a [EngineSpec],
    players: Vec<Option<Box<dyn Player>>>,
    /// How long a ping (or a fresh engine's handshake) may take.
    timeout: Duration,
    pings: u64,
}

impl<'a> Seats<'a> {
    pub(super) fn new(specs: &'a [EngineSpec], timeout: Duration) -> Seats<'a> {
        Seats { specs, players: specs.iter().map(|_| None).collect(), timeout, pings: 0 }
    }

    /// Makes sure engine `index` is running and answers, starting or restarting it as
    /// needed; the failure when even a fresh instance does not answer.
    pub(super) fn ready(&mut self, index: usize) -> Result<(), PlayerFailure> {
        let mut last = None;
        for _ in 0..2 {
            let fresh = self.players[index].is_none();
            let player = self.players[index].get_or_insert_with(|| self.specs[index].start());
            self.pings += 1;
            match ping(player.as_ref(), self.pings, self.timeout, fresh) {
                Ok(()) => return Ok(()),
                Err(mut failure) => {
                    self.players[index] = None;
                    failure.engine.clone_from(&self.specs[index].name);
                    last = Some(failure);
                }
            }
        }
        Err(last.unwrap_or_else(|| PlayerFailure {
            engine: self.specs[index].name.clone(),
            kind: FailureKind::Hung("it could not be made ready".into()),
            last_lines: vec![],
        }))
    }

    /// Engine `index`, once [`ready`](Seats::ready).
    pub(super) fn get(&self, index: usize) -> Option<&dyn Player> {
        self.players[index].as_deref()
    }

    /// Stops engine `index`; the next game starts a fresh one.
    pub(super) fn restart(&mut self, index: usize) {
        self.players[index] = None;
    }
}

/// Sends a ping and waits for its pong, passing over what older searches still say. A
/// failure the engine reports (it crashed, did not finish its handshake) is kept with its
/// last lines.
fn ping(player: &dyn Player, id: u64, timeout: Duration, fresh: bool) -> Result<(), PlayerFailure> {
    player.send(Command::Ping { id });
    let deadline = Instant::now() + timeout;
    let mut handshaken = !fresh;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            let what = if handshaken { "a ping (isready)" } else { "its handshake" };
            let kind =
                FailureKind::Hung(format!("no answer to {what} within {:.1} s", timeout.as_secs_f64()));
            return Err(PlayerFailure { engine: player.name().to_owned(), kind, last_lines: vec![] });
        }
        match player.recv_timeout(left) {
            Some(Event::Pong { id: i }) if i == id => return Ok(()),
            Some(Event::Ready { .. }) => handshaken = true,
            Some(Event::Failed(failure)) if failure.is_fatal() => return Err(failure),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TimeControl;

    #[test]
    fn the_builtin_engine_answers_its_pings_and_restarts() {
        let specs = [EngineSpec::builtin("K", TimeControl::Depth(1))];
        let mut seats = Seats::new(&specs, Duration::from_secs(10));
        assert!(seats.get(0).is_none());
        seats.ready(0).expect("ready");
        assert!(seats.get(0).is_some_and(|p| p.name() == crate::ENGINE_NAME));
        seats.ready(0).expect("still ready");
        seats.restart(0);
        assert!(seats.get(0).is_none());
        seats.ready(0).expect("ready again");
    }
}
