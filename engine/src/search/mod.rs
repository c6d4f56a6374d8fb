//! The search: iterative deepening over a principal-variation alpha-beta search with
//! quiescence, a transposition table, move ordering, a correction history of the static
//! evaluation, singular extensions, null-move pruning and late-move reductions. Scores are
//! centipawns from the side to move's point of view.

mod accumulators;
mod check;
mod correction;
mod deepening;
mod eval_cache;
mod generation;
mod node;
pub(crate) mod ordering;
pub(crate) mod params;
mod picker;
mod see;
mod time;
pub(crate) mod tt;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use shakmaty::{Chess, EnPassantMode, Move, Position, zobrist::Zobrist64};

pub use time::{Allotment, allot};

use crate::network::{Evaluation, Network};
use crate::{LearnedPosition, Score, SearchInfo, SearchLimits, SyzygyTables};
use accumulators::AccumulatorStack;
use deepening::{Played, Root, deepen, help, tb_score};
use eval_cache::EvalCache;
use node::Searcher;
use ordering::OrderingTables;
use params::{DEFAULT_HASH_MB, MATE, MATE_BOUND, MAX_DRAW_SCORE};
use time::Budget;
use tt::{Bound, Entry, TranspositionTable};

/// The Zobrist hash of a position as the search and the repetition check use it.
#[must_use]
pub fn position_hash(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// The most threads a search may use (the UCI option `Threads`, xboard's `cores`): the
/// machine's logical cores, at least 1.
#[must_use]
pub fn max_threads() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
}

/// What one search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchOutcome {
    /// The move to play; `None` only when there is no legal move.
    pub best: Option<Move>,
    /// The expected reply, if the principal variation has one.
    pub ponder: Option<Move>,
    /// The report of the last completed iteration's best line, if any completed.
    pub info: Option<SearchInfo>,
    /// Nodes searched in total.
    pub nodes: u64,
    /// Time spent searching, by the search's own clock.
    pub time: Duration,
}

/// Receives a search's progress. Any `FnMut(&SearchInfo)` is a listener that ignores
/// `currmove` reports.
pub trait Listener {
    /// One line of one iteration: after each MultiPV line completes, and after each
    /// aspiration failure (with `bound` set).
    fn info(&mut self, info: &SearchInfo);

    /// The root move now searched at `depth`, `number` in the root order from 1; only
    /// reported once the search has run for `params::CURRMOVE_AFTER`.
    fn currmove(&mut self, depth: u32, m: Move, number: u32) {
        let _ = (depth, m, number);
    }
}

impl<F: FnMut(&SearchInfo)> Listener for F {
    fn info(&mut self, info: &SearchInfo) {
        self(info);
    }
}

/// What each search thread keeps between searches: its move-ordering statistics, its
/// correction history and its evaluation cache.
#[derive(Default)]
struct ThreadTables {
    ordering: OrderingTables,
    correction: correction::CorrectionHistory,
    eval_cache: EvalCache,
    accumulators: AccumulatorStack,
}

impl ThreadTables {
    /// Forgets what earlier searches learned of the game: the move-ordering statistics and
    /// the correction history (the evaluation cache depends on positions alone and stays).
    fn new_game(&mut self) {
        self.ordering.clear();
        self.correction.clear();
    }
}

/// The engine's lasting state: its transposition table, and the move-ordering statistics and
/// evaluation cache of each search thread. One `Engine` searches one position at a time;
/// reuse it between moves of a game.
///
/// With more than one thread ([`Engine::set_threads`]) the search is Lazy SMP: helper
/// threads search the same root as the main thread, each with its own tables, skipping some
/// depths, and share what they find through the transposition table. The main thread alone
/// reports, decides when to stop (the helpers stop with it) and chooses the move. Node counts,
/// in the reports and in a node limit, are over all threads; each thread adds its nodes to
/// the count every `params::NODE_TALLY_INTERVAL` nodes, so a node
/// limit may be passed by that many nodes per helper.
pub struct Engine {
    tt: TranspositionTable,
    main: ThreadTables,
    /// One per helper thread.
    helpers: Vec<ThreadTables>,
    tablebases: Option<Arc<SyzygyTables>>,
    draw_score: i32,
    /// The evaluation network, or `None` for the classical evaluation.
    network: Option<Arc<Network>>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new(DEFAULT_HASH_MB)
    }
}

impl Engine {
    /// An engine with a transposition table of about `hash_mb` megabytes (1 to 1024), that
    /// searches on one thread with the default [`Evaluation`].
    #[must_use]
    pub fn new(hash_mb: usize) -> Engine {
        Engine {
            tt: TranspositionTable::new(hash_mb),
            main: ThreadTables::default(),
            helpers: Vec::new(),
            tablebases: None,
            draw_score: 0,
            network: Evaluation::default().network(),
        }
    }

    /// What a draw (by repetition, the fifty-move rule, stalemate or too little material) is
    /// worth to the side to move at the root, in centipawns: Crafty's `drawscore`, Terra's
    /// `contempt`. Negative avoids draws, positive seeks them; 0 by default.
    pub fn set_draw_score(&mut self, centipawns: i32) {
        self.draw_score = centipawns.clamp(-MAX_DRAW_SCORE, MAX_DRAW_SCORE);
    }

    /// Searches with these Syzygy tables (or none): WDL probes below the root, and at a root
    /// the tables cover, only the moves that keep its value, the fastest by DTZ for a win.
    /// The root is not narrowed in MultiPV searches, which show every line.
    pub fn set_tablebases(&mut self, tables: Option<Arc<SyzygyTables>>) {
        self.tablebases = tables;
    }

    /// Evaluates with `network` from the next search on, or with the classical evaluation
    /// for `None`. The evaluation caches are emptied when the evaluation changes; the
    /// transposition table is kept (its scores came from the other evaluation, and age out).
    pub fn set_network(&mut self, network: Option<Arc<Network>>) {
        let same = match (&self.network, &network) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        if !same {
            self.main.eval_cache.clear();
            for helper in &mut self.helpers {
                helper.eval_cache.clear();
            }
        }
        self.network = network;
    }

    /// The evaluation network the search uses, if any.
    #[must_use]
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.network.as_ref()
    }

    /// Replaces the transposition table with one of `hash_mb` megabytes.
    pub fn set_hash_size(&mut self, hash_mb: usize) {
        self.tt = TranspositionTable::new(hash_mb);
    }

    /// Searches on `threads` threads (at least 1) from the next search on: the main thread
    /// and `threads - 1` helpers. A helper kept from before keeps its tables.
    pub fn set_threads(&mut self, threads: usize) {
        self.helpers.resize_with(threads.max(1) - 1, ThreadTables::default);
    }

    /// The number of threads a search runs on.
    #[must_use]
    pub fn threads(&self) -> usize {
        self.helpers.len() + 1
    }

    /// Empties the transposition table.
    pub fn clear_hash(&mut self) {
        self.tt.clear();
    }

    /// Forgets everything learned from earlier searches.
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.main.new_game();
        self.helpers.iter_mut().for_each(ThreadTables::new_game);
    }

    /// Seeds the transposition table with positions learned in earlier games (Crafty's
    /// position learning): each becomes an exact entry at its learned depth and score,
    /// without a best move (the learned move is Polyglot-encoded and needs the position to
    /// decode). The learned key is the Polyglot key, which is the search's
    /// [`position_hash`] except when an en-passant capture is possible but illegal; such a
    /// position is simply never found. Scores are clamped below the mate range, and a
    /// position the table already holds at least as deep is left alone. Call it before
    /// [`Engine::search`]; the search only trusts these entries where it trusts any
    /// entry, at nodes outside the principal variation.
    pub fn seed<'a>(&mut self, learned: impl IntoIterator<Item = &'a LearnedPosition>) {
        for p in learned {
            let depth = i32::from(p.depth);
            if self.tt.probe(p.key, 0).is_some_and(|e| e.depth >= depth) {
                continue;
            }
            let score = p.score.clamp(-MATE_BOUND, MATE_BOUND);
            self.tt.store(p.key, 0, Entry { best: None, score, depth, bound: Bound::Exact });
        }
    }

    /// Searches `pos` within `limits`. `history` holds the hashes (see [`position_hash`]) of
    /// the positions of the game before `pos`, oldest first, for repetition detection.
    /// `on_info` receives the reports of the lines. The search ends early when `stop` is set. `limits.ponder` is ignored here: see
    /// [`Engine::search_pondering`].
    pub fn search(
        &mut self,
        pos: &Chess,
        history: &[u64],
        limits: &SearchLimits,
        stop: &AtomicBool,
        mut on_info: impl FnMut(&SearchInfo),
    ) -> SearchOutcome {
        let pondering = AtomicBool::new(false);
        self.search_pondering(pos, history, limits, stop, &pondering, &mut on_info)
    }

    /// Like [`Engine::search`], but no deadline counts while `pondering` is set; the
    /// owner clears it when the opponent plays the expected move.
    pub fn search_pondering(
        &mut self,
        pos: &Chess,
        history: &[u64],
        limits: &SearchLimits,
        stop: &AtomicBool,
        pondering: &AtomicBool,
        listener: &mut dyn Listener,
    ) -> SearchOutcome {
        let budget = Budget::new(limits, pos.turn(), pondering);
        let moves = pos.legal_moves();
        let Some(&first_legal) = moves.first() else {
            return SearchOutcome { best: None, ponder: None, info: None, nodes: 0, time: budget.elapsed() };
        };
        let mut root_moves: Vec<Move> =
            moves.iter().copied().filter(|m| limits.searchmoves.contains(m)).collect();
        if root_moves.is_empty() {
            root_moves = moves.to_vec();
        }
        let tablebases = self.tablebases.as_deref();
        // A root the tables cover: the search chooses among the moves that keep its value.
        let mut root_tb_score = None;
        if let Some(ranking) = tablebases.and_then(|t| t.rank_root(pos)) {
            let kept: Vec<Move> = root_moves.iter().copied().filter(|m| ranking.moves.contains(m)).collect();
            if limits.multipv.unwrap_or(1) <= 1 && !kept.is_empty() {
                root_moves = kept;
                root_tb_score = Some(tb_score(ranking.wdl));
            }
        }
        let restricted = root_moves.len() < moves.len();
        self.main.ordering.new_search();
        for helper in &mut self.helpers {
            helper.ordering.new_search();
        }
        self.tt.new_search();
        let root = Root {
            pos,
            hash: position_hash(pos),
            moves: &root_moves,
            restricted,
            tablebases,
            tb_score: root_tb_score,
            draw_score: self.draw_score,
            network: self.network.as_deref(),
            proving: limits.mate.is_some(),
        };
        let mut path = history.to_vec();
        path.push(root.hash);

        // The nodes of all threads, as they add them.
        let tally = AtomicU64::new(0);
        // Set once the main thread is done: the helpers' stop flag.
        let done = AtomicBool::new(false);
        let (tt, helpers) = (&self.tt, &mut self.helpers);
        let helper_budget = Budget { hard: None, soft: None, ..budget };
        let played = std::thread::scope(|scope| {
            for (index, tables) in helpers.iter_mut().enumerate() {
                let (done, helper_budget, tally, root) = (&done, &helper_budget, &tally, &root);
                let path = path.clone();
                let work = move || {
                    let mut silent = |_: &SearchInfo| {};
                    let mut node = Searcher::new(tt, tables, done, helper_budget, tally, &mut silent, path);
                    root.rules(&mut node);
                    help(&mut node, root, index + 1);
                    node.publish();
                };
                // A helper that cannot be started is done without.
                let _ = std::thread::Builder::new()
                    .name(format!("kibitz-helper-{}", index + 1))
                    .spawn_scoped(scope, work);
            }
            let mut node = Searcher::new(tt, &mut self.main, stop, &budget, &tally, listener, path);
            root.rules(&mut node);
            let played = deepen(&mut node, &root, limits);
            done.store(true, Ordering::Relaxed);
            node.publish();
            let best = played
                .best
                .or_else(|| node.tt.probe(root.hash, 0).and_then(|e| e.best))
                .filter(|m| root_moves.contains(m))
                .or(root_moves.first().copied())
                .or(Some(first_legal));
            Played { best, ..played }
        });
        // Every thread has added all its nodes by now.
        let nodes = tally.load(Ordering::Relaxed);
        SearchOutcome {
            best: played.best,
            ponder: played.ponder,
            info: played.info,
            nodes,
            time: budget.elapsed(),
        }
    }
}

/// Converts an internal score to a [`Score`], mates in moves rather than plies.
fn to_score(score: i32) -> Score {
    if score > MATE_BOUND {
        Score::Mate((MATE - score + 1) / 2)
    } else if score < -MATE_BOUND {
        Score::Mate(-(MATE + score) / 2)
    } else {
        Score::Cp(score)
    }
}

/// The longest prefix of `line` that is legal from `pos`.
pub(crate) fn legal_prefix(pos: &Chess, line: &[Move]) -> Vec<Move> {
    let mut pos = pos.clone();
    let mut legal = Vec::with_capacity(line.len());
    for &m in line {
        if !pos.is_legal(m) {
            break;
        }
        pos.play_unchecked(m);
        legal.push(m);
    }
    legal
}

#[cfg(test)]
mod tests {
    use shakmaty::{CastlingMode, fen::Fen};

    use super::*;

    fn pos(fen: &str) -> Chess {
        let fen: Fen = fen.parse().expect("test FEN parses");
        fen.into_position(CastlingMode::Standard).expect("test FEN is legal")
    }

    fn search(fen: &str, depth: u32) -> SearchOutcome {
        let stop = AtomicBool::new(false);
        Engine::new(4).search(&pos(fen), &[], &SearchLimits::depth(depth), &stop, |_| {})
    }

    #[test]
    fn mate_scores_count_moves() {
        assert_eq!(to_score(MATE - 1), Score::Mate(1));
        assert_eq!(to_score(MATE - 3), Score::Mate(2));
        assert_eq!(to_score(-MATE + 2), Score::Mate(-1));
        assert_eq!(to_score(-MATE), Score::Mate(0));
        assert_eq!(to_score(35), Score::Cp(35));
    }

    #[test]
    fn finds_back_rank_mate() {
        let outcome = search("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 3);
        let info = outcome.info.expect("an iteration completed");
        assert_eq!(info.score, Score::Mate(1));
        assert_eq!(outcome.best.map(|m| m.to().to_string()), Some("a8".to_owned()));
    }

    #[test]
    fn no_legal_move_gives_no_best_move() {
        let outcome = search("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 3);
        assert_eq!(outcome.best, None);
    }

    #[test]
    fn takes_a_hanging_queen() {
        let outcome = search("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", 4);
        assert_eq!(outcome.best.map(|m| m.to().to_string()), Some("d5".to_owned()));
    }

    #[test]
    fn fixed_depth_node_count_is_deterministic() {
        let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        assert_eq!(search(fen, 4).nodes, search(fen, 4).nodes);
    }

    #[test]
    fn helpers_search_on_their_own_tables() {
        let mut engine = Engine::new(4);
        engine.set_threads(2);
        assert_eq!(engine.threads(), 2);
        let root = pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
        let stop = AtomicBool::new(false);
        let limits = SearchLimits::movetime(Duration::from_millis(300));
        let outcome = engine.search(&root, &[], &limits, &stop, |_| {});
        assert!(root.is_legal(outcome.best.expect("a move")));
        // The helper's history learned from its own cutoffs.
        let squares = || (0..64).map(shakmaty::Square::new);
        let learned = squares().any(|from| {
            squares().any(|to| {
                let m = Move::Normal { role: shakmaty::Role::Pawn, from, capture: None, to, promotion: None };
                [shakmaty::Color::White, shakmaty::Color::Black]
                    .into_iter()
                    .any(|side| engine.helpers[0].ordering.history(side, m) != 0)
            })
        });
        assert!(learned, "the helper thread did not search");
        engine.set_threads(1);
        assert!(engine.helpers.is_empty());
    }

    #[test]
    fn a_node_limit_counts_every_thread() {
        let mut engine = Engine::new(4);
        engine.set_threads(2);
        let stop = AtomicBool::new(false);
        let limit = 20_000;
        let outcome = engine.search(&Chess::default(), &[], &SearchLimits::nodes(limit), &stop, |_| {});
        assert!(outcome.best.is_some());
        let slack = 2 * params::NODE_TALLY_INTERVAL;
        assert!((limit..=limit + slack).contains(&outcome.nodes), "{} nodes", outcome.nodes);
    }

    #[test]
    fn stop_flag_still_gives_a_legal_move() {
        let stop = AtomicBool::new(true);
        let start = Chess::default();
        let outcome = Engine::new(1).search(&start, &[], &SearchLimits::default(), &stop, |_| {});
        let best = outcome.best.expect("a move");
        assert!(start.is_legal(best));
    }

    #[test]
    fn sees_a_repetition_draw() {
        // Black is a queen down; Kg8 repeats a position the game met twice: the third time
        // is a draw.
        let root = pos("7k/8/8/8/8/8/8/KQ6 b - - 10 40");
        let repeated = position_hash(&pos("6k1/8/8/8/8/8/8/KQ6 w - - 11 41"));
        let history = [repeated, 1, 2, 3, repeated, 5, 6];
        let stop = AtomicBool::new(false);
        let limits = SearchLimits::depth(1);
        let outcome = Engine::new(1).search(&root, &history, &limits, &stop, |_| {});
        assert_eq!(outcome.best.map(|m| m.to().to_string()), Some("g8".to_owned()));
        assert_eq!(outcome.info.map(|i| i.score), Some(Score::Cp(0)));
        // Met once before, the position is not a draw yet: White need not repeat it again.
        let once = Engine::new(1).search(&root, &history[4..], &limits, &stop, |_| {});
        assert!(
            matches!(once.info.as_ref().map(|i| i.score), Some(Score::Cp(cp)) if cp < -500),
            "{:?}",
            once.info
        );
        // Without that history the same move is just a move in a lost position.
        let fresh = Engine::new(1).search(&root, &[], &limits, &stop, |_| {});
        assert!(matches!(fresh.info.map(|i| i.score), Some(Score::Cp(cp)) if cp < -500));
    }

    #[test]
    fn a_repetition_inside_the_search_is_a_draw_at_once() {
        // White, whose back rank falls to the rooks, checks for ever (Qd8+ Kh7 Qd3+ Kg8
        // Qd5+ Kh8 Qd8+ ..., Stockfish's line); no position of it was met before the root, so
        // the draw is a repetition the search finds by itself, the second time a position
        // comes back, not the third: within five plies, as Qd8+ Kh7 Qd3+ Kh8 Qd8+ brings back
        // the position after the first check.
        let root = pos("7k/6p1/7p/8/8/8/rr3PP1/3Q2K1 w - - 0 40");
        let stop = AtomicBool::new(false);
        let outcome = Engine::new(1).search(&root, &[], &SearchLimits::depth(5), &stop, |_| {});
        assert_eq!(outcome.info.as_ref().map(|i| i.score), Some(Score::Cp(0)), "{:?}", outcome.info);
    }

    #[test]
    fn the_draw_score_decides_between_a_repetition_and_a_pawn_down() {
        // Black, a pawn down, can repeat the game's earlier position a third time with Kh8.
        let root = pos("6k1/8/8/8/8/8/P7/6K1 b - - 10 40");
        let repeated = position_hash(&pos("7k/8/8/8/8/8/P7/6K1 w - - 11 41"));
        let history = [repeated, 1, 2, 3, repeated, 5, 6];
        let stop = AtomicBool::new(false);
        let best = |draw_score| {
            let mut engine = Engine::new(1);
            // The classical evaluation, whose extra pawn here is worth about a pawn.
            engine.set_network(None);
            engine.set_draw_score(draw_score);
            let outcome = engine.search(&root, &history, &SearchLimits::depth(4), &stop, |_| {});
            (outcome.best.map(|m| m.to().to_string()), outcome.info.map(|i| i.score))
        };
        // A draw worth nothing beats a pawn down; one worth three pawns less does not.
        assert_eq!(best(0), (Some("h8".to_owned()), Some(Score::Cp(0))));
        let (avoiding, score) = best(-300);
        assert_ne!(avoiding, Some("h8".to_owned()));
        assert!(matches!(score, Some(Score::Cp(cp)) if (-300..0).contains(&cp)), "{score:?}");
        // Seeking draws, the repetition scores the draw score.
        assert_eq!(best(150), (Some("h8".to_owned()), Some(Score::Cp(150))));
    }

    #[test]
    fn seed_stores_learned_positions_as_exact_entries() {
        let after_e4 = pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        let key = crate::book_key(&after_e4);
        assert_eq!(key, position_hash(&after_e4));
        let mut engine = Engine::new(1);
        engine.seed(&[LearnedPosition { key, score: -250, depth: 9, mv: 0 }]);
        let entry = engine.tt.probe(key, 0).expect("seeded");
        assert_eq!((entry.score, entry.depth, entry.bound), (-250, 9, Bound::Exact));
        // A shallower learned result does not replace a deeper one; a score in the mate
        // range is kept out of it.
        engine.seed(&[LearnedPosition { key, score: 40, depth: 3, mv: 0 }]);
        assert_eq!(engine.tt.probe(key, 0).map(|e| e.score), Some(-250));
        engine.seed(&[LearnedPosition { key, score: MATE, depth: 12, mv: 0 }]);
        assert_eq!(engine.tt.probe(key, 0).map(|e| e.score), Some(MATE_BOUND));
    }

    #[test]
    fn a_learned_drop_keeps_the_search_out_of_a_position() {
        // WAC.011: depth 1 plays Nc5, a deeper search finds Bxc6.
        let root = pos("r1b1kb1r/3q1ppp/pBp1pn2/8/Np3P2/5B2/PPP3PP/R2Q1RK1 w kq - 0 1");
        let stop = AtomicBool::new(false);
        let best_at = |engine: &mut Engine, depth| {
            engine.search(&root, &[], &SearchLimits::depth(depth), &stop, |_| {}).best.expect("a move")
        };
        let first = best_at(&mut Engine::new(4), 1);
        // The premise: a deeper search prefers a move the first iteration does not, so that
        // it is searched with a null window, where learned entries count.
        let (depth, chosen) = (2..=8)
            .map(|depth| (depth, best_at(&mut Engine::new(4), depth)))
            .find(|&(_, chosen)| chosen != first)
            .expect("pick a position where a deeper search changes the depth-1 choice");
        let after = root.clone().play(chosen).expect("legal");
        let mut engine = Engine::new(4);
        // Learned: the position after that move is won for the opponent, at depth 40.
        engine.seed(&[LearnedPosition { key: crate::book_key(&after), score: 3000, depth: 40, mv: 0 }]);
        assert_ne!(best_at(&mut engine, depth), chosen, "the learned position was ignored");
    }
}
