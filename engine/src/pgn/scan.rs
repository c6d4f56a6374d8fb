//! Where the moves and parentheses of a game sit in its text. pgn-reader reports moves and
//! variations but not their place, so this scanner walks the same movetext by the same rules
//! to find them, and it notices the words pgn-reader skips without a word (`Sf3`, `hello`,
//! `Zz9`), which must not silently vanish or turn into other moves.

use pgn_reader::SanPlus;

/// What a token of the movetext is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum TokenKind {
    /// A move pgn-reader reports.
    Move,
    /// A word pgn-reader skips that is not decoration: not a move, an error.
    Junk,
    /// `(`: a variation starts.
    Open,
    /// `)`: a variation ends.
    Close,
}

/// A token of the movetext: a move, a parenthesis or a skipped word.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Token {
    /// Byte offset of the token's first byte.
    pub start: usize,
    /// Byte offset just after the token.
    pub end: usize,
    /// What it is.
    pub kind: TokenKind,
}

fn is_token_end(byte: u8) -> bool {
    matches!(
        byte,
        b' ' | b'\t' | b'\n' | b'\r' | b'{' | b'}' | b'(' | b')' | b'!' | b'?' | b'$' | b';' | b'.' | b'*'
    )
}

/// Whether a skipped word is an error rather than decoration: it holds a letter, a digit or a
/// control character. Evaluation symbols (`+-`, `=`, `±`, `∞`), a byte-order mark and the
/// novelty mark `N` are decoration.
fn is_junk(word: &[u8]) -> bool {
    word != b"N" && word.iter().any(|&b| b.is_ascii_alphanumeric() || b.is_ascii_control())
}

/// The moves, parentheses and junk words of the game starting at `start`, in order, up to
/// the end of its movetext.
pub(crate) fn scan_movetext(text: &[u8], start: usize) -> Vec<Token> {
    let mut tokens = Vec::new();
    let mut i = skip_tags(text, start);
    let len = text.len();
    let at = |i: usize| text.get(i).copied();
    let eat_dash = |i: usize| -> Option<usize> {
        for dash in [&b"-"[..], "–".as_bytes(), "—".as_bytes()] {
            if text[i.min(len)..].starts_with(dash) {
                return Some(i + dash.len());
            }
        }
        None
    };
    while let Some(ch) = at(i) {
        match ch {
            b'{' => i = memchr_from(text, i + 1, b'}').map_or(len, |p| p + 1),
            b'\n' => {
                i += 1;
                match at(i) {
                    Some(b'%') => i = memchr_from(text, i, b'\n').unwrap_or(len),
                    Some(b'[' | b'\n') => break,
                    Some(b'\r') => {
                        i += 1;
                        if at(i) == Some(b'\n') {
                            break;
                        }
                    }
                    _ => {}
                }
            }
            b';' => i = memchr_from(text, i, b'\n').unwrap_or(len),
            b'0' => {
                let token_start = i;
                i += 1;
                if let Some(j) = eat_dash(i) {
                    i = j;
                    if at(i) == Some(b'1') {
                        i += 1;
                    } else if at(i) == Some(b'0') {
                        i += 1;
                        if let Some(j) = eat_dash(i)
                            && at(j) == Some(b'0')
                        {
                            i = j + 1;
                        }
                        if matches!(at(i), Some(b'+' | b'#')) {
                            i += 1;
                        }
                        tokens.push(Token { start: token_start, end: i, kind: TokenKind::Move });
                    }
                }
            }
            b'1'..=b'9' => {
                i += 1;
                let is_one = ch == b'1';
                if is_one && let Some(j) = eat_dash(i) {
                    i = j + usize::from(at(j) == Some(b'0'));
                } else if is_one && text[i..].starts_with(b"/2") {
                    i += 2;
                    if let Some(j) = eat_dash(i)
                        && text[j..].starts_with(b"1/2")
                    {
                        i = j + 3;
                    }
                } else {
                    while matches!(at(i), Some(b'0'..=b'9')) {
                        i += 1;
                    }
                    while matches!(at(i), Some(b'.' | b' ')) {
                        i += 1;
                    }
                }
            }
            b'$' => {
                i += 1;
                while at(i).is_some_and(|b| !is_token_end(b)) {
                    i += 1;
                }
            }
            b'(' | b')' => {
                let kind = if ch == b'(' { TokenKind::Open } else { TokenKind::Close };
                tokens.push(Token { start: i, end: i + 1, kind });
                i += 1;
            }
            b'!' | b'?' | b'*' | b' ' | b'\t' | b'\r' | b'.' | b'\xc2' => i += 1,
            _ if text[i..].starts_with(b"e.p.") => i += 4,
            _ => {
                let word_end = (i..len).find(|&j| is_token_end(text[j])).unwrap_or(len);
                match SanPlus::from_ascii_prefix(&text[i..]) {
                    Ok((_, bytes)) if at(i + bytes).is_none_or(is_token_end) => {
                        tokens.push(Token { start: i, end: i + bytes, kind: TokenKind::Move });
                        i += bytes;
                    }
                    Ok((_, bytes)) => {
                        if is_junk(&text[i..word_end]) {
                            tokens.push(Token { start: i, end: word_end, kind: TokenKind::Junk });
                        }
                        i += bytes;
                    }
                    Err(_) => {
                        if is_junk(&text[i..word_end]) {
                            tokens.push(Token { start: i, end: word_end, kind: TokenKind::Junk });
                        }
                        i = word_end.max(i + 1);
                    }
                }
            }
        }
    }
    tokens
}

/// The offset of the movetext: after the tag lines and the blank space that follows them.
fn skip_tags(text: &[u8], mut i: usize) -> usize {
    loop {
        while matches!(text.get(i), Some(b' ' | b'\t' | b'\r' | b'\n')) {
            i += 1;
        }
        if text.get(i) == Some(&b'%') {
            i = memchr_from(text, i, b'\n').unwrap_or(text.len());
            continue;
        }
        if text.get(i) != Some(&b'[') {
            return i;
        }
        i = memchr_from(text, i, b'\n').unwrap_or(text.len());
    }
}

fn memchr_from(text: &[u8], from: usize, needle: u8) -> Option<usize> {
    text.get(from..)?.iter().position(|&b| b == needle).map(|p| p + from)
}

/// The 1-based line and column (in characters) of a byte offset, and the offset of that line's
/// start, counting from a known `(offset of a line start, line)` point before it.
pub(crate) fn line_and_column(text: &[u8], from: (usize, usize), offset: usize) -> (usize, usize, usize) {
    let (start, mut line) = from;
    let offset = offset.min(text.len());
    let mut line_start = start;
    for (i, &b) in text[start.min(offset)..offset].iter().enumerate() {
        if b == b'\n' {
            line += 1;
            line_start = start + i + 1;
        }
    }
    let column = text[line_start.min(offset)..offset].iter().filter(|&&b| b & 0xC0 != 0x80).count() + 1;
    (line, column, line_start)
}

#[cfg(test)]
mod tests {
    use super::*;

    use TokenKind::{Close, Junk, Move, Open};

    fn moves(text: &str) -> Vec<(&str, TokenKind)> {
        scan_movetext(text.as_bytes(), 0).iter().map(|t| (&text[t.start..t.end], t.kind)).collect()
    }

    #[test]
    fn finds_moves_parentheses_and_skipped_words() {
        assert_eq!(
            moves(
                "[Event \"x\"]\n\n1. e4 {c (} e5 (1... c5 $1) 2.Nf3!? O-O 0-0+ 1-0\n\n[Event \"y\"]\n1. d4"
            ),
            [
                ("e4", Move),
                ("e5", Move),
                ("(", Open),
                ("c5", Move),
                (")", Close),
                ("Nf3", Move),
                ("O-O", Move),
                ("0-0+", Move)
            ]
        );
        assert_eq!(moves("1.d4 Nf6 2. Sf3 d5"), [("d4", Move), ("Nf6", Move), ("Sf3", Junk), ("d5", Move)]);
        assert_eq!(moves("1. g1f3 exd6 e.p. N +- = ± 1/2-1/2"), [("g1f3", Move), ("exd6", Move)]);
        assert_eq!(
            moves("1. e4 Zz9 e5 Nf9 hello *"),
            [("e4", Move), ("Zz9", Junk), ("e5", Move), ("Nf9", Junk), ("hello", Junk)]
        );
    }

    #[test]
    fn lines_and_columns() {
        let text = "ab\ncdé f\n";
        assert_eq!(line_and_column(text.as_bytes(), (0, 1), 0), (1, 1, 0));
        assert_eq!(line_and_column(text.as_bytes(), (0, 1), 3), (2, 1, 3));
        assert_eq!(line_and_column(text.as_bytes(), (0, 1), 8), (2, 5, 3));
    }
}
