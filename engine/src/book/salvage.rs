//! Reading what can be read from a damaged Kibitz book, so that it can be shown read-only with
//! the reason it is damaged, instead of not at all.

use std::fmt;

use crate::book::file::{HEADER, MAGIC, RECORD, VERSION, read_record, u32_at};
use crate::book::{Book, BookEntry, BookError};

/// What [`Book::salvage`] read from a book file.
#[derive(Debug)]
pub struct Salvaged {
    /// Every record that could be read and keeps the file's strict order.
    pub book: Book,
    /// Why the file does not load: `None` when it is whole (then `book` is all of it).
    pub damage: Option<BookError>,
    /// Records found in the file but left out: impossible values, or out of order.
    pub dropped: usize,
    /// Records the header announces, when the header can be trusted (its checksum matches).
    pub announced: Option<u64>,
}

impl fmt::Display for Salvaged {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.damage {
            None => write!(f, "the book is whole: {} moves", self.book.len()),
            Some(damage) => {
                write!(f, "{damage}; {} moves could be read", self.book.len())?;
                if let Some(announced) = self.announced {
                    write!(f, " of {announced}")?;
                }
                if self.dropped > 0 {
                    write!(f, ", {} damaged records were left out", self.dropped)?;
                }
                Ok(())
            }
        }
    }
}

impl Book {
    /// Reads as much as can be read of a Kibitz book that [`Book::from_bytes`] refuses: every
    /// record whose fields are possible, keeping the largest set of them in strictly
    /// increasing (key, move) order (so one damaged key drops one record, not the rest of the
    /// file), together with the error that made the file refused. A file that loads comes back
    /// whole with no damage. Nothing is read from a file that is not a Kibitz book, or of
    /// another version, or whose header is cut short. Never panics.
    ///
    /// ```
    /// use kibitz_engine::{Book, BookError};
    /// let mut book = Book::new();
    /// for key in 1..=3 {
    ///     book.entry_mut(key, 100).fixed.games = 5;
    /// }
    /// let mut bytes = book.to_bytes();
    /// bytes.truncate(bytes.len() - 10); // the last record is cut short
    /// let salvaged = Book::salvage(&bytes);
    /// assert!(matches!(salvaged.damage, Some(BookError::Truncated { .. })));
    /// assert_eq!(salvaged.book.len(), 2);
    /// ```
    #[must_use]
    pub fn salvage(bytes: &[u8]) -> Salvaged {
        let damage = match Book::from_bytes(bytes) {
            Ok(book) => return Salvaged { book, damage: None, dropped: 0, announced: None },
            Err(e) => e,
        };
        let nothing =
            |damage| Salvaged { book: Book::new(), damage: Some(damage), dropped: 0, announced: None };
        if bytes.len() < HEADER || &bytes[..8] != MAGIC || u32_at(bytes, 8) != VERSION {
            return nothing(damage);
        }
        let header_ok = crc32fast::hash(&bytes[..28]) == u32_at(bytes, 28);
        if header_ok && u32_at(bytes, 12) as usize != RECORD {
            return nothing(damage);
        }
        let records = &bytes[HEADER..];
        let available = records.len() / RECORD;
        let announced = header_ok.then(|| u64::from_le_bytes(bytes[16..24].try_into().unwrap_or_default()));
        let count = announced.map_or(available, |n| available.min(usize::try_from(n).unwrap_or(usize::MAX)));
        let readable: Vec<BookEntry> =
            records.chunks_exact(RECORD).take(count).filter_map(|r| read_record(r).ok()).collect();
        let kept = longest_increasing(&readable);
        let dropped = count - kept.len();
        Salvaged { book: Book::from_sorted(kept), damage: Some(damage), dropped, announced }
    }
}

/// The longest subsequence of `entries` strictly increasing by (key, move), in order
/// (patience sorting, O(n log n)).
fn longest_increasing(entries: &[BookEntry]) -> Vec<BookEntry> {
    let order = |e: &BookEntry| (e.key, e.mv);
    // `tails[l]`: the index of the smallest last entry of an increasing run of length l + 1.
    let mut tails: Vec<usize> = Vec::new();
    let mut previous: Vec<Option<usize>> = Vec::with_capacity(entries.len());
    for (i, e) in entries.iter().enumerate() {
        let at = tails.partition_point(|&t| order(&entries[t]) < order(e));
        previous.push(at.checked_sub(1).map(|l| tails[l]));
        if at == tails.len() {
            tails.push(i);
        } else {
            tails[at] = i;
        }
    }
    let mut run = Vec::with_capacity(tails.len());
    let mut next = tails.last().copied();
    while let Some(i) = next {
        run.push(entries[i]);
        next = previous[i];
    }
    run.reverse();
    run
}

#[cfg(test)]
mod tests {
    use super::*;

    fn book(n: u64) -> Book {
        let entries = (1..=n)
            .map(|i| {
                let mut e = BookEntry::new(i * 1000, (i % 7) as u16 + 1);
                e.fixed.games = i as u32;
                e
            })
            .collect();
        Book::from_entries(entries)
    }

    fn record_at(bytes: &mut [u8], i: usize) -> &mut [u8] {
        &mut bytes[HEADER + i * RECORD..HEADER + (i + 1) * RECORD]
    }

    #[test]
    fn a_whole_book_comes_back_whole() {
        let book = book(100);
        let salvaged = Book::salvage(&book.to_bytes());
        assert!(salvaged.damage.is_none());
        assert_eq!(salvaged.book, book);
    }

    #[test]
    fn one_bad_key_drops_one_record_not_the_rest() {
        let book = book(100);
        let mut bytes = book.to_bytes();
        // Record 10's key is made huge: out of order with everything after it.
        record_at(&mut bytes, 10)[7] = 0xff;
        // Record 50 holds an impossible user value.
        record_at(&mut bytes, 50)[52] = 200;
        let salvaged = Book::salvage(&bytes);
        assert!(matches!(salvaged.damage, Some(BookError::Checksum)), "{salvaged}");
        assert_eq!(salvaged.dropped, 2);
        assert_eq!(salvaged.announced, Some(100));
        let mut expected = book.clone();
        let gone = [book.entries()[10], book.entries()[50]];
        expected.retain(|e| !gone.contains(e));
        assert_eq!(salvaged.book, expected);
        assert!(salvaged.to_string().contains("98 moves could be read of 100"), "{salvaged}");
    }

    #[test]
    fn a_damaged_header_still_gives_the_records() {
        let book = book(20);
        let mut bytes = book.to_bytes();
        bytes[17] ^= 0x10; // the record count
        let salvaged = Book::salvage(&bytes);
        assert!(matches!(salvaged.damage, Some(BookError::Checksum)));
        assert_eq!(salvaged.announced, None, "the header is not trusted");
        assert_eq!(salvaged.book, book);
    }

    #[test]
    fn nothing_is_read_from_what_is_not_a_kibitz_book() {
        for bytes in [&b""[..], b"KIBITZBK", b"not a book at all, not at all, no", &[0xff; 100]] {
            let salvaged = Book::salvage(bytes);
            assert!(salvaged.damage.is_some() && salvaged.book.is_empty());
        }
        let mut other = book(3).to_bytes();
        other[8] = 2;
        assert!(matches!(Book::salvage(&other).damage, Some(BookError::WrongVersion(2))));
        assert!(Book::salvage(&other).book.is_empty());
    }

    #[test]
    fn the_longest_run_is_kept() {
        let keys = [5u64, 1, 2, 9, 3, 4, 4, 8, 6, 7];
        let entries: Vec<BookEntry> = keys.iter().map(|&k| BookEntry::new(k, 1)).collect();
        let kept: Vec<u64> = longest_increasing(&entries).iter().map(|e| e.key).collect();
        assert_eq!(kept, [1, 2, 3, 4, 6, 7]);
    }
}
