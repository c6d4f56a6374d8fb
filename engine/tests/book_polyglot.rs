//! Polyglot `.bin` import and export against the books in `data/books`, cross-checked with
//! python-chess when it is installed.

use std::path::{Path, PathBuf};
use std::process::Command;

use kibitz_engine::{Book, BookBuilder, BuildOptions, GameRecord, move_code_text};

const BOOKS: &str = "../data/books";
const GAMES: &str = "../data/pgn/games";
const OPENINGS: &str = "../data/openings";

/// A file of the repository's test data (`data/`), which every checkout has.
fn data(dir: &str, name: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir).join(name);
    assert!(path.exists(), "{} is missing from the repository's data/", path.display());
    path
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kibitz-book-polyglot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn shared_books_read_and_round_trip_byte_for_byte() {
    // (file, entries, distinct keys) as python-chess counted them (data/PROVENANCE.json).
    for (name, entries, keys) in
        [("gm2600.bin", 21_671, 16_320), ("performance.bin", 92_954, 77_872), ("lasker-trap.bin", 7, 7)]
    {
        let path = data(BOOKS, name);
        let bytes = std::fs::read(&path).unwrap();
        let book = Book::open(&path).unwrap();
        assert_eq!(book.len(), entries, "{name}");
        assert_eq!(book.positions(), keys, "{name}");
        assert_eq!(book.to_polyglot(), bytes, "{name} must export unchanged");
        // Through Kibitz's own format and back.
        let native = Book::from_bytes(&book.to_bytes()).unwrap();
        assert_eq!(native.to_polyglot(), bytes, "{name} via the Kibitz format");
    }
}

#[test]
fn gm2600_start_position() {
    let path = data(BOOKS, "gm2600.bin");
    let book = Book::open(&path).unwrap();
    let start = GameRecord::new();
    let mut moves: Vec<(String, u16)> =
        book.legal_moves(start.position()).iter().map(|(_, e)| (move_code_text(e.mv), e.weight)).collect();
    moves.sort_by_key(|m| std::cmp::Reverse(m.1));
    let expected = [("d2d4", 12936), ("e2e4", 10305), ("g1f3", 3546), ("c2c4", 3222)];
    for (i, (mv, w)) in expected.iter().enumerate() {
        assert_eq!((moves[i].0.as_str(), moves[i].1), (*mv, *w));
    }
}

#[test]
fn corrupt_polyglot_is_refused() {
    let path = data(BOOKS, "gm2600.bin");
    let bytes = std::fs::read(path).unwrap();
    assert!(Book::from_polyglot(&bytes[..bytes.len() - 3]).is_err());
    let mut unsorted = bytes.clone();
    unsorted[..16].copy_from_slice(&bytes[bytes.len() - 16..]);
    assert!(Book::from_polyglot(&unsorted).is_err());
}

/// A book Kibitz builds and exports reads back with the same moves and weights in
/// python-chess (the reference reader); skipped when python-chess is missing.
#[test]
fn kibitz_book_reads_identically_in_python_chess() {
    let pgn = data(GAMES, "twic-01-232games.pgn");
    let mut builder = BookBuilder::new(BuildOptions { max_plies: 16, min_games: 1, win_pct: None });
    builder.add_pgn_file(&pgn, &mut |_| std::ops::ControlFlow::Continue(())).unwrap();
    let book = builder.finish();
    let out = temp("twic.bin");
    book.save_polyglot(&out).unwrap();
    let script = r#"
import sys, chess, chess.polyglot, chess.pgn
n = 0
with chess.polyglot.open_reader(sys.argv[1]) as reader:
    for e in reader:
        n += 1
    with open(sys.argv[2], encoding="utf-8", errors="replace") as f:
        game = chess.pgn.read_game(f)
    board = game.board()
    for move in list(game.mainline_moves())[:10]:
        for e in reader.find_all(board, minimum_weight=0):
            print(chess.polyglot.zobrist_hash(board), e.raw_move, e.weight)
        board.push(move)
print("entries", n)
"#;
    let Ok(output) = Command::new("python3").arg("-c").arg(script).arg(&out).arg(&pgn).output() else {
        return;
    };
    if !output.status.success() {
        eprintln!("python-chess not available: {}", String::from_utf8_lossy(&output.stderr));
        return;
    }
    let text = String::from_utf8(output.stdout).unwrap();
    let mut checked = 0;
    for line in text.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        if f[0] == "entries" {
            assert_eq!(f[1].parse::<usize>().unwrap(), book.to_polyglot().len() / 16);
            continue;
        }
        let (key, mv, weight): (u64, u16, u16) =
            (f[0].parse().unwrap(), f[1].parse().unwrap(), f[2].parse().unwrap());
        assert_eq!(book.get(key, mv).map(|e| e.weight), Some(weight), "{line}");
        checked += 1;
    }
    assert!(checked >= 10, "python-chess found {checked} entries along the first game");
}

/// The start position of a book built from `data/openings/2moves_v2.pgn` (opening lines, every
/// game ending in `*`) by `polyglot make-book -pgn 2moves_v2.pgn -bin 2moves.bin` (PolyGlot
/// 2.0.4, Debian's `polyglot` package), its entries read from the file: move and weight. Every
/// line counts one point for each of its moves, as a draw does.
const POLYGLOT_START: [(&str, u16); 13] = [
    ("e2e4", 1437),
    ("f2f4", 1333),
    ("e2e3", 1173),
    ("d2d4", 1141),
    ("c2c4", 1138),
    ("g1f3", 996),
    ("b2b4", 973),
    ("b1c3", 938),
    ("g2g3", 773),
    ("d2d3", 762),
    ("h2h3", 676),
    ("c2c3", 438),
    ("b2b3", 314),
];

/// The entries of a Polyglot file as (key, move, weight, learn), sorted.
fn polyglot_entries(path: &Path) -> Vec<(u64, u16, u16, u32)> {
    let bytes = std::fs::read(path).unwrap();
    let mut entries: Vec<_> = bytes
        .chunks_exact(16)
        .map(|r| {
            let key = u64::from_be_bytes(r[..8].try_into().unwrap());
            let mv = u16::from_be_bytes([r[8], r[9]]);
            let weight = u16::from_be_bytes([r[10], r[11]]);
            (key, mv, weight, u32::from_be_bytes(r[12..16].try_into().unwrap()))
        })
        .collect();
    entries.sort_unstable();
    entries
}

#[test]
fn opening_lines_build_like_polyglot_make_book() {
    let pgn = data(OPENINGS, "2moves_v2.pgn");
    let mut builder = BookBuilder::new(BuildOptions::default());
    builder.add_pgn_file(&pgn, &mut |_| std::ops::ControlFlow::Continue(())).unwrap();
    assert_eq!((builder.progress().games, builder.progress().unfinished), (12_092, 12_092));
    let out = temp("2moves.bin");
    builder.finish().save_polyglot(&out).unwrap();
    let book = Book::open(&out).unwrap();
    let mut start: Vec<(String, u16)> = book
        .legal_moves(GameRecord::new().position())
        .iter()
        .map(|(_, e)| (move_code_text(e.mv), e.weight))
        .collect();
    start.sort_by_key(|(mv, w)| (std::cmp::Reverse(*w), mv.clone()));
    let expected: Vec<(String, u16)> = POLYGLOT_START.iter().map(|(m, w)| (m.to_string(), *w)).collect();
    assert_eq!(start, expected);

    // With PolyGlot installed (.ci/run installs it), the whole book, built by both with every
    // move kept (-min-game 1), holds the same entries.
    let theirs = temp("2moves-polyglot.bin");
    let polyglot = ["polyglot", "/usr/games/polyglot"].into_iter().find_map(|program| {
        Command::new(program)
            .args(["make-book", "-min-game", "1", "-pgn"])
            .arg(&pgn)
            .arg("-bin")
            .arg(&theirs)
            .output()
            .ok()
    });
    let Some(output) = polyglot else {
        eprintln!("polyglot is not installed: compared with the recorded start position only");
        return;
    };
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let (ours, theirs) = (polyglot_entries(&out), polyglot_entries(&theirs));
    assert!(theirs.len() > 1000, "polyglot wrote {} entries", theirs.len());
    assert_eq!(ours.len(), theirs.len());
    assert!(ours == theirs, "the books differ");
}
