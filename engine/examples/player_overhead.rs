//! What driving an external engine through the `Player` interface costs: a UCI engine plays
//! a game against itself at a fixed node count, and each move's wall time (from sending
//! `Position` and `Go` to receiving `BestMove`) is compared with the time the engine itself
//! reported for the search (its last `info ... time`, whole milliseconds), and with the wall
//! time of the same moves asked over a bare pipe (`position` and `go` written, lines read
//! until `bestmove`), which is the fairer baseline.
//!
//! ```text
//! cargo run --release -p kibitz-engine --example player_overhead -- [ENGINE] [MOVES] [NODES]
//! ```
//!
//! ENGINE defaults to /usr/games/stockfish, MOVES to 200, NODES to 1000. The last line is
//! "overhead <ms> ms per move (Player minus bare pipe)".

use std::io::{BufRead, BufReader, Write};
use std::process::{ExitCode, Stdio};
use std::time::{Duration, Instant};

use kibitz_engine::{Command, EngineConfig, Event, ExternalEngine, Player, Purpose, SearchLimits};
use shakmaty::{CastlingMode, Chess, Position, uci::UciMove};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args.first().map_or("/usr/games/stockfish", String::as_str);
    let moves: u32 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(200);
    let nodes: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let bare = match bare_pipe(path, moves, nodes) {
        Ok(bare) => bare,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let engine = ExternalEngine::spawn(EngineConfig::from_path(path), || {});
    let name = loop {
        match engine.recv_timeout(Duration::from_secs(10)) {
            Some(Event::Ready { name, .. }) => break name,
            Some(Event::Failed(failure)) => {
                eprintln!("{failure}");
                return ExitCode::FAILURE;
            }
            Some(_) => {}
            None => {
                eprintln!("{path}: no handshake within 10 s");
                return ExitCode::FAILURE;
            }
        }
    };
    engine.send(Command::NewGame);
    let (mut wall, mut reported) = (Duration::ZERO, Duration::ZERO);
    let mut played = Vec::new();
    let mut pos = Chess::default();
    for id in 0..u64::from(moves) {
        if pos.is_game_over() {
            played.clear();
            pos = Chess::default();
        }
        let asked = Instant::now();
        engine.send(Command::Position { start: Chess::default(), moves: played.clone() });
        engine.send(Command::Go { id, purpose: Purpose::Play, limits: SearchLimits::nodes(nodes) });
        let (best, time) = loop {
            match engine.recv_timeout(Duration::from_secs(10)) {
                Some(Event::BestMove { id: got, best, time, .. }) if got == id => break (best, time),
                Some(Event::Failed(failure)) => {
                    eprintln!("{failure}");
                    return ExitCode::FAILURE;
                }
                Some(_) => {}
                None => {
                    eprintln!("{name}: no move within 10 s");
                    return ExitCode::FAILURE;
                }
            }
        };
        wall += asked.elapsed();
        reported += time;
        let Some(best) = best else { break };
        pos.play_unchecked(best);
        played.push(best);
    }
    engine.send(Command::Quit);
    let per_move = |d: Duration| d.as_secs_f64() * 1000.0 / f64::from(moves);
    let (wall, reported, bare) = (per_move(wall), per_move(reported), per_move(bare));
    println!("{name}, {moves} moves at {nodes} nodes");
    println!("Player: wall {wall:.3} ms per move; engine-reported {reported:.3} ms per move");
    println!("bare pipe: wall {bare:.3} ms per move");
    println!("wall minus engine-reported {:.3} ms per move", wall - reported);
    println!("overhead {:.3} ms per move (Player minus bare pipe)", wall - bare);
    ExitCode::SUCCESS
}

/// The same game over a bare pipe: the total wall time of its moves.
fn bare_pipe(path: &str, moves: u32, nodes: u64) -> std::io::Result<Duration> {
    let mut child = std::process::Command::new(path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    let broken = || std::io::Error::other("the engine closed its pipes");
    let mut input = child.stdin.take().ok_or_else(broken)?;
    let mut output = BufReader::new(child.stdout.take().ok_or_else(broken)?);
    let mut line = String::new();
    let mut read_until = |output: &mut BufReader<_>, word: &str| -> std::io::Result<String> {
        loop {
            line.clear();
            if output.read_line(&mut line)? == 0 {
                return Err(broken());
            }
            if line.starts_with(word) {
                return Ok(line.clone());
            }
        }
    };
    writeln!(input, "uci")?;
    read_until(&mut output, "uciok")?;
    writeln!(input, "ucinewgame\nisready")?;
    read_until(&mut output, "readyok")?;
    let (mut wall, mut pos, mut played) = (Duration::ZERO, Chess::default(), Vec::<String>::new());
    for _ in 0..moves {
        if pos.is_game_over() {
            (pos, played) = (Chess::default(), Vec::new());
        }
        let asked = Instant::now();
        let history = if played.is_empty() { String::new() } else { format!(" moves {}", played.join(" ")) };
        writeln!(input, "position startpos{history}\ngo nodes {nodes}")?;
        input.flush()?;
        let answer = read_until(&mut output, "bestmove")?;
        wall += asked.elapsed();
        let text = answer.split_whitespace().nth(1).unwrap_or("");
        let Some(best) = text.parse::<UciMove>().ok().and_then(|m| m.to_move(&pos).ok()) else { break };
        pos.play_unchecked(best);
        played.push(best.to_uci(CastlingMode::Standard).to_string());
    }
    writeln!(input, "quit")?;
    child.wait()?;
    Ok(wall)
}
