//! Clocks and evaluations of a real lichess game (data/pgn/annotated/notnil-0005.pgn): the
//! reader takes `[%clk]` and `[%eval]` out of the comments into typed values, and reading what
//! the writer wrote gives the same values and the same comments.

use std::path::Path;

use kibitz_engine::{GameRecord, NodeId, read_games, write_pgn};

const FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/pgn/annotated/notnil-0005.pgn");

/// Every node in tree order: the root, then each move before its continuations.
fn nodes(game: &GameRecord) -> Vec<NodeId> {
    let mut out = Vec::new();
    let mut stack = vec![NodeId::ROOT];
    while let Some(id) = stack.pop() {
        out.push(id);
        stack.extend(game.node(id).expect("a live node").children().iter().rev());
    }
    out
}

/// The typed clocks and evaluations of a game, in tree order.
fn typed(game: &GameRecord) -> Vec<(Option<std::time::Duration>, Option<kibitz_engine::Eval>)> {
    nodes(game)
        .into_iter()
        .map(|id| game.node(id).map(|n| (n.clock(), n.eval())).expect("a live node"))
        .collect()
}

/// Reads every game of a file, writes each, reads it back and compares every node; returns
/// the typed clocks and evaluations counted over the file.
fn round_trip(path: &Path) -> (usize, usize, usize) {
    let bytes = std::fs::read(path).expect("the data file");
    let (mut games, mut clocks, mut evals) = (0, 0, 0);
    for (i, game) in read_games(&bytes).enumerate() {
        let game = game.unwrap_or_else(|e| panic!("{} game {}: {e}", path.display(), i + 1));
        let written = write_pgn(&game);
        let again = kibitz_engine::read_pgn(&written).expect("the written game reads");
        let (ids, again_ids) = (nodes(&game), nodes(&again));
        assert_eq!(ids.len(), again_ids.len(), "game {}", i + 1);
        for (&a, &b) in ids.iter().zip(&again_ids) {
            let (a, b) = (game.node(a).expect("a node"), again.node(b).expect("a node"));
            assert_eq!((a.san(), a.nags()), (b.san(), b.nags()));
            assert_eq!((a.clock(), a.eval()), (b.clock(), b.eval()), "game {} {}", i + 1, a.san());
            assert_eq!(a.comment(), b.comment(), "game {} {}", i + 1, a.san());
            assert_eq!(a.starting_comment(), b.starting_comment());
            for command in ["[%clk ", "[%eval "] {
                assert!(!a.comment().contains(command), "{command} left in {:?}", a.comment());
            }
        }
        assert_eq!(typed(&game), typed(&again));
        assert_eq!(write_pgn(&again), written, "game {}", i + 1);
        games += 1;
        clocks += typed(&game).iter().filter(|(c, _)| c.is_some()).count();
        evals += typed(&game).iter().filter(|(_, e)| e.is_some()).count();
    }
    (games, clocks, evals)
}

#[test]
fn a_lichess_game_keeps_its_clocks_evals_and_comments() {
    // python-chess counted 1 game with 41 [%clk] and 40 [%eval] comments
    // (data/pgn/annotated/README.md); every such comment is one move's.
    assert_eq!(round_trip(Path::new(FILE)), (1, 41, 40));

    let bytes = std::fs::read(FILE).expect("the data file");
    let game = read_games(&bytes).next().expect("a game").expect("the game reads");
    let line = game.main_line();
    let node = |ply: usize| game.node(line[ply]).expect("a move");
    // 1. e4 { [%eval 0.24] [%clk 0:05:00] }
    assert_eq!(node(1).clock(), Some(std::time::Duration::from_secs(300)));
    assert_eq!(node(1).eval().map(|e| e.score), Some(kibitz_engine::Score::Cp(24)));
    assert_eq!(node(1).comment(), "");
    // 3... g6 { [%eval 0.13] [%clk 0:05:03] } { B31 Sicilian Defense: ... }
    assert!(node(6).comment().starts_with("B31 Sicilian Defense"), "{}", node(6).comment());
    // 20... f6? { (8.69 → Mate in 1) ... } { [%eval #1] [%clk 0:02:31] }
    assert_eq!(node(40).eval().map(|e| e.score), Some(kibitz_engine::Score::Mate(1)));
    assert!(node(40).comment().ends_with("Rb4 was best."), "{}", node(40).comment());
    // 21. g4# { [%clk 0:00:46] } { White wins by checkmate. }
    assert_eq!((node(41).clock(), node(41).eval()), (Some(std::time::Duration::from_secs(46)), None));
    assert_eq!(node(41).comment(), "White wins by checkmate.");
    let written = write_pgn(&game).replace('\n', " ");
    assert!(written.contains("21. g4# {[%clk 0:00:46] White wins by checkmate.} 1-0"), "{written}");
}

#[test]
fn a_lichess_database_keeps_its_clocks_and_evals() {
    // A lichess export: python-chess counted 438 games with 28,538 [%clk] and 2,216 [%eval]
    // comments, one comment per move (data/PROVENANCE.json).
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/pgn/annotated/lichess_db_1000k.pgn");
    assert_eq!(round_trip(&path), (438, 28_538, 2_216));
}
