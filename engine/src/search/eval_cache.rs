//! The evaluation cache: static evaluations of recently seen positions, keyed by their Zobrist
//! hash. The search meets the same positions again in every iteration and in re-searches; the
//! cache spares it the evaluation there. The evaluation (classical or network, whichever the
//! search uses; the cache is emptied when that changes) depends on the position alone, so a hit
//! returns exactly what the evaluation would.

/// How many positions the cache holds (a power of two): 1 MB.
const SLOTS: usize = 1 << 16;

/// A direct-mapped table of static evaluations.
pub struct EvalCache {
    /// `(hash, score)`; a slot whose hash does not match the position is a miss.
    slots: Vec<(u64, i32)>,
}

impl Default for EvalCache {
    fn default() -> Self {
        // Empty slots hold `i32::MIN`, a score the evaluation never returns, so that a position
        // whose hash happens to be 0 is not taken for a stored one.
        EvalCache { slots: vec![(0, i32::MIN); SLOTS] }
    }
}

impl EvalCache {
    /// The static evaluation stored for the position whose Zobrist hash is `hash`, from the
    /// side to move's point of view, if it is stored.
    pub fn probe(&self, hash: u64) -> Option<i32> {
        let slot = self.slots[hash as usize & (SLOTS - 1)];
        (slot.0 == hash && slot.1 != i32::MIN).then_some(slot.1)
    }

    /// Stores the static evaluation `score` of the position whose hash is `hash`.
    pub fn store(&mut self, hash: u64, score: i32) {
        self.slots[hash as usize & (SLOTS - 1)] = (hash, score);
    }

    /// Forgets every stored evaluation.
    pub fn clear(&mut self) {
        self.slots.fill((0, i32::MIN));
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{CastlingMode, Chess, fen::Fen};

    use super::*;
    use crate::eval::evaluate;
    use crate::search::position_hash;

    /// What the search does: the stored score, or the evaluation stored.
    fn get(cache: &mut EvalCache, pos: &Chess, hash: u64) -> i32 {
        cache.probe(hash).unwrap_or_else(|| {
            let score = evaluate(pos);
            cache.store(hash, score);
            score
        })
    }

    #[test]
    fn a_hit_returns_what_the_evaluation_returns() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "4k3/8/8/8/8/8/4P3/4KQ2 w - - 0 1",
        ];
        let mut cache = EvalCache::default();
        for _ in 0..2 {
            for fen in fens {
                let pos: Chess =
                    fen.parse::<Fen>().expect("FEN").into_position(CastlingMode::Standard).expect("legal");
                assert_eq!(get(&mut cache, &pos, position_hash(&pos)), evaluate(&pos), "{fen}");
            }
        }
    }

    #[test]
    fn positions_sharing_a_slot_do_not_share_a_score() {
        let a: Chess = Chess::default();
        let b: Chess = "4k3/8/8/8/8/8/4P3/4KQ2 w - - 0 1"
            .parse::<Fen>()
            .expect("FEN")
            .into_position(CastlingMode::Standard)
            .expect("legal");
        let mut cache = EvalCache::default();
        // Two keys with the same low bits land in one slot.
        let (ka, kb) = (0x1234_0000_0000_0007, 0x5678_0000_0000_0007);
        assert_eq!(get(&mut cache, &a, ka), evaluate(&a));
        assert_eq!(get(&mut cache, &b, kb), evaluate(&b));
        assert_eq!(get(&mut cache, &a, ka), evaluate(&a));
    }
}
