//! What the book editor costs on a book of a million positions:
//! `cargo run --release -p kibitz-engine --example book_edit_bench [FOLDER]`.
//!
//! The book is synthetic: random legal walks from the initial position (10 to 60 plies each,
//! every move chosen uniformly among the legal ones) until a million distinct positions are
//! in the book; each move played is entered with random statistics (added up when a walk
//! plays it again, so the first positions have all their moves), and a position new to the
//! book gets up to two other legal moves. Then: loading it (`Book::load`, `BookFile::open`), a full save, saving one
//! edited position in place (`BookFile::save` after `BookDocument::apply`), `Book::explain` of
//! one position, applying a user value through `BookDocument` and undoing it; and the games
//! learned from: indexing a thousand random games and asking which of them played a move.
//! The file is written in FOLDER (default: the temporary folder) and removed at the end.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use kibitz_engine::{
    Book, BookDocument, BookEdit, BookEntry, BookFile, BookSettings, GameRecord, SaveMethod, Stats,
    TaughtGames, book_key, encode_move,
};
use shakmaty::{Chess, Color, Position};

/// A small xorshift generator, seeded so that every run builds the same book.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const POSITIONS: usize = 1_000_000;

/// The synthetic book, and some positions in it (to edit and explain).
fn synthetic_book(rng: &mut Rng) -> (Book, Vec<Chess>) {
    let mut entries = Vec::with_capacity(POSITIONS * 2);
    let mut seen = std::collections::HashSet::with_capacity(POSITIONS);
    let mut samples = Vec::new();
    while seen.len() < POSITIONS {
        let mut pos = Chess::default();
        let plies = 10 + rng.below(51);
        for _ in 0..plies {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let key = book_key(&pos);
            let played = legal[rng.below(legal.len())];
            // The move played is always entered (a move played again adds its statistics);
            // a new position gets up to two other moves.
            let mut moves = vec![played];
            if seen.insert(key) {
                for _ in 0..rng.below(3) {
                    moves.push(legal[rng.below(legal.len())]);
                }
                if rng.below(20_000) == 0 {
                    samples.push(pos.clone());
                }
            }
            for m in moves {
                let mut e = BookEntry::new(key, encode_move(m));
                let (w, d, l) = (rng.below(100) as u32, rng.below(100) as u32, rng.below(100) as u32);
                e.fixed = Stats { games: w + d + l, wins: w, draws: d, losses: l };
                e.weight = e.fixed.polyglot_weight();
                entries.push(e);
            }
            pos.play_unchecked(played);
        }
    }
    (Book::from_entries(entries), samples)
}

/// The median of some durations.
fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn main() {
    let folder = std::env::args().nth(1).map_or_else(std::env::temp_dir, PathBuf::from);
    let path = folder.join(format!("kibitz-edit-bench-{}.kbook", std::process::id()));
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let started = Instant::now();
    let (book, samples) = synthetic_book(&mut rng);
    println!(
        "synthetic book: {} positions, {} moves, built in {:.1} s; {} sample positions",
        book.positions(),
        book.len(),
        started.elapsed().as_secs_f64(),
        samples.len()
    );

    let started = Instant::now();
    let (mut file, _) = BookFile::create(&path, &book).expect("the bench file can be written");
    let create = started.elapsed();
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    println!("full save (BookFile::create, write_atomic): {:.0} ms, {} bytes", ms(create), size);

    let loads: Vec<Duration> = (0..3)
        .map(|_| {
            let started = Instant::now();
            let loaded = Book::load(&path).expect("loads");
            let t = started.elapsed();
            assert_eq!(loaded.len(), book.len());
            t
        })
        .collect();
    println!("Book::load: median {:.0} ms of 3 ({:?})", ms(median(loads.clone())), loads);
    let started = Instant::now();
    let (opened, reread) = BookFile::open(&path).expect("opens");
    println!("BookFile::open (load and layout fingerprint): {:.0} ms", ms(started.elapsed()));
    drop((opened, reread));

    let settings = BookSettings::default();
    let start = Chess::default();
    for (name, pos) in [("the initial position", &start), ("a sample position", &samples[0])] {
        let rounds = 1000;
        let started = Instant::now();
        let mut n = 0;
        for _ in 0..rounds {
            n += book.explain(pos, &settings).len();
        }
        let each = started.elapsed() / rounds;
        println!("explain of {name} ({} moves): {:.1} µs", n / rounds as usize, each.as_secs_f64() * 1e6);
    }

    let mut doc = BookDocument::new(book);
    let (mut applies, mut undos, mut patches, mut bytes) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (i, pos) in samples.iter().enumerate() {
        let Some(&(mv, _)) = doc.book().legal_moves(pos).first() else { continue };
        let value = Some((i % 101) as u8);
        let started = Instant::now();
        doc.apply(BookEdit::set_user(pos, mv, value)).expect("an edit");
        applies.push(started.elapsed());
        let started = Instant::now();
        let report = file.save(doc.book(), &doc.unsaved_moves()).expect("saved");
        patches.push(started.elapsed());
        assert_eq!(report.method, SaveMethod::Patched { records: 1 });
        bytes.push((report.book_bytes, report.journal_bytes));
        doc.mark_saved();
        // Undo and redo the edit (not saved), to time them.
        let started = Instant::now();
        doc.undo();
        undos.push(started.elapsed());
        doc.redo();
    }
    println!(
        "BookDocument::apply(set_user) on an existing move: median {:.1} µs of {}",
        median(applies.clone()).as_secs_f64() * 1e6,
        applies.len()
    );
    println!("BookDocument::undo of it: median {:.1} µs", median(undos).as_secs_f64() * 1e6);
    println!(
        "save one edited position in place (BookFile::save, journal + patch, 3 fsyncs): median {:.1} ms of {}, slowest {:.1} ms; {} bytes to the book, {} to the journal",
        ms(median(patches.clone())),
        patches.len(),
        ms(patches.iter().copied().max().unwrap_or_default()),
        bytes[0].0,
        bytes[0].1
    );
    assert_eq!(
        std::fs::read(&path).expect("readable"),
        doc.book().to_bytes(),
        "the patched file is the whole save"
    );

    // An added move: the whole file again.
    let missing = samples.iter().find_map(|pos| {
        let mv = pos
            .legal_moves()
            .into_iter()
            .find(|m| doc.book().get(book_key(pos), encode_move(*m)).is_none())?;
        Some((pos, mv))
    });
    if let Some((pos, mv)) = missing {
        let started = Instant::now();
        doc.apply(BookEdit::set_user(pos, mv, Some(5))).expect("an edit");
        let add = started.elapsed();
        let started = Instant::now();
        let report = file.save(doc.book(), &doc.unsaved_moves()).expect("saved");
        println!(
            "adding a move: apply {:.1} ms; save {:?} in {:.0} ms, {} bytes",
            ms(add),
            report.method,
            ms(started.elapsed()),
            report.book_bytes
        );
    }
    let _ = std::fs::remove_file(&path);

    taught_games(&mut rng);
}

/// A thousand random games of 40 to 120 plies learned from: the file's size, reading it,
/// indexing it, and a query.
fn taught_games(rng: &mut Rng) {
    let mut taught = TaughtGames::new();
    let mut first = None;
    for i in 0..1000 {
        let mut game = GameRecord::new();
        game.set_tag("White", if i % 2 == 0 { "Kibitz" } else { "Opponent" });
        game.set_tag("Black", if i % 2 == 0 { "Opponent" } else { "Kibitz" });
        for _ in 0..40 + rng.below(81) {
            let legal = game.position().legal_moves();
            if legal.is_empty() {
                break;
            }
            game.play(legal[rng.below(legal.len())]).expect("legal");
        }
        first.get_or_insert_with(|| (book_key(game.position_at(0)), encode_move(game.moves()[0])));
        taught.add(&game, if i % 2 == 0 { Color::White } else { Color::Black });
    }
    let text = taught.to_pgn();
    let started = Instant::now();
    let read = TaughtGames::from_pgn(text.as_bytes());
    let split = started.elapsed();
    let started = Instant::now();
    let index = read.index();
    let indexed = started.elapsed();
    let (key, mv) = first.expect("a game");
    let started = Instant::now();
    let found = index.taught_by(key, mv);
    let query = started.elapsed();
    println!(
        "games learned from: 1000 games, {:.2} MB of PGN; read {:.0} ms, index {:.0} ms, taught_by {:.1} µs ({} games)",
        text.len() as f64 / 1e6,
        ms(split),
        ms(indexed),
        query.as_secs_f64() * 1e6,
        found.len()
    );
}
