//! The network's accumulators along the current line of one search thread, one per ply,
//! updated lazily: a node's accumulator is only computed when its position is evaluated, from
//! the nearest ancestor's on the line by the moves played since (a null move changes nothing),
//! or from scratch when no ancestor has one.

use shakmaty::{Chess, Move, Position};

use super::params::MAX_PLY;
use crate::network::{Accumulator, Network};

/// One accumulator per ply of the current line, and whether it holds that ply's position.
#[derive(Default)]
pub struct AccumulatorStack {
    accumulators: Vec<Accumulator>,
    valid: Vec<bool>,
    /// The hidden size the accumulators are made for.
    hidden: usize,
}

impl AccumulatorStack {
    /// Forgets the accumulator of `ply`: a new position is searched there.
    pub fn invalidate(&mut self, ply: usize) {
        if let Some(v) = self.valid.get_mut(ply) {
            *v = false;
        }
    }

    /// Computes the root's accumulator from `pos`, the root position, so that every later
    /// accumulator of the search follows from an ancestor's by a few moves: without it, a root
    /// whose evaluation was cached leaves the nodes below it to be computed from scratch.
    pub fn set_root(&mut self, net: &Network, pos: &Chess) {
        self.allocate(net, 0);
        net.refresh(pos.board(), &mut self.accumulators[0]);
        self.valid[0] = true;
    }

    /// Makes room for `ply`'s accumulator, of `net`'s hidden size.
    fn allocate(&mut self, net: &Network, ply: usize) {
        if self.hidden != net.hidden() || self.accumulators.len() <= ply {
            self.hidden = net.hidden();
            self.accumulators = (0..=MAX_PLY.max(ply)).map(|_| Accumulator::new(net.hidden())).collect();
            self.valid = vec![false; self.accumulators.len()];
        }
    }

    /// The network's evaluation of `pos`, which is `ply` plies from the root, reached by
    /// `line[..ply]` (each move played by the side to move at its ply; `None` a null move).
    pub fn evaluate(&mut self, net: &Network, pos: &Chess, line: &[Option<Move>], ply: usize) -> i32 {
        self.allocate(net, ply);
        let mut base = ply;
        while !self.valid[base] && base > 0 {
            base -= 1;
        }
        if self.valid[base] {
            // The side to move at `base`: the one at `ply`, or the other after an odd number
            // of plies.
            let mut mover = if (ply - base).is_multiple_of(2) { pos.turn() } else { !pos.turn() };
            for p in base..ply {
                let (done, rest) = self.accumulators.split_at_mut(p + 1);
                let (parent, child) = (&done[p], &mut rest[0]);
                let followed = match line[p] {
                    Some(m) => net.update(parent, child, mover, m),
                    None => {
                        child.clone_from(parent);
                        true
                    }
                };
                if !followed {
                    break;
                }
                self.valid[p + 1] = true;
                mover = !mover;
            }
        }
        if !self.valid[ply] {
            net.refresh(pos.board(), &mut self.accumulators[ply]);
            self.valid[ply] = true;
        }
        let score = net.output(&self.accumulators[ply], pos);
        debug_assert_eq!(score, net.evaluate(pos), "the incremental accumulator went astray");
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::KING_BUCKETS;
    use crate::network::tests::random_bytes_with_kings;
    use shakmaty::uci::UciMove;

    #[test]
    fn a_line_through_king_moves_evaluates_as_from_scratch_at_every_ply() {
        let nets = [1, KING_BUCKETS].map(|kings| {
            Network::from_bytes(&random_bytes_with_kings(32, Some(4), kings)).expect("a well-formed network")
        });
        // Both sides castle (into another king bucket), then step aside (within it), with a
        // null move in between.
        let moves = [
            "e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1", "f8c5", "", "e8g8", "d2d3", "g8h8",
            "g1h1",
        ];
        for net in &nets {
            let mut stack = AccumulatorStack::default();
            let mut pos = Chess::default();
            let mut line = vec![None; moves.len()];
            let mut positions = vec![pos.clone()];
            for (ply, uci) in moves.iter().enumerate() {
                if uci.is_empty() {
                    pos = pos.clone().swap_turn().expect("a legal null move");
                } else {
                    let m = uci.parse::<UciMove>().expect("uci").to_move(&pos).expect("legal");
                    line[ply] = Some(m);
                    pos.play_unchecked(m);
                }
                positions.push(pos.clone());
            }
            // Evaluated at every ply, then at every third only, so that updates run over
            // several plies from the nearest evaluated one.
            for step in [1, 3] {
                stack.set_root(net, &positions[0]);
                for ply in (1..positions.len()).step_by(step) {
                    for later in ply..positions.len() {
                        stack.invalidate(later);
                    }
                    let score = stack.evaluate(net, &positions[ply], &line, ply);
                    assert_eq!(
                        score,
                        net.evaluate(&positions[ply]),
                        "{} kings, ply {ply}",
                        net.king_buckets()
                    );
                }
            }
        }
    }
}
