//! Training data for the evaluation network: Kibitz plays itself at a fixed number of nodes a
//! move and writes the quiet positions of each game with the search's score and the game's
//! result, one position a line, in the text format that NNUE trainers read:
//!
//! ```text
//! <FEN> | <score in centipawns, White's side> | <result, White's side: 1.0, 0.5 or 0.0>
//! ```
//!
//! ```text
//! cargo run --release -p kibitz-engine --example datagen -- --out FILE [--games N]
//!     [--nodes N] [--random-plies N] [--seed N] [--tb DIR] [--eval classical|network]
//! ```
//!
//! `--eval` is the evaluation the games are played with: the network by default (each network
//! learns from the games of the one before it), `classical` for the hand-written one, which
//! made the data of the first shipped network.
//!
//! Each game starts from the start position with `--random-plies` (8) uniformly random legal
//! moves, kept only if the search then scores it within 300 centipawns. It ends by the rules
//! (mate, stalemate, repetition, the fifty-move rule, bare material), by the tables of `--tb`
//! (default `data/syzygy`, 3 and 4 pieces) once they know the position, or by agreement of the
//! scores: a side ahead by 1000 or more for 6 plies in a row wins, and from ply 80 on, 12 plies
//! within 10 centipawns draw. A position is written when the side to move is not in check and
//! the search's move is quiet (no capture, no promotion) and its score is not a mate score.
//! Lines are appended game by game, so the file may be read, and the run stopped, at any time.
//! Run one process per core, each with its own seed.

use std::fs::OpenOptions;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use kibitz_engine::{Engine, Evaluation, Score, SearchLimits, SyzygyTables, TablebaseVerdict, position_hash};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use shakmaty::fen::Fen;
use shakmaty::{Chess, Color, EnPassantMode, Move, Position};

/// The command line.
struct Options {
    out: PathBuf,
    games: u64,
    nodes: u64,
    random_plies: u32,
    seed: u64,
    tb: Option<PathBuf>,
    eval: Evaluation,
}

fn parse() -> Result<Options, String> {
    let mut o = Options {
        out: PathBuf::new(),
        games: u64::MAX,
        nodes: 6000,
        random_plies: 8,
        seed: 1,
        tb: Some(PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../data/syzygy"))),
        eval: Evaluation::default(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{flag} needs a value"));
        let number = |v: String| v.parse::<u64>().map_err(|e| format!("{flag} {v}: {e}"));
        match flag.as_str() {
            "--out" => o.out = PathBuf::from(value()?),
            "--games" => o.games = number(value()?)?,
            "--nodes" => o.nodes = number(value()?)?.max(1),
            "--random-plies" => {
                o.random_plies = u32::try_from(number(value()?)?).map_err(|e| e.to_string())?
            }
            "--seed" => o.seed = number(value()?)?,
            "--tb" => o.tb = Some(PathBuf::from(value()?)),
            "--no-tb" => o.tb = None,
            "--eval" => {
                o.eval = match value()?.as_str() {
                    "classical" => Evaluation::Classical,
                    "network" => Evaluation::Network,
                    other => return Err(format!("--eval {other}: classical or network")),
                }
            }
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    if o.out.as_os_str().is_empty() {
        return Err("--out FILE is required".into());
    }
    Ok(o)
}

/// One recorded position: its FEN and the search's score from White's side.
struct Sample {
    fen: String,
    white_score: i32,
}

/// Scores beyond this are mates or tablebase wins: not written.
const MAX_SCORE: i32 = 3000;

fn main() -> ExitCode {
    let options = match parse() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("datagen: {e}");
            return ExitCode::FAILURE;
        }
    };
    let tables = match &options.tb {
        Some(dir) => match SyzygyTables::open(dir) {
            Ok(t) => Some(t),
            Err(e) => {
                eprintln!("datagen: no tablebases ({e}); games are played out");
                None
            }
        },
        None => None,
    };
    let file = match OpenOptions::new().create(true).append(true).open(&options.out) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("datagen: {}: {e}", options.out.display());
            return ExitCode::FAILURE;
        }
    };
    let mut out = BufWriter::new(file);
    let mut rng = StdRng::seed_from_u64(options.seed);
    let mut engine = Engine::new(8);
    engine.set_network(options.eval.network());
    let started = Instant::now();
    let mut positions = 0u64;
    for game in 0..options.games {
        let (samples, result) = play_game(&mut engine, &mut rng, &options, tables.as_ref());
        for s in &samples {
            if writeln!(out, "{} | {} | {}", s.fen, s.white_score, result).is_err() {
                eprintln!("datagen: cannot write {}", options.out.display());
                return ExitCode::FAILURE;
            }
        }
        if out.flush().is_err() {
            eprintln!("datagen: cannot write {}", options.out.display());
            return ExitCode::FAILURE;
        }
        positions += samples.len() as u64;
        if (game + 1) % 50 == 0 {
            let secs = started.elapsed().as_secs_f64();
            eprintln!(
                "games {} positions {positions} ({:.0}/s, {:.1} games/s)",
                game + 1,
                positions as f64 / secs,
                (game + 1) as f64 / secs
            );
        }
    }
    ExitCode::SUCCESS
}

/// A random opening within 300 centipawns by the search, or the start position.
fn opening(engine: &mut Engine, rng: &mut StdRng, plies: u32, nodes: u64) -> Chess {
    for _ in 0..100 {
        let mut pos = Chess::default();
        let mut ok = true;
        for _ in 0..plies {
            let moves = pos.legal_moves();
            let Some(&m) = moves.choose(rng) else {
                ok = false;
                break;
            };
            pos.play_unchecked(m);
        }
        if !ok || pos.legal_moves().is_empty() {
            continue;
        }
        let (_, score) = search(engine, &pos, &[], nodes);
        if score.is_some_and(|s| s.abs() <= 300) {
            return pos;
        }
    }
    Chess::default()
}

/// The search's move and its centipawn score for the side to move (`None` for a mate score).
fn search(engine: &mut Engine, pos: &Chess, history: &[u64], nodes: u64) -> (Option<Move>, Option<i32>) {
    let limits = SearchLimits { nodes: Some(nodes), ..SearchLimits::default() };
    let stop = AtomicBool::new(false);
    let outcome = engine.search(pos, history, &limits, &stop, |_| {});
    let score = outcome.info.as_ref().and_then(|i| match i.score {
        Score::Cp(cp) => Some(cp),
        Score::Mate(_) => None,
    });
    (outcome.best, score)
}

/// Plays one game; its recorded positions and its result from White's side.
fn play_game(
    engine: &mut Engine,
    rng: &mut StdRng,
    options: &Options,
    tables: Option<&SyzygyTables>,
) -> (Vec<Sample>, &'static str) {
    engine.new_game();
    let mut pos = opening(engine, rng, options.random_plies, options.nodes);
    engine.new_game();
    let mut history: Vec<u64> = Vec::new();
    let mut samples = Vec::new();
    let mut winning_streak: (Option<Color>, u32) = (None, 0);
    let mut quiet_streak = 0u32;
    let mut ply = 0u32;
    let result = loop {
        if let Some(outcome) = pos.outcome().known() {
            break match outcome.winner() {
                Some(Color::White) => "1.0",
                Some(Color::Black) => "0.0",
                None => "0.5",
            };
        }
        if pos.halfmoves() >= 100 || is_repetition(&history, position_hash(&pos), pos.halfmoves()) {
            break "0.5";
        }
        if let Some(verdict) = tables.and_then(|t| t.verdict(&pos)) {
            break match verdict {
                TablebaseVerdict::Won(Color::White) => "1.0",
                TablebaseVerdict::Won(Color::Black) => "0.0",
                TablebaseVerdict::Drawn | TablebaseVerdict::CursedWin(_) => "0.5",
            };
        }
        let (best, score) = search(engine, &pos, &history, options.nodes);
        let Some(best) = best else { break "0.5" };
        let white = |s: i32| if pos.turn() == Color::White { s } else { -s };
        match score {
            Some(s) => {
                let s = white(s);
                if s.abs() < MAX_SCORE && !pos.is_check() && !best.is_capture() && !best.is_promotion() {
                    samples.push(Sample {
                        fen: Fen::from_position(&pos, EnPassantMode::Legal).to_string(),
                        white_score: s,
                    });
                }
                let leader = match s {
                    s if s >= 1000 => Some(Color::White),
                    s if s <= -1000 => Some(Color::Black),
                    _ => None,
                };
                winning_streak = if leader.is_some() && leader == winning_streak.0 {
                    (leader, winning_streak.1 + 1)
                } else {
                    (leader, u32::from(leader.is_some()))
                };
                quiet_streak = if s.abs() <= 10 { quiet_streak + 1 } else { 0 };
            }
            None => {
                winning_streak = (None, 0);
                quiet_streak = 0;
            }
        }
        if winning_streak.1 >= 6 {
            break if winning_streak.0 == Some(Color::White) { "1.0" } else { "0.0" };
        }
        if ply >= 80 && quiet_streak >= 12 {
            break "0.5";
        }
        history.push(position_hash(&pos));
        pos.play_unchecked(best);
        ply += 1;
    };
    (samples, result)
}

/// Whether the position with this hash occurred before within the last `halfmoves` plies.
fn is_repetition(history: &[u64], hash: u64, halfmoves: u32) -> bool {
    history.iter().rev().take(halfmoves as usize).any(|&h| h == hash)
}
