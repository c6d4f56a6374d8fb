//! Game results counted for a book move, always from the side to move.

/// Games, wins, draws and losses for the side that plays the move.
///
/// ```
/// use kibitz_engine::Stats;
/// let s = Stats { games: 4, wins: 2, draws: 1, losses: 1 };
/// assert_eq!(s.win_pct(), Some(62.5));
/// assert_eq!(Stats::default().win_pct(), None);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Stats {
    /// Games in which the move was played.
    pub games: u32,
    /// Games won by the side that played the move.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games lost by the side that played the move.
    pub losses: u32,
}

/// The outcome of one game for the side that played a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side that played the move won.
    Win,
    /// Draw.
    Draw,
    /// The side that played the move lost.
    Loss,
    /// Unknown or unfinished (`*`): counted as a game, with no result (weighted as a draw in
    /// [`Stats::polyglot_weight`]).
    Unknown,
}

impl Stats {
    /// Winning percentage, a draw counting half, or `None` without games.
    #[must_use]
    pub fn win_pct(&self) -> Option<f64> {
        let decided = self.wins + self.draws + self.losses;
        (decided > 0)
            .then(|| (f64::from(self.wins) + f64::from(self.draws) / 2.0) * 100.0 / f64::from(decided))
    }

    /// Counts one more game.
    pub fn record(&mut self, outcome: Outcome) {
        self.games = self.games.saturating_add(1);
        match outcome {
            Outcome::Win => self.wins = self.wins.saturating_add(1),
            Outcome::Draw => self.draws = self.draws.saturating_add(1),
            Outcome::Loss => self.losses = self.losses.saturating_add(1),
            Outcome::Unknown => {}
        }
    }

    /// Adds another set of counts.
    pub fn add(&mut self, other: &Stats) {
        self.games = self.games.saturating_add(other.games);
        self.wins = self.wins.saturating_add(other.wins);
        self.draws = self.draws.saturating_add(other.draws);
        self.losses = self.losses.saturating_add(other.losses);
    }

    /// Games without a result (`*`, a missing or unknown `[Result]`).
    #[must_use]
    pub fn unfinished(&self) -> u32 {
        self.games.saturating_sub(self.wins.saturating_add(self.draws).saturating_add(self.losses))
    }

    /// Polyglot's weight for a move built from games, as `polyglot make-book` counts it: two
    /// points a win, one a draw *or a game without a result*, none a loss, capped at
    /// `u16::MAX`. (PolyGlot's `book_insert` scores a game 0 unless its result is `1-0` or
    /// `0-1` and adds `result + 1` to the move, so an unfinished game weighs like a draw; a
    /// book built from opening lines, whose games all end in `*`, is weighted by how often
    /// each move is played.)
    ///
    /// ```
    /// use kibitz_engine::Stats;
    /// let lines = Stats { games: 3, wins: 0, draws: 0, losses: 0 };
    /// assert_eq!(lines.polyglot_weight(), 3);
    /// assert_eq!(Stats { games: 5, wins: 2, draws: 1, losses: 1 }.polyglot_weight(), 6);
    /// ```
    #[must_use]
    pub fn polyglot_weight(&self) -> u16 {
        let score = u64::from(self.wins) * 2 + u64::from(self.draws) + u64::from(self.unfinished());
        u16::try_from(score).unwrap_or(u16::MAX)
    }
}

impl Outcome {
    /// The outcome for the side to move, from a PGN result (`1-0`, `0-1`, `1/2-1/2`, `*`).
    #[must_use]
    pub fn from_result(result: &str, white_to_move: bool) -> Outcome {
        let white = match result.trim() {
            "1-0" => Outcome::Win,
            "0-1" => Outcome::Loss,
            "1/2-1/2" => Outcome::Draw,
            _ => return Outcome::Unknown,
        };
        if white_to_move { white } else { white.flipped() }
    }

    /// The same game seen by the other side.
    #[must_use]
    pub fn flipped(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Loss => Outcome::Win,
            other => other,
        }
    }
}
