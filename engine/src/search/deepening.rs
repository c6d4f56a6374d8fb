//! Iterative deepening: the main thread's, which searches every MultiPV line of each
//! iteration in an aspiration window and reports as it goes, and the Lazy SMP helpers', which
//! skip depths and search in silence.

use std::sync::atomic::Ordering;
use std::time::Duration;

use shakmaty::{Chess, Move, Position};

use super::node::Searcher;
use super::params::{
    ASPIRATION_GROWTH, ASPIRATION_MIN_DEPTH, ASPIRATION_WINDOW, INFINITY, MATE_BOUND, SCORE_DROP_MAX,
    SKIP_PHASE, SKIP_SIZE, STABILITY_PERCENT, TB_BOUND, TB_WIN,
};
use super::{legal_prefix, to_score};
use crate::network::Network;
use crate::{Score, ScoreBound, SearchInfo, SearchLimits, SyzygyTables};

/// The root of a search: the position, its hash and the moves to search there.
pub(super) struct Root<'a> {
    pub(super) pos: &'a Chess,
    pub(super) hash: u64,
    /// The legal moves, or those of them in `searchmoves`.
    pub(super) moves: &'a [Move],
    /// Whether `moves` leaves out legal moves.
    pub(super) restricted: bool,
    /// The Syzygy tables, if the engine has them.
    pub(super) tablebases: Option<&'a SyzygyTables>,
    /// The tables' score of the root, when they narrowed its moves.
    pub(super) tb_score: Option<i32>,
    /// What a draw is worth to the side to move at the root.
    pub(super) draw_score: i32,
    /// The evaluation network, when the search uses it.
    pub(super) network: Option<&'a Network>,
    /// Whether the search proves mates (`go mate`): see [`Searcher::proving`].
    pub(super) proving: bool,
}

impl<'a> Root<'a> {
    /// Gives a thread's searcher what the root decides for every node: the tables, the
    /// draw score and the evaluation.
    pub(super) fn rules<'n>(&self, node: &mut Searcher<'n>)
    where
        'a: 'n,
    {
        node.tablebases = self.tablebases;
        node.draw_score = self.draw_score;
        node.network = self.network;
        node.root_turn = self.pos.turn();
        node.proving = self.proving;
    }
}

/// What the main thread's iterative deepening chose.
pub(super) struct Played {
    pub(super) best: Option<Move>,
    pub(super) ponder: Option<Move>,
    /// The report of the last completed iteration's best line.
    pub(super) info: Option<SearchInfo>,
}

/// The main thread's iterative deepening: each iteration searches every MultiPV line, each
/// in an aspiration window, reporting as it goes, until the budget, the stop flag or a mate
/// within `limits.mate` ends it.
pub(super) fn deepen(node: &mut Searcher<'_>, root: &Root<'_>, limits: &SearchLimits) -> Played {
    let pos = root.pos;
    let multipv = (limits.multipv.unwrap_or(1).max(1) as usize).min(root.moves.len());
    let mut played = Played { best: None, ponder: None, info: None };
    // The score and line of each MultiPV line in the last completed iteration.
    let mut lines: Vec<(i32, Vec<Move>)> = Vec::new();
    // How many iterations in a row ended with the same best move.
    let mut stable = 0;
    'deepening: for depth in 1..=node.budget.depth {
        node.root_depth = depth;
        let mut found: Vec<(i32, Vec<Move>)> = Vec::with_capacity(multipv);
        for index in 0..multipv {
            node.root_moves = root
                .moves
                .iter()
                .copied()
                .filter(|m| found.iter().all(|(_, pv)| pv.first() != Some(m)))
                .collect();
            node.root_restricted = root.restricted || index > 0;
            node.seldepth = 0;
            let previous = lines.get(index);
            let failed = |node: &mut Searcher<'_>, score, bound| {
                // At a root the tables decide, a window's failure says nothing they do not.
                if root.tb_score.is_some() {
                    return;
                }
                let pv = match bound {
                    ScoreBound::Lower => legal_prefix(pos, &node.pv[0]),
                    ScoreBound::Upper => previous.map(|(_, pv)| pv.clone()).unwrap_or_default(),
                };
                let info = report(node, depth, index, score, Some(bound), pv);
                node.listener.info(&info);
            };
            let Some(score) = aspirate(node, root.pos, root.hash, depth, previous.map(|&(s, _)| s), failed)
            else {
                if index == 0
                    && let Some(&m) = node.pv[0].first()
                {
                    // A move that beat the window this iteration beats last one's best.
                    played.best = Some(m);
                    played.ponder = node.pv[0].get(1).copied();
                }
                break 'deepening;
            };
            let pv = legal_prefix(pos, &node.pv[0]);
            played.publish(node, root, depth, index, score, &pv);
            found.push((score, pv));
        }
        // A later line can end up better than an earlier one (the tables changed between
        // them): the lines are put in order, and reported again in it, as Stockfish does.
        if !found.is_sorted_by(|a, b| a.0 >= b.0) {
            found.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
            for (index, (score, pv)) in found.iter().enumerate() {
                played.publish(node, root, depth, index, *score, pv);
            }
        }
        let settled = match (lines.first(), found.first()) {
            (Some((score, pv)), Some((now, pv_now))) => {
                stable = if pv.first() == pv_now.first() { stable + 1 } else { 0 };
                let drop = (score - now).clamp(0, SCORE_DROP_MAX) as u32;
                STABILITY_PERCENT[stable.min(STABILITY_PERCENT.len() - 1)] * (100 + drop) / 100
            }
            _ => 100,
        };
        lines = found;
        let mated = played.info.as_ref().is_some_and(|info| {
            matches!((info.score, limits.mate), (Score::Mate(m), Some(n)) if m > 0 && m.unsigned_abs() <= n.max(1))
        });
        if mated
            || node.budget.soft_expired(settled)
            || node.out_of_nodes()
            || node.stop.load(Ordering::Relaxed)
        {
            break;
        }
    }
    played
}

impl Played {
    /// Reports line `index` (from 0) of `depth` with its exact `score` and `pv`; the first
    /// line's move becomes the move to play, and its report the last one.
    fn publish(
        &mut self,
        node: &mut Searcher<'_>,
        root: &Root<'_>,
        depth: u32,
        index: usize,
        score: i32,
        pv: &[Move],
    ) {
        let info = report(node, depth, index, shown_score(score, root.tb_score), None, pv.to_vec());
        node.listener.info(&info);
        if index == 0 {
            if let Some(&m) = pv.first() {
                self.best = Some(m);
                self.ponder = pv.get(1).copied();
            }
            self.info = Some(info);
        }
    }
}

/// A helper thread's iterative deepening (Lazy SMP): the whole root, one line, in silence,
/// skipping the depths [`SKIP_SIZE`] and [`SKIP_PHASE`] give helper `number` (from 1), until
/// the main thread is done (the helper's stop flag), the node limit is reached or the last
/// depth is searched. What it finds reaches the main thread through the transposition table.
pub(super) fn help(node: &mut Searcher<'_>, root: &Root<'_>, number: usize) {
    let k = (number - 1) % SKIP_SIZE.len();
    node.root_moves = root.moves.to_vec();
    node.root_restricted = root.restricted;
    let mut guess = None;
    for depth in 1..=node.budget.depth {
        if (depth + SKIP_PHASE[k]) / SKIP_SIZE[k] % 2 == 1 {
            continue;
        }
        node.root_depth = depth;
        node.seldepth = 0;
        guess = aspirate(node, root.pos, root.hash, depth, guess, |_, _, _| {});
        if guess.is_none() {
            break;
        }
    }
}

/// Searches the root to `depth` in an aspiration window around `guess` (the line's score
/// in the last iteration), widening the window on the failing side until the score falls
/// inside it; `failed` hears of each failure with the score and its bound. `None` when the
/// search was aborted.
fn aspirate(
    node: &mut Searcher<'_>,
    pos: &Chess,
    hash: u64,
    depth: u32,
    guess: Option<i32>,
    mut failed: impl FnMut(&mut Searcher<'_>, i32, ScoreBound),
) -> Option<i32> {
    let mut delta = ASPIRATION_WINDOW;
    let (mut alpha, mut beta) = match guess {
        Some(score) if depth >= ASPIRATION_MIN_DEPTH && score.abs() < MATE_BOUND => {
            ((score - delta).max(-INFINITY), (score + delta).min(INFINITY))
        }
        _ => (-INFINITY, INFINITY),
    };
    loop {
        let score = node.negamax(pos, hash, depth as i32, alpha, beta, 0, false);
        if node.aborted {
            return None;
        }
        let bound = if score <= alpha {
            alpha = (score - delta).max(-INFINITY);
            ScoreBound::Upper
        } else if score >= beta {
            beta = (score + delta).min(INFINITY);
            ScoreBound::Lower
        } else {
            return Some(score);
        };
        delta = delta.saturating_mul(ASPIRATION_GROWTH);
        failed(node, score, bound);
    }
}

/// The report of line `index` (from 0) at `depth`.
fn report(
    node: &Searcher<'_>,
    depth: u32,
    index: usize,
    score: i32,
    bound: Option<ScoreBound>,
    pv: Vec<Move>,
) -> SearchInfo {
    let time = node.budget.elapsed();
    SearchInfo {
        depth,
        seldepth: node.seldepth.max(depth),
        multipv: index as u32 + 1,
        score: to_score(score),
        bound,
        nodes: node.total_nodes(),
        nps: nps(node.total_nodes(), time),
        time,
        hashfull: node.tt.hashfull(),
        tbhits: node.tb_hits,
        pv,
    }
}

/// The score of a root the tables cover, by its value under the fifty-move rule.
pub(super) fn tb_score(wdl: shakmaty_syzygy::Wdl) -> i32 {
    use shakmaty_syzygy::Wdl;
    match wdl {
        Wdl::Win => TB_WIN - 1,
        Wdl::Loss => -TB_WIN + 1,
        other => other.signum(),
    }
}

/// The score reported for a line: the tables' value of the root, when they cover it, unless
/// the search found a mate or a tablebase value of its own.
fn shown_score(score: i32, root_tb_score: Option<i32>) -> i32 {
    match root_tb_score {
        Some(tb) if score.abs() < TB_BOUND => tb,
        _ => score,
    }
}

/// Nodes per second, zero for no time.
fn nps(nodes: u64, time: Duration) -> u64 {
    let micros = time.as_micros().max(1);
    u64::try_from(u128::from(nodes) * 1_000_000 / micros).unwrap_or(u64::MAX)
}
