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

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use kibitz_engine::{KING_BUCKETS, Network, king_bucket, output_bucket};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, Position, Role, Square};

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

/// The command line.
struct Options {
    data: Vec<PathBuf>,
    out: PathBuf,
    hidden: usize,
    epochs: usize,
    batch: usize,
    lr: f32,
    lr_drop_every: usize,
    lr_gamma: f32,
    wdl: f32,
    weight_decay: f32,
    threads: usize,
    seed: u64,
    validation: f64,
    max_positions: usize,
    mirror: bool,
    /// The network of `--init`, read while the options are checked.
    init: Option<Network>,
    /// The factor of the written network's output layer.
    scale: f32,
    /// The output layer's buckets.
    buckets: usize,
    /// The first layer's king buckets.
    king_buckets: usize,
    /// Whether only the output layer learns.
    output_only: bool,
}

fn parse_options() -> Result<Options, String> {
    let mut o = Options {
        data: Vec::new(),
        out: PathBuf::new(),
        hidden: 128,
        epochs: 20,
        batch: 16384,
        lr: 0.001,
        lr_drop_every: 8,
        lr_gamma: 0.3,
        wdl: 0.3,
        weight_decay: 0.01,
        threads: std::thread::available_parallelism().map_or(1, usize::from),
        seed: 1,
        validation: 0.02,
        max_positions: usize::MAX,
        mirror: false,
        init: None,
        scale: 1.0,
        buckets: 1,
        king_buckets: 1,
        output_only: false,
    };
    let mut hidden_given = false;
    let mut buckets_given = false;
    let mut kings_given = false;
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{flag} needs a value"));
        fn number<T: std::str::FromStr>(flag: &str, v: &str) -> Result<T, String>
        where
            T::Err: std::fmt::Display,
        {
            v.parse::<T>().map_err(|e| format!("{flag} {v}: {e}"))
        }
        match flag.as_str() {
            "--data" => o.data.push(PathBuf::from(value()?)),
            "--out" => o.out = PathBuf::from(value()?),
            "--hidden" => {
                o.hidden = number(&flag, &value()?)?;
                hidden_given = true;
            }
            "--epochs" => o.epochs = number(&flag, &value()?)?,
            "--batch" => o.batch = number(&flag, &value()?)?,
            "--lr" => o.lr = number(&flag, &value()?)?,
            "--lr-drop-every" => o.lr_drop_every = number(&flag, &value()?)?,
            "--lr-gamma" => o.lr_gamma = number(&flag, &value()?)?,
            "--wdl" => o.wdl = number(&flag, &value()?)?,
            "--weight-decay" => o.weight_decay = number(&flag, &value()?)?,
            "--threads" => o.threads = number(&flag, &value()?)?,
            "--seed" => o.seed = number(&flag, &value()?)?,
            "--validation" => o.validation = number(&flag, &value()?)?,
            "--max-positions" => o.max_positions = number(&flag, &value()?)?,
            "--mirror" => o.mirror = true,
            "--scale" => o.scale = number(&flag, &value()?)?,
            "--buckets" => {
                o.buckets = number(&flag, &value()?)?;
                buckets_given = true;
            }
            "--king-buckets" => {
                o.king_buckets = number(&flag, &value()?)?;
                kings_given = true;
            }
            "--output-only" => o.output_only = true,
            "--init" => {
                let path = PathBuf::from(value()?);
                let read = std::fs::read(&path).map_err(|e| e.to_string());
                let network = read.and_then(|b| Network::from_bytes(&b).map_err(|e| e.to_string()));
                o.init = Some(network.map_err(|e| format!("--init {}: {e}", path.display()))?);
            }
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    if o.data.is_empty() && !(o.epochs == 0 && o.init.is_some()) {
        return Err("--data FILE is required (unless --epochs 0 rescales an --init network)".into());
    }
    if o.out.as_os_str().is_empty() {
        return Err("--out NET is required".into());
    }
    if let Some(init) = &o.init {
        let h = init.hidden();
        if !hidden_given {
            o.hidden = h;
        } else if o.hidden < h {
            return Err(format!("--hidden {} is narrower than the --init network's {h} neurons", o.hidden));
        }
        let b = init.buckets();
        if !buckets_given {
            o.buckets = b;
        } else if b != 1 && o.buckets != b {
            return Err(format!("--buckets {} differs from the --init network's {b} buckets", o.buckets));
        }
        let k = init.king_buckets();
        if !kings_given {
            o.king_buckets = k;
        } else if k != 1 && o.king_buckets != k {
            return Err(format!("--king-buckets {} differs from the --init network's {k}", o.king_buckets));
        }
    } else if o.output_only {
        return Err("--output-only needs an --init network to keep the hidden layer of".into());
    }
    if o.buckets == 0 || o.buckets > kibitz_engine::MAX_BUCKETS {
        return Err(format!("--buckets {} must be within 1 and {}", o.buckets, kibitz_engine::MAX_BUCKETS));
    }
    if o.king_buckets != 1 && o.king_buckets != KING_BUCKETS {
        return Err(format!("--king-buckets {} must be 1 or {KING_BUCKETS}", o.king_buckets));
    }
    if o.hidden == 0 || !o.hidden.is_multiple_of(16) {
        return Err(format!("--hidden {} must be a positive multiple of 16", o.hidden));
    }
    if o.batch == 0 || o.threads == 0 || o.lr_drop_every == 0 {
        return Err("--batch, --threads and --lr-drop-every must be positive".into());
    }
    if !(0.0..=1.0).contains(&o.wdl) {
        return Err(format!("--wdl {} must be within 0 and 1", o.wdl));
    }
    if !(0.0..1.0).contains(&o.validation) {
        return Err(format!("--validation {} must be at least 0 and below 1", o.validation));
    }
    if !(o.lr.is_finite() && o.lr > 0.0 && o.lr_gamma.is_finite() && o.weight_decay.is_finite()) {
        return Err("--lr must be positive, --lr-gamma and --weight-decay finite".into());
    }
    if !(o.scale.is_finite() && o.scale > 0.0) {
        return Err(format!("--scale {} must be a positive number", o.scale));
    }
    Ok(o)
}

/// One training position, packed: 40 bytes.
#[derive(Clone, Copy)]
struct Sample {
    /// The occupied squares.
    occupied: u64,
    /// The pieces of the occupied squares from a1 to h8, 4 bits each: `colour * 6 + role`,
    /// colour 0 for White, role 0 (pawn) to 5 (king).
    pieces: [u8; MAX_PIECES / 2],
    /// `(1 - wdl) * sigmoid(score / 400) + wdl * result`, for the side to move.
    target: f32,
    /// The data's score in centipawns for the side to move.
    score: i32,
    white_to_move: bool,
    /// The squares of White's and Black's king (a1 0 .. h8 63).
    kings: [u8; 2],
}

/// A role's feature number, pawn 0 to king 5.
fn role_index(role: Role) -> u8 {
    match role {
        Role::Pawn => 0,
        Role::Knight => 1,
        Role::Bishop => 2,
        Role::Rook => 3,
        Role::Queen => 4,
        Role::King => 5,
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl Sample {
    /// Packs a position with its score and result, both for White; `None` with too many pieces.
    fn new(pos: &Chess, white_score: i32, white_result: f32, wdl: f32) -> Option<Sample> {
        let board = pos.board();
        if board.occupied().count() > MAX_PIECES {
            return None;
        }
        let mut pieces = [0u8; MAX_PIECES / 2];
        let mut occupied = 0u64;
        // In the order of `features`, from a1 to h8.
        for (n, sq) in board.occupied().into_iter().enumerate() {
            let piece = board.piece_at(sq)?;
            let code = u8::from(piece.color == Color::Black) * 6 + role_index(piece.role);
            pieces[n / 2] |= code << (4 * (n % 2));
            occupied |= 1u64 << u8::from(sq);
        }
        let white_to_move = pos.turn() == Color::White;
        let (score, result) =
            if white_to_move { (white_score, white_result) } else { (-white_score, 1.0 - white_result) };
        let target = (1.0 - wdl) * sigmoid(score as f32 / SCALE) + wdl * result;
        let kings = [Color::White, Color::Black].map(|c| board.king_of(c).map_or(0, u8::from));
        Some(Sample { occupied, pieces, target, score, white_to_move, kings })
    }

    /// The same position mirrored left to right (the a-file becomes the h-file), with the
    /// same target.
    fn mirrored(&self) -> Sample {
        let mut squares = [(0u8, 0u8); MAX_PIECES];
        let mut bits = self.occupied;
        let mut n = 0;
        while bits != 0 {
            let sq = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            squares[n] = (sq ^ 7, (self.pieces[n / 2] >> (4 * (n % 2))) & 15);
            n += 1;
        }
        let squares = &mut squares[..n];
        squares.sort_unstable_by_key(|&(sq, _)| sq);
        let mut pieces = [0u8; MAX_PIECES / 2];
        let mut occupied = 0u64;
        for (i, &(sq, code)) in squares.iter().enumerate() {
            pieces[i / 2] |= code << (4 * (i % 2));
            occupied |= 1u64 << sq;
        }
        Sample { occupied, pieces, kings: self.kings.map(|k| k ^ 7), ..*self }
    }

    /// The output bucket, of `buckets`, of the position.
    fn bucket(&self, buckets: usize) -> usize {
        output_bucket(self.occupied.count_ones() as usize, buckets)
    }

    /// Writes the features of the side to move's and the other side's perspective, for a
    /// first layer of `king_buckets`; returns how many each has.
    fn features(
        &self,
        king_buckets: usize,
        stm: &mut [u16; MAX_PIECES],
        ntm: &mut [u16; MAX_PIECES],
    ) -> usize {
        let mut bits = self.occupied;
        let mut n = 0;
        let (stm_colour, stm_flip) = if self.white_to_move { (0, 0) } else { (1, 56) };
        // Each perspective's features are offset by its king bucket's 768.
        let offset = |colour: Color| {
            let king = Square::new(u32::from(self.kings[usize::from(colour == Color::Black)]));
            (king_bucket(colour, king, king_buckets) * FEATURES) as u16
        };
        let stm_turn = if self.white_to_move { Color::White } else { Color::Black };
        let (stm_offset, ntm_offset) = (offset(stm_turn), offset(!stm_turn));
        while bits != 0 {
            let sq = bits.trailing_zeros() as u16;
            bits &= bits - 1;
            let code = u16::from((self.pieces[n / 2] >> (4 * (n % 2))) & 15);
            let (colour, role) = (code / 6, code % 6);
            // Own pieces are side 0; Black's perspective flips the board vertically.
            let own = u16::from(colour != stm_colour);
            stm[n] = stm_offset + own * 384 + role * 64 + (sq ^ stm_flip);
            ntm[n] = ntm_offset + (1 - own) * 384 + role * 64 + (sq ^ stm_flip ^ 56);
            n += 1;
        }
        n
    }
}

/// The float network as one flat parameter vector: `W1 [K * 768 * H]`, `b1 [H]`, `W2 [B * 2 *
/// H]`, `b2 [B]`.
#[derive(Clone, Copy)]
struct Layout {
    h: usize,
    /// The output layer's buckets.
    buckets: usize,
    /// The first layer's king buckets.
    kings: usize,
    /// Whether the hidden layer (`W1`, `b1`) learns: not with `--output-only`.
    train_hidden: bool,
}

impl Layout {
    /// A layout of `h` hidden neurons and one output bucket, all of it learning.
    #[cfg(test)]
    fn of(h: usize) -> Layout {
        Layout { h, buckets: 1, kings: 1, train_hidden: true }
    }
    /// The layout of a network file's parameters, all of it learning.
    fn of_network(network: &Network) -> Layout {
        Layout {
            h: network.hidden(),
            buckets: network.buckets(),
            kings: network.king_buckets(),
            train_hidden: true,
        }
    }
    /// The first layer's inputs: its features in every king bucket.
    fn inputs(&self) -> usize {
        self.kings * FEATURES
    }
    /// The first layer's weights, feature-major.
    fn w1(&self) -> std::ops::Range<usize> {
        0..self.inputs() * self.h
    }
    /// The first layer's biases.
    fn b1(&self) -> std::ops::Range<usize> {
        self.inputs() * self.h..(self.inputs() + 1) * self.h
    }
    /// The output weights, bucket by bucket: the side to move's half, then the other's.
    fn w2(&self) -> std::ops::Range<usize> {
        (self.inputs() + 1) * self.h..(self.inputs() + 1 + 2 * self.buckets) * self.h
    }
    /// The output weights of `bucket`.
    fn w2_of(&self, bucket: usize) -> std::ops::Range<usize> {
        let start = self.w2().start + bucket * 2 * self.h;
        start..start + 2 * self.h
    }
    /// The output biases, one a bucket.
    fn b2(&self) -> std::ops::Range<usize> {
        let start = self.w2().end;
        start..start + self.buckets
    }
    /// The output bias of `bucket`.
    fn b2_of(&self, bucket: usize) -> usize {
        self.b2().start + bucket
    }
    /// The number of parameters.
    fn len(&self) -> usize {
        self.b2().end
    }
}

/// The activations of one position, reused from position to position.
struct Scratch {
    /// The features of the side to move's and the other side's perspective.
    stm: [u16; MAX_PIECES],
    ntm: [u16; MAX_PIECES],
    /// How many of them there are (the same for both).
    count: usize,
    /// The accumulators (before the activation).
    acc_stm: Vec<f32>,
    acc_ntm: Vec<f32>,
    /// The gradients of the loss with respect to the accumulators.
    d_stm: Vec<f32>,
    d_ntm: Vec<f32>,
}

impl Scratch {
    fn new(h: usize) -> Scratch {
        Scratch {
            stm: [0; MAX_PIECES],
            ntm: [0; MAX_PIECES],
            count: 0,
            acc_stm: vec![0.0; h],
            acc_ntm: vec![0.0; h],
            d_stm: vec![0.0; h],
            d_ntm: vec![0.0; h],
        }
    }
}

/// `acc = b1 + the rows of w1 of the features`.
fn accumulate(acc: &mut [f32], b1: &[f32], w1: &[f32], features: &[u16]) {
    let h = acc.len();
    acc.copy_from_slice(b1);
    for &f in features {
        let row = &w1[usize::from(f) * h..][..h];
        for (a, w) in acc.iter_mut().zip(row) {
            *a += w;
        }
    }
}

/// `sum clamp(acc, 0, 1)^2 * w` in 8 lanes, so that it vectorises.
fn screlu_dot(acc: &[f32], w: &[f32]) -> f32 {
    let mut lanes = [0f32; 8];
    for (a, w) in acc.chunks_exact(8).zip(w.chunks_exact(8)) {
        for i in 0..8 {
            let c = a[i].clamp(0.0, 1.0);
            lanes[i] += c * c * w[i];
        }
    }
    lanes.iter().sum()
}

/// The network's output for the side to move (centipawns / 400); leaves the accumulators and
/// features in `s`.
fn forward(params: &[f32], layout: &Layout, sample: &Sample, s: &mut Scratch) -> f32 {
    s.count = sample.features(layout.kings, &mut s.stm, &mut s.ntm);
    let (w1, b1) = (&params[layout.w1()], &params[layout.b1()]);
    accumulate(&mut s.acc_stm, b1, w1, &s.stm[..s.count]);
    accumulate(&mut s.acc_ntm, b1, w1, &s.ntm[..s.count]);
    let (h, bucket) = (layout.h, sample.bucket(layout.buckets));
    let w2 = &params[layout.w2_of(bucket)];
    screlu_dot(&s.acc_stm, &w2[..h]) + screlu_dot(&s.acc_ntm, &w2[h..]) + params[layout.b2_of(bucket)]
}

/// Adds the gradient of `scale * (sigmoid(out) - target)^2` to `grad`; returns the squared error.
fn backward(
    params: &[f32],
    layout: &Layout,
    sample: &Sample,
    scale: f32,
    s: &mut Scratch,
    grad: &mut [f32],
) -> f32 {
    let out = forward(params, layout, sample, s);
    let p = sigmoid(out);
    let error = p - sample.target;
    let g = scale * 2.0 * error * p * (1.0 - p);
    let (h, bucket) = (layout.h, sample.bucket(layout.buckets));
    let w2 = &params[layout.w2_of(bucket)];
    grad[layout.b2_of(bucket)] += g;
    {
        let gw2 = &mut grad[layout.w2_of(bucket)];
        let (g_stm, g_ntm) = gw2.split_at_mut(h);
        for (acc, w, gw, d) in
            [(&s.acc_stm, &w2[..h], g_stm, &mut s.d_stm), (&s.acc_ntm, &w2[h..], g_ntm, &mut s.d_ntm)]
        {
            for (((&x, &w), gw), d) in acc.iter().zip(w).zip(gw.iter_mut()).zip(d.iter_mut()) {
                let c = x.clamp(0.0, 1.0);
                *gw += g * c * c;
                *d = if x > 0.0 && x < 1.0 { 2.0 * g * w * x } else { 0.0 };
            }
        }
    }
    if !layout.train_hidden {
        return error * error;
    }
    for ((gb, ds), dn) in grad[layout.b1()].iter_mut().zip(&s.d_stm).zip(&s.d_ntm) {
        *gb += ds + dn;
    }
    let gw1 = &mut grad[layout.w1()];
    for (features, d) in [(&s.stm[..s.count], &s.d_stm), (&s.ntm[..s.count], &s.d_ntm)] {
        for &f in features {
            let row = &mut gw1[usize::from(f) * h..][..h];
            for (r, d) in row.iter_mut().zip(d) {
                *r += d;
            }
        }
    }
    error * error
}

/// The summed squared error over `samples`, split across `threads`.
fn loss_sum(params: &[f32], layout: &Layout, samples: &[Sample], threads: usize) -> f64 {
    let per = samples.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = samples
            .chunks(per)
            .map(|chunk| {
                scope.spawn(move || {
                    let mut s = Scratch::new(layout.h);
                    chunk
                        .iter()
                        .map(|sample| {
                            let e = sigmoid(forward(params, layout, sample, &mut s)) - sample.target;
                            f64::from(e * e)
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or(f64::NAN)).sum()
    })
}

/// AdamW's moments and step count.
struct AdamW {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
}

impl AdamW {
    const BETA1: f32 = 0.9;
    const BETA2: f32 = 0.999;
    const EPSILON: f32 = 1e-8;

    /// One step on `params`; weight decay and clamping on `W1` and `W2`, clamping on `b1`;
    /// the hidden layer is left as it is when it does not learn.
    fn step(&mut self, params: &mut [f32], grad: &[f32], layout: &Layout, lr: f32, decay: f32) {
        self.t = self.t.saturating_add(1);
        let c1 = 1.0 - Self::BETA1.powi(self.t);
        let c2 = 1.0 - Self::BETA2.powi(self.t);
        // (range, weight decay, clamp)
        let segments = [
            (layout.w1(), decay, CLIP),
            (layout.b1(), 0.0, CLIP),
            (layout.w2(), decay, CLIP),
            (layout.b2(), 0.0, f32::MAX),
        ];
        let skip = if layout.train_hidden { 0 } else { 2 };
        for (range, decay, clip) in segments.into_iter().skip(skip) {
            let keep = 1.0 - lr * decay;
            let (p, g) = (&mut params[range.clone()], &grad[range.clone()]);
            let (m, v) = (&mut self.m[range.clone()], &mut self.v[range]);
            for (((p, &g), m), v) in p.iter_mut().zip(g).zip(m.iter_mut()).zip(v.iter_mut()) {
                *m = Self::BETA1 * *m + (1.0 - Self::BETA1) * g;
                *v = Self::BETA2 * *v + (1.0 - Self::BETA2) * g * g;
                let update = (*m / c1) / ((*v / c2).sqrt() + Self::EPSILON);
                *p = (*p * keep - lr * update).clamp(-clip, clip);
            }
        }
    }
}

/// The quantised network, as the file holds it and the engine uses it.
struct Quantised {
    /// The hidden layer's size, the output buckets and the king buckets; the weights are laid
    /// out as in the file.
    h: usize,
    buckets: usize,
    kings: usize,
    w1: Vec<i16>,
    b1: Vec<i16>,
    w2: Vec<i16>,
    b2: Vec<i32>,
}

impl Quantised {
    /// The parameters quantised, the output layer multiplied by `scale`; an error when the
    /// scaled output layer is beyond what the engine reads.
    fn new(params: &[f32], layout: &Layout, scale: f32) -> Result<Quantised, String> {
        let q = |w: &f32, f: i32| (w * f as f32).round() as i16;
        let mut w2 = Vec::with_capacity(layout.w2().len());
        for w in &params[layout.w2()] {
            let scaled = (w * scale * QB as f32).round();
            if scaled.abs() > Network::MAX_OUTPUT_WEIGHT as f32 {
                return Err(format!(
                    "--scale {scale} takes an output weight to {scaled}, beyond the engine's ±{}",
                    Network::MAX_OUTPUT_WEIGHT
                ));
            }
            w2.push(scaled as i16);
        }
        let mut b2 = Vec::with_capacity(layout.buckets);
        for b in &params[layout.b2()] {
            let scaled = (f64::from(*b) * f64::from(scale) * f64::from(QA * QB)).round();
            if scaled.abs() > f64::from(i32::MAX) {
                return Err(format!("--scale {scale} takes an output bias beyond 32 bits"));
            }
            b2.push(scaled as i32);
        }
        Ok(Quantised {
            h: layout.h,
            buckets: layout.buckets,
            kings: layout.kings,
            w1: params[layout.w1()].iter().map(|w| q(w, QA)).collect(),
            b1: params[layout.b1()].iter().map(|w| q(w, QA)).collect(),
            w2,
            b2,
        })
    }

    /// The engine's integer evaluation in centipawns for the side to move.
    fn evaluate(&self, sample: &Sample) -> i64 {
        let (mut stm, mut ntm) = ([0u16; MAX_PIECES], [0u16; MAX_PIECES]);
        let n = sample.features(self.kings, &mut stm, &mut ntm);
        let h = self.h;
        let bucket = sample.bucket(self.buckets);
        let w2 = &self.w2[bucket * 2 * h..][..2 * h];
        let mut sum = 0i64;
        for (features, w2) in [(&stm[..n], &w2[..h]), (&ntm[..n], &w2[h..])] {
            let mut acc = self.b1.clone();
            for &f in features {
                for (a, w) in acc.iter_mut().zip(&self.w1[usize::from(f) * h..][..h]) {
                    *a = a.wrapping_add(*w);
                }
            }
            for (&a, &w) in acc.iter().zip(w2) {
                let c = i64::from(a.clamp(0, QA as i16));
                sum += c * c * i64::from(w);
            }
        }
        (sum / i64::from(QA) + i64::from(self.b2[bucket])) * i64::from(SCALE as i32) / i64::from(QA * QB)
    }

    /// Writes the network to `path` by way of `path.tmp`.
    fn write(&self, path: &Path) -> Result<(), String> {
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        let write = || -> std::io::Result<()> {
            let mut out = BufWriter::new(File::create(&tmp)?);
            let word = |n: usize| u32::try_from(n).unwrap_or(u32::MAX).to_le_bytes();
            out.write_all(if self.kings > 1 { Network::MAGIC_KINGS } else { Network::MAGIC })?;
            out.write_all(&word(self.h))?;
            out.write_all(&word(self.buckets))?;
            if self.kings > 1 {
                out.write_all(&word(self.kings))?;
            }
            for w in self.w1.iter().chain(&self.b1).chain(&self.w2) {
                out.write_all(&w.to_le_bytes())?;
            }
            for b in &self.b2 {
                out.write_all(&b.to_le_bytes())?;
            }
            out.into_inner().map_err(|e| e.into_error())?.sync_all()?;
            std::fs::rename(&tmp, path)
        };
        write().map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// Parses one data line into a sample.
fn parse_line(line: &str, wdl: f32) -> Result<Sample, String> {
    let mut parts = line.split('|');
    let (Some(fen), Some(score), Some(result), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err("not `FEN | score | result`".into());
    };
    let fen = Fen::from_ascii(fen.trim().as_bytes()).map_err(|e| format!("FEN: {e}"))?;
    let pos: Chess = fen.into_position(CastlingMode::Standard).map_err(|e| format!("position: {e}"))?;
    let score: i32 = score.trim().parse().map_err(|e| format!("score: {e}"))?;
    let result: f32 = result.trim().parse().map_err(|e| format!("result: {e}"))?;
    if !(0.0..=1.0).contains(&result) {
        return Err(format!("result {result} not within 0 and 1"));
    }
    Sample::new(&pos, score, result, wdl).ok_or_else(|| "too many pieces".into())
}

/// Appends the positions of `path` to `samples`, up to `max` in all.
fn read_data(path: &Path, wdl: f32, max: usize, samples: &mut Vec<Sample>) -> Result<(), String> {
    let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut reader = BufReader::with_capacity(1 << 20, file);
    let mut buffer = Vec::new();
    let (mut read, mut bad, mut incomplete) = (0usize, 0usize, false);
    let mut first_bad = None;
    let mut number = 0usize;
    while samples.len() < max {
        buffer.clear();
        let n = reader.read_until(b'\n', &mut buffer).map_err(|e| format!("{}: {e}", path.display()))?;
        if n == 0 {
            break;
        }
        number += 1;
        if buffer.last() != Some(&b'\n') {
            // The writer may be in the middle of this line.
            incomplete = true;
            break;
        }
        let Ok(line) = std::str::from_utf8(&buffer) else {
            bad += 1;
            first_bad.get_or_insert_with(|| format!("line {number}: not UTF-8"));
            continue;
        };
        if line.trim().is_empty() {
            continue;
        }
        match parse_line(line, wdl) {
            Ok(sample) => {
                samples.push(sample);
                read += 1;
            }
            Err(e) => {
                bad += 1;
                first_bad.get_or_insert_with(|| format!("line {number}: {e}"));
            }
        }
    }
    eprintln!("{}: {read} positions", path.display());
    if bad > 0 {
        eprintln!("{}: skipped {bad} bad lines (first: {})", path.display(), first_bad.unwrap_or_default());
    }
    if incomplete {
        eprintln!("{}: skipped an incomplete last line", path.display());
    }
    Ok(())
}

/// The float parameters a network file was quantised from (up to rounding): its weights
/// divided by the factors [`Quantised::new`] multiplied them by.
fn dequantised(network: &Network) -> Vec<f32> {
    let (w1, b1, w2, b2) = network.parameters();
    let f = |w: &i16, q: i32| f32::from(*w) / q as f32;
    let mut params: Vec<f32> = w1.iter().chain(b1).map(|w| f(w, QA)).collect();
    params.extend(w2.iter().map(|w| f(w, QB)));
    params.extend(b2.iter().map(|&b| (f64::from(b) / f64::from(QA * QB)) as f32));
    params
}

/// `params`, a network of layout `old`, reshaped to `layout`'s wider hidden layer and its
/// buckets: the first `old.h` neurons are the old ones; the others start as a fresh network's
/// (`initial_parameters`) but with output weights of 0, and a one-bucket output layer is copied
/// into every bucket, as a first layer of one king bucket is into every king bucket, so that the
/// output is unchanged. `layout` has as many buckets and king buckets as `old`, or `old` has one.
fn widened(params: &[f32], old: &Layout, layout: &Layout, rng: &mut StdRng) -> Vec<f32> {
    if old.h == layout.h && old.buckets == layout.buckets && old.kings == layout.kings {
        return params.to_vec();
    }
    let mut wide = initial_parameters(layout, rng);
    let (from, h) = (old.h, layout.h);
    for f in 0..layout.inputs() {
        let source = if old.kings == 1 { f % FEATURES } else { f };
        wide[f * h..f * h + from].copy_from_slice(&params[source * from..(source + 1) * from]);
    }
    wide[layout.b1()][..from].copy_from_slice(&params[old.b1()]);
    for bucket in 0..layout.buckets {
        let source = if old.buckets == 1 { 0 } else { bucket };
        let (new_w2, old_w2) = (layout.w2_of(bucket).start, old.w2_of(source).start);
        for half in 0..2 {
            let new_half = &mut wide[new_w2 + half * h..new_w2 + (half + 1) * h];
            new_half[..from].copy_from_slice(&params[old_w2 + half * from..old_w2 + (half + 1) * from]);
            new_half[from..].fill(0.0);
        }
        wide[layout.b2_of(bucket)] = params[old.b2_of(source)];
    }
    wide
}

/// The initial parameters: `W1` uniform in ±0.1 (about 30 pieces give accumulators spread
/// over ±0.3), `b1` 0.05, `W2` uniform in ±1/sqrt(2H), `b2` 0.
fn initial_parameters(layout: &Layout, rng: &mut StdRng) -> Vec<f32> {
    let mut params = vec![0f32; layout.len()];
    for w in &mut params[layout.w1()] {
        *w = rng.random_range(-0.1..0.1);
    }
    params[layout.b1()].fill(0.05);
    let bound = 1.0 / ((2 * layout.h) as f32).sqrt();
    for w in &mut params[layout.w2()] {
        *w = rng.random_range(-bound..bound);
    }
    params
}

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
    let mut adam = AdamW { m: vec![0.0; layout.len()], v: vec![0.0; layout.len()], t: 0 };
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

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(fen: &str) -> Sample {
        let fen = Fen::from_ascii(fen.as_bytes()).expect("FEN");
        let pos: Chess = fen.into_position(CastlingMode::Standard).expect("legal");
        Sample::new(&pos, 37, 1.0, 0.0).expect("sample")
    }

    fn features(s: &Sample) -> (Vec<u16>, Vec<u16>) {
        let (mut stm, mut ntm) = ([0u16; MAX_PIECES], [0u16; MAX_PIECES]);
        let n = s.features(1, &mut stm, &mut ntm);
        let (mut stm, mut ntm) = (stm[..n].to_vec(), ntm[..n].to_vec());
        stm.sort_unstable();
        ntm.sort_unstable();
        (stm, ntm)
    }

    #[test]
    fn a_network_file_reads_back_as_the_parameters_it_was_written_from() {
        let layout = Layout { buckets: 8, ..Layout::of(16) };
        let mut rng = StdRng::seed_from_u64(5);
        let params = initial_parameters(&layout, &mut rng);
        let path = std::env::temp_dir().join(format!("kibitz-train-{}.nnue", std::process::id()));
        Quantised::new(&params, &layout, 1.0).expect("quantise").write(&path).expect("write");
        let bytes = std::fs::read(&path).expect("read");
        let _ = std::fs::remove_file(&path);
        let read = Network::from_bytes(&bytes).expect("parse");
        assert_eq!((read.hidden(), read.buckets()), (16, 8));
        let back = dequantised(&read);
        assert_eq!(back.len(), params.len());
        // Each weight within half a quantisation step of the original.
        for (i, (a, b)) in params.iter().zip(&back).enumerate() {
            let step = if layout.w2().contains(&i) { 1.0 / QB as f32 } else { 1.0 / QA as f32 };
            assert!((a - b).abs() <= step / 2.0 + 1e-6, "parameter {i}: {a} against {b}");
        }
        // The embedded network of the engine reads, and a cut file is refused.
        let shipped = include_bytes!("../net/kibitz.nnue");
        assert!(Network::from_bytes(shipped).is_ok_and(|n| n.hidden() == 64));
        assert!(Network::from_bytes(&shipped[..shipped.len() - 1]).is_err());
        assert!(Network::from_bytes(b"KBZNET02").is_err());
        assert!(Network::from_bytes(b"KBZNET01").is_err());
    }

    #[test]
    fn a_rescaled_network_evaluates_that_many_times_the_original() {
        let shipped = Network::from_bytes(include_bytes!("../net/kibitz.nnue")).expect("shipped");
        let layout = Layout::of_network(&shipped);
        let params = dequantised(&shipped);
        let same = Quantised::new(&params, &layout, 1.0).expect("scale 1");
        let double = Quantised::new(&params, &layout, 2.0).expect("scale 2");
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bqk2r/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP3PPP/R1BQKB1R b KQkq - 1 7",
            "8/5k2/8/3K4/8/8/4P3/8 w - - 0 1",
            "6k1/5ppp/8/8/8/8/1q3PPP/6K1 w - - 0 1",
        ] {
            let pos: Chess = Fen::from_ascii(fen.as_bytes())
                .expect("FEN")
                .into_position(CastlingMode::Standard)
                .expect("legal");
            let s = sample(fen);
            // Read back at scale 1, the file is the engine's network; at scale 2 it doubles
            // every evaluation (within the integer divisions' rounding).
            let (one, two) = (same.evaluate(&s), double.evaluate(&s));
            assert_eq!(one, i64::from(shipped.evaluate(&pos)), "{fen}");
            assert!((two - 2 * one).abs() <= 2, "{fen}: {two} against 2 × {one}");
            assert!(one.abs() > 10, "{fen}: {one} cp is too small to tell a scale by");
        }
        // A factor that takes the output weights beyond the engine's limit is refused.
        let error = Quantised::new(&params, &layout, 50.0).err().expect("refused");
        assert!(error.contains("beyond the engine's"), "{error}");
    }

    #[test]
    fn a_king_bucketed_file_evaluates_in_the_engine_as_in_the_trainer() {
        let layout = Layout { buckets: 8, kings: KING_BUCKETS, ..Layout::of(32) };
        let mut rng = StdRng::seed_from_u64(11);
        let params = initial_parameters(&layout, &mut rng);
        let quantised = Quantised::new(&params, &layout, 1.0).expect("quantise");
        let path = std::env::temp_dir().join(format!("kibitz-train-kings-{}.nnue", std::process::id()));
        quantised.write(&path).expect("write");
        let bytes = std::fs::read(&path).expect("read");
        let _ = std::fs::remove_file(&path);
        let read = Network::from_bytes(&bytes).expect("parse");
        assert_eq!((read.hidden(), read.buckets(), read.king_buckets()), (32, 8, KING_BUCKETS));
        assert_eq!(dequantised(&read).len(), params.len());
        // Kings in every bucket for either side, and a mirrored sample.
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "2kr3r/ppp2ppp/8/8/8/8/PPP2PPP/2KR3R b - - 0 1",
            "5rk1/5ppp/8/8/8/8/5PPP/5RK1 w - - 0 1",
            "8/5k2/8/3K4/8/8/4P3/8 w - - 0 1",
            "8/8/8/8/8/1k6/6K1/8 b - - 0 1",
        ];
        let mut buckets = std::collections::BTreeSet::new();
        for fen in fens {
            let pos: Chess = Fen::from_ascii(fen.as_bytes())
                .expect("FEN")
                .into_position(CastlingMode::Standard)
                .expect("legal");
            for (s, played) in [(sample(fen), pos.clone()), (sample(fen).mirrored(), mirrored_position(&pos))]
            {
                assert_eq!(quantised.evaluate(&s), i64::from(read.evaluate(&played)), "{fen}");
            }
            for c in [Color::White, Color::Black] {
                buckets.insert(king_bucket(c, pos.board().king_of(c).expect("king"), KING_BUCKETS));
            }
        }
        assert_eq!(buckets.len(), KING_BUCKETS);
    }

    /// `pos` mirrored left to right.
    fn mirrored_position(pos: &Chess) -> Chess {
        let mut setup = pos.to_setup(shakmaty::EnPassantMode::Legal);
        setup.board.flip_horizontal();
        setup.castling_rights = shakmaty::Bitboard::EMPTY;
        setup.position(CastlingMode::Standard).expect("legal")
    }

    #[test]
    fn a_widened_and_bucketed_network_evaluates_as_the_narrow_one() {
        let narrow = Layout::of(16);
        let (wide, kings) =
            (Layout { buckets: 8, ..Layout::of(48) }, Layout { kings: KING_BUCKETS, ..Layout::of(16) });
        for wide in [wide, kings] {
            widened_evaluates_as_narrow(narrow, wide);
        }
    }

    fn widened_evaluates_as_narrow(narrow: Layout, wide: Layout) {
        let mut rng = StdRng::seed_from_u64(7);
        let params = initial_parameters(&narrow, &mut rng);
        let wider = widened(&params, &narrow, &wide, &mut rng);
        assert_eq!(wider.len(), wide.len());
        // The new neurons are live (random input weights), but silent in the output.
        if wide.h > narrow.h {
            assert!(wider[wide.w1()].chunks(wide.h).all(|row| row[narrow.h..].iter().any(|&w| w != 0.0)));
        }
        let (mut s16, mut s48) = (Scratch::new(16), Scratch::new(wide.h));
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bqk2r/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP3PPP/R1BQKB1R b KQkq - 1 7",
            "8/5k2/8/3K4/8/8/4P3/8 w - - 0 1",
        ] {
            let s = sample(fen);
            let (a, b) = (forward(&params, &narrow, &s, &mut s16), forward(&wider, &wide, &s, &mut s48));
            assert!((a - b).abs() < 1e-5, "{fen}: {a} against {b}");
        }
        // The same width is the same network.
        assert_eq!(widened(&params, &narrow, &narrow, &mut rng), params);
    }

    #[test]
    fn output_only_training_moves_the_output_layer_of_the_samples_bucket_alone() {
        let layout = Layout { buckets: 8, train_hidden: false, ..Layout::of(16) };
        let mut rng = StdRng::seed_from_u64(9);
        let before = initial_parameters(&layout, &mut rng);
        let mut params = before.clone();
        let full = sample("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let mut grad = vec![0f32; layout.len()];
        let mut s = Scratch::new(16);
        backward(&params, &layout, &full, 1.0, &mut s, &mut grad);
        let mut adam = AdamW { m: vec![0.0; layout.len()], v: vec![0.0; layout.len()], t: 0 };
        adam.step(&mut params, &grad, &layout, 0.01, 0.0);
        let changed = |range: std::ops::Range<usize>| range.clone().any(|i| params[i] != before[i]);
        assert!(!changed(layout.w1()) && !changed(layout.b1()), "the hidden layer learnt");
        let bucket = full.bucket(8);
        assert_eq!(bucket, 7);
        assert!(changed(layout.w2_of(bucket)));
        for other in (0..8).filter(|&b| b != bucket) {
            assert!(!changed(layout.w2_of(other)), "bucket {other} learnt from a position of bucket 7");
            assert!(!changed(layout.b2_of(other)..layout.b2_of(other) + 1));
        }
        // With the hidden layer learning, it moves too.
        let all = Layout { train_hidden: true, ..layout };
        let mut grad = vec![0f32; all.len()];
        backward(&before, &all, &full, 1.0, &mut s, &mut grad);
        assert!(grad[all.w1()].iter().any(|&g| g != 0.0));
    }

    #[test]
    fn a_mirrored_sample_is_the_mirrored_position() {
        // Black to move, pieces on both wings, so the a- and h-files both change.
        let played = sample("r1bqk2r/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP3PPP/R1BQKB1R b KQkq - 1 7");
        let by_hand = sample("r2kqb1r/pppb2pp/2np1n2/4p3/4PP2/2N2N2/PPP3PP/R1BKQB1R b - - 1 7");
        let mirrored = played.mirrored();
        assert_eq!(features(&mirrored), features(&by_hand));
        assert_eq!((mirrored.score, mirrored.white_to_move), (played.score, played.white_to_move));
        assert_eq!(mirrored.target.to_bits(), played.target.to_bits());
        assert_ne!(features(&mirrored), features(&played));
        let back = mirrored.mirrored();
        assert_eq!((back.occupied, back.pieces), (played.occupied, played.pieces));
    }
}
