//! The harness the program tests share: the real `kibitz-engine` run as a child process,
//! spoken to through pipes, and the files some of them give it. Each test binary uses some of
//! them.
#![allow(dead_code)]

/// A level rook ending at move 1, where the draw policy's tests expect a draw offer.
pub const LEVEL_AT_MOVE_ONE: &str = "8/8/4k3/8/8/4K3/r7/7R w - - 0 1";
/// The depth those tests search `LEVEL_AT_MOVE_ONE` to. A network may still score it some
/// 30 to 40 cp from level there (n7ws +28 at depth 4, n12bs +37 at depth 8), so the tests widen
/// the dead band to `LEVEL_BAND`.
pub const LEVEL_DEPTH: u32 = 8;
/// The dead band's width, in centipawns, in the tests that expect an offer at
/// `LEVEL_AT_MOVE_ONE`: a pawn, where the default 25 is within a network's error there.
pub const LEVEL_BAND: u32 = 100;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// A running engine with a line reader on its output.
pub struct Session {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Session {
    /// Starts the engine.
    pub fn start() -> Session {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kibitz-engine"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("kibitz-engine starts");
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Session { child, stdin, lines }
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("engine reads stdin");
        self.stdin.flush().expect("flush");
    }

    /// Reads lines until one starts with `prefix`, returning it and the lines before it.
    pub fn expect(&self, prefix: &str, within: Duration) -> (String, Vec<String>) {
        let deadline = Instant::now() + within;
        let mut before = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line.starts_with(prefix) => return (line, before),
                Ok(line) => before.push(line),
                Err(_) => panic!("no '{prefix}' within {within:?}; got {before:?}"),
            }
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

/// What the engine printed on its own for a whole piped input: its standard output, once
/// it exited.
pub struct Piped {
    /// Its standard output.
    pub stdout: String,
    /// How long it took from start to exit.
    pub took: Duration,
}

/// Runs the engine on `input` (bytes, so not necessarily UTF-8), closes its standard input
/// and waits for it to exit; kills it and fails if that takes longer than `within`.
pub fn run_piped(input: &[u8], within: Duration) -> Piped {
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_kibitz-engine"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("kibitz-engine starts");
    let mut stdin = child.stdin.take().expect("piped stdin");
    stdin.write_all(input).expect("engine reads stdin");
    drop(stdin);
    let mut stdout = child.stdout.take().expect("piped stdout");
    let reader = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stdout, &mut text);
        String::from_utf8_lossy(&text).into_owned()
    });
    loop {
        if child.try_wait().expect("engine status").is_some() {
            break;
        }
        if started.elapsed() > within {
            let _ = child.kill();
            let _ = child.wait();
            let stdout = reader.join().unwrap_or_default();
            panic!("the engine did not exit within {within:?}; printed {stdout}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let took = started.elapsed();
    Piped { stdout: reader.join().expect("stdout read"), took }
}

/// A folder for one test's files, removed when dropped.
pub struct TempDir(pub std::path::PathBuf);

impl TempDir {
    /// A fresh folder named after the test.
    pub fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("kibitz-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        TempDir(dir)
    }

    /// A path in the folder, as text for an option's value.
    pub fn file(&self, name: &str) -> String {
        self.0.join(name).to_string_lossy().into_owned()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A PostBook that advises against every first move but a3 (two losses, bad scores) and
/// prefers a3 (two wins), written to `path`.
pub fn only_a3_postbook(path: &str) {
    use shakmaty::Position;
    let start = shakmaty::Chess::default();
    let key = kibitz_engine::book_key(&start);
    let mut text = String::new();
    for m in start.legal_moves() {
        let a3 = m.to_uci(shakmaty::CastlingMode::Standard).to_string() == "a2a3";
        let line = if a3 { "2 2 0 0 100" } else { "2 0 0 2 -400" };
        text += &format!("{key:016x} {} {line}\n", kibitz_engine::encode_move(m));
    }
    std::fs::write(path, text).expect("writable");
}

/// A fresh folder under the system's temporary folder, named after the test and the
/// process, removed when dropped.
pub struct Scratch(pub std::path::PathBuf);

impl Scratch {
    /// Makes `kibitz-NAME-PID` afresh.
    pub fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("kibitz-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a scratch folder");
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
