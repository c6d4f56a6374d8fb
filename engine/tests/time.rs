//! Time management through the real program: the engine never takes more than the
//! remaining time minus its overhead by more than that overhead, judged by the time the
//! engine itself reports (`info nodes N time T` before `bestmove`), not by wall clocks.

mod common;

use common::Session;

use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

/// The time the engine reports for its last search, in milliseconds.
fn reported_time(engine: &Session) -> u64 {
    let (_, before) = engine.expect("bestmove", Duration::from_secs(30));
    let last = before.iter().rev().find(|l| l.starts_with("info nodes")).expect("a final info line");
    let words: Vec<&str> = last.split_whitespace().collect();
    let at = words.iter().position(|&w| w == "time").expect("a time");
    words[at + 1].parse().expect("milliseconds")
}

const MIDDLEGAME: &str = "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// The timing tests run one at a time: engines thinking side by side on a small machine
/// would measure the scheduler, not the time manager.
static ALONE: Mutex<()> = Mutex::new(());

fn alone() -> MutexGuard<'static, ()> {
    ALONE.lock().unwrap_or_else(PoisonError::into_inner)
}

#[test]
fn clock_budgets_are_kept() {
    let _alone = alone();
    let mut engine = Session::start();
    engine.send("setoption name Move Overhead value 50");
    for (go, remaining) in [
        ("go wtime 100 btime 100", 100),
        ("go wtime 300 btime 300 movestogo 1", 300),
        ("go wtime 1000 btime 1000 winc 2000 binc 2000", 1000),
        ("go wtime 40 btime 5000", 40),
        ("go wtime 0 btime 0", 0),
    ] {
        engine.send(MIDDLEGAME);
        engine.send(go);
        let time = reported_time(&engine);
        // The budget is the remaining time minus the overhead; at most the overhead more.
        assert!(time <= remaining.max(1), "{go}: took {time} ms");
    }
}

#[test]
fn movetime_is_kept() {
    let _alone = alone();
    let mut engine = Session::start();
    engine.send(MIDDLEGAME);
    engine.send("go movetime 250");
    let time = reported_time(&engine);
    assert!(time <= 250, "took {time} ms");
}

#[test]
fn ponder_time_does_not_count_until_ponderhit() {
    let _alone = alone();
    let mut engine = Session::start();
    engine.send(MIDDLEGAME);
    engine.send("go ponder wtime 200 btime 200");
    std::thread::sleep(Duration::from_millis(400));
    engine.send("isready");
    let (_, before) = engine.expect("readyok", Duration::from_secs(2));
    assert!(!before.iter().any(|l| l.starts_with("bestmove")), "{before:?}");
    engine.send("ponderhit");
    engine.expect("bestmove", Duration::from_secs(5));
}
