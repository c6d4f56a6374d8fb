//! An editable book: the [`Book`] a person shapes by hand, with typed edits, undo and redo, and
//! a dirty flag. Every edit records the entries it touched as they were and as they became, so
//! undo and redo restore exactly those entries, whatever the edit was. What the engine would
//! play after an edit is the existing, pure [`Book::explain`].
//!
//! The one value a person sets is Terra's user value, 0 (never) to 100 (always), see
//! `docs/BOOK-FORMAT.md`; the NAG buttons set it through [`nag_value`](crate::nag_value).
//!
//! ```
//! use kibitz_engine::{BookDocument, BookEdit, Book, BookSettings};
//! use shakmaty::{Chess, san::San};
//! let start = Chess::default();
//! let e4 = "e4".parse::<San>().unwrap().to_move(&start).unwrap();
//! let mut doc = BookDocument::new(Book::new());
//! doc.apply(BookEdit::set_user(&start, e4, Some(100))).unwrap();
//! assert!(doc.is_dirty());
//! let candidates = doc.book().explain(&start, &BookSettings::default());
//! assert_eq!(candidates[0].probability, 1.0);
//! doc.undo();
//! assert!(doc.book().is_empty());
//! ```

use std::collections::{HashMap, HashSet, VecDeque};
use std::fmt;
use std::sync::Arc;

use shakmaty::{Chess, Move, Position};

use crate::book::{Book, BookEntry, Stats, book_key, encode_move};

/// How deep "remove this move and its subtree" follows the book's moves.
const SUBTREE_PLIES: usize = 200;

/// One change a person makes to a book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookEdit {
    /// Set a move's user value (0 to 100; `None` clears it); a move the book lacks is added.
    SetUser {
        /// The position's key.
        key: u64,
        /// The move, Polyglot-encoded.
        mv: u16,
        /// The value.
        value: Option<u8>,
    },
    /// Set Crafty's `{play nn%}` (0 to 100; `None` clears it); a missing move is added.
    SetPlay {
        /// The position's key.
        key: u64,
        /// The move.
        mv: u16,
        /// The percentage.
        pct: Option<u8>,
    },
    /// Add a move without statistics.
    Add {
        /// The position's key.
        key: u64,
        /// The move.
        mv: u16,
    },
    /// Remove a move and the positions only it leads to (its subtree, unless another book line
    /// from the initial position reaches them).
    Remove {
        /// The position the move is played in.
        pos: Box<Chess>,
        /// The move.
        mv: Move,
    },
    /// Forget what was learned about a move (its learned games, score and "never again" flag).
    ResetLearned {
        /// The position's key.
        key: u64,
        /// The move.
        mv: u16,
    },
}

impl BookEdit {
    /// Set the user value of `mv` in `pos`.
    #[must_use]
    pub fn set_user(pos: &Chess, mv: Move, value: Option<u8>) -> BookEdit {
        BookEdit::SetUser { key: book_key(pos), mv: encode_move(mv), value }
    }

    /// Set the play percentage of `mv` in `pos`.
    #[must_use]
    pub fn set_play(pos: &Chess, mv: Move, pct: Option<u8>) -> BookEdit {
        BookEdit::SetPlay { key: book_key(pos), mv: encode_move(mv), pct }
    }

    /// Add `mv` in `pos` to the book.
    #[must_use]
    pub fn add(pos: &Chess, mv: Move) -> BookEdit {
        BookEdit::Add { key: book_key(pos), mv: encode_move(mv) }
    }

    /// Remove `mv` in `pos` and its subtree.
    #[must_use]
    pub fn remove(pos: &Chess, mv: Move) -> BookEdit {
        BookEdit::Remove { pos: Box::new(pos.clone()), mv }
    }

    /// Forget what was learned about `mv` in `pos`.
    #[must_use]
    pub fn reset_learned(pos: &Chess, mv: Move) -> BookEdit {
        BookEdit::ResetLearned { key: book_key(pos), mv: encode_move(mv) }
    }
}

/// Why an edit was refused; the book is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EditError {
    /// A value or percentage above 100.
    OutOfRange(u8),
    /// The move to remove or reset is not in the book.
    NotInBook,
    /// The move is not legal in the position.
    IllegalMove,
}

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EditError::OutOfRange(v) => {
                write!(f, "{v} is out of range: values and percentages go from 0 to 100")
            }
            EditError::NotInBook => f.write_str("the move is not in the book"),
            EditError::IllegalMove => f.write_str("the move is not legal in the position"),
        }
    }
}

impl std::error::Error for EditError {}

/// The entries an edit touched: each (key, move) as it was and as it became (`None`: absent).
#[derive(Clone, Debug)]
struct Change {
    before: Vec<(u64, u16, Option<BookEntry>)>,
    after: Vec<(u64, u16, Option<BookEntry>)>,
}

/// A book being edited, with its undo and redo stacks.
#[derive(Clone, Debug, Default)]
pub struct BookDocument {
    /// Shared with whoever plays from a snapshot; copied on the first edit after one.
    book: Arc<Book>,
    undo: Vec<Change>,
    redo: Vec<Change>,
    /// How many changes from the bottom of the undo stack the saved file holds; `None` when
    /// the saved state is no longer on the stack.
    saved_at: Option<usize>,
    /// Every entry changed (by an edit, an undo or a redo) since the state marked saved, as
    /// it was in that state (`None`: absent).
    saved: HashMap<(u64, u16), Option<BookEntry>>,
}

impl BookDocument {
    /// A document of `book`, as saved.
    #[must_use]
    pub fn new(book: Book) -> Self {
        BookDocument::shared(Arc::new(book))
    }

    /// A document of a book that others may hold too (the engine plays from it): it is
    /// copied only when first edited, and not at all when [`BookDocument::adopt_copy`] gave
    /// the document a copy made in the background.
    #[must_use]
    pub fn shared(book: Arc<Book>) -> Self {
        BookDocument { book, undo: Vec::new(), redo: Vec::new(), saved_at: Some(0), saved: HashMap::new() }
    }

    /// The book as it is now, to hand to the engine or to a writer: no copy is made.
    #[must_use]
    pub fn snapshot(&self) -> Arc<Book> {
        Arc::clone(&self.book)
    }

    /// Whether an edit now would copy the book first (someone else holds a snapshot).
    #[must_use]
    pub fn is_shared(&self) -> bool {
        Arc::strong_count(&self.book) > 1
    }

    /// Takes `copy`, made in the background from `of`, as the document's own book, so that
    /// the next edit does not copy the whole book; refused (returns false) when the document
    /// no longer holds `of` (it was edited meanwhile).
    pub fn adopt_copy(&mut self, copy: Book, of: &Arc<Book>) -> bool {
        if !Arc::ptr_eq(&self.book, of) {
            return false;
        }
        self.book = Arc::new(copy);
        true
    }

    fn book_mut(&mut self) -> &mut Book {
        Arc::make_mut(&mut self.book)
    }

    /// The book as edited.
    #[must_use]
    pub fn book(&self) -> &Book {
        &self.book
    }

    /// Whether the book differs from the state last marked saved.
    #[must_use]
    pub fn is_dirty(&self) -> bool {
        self.saved_at != Some(self.undo.len())
    }

    /// Marks the current state as saved.
    pub fn mark_saved(&mut self) {
        self.saved_at = Some(self.undo.len());
        self.saved.clear();
    }

    /// The (key, move) pairs whose entries differ from the state last marked saved, sorted:
    /// what [`BookFile::save`](crate::BookFile::save) has to write.
    ///
    /// ```
    /// use kibitz_engine::{Book, BookDocument, BookEdit};
    /// let mut book = Book::new();
    /// book.entry_mut(1, 2).fixed.games = 3;
    /// let mut doc = BookDocument::new(book);
    /// doc.apply(BookEdit::SetUser { key: 1, mv: 2, value: Some(50) }).unwrap();
    /// assert_eq!(doc.unsaved_moves(), [(1, 2)]);
    /// assert!(!doc.adds_or_removes());
    /// doc.apply(BookEdit::Add { key: 1, mv: 3 }).unwrap();
    /// assert!(doc.adds_or_removes());
    /// doc.undo();
    /// doc.undo();
    /// assert!(doc.unsaved_moves().is_empty() && !doc.adds_or_removes());
    /// ```
    #[must_use]
    pub fn unsaved_moves(&self) -> Vec<(u64, u16)> {
        let mut moves: Vec<(u64, u16)> = self
            .saved
            .iter()
            .filter(|&(&(key, mv), saved)| self.book.get(key, mv) != saved.as_ref())
            .map(|(&pair, _)| pair)
            .collect();
        moves.sort_unstable();
        moves
    }

    /// Whether a move was added to or removed from the book since the state last marked
    /// saved (then a save rewrites the whole file).
    #[must_use]
    pub fn adds_or_removes(&self) -> bool {
        self.saved.iter().any(|(&(key, mv), saved)| self.book.get(key, mv).is_some() != saved.is_some())
    }

    /// Remembers how the entries of `pairs` were in the saved state, for those not changed
    /// since it yet: before a change, they still are as saved.
    fn remember_saved(&mut self, pairs: impl Iterator<Item = (u64, u16)>) {
        for pair in pairs {
            if !self.saved.contains_key(&pair) {
                let entry = self.book.get(pair.0, pair.1).copied();
                self.saved.insert(pair, entry);
            }
        }
    }

    /// Whether there is an edit to undo, and one to redo.
    #[must_use]
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// Whether there is an edit to redo.
    #[must_use]
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Applies an edit; the redo stack is cleared.
    ///
    /// # Errors
    /// An out-of-range value, or a move to remove or reset that the book lacks; the book is
    /// unchanged.
    pub fn apply(&mut self, edit: BookEdit) -> Result<(), EditError> {
        let touched = self.touched(&edit)?;
        let before: Vec<_> = touched.iter().map(|&(k, m)| (k, m, self.book.get(k, m).copied())).collect();
        self.remember_saved(touched.iter().copied());
        match edit {
            BookEdit::SetUser { key, mv, value } => self.book_mut().entry_mut(key, mv).user = value,
            BookEdit::SetPlay { key, mv, pct } => self.book_mut().entry_mut(key, mv).play_pct = pct,
            BookEdit::Add { key, mv } => {
                self.book_mut().entry_mut(key, mv);
            }
            BookEdit::ResetLearned { key, mv } => {
                if let Some(entry) = self.book_mut().get_mut(key, mv) {
                    entry.learned = Stats::default();
                    entry.learn_score = 0;
                    entry.never_play = false;
                }
            }
            BookEdit::Remove { .. } => {
                let gone: HashSet<(u64, u16)> = touched.iter().copied().collect();
                self.book_mut().retain(|e| !gone.contains(&(e.key, e.mv)));
            }
        }
        let after = touched.iter().map(|&(k, m)| (k, m, self.book.get(k, m).copied())).collect();
        if self.saved_at.is_some_and(|s| s > self.undo.len()) {
            // The saved state was undone and is now replaced by this branch.
            self.saved_at = None;
        }
        self.undo.push(Change { before, after });
        self.redo.clear();
        Ok(())
    }

    /// Applies an edit that continues the last one on the same entries (a value being dragged):
    /// one undo step restores the state before the whole drag.
    ///
    /// # Errors
    /// As [`BookDocument::apply`].
    pub fn apply_continuing(&mut self, edit: BookEdit) -> Result<(), EditError> {
        let same = match (self.undo.last(), &edit) {
            (Some(last), BookEdit::SetUser { key, mv, .. } | BookEdit::SetPlay { key, mv, .. }) => {
                self.redo.is_empty()
                    && last.after.len() == 1
                    && (last.after[0].0, last.after[0].1) == (*key, *mv)
            }
            _ => false,
        };
        self.apply(edit)?;
        if same
            && let Some(latest) = self.undo.pop()
            && let Some(first) = self.undo.last_mut()
        {
            first.after = latest.after;
        }
        Ok(())
    }

    /// Undoes the last edit; returns whether there was one.
    pub fn undo(&mut self) -> bool {
        let Some(change) = self.undo.pop() else { return false };
        self.restore(&change.before);
        self.redo.push(change);
        true
    }

    /// Redoes the last undone edit; returns whether there was one.
    pub fn redo(&mut self) -> bool {
        let Some(change) = self.redo.pop() else { return false };
        self.restore(&change.after);
        self.undo.push(change);
        true
    }

    /// Puts the touched entries back as `states` says: one by one for a few (a lookup each),
    /// in one rebuild for many (a subtree), never one insertion per entry into a large book.
    fn restore(&mut self, states: &[(u64, u16, Option<BookEntry>)]) {
        self.remember_saved(states.iter().map(|&(k, m, _)| (k, m)));
        let touched: HashSet<(u64, u16)> = states.iter().map(|&(k, m, _)| (k, m)).collect();
        if states.len() > 8 {
            let mut entries: Vec<BookEntry> =
                self.book.entries().iter().filter(|e| !touched.contains(&(e.key, e.mv))).copied().collect();
            entries.extend(states.iter().filter_map(|&(_, _, e)| e));
            self.book = Arc::new(Book::from_entries(entries));
            return;
        }
        let absent: HashSet<(u64, u16)> =
            states.iter().filter(|(_, _, e)| e.is_none()).map(|&(k, m, _)| (k, m)).collect();
        if !absent.is_empty() {
            self.book_mut().retain(|e| !absent.contains(&(e.key, e.mv)));
        }
        for &(key, mv, entry) in states {
            if let Some(entry) = entry {
                *self.book_mut().entry_mut(key, mv) = entry;
            }
        }
    }

    /// The (key, move) pairs an edit changes, checked.
    fn touched(&self, edit: &BookEdit) -> Result<Vec<(u64, u16)>, EditError> {
        match *edit {
            BookEdit::SetUser { key, mv, value: v } | BookEdit::SetPlay { key, mv, pct: v } => match v {
                Some(v) if v > 100 => Err(EditError::OutOfRange(v)),
                _ => Ok(vec![(key, mv)]),
            },
            BookEdit::Add { key, mv } => Ok(vec![(key, mv)]),
            BookEdit::ResetLearned { key, mv } => {
                self.book.get(key, mv).map(|_| vec![(key, mv)]).ok_or(EditError::NotInBook)
            }
            BookEdit::Remove { ref pos, mv } => {
                if !pos.is_legal(mv) {
                    return Err(EditError::IllegalMove);
                }
                let (key, code) = (book_key(pos), encode_move(mv));
                if self.book.get(key, code).is_none() {
                    return Err(EditError::NotInBook);
                }
                Ok(self.subtree(pos, mv))
            }
        }
    }

    /// The move and the entries of the positions it leads to through book moves, except the
    /// positions another book line from the initial position reaches.
    fn subtree(&self, pos: &Chess, mv: Move) -> Vec<(u64, u16)> {
        let removed = (book_key(pos), encode_move(mv));
        let mut after = pos.clone();
        after.play_unchecked(mv);
        let below = reach(&self.book, after, None);
        let kept = reach(&self.book, Chess::default(), Some(removed));
        let mut touched = vec![removed];
        for key in below.difference(&kept) {
            touched.extend(self.book.moves(*key).iter().map(|e| (e.key, e.mv)));
        }
        touched.sort_unstable();
        touched.dedup();
        touched
    }
}

/// The keys of the positions reachable from `start` through book moves (`start` included),
/// leaving out the move `skip`.
fn reach(book: &Book, start: Chess, skip: Option<(u64, u16)>) -> HashSet<u64> {
    let mut seen = HashSet::new();
    let mut queue = VecDeque::from([(start, 0)]);
    while let Some((pos, depth)) = queue.pop_front() {
        let key = book_key(&pos);
        if !seen.insert(key) || depth >= SUBTREE_PLIES {
            continue;
        }
        for (m, entry) in book.legal_moves(&pos) {
            if Some((entry.key, entry.mv)) == skip {
                continue;
            }
            let mut next = pos.clone();
            next.play_unchecked(m);
            queue.push_back((next, depth + 1));
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::BookSettings;
    use shakmaty::san::San;

    fn play(pos: &Chess, san: &str) -> (Move, Chess) {
        let m = san.parse::<San>().expect("SAN").to_move(pos).expect("legal in the test");
        let mut next = pos.clone();
        next.play_unchecked(m);
        (m, next)
    }

    /// 1. e4 e5 2. Nf3 and 1. Nf3 e5 2. e4 (a transposition), plus 1. d4 d5.
    fn book() -> Book {
        let mut book = Book::new();
        for line in ["e4 e5 Nf3 Nc6", "Nf3 e5 e4", "d4 d5"] {
            let mut pos = Chess::default();
            for san in line.split_whitespace() {
                let (m, next) = play(&pos, san);
                book.entry_mut(book_key(&pos), encode_move(m)).fixed.games = 10;
                pos = next;
            }
        }
        book
    }

    #[test]
    fn a_value_changes_the_probabilities_and_undo_and_redo_restore_them() {
        let start = Chess::default();
        let (e4, _) = play(&start, "e4");
        let mut doc = BookDocument::new(book());
        let settings = BookSettings::default();
        let before = doc.book().explain(&start, &settings);
        doc.apply(BookEdit::set_user(&start, e4, Some(100))).expect("edit");
        let after = doc.book().explain(&start, &settings);
        let p = |c: &[crate::book::Candidate], m: Move| {
            c.iter().find(|c| c.mv == m).map_or(0.0, |c| c.probability)
        };
        assert_eq!(p(&after, e4), 1.0, "always: {after:?}");
        assert!(p(&before, e4) < 1.0);
        assert!(doc.is_dirty() && doc.can_undo() && !doc.can_redo());
        assert!(doc.undo());
        assert_eq!(doc.book().explain(&start, &settings), before);
        assert!(!doc.is_dirty(), "back at the saved state");
        assert!(doc.redo());
        assert_eq!(doc.book().explain(&start, &settings), after);
        doc.mark_saved();
        assert!(!doc.is_dirty());
    }

    #[test]
    fn removing_a_move_takes_its_subtree_but_not_the_transpositions() {
        let start = Chess::default();
        let (e4, after_e4) = play(&start, "e4");
        let (e5, after_e5) = play(&after_e4, "e5");
        let (nf3, after_nf3) = play(&after_e5, "Nf3");
        let (nc6, _) = play(&after_nf3, "Nc6");
        let mut doc = BookDocument::new(book());
        let entries = doc.book().len();
        doc.apply(BookEdit::remove(&after_e4, e5)).expect("remove");
        let has = |doc: &BookDocument, pos: &Chess, m: Move| {
            doc.book().get(book_key(pos), encode_move(m)).is_some()
        };
        assert!(!has(&doc, &after_e4, e5), "the move is gone");
        // 2. Nf3 after 1. e4 e5 is the same position as 1. Nf3 e5 2. e4: still reached.
        assert!(has(&doc, &after_nf3, nc6), "the transposed position stays");
        assert!(has(&doc, &start, e4));
        // 1... e5 and 2. Nf3 after it go (1. e4 e5 is reached no other way).
        assert!(!has(&doc, &after_e5, nf3));
        assert_eq!(doc.book().len(), entries - 2);
        doc.undo();
        assert_eq!(doc.book(), &book());
        // Without the transposition the whole subtree goes.
        let mut doc = BookDocument::new(book());
        let (nf3_first, after_1nf3) = play(&start, "Nf3");
        doc.apply(BookEdit::remove(&start, nf3_first)).expect("remove 1. Nf3");
        assert!(!has(&doc, &after_1nf3, play(&after_1nf3, "e5").0));
        assert!(has(&doc, &after_e5, nf3), "1. e4 e5 2. Nf3 stays");
    }

    #[test]
    fn a_drag_is_one_undo_step() {
        let start = Chess::default();
        let (e4, _) = play(&start, "e4");
        let mut doc = BookDocument::new(book());
        for v in [10, 40, 90] {
            doc.apply_continuing(BookEdit::set_user(&start, e4, Some(v))).expect("edit");
        }
        assert_eq!(doc.book().get(book_key(&start), encode_move(e4)).and_then(|e| e.user), Some(90));
        assert!(doc.undo());
        assert_eq!(doc.book(), &book(), "one undo restores the state before the drag");
        assert!(!doc.can_undo());
        assert!(doc.redo());
        assert_eq!(doc.book().get(book_key(&start), encode_move(e4)).and_then(|e| e.user), Some(90));
    }

    #[test]
    fn the_moves_to_save_are_those_that_differ_from_the_saved_state() {
        let start = Chess::default();
        let key = book_key(&start);
        let (e4, after_e4) = play(&start, "e4");
        let (d4, _) = play(&start, "d4");
        let (a3, _) = play(&start, "a3");
        let mut doc = BookDocument::new(book());
        doc.apply(BookEdit::set_user(&start, e4, Some(50))).expect("edit");
        assert_eq!(doc.unsaved_moves(), [(key, encode_move(e4))]);
        doc.mark_saved();
        assert!(doc.unsaved_moves().is_empty());
        // Undoing past the save: 1. e4 differs from the file again.
        doc.undo();
        assert_eq!(doc.unsaved_moves(), [(key, encode_move(e4))]);
        // A new branch: the saved state is off the undo stack, and still known entry by entry.
        doc.apply(BookEdit::set_user(&start, d4, Some(20))).expect("edit");
        let mut both = vec![(key, encode_move(e4)), (key, encode_move(d4))];
        both.sort_unstable();
        assert_eq!(doc.unsaved_moves(), both);
        assert!(!doc.adds_or_removes());
        // A value set back to the saved one is not to be written.
        doc.apply(BookEdit::set_user(&start, e4, Some(50))).expect("edit");
        assert_eq!(doc.unsaved_moves(), [(key, encode_move(d4))]);
        doc.apply(BookEdit::add(&start, a3)).expect("add");
        assert!(doc.adds_or_removes());
        doc.undo();
        assert!(!doc.adds_or_removes(), "the move added is gone again");
        let (e5, _) = play(&after_e4, "e5");
        doc.apply(BookEdit::remove(&after_e4, e5)).expect("remove");
        assert!(doc.adds_or_removes());
        assert!(doc.unsaved_moves().contains(&(book_key(&after_e4), encode_move(e5))));
        doc.mark_saved();
        assert!(doc.unsaved_moves().is_empty() && !doc.adds_or_removes());
    }

    #[test]
    fn bad_edits_change_nothing() {
        let start = Chess::default();
        let (a3, _) = play(&start, "a3");
        let mut doc = BookDocument::new(book());
        assert_eq!(doc.apply(BookEdit::set_user(&start, a3, Some(101))), Err(EditError::OutOfRange(101)));
        assert_eq!(doc.apply(BookEdit::remove(&start, a3)), Err(EditError::NotInBook));
        assert_eq!(doc.apply(BookEdit::reset_learned(&start, a3)), Err(EditError::NotInBook));
        assert!(!doc.is_dirty());
        assert_eq!(doc.book(), &book());
        // Adding a move, then resetting what it learned.
        doc.apply(BookEdit::add(&start, a3)).expect("add");
        doc.book_mut().entry_mut(book_key(&start), encode_move(a3)).never_play = true;
        doc.apply(BookEdit::reset_learned(&start, a3)).expect("reset");
        assert!(!doc.book().get(book_key(&start), encode_move(a3)).is_some_and(|e| e.never_play));
    }
}
