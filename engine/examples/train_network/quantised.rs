//! The network as the engine reads it: quantised to integers, written atomically, and read
//! back into float parameters.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use kibitz_engine::Network;

use crate::model::Layout;
use crate::sample::Sample;
use crate::{MAX_PIECES, QA, QB, SCALE};

/// The quantised network, as the file holds it and the engine uses it.
pub struct Quantised {
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
    pub fn new(params: &[f32], layout: &Layout, scale: f32) -> Result<Quantised, String> {
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
    pub fn evaluate(&self, sample: &Sample) -> i64 {
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
    pub fn write(&self, path: &Path) -> Result<(), String> {
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

/// The float parameters a network file was quantised from (up to rounding): its weights
/// divided by the factors [`Quantised::new`] multiplied them by.
pub fn dequantised(network: &Network) -> Vec<f32> {
    let (w1, b1, w2, b2) = network.parameters();
    let f = |w: &i16, q: i32| f32::from(*w) / q as f32;
    let mut params: Vec<f32> = w1.iter().chain(b1).map(|w| f(w, QA)).collect();
    params.extend(w2.iter().map(|w| f(w, QB)));
    params.extend(b2.iter().map(|&b| (f64::from(b) / f64::from(QA * QB)) as f32));
    params
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::initial_parameters;
    use kibitz_engine::{KING_BUCKETS, king_bucket};
    use rand::SeedableRng;
    use rand::rngs::StdRng;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Color, Position};

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
        let shipped = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/net/kibitz.nnue"));
        assert!(Network::from_bytes(shipped).is_ok_and(|n| n.hidden() == 64));
        assert!(Network::from_bytes(&shipped[..shipped.len() - 1]).is_err());
        assert!(Network::from_bytes(b"KBZNET02").is_err());
        assert!(Network::from_bytes(b"KBZNET01").is_err());
    }

    #[test]
    fn a_rescaled_network_evaluates_that_many_times_the_original() {
        let shipped =
            Network::from_bytes(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/net/kibitz.nnue")))
                .expect("shipped");
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
            let s = Sample::of_fen(fen);
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
            for (s, played) in [
                (Sample::of_fen(fen), pos.clone()),
                (Sample::of_fen(fen).mirrored(), mirrored_position(&pos)),
            ] {
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
}
