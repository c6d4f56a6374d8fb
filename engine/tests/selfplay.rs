//! `kibitz selfplay`: the policy's readings in engine-against-itself games, with and without
//! tablebases.

mod common;

use std::process::ExitCode;

use common::TempDir;

fn kibitz(args: &[&str]) -> ExitCode {
    kibitz_engine::cli::run(&args.iter().map(|&a| a.to_owned()).collect::<Vec<_>>())
}

/// The remarks of one game from `fen` at depth 10, with `extra` arguments.
fn remarks_of(dir: &TempDir, fen: &str, extra: &[&str]) -> String {
    let openings = dir.file("start.epd");
    std::fs::write(&openings, format!("{fen}\n")).expect("writable");
    let remarks = dir.file("remarks.tsv");
    let args = ["selfplay", "--games", "1", "--tc", "sd 10", "--openings", &openings, "--remarks", &remarks];
    let all: Vec<&str> = args.iter().chain(extra).copied().collect();
    assert_eq!(kibitz(&all), ExitCode::SUCCESS);
    std::fs::read_to_string(&remarks).expect("the remarks")
}

#[test]
fn with_tablebases_a_side_does_not_resign_a_drawn_ending() {
    let dir = TempDir::new("selfplay-tb");
    // Queen against a rook's pawn on the seventh, the queen's king too far: a draw by the
    // tables, which the search alone scores at about +7 for White.
    let fen = "8/8/8/8/8/5K2/pk6/7Q w - - 0 60";
    let without = remarks_of(&dir, fen, &[]);
    assert!(without.contains("Black resigns"), "the search alone misreads it:\n{without}");
    let tables = format!("{}/../data/syzygy", env!("CARGO_MANIFEST_DIR"));
    let with = remarks_of(&dir, fen, &["--tb", &tables]);
    assert!(!with.contains("resigns"), "{with}");
    assert!(with.lines().last().is_some_and(|l| l.contains("Draw")), "{with}");
}

#[test]
fn a_tablebase_folder_that_cannot_be_read_is_refused() {
    let dir = TempDir::new("selfplay-no-tb");
    let missing = dir.file("no-such-folder");
    assert_eq!(kibitz(&["selfplay", "--games", "1", "--tb", &missing]), ExitCode::from(2));
}
