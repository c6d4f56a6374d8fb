//! Crafty's own test suite format (its `test` command):
//!
//! ```text
//! title wac299
//! setboard 1n2rr2/1pk3pp/pNn2p2/2N1p3/8/6P1/PP2PPKP/2RR4 w
//! solution Nca4
//!
//! end
//! ```
//!
//! `title` names the next position (optional), `setboard` sets it up in Crafty's forgiving
//! FEN (a rank need not account for all eight squares; castling and en passant are optional),
//! and `solution` gives its key moves, a move followed by `?` being one that must not be
//! played; it completes the test. `end`, or the end of the file, ends the suite. Blank lines
//! and `#` comments are skipped.

use super::{EpdSuiteError, EpdTest};

/// The commands that start a Crafty suite (and tell its format from EPD).
pub(super) const COMMANDS: [&str; 3] = ["title", "setboard", "solution"];

/// Parses a suite in Crafty's format.
pub(super) fn parse(text: &str) -> Result<Vec<EpdTest>, EpdSuiteError> {
    let mut tests = Vec::new();
    let mut title: Option<String> = None;
    // The position set up and waiting for its solution, with its line.
    let mut pending: Option<(EpdTest, usize)> = None;
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        let bad = |why: String| EpdSuiteError::BadLine { number, why };
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (command, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match command {
            "title" => title = Some(rest.to_owned()),
            "setboard" => {
                if let Some((_, at)) = &pending {
                    return Err(bad(format!("the position set up on line {at} has no solution")));
                }
                let mut test = setboard(rest).map_err(bad)?;
                if let Some(title) = title.take().filter(|t| !t.is_empty()) {
                    test.id = title;
                }
                pending = Some((test, number));
            }
            "solution" => {
                let Some((mut test, _)) = pending.take() else {
                    return Err(bad("a solution without a setboard before it".into()));
                };
                if rest.is_empty() {
                    return Err(bad(format!("no move in the solution of {}", test.id)));
                }
                for word in rest.split_whitespace() {
                    match word.strip_suffix('?') {
                        Some(avoid) => test.add_move(avoid, true),
                        None => test.add_move(word, false),
                    }
                    .map_err(bad)?;
                }
                tests.push(test);
            }
            "end" => break,
            other => {
                return Err(bad(format!("'{other}' is not title, setboard, solution or end")));
            }
        }
    }
    if let Some((test, at)) = pending {
        let why = format!("the position set up on line {at} has no solution");
        return Err(EpdSuiteError::BadLine { number: at, why: format!("{why} ({})", test.id) });
    }
    Ok(tests)
}

/// A position from Crafty's `setboard` arguments: the board, then optionally the side to
/// move (White by default), castling rights and the en passant square.
fn setboard(args: &str) -> Result<EpdTest, String> {
    let mut fields = args.split_whitespace();
    let board = fields.next().ok_or("setboard without a position")?;
    let turn = fields.next().unwrap_or("w");
    let castling = fields.next().unwrap_or("-");
    let ep = fields.next().unwrap_or("-");
    EpdTest::at(&full_board(board)?, turn, castling, ep)
}

/// Crafty's board with every rank filled out to eight squares and eight ranks.
fn full_board(board: &str) -> Result<String, String> {
    let mut ranks: Vec<&str> = board.split('/').collect();
    // A trailing slash leaves an empty ninth rank.
    while ranks.len() > 8 && ranks.last().is_some_and(|r| r.is_empty()) {
        ranks.pop();
    }
    if ranks.len() > 8 {
        return Err(format!("more than eight ranks in '{board}'"));
    }
    let mut full = Vec::with_capacity(8);
    for rank in &ranks {
        let squares: u32 = rank.chars().map(|c| c.to_digit(10).unwrap_or(1)).sum();
        match 8u32.checked_sub(squares) {
            Some(0) => full.push((*rank).to_owned()),
            Some(empty) => full.push(format!("{rank}{empty}")),
            None => return Err(format!("more than eight squares in the rank '{rank}' of '{board}'")),
        }
    }
    full.resize(8, "8".to_owned());
    Ok(full.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "\
title wac299
setboard 1n2rr2/1pk3pp/pNn2p2/2N1p3/8/6P1/PP2PPKP/2RR4 w
solution Nca4

title wac300
setboard b2b1r1k/3R1ppp/4qP2/4p1PQ/4P3/5B2/4N1K1/8 w
solution g6

end
title ignored after the end
";

    #[test]
    fn reads_crafty_s_own_sample() {
        let tests = EpdTest::parse_suite(SAMPLE).expect("the sample parses");
        let ids: Vec<&str> = tests.iter().map(|t| t.id.as_str()).collect();
        assert_eq!(ids, ["wac299", "wac300"]);
        let epd =
            EpdTest::parse("1n2rr2/1pk3pp/pNn2p2/2N1p3/8/6P1/PP2PPKP/2RR4 w - - bm Nca4; id \"wac299\";")
                .expect("parses")
                .expect("a test");
        assert_eq!(tests[0], epd);
    }

    #[test]
    fn question_marks_are_moves_to_avoid_and_titles_are_optional() {
        let suite = "setboard 4k3/8/8/3q4/8/8/3R4/4K3 w\nsolution Kf1? Ke2?\n";
        let tests = EpdTest::parse_suite(suite).expect("parses");
        assert_eq!((tests[0].best.len(), tests[0].avoid.len()), (0, 2));
        assert!(tests[0].id.starts_with("4k3/8/8/3q4/8/8/3R4/4K3 w - -"), "{}", tests[0].id);
    }

    #[test]
    fn short_ranks_are_filled_with_empty_squares() {
        // The manual's own example: "k2r/ppp////Q/5PPP/7K/ B".
        assert_eq!(full_board("k2r/ppp////Q/5PPP/7K/"), Ok("k2r4/ppp5/8/8/8/Q7/5PPP/7K".into()));
        assert_eq!(full_board("k7/8"), Ok("k7/8/8/8/8/8/8/8".into()));
        assert!(full_board("k8/8/8/8/8/8/8/K7").is_err());
        assert!(full_board("8/8/8/8/8/8/8/8/8").is_err());
    }

    #[test]
    fn bad_lines_name_their_number() {
        for (text, number, says) in [
            ("title a\nsetboard 6k1/5ppp/8/8/8/8/8/R5K1 w\nsolution Qh5\n", 3, "illegal move 'Qh5'"),
            ("title a\nsolution Ra8\n", 2, "without a setboard"),
            (
                "setboard 6k1/5ppp/8/8/8/8/8/R5K1 w\nsetboard 8/8/8/8/8/8/8/K6k w\n",
                2,
                "line 1 has no solution",
            ),
            ("title a\nsetboard 6k1/5ppp/8/8/8/8/8/R5K1 w\n", 2, "has no solution"),
            ("title a\nsetboard 6k1/5ppp/8/8/8/8/8/R5K1 w\nsolution\n", 3, "no move"),
            ("title a\nsetboard\n", 2, "without a position"),
            ("title a\nsetboard 6k1/5ppp/8/8/8/8/8/R5K1 x\n", 2, "bad position"),
            ("title a\nbogus\n", 2, "'bogus' is not"),
        ] {
            match EpdTest::parse_suite(text) {
                Err(EpdSuiteError::BadLine { number: n, why }) => {
                    assert_eq!(n, number, "{text:?}: {why}");
                    assert!(why.contains(says), "{text:?}: {why}");
                }
                other => panic!("{text:?}: {other:?}"),
            }
        }
        assert_eq!(EpdTest::parse_suite("title only\nend\n"), Err(EpdSuiteError::Empty));
    }
}
