//! Reading PGN games, with their variations, comments and annotation glyphs, into
//! [`GameRecord`]s; the `[%clk]` and `[%eval]` commands of a move's comments become its
//! typed clock and evaluation. A game that breaks stops at its last legal move and says where
//! it broke; an illegal move or a word that is not a move inside a variation costs only that
//! variation (the error says where, the rest of the game is its partial game); the games after
//! a broken one still load. Chess960 games keep their castling rules.

use std::borrow::Cow;
use std::cell::Cell;
use std::io::{self, Read};
use std::marker::PhantomData;
use std::mem;
use std::ops::ControlFlow;
use std::rc::Rc;

use pgn_reader::{Nag, Outcome, RawComment, RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Color, Position};

use super::error::PgnError;
use super::replay::Replay;
use super::scan::{Token, TokenKind, line_and_column, scan_movetext};
use super::split::GameSplitter;
use super::variant::castling_mode_of_variant;
use crate::GameRecord;
use crate::game::{NodeId, clean_comment, take_commands};

/// Text from a PGN file: UTF-8 when it is, else Latin-1 (ISO 8859-1, one byte per character),
/// the encoding of most older PGN collections.
///
/// ```
/// use kibitz_engine::decode_pgn_text;
/// assert_eq!(decode_pgn_text("Réti".as_bytes()), "Réti");
/// assert_eq!(decode_pgn_text(b"R\xe9ti"), "Réti");
/// ```
#[must_use]
pub fn decode_pgn_text(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => Cow::Owned(bytes.iter().map(|&b| char::from(b)).collect()),
    }
}

/// The initial position of standard chess.
const STANDARD_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Reads the first game of a PGN text: its tags, moves, variations, comments and annotation
/// glyphs. The error says where the game broke and holds it up to its last legal move.
///
/// ```
/// use kibitz_engine::read_pgn;
/// let err = read_pgn("1. e4 e5 2. Ke3 *").unwrap_err();
/// assert_eq!(err.to_string(), "line 1, column 13: Move 2. Ke3 is illegal: illegal san.");
/// assert_eq!(err.partial.unwrap().san_moves(), ["e4", "e5"]);
/// ```
pub fn read_pgn(text: &str) -> Result<GameRecord, PgnError> {
    read_games(text.as_bytes()).next().unwrap_or_else(|| Err(PgnError::new("The file holds no game.")))
}

/// Reads every game of a PGN text, one at a time. Bytes that are not UTF-8 are read as
/// Latin-1.
///
/// ```
/// use kibitz_engine::read_games;
/// let text = b"[White \"A\"]\n\n1. e4 *\n\n[White \"B\"]\n\n1. e4 e5 2. Kf3 *\n\n1. d4 *\n";
/// let games: Vec<_> = read_games(text).collect();
/// assert_eq!(games.len(), 3);
/// assert_eq!(games[0].as_ref().unwrap().tag("White"), Some("A"));
/// let err = games[1].as_ref().unwrap_err();
/// assert_eq!((err.line, err.column), (7, 13));
/// assert_eq!(games[2].as_ref().unwrap().san_moves(), ["d4"]);
/// ```
#[must_use]
pub fn read_games(text: &[u8]) -> PgnGames<'_> {
    PgnGames { games: GameSplitter::new(text) }
}

/// The games of a PGN text, see [`read_games`].
pub struct PgnGames<'a> {
    games: GameSplitter<&'a [u8]>,
}

impl Iterator for PgnGames<'_> {
    type Item = Result<GameRecord, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        match self.games.next_game() {
            Ok(Some(game)) => Some(read_game_text(&game.bytes, game.line as usize)),
            Ok(None) => None,
            Err(e) => Some(Err(PgnError::new(format!("The text cannot be read: {e}.")))),
        }
    }
}

/// Reads the one game of `text` (as [`GameSplitter`](super::split::GameSplitter) cut it),
/// whose first line is line `first_line` of its file.
pub(crate) fn read_game_text(text: &[u8], first_line: usize) -> Result<GameRecord, PgnError> {
    replay_game_text(text, first_line).map_err(|(mut error, partial)| {
        error.partial = partial.map(Box::new);
        error
    })
}

/// Replays the one game of `text` into `T`, as [`read_game_text`] reads it: the tree, or why
/// it broke with the tree as far as it could be read.
pub(crate) fn replay_game_text<T: Replay>(
    text: &[u8],
    first_line: usize,
) -> Result<T, (PgnError, Option<T>)> {
    let count = Rc::new(Cell::new(0));
    let counted = Counted { inner: text, count: Rc::clone(&count) };
    let mut reader = Reader::build(counted)
        .set_supported_tag_line_length(1024)
        .set_supported_comment_length(4096)
        .finish();
    let locate = |offset: usize| {
        let (line, column, _) = line_and_column(text, (0, first_line), offset);
        (line, column)
    };
    let mut builder = Builder { text, tree: PhantomData };
    match reader.read_game(&mut builder) {
        Ok(Some(Ok(game))) => Ok(game),
        Ok(Some(Err(Failure { error, offset, partial }))) => Err((error.at(locate(offset)), partial)),
        Ok(None) => Err((PgnError::new("The game is empty."), None)),
        Err(e) => {
            let at = (count.get() as usize).saturating_sub(reader.buffer().len());
            Err((PgnError::new(format!("The game cannot be read: {e}.")).at(locate(at)), None))
        }
    }
}

/// A reader that counts the bytes it hands out, so that the position of pgn-reader's buffer
/// in the text is known.
struct Counted<R> {
    inner: R,
    count: Rc<Cell<u64>>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.set(self.count.get() + n as u64);
        Ok(n)
    }
}

/// Builds a game tree `T` from pgn-reader's callbacks, the game being all of `text`.
struct Builder<'a, T> {
    text: &'a [u8],
    tree: PhantomData<T>,
}

/// Why a game broke, the byte offset where it did, and the tree as far as it was read.
struct Failure<T> {
    error: PgnError,
    offset: usize,
    partial: Option<T>,
}

/// An open variation.
struct Frame {
    /// The node to come back to at its end (`None` for a variation that is skipped).
    back: Option<NodeId>,
    /// Byte offset of its `(`.
    at: usize,
}

struct Movetext<T> {
    game: T,
    /// The node the next move is played from.
    current: NodeId,
    /// The open variations, innermost last.
    stack: Vec<Frame>,
    /// While set, the variations from this depth of `stack` on are skipped: they have no
    /// move to branch from, or hold an illegal move.
    skip_from: Option<usize>,
    /// No move yet since the last `(`: a comment here goes before the next move.
    fresh_variation: bool,
    starting_comment: String,
    long_comment: Vec<u8>,
    tokens: Vec<Token>,
    next_token: usize,
    result: Option<String>,
    /// The first error that cost only a variation (or a parenthesis), and where: the game
    /// reads on and comes back as the error's partial game.
    soft_error: Option<(PgnError, usize)>,
}

impl<T> Movetext<T> {
    fn skipping(&self) -> bool {
        self.skip_from.is_some()
    }

    /// The next token of `kind`, or the junk word found before it. Junk inside a skipped
    /// variation is passed over.
    fn next_token(&mut self, kind: TokenKind) -> Result<Option<Token>, Token> {
        while let Some(&token) = self.tokens.get(self.next_token) {
            self.next_token += 1;
            if token.kind == kind {
                return Ok(Some(token));
            }
            if token.kind == TokenKind::Junk && !self.skipping() {
                return Err(token);
            }
        }
        Ok(None)
    }
}

impl<T: Replay> Builder<'_, T> {
    /// Stops the game at an error of its main line; inside a variation, the variation is
    /// skipped and the error remembered.
    fn broken(
        &self,
        mt: &mut Movetext<T>,
        message: String,
        offset: usize,
    ) -> ControlFlow<Result<T, Failure<T>>> {
        if let Some(depth) = mt.stack.len().checked_sub(1) {
            mt.skip_from = Some(depth);
            mt.soft_error
                .get_or_insert((PgnError::new(format!("{message} The variation is left out.")), offset));
            return ControlFlow::Continue(());
        }
        let mut game = mem::take(&mut mt.game);
        game.finish(mt.result.take());
        ControlFlow::Break(Err(Failure { error: PgnError::new(message), offset, partial: Some(game) }))
    }

    fn junk(&self, mt: &mut Movetext<T>, junk: Token) -> ControlFlow<Result<T, Failure<T>>> {
        let word = decode_pgn_text(&self.text[junk.start..junk.end]).into_owned();
        self.broken(mt, format!("\"{word}\" is not a move."), junk.start)
    }
}

impl<T: Replay> Visitor for Builder<'_, T> {
    type Tags = Vec<(String, String)>;
    type Movetext = Movetext<T>;
    type Output = Result<T, Failure<T>>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(Vec::new())
    }

    fn tag(&mut self, tags: &mut Self::Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<Self::Output> {
        let name = decode_pgn_text(name).into_owned();
        tags.push((name, decode_pgn_text(&value.decode()).into_owned()));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        let fail = |message: String| {
            ControlFlow::Break(Err(Failure { error: PgnError::new(message), offset: 0, partial: None }))
        };
        // A repeated tag counts by its last value, as `set_tag` below keeps it.
        let last = |name: &str| tags.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v.as_str());
        let variant = last("Variant");
        let mode = match castling_mode_of_variant(variant.unwrap_or("")) {
            Ok(mode) => mode,
            Err(e) => return fail(e.to_string()),
        };
        let fen = last("FEN");
        let game = match (fen, mode) {
            (Some(fen), _) => match GameRecord::from_fen_in(fen, mode) {
                Ok(game) => game,
                Err(e) => return fail(format!("The FEN tag: {e}")),
            },
            (None, CastlingMode::Standard) => GameRecord::new(),
            (None, CastlingMode::Chess960) => match GameRecord::from_fen_in(STANDARD_FEN, mode) {
                Ok(game) => game,
                Err(e) => return fail(e.to_string()),
            },
        };
        let mut game = T::start(game);
        let mut result = None;
        for (name, value) in &tags {
            if name == "Result" {
                result = Some(value.clone());
            } else if name == "Variant" && mode == CastlingMode::Chess960 {
                // The game says Chess960 in its own words (see `GameRecord::from_fen_in`).
            } else if name != "FEN" && name != "SetUp" {
                game.set_tag(name, value);
            }
        }
        ControlFlow::Continue(Movetext {
            game,
            current: NodeId::ROOT,
            stack: Vec::new(),
            skip_from: None,
            fresh_variation: false,
            starting_comment: String::new(),
            long_comment: Vec::new(),
            tokens: scan_movetext(self.text, 0),
            next_token: 0,
            result,
            soft_error: None,
        })
    }

    fn san(&mut self, mt: &mut Self::Movetext, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        let offset = match mt.next_token(TokenKind::Move) {
            Ok(token) => token.map_or(0, |t| t.start),
            Err(junk) => return self.junk(mt, junk),
        };
        if mt.skipping() {
            return ControlFlow::Continue(());
        }
        let Some(pos) = mt.game.position(mt.current) else {
            return ControlFlow::Continue(());
        };
        // Movetext in UCI notation (`g1f3`) reads as a SAN move with full disambiguation
        // that fails; take it as the UCI move it is.
        let uci = || {
            let word = std::str::from_utf8(&self.text[offset..]).ok().or_else(|| {
                std::str::from_utf8(&self.text[offset..(offset + 5).min(self.text.len())]).ok()
            })?;
            let word = word.split(|c: char| !c.is_ascii_alphanumeric()).next()?;
            word.parse::<UciMove>().ok()?.to_move(pos).ok()
        };
        match san_plus.san.to_move(pos).or_else(|e| uci().ok_or(e)) {
            Ok(m) => {
                let child = mt.game.add_child(mt.current, m);
                if mt.fresh_variation {
                    let comment = mem::take(&mut mt.starting_comment);
                    if let Some(node) = mt.game.node_mut(child) {
                        node.starting_comment = comment;
                    }
                }
                mt.current = child;
                mt.fresh_variation = false;
                ControlFlow::Continue(())
            }
            Err(e) => {
                let number = pos.fullmoves();
                let dots = if pos.turn() == Color::White { "." } else { "..." };
                self.broken(mt, format!("Move {number}{dots} {san_plus} is illegal: {e}."), offset)
            }
        }
    }

    fn nag(&mut self, mt: &mut Self::Movetext, nag: Nag) -> ControlFlow<Self::Output> {
        if !mt.skipping()
            && let Some(node) = mt.game.node_mut(mt.current)
        {
            node.nags.push(nag);
        }
        ControlFlow::Continue(())
    }

    fn partial_comment(
        &mut self,
        mt: &mut Self::Movetext,
        comment: RawComment<'_>,
    ) -> ControlFlow<Self::Output> {
        if T::ANNOTATED {
            mt.long_comment.extend_from_slice(comment.as_bytes());
        }
        ControlFlow::Continue(())
    }

    fn comment(&mut self, mt: &mut Self::Movetext, comment: RawComment<'_>) -> ControlFlow<Self::Output> {
        if !T::ANNOTATED {
            return ControlFlow::Continue(());
        }
        let text = if mt.long_comment.is_empty() {
            clean_comment(&decode_pgn_text(comment.as_bytes()))
        } else {
            let mut bytes = mem::take(&mut mt.long_comment);
            bytes.extend_from_slice(comment.as_bytes());
            clean_comment(&decode_pgn_text(&bytes))
        };
        if mt.skipping() || text.is_empty() {
            return ControlFlow::Continue(());
        }
        let (target, text) = if mt.fresh_variation {
            (&mut mt.starting_comment, text)
        } else {
            match mt.game.node_mut(mt.current) {
                // The clock and the evaluation go to their own fields, the rest is the comment.
                Some(node) => {
                    let text = take_commands(&text, &mut node.clock, &mut node.eval);
                    (&mut node.comment, text)
                }
                None => return ControlFlow::Continue(()),
            }
        };
        if text.is_empty() {
            return ControlFlow::Continue(());
        }
        if !target.is_empty() {
            target.push(' ');
        }
        target.push_str(&text);
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, mt: &mut Self::Movetext) -> ControlFlow<Self::Output, Skip> {
        let at = match mt.next_token(TokenKind::Open) {
            Ok(token) => token.map_or(0, |t| t.start),
            Err(junk) => {
                if let ControlFlow::Break(output) = self.junk(mt, junk) {
                    return ControlFlow::Break(output);
                }
                mt.next_token(TokenKind::Open).ok().flatten().map_or(0, |t| t.start)
            }
        };
        let parent = mt.game.parent(mt.current);
        match parent {
            Some(parent) if !mt.skipping() => {
                mt.stack.push(Frame { back: Some(mt.current), at });
                mt.current = parent;
                mt.fresh_variation = true;
                mt.starting_comment.clear();
            }
            _ => {
                mt.skip_from.get_or_insert(mt.stack.len());
                mt.stack.push(Frame { back: None, at });
            }
        }
        ControlFlow::Continue(Skip(false))
    }

    fn end_variation(&mut self, mt: &mut Self::Movetext) -> ControlFlow<Self::Output> {
        let at = match mt.next_token(TokenKind::Close) {
            Ok(token) => token.map_or(0, |t| t.start),
            Err(junk) => {
                if let ControlFlow::Break(output) = self.junk(mt, junk) {
                    return ControlFlow::Break(output);
                }
                mt.next_token(TokenKind::Close).ok().flatten().map_or(0, |t| t.start)
            }
        };
        let Some(frame) = mt.stack.pop() else {
            let error = PgnError::new("This \")\" closes no variation.");
            mt.soft_error.get_or_insert((error, at));
            return ControlFlow::Continue(());
        };
        if mt.skip_from.is_some_and(|depth| mt.stack.len() <= depth) {
            mt.skip_from = None;
        }
        if let Some(back) = frame.back {
            mt.current = back;
            mt.fresh_variation = false;
            mt.starting_comment.clear();
        }
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, mt: &mut Self::Movetext, outcome: Outcome) -> ControlFlow<Self::Output> {
        if !mt.skipping() && mt.stack.is_empty() && mt.result.as_deref().is_none_or(|r| r == "*" || r == "?")
        {
            mt.result = Some(outcome.as_str().to_string());
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, mut mt: Self::Movetext) -> Self::Output {
        // Junk after the last move (inside a variation left open it only skips that).
        while let Err(junk) = mt.next_token(TokenKind::Move) {
            if let ControlFlow::Break(output) = self.junk(&mut mt, junk) {
                return output;
            }
        }
        if let Some(first_open) = mt.stack.first() {
            let error = PgnError::new(format!(
                "This \"(\" starts a variation that is never closed ({} left open).",
                mt.stack.len()
            ));
            mt.soft_error.get_or_insert((error, first_open.at));
        }
        mt.game.finish(mt.result.take());
        match mt.soft_error.take() {
            Some((error, offset)) => Err(Failure { error, offset, partial: Some(mt.game) }),
            None => Ok(mt.game),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::{Eval, Score};

    #[test]
    fn reads_variations_comments_and_nags() {
        let text =
            "{Start} 1. e4 $1 {best by test} (1. d4 {or} d5 (1... Nf6) 2. c4) (1. c4?!) 1... e5 2. Nf3 *";
        let game = read_pgn(text).unwrap();
        let root = game.node(NodeId::ROOT).unwrap();
        assert_eq!(root.comment(), "Start");
        assert_eq!(root.children().len(), 3);
        let e4 = game.node(root.children()[0]).unwrap();
        assert_eq!((e4.san(), e4.nags(), e4.comment()), ("e4", &[Nag(1)][..], "best by test"));
        let d4 = game.node(root.children()[1]).unwrap();
        assert_eq!(d4.comment(), "or");
        let d5 = game.node(d4.children()[0]).unwrap();
        assert_eq!(d5.children().len(), 1);
        assert_eq!(game.node(d4.children()[1]).unwrap().san(), "Nf6");
        assert_eq!(game.node(root.children()[2]).unwrap().nags(), [Nag(6)]);
        assert_eq!(game.san_moves(), ["e4", "e5", "Nf3"]);
    }

    #[test]
    fn keeps_the_result_and_skips_junk_loudly() {
        let game = read_pgn("[Result \"1-0\"]\n\n1. e4 e5 1-0").unwrap();
        assert_eq!(game.result(), "1-0");
        let err = read_pgn("; comment\n1.d4 Nf6 2. Sf3 d5").unwrap_err();
        assert_eq!((err.line, err.column), (2, 13), "{err}");
        assert_eq!(err.partial.unwrap().len(), 2);
        assert!(read_pgn("[Variant \"Atomic\"]\n\n1. e4 *").is_err());
    }

    #[test]
    fn decodes_latin1_tags_and_comments() {
        let game = read_pgn_bytes(b"[White \"J\xf6rg\"]\n\n1. e4 {d\xe9but} *");
        assert_eq!(game.tag("White"), Some("Jörg"));
        assert_eq!(game.node(game.main_line()[1]).unwrap().comment(), "début");
    }

    #[test]
    fn clock_and_eval_leave_the_comment() {
        let text = "{[%clk 0:10:00] Start} 1. e4 { [%eval 0.24] [%clk 0:05:00] } 1... c5 \
            {Sharp [%csl Ga4] [%eval #-3,30] [%clk 0:04:59.5]} {more [%eval 1.0]} \
            2. Nf3 {[%eval x] [%clk 0:04:58] [%clk 0:01:00]} ( {[%clk 0:09:00] Also} 2. c3 ) *";
        let game = read_pgn(text).unwrap();
        let node = |ply: usize| game.node(game.main_line()[ply]).unwrap();
        let secs = Duration::from_secs;
        assert_eq!((node(0).clock(), node(0).comment()), (Some(secs(600)), "Start"));
        let e4 = node(1);
        assert_eq!((e4.clock(), e4.eval(), e4.comment()), (Some(secs(300)), Some(cp(24, None)), ""));
        let c5 = node(2);
        assert_eq!(c5.clock(), Some(Duration::from_millis(299_500)));
        assert_eq!(c5.eval(), Some(Eval { score: Score::Mate(-3), depth: Some(30) }));
        assert_eq!(c5.comment(), "Sharp [%csl Ga4] more [%eval 1.0]", "a second eval stays text");
        let nf3 = node(3);
        assert_eq!((nf3.clock(), nf3.eval()), (Some(secs(298)), None));
        assert_eq!(nf3.comment(), "[%eval x] [%clk 0:01:00]");
        let c3 = game.node(game.node(e4.children()[0]).unwrap().children()[1]).unwrap();
        assert_eq!((c3.starting_comment(), c3.clock()), ("[%clk 0:09:00] Also", None));
    }

    #[test]
    fn an_illegal_move_in_a_variation_skips_only_that_variation() {
        let text = "1. e4 (1. d4 d5 2. Ke3 {lost} Nf6 (2... c5) 3. c4) (1. c4 e5) 1... e5 \n(1... c5 2. Nf3) 2. Nf3 *";
        let err = read_pgn(text).unwrap_err();
        assert_eq!((err.line, err.column), (1, 20), "{err}");
        assert_eq!(err.message, "Move 2. Ke3 is illegal: illegal san. The variation is left out.");
        let game = err.partial.expect("the rest of the game");
        assert_eq!(game.san_moves(), ["e4", "e5", "Nf3"]);
        let root = game.node(NodeId::ROOT).unwrap();
        let first_moves: Vec<&str> = root.children().iter().map(|&c| game.node(c).unwrap().san()).collect();
        assert_eq!(first_moves, ["e4", "d4", "c4"]);
        let d4 = game.node(root.children()[1]).unwrap();
        let d5 = game.node(d4.children()[0]).unwrap();
        assert!(d5.children().is_empty(), "the moves after the illegal one are left out");
        let c4 = game.node(root.children()[2]).unwrap();
        assert_eq!(game.node(c4.children()[0]).unwrap().san(), "e5");
        let e4 = game.node(root.children()[0]).unwrap();
        assert_eq!(e4.children().len(), 2, "1... c5 after the broken variation");
        assert_eq!(game.result(), "*");
    }

    #[test]
    fn words_that_are_not_moves_are_errors() {
        let err = read_pgn("1. e4 Zz9 e5 *").unwrap_err();
        assert_eq!((err.line, err.column, err.message.as_str()), (1, 7, "\"Zz9\" is not a move."));
        assert_eq!(err.partial.unwrap().san_moves(), ["e4"]);
        let err = read_pgn("1. e4 (1. d4 hello) e5 *").unwrap_err();
        assert_eq!((err.line, err.column), (1, 14), "{err}");
        assert_eq!(err.partial.unwrap().san_moves(), ["e4", "e5"], "only the variation is lost");
        let game = read_pgn("1. e4 N a6 $1 +- 2. e5 d5 3. exd6 e.p. = *").unwrap();
        assert_eq!(game.len(), 5, "decoration is no error");
    }

    #[test]
    fn unbalanced_parentheses_are_errors_that_keep_the_game() {
        let err = read_pgn("1. e4 e5 (2... Nc6 ((\n2. Nf3 *").unwrap_err();
        assert_eq!((err.line, err.column), (1, 10), "{err}");
        assert!(err.message.contains("never closed (3 left open)"), "{err}");
        let err = read_pgn("1. e4 ) e5 *").unwrap_err();
        assert_eq!((err.line, err.column), (1, 7), "{err}");
        assert_eq!(err.partial.unwrap().san_moves(), ["e4", "e5"]);
    }

    #[test]
    fn chess960_spellings_read_and_other_variants_say_why() {
        let fen = "4k3/8/8/8/8/8/8/1R2K1R1 w GB - 0 9";
        for variant in ["fischerandom", "Chess960", "Fischer Random", "960", "FRC"] {
            let text = format!("[Variant \"{variant}\"]\n[FEN \"{fen}\"]\n\n9. O-O *");
            let game = read_pgn(&text).unwrap_or_else(|e| panic!("{variant}: {e}"));
            assert_eq!(game.castling_mode(), CastlingMode::Chess960);
            assert_eq!(game.tag("Variant"), Some("Chess960"));
            assert_eq!(game.san_moves(), ["O-O"]);
        }
        for variant in ["normal", "Standard", ""] {
            let game = read_pgn(&format!("[Variant \"{variant}\"]\n\n1. e4 *")).unwrap();
            assert_eq!(game.castling_mode(), CastlingMode::Standard);
        }
        let err = read_pgn("[Variant \"Seirawan\"]\n\n1. e4 *").unwrap_err();
        assert_eq!(err.message, "This game is of the variant \"Seirawan\", which Kibitz does not play.");
    }

    fn cp(cp: i32, depth: Option<u32>) -> Eval {
        Eval { score: Score::Cp(cp), depth }
    }

    fn read_pgn_bytes(bytes: &[u8]) -> GameRecord {
        read_games(bytes).next().unwrap().unwrap()
    }
}
