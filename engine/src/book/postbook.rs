//! Terra's PostBook: statistics for Kibitz's first ten or so moves after the book, used to
//! avoid or prefer moves when the book has none. Kept apart from the book, as a text file.

use std::collections::HashMap;
use std::path::Path;

use shakmaty::{Chess, Move};

use crate::Score;
use crate::book::learn::MOVES_AFTER_BOOK;
use crate::book::{Book, BookError, LearnedFileError, PlayedGame, Stats, book_key, decode_move, encode_move};
use crate::write_atomic;

/// What the PostBook knows about one move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PostBookStats {
    /// Results of Kibitz's games with this move, for Kibitz.
    pub stats: Stats,
    /// Sum of Kibitz's search scores (centipawns) when it played the move.
    pub score_sum: i64,
}

impl PostBookStats {
    /// Average search score, or 0 without games.
    #[must_use]
    pub fn average_score(&self) -> i64 {
        if self.stats.games == 0 { 0 } else { self.score_sum / i64::from(self.stats.games) }
    }
}

/// How far below the search's best score (centipawns) the PostBook's preferred move may
/// score and still be played: within it the game history decides, beyond it the search.
pub const PREFER_MARGIN: i32 = 20;

/// What to do with a PostBook move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PostBookAdvice {
    /// Too little history: ignore it.
    Ignore,
    /// Bad history: the search should avoid it.
    Avoid,
    /// Good history: a candidate to play.
    Prefer,
}

/// The PostBook.
///
/// ```
/// use kibitz_engine::PostBook;
/// let mut post = PostBook::new();
/// assert!(post.is_empty());
/// let text = post.to_text();
/// assert_eq!(PostBook::from_text(&text).unwrap(), post);
/// post.clear();
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PostBook {
    moves: HashMap<(u64, u16), PostBookStats>,
}

/// Games needed before the PostBook advises anything.
const MIN_GAMES: u32 = 2;
/// Below this win% (or this average score) a move is avoided.
const AVOID_PCT: f64 = 25.0;
const AVOID_SCORE: i64 = -150;

impl PostBook {
    /// An empty PostBook.
    #[must_use]
    pub fn new() -> Self {
        PostBook::default()
    }

    /// No moves recorded.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// Number of moves recorded.
    #[must_use]
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.moves.clear();
    }

    /// The statistics of a move, if recorded.
    #[must_use]
    pub fn get(&self, key: u64, mv: u16) -> Option<&PostBookStats> {
        self.moves.get(&(key, mv))
    }

    /// Records Kibitz's first ten moves after the book of a finished game. Returns how many.
    pub fn learn(&mut self, book: &Book, played: &PlayedGame<'_>) -> usize {
        let start = played.book_plies(book);
        let outcome = played.outcome();
        let moves = played.game.moves();
        let mut recorded = 0;
        for (ply, &m) in moves.iter().enumerate().skip(start) {
            let pos = played.game.position_at(ply);
            if shakmaty::Position::turn(pos) != played.engine {
                continue;
            }
            if recorded == MOVES_AFTER_BOOK {
                break;
            }
            let entry = self.moves.entry((book_key(pos), encode_move(m))).or_default();
            entry.stats.record(outcome);
            entry.score_sum += played.scores.get(ply).copied().flatten().map_or(0, |(s, _)| i64::from(s));
            recorded += 1;
        }
        recorded
    }

    /// The advice for each recorded legal move of a position.
    #[must_use]
    pub fn advice(&self, pos: &Chess) -> Vec<(Move, PostBookStats, PostBookAdvice)> {
        let key = book_key(pos);
        let mut out: Vec<_> = self
            .moves
            .iter()
            .filter(|((k, _), _)| *k == key)
            .filter_map(|(&(_, mv), s)| decode_move(pos, mv).map(|m| (m, *s, advise(s))))
            .collect();
        out.sort_by_key(|(m, _, _)| encode_move(*m));
        out
    }

    /// The move with the best history, if one is good enough (Terra: no randomness).
    #[must_use]
    pub fn best(&self, pos: &Chess) -> Option<Move> {
        self.preferred(pos).map(|(m, _)| m)
    }

    /// The move with the best history and its statistics, if one is good enough: the move
    /// the engine plays after the book unless its search finds it clearly worse (see
    /// [`PreferCheck`]).
    #[must_use]
    pub fn preferred(&self, pos: &Chess) -> Option<(Move, PostBookStats)> {
        self.advice(pos)
            .into_iter()
            .filter(|(_, _, a)| *a == PostBookAdvice::Prefer)
            .max_by(|a, b| {
                let pct = |s: &PostBookStats| s.stats.win_pct().unwrap_or(0.0);
                pct(&a.1)
                    .total_cmp(&pct(&b.1))
                    .then(a.1.average_score().cmp(&b.1.average_score()))
                    // Equal histories: the lower move code, so that the choice is stable.
                    .then(encode_move(b.0).cmp(&encode_move(a.0)))
            })
            .map(|(m, s, _)| (m, s))
    }

    /// Moves the search should avoid in this position.
    #[must_use]
    pub fn avoid(&self, pos: &Chess) -> Vec<Move> {
        self.advice(pos)
            .into_iter()
            .filter(|(_, _, a)| *a == PostBookAdvice::Avoid)
            .map(|(m, _, _)| m)
            .collect()
    }

    /// The PostBook as text: `KEY MOVE GAMES WINS DRAWS LOSSES SCORE_SUM` per line.
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut lines: Vec<_> = self.moves.iter().collect();
        lines.sort_by_key(|(k, _)| **k);
        let mut out = String::from("# Kibitz PostBook, version 1\n");
        for ((key, mv), s) in lines {
            let t = s.stats;
            out.push_str(&format!(
                "{key:016x} {mv} {} {} {} {} {}\n",
                t.games, t.wins, t.draws, t.losses, s.score_sum
            ));
        }
        out
    }

    /// Reads the text written by [`PostBook::to_text`]; the error names the first line that
    /// is not a PostBook line.
    pub fn from_text(text: &str) -> Result<PostBook, LearnedFileError> {
        let mut post = PostBook::new();
        for (n, line) in text.lines().enumerate() {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let bad = || LearnedFileError::bad_line(n + 1, line, "a PostBook line");
            let f: Vec<&str> = line.split_whitespace().collect();
            if f.len() != 7 {
                return Err(bad());
            }
            let key = u64::from_str_radix(f[0], 16).map_err(|_| bad())?;
            let mv = f[1].parse::<u16>().map_err(|_| bad())?;
            let num = |i: usize| f[i].parse::<u32>().map_err(|_| bad());
            let stats = Stats { games: num(2)?, wins: num(3)?, draws: num(4)?, losses: num(5)? };
            let score_sum = f[6].parse::<i64>().map_err(|_| bad())?;
            post.moves.insert((key, mv), PostBookStats { stats, score_sum });
        }
        Ok(post)
    }

    /// Reads a PostBook file; the error names the file (and the line).
    pub fn load(path: &Path) -> Result<PostBook, LearnedFileError> {
        std::fs::read_to_string(path)
            .map_err(LearnedFileError::from)
            .and_then(|text| PostBook::from_text(&text))
            .map_err(|e| e.in_file(path))
    }

    /// Writes the PostBook file atomically.
    pub fn save(&self, path: &Path) -> Result<(), BookError> {
        write_atomic(path, self.to_text().as_bytes())?;
        Ok(())
    }
}

/// How the search judged the PostBook's preferred move in one position: the move is played
/// when the search chose it anyway, or when a search restricted to it scores within
/// [`PREFER_MARGIN`] of the search's best move.
#[derive(Clone, Debug, PartialEq)]
pub struct PreferCheck {
    /// The move the PostBook prefers.
    pub preferred: Move,
    /// Its history.
    pub stats: PostBookStats,
    /// The move the normal search chose.
    pub search_best: Move,
    /// The normal search's score, for the side to move.
    pub best_score: Score,
    /// The preferred move's score from a search restricted to it, at least as deep as the
    /// normal search; `None` when that search was stopped or ran out of time first (or was
    /// not needed because the search chose the preferred move itself).
    pub preferred_score: Option<Score>,
    /// Whether the preferred move is played.
    pub played: bool,
}

impl PreferCheck {
    /// Decides from the two scores: the preferred move is played when it is the search's
    /// own choice or its score is at most [`PREFER_MARGIN`] centipawns below the best.
    #[must_use]
    pub fn decide(
        preferred: Move,
        stats: PostBookStats,
        search_best: Move,
        best_score: Score,
        preferred_score: Option<Score>,
    ) -> PreferCheck {
        let played = preferred == search_best
            || preferred_score.is_some_and(|s| {
                crate::policy::score_cp(s)
                    >= crate::policy::score_cp(best_score).saturating_sub(PREFER_MARGIN)
            });
        PreferCheck { preferred, stats, search_best, best_score, preferred_score, played }
    }

    /// One sentence for the player, with moves named by `name` (SAN in the app, UCI
    /// notation in the protocols).
    ///
    /// ```
    /// use kibitz_engine::{GameRecord, PostBookStats, PreferCheck, Score, Stats};
    /// let game = GameRecord::new();
    /// let (e4, d4) = (game.parse_move("e4").unwrap(), game.parse_move("d4").unwrap());
    /// let stats = PostBookStats { stats: Stats { games: 3, wins: 2, draws: 1, losses: 0 }, score_sum: 90 };
    /// let check = PreferCheck::decide(e4, stats, d4, Score::Cp(40), Some(Score::Cp(-60)));
    /// assert!(!check.played);
    /// let name = |m: shakmaty::Move| m.to_string();
    /// assert!(check.describe(name).contains("100 cp worse"), "{}", check.describe(name));
    /// ```
    #[must_use]
    pub fn describe(&self, name: impl Fn(Move) -> String) -> String {
        let s = self.stats.stats;
        let history = format!(
            "PostBook prefers {} ({} games, {:.0}%)",
            name(self.preferred),
            s.games,
            s.win_pct().unwrap_or(0.0)
        );
        if self.preferred == self.search_best {
            return format!("{history}: the search's choice too, played");
        }
        let best = format!("{} ({})", name(self.search_best), self.best_score);
        match self.preferred_score {
            None => format!("{history}: not verified in time, {best} played instead"),
            Some(score) => {
                let worse = crate::policy::score_cp(self.best_score) - crate::policy::score_cp(score);
                if self.played {
                    format!("{history}: {score}, within {PREFER_MARGIN} cp of the search's {best}, played")
                } else {
                    format!(
                        "{history}: {score}, {worse} cp worse than the search's {best} (margin {PREFER_MARGIN}), not played"
                    )
                }
            }
        }
    }
}

fn advise(s: &PostBookStats) -> PostBookAdvice {
    if s.stats.games < MIN_GAMES {
        return PostBookAdvice::Ignore;
    }
    let pct = s.stats.win_pct().unwrap_or(50.0);
    if pct < AVOID_PCT || s.average_score() < AVOID_SCORE {
        PostBookAdvice::Avoid
    } else if pct >= 50.0 && s.average_score() >= 0 {
        PostBookAdvice::Prefer
    } else {
        PostBookAdvice::Ignore
    }
}
