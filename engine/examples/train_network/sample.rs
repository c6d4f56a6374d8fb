//! Training positions: parsed from `datagen`'s lines and packed into 40 bytes, with the
//! features each perspective sees.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;

use kibitz_engine::{king_bucket, output_bucket};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, Position, Role, Square};

use crate::{FEATURES, MAX_PIECES, SCALE};

/// One training position, packed: 40 bytes.
#[derive(Clone, Copy)]
pub struct Sample {
    /// The occupied squares.
    pub occupied: u64,
    /// The pieces of the occupied squares from a1 to h8, 4 bits each: `colour * 6 + role`,
    /// colour 0 for White, role 0 (pawn) to 5 (king).
    pub pieces: [u8; MAX_PIECES / 2],
    /// `(1 - wdl) * sigmoid(score / 400) + wdl * result`, for the side to move.
    pub target: f32,
    /// The data's score in centipawns for the side to move.
    pub score: i32,
    pub white_to_move: bool,
    /// The squares of White's and Black's king (a1 0 .. h8 63).
    pub kings: [u8; 2],
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

/// The logistic function.
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl Sample {
    /// Packs a position with its score and result, both for White; `None` with too many pieces.
    pub fn new(pos: &Chess, white_score: i32, white_result: f32, wdl: f32) -> Option<Sample> {
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
    pub fn mirrored(&self) -> Sample {
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
    pub fn bucket(&self, buckets: usize) -> usize {
        output_bucket(self.occupied.count_ones() as usize, buckets)
    }

    /// Writes the features of the side to move's and the other side's perspective, for a
    /// first layer of `king_buckets`; returns how many each has.
    pub fn features(
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
pub fn read_data(path: &Path, wdl: f32, max: usize, samples: &mut Vec<Sample>) -> Result<(), String> {
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

#[cfg(test)]
impl Sample {
    /// The position of a FEN, scored 37 cp and won for White, labelled by its score alone.
    pub fn of_fen(fen: &str) -> Sample {
        let fen = Fen::from_ascii(fen.as_bytes()).expect("FEN");
        let pos: Chess = fen.into_position(CastlingMode::Standard).expect("legal");
        Sample::new(&pos, 37, 1.0, 0.0).expect("sample")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub fn features(s: &Sample) -> (Vec<u16>, Vec<u16>) {
        let (mut stm, mut ntm) = ([0u16; MAX_PIECES], [0u16; MAX_PIECES]);
        let n = s.features(1, &mut stm, &mut ntm);
        let (mut stm, mut ntm) = (stm[..n].to_vec(), ntm[..n].to_vec());
        stm.sort_unstable();
        ntm.sort_unstable();
        (stm, ntm)
    }
    #[test]
    fn a_mirrored_sample_is_the_mirrored_position() {
        // Black to move, pieces on both wings, so the a- and h-files both change.
        let played = Sample::of_fen("r1bqk2r/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP3PPP/R1BQKB1R b KQkq - 1 7");
        let by_hand = Sample::of_fen("r2kqb1r/pppb2pp/2np1n2/4p3/4PP2/2N2N2/PPP3PP/R1BKQB1R b - - 1 7");
        let mirrored = played.mirrored();
        assert_eq!(features(&mirrored), features(&by_hand));
        assert_eq!((mirrored.score, mirrored.white_to_move), (played.score, played.white_to_move));
        assert_eq!(mirrored.target.to_bits(), played.target.to_bits());
        assert_ne!(features(&mirrored), features(&played));
        let back = mirrored.mirrored();
        assert_eq!((back.occupied, back.pieces), (played.occupied, played.pieces));
    }
}
