//! Crafty's position learning: positions where Kibitz's score dropped sharply, kept from game
//! to game in a bounded first-in-first-out table that seeds the transposition table at the
//! start of each search.

use std::collections::{HashSet, VecDeque};
use std::path::Path;

use crate::book::{BookError, LearnedFileError, LearnedFileErrorKind, PlayedGame, book_key, encode_move};
use crate::write_atomic;

/// One learned position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LearnedPosition {
    /// Polyglot key of the position searched.
    pub key: u64,
    /// The search score there, centipawns, for the side to move.
    pub score: i32,
    /// The depth of that search.
    pub depth: u8,
    /// The move the search chose, Polyglot-encoded.
    pub mv: u16,
}

/// The persistent table of learned positions.
///
/// ```
/// use kibitz_engine::{LearnedPosition, PositionTable};
/// let mut table = PositionTable::new(2);
/// for key in 1..=3 {
///     table.insert(LearnedPosition { key, score: -250, depth: 9, mv: 0 });
/// }
/// let keys: Vec<u64> = table.entries().map(|p| p.key).collect();
/// assert_eq!(keys, [2, 3]); // the oldest went first
/// assert_eq!(PositionTable::from_bytes(&table.to_bytes(), 2).unwrap(), table);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionTable {
    capacity: usize,
    entries: VecDeque<LearnedPosition>,
}

/// Crafty's size: 65536 positions.
pub const DEFAULT_CAPACITY: usize = 65536;
/// A drop of at least this many centipawns between two of Kibitz's searches is learned.
pub const DROP_THRESHOLD: i32 = 100;

const MAGIC: &[u8; 8] = b"KIBITZPL";
const VERSION: u32 = 1;
const HEADER: usize = 24;
const RECORD: usize = 16;

impl Default for PositionTable {
    fn default() -> Self {
        PositionTable::new(DEFAULT_CAPACITY)
    }
}

impl PositionTable {
    /// An empty table holding at most `capacity` positions.
    #[must_use]
    pub fn new(capacity: usize) -> Self {
        PositionTable { capacity: capacity.max(1), entries: VecDeque::new() }
    }

    /// The learned positions, oldest first: what seeds the transposition table.
    pub fn entries(&self) -> impl ExactSizeIterator<Item = &LearnedPosition> {
        self.entries.iter()
    }

    /// The most positions the table holds.
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Number of positions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// No positions.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// Adds a position (replacing an older entry for the same key); the oldest leaves when full.
    pub fn insert(&mut self, p: LearnedPosition) {
        self.entries.retain(|e| e.key != p.key);
        if self.entries.len() == self.capacity {
            self.entries.pop_front();
        }
        self.entries.push_back(p);
    }

    /// Learns the positions of a finished game where Kibitz's score fell by at least
    /// `DROP_THRESHOLD` from its previous search. Returns how many.
    pub fn learn(&mut self, played: &PlayedGame<'_>) -> usize {
        let mut previous: Option<i32> = None;
        let mut learned = 0;
        for (ply, note) in played.scores.iter().enumerate() {
            let Some((score, depth)) = *note else { continue };
            if previous.is_some_and(|p| p - score >= DROP_THRESHOLD) && ply < played.game.len() {
                let pos = played.game.position_at(ply);
                let mv = encode_move(played.game.moves()[ply]);
                self.insert(LearnedPosition { key: book_key(pos), score, depth, mv });
                learned += 1;
            }
            previous = Some(score);
        }
        learned
    }

    /// The table as bytes: header (magic, version, count, CRC-32) and 16-byte records.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut records = Vec::with_capacity(self.entries.len() * RECORD);
        for p in &self.entries {
            records.extend_from_slice(&p.key.to_le_bytes());
            records.extend_from_slice(&p.score.to_le_bytes());
            records.extend_from_slice(&p.mv.to_le_bytes());
            records.extend_from_slice(&[p.depth, 0]);
        }
        let mut out = Vec::with_capacity(HEADER + records.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(self.entries.len() as u64).to_le_bytes());
        out.extend_from_slice(&crc32fast::hash(&records).to_le_bytes());
        out.extend_from_slice(&records);
        out
    }

    /// Reads a table written by [`PositionTable::to_bytes`], refusing damaged data; if it holds
    /// more than `capacity` positions, the oldest are dropped.
    pub fn from_bytes(bytes: &[u8], capacity: usize) -> Result<PositionTable, LearnedFileError> {
        let refused = |kind| Err(LearnedFileError::of(kind));
        if bytes.len() < HEADER || &bytes[..8] != MAGIC {
            return refused(LearnedFileErrorKind::WrongKind { expected: "a table of learned positions" });
        }
        let u32_at = |at: usize| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
        if u32_at(8) != VERSION {
            return refused(LearnedFileErrorKind::WrongVersion(u32_at(8)));
        }
        let count = u64::from(u32_at(12)) | u64::from(u32_at(16)) << 32;
        let expected = (HEADER as u64).saturating_add(count.saturating_mul(RECORD as u64));
        if expected != bytes.len() as u64 {
            return refused(LearnedFileErrorKind::Truncated { expected, found: bytes.len() as u64 });
        }
        if crc32fast::hash(&bytes[HEADER..]) != u32_at(20) {
            return refused(LearnedFileErrorKind::Checksum);
        }
        let mut table = PositionTable::new(capacity);
        table.extend(bytes[HEADER..].chunks_exact(RECORD).map(|r| {
            let mut key = [0; 8];
            key.copy_from_slice(&r[..8]);
            LearnedPosition {
                key: u64::from_le_bytes(key),
                score: i32::from_le_bytes([r[8], r[9], r[10], r[11]]),
                mv: u16::from_le_bytes([r[12], r[13]]),
                depth: r[14],
            }
        }));
        Ok(table)
    }

    /// Reads the table file; a damaged file is refused (the error names it) and left as it is.
    pub fn load(path: &Path, capacity: usize) -> Result<PositionTable, LearnedFileError> {
        std::fs::read(path)
            .map_err(LearnedFileError::from)
            .and_then(|bytes| PositionTable::from_bytes(&bytes, capacity))
            .map_err(|e| e.in_file(path))
    }

    /// Writes the table file atomically.
    pub fn save(&self, path: &Path) -> Result<(), BookError> {
        write_atomic(path, &self.to_bytes())?;
        Ok(())
    }

    /// The table as text for sharing (Crafty's `position.lrn`):
    /// `position KEY SCORE DEPTH MOVE` per line.
    #[must_use]
    pub fn export(&self) -> String {
        let mut out = String::from("# Kibitz learned positions, version 1\n");
        for p in &self.entries {
            out.push_str(&format!("position {:016x} {} {} {}\n", p.key, p.score, p.depth, p.mv));
        }
        out
    }

    /// Imports `position` lines written by [`PositionTable::export`] (other lines are
    /// skipped); `clear` empties the table first. Returns how many were imported.
    pub fn import(&mut self, text: &str, clear: bool) -> Result<usize, LearnedFileError> {
        let mut parsed = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let f: Vec<&str> = line.split_whitespace().collect();
            if f.first() != Some(&"position") {
                continue;
            }
            let bad = || LearnedFileError::bad_line(n + 1, line, "a learned position line");
            if f.len() != 5 {
                return Err(bad());
            }
            parsed.push(LearnedPosition {
                key: u64::from_str_radix(f[1], 16).map_err(|_| bad())?,
                score: f[2].parse().map_err(|_| bad())?,
                depth: f[3].parse().map_err(|_| bad())?,
                mv: f[4].parse().map_err(|_| bad())?,
            });
        }
        if clear {
            self.clear();
        }
        let n = parsed.len();
        self.extend(parsed);
        Ok(n)
    }
}

impl Extend<LearnedPosition> for PositionTable {
    /// Adds positions, oldest first, as [`PositionTable::insert`] one by one would, but in
    /// linear time (a full table of 65536 positions loads in milliseconds, not seconds).
    fn extend<I: IntoIterator<Item = LearnedPosition>>(&mut self, positions: I) {
        let all: Vec<LearnedPosition> = self.entries.drain(..).chain(positions).collect();
        // The newest entry of each key is kept, and the newest keys when there are too many.
        let mut seen = HashSet::with_capacity(all.len().min(self.capacity));
        let mut kept: Vec<LearnedPosition> = Vec::with_capacity(all.len().min(self.capacity));
        for p in all.into_iter().rev() {
            if kept.len() == self.capacity {
                break;
            }
            if seen.insert(p.key) {
                kept.push(p);
            }
        }
        kept.reverse();
        self.entries = kept.into();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extending_keeps_what_inserting_one_by_one_keeps() {
        let positions: Vec<LearnedPosition> = (0..40u64)
            .map(|i| LearnedPosition { key: (i * 7) % 13, score: -100 - i as i32, depth: 5, mv: i as u16 })
            .collect();
        for capacity in [1, 5, 13, 20] {
            let mut one_by_one = PositionTable::new(capacity);
            one_by_one.insert(LearnedPosition { key: 99, score: 0, depth: 1, mv: 0 });
            let mut extended = one_by_one.clone();
            for &p in &positions {
                one_by_one.insert(p);
            }
            extended.extend(positions.iter().copied());
            assert_eq!(extended, one_by_one, "capacity {capacity}");
        }
    }
}
