//! The long fuzz run: every parser of user- or program-supplied input fed millions of mutated
//! inputs, reporting inputs per second and any failure (the input hex-escaped, to replay).
//!
//! `cargo run --release -p kibitz-engine --example fuzz -- [--inputs N] [--target NAME] [--seed N]`
//!
//! The default is 10 million inputs per target. Exits 1 if any target failed.

use std::path::Path;
use std::process::ExitCode;

use kibitz_engine::fuzz::{fuzz, targets};

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
        let report = fuzz(target, root, inputs, seed);
        println!("{report}");
        failed |= !report.failures.is_empty();
    }
    if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}
