//! The record of one game: where it started, the moves played as a tree of main line and
//! variations with their comments and annotation glyphs, its tags and how it ended.

mod annotation;
mod node;
mod replace;

pub use annotation::{Eval, Nag, clock_in, eval_in, nag_symbol};
pub(crate) use annotation::{clock_command, eval_command, take_commands};
pub use node::{Node, NodeId};

use std::fmt;
use std::time::Duration;

use shakmaty::fen::Fen;
use shakmaty::san::{San, SanPlus};
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
    /// Neither side has the material to mate: the position is dead.
    InsufficientMaterial,
    /// A draw claimed when the same position occurred for the third time.
    ThreefoldRepetition,
    /// A draw claimed after fifty moves by each side without a capture or a pawn move.
    FiftyMoveRule,
    /// The same position occurred for the fifth time: drawn without a claim.
    FivefoldRepetition,
    /// Seventy-five moves by each side without a capture or a pawn move: drawn without a claim.
    SeventyFiveMoveRule,
    /// A side resigned.
    Resignation,
    /// The players agreed to a draw.
    Agreement,
    /// A side's time ran out and the other could still mate.
    TimeForfeit,
    /// A side's time ran out but the other could not mate by any series of legal moves.
    TimeoutVsInsufficientMaterial,
    /// An arbiter's rule decided the game before its natural end (a move limit, a match's
    /// draw or win rule).
    Adjudication,
    /// A side broke the rules: an engine sent an illegal move.
    RulesInfraction,
    /// A side left the game: an engine crashed or stopped answering.
    Abandoned,
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
            Termination::FivefoldRepetition => "fivefold repetition",
            Termination::SeventyFiveMoveRule => "the seventy-five-move rule",
            Termination::Resignation => "resignation",
            Termination::Agreement => "agreement",
            Termination::TimeForfeit => "time forfeit",
            Termination::TimeoutVsInsufficientMaterial => "timeout against insufficient material",
            Termination::Adjudication => "adjudication",
            Termination::RulesInfraction => "a rules infraction",
            Termination::Abandoned => "abandonment",
        }
    }

    /// The PGN `Termination` tag's value.
    #[must_use]
    pub fn pgn_tag(self) -> &'static str {
        match self {
            Termination::TimeForfeit | Termination::TimeoutVsInsufficientMaterial => "time forfeit",
            Termination::Adjudication => "adjudication",
            Termination::RulesInfraction => "rules infraction",
            Termination::Abandoned => "abandoned",
            _ => "normal",
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

impl Ending {
    /// A decisive ending.
    #[must_use]
    pub fn win(winner: Color, termination: Termination) -> Ending {
        Ending { outcome: KnownOutcome::Decisive { winner }, termination }
    }

    /// A drawn ending.
    #[must_use]
    pub fn draw(termination: Termination) -> Ending {
        Ending { outcome: KnownOutcome::Draw, termination }
    }
}

impl fmt::Display for Ending {
    /// "White wins by checkmate", "Draw by stalemate", "Black wins: White resigned".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = |c: Color| if c == Color::White { "White" } else { "Black" };
        match (self.outcome, self.termination) {
            (KnownOutcome::Decisive { winner }, Termination::Resignation) => {
                write!(f, "{} wins: {} resigned", name(winner), name(!winner))
            }
            (KnownOutcome::Decisive { winner }, Termination::TimeForfeit) => {
                write!(f, "{} wins on time", name(winner))
            }
            (KnownOutcome::Decisive { winner }, Termination::RulesInfraction) => {
                write!(f, "{} wins: {} broke the rules", name(winner), name(!winner))
            }
            (KnownOutcome::Decisive { winner }, Termination::Abandoned) => {
                write!(f, "{} wins: {} left the game", name(winner), name(!winner))
            }
            (KnownOutcome::Decisive { winner }, t) => write!(f, "{} wins by {}", name(winner), t.describe()),
            (KnownOutcome::Draw, t) => write!(f, "Draw by {}", t.describe()),
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

/// One game: the start position, the moves played and the PGN tags. The moves form a tree:
/// every node ([`NodeId`]) may have several continuations, the first being the main line and
/// the others variations, each move with its comments and annotation glyphs. Every move in it
/// is legal, and the ending of the main line is detected as moves are played.
///
/// The methods without a node argument (`play`, `moves`, `len`, `truncate`...) act on the main
/// line; the `*_at` methods and the editing methods address any node.
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
///
/// // A different move from a past position becomes a variation.
/// let after_f3 = game.main_line()[1];
/// let var = game.play_text_at(after_f3, "d5").unwrap();
/// assert_eq!(game.node(after_f3).unwrap().children().len(), 2);
/// game.promote_to_main(var);
/// assert_eq!(game.san_moves(), ["f3", "d5"]);
/// ```
#[derive(Clone, Debug)]
pub struct GameRecord {
    tags: Vec<(String, String)>,
    /// Every node ever created; `nodes[0]` is the root. Deleted nodes stay as tombstones so
    /// that ids never change meaning.
    nodes: Vec<Node>,
    /// The main line: `main[0]` is the root, `main[i]` the node after `i` moves.
    main: Vec<NodeId>,
    moves: Vec<Move>,
    sans: Vec<String>,
    custom_start: bool,
    ending: Option<Ending>,
    /// An ending by resignation, agreement, claim or flag, set by [`GameRecord::finish`].
    finished: Option<Ending>,
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
        Self::from_fen_in(fen, CastlingMode::Standard)
    }

    /// A game from a FEN under the castling rules of standard chess or Chess960 (X-FEN or
    /// Shredder-FEN castling rights). The game keeps those rules: see
    /// [`GameRecord::castling_mode`].
    ///
    /// ```
    /// use kibitz_engine::GameRecord;
    /// use shakmaty::{CastlingMode, Position};
    /// let fen = "4k3/8/8/8/8/8/8/1R2K1R1 w GB - 0 1";
    /// let mut game = GameRecord::from_fen_in(fen, CastlingMode::Chess960).unwrap();
    /// assert_eq!(game.castling_mode(), CastlingMode::Chess960);
    /// assert_eq!(game.tag("Variant"), Some("Chess960"));
    /// // X-FEN: the outer rooks are K and Q.
    /// assert_eq!(game.start_fen().unwrap(), "4k3/8/8/8/8/8/8/1R2K1R1 w KQ - 0 1");
    /// game.play_text("O-O").unwrap();
    /// assert_eq!(game.position().board().to_string(), "4k3/8/8/8/8/8/8/1R3RK1");
    /// assert!(GameRecord::from_fen(fen).is_err(), "not a standard chess position");
    /// ```
    pub fn from_fen_in(fen: &str, mode: CastlingMode) -> Result<Self, IllegalMove> {
        let fen = fen.trim();
        let parsed: Fen = fen.parse().map_err(|e| IllegalMove(format!("This FEN cannot be read: {e}.")))?;
        let pos: Chess = parsed
            .into_position(mode)
            .map_err(|e| IllegalMove(format!("This FEN is not a legal position: {e}.")))?;
        Ok(Self::from_position(pos))
    }

    /// The castling rules of the game: [`CastlingMode::Chess960`] for a Chess960 game (its
    /// start position says so), else [`CastlingMode::Standard`].
    #[must_use]
    pub fn castling_mode(&self) -> CastlingMode {
        self.start().castles().mode()
    }

    fn with_start(start: Chess, custom_start: bool) -> Self {
        let mut tags: Vec<(String, String)> =
            SEVEN_TAGS.iter().map(|name| (name.to_string(), "?".to_string())).collect();
        set_in(&mut tags, "Result", "*");
        if start.castles().mode() == CastlingMode::Chess960 {
            set_in(&mut tags, "Variant", "Chess960");
        }
        let hash = hash_of(&start);
        let mut game = GameRecord {
            tags,
            nodes: vec![Node::new(None, None, String::new(), start, hash, 0)],
            main: vec![NodeId::ROOT],
            moves: Vec::new(),
            sans: Vec::new(),
            custom_start,
            ending: None,
            finished: None,
        };
        game.update_ending();
        game
    }

    /// The position the game started from.
    #[must_use]
    pub fn start(&self) -> &Chess {
        &self.nodes[0].position
    }

    /// The start position's FEN when it is not the initial position or the game is Chess960
    /// (PGN's `FEN` tag; castling rights in X-FEN, file letters where `KQkq` would be unclear).
    #[must_use]
    pub fn start_fen(&self) -> Option<String> {
        (self.custom_start || self.castling_mode() == CastlingMode::Chess960)
            .then(|| Fen::from_position(self.start(), EnPassantMode::Legal).to_string())
    }

    /// The current position: the end of the main line.
    #[must_use]
    pub fn position(&self) -> &Chess {
        &self.nodes[self.main_end().index()].position
    }

    /// The position after `ply` moves of the main line (clamped to the last one).
    #[must_use]
    pub fn position_at(&self, ply: usize) -> &Chess {
        &self.nodes[self.main[ply.min(self.moves.len())].index()].position
    }

    /// The moves of the main line, in order.
    #[must_use]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The moves of the main line, in SAN with check and mate suffixes.
    #[must_use]
    pub fn san_moves(&self) -> &[String] {
        &self.sans
    }

    /// Number of moves of the main line (plies).
    #[must_use]
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether no move was played yet.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// How the main line ended, if it did: by the rules (mate, stalemate, insufficient material,
    /// fivefold repetition, seventy-five moves) or as [`GameRecord::finish`] recorded.
    #[must_use]
    pub fn ending(&self) -> Option<Ending> {
        self.finished.or(self.ending)
    }

    /// Ends the game at its current position by resignation, agreement, a claim or a flag,
    /// setting the `Result` and `Termination` tags. Playing on or taking back a move undoes it.
    pub fn finish(&mut self, ending: Ending) {
        self.finished = Some(ending);
        set_in(&mut self.tags, "Result", ending.outcome.as_str());
        set_in(&mut self.tags, "Termination", ending.termination.pgn_tag());
    }

    /// The draw the side to move may claim now: threefold repetition or the fifty-move rule.
    #[must_use]
    pub fn claimable(&self) -> Option<Termination> {
        let id = self.main_end();
        if self.repetitions_at(id) >= 3 {
            Some(Termination::ThreefoldRepetition)
        } else if self.position().halfmoves() >= 100 {
            Some(Termination::FiftyMoveRule)
        } else {
            None
        }
    }

    /// The draw the side to move may claim by announcing `m` (FIDE 9.2.1): the move would
    /// repeat a position for the third time or complete fifty moves.
    #[must_use]
    pub fn claimable_with(&self, m: Move) -> Option<Termination> {
        let pos = self.position();
        if !pos.is_legal(m) {
            return None;
        }
        let mut next = pos.clone();
        next.play_unchecked(m);
        let hash = hash_of(&next);
        let window = next.halfmoves() as usize;
        let earlier =
            self.main.iter().rev().take(window).filter(|&&id| self.nodes[id.index()].hash == hash).count();
        if earlier >= 2 {
            Some(Termination::ThreefoldRepetition)
        } else if next.halfmoves() >= 100 {
            Some(Termination::FiftyMoveRule)
        } else {
            None
        }
    }

    /// The PGN result: the ending's if the game ended, else the `Result` tag.
    #[must_use]
    pub fn result(&self) -> &str {
        match self.ending() {
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

    /// Removes a tag. The Seven Tag Roster stays: removing one of those does nothing.
    /// Returns whether a tag was removed.
    pub fn remove_tag(&mut self, name: &str) -> bool {
        let before = self.tags.len();
        if !SEVEN_TAGS.contains(&name) {
            self.tags.retain(|(n, _)| n != name);
        }
        self.tags.len() < before
    }

    /// All tags in order, the Seven Tag Roster first.
    #[must_use]
    pub fn tags(&self) -> &[(String, String)] {
        &self.tags
    }

    /// Reads a move typed by a person, in SAN (`Nf3`, `exd5`, `O-O`, `e8=Q+`) or UCI
    /// (`g1f3`, `e7e8q`) notation, in the current position.
    pub fn parse_move(&self, text: &str) -> Result<Move, IllegalMove> {
        parse_move_in(self.position(), text)
    }

    /// Plays a legal move at the end of the main line; an illegal one fails without changing
    /// anything. Moves after a repetition or the fiftieth move stay playable (recorded games go
    /// on when nobody claims); whoever runs the game stops it when [`GameRecord::ending`] says so.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        self.play_at(self.main_end(), m).map(|_| ())
    }

    /// Parses (see [`GameRecord::parse_move`]) and plays a move.
    pub fn play_text(&mut self, text: &str) -> Result<Move, IllegalMove> {
        let m = self.parse_move(text)?;
        self.play(m)?;
        Ok(m)
    }

    /// Keeps only the first `plies` moves of the main line (taking back the rest, with every
    /// variation that starts after that point).
    pub fn truncate(&mut self, plies: usize) {
        if plies < self.moves.len() {
            self.delete_after(self.main[plies]);
        }
    }

    /// How often the current position has occurred, counting this one.
    #[must_use]
    pub fn repetitions(&self) -> usize {
        self.repetitions_at(self.main_end())
    }

    // The tree.

    /// The node at `id`, or `None` if it was deleted (or never existed).
    #[must_use]
    pub fn node(&self, id: NodeId) -> Option<&Node> {
        self.nodes.get(id.index()).filter(|n| !n.deleted)
    }

    /// The nodes of the main line: the root first, then one per move.
    #[must_use]
    pub fn main_line(&self) -> &[NodeId] {
        &self.main
    }

    /// The last node of the main line (the root when no move was played).
    #[must_use]
    pub fn main_end(&self) -> NodeId {
        self.main[self.main.len() - 1]
    }

    /// Whether a node lies on the main line.
    #[must_use]
    pub fn is_main_line(&self, id: NodeId) -> bool {
        self.node(id).is_some_and(|n| self.main.get(n.ply) == Some(&id))
    }

    /// The nodes from the root to `id`, both included; empty if `id` does not exist.
    #[must_use]
    pub fn path_to(&self, id: NodeId) -> Vec<NodeId> {
        let mut path = Vec::new();
        let mut at = self.node(id).map(|_| id);
        while let Some(current) = at {
            path.push(current);
            at = self.nodes[current.index()].parent;
        }
        path.reverse();
        path
    }

    /// The node reached by following first children from `id` to the end of its line.
    #[must_use]
    pub fn line_end(&self, id: NodeId) -> NodeId {
        let mut at = id;
        while let Some(&next) = self.node(at).and_then(|n| n.children.first()) {
            at = next;
        }
        at
    }

    /// The position at a node (the start position for an unknown id).
    #[must_use]
    pub fn position_at_node(&self, id: NodeId) -> &Chess {
        self.node(id).map_or(self.start(), Node::position)
    }

    /// Reads a move typed by a person (see [`GameRecord::parse_move`]) in the position at a node.
    pub fn parse_move_at(&self, id: NodeId, text: &str) -> Result<Move, IllegalMove> {
        parse_move_in(self.position_at_node(id), text)
    }

    /// Plays a move from a node: if the node already has that continuation it is reused,
    /// otherwise the move becomes a new variation (the main continuation if it is the first).
    /// Returns the node after the move.
    pub fn play_at(&mut self, id: NodeId, m: Move) -> Result<NodeId, IllegalMove> {
        let Some(node) = self.node(id) else {
            return Err(IllegalMove("That position is no longer in the game".into()));
        };
        if let Some(&child) = node.children.iter().find(|&&c| self.nodes[c.index()].mv == Some(m)) {
            return Ok(child);
        }
        if !node.position.is_legal(m) {
            return Err(IllegalMove(format!("{} is not legal here", m.to_uci(self.castling_mode()))));
        }
        let child = self.add_child(id, m);
        if self.main_end() == child {
            self.update_ending();
        }
        Ok(child)
    }

    /// Parses (see [`GameRecord::parse_move`]) and plays a move from a node, as
    /// [`GameRecord::play_at`] does.
    pub fn play_text_at(&mut self, id: NodeId, text: &str) -> Result<NodeId, IllegalMove> {
        let m = self.parse_move_at(id, text)?;
        self.play_at(id, m)
    }

    /// Adds a legal move as the last continuation of `parent`, without looking for an
    /// existing one or updating the ending (the PGN reader does that once at the end).
    pub(crate) fn add_child(&mut self, parent: NodeId, m: Move) -> NodeId {
        let from = &self.nodes[parent.index()];
        let mut next = from.position.clone();
        let san = SanPlus::from_move_and_play_unchecked(&mut next, m).to_string();
        let id = NodeId(self.nodes.len() as u32);
        let node = Node::new(Some(parent), Some(m), san, next, 0, from.ply + 1);
        self.nodes.push(node);
        let hash = hash_of(&self.nodes[id.index()].position);
        self.nodes[id.index()].hash = hash;
        let parent_node = &mut self.nodes[parent.index()];
        parent_node.children.push(id);
        if parent_node.children.len() == 1 && parent == self.main_end() {
            self.main.push(id);
            self.moves.push(m);
            self.sans.push(self.nodes[id.index()].san.clone());
        }
        id
    }

    /// Mutable access for the PGN reader.
    pub(crate) fn node_mut(&mut self, id: NodeId) -> Option<&mut Node> {
        self.nodes.get_mut(id.index()).filter(|n| !n.deleted)
    }

    /// Moves a variation one place up among its siblings (to the main continuation if it is
    /// the second). Returns whether anything changed.
    pub fn promote_variation(&mut self, id: NodeId) -> bool {
        self.shift_variation(id, -1)
    }

    /// Moves a variation one place down among its siblings. Returns whether anything changed.
    pub fn demote_variation(&mut self, id: NodeId) -> bool {
        self.shift_variation(id, 1)
    }

    /// Makes the line through `id` the main line, at every branch point above it.
    pub fn promote_to_main(&mut self, id: NodeId) {
        let path = self.path_to(id);
        for pair in path.windows(2) {
            let children = &mut self.nodes[pair[0].index()].children;
            if let Some(i) = children.iter().position(|&c| c == pair[1])
                && i > 0
            {
                let child = children.remove(i);
                children.insert(0, child);
            }
        }
        self.rebuild_main_line();
    }

    fn shift_variation(&mut self, id: NodeId, by: isize) -> bool {
        let Some(parent) = self.node(id).and_then(Node::parent) else {
            return false;
        };
        let children = &mut self.nodes[parent.index()].children;
        let Some(i) = children.iter().position(|&c| c == id) else {
            return false;
        };
        let j = i as isize + by;
        if j < 0 || j as usize >= children.len() {
            return false;
        }
        children.swap(i, j as usize);
        if i == 0 || j == 0 {
            self.rebuild_main_line();
        }
        true
    }

    /// Deletes the move at `id` with everything after it (a whole variation when `id` starts
    /// one). The root cannot be deleted. Returns the node it hung from.
    pub fn delete_variation(&mut self, id: NodeId) -> Option<NodeId> {
        let parent = self.node(id)?.parent?;
        self.nodes[parent.index()].children.retain(|&c| c != id);
        self.bury(id);
        self.rebuild_main_line();
        Some(parent)
    }

    /// Deletes every move after `id` (its continuation and all its variations).
    pub fn delete_after(&mut self, id: NodeId) {
        let Some(node) = self.node_mut(id) else { return };
        let children = std::mem::take(&mut node.children);
        for child in children {
            self.bury(child);
        }
        self.rebuild_main_line();
    }

    /// Marks a subtree deleted.
    fn bury(&mut self, id: NodeId) {
        let mut stack = vec![id];
        while let Some(at) = stack.pop() {
            let node = &mut self.nodes[at.index()];
            node.deleted = true;
            stack.append(&mut node.children);
        }
    }

    /// Sets the comment after a move (for the root: before the first move). Braces, which PGN
    /// cannot hold in a comment, become parentheses. The move's clock and evaluation stay.
    pub fn set_comment(&mut self, id: NodeId, text: &str) {
        if let Some(node) = self.node_mut(id) {
            node.comment = clean_comment(text);
        }
    }

    /// Records the clock time the mover had left after a move (`None` forgets it). The
    /// comment stays.
    pub fn set_clock(&mut self, id: NodeId, clock: Option<Duration>) {
        if let Some(node) = self.node_mut(id) {
            node.clock = clock;
        }
    }

    /// Records the engine evaluation after a move (`None` forgets it). The comment stays.
    pub fn set_eval(&mut self, id: NodeId, eval: Option<Eval>) {
        if let Some(node) = self.node_mut(id) {
            node.eval = eval;
        }
    }

    /// Sets the comment before a move (shown at the start of a variation).
    pub fn set_starting_comment(&mut self, id: NodeId, text: &str) {
        if let Some(node) = self.node_mut(id) {
            node.starting_comment = clean_comment(text);
        }
    }

    /// Adds an annotation glyph to a move, unless it already has it.
    pub fn add_nag(&mut self, id: NodeId, nag: Nag) {
        if let Some(node) = self.node_mut(id)
            && !node.nags.contains(&nag)
        {
            node.nags.push(nag);
        }
    }

    /// Removes an annotation glyph from a move.
    pub fn remove_nag(&mut self, id: NodeId, nag: Nag) {
        if let Some(node) = self.node_mut(id) {
            node.nags.retain(|&n| n != nag);
        }
    }

    /// How often the position at a node has occurred on the way to it, counting this one.
    #[must_use]
    pub fn repetitions_at(&self, id: NodeId) -> usize {
        let Some(node) = self.node(id) else { return 0 };
        let current = node.hash;
        // Only positions since the last irreversible move can repeat.
        let window = node.position.halfmoves() as usize + 1;
        let mut count = 0;
        let mut at = Some(id);
        for _ in 0..window {
            let Some(here) = at else { break };
            let n = &self.nodes[here.index()];
            count += usize::from(n.hash == current);
            at = n.parent;
        }
        count
    }

    /// How the game ended at a node, if it did there.
    #[must_use]
    pub fn ending_at(&self, id: NodeId) -> Option<Ending> {
        let pos = self.node(id)?.position();
        let winner = !pos.turn();
        let (outcome, termination) = if pos.is_checkmate() {
            (KnownOutcome::Decisive { winner }, Termination::Checkmate)
        } else if pos.is_stalemate() {
            (KnownOutcome::Draw, Termination::Stalemate)
        } else if pos.is_insufficient_material() {
            (KnownOutcome::Draw, Termination::InsufficientMaterial)
        } else if self.repetitions_at(id) >= 5 {
            (KnownOutcome::Draw, Termination::FivefoldRepetition)
        } else if pos.halfmoves() >= 150 {
            (KnownOutcome::Draw, Termination::SeventyFiveMoveRule)
        } else {
            return None;
        };
        Some(Ending { outcome, termination })
    }

    /// Recomputes the main-line caches after the tree changed shape.
    fn rebuild_main_line(&mut self) {
        let old_end = self.main_end();
        self.main.truncate(1);
        self.moves.clear();
        self.sans.clear();
        let mut at = NodeId::ROOT;
        while let Some(&next) = self.nodes[at.index()].children.first() {
            let node = &self.nodes[next.index()];
            self.main.push(next);
            if let Some(m) = node.mv {
                self.moves.push(m);
            }
            self.sans.push(node.san.clone());
            at = next;
        }
        if self.main_end() != old_end {
            self.update_ending();
        }
    }

    pub(crate) fn update_ending(&mut self) {
        if self.finished.take().is_some() {
            self.tags.retain(|(name, _)| name != "Termination");
        }
        self.ending = self.ending_at(self.main_end());
        let result = self.ending.map_or("*", |e| e.outcome.as_str()).to_string();
        set_in(&mut self.tags, "Result", &result);
    }
}

fn parse_move_in(pos: &Chess, text: &str) -> Result<Move, IllegalMove> {
    let text = text.trim();
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

/// A comment as PGN can hold it: no braces, whitespace runs as single spaces, trimmed.
pub(crate) fn clean_comment(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out.replace('{', "(").replace('}', ")")
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
    fn recording_the_clock_keeps_the_comment() {
        let mut game = GameRecord::new();
        play_all(&mut game, "e4");
        let e4 = game.main_end();
        game.set_comment(e4, "My favourite move");
        game.set_clock(e4, Some(Duration::from_secs(299)));
        game.set_eval(e4, Some(Eval { score: crate::Score::Cp(30), depth: None }));
        let node = game.node(e4).unwrap();
        assert_eq!(node.comment(), "My favourite move");
        assert_eq!(node.clock(), Some(Duration::from_secs(299)));
        game.set_comment(e4, "Changed my mind");
        let node = game.node(e4).unwrap();
        assert_eq!((node.comment(), node.clock()), ("Changed my mind", Some(Duration::from_secs(299))));
        assert_eq!(node.eval().map(|e| e.score), Some(crate::Score::Cp(30)));
    }

    #[test]
    fn threefold_is_a_claim_and_fivefold_ends_the_game() {
        let mut game = GameRecord::new();
        play_all(&mut game, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
        assert_eq!(game.claimable(), None);
        // Announcing Ng8, which repeats the start position a third time, makes a claim valid.
        let ng8 = game.parse_move("Ng8").unwrap();
        assert_eq!(game.claimable_with(ng8), Some(Termination::ThreefoldRepetition));
        assert_eq!(game.claimable_with(game.parse_move("e6").unwrap()), None);
        play_all(&mut game, "Ng8");
        assert_eq!(game.claimable(), Some(Termination::ThreefoldRepetition));
        assert_eq!(game.ending(), None, "a threefold repetition needs a claim");
        game.finish(Ending::draw(Termination::ThreefoldRepetition));
        assert_eq!(game.result(), "1/2-1/2");
        assert_eq!(game.tag("Termination"), Some("normal"));
        // Taking the move back undoes the claim.
        game.truncate(7);
        assert_eq!((game.ending(), game.result(), game.tag("Termination")), (None, "*", None));
        play_all(&mut game, "Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
        assert_eq!(game.ending(), None, "four times");
        play_all(&mut game, "Ng8");
        assert_eq!(game.ending().map(|e| e.termination), Some(Termination::FivefoldRepetition));
        assert_eq!(game.result(), "1/2-1/2");
    }

    #[test]
    fn fifty_moves_are_a_claim_seventy_five_end_the_game() {
        let mut game = GameRecord::from_fen("8/8/8/4k3/8/8/8/R3K3 w - - 99 80").unwrap();
        assert_eq!(game.claimable_with(game.parse_move("Ra2").unwrap()), Some(Termination::FiftyMoveRule));
        play_all(&mut game, "Ra2");
        assert_eq!(game.ending(), None);
        assert_eq!(game.claimable(), Some(Termination::FiftyMoveRule));
        let mut game = GameRecord::from_fen("8/8/8/4k3/8/8/8/R3K3 w - - 149 80").unwrap();
        play_all(&mut game, "Ra2");
        assert_eq!(game.ending().map(|e| e.termination), Some(Termination::SeventyFiveMoveRule));
    }

    #[test]
    fn dead_positions_end_the_game_and_resignations_are_recorded() {
        let mut game = GameRecord::from_fen("8/8/8/4k3/8/8/3n4/R3K3 w - - 0 1").unwrap();
        game.play_text("Rxd1").unwrap_err();
        play_all(&mut game, "Kxd2");
        assert_eq!(game.ending(), None, "rook against king still mates");
        let mut game = GameRecord::from_fen("8/8/8/4k3/8/8/3r4/4K3 w - - 0 1").unwrap();
        play_all(&mut game, "Kxd2");
        assert_eq!(game.ending().map(|e| e.termination), Some(Termination::InsufficientMaterial));

        let mut game = GameRecord::new();
        play_all(&mut game, "e4");
        game.finish(Ending::win(Color::White, Termination::Resignation));
        assert_eq!(game.ending().unwrap().to_string(), "White wins: Black resigned");
        assert_eq!(game.result(), "1-0");
        let flag = Ending::win(Color::Black, Termination::TimeForfeit);
        game.finish(flag);
        assert_eq!(
            (flag.to_string().as_str(), game.tag("Termination")),
            ("Black wins on time", Some("time forfeit"))
        );
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

    #[test]
    fn edits_the_tree() {
        let mut game = GameRecord::new();
        play_all(&mut game, "e4 e5 Nf3");
        let [root, e4, e5, nf3] = [0, 1, 2, 3].map(|i| game.main_line()[i]);
        assert_eq!(game.play_text_at(e4, "e5").unwrap(), e5, "an existing move is reused");
        let c5 = game.play_text_at(e4, "c5").unwrap();
        let nf3_in_var = game.play_text_at(c5, "Nf3").unwrap();
        assert!(!game.is_main_line(c5));
        assert_eq!(game.position_at_node(nf3_in_var).fullmoves().get(), 2);
        assert_eq!(game.node(e4).unwrap().children(), [e5, c5]);
        assert!(game.promote_variation(c5));
        assert_eq!(game.san_moves(), ["e4", "c5", "Nf3"]);
        assert!(game.demote_variation(c5));
        assert_eq!(game.san_moves(), ["e4", "e5", "Nf3"]);
        game.set_comment(nf3, "Natural {move}");
        game.add_nag(nf3, Nag(1));
        game.add_nag(nf3, Nag(1));
        assert_eq!(game.node(nf3).unwrap().comment(), "Natural (move)");
        assert_eq!(game.node(nf3).unwrap().nags(), [Nag(1)]);
        let text = crate::write_pgn(&game);
        assert!(text.contains("1. e4 e5 (1... c5 2. Nf3) 2. Nf3 $1 {Natural (move)} *"), "{text}");
        game.remove_nag(nf3, Nag(1));
        assert_eq!(game.delete_variation(c5), Some(e4));
        assert!(game.node(nf3_in_var).is_none(), "deleted ids resolve to nothing");
        game.delete_after(root);
        assert!(game.is_empty());
        assert_eq!(game.position_at_node(nf3), game.start(), "a stale id falls back to the start");
    }

    #[test]
    fn tags_are_removed_but_the_roster_stays() {
        let mut game = GameRecord::new();
        game.set_tag("Annotator", "Kibitz");
        assert!(game.remove_tag("Annotator"));
        assert_eq!(game.tag("Annotator"), None);
        assert!(!game.remove_tag("Annotator"), "already gone");
        assert!(!game.remove_tag("White"), "the Seven Tag Roster stays");
        assert_eq!(game.tag("White"), Some("?"));
    }
}
