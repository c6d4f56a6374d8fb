//! The float model the trainer learns: its parameters' layout, the forward and backward
//! passes, the optimiser and the starting weights.

use kibitz_engine::Network;
use rand::Rng;
use rand::rngs::StdRng;

use crate::sample::{Sample, sigmoid};
use crate::{CLIP, FEATURES, MAX_PIECES};

/// The float network as one flat parameter vector: `W1 [K * 768 * H]`, `b1 [H]`, `W2 [B * 2 *
/// H]`, `b2 [B]`.
#[derive(Clone, Copy)]
pub struct Layout {
    pub h: usize,
    /// The output layer's buckets.
    pub buckets: usize,
    /// The first layer's king buckets.
    pub kings: usize,
    /// Whether the hidden layer (`W1`, `b1`) learns: not with `--output-only`.
    pub train_hidden: bool,
}

impl Layout {
    /// A layout of `h` hidden neurons and one output bucket, all of it learning.
    #[cfg(test)]
    pub fn of(h: usize) -> Layout {
        Layout { h, buckets: 1, kings: 1, train_hidden: true }
    }
    /// The layout of a network file's parameters, all of it learning.
    pub fn of_network(network: &Network) -> Layout {
        Layout {
            h: network.hidden(),
            buckets: network.buckets(),
            kings: network.king_buckets(),
            train_hidden: true,
        }
    }
    /// The first layer's inputs: its features in every king bucket.
    pub fn inputs(&self) -> usize {
        self.kings * FEATURES
    }
    /// The first layer's weights, feature-major.
    pub fn w1(&self) -> std::ops::Range<usize> {
        0..self.inputs() * self.h
    }
    /// The first layer's biases.
    pub fn b1(&self) -> std::ops::Range<usize> {
        self.inputs() * self.h..(self.inputs() + 1) * self.h
    }
    /// The output weights, bucket by bucket: the side to move's half, then the other's.
    pub fn w2(&self) -> std::ops::Range<usize> {
        (self.inputs() + 1) * self.h..(self.inputs() + 1 + 2 * self.buckets) * self.h
    }
    /// The output weights of `bucket`.
    pub fn w2_of(&self, bucket: usize) -> std::ops::Range<usize> {
        let start = self.w2().start + bucket * 2 * self.h;
        start..start + 2 * self.h
    }
    /// The output biases, one a bucket.
    pub fn b2(&self) -> std::ops::Range<usize> {
        let start = self.w2().end;
        start..start + self.buckets
    }
    /// The output bias of `bucket`.
    pub fn b2_of(&self, bucket: usize) -> usize {
        self.b2().start + bucket
    }
    /// The number of parameters.
    pub fn len(&self) -> usize {
        self.b2().end
    }
}

/// The activations of one position, reused from position to position.
pub struct Scratch {
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
    pub fn new(h: usize) -> Scratch {
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
pub fn forward(params: &[f32], layout: &Layout, sample: &Sample, s: &mut Scratch) -> f32 {
    s.count = sample.features(layout.kings, &mut s.stm, &mut s.ntm);
    let (w1, b1) = (&params[layout.w1()], &params[layout.b1()]);
    accumulate(&mut s.acc_stm, b1, w1, &s.stm[..s.count]);
    accumulate(&mut s.acc_ntm, b1, w1, &s.ntm[..s.count]);
    let (h, bucket) = (layout.h, sample.bucket(layout.buckets));
    let w2 = &params[layout.w2_of(bucket)];
    screlu_dot(&s.acc_stm, &w2[..h]) + screlu_dot(&s.acc_ntm, &w2[h..]) + params[layout.b2_of(bucket)]
}

/// Adds the gradient of `scale * (sigmoid(out) - target)^2` to `grad`; returns the squared error.
pub fn backward(
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
pub fn loss_sum(params: &[f32], layout: &Layout, samples: &[Sample], threads: usize) -> f64 {
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
pub struct AdamW {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
}

impl AdamW {
    const BETA1: f32 = 0.9;
    const BETA2: f32 = 0.999;
    const EPSILON: f32 = 1e-8;

    /// An optimiser of `len` parameters, before its first step.
    pub fn new(len: usize) -> AdamW {
        AdamW { m: vec![0.0; len], v: vec![0.0; len], t: 0 }
    }

    /// One step on `params`; weight decay and clamping on `W1` and `W2`, clamping on `b1`;
    /// the hidden layer is left as it is when it does not learn.
    pub fn step(&mut self, params: &mut [f32], grad: &[f32], layout: &Layout, lr: f32, decay: f32) {
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

/// `params`, a network of layout `old`, reshaped to `layout`'s wider hidden layer and its
/// buckets: the first `old.h` neurons are the old ones; the others start as a fresh network's
/// (`initial_parameters`) but with output weights of 0, and a one-bucket output layer is copied
/// into every bucket, as a first layer of one king bucket is into every king bucket, so that the
/// output is unchanged. `layout` has as many buckets and king buckets as `old`, or `old` has one.
pub fn widened(params: &[f32], old: &Layout, layout: &Layout, rng: &mut StdRng) -> Vec<f32> {
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
pub fn initial_parameters(layout: &Layout, rng: &mut StdRng) -> Vec<f32> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use kibitz_engine::KING_BUCKETS;
    use rand::SeedableRng;

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
            let s = Sample::of_fen(fen);
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
        let full = Sample::of_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let mut grad = vec![0f32; layout.len()];
        let mut s = Scratch::new(16);
        backward(&params, &layout, &full, 1.0, &mut s, &mut grad);
        let mut adam = AdamW::new(layout.len());
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
}
