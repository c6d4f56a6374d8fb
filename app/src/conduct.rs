//! The conduct of a game against Kibitz: the clock, draw offers, claims, resignation and flag
//! fall, with Kibitz's side decided by its draw and resign policy.

use std::time::Duration;

use kibitz_engine::policy::{ClockView, Decision, Policy, PolicySettings, Situation, material_balance, score_cp};
use kibitz_engine::{Clock, Ending, GameRecord, Score, SearchLimits, Termination, TimeControl};
use shakmaty::{Chess, Color, Move, Position};

/// What Kibitz does once its search is over.
#[derive(Debug, Default)]
pub struct EngineTurn {
    /// The move to play, if it plays one.
    pub play: Option<Move>,
    /// How the game ends (after the move, if there is one), with the explanation.
    pub end: Option<(Ending, String)>,
    /// A draw offer made with the move.
    pub offer: Option<String>,
    /// Something to tell the player (a declined offer, with the reason).
    pub message: Option<String>,
}

/// The clock and the manners of one game.
pub struct Conduct {
    /// The clock, if the game has one.
    pub clock: Option<Clock>,
    policy: Policy,
    /// Kibitz's standing draw offer (its words), until the player answers or moves.
    pub engine_offer: Option<String>,
    /// The player offered a draw; Kibitz answers after its search.
    pub offer_pending: bool,
    /// The player asked to resign and has not confirmed yet.
    pub confirm_resign: bool,
    /// Why the game ended, in words, when someone explained it.
    pub note: Option<String>,
    /// Kibitz's latest search score, from its own side.
    engine_score: Option<Score>,
}

impl Conduct {
    /// The conduct of a new game, with the clock's controls given as the player's and
    /// Kibitz's. The clock starts with the first move, as on lichess: nobody loses time
    /// while looking at a fresh board.
    #[must_use]
    pub fn new(controls: Option<(TimeControl, TimeControl)>, policy: PolicySettings, human: Color) -> Self {
        let clock = controls.map(|(player, engine)| {
            let (white, black) = if human == Color::White { (player, engine) } else { (engine, player) };
            Clock::new(white, black)
        });
        Conduct {
            clock,
            policy: Policy::new(policy),
            engine_offer: None,
            offer_pending: false,
            confirm_resign: false,
            note: None,
            engine_score: None,
        }
    }

    /// Remembers Kibitz's latest search score (from its own side).
    pub fn record_score(&mut self, score: Score) {
        self.engine_score = Some(score);
    }

    /// The limits for Kibitz's search: its level's, within what its clock allows.
    #[must_use]
    pub fn limits(&self, level: SearchLimits, engine: Color) -> SearchLimits {
        match &self.clock {
            Some(clock) if clock.is_timed() => {
                let timed = clock.limits(engine);
                SearchLimits {
                    wtime: timed.wtime,
                    btime: timed.btime,
                    winc: timed.winc,
                    binc: timed.binc,
                    movestogo: timed.movestogo,
                    ..level
                }
            }
            _ => level,
        }
    }

    /// After any move: the clock is pressed and the mover's time left recorded on the move
    /// (in whole seconds, as PGN's `[%clk]` shows it); the move's comment stays.
    pub fn moved(&mut self, game: &mut GameRecord, by_human: bool) {
        if let Some(clock) = self.clock.as_mut().filter(|c| c.is_timed()) {
            if !clock.is_started() {
                // The first move starts the clock; it is not timed itself.
                clock.start(!game.position().turn());
            }
            let left = clock.press();
            game.set_clock(game.main_end(), Some(Duration::from_secs(left.as_secs())));
        }
        if by_human {
            // Moving instead of answering declines Kibitz's offer.
            self.engine_offer = None;
        }
        if game.ending().is_some()
            && let Some(clock) = self.clock.as_mut()
        {
            clock.pause();
        }
    }

    /// Ends the game when a flag has fallen: the side out of time loses, unless its opponent
    /// could not mate by any series of legal moves (FIDE 6.9). Returns the ending.
    pub fn check_flag(&mut self, game: &mut GameRecord) -> Option<Ending> {
        let flagged = self.clock.as_ref()?.flagged()?;
        if game.ending().is_some() || game.result() != "*" {
            return None;
        }
        let ending = if game.position().has_insufficient_material(!flagged) {
            Ending::draw(Termination::TimeoutVsInsufficientMaterial)
        } else {
            Ending::win(!flagged, Termination::TimeForfeit)
        };
        self.finish(game, ending, None);
        Some(ending)
    }

    /// Ends the game and stops the clock, writing the explanation as a PGN comment.
    pub fn finish(&mut self, game: &mut GameRecord, ending: Ending, note: Option<String>) {
        game.finish(ending);
        if let Some(clock) = self.clock.as_mut() {
            clock.pause();
        }
        if let Some(note) = &note {
            let id = game.main_end();
            let old = game.node(id).map(|n| n.comment().to_string()).unwrap_or_default();
            let text = if old.is_empty() { note.clone() } else { format!("{old} {note}") };
            game.set_comment(id, &text);
        }
        self.note = note;
        self.engine_offer = None;
        self.offer_pending = false;
        self.confirm_resign = false;
    }

    /// The player claims a draw. Fails (with the reason) when no claim is valid.
    pub fn claim(&mut self, game: &mut GameRecord) -> Result<(), String> {
        let Some(t) = game.claimable() else {
            return Err("No draw can be claimed in this position.".into());
        };
        self.finish(game, Ending::draw(t), Some(format!("You claimed a draw by {}.", t.describe())));
        Ok(())
    }

    /// Takes back `plies` moves, `engine_moves` of them Kibitz's.
    pub fn take_back(&mut self, plies: usize, engine_moves: usize) {
        if let Some(clock) = self.clock.as_mut() {
            clock.take_back(plies);
            clock.resume();
        }
        self.policy.take_back(engine_moves);
        self.engine_offer = None;
        self.offer_pending = false;
    }

    /// Decides what Kibitz does with the move its search found: answer the player's offer,
    /// claim a draw, resign, or play (perhaps offering a draw).
    pub fn engine_turn(&mut self, game: &GameRecord, best: Move) -> EngineTurn {
        let pos = game.position().clone();
        let engine = pos.turn();
        let score = self.engine_score.unwrap_or(Score::Cp(0));
        let mut turn = EngineTurn::default();
        if self.offer_pending {
            self.offer_pending = false;
            let answer = self.policy.answer(&self.situation(&pos, None, score));
            if answer.accept {
                let note = format!("Kibitz accepts your draw offer: {}", reason_of(&answer.message()));
                turn.end = Some((Ending::draw(Termination::Agreement), note));
                return turn;
            }
            turn.message = Some(format!("Kibitz declines your draw offer: {}", reason_of(&answer.message())));
        }
        let contempt = self.policy.settings().contempt;
        let content = score_cp(score) <= contempt;
        if let Some(t) = game.claimable().filter(|_| content) {
            let note = format!(
                "Kibitz claims a draw by {}: its score {score} is no better than a draw.",
                t.describe()
            );
            turn.end = Some((Ending::draw(t), note));
            return turn;
        }
        if let Some(t) = game.claimable_with(best).filter(|_| content) {
            let note = format!(
                "Kibitz claims a draw by {} with its move: its score {score} is no better than a draw.",
                t.describe()
            );
            turn.play = Some(best);
            turn.end = Some((Ending::draw(t), note));
            return turn;
        }
        match self.policy.decide(&self.situation(&pos, Some(best), score)) {
            Decision::Play => turn.play = Some(best),
            decision @ Decision::OfferDraw(_) => {
                turn.play = Some(best);
                turn.offer = decision.message();
            }
            decision @ Decision::Resign(_) => {
                let note = format!("Kibitz: {}", decision.message().unwrap_or_default());
                turn.end = Some((Ending::win(!engine, Termination::Resignation), note));
            }
        }
        turn
    }

    fn situation(&self, pos: &Chess, chosen: Option<Move>, score: Score) -> Situation {
        let side = pos.turn();
        let mut after = pos.clone();
        if let Some(m) = chosen {
            after.play_unchecked(m);
        }
        let clock = self.clock.as_ref().filter(|c| c.is_timed()).map(|c| ClockView {
            own: c.remaining(side),
            opponent: c.remaining(!side),
            opponent_increment: c.control(!side).increment(),
            moves_to_go: None,
        });
        Situation {
            move_number: pos.fullmoves().get(),
            score,
            material: material_balance(&after, side),
            clock,
            opponent_in_check: chosen.is_some() && after.is_check(),
        }
    }

    /// How long until something on the clock changes, for the next repaint.
    #[must_use]
    pub fn next_tick(&self) -> Option<Duration> {
        self.clock.as_ref().and_then(crate::clock_view::next_tick)
    }
}

/// The reason part of "I accept: reason." or "I decline: reason.".
fn reason_of(message: &str) -> String {
    match message.split_once(": ") {
        Some((_, reason)) => reason.to_string(),
        None => message.to_string(),
    }
}
