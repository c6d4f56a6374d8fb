//! The `kibitz` program's headless subcommands without the GUI, for development:
//! `cargo run --release -p kibitz-engine --example cli -- selfplay --games 4`.

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    kibitz_engine::cli::run(&args)
}
