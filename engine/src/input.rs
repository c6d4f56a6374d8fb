//! Lines of protocol input, read as bytes and decoded leniently: the one line reader of the
//! UCI and xboard front ends.
//!
//! A line that is not UTF-8 is not the end of input: it comes out as a [`NotUtf8`] error,
//! which the front end reports (UCI `info string error: ...`, xboard `Error (...)`) before
//! reading on. Such a line is skipped rather than guessed at: decoding it as Latin-1 would
//! not make a Latin-1 file name usable anyway (on Unix a path is its bytes, and the decoded
//! text would be encoded again as UTF-8, naming another file), and a command read wrongly
//! is worse than one refused with a reason. Only the end of the stream, or an error reading
//! it, ends the lines.

use std::io::{BufRead, BufReader, Stdin};

/// A line of input that is not valid UTF-8.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotUtf8 {
    /// The line's number, from 1.
    pub number: usize,
    /// The first byte that is not UTF-8.
    pub byte: u8,
    /// Where that byte is in the line, from 1.
    pub column: usize,
    /// The line with every bad sequence replaced by U+FFFD, to show what was skipped.
    pub lossy: String,
}

impl std::fmt::Display for NotUtf8 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "input line {} is not UTF-8 (byte 0x{:02x} at column {}), ignored: {}",
            self.number, self.byte, self.column, self.lossy
        )
    }
}

impl std::error::Error for NotUtf8 {}

/// The lines of a reader, without their line ends (`\n` or `\r\n`); see the module docs.
#[derive(Debug)]
pub struct InputLines<R> {
    reader: R,
    number: usize,
}

impl<R: BufRead> InputLines<R> {
    /// The lines of `reader`.
    pub fn new(reader: R) -> InputLines<R> {
        InputLines { reader, number: 0 }
    }
}

/// The lines of standard input. They may be read on another thread than the one that
/// started reading them; stdin must not be read otherwise meanwhile, as input is buffered.
#[must_use]
pub fn stdin_lines() -> InputLines<BufReader<Stdin>> {
    InputLines::new(BufReader::new(std::io::stdin()))
}

impl<R: BufRead> Iterator for InputLines<R> {
    type Item = Result<String, NotUtf8>;

    fn next(&mut self) -> Option<Self::Item> {
        let mut bytes = Vec::new();
        // An error reading is the end of input, as the end of the stream is.
        match self.reader.read_until(b'\n', &mut bytes) {
            Ok(0) | Err(_) => return None,
            Ok(_) => {}
        }
        self.number += 1;
        if bytes.last() == Some(&b'\n') {
            bytes.pop();
            if bytes.last() == Some(&b'\r') {
                bytes.pop();
            }
        }
        Some(String::from_utf8(bytes).map_err(|e| {
            let at = e.utf8_error().valid_up_to();
            let bytes = e.as_bytes();
            NotUtf8 {
                number: self.number,
                byte: bytes[at],
                column: at + 1,
                lossy: String::from_utf8_lossy(bytes).into_owned(),
            }
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8]) -> Vec<Result<String, NotUtf8>> {
        InputLines::new(input).collect()
    }

    #[test]
    fn a_bad_line_is_reported_and_reading_goes_on() {
        let read = lines(b"isready\n\xff\nsetoption name BookFile value caf\xe9.bin\r\nquit\n");
        assert_eq!(read.len(), 4);
        assert_eq!(read[0], Ok("isready".to_owned()));
        let bad = read[1].clone().expect_err("not UTF-8");
        assert_eq!((bad.number, bad.byte, bad.column), (2, 0xff, 1));
        let latin1 = read[2].clone().expect_err("Latin-1");
        assert_eq!((latin1.number, latin1.byte, latin1.column), (3, 0xe9, 34));
        assert_eq!(latin1.lossy, "setoption name BookFile value caf\u{fffd}.bin");
        assert!(latin1.to_string().contains("line 3 is not UTF-8 (byte 0xe9 at column 34)"), "{latin1}");
        assert_eq!(read[3], Ok("quit".to_owned()));
    }

    #[test]
    fn line_ends_and_the_last_line_without_one() {
        assert_eq!(lines(b"a\r\nb\n\nc"), ["a", "b", "", "c"].map(|s| Ok(s.to_owned())));
        assert_eq!(lines(b""), []);
        assert_eq!(lines("ä \u{1F600}\n".as_bytes()), [Ok("ä \u{1F600}".to_owned())]);
    }
}
