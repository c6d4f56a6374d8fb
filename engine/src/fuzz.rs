//! Fuzzing the parsers of everything a user or another program supplies (PGN, FEN and EPD,
//! books, learned data, time controls, UCI and xboard commands, external engines' output):
//! a seeded [`Mutator`] damages the repository's test data, and [`fuzz`] feeds the results
//! to a [`Target`], catching panics and timing every input. `engine/tests/fuzz.rs` runs a few
//! thousand inputs per target; `cargo run --release -p kibitz-engine --example fuzz` runs
//! millions.

mod mutate;
mod targets;

use std::cell::{Cell, RefCell};
use std::fmt;
use std::panic::{self, AssertUnwindSafe};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, Once};
use std::time::{Duration, Instant};

pub use mutate::Mutator;
pub use targets::{Target, targets};

/// An input that takes longer than this (wall time) is a failure. Parsers take microseconds to
/// a few milliseconds an input; the margin is for a busy 2-core machine, where a test thread may
/// wait for a core for most of a second (seen: 840 ms).
pub const SLOW: Duration = Duration::from_secs(5);
/// An input still running after this long is a hang: it is printed and the process exits.
pub const HANG: Duration = Duration::from_secs(10);
/// The largest input made. The parsers stream, so their memory does not grow with the input;
/// the cap keeps each input quick.
pub const MAX_INPUT: usize = 64 * 1024;
/// A target stops after this many failures.
const MAX_FAILURES: usize = 5;

/// What went wrong with one input.
#[derive(Clone, Debug, PartialEq)]
pub enum Problem {
    /// The parser panicked: where and the message.
    Panic(String),
    /// The parser took this long.
    Slow(Duration),
}

/// An input that made a parser fail, shrunk when it panicked.
#[derive(Clone, Debug)]
pub struct Failure {
    /// The input, to replay.
    pub input: Vec<u8>,
    /// What happened.
    pub problem: Problem,
}

impl fmt::Display for Failure {
    /// `panicked at src/x.rs:1:2: message; input b"..."`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.problem {
            Problem::Panic(message) => write!(f, "{message}")?,
            Problem::Slow(took) => write!(f, "took {took:.2?}")?,
        }
        write!(f, "; input b\"{}\"", escape(&self.input))
    }
}

/// What one target's run did.
#[derive(Clone, Debug)]
pub struct Report {
    /// The target's name.
    pub target: &'static str,
    /// Inputs fed.
    pub inputs: u64,
    /// Time taken.
    pub elapsed: Duration,
    /// The slowest input's time.
    pub slowest: Duration,
    /// The inputs that failed (a run stops after a few).
    pub failures: Vec<Failure>,
}

impl Report {
    /// Inputs per second.
    #[must_use]
    pub fn per_second(&self) -> f64 {
        self.inputs as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

impl fmt::Display for Report {
    /// `pgn: 1000000 inputs in 50.0 s, 20000 inputs/s, slowest 3 ms, no failure`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} inputs in {:.1} s, {:.0} inputs/s, slowest {:.1?}, ",
            self.target,
            self.inputs,
            self.elapsed.as_secs_f64(),
            self.per_second(),
            self.slowest
        )?;
        if self.failures.is_empty() {
            return f.write_str("no failure");
        }
        write!(f, "{} failures:", self.failures.len())?;
        for failure in &self.failures {
            write!(f, "\n  {failure}")?;
        }
        Ok(())
    }
}

/// Feeds `inputs` inputs made from the target's seeds (read from the repository at `root`)
/// by a [`Mutator`] seeded with `seed`, catching panics and timing each input. An input that
/// runs past [`HANG`] is printed and the process exits with status 3.
#[must_use]
pub fn fuzz(target: &Target, root: &Path, inputs: u64, seed: u64) -> Report {
    quiet_panics();
    let mut mutator = Mutator::new((target.seeds)(root), seed, MAX_INPUT);
    let current: Mutex<(Instant, Vec<u8>)> = Mutex::new((Instant::now(), Vec::new()));
    let done = AtomicBool::new(false);
    let start = Instant::now();
    let mut report = Report {
        target: target.name,
        inputs: 0,
        elapsed: Duration::ZERO,
        slowest: Duration::ZERO,
        failures: vec![],
    };
    std::thread::scope(|scope| {
        scope.spawn(|| watch(target.name, &current, &done));
        while report.inputs < inputs && report.failures.len() < MAX_FAILURES {
            let input = mutator.next_input();
            let began = Instant::now();
            if let Ok(mut current) = current.lock() {
                *current = (began, input.clone());
            }
            let outcome = attempt(target, &input);
            let took = began.elapsed();
            report.inputs += 1;
            report.slowest = report.slowest.max(took);
            match outcome {
                Err(message) => report.failures.push(shrink(target, input, message)),
                Ok(()) if took > SLOW => {
                    report.failures.push(Failure { input, problem: Problem::Slow(took) })
                }
                Ok(()) => {}
            }
        }
        done.store(true, Ordering::Relaxed);
    });
    report.elapsed = start.elapsed();
    report
}

/// Runs the target on one input; the panic's message if it panicked.
fn attempt(target: &Target, input: &[u8]) -> Result<(), String> {
    QUIET.set(true);
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| (target.run)(input)));
    QUIET.set(false);
    outcome.map_err(|_| LAST_PANIC.take().unwrap_or_else(|| "panicked".to_owned()))
}

/// A smaller input that panics at the same place, found by deleting ever smaller chunks.
fn shrink(target: &Target, mut input: Vec<u8>, mut message: String) -> Failure {
    let place = |message: &str| message.lines().next().unwrap_or("").to_owned();
    let here = place(&message);
    let mut same = |candidate: &[u8]| match attempt(target, candidate) {
        Err(m) if place(&m) == here => {
            message = m;
            true
        }
        _ => false,
    };
    let mut chunk = input.len() / 2;
    let mut tries = 0;
    while chunk > 0 && tries < 4000 {
        let mut at = 0;
        while at + chunk <= input.len() && tries < 4000 {
            let mut candidate = input.clone();
            candidate.drain(at..at + chunk);
            tries += 1;
            if same(&candidate) {
                input = candidate;
            } else {
                at += chunk;
            }
        }
        chunk /= 2;
    }
    Failure { input, problem: Problem::Panic(message) }
}

/// Checks the running input's time every 100 ms until `done`; past [`HANG`], prints the input
/// and exits, as a hung parser cannot be stopped.
fn watch(name: &str, current: &Mutex<(Instant, Vec<u8>)>, done: &AtomicBool) {
    while !done.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(100));
        let Ok(current) = current.lock() else { return };
        if current.0.elapsed() > HANG && !done.load(Ordering::Relaxed) {
            eprintln!("{name}: hung for {HANG:?} on input b\"{}\"", escape(&current.1));
            std::process::exit(3);
        }
    }
}

thread_local! {
    /// Whether this thread is running a target, whose panics are recorded, not printed.
    static QUIET: Cell<bool> = const { Cell::new(false) };
    /// The last recorded panic: where and the message.
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Installs (once) a panic hook that records the panics of targets instead of printing them,
/// and leaves every other panic to the hook it replaces.
fn quiet_panics() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if QUIET.get() {
                LAST_PANIC.set(Some(info.to_string()));
            } else {
                previous(info);
            }
        }));
    });
}

/// Bytes as the inside of a Rust byte string literal: printable ASCII as is, the rest escaped.
///
/// ```
/// assert_eq!(kibitz_engine::fuzz::escape(b"a\"\n\xff"), "a\\\"\\n\\xff");
/// ```
#[must_use]
pub fn escape(bytes: &[u8]) -> String {
    bytes.escape_ascii().to_string()
}
