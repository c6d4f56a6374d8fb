//! Perft: counting the leaf nodes of the legal move tree, to check move generation.

use shakmaty::{Chess, Move, Position};

/// The number of legal move sequences of length `depth` from `pos`. The last ply is
/// counted in bulk: at depth 1 the result is the number of legal moves.
///
/// ```
/// use kibitz_engine::perft;
/// assert_eq!(perft(&shakmaty::Chess::default(), 3), 8_902);
/// ```
#[must_use]
pub fn perft(pos: &Chess, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.legal_moves().len() as u64,
        _ => pos
            .legal_moves()
            .iter()
            .map(|&m| {
                let mut child = pos.clone();
                child.play_unchecked(m);
                perft(&child, depth - 1)
            })
            .sum(),
    }
}

/// Perft split by the first move: each legal move with the count below it.
#[must_use]
pub fn divide(pos: &Chess, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            (m, perft(&child, depth - 1))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_counts() {
        let start = Chess::default();
        assert_eq!(perft(&start, 0), 1);
        assert_eq!(perft(&start, 1), 20);
        assert_eq!(perft(&start, 2), 400);
        assert_eq!(perft(&start, 3), 8_902);
    }

    #[test]
    fn divide_sums_to_perft() {
        let start = Chess::default();
        let split = divide(&start, 3);
        assert_eq!(split.len(), 20);
        assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), 8_902);
    }
}
