//! Trains Kibitz's efficiently updatable evaluation network (NNUE) on scored positions:
//!
//! ```text
//! cargo run --release -p kibitz-engine --example train_network -- --data FILE [--data FILE]... --out NET
//!     [--hidden 128] [--epochs 20] [--batch 16384] [--lr 0.001] [--lr-drop-every 8] [--lr-gamma 0.3]
//!     [--wdl 0.3] [--weight-decay 0.01] [--threads N] [--seed 1] [--validation 0.02]
//!     [--max-positions N] [--mirror] [--init NET] [--scale 1] [--buckets 1] [--king-buckets 1]
//!     [--output-only]
//! cargo run --release -p kibitz-engine --example train_network -- --init NET --epochs 0 --scale F --out NET2
//! ```
//!
//! **Data.** Text files as the `datagen` example writes them, one position a line:
//! `<FEN> | <score> | <result>`, the score in centipawns and the result (1.0, 0.5 or 0.0) both
//! from White's side. Both are turned to the side to move's point of view. Lines that do not
//! parse (or hold an illegal position) are counted and skipped; a last line without its newline
//! is taken to be still being written and skipped too. At most `--max-positions` positions are
//! read. The last `--validation` share of each file's positions is held out for the
//! validation loss: `datagen` appends whole games, so the held-out positions come from games
//! the training set has none of (positions of one game are too alike to test each other). The
//! training set is shuffled every epoch. `--mirror` adds each training position mirrored
//! left to right (a1 to h1) with the same score and result: the features hold no castling
//! rights, so the mirrored position is worth the same to the network. The validation set is
//! left as it was read, so its loss compares with a run without `--mirror`.
//!
//! **Model.** 768 features per perspective: for perspective `p`, a piece of colour `c` and role
//! `r` (pawn 0 .. king 5) on square `sq` (a1 0 .. h8 63) is feature
//! `side * 384 + r * 64 + sq'` with `side` 0 for `p`'s own pieces and 1 for the other's and
//! `sq'` the square, flipped vertically (`sq ^ 56`) for Black. One hidden layer of `--hidden`
//! neurons (a multiple of 16), shared by both perspectives: `acc_p = b1 + sum of W1[f]`. The
//! activation is SCReLU, `clamp(acc, 0, 1)^2`, and the output
//! `out = W2[..H] . a_stm + W2[H..] . a_ntm + b2` with the side to move's half first; the
//! evaluation is `out * 400` centipawns. With `--buckets B` the output layer (`W2`, `b2`) comes
//! in B copies, and a position is evaluated by the copy of its number of pieces (the engine's
//! `output_bucket`: 2 to 32 pieces cut into B nearly equal ranges). With `--king-buckets 4`
//! the first layer's weights `W1` come in 4 copies, and each perspective's features use the
//! copy of where its own king stands (the engine's `king_bucket`): feature `f` of king bucket
//! `k` is `k * 768 + f`.
//!
//! **Start.** Random weights (below), or with `--init NET` the weights of a network file of
//! the format below, divided by their quantisation factors: to go on training a network on new
//! data. Its hidden layer's size is taken from the file unless `--hidden` asks for a wider one:
//! then the network is widened: its neurons are kept, the new ones get input weights and
//! biases as a fresh network's and output weights of 0, so that the widened network evaluates
//! every position as the file's did and the new neurons learn from there. A narrower
//! `--hidden` is refused. Likewise a one-bucket `--init` network given `--buckets B` starts
//! with its output layer copied into every bucket, evaluating as before; a network of several
//! buckets keeps them, and a different `--buckets` is refused; the same goes for
//! `--king-buckets`, whose copies of `W1` start as the one-bucket network's. `--output-only`
//! trains the output layer alone and keeps the hidden layer as `--init` had it.
//!
//! **Loss.** The mean squared error between `sigmoid(out)` and the target
//! `(1 - wdl) * sigmoid(score / 400) + wdl * result` (`--wdl`). AdamW (0.9, 0.999, 1e-8) with
//! decoupled weight decay `--weight-decay` on `W1` and `W2`; the learning rate `--lr` is
//! multiplied by `--lr-gamma` every `--lr-drop-every` epochs. After every step `W1`, `b1` and
//! `W2` are clamped to ±1.98 so that they quantise into `i16` safely. Each batch is split
//! across `--threads` threads (default: all cores).
//!
//! **Output.** After every epoch `NET` is written (as `NET.tmp`, then renamed), little-endian:
//! the magic `KBZNET02`, `H` and `B` as `u32`, `W1` as `i16 [768 * H]` feature by feature
//! (`w * 255`; with king buckets, the magic `KBZNET03`, `K` as a third `u32` after `B`, and
//! `W1` as `i16 [K * 768 * H]`, king bucket by king bucket), `b1` as `i16 [H]` (`b * 255`),
//! `W2` as `i16 [B * 2 * H]` (`w * 64`) and `b2` as `i32 [B]` (`b * 255 * 64`), all rounded. The engine evaluates it in integers; at the end the trainer
//! checks that integer evaluation against the float model on validation positions.
//!
//! **Scale.** `--scale F` writes the network with `W2` and `b2` multiplied by `F`, so that
//! every evaluation is `F` times the model's and positions rank as before: networks trained on
//! their own search scores come out larger than the truth, and the search's margins suit an
//! evaluation near Stockfish's scale (README). The model trains at its own scale; the
//! quantisation check compares the file with the scaled model. With `--epochs 0` and `--init`,
//! `--data` may be left out: the file is then only rescaled.
//!
//! **Code.** `options` reads the command line, `sample` the data, `model` holds the float
//! network and its optimiser, `quantised` the file the engine reads; this file trains.

mod model;
mod options;
mod quantised;
mod sample;

use std::process::ExitCode;
use std::time::Instant;

use kibitz_engine::Network;
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use shakmaty::Chess;

use model::{AdamW, Layout, Scratch, backward, forward, initial_parameters, loss_sum, widened};
use options::{Options, parse_options};
use quantised::{Quantised, dequantised};
use sample::{Sample, read_data};

/// Features per perspective: 2 sides × 6 roles × 64 squares, as the engine reads them.
const FEATURES: usize = Network::INPUTS;

/// The most pieces a position may hold (the piece codes are packed for 32).
const MAX_PIECES: usize = 32;

/// Evaluation units per unit of the network's output, and the sigmoid's scale of scores.
const SCALE: f32 = Network::SCALE as f32;

/// The quantisation factor of the first layer (`W1`, `b1`) and the activation's range: the
/// engine's, so that the file reads as it was written.
const QA: i32 = Network::QA;

/// The quantisation factor of the output weights `W2`.
const QB: i32 = Network::QB;

/// The bound on `W1`, `b1` and `W2` that keeps their quantised values and sums in `i16`.
const CLIP: f32 = 1.98;

/// How many validation positions the quantisation check evaluates.
const CHECK_POSITIONS: usize = 1000;

/// One epoch of minibatch training over `train`; returns the mean training loss.
fn train_epoch(
    params: &mut [f32],
    layout: &Layout,
    train: &[Sample],
    grads: &mut [Vec<f32>],
    adam: &mut AdamW,
    lr: f32,
    options: &Options,
) -> f64 {
    let mut total = 0.0;
    for batch in train.chunks(options.batch) {
        let scale = 1.0 / batch.len() as f32;
        let per = batch.len().div_ceil(grads.len());
        let shared: &[f32] = params;
        let losses: f64 = std::thread::scope(|scope| {
            let handles: Vec<_> = batch
                .chunks(per)
                .zip(grads.iter_mut())
                .map(|(chunk, grad)| {
                    scope.spawn(move || {
                        grad.fill(0.0);
                        let mut s = Scratch::new(layout.h);
                        chunk
                            .iter()
                            .map(|sample| f64::from(backward(shared, layout, sample, scale, &mut s, grad)))
                            .sum::<f64>()
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap_or(f64::NAN)).sum()
        });
        total += losses;
        let used = batch.len().div_ceil(per);
        let (first, rest) = grads.split_at_mut(1);
        for other in &rest[..used - 1] {
            for (a, b) in first[0].iter_mut().zip(other) {
                *a += b;
            }
        }
        adam.step(params, &first[0], layout, lr, options.weight_decay);
    }
    total / train.len().max(1) as f64
}

fn main() -> ExitCode {
    match train() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("train_network: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Reads the options and the data, trains and writes the network (or only rescales one).
fn train() -> Result<(), String> {
    let options = parse_options()?;
    let started = Instant::now();
    let mut rng = StdRng::seed_from_u64(options.seed);
    let layout = Layout {
        h: options.hidden,
        buckets: options.buckets,
        kings: options.king_buckets,
        train_hidden: !options.output_only,
    };
    let mut params = match &options.init {
        Some(network) => widened(&dequantised(network), &Layout::of_network(network), &layout, &mut rng),
        None => initial_parameters(&layout, &mut rng),
    };
    if options.data.is_empty() && options.init.is_some() {
        // Only a rescale of the --init network (widened, if --hidden asks for more neurons).
        Quantised::new(&params, &layout, options.scale)?.write(&options.out)?;
        println!("wrote {} at {} times the size of the --init network", options.out.display(), options.scale);
        return Ok(());
    }
    let (mut samples, mut valid) = (Vec::new(), Vec::new());
    for path in &options.data {
        let before = samples.len();
        read_data(path, options.wdl, options.max_positions, &mut samples)?;
        let read = samples.len() - before;
        let held_out = (read as f64 * options.validation).round() as usize;
        valid.extend(samples.drain(samples.len() - held_out..));
    }
    if samples.is_empty() {
        return Err("no positions".into());
    }

    let mut train = samples;
    if options.mirror {
        let mirrored: Vec<Sample> = train.iter().map(Sample::mirrored).collect();
        train.extend(mirrored);
    }
    train.shuffle(&mut rng);
    eprintln!(
        "{} training and {} validation positions ({} MB) read in {:.1} s; {} threads",
        train.len(),
        valid.len(),
        (train.len() + valid.len()) * std::mem::size_of::<Sample>() / 1_000_000,
        started.elapsed().as_secs_f64(),
        options.threads
    );

    let mut grads = vec![vec![0f32; layout.len()]; options.threads];
    let mut adam = AdamW::new(layout.len());
    // The mean loss over `samples`, printed.
    let mean = |samples: &[Sample], params: &[f32]| {
        if samples.is_empty() {
            "-".to_string()
        } else {
            format!("{:.6}", loss_sum(params, &layout, samples, options.threads) / samples.len() as f64)
        }
    };
    println!("start: train loss {}, validation loss {}", mean(&train, &params), mean(&valid, &params));
    let training = Instant::now();
    let mut lr = options.lr;
    for epoch in 1..=options.epochs {
        if epoch > 1 && (epoch - 1) % options.lr_drop_every == 0 {
            lr *= options.lr_gamma;
        }
        let epoch_started = Instant::now();
        train.shuffle(&mut rng);
        let train_loss = train_epoch(&mut params, &layout, &train, &mut grads, &mut adam, lr, &options);
        let speed = train.len() as f64 / epoch_started.elapsed().as_secs_f64();
        let valid_loss = mean(&valid, &params);
        println!(
            "epoch {epoch:3}: lr {lr:.6}, train loss {train_loss:.6}, validation loss {valid_loss}, \
             {speed:.0} positions/s, {:.1} s",
            training.elapsed().as_secs_f64()
        );
        Quantised::new(&params, &layout, options.scale)?.write(&options.out)?;
    }
    let quantised = Quantised::new(&params, &layout, options.scale)?;
    if options.epochs == 0 {
        quantised.write(&options.out)?;
    }
    println!("wrote {}", options.out.display());

    // The quantisation check: the engine's integer evaluation against the float model.
    let checked = if valid.is_empty() { &train } else { &valid };
    let checked = &checked[..checked.len().min(CHECK_POSITIONS)];
    let mut s = Scratch::new(layout.h);
    let (mut quant_error, mut data_error) = (0.0, 0.0);
    let scale = f64::from(options.scale);
    for sample in checked {
        let float_cp = f64::from(forward(&params, &layout, sample, &mut s) * SCALE);
        quant_error += (float_cp * scale - quantised.evaluate(sample) as f64).abs();
        data_error += (float_cp - f64::from(sample.score)).abs();
    }
    let n = checked.len().max(1) as f64;
    println!(
        "{} {} positions: mean |integer - float × scale| {:.2} cp, mean |float - data score| {:.1} cp",
        checked.len(),
        if valid.is_empty() { "training" } else { "validation" },
        quant_error / n,
        data_error / n
    );
    if let Some(start) = Sample::new(&Chess::default(), 0, 0.5, options.wdl) {
        let float_cp = forward(&params, &layout, &start, &mut s) * SCALE;
        let scaled = float_cp * options.scale;
        println!("start position: float {scaled:.1} cp, integer {} cp", quantised.evaluate(&start));
    }
    eprintln!("done in {:.1} s", started.elapsed().as_secs_f64());
    Ok(())
}
