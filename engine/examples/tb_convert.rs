//! How often the engine mates a won KQvK, KRvK and KBNvK within the fifty-move rule against
//! the tables' best defence, with and without the Syzygy tables, from random starts.
//!
//! `cargo run --release -p kibitz-engine --example tb_convert -- [STARTS] [DEPTH]`
//! (defaults 50 starts per ending, depth 8).

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use kibitz_engine::{Engine, SearchLimits, SyzygyTables};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use shakmaty::{Board, Chess, Color, FromSetup, Piece, Position, Role, Setup, Square};
use shakmaty_syzygy::{Tablebase, Wdl};

fn main() {
    let mut args = std::env::args().skip(1);
    let starts: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(50);
    let depth: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(8);
    let folder = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data/syzygy");
    let mut reference = Tablebase::<Chess>::new();
    if let Err(e) = reference.add_directory(&folder) {
        eprintln!("{}: {e}", folder.display());
        std::process::exit(1);
    }
    let tables = match SyzygyTables::open(&folder) {
        Ok(tables) => Arc::new(tables),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    println!("ending  tables  mated within 50 moves  mean plies  seconds");
    for (name, roles) in [
        ("KQvK", [Role::Queen].as_slice()),
        ("KRvK", &[Role::Rook]),
        ("KBNvK", &[Role::Bishop, Role::Knight]),
    ] {
        let mut rng = StdRng::seed_from_u64(2026);
        let mut positions = Vec::new();
        while positions.len() < starts {
            let pos = random_start(&mut rng, roles);
            if reference.probe_wdl_after_zeroing(&pos).ok() == Some(Wdl::Win) {
                positions.push(pos);
            }
        }
        for with in [false, true] {
            let started = Instant::now();
            let mut engine = Engine::new(16);
            engine.set_tablebases(with.then(|| Arc::clone(&tables)));
            let (mut mated, mut plies) = (0, 0);
            for start in &positions {
                engine.new_game();
                if let Some(n) = play_out(&mut engine, &reference, start.clone(), depth) {
                    mated += 1;
                    plies += n;
                }
            }
            let mean = if mated > 0 { plies as f64 / mated as f64 } else { 0.0 };
            println!(
                "{name:<7} {:<7} {mated:>3} of {starts:<17} {mean:>10.1}  {:>7.1}",
                if with { "yes" } else { "no" },
                started.elapsed().as_secs_f64()
            );
        }
    }
}

/// Plays the engine (White) against the tables' defence; the plies to mate, or `None` when
/// the fifty-move rule (or a draw) came first.
fn play_out(engine: &mut Engine, tables: &Tablebase<Chess>, mut pos: Chess, depth: u32) -> Option<usize> {
    let stop = AtomicBool::new(false);
    let mut history = Vec::new();
    let mut plies = 0;
    while !pos.is_game_over() && pos.halfmoves() < 100 {
        let m = if pos.turn() == Color::White {
            engine.search(&pos, &history, &SearchLimits::depth(depth), &stop, |_| {}).best?
        } else {
            tables.best_move(&pos).ok()??.0
        };
        history.push(kibitz_engine::position_hash(&pos));
        pos.play_unchecked(m);
        plies += 1;
    }
    pos.is_checkmate().then_some(plies)
}

/// A random legal position, White to move, with White's king and `roles` against a bare king.
fn random_start(rng: &mut StdRng, roles: &[Role]) -> Chess {
    loop {
        let mut board = Board::empty();
        let pieces = std::iter::once(Piece { color: Color::Black, role: Role::King })
            .chain(std::iter::once(Piece { color: Color::White, role: Role::King }))
            .chain(roles.iter().map(|&role| Piece { color: Color::White, role }));
        let mut clash = false;
        for piece in pieces {
            let square = Square::new(rng.random_range(0..64));
            clash |= board.piece_at(square).is_some();
            board.set_piece_at(square, piece);
        }
        let mut setup = Setup::empty();
        setup.board = board;
        if !clash
            && let Ok(pos) = Chess::from_setup(setup, shakmaty::CastlingMode::Standard)
            && !pos.is_game_over()
        {
            return pos;
        }
    }
}
