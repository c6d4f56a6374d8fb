//! Every PGN file of the test data (`data/pgn`): each game reads, writes and reads back to the
//! same game; the edge cases load or fail with a located message; Chess960 games keep their
//! castling rules and other variants are refused with the reason (the counts are checked
//! against python-chess's in `pgn_counts.rs`).

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

#[test]
fn uci_movetext_reads() {
    let bytes = fs::read(Path::new(DATA).join("edge/uci-moves.pgn")).unwrap();
    let game = read_games(&bytes).next().unwrap().unwrap();
    assert_eq!(game.len(), 113, "python-chess reads 113 moves");
    assert_eq!(&game.san_moves()[..3], ["Nf3", "c5", "e4"]);
}

#[test]
fn chess960_games_keep_their_castling_rules() {
    use shakmaty::{CastlingMode, Move, Position, Role, Square};

    let bytes = fs::read(Path::new(DATA).join("annotated/cutechess-fischerrandom.pgn")).unwrap();
    let games: Vec<GameRecord> = read_games(&bytes).collect::<Result<_, _>>().expect("Chess960 games read");
    assert_eq!(games.len(), 4);
    let game = &games[0];
    assert_eq!(game.castling_mode(), CastlingMode::Chess960);
    // 9... O-O: the king goes from e8 to g8 and the rook from g8 to f8.
    let ply = game.san_moves().iter().position(|m| m == "O-O").expect("a castling move");
    assert_eq!(game.moves()[ply], Move::Castle { king: Square::E8, rook: Square::G8 });
    let after = game.position_at(ply + 1).board();
    assert_eq!(after.role_at(Square::G8), Some(Role::King));
    assert_eq!(after.role_at(Square::F8), Some(Role::Rook));

    let text = write_pgn(game);
    assert!(
        text.contains("[SetUp \"1\"]\n[FEN \"nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w KQkq - 0 1\"]\n")
    );
    assert!(text.contains("[Variant \"Chess960\"]\n"), "{text}");
    let again = kibitz_engine::read_pgn(&text).unwrap();
    assert_eq!((again.castling_mode(), again.moves()), (CastlingMode::Chess960, game.moves()));

    // Shredder-FEN castling rights (`FCfc`) under the spelling "chess 960".
    let bytes = fs::read(Path::new(DATA).join("edge/pychess-chess960rwch.pgn")).unwrap();
    let game = read_games(&bytes).next().unwrap().unwrap();
    assert_eq!(game.castling_mode(), CastlingMode::Chess960);
    let fen = game.start_fen().unwrap();
    assert_eq!(fen, "nnrbkrbq/pppppppp/8/8/8/8/PPPPPPPP/NNRBKRBQ w KQkq - 0 1", "X-FEN: the outer rooks");
    let written = GameRecord::from_fen_in(&fen, CastlingMode::Chess960).unwrap();
    assert_eq!(written.start().castles().castling_rights(), game.start().castles().castling_rights());
}

#[test]
fn variants_kibitz_does_not_play_are_listed_with_the_reason() {
    let crazyhouse = Path::new(DATA).join("annotated/knightvuillaume-jannlee-zh-lichess.pgn");
    let index =
        kibitz_engine::GameIndex::build(&crazyhouse, &mut |_| std::ops::ControlFlow::Continue(())).unwrap();
    assert_eq!(index.len(), 1, "the game is listed");
    assert!(!index.header(0).unwrap().white.is_empty());
    let err = index.load(0).unwrap_err();
    assert_eq!(err.message, "This game is of the variant \"Crazyhouse\", which Kibitz does not play.");
    assert!(err.line > 0);

    // In a file of several games, the others still open.
    let mut bytes = fs::read(&crazyhouse).unwrap();
    bytes.extend_from_slice(b"\n\n");
    bytes.extend(fs::read(Path::new(DATA).join("edge/pychess-promotion.pgn")).unwrap());
    let games: Vec<_> = read_games(&bytes).collect();
    assert_eq!(games.len(), 2);
    assert!(games[0].as_ref().unwrap_err().message.contains("Crazyhouse"));
    assert_eq!(games[1].as_ref().unwrap().len(), 22);
}
