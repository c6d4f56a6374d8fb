//! Writing a game as standard PGN (export format): the Seven Tag Roster first, the movetext
//! with comments (each move's clock and evaluation as `[%clk]` and `[%eval]` commands at the
//! start of its comment), annotation glyphs as `$n` and variations in parentheses, wrapped at
//! 80 columns.

use shakmaty::{Color, Position};

use super::variant::{castling_mode_of_variant, variant_tag};
use crate::game::{NodeId, SEVEN_TAGS, clock_command, eval_command};
use crate::{GameRecord, Node};

/// Writes a game as PGN: the Seven Tag Roster first, then `SetUp` and `FEN` for a game that
/// did not start from the initial position or is Chess960, the other tags (a Chess960 game's
/// `Variant` as `Chess960`), and the moves with their
/// comments, glyphs and variations, wrapped at 80 columns. Reading the text back gives the
/// same game.
///
/// ```
/// use kibitz_engine::{GameRecord, read_pgn, write_pgn};
/// let mut game = GameRecord::new();
/// game.play_text("e4").unwrap();
/// let text = write_pgn(&game);
/// assert!(text.starts_with("[Event \"?\"]\n"));
/// assert!(text.ends_with("\n\n1. e4 *\n"));
/// assert_eq!(read_pgn(&text).unwrap().san_moves(), ["e4"]);
///
/// let annotated = read_pgn("1. e4 {Best} (1. d4 $1) 1... e5 *").unwrap();
/// assert!(write_pgn(&annotated).ends_with("\n\n1. e4 {Best} (1. d4 $1) 1... e5 *\n"));
/// ```
#[must_use]
pub fn write_pgn(game: &GameRecord) -> String {
    let mut out = String::new();
    let mut write_tag = |name: &str, value: &str| {
        if is_tag_name(name) {
            out.push_str(&format!("[{name} \"{}\"]\n", tag_value(value)));
        }
    };
    for name in SEVEN_TAGS {
        // A Result of `?` reads as the `*` that ends the movetext: it is written as that.
        let value = match name {
            "Result" if game.result() == "?" => "*",
            "Result" => game.result(),
            _ => game.tag(name).unwrap_or("?"),
        };
        write_tag(name, value);
    }
    if let Some(fen) = game.start_fen() {
        write_tag("SetUp", "1");
        write_tag("FEN", &fen);
    }
    let mode = game.castling_mode();
    for (name, value) in game.tags() {
        if SEVEN_TAGS.contains(&name.as_str()) || name == "SetUp" || name == "FEN" {
            continue;
        }
        if name != "Variant" {
            write_tag(name, value);
        } else if let Some(variant) = variant_tag(mode) {
            write_tag(name, variant);
        } else if castling_mode_of_variant(value) == Ok(mode) {
            // A tag naming another variant (a damaged one, or one set by hand) would make the
            // game unreadable: the moves are standard chess, so it is left out.
            write_tag(name, value);
        }
    }
    out.push('\n');

    let mut tokens = Tokens::default();
    if let Some(root) = game.node(NodeId::ROOT) {
        for nag in root.nags() {
            tokens.push(format!("${}", nag.0));
        }
        tokens.comment(&full_comment(root));
    }
    write_line(game, NodeId::ROOT, true, &mut tokens);
    // The movetext ends with a game termination marker; a Result tag holding anything else
    // (a damaged file's) is kept as a tag, and the game ends with `*`.
    let marker = match game.result() {
        r @ ("1-0" | "0-1" | "1/2-1/2" | "*") => r,
        _ => "*",
    };
    tokens.push(marker.to_string());
    wrap(&tokens.list, 80, &mut out);
    out.push('\n');
    out
}

/// Whether a tag name can be written so that it reads back: a PGN symbol (a letter or digit,
/// then letters, digits and `_+#=:-`). Tags with other names (empty, with spaces, quotes or
/// brackets, as damaged files give) are left out.
fn is_tag_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(char::is_alphanumeric)
        && chars.all(|c| c.is_alphanumeric() || matches!(c, '_' | '+' | '#' | '=' | ':' | '-'))
}

/// A tag value as PGN writes it between its quotes: backslashes and quotes escaped, and line
/// breaks and other control characters (which end a tag line) as spaces.
fn tag_value(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' | '"' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Writes the main continuation from `parent` on, with the variations at each branch.
fn write_line(game: &GameRecord, mut parent: NodeId, mut force_number: bool, tokens: &mut Tokens) {
    while let Some(node) = game.node(parent) {
        let Some((&main, variations)) = node.children().split_first() else { break };
        let mut next_force = write_move(game, main, force_number, tokens);
        for &variation in variations {
            tokens.open = true;
            let force = write_move(game, variation, true, tokens);
            write_line(game, variation, force, tokens);
            tokens.close();
            next_force = true;
        }
        force_number = next_force;
        parent = main;
    }
}

/// Writes one move with its number when needed, glyphs and comments. Returns whether the
/// next move needs its number repeated (after a comment).
fn write_move(game: &GameRecord, id: NodeId, mut force_number: bool, tokens: &mut Tokens) -> bool {
    let Some(node) = game.node(id) else { return false };
    if !node.starting_comment().is_empty() {
        tokens.comment(node.starting_comment());
        force_number = true;
    }
    let before = node.parent().and_then(|p| game.node(p)).map_or(game.start(), |p| p.position());
    let number = before.fullmoves().get();
    let san = node.san();
    tokens.push(match before.turn() {
        Color::White => format!("{number}. {san}"),
        Color::Black if force_number => format!("{number}... {san}"),
        Color::Black => san.to_string(),
    });
    for nag in node.nags() {
        tokens.push(format!("${}", nag.0));
    }
    let comment = full_comment(node);
    tokens.comment(&comment);
    !comment.is_empty()
}

/// The comment after a node as PGN holds it: the `[%clk]` and `[%eval]` commands first, then
/// the user's text (`[%clk 0:05:00] [%eval 0.35,18] A fine move`).
fn full_comment(node: &Node) -> String {
    let clock = node.clock().map(clock_command);
    let eval = node.eval().map(eval_command);
    let text = Some(node.comment()).filter(|t| !t.is_empty()).map(str::to_string);
    [clock, eval, text].into_iter().flatten().collect::<Vec<_>>().join(" ")
}

/// The movetext as words that may not be split across lines.
#[derive(Default)]
struct Tokens {
    list: Vec<String>,
    /// A `(` waits to be glued to the next word.
    open: bool,
}

impl Tokens {
    fn push(&mut self, mut token: String) {
        if self.open {
            token.insert(0, '(');
            self.open = false;
        }
        self.list.push(token);
    }

    fn close(&mut self) {
        match self.list.last_mut() {
            Some(last) if !self.open => last.push(')'),
            _ => self.open = false,
        }
    }

    fn comment(&mut self, text: &str) {
        let words: Vec<&str> = text.split_whitespace().collect();
        let last = words.len().saturating_sub(1);
        for (i, word) in words.iter().enumerate() {
            let mut token = String::with_capacity(word.len() + 2);
            if i == 0 {
                token.push('{');
            }
            token.push_str(word);
            if i == last {
                token.push('}');
            }
            self.push(token);
        }
    }
}

/// Joins words with spaces into lines of at most `width` characters (longer words get a line
/// of their own).
fn wrap(words: &[String], width: usize, out: &mut String) {
    let mut line_len = 0;
    for word in words {
        let len = word.chars().count();
        if line_len > 0 && line_len + 1 + len > width {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        line_len += len;
        out.push_str(word);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Eval, Score, read_pgn};

    #[test]
    fn numbers_after_comments_and_variations() {
        let text =
            "{Intro} 1. e4 e5 {Solid} 2. Nf3 (2. f4 {Gambit} exf4 (2... d5) 3. Nf3) (2. Nc3) 2... Nc6 $1 *";
        let game = read_pgn(text).unwrap();
        let written = write_pgn(&game);
        let movetext = written.split("\n\n").nth(1).unwrap().replace('\n', " ");
        assert_eq!(
            movetext.trim(),
            "{Intro} 1. e4 e5 {Solid} 2. Nf3 (2. f4 {Gambit} 2... exf4 (2... d5) 3. Nf3) (2. Nc3) 2... Nc6 $1 *"
        );
        assert_eq!(write_pgn(&read_pgn(&written).unwrap()), written);
    }

    #[test]
    fn clock_and_eval_are_written_first_and_read_back() {
        let text = "{[%clk 0:10:00] Start} 1. e4 { [%eval 0.24] [%clk 0:05:00] } 1... c5 \
            {Sharp [%csl Ga4] [%eval #-3,30] [%clk 0:04:59.5]} {more} \
            2. Nf3 {[%eval x] [%clk 0:04:58] [%clk 0:01:00]} 2... d6 {[%emt 0:00:03]} *";
        let game = read_pgn(text).unwrap();
        let written = write_pgn(&game);
        let movetext = written.split("\n\n").nth(1).unwrap().replace('\n', " ");
        assert_eq!(
            movetext.trim(),
            "{[%clk 0:10:00] Start} 1. e4 {[%clk 0:05:00] [%eval 0.24]} 1... c5 {[%clk 0:04:59.5] \
             [%eval #-3,30] Sharp [%csl Ga4] more} 2. Nf3 {[%clk 0:04:58] [%eval x] [%clk 0:01:00]} \
             2... d6 {[%emt 0:00:03]} *"
        );
        let again = read_pgn(&written).unwrap();
        for (&a, &b) in game.main_line().iter().zip(again.main_line()) {
            let (a, b) = (game.node(a).unwrap(), again.node(b).unwrap());
            assert_eq!((a.clock(), a.eval(), a.comment()), (b.clock(), b.eval(), b.comment()));
        }
        assert_eq!(write_pgn(&again), written);
    }

    #[test]
    fn typed_values_set_by_hand_are_written() {
        let mut game = GameRecord::new();
        game.play_text("e4").unwrap();
        let e4 = game.main_end();
        game.set_comment(e4, "Best by test");
        game.set_clock(e4, Some(std::time::Duration::from_secs(3723)));
        game.set_eval(e4, Some(Eval { score: Score::Cp(-35), depth: Some(18) }));
        assert!(write_pgn(&game).ends_with("1. e4 {[%clk 1:02:03] [%eval -0.35,18] Best by test} *\n"));
        game.set_clock(e4, None);
        game.set_eval(e4, None);
        assert!(write_pgn(&game).ends_with("1. e4 {Best by test} *\n"));
    }

    #[test]
    fn tags_that_would_not_read_back_are_mended_or_left_out() {
        let mut game = read_pgn("[Variant \"Standard\"]\n[ \"empty name\"]\n[Two words \"x\"]\n\n1. e4 *")
            .expect("a standard game");
        game.set_tag("Annotator", "A \"quoted\" \\ name\non two lines");
        game.set_tag("Variant", "crazyhouse");
        let written = write_pgn(&game);
        assert!(written.contains("[Annotator \"A \\\"quoted\\\" \\\\ name on two lines\"]\n"), "{written}");
        assert!(!written.contains("Variant") && !written.contains("empty name"), "{written}");
        assert!(!written.contains("Two words"), "{written}");
        let again = read_pgn(&written).expect("reads back");
        assert_eq!(again.tag("Annotator"), Some("A \"quoted\" \\ name on two lines"));
        assert_eq!(write_pgn(&again), written);
        game.set_tag("Variant", "normal");
        assert!(write_pgn(&game).contains("[Variant \"normal\"]\n"));
    }

    #[test]
    fn starting_comments_and_empty_variations() {
        let game = read_pgn("1. e4 ( {Also} 1. d4 ) ( ) e5 *").unwrap();
        let written = write_pgn(&game);
        assert!(written.contains("1. e4 ({Also} 1. d4) 1... e5 *"), "{written}");
    }
}
