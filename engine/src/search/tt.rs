//! The transposition table: a fixed-size hash table of search results in buckets, with
//! depth- and age-preferred replacement, shared by the search threads without locks.
//!
//! Each slot is two atomic words: the entry packed into one (`data`), and the position's key
//! XORed with it in the other. A reader that meets a slot half written by another thread
//! gets a key that matches no position, and takes it for a miss (the lockless hashing of
//! Hyatt and Mann, as in Crafty and Stockfish). One thread alone sees exactly what a plain
//! table would give it.

use std::sync::atomic::{AtomicU64, Ordering};

use shakmaty::{Move, Role, Square};

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
struct Stored {
    entry: Entry,
    generation: u8,
}

/// One entry's place: the packed entry, and the key XORed with it. `data == 0` is an empty
/// slot: a packed entry never is 0, as its bound is never 0.
#[derive(Default)]
struct Slot {
    key: AtomicU64,
    data: AtomicU64,
}

/// Entries sharing one index; a key may sit in any of them. Aligned to a cache line, which
/// four slots fill: a probe then touches one line, not two.
#[derive(Default)]
#[repr(C, align(64))]
struct Bucket([Slot; BUCKET_SIZE]);

/// The memory one bucket takes: `Hash` megabytes hold that many bytes of buckets.
const BUCKET_BYTES: usize = std::mem::size_of::<Bucket>();

/// A fixed-size table of buckets indexed by the Zobrist key. A new result replaces the
/// same position's entry, else an empty one, else the least valuable: shallow and old
/// (from an earlier search) entries go first. It is `Sync`: the threads of one search store
/// and probe it at once.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: u8,
}

impl TranspositionTable {
    /// Creates a table of about `megabytes` megabytes (clamped to 1..=1024).
    #[must_use]
    pub fn new(megabytes: usize) -> Self {
        let megabytes = megabytes.clamp(1, MAX_HASH_MB);
        let len = (megabytes * 1024 * 1024 / BUCKET_BYTES).max(1);
        TranspositionTable { buckets: (0..len).map(|_| Bucket::default()).collect(), generation: 0 }
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        for slot in self.buckets.iter_mut().flat_map(|b| b.0.iter_mut()) {
            *slot.key.get_mut() = 0;
            *slot.data.get_mut() = 0;
        }
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

    /// Asks the processor to bring `key`'s bucket into the cache, so that a probe soon after
    /// does not wait for memory (a hint: it changes nothing but the time a probe takes).
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let bucket: *const Bucket = &self.buckets[self.index(key)];
            // SAFETY: SSE, which the instruction needs, is part of every x86-64 processor, and
            // a prefetch reads nothing into the program: it cannot fault, whatever the address.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket.cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry for `key`, with its mate score converted to be relative to `ply`.
    #[must_use]
    pub fn probe(&self, key: u64, ply: usize) -> Option<Entry> {
        self.find(key, ply, |_| true)
    }

    /// Like [`TranspositionTable::probe`], but only an entry the current search wrote: a
    /// search that proves mates must not trust the bounds of an earlier search that pruned.
    #[must_use]
    pub fn probe_current(&self, key: u64, ply: usize) -> Option<Entry> {
        self.find(key, ply, |s| s.generation == self.generation)
    }

    /// The entry for `key` that `keep` accepts, its mate score relative to `ply`.
    fn find(&self, key: u64, ply: usize, keep: impl Fn(&Stored) -> bool) -> Option<Entry> {
        let bucket = &self.buckets[self.index(key)].0;
        // Keys are compared before anything is unpacked.
        let stored = bucket
            .iter()
            .map(words)
            .filter(|&(k, _)| k == key)
            .filter_map(|(_, data)| unpack(data))
            .find(|s| keep(s))?;
        Some(Entry { score: score_from_tt(stored.entry.score, ply), ..stored.entry })
    }

    /// How many searches ago the entry packed in `data` was written.
    fn age(&self, data: u64) -> i32 {
        i32::from(self.generation.wrapping_sub((data >> GENERATION_SHIFT) as u8))
    }

    /// Stores a result in its bucket.
    pub fn store(&self, key: u64, ply: usize, entry: Entry) {
        let bucket = &self.buckets[self.index(key)].0;
        // Only the depths and generations decide which slot goes: no move is unpacked but the
        // one kept below.
        let slots: [(u64, u64); BUCKET_SIZE] = std::array::from_fn(|i| words(&bucket[i]));
        let same = slots.iter().position(|&(k, data)| data != 0 && k == key);
        let victim = same.or_else(|| slots.iter().position(|&(_, data)| data == 0)).unwrap_or_else(|| {
            let worth = |data: u64| depth_of(data) - TT_AGE_WEIGHT * self.age(data);
            (0..BUCKET_SIZE).min_by_key(|&i| worth(slots[i].1)).unwrap_or(0)
        });
        // Keep the old move for the same position: it is still the best guess we have.
        let old_best = same.and_then(|i| unpack_move(slots[i].1));
        let best = entry.best.or(old_best);
        let data = pack(&Entry { best, score: score_to_tt(entry.score, ply), ..entry }, self.generation);
        let slot = &bucket[victim];
        slot.key.store(key ^ data, Ordering::Relaxed);
        slot.data.store(data, Ordering::Relaxed);
    }

    /// How full the table is with this search's entries, in permille (from a sample).
    #[must_use]
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets.len().min(1000 / BUCKET_SIZE);
        let used: usize = self.buckets[..sample]
            .iter()
            .map(|b| b.0.iter().filter_map(load).filter(|s| s.generation == self.generation).count())
            .sum();
        (used * 1000 / (sample * BUCKET_SIZE).max(1)) as u32
    }
}

/// Where each field of an entry sits in the packed word: the move in the lowest 23 bits, then
/// the score (16 bits, two's complement), the depth (12), the bound (2) and the generation (8).
const SCORE_SHIFT: u32 = 23;
const DEPTH_SHIFT: u32 = 39;
const BOUND_SHIFT: u32 = 51;
const GENERATION_SHIFT: u32 = 53;
/// The deepest depth a packed entry holds; deeper results are stored as this deep.
const MAX_STORED_DEPTH: i32 = (1 << (BOUND_SHIFT - DEPTH_SHIFT)) - 1;

/// The slot's entry, if it holds one, whatever its key.
fn load(slot: &Slot) -> Option<Stored> {
    unpack(slot.data.load(Ordering::Relaxed))
}

/// The slot's key and packed entry (0 for an empty slot), unpacked no further. The key is
/// whatever the two words give, so a slot written by two threads at once gives a key no probe
/// asks for.
fn words(slot: &Slot) -> (u64, u64) {
    let data = slot.data.load(Ordering::Relaxed);
    (slot.key.load(Ordering::Relaxed) ^ data, data)
}

/// The depth packed in `data`.
fn depth_of(data: u64) -> i32 {
    ((data >> DEPTH_SHIFT) as i32) & MAX_STORED_DEPTH
}

/// Packs everything of `entry` but its key, with the `generation` that writes it.
fn pack(entry: &Entry, generation: u8) -> u64 {
    let bound = match entry.bound {
        Bound::Exact => 1,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    // Scores are within ±(MATE + MAX_PLY) and fit in 16 bits; depths are never negative.
    let score = u64::from(entry.score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16 as u16);
    let depth = entry.depth.clamp(0, MAX_STORED_DEPTH) as u64;
    entry.best.map_or(0, pack_move)
        | score << SCORE_SHIFT
        | depth << DEPTH_SHIFT
        | bound << BOUND_SHIFT
        | u64::from(generation) << GENERATION_SHIFT
}

/// The entry packed in `data`; `None` for an empty slot.
fn unpack(data: u64) -> Option<Stored> {
    let bound = match (data >> BOUND_SHIFT) & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        3 => Bound::Upper,
        _ => return None,
    };
    let entry = Entry {
        best: unpack_move(data),
        score: i32::from((data >> SCORE_SHIFT) as u16 as i16),
        depth: depth_of(data),
        bound,
    };
    Some(Stored { entry, generation: (data >> GENERATION_SHIFT) as u8 })
}

/// A move in 23 bits, never 0: the kind (2 bits), the moving role (3, never 0), the two
/// squares (6 each; the king's and the rook's for castling), the captured and the promoted
/// role (3 each, 0 for none).
fn pack_move(m: Move) -> u64 {
    let (kind, from, to, capture, promotion) = match m {
        Move::Normal { from, to, capture, promotion, .. } => (0, from, to, capture, promotion),
        Move::EnPassant { from, to } => (1, from, to, None, None),
        Move::Castle { king, rook } => (2, king, rook, None, None),
        Move::Put { to, .. } => (3, to, to, None, None),
    };
    let role = |r: Option<Role>| r.map_or(0, |r| r as u64);
    kind | (m.role() as u64) << 2
        | u64::from(from.to_u32()) << 5
        | u64::from(to.to_u32()) << 11
        | role(capture) << 17
        | role(promotion) << 20
}

/// The move packed in the low 23 bits of `data`, if any.
fn unpack_move(data: u64) -> Option<Move> {
    let field = |shift: u32, bits: u32| ((data >> shift) & ((1 << bits) - 1)) as u32;
    let role = |shift| Role::try_from(field(shift, 3)).ok();
    let (from, to) = (Square::new(field(5, 6)), Square::new(field(11, 6)));
    let moving = role(2)?;
    Some(match field(0, 2) {
        0 => Move::Normal { role: moving, from, capture: role(17), to, promotion: role(20) },
        1 => Move::EnPassant { from, to },
        2 => Move::Castle { king: from, rook: to },
        _ => Move::Put { role: moving, to },
    })
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
    fn every_bucket_sits_in_one_cache_line() {
        for megabytes in [1, 3, 16] {
            let tt = TranspositionTable::new(megabytes);
            assert_eq!(tt.buckets.as_ptr() as usize % 64, 0, "{megabytes} MB");
            assert_eq!(BUCKET_BYTES, 64);
        }
    }

    #[test]
    fn a_prefetch_changes_no_entry() {
        let tt = TranspositionTable::new(1);
        let entry = Entry { best: None, score: 42, depth: 3, bound: Bound::Exact };
        tt.store(7, 0, entry);
        for key in [0, 7, u64::MAX] {
            tt.prefetch(key);
        }
        assert_eq!(tt.probe(7, 0).map(|e| e.score), Some(42));
        assert!(tt.probe(8, 0).is_none());
    }

    #[test]
    fn stores_and_probes() {
        let tt = TranspositionTable::new(1);
        let entry = Entry { best: None, score: 42, depth: 3, bound: Bound::Exact };
        tt.store(12345, 0, entry);
        let got = tt.probe(12345, 0).expect("stored entry is found");
        assert_eq!(got.score, 42);
        assert!(tt.probe(54321, 0).is_none());
    }

    #[test]
    fn a_proof_sees_only_the_current_search_entries() {
        let mut tt = TranspositionTable::new(1);
        let entry = |score| Entry { best: None, score, depth: 3, bound: Bound::Upper };
        tt.store(1, 0, entry(-40));
        assert_eq!(tt.probe_current(1, 0).map(|e| e.score), Some(-40));
        tt.new_search();
        assert!(tt.probe_current(1, 0).is_none(), "written by the search before");
        assert_eq!(tt.probe(1, 0).map(|e| e.score), Some(-40));
        tt.store(1, 0, entry(MATE - 5));
        assert_eq!(tt.probe_current(1, 2).map(|e| e.score), Some(MATE - 7));
    }

    #[test]
    fn mate_scores_are_relative_to_the_node() {
        let tt = TranspositionTable::new(1);
        // Mate in 5 plies from the root, found at ply 2: mate in 3 plies from the node.
        let entry = Entry { best: None, score: MATE - 5, depth: 3, bound: Bound::Exact };
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
        let at = |depth| Entry { best: None, score: 0, depth, bound: Bound::Exact };
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

    #[test]
    fn every_kind_of_move_and_field_survives_packing() {
        use shakmaty::{CastlingMode, Chess, Position, fen::Fen};
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/perft/standard.epd");
        let text = std::fs::read_to_string(path).expect("data/perft/standard.epd is readable");
        let mut kinds = [0; 4];
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let fen: Fen = line.split(';').next().unwrap_or_default().trim().parse().expect("FEN");
            let Ok(pos) = fen.into_position::<Chess>(CastlingMode::Chess960) else { continue };
            for m in pos.legal_moves() {
                kinds[match m {
                    Move::Normal { promotion: None, .. } => 0,
                    Move::Normal { .. } => 1,
                    Move::EnPassant { .. } => 2,
                    _ => 3,
                }] += 1;
                assert_eq!(unpack_move(pack_move(m)), Some(m), "{line}: {m}");
            }
        }
        assert!(kinds.iter().all(|&n| n > 0), "not every kind of move was tried: {kinds:?}");
        assert_eq!(unpack_move(0), None);
        for (score, depth, bound) in
            [(-MATE - 200, 0, Bound::Upper), (MATE + 200, 255, Bound::Lower), (-1, 1, Bound::Exact)]
        {
            let entry = Entry { best: None, score, depth, bound };
            let stored = unpack(pack(&entry, 200)).expect("an entry");
            let got = (stored.entry.score, stored.entry.depth, stored.entry.bound, stored.generation);
            assert_eq!(got, (score, depth, bound, 200));
        }
    }

    #[test]
    fn a_slot_torn_between_two_writes_is_a_miss() {
        let tt = TranspositionTable::new(1);
        let at = |score| Entry { best: None, score, depth: 5, bound: Bound::Exact };
        tt.store(1, 0, at(10));
        // Another thread's data word lands over the first key's: the key no longer checks.
        let slot = &tt.buckets[tt.index(1)].0[0];
        slot.data.store(pack(&at(-10), 0), Ordering::Relaxed);
        assert!(tt.probe(1, 0).is_none());
    }

    #[test]
    fn threads_storing_at_once_never_mix_entries() {
        // Two threads write and read the same few buckets; every hit must be an entry that
        // was stored for that key.
        let tt = TranspositionTable::new(1);
        let score_of = |key: u64| (key % 1000) as i32;
        let mismatches = std::sync::atomic::AtomicUsize::new(0);
        std::thread::scope(|s| {
            for thread in 0..2u64 {
                let (tt, mismatches) = (&tt, &mismatches);
                s.spawn(move || {
                    for i in 0..200_000u64 {
                        // Keys spread over the first buckets only, so that writes collide.
                        let key = (i * 7 + thread) % 64 + 1;
                        let entry = Entry {
                            best: None,
                            score: score_of(key),
                            depth: (i % 20) as i32,
                            bound: Bound::Lower,
                        };
                        tt.store(key, 0, entry);
                        let probed = (i * 13) % 64 + 1;
                        if let Some(e) = tt.probe(probed, 0)
                            && e.score != score_of(probed)
                        {
                            mismatches.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                });
            }
        });
        assert_eq!(mismatches.into_inner(), 0);
    }
}
