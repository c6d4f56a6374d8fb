//! Plays one game between two [`Player`]s through the [`Conductor`], on a real [`Clock`],
//! each engine with its own draw and resign manners: the building block of `kibitz selfplay`
//! and of the coming `kibitz match`.

use std::time::{Duration, Instant};

use shakmaty::{ByColor, Color, EnPassantMode, fen::Fen};

use crate::conductor::{Conductor, GameEvent, MoveLimit};
use crate::policy::PolicySettings;
use crate::{
    Clock, Command, EngineHandle, Event, FailureKind, GameRecord, Player, PlayerFailure, Purpose,
    SearchLimits, TimeControl,
};

/// How long a player may take beyond its whole remaining time (or, without a clock, beyond
/// its fixed time) before it is stopped and, if it still does not answer, counted as hung.
const GRACE: Duration = Duration::from_secs(5);

/// How a game is set up.
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

/// A finished game and what was said in it.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// The game, with its `Result` and `Termination` tags set.
    pub game: GameRecord,
    /// Offers, answers, claims, resignations, failures and the end, in order.
    pub remarks: Vec<Remark>,
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
    play_game(ByColor { white: &white as &dyn Player, black: &black as &dyn Player }, setup)
}

/// Plays one game between `players`.
#[must_use]
pub fn play_game(players: ByColor<&dyn Player>, setup: &GameSetup) -> PlayedGame {
    for player in players.iter() {
        player.send(Command::NewGame);
    }
    let clock = Clock::new(setup.controls.white.clone(), setup.controls.black.clone());
    let policies = ByColor::new_with(|_| Some(setup.policy.clone()));
    let mut conductor = Conductor::new(setup.opening.clone(), Some(clock), policies)
        .with_adjudicator(Box::new(MoveLimit { plies: setup.max_plies }));
    let mut remarks = Vec::new();
    conductor.start_clock();
    // A game that is already over (an opening that mates) ends at once.
    if let Some(ending) = conductor.game().ending() {
        remarks.push(remark(&conductor, GameEvent::GameOver { ending }));
    }
    let mut id = 0;
    while !conductor.is_over() {
        id += 1;
        let side = conductor.to_move();
        let events = turn(&mut conductor, *players.get(side), side, id);
        for event in events.into_iter().filter(|e| !matches!(e, GameEvent::Moved { .. })) {
            remarks.push(remark(&conductor, event));
        }
    }
    let mut game = conductor.into_game();
    game.set_tag("TimeControl", &setup.controls.white.to_pgn());
    PlayedGame { game, remarks }
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
fn turn(conductor: &mut Conductor, player: &dyn Player, side: Color, id: u64) -> Vec<GameEvent> {
    let game = conductor.game();
    let root = game.position().clone();
    player.send(Command::Position { start: game.start().clone(), moves: game.moves().to_vec() });
    let limits = conductor.limits(side, SearchLimits::default());
    let budget = limits.movetime.or(match side {
        Color::White => limits.wtime,
        Color::Black => limits.btime,
    });
    player.send(Command::Go { id, purpose: Purpose::Play, limits });
    let started = Instant::now();
    let mut stopped = None;
    let mut events = Vec::new();
    loop {
        match player.recv_timeout(Duration::from_millis(20)) {
            Some(Event::Info { id: i, info }) if i == id => conductor.record_search(side, &root, &info),
            Some(Event::BestMove { id: i, best, .. }) if i == id => {
                let mut flag = conductor.check_flag();
                if !flag.is_empty() {
                    events.append(&mut flag);
                } else if let Some(m) = best {
                    events.extend(conductor.engine_move(side, m));
                } else {
                    let failure = failure(player, FailureKind::Hung("it returned no move".into()));
                    events.extend(conductor.player_failed(side, failure));
                }
                return events;
            }
            Some(Event::OfferDraw) => events.extend(conductor.offer_draw(side)),
            Some(Event::Resign) => {
                player.send(Command::Stop);
                events.extend(conductor.resign(side));
                return events;
            }
            Some(Event::Failed(f)) => {
                player.send(Command::Stop);
                events.extend(conductor.player_failed(side, f));
                return events;
            }
            Some(_) => {}
            None => {
                let mut flag = conductor.check_flag();
                if !flag.is_empty() {
                    player.send(Command::Stop);
                    events.append(&mut flag);
                    return events;
                }
                let overdue = budget.is_some_and(|b| started.elapsed() > b + GRACE);
                match stopped {
                    None if overdue => {
                        player.send(Command::Stop);
                        stopped = Some(Instant::now());
                    }
                    Some(at) if Instant::elapsed(&at) > GRACE => {
                        let failure =
                            failure(player, FailureKind::Hung(format!("no move {GRACE:?} after stop")));
                        events.extend(conductor.player_failed(side, failure));
                        return events;
                    }
                    _ => {}
                }
            }
        }
    }
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
