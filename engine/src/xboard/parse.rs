//! Parsing one line of xboard (CECP v2) input into an [`XboardCommand`], without side
//! effects. Moves stay text: only the session knows the position they apply to.

use std::time::Duration;

use crate::TimeControl;

/// One line of xboard input, understood.
#[derive(Clone, Debug, PartialEq)]
pub enum XboardCommand {
    /// `xboard`: the protocol announcement; nothing to answer.
    Xboard,
    /// `protover N`: answer with the features.
    Protover(u32),
    /// `accepted` / `rejected` feature replies, `random`, `computer`, `name`, `rating`,
    /// `hard`, `easy`, `ics`: nothing to do.
    Ignore,
    /// `new`: the start position, the engine plays Black, no depth limit.
    New,
    /// `cores N`: search on at most N threads (announced with `feature smp=1`).
    Cores(usize),
    /// `level`, `st`: the time control.
    TimeControl(TimeControl),
    /// `sd N`: a depth limit besides the clock.
    Depth(u32),
    /// `sn N`: a node limit besides the clock.
    Nodes(u64),
    /// `time N`: the engine's clock in centiseconds.
    Time(Duration),
    /// `otim N`: the opponent's clock in centiseconds.
    Otim(Duration),
    /// `usermove M`, or a bare move: the opponent's move, as written.
    UserMove(String),
    /// `go`: play the side to move.
    Go,
    /// `force`: play no side, just follow the moves.
    Force,
    /// `?`: move now.
    MoveNow,
    /// `undo`: take back one ply.
    Undo,
    /// `remove`: take back two plies.
    Remove,
    /// `setboard FEN`, as written.
    SetBoard(String),
    /// `analyze`: think about the position until `exit`.
    Analyze,
    /// `exit`: leave analyze mode.
    Exit,
    /// `.`: report the state of the analysis.
    Status,
    /// `hint`: suggest a move to the user.
    Hint,
    /// `draw`: the opponent offers a draw.
    Draw,
    /// `result RESULT {COMMENT}`: the game is over.
    Result(String),
    /// `post`: show thinking.
    Post,
    /// `nopost`: hide thinking.
    NoPost,
    /// `ping N`: answer `pong N` once everything before it is done.
    Ping(String),
    /// `option NAME=VALUE` (or `option NAME` for a button): one of the options the
    /// engine announced with `feature option=...`.
    SetOption(String, String),
    /// `egtpath KIND PATH`: where the endgame tables of a kind are (Kibitz reads `syzygy`).
    EgtPath(String, String),
    /// `quit`.
    Quit,
    /// A known command that could not be understood: the reason and the line.
    Error(String, String),
    /// A command this engine does not know.
    Unknown(String),
}

/// Parses one line of xboard input. Never fails: bad input becomes
/// [`XboardCommand::Error`] or [`XboardCommand::Unknown`].
#[must_use]
pub fn parse_line(line: &str) -> XboardCommand {
    let line = line.trim();
    let (command, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let rest = rest.trim();
    let error = |why: String| XboardCommand::Error(why, line.to_owned());
    let no_args = |cmd: XboardCommand| {
        if rest.is_empty() { cmd } else { error(format!("'{command}' takes no argument")) }
    };
    match command {
        "" => XboardCommand::Ignore,
        "xboard" => XboardCommand::Xboard,
        "protover" => rest
            .parse()
            .map_or_else(|_| error("protover needs a version number".to_owned()), XboardCommand::Protover),
        "accepted" | "rejected" | "random" | "computer" | "name" | "rating" | "hard" | "easy" | "ics"
        | "variant" | "memory" => XboardCommand::Ignore,
        "cores" => {
            rest.parse().map_or_else(|_| error("cores needs a number".to_owned()), XboardCommand::Cores)
        }
        "egtpath" => match rest.split_once(char::is_whitespace) {
            Some((kind, path)) => XboardCommand::EgtPath(kind.to_owned(), path.trim().to_owned()),
            None => error("egtpath needs a kind and a path".to_owned()),
        },
        "option" if rest.is_empty() => error("option needs a name".to_owned()),
        "option" => {
            let (name, value) = rest.split_once('=').unwrap_or((rest, ""));
            XboardCommand::SetOption(name.trim().to_owned(), value.trim().to_owned())
        }
        "new" => no_args(XboardCommand::New),
        "level" | "st" => match line.parse::<TimeControl>() {
            Ok(tc) => XboardCommand::TimeControl(tc),
            Err(e) => error(e.to_string()),
        },
        "sd" => match line.parse::<TimeControl>() {
            Ok(TimeControl::Depth(depth)) => XboardCommand::Depth(depth),
            Ok(_) => error("sd needs a depth".to_owned()),
            Err(e) => error(e.to_string()),
        },
        "sn" => match line.parse::<TimeControl>() {
            Ok(TimeControl::Nodes(nodes)) => XboardCommand::Nodes(nodes),
            Ok(_) => error("sn needs a node count".to_owned()),
            Err(e) => error(e.to_string()),
        },
        "time" | "otim" => match rest.parse::<i64>() {
            // Negative readings (a flag already fell) count as no time left.
            Ok(cs) => {
                let time = Duration::from_millis(u64::try_from(cs).unwrap_or(0).saturating_mul(10));
                if command == "time" { XboardCommand::Time(time) } else { XboardCommand::Otim(time) }
            }
            Err(_) => error(format!("{command} needs centiseconds")),
        },
        "usermove" if !rest.is_empty() && !rest.contains(' ') => XboardCommand::UserMove(rest.to_owned()),
        "usermove" => error("usermove needs one move".to_owned()),
        "go" => no_args(XboardCommand::Go),
        "force" => no_args(XboardCommand::Force),
        "?" => XboardCommand::MoveNow,
        "undo" => no_args(XboardCommand::Undo),
        "remove" => no_args(XboardCommand::Remove),
        "setboard" if !rest.is_empty() => XboardCommand::SetBoard(rest.to_owned()),
        "setboard" => error("setboard needs a FEN".to_owned()),
        "analyze" => XboardCommand::Analyze,
        "exit" => XboardCommand::Exit,
        "." => XboardCommand::Status,
        "hint" => XboardCommand::Hint,
        "draw" => XboardCommand::Draw,
        "result" => XboardCommand::Result(rest.to_owned()),
        "post" => XboardCommand::Post,
        "nopost" => XboardCommand::NoPost,
        "ping" => XboardCommand::Ping(rest.to_owned()),
        "quit" => XboardCommand::Quit,
        // A bare move (xboard without `usermove=1`): coordinate notation.
        text if rest.is_empty() && looks_like_move(text) => XboardCommand::UserMove(text.to_owned()),
        _ => XboardCommand::Unknown(line.to_owned()),
    }
}

/// Whether `text` has the shape of a coordinate move (`e2e4`, `e7e8q`).
fn looks_like_move(text: &str) -> bool {
    let b = text.as_bytes();
    (b.len() == 4 || b.len() == 5)
        && (b'a'..=b'h').contains(&b[0])
        && (b'1'..=b'8').contains(&b[1])
        && (b'a'..=b'h').contains(&b[2])
        && (b'1'..=b'8').contains(&b[3])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands() {
        assert_eq!(parse_line("xboard"), XboardCommand::Xboard);
        assert_eq!(parse_line("protover 2"), XboardCommand::Protover(2));
        assert_eq!(parse_line("new"), XboardCommand::New);
        assert_eq!(
            parse_line("level 40 5 0"),
            XboardCommand::TimeControl(TimeControl::repeating(40, Duration::from_secs(300), Duration::ZERO))
        );
        assert_eq!(
            parse_line("st 5"),
            XboardCommand::TimeControl(TimeControl::MoveTime(Duration::from_secs(5)))
        );
        assert_eq!(parse_line("sd 7"), XboardCommand::Depth(7));
        assert_eq!(parse_line("cores 3"), XboardCommand::Cores(3));
        assert_eq!(parse_line("sn 5000"), XboardCommand::Nodes(5000));
        assert_eq!(parse_line("time 1234"), XboardCommand::Time(Duration::from_millis(12_340)));
        assert_eq!(parse_line("otim -5"), XboardCommand::Otim(Duration::ZERO));
        assert_eq!(parse_line("usermove e2e4"), XboardCommand::UserMove("e2e4".to_owned()));
        assert_eq!(parse_line("e7e8q"), XboardCommand::UserMove("e7e8q".to_owned()));
        assert_eq!(
            parse_line("setboard 8/8/8/8/8/8/8/K1k5 w - - 0 1"),
            XboardCommand::SetBoard("8/8/8/8/8/8/8/K1k5 w - - 0 1".to_owned())
        );
        assert_eq!(
            parse_line("result 1-0 {White mates}"),
            XboardCommand::Result("1-0 {White mates}".to_owned())
        );
        assert_eq!(parse_line("ping 7"), XboardCommand::Ping("7".to_owned()));
        assert_eq!(
            parse_line("option PositionFile=/a b/l.kpos"),
            XboardCommand::SetOption("PositionFile".to_owned(), "/a b/l.kpos".to_owned())
        );
        assert_eq!(parse_line("option Clear"), XboardCommand::SetOption("Clear".to_owned(), String::new()));
        assert_eq!(parse_line("."), XboardCommand::Status);
        assert_eq!(parse_line("?"), XboardCommand::MoveNow);
        assert_eq!(parse_line(""), XboardCommand::Ignore);
    }

    #[test]
    fn garbage_and_malformed_input() {
        assert_eq!(parse_line("fly away"), XboardCommand::Unknown("fly away".to_owned()));
        assert!(matches!(parse_line("\u{1F600}"), XboardCommand::Unknown(_)));
        for bad in [
            "level 40 5",
            "st x",
            "sd 0",
            "time soon",
            "usermove",
            "usermove e2e4 e7e5",
            "setboard",
            "protover",
            "cores",
            "cores many",
            "new game",
            "option",
        ] {
            assert!(matches!(parse_line(bad), XboardCommand::Error(_, _)), "{bad}");
        }
    }
}
