//! The evaluation network: what the built-in network has learned, searches with it (in a debug
//! build every incrementally updated evaluation is checked against one from scratch), and the
//! UCI options `UseNNUE` and `EvalFile` that choose it.

mod common;

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use common::{Session, TempDir};
use kibitz_engine::{Engine, KING_BUCKETS, Network, Score, SearchLimits};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};

fn position(fen: &str) -> Chess {
    fen.parse::<Fen>().expect("fen").into_position(CastlingMode::Standard).expect("legal")
}

#[test]
fn the_built_in_network_knows_material_and_whose_move_it_is() {
    let net = Network::embedded();
    let start = net.evaluate(&Chess::default());
    assert!(start.abs() < 100, "the start position: {start}");
    // Black without its queen, either side to move.
    let white_to_move = position("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    let black_to_move = position("rnb1kbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    assert!(net.evaluate(&white_to_move) > 500, "{}", net.evaluate(&white_to_move));
    assert!(net.evaluate(&black_to_move) < -500, "{}", net.evaluate(&black_to_move));
    // A rook up in an ending, and the same with colours reversed.
    let rook_up = position("4k3/pp3ppp/8/8/8/8/PP3PPP/R3K3 w - - 0 1");
    let rook_down = position("r3k3/pp3ppp/8/8/8/8/PP3PPP/4K3 w - - 0 1");
    assert!(net.evaluate(&rook_up) > 300, "{}", net.evaluate(&rook_up));
    assert!(net.evaluate(&rook_down) < -300, "{}", net.evaluate(&rook_down));
}

#[test]
fn a_search_with_the_network_plays_legal_moves_and_finds_mates() {
    let mut engine = Engine::new(8);
    engine.set_network(Some(Network::embedded()));
    let stop = AtomicBool::new(false);
    // Castling both ways, en passant and promotions (with and without capture) are all in
    // these trees; the debug build checks every incremental update.
    for fen in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ] {
        let pos = position(fen);
        let outcome = engine.search(&pos, &[], &SearchLimits::depth(5), &stop, |_| {});
        let best = outcome.best.expect("a move");
        assert!(pos.is_legal(best), "{fen}: {best}");
    }
    // Mates in 1 and 2 are found whatever the evaluation.
    for (fen, mate) in [
        ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 1),
        ("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", 1),
        ("1r4k1/5ppp/8/8/8/8/3R1PPP/3R2K1 w - - 0 1", 2),
    ] {
        engine.new_game();
        let outcome = engine.search(&position(fen), &[], &SearchLimits::depth(7), &stop, |_| {});
        let score = outcome.info.expect("a report").score;
        assert!(matches!(score, Score::Mate(n) if n > 0 && n <= mate), "{fen}: {score:?}");
    }
}

/// The node count of the last report of `go depth {depth}` from `position` (a UCI `position`
/// command), after checking that the search answered with a move and no error.
fn nodes_to_depth(engine: &mut Session, position: &str, depth: u32) -> u64 {
    engine.send("ucinewgame");
    engine.send(position);
    engine.send(&format!("go depth {depth}"));
    let (best, infos) = engine.expect("bestmove", Duration::from_secs(120));
    // A search that panics (a debug build's check of the accumulators) answers with an error
    // and no move.
    assert!(!infos.iter().any(|l| l.contains("error")), "{infos:?}");
    assert_ne!(best, "bestmove 0000");
    infos
        .iter()
        .rev()
        .find_map(|l| l.split_whitespace().skip_while(|&w| w != "nodes").nth(1)?.parse().ok())
        .expect("a report with nodes")
}

/// The node count of `go depth 6` from the start position.
fn nodes_to_depth_6(engine: &mut Session) -> u64 {
    nodes_to_depth(engine, "position startpos", 6)
}

#[test]
fn use_nnue_and_eval_file_choose_the_evaluation() {
    let mut engine = Session::start();
    engine.send("uci");
    let (_, options) = engine.expect("uciok", Duration::from_secs(5));
    assert!(options.iter().any(|l| l.starts_with("option name UseNNUE type check default ")), "{options:?}");
    assert!(options.contains(&"option name EvalFile type string default <empty>".to_owned()), "{options:?}");

    engine.send("setoption name UseNNUE value false");
    let classical = nodes_to_depth_6(&mut engine);
    engine.send("setoption name UseNNUE value true");
    let network = nodes_to_depth_6(&mut engine);
    assert_ne!(classical, network, "the same search with either evaluation");

    // A file that is not a network is refused, and the engine keeps its network.
    let dir = TempDir::new("network-options");
    let bad = dir.file("bad.nnue");
    std::fs::write(&bad, b"KBZNET01 but nothing after it").expect("write");
    engine.send(&format!("setoption name EvalFile value {bad}"));
    let (line, _) = engine.expect("info string error: EvalFile", Duration::from_secs(5));
    assert!(line.contains("hidden layer") || line.contains("bytes"), "{line}");
    assert_eq!(nodes_to_depth_6(&mut engine), network);
    engine.send("setoption name EvalFile value /no/such/file.nnue");
    engine.expect("info string error: EvalFile /no/such/file.nnue", Duration::from_secs(5));

    // A copy of the built-in network, loaded from its file, searches alike.
    let copy = dir.file("copy.nnue");
    std::fs::copy(concat!(env!("CARGO_MANIFEST_DIR"), "/net/kibitz.nnue"), &copy).expect("copy");
    engine.send(&format!("setoption name EvalFile value {copy}"));
    let (line, _) = engine.expect("info string EvalFile", Duration::from_secs(5));
    let built_in = Network::embedded();
    let shape = match built_in.buckets() {
        1 => format!("a network of {} hidden neurons", built_in.hidden()),
        b => format!("a network of {} hidden neurons and {b} output buckets", built_in.hidden()),
    };
    assert!(line.ends_with(&shape), "{line}");
    assert_eq!(nodes_to_depth_6(&mut engine), network);
    engine.send("setoption name UseNNUE value false");
    assert_eq!(nodes_to_depth_6(&mut engine), classical);
}

/// The built-in network as a king-bucketed file: its feature weights once for each of the
/// four king buckets, those of bucket `k` divided by `divisors[k]`.
fn king_bucketed_copy(divisors: [i16; KING_BUCKETS]) -> Vec<u8> {
    let built_in = Network::embedded();
    let (w1, b1, w2, b2) = built_in.parameters();
    let mut bytes = Network::MAGIC_KINGS.to_vec();
    for word in [built_in.hidden(), built_in.buckets(), KING_BUCKETS] {
        bytes.extend(u32::try_from(word).expect("small").to_le_bytes());
    }
    for divisor in divisors {
        bytes.extend(w1.iter().flat_map(|w| (w / divisor).to_le_bytes()));
    }
    bytes.extend(b1.iter().chain(w2).flat_map(|w| w.to_le_bytes()));
    bytes.extend(b2.iter().flat_map(|b| b.to_le_bytes()));
    bytes
}

/// The node count of `go depth 9` in a pawn ending whose kings walk through every king bucket
/// of their first two ranks.
fn nodes_in_the_ending(engine: &mut Session) -> u64 {
    nodes_to_depth(engine, "position fen 4k3/2ppp3/8/8/8/8/3PPP2/4K3 w - - 0 1", 9)
}

#[test]
fn a_king_bucketed_eval_file_searches_with_its_buckets() {
    let mut engine = Session::start();
    engine.send("uci");
    engine.expect("uciok", Duration::from_secs(5));
    let built_in = nodes_in_the_ending(&mut engine);
    let dir = TempDir::new("king-buckets");

    // Four copies of the built-in network's rows: the same network, the same search.
    let same = dir.file("same.nnue");
    std::fs::write(&same, king_bucketed_copy([1; KING_BUCKETS])).expect("write");
    engine.send(&format!("setoption name EvalFile value {same}"));
    let (line, _) = engine.expect("info string EvalFile", Duration::from_secs(5));
    assert!(line.ends_with(" and 4 king buckets"), "{line}");
    assert_eq!(nodes_in_the_ending(&mut engine), built_in);

    // Different rows for each bucket: another search, in which (in a debug build) every
    // incrementally updated evaluation, across the kings' moves from bucket to bucket, is
    // checked against one from scratch.
    let different = dir.file("different.nnue");
    std::fs::write(&different, king_bucketed_copy([1, 2, 3, 4])).expect("write");
    engine.send(&format!("setoption name EvalFile value {different}"));
    engine.expect("info string EvalFile", Duration::from_secs(5));
    assert_ne!(nodes_in_the_ending(&mut engine), built_in);
}

#[test]
fn eval_shows_the_network_score_the_search_uses() {
    let fen = "4k3/8/8/8/8/8/PPPP4/R3K3 b - - 0 1";
    let expected = Network::embedded().evaluate_white(&position(fen));
    let mut engine = Session::start();
    engine.send("uci");
    engine.expect("uciok", Duration::from_secs(5));
    engine.send(&format!("position fen {fen}"));
    engine.send("eval");
    let (line, table) = engine.expect("Network evaluation", Duration::from_secs(5));
    assert!(table.iter().any(|l| l.starts_with("Material")), "the classical parts come first: {table:?}");
    assert!(line.starts_with(&format!("Network evaluation {:+.2} ", f64::from(expected) / 100.0)), "{line}");
    assert!(expected > 300, "White is a rook and pawns up: {expected}");

    // With the classical evaluation, no network line.
    engine.send("setoption name UseNNUE value false");
    engine.send("eval");
    engine.send("isready");
    let (_, shown) = engine.expect("readyok", Duration::from_secs(5));
    assert!(shown.iter().any(|l| l.starts_with("Phase ")), "{shown:?}");
    assert!(!shown.iter().any(|l| l.starts_with("Network")), "{shown:?}");
}
