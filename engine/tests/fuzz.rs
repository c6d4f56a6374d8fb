//! A short fuzz run of every parser of user- or program-supplied input: a few thousand
//! mutated inputs each, seeded from the repository's test data. No input may panic or take
//! longer than a second. The long run is
//! `cargo run --release -p kibitz-engine --example fuzz`.

use std::path::Path;

use kibitz_engine::fuzz::{Report, Target, fuzz, targets};
use kibitz_engine::{read_games, read_pgn, write_pgn};

/// Inputs per target in the test run (a few seconds in all in a debug build).
const INPUTS: u64 = 3000;

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

fn run(targets: &[Target]) -> Vec<Report> {
    targets.iter().map(|t| fuzz(t, root(), INPUTS, 1)).collect()
}

#[test]
fn no_parser_panics_or_hangs_on_mutated_inputs() {
    let all = targets();
    let (first, second) = all.split_at(all.len() / 2);
    let reports: Vec<Report> = std::thread::scope(|scope| {
        let other = scope.spawn(|| run(second));
        let mut reports = run(first);
        reports.extend(other.join().expect("the fuzz thread finishes"));
        reports
    });
    for report in &reports {
        println!("{report}");
        assert_eq!(report.inputs, INPUTS, "{report}");
    }
    let failed: Vec<String> =
        reports.iter().filter(|r| !r.failures.is_empty()).map(Report::to_string).collect();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[test]
fn every_target_has_seeds() {
    for target in targets() {
        assert!((target.seeds)(root()).len() >= 3, "{} has seeds", target.name);
    }
}

#[test]
fn a_panic_is_caught_and_its_input_shrunk() {
    let target = Target {
        name: "brackets",
        seeds: |_| vec![b"1. e4 e5 2. Nf3 *".to_vec()],
        run: |input| assert!(!input.contains(&b'{'), "a brace"),
    };
    let report = fuzz(&target, root(), 2000, 3);
    assert!(!report.failures.is_empty(), "{report}");
    assert!(report.inputs < 2000, "the run stops after a few failures");
    for failure in &report.failures {
        assert_eq!(failure.input, b"{", "shrunk to what panics");
        assert!(failure.to_string().contains("a brace; input b\"{\""), "{failure}");
    }
}

/// Every game read whole from `input` is written out and must read back as a game written
/// the same way, as the `pgn` target checks.
fn round_trip(input: &[u8]) {
    for game in read_games(input).flatten() {
        let written = write_pgn(&game);
        match read_pgn(&written) {
            Ok(again) => assert_eq!(write_pgn(&again), written),
            Err(e) => panic!("a game Kibitz wrote does not read back ({e}):\n{written}"),
        }
    }
}

#[test]
fn a_damaged_variant_tag_reads_back() {
    let input = b"[Variant\"\n[\"\"[Variant\"]\n";
    // The last of the two Variant tags counts, as for any repeated tag: `]` is no variant
    // Kibitz plays, so the game is refused rather than read as standard chess.
    let games: Vec<_> = read_games(input).collect();
    assert_eq!(games.len(), 1);
    assert!(games[0].as_ref().is_err_and(|e| e.to_string().contains("variant \"]\"")), "{games:?}");
    round_trip(input);
    round_trip(b"[Variant \"crazyhouse\"]\n[Variant \"standard\"]\n\n1. e4 *\n");
}

#[test]
fn a_result_tag_that_is_no_result_reads_back() {
    round_trip(b"[Result \"1/2lowerbound1/2\"]\n\n1. e4 *\n");
    round_trip(b"[Result\"?\"");
}
