//! Judges the resignations and agreed draws of a `kibitz selfplay --remarks FILE` run with
//! Stockfish, and counts how the games ended (issue 18's accuracy check).
//!
//! ```text
//! cargo run --release -p kibitz-engine --example judge_policy -- REMARKS.tsv [DEPTH] [STOCKFISH]
//! ```
//!
//! (defaults: depth 20, `/usr/games/stockfish`, one thread, 64 MB hash). A resignation is
//! wrong when Stockfish does not see the resigning side at least 3 pawns behind in the
//! position where it resigned; an agreed draw is wrong when Stockfish sees either side more
//! than 1.5 pawns ahead in the position where it was accepted. The last line is
//! `games G decisive D resigned R drawn N agreed A wrong-resignations W wrong-agreements V
//! earliest-offer M`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitCode, Stdio};

/// A resignation is right from this deficit on, for the resigner (centipawns).
const RESIGN_BEHIND: i32 = 300;
/// An agreed draw is wrong beyond this lead for either side (centipawns).
const DRAW_AHEAD: i32 = 150;

/// Stockfish, spoken to over UCI.
struct Referee {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Referee {
    fn start(path: &str) -> std::io::Result<Referee> {
        let mut child = Command::new(path).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn()?;
        let input = child.stdin.take().ok_or_else(|| std::io::Error::other("no stdin"))?;
        let output = BufReader::new(child.stdout.take().ok_or_else(|| std::io::Error::other("no stdout"))?);
        let mut referee = Referee { child, input, output };
        referee.send("uci\nsetoption name Threads value 1\nsetoption name Hash value 64\nisready")?;
        referee.until("readyok")?;
        Ok(referee)
    }

    fn send(&mut self, text: &str) -> std::io::Result<()> {
        writeln!(self.input, "{text}")?;
        self.input.flush()
    }

    /// The lines up to the one starting with `prefix`, which is the last.
    fn until(&mut self, prefix: &str) -> std::io::Result<Vec<String>> {
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            if self.output.read_line(&mut line)? == 0 {
                return Err(std::io::Error::other("Stockfish ended"));
            }
            let done = line.starts_with(prefix);
            lines.push(line.trim_end().to_owned());
            if done {
                return Ok(lines);
            }
        }
    }

    /// The score of `fen` for the side to move, mates as ±100000.
    fn score(&mut self, fen: &str, depth: u32) -> std::io::Result<i32> {
        self.send("ucinewgame")?;
        self.send(&format!("position fen {fen}\ngo depth {depth}"))?;
        let lines = self.until("bestmove")?;
        let mut score = 0;
        for line in lines.iter().filter(|l| l.starts_with("info ") && !l.contains("bound")) {
            let words: Vec<&str> = line.split_whitespace().collect();
            if let Some(i) = words.iter().position(|w| *w == "score") {
                let value: i32 = words.get(i + 2).and_then(|v| v.parse().ok()).unwrap_or(0);
                score = match words.get(i + 1) {
                    Some(&"mate") if value > 0 => 100_000 - value,
                    Some(&"mate") => -100_000 - value,
                    _ => value,
                };
            }
        }
        Ok(score)
    }
}

impl Drop for Referee {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let _ = self.child.wait();
    }
}

/// One row of the remarks file.
struct Row {
    game: String,
    side: String,
    fen: String,
    remark: String,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: judge_policy REMARKS.tsv [DEPTH] [STOCKFISH]");
        return ExitCode::from(2);
    };
    let depth: u32 = args.get(1).and_then(|d| d.parse().ok()).unwrap_or(20);
    let stockfish = args.get(2).map_or("/usr/games/stockfish", String::as_str);
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let rows: Vec<Row> = text
        .lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.splitn(5, '\t').collect();
            let [game, side, _ply, fen, remark] = f.as_slice() else { return None };
            Some(Row {
                game: (*game).into(),
                side: (*side).into(),
                fen: (*fen).into(),
                remark: (*remark).into(),
            })
        })
        .collect();
    let mut referee = match Referee::start(stockfish) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{stockfish}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let (mut games, mut decisive, mut drawn, mut resigned, mut agreed) = (0, 0, 0, 0, 0);
    let (mut wrong_resign, mut wrong_draw) = (0, 0);
    let mut earliest_offer: Option<u32> = None;
    for row in &rows {
        let to_move_white = row.fen.split_whitespace().nth(1) == Some("w");
        if row.side == "-" && (row.remark.starts_with("Draw by") || row.remark.contains(" wins")) {
            games += 1;
            if row.remark.starts_with("Draw by") {
                drawn += 1;
            } else {
                decisive += 1;
            }
        } else if row.remark.contains(" offers a draw") {
            let fullmove = row.fen.split_whitespace().nth(5).and_then(|n| n.parse().ok()).unwrap_or(1);
            earliest_offer = Some(earliest_offer.map_or(fullmove, |e| e.min(fullmove)));
        } else if row.remark.contains(" resigns") || row.remark.contains(" accepts the draw offer") {
            let cp = match referee.score(&row.fen, depth) {
                Ok(cp) => cp,
                Err(e) => {
                    eprintln!("Stockfish: {e}");
                    return ExitCode::FAILURE;
                }
            };
            let resigning = row.remark.contains(" resigns");
            let verdict = if resigning {
                resigned += 1;
                let mover_is_resigner = (row.side == "white") == to_move_white;
                let for_resigner = if mover_is_resigner { cp } else { -cp };
                let wrong = for_resigner > -RESIGN_BEHIND;
                wrong_resign += usize::from(wrong);
                if wrong { "WRONG" } else { "ok" }
            } else {
                agreed += 1;
                let wrong = cp.abs() > DRAW_AHEAD;
                wrong_draw += usize::from(wrong);
                if wrong { "WRONG" } else { "ok" }
            };
            let what = if resigning { "resigned" } else { "agreed a draw" };
            println!(
                "game {} {} {what} at {}: Stockfish {cp:+} cp for the side to move -> {verdict}",
                row.game, row.side, row.fen
            );
        }
    }
    let pct = |n: usize, of: usize| if of == 0 { 0.0 } else { 100.0 * n as f64 / of as f64 };
    println!(
        "decisive games ended by resignation {:.1}%, drawn games by agreement {:.1}%, wrong resignations {:.1}%, wrong agreed draws {:.1}%",
        pct(resigned, decisive),
        pct(agreed, drawn),
        pct(wrong_resign, resigned),
        pct(wrong_draw, agreed)
    );
    println!(
        "games {games} decisive {decisive} resigned {resigned} drawn {drawn} agreed {agreed} wrong-resignations {wrong_resign} wrong-agreements {wrong_draw} earliest-offer {}",
        earliest_offer.map_or("none".to_owned(), |m| m.to_string())
    );
    ExitCode::SUCCESS
}
