//! The long fuzz run: every parser of user- or program-supplied input fed millions of mutated
//! inputs, reporting inputs per second and any failure (the input hex-escaped, to replay).
//!
//! `cargo run --release -p kibitz-engine --example fuzz -- [--inputs N] [--target NAME] [--seed N]`
//!
//! The default is 10 million inputs per target, in rounds of 100,000 (each round with the next
//! seed) whose running totals go to stderr. Exits 1 if any target failed.

use std::path::Path;
use std::process::ExitCode;

use kibitz_engine::fuzz::{fuzz, targets};

/// Inputs per round: each round reseeds the mutator and prints where the run is.
const ROUND: u64 = 100_000;

fn main() -> ExitCode {
    let mut inputs = 10_000_000u64;
    let mut only: Option<String> = None;
    let mut seed = 1u64;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let value = args.next();
        let number = || value.as_deref().and_then(|v| v.replace('_', "").parse::<u64>().ok());
        match (arg.as_str(), number()) {
            ("--inputs", Some(n)) => inputs = n,
            ("--seed", Some(n)) => seed = n,
            ("--target", _) if value.is_some() => only = value.clone(),
            _ => {
                let names: Vec<&str> = targets().iter().map(|t| t.name).collect();
                eprintln!(
                    "usage: fuzz [--inputs N] [--target NAME] [--seed N]\ntargets: {}",
                    names.join(" ")
                );
                return ExitCode::from(2);
            }
        }
    }
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let chosen: Vec<_> =
        targets().into_iter().filter(|t| only.as_deref().is_none_or(|n| n == t.name)).collect();
    if chosen.is_empty() {
        eprintln!("no target named {}", only.unwrap_or_default());
        return ExitCode::from(2);
    }
    let mut failed = false;
    for target in &chosen {
        // In rounds of `ROUND` inputs, each with its own seed, so a long run shows progress.
        let mut total = fuzz(target, root, inputs.min(ROUND), seed);
        let mut round = 1;
        while total.inputs < inputs && total.failures.is_empty() {
            eprintln!("{total}");
            let more = fuzz(target, root, (inputs - total.inputs).min(ROUND), seed.wrapping_add(round));
            total.inputs += more.inputs;
            total.elapsed += more.elapsed;
            total.slowest = total.slowest.max(more.slowest);
            total.failures = more.failures;
            round += 1;
        }
        println!("{total}");
        failed |= !total.failures.is_empty();
    }
    if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}
