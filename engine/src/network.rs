//! The evaluation network (NNUE): a learned evaluation that the search can use instead of the
//! classical one.
//!
//! The model: 768 inputs per perspective (a piece of one of two colours, relative to the
//! perspective, and one of six roles on one of 64 squares, the board flipped for Black), into
//! one hidden layer of `H` neurons whose weights both perspectives share, a squared clipped
//! ReLU (`clamp(x, 0, 1)²`), and one output from the side to move's half and the other half.
//! The output layer may come in `B` *buckets* by the number of pieces on the board (see
//! [`output_bucket`]): each bucket has its own output weights and bias, so that the opening,
//! the middlegame and the ending weigh the same hidden neurons differently. The inputs may
//! come in `K` *king buckets* by where the perspective's own king stands (see [`king_bucket`]):
//! each king bucket has its own 768 rows of feature weights, so that a piece counts differently
//! in front of a castled king than beside one in the centre or one out in the open.
//! It is trained by `engine/examples/train_network/` on positions of Kibitz's own self-play
//! (`engine/examples/datagen.rs`), labelled by the search's score and the game's result.
//!
//! The engine runs it in integers: the hidden layer (the *accumulator*) is kept in `i16` with
//! the weights quantised by 255, the output weights by 64. The search updates accumulators
//! incrementally from the move played (two to four rows of weights added or taken away per
//! perspective) instead of summing every piece again; a king move into another king bucket
//! sums them again.
//!
//! The file format, little-endian: the magic `KBZNET02`, `u32` H, `u32` B, `i16` feature
//! weights (768 × H, feature-major), `i16` hidden biases (H), `i16` output weights (B × 2 × H,
//! bucket by bucket, each the side to move's half first), `i32` output biases (B, quantised by
//! 255 × 64). The older `KBZNET01` is the same without B: one bucket. `KBZNET03` has a `u32` K
//! after B, and K × 768 × H feature weights, king bucket by king bucket; the others have one
//! king bucket.

use std::fmt;
use std::sync::{Arc, OnceLock};

use shakmaty::{Board, Chess, Color, Move, Position, Role, Square};

use crate::{EngineOption, OptionKind};

/// The inputs per perspective.
pub const INPUTS: usize = 768;
/// The quantisation of the hidden layer: its weights and biases are multiplied by this.
const QA: i32 = 255;
/// The quantisation of the output weights.
const QB: i32 = 64;
/// The output's scale to centipawns.
const SCALE: i32 = 400;
/// The first bytes of a network file.
const MAGIC: &[u8; 8] = b"KBZNET02";
/// The first bytes of a network file of the first format, which has one output bucket and
/// no bucket count.
const MAGIC_V1: &[u8; 8] = b"KBZNET01";
/// The first bytes of a network file with king buckets.
const MAGIC_KINGS: &[u8; 8] = b"KBZNET03";
/// The king buckets of a network that has them (see [`king_bucket`]).
pub const KING_BUCKETS: usize = 4;
/// The most output buckets a file may have.
pub const MAX_BUCKETS: usize = 16;
/// The widest hidden layer a file may have.
const MAX_HIDDEN: usize = 4096;
/// How many neurons' `clamp(v, 0, QA)² × w` the output sums in an `i32` before widening.
const OUTPUT_CHUNK: usize = 64;
/// The largest output weight in magnitude that an `OUTPUT_CHUNK` sum holds (the trainer's
/// weights stay within ±127).
const MAX_OUTPUT_WEIGHT: i32 = i32::MAX / (OUTPUT_CHUNK as i32 * QA * QA);

/// The network shipped with Kibitz, built into the program.
static EMBEDDED_BYTES: &[u8] = include_bytes!("../net/kibitz.nnue");

/// Which evaluation a search uses.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Evaluation {
    /// The hand-written evaluation (`eval`), with weights tuned by the Texel tuner: the
    /// fallback, and what the levels for people play with.
    Classical,
    /// The network built into Kibitz.
    #[default]
    Network,
}

impl Evaluation {
    /// The network this evaluation runs, if it is one.
    #[must_use]
    pub fn network(self) -> Option<Arc<Network>> {
        match self {
            Evaluation::Classical => None,
            Evaluation::Network => Some(Network::embedded()),
        }
    }
}

/// The evaluation the options chose (`UseNNUE`, `EvalFile`): the network file if one was
/// given, else the built-in network, or none for the classical evaluation.
#[derive(Clone, Debug)]
pub struct NetworkChoice {
    /// Whether the search evaluates with a network (`UseNNUE`).
    pub on: bool,
    /// The network file to use instead of the built-in network (`EvalFile`).
    pub file: Option<Arc<Network>>,
}

impl Default for NetworkChoice {
    fn default() -> Self {
        NetworkChoice { on: Evaluation::default() == Evaluation::Network, file: None }
    }
}

impl NetworkChoice {
    /// The network the search uses, or `None` for the classical evaluation.
    #[must_use]
    pub fn network(&self) -> Option<Arc<Network>> {
        match (&self.file, self.on) {
            (_, false) => None,
            (Some(file), true) => Some(Arc::clone(file)),
            (None, true) => Evaluation::Network.network(),
        }
    }
}

/// The engine options that choose the evaluation, as UCI and xboard offer them: `UseNNUE`
/// (the network rather than the classical evaluation) and `EvalFile` (a network file instead
/// of the built-in one; empty for the built-in one).
#[must_use]
pub fn evaluation_options() -> Vec<EngineOption> {
    vec![
        EngineOption {
            name: "UseNNUE".into(),
            kind: OptionKind::Check { default: Evaluation::default() == Evaluation::Network },
        },
        EngineOption { name: "EvalFile".into(), kind: OptionKind::Path { default: String::new() } },
    ]
}

/// A network file that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetworkError {
    /// The file starts with neither `KBZNET02` nor `KBZNET01`.
    NotANetwork,
    /// The output layer's bucket count is 0 or above 16.
    BadBucketCount(u64),
    /// The inputs' king bucket count is neither 1 nor 4.
    BadKingBucketCount(u64),
    /// The hidden layer's size is 0, not a multiple of 16 (the arithmetic's group size), or
    /// above 4096.
    BadHiddenSize(u64),
    /// The file's length does not match its hidden layer's size.
    WrongLength {
        /// The length the header implies.
        expected: usize,
        /// The file's length.
        found: usize,
    },
    /// An output weight beyond what the evaluation's integer sums hold.
    OutputWeightTooLarge(i16),
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkError::NotANetwork => {
                write!(f, "not a Kibitz network file (no KBZNET03, KBZNET02 or KBZNET01 header)")
            }
            NetworkError::BadBucketCount(b) => {
                write!(f, "{b} output buckets (it must be 1 to {MAX_BUCKETS})")
            }
            NetworkError::BadKingBucketCount(k) => {
                write!(f, "{k} king buckets (it must be 1 or {KING_BUCKETS})")
            }
            NetworkError::BadHiddenSize(h) => {
                write!(
                    f,
                    "a hidden layer of {h} neurons (it must be a multiple of {LANES} up to {MAX_HIDDEN})"
                )
            }
            NetworkError::WrongLength { expected, found } => {
                write!(f, "the file has {found} bytes where its header says {expected}")
            }
            NetworkError::OutputWeightTooLarge(w) => {
                write!(f, "an output weight of {w} (at most ±{MAX_OUTPUT_WEIGHT})")
            }
        }
    }
}

impl std::error::Error for NetworkError {}

/// A loaded evaluation network.
#[derive(Clone, Debug)]
pub struct Network {
    hidden: usize,
    buckets: usize,
    king_buckets: usize,
    /// `king_buckets × INPUTS × hidden`, the weights of feature `f` in king bucket `k` at
    /// `(k * INPUTS + f) * hidden ..`.
    feature_weights: Vec<i16>,
    feature_bias: Vec<i16>,
    /// `buckets × 2 × hidden`: for each bucket the side to move's half, then the other's.
    output_weights: Vec<i16>,
    /// One per bucket.
    output_bias: Vec<i32>,
}

/// The hidden layer of one position from both perspectives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    white: Vec<i16>,
    black: Vec<i16>,
    /// The king bucket of each perspective, by `Color as usize`.
    kings: [u8; 2],
}

impl Accumulator {
    /// An accumulator for a network of `hidden` neurons, to be filled by
    /// [`Network::refresh`].
    #[must_use]
    pub fn new(hidden: usize) -> Accumulator {
        Accumulator { white: vec![0; hidden], black: vec![0; hidden], kings: [0; 2] }
    }

    fn side(&self, perspective: Color) -> &[i16] {
        match perspective {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }
}

/// The input of a piece of `color` and `role` on `square` for `perspective`.
#[must_use]
pub fn feature(perspective: Color, color: Color, role: Role, square: Square) -> usize {
    let square = match perspective {
        Color::White => square as usize,
        Color::Black => square as usize ^ 56,
    };
    let side = usize::from(color != perspective);
    side * 384 + (role as usize - 1) * 64 + square
}

/// The king bucket, of `king_buckets` (1 or [`KING_BUCKETS`]), of `perspective` whose king
/// stands on `king`. With four, by the king's square seen from its own side: on the first two
/// ranks on the queen's side (files a to c), in the centre (d and e) or on the king's side (f
/// to h), or further up the board.
#[must_use]
pub fn king_bucket(perspective: Color, king: Square, king_buckets: usize) -> usize {
    if king_buckets == 1 {
        return 0;
    }
    let rank = match perspective {
        Color::White => king.rank() as usize,
        Color::Black => 7 - king.rank() as usize,
    };
    match (rank, king.file() as usize) {
        (2.., _) => 3,
        (_, 0..=2) => 0,
        (_, 3..=4) => 1,
        _ => 2,
    }
}

/// Where `m`, played by `us`, puts `us`'s king, if it moves it.
fn king_destination(us: Color, m: Move) -> Option<Square> {
    match m {
        Move::Normal { role: Role::King, to, .. } => Some(to),
        Move::Castle { .. } => m.castling_side().map(|side| side.king_to(us)),
        _ => None,
    }
}

/// What a move changes on the board: pieces taken away and put down, as `(color, role,
/// square)`.
struct Delta {
    removed: [(Color, Role, Square); 2],
    removed_len: usize,
    added: [(Color, Role, Square); 2],
    added_len: usize,
}

impl Delta {
    /// The change `m`, played by `us`, makes; `None` for a drop, which chess has not.
    fn of(us: Color, m: Move) -> Option<Delta> {
        let filler = (us, Role::Pawn, Square::A1);
        let mut d = Delta { removed: [filler; 2], removed_len: 0, added: [filler; 2], added_len: 0 };
        let remove = |d: &mut Delta, piece| {
            d.removed[d.removed_len] = piece;
            d.removed_len += 1;
        };
        let add = |d: &mut Delta, piece| {
            d.added[d.added_len] = piece;
            d.added_len += 1;
        };
        match m {
            Move::Normal { role, from, capture, to, promotion } => {
                remove(&mut d, (us, role, from));
                if let Some(captured) = capture {
                    remove(&mut d, (!us, captured, to));
                }
                add(&mut d, (us, promotion.unwrap_or(role), to));
            }
            Move::EnPassant { from, to } => {
                remove(&mut d, (us, Role::Pawn, from));
                remove(&mut d, (!us, Role::Pawn, Square::from_coords(to.file(), from.rank())));
                add(&mut d, (us, Role::Pawn, to));
            }
            Move::Castle { king, rook } => {
                let side = m.castling_side()?;
                remove(&mut d, (us, Role::King, king));
                remove(&mut d, (us, Role::Rook, rook));
                add(&mut d, (us, Role::King, side.king_to(us)));
                add(&mut d, (us, Role::Rook, side.rook_to(us)));
            }
            Move::Put { .. } => return None,
        }
        Some(d)
    }
}

impl Network {
    /// The inputs per perspective (2 sides × 6 roles × 64 squares).
    pub const INPUTS: usize = INPUTS;
    /// The quantisation factor of the hidden layer's weights and biases, and the top of its
    /// activation's range.
    pub const QA: i32 = QA;
    /// The quantisation factor of the output weights.
    pub const QB: i32 = QB;
    /// Centipawns per unit of the network's output.
    pub const SCALE: i32 = SCALE;
    /// The first bytes of a network file.
    pub const MAGIC: &[u8; 8] = MAGIC;
    /// The first bytes of a network file with king buckets.
    pub const MAGIC_KINGS: &[u8; 8] = MAGIC_KINGS;
    /// The largest output weight in magnitude that a file may hold.
    pub const MAX_OUTPUT_WEIGHT: i32 = MAX_OUTPUT_WEIGHT;

    /// Reads a network file.
    ///
    /// # Errors
    /// When the bytes are not a whole network file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        let word = |at: usize| -> Option<u32> {
            let b = bytes.get(at..at + 4)?;
            Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        };
        let magic = bytes.get(..MAGIC.len());
        // Each format's header: H, B and K where it has them, else one bucket.
        let (hidden, buckets, kings, header) = match magic {
            Some(m) if m == MAGIC_KINGS => (word(8), word(12), word(16), 20),
            Some(m) if m == MAGIC => (word(8), word(12), Some(1), 16),
            Some(m) if m == MAGIC_V1 => (word(8), Some(1), Some(1), 12),
            _ => (None, None, None, 0),
        };
        let (Some(hidden), Some(buckets), Some(kings)) = (hidden, buckets, kings) else {
            return Err(NetworkError::NotANetwork);
        };
        let h = hidden as usize;
        if h == 0 || !h.is_multiple_of(LANES) || h > MAX_HIDDEN {
            return Err(NetworkError::BadHiddenSize(u64::from(hidden)));
        }
        let b = buckets as usize;
        if b == 0 || b > MAX_BUCKETS {
            return Err(NetworkError::BadBucketCount(u64::from(buckets)));
        }
        let k = kings as usize;
        if k != 1 && k != KING_BUCKETS {
            return Err(NetworkError::BadKingBucketCount(u64::from(kings)));
        }
        let biases = header + 2 * (k * INPUTS * h + h + b * 2 * h);
        let expected = biases + 4 * b;
        if bytes.len() != expected {
            return Err(NetworkError::WrongLength { expected, found: bytes.len() });
        }
        let mut words = bytes[header..biases].chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]]));
        let feature_weights: Vec<i16> = words.by_ref().take(k * INPUTS * h).collect();
        let feature_bias: Vec<i16> = words.by_ref().take(h).collect();
        let output_weights: Vec<i16> = words.collect();
        if let Some(&w) = output_weights.iter().find(|&&w| i32::from(w).abs() > MAX_OUTPUT_WEIGHT) {
            return Err(NetworkError::OutputWeightTooLarge(w));
        }
        let output_bias =
            bytes[biases..].chunks_exact(4).map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        Ok(Network {
            hidden: h,
            buckets: b,
            king_buckets: k,
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
        })
    }

    /// The network built into Kibitz.
    ///
    /// # Panics
    /// Never for a released build: the tests check that the embedded file reads.
    #[must_use]
    pub fn embedded() -> Arc<Network> {
        static NETWORK: OnceLock<Arc<Network>> = OnceLock::new();
        #[allow(clippy::expect_used)]
        Arc::clone(NETWORK.get_or_init(|| {
            Arc::new(Network::from_bytes(EMBEDDED_BYTES).expect("the embedded network file reads"))
        }))
    }

    /// The number of hidden neurons.
    #[must_use]
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The number of output buckets.
    #[must_use]
    pub fn buckets(&self) -> usize {
        self.buckets
    }

    /// The number of king buckets of the inputs: 1 or [`KING_BUCKETS`].
    #[must_use]
    pub fn king_buckets(&self) -> usize {
        self.king_buckets
    }

    /// The quantised parameters in the file's order: the feature weights (`king buckets × 768
    /// × hidden`, king bucket by king bucket and feature by feature), the feature biases (`hidden`), the output weights (`buckets × 2 ×
    /// hidden`, each bucket the side to move's half first) and the output biases (`buckets`).
    /// The trainer goes on from them.
    #[must_use]
    pub fn parameters(&self) -> (&[i16], &[i16], &[i16], &[i32]) {
        (&self.feature_weights, &self.feature_bias, &self.output_weights, &self.output_bias)
    }

    /// Evaluates `pos` in centipawns for the side to move, from scratch.
    #[must_use]
    pub fn evaluate(&self, pos: &Chess) -> i32 {
        let mut acc = Accumulator::new(self.hidden);
        self.refresh(pos.board(), &mut acc);
        self.output(&acc, pos)
    }

    /// Evaluates `pos` in centipawns from White's side, from scratch.
    #[must_use]
    pub fn evaluate_white(&self, pos: &Chess) -> i32 {
        let score = self.evaluate(pos);
        if pos.turn() == Color::White { score } else { -score }
    }

    /// Fills `acc` with the hidden layer of `board`.
    pub fn refresh(&self, board: &Board, acc: &mut Accumulator) {
        for (perspective, values) in [(Color::White, &mut acc.white), (Color::Black, &mut acc.black)] {
            let bucket =
                board.king_of(perspective).map_or(0, |k| king_bucket(perspective, k, self.king_buckets));
            acc.kings[perspective as usize] = bucket as u8;
            values.resize(self.hidden, 0);
            values.copy_from_slice(&self.feature_bias);
            for (square, piece) in board {
                let f = feature(perspective, piece.color, piece.role, square);
                add_row(values, self.row(bucket, f));
            }
        }
    }

    /// Sets `child` to `parent` after `us` played `m`, and returns whether it could: a move
    /// the network cannot follow (a drop, or a king move into another king bucket, after which
    /// the position must be [refreshed](Network::refresh)) leaves `child` as it was and returns
    /// `false`.
    pub fn update(&self, parent: &Accumulator, child: &mut Accumulator, us: Color, m: Move) -> bool {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2, checked just above.
            return unsafe { self.update_avx2(parent, child, us, m) };
        }
        self.update_portable(parent, child, us, m)
    }

    /// [`Network::update_portable`] compiled for AVX2: sixteen neurons a vector instead of
    /// eight.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn update_avx2(&self, parent: &Accumulator, child: &mut Accumulator, us: Color, m: Move) -> bool {
        self.update_portable(parent, child, us, m)
    }

    /// [`Network::update`] for any processor, by whether the network has king buckets; inlined
    /// into [`Network::update_avx2`] to be compiled for AVX2 there.
    #[inline(always)]
    fn update_portable(&self, parent: &Accumulator, child: &mut Accumulator, us: Color, m: Move) -> bool {
        if self.king_buckets > 1 {
            self.update_kind::<true>(parent, child, us, m)
        } else {
            self.update_kind::<false>(parent, child, us, m)
        }
    }

    /// [`Network::update_portable`] for a network with king buckets (`KINGS`) or without (then
    /// the bucket is always the first, and the checks compile away).
    #[inline(always)]
    fn update_kind<const KINGS: bool>(
        &self,
        parent: &Accumulator,
        child: &mut Accumulator,
        us: Color,
        m: Move,
    ) -> bool {
        let Some(delta) = Delta::of(us, m) else { return false };
        if KINGS
            && let Some(king) = king_destination(us, m)
            && king_bucket(us, king, self.king_buckets) != usize::from(parent.kings[us as usize])
        {
            return false;
        }
        if KINGS {
            child.kings = parent.kings;
        }
        for perspective in [Color::White, Color::Black] {
            let (from, to) = match perspective {
                Color::White => (&parent.white, &mut child.white),
                Color::Black => (&parent.black, &mut child.black),
            };
            to.resize(self.hidden, 0);
            let bucket = if KINGS { usize::from(parent.kings[perspective as usize]) } else { 0 };
            let row = |&(color, role, square): &(Color, Role, Square)| {
                self.row(bucket, feature(perspective, color, role, square))
            };
            match (delta.removed_len, delta.added_len) {
                (1, 1) => sub_add(to, from, row(&delta.removed[0]), row(&delta.added[0])),
                (2, 1) => sub_sub_add(
                    to,
                    from,
                    row(&delta.removed[0]),
                    row(&delta.removed[1]),
                    row(&delta.added[0]),
                ),
                _ => {
                    to.copy_from_slice(from);
                    for piece in &delta.removed[..delta.removed_len] {
                        sub_row(to, row(piece));
                    }
                    for piece in &delta.added[..delta.added_len] {
                        add_row(to, row(piece));
                    }
                }
            }
        }
        true
    }

    /// The evaluation in centipawns, for its side to move, of `pos`, whose hidden layer is
    /// `acc`; its number of pieces picks the output bucket.
    #[must_use]
    pub fn output(&self, acc: &Accumulator, pos: &Chess) -> i32 {
        let turn = pos.turn();
        let bucket = output_bucket(pos.board().occupied().count(), self.buckets);
        let weights = &self.output_weights[bucket * 2 * self.hidden..][..2 * self.hidden];
        let (ours, theirs) = weights.split_at(self.hidden);
        let sum = screlu_dot(acc.side(turn), ours) + screlu_dot(acc.side(!turn), theirs);
        let bias = i64::from(self.output_bias[bucket]);
        let cp = (sum / i64::from(QA) + bias) * i64::from(SCALE) / i64::from(QA * QB);
        i32::try_from(cp).unwrap_or(if cp < 0 { i32::MIN / 2 } else { i32::MAX / 2 })
    }

    /// The weights of `feature` in king bucket `bucket`.
    fn row(&self, bucket: usize, feature: usize) -> &[i16] {
        let at = (bucket * INPUTS + feature) * self.hidden;
        &self.feature_weights[at..at + self.hidden]
    }
}

/// The output bucket, of `buckets`, of a position with `pieces` pieces on the board (kings
/// included): the range from 2 to 32 pieces cut into `buckets` nearly equal parts, fewest
/// pieces first (with 8 buckets, 2-5 pieces are bucket 0 and 30-32 bucket 7).
#[must_use]
pub fn output_bucket(pieces: usize, buckets: usize) -> usize {
    ((pieces.clamp(2, 32) - 2) * buckets / 31).min(buckets.saturating_sub(1))
}

/// How many neurons the accumulator updates take at once: a fixed width lets the compiler
/// turn each group into whole vector operations (16 × 16 bits, one AVX2 register). Every
/// hidden layer is a multiple of it.
const LANES: usize = 16;

/// One group of neurons computed as a whole array, which the compiler keeps in one vector
/// register (written to the accumulator in place, it did not vectorise).
#[inline(always)]
fn lanes(f: impl Fn(usize) -> i16) -> [i16; LANES] {
    let mut group = [0; LANES];
    for (i, value) in group.iter_mut().enumerate() {
        *value = f(i);
    }
    group
}

#[inline(always)]
fn add_row(values: &mut [i16], row: &[i16]) {
    let (values, _) = values.as_chunks_mut::<LANES>();
    for (v, w) in values.iter_mut().zip(row.as_chunks::<LANES>().0) {
        *v = lanes(|i| v[i].wrapping_add(w[i]));
    }
}

#[inline(always)]
fn sub_row(values: &mut [i16], row: &[i16]) {
    let (values, _) = values.as_chunks_mut::<LANES>();
    for (v, w) in values.iter_mut().zip(row.as_chunks::<LANES>().0) {
        *v = lanes(|i| v[i].wrapping_sub(w[i]));
    }
}

#[inline(always)]
fn sub_add(to: &mut [i16], from: &[i16], sub: &[i16], add: &[i16]) {
    let (to, _) = to.as_chunks_mut::<LANES>();
    let rows =
        from.as_chunks::<LANES>().0.iter().zip(sub.as_chunks::<LANES>().0).zip(add.as_chunks::<LANES>().0);
    for (t, ((f, s), a)) in to.iter_mut().zip(rows) {
        *t = lanes(|i| f[i].wrapping_sub(s[i]).wrapping_add(a[i]));
    }
}

#[inline(always)]
fn sub_sub_add(to: &mut [i16], from: &[i16], sub1: &[i16], sub2: &[i16], add: &[i16]) {
    let (to, _) = to.as_chunks_mut::<LANES>();
    let rows =
        from.as_chunks::<LANES>().0.iter().zip(sub1.as_chunks::<LANES>().0).zip(sub2.as_chunks::<LANES>().0);
    for ((t, ((f, s1), s2)), a) in to.iter_mut().zip(rows).zip(add.as_chunks::<LANES>().0) {
        *t = lanes(|i| f[i].wrapping_sub(s1[i]).wrapping_sub(s2[i]).wrapping_add(a[i]));
    }
}

/// `Σ clamp(v, 0, QA)² × w`, in AVX2's eight 32-bit lanes where the processor has them (the
/// baseline x86-64 has no 32-bit vector multiply, and this is most of an evaluation's work).
fn screlu_dot(values: &[i16], weights: &[i16]) -> i64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked just above.
        return unsafe { screlu_dot_avx2(values, weights) };
    }
    screlu_dot_portable(values, weights)
}

/// [`screlu_dot_portable`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn screlu_dot_avx2(values: &[i16], weights: &[i16]) -> i64 {
    screlu_dot_portable(values, weights)
}

/// `Σ clamp(v, 0, QA)² × w` for any processor; inlined into [`screlu_dot_avx2`] to be
/// compiled for AVX2 there.
#[inline(always)]
fn screlu_dot_portable(values: &[i16], weights: &[i16]) -> i64 {
    // Each chunk's sum fits 32 bits ([`MAX_OUTPUT_WEIGHT`]); a fixed-size chunk is whole
    // vector operations.
    let (chunks, rest) = values.as_chunks::<OUTPUT_CHUNK>();
    let mut sum = 0i64;
    for (v, w) in chunks.iter().zip(weights.as_chunks::<OUTPUT_CHUNK>().0) {
        let mut partial = 0i32;
        for i in 0..OUTPUT_CHUNK {
            let v = i32::from(v[i]).clamp(0, QA);
            partial += v * i32::from(w[i]) * v;
        }
        sum += i64::from(partial);
    }
    let mut partial = 0i32;
    for (&v, &w) in rest.iter().zip(&weights[chunks.len() * OUTPUT_CHUNK..]) {
        let v = i32::from(v).clamp(0, QA);
        partial += v * i32::from(w) * v;
    }
    sum + i64::from(partial)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, EnPassantMode};

    /// The file of a network with small pseudo-random weights and `buckets` output buckets
    /// (none: the first format), to test the arithmetic without a file.
    fn random_bytes(hidden: usize, buckets: Option<usize>) -> Vec<u8> {
        random_bytes_with_kings(hidden, buckets, 1)
    }

    /// [`random_bytes`] with `kings` king buckets: more than one makes a `KBZNET03` file.
    pub(crate) fn random_bytes_with_kings(hidden: usize, buckets: Option<usize>, kings: usize) -> Vec<u8> {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |range: i64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            i16::try_from((state % (2 * range as u64 + 1)) as i64 - range).unwrap_or(0)
        };
        let mut bytes = match (buckets, kings) {
            (_, 2..) => MAGIC_KINGS.to_vec(),
            (Some(_), _) => MAGIC.to_vec(),
            (None, _) => MAGIC_V1.to_vec(),
        };
        bytes.extend_from_slice(&(hidden as u32).to_le_bytes());
        if buckets.is_some() || kings > 1 {
            bytes.extend_from_slice(&(buckets.unwrap_or(1) as u32).to_le_bytes());
        }
        if kings > 1 {
            bytes.extend_from_slice(&(kings as u32).to_le_bytes());
        }
        for _ in 0..kings * INPUTS * hidden {
            bytes.extend_from_slice(&next(60).to_le_bytes());
        }
        for _ in 0..hidden {
            bytes.extend_from_slice(&next(100).to_le_bytes());
        }
        let b = buckets.unwrap_or(1);
        for _ in 0..b * 2 * hidden {
            bytes.extend_from_slice(&next(127).to_le_bytes());
        }
        for i in 0..b {
            bytes.extend_from_slice(&(1234i32 - 500 * i as i32).to_le_bytes());
        }
        bytes
    }

    /// A network of the first format (one output bucket) with small pseudo-random weights.
    fn random_network(hidden: usize) -> Network {
        Network::from_bytes(&random_bytes(hidden, None)).expect("a well-formed network")
    }

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>().expect("fen").into_position(CastlingMode::Standard).expect("legal")
    }

    #[test]
    fn incremental_updates_match_a_refresh_after_every_kind_of_move() {
        // Castling both ways, en passant, promotions with and without capture, captures.
        let fens = [
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3pPk/8/4P3/8 b - g3 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w - - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        ];
        // One block of the output's sums and several, the last one partial; one output bucket
        // and eight.
        let eight = Network::from_bytes(&random_bytes(48, Some(8))).expect("a well-formed network");
        let kings =
            Network::from_bytes(&random_bytes_with_kings(32, Some(8), KING_BUCKETS)).expect("well-formed");
        let nets = [random_network(32), random_network(160), eight, kings];
        let mut refreshed = 0;
        for (net, fen) in nets.iter().flat_map(|n| fens.map(|f| (n, f))) {
            let hidden = net.hidden();
            let pos: Chess =
                fen.parse::<Fen>().expect("fen").into_position(CastlingMode::Standard).expect("legal");
            let mut parent = Accumulator::new(hidden);
            net.refresh(pos.board(), &mut parent);
            for m in pos.legal_moves() {
                let mut after = pos.clone();
                after.play_unchecked(m);
                let mut fresh = Accumulator::new(hidden);
                net.refresh(after.board(), &mut fresh);
                let mut child = Accumulator::new(hidden);
                // Only a king move into another king bucket is not followed.
                let crosses = fresh.kings != parent.kings;
                assert_eq!(net.update(&parent, &mut child, pos.turn(), m), !crosses, "{fen} {m}");
                if crosses {
                    refreshed += 1;
                    continue;
                }
                assert_eq!(child, fresh, "{hidden}: {fen} {m}");
                assert_eq!(net.output(&child, &after), net.evaluate(&after), "{hidden}: {fen} {m}");
            }
        }
        // Castling both ways in the third position, and the kings of the last two stepping
        // off their second rank.
        assert!(refreshed >= 6, "{refreshed}");
    }

    #[test]
    fn king_buckets_split_the_first_two_ranks_in_three_and_leave_the_rest_as_one() {
        let white: Vec<usize> = Square::ALL.iter().map(|&sq| king_bucket(Color::White, sq, 4)).collect();
        let black: Vec<usize> =
            Square::ALL.iter().map(|&sq| king_bucket(Color::Black, sq.flip_vertical(), 4)).collect();
        assert_eq!(white, black, "each side sees the board from its own first rank");
        let rank = |r: usize| white[r * 8..r * 8 + 8].to_vec();
        assert_eq!(rank(0), [0, 0, 0, 1, 1, 2, 2, 2]);
        assert_eq!(rank(1), rank(0));
        assert!((2..8).all(|r| rank(r) == [3; 8]));
        assert!(Square::ALL.iter().all(|&sq| king_bucket(Color::White, sq, 1) == 0));
    }

    #[test]
    fn a_network_of_identical_king_buckets_evaluates_as_one_without_them() {
        // The one-bucket file's feature weights copied into each king bucket.
        let one = random_bytes(32, Some(2));
        let header = 16;
        let weights = 2 * INPUTS * 32;
        let mut four = MAGIC_KINGS.to_vec();
        four.extend_from_slice(&one[8..header]);
        four.extend_from_slice(&(KING_BUCKETS as u32).to_le_bytes());
        for _ in 0..KING_BUCKETS {
            four.extend_from_slice(&one[header..header + weights]);
        }
        four.extend_from_slice(&one[header + weights..]);
        let (one, four) =
            (Network::from_bytes(&one).expect("one"), Network::from_bytes(&four).expect("four"));
        assert_eq!(four.king_buckets(), KING_BUCKETS);
        for fen in [
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "8/2p5/3p4/KP5r/1R3pPk/8/4P3/8 b - g3 0 1",
            "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
        ] {
            let pos = position(fen);
            assert_eq!(four.evaluate(&pos), one.evaluate(&pos), "{fen}");
        }
    }

    #[test]
    fn the_evaluation_is_the_same_for_a_mirrored_position() {
        let net = random_network(16);
        let pos = position("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
        let mirrored = pos.to_setup(EnPassantMode::Legal);
        let flipped: Chess = {
            let mut setup = mirrored;
            setup.mirror();
            setup.position(CastlingMode::Standard).expect("legal")
        };
        assert_eq!(net.evaluate(&pos), net.evaluate(&flipped));
    }

    #[test]
    fn broken_files_are_refused_with_a_reason() {
        assert_eq!(Network::from_bytes(b"not a net").err(), Some(NetworkError::NotANetwork));
        assert_eq!(Network::from_bytes(b"KBZNET02\x10\0\0\0").err(), Some(NetworkError::NotANetwork));
        for magic in [MAGIC, MAGIC_V1] {
            let mut bytes = magic.to_vec();
            bytes.extend_from_slice(&17u32.to_le_bytes());
            bytes.extend_from_slice(&1u32.to_le_bytes());
            assert_eq!(Network::from_bytes(&bytes).err(), Some(NetworkError::BadHiddenSize(17)));
        }
        for kings in [0u32, 2, 5] {
            let mut bytes = MAGIC_KINGS.to_vec();
            for word in [16, 1, kings] {
                bytes.extend_from_slice(&u32::to_le_bytes(word));
            }
            let refused = Network::from_bytes(&bytes).err();
            assert_eq!(refused, Some(NetworkError::BadKingBucketCount(u64::from(kings))));
        }
        // A king-bucketed file one king bucket short.
        let mut short = random_bytes_with_kings(16, Some(2), KING_BUCKETS);
        short.drain(20..20 + 2 * INPUTS * 16);
        assert!(matches!(Network::from_bytes(&short), Err(NetworkError::WrongLength { .. })));
        for buckets in [0u32, 17] {
            let mut bytes = MAGIC.to_vec();
            bytes.extend_from_slice(&16u32.to_le_bytes());
            bytes.extend_from_slice(&buckets.to_le_bytes());
            let refused = Network::from_bytes(&bytes).err();
            assert_eq!(refused, Some(NetworkError::BadBucketCount(u64::from(buckets))));
        }
        let mut bytes = MAGIC_V1.to_vec();
        bytes.extend_from_slice(&16u32.to_le_bytes());
        bytes.extend_from_slice(&[0; 10]);
        assert!(matches!(Network::from_bytes(&bytes), Err(NetworkError::WrongLength { found: 22, .. })));
        // A file of eight buckets cut short by one bias.
        let mut cut = random_bytes(16, Some(8));
        cut.truncate(cut.len() - 4);
        assert!(matches!(Network::from_bytes(&cut), Err(NetworkError::WrongLength { .. })));
        // Output weights whose sums would overflow the evaluation's integers.
        let mut bytes = MAGIC_V1.to_vec();
        bytes.extend_from_slice(&16u32.to_le_bytes());
        bytes.extend_from_slice(&vec![0; 2 * (INPUTS * 16 + 16)]);
        for _ in 0..2 * 16 {
            bytes.extend_from_slice(&i16::MAX.to_le_bytes());
        }
        bytes.extend_from_slice(&0i32.to_le_bytes());
        assert_eq!(Network::from_bytes(&bytes).err(), Some(NetworkError::OutputWeightTooLarge(i16::MAX)));
    }

    #[test]
    fn buckets_split_two_to_thirty_two_pieces_evenly_fewest_first() {
        let eight: Vec<usize> = (2..=32).map(|n| output_bucket(n, 8)).collect();
        assert_eq!(eight.first(), Some(&0));
        assert_eq!(eight.last(), Some(&7));
        assert!(eight.windows(2).all(|w| w[1] == w[0] || w[1] == w[0] + 1), "{eight:?}");
        for b in 0..8 {
            let size = eight.iter().filter(|&&x| x == b).count();
            assert!((3..=5).contains(&size), "bucket {b} holds {size} piece counts: {eight:?}");
        }
        assert!((0..=40).all(|n| output_bucket(n, 1) == 0));
        assert_eq!(output_bucket(0, 8), 0);
        assert_eq!(output_bucket(40, 8), 7);
    }

    #[test]
    fn each_position_is_evaluated_by_the_bucket_of_its_piece_count() {
        let bytes = random_bytes(32, Some(8));
        let net = Network::from_bytes(&bytes).expect("a well-formed network");
        assert_eq!(net.buckets(), 8);
        // The bucket's bias alone moves the evaluation: raising bucket 7's leaves every
        // position of 30 pieces or more higher and every other one as it was.
        let mut raised = bytes.clone();
        let at = raised.len() - 4;
        raised[at..].copy_from_slice(&(1234i32 - 3500 + 255 * 64).to_le_bytes());
        let raised = Network::from_bytes(&raised).expect("a well-formed network");
        let full = position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        let ending = position("8/5k2/8/3K4/8/8/1P6/8 w - - 0 1");
        // Up to the rounding of the integer division.
        assert!((raised.evaluate(&full) - net.evaluate(&full) - SCALE).abs() <= 1);
        assert_eq!(raised.evaluate(&ending), net.evaluate(&ending));
    }

    #[test]
    fn the_embedded_network_reads() {
        assert!(Network::embedded().hidden() >= 16);
    }
}
