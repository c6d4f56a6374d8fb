//! Search behaviour through the public API: mates, legality, time limits.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use kibitz_engine::{Engine, Score, SearchInfo, SearchLimits, SearchOutcome};
use shakmaty::{CastlingMode, Chess, Position, PositionError, fen::Fen};

const STANDARD: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/perft/standard.epd");

fn position(fen: &str) -> Chess {
    let parsed: Fen = fen.parse().unwrap_or_else(|e| panic!("bad FEN {fen}: {e}"));
    parsed
        .into_position(CastlingMode::Standard)
        .or_else(PositionError::ignore_impossible_check)
        .unwrap_or_else(|e| panic!("impossible position {fen}: {e}"))
}

fn search(pos: &Chess, limits: &SearchLimits) -> (SearchOutcome, Vec<SearchInfo>) {
    let stop = AtomicBool::new(false);
    let mut infos = Vec::new();
    let outcome = Engine::new(8).search(pos, &[], limits, &stop, |info| infos.push(info.clone()));
    (outcome, infos)
}

fn assert_mate(fen: &str, moves: i32, depth: u32) {
    let pos = position(fen);
    let (outcome, _) = search(&pos, &SearchLimits::depth(depth));
    let info = outcome.info.expect("an iteration completed");
    assert_eq!(info.score, Score::Mate(moves), "{fen}");
    let best = outcome.best.expect("a move");
    assert!(pos.is_legal(best));
    assert_eq!(info.pv.first(), Some(&best));
}

#[test]
fn finds_mate_in_one() {
    assert_mate("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1, 4);
    assert_mate("rnbqkbnr/ppppp2p/5p2/6p1/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3", 1, 4);
}

#[test]
fn finds_mate_in_two() {
    assert_mate("7k/8/8/8/8/8/1R6/R5K1 w - - 0 1", 2, 5);
    assert_mate("kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", 2, 5);
}

#[test]
fn sees_being_mated() {
    // After 1. Ra6 Black is mated next move whatever it does.
    let pos = position("kbK5/pp6/RP6/8/8/8/8/8 b - - 0 1");
    let (outcome, _) = search(&pos, &SearchLimits::depth(4));
    let info = outcome.info.expect("an iteration completed");
    assert_eq!(info.score, Score::Mate(-1));
}

#[test]
fn never_returns_an_illegal_move() {
    let text = std::fs::read_to_string(STANDARD).expect("data/perft/standard.epd is readable");
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()).step_by(4) {
        let fen = line.split(';').next().unwrap_or_default().trim();
        let pos = position(fen);
        let (outcome, infos) = search(&pos, &SearchLimits::depth(2));
        match outcome.best {
            Some(best) => assert!(pos.is_legal(best), "{fen}"),
            None => assert!(pos.legal_moves().is_empty(), "{fen}"),
        }
        for info in infos {
            let mut line = pos.clone();
            for m in info.pv {
                assert!(line.is_legal(m), "{fen}: illegal PV move");
                line.play_unchecked(m);
            }
        }
        checked += 1;
    }
    assert!(checked >= 30, "only {checked} positions searched");
}

#[test]
fn movetime_is_respected() {
    let movetime = Duration::from_millis(200);
    let pos = position("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    let (outcome, infos) = search(&pos, &SearchLimits::movetime(movetime));
    assert!(outcome.best.is_some());
    let last = infos.last().expect("at least one iteration in 200 ms");
    assert!(last.time <= movetime, "last info at {:?}", last.time);
}

#[test]
fn node_limit_is_respected() {
    let (outcome, _) = search(&Chess::default(), &SearchLimits::nodes(5_000));
    assert!(outcome.nodes <= 5_000);
    assert!(outcome.best.is_some());
}

#[test]
fn fixed_depth_is_deterministic() {
    let pos = position("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10");
    let (first, _) = search(&pos, &SearchLimits::depth(5));
    let (second, _) = search(&pos, &SearchLimits::depth(5));
    assert_eq!(first.nodes, second.nodes);
    assert_eq!(first.best, second.best);
}
