//! The pairing of a generation: the population shuffled with the generation's random number
//! generator and taken two by two, the first of each two playing White. Every member plays
//! one game a generation.

use rand::Rng;
use rand::seq::SliceRandom;

/// Pairs `count` members (an even number; a last odd one sits out): pairs of indices, White
/// first.
#[must_use]
pub fn pair(count: usize, rng: &mut impl Rng) -> Vec<(usize, usize)> {
    let mut order: Vec<usize> = (0..count).collect();
    order.shuffle(rng);
    order.chunks_exact(2).map(|two| (two[0], two[1])).collect()
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    use super::*;

    #[test]
    fn everyone_plays_once_and_the_seed_decides() {
        let pairs = pair(16, &mut StdRng::seed_from_u64(5));
        assert_eq!(pairs.len(), 8);
        let mut seen: Vec<usize> = pairs.iter().flat_map(|&(a, b)| [a, b]).collect();
        seen.sort_unstable();
        assert_eq!(seen, (0..16).collect::<Vec<_>>());
        assert_eq!(pairs, pair(16, &mut StdRng::seed_from_u64(5)));
        assert_ne!(pairs, pair(16, &mut StdRng::seed_from_u64(6)));
        assert_eq!(pair(5, &mut StdRng::seed_from_u64(1)).len(), 2);
    }
}
