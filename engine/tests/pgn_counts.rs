//! Every PGN file of the test data (`data/pgn`), counted three ways that must agree: the
//! game count of `pgn_stats`, of the game index and of `read_games` (one way of cutting a file
//! into games), and the moves and broken games of `pgn_stats` and `read_games` (one reader). The games, moves and broken games `pgn_stats` counts are python-chess's
//! (data/PROVENANCE.json), but for the differences listed in `KNOWN_DIFFERENCES`.

use std::fs;
use std::ops::ControlFlow;
use std::path::Path;

use kibitz_engine::{GameIndex, PgnStats, pgn_stats_with};
use serde_json::Value;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../data");

/// Files where Kibitz counts otherwise than python-chess, with the reason. Their counts are
/// checked against the reason rather than against python-chess.
const KNOWN_DIFFERENCES: &[(&str, &str)] = &[
    ("pgn/annotated/knightvuillaume-jannlee-zh-lichess.pgn", "variant"),
    ("pgn/edge/antichess-programfox.pgn", "variant"),
    ("pgn/edge/anastasian-lewis.pgn", "null move"),
    ("pgn/edge/sampleGameThrow.pgn", "Sf3"),
];

#[test]
fn every_file_counts_as_python_chess_counts() {
    let provenance: Value =
        serde_json::from_slice(&fs::read(Path::new(DATA).join("PROVENANCE.json")).expect("provenance"))
            .expect("provenance is JSON");
    let files = provenance["files"].as_array().expect("a list of files");
    let mut checked = 0;
    for file in files {
        let Some(dest) = file["dest"].as_str().filter(|d| d.starts_with("pgn/")) else { continue };
        let py = &file["python_chess_stats"];
        let count = |key: &str| py[key].as_u64().unwrap_or_else(|| panic!("{dest}: no {key} count"));
        let expected =
            PgnStats { games: count("games"), moves: count("moves"), errors: count("games_with_errors") };

        let path = Path::new(DATA).join(dest);
        let mut errors = Vec::new();
        let file = fs::File::open(&path).expect("a data file");
        let stats = pgn_stats_with(file, &mut |e| errors.push(e.clone())).expect("readable");
        let index = GameIndex::build(&path, &mut |_| ControlFlow::Continue(())).expect("indexable");
        let read = PgnStats::of_read_games(&fs::read(&path).expect("a data file"));
        assert_eq!((index.len() as u64, read), (stats.games, stats), "{dest}: index, reader and stats");
        assert_eq!(stats.games, expected.games, "{dest}");
        assert!(errors.iter().all(|e| e.line > 0 && e.column > 0), "{dest}: unlocated errors {errors:?}");

        match KNOWN_DIFFERENCES.iter().find(|(name, _)| *name == dest).map(|(_, why)| *why) {
            None => assert_eq!(stats, expected, "{dest}: {errors:?}"),
            Some("variant") => {
                assert_eq!((stats.moves, stats.errors), (0, stats.games), "{dest}");
                assert!(
                    errors.iter().all(|e| e.message.contains("which Kibitz does not play")),
                    "{errors:?}"
                );
            }
            // python-chess plays null moves (`--`); Kibitz stops the game there.
            Some("null move") => {
                assert_eq!(stats.errors, 1, "{dest}");
                assert!(errors[0].message.contains("--"), "{errors:?}");
            }
            // python-chess reads the German `Sf3` as `f3`; Kibitz says it is not a move.
            Some(word) => {
                assert_eq!(stats.errors, 1, "{dest}");
                assert!(errors[0].message.contains(word), "{errors:?}");
            }
        }
        checked += 1;
    }
    assert!(checked >= 40, "only {checked} PGN files in data/PROVENANCE.json");
}
