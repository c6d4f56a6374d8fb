//! A member of the population: its values over the genome, and where it came from.

use serde::{Deserialize, Serialize};

/// How a member came to be.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Origin {
    /// One of the first population.
    Initial,
    /// An exact copy of a winner.
    Clone {
        /// The member copied.
        of: u64,
    },
    /// A copy of a member that agreed to a draw, mutated.
    MutatedClone {
        /// The member copied.
        of: u64,
    },
    /// The child of the two players of a game (crossover, then mutation).
    Offspring {
        /// The parents, White first.
        of: [u64; 2],
    },
}

/// One member of the population.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Member {
    /// Its number, unique within the run.
    pub id: u64,
    /// The generation it was made in (0: the first population).
    pub born: u32,
    /// How it was made.
    pub origin: Origin,
    /// Its values over the run's genome, in the genome's order.
    pub values: Vec<i64>,
}
