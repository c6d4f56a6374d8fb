//! Kibitz's own book file: a 32-byte header, fixed-size records sorted by key and move, and
//! CRC-32 checksums, all little-endian. The layout is documented in `docs/BOOK-FORMAT.md`.

use std::path::Path;

use crate::book::journal;
use crate::book::{Book, BookEntry, BookError, Stats};
use crate::write_atomic;

/// The first eight bytes of a Kibitz book.
pub(crate) const MAGIC: &[u8; 8] = b"KIBITZBK";
/// The format version this code writes and reads.
pub(super) const VERSION: u32 = 1;
/// Header size in bytes.
pub(super) const HEADER: usize = 32;
/// Record size in bytes.
pub(super) const RECORD: usize = 56;
/// Stored in the one-byte fields for "no value".
const NONE: u8 = 255;

impl Book {
    /// The book in Kibitz's file format.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER + RECORD * self.len());
        out.extend_from_slice(&[0; HEADER]);
        for e in self.entries() {
            write_record(&mut out, e);
        }
        let records_crc = crc32fast::hash(&out[HEADER..]);
        out[..8].copy_from_slice(MAGIC);
        out[8..12].copy_from_slice(&VERSION.to_le_bytes());
        out[12..16].copy_from_slice(&(RECORD as u32).to_le_bytes());
        out[16..24].copy_from_slice(&(self.len() as u64).to_le_bytes());
        out[24..28].copy_from_slice(&records_crc.to_le_bytes());
        let header_crc = crc32fast::hash(&out[..28]);
        out[28..32].copy_from_slice(&header_crc.to_le_bytes());
        out
    }

    /// Reads a book in Kibitz's format, refusing anything truncated, corrupt, unsorted or of
    /// another version.
    ///
    /// ```
    /// use kibitz_engine::{Book, BookError};
    /// let mut book = Book::new();
    /// book.entry_mut(1, 2).fixed.games = 7;
    /// let bytes = book.to_bytes();
    /// assert_eq!(Book::from_bytes(&bytes).unwrap(), book);
    /// assert!(matches!(Book::from_bytes(&bytes[..bytes.len() - 1]), Err(BookError::Truncated { .. })));
    /// ```
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        if bytes.len() < 16 || &bytes[..8] != MAGIC {
            return Err(if bytes.len() < 16 && MAGIC.starts_with(bytes) && !bytes.is_empty() {
                BookError::Truncated { expected: HEADER as u64, found: bytes.len() as u64 }
            } else {
                BookError::NotABook
            });
        }
        let version = u32_at(bytes, 8);
        if version != VERSION {
            return Err(BookError::WrongVersion(version));
        }
        if bytes.len() < HEADER {
            return Err(BookError::Truncated { expected: HEADER as u64, found: bytes.len() as u64 });
        }
        if crc32fast::hash(&bytes[..28]) != u32_at(bytes, 28) {
            return Err(BookError::Checksum);
        }
        if u32_at(bytes, 12) as usize != RECORD {
            return Err(BookError::BadRecord(0, "a record size this version does not use"));
        }
        let count = u64::from_le_bytes(bytes[16..24].try_into().unwrap_or_default());
        let expected = (HEADER as u64).saturating_add(count.saturating_mul(RECORD as u64));
        if expected != bytes.len() as u64 {
            return Err(BookError::Truncated { expected, found: bytes.len() as u64 });
        }
        let records = &bytes[HEADER..];
        if crc32fast::hash(records) != u32_at(bytes, 24) {
            return Err(BookError::Checksum);
        }
        let mut entries = Vec::with_capacity(records.len() / RECORD);
        for (i, r) in records.chunks_exact(RECORD).enumerate() {
            let e = read_record(r).map_err(|what| BookError::BadRecord(i, what))?;
            if let Some(prev) = entries.last().map(|p: &BookEntry| (p.key, p.mv))
                && prev >= (e.key, e.mv)
            {
                return Err(BookError::Unsorted(i));
            }
            entries.push(e);
        }
        Ok(Book::from_sorted(entries))
    }

    /// Writes the book in Kibitz's format, atomically: a crash leaves the old file or the new.
    /// A journal left beside the file by an in-place save is deleted (it belongs to the old
    /// file).
    pub fn save(&self, path: &Path) -> Result<(), BookError> {
        write_atomic(path, &self.to_bytes())?;
        let _ = journal::remove(path);
        Ok(())
    }

    /// Reads a Kibitz book file (read once into memory). On error the file is left as it is and
    /// the caller keeps whatever book it had. The journal of an in-place save cut short is
    /// replayed, or discarded when torn (see [`BookFile`](crate::BookFile)).
    pub fn load(path: &Path) -> Result<Book, BookError> {
        let mut bytes = std::fs::read(path)?;
        journal::recover(path, &mut bytes);
        Book::from_bytes(&bytes)
    }

    /// Reads a book file in either format: Kibitz's own (recognised by its magic) or Polyglot.
    /// A Kibitz book's journal is handled as [`Book::load`] does.
    pub fn open(path: &Path) -> Result<Book, BookError> {
        let mut bytes = std::fs::read(path)?;
        if bytes.starts_with(&MAGIC[..bytes.len().min(8)]) && !bytes.is_empty() {
            journal::recover(path, &mut bytes);
            Book::from_bytes(&bytes)
        } else {
            Book::from_polyglot(&bytes)
        }
    }
}

pub(super) fn u32_at(bytes: &[u8], at: usize) -> u32 {
    let mut b = [0; 4];
    b.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(b)
}

fn opt(v: Option<u8>) -> u8 {
    v.unwrap_or(NONE)
}

/// The 56 bytes of one record.
pub(super) fn record_bytes(e: &BookEntry) -> [u8; RECORD] {
    let mut out = Vec::with_capacity(RECORD);
    write_record(&mut out, e);
    let mut record = [0; RECORD];
    record.copy_from_slice(&out);
    record
}

fn write_record(out: &mut Vec<u8>, e: &BookEntry) {
    out.extend_from_slice(&e.key.to_le_bytes());
    out.extend_from_slice(&e.mv.to_le_bytes());
    out.extend_from_slice(&e.weight.to_le_bytes());
    out.extend_from_slice(&e.polyglot_learn.to_le_bytes());
    for s in [&e.fixed, &e.learned] {
        for v in [s.games, s.wins, s.draws, s.losses] {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
    out.extend_from_slice(&e.learn_score.to_le_bytes());
    out.extend_from_slice(&[opt(e.user), opt(e.play_pct), u8::from(e.never_play), e.polyglot_rank]);
}

/// One record read, or what makes it impossible.
pub(super) fn read_record(r: &[u8]) -> Result<BookEntry, &'static str> {
    let stats = |at: usize| Stats {
        games: u32_at(r, at),
        wins: u32_at(r, at + 4),
        draws: u32_at(r, at + 8),
        losses: u32_at(r, at + 12),
    };
    let percent = |b: u8, what| match b {
        NONE => Ok(None),
        0..=100 => Ok(Some(b)),
        _ => Err(what),
    };
    if r[54] > 1 {
        return Err("unknown flags");
    }
    Ok(BookEntry {
        key: u64::from_le_bytes(r[..8].try_into().map_err(|_| "a short record")?),
        mv: u16::from_le_bytes([r[8], r[9]]),
        weight: u16::from_le_bytes([r[10], r[11]]),
        polyglot_learn: u32_at(r, 12),
        fixed: stats(16),
        learned: stats(32),
        learn_score: i32::from_le_bytes([r[48], r[49], r[50], r[51]]),
        user: percent(r[52], "a user value above 100")?,
        play_pct: percent(r[53], "a play percentage above 100")?,
        never_play: r[54] == 1,
        polyglot_rank: r[55],
    })
}
