//! Import and export of Polyglot `.bin` books: 16-byte big-endian entries (key, move, weight,
//! learn), sorted by key, heaviest move first within a key.

use std::path::Path;

use crate::book::{Book, BookEntry, BookError};
use crate::write_atomic;

/// Size of one Polyglot entry.
const ENTRY: usize = 16;

impl Book {
    /// Reads a Polyglot book. The weight and learn fields are kept as they are; the entries
    /// have no game counts. A file whose length is not a multiple of 16 or whose keys are not
    /// sorted is refused.
    pub fn from_polyglot(bytes: &[u8]) -> Result<Book, BookError> {
        if bytes.is_empty() {
            return Err(BookError::NotABook);
        }
        if !bytes.len().is_multiple_of(ENTRY) {
            let expected = (bytes.len() / ENTRY + 1) * ENTRY;
            return Err(BookError::Truncated { expected: expected as u64, found: bytes.len() as u64 });
        }
        let mut entries = Vec::with_capacity(bytes.len() / ENTRY);
        let mut rank = 0u8;
        for (i, r) in bytes.chunks_exact(ENTRY).enumerate() {
            let mut key = [0; 8];
            key.copy_from_slice(&r[..8]);
            let key = u64::from_be_bytes(key);
            let mv = u16::from_be_bytes([r[8], r[9]]);
            if mv == 0 {
                return Err(BookError::BadRecord(i, "an empty move"));
            }
            match entries.last() {
                Some(prev) if key < prev_key(prev) => return Err(BookError::Unsorted(i)),
                Some(prev) if key == prev_key(prev) => rank = rank.saturating_add(1),
                _ => rank = 0,
            }
            entries.push(BookEntry {
                key,
                mv,
                weight: u16::from_be_bytes([r[10], r[11]]),
                polyglot_learn: u32::from_be_bytes([r[12], r[13], r[14], r[15]]),
                polyglot_rank: rank,
                ..Default::default()
            });
        }
        Ok(Book::from_entries(entries))
    }

    /// The book as a Polyglot `.bin`: sorted by key, then by weight (heaviest first). Moves the
    /// user set to "never" or that result learning flagged are written with weight 0, and
    /// moves with weight 0 that were built from games (all losses) are left out, as
    /// `polyglot make-book` does.
    #[must_use]
    pub fn to_polyglot(&self) -> Vec<u8> {
        let mut entries: Vec<&BookEntry> =
            self.entries().iter().filter(|e| e.weight > 0 || e.fixed.games == 0 || e.is_avoided()).collect();
        let effective = |e: &BookEntry| if e.is_avoided() { 0 } else { e.weight };
        entries.sort_by_key(|e| (e.key, std::cmp::Reverse(effective(e)), e.polyglot_rank, e.mv));
        let mut out = Vec::with_capacity(entries.len() * ENTRY);
        for e in entries {
            let weight = effective(e);
            out.extend_from_slice(&e.key.to_be_bytes());
            out.extend_from_slice(&e.mv.to_be_bytes());
            out.extend_from_slice(&weight.to_be_bytes());
            out.extend_from_slice(&e.polyglot_learn.to_be_bytes());
        }
        out
    }

    /// Writes the book as a Polyglot `.bin`, atomically. A book with no entry to write (no
    /// moves, or only moves built from lost games) is refused with [`BookError::Empty`] and
    /// nothing is written: an empty file is not a Polyglot book.
    pub fn save_polyglot(&self, path: &Path) -> Result<(), BookError> {
        let bytes = self.to_polyglot();
        if bytes.is_empty() {
            return Err(BookError::Empty);
        }
        write_atomic(path, &bytes)?;
        Ok(())
    }
}

fn prev_key(e: &BookEntry) -> u64 {
    e.key
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_polyglot_book_is_not_written() {
        let path = std::env::temp_dir().join(format!("kibitz-polyglot-empty-{}.bin", std::process::id()));
        let _ = std::fs::remove_file(&path);
        assert!(matches!(Book::new().save_polyglot(&path), Err(BookError::Empty)));
        assert!(!path.exists(), "no file is left behind");
    }
}
