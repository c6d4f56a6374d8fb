//! Splitting a PGN stream into the text of its games: the one reading loop under reading a
//! file's games, counting them (`kibitz pgn stats`) and indexing them (the game list), so that
//! all three agree on where each game starts and ends. Memory holds one game at a time.

use std::cell::RefCell;
use std::io::{self, Read};
use std::rc::Rc;

use pgn_reader::Reader;

/// One game's text, as it stands in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct GameText {
    /// Byte offset of the game's first byte in the stream.
    pub offset: u64,
    /// The 1-based line of that byte.
    pub line: u64,
    /// The bytes of the game, up to the start of the next one.
    pub bytes: Vec<u8>,
}

/// The bytes read so far from the current game on.
#[derive(Default)]
struct Window {
    /// Stream offset of `bytes[0]`.
    base: u64,
    bytes: Vec<u8>,
}

/// A reader that keeps what it hands to pgn-reader in the window, so that the text of each
/// game can be given back.
struct Recorded<R> {
    inner: R,
    window: Rc<RefCell<Window>>,
}

impl<R: Read> Read for Recorded<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.window.borrow_mut().bytes.extend_from_slice(&buf[..n]);
        Ok(n)
    }
}

/// The games of a PGN stream, one [`GameText`] at a time, split by pgn-reader's rules. Text
/// that holds nothing but white space and byte-order marks is not a game.
pub(crate) struct GameSplitter<R> {
    reader: Reader<Recorded<R>>,
    window: Rc<RefCell<Window>>,
    /// Line of `window.base`.
    line: u64,
}

impl<R: Read> GameSplitter<R> {
    /// Splits the games of `source`.
    pub fn new(source: R) -> Self {
        let window = Rc::new(RefCell::new(Window::default()));
        let recorded = Recorded { inner: source, window: Rc::clone(&window) };
        let reader = Reader::build(recorded).set_supported_tag_line_length(1024).finish();
        GameSplitter { reader, window, line: 1 }
    }

    /// The stream offset pgn-reader has reached.
    fn offset(&self) -> u64 {
        let window = self.window.borrow();
        window.base + (window.bytes.len() - self.reader.buffer().len()) as u64
    }

    /// The bytes read from the stream so far (a little ahead of the games returned).
    pub fn bytes_read(&self) -> u64 {
        let window = self.window.borrow();
        window.base + window.bytes.len() as u64
    }

    /// Forgets the window's bytes before `offset`, counting their lines.
    fn advance_to(&mut self, offset: u64) {
        let mut window = self.window.borrow_mut();
        let drop = ((offset - window.base) as usize).min(window.bytes.len());
        self.line += window.bytes[..drop].iter().filter(|&&b| b == b'\n').count() as u64;
        window.bytes.drain(..drop);
        window.base += drop as u64;
    }

    /// The next game's text, `None` at the end of the stream. An error is an I/O error of the
    /// stream.
    pub fn next_game(&mut self) -> io::Result<Option<GameText>> {
        loop {
            if !self.reader.has_more()? {
                return Ok(None);
            }
            let start = self.offset();
            self.advance_to(start);
            match self.reader.skip_game() {
                // A broken tag ends its game here; the reader of the game says what broke.
                Err(e) if e.kind() == io::ErrorKind::InvalidData => {}
                Err(e) => return Err(e),
                Ok(_) => {}
            }
            self.reader.has_more()?;
            let end = self.offset();
            let window = self.window.borrow();
            let bytes = window.bytes[..(end - start) as usize].to_vec();
            drop(window);
            if end == start {
                // pgn-reader made no progress: nothing more can be read.
                return Ok(None);
            }
            if is_blank(&bytes) {
                self.advance_to(end);
                continue;
            }
            return Ok(Some(GameText { offset: start, line: self.line, bytes }));
        }
    }
}

impl<R: Read> Iterator for GameSplitter<R> {
    type Item = io::Result<GameText>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_game().transpose()
    }
}

/// Whether a text holds only white space and byte-order marks.
fn is_blank(bytes: &[u8]) -> bool {
    let mut rest = bytes;
    while let Some((&b, tail)) = rest.split_first() {
        if rest.starts_with(b"\xef\xbb\xbf") {
            rest = &rest[3..];
        } else if b.is_ascii_whitespace() {
            rest = tail;
        } else {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(text: &[u8]) -> Vec<(u64, u64, String)> {
        GameSplitter::new(text)
            .map(|g| {
                let g = g.expect("in memory");
                (g.offset, g.line, String::from_utf8_lossy(&g.bytes).into_owned())
            })
            .collect()
    }

    #[test]
    fn splits_games_with_their_offsets_and_lines() {
        let text = b"[White \"A\"]\n\n1. e4 *\n\n1. d4 {a\n\nb} d5 *\n\n\n[White \"B\"]\n*\n";
        assert_eq!(
            split(text),
            [
                (0, 1, "[White \"A\"]\n\n1. e4 *\n\n".to_string()),
                (22, 5, "1. d4 {a\n\nb} d5 *\n\n\n".to_string()),
                (42, 10, "[White \"B\"]\n*\n".to_string()),
            ]
        );
    }

    #[test]
    fn white_space_and_byte_order_marks_are_no_game() {
        assert!(split(b"").is_empty());
        assert!(split(b" \xef\xbb\xbf").is_empty());
        assert!(split(b"\xef\xbb\xbf \n\xef\xbb\xbf\n\n").is_empty());
        assert_eq!(split(b" \xef\xbb\xbf\n[White \"A\"]\n\n*\n").len(), 1);
        assert_eq!(split(b"hello world").len(), 1);
    }
}
