//! `Command::Evaluate`: each player's own static evaluation in its own words. The built-in
//! engine gives its breakdown by term; an external UCI engine its `eval` output (Kibitz's
//! `kibitz-engine` and Debian's Stockfish); an xboard engine has no such command.

use std::time::{Duration, Instant};

use kibitz_engine::{Command, EngineConfig, EngineHandle, Event, ExternalEngine, Player, Protocol};
use shakmaty::{Chess, Position};

const STOCKFISH: &str = "/usr/games/stockfish";
const KIBITZ_ENGINE: &str = env!("CARGO_BIN_EXE_kibitz-engine");

/// The position after 1. e4 e5 2. Qh5, asked of `player`; its answer.
fn evaluation(player: &dyn Player) -> Option<String> {
    let start = Chess::default();
    let mut pos = start.clone();
    let moves: Vec<_> = ["e2e4", "e7e5", "d1h5"]
        .iter()
        .map(|uci| {
            let m = uci.parse::<shakmaty::uci::UciMove>().expect("UCI").to_move(&pos).expect("legal");
            pos.play_unchecked(m);
            m
        })
        .collect();
    player.send(Command::Position { start, moves });
    player.send(Command::Evaluate { id: 7 });
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline {
        match player.recv_timeout(Duration::from_millis(50)) {
            Some(Event::Evaluation { id, text }) => {
                assert_eq!(id, 7, "the answer carries the request's id");
                return text;
            }
            Some(Event::Failed(failure)) => panic!("{} failed: {failure}", player.name()),
            _ => {}
        }
    }
    panic!("{} did not answer Evaluate within 20 s", player.name());
}

fn external(name: &str, path: &str, args: Vec<String>, protocol: Protocol) -> ExternalEngine {
    let config = EngineConfig {
        name: name.into(),
        path: path.into(),
        args,
        protocol: Some(protocol),
        ..Default::default()
    };
    ExternalEngine::spawn(config, || {})
}

#[test]
fn the_built_in_engine_breaks_its_evaluation_down() {
    let text = evaluation(&EngineHandle::spawn(|| {})).expect("the built-in engine always answers");
    assert!(text.contains("Material") && text.contains("King safety"), "{text}");
    // Black to move after 2. Qh5: the total is from White's side.
    assert!(text.contains("evaluation") && text.contains("White's side"), "{text}");
}

#[test]
fn kibitz_engine_answers_eval_over_uci_before_readyok() {
    let text =
        evaluation(&external("kibitz-engine", KIBITZ_ENGINE, Vec::new(), Protocol::Uci)).expect("an answer");
    assert!(text.contains("Material") && text.contains("Phase"), "{text}");
    assert!(!text.contains("readyok"), "{text}");
}

#[test]
fn stockfish_prints_its_own_evaluation() {
    if !std::path::Path::new(STOCKFISH).exists() {
        eprintln!("skipped: {STOCKFISH} is not installed (.ci/run installs it)");
        return;
    }
    let text = evaluation(&external("Stockfish", STOCKFISH, Vec::new(), Protocol::Uci)).expect("an answer");
    assert!(text.contains("Final evaluation"), "{text}");
}

#[test]
fn an_xboard_engine_has_no_evaluation_to_give() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/engines/xboard-only");
    let engine = external("xboard-only", script, vec![KIBITZ_ENGINE.into()], Protocol::Xboard);
    assert_eq!(evaluation(&engine), None);
}

#[test]
fn a_uci_engine_without_eval_has_no_evaluation_to_give() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/engines/uci-no-eval");
    assert_eq!(evaluation(&external("uci-no-eval", script, Vec::new(), Protocol::Uci)), None);
}
