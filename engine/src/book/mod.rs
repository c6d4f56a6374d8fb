//! The opening book: one [`Book`] type keyed by the Polyglot Zobrist key, so that
//! transpositions meet. Each move keeps fixed statistics from the games the book was built
//! from, dynamic statistics learned from Kibitz's own games, a user-set value and an optional
//! play percentage. See `docs/BOOK-FORMAT.md` for the file format.
//!
//! The files of this module, one concept each: `key` (positions and moves as a book names
//! them), `stats`, `entry`, `file` (Kibitz's own format), `polyglot` (`.bin` import and export),
//! `build` (from PGN), `document` (a book being edited, with undo), `nags` (user values from annotated PGN), `choose` (Terra's and Crafty's
//! selection), `learn` (book and result learning), `postbook`, `positions` (position learning),
//! `learned_error` (why a learned-data file was refused), `salvage` (what can be read of a
//! damaged book), `journal` (an in-place save's journal, replayed after a crash), `on_disk`
//! (a book file being edited: saving in place or anew), `taught` (the games learning learned
//! from).

mod build;
mod choose;
mod document;
mod entry;
mod error;
mod file;
pub(crate) use file::MAGIC;
mod journal;
mod key;
mod learn;
mod learned_error;
mod nags;
mod on_disk;
mod polyglot;
mod positions;
mod postbook;
mod salvage;
mod stats;
mod taught;

pub use build::{BookBuilder, BuildJob, BuildOptions, BuildProgress};
pub use choose::{BookMode, BookSettings, Candidate, Choice, CraftyWeights, Exclusion, Group, RandomType};
pub use document::{BookDocument, BookEdit, EditError};
pub use entry::BookEntry;
pub use error::BookError;
pub(crate) use journal::Journal;
pub use journal::Recovery;
pub use key::{book_key, decode_move, encode_move, move_code_text};
pub use learn::{LearnFlags, LearnReport, PlayedGame};
pub use learned_error::{LearnedFileError, LearnedFileErrorKind};
pub use nags::{NagImport, nag_value};
pub use on_disk::{BookFile, BookFormat, Rewrite, SaveMethod, SaveReport};
pub use positions::{LearnedPosition, PositionTable};
pub use postbook::{PREFER_MARGIN, PostBook, PostBookAdvice, PostBookStats, PreferCheck};
pub use salvage::Salvaged;
pub use stats::{Outcome, Stats};
pub use taught::{TAUGHT_GAMES_KEPT, TaughtGame, TaughtGames, TaughtIndex};

use shakmaty::{Chess, Move};

/// An opening book in memory: entries sorted by (key, move), with a radix index on the top
/// bits of the key (keys are Zobrist hashes, so evenly spread): a lookup reads one index slot
/// and a couple of entries.
///
/// ```
/// use kibitz_engine::{Book, BookEntry, GameRecord, book_key, encode_move};
/// let game = GameRecord::new();
/// let e4 = game.parse_move("e4").unwrap();
/// let mut book = Book::new();
/// book.entry_mut(book_key(game.position()), encode_move(e4)).fixed.games = 3;
/// let moves = book.legal_moves(game.position());
/// assert_eq!(moves.len(), 1);
/// assert_eq!(moves[0].0, e4);
/// assert_eq!(moves[0].1.fixed.games, 3);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    entries: Vec<BookEntry>,
    /// `index[b]` is the first entry whose key's top `bits` bits are at least `b`.
    index: Vec<u32>,
    bits: u32,
}

impl Book {
    /// An empty book.
    #[must_use]
    pub fn new() -> Self {
        Book::default()
    }

    /// A book from entries in any order; entries for the same key and move are merged
    /// (statistics added, the first user value, play percentage and weight kept).
    #[must_use]
    pub fn from_entries(mut entries: Vec<BookEntry>) -> Self {
        entries.sort_by_key(|e| (e.key, e.mv));
        let mut merged: Vec<BookEntry> = Vec::with_capacity(entries.len());
        for e in entries {
            match merged.last_mut() {
                Some(last) if last.key == e.key && last.mv == e.mv => merge_entry(last, &e),
                _ => merged.push(e),
            }
        }
        Book::from_sorted(merged)
    }

    /// A book from entries already sorted strictly by (key, move), as a file stores them.
    pub(crate) fn from_sorted(entries: Vec<BookEntry>) -> Self {
        let mut book = Book { entries, index: Vec::new(), bits: 0 };
        book.reindex();
        book
    }

    /// Rebuilds the radix index after the entries changed.
    fn reindex(&mut self) {
        let n = self.entries.len();
        if n < 64 || n >= u32::MAX as usize {
            self.index.clear();
            self.bits = 0;
            return;
        }
        let bits = (usize::BITS - n.leading_zeros()).clamp(6, 24);
        let slots = 1usize << bits;
        let mut index = Vec::with_capacity(slots + 1);
        let mut i = 0;
        for b in 0..slots as u64 {
            while i < n && (self.entries[i].key >> (64 - bits)) < b {
                i += 1;
            }
            index.push(i as u32);
        }
        index.push(n as u32);
        self.index = index;
        self.bits = bits;
    }

    /// All entries, sorted by (key, move).
    #[must_use]
    pub fn entries(&self) -> &[BookEntry] {
        &self.entries
    }

    /// Number of entries (moves).
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// The book has no moves.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Number of distinct positions.
    #[must_use]
    pub fn positions(&self) -> usize {
        self.entries.windows(2).filter(|w| w[0].key != w[1].key).count() + usize::from(!self.is_empty())
    }

    /// The entries of the position with this key (possibly empty).
    #[must_use]
    pub fn moves(&self, key: u64) -> &[BookEntry] {
        let slice = if self.bits == 0 {
            &self.entries[..]
        } else {
            let b = (key >> (64 - self.bits)) as usize;
            &self.entries[self.index[b] as usize..self.index[b + 1] as usize]
        };
        let start = slice.partition_point(|e| e.key < key);
        let end = start + slice[start..].partition_point(|e| e.key == key);
        &slice[start..end]
    }

    /// The book moves of a position that are legal there, with their entries, in book order.
    #[must_use]
    pub fn legal_moves(&self, pos: &Chess) -> Vec<(Move, BookEntry)> {
        let entries = self.moves(book_key(pos));
        if entries.is_empty() {
            return Vec::new();
        }
        let legal = shakmaty::Position::legal_moves(pos);
        entries
            .iter()
            .filter_map(|e| legal.iter().find(|&&m| encode_move(m) == e.mv).map(|&m| (m, *e)))
            .collect()
    }

    /// The entry for a key and move, if the book has it.
    #[must_use]
    pub fn get(&self, key: u64, mv: u16) -> Option<&BookEntry> {
        self.entries.binary_search_by_key(&(key, mv), |e| (e.key, e.mv)).ok().map(|i| &self.entries[i])
    }

    /// The entry for a key and move, to change it, if the book has it.
    pub fn get_mut(&mut self, key: u64, mv: u16) -> Option<&mut BookEntry> {
        match self.entries.binary_search_by_key(&(key, mv), |e| (e.key, e.mv)) {
            Ok(i) => Some(&mut self.entries[i]),
            Err(_) => None,
        }
    }

    /// The entry for a key and move, inserted empty if the book does not have it yet.
    pub fn entry_mut(&mut self, key: u64, mv: u16) -> &mut BookEntry {
        let i = match self.entries.binary_search_by_key(&(key, mv), |e| (e.key, e.mv)) {
            Ok(i) => i,
            Err(i) => {
                self.entries.insert(i, BookEntry::new(key, mv));
                self.reindex();
                i
            }
        };
        &mut self.entries[i]
    }

    /// Keeps only the entries for which `keep` is true.
    pub fn retain(&mut self, keep: impl FnMut(&BookEntry) -> bool) {
        self.entries.retain(keep);
        self.reindex();
    }

    /// Adds the moves of another book (Terra's `mergebooks`): statistics are added, user values
    /// of `self` win over those of `other`; then moves played in fewer than `min_games` games
    /// are dropped, unless they carry a user value or a play percentage.
    pub fn merge(&mut self, other: &Book, min_games: u32) {
        let mut all = std::mem::take(&mut self.entries);
        all.extend_from_slice(&other.entries);
        *self = Book::from_entries(all);
        self.retain(|e| e.fixed.games >= min_games || e.user.is_some() || e.play_pct.is_some());
    }

    /// Forgets everything learned (dynamic statistics, learned scores, "never play again"
    /// flags), keeping fixed statistics and user values: Crafty's `import ... clear`.
    pub fn clear_learning(&mut self) {
        for e in &mut self.entries {
            e.learned = Stats::default();
            e.learn_score = 0;
            e.never_play = false;
        }
    }
}

/// Merges `e` into `into` (same key and move).
fn merge_entry(into: &mut BookEntry, e: &BookEntry) {
    let learned_games = into.learned.games + e.learned.games;
    if learned_games > 0 {
        let total = i64::from(into.learn_score) * i64::from(into.learned.games)
            + i64::from(e.learn_score) * i64::from(e.learned.games);
        into.learn_score = i32::try_from(total / i64::from(learned_games)).unwrap_or(0);
    }
    into.fixed.add(&e.fixed);
    into.learned.add(&e.learned);
    into.weight = if into.fixed.games > 0 {
        into.fixed.polyglot_weight()
    } else {
        into.weight.saturating_add(e.weight)
    };
    into.user = into.user.or(e.user);
    into.play_pct = into.play_pct.or(e.play_pct);
    into.never_play |= e.never_play;
}
