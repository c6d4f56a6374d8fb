//! Counting a PGN file's games and moves while replaying every move, main line and
//! variations, in memory that holds one game at a time: what `kibitz pgn stats` prints. The
//! games are cut and read exactly as the game list and the reader cut and read them; the
//! reader replays them into bare positions (`Positions`), skipping the comments, glyphs,
//! SAN and hashes a whole `GameRecord` keeps.

use std::fmt;
use std::io::{self, Read};

use super::read::replay_game_text;
use super::replay::Positions;
use super::split::GameSplitter;
use crate::PgnError;

/// What [`pgn_stats`] counted.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnStats {
    /// Games in the file.
    pub games: u64,
    /// Legal moves replayed, main lines and variations.
    pub moves: u64,
    /// Games that could not be read whole: an illegal move or a word that is not a move (in
    /// the main line or a variation), unbalanced parentheses, a bad `FEN` tag, a variant Kibitz
    /// does not play, or broken syntax.
    pub errors: u64,
}

impl PgnStats {
    /// The same counts taken from the whole `GameRecord`s that [`read_games`](crate::read_games)
    /// reads: slower than [`pgn_stats`], which must agree with it (the fuzzing and the tests
    /// check that it does).
    #[must_use]
    pub fn of_read_games(input: &[u8]) -> PgnStats {
        let mut stats = PgnStats::default();
        for game in crate::read_games(input) {
            stats.games += 1;
            match game {
                Ok(game) => stats.moves += tree_moves(&game),
                Err(e) => {
                    stats.errors += 1;
                    stats.moves += e.partial.as_deref().map_or(0, tree_moves);
                }
            }
        }
        stats
    }
}

/// The moves of a game's tree: main line and variations.
fn tree_moves(game: &crate::GameRecord) -> u64 {
    let mut stack = vec![crate::NodeId::ROOT];
    let mut count = 0;
    while let Some(node) = stack.pop().and_then(|id| game.node(id)) {
        count += node.children().len() as u64;
        stack.extend_from_slice(node.children());
    }
    count
}

impl fmt::Display for PgnStats {
    /// `games 1782 moves 159922 errors 0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "games {} moves {} errors {}", self.games, self.moves, self.errors)
    }
}

/// Reads every game of a PGN stream and replays every move, counting games, moves and the
/// games that broke. Memory holds one game at a time, whatever the size of the stream.
///
/// ```
/// use kibitz_engine::pgn_stats;
/// let text = "1. e4 e5 (1... c5 2. Nf3) 2. Nf3 *\n\n1. e4 e5 2. Ke3 *\n";
/// let stats = pgn_stats(text.as_bytes()).unwrap();
/// assert_eq!(stats.to_string(), "games 2 moves 7 errors 1");
/// ```
pub fn pgn_stats<R: Read>(source: R) -> io::Result<PgnStats> {
    pgn_stats_with(source, &mut |_| {})
}

/// [`pgn_stats`], handing every game's error (located in the stream) to `error`.
pub fn pgn_stats_with<R: Read>(source: R, error: &mut dyn FnMut(&PgnError)) -> io::Result<PgnStats> {
    let mut stats = PgnStats::default();
    let mut games = GameSplitter::new(source);
    while let Some(text) = games.next_game()? {
        stats.games += 1;
        match replay_game_text::<Positions>(&text.bytes, text.line as usize) {
            Ok(tree) => stats.moves += tree.moves(),
            Err((e, partial)) => {
                stats.errors += 1;
                stats.moves += partial.map_or(0, |tree| tree.moves());
                error(&e);
            }
        }
    }
    Ok(stats)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats(text: &[u8]) -> (PgnStats, Vec<String>) {
        let mut errors = Vec::new();
        let stats = pgn_stats_with(text, &mut |e| errors.push(e.to_string())).expect("in memory");
        (stats, errors)
    }

    #[test]
    fn garbage_is_an_error_not_an_empty_game() {
        let (counted, errors) = stats(b"hello world");
        assert_eq!(counted.to_string(), "games 1 moves 0 errors 1");
        assert_eq!(errors, ["line 1, column 1: \"hello\" is not a move."]);

        let (counted, errors) = stats(b"1. e4 Zz9 e5 Nf9 Nf3 *");
        assert_eq!(counted.to_string(), "games 1 moves 1 errors 1");
        assert_eq!(errors, ["line 1, column 7: \"Zz9\" is not a move."]);

        let random: Vec<u8> = (0u32..4096).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
        let (counted, errors) = stats(&random);
        assert!(counted.games > 0 && counted.errors == counted.games, "{counted}");
        assert!(errors.iter().all(|e| e.starts_with("line ")), "{errors:?}");
    }

    #[test]
    fn unbalanced_parentheses_are_located_errors() {
        let open = "(".repeat(10_000);
        let (counted, errors) = stats(format!("1. e4 e5 {open}\n").as_bytes());
        assert_eq!(counted.to_string(), "games 1 moves 2 errors 1");
        assert!(
            errors[0].starts_with("line 1, column 10: This \"(\" starts a variation that is never closed")
        );

        let (counted, errors) = stats(b"1. e4 e5 ) 2. Nf3 *");
        assert_eq!(counted.to_string(), "games 1 moves 3 errors 1");
        assert_eq!(errors, ["line 1, column 10: This \")\" closes no variation."]);
    }

    #[test]
    fn white_space_and_byte_order_marks_hold_no_game() {
        assert_eq!(stats(b" \xef\xbb\xbf").0, PgnStats::default());
        assert_eq!(stats(b"").0, PgnStats::default());
    }
}
