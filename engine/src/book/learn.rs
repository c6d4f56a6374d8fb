//! Learning from Kibitz's own games: book learning (Terra's dynamic values, Crafty's learned
//! scores) and result learning (Crafty: after a loss, never play the last book choice again).
//! User-set values are never overwritten. Learned data can be exported and imported as text.

use shakmaty::{Color, Position};

use crate::GameRecord;
use crate::book::{Book, BookSettings, LearnedFileError, Outcome, book_key, encode_move};

/// Which kinds of learning are on: Crafty's `learn` bits (1 book, 2 position, 4 result).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LearnFlags {
    /// Book learning (and the PostBook).
    pub book: bool,
    /// Position learning.
    pub position: bool,
    /// Result learning.
    pub result: bool,
}

impl Default for LearnFlags {
    fn default() -> Self {
        LearnFlags::from_bits(7)
    }
}

impl LearnFlags {
    /// From Crafty's `learn n` bits.
    ///
    /// ```
    /// use kibitz_engine::LearnFlags;
    /// let f = LearnFlags::from_bits(5);
    /// assert!(f.book && !f.position && f.result);
    /// assert_eq!(f.bits(), 5);
    /// ```
    #[must_use]
    pub fn from_bits(bits: u8) -> Self {
        LearnFlags { book: bits & 1 != 0, position: bits & 2 != 0, result: bits & 4 != 0 }
    }

    /// As Crafty's `learn n` bits.
    #[must_use]
    pub fn bits(&self) -> u8 {
        u8::from(self.book) | u8::from(self.position) << 1 | u8::from(self.result) << 2
    }
}

/// A finished game of Kibitz's, as learning needs it.
#[derive(Clone, Copy, Debug)]
pub struct PlayedGame<'a> {
    /// The game, with its result.
    pub game: &'a GameRecord,
    /// The side Kibitz played.
    pub engine: Color,
    /// Per ply (index = ply), Kibitz's search score in centipawns from its own side and the
    /// depth reached, where Kibitz searched; `None` for book moves and the opponent's moves.
    pub scores: &'a [Option<(i32, u8)>],
}

/// How many moves after the book the "key" search score is taken (Crafty: ten moves).
pub(crate) const MOVES_AFTER_BOOK: usize = 10;

impl PlayedGame<'_> {
    /// The game's outcome for Kibitz.
    #[must_use]
    pub fn outcome(&self) -> Outcome {
        Outcome::from_result(self.game.result(), self.engine == Color::White)
    }

    /// The plies of the game that followed the book (both sides' moves were book moves), and
    /// the first ply out of book.
    #[must_use]
    pub fn book_plies(&self, book: &Book) -> usize {
        let moves = self.game.moves();
        (0..moves.len())
            .take_while(|&ply| {
                book.get(book_key(self.game.position_at(ply)), encode_move(moves[ply])).is_some()
            })
            .count()
    }

    /// Kibitz's search score about ten moves after leaving the book: the score of its tenth
    /// search after the book, or of its last one if the game ended sooner.
    #[must_use]
    pub fn score_after_book(&self, out_of_book: usize) -> Option<i32> {
        self.scores.iter().skip(out_of_book).flatten().take(MOVES_AFTER_BOOK).last().map(|&(s, _)| s)
    }

    fn is_engine_ply(&self, ply: usize) -> bool {
        self.game.position_at(ply).turn() == self.engine
    }
}

/// What learning changed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LearnReport {
    /// Plies of the game that followed the book.
    pub book_plies: usize,
    /// Book entries whose learned statistics were updated.
    pub updated: usize,
    /// The search score used, if any.
    pub score: Option<i32>,
    /// The move flagged "never play again" by result learning: (key, move).
    pub never_play: Option<(u64, u16)>,
}

impl Book {
    /// Learns from a finished game of Kibitz's: book learning updates the learned statistics
    /// and score of Kibitz's book moves; result learning, after a loss, flags the last book
    /// move where Kibitz had a choice as "never play again". Moves with a user-set value are
    /// never changed.
    pub fn learn(
        &mut self,
        played: &PlayedGame<'_>,
        flags: LearnFlags,
        settings: &BookSettings,
    ) -> LearnReport {
        let book_plies = played.book_plies(self);
        let outcome = played.outcome();
        let score = played.score_after_book(book_plies);
        let mut report = LearnReport { book_plies, score, ..Default::default() };
        let engine_plies: Vec<usize> = (0..book_plies).filter(|&p| played.is_engine_ply(p)).collect();
        if flags.book {
            for &ply in &engine_plies {
                let key = book_key(played.game.position_at(ply));
                let mv = encode_move(played.game.moves()[ply]);
                if let Some(e) = self.get_mut(key, mv).filter(|e| e.user.is_none()) {
                    if let Some(s) = score {
                        let n = i64::from(e.learned.games);
                        let avg = (i64::from(e.learn_score) * n + i64::from(s)) / (n + 1);
                        e.learn_score = i32::try_from(avg).unwrap_or(e.learn_score);
                    }
                    e.learned.record(outcome);
                    report.updated += 1;
                }
            }
        }
        if flags.result && outcome == Outcome::Loss {
            for &ply in engine_plies.iter().rev() {
                let pos = played.game.position_at(ply);
                let choices = self.explain(pos, settings).iter().filter(|c| c.probability > 0.0).count();
                if choices < 2 {
                    continue;
                }
                let (key, mv) = (book_key(pos), encode_move(played.game.moves()[ply]));
                if let Some(e) = self.get_mut(key, mv).filter(|e| e.user.is_none()) {
                    e.never_play = true;
                    report.never_play = Some((key, mv));
                }
                break;
            }
        }
        report
    }

    /// The learned data as text, one line per learned move:
    /// `book KEY MOVE GAMES WINS DRAWS LOSSES SCORE NEVER` (key in hex, move as Polyglot code).
    #[must_use]
    pub fn export_learning(&self) -> String {
        let mut out = String::from("# Kibitz learned data, version 1\n");
        for e in self.entries().iter().filter(|e| e.learned.games > 0 || e.never_play) {
            let l = e.learned;
            out.push_str(&format!(
                "book {:016x} {} {} {} {} {} {} {}\n",
                e.key,
                e.mv,
                l.games,
                l.wins,
                l.draws,
                l.losses,
                e.learn_score,
                u8::from(e.never_play)
            ));
        }
        out
    }

    /// Imports learned data written by [`Book::export_learning`] (Crafty's `import`): learned
    /// counts are added, unless `clear` first forgets everything learned. Lines for moves the
    /// book does not have, and `position` lines, are skipped. Returns the moves updated.
    pub fn import_learning(&mut self, text: &str, clear: bool) -> Result<usize, LearnedFileError> {
        let mut parsed = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let fields: Vec<&str> = line.split_whitespace().collect();
            if fields.first() != Some(&"book") {
                continue;
            }
            let bad = || LearnedFileError::bad_line(n + 1, line, "a learned book move line");
            if fields.len() != 9 {
                return Err(bad());
            }
            let key = u64::from_str_radix(fields[1], 16).map_err(|_| bad())?;
            let num = |i: usize| fields[i].parse::<u32>().map_err(|_| bad());
            let mv = u16::try_from(num(2)?).map_err(|_| bad())?;
            let stats = crate::book::Stats { games: num(3)?, wins: num(4)?, draws: num(5)?, losses: num(6)? };
            let score = fields[7].parse::<i32>().map_err(|_| bad())?;
            parsed.push((key, mv, stats, score, fields[8] == "1"));
        }
        if clear {
            self.clear_learning();
        }
        let mut updated = 0;
        for (key, mv, stats, score, never) in parsed {
            if let Some(e) = self.get_mut(key, mv) {
                let (n, m) = (i64::from(e.learned.games), i64::from(stats.games));
                if n + m > 0 {
                    let avg = (i64::from(e.learn_score) * n + i64::from(score) * m) / (n + m);
                    e.learn_score = i32::try_from(avg).unwrap_or(e.learn_score);
                }
                e.learned.add(&stats);
                e.never_play |= never && e.user.is_none();
                updated += 1;
            }
        }
        Ok(updated)
    }
}
