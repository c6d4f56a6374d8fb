//! Every PGN file of the test data (`data/pgn`): each game reads, writes and reads back to the
//! same game; the edge cases load or fail with a located message; `pgn_stats` counts what
//! python-chess counted (data/PROVENANCE.json).

use std::fs;
use std::path::{Path, PathBuf};

use kibitz_engine::{GameRecord, read_games, write_pgn};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/pgn");

fn pgn_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in ["games", "annotated", "edge"] {
        let Ok(entries) = fs::read_dir(Path::new(DATA).join(dir)) else { continue };
        for entry in entries.flatten() {
            if entry.path().extension().is_some_and(|e| e == "pgn") {
                files.push(entry.path());
            }
        }
    }
    files.sort();
    files
}

/// Whether a game's failure is a variant Kibitz does not play (skipped, with the reason).
fn is_variant(message: &str) -> bool {
    message.contains("variant") || message.contains("FEN tag")
}

/// A structural summary of a game: every node's move, glyphs and comments, in tree order.
fn summary(game: &GameRecord) -> String {
    write_pgn(game)
}

#[test]
fn every_shared_game_round_trips() {
    let files = pgn_files();
    assert!(files.len() >= 40, "data/pgn is missing files: {} found", files.len());
    let (mut games, mut skipped) = (0, 0);
    for file in &files {
        let bytes = fs::read(file).unwrap();
        for (i, result) in read_games(&bytes).enumerate() {
            let game = match result {
                Ok(game) => game,
                Err(e) if is_variant(&e.message) => {
                    skipped += 1;
                    continue;
                }
                Err(e) => match e.partial {
                    Some(partial) => *partial,
                    None => continue,
                },
            };
            let text = write_pgn(&game);
            let again = kibitz_engine::read_pgn(&text).unwrap_or_else(|e| {
                panic!("{} game {}: written game does not read: {e}\n{text}", file.display(), i + 1)
            });
            assert_eq!(summary(&again), text, "{} game {}", file.display(), i + 1);
            assert_eq!(again.san_moves(), game.san_moves());
            assert_eq!(again.tags(), game.tags(), "{} game {}", file.display(), i + 1);
            let movetext = text.lines().filter(|l| !l.starts_with('['));
            assert!(movetext.into_iter().all(|l| l.chars().count() <= 80 || !l.contains(' ')), "{text}");
            games += 1;
        }
    }
    eprintln!("{games} games round-tripped, {skipped} variant games skipped");
    assert!(games > 4_500);
}

#[test]
fn edge_cases_load_or_fail_with_a_location() {
    for file in pgn_files().iter().filter(|f| f.to_string_lossy().contains("/edge/")) {
        let bytes = fs::read(file).unwrap();
        for result in read_games(&bytes) {
            if let Err(e) = result {
                assert!(e.line > 0 && e.column > 0, "{}: unlocated error {e}", file.display());
            }
        }
    }
}

#[test]
fn broken_games_say_where_and_keep_their_moves() {
    let bytes = fs::read(Path::new(DATA).join("edge/fastchess-test_invalid.pgn")).unwrap();
    let games: Vec<_> = read_games(&bytes).collect();
    assert_eq!(games.len(), 2);
    let err = games[0].as_ref().unwrap_err();
    assert_eq!((err.line, err.column), (3, 33), "{err}");
    assert!(err.message.contains("Ka1"), "{err}");
    assert_eq!(err.partial.as_ref().unwrap().len(), 6);
    assert_eq!(games[1].as_ref().unwrap().len(), 16);

    let bytes = fs::read(Path::new(DATA).join("edge/sampleGameThrow.pgn")).unwrap();
    let err = read_games(&bytes).next().unwrap().unwrap_err();
    assert_eq!((err.line, err.column), (2, 13), "{err}");

    let bytes = fs::read(Path::new(DATA).join("games/dortmund.pgn")).unwrap();
    assert!(std::str::from_utf8(&bytes).is_err(), "dortmund.pgn is Latin-1");
    let games: Vec<_> = read_games(&bytes).collect::<Result<_, _>>().unwrap();
    assert_eq!(games.len(), 347);
}

/// (file, games, moves) as counted by python-chess in data/PROVENANCE.json.
const COUNTS: &[(&str, u64, u64)] = &[
    ("games/Carlsen.pgn", 1_782, 159_922),
    ("games/twic1599_1000k.pgn", 1_110, 101_487),
    ("games/twic-01-232games.pgn", 232, 19_777),
    ("games/dortmund.pgn", 347, 33_273),
    ("annotated/world_matches.pgn", 580, 69_714),
    ("annotated/lichess_db_1000k.pgn", 438, 28_538),
    ("annotated/TCEC_Season_27_-_4k_Iv_Minifinal.pgn", 50, 6_881),
    ("edge/32games.pgn", 32, 2_069),
];

#[test]
fn stats_match_python_chess() {
    for &(file, games, moves) in COUNTS {
        let bytes = fs::read(Path::new(DATA).join(file)).unwrap();
        let stats = kibitz_engine::pgn_stats(&bytes[..]).unwrap();
        assert_eq!((stats.games, stats.moves, stats.errors), (games, moves, 0), "{file}");
    }
}

#[test]
fn uci_movetext_reads() {
    let bytes = fs::read(Path::new(DATA).join("edge/uci-moves.pgn")).unwrap();
    let game = read_games(&bytes).next().unwrap().unwrap();
    assert_eq!(game.len(), 113, "python-chess reads 113 moves");
    assert_eq!(&game.san_moves()[..3], ["Nf3", "c5", "e4"]);
}
