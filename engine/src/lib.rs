//! Kibitz's engine crate: everything that is not GUI.
//!
//! The vocabulary is re-exported here so that callers write `kibitz_engine::GameRecord`,
//! `kibitz_engine::Command`, and so on. The crate never depends on a GUI toolkit: the app,
//! the `kibitz-engine` program and the match runner (`kibitz match`) all drive it the same
//! way, by sending [`Command`]s to an [`EngineHandle`] and draining its [`Event`]s.

mod analysis;
mod analyst;
mod annotate;
mod bench;
mod book;
pub mod cli;
mod clock;
pub mod conductor;
mod database;
mod epd;
mod eval;
mod file_options;
pub mod fuzz;
mod game;
mod input;
mod job;
mod judgement;
mod learning;
mod level;
mod limits;
pub mod matches;
mod network;
mod perft;
mod pgn;
mod player;
pub mod policy;
mod protocol;
mod purpose;
pub mod runner;
mod score;
mod search;
mod storage;
mod strength;
mod tablebase;
mod test_suite;
mod thread;
mod time_control;
pub mod tournament;
pub mod tuning;
mod uci;
mod xboard;

pub use analysis::{Analysis, Line, PvWord, Totals, san_line};
pub use analyst::{Analyst, AnalystState, MAX_LINES};
pub use annotate::{
    AnnotateError, AnnotateJob, AnnotateLimit, AnnotateProgress, AnnotateSettings, Annotated, BadMoveRange,
    MoveRange, MoveVerdict, Side, SideError, Summary, annotate_game, annotation_report,
};
pub use bench::{BENCH_DEPTH, BENCH_POSITIONS, BenchReport, bench};
pub use book::{
    Book, BookBuilder, BookDocument, BookEdit, BookEntry, BookError, BookFile, BookFormat, BookMode,
    BookSettings, BuildJob, BuildOptions, BuildProgress, Candidate, Choice, CraftyWeights, EditError,
    Exclusion, Group, LearnFlags, LearnReport, LearnedFileError, LearnedFileErrorKind, LearnedPosition,
    NagImport, Outcome, PREFER_MARGIN, PlayedGame, PositionTable, PostBook, PostBookAdvice, PostBookStats,
    PreferCheck, RandomType, Recovery, Rewrite, Salvaged, SaveMethod, SaveReport, Stats, TAUGHT_GAMES_KEPT,
    TaughtGame, TaughtGames, TaughtIndex, book_key, decode_move, encode_move, move_code_text, nag_value,
};
pub use clock::{Clock, ClockReading, ManualTime, SystemTime, TimeSource, format_clock, pgn_clk};
pub use conductor::{Conductor, GameEvent};
pub use database::{Column, GameHeader, GameIndex, IndexJob, IndexProgress};
pub use epd::{EpdSuiteError, EpdTest};
pub use eval::{Breakdown, EvalPart, EvalTrace, Term, breakdown, current_weights, evaluate, trace};
pub use game::{
    Ending, Eval, GameRecord, IllegalMove, Nag, Node, NodeId, Termination, clock_in, eval_in, nag_symbol,
};
pub use input::{InputLines, NotUtf8, stdin_lines};
pub use job::{Job, JobContext, JobError, JobOutcome};
pub use judgement::{Judgement, win_chance};
pub use learning::{
    Learned, LearnedData, LearnedPart, LearnedSummary, Learning, LearningFiles, LearningSettings, SetAside,
};
pub use level::{CALIBRATION, Calibration, ELO_RANGE, FULL_ELO, Level, UNTIMED_MOVE_TIME, strength_options};
pub use limits::SearchLimits;
pub use network::{
    Accumulator, Evaluation, KING_BUCKETS, MAX_BUCKETS, Network, NetworkChoice, NetworkError,
    evaluation_options, king_bucket, output_bucket,
};
pub use perft::{divide, perft};
pub use pgn::{
    PgnError, PgnGames, PgnStats, UnsupportedVariant, castling_mode_of_variant, decode_pgn_text,
    pgn_date_today, pgn_stats, pgn_stats_with, read_games, read_pgn, variant_tag, write_pgn,
};
pub use player::{
    EngineConfig, EngineOption, ExternalEngine, FailureKind, OptionError, OptionKind, Player, PlayerFailure,
    Protocol, check_option,
};
pub use protocol::{Command, Event, SearchInfo};
pub use purpose::Purpose;
pub use score::{Score, ScoreBound};
pub use search::{Allotment, Engine, Listener, SearchOutcome, allot, position_hash};
pub use storage::{STALE_AFTER, remove_stale_temporaries, replace_file, sync_file, write_atomic};
pub use strength::{MAX_SETTING, MIN_SETTING, Strength};
pub use tablebase::{RootRanking, SyzygyTables, TablebaseError, TablebaseVerdict};
pub use test_suite::{
    EARLY_EXIT_MIN_DEPTH, EpdJob, EpdReport, EpdResult, SuiteFailure, SuiteLimits, run_suite,
};
pub use thread::EngineHandle;
pub use time_control::{Stage, TimeControl, TimeControlError};
pub use tournament::{
    AdjudicationError, AdjudicationRules, Arbiter, Countdown, DrawRule, EloEstimate, GameResult,
    KnockoutMatch, Pairing, Pentanomial, Sprt, SprtDecision, SprtError, SprtModel, SprtStatus, TablebaseRule,
    WinDrawLoss, WinRule, elo_from_score, gauntlet, knockout, next_round, round_robin, score_from_elo,
};
pub use uci::{
    ENGINE_AUTHOR, ENGINE_NAME, UciCommand, UciOption, format_bestmove, format_info, parse_line, run_uci,
    run_uci_lines,
};
pub use xboard::{XboardCommand, format_thinking, parse_xboard_line, run_xboard, run_xboard_lines};
