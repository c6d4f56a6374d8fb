//! Texel tuning of the evaluation weights in `engine/src/eval/weights.rs`:
//!
//! ```text
//! cargo run --release -p kibitz-engine --example tune -- [--pgn FILE_OR_DIR]... [--epochs N]
//!     [--rate CP] [--l2 LAMBDA] [--freeze NAME,...] [--write engine/src/eval/weights.rs]
//! ```
//!
//! Positions come from the games' main lines, from ply 8 on, not in check, each replaced by the
//! end of its quiescence search's principal variation (captures and promotions searched with
//! the engine's own evaluation), so that the labels meet quiet positions. Every tenth game is
//! held out for validation. The label is the game's result from White's side.
//!
//! The evaluation is linear in its weights (see `kibitz_engine::trace`), so the tuner fits the
//! sigmoid's scale `K` to the engine's current evaluation first, then minimises the mean squared
//! error of `sigmoid(K * eval)` against the results by full-batch gradient descent (Adam) on the
//! linear model, and rounds to integers. With `--write` it replaces the tuned constants in
//! weights.rs (run `rustfmt` on it afterwards); `--epochs 0` only reports the errors of the
//! weights the engine is built with.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use kibitz_engine::{EvalTrace, Term, current_weights, evaluate, read_games, trace};
use shakmaty::{Chess, Move, Position, Role};

/// The master games the weights are tuned on, relative to the engine crate.
const DEFAULT_PGN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/pgn/games");

/// The opening plies left out: book moves say little about the evaluation.
const SKIP_PLIES: usize = 8;

/// Every how many games one is held out for validation.
const HOLD_OUT_EVERY: usize = 10;

/// How deep the quiescence search that finds the quiet position may go, in captures.
const QUIET_DEPTH: u32 = 12;

/// The command line.
struct Options {
    pgn: Vec<PathBuf>,
    epochs: usize,
    rate: f64,
    write: Option<PathBuf>,
    /// The weights (by constant name) that keep their current values.
    freeze: Vec<String>,
    /// The strength of the pull towards the current weights: `LAMBDA` times the squared
    /// distance is added to the error.
    l2: f64,
}

fn parse_options() -> Result<Options, String> {
    let mut options =
        Options { pgn: Vec::new(), epochs: 3000, rate: 1.0, write: None, freeze: Vec::new(), l2: 0.0 };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--pgn" => options.pgn.push(value()?.into()),
            "--epochs" => options.epochs = value()?.parse().map_err(|e| format!("--epochs: {e}"))?,
            "--l2" => options.l2 = value()?.parse().map_err(|e| format!("--l2: {e}"))?,
            "--rate" => options.rate = value()?.parse().map_err(|e| format!("--rate: {e}"))?,
            "--write" => options.write = Some(value()?.into()),
            "--freeze" => options.freeze.extend(value()?.split(',').map(str::to_string)),
            _ => return Err(format!("unknown argument {arg}")),
        }
    }
    if options.pgn.is_empty() {
        options.pgn.push(DEFAULT_PGN.into());
    }
    Ok(options)
}

/// One training position: its weight counts (sparse), the untuned part, phase and result.
struct Sample {
    counts: Vec<(u16, f32)>,
    fixed: (f64, f64),
    /// The middlegame share of the blend, `phase / 24`.
    mg_share: f64,
    /// The game's result for White: 1, 0.5 or 0.
    result: f64,
    /// The engine's evaluation from White's side when the data were read.
    eval: f64,
}

impl Sample {
    fn new(trace: &EvalTrace, result: f64) -> Sample {
        let counts = trace
            .counts
            .iter()
            .enumerate()
            .filter(|(_, count)| **count != 0.0)
            .map(|(i, count)| (u16::try_from(i).expect("few weights"), *count as f32))
            .collect();
        Sample {
            counts,
            fixed: trace.fixed,
            mg_share: f64::from(trace.phase) / f64::from(EvalTrace::MAX_PHASE),
            result,
            eval: f64::from(trace.eval),
        }
    }

    /// The linear model's score from White's side.
    fn score(&self, weights: &[(f64, f64)]) -> f64 {
        let (mut mg, mut eg) = self.fixed;
        for &(i, count) in &self.counts {
            let w = weights[usize::from(i)];
            mg += f64::from(count) * w.0;
            eg += f64::from(count) * w.1;
        }
        mg * self.mg_share + eg * (1.0 - self.mg_share)
    }
}

/// The files to read: `path` itself or the `.pgn` files of a directory.
fn pgn_files(path: &Path) -> Vec<PathBuf> {
    if path.is_dir() {
        let mut files: Vec<PathBuf> = std::fs::read_dir(path)
            .map(|dir| dir.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        files.retain(|f| f.extension().is_some_and(|e| e == "pgn"));
        files.sort();
        files
    } else {
        vec![path.to_path_buf()]
    }
}

/// The value of a captured or capturing piece for ordering captures.
fn role_order(role: Role) -> i32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 100,
    }
}

/// Quiescence search over captures and promotions with the engine's evaluation: the score for
/// the side to move and the position at the end of the principal variation.
fn quiet(pos: &Chess, mut alpha: i32, beta: i32, depth: u32) -> (i32, Chess) {
    let stand = evaluate(pos);
    let mut best = (stand, pos.clone());
    if stand >= beta || depth == 0 {
        return best;
    }
    alpha = alpha.max(stand);
    let mut moves: Vec<Move> =
        pos.legal_moves().into_iter().filter(|m| m.is_capture() || m.is_promotion()).collect();
    moves.sort_by_key(|m| -(m.capture().map_or(0, role_order) * 16 - role_order(m.role())));
    for m in moves {
        let mut next = pos.clone();
        next.play_unchecked(m);
        let (score, leaf) = quiet(&next, -beta, -alpha, depth - 1);
        let score = -score;
        if score > best.0 {
            best = (score, leaf);
            alpha = alpha.max(score);
            if score >= beta {
                break;
            }
        }
    }
    best
}

/// Reads the samples of every game: (training, validation).
fn read_samples(paths: &[PathBuf]) -> (Vec<Sample>, Vec<Sample>) {
    let (mut train, mut valid) = (Vec::new(), Vec::new());
    let mut games = 0;
    for file in paths.iter().flat_map(|p| pgn_files(p)) {
        let Ok(text) = std::fs::read(&file) else {
            eprintln!("cannot read {}", file.display());
            continue;
        };
        for game in read_games(&text).flatten() {
            let result = match game.result() {
                "1-0" => 1.0,
                "0-1" => 0.0,
                "1/2-1/2" => 0.5,
                _ => continue,
            };
            let into = if games % HOLD_OUT_EVERY == HOLD_OUT_EVERY - 1 { &mut valid } else { &mut train };
            games += 1;
            for ply in SKIP_PLIES..=game.len() {
                let pos = game.position_at(ply);
                if pos.is_check() || pos.is_game_over() {
                    continue;
                }
                let (_, leaf) = quiet(pos, -30_000, 30_000, QUIET_DEPTH);
                if leaf.is_check() {
                    continue;
                }
                into.push(Sample::new(&trace(&leaf), result));
            }
        }
    }
    eprintln!("{games} games: {} training and {} validation positions", train.len(), valid.len());
    (train, valid)
}

fn sigmoid(k: f64, score: f64) -> f64 {
    1.0 / (1.0 + (-k * score).exp())
}

/// The mean squared error of `sigmoid(k * score)` against the results.
fn error(samples: &[Sample], k: f64, score: impl Fn(&Sample) -> f64) -> f64 {
    let sum: f64 = samples.iter().map(|s| (s.result - sigmoid(k, score(s))).powi(2)).sum();
    sum / samples.len().max(1) as f64
}

/// The `k` that fits the engine's evaluations best, by golden-section search.
fn fit_k(samples: &[Sample]) -> f64 {
    let golden = (5f64.sqrt() - 1.0) / 2.0;
    let f = |k: f64| error(samples, k, |s| s.eval);
    let (mut lo, mut hi) = (0.0001, 0.02);
    for _ in 0..60 {
        let (a, b) = (hi - golden * (hi - lo), lo + golden * (hi - lo));
        if f(a) < f(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Full-batch Adam on the linear model.
fn tune(
    samples: &[Sample],
    k: f64,
    start: &[(f64, f64)],
    frozen: &[bool],
    options: &Options,
) -> Vec<(f64, f64)> {
    let (epochs, rate, l2) = (options.epochs, options.rate, options.l2);
    let (beta1, beta2, epsilon): (f64, f64, f64) = (0.9, 0.999, 1e-8);
    let mut weights = start.to_vec();
    let mut m = vec![(0.0, 0.0); weights.len()];
    let mut v = vec![(0.0, 0.0); weights.len()];
    let n = samples.len() as f64;
    for epoch in 1..=epochs {
        let mut gradient = vec![(0.0, 0.0); weights.len()];
        for s in samples {
            let p = sigmoid(k, s.score(&weights));
            let g = 2.0 * (p - s.result) * p * (1.0 - p) * k / n;
            let (gm, ge) = (g * s.mg_share, g * (1.0 - s.mg_share));
            for &(i, count) in &s.counts {
                let entry = &mut gradient[usize::from(i)];
                entry.0 += gm * f64::from(count);
                entry.1 += ge * f64::from(count);
            }
        }
        for ((g, w), w0) in gradient.iter_mut().zip(&weights).zip(start) {
            g.0 += 2.0 * l2 * (w.0 - w0.0);
            g.1 += 2.0 * l2 * (w.1 - w0.1);
        }
        let t = i32::try_from(epoch).unwrap_or(i32::MAX);
        let (c1, c2) = (1.0 - beta1.powi(t), 1.0 - beta2.powi(t));
        for ((w, g), (m, v)) in weights
            .iter_mut()
            .zip(&gradient)
            .zip(m.iter_mut().zip(v.iter_mut()))
            .zip(frozen)
            .filter(|(_, frozen)| !**frozen)
            .map(|(w, _)| w)
        {
            m.0 = beta1 * m.0 + (1.0 - beta1) * g.0;
            m.1 = beta1 * m.1 + (1.0 - beta1) * g.1;
            v.0 = beta2 * v.0 + (1.0 - beta2) * g.0 * g.0;
            v.1 = beta2 * v.1 + (1.0 - beta2) * g.1 * g.1;
            w.0 -= rate * (m.0 / c1) / ((v.0 / c2).sqrt() + epsilon);
            w.1 -= rate * (m.1 / c1) / ((v.1 / c2).sqrt() + epsilon);
        }
        if epoch % 250 == 0 {
            eprintln!("epoch {epoch}: training error {:.6}", error(samples, k, |s| s.score(&weights)));
        }
    }
    weights
}

/// The Rust text of a term's tuned value.
fn rust_value(term: Term, weights: &[(i32, i32)]) -> String {
    let values: Vec<String> = weights.iter().map(|(mg, eg)| format!("s({mg}, {eg})")).collect();
    if term.weights().len() == 1 { values[0].clone() } else { format!("[{}]", values.join(", ")) }
}

/// Replaces the value of every tuned constant in weights.rs.
fn write_weights(path: &Path, weights: &[(i32, i32)]) -> Result<(), String> {
    let mut text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    for term in Term::ALL {
        let slice = &weights[term.offset()..term.offset() + term.weights().len()];
        let head = format!("pub const {}: ", term.name());
        let start = text.find(&head).ok_or(format!("{} not found", term.name()))?;
        let equals = start + text[start..].find(" = ").ok_or("no value")? + 3;
        let end = equals + text[equals..].find(';').ok_or("no semicolon")?;
        text.replace_range(equals..end, &rust_value(term, slice));
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

fn main() -> ExitCode {
    let options = match parse_options() {
        Ok(options) => options,
        Err(e) => {
            eprintln!("tune: {e}");
            return ExitCode::FAILURE;
        }
    };
    let started = Instant::now();
    let (train, valid) = read_samples(&options.pgn);
    eprintln!("read in {:.1} s", started.elapsed().as_secs_f64());
    let current = current_weights();
    let drift = train.iter().map(|s| (s.score(&current) - s.eval).abs()).fold(0.0, f64::max);
    eprintln!("largest difference between the linear model and evaluate(): {drift:.2} cp");

    let k = fit_k(&train);
    println!("K = {k:.6} per centipawn (Texel's K = {:.4} with base 10 and 400)", k * 400.0 / 10f64.ln());
    println!(
        "before: training error {:.6}, validation error {:.6} (evaluate())",
        error(&train, k, |s| s.eval),
        error(&valid, k, |s| s.eval)
    );
    if options.epochs == 0 {
        return ExitCode::SUCCESS;
    }
    let mut frozen = vec![false; current.len()];
    for term in Term::ALL.into_iter().filter(|term| options.freeze.iter().any(|name| name == term.name())) {
        frozen[term.offset()..term.offset() + term.weights().len()].fill(true);
    }
    let tuned = tune(&train, k, &current, &frozen, &options);
    let rounded: Vec<(i32, i32)> = tuned.iter().map(|w| (w.0.round() as i32, w.1.round() as i32)).collect();
    let as_float: Vec<(f64, f64)> = rounded.iter().map(|&(mg, eg)| (f64::from(mg), f64::from(eg))).collect();
    println!(
        "after:  training error {:.6}, validation error {:.6} (linear model, integer weights)",
        error(&train, k, |s| s.score(&as_float)),
        error(&valid, k, |s| s.score(&as_float))
    );
    for term in Term::ALL {
        let slice = &rounded[term.offset()..term.offset() + term.weights().len()];
        println!("{} = {}", term.name(), rust_value(term, slice));
    }
    eprintln!("done in {:.1} s", started.elapsed().as_secs_f64());
    if let Some(path) = options.write {
        if let Err(e) = write_weights(&path, &rounded) {
            eprintln!("tune: {e}");
            return ExitCode::FAILURE;
        }
        println!("wrote {}", path.display());
    }
    ExitCode::SUCCESS
}
