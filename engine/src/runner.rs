//! Plays one game between two [`Player`]s through the [`Conductor`], on a real [`Clock`],
//! each engine with its own draw and resign manners: the building block of `kibitz selfplay`
//! and of `kibitz match` (see [`crate::matches`]).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use shakmaty::{ByColor, Color, EnPassantMode, fen::Fen};

use crate::conductor::{Adjudicator, Conductor, GameEvent, MoveLimit};
use crate::policy::PolicySettings;
use crate::{
    Clock, Command, EngineHandle, Event, FailureKind, GameRecord, Player, PlayerFailure, Purpose, Score,
    SearchLimits, SyzygyTables, TimeControl,
};

/// How often the runner looks at the clock while an engine thinks (an event wakes it at once).
const POLL: Duration = Duration::from_millis(20);

/// How a game is set up (self-play's few settings; [`GamePlan`] has them all).
#[derive(Clone, Debug)]
pub struct GameSetup {
    /// The opening: the game starts after its moves.
    pub opening: GameRecord,
    /// White's and Black's time controls.
    pub controls: ByColor<TimeControl>,
    /// Both engines' draw and resign settings.
    pub policy: PolicySettings,
    /// A game still going after this many plies is adjudicated a draw.
    pub max_plies: usize,
    /// Syzygy tables both built-in engines probe ([`play_builtin`]), if any.
    pub tablebases: Option<Arc<SyzygyTables>>,
}

/// How long the runner waits for a player beyond what its time control gives it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Patience {
    /// How far past zero a clock may run before its flag falls: room for the time a move
    /// takes to travel from the engine's process to the clock.
    pub margin: Duration,
    /// How long a search may run past its budget (its whole remaining time, or its fixed
    /// time) before it is stopped, and then how long it may take to answer the stop before
    /// it counts as hung.
    pub grace: Duration,
    /// The longest a search with no time budget (a fixed depth or node count) may run before
    /// it is stopped; `None` waits for ever.
    pub untimed: Option<Duration>,
}

impl Default for Patience {
    fn default() -> Self {
        Patience { margin: Duration::ZERO, grace: Duration::from_secs(5), untimed: None }
    }
}

/// Told of every move of a game as it is played, with the conductor after it.
pub type MoveWatch<'a> = &'a dyn Fn(&Conductor, &MoveReport);

/// Everything about how one game is played.
pub struct GamePlan<'a> {
    /// The opening: the game starts after its moves.
    pub opening: GameRecord,
    /// White's and Black's time controls.
    pub controls: ByColor<TimeControl>,
    /// Each side's own limits (a level's depth, a fixed node count), within its clock.
    pub limits: ByColor<SearchLimits>,
    /// The draw and resign manners of each side the runner speaks for; `None` for an engine
    /// that plays on until the rules or the arbiter end the game.
    pub policies: ByColor<Option<PolicySettings>>,
    /// The arbiter's rules.
    pub adjudicator: Box<dyn Adjudicator>,
    /// The arbiter ends the game as soon as a draw by threefold repetition or the fifty-move
    /// rule can be claimed (TCEC's rule 6a; cutechess does the same).
    pub draw_claims: bool,
    /// How long players are waited for.
    pub patience: Patience,
    /// Set from another thread to abandon the game: it ends unfinished, `cancelled`.
    pub cancel: Option<&'a AtomicBool>,
    /// Told of every move as it is played, with the conductor after it (a live board).
    pub watch: Option<MoveWatch<'a>>,
}

impl GamePlan<'_> {
    /// Self-play's plan: both sides with the same manners, untimed searches waited for.
    #[must_use]
    pub fn from_setup(setup: &GameSetup) -> GamePlan<'static> {
        GamePlan {
            opening: setup.opening.clone(),
            controls: setup.controls.clone(),
            limits: ByColor::new_with(|_| SearchLimits::default()),
            policies: ByColor::new_with(|_| Some(setup.policy.clone())),
            adjudicator: Box::new(MoveLimit { plies: setup.max_plies }),
            draw_claims: false,
            patience: Patience::default(),
            cancel: None,
            watch: None,
        }
    }
}

/// Something that happened in the game besides a move, with the position it happened in.
#[derive(Clone, Debug, PartialEq)]
pub struct Remark {
    /// The ply at which it happened.
    pub ply: usize,
    /// The position (FEN).
    pub fen: String,
    /// What happened.
    pub event: GameEvent,
}

/// What the runner saw of one move an engine played.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReport {
    /// The move's index in the game's main line (`game.moves()[ply]`).
    pub ply: usize,
    /// Who played it.
    pub side: Color,
    /// The mover's latest main-line score, from its own side.
    pub score: Option<Score>,
    /// The depth of that score.
    pub depth: Option<u32>,
    /// Nodes searched, as the engine said.
    pub nodes: u64,
    /// The move came from the engine's book (the built-in engine says so).
    pub book: bool,
    /// The time the move cost: what the clock charged when it counts down (`timed`),
    /// otherwise the wall time from `go` to the best move's arrival.
    pub time: Duration,
    /// `time` is the clock's charge.
    pub timed: bool,
    /// The search time the engine itself reported.
    pub engine_time: Duration,
    /// The runner's own share of `time`: from the mover's clock starting to its `go` being
    /// sent, plus from its best move arriving to the clock being pressed.
    pub overhead: Duration,
}

/// A finished game and what was said in it.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// The game, with its `Result` and `Termination` tags set.
    pub game: GameRecord,
    /// Offers, answers, claims, resignations, failures and the end, in order.
    pub remarks: Vec<Remark>,
    /// Each move the engines played, in order (the opening's moves are not theirs).
    pub moves: Vec<MoveReport>,
    /// The game was abandoned unfinished through [`GamePlan::cancel`].
    pub cancelled: bool,
}

impl PlayedGame {
    /// How many remarks are of this kind.
    #[must_use]
    pub fn count(&self, kind: impl Fn(&GameEvent) -> bool) -> usize {
        self.remarks.iter().filter(|r| kind(&r.event)).count()
    }
}

/// Plays one game between two fresh built-in engines (self-play).
#[must_use]
pub fn play_builtin(setup: &GameSetup) -> PlayedGame {
    let white = EngineHandle::spawn(|| {});
    let black = EngineHandle::spawn(|| {});
    if let Some(tables) = &setup.tablebases {
        for engine in [&white, &black] {
            engine.send(Command::SetTablebases(Some(Arc::clone(tables))));
        }
    }
    play_game(ByColor { white: &white as &dyn Player, black: &black as &dyn Player }, setup)
}

/// Plays one game between `players` (self-play's setup).
#[must_use]
pub fn play_game(players: ByColor<&dyn Player>, setup: &GameSetup) -> PlayedGame {
    conduct(players, GamePlan::from_setup(setup))
}

/// Plays one game between `players` as `plan` says.
#[must_use]
pub fn conduct(players: ByColor<&dyn Player>, plan: GamePlan<'_>) -> PlayedGame {
    for side in [Color::White, Color::Black] {
        let player = *players.get(side);
        player.send(Command::NewGame);
        // The policy's contempt is what a draw is worth in the search too.
        let contempt = plan.policies.get(side).as_ref().map_or(0, |p| p.contempt);
        player.send(Command::SetDrawScore(contempt));
    }
    let control_tag = plan.controls.white.to_pgn();
    let clock = Clock::new(plan.controls.white.clone(), plan.controls.black.clone())
        .with_margin(plan.patience.margin);
    let mut conductor =
        Conductor::new(plan.opening, Some(clock), plan.policies).with_adjudicator(plan.adjudicator);
    let waits = Waits { limits: plan.limits, patience: plan.patience, cancel: plan.cancel };
    let mut remarks = Vec::new();
    let mut moves = Vec::new();
    conductor.start_clock();
    let mut clock_started = Instant::now();
    // A game that is already over (an opening that mates) ends at once.
    if let Some(ending) = conductor.game().ending() {
        remarks.push(remark(&conductor, GameEvent::GameOver { ending }));
    }
    let mut id = 0;
    let mut cancelled = false;
    while !conductor.is_over() {
        id += 1;
        let side = conductor.to_move();
        let turn = turn(&mut conductor, *players.get(side), side, id, &waits, clock_started);
        clock_started = Instant::now();
        if let (Some(watch), Some(report)) = (plan.watch, &turn.report) {
            watch(&conductor, report);
        }
        moves.extend(turn.report);
        let mut events = turn.events;
        if plan.draw_claims && !conductor.is_over() && conductor.game().claimable().is_some() {
            let claimant = conductor.to_move();
            events.extend(conductor.claim_draw(claimant).unwrap_or_default());
        }
        for event in events.into_iter().filter(|e| !matches!(e, GameEvent::Moved { .. })) {
            remarks.push(remark(&conductor, event));
        }
        if turn.cancelled {
            cancelled = true;
            break;
        }
    }
    let mut game = conductor.into_game();
    game.set_tag("TimeControl", &control_tag);
    PlayedGame { game, remarks, moves, cancelled }
}

/// What a turn needs of the plan besides the conductor.
struct Waits<'a> {
    limits: ByColor<SearchLimits>,
    patience: Patience,
    cancel: Option<&'a AtomicBool>,
}

/// What came of one turn.
#[derive(Default)]
struct Turn {
    events: Vec<GameEvent>,
    report: Option<MoveReport>,
    cancelled: bool,
}

fn remark(conductor: &Conductor, event: GameEvent) -> Remark {
    let pos = conductor.game().position();
    Remark {
        ply: conductor.game().len(),
        fen: Fen::from_position(pos, EnPassantMode::Legal).to_string(),
        event,
    }
}

/// One turn of `side`'s player: a search, then what the conductor makes of its outcome.
/// `clock_started` is when the side's clock began to run.
fn turn(
    conductor: &mut Conductor,
    player: &dyn Player,
    side: Color,
    id: u64,
    waits: &Waits<'_>,
    clock_started: Instant,
) -> Turn {
    let game = conductor.game();
    let root = game.position().clone();
    let ply = game.len();
    let position = Command::Position { start: game.start().clone(), moves: game.moves().to_vec() };
    let limits = conductor.limits(side, waits.limits.get(side).clone());
    let budget = limits
        .movetime
        .or(match side {
            Color::White => limits.wtime,
            Color::Black => limits.btime,
        })
        .map(|b| b + waits.patience.grace)
        .or(waits.patience.untimed);
    player.send_all(vec![position, Command::Go { id, purpose: Purpose::Play, limits }]);
    let go_sent = Instant::now();
    let mut seen = Seen::default();
    let mut stopped = None;
    let mut turn = Turn::default();
    loop {
        if waits.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            player.send(Command::Stop);
            turn.cancelled = true;
            return turn;
        }
        match player.recv_timeout(POLL) {
            Some(Event::Info { id: i, info }) if i == id => {
                conductor.record_search(side, &root, &info);
                seen.info(&info);
            }
            Some(Event::BookMove { id: i, .. }) if i == id => seen.book = true,
            Some(Event::BestMove { id: i, best, nodes, time, .. }) if i == id => {
                let arrived = Instant::now();
                let mut flag = conductor.check_flag();
                if !flag.is_empty() {
                    turn.events.append(&mut flag);
                } else if let Some(m) = best {
                    let before = conductor.clock().and_then(|c| c.history().last().copied());
                    turn.events.extend(conductor.engine_move(side, m));
                    let pressed = Instant::now();
                    if turn.events.iter().any(|e| matches!(e, GameEvent::Moved { .. })) {
                        let charged = before.and_then(|b| charged(conductor, side, b));
                        turn.report = Some(MoveReport {
                            ply,
                            side,
                            score: seen.score,
                            depth: seen.depth,
                            nodes,
                            book: seen.book,
                            time: charged.unwrap_or(arrived - go_sent),
                            timed: charged.is_some(),
                            engine_time: time,
                            overhead: (go_sent - clock_started) + (pressed - arrived),
                        });
                    }
                } else {
                    let failure = failure(player, FailureKind::Hung("it returned no move".into()));
                    turn.events.extend(conductor.player_failed(side, failure));
                }
                return turn;
            }
            Some(Event::OfferDraw) => turn.events.extend(conductor.offer_draw(side)),
            Some(Event::Resign) => {
                player.send(Command::Stop);
                turn.events.extend(conductor.resign(side));
                return turn;
            }
            Some(Event::Failed(f)) => {
                player.send(Command::Stop);
                turn.events.extend(conductor.player_failed(side, f));
                return turn;
            }
            Some(_) => {}
            None => {
                let mut flag = conductor.check_flag();
                if !flag.is_empty() {
                    player.send(Command::Stop);
                    turn.events.append(&mut flag);
                    return turn;
                }
                let overdue = budget.is_some_and(|b| go_sent.elapsed() > b);
                match stopped {
                    None if overdue => {
                        player.send(Command::Stop);
                        stopped = Some(Instant::now());
                    }
                    Some(at) if Instant::elapsed(&at) > waits.patience.grace => {
                        let grace = waits.patience.grace;
                        let failure =
                            failure(player, FailureKind::Hung(format!("no move {grace:?} after stop")));
                        turn.events.extend(conductor.player_failed(side, failure));
                        return turn;
                    }
                    _ => {}
                }
            }
        }
    }
}

/// What a search said about itself so far.
#[derive(Default)]
struct Seen {
    score: Option<Score>,
    depth: Option<u32>,
    exact: bool,
    book: bool,
}

impl Seen {
    /// Keeps the main line's latest exact score (a bound only until an exact one comes).
    fn info(&mut self, info: &crate::SearchInfo) {
        if info.multipv > 1 || (self.exact && info.bound.is_some()) {
            return;
        }
        self.exact = info.bound.is_none();
        self.score = Some(info.score);
        self.depth = Some(info.depth);
    }
}

/// What the clock charged `side` for the move just made, `before` being its reading before:
/// the time it lost plus the time it earned. `None` when the clock does not count down.
fn charged(conductor: &Conductor, side: Color, before: crate::ClockReading) -> Option<Duration> {
    let clock = conductor.clock().filter(|c| c.counts_down(side))?;
    let after = clock.history().last()?;
    if after.moves_made.get(side) == before.moves_made.get(side) {
        return None;
    }
    let earned = clock.control(side).bonus_after_move(*before.moves_made.get(side));
    Some((*before.remaining.get(side) + earned).saturating_sub(*after.remaining.get(side)))
}

fn failure(player: &dyn Player, kind: FailureKind) -> PlayerFailure {
    PlayerFailure { engine: player.name().to_string(), kind, last_lines: Vec::new() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Ending, Termination};

    fn setup(fen: &str, max_plies: usize) -> GameSetup {
        GameSetup {
            opening: GameRecord::from_fen(fen).expect("test FEN"),
            controls: ByColor::new_with(|_| {
                TimeControl::sudden_death(Duration::from_secs(5), Duration::from_millis(50))
            }),
            policy: PolicySettings::default(),
            max_plies,
            tablebases: None,
        }
    }

    #[test]
    fn a_fast_game_ends_with_a_result_and_tags() {
        let played = play_builtin(&setup("4k3/8/8/8/8/8/8/R3K2R w - - 0 1", 60));
        assert_ne!(played.game.result(), "*");
        assert!(played.game.tag("Termination").is_some());
        assert_eq!(played.game.tag("TimeControl"), Some("5+0.05"));
        // Two rooks up, White mates.
        assert_eq!(played.game.result(), "1-0", "after {:?}", played.game.san_moves());
        let end = played.remarks.last().map(|r| r.event.clone());
        assert!(
            matches!(end, Some(GameEvent::GameOver { ending }) if ending.termination == Termination::Checkmate)
        );
    }

    #[test]
    fn the_move_limit_adjudicates_a_draw() {
        let played = play_builtin(&setup("4k3/8/8/8/8/8/8/4K3 w - - 0 1", 4));
        // Bare kings are a draw by the rules at once; two knights are not, and play on to the limit.
        assert_eq!(played.game.ending().map(|e| e.termination), Some(Termination::InsufficientMaterial));
        let played = play_builtin(&setup("4k3/8/8/8/8/8/8/2N1KN2 w - - 0 1", 4));
        assert_eq!(played.game.len(), 4);
        assert_eq!(played.game.ending(), Some(Ending::draw(Termination::Adjudication)));
        assert_eq!(played.game.tag("Termination"), Some("adjudication"));
        assert_eq!(played.count(|e| matches!(e, GameEvent::Adjudicated { .. })), 1);
    }
}
