//! `bench`: a fixed set of positions searched to a fixed depth. The total node count is a
//! signature of the search: any change to it shows that the search behaves differently.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use shakmaty::{CastlingMode, Chess, fen::Fen};

use crate::SearchLimits;
use crate::network::Evaluation;
use crate::search::Engine;

/// The depth `bench` searches to when none is given.
pub const BENCH_DEPTH: u32 = 13;

/// The bench positions: openings, middlegames and endgames.
pub const BENCH_POSITIONS: [&str; 12] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R1BQKB1R w KQ - 0 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "2rq1rk1/pb1nbppp/1p2pn2/2pp4/2PP4/1PN1PN2/PB2BPPP/2RQ1RK1 w - - 0 11",
    "r2q1rk1/1b1nbppp/p2ppn2/1p6/3NP3/1BN1BP2/PPPQ2PP/2KR3R w - - 0 12",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "8/8/1p2k1p1/3p3p/1p1P1P1P/1P2K3/8/8 w - - 0 40",
    "8/5pk1/6p1/8/1R6/r7/5PPK/8 w - - 0 40",
    "8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 0 50",
    "4r1k1/p4ppp/1q6/3Q4/8/1P4P1/P4P1P/3R2K1 b - - 0 25",
];

/// The result of a bench run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchReport {
    /// Nodes searched over all positions.
    pub nodes: u64,
    /// Time spent searching.
    pub time: Duration,
}

impl BenchReport {
    /// Nodes per second.
    #[must_use]
    pub fn nps(&self) -> u64 {
        let micros = self.time.as_micros().max(1);
        u64::try_from(u128::from(self.nodes) * 1_000_000 / micros).unwrap_or(u64::MAX)
    }
}

/// Searches every bench position to `depth` with a fresh engine each, evaluating with
/// `evaluation`, calling `on_position` with each position's FEN and node count.
pub fn bench(depth: u32, evaluation: Evaluation, mut on_position: impl FnMut(&str, u64)) -> BenchReport {
    let stop = AtomicBool::new(false);
    let limits = SearchLimits::depth(depth);
    let mut nodes = 0;
    let mut time = Duration::ZERO;
    for fen in BENCH_POSITIONS {
        let Some(pos) = parse(fen) else { continue };
        let mut engine = Engine::default();
        engine.set_network(evaluation.network());
        let started = Instant::now();
        let outcome = engine.search(&pos, &[], &limits, &stop, |_| {});
        time += started.elapsed();
        nodes += outcome.nodes;
        on_position(fen, outcome.nodes);
    }
    BenchReport { nodes, time }
}

fn parse(fen: &str) -> Option<Chess> {
    let fen: Fen = fen.parse().ok()?;
    fen.into_position(CastlingMode::Standard).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bench_position_is_legal() {
        for fen in BENCH_POSITIONS {
            assert!(parse(fen).is_some(), "{fen}");
        }
    }

    #[test]
    fn shallow_bench_is_deterministic() {
        let first = bench(3, Evaluation::default(), |_, _| {});
        let second = bench(3, Evaluation::default(), |_, _| {});
        assert_eq!(first.nodes, second.nodes);
        assert!(first.nodes > 0);
    }
}
