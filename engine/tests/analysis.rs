//! An `Analysis` fed by real players: Kibitz's own engine on its thread and Debian's
//! Stockfish through `ExternalEngine`, each asked for three lines.

use std::time::{Duration, Instant};

use kibitz_engine::{
    Analysis, Command, EngineConfig, EngineHandle, Event, ExternalEngine, Player, Protocol, Purpose, Score,
    SearchLimits,
};
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move, Position};

const STOCKFISH: &str = "/usr/games/stockfish";

/// The start position and the moves of 1. e4 e5 2. Nf3 Nc6 3. Bb5, with the position after them.
fn ruy_lopez() -> (Chess, Vec<Move>, Chess) {
    let start = Chess::default();
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for text in ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"] {
        let m = text.parse::<UciMove>().expect("UCI move").to_move(&pos).expect("legal move");
        pos.play_unchecked(m);
        moves.push(m);
    }
    (start, moves, pos)
}

/// A score as a number that orders scores: mates beyond every centipawn value, the
/// quicker mate the better.
fn rank(score: Score) -> i64 {
    match score {
        Score::Cp(cp) => i64::from(cp),
        Score::Mate(n) if n > 0 => 1_000_000 - i64::from(n),
        Score::Mate(n) => -1_000_000 - i64::from(n),
    }
}

/// Searches the Ruy Lopez for three lines to `depth` and feeds every event to an analysis
/// until the search's best move.
fn analyse(player: &dyn Player, depth: u32) -> (Analysis, Move) {
    let (start, moves, root) = ruy_lopez();
    player.send(Command::NewGame);
    player.send(Command::Position { start, moves });
    let id = 11;
    let mut analysis = Analysis::new(root, id, 3);
    let limits = SearchLimits { multipv: Some(3), depth: Some(depth), ..Default::default() };
    player.send(Command::Go { id, purpose: Purpose::Analyse, limits });
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut seen = Vec::new();
    while Instant::now() < deadline {
        let Some(event) = player.recv_timeout(Duration::from_millis(100)) else { continue };
        analysis.update(&event);
        match event {
            Event::BestMove { id: got, best: Some(best), .. } if got == id => return (analysis, best),
            Event::Failed(failure) => panic!("{}: {failure}", player.name()),
            other => seen.push(other),
        }
    }
    panic!("{}: no best move within a minute; events: {seen:#?}", player.name());
}

/// Three lines, by index, with distinct legal first moves ordered by score, and the best
/// move is line 1's.
fn check_three_lines(name: &str, analysis: &Analysis, best: Move, depth: u32) {
    let lines = analysis.lines();
    let indexes: Vec<u32> = lines.iter().map(|l| l.multipv).collect();
    assert_eq!(indexes, [1, 2, 3], "{name}: {lines:#?}");
    let root = analysis.root();
    let firsts: Vec<Move> = lines.iter().map(|l| *l.pv.first().expect("a line has moves")).collect();
    assert!(firsts.iter().all(|&m| root.is_legal(m)), "{name}: {firsts:?}");
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2], "{name}: {firsts:?}");
    for line in lines {
        assert!(line.is_exact(), "{name}: the last report of a finished depth is exact: {line:?}");
        assert!(line.depth >= depth, "{name}: {line:?}");
        // Black is to move after 3. Bb5.
        assert_eq!(line.white_score, line.score.negate(), "{name}: {line:?}");
        let san = analysis.san(line);
        assert!(san.starts_with("3... "), "{name}: {san}");
    }
    let scores: Vec<i64> = lines.iter().map(|l| rank(l.score)).collect();
    assert!(scores[0] >= scores[1] && scores[1] >= scores[2], "{name}: scores out of order: {lines:#?}");
    assert_eq!(analysis.best().map(|l| l.pv[0]), Some(best), "{name}: the best move is line 1's");
    let totals = analysis.totals().expect("totals of the latest report");
    assert!(totals.nodes > 0, "{name}: {totals:?}");
}

#[test]
fn the_built_in_engine_feeds_three_lines() {
    let engine = EngineHandle::spawn(|| {});
    let (analysis, best) = analyse(&engine, 8);
    check_three_lines("Kibitz", &analysis, best, 8);
}

#[test]
fn stockfish_feeds_three_lines() {
    assert!(
        std::path::Path::new(STOCKFISH).exists(),
        "{STOCKFISH} is missing: install Debian's stockfish package (.ci/run does) to run this test"
    );
    let mut config = EngineConfig::from_path(STOCKFISH);
    config.protocol = Some(Protocol::Uci);
    config.options = vec![("Hash".into(), "16".into())];
    let stockfish = ExternalEngine::spawn(config, || {});
    let (analysis, best) = analyse(&stockfish, 12);
    check_three_lines("Stockfish", &analysis, best, 12);
}
