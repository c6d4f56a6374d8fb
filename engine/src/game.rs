//! The record of one game: where it started, the moves played, its tags and how it ended.

use std::fmt;

use shakmaty::fen::Fen;
use shakmaty::san::San;
use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, KnownOutcome, Move, Position};

/// Why a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Neither side has the material to mate.
    InsufficientMaterial,
    /// The same position occurred for the third time with the same side to move.
    ThreefoldRepetition,
    /// Fifty moves by each side without a capture or a pawn move.
    FiftyMoveRule,
}

impl Termination {
    /// A short phrase for the player: "checkmate", "threefold repetition".
    #[must_use]
    pub fn describe(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::InsufficientMaterial => "insufficient material",
            Termination::ThreefoldRepetition => "threefold repetition",
            Termination::FiftyMoveRule => "the fifty-move rule",
        }
    }
}

/// How a finished game ended: the result and the reason.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ending {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub outcome: KnownOutcome,
    /// Why the game ended.
    pub termination: Termination,
}

impl fmt::Display for Ending {
    /// "White wins by checkmate", "Draw by stalemate".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.outcome {
            KnownOutcome::Decisive { winner } => {
                let side = if winner == Color::White { "White" } else { "Black" };
                write!(f, "{side} wins by {}", self.termination.describe())
            }
            KnownOutcome::Draw => write!(f, "Draw by {}", self.termination.describe()),
        }
    }
}

/// A move that could not be played, with the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove(pub String);

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for IllegalMove {}

/// The standard order of the Seven Tag Roster.
pub(crate) const SEVEN_TAGS: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// One game: the start position, the moves played and the PGN tags. Every move in it is legal,
/// and the ending is detected as moves are played.
///
/// ```
/// use kibitz_engine::{GameRecord, Termination};
/// let mut game = GameRecord::new();
/// for m in ["f3", "e5", "g4", "Qh4#"] {
///     game.play_text(m).unwrap();
/// }
/// let ending = game.ending().unwrap();
/// assert_eq!(ending.termination, Termination::Checkmate);
/// assert_eq!(ending.to_string(), "Black wins by checkmate");
/// assert_eq!(game.san_moves(), ["f3", "e5", "g4", "Qh4#"]);
/// ```
#[derive(Clone, Debug)]
pub struct GameRecord {
    tags: Vec<(String, String)>,
    /// Positions: `positions[0]` is the start, `positions[i]` the one after `i` moves.
    positions: Vec<Chess>,
    hashes: Vec<u64>,
    moves: Vec<Move>,
    sans: Vec<String>,
    custom_start: bool,
    ending: Option<Ending>,
}

impl Default for GameRecord {
    fn default() -> Self {
        Self::new()
    }
}

impl GameRecord {
    /// A game from the initial position.
    #[must_use]
    pub fn new() -> Self {
        Self::with_start(Chess::default(), false)
    }

    /// A game from any legal position.
    #[must_use]
    pub fn from_position(start: Chess) -> Self {
        let custom = start != Chess::default();
        Self::with_start(start, custom)
    }

    /// A game from a FEN. The error says what is wrong with it, for the player to read.
    ///
    /// ```
    /// use kibitz_engine::GameRecord;
    /// assert!(GameRecord::from_fen("8/8/8/8/8/8/8/8 w - - 0 1").is_err());
    /// let game = GameRecord::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    /// assert_eq!(game.ending().unwrap().to_string(), "Draw by stalemate");
    /// ```
    pub fn from_fen(fen: &str) -> Result<Self, IllegalMove> {
        let fen = fen.trim();
        let parsed: Fen = fen.parse().map_err(|e| IllegalMove(format!("This FEN cannot be read: {e}.")))?;
        let pos: Chess = parsed
            .into_position(CastlingMode::Standard)
            .map_err(|e| IllegalMove(format!("This FEN is not a legal position: {e}.")))?;
        Ok(Self::from_position(pos))
    }

    fn with_start(start: Chess, custom_start: bool) -> Self {
        let mut tags: Vec<(String, String)> =
            SEVEN_TAGS.iter().map(|name| (name.to_string(), "?".to_string())).collect();
        set_in(&mut tags, "Result", "*");
        let hash = hash_of(&start);
        let mut game = GameRecord {
            tags,
            positions: vec![start],
            hashes: vec![hash],
            moves: Vec::new(),
            sans: Vec::new(),
            custom_start,
            ending: None,
        };
        game.update_ending();
        game
    }

    /// The position the game started from.
    #[must_use]
    pub fn start(&self) -> &Chess {
        &self.positions[0]
    }

    /// The start position's FEN when it is not the initial position (PGN's `FEN` tag).
    #[must_use]
    pub fn start_fen(&self) -> Option<String> {
        self.custom_start.then(|| Fen::from_position(self.start(), EnPassantMode::Legal).to_string())
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &Chess {
        self.positions.last().unwrap_or(&self.positions[0])
    }

    /// The position after `ply` moves (clamped to the last one).
    #[must_use]
    pub fn position_at(&self, ply: usize) -> &Chess {
        &self.positions[ply.min(self.moves.len())]
    }

    /// The moves played, in order.
    #[must_use]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The moves played, in SAN with check and mate suffixes.
    #[must_use]
    pub fn san_moves(&self) -> &[String] {
        &self.sans
    }

    /// Number of moves played (plies).
    #[must_use]
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether no move was played yet.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// How the game ended, if it did.
    #[must_use]
    pub fn ending(&self) -> Option<Ending> {
        self.ending
    }

    /// The PGN result: the ending's if the game ended by rule, else the `Result` tag.
    #[must_use]
    pub fn result(&self) -> &str {
        match self.ending {
            Some(ending) => ending.outcome.as_str(),
            None => self.tag("Result").unwrap_or("*"),
        }
    }

    /// The value of a tag.
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// Sets a tag, keeping the order of existing ones.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        set_in(&mut self.tags, name, value);
    }

    /// All tags in order, the Seven Tag Roster first.
    #[must_use]
    pub fn tags(&self) -> &[(String, String)] {
        &self.tags
    }

    /// Reads a move typed by a person, in SAN (`Nf3`, `exd5`, `O-O`, `e8=Q+`) or UCI
    /// (`g1f3`, `e7e8q`) notation, in the current position.
    pub fn parse_move(&self, text: &str) -> Result<Move, IllegalMove> {
        let text = text.trim();
        let pos = self.position();
        if text.is_empty() {
            return Err(IllegalMove("Type a move, like Nf3 or g1f3.".into()));
        }
        if let Ok(uci) = text.parse::<UciMove>()
            && let Ok(m) = uci.to_move(pos)
        {
            return Ok(m);
        }
        // Accept the common spellings of castling with zeros and trailing annotations.
        let cleaned = text.replace('0', "O");
        let cleaned = cleaned.trim_end_matches(['!', '?']);
        match cleaned.parse::<San>() {
            Ok(san) => san.to_move(pos).map_err(|e| IllegalMove(format!("{text}: {e}"))),
            Err(_) => Err(IllegalMove(format!("{text} is not a move in SAN or UCI notation"))),
        }
    }

    /// Plays a legal move; an illegal one fails without changing anything. Moves after a
    /// repetition or the fiftieth move stay playable (recorded games go on when nobody
    /// claims); whoever runs the game stops it when [`GameRecord::ending`] says so.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        let pos = self.position();
        if !pos.is_legal(m) {
            return Err(IllegalMove(format!("{} is not legal here", m.to_uci(CastlingMode::Standard))));
        }
        let mut next = pos.clone();
        let san = shakmaty::san::SanPlus::from_move_and_play_unchecked(&mut next, m);
        self.hashes.push(hash_of(&next));
        self.positions.push(next);
        self.moves.push(m);
        self.sans.push(san.to_string());
        self.update_ending();
        Ok(())
    }

    /// Parses (see [`GameRecord::parse_move`]) and plays a move.
    pub fn play_text(&mut self, text: &str) -> Result<Move, IllegalMove> {
        let m = self.parse_move(text)?;
        self.play(m)?;
        Ok(m)
    }

    /// Keeps only the first `plies` moves (taking back the rest).
    pub fn truncate(&mut self, plies: usize) {
        if plies < self.moves.len() {
            self.moves.truncate(plies);
            self.sans.truncate(plies);
            self.positions.truncate(plies + 1);
            self.hashes.truncate(plies + 1);
            self.update_ending();
        }
    }

    /// How often the current position has occurred, counting this one.
    #[must_use]
    pub fn repetitions(&self) -> usize {
        let current = self.hashes[self.hashes.len() - 1];
        // Only positions since the last irreversible move can repeat.
        let window = self.position().halfmoves() as usize + 1;
        self.hashes.iter().rev().take(window).filter(|&&h| h == current).count()
    }

    fn update_ending(&mut self) {
        let pos = self.position();
        let winner = !pos.turn();
        let ending = if pos.is_checkmate() {
            Some((KnownOutcome::Decisive { winner }, Termination::Checkmate))
        } else if pos.is_stalemate() {
            Some((KnownOutcome::Draw, Termination::Stalemate))
        } else if pos.is_insufficient_material() {
            Some((KnownOutcome::Draw, Termination::InsufficientMaterial))
        } else if self.repetitions() >= 3 {
            Some((KnownOutcome::Draw, Termination::ThreefoldRepetition))
        } else if pos.halfmoves() >= 100 {
            Some((KnownOutcome::Draw, Termination::FiftyMoveRule))
        } else {
            None
        };
        self.ending = ending.map(|(outcome, termination)| Ending { outcome, termination });
        let result = self.ending.map_or("*", |e| e.outcome.as_str()).to_string();
        set_in(&mut self.tags, "Result", &result);
    }
}

fn hash_of(pos: &Chess) -> u64 {
    let hash: Zobrist64 = pos.zobrist_hash(EnPassantMode::Legal);
    hash.0
}

fn set_in(tags: &mut Vec<(String, String)>, name: &str, value: &str) {
    match tags.iter_mut().find(|(n, _)| n == name) {
        Some((_, v)) => *v = value.to_string(),
        None => tags.push((name.to_string(), value.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play_all(game: &mut GameRecord, moves: &str) {
        for m in moves.split_whitespace() {
            game.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        }
    }

    #[test]
    fn threefold_repetition_ends_the_game() {
        let mut game = GameRecord::new();
        play_all(&mut game, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
        assert_eq!(game.ending(), None);
        play_all(&mut game, "Ng8");
        assert_eq!(game.ending().map(|e| e.termination), Some(Termination::ThreefoldRepetition));
        assert_eq!(game.result(), "1/2-1/2");
        play_all(&mut game, "e4");
        assert_eq!(game.ending(), None, "a recorded game may go on after an unclaimed repetition");
        game.truncate(8);
        assert_eq!(game.result(), "1/2-1/2");
        game.truncate(7);
        assert_eq!(game.ending(), None);
        assert_eq!(game.result(), "*");
    }

    #[test]
    fn fifty_move_rule_and_insufficient_material() {
        let mut game = GameRecord::from_fen("8/8/8/4k3/8/8/8/R3K3 w - - 99 80").unwrap();
        play_all(&mut game, "Ra2");
        assert_eq!(game.ending().map(|e| e.termination), Some(Termination::FiftyMoveRule));

        let mut game = GameRecord::from_fen("8/8/8/4k3/8/8/3n4/R3K3 w - - 0 1").unwrap();
        game.play_text("Rxd1").unwrap_err();
        play_all(&mut game, "Kxd2");
        assert_eq!(game.ending(), None, "rook against king still mates");
        let mut game = GameRecord::from_fen("8/8/8/4k3/8/8/3r4/4K3 w - - 0 1").unwrap();
        play_all(&mut game, "Kxd2");
        assert_eq!(game.ending().map(|e| e.termination), Some(Termination::InsufficientMaterial));
    }

    #[test]
    fn parses_san_uci_and_castling_spellings() {
        let mut game = GameRecord::new();
        play_all(&mut game, "e2e4 e5 Nf3 Nc6 Bc4 Bc5 0-0 g8f6 d4!?");
        assert_eq!(game.san_moves()[6], "O-O");
        assert!(game.play_text("b8a6").is_err(), "the b8 knight has left");
        assert!(game.play_text("Qh7").is_err());
        assert!(game.play_text("zz9").is_err());
        assert!(game.play_text("").is_err());
        assert_eq!(game.len(), 9, "failed moves change nothing");
        assert_eq!(game.position_at(1).turn(), Color::Black);
    }
}
