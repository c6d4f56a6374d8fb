//! The transposition table: a fixed-size hash table of search results in buckets, with
//! depth- and age-preferred replacement.

use shakmaty::Move;

use super::params::{BUCKET_SIZE, MATE_BOUND, MAX_HASH_MB, TT_AGE_WEIGHT};

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

/// A stored entry with the search generation that wrote it.
#[derive(Copy, Clone, Debug)]
struct Slot {
    entry: Entry,
    generation: u8,
}

/// Entries sharing one index; a key may sit in any of them.
type Bucket = [Option<Slot>; BUCKET_SIZE];

/// A fixed-size table of buckets indexed by the Zobrist key. A new result replaces the
/// same position's entry, else an empty one, else the least valuable: shallow and old
/// (from an earlier search) entries go first.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: u8,
}

impl TranspositionTable {
    /// Creates a table of about `megabytes` megabytes (clamped to 1..=1024).
    #[must_use]
    pub fn new(megabytes: usize) -> Self {
        let megabytes = megabytes.clamp(1, MAX_HASH_MB);
        let size = std::mem::size_of::<Bucket>();
        let len = (megabytes * 1024 * 1024 / size).max(1);
        TranspositionTable { buckets: vec![[None; BUCKET_SIZE]; len], generation: 0 }
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.buckets.fill([None; BUCKET_SIZE]);
        self.generation = 0;
    }

    /// Starts a new search: entries written before now age.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    fn index(&self, key: u64) -> usize {
        // The multiply-shift maps the key onto the table evenly without a division.
        ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize
    }

    /// The entry for `key`, with its mate score converted to be relative to `ply`.
    #[must_use]
    pub fn probe(&self, key: u64, ply: usize) -> Option<Entry> {
        let bucket = &self.buckets[self.index(key)];
        let slot = bucket.iter().flatten().find(|slot| slot.entry.key == key)?;
        Some(Entry { score: score_from_tt(slot.entry.score, ply), ..slot.entry })
    }

    /// How many searches ago `slot` was written.
    fn age(&self, slot: &Slot) -> i32 {
        i32::from(self.generation.wrapping_sub(slot.generation))
    }

    /// Stores a result in its bucket.
    pub fn store(&mut self, key: u64, ply: usize, entry: Entry) {
        let index = self.index(key);
        let bucket = &self.buckets[index];
        let same = bucket.iter().position(|s| s.is_some_and(|s| s.entry.key == key));
        let victim = same.or_else(|| bucket.iter().position(Option::is_none)).unwrap_or_else(|| {
            let worth =
                |s: &Option<Slot>| s.map_or(i32::MIN, |s| s.entry.depth - TT_AGE_WEIGHT * self.age(&s));
            (0..BUCKET_SIZE).min_by_key(|&i| worth(&bucket[i])).unwrap_or(0)
        });
        // Keep the old move for the same position: it is still the best guess we have.
        let old_best = same.and_then(|i| bucket[i]).and_then(|s| s.entry.best);
        let best = entry.best.or(old_best);
        let stored = Entry { key, best, score: score_to_tt(entry.score, ply), ..entry };
        self.buckets[index][victim] = Some(Slot { entry: stored, generation: self.generation });
    }

    /// How full the table is with this search's entries, in permille (from a sample).
    #[must_use]
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets.len().min(1000 / BUCKET_SIZE);
        let used: usize = self.buckets[..sample]
            .iter()
            .map(|b| b.iter().flatten().filter(|s| s.generation == self.generation).count())
            .sum();
        (used * 1000 / (sample * BUCKET_SIZE).max(1)) as u32
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

    #[test]
    fn old_shallow_entries_are_replaced_first() {
        let mut tt = TranspositionTable::new(1);
        let len = tt.buckets.len() as u128;
        // Keys that share the first bucket: the top bits decide the index.
        let keys: Vec<u64> = (0..=BUCKET_SIZE as u64).map(|i| i + 1).collect();
        assert!(keys.iter().all(|&k| (u128::from(k) * len) >> 64 == 0));
        let at = |depth| Entry { key: 0, best: None, score: 0, depth, bound: Bound::Exact };
        for (i, &key) in keys[..BUCKET_SIZE].iter().enumerate() {
            tt.store(key, 0, at(10 + i as i32));
        }
        assert!(tt.hashfull() > 0);
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
        tt.store(keys[BUCKET_SIZE], 0, at(1));
        // The shallowest old entry (depth 10) made way; the deeper ones stay.
        assert!(tt.probe(keys[0], 0).is_none());
        assert!(keys[1..].iter().all(|&k| tt.probe(k, 0).is_some()));
    }
}
