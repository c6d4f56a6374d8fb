//! Plays one game between two engines on a real [`Clock`], each with its own draw and resign
//! [`Policy`]: the building block of self-play runs and, later, of `kibitz match`.

use std::time::Duration;

use shakmaty::{ByColor, Chess, Color, Position, Role};

use crate::policy::{Answer, ClockView, Decision, Policy, PolicySettings, Situation};
use crate::{Clock, Command, EngineHandle, Event, GameRecord, Score, TimeControl};

/// How a game is set up.
#[derive(Clone, Debug)]
pub struct GameSetup {
    /// The opening: the game starts after its moves.
    pub opening: GameRecord,
    /// White's and Black's time controls.
    pub controls: ByColor<TimeControl>,
    /// Both engines' draw and resign settings.
    pub policy: PolicySettings,
    /// A game still going after this many plies is scored a draw.
    pub max_plies: usize,
}

/// Something an engine said during the game, with the position it said it in.
#[derive(Clone, Debug, PartialEq)]
pub struct Remark {
    /// Who said it.
    pub side: Color,
    /// The ply at which it was said.
    pub ply: usize,
    /// The position (FEN) it was said in.
    pub fen: String,
    /// "I resign: ...", "I offer a draw: ...", "I accept: ...", "I decline: ...".
    pub text: String,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// By the rules of chess (mate, stalemate, repetition...).
    Rules,
    /// A side resigned.
    Resignation(Color),
    /// A draw offer was accepted.
    Agreement,
    /// A side's flag fell.
    TimeForfeit(Color),
    /// The game reached the ply limit and was scored a draw.
    MaxLength,
    /// An engine returned no move.
    EngineFailure(Color),
}

/// A finished game and what was said in it.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// The game, with its `Result` and `Termination` tags set.
    pub game: GameRecord,
    /// How it ended.
    pub end: GameEnd,
    /// Resignations, offers and answers, in order.
    pub remarks: Vec<Remark>,
}

/// Material from `side`'s point of view: pawn 100, minor pieces 300, rook 500, queen 900.
#[must_use]
pub fn material_balance(pos: &Chess, side: Color) -> i32 {
    let board = pos.board();
    let value = |color: Color| -> i32 {
        [(Role::Pawn, 100), (Role::Knight, 300), (Role::Bishop, 300), (Role::Rook, 500), (Role::Queen, 900)]
            .iter()
            .map(|&(role, v)| v * (board.by_role(role) & board.by_color(color)).count() as i32)
            .sum()
    };
    value(side) - value(!side)
}

/// Plays one game between two fresh engine threads.
#[must_use]
pub fn play_game(setup: &GameSetup) -> PlayedGame {
    let engines = ByColor { white: EngineHandle::spawn(|| {}), black: EngineHandle::spawn(|| {}) };
    for engine in engines.iter() {
        engine.send(Command::NewGame);
    }
    let mut policies = ByColor::new_with(|_| Policy::new(setup.policy.clone()));
    let mut last_score: ByColor<Option<Score>> = ByColor::new_with(|_| None);
    let mut game = setup.opening.clone();
    let mut clock = Clock::new(setup.controls.white.clone(), setup.controls.black.clone());
    let mut remarks = Vec::new();
    clock.start(game.position().turn());
    let mut id = 0;

    let end = loop {
        if game.ending().is_some() {
            break GameEnd::Rules;
        }
        // The side to move claims a repetition or fifty moves when a draw is worth as much as
        // its last score (its contempt); between equal engines one of them always does.
        if let Some(t) = game.claimable() {
            let side = game.position().turn();
            let score = last_score.get(side).map_or(0, crate::policy::score_cp);
            if score <= setup.policy.contempt {
                game.finish(crate::Ending::draw(t));
                break GameEnd::Rules;
            }
        }
        if game.len() >= setup.max_plies {
            break GameEnd::MaxLength;
        }
        let side = game.position().turn();
        let engine = engines.get(side);
        id += 1;
        engine.send(Command::Position { start: game.start().clone(), moves: game.moves().to_vec() });
        engine.send(Command::Go { id, purpose: crate::Purpose::Play, limits: clock.limits(side) });
        let (best, score) = wait_for_move(engine, id, &clock, side);
        if let Some(score) = score {
            *last_score.get_mut(side) = Some(score);
        }
        clock.press();
        if clock.remaining(side).is_zero() && clock.is_timed() {
            break GameEnd::TimeForfeit(side);
        }
        let Some(m) = best else { break GameEnd::EngineFailure(side) };
        let before = game.position().clone();
        if game.play(m).is_err() {
            break GameEnd::EngineFailure(side);
        }
        let after = game.position().clone();
        let situation = Situation {
            move_number: before.fullmoves().get(),
            score: last_score.get(side).unwrap_or(Score::Cp(0)),
            material: material_balance(&after, side),
            clock: clock_view(&clock, side),
            opponent_in_check: after.is_check(),
        };
        let ply = game.len();
        let fen = shakmaty::fen::Fen::from_position(&before, shakmaty::EnPassantMode::Legal).to_string();
        let remark = |text: String, side: Color| Remark { side, ply, fen: fen.clone(), text };
        match policies.get_mut(side).decide(&situation) {
            Decision::Play => {}
            decision @ Decision::Resign(_) => {
                // Terra resigns instead of moving: the move is taken back.
                game.truncate(game.len() - 1);
                remarks.push(remark(decision.message().unwrap_or_default(), side));
                break GameEnd::Resignation(side);
            }
            decision @ Decision::OfferDraw(_) => {
                remarks.push(remark(decision.message().unwrap_or_default(), side));
                let other = !side;
                let theirs = Situation {
                    move_number: situation.move_number,
                    score: last_score.get(other).unwrap_or(Score::Cp(0)),
                    material: material_balance(&after, other),
                    clock: clock_view(&clock, other),
                    opponent_in_check: false,
                };
                let answer: Answer = policies.get(other).answer(&theirs);
                remarks.push(remark(answer.message(), other));
                if answer.accept {
                    break GameEnd::Agreement;
                }
            }
        }
    };

    let result = match end {
        GameEnd::Rules => game.result().to_string(),
        GameEnd::Resignation(loser) | GameEnd::TimeForfeit(loser) | GameEnd::EngineFailure(loser) => {
            if loser == Color::White { "0-1".into() } else { "1-0".into() }
        }
        GameEnd::Agreement | GameEnd::MaxLength => "1/2-1/2".into(),
    };
    let termination = match end {
        GameEnd::TimeForfeit(_) => "time forfeit",
        GameEnd::MaxLength => "adjudication",
        GameEnd::EngineFailure(_) => "rules infraction",
        _ => "normal",
    };
    game.set_tag("Result", &result);
    game.set_tag("Termination", termination);
    game.set_tag("TimeControl", &setup.controls.white.to_pgn());
    PlayedGame { game, end, remarks }
}

fn clock_view(clock: &Clock, side: Color) -> Option<ClockView> {
    clock.is_timed().then(|| ClockView {
        own: clock.remaining(side),
        opponent: clock.remaining(!side),
        opponent_increment: clock.control(!side).increment(),
        moves_to_go: None,
    })
}

/// Waits for the search `id` to finish, keeping its last score. Stops the engine if it
/// overruns its whole remaining time by a second.
fn wait_for_move(
    engine: &EngineHandle,
    id: u64,
    clock: &Clock,
    side: Color,
) -> (Option<shakmaty::Move>, Option<Score>) {
    let mut score = None;
    let mut stopped = false;
    loop {
        match engine.recv_timeout(Duration::from_millis(50)) {
            Some(Event::Info { id: i, info }) if i == id && info.multipv <= 1 => score = Some(info.score),
            Some(Event::BestMove { id: i, best, .. }) if i == id => return (best, score),
            Some(_) => {}
            None => {
                let overrun = clock.is_timed() && clock.remaining(side).is_zero();
                if overrun && !stopped {
                    engine.send(Command::Stop);
                    stopped = true;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn material_is_counted_from_either_side() {
        let pos: Chess = "4k3/8/8/8/8/8/PPP5/R3K3 w - - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap();
        assert_eq!(material_balance(&pos, Color::White), 800);
        assert_eq!(material_balance(&pos, Color::Black), -800);
    }

    #[test]
    fn a_fast_game_ends_with_a_result_and_tags() {
        let setup = GameSetup {
            opening: GameRecord::from_fen("4k3/8/8/8/8/8/8/R3K2R w - - 0 1").unwrap(),
            controls: ByColor::new_with(|_| {
                TimeControl::sudden_death(Duration::from_secs(5), Duration::from_millis(50))
            }),
            policy: PolicySettings::default(),
            max_plies: 60,
        };
        let played = play_game(&setup);
        assert_ne!(played.game.result(), "*");
        assert!(played.game.tag("Termination").is_some());
        assert_eq!(played.game.tag("TimeControl"), Some("5+0.05"));
        // Two rooks up, White must not lose.
        assert_ne!(played.game.result(), "0-1", "{:?}", played.end);
        assert_eq!(played.end, GameEnd::Rules, "{:?} after {:?}", played.end, played.game.san_moves());
    }
}
