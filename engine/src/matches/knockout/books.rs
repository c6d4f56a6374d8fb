//! The Cup's books (rule 4 of the TCEC Cup): one opening source a phase, books A to E.
//! Round i plays from book i, the last book serving every round beyond the list and the
//! semi-finals, the final and the match for third place; a round's tiebreaks play from its
//! book for their first four pairs, then from the last (rule 3.c.ii's "BOOK E"). Each book's
//! openings are taken in its own order (a shuffled suite, a book's random lines: the run's
//! seed), each once, so that every pair of the knockout gets an opening of its own and a
//! resumed run the same ones.

use crate::matches::{Opening, OpeningSource};

/// Tiebreak pairs played from the round's book before the last book takes over.
const TIEBREAK_PAIRS_FROM_ROUND_BOOK: usize = 4;

/// The books and how many openings of each were taken.
pub(super) struct Books {
    sources: Vec<OpeningSource>,
    taken: Vec<usize>,
}

impl Books {
    /// `sources` by phase; none: every game from `fallback`.
    pub fn new(sources: &[OpeningSource], fallback: &OpeningSource) -> Books {
        let sources = if sources.is_empty() { vec![fallback.clone()] } else { sources.to_vec() };
        Books { taken: vec![0; sources.len()], sources }
    }

    /// The book of round `round` (from 1) of a knockout whose round has `duels` bracket
    /// places: the last book from the semi-finals on.
    pub fn of_round(&self, round: usize, duels: usize) -> usize {
        let last = self.sources.len() - 1;
        if duels <= 2 { last } else { (round - 1).min(last) }
    }

    /// The book of tiebreak pair `pair` (from 0) of a round played from `round_book`.
    pub fn of_tiebreak(&self, round_book: usize, pair: usize) -> usize {
        if pair < TIEBREAK_PAIRS_FROM_ROUND_BOOK { round_book } else { self.sources.len() - 1 }
    }

    /// The next opening of `book`.
    pub fn next(&mut self, book: usize) -> Opening {
        let index = self.taken[book];
        self.taken[book] += 1;
        self.sources[book].opening(index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GameRecord;

    fn book(name: &str) -> OpeningSource {
        let line = |n: usize| Opening { name: Some(format!("{name}{n}")), game: GameRecord::new() };
        OpeningSource::Suite { openings: (0..4).map(line).collect(), order: vec![0, 1, 2, 3] }
    }

    #[test]
    fn rounds_take_their_books_and_the_last_from_the_semi_finals() {
        let books = Books::new(&[book("A"), book("B"), book("C")], &OpeningSource::Start);
        // 16 engines: eight duels, four, two (semi-finals), one (final).
        assert_eq!(books.of_round(1, 8), 0);
        assert_eq!(books.of_round(2, 4), 1);
        assert_eq!(books.of_round(3, 2), 2, "semi-finals: the last book");
        assert_eq!(books.of_round(4, 1), 2, "the final");
        // 64 engines: round 4 has four duels, beyond the list: the last book.
        assert_eq!(books.of_round(4, 4), 2);
        assert_eq!((0..6).map(|pair| books.of_tiebreak(0, pair)).collect::<Vec<_>>(), [0, 0, 0, 0, 2, 2]);
    }

    #[test]
    fn each_book_gives_its_openings_in_turn_and_one_source_serves_all() {
        let mut books = Books::new(&[book("A"), book("B")], &OpeningSource::Start);
        let names: Vec<Option<String>> = [0, 1, 0, 1, 0].map(|b| books.next(b).name).to_vec();
        let want = ["A0", "B0", "A1", "B1", "A2"].map(|n| Some(n.to_owned()));
        assert_eq!(names, want);
        let mut one = Books::new(&[], &book("S"));
        assert_eq!((one.of_round(1, 8), one.of_tiebreak(0, 7)), (0, 0));
        assert_eq!(one.next(0).name.as_deref(), Some("S0"));
    }
}
