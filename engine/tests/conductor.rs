//! The game conductor: offers, answers, claims, resignations, flags, failures and the
//! arbiter's hook, as the app, the runner and the xboard front end all meet them.

use std::time::Duration;

use kibitz_engine::conductor::{Adjudicator, Conductor, GameEvent, MoveLimit, NoClaim};
use kibitz_engine::policy::{DeadBandSettings, PolicySettings, Rules};
use kibitz_engine::{
    Clock, Ending, FailureKind, GameRecord, ManualTime, PlayerFailure, Score, SearchInfo, SearchLimits,
    Termination, TimeControl,
};
use shakmaty::{ByColor, Color, Move, Position};

fn game(fen: &str) -> GameRecord {
    GameRecord::from_fen(fen).expect("test FEN")
}

fn mv(conductor: &Conductor, text: &str) -> Move {
    conductor.game().parse_move(text).expect("legal test move")
}

/// White is a person, Black an engine with these manners.
fn person_vs_engine(game: GameRecord, policy: PolicySettings) -> Conductor {
    Conductor::new(game, None, ByColor { white: None, black: Some(policy) })
}

fn info(score: Score) -> SearchInfo {
    SearchInfo {
        depth: 10,
        seldepth: 12,
        multipv: 1,
        score,
        bound: None,
        nodes: 1000,
        nps: 1000,
        time: Duration::from_millis(10),
        hashfull: 0,
        tbhits: 0,
        pv: Vec::new(),
    }
}

/// The engine to move reports `score` (its own view) for the position on the board.
fn engine_searched(conductor: &mut Conductor, score: Score) {
    let pos = conductor.game().position().clone();
    let side = pos.turn();
    conductor.record_search(side, &pos, &info(score));
}

fn dead_band(moves: usize) -> PolicySettings {
    PolicySettings {
        rules: Rules::DeadBand,
        dead_band: DeadBandSettings { moves, ..Default::default() },
        ..Default::default()
    }
}

#[test]
fn a_draw_may_be_offered_once_per_side_and_game() {
    let mut c = person_vs_engine(GameRecord::new(), PolicySettings::default());
    assert!(matches!(
        c.offer_draw(Color::White)[..],
        [GameEvent::DrawOffered { side: Color::White, why: None }]
    ));
    assert_eq!(c.standing_offer(), Some(Color::White));
    assert_eq!(c.offer_draw(Color::White), vec![GameEvent::OfferNotSent { side: Color::White }]);
}

#[test]
fn the_engine_answers_a_standing_offer_after_its_search_and_before_its_move() {
    let mut c = person_vs_engine(GameRecord::new(), PolicySettings::default());
    c.offer_draw(Color::White);
    let e4 = mv(&c, "e4");
    // The offer stands with the move.
    let events = c.person_move(Color::White, e4).expect("legal");
    assert!(matches!(events[..], [GameEvent::Moved { side: Color::White, .. }]));
    assert_eq!(c.standing_offer(), Some(Color::White));
    engine_searched(&mut c, Score::Cp(10));
    let e5 = mv(&c, "e5");
    let events = c.engine_move(Color::Black, e5);
    match &events[..] {
        [GameEvent::DrawDeclined { side: Color::Black, why: Some(why) }, GameEvent::Moved { .. }] => {
            assert_eq!(why, "it is only move 1; I agree to draws from move 40");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(c.standing_offer(), None);
    assert_eq!(c.game().len(), 2);
    // The engine's score is written on its move, from White's side, with its depth.
    let eval = c.game().node(c.game().main_end()).and_then(|n| n.eval()).expect("an evaluation");
    assert_eq!((eval.score, eval.depth), (Score::Cp(-10), Some(10)));
}

#[test]
fn moving_declines_the_opponents_offer_and_an_engine_offers_only_once() {
    let mut c = person_vs_engine(GameRecord::new(), dead_band(0));
    let e4 = mv(&c, "e4");
    c.person_move(Color::White, e4).expect("legal");
    engine_searched(&mut c, Score::Cp(0));
    let e5 = mv(&c, "e5");
    let events = c.engine_move(Color::Black, e5);
    assert!(
        matches!(
            &events[..],
            [GameEvent::Moved { .. }, GameEvent::DrawOffered { side: Color::Black, why: Some(_) }]
        ),
        "{events:?}"
    );
    let nf3 = mv(&c, "Nf3");
    let events = c.person_move(Color::White, nf3).expect("legal");
    assert!(matches!(events[0], GameEvent::DrawDeclined { side: Color::White, why: None }), "{events:?}");
    engine_searched(&mut c, Score::Cp(0));
    let nc6 = mv(&c, "Nc6");
    let events = c.engine_move(Color::Black, nc6);
    // The dead band would offer again; the conductor does not send a second offer.
    assert!(!events.iter().any(|e| matches!(e, GameEvent::DrawOffered { .. })), "{events:?}");
}

#[test]
fn an_engine_content_with_a_draw_claims_a_repetition() {
    let mut c = person_vs_engine(GameRecord::new(), PolicySettings::default());
    for (white, black) in [("Nf3", "Nf6"), ("Ng1", "Ng8"), ("Nf3", "Nf6"), ("Ng1", "Ng8")] {
        if c.is_over() {
            break;
        }
        let m = mv(&c, white);
        c.person_move(Color::White, m).expect("legal");
        engine_searched(&mut c, Score::Cp(-5));
        let m = mv(&c, black);
        c.engine_move(Color::Black, m);
    }
    // Ng8 repeats the start position a third time: the engine claims with its move.
    assert_eq!(c.game().ending(), Some(Ending::draw(Termination::ThreefoldRepetition)));
    assert!(c.note().is_some_and(|n| n.contains("claims a draw by threefold repetition")), "{:?}", c.note());
}

#[test]
fn a_person_claims_only_a_valid_draw() {
    let mut c = person_vs_engine(GameRecord::new(), PolicySettings::default());
    assert_eq!(c.claim_draw(Color::White), Err(NoClaim));
}

#[test]
fn the_engine_resigns_by_its_rules_instead_of_moving() {
    let settings = PolicySettings {
        rules: Rules::DeadBand,
        dead_band: DeadBandSettings { threshold: 500, ..Default::default() },
        ..Default::default()
    };
    let mut c = person_vs_engine(game("4k3/8/8/8/8/8/8/QQ2K3 b - - 0 1"), settings);
    engine_searched(&mut c, Score::Cp(-1800));
    let kd7 = mv(&c, "Kd7");
    let events = c.engine_move(Color::Black, kd7);
    assert!(matches!(&events[0], GameEvent::Resigned { side: Color::Black, why: Some(_) }), "{events:?}");
    assert_eq!(c.game().ending(), Some(Ending::win(Color::White, Termination::Resignation)));
    assert!(c.game().is_empty(), "no move is played with a resignation");
}

#[test]
fn a_failed_player_loses_by_the_kind_of_its_failure() {
    let failure = |kind| PlayerFailure { engine: "Crashy".into(), kind, last_lines: vec!["boom".into()] };
    let mut c = person_vs_engine(GameRecord::new(), PolicySettings::default());
    let events = c.player_failed(Color::White, failure(FailureKind::Crashed(None)));
    assert!(
        matches!(events.last(), Some(GameEvent::GameOver { ending }) if *ending == Ending::win(Color::Black, Termination::Abandoned))
    );
    assert_eq!(c.game().tag("Termination"), Some("abandoned"));

    let mut c = person_vs_engine(GameRecord::new(), PolicySettings::default());
    let illegal = FailureKind::IllegalMove { sent: "e2e5".into(), fen: "startpos".into() };
    c.player_failed(Color::White, failure(illegal));
    assert_eq!(c.game().ending(), Some(Ending::win(Color::Black, Termination::RulesInfraction)));
    assert_eq!(c.game().tag("Termination"), Some("rules infraction"));
    assert_eq!(c.game().result(), "0-1");
}

#[test]
fn a_fallen_flag_loses_unless_the_opponent_cannot_mate() {
    let time = ManualTime::default();
    let control = TimeControl::sudden_death(Duration::from_secs(1), Duration::ZERO);
    let clock = |time: &ManualTime| {
        Some(Clock::with_source(control.clone(), control.clone(), Box::new(time.clone())))
    };
    let mut c = Conductor::new(GameRecord::new(), clock(&time), ByColor::new_with(|_| None));
    c.start_clock();
    time.advance(Duration::from_secs(2));
    let events = c.check_flag();
    assert_eq!(events[0], GameEvent::Flagged { side: Color::White });
    assert_eq!(c.game().ending(), Some(Ending::win(Color::Black, Termination::TimeForfeit)));

    let time = ManualTime::default();
    let mut c =
        Conductor::new(game("4k3/8/8/8/8/8/8/4K2R b - - 0 1"), clock(&time), ByColor::new_with(|_| None));
    c.start_clock();
    time.advance(Duration::from_secs(2));
    c.check_flag();
    // Black, to move, flags; White has a rook and could mate: White wins.
    assert_eq!(c.game().ending(), Some(Ending::win(Color::White, Termination::TimeForfeit)));

    let time = ManualTime::default();
    let mut c =
        Conductor::new(game("4k2r/8/8/8/8/8/8/4K3 w - - 0 1"), clock(&time), ByColor::new_with(|_| None));
    c.start_clock();
    time.advance(Duration::from_secs(2));
    c.check_flag();
    // White flags and Black has a rook: Black wins.
    assert_eq!(c.game().ending(), Some(Ending::win(Color::Black, Termination::TimeForfeit)));
    let time = ManualTime::default();
    let mut c =
        Conductor::new(game("4k3/8/8/8/8/8/8/4K2R b - - 0 1"), clock(&time), ByColor::new_with(|_| None));
    c.start_clock();
    let kd7 = mv(&c, "Kd7");
    c.person_move(Color::Black, kd7).expect("legal");
    time.advance(Duration::from_secs(2));
    c.check_flag();
    // White flags, but Black's bare king could never mate: a draw.
    assert_eq!(c.game().ending(), Some(Ending::draw(Termination::TimeoutVsInsufficientMaterial)));
}

/// Ends every game after White's first move, to prove the hook is consulted.
struct FirstMoveWins;

impl Adjudicator for FirstMoveWins {
    fn adjudicate(&mut self, game: &GameRecord, scores: ByColor<Option<Score>>) -> Option<(Ending, String)> {
        (game.len() == 1 && scores.white == Some(Score::Cp(700)))
            .then(|| (Ending::win(Color::White, Termination::Adjudication), "White's score was +7.00".into()))
    }
}

#[test]
fn the_adjudicator_is_consulted_after_every_move() {
    let policies = ByColor::new_with(|_| Some(PolicySettings::default()));
    let mut c = Conductor::new(GameRecord::new(), None, policies).with_adjudicator(Box::new(FirstMoveWins));
    engine_searched(&mut c, Score::Cp(700));
    let e4 = mv(&c, "e4");
    let events = c.engine_move(Color::White, e4);
    assert!(
        matches!(&events[1], GameEvent::Adjudicated { why } if why == "White's score was +7.00"),
        "{events:?}"
    );
    assert_eq!(c.game().tag("Termination"), Some("adjudication"));
    assert_eq!(c.game().result(), "1-0");
}

#[test]
fn a_move_that_ends_the_game_leaves_no_claim_to_make_with_it() {
    // The rook's move is the hundredth ply without a capture or a pawn move, so an engine
    // content with a draw claims the fifty-move rule with it; but the move also reaches a
    // move limit, which ends the game first. One ending, not two (a self-play game of
    // session 18 had both).
    let policies = ByColor::new_with(|_| Some(PolicySettings::default()));
    let start = game("4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
    let mut c = Conductor::new(start, None, policies).with_adjudicator(Box::new(MoveLimit { plies: 1 }));
    engine_searched(&mut c, Score::Cp(0));
    let ra2 = mv(&c, "Ra2");
    let events = c.engine_move(Color::White, ra2);
    let endings = events.iter().filter(|e| matches!(e, GameEvent::GameOver { .. })).count();
    assert_eq!(endings, 1, "{events:?}");
    assert!(!events.iter().any(|e| matches!(e, GameEvent::DrawClaimed { .. })), "{events:?}");
    assert_eq!(c.game().ending(), Some(Ending::draw(Termination::Adjudication)));
}

#[test]
fn take_back_restores_the_game_the_clock_and_the_offers() {
    let mut c = person_vs_engine(GameRecord::new(), PolicySettings::default());
    let e4 = mv(&c, "e4");
    c.person_move(Color::White, e4).expect("legal");
    c.offer_draw(Color::White);
    engine_searched(&mut c, Score::Cp(0));
    let e5 = mv(&c, "e5");
    c.engine_move(Color::Black, e5);
    c.take_back(2);
    assert!(c.game().is_empty());
    assert_eq!(c.standing_offer(), None);
}

#[test]
fn limits_keep_the_level_within_the_clock() {
    let control = TimeControl::sudden_death(Duration::from_secs(60), Duration::from_secs(1));
    let clock = Clock::new(control.clone(), control);
    let c = Conductor::new(GameRecord::new(), Some(clock), ByColor::new_with(|_| None));
    let limits = c.limits(Color::Black, SearchLimits::depth(6));
    assert_eq!(limits.depth, Some(6));
    assert_eq!(limits.btime, Some(Duration::from_secs(60)));
    assert_eq!(limits.binc, Some(Duration::from_secs(1)));
    // A fixed time per move is the control's; a fixed depth the smaller one.
    let fixed = Clock::new(TimeControl::Depth(4), TimeControl::MoveTime(Duration::from_millis(300)));
    let c = Conductor::new(GameRecord::new(), Some(fixed), ByColor::new_with(|_| None));
    assert_eq!(c.limits(Color::White, SearchLimits::depth(6)).depth, Some(4));
    assert_eq!(c.limits(Color::Black, SearchLimits::default()).movetime, Some(Duration::from_millis(300)));
}
