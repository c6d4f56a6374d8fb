//! Hints while playing: teach, do not spoil. The first press shows which piece to move, the
//! second the move itself. The move comes from Kibitz's book when the position is in it (its
//! most likely book move), otherwise from a short search with the purpose hint on an engine
//! of its own, so that the opponent's search is never disturbed. A game allows a set number
//! of hints (0 turns them off); each one used is noted on the player's next move.

use std::time::Duration;

use kibitz_engine::{
    Book, BookSettings, Candidate, Command, Event, GameRecord, Player, Purpose, SearchLimits,
};

use crate::board_geometry::role_name;
use shakmaty::{Chess, Move, Position, Square, san::San};

/// How long the hint's search thinks.
pub const HINT_TIME: Duration = Duration::from_millis(1500);

/// Where a hint's move came from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum HintSource {
    /// Kibitz's opening book.
    Book,
    /// A short search.
    Search,
}

/// What the hint shows now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HintShown {
    /// The square of the piece to move.
    Piece(Square),
    /// The move.
    Move(Move, HintSource),
}

/// Why a hint was not given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HintRefusal {
    /// Hints are off (0 per game).
    Off,
    /// Every hint of the game has been used.
    NoneLeft(u32),
    /// The position has no legal move.
    NoMove,
}

impl std::fmt::Display for HintRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HintRefusal::Off => f.write_str("Hints are off: set Hints per game in New game."),
            HintRefusal::NoneLeft(n) => write!(f, "You have used all {n} hints of this game."),
            HintRefusal::NoMove => f.write_str("There is no move to hint at."),
        }
    }
}

enum State {
    Idle,
    /// The search for a hint in `position` runs.
    Searching {
        id: u64,
        position: Chess,
    },
    /// The hint for `position`; `level` 1 shows the piece, 2 the move.
    Found {
        position: Chess,
        mv: Move,
        source: HintSource,
        level: u8,
    },
}

/// The hints of the game being played.
pub struct Hints {
    player: Option<Box<dyn Player>>,
    state: State,
    used: u32,
    next_id: u64,
    /// The hints the game allows, as last asked.
    allowed: u32,
    /// The note for the player's next move, once a hint was shown.
    note: Option<String>,
}

impl Default for Hints {
    fn default() -> Self {
        Hints { player: None, state: State::Idle, used: 0, next_id: 1, allowed: 0, note: None }
    }
}

impl Hints {
    /// How many hints the game has left of `allowed`.
    #[must_use]
    pub fn left(&self, allowed: u32) -> u32 {
        allowed.saturating_sub(self.used)
    }

    /// How many hints this game has used.
    #[cfg(test)]
    fn used(&self) -> u32 {
        self.used
    }

    /// Whether a hint's search is running.
    #[cfg(test)]
    fn is_searching(&self) -> bool {
        matches!(self.state, State::Searching { .. })
    }

    /// A new game: every hint is available again.
    pub fn new_game(&mut self) {
        self.state = State::Idle;
        self.used = 0;
        self.note = None;
        if let Some(player) = &self.player {
            player.send(Command::Stop);
        }
    }

    /// A game resumed: the hints its moves' comments note (`{Hint 2 of 3: ...}`) are used.
    pub fn resume(&mut self, game: &GameRecord) {
        self.new_game();
        self.used = game
            .main_line()
            .iter()
            .filter_map(|&id| game.node(id))
            .flat_map(|node| hints_noted(node.comment()))
            .max()
            .unwrap_or(0);
    }

    /// The player pressed Hint in the position after `moves` from `start`: the second press
    /// in the same position shows the move; a first press uses one of the game's `allowed`
    /// hints and asks the book, or starts a search on the player `spawn` makes (once).
    ///
    /// # Errors
    /// When hints are off, used up, or the position has no move.
    pub fn ask(
        &mut self,
        start: &Chess,
        moves: &[Move],
        book: Option<&Book>,
        settings: &BookSettings,
        allowed: u32,
        spawn: impl FnOnce() -> Box<dyn Player>,
    ) -> Result<(), HintRefusal> {
        let mut position = start.clone();
        for &m in moves {
            position.play_unchecked(m);
        }
        match &mut self.state {
            State::Found { position: p, mv, level, source } if *p == position => {
                if *level == 1 {
                    *level = 2;
                    self.note = Some(note(self.used, self.allowed, &position, Some((*mv, *source))));
                }
                return Ok(());
            }
            State::Searching { position: p, .. } if *p == position => return Ok(()),
            _ => {}
        }
        self.allowed = allowed;
        if allowed == 0 {
            return Err(HintRefusal::Off);
        }
        if self.used >= allowed {
            return Err(HintRefusal::NoneLeft(allowed));
        }
        if position.legal_moves().is_empty() {
            return Err(HintRefusal::NoMove);
        }
        self.used += 1;
        if let Some(mv) = book.and_then(|b| book_move(b, &position, settings)) {
            self.note = Some(note(self.used, allowed, &position, None));
            self.state = State::Found { position, mv, source: HintSource::Book, level: 1 };
            return Ok(());
        }
        let player = self.player.get_or_insert_with(spawn);
        let id = self.next_id;
        self.next_id += 1;
        player.send(Command::Position { start: start.clone(), moves: moves.to_vec() });
        player.send(Command::Go { id, purpose: Purpose::Hint, limits: SearchLimits::movetime(HINT_TIME) });
        self.state = State::Searching { id, position };
        Ok(())
    }

    /// Takes the hint engine's events.
    pub fn drain(&mut self) {
        let Some(player) = &self.player else { return };
        while let Some(event) = player.try_recv() {
            if let (Event::BestMove { id, best: Some(mv), .. }, State::Searching { id: wanted, position }) =
                (&event, &self.state)
                && id == wanted
            {
                let position = position.clone();
                self.note = Some(note(self.used, self.allowed, &position, None));
                self.state = State::Found { position, mv: *mv, source: HintSource::Search, level: 1 };
            }
        }
    }

    /// What to show on the board in `position`: nothing unless the hint is for it.
    #[must_use]
    pub fn shown(&self, position: &Chess) -> Option<HintShown> {
        match &self.state {
            State::Found { position: p, mv, source, level } if p == position => {
                Some(if *level >= 2 { HintShown::Move(*mv, *source) } else { HintShown::Piece(mv.from()?) })
            }
            _ => None,
        }
    }

    /// The hint in words, for the side panel (and screen readers), while it is shown.
    #[must_use]
    pub fn words(&self, position: &Chess) -> Option<String> {
        Some(match self.shown(position)? {
            HintShown::Piece(square) => {
                let piece = position.board().role_at(square).map_or("piece", role_name);
                format!("Hint: move the {piece} on {square}; press Hint again for the move.")
            }
            HintShown::Move(mv, source) => {
                let from = if source == HintSource::Book { " (from the book)" } else { "" };
                format!("Hint: {}{from}", San::from_move(position, mv))
            }
        })
    }

    /// The note for the move the player just made, if a hint was shown before it: taken once.
    pub fn take_note(&mut self) -> Option<String> {
        self.state = State::Idle;
        self.note.take()
    }
}

/// The book's most likely move in `position` under `settings`.
fn book_move(book: &Book, position: &Chess, settings: &BookSettings) -> Option<Move> {
    book.explain(position, settings)
        .into_iter()
        .filter(Candidate::is_playable)
        .max_by(|a, b| a.probability.total_cmp(&b.probability))
        .map(|c| c.mv)
}

/// The hint numbers a comment notes: 2 for "Hint 2 of 3: Nf3".
fn hints_noted(comment: &str) -> impl Iterator<Item = u32> + '_ {
    comment.match_indices("Hint ").filter_map(|(at, _)| {
        let rest = &comment[at + "Hint ".len()..];
        let (number, rest) = rest.split_once(' ')?;
        rest.starts_with("of ").then(|| number.parse().ok()).flatten()
    })
}

/// "Hint 2 of 3: which piece to move" or "Hint 2 of 3: Nf3 (from the book)".
fn note(used: u32, allowed: u32, position: &Chess, shown: Option<(Move, HintSource)>) -> String {
    let count = format!("Hint {used} of {allowed}");
    match shown {
        Some((mv, source)) => {
            let san = San::from_move(position, mv);
            let from = if source == HintSource::Book { " (from the book)" } else { "" };
            format!("{count}: {san}{from}")
        }
        None => format!("{count}: which piece to move"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kibitz_engine::{EngineHandle, book_key, encode_move};

    fn spawn() -> Box<dyn Player> {
        Box::new(EngineHandle::spawn(|| {}))
    }

    #[test]
    fn a_resumed_game_keeps_the_hints_it_used() {
        let mut game = GameRecord::new();
        for (san, comment) in
            [("e4", "Hint 1 of 3: which piece to move"), ("e5", ""), ("Nf3", "Hint 2 of 3: Nf3")]
        {
            let m = game.parse_move(san).expect("legal");
            game.play(m).expect("legal");
            game.set_comment(game.main_end(), comment);
        }
        let mut hints = Hints::default();
        hints.resume(&game);
        assert_eq!(hints.used(), 2);
        assert_eq!(hints.left(3), 1);
        hints.resume(&GameRecord::new());
        assert_eq!(hints.used(), 0, "a game without notes has used none");
        assert_eq!(hints_noted("Hint 10 of 99: e4; Hint x of 3").collect::<Vec<_>>(), [10]);
    }

    #[test]
    fn the_book_answers_first_the_piece_then_the_move_and_the_count_is_kept() {
        let start = Chess::default();
        let mut book = Book::new();
        let e4 = San::from_ascii(b"e4").ok().and_then(|s| s.to_move(&start).ok()).expect("e4");
        book.entry_mut(book_key(&start), encode_move(e4)).fixed.games = 10;
        let settings = BookSettings::default();
        let mut hints = Hints::default();
        hints.ask(&start, &[], Some(&book), &settings, 2, spawn).expect("a hint");
        assert_eq!(hints.shown(&start), Some(HintShown::Piece(Square::E2)));
        let words = hints.words(&start).expect("words");
        assert!(words.starts_with("Hint: move the pawn on e2"), "{words}");
        hints.ask(&start, &[], Some(&book), &settings, 2, spawn).expect("the move");
        assert_eq!(hints.shown(&start), Some(HintShown::Move(e4, HintSource::Book)));
        assert_eq!(hints.used(), 1, "both presses in one position are one hint");
        assert_eq!(hints.take_note().as_deref(), Some("Hint 1 of 2: e4 (from the book)"));
        assert_eq!(hints.shown(&start), None);
    }

    #[test]
    fn hints_run_out_and_zero_means_off() {
        let start = Chess::default();
        let settings = BookSettings::default();
        let mut hints = Hints::default();
        assert_eq!(hints.ask(&start, &[], None, &settings, 0, spawn), Err(HintRefusal::Off));
        hints.ask(&start, &[], None, &settings, 1, spawn).expect("a search");
        assert!(hints.is_searching());
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        while hints.is_searching() {
            assert!(std::time::Instant::now() < deadline, "the hint's search ended");
            hints.drain();
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(matches!(hints.shown(&start), Some(HintShown::Piece(_))));
        let e4 = San::from_ascii(b"e4").ok().and_then(|s| s.to_move(&start).ok()).expect("e4");
        let mut after = start.clone();
        after.play_unchecked(e4);
        assert_eq!(hints.shown(&after), None, "the hint belongs to its position");
        assert_eq!(hints.ask(&start, &[e4], None, &settings, 1, spawn), Err(HintRefusal::NoneLeft(1)));
        hints.new_game();
        assert_eq!(hints.used(), 0);
    }
}
