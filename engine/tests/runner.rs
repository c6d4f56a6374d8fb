//! The runner plays any two players through the conductor: the built-in engine against
//! external programs, with a misbehaving one losing the game as the rules say.

use std::path::PathBuf;
use std::time::Duration;

use kibitz_engine::conductor::GameEvent;
use kibitz_engine::policy::PolicySettings;
use kibitz_engine::runner::{GameSetup, play_game};
use kibitz_engine::{
    Ending, EngineConfig, EngineHandle, ExternalEngine, GameRecord, Player, Protocol, Termination,
    TimeControl,
};
use shakmaty::{ByColor, Color};

fn setup(max_plies: usize) -> GameSetup {
    GameSetup {
        opening: GameRecord::new(),
        controls: ByColor::new_with(|_| {
            TimeControl::sudden_death(Duration::from_secs(10), Duration::from_millis(100))
        }),
        policy: PolicySettings::default(),
        max_plies,
        tablebases: None,
    }
}

fn fake(script: &str) -> ExternalEngine {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/engines").join(script);
    let config = EngineConfig {
        name: format!("Fake {script}"),
        path,
        protocol: Some(Protocol::Uci),
        ..Default::default()
    };
    ExternalEngine::spawn(config, || {})
}

#[test]
fn a_crashing_engine_loses_by_abandonment_and_says_why() {
    let kibitz = EngineHandle::spawn(|| {});
    let crashy = fake("crash-at-third-go");
    let played =
        play_game(ByColor { white: &kibitz as &dyn Player, black: &crashy as &dyn Player }, &setup(100));
    assert_eq!(played.game.ending(), Some(Ending::win(Color::White, Termination::Abandoned)));
    assert_eq!(played.game.len(), 5, "it answered two moves, then crashed at its third search");
    let failure = played
        .remarks
        .iter()
        .find_map(|r| match &r.event {
            GameEvent::PlayerFailed { side: Color::Black, failure } => Some(failure.clone()),
            _ => None,
        })
        .expect("the crash is a remark");
    assert!(failure.to_string().contains("segmentation fault (pretend)"), "{failure}");
    assert_eq!(played.game.tag("Termination"), Some("abandoned"));
}

#[test]
fn an_illegal_move_loses_by_a_rules_infraction() {
    let kibitz = EngineHandle::spawn(|| {});
    let cheat = fake("illegal-move");
    let played =
        play_game(ByColor { white: &cheat as &dyn Player, black: &kibitz as &dyn Player }, &setup(100));
    assert_eq!(played.game.ending(), Some(Ending::win(Color::Black, Termination::RulesInfraction)));
    assert_eq!(played.game.result(), "0-1");
    assert_eq!(played.game.tag("Termination"), Some("rules infraction"));
}

#[test]
fn stockfish_and_kibitz_play_a_game_to_the_move_limit_or_an_end() {
    assert!(std::path::Path::new("/usr/games/stockfish").exists(), "install stockfish (.ci/run does)");
    let kibitz = EngineHandle::spawn(|| {});
    let config = EngineConfig::from_path("/usr/games/stockfish");
    let stockfish = ExternalEngine::spawn(config, || {});
    let played =
        play_game(ByColor { white: &stockfish as &dyn Player, black: &kibitz as &dyn Player }, &setup(20));
    assert!(played.game.ending().is_some(), "{:?}", played.remarks);
    assert!(played.game.len() <= 20);
    // No failure on either side.
    assert!(
        !played.remarks.iter().any(|r| matches!(r.event, GameEvent::PlayerFailed { .. })),
        "{:?}",
        played.remarks
    );
    // Every move carries its clock.
    let clocks =
        played.game.main_line().iter().filter(|&&id| played.game.node(id).and_then(|n| n.clock()).is_some());
    assert_eq!(clocks.count(), played.game.len());
}
