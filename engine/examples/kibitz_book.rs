//! `kibitz book ...` without building the app: `cargo run -p kibitz-engine --example kibitz_book -- build ...`.

use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args: Vec<String> = vec!["book".to_string()];
    args.extend(std::env::args().skip(1));
    kibitz_engine::cli::run(&args)
}
