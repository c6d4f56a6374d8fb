//! What is fuzzed: every parser of text or bytes a user or another program supplies, each as
//! a function that must not panic, with its seed inputs from the repository's test data.

use std::borrow::Cow;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use shakmaty::Chess;

use crate::book::{Book, Journal, LearnedPosition, PositionTable, PostBook};
use crate::fuzz::MAX_INPUT;
use crate::player::{uci_wire, xboard_wire};
use crate::{
    Column, EpdTest, GameIndex, GameRecord, PgnStats, Score, TimeControl, decode_pgn_text, parse_line,
    parse_xboard_line, pgn_stats, read_games, read_pgn, write_pgn,
};

/// One parser under fuzzing.
pub struct Target {
    /// The name `--target` selects.
    pub name: &'static str,
    /// The seed inputs, read from the repository whose root is given.
    pub seeds: fn(&Path) -> Vec<Vec<u8>>,
    /// Feeds one input to the parser; a panic is a bug.
    pub run: fn(&[u8]),
}

/// Every target, in the order a full run takes them.
#[must_use]
pub fn targets() -> Vec<Target> {
    vec![
        Target { name: "pgn", seeds: pgn_seeds, run: pgn },
        Target { name: "pgn-index", seeds: pgn_seeds, run: pgn_index },
        Target { name: "pgn-stats", seeds: pgn_seeds, run: pgn_stats_target },
        Target { name: "fen-epd", seeds: epd_seeds, run: fen_epd },
        Target { name: "kibitz-book", seeds: kibitz_book_seeds, run: kibitz_book },
        Target { name: "book-journal", seeds: journal_seeds, run: book_journal },
        Target { name: "polyglot-book", seeds: polyglot_seeds, run: polyglot_book },
        Target { name: "learned-positions", seeds: positions_seeds, run: learned_positions },
        Target { name: "learned-text", seeds: learned_text_seeds, run: learned_text },
        Target { name: "time-control", seeds: time_control_seeds, run: time_control },
        Target { name: "uci-commands", seeds: |_| lines(UCI_COMMANDS), run: uci_commands },
        Target { name: "xboard-commands", seeds: |_| lines(XBOARD_COMMANDS), run: xboard_commands },
        Target { name: "uci-engine-output", seeds: |_| lines(UCI_OUTPUT), run: uci_engine_output },
        Target { name: "xboard-engine-output", seeds: |_| lines(XBOARD_OUTPUT), run: xboard_engine_output },
    ]
}

/// Every game of the text; a game read whole is written out and must read back as a game
/// that is written the same way.
fn pgn(input: &[u8]) {
    for game in read_games(input) {
        match game {
            Ok(game) => {
                let written = write_pgn(&game);
                match read_pgn(&written) {
                    Ok(again) => assert_eq!(write_pgn(&again), written, "written twice differently"),
                    Err(e) => panic!("a game Kibitz wrote does not read back ({e}):\n{written}"),
                }
            }
            Err(e) => assert!(e.line > 0, "a PGN error without its line: {e}"),
        }
    }
    let _ = read_pgn(&decode_pgn_text(input));
}

thread_local! {
    /// This thread's scratch file for the game index, removed when the thread ends: in
    /// memory when there is `/dev/shm` (rewriting a file on a disk waits for the disk).
    static SCRATCH: Scratch = {
        let shm = Path::new("/dev/shm");
        let dir = if shm.is_dir() { shm.to_path_buf() } else { std::env::temp_dir() };
        let thread = format!("{:?}", std::thread::current().id()).replace(['(', ')'], "");
        Scratch(dir.join(format!("kibitz-fuzz-{}-{thread}.pgn", std::process::id())))
    };
}

struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// The game index over the text as a file: built, then every header and a few games loaded,
/// filtered and sorted.
fn pgn_index(input: &[u8]) {
    SCRATCH.with(|scratch| {
        std::fs::write(&scratch.0, input).expect("the fuzz scratch file can be written");
        let Ok(index) = GameIndex::build(&scratch.0, &mut |_| ControlFlow::Continue(())) else { return };
        for i in 0..index.len() {
            let _ = index.header(i);
        }
        for i in 0..index.len().min(4) {
            let _ = index.load(i);
        }
        let mut rows = index.filter("a");
        index.sort(&mut rows, Column::Date, true);
        index.sort(&mut rows, Column::Plies, false);
    });
}

/// The streaming counter of `kibitz pgn stats`: its counts must be those of [`read_games`],
/// which reads the same games into whole `GameRecord`s where `pgn_stats` replays bare
/// positions.
fn pgn_stats_target(input: &[u8]) {
    let Ok(stats) = pgn_stats(input) else { return };
    let read = PgnStats::of_read_games(input);
    assert_eq!(stats, read, "pgn_stats counts otherwise than read_games reads");
}

/// Every line as a FEN (whole, and its first four fields) and as an EPD test, and the whole
/// text as a suite (EPD or Crafty's format).
fn fen_epd(input: &[u8]) {
    let _ = EpdTest::parse_suite(&text(input));
    for line in text(input).lines() {
        let _ = GameRecord::from_fen(line);
        let fields: Vec<&str> = line.split_whitespace().take(4).collect();
        let _ = GameRecord::from_fen(&fields.join(" "));
        let _ = EpdTest::parse(line);
    }
}

/// A Kibitz book as given, and again with its checksums made right so the records are read;
/// a book read must write the same bytes back. What is salvaged of it is whole exactly when
/// the book reads, strictly sorted, and writes a book that reads.
fn kibitz_book(input: &[u8]) {
    let mut fixed = input.to_vec();
    if fixed.len() >= 32 {
        let records = crc32fast::hash(&fixed[32..]).to_le_bytes();
        fixed[24..28].copy_from_slice(&records);
        let header = crc32fast::hash(&fixed[..28]).to_le_bytes();
        fixed[28..32].copy_from_slice(&header);
    }
    for bytes in [input, &fixed] {
        let read = Book::from_bytes(bytes);
        let salvaged = Book::salvage(bytes);
        assert_eq!(read.is_ok(), salvaged.damage.is_none(), "salvage disagrees with reading: {salvaged}");
        if let Ok(book) = read {
            let _ = book.legal_moves(&Chess::default());
            assert_eq!(book.to_bytes(), bytes, "a Kibitz book read does not write back the same");
            assert_eq!(salvaged.book, book, "a whole book is salvaged whole");
        }
        let entries = salvaged.book.entries();
        assert!(entries.windows(2).all(|w| (w[0].key, w[0].mv) < (w[1].key, w[1].mv)), "salvage unsorted");
        assert!(Book::from_bytes(&salvaged.book.to_bytes()).is_ok(), "a salvaged book does not read back");
        let _ = salvaged.to_string();
    }
}

/// An in-place save's journal as given, and again with its checksum made right; a journal
/// read is tried on a book of its length holding its old header, and written back the same.
fn book_journal(input: &[u8]) {
    let mut fixed = input.to_vec();
    if fixed.len() >= 4 {
        let end = fixed.len() - 4;
        let crc = crc32fast::hash(&fixed[..end]).to_le_bytes();
        fixed[end..].copy_from_slice(&crc);
    }
    for bytes in [input, &fixed] {
        let Some(journal) = Journal::from_bytes(bytes) else { continue };
        assert_eq!(journal.to_bytes(), bytes, "a journal read does not write back the same");
        let Some(len) = usize::try_from(journal.book_len).ok().filter(|&n| n <= MAX_INPUT * 4) else {
            continue;
        };
        let mut book = vec![0; len];
        if len >= 32 {
            book[..32].copy_from_slice(&journal.old_header);
        }
        if journal.fits(&book) {
            journal.apply_in_memory(&mut book);
            let _ = Book::salvage(&book);
        }
    }
}

/// Journals of one to four changed records of the Kibitz book seeds.
fn journal_seeds(root: &Path) -> Vec<Vec<u8>> {
    kibitz_book_seeds(root)
        .into_iter()
        .filter_map(|bytes| {
            let records = (bytes.len().checked_sub(32)? / 56).min(4);
            let patches = (0..records)
                .map(|i| {
                    let mut record = [0; 56];
                    record.copy_from_slice(&bytes[32 + i * 56..32 + (i + 1) * 56]);
                    record[52] = 100;
                    ((32 + i * 56) as u64, record)
                })
                .collect();
            let mut old_header = [0; 32];
            old_header.copy_from_slice(&bytes[..32]);
            let mut new_header = old_header;
            new_header[24] ^= 1;
            Some(Journal { book_len: bytes.len() as u64, old_header, new_header, patches }.to_bytes())
        })
        .collect()
}

/// A Polyglot book; its moves at the start position are decoded.
fn polyglot_book(input: &[u8]) {
    if let Ok(book) = Book::from_polyglot(input) {
        let _ = book.legal_moves(&Chess::default());
        let _ = Book::from_polyglot(&book.to_polyglot());
    }
}

/// The learned-positions table as given and with its checksum made right.
fn learned_positions(input: &[u8]) {
    let mut fixed = input.to_vec();
    if fixed.len() >= 24 {
        let crc = crc32fast::hash(&fixed[24..]).to_le_bytes();
        fixed[20..24].copy_from_slice(&crc);
    }
    for bytes in [input, &fixed] {
        let _ = PositionTable::from_bytes(bytes, 64);
    }
}

/// The learned data's text forms: the PostBook file and exported learned positions. A
/// refused line is named.
fn learned_text(input: &[u8]) {
    let text = text(input);
    if let Err(e) = PostBook::from_text(&text) {
        assert!(e.line.is_some(), "a PostBook error without its line: {e}");
    }
    if let Err(e) = PositionTable::new(16).import(&text, false) {
        assert!(e.line.is_some(), "a learned-positions error without its line: {e}");
    }
}

/// Every line as a time control, in each of the notations.
fn time_control(input: &[u8]) {
    for line in text(input).lines() {
        let _ = TimeControl::parse(line);
        let _ = TimeControl::from_pgn(line);
        let _ = TimeControl::from_crafty(line);
    }
}

/// Every line as a command to Kibitz's UCI front end.
fn uci_commands(input: &[u8]) {
    for line in text(input).lines() {
        let _ = parse_line(line);
    }
}

/// Every line as a command to Kibitz's xboard front end.
fn xboard_commands(input: &[u8]) {
    for line in text(input).lines() {
        let _ = parse_xboard_line(line);
    }
}

/// Every line as a UCI engine's output, its moves checked from the start position.
fn uci_engine_output(input: &[u8]) {
    let start = Chess::default();
    for line in text(input).lines() {
        match uci_wire::parse_uci_line(line) {
            uci_wire::UciLine::Info(info) => {
                if let Some((score, _)) = info.score {
                    use_score(score);
                }
                let _ = uci_wire::legal_prefix(&start, info.pv.iter().map(String::as_str));
                let _ = info.currmove.map(|m| uci_wire::read_move(&start, &m));
            }
            uci_wire::UciLine::BestMove { best, ponder } => {
                let _ = uci_wire::read_move(&start, &best);
                let _ = ponder.map(|m| uci_wire::read_move(&start, &m));
            }
            _ => {}
        }
    }
}

/// Every line as an xboard engine's output: features and their options, thinking lines with
/// their moves checked from the start position, moves.
fn xboard_engine_output(input: &[u8]) {
    let start = Chess::default();
    for line in text(input).lines() {
        match xboard_wire::parse_xboard_line(line) {
            xboard_wire::XboardLine::Feature(features) => {
                for (_, value) in features.iter().filter(|(key, _)| key == "option") {
                    let _ = xboard_wire::parse_feature_option(value);
                }
            }
            xboard_wire::XboardLine::Thinking(thinking) => {
                use_score(thinking.score);
                let _ = uci_wire::legal_prefix(&start, thinking.pv.iter().map(String::as_str));
            }
            xboard_wire::XboardLine::Move(m) => {
                let _ = uci_wire::read_move(&start, &m);
            }
            _ => {}
        }
    }
}

/// What the GUI does with an engine's score: shows it, turns it to White's view, weighs it.
fn use_score(score: Score) {
    let _ = (score.to_string(), score.to_uci(), score.negate(), crate::policy::score_cp(score));
}

/// Bytes as text, as the line readers get them (bytes that are not UTF-8 replaced).
fn text(input: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(input)
}

/// Each line, and the lines all together, as seeds.
fn lines(text: &str) -> Vec<Vec<u8>> {
    let mut seeds: Vec<Vec<u8>> = text.lines().map(|l| l.as_bytes().to_vec()).collect();
    seeds.push(text.as_bytes().to_vec());
    seeds
}

/// Files under `dir` (and its folders), sorted.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else { return found };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(files(&path));
        } else {
            found.push(path);
        }
    }
    found.sort();
    found
}

/// Runs of whole games of at most 2 KiB (a longer game cut there), up to 24 per file.
fn pgn_seeds(root: &Path) -> Vec<Vec<u8>> {
    let mut seeds = Vec::new();
    for path in files(&root.join("data/pgn")) {
        let Ok(bytes) = std::fs::read(&path) else { continue };
        let starts: Vec<usize> = std::iter::once(0)
            .chain(bytes.windows(3).enumerate().filter(|(_, w)| w == b"\n\n[").map(|(i, _)| i + 2))
            .chain(std::iter::once(bytes.len()))
            .collect();
        let mut from = 0;
        let mut taken = 0;
        for pair in starts.windows(2) {
            if pair[1] - from > 2048 || pair[1] == bytes.len() {
                let end = pair[1].min(from + 2048);
                seeds.push(bytes[from..end].to_vec());
                from = pair[1];
                taken += 1;
                if taken == 24 {
                    break;
                }
            }
        }
    }
    seeds
}

/// The lines of the EPD and perft suites.
fn epd_seeds(root: &Path) -> Vec<Vec<u8>> {
    let mut seeds = Vec::new();
    for dir in ["data/epd", "data/perft"] {
        for path in files(&root.join(dir)) {
            let Ok(text) = std::fs::read_to_string(&path) else { continue };
            seeds.extend(text.lines().take(200).map(|l| l.as_bytes().to_vec()));
        }
    }
    seeds
}

/// Slices of 1 to 64 entries of the Polyglot books in the repository.
fn polyglot_seeds(root: &Path) -> Vec<Vec<u8>> {
    let mut seeds = Vec::new();
    let books = files(&root.join("data/books")).into_iter().chain(files(&root.join("books")));
    for path in books.filter(|p| p.extension().is_some_and(|e| e == "bin")) {
        let Ok(bytes) = std::fs::read(&path) else { continue };
        let entries = bytes.len() / 16;
        for (i, take) in [1, 4, 16, 64, 64, 64, 64, 64].into_iter().enumerate() {
            let from = entries * i / 8;
            let to = (from + take).min(entries);
            seeds.push(bytes[from * 16..to * 16].to_vec());
        }
    }
    seeds
}

/// Kibitz books made from the Polyglot seeds, and slices of the shipped Kibitz book.
fn kibitz_book_seeds(root: &Path) -> Vec<Vec<u8>> {
    let mut seeds: Vec<Vec<u8>> = polyglot_seeds(root)
        .iter()
        .filter_map(|bytes| Book::from_polyglot(bytes).ok())
        .map(|book| book.to_bytes())
        .collect();
    if let Ok(book) = Book::load(&root.join("books/kibitz.kbook")) {
        for chunk in book.entries().chunks(64).step_by(16) {
            seeds.push(Book::from_sorted(chunk.to_vec()).to_bytes());
        }
    }
    seeds
}

/// Tables of learned positions made from the Polyglot seeds' keys and moves.
fn positions_seeds(root: &Path) -> Vec<Vec<u8>> {
    polyglot_seeds(root)
        .iter()
        .filter_map(|bytes| Book::from_polyglot(bytes).ok())
        .map(|book| {
            let mut table = PositionTable::new(64);
            table.extend(book.entries().iter().enumerate().map(|(i, e)| LearnedPosition {
                key: e.key,
                score: i32::from(e.weight) - 100,
                depth: u8::try_from(i % 40).unwrap_or(0),
                mv: e.mv,
            }));
            table.to_bytes()
        })
        .collect()
}

/// Learned data as text: the exported positions of the table seeds, and a PostBook.
fn learned_text_seeds(root: &Path) -> Vec<Vec<u8>> {
    let mut seeds: Vec<Vec<u8>> = positions_seeds(root)
        .iter()
        .filter_map(|bytes| PositionTable::from_bytes(bytes, 64).ok())
        .map(|table| table.export().into_bytes())
        .collect();
    seeds.extend(lines(POSTBOOK));
    seeds
}

/// The time controls of the PGN seeds' `TimeControl` tags, and Crafty's commands.
fn time_control_seeds(root: &Path) -> Vec<Vec<u8>> {
    let mut seeds = lines(TIME_CONTROLS);
    for seed in pgn_seeds(root) {
        let text = String::from_utf8_lossy(&seed).into_owned();
        for line in text.lines().filter_map(|l| l.strip_prefix("[TimeControl \"")) {
            seeds.push(line.trim_end_matches("\"]").as_bytes().to_vec());
        }
    }
    seeds.sort();
    seeds.dedup();
    seeds
}

const POSTBOOK: &str = "# Kibitz PostBook, version 1
463b96181691fc9c 796 3 1 1 1 40
823c9b50fd114196 3485 12 5 4 3 -250
";

const TIME_CONTROLS: &str = "40/5400+30:1800+30
300+2
40/7200:3600
*60
-
?
level 40 5 0
level 0 2:30 12
time 40/90/sd/30
st 10
sd 8
sn 100000
infinite
";

const UCI_COMMANDS: &str = "uci
isready
debug on
setoption name Hash value 64
setoption name Clear Hash
setoption name UCI_LimitStrength value true
register later
ucinewgame
position startpos
position startpos moves e2e4 e7e5 g1f3
position fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1 moves c7c5
go wtime 300000 btime 300000 winc 2000 binc 2000 movestogo 40
go depth 5
go nodes 10000 movetime 100
go mate 3
go infinite searchmoves e2e4 d2d4
go ponder
ponderhit
stop
quit
";

const XBOARD_COMMANDS: &str = "xboard
protover 2
accepted san
rejected usermove
new
variant normal
force
go
playother
level 40 5 0
level 0 2:30 12
st 10
sd 8
nps 10000
time 30000
otim 29000
usermove e2e4
e7e5
?
ping 7
draw
result 1-0 {White mates}
setboard rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1
hint
bk
undo
remove
hard
easy
post
nopost
analyze
exit
.
name Opponent
rating 2400 2300
computer
option Hash=64
memory 64
cores 2
quit
";

const UCI_OUTPUT: &str = "id name Stockfish 17
id author the Stockfish developers
uciok
readyok
option name Hash type spin default 16 min 1 max 33554432
option name Ponder type check default false
option name Style type combo default Normal var Solid var Normal var Risky
option name Clear Hash type button
option name SyzygyPath type string default <empty>
info depth 20 seldepth 30 multipv 1 score cp 35 lowerbound nodes 123456 nps 1000000 hashfull 500 time 1234 pv e2e4 e7e5 g1f3
info depth 3 score mate -3 upperbound pv e2e4 string the rest
info currmove e2e4 currmovenumber 1
info string NNUE evaluation using nn.nnue
bestmove e2e4 ponder e7e5
bestmove (none)
bestmove 0000
";

const XBOARD_OUTPUT: &str = "feature ping=1 setboard=1 san=0 usermove=1 myname=\"Crafty 25.2\" done=1
feature option=\"Hash -spin 64 1 4096\" option=\"Style -combo Solid /// *Normal /// Risky\"
feature option=\"Ponder -check 1\" option=\"Book -file book.bin\" option=\"Clear -button\"
9 156 1084 48000 Nf3 Nc6 Nc3 Nf6
10\t-32765\t200\t100000\t1. e4 e5 2. Nf3
5 100003 12 3000 e2e4
12. 35 100 9999 e4 e5
move e2e4
My move is: e7e5
offer draw
resign
1-0 {White mates}
1/2-1/2 {Draw by repetition}
telluser hello
tellusererror bad
Error (unknown command): foo
Illegal move (not legal): e2e5
pong 3
# comment
";
