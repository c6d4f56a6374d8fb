//! The `Analyst` with real players: Debian's Stockfish following a game move by move with
//! three lines, and a fake engine that falls over mid-analysis and is restarted.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use kibitz_engine::{Analyst, AnalystState, EngineConfig, ExternalEngine, FailureKind, Protocol};
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, Move, Position};

const STOCKFISH: &str = "/usr/games/stockfish";

fn moves(texts: &[&str]) -> (Chess, Vec<Move>) {
    let start = Chess::default();
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for text in texts {
        let m = text.parse::<UciMove>().expect("UCI move").to_move(&pos).expect("legal move");
        pos.play_unchecked(m);
        moves.push(m);
    }
    (start, moves)
}

/// Drains until `done` holds, or panics with the analyst's state after 30 s.
fn drain_until(analyst: &mut Analyst, what: &str, done: impl Fn(&Analyst) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !done(analyst) {
        assert!(Instant::now() < deadline, "{what}: {:?} {:?}", analyst.state(), analyst.failure());
        analyst.drain();
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn lines(analyst: &Analyst) -> usize {
    analyst.analysis().map_or(0, |a| a.lines().len())
}

#[test]
fn stockfish_follows_the_game_with_three_lines() {
    if !std::path::Path::new(STOCKFISH).exists() {
        eprintln!("skipped: {STOCKFISH} is not installed (.ci/run installs it)");
        return;
    }
    let config = EngineConfig {
        name: "Stockfish".into(),
        path: STOCKFISH.into(),
        protocol: Some(Protocol::Uci),
        ..Default::default()
    };
    let mut analyst = Analyst::new(Box::new(ExternalEngine::spawn(config, || {})));
    analyst.set_multipv(3);
    let (start, played) = moves(&["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"]);
    for ply in 0..=played.len() {
        analyst.show(&start, &played[..ply]);
        if ply == 0 {
            analyst.start();
        }
        drain_until(&mut analyst, "three lines", |a| lines(a) == 3);
        let analysis = analyst.analysis().expect("analysis");
        let turn = if ply % 2 == 0 { Color::White } else { Color::Black };
        assert_eq!(analysis.root().turn(), turn, "the lines are of the position shown");
        let firsts: Vec<Move> = analysis.lines().iter().filter_map(|l| l.pv.first().copied()).collect();
        assert_eq!(firsts.len(), 3);
        assert!(firsts.iter().all(|&m| analysis.root().is_legal(m)), "{firsts:?}");
    }
    // The count had to wait for Stockfish's handshake to know its MultiPV range.
    assert!(analyst.max_lines() > 5, "Stockfish declares MultiPV up to 500");
    analyst.stop();
    assert_eq!(analyst.state(), &AnalystState::Stopped);
    assert_eq!(lines(&analyst), 3, "the last lines stay shown");
}

#[test]
fn an_engine_that_falls_over_is_reported_and_can_be_restarted() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/engines/crash-at-third-go");
    let config =
        EngineConfig { name: "Crashy".into(), path, protocol: Some(Protocol::Uci), ..Default::default() };
    let mut analyst = Analyst::new(Box::new(ExternalEngine::spawn(config.clone(), || {})));
    let (start, played) = moves(&["e2e4", "e7e5", "g1f3"]);
    analyst.show(&start, &[]);
    analyst.start();
    drain_until(&mut analyst, "a first line", |a| lines(a) == 1);
    analyst.show(&start, &played[..1]);
    drain_until(&mut analyst, "a second line", |a| lines(a) == 1);
    // Its third search makes it fall over.
    analyst.show(&start, &played[..2]);
    drain_until(&mut analyst, "the failure", |a| a.state() == &AnalystState::Failed);
    let failure = analyst.failure().expect("a failure");
    assert!(matches!(failure.kind, FailureKind::Crashed(_)), "{failure}");
    assert!(failure.to_string().contains("Crashy"), "{failure}");
    // Turning it on again does nothing until it is restarted.
    analyst.start();
    assert_eq!(analyst.state(), &AnalystState::Failed);
    analyst.restart(Box::new(ExternalEngine::spawn(config, || {})));
    assert!(analyst.is_running());
    assert!(analyst.failure().is_none());
    drain_until(&mut analyst, "a line after the restart", |a| lines(a) == 1);
    assert_eq!(analyst.analysis().map(|a| a.root().turn()), Some(Color::White));
}
