//! The game conductor: one game between two sides, whoever plays them (a person, the built-in
//! engine, an external engine), with its clock, the engines' draw and resign manners, draw
//! offers and claims, flag falls, player failures and an arbiter's hook (after cutechess's
//! `ChessGame`).
//!
//! The conductor is passive: its owner (the app once per frame, the runner in its loop, the
//! xboard front end per command) tells it what a side did and gets back typed
//! [`GameEvent`]s. It owns the [`GameRecord`] and the [`Clock`], so the app, `kibitz
//! selfplay`, the match runner (`kibitz match`) and the xboard front end measure exactly the
//! same game.

mod adjudicator;
mod event;

use shakmaty::{ByColor, Chess, Color, Move, Position};

use crate::policy::{ClockView, Decision, Policy, PolicySettings, Situation, material_balance, score_cp};
use crate::search::position_hash;
use crate::{
    Clock, Ending, Eval, FailureKind, GameRecord, IllegalMove, NodeId, PlayerFailure, Score, SearchInfo,
    SearchLimits, Termination, TimeControl,
};

pub use adjudicator::{Adjudicator, MoveLimit};
pub use event::GameEvent;

/// A side's score and the position it is about, from that side's point of view.
#[derive(Copy, Clone, Debug)]
struct Known {
    key: u64,
    score: Score,
    depth: u32,
}

/// No draw can be claimed in the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoClaim;

impl std::fmt::Display for NoClaim {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("No draw can be claimed in this position.")
    }
}

impl std::error::Error for NoClaim {}

/// One game under way.
pub struct Conductor {
    game: GameRecord,
    clock: Option<Clock>,
    /// The manners of each side played by an engine; `None` for a side that speaks for itself
    /// (a person, or an engine that offers and resigns on its own).
    policies: ByColor<Option<Policy>>,
    /// Each side's draw offer of this game, once made.
    offered: ByColor<bool>,
    /// The side whose draw offer stands.
    offer: Option<Color>,
    /// Each side's latest score with the position it is about.
    known: ByColor<Option<Known>>,
    adjudicator: Option<Box<dyn Adjudicator>>,
    /// Why the game ended, in words.
    note: Option<String>,
}

impl Conductor {
    /// Conducts `game` from its current position, with a clock or none, and the manners of
    /// each side that an engine plays.
    #[must_use]
    pub fn new(game: GameRecord, clock: Option<Clock>, policies: ByColor<Option<PolicySettings>>) -> Self {
        Conductor {
            game,
            clock,
            policies: policies.map(|p| p.map(Policy::new)),
            offered: ByColor::new_with(|_| false),
            offer: None,
            known: ByColor::new_with(|_| None),
            adjudicator: None,
            note: None,
        }
    }

    /// Adds the arbiter's rules.
    #[must_use]
    pub fn with_adjudicator(mut self, adjudicator: Box<dyn Adjudicator>) -> Self {
        self.adjudicator = Some(adjudicator);
        self
    }

    /// How far each of the arbiter's counting rules is from ending the game (none without
    /// an arbiter).
    #[must_use]
    pub fn countdowns(&self) -> Vec<crate::tournament::Countdown> {
        self.adjudicator.as_ref().map(|a| a.countdowns()).unwrap_or_default()
    }

    /// The game.
    #[must_use]
    pub fn game(&self) -> &GameRecord {
        &self.game
    }

    /// The game, to set tags or annotate it (not to play moves: those go through the
    /// conductor).
    pub fn game_mut(&mut self) -> &mut GameRecord {
        &mut self.game
    }

    /// The game, once the conductor is done with it.
    #[must_use]
    pub fn into_game(self) -> GameRecord {
        self.game
    }

    /// The clock, if the game has one.
    #[must_use]
    pub fn clock(&self) -> Option<&Clock> {
        self.clock.as_ref()
    }

    /// The clock, to pause it or correct it by hand.
    pub fn clock_mut(&mut self) -> Option<&mut Clock> {
        self.clock.as_mut()
    }

    /// Replaces the clock (the xboard front end, when the GUI sets a new time control).
    pub fn set_clock(&mut self, clock: Option<Clock>) {
        self.clock = clock;
    }

    /// Starts the clock of the side to move (the runner does at once; in the app the first
    /// move starts it).
    pub fn start_clock(&mut self) {
        let turn = self.to_move();
        if let Some(clock) = self.clock.as_mut().filter(|c| !c.is_started()) {
            clock.start(turn);
        }
    }

    /// Sets or removes the manners of a side (the xboard front end, when its side changes).
    pub fn set_policy(&mut self, side: Color, settings: Option<PolicySettings>) {
        *self.policies.get_mut(side) = settings.map(Policy::new);
    }

    /// The side to move.
    #[must_use]
    pub fn to_move(&self) -> Color {
        self.game.position().turn()
    }

    /// Whether the game is over (by the rules or otherwise).
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.game.ending().is_some() || self.game.result() != "*"
    }

    /// The side whose draw offer stands.
    #[must_use]
    pub fn standing_offer(&self) -> Option<Color> {
        self.offer
    }

    /// Why the game ended, in words, when it was explained.
    #[must_use]
    pub fn note(&self) -> Option<&str> {
        self.note.as_deref()
    }

    /// The limits of a search for `side`'s move: `base` (a level's depth or nodes, a fixed
    /// time) within what its clock allows. The one place where a time control becomes search
    /// limits.
    #[must_use]
    pub fn limits(&self, side: Color, base: SearchLimits) -> SearchLimits {
        let Some(clock) = &self.clock else { return base };
        let timed = clock.limits(side);
        let min = |a: Option<u64>, b: Option<u64>| match (a, b) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        match clock.control(side) {
            TimeControl::Infinite => base,
            _ => SearchLimits {
                wtime: timed.wtime,
                btime: timed.btime,
                winc: timed.winc,
                binc: timed.binc,
                movestogo: timed.movestogo,
                movetime: timed.movetime.or(base.movetime),
                depth: min(timed.depth.map(u64::from), base.depth.map(u64::from)).map(|d| d as u32),
                nodes: min(timed.nodes, base.nodes),
                ..base
            },
        }
    }

    /// Records a search report of `side`'s engine on `searched` (only the main line's exact
    /// scores count).
    pub fn record_search(&mut self, side: Color, searched: &Chess, info: &SearchInfo) {
        if info.multipv > 1 || info.bound.is_some() {
            return;
        }
        let score = if searched.turn() == side { info.score } else { info.score.negate() };
        *self.known.get_mut(side) = Some(Known { key: position_hash(searched), score, depth: info.depth });
    }

    /// Whether `side` has a score for the position on the board (to answer a draw offer from).
    #[must_use]
    pub fn has_score_now(&self, side: Color) -> bool {
        self.known.get(side).is_some_and(|k| k.key == position_hash(self.game.position()))
    }

    /// `side`'s latest score, whatever position it was about, from its own side.
    #[must_use]
    pub fn latest_score(&self, side: Color) -> Option<Score> {
        self.known.get(side).map(|k| k.score)
    }

    /// The engine playing `side` chose `best` after its search: it answers a standing offer,
    /// claims a draw, resigns, or plays (perhaps offering a draw), as its manners say.
    pub fn engine_move(&mut self, side: Color, best: Move) -> Vec<GameEvent> {
        let mut events = Vec::new();
        if self.is_over() || side != self.to_move() {
            return events;
        }
        if self.offer == Some(!side) {
            events.extend(self.answer_offer(side));
            if self.is_over() {
                return events;
            }
        }
        let score = self.latest_score(side).unwrap_or(Score::Cp(0));
        let pos = self.game.position().clone();
        if let Some(policy) = self.policies.get(side) {
            let content = score_cp(score) <= policy.settings().contempt;
            let why = || Some(format!("my score {score} is no better than a draw"));
            if let Some(rule) = self.game.claimable().filter(|_| content) {
                events.push(GameEvent::DrawClaimed { side, rule, why: why() });
                self.finish(Ending::draw(rule), &mut events);
                return events;
            }
            if let Some(rule) = self.game.claimable_with(best).filter(|_| content) {
                events.extend(self.play(side, best));
                if self.is_over() {
                    // The move itself ended the game (the arbiter's move limit, say).
                    return events;
                }
                events.push(GameEvent::DrawClaimed { side, rule, why: why() });
                self.finish(Ending::draw(rule), &mut events);
                return events;
            }
        }
        let situation = self.situation(&pos, Some(best), score);
        let decision = match self.policies.get_mut(side) {
            Some(policy) => policy.decide(&situation),
            None => Decision::Play,
        };
        match decision {
            Decision::Resign(why) => {
                events.push(GameEvent::Resigned { side, why: Some(why.to_string()) });
                self.finish(Ending::win(!side, Termination::Resignation), &mut events);
            }
            Decision::OfferDraw(why) => {
                events.extend(self.play(side, best));
                if !self.is_over() {
                    events.extend(self.offer_with(side, Some(why.to_string())));
                }
            }
            Decision::Play => events.extend(self.play(side, best)),
        }
        events
    }

    /// A side that speaks for itself (a person) plays `m`. Moving declines an offer made to it;
    /// its own offer stands.
    pub fn person_move(&mut self, side: Color, m: Move) -> Result<Vec<GameEvent>, IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove("The game is over.".into()));
        }
        if side != self.to_move() {
            return Err(IllegalMove("It is not your turn.".into()));
        }
        if !self.game.position().is_legal(m) {
            return Err(IllegalMove(format!(
                "{} is not legal here.",
                m.to_uci(shakmaty::CastlingMode::Standard)
            )));
        }
        let mut events = Vec::new();
        if self.offer == Some(!side) {
            self.offer = None;
            events.push(GameEvent::DrawDeclined { side, why: None });
        }
        events.extend(self.play(side, m));
        Ok(events)
    }

    /// `side` offers a draw. An offer is made once per side and game: a second one is
    /// explained and not sent (the design note's rule).
    pub fn offer_draw(&mut self, side: Color) -> Vec<GameEvent> {
        self.offer_with(side, None)
    }

    fn offer_with(&mut self, side: Color, why: Option<String>) -> Vec<GameEvent> {
        if self.is_over() {
            return Vec::new();
        }
        if *self.offered.get(side) {
            return vec![GameEvent::OfferNotSent { side }];
        }
        *self.offered.get_mut(side) = true;
        self.offer = Some(side);
        vec![GameEvent::DrawOffered { side, why }]
    }

    /// The engine playing `receiver` answers the standing offer by its manners, from its
    /// score for the position on the board (or its latest one: see
    /// [`has_score_now`](Conductor::has_score_now)).
    pub fn answer_offer(&mut self, receiver: Color) -> Vec<GameEvent> {
        let mut events = Vec::new();
        if self.offer != Some(!receiver) || self.is_over() {
            return events;
        }
        let Some(policy) = self.policies.get(receiver) else { return events };
        let score = self.latest_score(receiver).unwrap_or(Score::Cp(0));
        let pos = self.game.position().clone();
        // The answer is given on the receiver's behalf as if it were to move.
        let mut situation = self.situation(&pos, None, score);
        if pos.turn() != receiver {
            situation.material = material_balance(&pos, receiver);
            situation.clock = self.clock_view(receiver);
        }
        let answer = policy.answer(&situation);
        self.offer = None;
        let why = Some(answer.why.to_string());
        if answer.accept {
            events.push(GameEvent::DrawAccepted { side: receiver, why });
            self.finish(Ending::draw(Termination::Agreement), &mut events);
        } else {
            events.push(GameEvent::DrawDeclined { side: receiver, why });
        }
        events
    }

    /// `side` accepts the standing offer of its opponent.
    pub fn accept_draw(&mut self, side: Color) -> Vec<GameEvent> {
        let mut events = Vec::new();
        if self.offer == Some(!side) && !self.is_over() {
            events.push(GameEvent::DrawAccepted { side, why: None });
            self.finish(Ending::draw(Termination::Agreement), &mut events);
        }
        events
    }

    /// `side` declines the standing offer of its opponent.
    pub fn decline_draw(&mut self, side: Color) -> Vec<GameEvent> {
        if self.offer == Some(!side) {
            self.offer = None;
            return vec![GameEvent::DrawDeclined { side, why: None }];
        }
        Vec::new()
    }

    /// `side` resigns.
    pub fn resign(&mut self, side: Color) -> Vec<GameEvent> {
        let mut events = Vec::new();
        if !self.is_over() {
            events.push(GameEvent::Resigned { side, why: None });
            self.finish(Ending::win(!side, Termination::Resignation), &mut events);
        }
        events
    }

    /// `side` claims a draw by threefold repetition or the fifty-move rule.
    pub fn claim_draw(&mut self, side: Color) -> Result<Vec<GameEvent>, NoClaim> {
        let rule = self.game.claimable().filter(|_| !self.is_over()).ok_or(NoClaim)?;
        let mut events = vec![GameEvent::DrawClaimed { side, rule, why: None }];
        self.finish(Ending::draw(rule), &mut events);
        Ok(events)
    }

    /// `side`'s player failed: an illegal move loses by a rules infraction; a crash or a hang
    /// loses as an abandoned game.
    pub fn player_failed(&mut self, side: Color, failure: PlayerFailure) -> Vec<GameEvent> {
        let mut events = Vec::new();
        if self.is_over() {
            return events;
        }
        let termination = match failure.kind {
            FailureKind::IllegalMove { .. } => Termination::RulesInfraction,
            _ => Termination::Abandoned,
        };
        events.push(GameEvent::PlayerFailed { side, failure });
        self.finish(Ending::win(!side, termination), &mut events);
        events
    }

    /// Ends the game when a flag has fallen: the side out of time loses, unless its opponent
    /// could not mate by any series of legal moves (FIDE 6.9).
    pub fn check_flag(&mut self) -> Vec<GameEvent> {
        let mut events = Vec::new();
        let Some(flagged) = self.clock.as_ref().and_then(Clock::flagged) else { return events };
        if self.is_over() {
            return events;
        }
        let ending = if self.game.position().has_insufficient_material(!flagged) {
            Ending::draw(Termination::TimeoutVsInsufficientMaterial)
        } else {
            Ending::win(!flagged, Termination::TimeForfeit)
        };
        events.push(GameEvent::Flagged { side: flagged });
        self.finish(ending, &mut events);
        events
    }

    /// Takes back the last `plies` moves, clocks and manners included; standing offers lapse.
    pub fn take_back(&mut self, plies: usize) {
        let plies = plies.min(self.game.len());
        let mut moves = ByColor::new_with(|_| 0usize);
        for ply in self.game.len() - plies..self.game.len() {
            *moves.get_mut(self.game.position_at(ply).turn()) += 1;
        }
        self.game.truncate(self.game.len() - plies);
        self.game.set_tag("Result", "*");
        if let Some(clock) = self.clock.as_mut() {
            clock.take_back(plies);
            clock.resume();
        }
        for side in [Color::White, Color::Black] {
            if let Some(policy) = self.policies.get_mut(side) {
                policy.take_back(*moves.get(side));
            }
        }
        if let Some(adjudicator) = self.adjudicator.as_mut() {
            adjudicator.take_back(plies);
        }
        self.offer = None;
        self.note = None;
    }

    /// Plays `m` for `side`: the clock is pressed, the mover's time recorded, and the game
    /// ends if the rules or the arbiter say so.
    fn play(&mut self, side: Color, m: Move) -> Vec<GameEvent> {
        let mut events = Vec::new();
        let before = self.game.position().clone();
        if self.game.play(m).is_err() {
            let failure = PlayerFailure {
                engine: crate::conductor::event::color_name(side).into(),
                kind: FailureKind::IllegalMove {
                    sent: m.to_uci(shakmaty::CastlingMode::Standard).to_string(),
                    fen: shakmaty::fen::Fen::from_position(&before, shakmaty::EnPassantMode::Legal)
                        .to_string(),
                },
                last_lines: Vec::new(),
            };
            return self.player_failed(side, failure);
        }
        let san = self.game.node(self.game.main_end()).map(|n| n.san().to_string()).unwrap_or_default();
        if let Some(clock) = self.clock.as_mut().filter(|c| c.is_partly_timed()) {
            if !clock.is_started() {
                // The first move starts the clock; it is not timed itself.
                clock.start(side);
            }
            let left = clock.press();
            if clock.counts_down(side) {
                let id = self.game.main_end();
                record_clock(&mut self.game, id, left);
            }
        }
        // The engine's line continues through its move: its score holds for the new position,
        // and is written on the move as its evaluation.
        let after = position_hash(self.game.position());
        if let Some(known) = self.known.get_mut(side).as_mut().filter(|k| k.key == position_hash(&before)) {
            known.key = after;
            let eval = Eval { score: known.score.white_pov(side), depth: Some(known.depth) };
            let id = self.game.main_end();
            self.game.set_eval(id, Some(eval));
        }
        events.push(GameEvent::Moved { side, mv: m, san });
        if let Some(ending) = self.game.ending() {
            // Over by the rules: the result and termination go into the tags.
            self.game.finish(ending);
            if let Some(clock) = self.clock.as_mut() {
                clock.pause();
            }
            events.push(GameEvent::GameOver { ending });
            return events;
        }
        let scores = ByColor::new_with(|c| self.latest_score(c));
        if let Some((ending, why)) = self.adjudicator.as_mut().and_then(|a| a.adjudicate(&self.game, scores))
        {
            events.push(GameEvent::Adjudicated { why: why.clone() });
            self.note = Some(format!("Adjudicated: {why}."));
            self.finish(ending, &mut events);
        }
        events
    }

    /// Ends the game, stops the clock and writes why as a comment on the last move.
    fn finish(&mut self, ending: Ending, events: &mut Vec<GameEvent>) {
        let note = match events.last() {
            Some(GameEvent::GameOver { .. }) | None => None,
            Some(event) => Some(format!("{event}.")),
        };
        self.game.finish(ending);
        if let Some(clock) = self.clock.as_mut() {
            clock.pause();
        }
        if let Some(note) = note {
            let id = self.game.main_end();
            let old = self.game.node(id).map(|n| n.comment().to_string()).unwrap_or_default();
            let text = if old.is_empty() { note.clone() } else { format!("{old} {note}") };
            self.game.set_comment(id, &text);
            self.note = Some(note);
        }
        self.offer = None;
        events.push(GameEvent::GameOver { ending });
    }

    fn clock_view(&self, side: Color) -> Option<ClockView> {
        let clock = self.clock.as_ref()?;
        let timed = matches!(clock.control(side), TimeControl::Clock { .. } | TimeControl::Sandclock(_));
        timed.then(|| ClockView {
            own: clock.remaining(side),
            opponent: clock.remaining(!side),
            opponent_increment: clock.control(!side).increment(),
            moves_to_go: clock.limits(side).movestogo,
        })
    }

    /// What the manners of the side to move in `pos` need to decide, with its chosen move.
    fn situation(&self, pos: &Chess, chosen: Option<Move>, score: Score) -> Situation {
        Situation::after(pos, chosen, score, self.clock_view(pos.turn()))
    }
}

/// Records the mover's remaining time on its move (PGN's `[%clk]`), in whole seconds.
fn record_clock(game: &mut GameRecord, id: NodeId, left: std::time::Duration) {
    game.set_clock(id, Some(std::time::Duration::from_secs(left.as_secs())));
}
