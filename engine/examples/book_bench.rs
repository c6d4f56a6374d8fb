//! Book probe speed and load time for a book of a million positions:
//! `cargo run --release -p kibitz-engine --example book_bench [FILE]`.

use std::time::Instant;

use kibitz_engine::{Book, BookEntry, Stats};

fn main() {
    let path =
        std::env::args().nth(1).map_or_else(|| std::env::temp_dir().join("kibitz-bench.kbook"), Into::into);
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let positions = 1_000_000;
    let mut entries = Vec::with_capacity(positions * 2);
    let mut keys = Vec::with_capacity(positions);
    for _ in 0..positions {
        let key = next();
        keys.push(key);
        for m in 0..(1 + key % 3) {
            let mut e = BookEntry::new(key, (m as u16 + 1) * 97);
            e.fixed = Stats { games: (key % 1000) as u32, wins: 1, draws: 1, losses: 1 };
            entries.push(e);
        }
    }
    let book = Book::from_entries(entries);
    book.save(&path).expect("save");
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    let started = Instant::now();
    let loaded = Book::load(&path).expect("load");
    let load = started.elapsed();
    assert_eq!(loaded.positions(), positions);
    let lookups = 5_000_000;
    let started = Instant::now();
    let mut found = 0usize;
    for i in 0..lookups {
        let key = if i % 2 == 0 { keys[(next() % positions as u64) as usize] } else { next() };
        found += loaded.moves(key).len();
    }
    let probe = started.elapsed();
    println!(
        "book: {} positions, {} entries, {:.1} MB; load {:.0} ms; {:.1} M lookups/s (half hits, {found} moves found)",
        loaded.positions(),
        loaded.len(),
        size as f64 / 1e6,
        load.as_secs_f64() * 1000.0,
        lookups as f64 / probe.as_secs_f64() / 1e6
    );
    let _ = std::fs::remove_file(&path);
}
