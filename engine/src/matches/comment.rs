//! The comment a match writes after each engine move, as cutechess-cli writes it:
//! `{+0.35/21 1.2s}` is the mover's score in pawns *from the mover's own side* (cutechess's
//! convention, not White's), the depth it was searched to and the time the move cost; mate
//! scores are `+M5` / `-M5` in moves, as UCI's `score mate`; a move without a score is just
//! its time (`{0.8s}`); the opening's moves are `{book}`. The game's last move adds how it
//! ended after a comma: `{+M1/3 0.02s, White mates}`.

use std::fmt;
use std::time::Duration;

use crate::Score;

/// What a move's comment says.
#[derive(Clone, Debug, PartialEq)]
pub enum MoveComment {
    /// An opening move (from the suite, or the engine's own book).
    Book,
    /// A searched move.
    Searched {
        /// The mover's score, from its own side.
        score: Option<Score>,
        /// The depth of the score.
        depth: Option<u32>,
        /// The time the move cost, to a millisecond.
        time: Duration,
    },
}

impl fmt::Display for MoveComment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let MoveComment::Searched { score, depth, time } = self else { return f.write_str("book") };
        if let Some(score) = score {
            match score {
                Score::Cp(0) => f.write_str("0.00")?,
                Score::Cp(cp) => {
                    let sign = if *cp < 0 { '-' } else { '+' };
                    write!(f, "{sign}{}.{:02}", cp.unsigned_abs() / 100, cp.unsigned_abs() % 100)?;
                }
                Score::Mate(n) => write!(f, "{}M{}", if *n < 0 { '-' } else { '+' }, n.unsigned_abs())?,
            }
            if let Some(depth) = depth {
                write!(f, "/{depth}")?;
            }
            f.write_str(" ")?;
        }
        // Three significant digits under ten seconds, as cutechess.
        let ms = time.as_millis();
        let decimals = match ms {
            0..100 => 3,
            100..1000 => 2,
            1000..10_000 => 1,
            _ => 0,
        };
        write!(f, "{:.*}s", decimals, time.as_secs_f64())
    }
}

impl MoveComment {
    /// Reads a comment written by [`fmt::Display`] (or by cutechess), ignoring what follows
    /// a comma: `None` when it is not one.
    ///
    /// ```
    /// use std::time::Duration;
    /// use kibitz_engine::Score;
    /// use kibitz_engine::matches::MoveComment;
    /// let c = MoveComment::parse("-1.20/14 0.35s, White mates").unwrap();
    /// assert_eq!(c, MoveComment::Searched {
    ///     score: Some(Score::Cp(-120)), depth: Some(14), time: Duration::from_millis(350)
    /// });
    /// assert_eq!(MoveComment::parse("book"), Some(MoveComment::Book));
    /// assert_eq!(MoveComment::parse("a fine move"), None);
    /// ```
    #[must_use]
    pub fn parse(text: &str) -> Option<MoveComment> {
        let text = text.split(',').next()?.trim();
        if text == "book" {
            return Some(MoveComment::Book);
        }
        let (eval, time) = match text.split_once(' ') {
            Some((eval, time)) => (Some(eval), time),
            None => (None, text),
        };
        let seconds: f64 =
            time.strip_suffix('s')?.parse().ok().filter(|s: &f64| s.is_finite() && *s >= 0.0)?;
        let time = Duration::try_from_secs_f64(seconds).ok()?;
        let (score, depth) = match eval {
            None => (None, None),
            Some(eval) => {
                let (score, depth) = match eval.split_once('/') {
                    Some((score, depth)) => (score, Some(depth.parse().ok()?)),
                    None => (eval, None),
                };
                (Some(parse_score(score)?), depth)
            }
        };
        Some(MoveComment::Searched { score, depth, time })
    }
}

/// `+0.35`, `-1.20`, `0.00`, `+M3`, `-M2`.
fn parse_score(text: &str) -> Option<Score> {
    let (negative, rest) = match text.as_bytes().first()? {
        b'+' => (false, &text[1..]),
        b'-' => (true, &text[1..]),
        _ => (false, text),
    };
    let sign = if negative { -1 } else { 1 };
    if let Some(moves) = rest.strip_prefix('M') {
        return Some(Score::Mate(sign * moves.parse::<i32>().ok()?));
    }
    let (whole, fraction) = rest.split_once('.')?;
    if fraction.len() != 2 {
        return None;
    }
    let cp = whole.parse::<i32>().ok()?.checked_mul(100)?.checked_add(fraction.parse::<i32>().ok()?)?;
    Some(Score::Cp(sign * cp))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn searched(score: Option<Score>, depth: Option<u32>, ms: u64) -> MoveComment {
        MoveComment::Searched { score, depth, time: Duration::from_millis(ms) }
    }

    #[test]
    fn comments_are_written_as_cutechess_writes_them() {
        assert_eq!(searched(Some(Score::Cp(35)), Some(21), 1234).to_string(), "+0.35/21 1.2s");
        assert_eq!(searched(Some(Score::Cp(-120)), Some(9), 45).to_string(), "-1.20/9 0.045s");
        assert_eq!(searched(Some(Score::Cp(0)), Some(1), 450).to_string(), "0.00/1 0.45s");
        assert_eq!(searched(Some(Score::Mate(-2)), Some(30), 12_600).to_string(), "-M2/30 13s");
        assert_eq!(searched(None, None, 800).to_string(), "0.80s");
        assert_eq!(MoveComment::Book.to_string(), "book");
    }

    #[test]
    fn comments_read_back() {
        for comment in [
            searched(Some(Score::Cp(35)), Some(21), 1200),
            searched(Some(Score::Cp(-5)), Some(3), 7),
            searched(Some(Score::Mate(4)), Some(12), 300),
            searched(Some(Score::Mate(-1)), None, 0),
            searched(None, None, 250),
            MoveComment::Book,
        ] {
            assert_eq!(MoveComment::parse(&comment.to_string()), Some(comment.clone()), "{comment}");
        }
        assert_eq!(
            MoveComment::parse("+M1/3 0.020s, White mates"),
            Some(searched(Some(Score::Mate(1)), Some(3), 20))
        );
        for bad in ["", "+0.3/2 1s", "+0.35/x 1s", "+0.35/2 1", "+0.35/2 -1s", "M/2 1s", "hello world"] {
            assert_eq!(MoveComment::parse(bad), None, "{bad}");
        }
    }
}
