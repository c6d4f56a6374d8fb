//! The recursive part of the search: negamax alpha-beta with principal variation search,
//! and quiescence search.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, FromSetup, Move, Position, Role};
use shakmaty_syzygy::Wdl;

use super::accumulators::AccumulatorStack;
use super::check::Checks;
use super::correction::{CorrectionHistory, Keys, teaches};
use super::eval_cache::EvalCache;
use super::generation::is_legal_out_of_check;
use super::ordering::{Lineage, OrderingTables, is_tactical, loses_material};
use super::params::{
    CURRMOVE_AFTER, DELTA_MARGIN, FUTILITY_BASE, FUTILITY_MARGIN, FUTILITY_MAX_DEPTH, IIR_MIN_DEPTH,
    LMP_BASE, LMP_MAX_DEPTH, LMR_HISTORY_DIVISOR, LMR_MIN_DEPTH, MATE, MATE_BOUND, MAX_PLY,
    NODE_TALLY_INTERVAL, NULL_MOVE_DEPTH_DIVISOR, NULL_MOVE_MARGIN_DIVISOR, NULL_MOVE_MARGIN_MAX,
    NULL_MOVE_MIN_DEPTH, NULL_MOVE_REDUCTION, RFP_MARGIN, RFP_MAX_DEPTH, SEE_CAPTURE_MARGIN,
    SEE_PRUNE_MAX_DEPTH, SEE_QUIET_MARGIN, SEE_VALUES, SINGULAR_DEPTH_MARGIN, SINGULAR_MARGIN,
    SINGULAR_MIN_DEPTH, TB_BOUND, TB_DEPTH_BONUS, TB_WIN, TIME_CHECK_INTERVAL, lmr_reduction,
};
use super::picker::MovePicker;
use super::see::see;
use super::time::Budget;
use super::tt::{Bound, Entry, TranspositionTable};
use super::{Listener, ThreadTables, position_hash};
use crate::SyzygyTables;
use crate::eval::evaluate;
use crate::network::Network;

/// The state of one thread of one running search.
pub struct Searcher<'a> {
    /// The transposition table, shared with the other threads and with later searches.
    pub tt: &'a TranspositionTable,
    /// Killers and history, this thread's, kept for later searches.
    pub ordering: &'a mut OrderingTables,
    /// How far the evaluation missed in this game, this thread's, kept for later searches.
    pub correction: &'a mut CorrectionHistory,
    /// Static evaluations of positions seen before, this thread's, kept for later searches.
    pub eval_cache: &'a mut EvalCache,
    /// The evaluation network, when the search uses it instead of the classical evaluation.
    pub network: Option<&'a Network>,
    /// The network's accumulators along the current line, this thread's.
    pub accumulators: &'a mut AccumulatorStack,
    /// Set from outside to end the search.
    pub stop: &'a AtomicBool,
    /// The limits of this search.
    pub budget: &'a Budget<'a>,
    /// Nodes visited so far by this thread.
    pub nodes: u64,
    /// The nodes of every thread of the search, as each last added its own.
    pub tally: &'a AtomicU64,
    /// The part of `nodes` added to the tally.
    published: u64,
    /// The deepest ply reached in the current iteration.
    pub seldepth: u32,
    /// Set once the search ran out of time or nodes or was stopped; its results are void.
    pub aborted: bool,
    /// Hashes of the game's positions and of the current line, the current node last.
    pub path: Vec<u64>,
    /// The triangular principal variation table: `pv[ply]` is the best line from `ply`.
    pub pv: Vec<Vec<Move>>,
    /// The root moves to search (legal moves minus excluded MultiPV lines and moves
    /// outside `searchmoves`).
    pub root_moves: Vec<Move>,
    /// Whether `root_moves` leaves out legal moves: then the root result is not the
    /// position's value and is not stored.
    pub root_restricted: bool,
    /// The depth of the current iteration, for `currmove` reports.
    pub root_depth: u32,
    /// Where progress goes.
    pub listener: &'a mut dyn Listener,
    /// The move played at each ply of the current line (`None` for a null move).
    pub line: Vec<Option<Move>>,
    /// The static evaluation at each ply of the current line (`-MATE` when in check).
    pub evals: Vec<i32>,
    /// A move picker per ply, reused so that nodes allocate nothing.
    pub pickers: Vec<MovePicker>,
    /// The quiet moves searched so far at each ply, reused like `pickers`.
    pub quiets: Vec<Vec<Move>>,
    /// The Syzygy tables, if the engine has them.
    pub tablebases: Option<&'a SyzygyTables>,
    /// Tablebase probes that gave a value.
    pub tb_hits: u64,
    /// What a draw is worth to the side to move at the root (Crafty's `drawscore`): the
    /// opponent sees the opposite.
    pub draw_score: i32,
    /// The side to move at the root.
    pub root_turn: shakmaty::Color,
    /// Whether the search proves mates (`go mate`): it prunes and reduces nothing and trusts
    /// only the table entries it wrote itself, so that a search `2 × N − 1` plies deep finds
    /// every mate in `N` moves, whatever the table held and whatever the other threads do.
    pub proving: bool,
    /// The move a singular-extension search at each ply leaves out (its table move), set by
    /// the node that asks for that search and taken by the search it starts.
    pub excluded: Vec<Option<Move>>,
}

impl<'a> Searcher<'a> {
    /// A searcher at the root, which is `path`'s last position, for one thread with its
    /// `tables`, reporting to `listener`.
    pub fn new(
        tt: &'a TranspositionTable,
        tables: &'a mut ThreadTables,
        stop: &'a AtomicBool,
        budget: &'a Budget<'a>,
        tally: &'a AtomicU64,
        listener: &'a mut dyn Listener,
        path: Vec<u64>,
    ) -> Searcher<'a> {
        Searcher {
            tt,
            ordering: &mut tables.ordering,
            correction: &mut tables.correction,
            eval_cache: &mut tables.eval_cache,
            network: None,
            accumulators: &mut tables.accumulators,
            stop,
            budget,
            nodes: 0,
            tally,
            published: 0,
            seldepth: 0,
            aborted: false,
            path,
            pv: vec![Vec::new(); MAX_PLY + 1],
            root_moves: Vec::new(),
            root_restricted: false,
            root_depth: 0,
            listener,
            line: vec![None; MAX_PLY + 1],
            evals: vec![0; MAX_PLY + 1],
            pickers: (0..=MAX_PLY).map(|_| MovePicker::default()).collect(),
            quiets: vec![Vec::new(); MAX_PLY + 1],
            tablebases: None,
            tb_hits: 0,
            draw_score: 0,
            root_turn: shakmaty::Color::White,
            proving: false,
            excluded: vec![None; MAX_PLY + 1],
        }
    }

    /// The nodes of the search so far, over all threads: the tally and this thread's nodes
    /// not added to it yet (on one thread, exactly `nodes`).
    pub fn total_nodes(&self) -> u64 {
        self.tally.load(Ordering::Relaxed) + (self.nodes - self.published)
    }

    /// Whether the node budget is spent.
    pub fn out_of_nodes(&self) -> bool {
        self.budget.nodes.is_some_and(|limit| self.total_nodes() >= limit)
    }

    /// Adds the nodes not added yet to the tally.
    pub fn publish(&mut self) {
        self.tally.fetch_add(self.nodes - self.published, Ordering::Relaxed);
        self.published = self.nodes;
    }

    /// Counts a node and decides whether the search must end now.
    fn visit(&mut self, ply: usize) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes.is_multiple_of(NODE_TALLY_INTERVAL) {
            self.publish();
        }
        if self.stop.load(Ordering::Relaxed)
            || self.out_of_nodes()
            || (self.nodes.is_multiple_of(TIME_CHECK_INTERVAL) && self.budget.hard_expired())
        {
            self.aborted = true;
            return true;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply as u32);
        false
    }

    /// The static evaluation of `pos` (whose hash is `hash`, `ply` plies from the root) for
    /// its side to move: the network's when the search has one, else the classical one.
    fn static_eval(&mut self, pos: &Chess, hash: u64, ply: usize) -> i32 {
        if let Some(score) = self.eval_cache.probe(hash) {
            return score;
        }
        let score = match self.network {
            Some(net) => self.accumulators.evaluate(net, pos, &self.line, ply),
            None => evaluate(pos),
        };
        self.eval_cache.store(hash, score);
        score
    }

    /// The static evaluation of `pos` (hash `hash`, `ply` plies from the root, `keys` its
    /// correction keys) with the correction history's correction, kept below every
    /// tablebase and mate score.
    fn corrected_eval(&mut self, pos: &Chess, hash: u64, ply: usize, keys: Keys) -> i32 {
        let raw = self.static_eval(pos, hash, ply);
        (raw + self.correction.correction(pos.turn(), keys)).clamp(1 - TB_BOUND, TB_BOUND - 1)
    }

    /// The table's entry for `hash`, `ply` plies from the root: when proving, only one this
    /// search wrote.
    fn probe(&self, hash: u64, ply: usize) -> Option<Entry> {
        if self.proving { self.tt.probe_current(hash, ply) } else { self.tt.probe(hash, ply) }
    }

    /// The score of a draw in `pos`, for its side to move.
    fn draw(&self, pos: &Chess) -> i32 {
        if pos.turn() == self.root_turn { self.draw_score } else { -self.draw_score }
    }

    /// Whether the current node (the last entry of `path`, `ply` plies from the root) is a
    /// draw by repetition since the last irreversible move: it repeats a position met after
    /// the root (the side that chose to repeat can repeat again), or it occurs for the third
    /// time. A position the game met once before the root is not yet a draw: the opponent
    /// may still avoid the third time (Stockfish draws so too).
    fn is_repetition(&self, halfmoves: u32, ply: usize) -> bool {
        let last = self.path.len() - 1;
        let current = self.path[last];
        let window = (halfmoves as usize).min(last);
        let mut earlier = (4..=window).step_by(2).filter(|&back| self.path[last - back] == current);
        match earlier.next() {
            Some(back) if back < ply => true,
            Some(_) => earlier.next().is_some(),
            None => false,
        }
    }

    /// Whether a node `ply` plies from the root, whose best score so far is `best_score`,
    /// may skip moves that are not checks: not at the root, not when proving mates, not in
    /// check, and only once one line guards against mate.
    fn prunes(&self, ply: usize, best_score: i32, in_check: bool) -> bool {
        ply > 0 && !self.proving && best_score > -MATE_BOUND && !in_check
    }

    /// Alpha-beta search of `pos` (whose hash is `hash` and which is `path`'s last entry) to
    /// `depth` plies, `ply` plies from the root.
    #[allow(clippy::too_many_arguments)]
    pub fn negamax(
        &mut self,
        pos: &Chess,
        hash: u64,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        null_before: bool,
    ) -> i32 {
        self.pv[ply].clear();
        // Set when this is the search without the table's move that singular extensions ask
        // for: it trusts no table entry of the node and writes none.
        let excluded = self.excluded[ply].take();
        match self.network {
            Some(net) if ply == 0 => self.accumulators.set_root(net, pos),
            _ => self.accumulators.invalidate(ply),
        }
        if self.visit(ply) {
            return 0;
        }
        let in_check = pos.is_check();
        if ply > 0 {
            if self.is_repetition(pos.halfmoves(), ply) || pos.is_insufficient_material() {
                return self.draw(pos);
            }
            if pos.halfmoves() >= 100 {
                return if in_check && pos.legal_moves().is_empty() {
                    -MATE + ply as i32
                } else {
                    self.draw(pos)
                };
            }
            // Mate distance pruning: no line from here beats a mate found closer to the root.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        if ply >= MAX_PLY - 1 {
            return self.static_eval(pos, hash, ply);
        }
        if depth <= 0 {
            return self.quiescence(pos, hash, alpha, beta, ply, true);
        }

        let pv_node = beta - alpha > 1;
        let entry = if excluded.is_some() { None } else { self.probe(hash, ply) };
        if let Some(entry) = entry
            && !pv_node
            && entry.depth >= depth
        {
            let usable = match entry.bound {
                Bound::Exact => true,
                Bound::Lower => entry.score >= beta,
                Bound::Upper => entry.score <= alpha,
            };
            if usable {
                return entry.score;
            }
        }

        if ply > 0
            && excluded.is_none()
            && let Some(tables) = self.tablebases
            && let Some(wdl) = tables.probe_search(pos)
        {
            self.tb_hits += 1;
            let (score, bound) = match wdl {
                Wdl::Win => (TB_WIN - ply as i32, Bound::Lower),
                Wdl::Loss => (-TB_WIN + ply as i32, Bound::Upper),
                // A win or loss that the fifty-move rule turns into a draw is still a draw,
                // a hair better or worse than a dead one.
                other => (other.signum(), Bound::Exact),
            };
            let cuts = match bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if cuts {
                let depth = (depth + TB_DEPTH_BONUS).min(MAX_PLY as i32);
                self.tt.store(hash, ply, Entry { best: None, score, depth, bound });
                return score;
            }
        }

        let keys = (!in_check).then(|| Keys::of(pos));
        let eval = match keys {
            Some(keys) => self.corrected_eval(pos, hash, ply, keys),
            None => -MATE,
        };
        self.evals[ply] = eval;
        // Whether the position got better for the side to move over its last move.
        let improving = !in_check && ply >= 2 && eval > self.evals[ply - 2];
        // A transposition table score that bounds the position on the evaluation's far side
        // is a better guess of its value than the evaluation, for the pruning below.
        let static_eval = match entry {
            Some(e) if !in_check && e.score.abs() < MATE_BOUND => match e.bound {
                Bound::Exact => e.score,
                Bound::Lower => eval.max(e.score),
                Bound::Upper => eval.min(e.score),
            },
            _ => eval,
        };
        // Reverse futility: far enough above beta that a shallow search will not fall below.
        if !pv_node
            && !self.proving
            && !in_check
            && ply > 0
            && excluded.is_none()
            && depth <= RFP_MAX_DEPTH
            && beta.abs() < MATE_BOUND
            && static_eval - RFP_MARGIN * (depth - i32::from(improving)) >= beta
        {
            return static_eval;
        }

        if !pv_node
            && !self.proving
            && !in_check
            && !null_before
            && ply > 0
            && excluded.is_none()
            && depth >= NULL_MOVE_MIN_DEPTH
            && has_pieces(pos)
            && static_eval >= beta
            && let Some(null) = null_move(pos)
        {
            let reduction = NULL_MOVE_REDUCTION
                + depth / NULL_MOVE_DEPTH_DIVISOR
                + ((static_eval - beta) / NULL_MOVE_MARGIN_DIVISOR).min(NULL_MOVE_MARGIN_MAX);
            let null_hash = position_hash(&null);
            self.path.push(null_hash);
            self.line[ply] = None;
            let score =
                -self.negamax(&null, null_hash, depth - 1 - reduction, -beta, -beta + 1, ply + 1, true);
            self.path.pop();
            if self.aborted {
                return 0;
            }
            if score >= beta {
                // Do not trust a mate found behind a null move.
                return if score > MATE_BOUND { beta } else { score };
            }
        }

        let tt_move = entry.and_then(|e| e.best).filter(|&m| {
            let legal = if in_check { pos.is_legal(m) } else { is_legal_out_of_check(pos, m) };
            legal && (ply > 0 || self.root_moves.contains(&m))
        });
        if tt_move.is_none() && depth >= IIR_MIN_DEPTH && !self.proving && excluded.is_none() {
            depth -= 1;
        }
        // Singular extensions: a table move that a bound from nearly as deep puts well above
        // every other move (a shallower search without it fails low) is searched a ply deeper;
        // if the others too reach beta, the node is cut (multi-cut); if the table's bound alone
        // reaches beta, the table move is searched a ply shallower.
        let mut extension = 0;
        if let (Some(m), Some(e)) = (tt_move, entry)
            && ply > 0
            && !self.proving
            && depth >= SINGULAR_MIN_DEPTH
            && e.bound != Bound::Upper
            && e.depth >= depth - SINGULAR_DEPTH_MARGIN
            && e.score.abs() < TB_WIN - MAX_PLY as i32
            && ply < 2 * self.root_depth as usize
        {
            let singular_beta = e.score - SINGULAR_MARGIN * depth;
            self.excluded[ply] = Some(m);
            let score =
                self.negamax(pos, hash, (depth - 1) / 2, singular_beta - 1, singular_beta, ply, null_before);
            if self.aborted {
                return 0;
            }
            if score < singular_beta {
                extension = 1;
            } else if singular_beta >= beta {
                return singular_beta;
            } else if e.score >= beta {
                extension = -1;
            }
        }
        // The moves searched already: the table's, or the one a singular search leaves out.
        let skip = tt_move.or(excluded);

        let turn = pos.turn();
        let prev = if ply > 0 { self.line[ply - 1] } else { None };
        let lineage = Lineage { prev, prev2: if ply > 1 { self.line[ply - 2] } else { None } };
        let mut picker = std::mem::take(&mut self.pickers[ply]);
        // The transposition table's move is searched before the other moves are generated:
        // often it cuts off, and they never are. Out of check and away from the root, the
        // captures, killers and counter-move come next, and the other quiet moves are generated
        // only if none of them cuts off.
        picker.reset(tt_move);
        let mut stage = if !in_check && ply > 0 { Stage::Tactical } else { Stage::All };
        if tt_move.is_none() && stage == Stage::All {
            if !self.generate(&mut picker, pos, ply, excluded, lineage) {
                self.pickers[ply] = picker;
                return if in_check { -MATE + ply as i32 } else { self.draw(pos) };
            }
            stage = Stage::Done;
        }
        let mut refutations = [None; 3];
        let mut quiets_tried = std::mem::take(&mut self.quiets[ply]);
        quiets_tried.clear();
        let futile = !pv_node
            && !in_check
            && depth <= FUTILITY_MAX_DEPTH
            && alpha.abs() < MATE_BOUND
            && static_eval + FUTILITY_BASE + FUTILITY_MARGIN * depth <= alpha;
        let lmp_limit = (LMP_BASE + depth * depth) / if improving { 1 } else { 2 };
        let original_alpha = alpha;
        let mut best_score = -MATE - 1;
        let mut best_move = None;
        let mut searched = 0;
        let mut skip_quiets = false;
        // Which moves give check, worked out once the first move needs it.
        let mut node_checks = None;
        loop {
            let Some(m) = picker.next(self.ordering) else {
                match stage {
                    Stage::All => {
                        self.generate(&mut picker, pos, ply, skip, lineage);
                    }
                    Stage::Tactical => {
                        refutations = self.ordering.order_tactical(&mut picker, pos, ply, lineage, skip);
                    }
                    Stage::Quiets => {
                        // Once quiet moves are pruned, only the checks among them are searched;
                        // a futile node (below) prunes all the others, so it generates just these.
                        let prunes = self.prunes(ply, best_score, in_check);
                        let only = if skip_quiets || (futile && prunes) {
                            Some(&*node_checks.get_or_insert_with(|| Checks::new(pos)))
                        } else {
                            None
                        };
                        OrderingTables::order_quiets(&mut picker, pos, skip, refutations, only);
                    }
                    Stage::Done => break,
                }
                stage = stage.next();
                continue;
            };
            let quiet_move = !is_tactical(m);
            let node_checks = node_checks.get_or_insert_with(|| Checks::new(pos));
            let checks = node_checks.gives_check(pos, m);
            // Pruning of moves that are unlikely to matter, once one line guards against mate;
            // checks are always searched.
            if self.prunes(ply, best_score, in_check) && !checks {
                if quiet_move
                    && (skip_quiets
                        || futile
                        || (depth <= LMP_MAX_DEPTH && quiets_tried.len() as i32 >= lmp_limit))
                {
                    // Every later quiet move is skipped too, but a check: the picker drops
                    // them rather than score and hand them out.
                    if !skip_quiets {
                        skip_quiets = true;
                        picker.drop_quiets(|q| node_checks.gives_check(pos, q));
                    }
                    continue;
                }
                // Not in the principal variation: a quiet sacrifice there may be the whole
                // point (WAC.191's mate was lost to it once earlier searches had reordered
                // the quiet moves).
                if depth <= SEE_PRUNE_MAX_DEPTH && !pv_node {
                    let threshold = if quiet_move {
                        -SEE_QUIET_MARGIN * depth * depth
                    } else {
                        -SEE_CAPTURE_MARGIN * depth
                    };
                    if see(pos, m) < threshold {
                        continue;
                    }
                }
            }
            if ply == 0 && self.budget.elapsed() >= CURRMOVE_AFTER {
                self.listener.currmove(self.root_depth, m, searched as u32 + 1);
            }
            let (child, child_hash) = play(self.tt, pos, hash, m);
            self.path.push(child_hash);
            self.line[ply] = Some(m);
            let score = if searched == 0 {
                let extension = if Some(m) == tt_move { extension } else { 0 };
                -self.negamax(&child, child_hash, depth - 1 + extension, -beta, -alpha, ply + 1, false)
            } else {
                let reduction = if quiet_move && !self.proving && !in_check && depth >= LMR_MIN_DEPTH {
                    let mut r = lmr_reduction(depth, searched + 1);
                    r -= i32::from(pv_node);
                    r += i32::from(!improving);
                    // A quiet check is reduced a ply less than other quiet moves, not
                    // exempt: +15.6 [+4.0, +27.3] over 2000 games (STRENGTH.md, session 37).
                    r -= i32::from(checks);
                    r -= i32::from(self.ordering.is_refutation(m, ply, prev)) * 2;
                    r -= self.ordering.history(turn, m) / LMR_HISTORY_DIVISOR;
                    r.clamp(0, depth - 2)
                } else {
                    0
                };
                let mut score = -self.negamax(
                    &child,
                    child_hash,
                    depth - 1 - reduction,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    false,
                );
                if score > alpha && reduction > 0 {
                    score = -self.negamax(&child, child_hash, depth - 1, -alpha - 1, -alpha, ply + 1, false);
                }
                if score > alpha && score < beta {
                    score = -self.negamax(&child, child_hash, depth - 1, -beta, -alpha, ply + 1, false);
                }
                score
            };
            self.path.pop();
            if self.aborted {
                return 0;
            }
            searched += 1;
            if score > best_score {
                best_score = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(m);
                    head[ply].extend_from_slice(&tail[0]);
                    if score >= beta {
                        if quiet_move {
                            self.ordering.reward(turn, m, &quiets_tried, lineage, ply, depth);
                        }
                        break;
                    }
                }
            }
            if quiet_move {
                quiets_tried.push(m);
            }
        }

        self.pickers[ply] = picker;
        self.quiets[ply] = quiets_tried;
        if best_score == -MATE - 1 {
            if excluded.is_some() {
                // The left-out move was the only one: nothing else reaches alpha.
                return original_alpha;
            }
            // No legal move: a node generating by stages finds it out only now.
            return if in_check { -MATE + ply as i32 } else { self.draw(pos) };
        }
        let bound = bound_of(best_score, original_alpha, beta);
        if let Some(keys) = keys
            && !self.proving
            && excluded.is_none()
            && (ply > 0 || !self.root_restricted)
            && teaches(bound, best_score, eval, best_move)
        {
            self.correction.learn(turn, keys, depth, best_score, eval);
        }
        if (ply > 0 || !self.root_restricted) && excluded.is_none() {
            let stored = Entry { best: best_move, score: best_score, depth, bound };
            self.tt.store(hash, ply, stored);
        }
        best_score
    }

    /// Loads `picker` with the legal moves of `pos` at `ply` but `skip` (already searched),
    /// ordered; at the root only the root moves. Returns whether there was any legal move.
    fn generate(
        &self,
        picker: &mut MovePicker,
        pos: &Chess,
        ply: usize,
        skip: Option<Move>,
        lineage: Lineage,
    ) -> bool {
        let mut moves = pos.legal_moves();
        if moves.is_empty() {
            return false;
        }
        if ply == 0 {
            moves.retain(|m| self.root_moves.contains(m));
        }
        self.ordering.order(picker, pos, &moves, ply, lineage, skip);
        true
    }

    /// Searches captures and promotions until the position is quiet, standing pat on the
    /// static evaluation; when in check, every evasion is searched. With `checks` (its first
    /// ply), quiet checks that do not lose material are searched too.
    fn quiescence(
        &mut self,
        pos: &Chess,
        hash: u64,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        checks: bool,
    ) -> i32 {
        self.pv[ply].clear();
        self.accumulators.invalidate(ply);
        if self.visit(ply) {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return self.static_eval(pos, hash, ply);
        }
        let pv_node = beta - alpha > 1;
        if !pv_node
            && let Some(entry) = self.probe(hash, ply)
            && match entry.bound {
                Bound::Exact => true,
                Bound::Lower => entry.score >= beta,
                Bound::Upper => entry.score <= alpha,
            }
        {
            return entry.score;
        }
        let original_alpha = alpha;
        let mut best_move = None;
        let in_check = pos.is_check();
        let mut best_score;
        // The evasions when in check; otherwise the picker generates the moves itself.
        let evasions = if in_check {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                return -MATE + ply as i32;
            }
            best_score = -MATE + ply as i32;
            Some(moves)
        } else {
            best_score = self.corrected_eval(pos, hash, ply, Keys::of(pos));
            if best_score >= beta {
                return best_score;
            }
            alpha = alpha.max(best_score);
            None
        };
        let stand_pat = best_score;
        let mut picker = std::mem::take(&mut self.pickers[ply]);
        match &evasions {
            Some(moves) => picker.tactical(moves),
            // With `checks`, quiet checks that lose material are skipped below, with the losing
            // captures.
            None => picker.captures(pos, checks),
        }
        while let Some(m) = picker.next(self.ordering) {
            if !in_check {
                // A capture that cannot lift the score to alpha even with a positional
                // bonus (a quiet check may still mate), or a move that loses material, cannot
                // raise a stand-pat score.
                let gain = m.capture().map_or(0, |r| SEE_VALUES[r as usize - 1]);
                if m.is_capture() && m.promotion().is_none() && stand_pat + gain + DELTA_MARGIN <= alpha {
                    continue;
                }
                if loses_material(pos, m) {
                    continue;
                }
            }
            let (child, child_hash) = play(self.tt, pos, hash, m);
            self.line[ply] = Some(m);
            let score = -self.quiescence(&child, child_hash, -beta, -alpha, ply + 1, false);
            if self.aborted {
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.pickers[ply] = picker;
        let bound = bound_of(best_score, original_alpha, beta);
        self.tt.store(hash, ply, Entry { best: best_move, score: best_score, depth: 0, bound });
        best_score
    }
}

/// What a node generates once its picker has handed out every move loaded so far.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// Every legal move (in check, where the evasions are few, and at the root).
    All,
    /// The captures and promotions, the killers and the counter-move.
    Tactical,
    /// The other quiet moves.
    Quiets,
    /// Nothing: every move was loaded.
    Done,
}

impl Stage {
    /// The stage after this one.
    fn next(self) -> Stage {
        match self {
            Stage::Tactical => Stage::Quiets,
            Stage::All | Stage::Quiets | Stage::Done => Stage::Done,
        }
    }
}

/// What a search result `score` in the window `alpha`..`beta` tells about the node's value.
fn bound_of(score: i32, alpha: i32, beta: i32) -> Bound {
    if score >= beta {
        Bound::Lower
    } else if score > alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

/// The position `m` leads to from `pos` (hash `hash`), and its hash: updated incrementally
/// where shakmaty can, computed afresh otherwise. The child's bucket of `tt` is fetched into
/// the cache while the move is played, before the child's probe needs it.
fn play(tt: &TranspositionTable, pos: &Chess, hash: u64, m: Move) -> (Chess, u64) {
    let updated = pos.update_zobrist_hash(Zobrist64(hash), m, EnPassantMode::Legal).map(|z| z.0);
    if let Some(key) = updated {
        tt.prefetch(key);
    }
    let mut child = pos.clone();
    child.play_unchecked(m);
    let key = updated.unwrap_or_else(|| position_hash(&child));
    (child, key)
}

/// Whether the side to move has more than a lone minor piece besides pawns and king:
/// null-move pruning assumes that passing is worse than any move, which zugzwang breaks, and
/// zugzwang is common when little is left to move.
fn has_pieces(pos: &Chess) -> bool {
    let board = pos.board();
    let ours = board.by_color(pos.turn());
    let minors = (board.by_role(Role::Knight) | board.by_role(Role::Bishop)) & ours;
    let majors = (board.by_role(Role::Rook) | board.by_role(Role::Queen)) & ours;
    majors.any() || minors.count() >= 2
}

/// The position with the turn passed to the opponent, if that is legal.
fn null_move(pos: &Chess) -> Option<Chess> {
    let mut setup = pos.to_setup(EnPassantMode::Legal);
    setup.ep_square = None;
    setup.swap_turn();
    Chess::from_setup(setup, pos.castles().mode()).ok()
}
