//! The levels people play: every weakened level plays legal moves within its horizon and its
//! share of the clock, chooses among the good lines it found (reproducibly with a seed), and
//! the engine thread weakens only its searches for play.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use kibitz_engine::{
    BENCH_POSITIONS, Command, Engine, EngineHandle, Event, Level, Purpose, Score, SearchInfo, SearchLimits,
    Strength, allot,
};
use rand::SeedableRng;
use rand::rngs::StdRng;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Move, Position};

/// The bench's middlegame positions, where several moves are about as good.
fn positions() -> Vec<Chess> {
    BENCH_POSITIONS[..7]
        .iter()
        .map(|fen| {
            let fen: Fen = fen.parse().expect("bench FEN");
            fen.into_position(CastlingMode::Standard).expect("legal")
        })
        .collect()
}

fn weakened() -> Vec<(Level, Strength)> {
    Level::all().filter_map(|l| l.strength().map(|s| (l, s))).collect()
}

/// Searches `pos` at `strength` with a fresh engine; the outcome and every line heard.
fn play(
    strength: Strength,
    pos: &Chess,
    limits: &SearchLimits,
    seed: u64,
) -> (kibitz_engine::SearchOutcome, Vec<SearchInfo>) {
    let mut heard = Vec::new();
    let mut listener = |info: &SearchInfo| heard.push(info.clone());
    let stop = AtomicBool::new(false);
    let pondering = AtomicBool::new(false);
    let mut rng = StdRng::seed_from_u64(seed);
    let outcome =
        strength.search(&mut Engine::new(8), pos, &[], limits, &stop, &pondering, &mut listener, &mut rng);
    (outcome, heard)
}

#[test]
fn every_level_plays_legal_moves_within_its_horizon_and_its_share_of_the_clock() {
    let clock = Duration::from_secs(3);
    let limits = SearchLimits { wtime: Some(clock), btime: Some(clock), ..SearchLimits::default() };
    for (level, strength) in weakened() {
        let share = clock * strength.time_percent() / 100;
        let hard = allot(share, Duration::ZERO, None, Duration::from_millis(50)).hard;
        for pos in positions().iter().take(3) {
            let started = Instant::now();
            let (outcome, heard) = play(strength, pos, &limits, 1);
            let took = started.elapsed();
            let best = outcome.best.expect("a move");
            assert!(pos.is_legal(best), "{level}: illegal {best:?}");
            assert!(outcome.nodes <= strength.nodes(), "{level}: {} nodes", outcome.nodes);
            assert!(heard.iter().all(|i| i.depth <= strength.depth()), "{level}: beyond its horizon");
            // Generous: the budget plus a second for a loaded machine.
            assert!(took <= hard + Duration::from_secs(1), "{level}: {took:?} for a budget of {hard:?}");
        }
    }
}

/// The exact lines of the deepest iteration among those that ranked the most lines, each
/// (depth, MultiPV index) once: its last report (an iteration whose lines changed order is
/// reported again in the new order), leaving out the move played, repeated at the end as
/// line 1 when it was not the search's best.
fn ranked_lines(heard: &[SearchInfo]) -> Vec<&SearchInfo> {
    let exact: Vec<&SearchInfo> = heard.iter().filter(|i| i.bound.is_none()).collect();
    let repeated = exact.last().is_some_and(|last| {
        last.multipv == 1
            && exact
                .iter()
                .any(|l| l.depth == last.depth && l.multipv != 1 && l.pv.first() == last.pv.first())
    });
    let mut lines: Vec<&SearchInfo> = Vec::new();
    for info in &exact[..exact.len() - usize::from(repeated)] {
        lines.retain(|l| (l.depth, l.multipv) != (info.depth, info.multipv));
        lines.push(info);
    }
    let count = |depth: u32| lines.iter().filter(|l| l.depth == depth).count();
    let most = lines.iter().map(|l| count(l.depth)).max().unwrap_or(0);
    let deepest = lines.iter().map(|l| l.depth).filter(|&d| count(d) == most).max();
    lines.into_iter().filter(|l| Some(l.depth) == deepest).collect()
}

#[test]
fn the_move_is_a_good_line_of_the_search_and_the_seed_reproduces_it() {
    let (_, weakest) = weakened()[0];
    // Every line passed on, to judge the choice by them.
    let limits = SearchLimits { multipv: Some(weakest.lines()), ..SearchLimits::default() };
    let mut differs = false;
    for pos in positions() {
        let (outcome, heard) = play(weakest, &pos, &limits, 11);
        let best = outcome.best.expect("a move");
        let lines = ranked_lines(&heard);
        let cp = |s: Score| match s {
            Score::Cp(cp) => cp,
            Score::Mate(n) => {
                if n > 0 {
                    30_000
                } else {
                    -30_000
                }
            }
        };
        let top = lines.iter().map(|l| cp(l.score)).max().expect("a line");
        let chosen =
            lines.iter().find(|l| l.pv.first() == Some(&best)).expect("the move is one of the lines");
        assert!(top - cp(chosen.score) <= weakest.margin(), "a move beyond the margin");
        let again = play(weakest, &pos, &limits, 11).0.best;
        assert_eq!(again, Some(best), "the same seed, the same move");
        let first: Option<Move> = lines.iter().find(|l| l.multipv == 1).and_then(|l| l.pv.first().copied());
        differs |= first != Some(best);
    }
    assert!(differs, "the weakest level always played its best line");
}

#[test]
fn the_strongest_level_chooses_among_the_lines_of_its_deepest_iteration() {
    let (_, strongest) = *weakened().last().expect("levels");
    let limits =
        SearchLimits { multipv: Some(strongest.lines()), nodes: Some(200_000), ..SearchLimits::default() };
    for (number, pos) in positions().iter().enumerate() {
        let (outcome, heard) = play(strongest, pos, &limits, 5);
        let best = outcome.best.expect("a move");
        let lines = ranked_lines(&heard);
        let deepest = lines.first().expect("a line").depth;
        assert!(
            lines.iter().any(|l| l.pv.first() == Some(&best)),
            "position {number}: not a line of depth {deepest}"
        );
        let played = outcome.info.expect("the line played");
        assert!(played.depth >= deepest, "position {number}: a move of depth {} of {deepest}", played.depth);
    }
}

fn best_move(handle: &EngineHandle, id: u64) -> (Option<Move>, u64, Vec<SearchInfo>) {
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut infos = Vec::new();
    while Instant::now() < deadline {
        match handle.recv_timeout(Duration::from_millis(100)) {
            Some(Event::Info { id: got, info }) if got == id => infos.push(info),
            Some(Event::BestMove { id: got, best, nodes, .. }) if got == id => return (best, nodes, infos),
            _ => {}
        }
    }
    panic!("no best move for search {id}");
}

#[test]
fn the_engine_thread_weakens_play_only() {
    let handle = EngineHandle::spawn(|| {});
    let level = Level::weakest();
    let strength = level.strength().expect("weakened");
    handle.set_level(level);
    let pos = positions()[3].clone();
    handle.send(Command::Position { start: pos.clone(), moves: Vec::new() });
    let limits = SearchLimits::depth(strength.depth() + 3);
    handle.send(Command::Go { id: 1, purpose: Purpose::Play, limits: limits.clone() });
    let (best, nodes, infos) = best_move(&handle, 1);
    assert!(pos.is_legal(best.expect("a move")));
    assert!(nodes <= strength.nodes(), "{nodes} nodes");
    assert!(
        infos.iter().all(|i| i.depth <= strength.depth() && i.multipv == 1),
        "one line, within the horizon"
    );
    assert_eq!(infos.last().and_then(|i| i.pv.first().copied()), best, "the last line is the move played");
    handle.send(Command::Go { id: 2, purpose: Purpose::Hint, limits: limits.clone() });
    let (_, _, infos) = best_move(&handle, 2);
    assert!(infos.iter().any(|i| i.depth == strength.depth() + 3), "a hint is at full strength");
    handle.set_level(Level::Full);
    handle.send(Command::Go { id: 3, purpose: Purpose::Play, limits });
    let (_, _, infos) = best_move(&handle, 3);
    assert!(infos.iter().any(|i| i.depth == strength.depth() + 3), "full strength again");
}
