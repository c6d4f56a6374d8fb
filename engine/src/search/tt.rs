//! The transposition table: a fixed-size, always-replace hash table of search results.

use shakmaty::Move;

use super::params::{MATE_BOUND, MAX_HASH_MB};

/// How a stored score relates to the true value of the position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is exact.
    Exact,
    /// The true value is at least the score (a beta cutoff).
    Lower,
    /// The true value is at most the score (no move reached alpha).
    Upper,
}

/// One stored search result.
#[derive(Copy, Clone, Debug)]
pub struct Entry {
    /// The full Zobrist key, to tell collisions apart.
    pub key: u64,
    /// The best move found, if any.
    pub best: Option<Move>,
    /// The score, with mates counted from this position.
    pub score: i32,
    /// The remaining depth the result was searched to.
    pub depth: i32,
    /// How the score bounds the true value.
    pub bound: Bound,
}

/// A fixed-size table indexed by the low bits of the Zobrist key.
pub struct TranspositionTable {
    entries: Vec<Option<Entry>>,
}

impl TranspositionTable {
    /// Creates a table of about `megabytes` megabytes (clamped to 1..=1024).
    #[must_use]
    pub fn new(megabytes: usize) -> Self {
        let megabytes = megabytes.clamp(1, MAX_HASH_MB);
        let slot = std::mem::size_of::<Option<Entry>>();
        let len = (megabytes * 1024 * 1024 / slot).max(1);
        TranspositionTable { entries: vec![None; len] }
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.entries.fill(None);
    }

    fn index(&self, key: u64) -> usize {
        // The multiply-shift maps the key onto the table evenly without a division.
        ((u128::from(key) * self.entries.len() as u128) >> 64) as usize
    }

    /// The entry for `key`, with its mate score converted to be relative to `ply`.
    #[must_use]
    pub fn probe(&self, key: u64, ply: usize) -> Option<Entry> {
        let entry = self.entries[self.index(key)]?;
        if entry.key != key {
            return None;
        }
        Some(Entry { score: score_from_tt(entry.score, ply), ..entry })
    }

    /// Stores a result, replacing whatever was in its slot.
    pub fn store(&mut self, key: u64, ply: usize, entry: Entry) {
        let index = self.index(key);
        let best = entry.best.or_else(|| {
            // Keep the old move for the same position: it is still the best guess we have.
            self.entries[index].filter(|old| old.key == key).and_then(|old| old.best)
        });
        self.entries[index] = Some(Entry { key, best, score: score_to_tt(entry.score, ply), ..entry });
    }
}

/// Converts a mate score from "distance to the root" to "distance to this node".
fn score_to_tt(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score > MATE_BOUND {
        score + ply
    } else if score < -MATE_BOUND {
        score - ply
    } else {
        score
    }
}

/// Converts a stored mate score back to "distance to the root".
fn score_from_tt(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score > MATE_BOUND {
        score - ply
    } else if score < -MATE_BOUND {
        score + ply
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::params::MATE;

    #[test]
    fn stores_and_probes() {
        let mut tt = TranspositionTable::new(1);
        let entry = Entry { key: 0, best: None, score: 42, depth: 3, bound: Bound::Exact };
        tt.store(12345, 0, entry);
        let got = tt.probe(12345, 0).expect("stored entry is found");
        assert_eq!(got.score, 42);
        assert_eq!(got.key, 12345);
        assert!(tt.probe(54321, 0).is_none());
    }

    #[test]
    fn mate_scores_are_relative_to_the_node() {
        let mut tt = TranspositionTable::new(1);
        // Mate in 5 plies from the root, found at ply 2: mate in 3 plies from the node.
        let entry = Entry { key: 0, best: None, score: MATE - 5, depth: 3, bound: Bound::Exact };
        tt.store(7, 2, entry);
        assert_eq!(tt.probe(7, 4).map(|e| e.score), Some(MATE - 7));
    }
}
