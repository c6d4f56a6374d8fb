//! User values from annotated PGN (Terra's ownscore.pgn, Crafty's start.pgn): `!!` = 100
//! (always), `!` = 75, `!?` = 15, `?!`, `?` and `??` = 0 (never: the avoid list), the
//! comments `{play nn%}` (Crafty) and `{value nn}` (any value); the last annotation found
//! wins. And the way back: the user values of a book written as such a PGN.

use std::collections::{HashMap, HashSet};
use std::ops::ControlFlow;

use pgn_reader::{Nag, RawComment, RawTag, Reader, SanPlus, Visitor};
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus as San;
use shakmaty::{CastlingMode, Chess, Position};

use crate::book::key::key_after;
use crate::book::{Book, BookEntry, BookError, book_key, encode_move};

/// What an import of user values did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NagImport {
    /// Games (lines) read.
    pub games: usize,
    /// Moves that got a user value or play percentage.
    pub moves: usize,
    /// Moves of the lines that were not in the book before.
    pub added: usize,
}

/// The user value of a NAG, if it sets one: `!!` 100, `!` 75, `!?` 15, `?!`, `?`, `??` 0.
///
/// ```
/// use kibitz_engine::nag_value;
/// assert_eq!(nag_value(3), Some(100));
/// assert_eq!(nag_value(5), Some(15));
/// assert_eq!(nag_value(6), Some(0));
/// assert_eq!(nag_value(10), None);
/// ```
#[must_use]
pub fn nag_value(nag: u8) -> Option<u8> {
    match nag {
        3 => Some(100),
        1 => Some(75),
        5 => Some(15),
        2 | 4 | 6 => Some(0),
        _ => None,
    }
}

/// A change of a move's user settings.
#[derive(Clone, Copy, Debug, Default)]
struct Mark {
    user: Option<u8>,
    play_pct: Option<u8>,
}

struct Line {
    pos: Chess,
    key: u64,
    last: Option<(u64, u16)>,
}

#[derive(Default)]
struct NagVisitor {
    marks: HashMap<(u64, u16), Mark>,
    order: Vec<(u64, u16)>,
    games: usize,
}

impl NagVisitor {
    fn mark(&mut self, line: &Line, change: impl FnOnce(&mut Mark)) {
        if let Some(k) = line.last {
            let mark = self.marks.entry(k).or_insert_with(|| {
                self.order.push(k);
                Mark::default()
            });
            change(mark);
        }
    }
}

impl Visitor for NagVisitor {
    type Tags = Option<Chess>;
    type Movetext = Line;
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<(), Option<Chess>> {
        ControlFlow::Continue(None)
    }

    fn tag(&mut self, tags: &mut Option<Chess>, name: &[u8], value: RawTag<'_>) -> ControlFlow<()> {
        if name == b"FEN" {
            let fen = value.decode_utf8_lossy();
            *tags = fen.parse::<Fen>().ok().and_then(|f| f.into_position(CastlingMode::Standard).ok());
            if tags.is_none() {
                return ControlFlow::Break(());
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Option<Chess>) -> ControlFlow<(), Line> {
        self.games += 1;
        let pos = tags.unwrap_or_default();
        let key = book_key(&pos);
        ControlFlow::Continue(Line { pos, key, last: None })
    }

    fn san(&mut self, line: &mut Line, san_plus: SanPlus) -> ControlFlow<()> {
        let Ok(m) = san_plus.san.to_move(&line.pos) else { return ControlFlow::Break(()) };
        line.last = Some((line.key, encode_move(m)));
        self.mark(line, |_| {});
        let (pos, key) = key_after(&line.pos, line.key, m);
        line.pos = pos;
        line.key = key;
        ControlFlow::Continue(())
    }

    fn nag(&mut self, line: &mut Line, nag: Nag) -> ControlFlow<()> {
        if let Some(v) = nag_value(nag.0) {
            self.mark(line, |m| m.user = Some(v));
        }
        ControlFlow::Continue(())
    }

    fn comment(&mut self, line: &mut Line, comment: RawComment<'_>) -> ControlFlow<()> {
        let text = String::from_utf8_lossy(comment.as_bytes()).to_ascii_lowercase();
        let number = |prefix: &str| {
            let rest = text.trim().strip_prefix(prefix)?;
            rest.trim().trim_end_matches('%').trim().parse::<u8>().ok().filter(|v| *v <= 100)
        };
        if let Some(p) = number("play") {
            self.mark(line, |m| m.play_pct = (p > 0).then_some(p));
        } else if let Some(v) = number("value") {
            self.mark(line, |m| m.user = Some(v));
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _line: Line) {}
}

impl Book {
    /// Sets user values and play percentages from an annotated PGN (main lines only). Every
    /// move of the lines that is not yet in the book is added with no statistics, so that the
    /// annotated moves stay reachable; a move without statistics or annotation is never chosen.
    ///
    /// ```
    /// use kibitz_engine::{Book, GameRecord};
    /// let mut book = Book::new();
    /// let pgn = "[Event \"Line 1\"]\n\n1. e4!! c6!? 2. d4!! *\n\n[Event \"Line 2\"]\n\n1. e4 c6? *\n";
    /// let report = book.import_nags(pgn.as_bytes()).unwrap();
    /// assert_eq!((report.games, report.moves, report.added), (2, 3, 3));
    /// // 1.e4 c6 2.d4; the unannotated 1.e4 of line 2 adds nothing new.
    /// let start = GameRecord::new();
    /// assert_eq!(book.legal_moves(start.position())[0].1.user, Some(100));
    /// ```
    pub fn import_nags<R: std::io::Read>(&mut self, reader: R) -> Result<NagImport, BookError> {
        let mut visitor = NagVisitor::default();
        Reader::new(reader).visit_all_games(&mut visitor).map_err(|e| BookError::Pgn(e.to_string()))?;
        let mut report = NagImport { games: visitor.games, ..Default::default() };
        let mut added = Vec::new();
        for k in &visitor.order {
            let mark = visitor.marks[k];
            if mark.user.is_some() || mark.play_pct.is_some() {
                report.moves += 1;
            }
            let apply = |e: &mut BookEntry| {
                if mark.user.is_some() {
                    e.user = mark.user;
                }
                if mark.play_pct.is_some() {
                    e.play_pct = mark.play_pct;
                }
            };
            match self.get_mut(k.0, k.1) {
                Some(e) => apply(e),
                None => {
                    let mut e = BookEntry::new(k.0, k.1);
                    apply(&mut e);
                    added.push(e);
                }
            }
        }
        report.added = added.len();
        if !added.is_empty() {
            let mut all = self.entries().to_vec();
            all.extend(added);
            *self = Book::from_entries(all);
        }
        Ok(report)
    }

    /// The user values and play percentages of the book as an annotated PGN, one game per line
    /// from the initial position (`[Event "Line n"]`), readable by [`Book::import_nags`].
    #[must_use]
    pub fn export_nags(&self) -> String {
        let mut lines = Vec::new();
        let mut visited = HashSet::new();
        let mut path = Vec::new();
        let start = Chess::default();
        self.collect_lines(&start, &mut path, &mut visited, &mut lines);
        let mut out = String::new();
        for (n, line) in lines.iter().enumerate() {
            out.push_str(&format!("[Event \"Line {}\"]\n[Result \"*\"]\n\n", n + 1));
            let mut text = String::new();
            for (ply, token) in line.iter().enumerate() {
                if ply % 2 == 0 {
                    text.push_str(&format!("{}. ", ply / 2 + 1));
                }
                text.push_str(token);
                text.push(' ');
            }
            text.push_str("*\n\n");
            out.push_str(&text);
        }
        out
    }

    /// Depth-first walk of the book; returns whether the subtree holds annotated moves and
    /// pushes one line per annotated move that has none below it.
    fn collect_lines(
        &self,
        pos: &Chess,
        path: &mut Vec<String>,
        visited: &mut HashSet<u64>,
        lines: &mut Vec<Vec<String>>,
    ) -> bool {
        const MAX_PLIES: usize = 60;
        if path.len() >= MAX_PLIES || !visited.insert(book_key(pos)) {
            return false;
        }
        let mut any = false;
        for (m, e) in self.legal_moves(pos) {
            let mut token = San::from_move(pos.clone(), m).to_string();
            let annotated = e.user.is_some() || e.play_pct.is_some();
            match e.user {
                Some(100) => token.push_str("!!"),
                Some(75) => token.push('!'),
                Some(15) => token.push_str("!?"),
                Some(0) => token.push('?'),
                Some(v) => token.push_str(&format!(" {{value {v}}}")),
                None => {}
            }
            if let Some(p) = e.play_pct {
                token.push_str(&format!(" {{play {p}%}}"));
            }
            path.push(token);
            let mut next = pos.clone();
            next.play_unchecked(m);
            let below = self.collect_lines(&next, path, visited, lines);
            if annotated && !below {
                lines.push(path.clone());
            }
            any |= annotated || below;
            path.pop();
        }
        any
    }
}
