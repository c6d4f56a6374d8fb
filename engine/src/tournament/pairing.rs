//! Who plays whom: a round robin's schedule, a gauntlet's, and the seeding of a TCEC Cup style
//! knockout. Engines are numbered from 0 in the order given (for a knockout, by seed: 0 is the
//! first seed). Every encounter is a game pair: one opening, each engine playing it with White
//! once, back to back.

use serde::{Deserialize, Serialize};

/// One game of a schedule.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pairing {
    /// The round (from 0); in a round robin no engine plays twice in a round's pairs.
    pub round: usize,
    /// The engine with White.
    pub white: usize,
    /// The engine with Black.
    pub black: usize,
    /// The opening (from 0): each encounter of two engines gets its own, played from both sides.
    pub opening: usize,
}

/// Pushes the two games of a pair of `a` and `b` on `opening`, `a` with White first.
fn pair(games: &mut Vec<Pairing>, round: usize, a: usize, b: usize, opening: usize) {
    games.push(Pairing { round, white: a, black: b, opening });
    games.push(Pairing { round, white: b, black: a, opening });
}

/// A round robin of `engines`, repeated `cycles` times: every two engines meet once a cycle in a
/// game pair (two games, one opening, each engine with White once). The rounds follow the
/// Berger tables (the circle method), so in each round every engine plays one pair at most;
/// openings are numbered in the order the pairs are played. Fewer than two engines play nothing.
#[must_use]
pub fn round_robin(engines: usize, cycles: usize) -> Vec<Pairing> {
    if engines < 2 {
        return Vec::new();
    }
    // An odd field gets a dummy engine; whoever meets it sits the round out.
    let field = engines + engines % 2;
    let rounds = field - 1;
    let mut games = Vec::new();
    let mut opening = 0;
    for cycle in 0..cycles {
        for r in 0..rounds {
            // The circle method: the last engine stays put, the others turn one place a round.
            let seat = |i: usize| if i == field - 1 { field - 1 } else { (i + r) % (field - 1) };
            for i in 0..field / 2 {
                let (mut a, mut b) = (seat(i), seat(field - 1 - i));
                if a >= engines || b >= engines {
                    continue;
                }
                // Alternate who opens with White, so the fixed seat is not always first.
                if (r + i) % 2 == 1 {
                    std::mem::swap(&mut a, &mut b);
                }
                pair(&mut games, cycle * rounds + r, a, b, opening);
                opening += 1;
            }
        }
    }
    games
}

/// A gauntlet: engine 0 meets each other engine in `pairs` game pairs (each pair its own
/// opening, engine 0 with White first), one opponent per round.
#[must_use]
pub fn gauntlet(engines: usize, pairs: usize) -> Vec<Pairing> {
    let mut games = Vec::new();
    let mut opening = 0;
    for (round, opponent) in (1..engines).enumerate() {
        for _ in 0..pairs {
            pair(&mut games, round, 0, opponent, opening);
            opening += 1;
        }
    }
    games
}

/// One match of a knockout's first round: two seeds (from 0), or a seed with a bye.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct KnockoutMatch {
    /// The better seed.
    pub high: usize,
    /// The other seed, or `None` when the better seed goes through without playing.
    pub low: Option<usize>,
}

/// The first round of a knockout of `entrants` engines seeded 0, 1, 2, ... (0 the best), in
/// bracket order: the first seed meets the last, the second the second-to-last, and so on (TCEC
/// Cup rule 2c), and the winners of matches 2k and 2k + 1 meet in the next round, so that the two
/// best seeds can meet only in the final, the four best only from the semi-finals. A field that
/// is not a power of two gives the best seeds byes. Fewer than two entrants make no matches.
#[must_use]
pub fn knockout(entrants: usize) -> Vec<KnockoutMatch> {
    if entrants < 2 {
        return Vec::new();
    }
    let size = entrants.next_power_of_two();
    // Bracket order, built by doubling: each seed s of the smaller bracket is followed by its
    // opponent 2n − 1 − s of the bigger one.
    let mut order = vec![0usize];
    while order.len() < size {
        let n = order.len() * 2;
        order = order.iter().flat_map(|&s| [s, n - 1 - s]).collect();
    }
    order
        .chunks(2)
        .map(|m| KnockoutMatch { high: m[0].min(m[1]), low: Some(m[0].max(m[1])).filter(|&s| s < entrants) })
        .collect()
}

/// The next round of a knockout: the winners of a round's matches in bracket order, paired
/// 2k against 2k + 1. An odd winner out (there is none in a bracket from [`knockout`]) is left
/// out.
#[must_use]
pub fn next_round(winners: &[usize]) -> Vec<(usize, usize)> {
    winners.chunks_exact(2).map(|w| (w[0], w[1])).collect()
}

#[cfg(test)]
mod tests {
    use std::collections::{HashMap, HashSet};

    use super::*;

    #[test]
    fn a_round_robin_pairs_everyone_with_both_colours() {
        for engines in 2..=9 {
            let games = round_robin(engines, 2);
            assert_eq!(games.len(), engines * (engines - 1) * 2, "{engines} engines");
            // Every ordered pair plays once a cycle with White.
            let mut seen: HashMap<(usize, usize), usize> = HashMap::new();
            for g in &games {
                assert_ne!(g.white, g.black);
                *seen.entry((g.white, g.black)).or_default() += 1;
            }
            assert_eq!(seen.len(), engines * (engines - 1));
            assert!(seen.values().all(|&n| n == 2));
            // The two games of an opening are the same engines with colours reversed.
            for pair in games.chunks(2) {
                assert_eq!((pair[0].white, pair[0].black), (pair[1].black, pair[1].white));
                assert_eq!(pair[0].opening, pair[1].opening);
                assert_eq!(pair[0].round, pair[1].round);
            }
            let openings: HashSet<usize> = games.iter().map(|g| g.opening).collect();
            assert_eq!(openings.len(), games.len() / 2);
            // No engine plays two pairs in a round.
            let mut rounds: HashMap<usize, Vec<usize>> = HashMap::new();
            for pair in games.chunks(2) {
                rounds.entry(pair[0].round).or_default().extend([pair[0].white, pair[0].black]);
            }
            for (round, players) in rounds {
                let unique: HashSet<usize> = players.iter().copied().collect();
                assert_eq!(unique.len(), players.len(), "round {round} of {engines} engines");
            }
        }
        assert!(round_robin(1, 3).is_empty());
        assert!(round_robin(4, 0).is_empty());
    }

    #[test]
    fn a_gauntlet_pits_the_first_engine_against_the_others() {
        let games = gauntlet(4, 2);
        assert_eq!(games.len(), 3 * 2 * 2);
        assert!(games.iter().all(|g| (g.white == 0) != (g.black == 0)));
        let opponents: Vec<usize> = games.iter().map(|g| g.white.max(g.black)).collect();
        assert_eq!(opponents, [1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]);
        assert_eq!(games[0], Pairing { round: 0, white: 0, black: 1, opening: 0 });
        assert_eq!(games[1], Pairing { round: 0, white: 1, black: 0, opening: 0 });
        assert_eq!(games[2].opening, 1);
        assert!(gauntlet(1, 2).is_empty());
    }

    /// Plays a knockout where the better seed always wins; returns each round's pairings.
    fn favourites_win(entrants: usize) -> Vec<Vec<(usize, usize)>> {
        let first = knockout(entrants);
        let mut rounds = vec![first.iter().filter_map(|m| m.low.map(|l| (m.high, l))).collect::<Vec<_>>()];
        let mut winners: Vec<usize> = first.iter().map(|m| m.high).collect();
        while winners.len() > 1 {
            let round = next_round(&winners);
            winners = round.iter().map(|&(a, b)| a.min(b)).collect();
            rounds.push(round);
        }
        rounds
    }

    #[test]
    fn the_tcec_cup_seeds_one_against_thirty_two() {
        let first = knockout(32);
        assert_eq!(first.len(), 16);
        // Seed 1 meets seed 32, seed 2 meets seed 31, ... (0-based: 0 v 31, 1 v 30).
        for m in &first {
            assert_eq!(m.high + m.low.expect("no byes in 32"), 31);
        }
        assert_eq!(first[0], KnockoutMatch { high: 0, low: Some(31) });
        assert_eq!(first[1], KnockoutMatch { high: 15, low: Some(16) });
        let rounds = favourites_win(32);
        assert_eq!(rounds.len(), 5, "five matches to win the cup");
        assert_eq!(rounds[4], [(0, 1)], "seeds 1 and 2 meet in the final");
        let semis: HashSet<(usize, usize)> = rounds[3].iter().copied().collect();
        assert_eq!(semis, HashSet::from([(0, 3), (1, 2)]));
        let quarters: HashSet<usize> = rounds[2].iter().flat_map(|&(a, b)| [a, b]).collect();
        assert_eq!(quarters, (0..8).collect());
    }

    #[test]
    fn the_two_best_seeds_are_in_different_halves() {
        for entrants in 2..=64 {
            let first = knockout(entrants);
            let half = first.len() / 2;
            let side = |seed: usize| first.iter().position(|m| m.high == seed || m.low == Some(seed));
            let (one, two) = (side(0).expect("seed 1"), side(1).expect("seed 2"));
            if entrants > 2 {
                assert_ne!(one < half, two < half, "{entrants} entrants");
            }
            // Everyone is in the bracket exactly once, and byes go to the best seeds.
            let mut seeds: Vec<usize> = first.iter().flat_map(|m| [Some(m.high), m.low]).flatten().collect();
            seeds.sort_unstable();
            assert_eq!(seeds, (0..entrants).collect::<Vec<_>>());
            let mut byes: Vec<usize> = first.iter().filter(|m| m.low.is_none()).map(|m| m.high).collect();
            byes.sort_unstable();
            assert_eq!(byes, (0..entrants.next_power_of_two() - entrants).collect::<Vec<_>>());
        }
        let five = favourites_win(5);
        assert_eq!(five[0], [(3, 4)]);
        assert_eq!(five.last().expect("final"), &vec![(0, 1)]);
        assert!(knockout(1).is_empty());
    }
}
