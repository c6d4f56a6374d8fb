//! Kibitz's own book file: round trip, and damaged files (truncated, random bytes, unsorted,
//! wrong version) refused cleanly with the old file left intact.

use std::path::PathBuf;

use kibitz_engine::{Book, BookEntry, BookError, Stats};

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kibitz-book-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn sample() -> Book {
    let entries = (0..500u64)
        .map(|i| {
            let mut e = BookEntry::new(i.wrapping_mul(0x9e37_79b9_7f4a_7c15), (i % 4000) as u16 + 1);
            e.fixed = Stats { games: i as u32 + 1, wins: 1, draws: 0, losses: 0 };
            e.learned = Stats { games: 2, wins: 1, draws: 1, losses: 0 };
            e.learn_score = -(i as i32);
            e.user = (i % 3 == 0).then_some((i % 101) as u8);
            e.play_pct = (i % 7 == 0).then_some(30);
            e.never_play = i % 11 == 0;
            e.weight = 3;
            e
        })
        .collect();
    Book::from_entries(entries)
}

#[test]
fn round_trip_through_a_file() {
    let book = sample();
    let path = temp("round.kbook");
    book.save(&path).unwrap();
    assert_eq!(Book::load(&path).unwrap(), book);
    assert_eq!(Book::open(&path).unwrap(), book);
}

#[test]
fn damaged_files_are_refused_and_left_alone() {
    let book = sample();
    let good = book.to_bytes();
    let mut cases: Vec<(&str, Vec<u8>)> = Vec::new();
    cases.push(("truncated", good[..good.len() - 20].to_vec()));
    cases.push(("header only", good[..20].to_vec()));
    let mut flipped = good.clone();
    flipped[1000] ^= 0x40;
    cases.push(("flipped bit", flipped));
    let mut seed = 12345u64;
    let random: Vec<u8> = (0..4096)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed as u8
        })
        .collect();
    cases.push(("random bytes", random));
    let mut version = good.clone();
    version[8] = 9;
    cases.push(("wrong version", version));
    for (what, bytes) in cases {
        let path = temp(&format!("{}.kbook", what.replace(' ', "-")));
        std::fs::write(&path, &bytes).unwrap();
        let result = Book::load(&path);
        assert!(result.is_err(), "{what} was accepted");
        assert!(!result.unwrap_err().to_string().is_empty());
        assert_eq!(std::fs::read(&path).unwrap(), bytes, "{what}: the file was touched");
    }
    assert!(matches!(
        Book::from_bytes(&{
            let mut v = good.clone();
            v[8] = 2;
            v
        }),
        Err(BookError::WrongVersion(2))
    ));
}

#[test]
fn unsorted_records_are_refused() {
    let book = sample();
    let mut bytes = book.to_bytes();
    // Swap the first two 56-byte records and fix the checksums so only the order is wrong.
    let (a, b) = (32, 32 + 56);
    let first: Vec<u8> = bytes[a..b].to_vec();
    bytes.copy_within(b..b + 56, a);
    bytes[b..b + 56].copy_from_slice(&first);
    let crc = crc32(&bytes[32..]);
    bytes[24..28].copy_from_slice(&crc.to_le_bytes());
    let head = crc32(&bytes[..28]);
    bytes[28..32].copy_from_slice(&head.to_le_bytes());
    assert!(matches!(Book::from_bytes(&bytes), Err(BookError::Unsorted(1))));
}

/// CRC-32 (IEEE), as the file format documents it.
fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in data {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 { (crc >> 1) ^ 0xedb8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

#[test]
fn a_failed_save_over_keeps_the_old_book_usable() {
    let path = temp("keep.kbook");
    sample().save(&path).unwrap();
    let before = std::fs::read(&path).unwrap();
    // A damaged replacement is refused before anything is written.
    let damaged = &before[..before.len() / 2];
    assert!(Book::from_bytes(damaged).is_err());
    assert_eq!(std::fs::read(&path).unwrap(), before);
    assert_eq!(Book::load(&path).unwrap(), sample());
}
