//! The operators that make new members, with a seeded random number generator.
//!
//! - Mutation adds to every value a Gaussian step of standard deviation `sigma` times the
//!   width of the parameter's range (so every parameter moves by the same share of its
//!   range), rounded to a whole number and clamped into the range.
//! - Mating makes a child of two members: [`Crossover::Uniform`] takes each value from
//!   either parent with probability 1/2; [`Crossover::Average`] takes the parents' mean,
//!   rounded half of the time up and half down. The child is then mutated.

use rand::Rng;
use serde::{Deserialize, Serialize};

use super::Genome;

/// How mating combines two parents.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Crossover {
    /// Each value from either parent with probability 1/2.
    Uniform,
    /// The mean of the parents' values.
    Average,
}

/// The mutation's step and the mating's crossover.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Variation {
    /// The standard deviation of a mutation's step, as a share of each parameter's range.
    pub sigma: f64,
    /// How mating combines the parents.
    pub crossover: Crossover,
}

impl Default for Variation {
    fn default() -> Self {
        Variation { sigma: 0.05, crossover: Crossover::Uniform }
    }
}

/// A standard normal number (Box and Muller).
fn standard_normal(rng: &mut impl Rng) -> f64 {
    let u: f64 = 1.0 - rng.random::<f64>(); // in (0, 1], so the logarithm is finite
    let v: f64 = rng.random();
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

impl Variation {
    /// `values` with a Gaussian step of `sigma` times its range's width added to each, rounded
    /// and clamped into the range.
    #[must_use]
    pub fn mutate(&self, genome: &Genome, values: &[i64], rng: &mut impl Rng) -> Vec<i64> {
        self.mutate_by(self.sigma, genome, values, rng)
    }

    /// [`mutate`](Variation::mutate) with another `sigma` (the first population's spread).
    #[must_use]
    pub fn mutate_by(&self, sigma: f64, genome: &Genome, values: &[i64], rng: &mut impl Rng) -> Vec<i64> {
        genome
            .parameters()
            .iter()
            .zip(values)
            .map(|(p, &v)| {
                let width = (p.max - p.min) as f64;
                let step = (standard_normal(rng) * sigma * width).round() as i64;
                v.saturating_add(step).clamp(p.min, p.max)
            })
            .collect()
    }

    /// The crossover of `a` and `b`, before mutation.
    #[must_use]
    pub fn cross(&self, a: &[i64], b: &[i64], rng: &mut impl Rng) -> Vec<i64> {
        a.iter()
            .zip(b)
            .map(|(&x, &y)| match self.crossover {
                Crossover::Uniform => {
                    if rng.random::<bool>() {
                        x
                    } else {
                        y
                    }
                }
                Crossover::Average => {
                    let sum = x + y;
                    if sum.rem_euclid(2) == 0 || rng.random::<bool>() {
                        sum.div_euclid(2)
                    } else {
                        sum.div_euclid(2) + 1
                    }
                }
            })
            .collect()
    }

    /// A child of `a` and `b`: their crossover, mutated.
    #[must_use]
    pub fn mate(&self, genome: &Genome, a: &[i64], b: &[i64], rng: &mut impl Rng) -> Vec<i64> {
        let child = self.cross(a, b, rng);
        self.mutate(genome, &child, rng)
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    use super::*;
    use crate::policy::Rules;

    #[test]
    fn mutation_stays_within_the_ranges_and_moves_by_a_share_of_them() {
        let genome = Genome::for_rules(Rules::DeadBand);
        let mut rng = StdRng::seed_from_u64(7);
        let wild = Variation { sigma: 0.5, ..Variation::default() };
        let corners = [vec![0, 0, 0], vec![1000, 100, 100_000]];
        let mut moved = 0;
        for _ in 0..500 {
            for start in &corners {
                let child = wild.mutate(&genome, start, &mut rng);
                for (p, v) in genome.parameters().iter().zip(&child) {
                    assert!(p.range().contains(v), "{} = {v}", p.name);
                }
                moved += usize::from(child != *start);
            }
        }
        // At a corner a value stays put when its step points out of the range (1/2), so all
        // three stay put one time in eight.
        assert!((820..930).contains(&moved), "7/8 of 1000 mutations move a value: {moved}");
        let calm = Variation { sigma: 0.01, ..Variation::default() };
        let steps: Vec<i64> =
            (0..2000).map(|_| calm.mutate(&genome, &[500, 50, 50_000], &mut rng)[2] - 50_000).collect();
        let sd = (steps.iter().map(|s| (s * s) as f64).sum::<f64>() / steps.len() as f64).sqrt();
        assert!((800.0..1200.0).contains(&sd), "1% of the threshold's range is 1000, not {sd}");
        assert_eq!(Variation { sigma: 0.0, ..calm }.mutate(&genome, &[3, 4, 5], &mut rng), [3, 4, 5]);
    }

    #[test]
    fn uniform_crossover_takes_each_value_from_a_parent() {
        let mut rng = StdRng::seed_from_u64(1);
        let uniform = Variation::default();
        let (a, b) = (vec![1, 2, 3, 4, 5, 6, 7, 8], vec![10, 20, 30, 40, 50, 60, 70, 80]);
        let mut from_a = 0;
        for _ in 0..200 {
            let child = uniform.cross(&a, &b, &mut rng);
            for i in 0..a.len() {
                assert!(child[i] == a[i] || child[i] == b[i]);
                from_a += usize::from(child[i] == a[i]);
            }
        }
        assert!((650..950).contains(&from_a), "about half of 1600 from each parent: {from_a}");
    }

    #[test]
    fn averaging_takes_the_mean_rounded_either_way() {
        let mut rng = StdRng::seed_from_u64(2);
        let average = Variation { crossover: Crossover::Average, ..Variation::default() };
        assert_eq!(average.cross(&[10, -4], &[20, 4], &mut rng), [15, 0]);
        let odd: Vec<i64> = (0..100).map(|_| average.cross(&[1], &[2], &mut rng)[0]).collect();
        assert!(odd.iter().all(|&v| v == 1 || v == 2));
        assert!(odd.contains(&1) && odd.contains(&2), "rounded both ways");
    }
}
