//! The typed messages between an engine thread and its owner (the GUI, the UCI front end,
//! the match runner).

use std::sync::Arc;
use std::time::Duration;

use shakmaty::{Chess, Move};

use crate::network::Network;
use crate::{
    Book, BookSettings, Choice, EngineOption, PlayerFailure, PositionTable, PostBook, PreferCheck, Purpose,
    Score, ScoreBound, SearchLimits, SyzygyTables,
};

/// A request to the engine thread.
#[derive(Clone, Debug)]
pub enum Command {
    /// Forget everything learned about the previous game (hash tables, history).
    NewGame,
    /// Set the position to search: a start position and the moves played from it. The moves
    /// give the engine the history it needs to see repetitions.
    Position {
        /// The position the game started from.
        start: Chess,
        /// The moves played since, all legal.
        moves: Vec<Move>,
    },
    /// Start searching the current position. Every event of this search carries `id`.
    Go {
        /// Chosen by the caller to tell this search's events from older ones.
        id: u64,
        /// What the search is for: the book and learning steer only [`Purpose::Play`].
        purpose: Purpose,
        /// When to stop.
        limits: SearchLimits,
    },
    /// Set one of the options the player declared ([`Player::options`](crate::Player::options)),
    /// by name, to a value checked against its declaration.
    SetOption {
        /// The option's name.
        name: String,
        /// The value as the protocol writes it (`true`, `64`, a path).
        value: String,
    },
    /// Stop the current search; it still reports its best move.
    Stop,
    /// Asks for the player's own static evaluation of the position set, in its own words
    /// (Stockfish's `eval`, Kibitz's breakdown by term): answered by [`Event::Evaluation`].
    Evaluate {
        /// Echoed in the answer.
        id: u64,
    },
    /// The opponent played the expected move: the running `ponder` search now counts on
    /// the engine's own clock.
    PonderHit,
    /// Empty the transposition table (UCI's `Clear Hash`).
    ClearHash,
    /// Asks for [`Event::Pong`] with this `id` once every command sent before has been
    /// done (a running search is stopped first): an external engine must answer `isready`
    /// (UCI) or `ping` (xboard) in time, so an engine that stopped answering is found
    /// (it fails with [`FailureKind::Hung`](crate::FailureKind::Hung)). The match runner
    /// pings its engines before every game.
    Ping {
        /// Chosen by the caller, returned in the `Pong`.
        id: u64,
    },
    /// Play from this opening book (or from none). Searches whose purpose is to play (and
    /// that do not ponder) first ask the book; when it has no move, the search still avoids
    /// the book's avoid list.
    SetBook {
        /// The book, shared with whoever else reads it.
        book: Option<Arc<Book>>,
        /// How the book chooses.
        settings: BookSettings,
        /// Seeds the book's random choices, for reproducible runs; `None` seeds from the OS.
        seed: Option<u64>,
    },
    /// Use what Kibitz learned from its earlier games (or nothing, `None`). The learned
    /// positions seed the transposition table at the start of every search. In searches for
    /// play (as for the book, see `SetBook`), once the book has no move, the
    /// PostBook's "avoid" moves are left out of the root moves (unless no other legal move
    /// remains), and its preferred move is played when the search scores it within
    /// [`PREFER_MARGIN`](crate::PREFER_MARGIN) of its own best (reported as
    /// [`Event::PostBook`]).
    SetLearning {
        /// Crafty's position learning: positions where Kibitz's score dropped sharply.
        positions: Option<Arc<PositionTable>>,
        /// Terra's PostBook: results of Kibitz's first moves after the book.
        postbook: Option<Arc<PostBook>>,
    },
    /// Search with these Syzygy tables (or none). Kibitz's own engine only; an external
    /// engine is given its `SyzygyPath` option instead.
    SetTablebases(Option<Arc<SyzygyTables>>),
    /// What a draw is worth to Kibitz's own engine in its searches, in centipawns from the
    /// side to move at the root (Crafty's `drawscore`, the policy's `contempt`).
    SetDrawScore(i32),
    /// Whether Kibitz's own engine evaluates with its network (the UCI option `UseNNUE`)
    /// rather than the classical evaluation.
    UseNetwork(bool),
    /// The network Kibitz's own engine evaluates with when it uses one: a network file
    /// (`EvalFile`), or `None` for the one built in.
    SetNetworkFile(Option<Arc<Network>>),
    /// End the engine thread.
    Quit,
}

/// Progress of a search, one per completed iteration (and per MultiPV line).
#[derive(Clone, Debug, PartialEq)]
pub struct SearchInfo {
    /// Depth in plies of the completed iteration.
    pub depth: u32,
    /// Deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// Which line this is, 1 for the best.
    pub multipv: u32,
    /// The line's score, from the side to move's point of view.
    pub score: Score,
    /// `None` when the score is exact; otherwise how it bounds the true score.
    pub bound: Option<ScoreBound>,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Nodes per second so far.
    pub nps: u64,
    /// Time spent so far.
    pub time: Duration,
    /// How full the transposition table is, in permille.
    pub hashfull: u32,
    /// Tablebase probes that gave a value, so far.
    pub tbhits: u64,
    /// The principal variation, legal from the searched position.
    pub pv: Vec<Move>,
}

/// A report from the engine thread.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// A search made progress.
    Info {
        /// The `id` of the `Go` this belongs to.
        id: u64,
        /// What the search found so far.
        info: SearchInfo,
    },
    /// A search ended. `best` is `None` only when the position has no legal move.
    BestMove {
        /// The `id` of the `Go` this belongs to.
        id: u64,
        /// The move to play.
        best: Option<Move>,
        /// The expected reply, if the principal variation has one.
        ponder: Option<Move>,
        /// Nodes searched in total.
        nodes: u64,
        /// Time spent, by the engine's clock, from `Go` to the decision.
        time: Duration,
    },
    /// The book chose the move; a `BestMove` with it follows (unless the choice says to
    /// search among the book moves, Crafty's `book random 0`).
    BookMove {
        /// The `id` of the `Go` this belongs to.
        id: u64,
        /// The move, every candidate with its probability, and why others were excluded.
        choice: Choice,
    },
    /// The PostBook preferred a move and the search judged it; sent before the `BestMove`,
    /// which carries the preferred move when `check.played`.
    PostBook {
        /// The `id` of the `Go` this belongs to.
        id: u64,
        /// The preferred move, both scores and the decision.
        check: PreferCheck,
    },
    /// The root move being searched, reported once a search has run for a second.
    CurrMove {
        /// The `id` of the `Go` this belongs to.
        id: u64,
        /// The iteration's depth.
        depth: u32,
        /// The move.
        currmove: Move,
        /// Its place in the root move order, from 1.
        number: u32,
    },
    /// The player is ready to take commands: an external engine finished its handshake.
    Ready {
        /// The name the engine gave (`id name`, `myname`).
        name: String,
        /// The options it declared.
        options: Vec<EngineOption>,
    },
    /// The answer to [`Command::Ping`]: the player did everything asked before it.
    Pong {
        /// The `id` of the `Ping`.
        id: u64,
    },
    /// The player offers a draw (an xboard engine's `offer draw`).
    OfferDraw,
    /// The player resigns (an xboard engine's `resign`).
    Resign,
    /// Something the player said for the user (UCI `info string`, xboard `telluser`).
    Message(String),
    /// The answer to [`Command::Evaluate`]: the player's evaluation as it printed it, or
    /// `None` when it has no such command.
    Evaluation {
        /// The `id` of the `Evaluate` this answers.
        id: u64,
        /// What the player printed.
        text: Option<String>,
    },
    /// The player failed: it could not start, crashed, hung or broke the rules. A fatal
    /// failure ([`PlayerFailure::is_fatal`]) ends whatever search was running without a
    /// `BestMove`; after any other, the search's `BestMove` follows, without a move.
    Failed(PlayerFailure),
}
