//! The games that taught Kibitz: each game it learns from is kept, newest last, in a PGN file
//! beside the learned data (`learned-games.pgn`, at most [`TAUGHT_GAMES_KEPT`] games, the
//! oldest dropped first), so that for a move the book has learned to prefer or avoid the book
//! editor can show the games in which Kibitz played it. Each game carries the usual tags and
//! `[KibitzSide "White"]` (or `"Black"`): the side Kibitz played.

use std::collections::HashMap;
use std::io;
use std::path::Path;

use shakmaty::{Color, Position};

use crate::book::{book_key, encode_move};
use crate::pgn::{GameSplitter, read_game_text};
use crate::{GameRecord, decode_pgn_text, write_pgn};

/// How many games the file keeps (the newest).
pub const TAUGHT_GAMES_KEPT: usize = 1000;

/// The tag naming the side Kibitz played.
const SIDE_TAG: &str = "KibitzSide";

/// The games Kibitz learned from, as the PGN text of each, oldest first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TaughtGames {
    games: Vec<String>,
}

/// A game that taught a move: where it is in the file, who played it, and when Kibitz played
/// the move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaughtGame {
    /// The game's index in the file (0 for the first game), as the game list numbers it.
    pub index: usize,
    /// The `White` tag.
    pub white: String,
    /// The `Black` tag.
    pub black: String,
    /// The `Date` tag.
    pub date: String,
    /// The result.
    pub result: String,
    /// The side Kibitz played.
    pub engine: Color,
    /// The ply at which Kibitz played the move (0 for White's first move).
    pub ply: usize,
}

/// The games by the moves Kibitz played in them, to answer [`TaughtIndex::taught_by`] at once.
#[derive(Clone, Debug, Default)]
pub struct TaughtIndex {
    games: Vec<TaughtGame>,
    /// (key, move) to (game, ply), in the order of the file.
    moves: HashMap<(u64, u16), Vec<(u32, u32)>>,
}

impl TaughtGames {
    /// No games.
    #[must_use]
    pub fn new() -> Self {
        TaughtGames::default()
    }

    /// The games of a PGN text, split as the game list splits a file (bytes that are not
    /// UTF-8 are read as Latin-1); the text of each game is kept as it is.
    #[must_use]
    pub fn from_pgn(text: &[u8]) -> Self {
        let games = GameSplitter::new(text)
            .map_while(Result::ok)
            .map(|game| decode_pgn_text(&game.bytes).into_owned())
            .collect();
        TaughtGames { games }
    }

    /// Reads the file of games; a file that does not exist holds none.
    ///
    /// # Errors
    /// The file exists but cannot be read.
    pub fn load(path: &Path) -> io::Result<Self> {
        match std::fs::read(path) {
            Ok(bytes) => Ok(TaughtGames::from_pgn(&bytes)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(TaughtGames::new()),
            Err(e) => Err(e),
        }
    }

    /// The file's text: the games one after the other.
    #[must_use]
    pub fn to_pgn(&self) -> String {
        self.games.concat()
    }

    /// Adds a game Kibitz learned from, played as `engine`, dropping the oldest games beyond
    /// [`TAUGHT_GAMES_KEPT`].
    pub fn add(&mut self, game: &GameRecord, engine: Color) {
        let mut game = game.clone();
        game.set_tag(SIDE_TAG, if engine == Color::White { "White" } else { "Black" });
        let mut text = write_pgn(&game);
        text.push('\n');
        // A file whose last game does not end in a blank line, or in a comment left open
        // (edited by hand), gets them, so that the games stay apart.
        if let Some(last) = self.games.last_mut() {
            if last.rfind('{') > last.rfind('}') {
                last.push('}');
            }
            while !last.ends_with("\n\n") {
                last.push('\n');
            }
        }
        self.games.push(text);
        let extra = self.games.len().saturating_sub(TAUGHT_GAMES_KEPT);
        self.games.drain(..extra);
    }

    /// Number of games.
    #[must_use]
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// There are no games.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// The PGN text of the game at `index`, to open it.
    #[must_use]
    pub fn pgn(&self, index: usize) -> Option<&str> {
        self.games.get(index).map(String::as_str)
    }

    /// Reads every game and indexes the moves Kibitz played (in the main line). Games that
    /// cannot be read, or that do not say which side Kibitz played, teach nothing here.
    /// Takes some milliseconds for a thousand games: build it off the UI thread.
    ///
    /// ```
    /// use kibitz_engine::{GameRecord, TaughtGames, book_key, encode_move};
    /// use shakmaty::Color;
    /// let mut game = GameRecord::new();
    /// game.set_tag("White", "Kibitz");
    /// for san in ["e4", "e5", "Nf3"] {
    ///     game.play_text(san).unwrap();
    /// }
    /// let mut games = TaughtGames::new();
    /// games.add(&game, Color::White);
    /// let index = games.index();
    /// let nf3 = index.taught_by(book_key(game.position_at(2)), encode_move(game.moves()[2]));
    /// assert_eq!((nf3[0].index, nf3[0].ply, nf3[0].white.as_str()), (0, 2, "Kibitz"));
    /// let e5 = index.taught_by(book_key(game.position_at(1)), encode_move(game.moves()[1]));
    /// assert!(e5.is_empty(), "Kibitz did not play 1... e5");
    /// ```
    #[must_use]
    pub fn index(&self) -> TaughtIndex {
        let mut index = TaughtIndex::default();
        for (i, text) in self.games.iter().enumerate() {
            let Ok(game) = read_game_text(text.as_bytes(), 1) else { continue };
            let Some(engine) = side_of(&game) else { continue };
            let tag = |name| game.tag(name).unwrap_or("?").to_string();
            let n = index.games.len() as u32;
            index.games.push(TaughtGame {
                index: i,
                white: tag("White"),
                black: tag("Black"),
                date: tag("Date"),
                result: game.result().to_string(),
                engine,
                ply: 0,
            });
            let first = game.start().turn();
            let start = if first == engine { 0 } else { 1 };
            for ply in (start..game.moves().len()).step_by(2) {
                let key = book_key(game.position_at(ply));
                let mv = encode_move(game.moves()[ply]);
                index.moves.entry((key, mv)).or_default().push((n, ply as u32));
            }
        }
        index
    }
}

/// The side Kibitz played: the `KibitzSide` tag, or else the side whose name starts with
/// "Kibitz" (when only one does).
fn side_of(game: &GameRecord) -> Option<Color> {
    match game.tag(SIDE_TAG) {
        Some("White") => return Some(Color::White),
        Some("Black") => return Some(Color::Black),
        _ => {}
    }
    let kibitz = |name| game.tag(name).is_some_and(|n| n.starts_with("Kibitz"));
    match (kibitz("White"), kibitz("Black")) {
        (true, false) => Some(Color::White),
        (false, true) => Some(Color::Black),
        _ => None,
    }
}

impl TaughtIndex {
    /// The games in which Kibitz played `mv` in the position with this key, newest first
    /// (a game that played it twice, after a repetition, is named twice).
    #[must_use]
    pub fn taught_by(&self, key: u64, mv: u16) -> Vec<TaughtGame> {
        let Some(found) = self.moves.get(&(key, mv)) else { return Vec::new() };
        found
            .iter()
            .rev()
            .filter_map(|&(game, ply)| {
                let header = self.games.get(game as usize)?;
                Some(TaughtGame { ply: ply as usize, ..header.clone() })
            })
            .collect()
    }

    /// Number of games indexed.
    #[must_use]
    pub fn games(&self) -> usize {
        self.games.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Ending, Termination};

    fn game(moves: &[&str], white: &str, black: &str, winner: Color) -> GameRecord {
        let mut game = GameRecord::new();
        game.set_tag("White", white);
        game.set_tag("Black", black);
        game.set_tag("Date", "2026.11.24");
        for san in moves {
            game.play_text(san).expect("legal test move");
        }
        game.finish(Ending::win(winner, Termination::Resignation));
        game
    }

    #[test]
    fn the_games_that_played_a_move_are_found_newest_first() {
        let mut games = TaughtGames::new();
        games.add(&game(&["e4", "e5", "Nf3"], "Kibitz", "Ann", Color::White), Color::White);
        games.add(&game(&["d4", "e5", "e4"], "Bob", "Kibitz", Color::White), Color::Black);
        games.add(&game(&["e4", "c5"], "Kibitz", "Cid", Color::Black), Color::White);
        // The file reads back the same, and so does its index.
        let reread = TaughtGames::from_pgn(games.to_pgn().as_bytes());
        assert_eq!(reread, games);
        let index = reread.index();
        assert_eq!(index.games(), 3);
        let start = GameRecord::new();
        let e4 = encode_move(start.parse_move("e4").expect("legal"));
        let found = index.taught_by(book_key(start.position()), e4);
        assert_eq!(found.iter().map(|g| (g.index, g.ply)).collect::<Vec<_>>(), [(2, 0), (0, 0)]);
        assert_eq!(
            (found[0].black.as_str(), found[0].result.as_str(), found[0].date.as_str(), found[0].engine),
            ("Cid", "0-1", "2026.11.24", Color::White)
        );
        // 1... e5 after 1. d4 was Kibitz's, as Black; 1... e5 after 1. e4 was not.
        let d4 = game(&["d4"], "", "", Color::White);
        let e5 = encode_move(d4.parse_move("e5").expect("legal"));
        let found = index.taught_by(book_key(d4.position()), e5);
        assert_eq!(
            found.iter().map(|g| (g.index, g.ply, g.engine)).collect::<Vec<_>>(),
            [(1, 1, Color::Black)]
        );
        let e4_game = game(&["e4"], "", "", Color::White);
        assert!(index.taught_by(book_key(e4_game.position()), e5).is_empty());
        assert!(reread.pgn(1).is_some_and(|text| text.contains("[KibitzSide \"Black\"]")));
    }

    #[test]
    fn only_the_newest_games_are_kept() {
        let mut games = TaughtGames::new();
        for i in 0..TAUGHT_GAMES_KEPT + 5 {
            let mut g = game(&["e4"], "Kibitz", &format!("Opponent {i}"), Color::White);
            g.set_tag("Round", &i.to_string());
            games.add(&g, Color::White);
        }
        assert_eq!(games.len(), TAUGHT_GAMES_KEPT);
        assert!(games.pgn(0).is_some_and(|text| text.contains("Opponent 5\"")));
        let reread = TaughtGames::from_pgn(games.to_pgn().as_bytes());
        assert_eq!(reread.len(), TAUGHT_GAMES_KEPT);
    }

    #[test]
    fn games_that_do_not_say_who_kibitz_was_teach_nothing() {
        let text =
            "[White \"Ann\"]\n[Black \"Bob\"]\n\n1. e4 *\n\n[White \"Kibitz 1.0\"]\n\n1. d4 *\n\nnot a game";
        let games = TaughtGames::from_pgn(text.as_bytes());
        assert_eq!(games.len(), 3);
        let index = games.index();
        assert_eq!(index.games(), 1, "the second game, whose White is Kibitz");
        let start = GameRecord::new();
        let d4 = encode_move(start.parse_move("d4").expect("legal"));
        assert_eq!(index.taught_by(book_key(start.position()), d4)[0].index, 1);
        assert_eq!(TaughtGames::from_pgn(b"").len(), 0);
        // A game added after a last game without a final newline stays a game of its own.
        let mut games = TaughtGames::from_pgn(b"[White \"Kibitz\"]\n\n1. e4 e5 *");
        games.add(&game(&["d4"], "Kibitz", "Ann", Color::White), Color::White);
        let reread = TaughtGames::from_pgn(games.to_pgn().as_bytes());
        assert_eq!(reread.len(), 2);
        assert_eq!(reread.index().games(), 2);
        let mut games = TaughtGames::from_pgn(b"[White \"Kibitz\"]\n\n1. e4 e5 {a comment");
        games.add(&game(&["d4"], "Kibitz", "Ann", Color::White), Color::White);
        assert_eq!(TaughtGames::from_pgn(games.to_pgn().as_bytes()).index().games(), 2);
    }
}
