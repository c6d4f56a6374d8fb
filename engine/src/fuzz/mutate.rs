//! The mutation engine: seeded and deterministic, it turns the seed inputs into damaged
//! variants (bit flips, inserted tokens, huge numbers, truncation, splices, repeats).

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Bytes and words that trip up parsers: brackets and quotes, escapes, line ends, bytes that
/// are not UTF-8, signs and digits, numbers that overflow every integer type, and the
/// keywords of the formats fuzzed.
const TOKENS: &[&[u8]] = &[
    b"(",
    b")",
    b"{",
    b"}",
    b"[",
    b"]",
    b"<",
    b">",
    b"\"",
    b"\\",
    b"\xff",
    b"\xc3",
    b"\xc3\xa9",
    b"\xef\xbb\xbf",
    b"\xe2\x80",
    b"\r",
    b"\n",
    b"\r\n",
    b"\0",
    b"\t",
    b" ",
    b";",
    b"%",
    b"*",
    b"$",
    b"=",
    b":",
    b"/",
    b"+",
    b"-",
    b".",
    b"#",
    b"!",
    b"?",
    b"0",
    b"1",
    b"9",
    b"-1",
    b"255",
    b"256",
    b"65536",
    b"4294967295",
    b"4294967296",
    b"9223372036854775807",
    b"-9223372036854775808",
    b"18446744073709551616",
    b"99999999999999999999999999",
    b"1-0",
    b"0-1",
    b"1/2-1/2",
    b"$255",
    b"O-O",
    b"O-O-O",
    b"=Q",
    b"e8=Q",
    b"e2e4",
    b"e7e8q",
    b"0000",
    b"(none)",
    b"Kxe1",
    b"[%clk 0:00:01]",
    b"[%eval #-3]",
    b"[FEN \"",
    b"\"]",
    b"[SetUp \"1\"]",
    b"[Variant \"",
    b"KQkq",
    b"w",
    b"b",
    b"score",
    b"mate",
    b"cp",
    b"pv",
    b"string",
    b"name",
    b"type",
    b"default",
    b"min",
    b"max",
    b"var",
    b"moves",
    b"fen",
    b"startpos",
    b"position",
    b"feature",
    b"option=",
    b"///",
    b"-spin",
    b"-combo",
    b"-check",
    b"bm",
    b"am",
    b"id",
    b"level",
    b"time",
    b"sd",
    b"st",
    b"go",
    b"lowerbound",
    b"upperbound",
];

/// Produces fuzz inputs from seeds: each input is one seed, damaged one to four times.
/// The same seeds and `seed` give the same inputs, so a run can be repeated.
///
/// ```
/// use kibitz_engine::fuzz::Mutator;
/// let seeds = vec![b"1. e4 e5 *".to_vec()];
/// let mut a = Mutator::new(seeds.clone(), 7, 1024);
/// let mut b = Mutator::new(seeds, 7, 1024);
/// assert_eq!(a.next_input(), b.next_input());
/// assert!(a.next_input().len() <= 1024);
/// ```
pub struct Mutator {
    rng: StdRng,
    seeds: Vec<Vec<u8>>,
    max_len: usize,
}

impl Mutator {
    /// A mutator over `seeds` (an empty input is added), drawing from a generator seeded with
    /// `seed`; no input it makes is longer than `max_len` bytes.
    #[must_use]
    pub fn new(mut seeds: Vec<Vec<u8>>, seed: u64, max_len: usize) -> Self {
        seeds.push(Vec::new());
        for s in &mut seeds {
            s.truncate(max_len);
        }
        Mutator { rng: StdRng::seed_from_u64(seed), seeds, max_len }
    }

    /// The next input: a seed (one time in sixteen unchanged) with one to four mutations.
    pub fn next_input(&mut self) -> Vec<u8> {
        let mut input = self.seeds[self.rng.random_range(0..self.seeds.len())].clone();
        if self.rng.random_ratio(1, 16) {
            return input;
        }
        for _ in 0..self.rng.random_range(1..=4) {
            self.mutate(&mut input);
        }
        input.truncate(self.max_len);
        input
    }

    /// One mutation of `input`, in place.
    fn mutate(&mut self, input: &mut Vec<u8>) {
        let len = input.len();
        let at = self.rng.random_range(0..=len);
        match self.rng.random_range(0..10) {
            // Flip one bit.
            0 if len > 0 => {
                let i = at.min(len - 1);
                input[i] ^= 1 << self.rng.random_range(0..8);
            }
            // Replace a byte with any byte.
            1 if len > 0 => input[at.min(len - 1)] = self.rng.random(),
            // Insert a token.
            2 | 3 => {
                let token = TOKENS[self.rng.random_range(0..TOKENS.len())];
                input.splice(at..at, token.iter().copied());
            }
            // Replace a byte with a token.
            4 if len > 0 => {
                let token = TOKENS[self.rng.random_range(0..TOKENS.len())];
                input.splice(at.min(len - 1)..=at.min(len - 1), token.iter().copied());
            }
            // Delete a short range.
            5 => {
                let end = (at + self.rng.random_range(1..=16)).min(len);
                input.drain(at..end);
            }
            // Truncate.
            6 => input.truncate(at),
            // Splice: this input's head, another seed's tail.
            7 => {
                let other = &self.seeds[self.rng.random_range(0..self.seeds.len())];
                let from = self.rng.random_range(0..=other.len());
                input.truncate(at);
                input.extend_from_slice(&other[from..]);
            }
            // Repeat a slice, up to the size cap.
            8 if len > 0 => {
                let start = at.min(len - 1);
                let end = (start + self.rng.random_range(1..=32)).min(len);
                let slice = input[start..end].to_vec();
                let times = self.rng.random_range(1..=256).min(self.max_len / slice.len().max(1));
                let repeated: Vec<u8> = slice.iter().copied().cycle().take(slice.len() * times).collect();
                input.splice(end..end, repeated);
            }
            // Replace a run of digits with a huge number, or insert one.
            _ => {
                let digits = self.rng.random_range(1..=40);
                let number: Vec<u8> = (0..digits).map(|_| b'0' + self.rng.random_range(0..10)).collect();
                let end = input[at..].iter().position(|b| !b.is_ascii_digit()).map_or(len, |p| at + p);
                input.splice(at..end, number);
            }
        }
    }
}
