//! Perft against the suites in `data/perft`: every position at every listed depth whose expected
//! count is at most 5,000,000 nodes, to keep the test quick. Deeper counts are exercised by
//! the `kibitz-engine perft` command.

use kibitz_engine::perft;
use shakmaty::{CastlingMode, Chess, PositionError, fen::Fen};

/// The largest expected count checked here.
const MAX_NODES: u64 = 5_000_000;

const STANDARD: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/perft/standard.epd");
const TRICKY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/perft/tricky.perft");

fn position(fen: &str, mode: CastlingMode) -> Chess {
    let parsed: Fen = fen.parse().unwrap_or_else(|e| panic!("bad FEN {fen}: {e}"));
    // Some suite positions have checks no legal game could reach; move generation copes.
    parsed
        .into_position(mode)
        .or_else(PositionError::ignore_impossible_check)
        .unwrap_or_else(|e| panic!("impossible position {fen}: {e}"))
}

/// Checks one count, returning whether it was within the size limit (and so checked).
fn check(name: &str, pos: &Chess, depth: u32, expected: u64) -> bool {
    if expected > MAX_NODES {
        return false;
    }
    assert_eq!(perft(pos, depth), expected, "{name} at depth {depth}");
    true
}

#[test]
fn standard_epd() {
    let text = std::fs::read_to_string(STANDARD).expect("data/perft/standard.epd is readable");
    let mut positions = 0;
    let mut counts = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let mut parts = line.split(';');
        let fen = parts.next().unwrap_or_default().trim();
        let pos = position(fen, CastlingMode::Standard);
        positions += 1;
        for part in parts {
            let (depth, expected) = part.trim().split_once(' ').expect("';Dn count' pair");
            let depth: u32 = depth.trim_start_matches('D').parse().expect("depth number");
            let expected: u64 = expected.trim().parse().expect("node count");
            counts += usize::from(check(fen, &pos, depth, expected));
        }
    }
    assert_eq!(positions, 128, "every position of the suite was read");
    assert!(counts >= 500, "only {counts} counts checked");
}

#[test]
fn tricky_perft() {
    let text = std::fs::read_to_string(TRICKY).expect("data/perft/tricky.perft is readable");
    let mut id = String::new();
    let mut pos = None;
    let mut positions = 0;
    let mut counts = 0;
    for line in text.lines().map(str::trim) {
        if let Some(name) = line.strip_prefix("id ") {
            id = name.to_owned();
        } else if let Some(fen) = line.strip_prefix("epd ") {
            // X-FEN and Shredder-FEN castling (a castling rook off the a/h files, or given by
            // file letter) needs Chess960 castling rules; shakmaty reads those in that mode.
            let chess960 = id.starts_with("xfen-") || id == "hside-rook-blocks-aside-castling";
            let mode = if chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard };
            pos = Some(position(fen, mode));
            positions += 1;
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let (depth, expected) = rest.split_once(' ').expect("'perft depth count'");
            let depth: u32 = depth.parse().expect("depth number");
            let expected: u64 = expected.trim().parse().expect("node count");
            let pos = pos.as_ref().expect("a position before its counts");
            counts += usize::from(check(&id, pos, depth, expected));
        }
    }
    assert_eq!(positions, 18, "every position of the suite was read");
    assert!(counts >= 60, "only {counts} counts checked");
}
