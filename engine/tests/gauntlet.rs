//! The gauntlet of docs/STRENGTH.md in CI's size: `kibitz match --format gauntlet` with the
//! built-in engine against each of Debian's engines (Fairy-Max and Phalanx over xboard;
//! Glaurung, Toga II, Ethereal and Stockfish at 1500 Elo over UCI), one game pair each at a
//! fast control. Every game must end with a legal result, none by a failure of the Debian
//! engine (a crash, a stall, an illegal move, a lost clock), and the Debian engine must have
//! searched its moves (its thinking output read). CI installs the engines (`.ci/run`); a missing
//! one fails the test with the package to install.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use kibitz_engine::matches::MoveComment;
use kibitz_engine::{GameRecord, read_games};
use shakmaty::{Color, Position};

/// Each opponent: its name in the match, its Debian package (the binary in /usr/games has the
/// package's name) and its engine words.
const OPPONENTS: [(&str, &str, &str); 6] = [
    ("Fairy-Max", "fairymax", "proto=xboard"),
    ("Phalanx", "phalanx", "proto=xboard arg=-l- arg=-b-"),
    ("Glaurung", "glaurung", "proto=uci option.Threads=1 option.Hash=16 option.OwnBook=false"),
    ("Toga2", "toga2", "proto=uci option.Hash=16 option.OwnBook=false"),
    ("Ethereal", "ethereal-chess", "proto=uci option.Threads=1 option.Hash=16"),
    (
        "SF1500",
        "stockfish",
        "proto=uci option.Threads=1 option.Hash=16 option.UCI_LimitStrength=true option.UCI_Elo=1500",
    ),
];

fn binary(package: &str) -> PathBuf {
    Path::new("/usr/games").join(package)
}

#[test]
fn the_builtin_engine_plays_a_game_pair_against_each_debian_engine() {
    let missing: Vec<&str> =
        OPPONENTS.iter().map(|o| o.1).filter(|package| !binary(package).exists()).collect();
    assert!(
        missing.is_empty(),
        "the gauntlet needs Debian's engines: apt-get install {} (.ci/run installs them)",
        missing.join(" ")
    );
    let dir = std::env::temp_dir().join(format!("kibitz-gauntlet-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let pgn = dir.join("gauntlet.pgn");
    let _ = std::fs::remove_file(&pgn);
    let openings = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data/openings/2moves_v2.pgn");
    let tables = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data/syzygy");

    let mut args: Vec<String> = [
        "match",
        "--format",
        "gauntlet",
        "--tc",
        "2+0.05",
        "--concurrency",
        "2",
        "--order",
        "random",
        "--seed",
        "7",
        "--adjudication",
        "tcec",
        "--max-plies",
        "200",
        // Two games share two cores: a late answer by a few scheduler ticks is not a lost clock.
        "--timemargin",
        "300",
        "--engine",
        "name=Kibitz cmd=builtin",
    ]
    .map(String::from)
    .to_vec();
    for (name, package, words) in OPPONENTS {
        args.push("--engine".into());
        args.push(format!("name={name} cmd={} {words}", binary(package).display()));
    }
    for (flag, path) in [("--openings", &openings), ("--tb", &tables), ("--pgnout", &pgn)] {
        args.push(flag.into());
        args.push(path.display().to_string());
    }
    // `kibitz match` prints every game and then the tables (shown with --nocapture or on failure).
    assert_eq!(kibitz_engine::cli::run(&args), ExitCode::SUCCESS, "kibitz match {}", args.join(" "));

    let bytes = std::fs::read(&pgn).expect("the games were written");
    let games: Vec<GameRecord> = read_games(&bytes).map(|g| g.expect("every move is legal")).collect();
    assert_eq!(games.len(), 2 * OPPONENTS.len(), "one game pair against each engine");
    for (name, _, _) in OPPONENTS {
        let theirs: Vec<&GameRecord> =
            games.iter().filter(|g| g.tag("White") == Some(name) || g.tag("Black") == Some(name)).collect();
        assert_eq!(theirs.len(), 2, "{name}: a game with each colour");
        for game in theirs {
            check_game(name, game);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// One game against `opponent`: a result the final position allows, ended by the rules or the
/// arbiter, and the opponent searched its moves.
fn check_game(opponent: &str, game: &GameRecord) {
    let round = game.tag("Round").unwrap_or("?");
    let what = format!("{opponent}, game {round}");
    let termination = game.tag("Termination").unwrap_or("?");
    let last = game.node(game.main_end()).map(|n| n.comment().to_owned()).unwrap_or_default();
    assert!(matches!(termination, "normal" | "adjudication"), "{what} ended by {termination}: {last}");
    let end = game.position();
    match game.result() {
        "1-0" | "0-1" | "1/2-1/2" => {}
        other => panic!("{what}: no result ({other})"),
    }
    if last.ends_with("mates") {
        let loser = end.turn();
        let expected = if loser == Color::White { "0-1" } else { "1-0" };
        assert!(end.is_checkmate() && game.result() == expected, "{what}: {last} but {}", game.result());
    }
    if last.contains("stalemate") {
        assert!(end.is_stalemate() && game.result() == "1/2-1/2", "{what}: {last}");
    }
    assert_eq!(end.is_checkmate(), last.ends_with("mates"), "{what}: {last}");

    let side = if game.tag("White") == Some(opponent) { Color::White } else { Color::Black };
    // Its thinking output was read: a score and a depth for its searched moves (a forced
    // move may come without them).
    let mut searched = 0;
    for (ply, &id) in game.main_line().iter().skip(1).enumerate() {
        let white_moves = (ply % 2 == 0) == (game.start().turn() == Color::White);
        let mover = if white_moves { Color::White } else { Color::Black };
        let comment = game.node(id).map(|n| n.comment().to_owned()).unwrap_or_default();
        match MoveComment::parse(&comment) {
            Some(MoveComment::Searched { score: Some(_), depth: Some(depth), .. })
                if mover == side && depth > 0 =>
            {
                searched += 1;
            }
            Some(_) => {}
            None => panic!("{what}, ply {ply}: '{comment}' does not read back"),
        }
    }
    assert!(searched >= 5, "{what}: {opponent} reported a search for only {searched} moves");
}
