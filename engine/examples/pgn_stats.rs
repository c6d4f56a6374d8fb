//! `kibitz pgn ...` without building the GUI, for measurements:
//! `cargo run --release -p kibitz-engine --example pgn_stats -- stats FILE`.

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut full = vec!["pgn".to_string()];
    full.extend(args);
    kibitz_engine::cli::run(&full)
}
