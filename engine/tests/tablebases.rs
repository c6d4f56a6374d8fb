//! The search with Syzygy tables, checked against the tables themselves: on sampled positions
//! of every 3- and 4-piece table in `data/syzygy`, the engine's score and move keep the tables'
//! value; and from sampled starts of KQvK, KRvK and KBNvK it mates within the fifty-move rule
//! against the tables' best defence.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use kibitz_engine::{Engine, Score, SearchLimits, SearchOutcome, SyzygyTables};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use shakmaty::{Board, Chess, Color, FromSetup, Piece, Position, Role, Setup, Square};
use shakmaty_syzygy::{AmbiguousWdl, Tablebase, Wdl};

fn folder() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data/syzygy")
}

/// The tables as shakmaty-syzygy reads them, the reference the engine is held to.
fn reference() -> Tablebase<Chess> {
    let mut tables = Tablebase::new();
    tables.add_directory(folder()).expect("data/syzygy reads");
    tables
}

fn engine_with_tables() -> Engine {
    let mut engine = Engine::new(4);
    engine.set_tablebases(Some(Arc::new(SyzygyTables::open(folder()).expect("tables"))));
    engine
}

fn search(engine: &mut Engine, pos: &Chess, depth: u32) -> SearchOutcome {
    engine.search(pos, &[], &SearchLimits::depth(depth), &AtomicBool::new(false), |_| {})
}

fn role(c: char) -> Role {
    Role::from_char(c.to_ascii_lowercase()).expect("a piece letter")
}

/// The materials of the tables in the folder: `KRvKP` gives White K, R and Black K, P.
fn materials() -> Vec<(Vec<Role>, Vec<Role>)> {
    let mut names: Vec<String> = std::fs::read_dir(folder())
        .expect("data/syzygy lists")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|name| name.strip_suffix(".rtbw").map(str::to_owned))
        .collect();
    names.sort();
    names
        .iter()
        .map(|name| {
            let (white, black) = name.split_once('v').expect("KXvKY");
            (white.chars().map(role).collect(), black.chars().map(role).collect())
        })
        .collect()
}

/// A random legal position with this material, fifty-move counter 0, no castling.
fn random_position(rng: &mut StdRng, white: &[Role], black: &[Role], turn: Color) -> Chess {
    loop {
        let mut board = Board::empty();
        let pieces = white
            .iter()
            .map(|&r| Piece { color: Color::White, role: r })
            .chain(black.iter().map(|&r| Piece { color: Color::Black, role: r }));
        let mut ok = true;
        for piece in pieces {
            let square = Square::new(rng.random_range(0..64));
            let back_rank = matches!(square.rank(), shakmaty::Rank::First | shakmaty::Rank::Eighth);
            if board.piece_at(square).is_some() || (piece.role == Role::Pawn && back_rank) {
                ok = false;
                break;
            }
            board.set_piece_at(square, piece);
        }
        if !ok {
            continue;
        }
        let mut setup = Setup::empty();
        setup.board = board;
        setup.turn = turn;
        if let Ok(pos) = Chess::from_setup(setup, shakmaty::CastlingMode::Standard)
            && !pos.legal_moves().is_empty()
        {
            return pos;
        }
    }
}

/// The tables' value of the position after `m`, for the side that played it.
fn value_of_move(tables: &Tablebase<Chess>, pos: &Chess, m: shakmaty::Move) -> AmbiguousWdl {
    let after = pos.clone().play(m).expect("legal");
    if after.is_checkmate() {
        return AmbiguousWdl::Win;
    }
    if m.is_zeroing() {
        -AmbiguousWdl::from(tables.probe_wdl_after_zeroing(&after).expect("probe"))
    } else {
        -tables.probe_wdl(&after).expect("probe")
    }
}

#[test]
fn the_search_keeps_the_value_of_every_table_on_sampled_positions() {
    let tables = reference();
    let mut engine = engine_with_tables();
    let mut rng = StdRng::seed_from_u64(17);
    let materials = materials();
    assert_eq!(materials.len(), 35, "the 3- and 4-piece tables");
    let mut seen = [0usize; 3];
    for (white, black) in &materials {
        for sample in 0..6 {
            let turn = if sample % 2 == 0 { Color::White } else { Color::Black };
            let pos = random_position(&mut rng, white, black, turn);
            let wdl = tables.probe_wdl_after_zeroing(&pos).expect("covered");
            engine.new_game();
            let outcome = search(&mut engine, &pos, 2);
            let fen = shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal);
            let score = outcome.info.as_ref().map(|i| i.score).expect("an iteration");
            let best = outcome.best.expect("a move");
            // The score says what the tables say.
            let agrees = match (wdl, score) {
                (Wdl::Win, Score::Mate(n)) => n > 0,
                (Wdl::Win, Score::Cp(cp)) => cp > 10_000,
                (Wdl::Loss, Score::Mate(n)) => n < 0,
                (Wdl::Loss, Score::Cp(cp)) => cp < -10_000,
                (_, Score::Cp(cp)) => cp.abs() <= 1,
                (_, Score::Mate(_)) => false,
            };
            assert!(agrees, "{fen}: the tables say {wdl:?}, the search {score:?}");
            // The move keeps that value.
            assert_eq!(
                value_of_move(&tables, &pos, best).after_zeroing(),
                wdl,
                "{fen}: {best} throws away {wdl:?}"
            );
            seen[(wdl.signum() + 1) as usize] += 1;
        }
    }
    // The samples cover wins, draws and losses alike.
    assert!(seen.iter().all(|&n| n >= 10), "losses, draws, wins sampled: {seen:?}");
}

#[test]
fn won_endings_are_mated_within_the_fifty_move_rule() {
    let tables = reference();
    let mut engine = engine_with_tables();
    let mut rng = StdRng::seed_from_u64(50);
    for (name, white) in [("KQvK", "KQ"), ("KRvK", "KR"), ("KBNvK", "KBN")] {
        let white: Vec<Role> = white.chars().map(role).collect();
        let mut started = 0;
        while started < 3 {
            let start = random_position(&mut rng, &white, &[Role::King], Color::White);
            if tables.probe_wdl_after_zeroing(&start).ok() != Some(Wdl::Win) {
                continue;
            }
            started += 1;
            let dtz = tables.probe_dtz(&start).expect("dtz").ignore_rounding().0;
            let fen = shakmaty::fen::Fen::from_position(&start, shakmaty::EnPassantMode::Legal);
            engine.new_game();
            let mut pos = start.clone();
            let mut plies = 0;
            while !pos.is_game_over() {
                let m = if pos.turn() == Color::White {
                    search(&mut engine, &pos, 3).best.expect("a move")
                } else {
                    // The defence the tables recommend: the longest resistance.
                    tables.best_move(&pos).expect("probe").expect("a move").0
                };
                pos.play_unchecked(m);
                plies += 1;
                assert!(
                    pos.halfmoves() < 100 || pos.is_checkmate(),
                    "{name} from {fen}: fifty moves without mate"
                );
            }
            assert!(pos.is_checkmate(), "{name} from {fen}: the game ended without mate");
            // Both sides play by the tables, so mate comes at their distance (which DTZ tables
            // may store rounded by a ply).
            assert!(
                plies <= dtz + 1,
                "{name} from {fen}: mate took {plies} plies, the tables' distance is {dtz}"
            );
        }
    }
}

#[test]
fn probes_below_the_root_count_and_change_nothing_without_tables() {
    // Five pieces: beyond the tables at the root, but captures lead into them.
    let pos: Chess = "8/8/8/3k4/8/8/2rr4/KQ6 w - - 0 60"
        .parse::<shakmaty::fen::Fen>()
        .expect("fen")
        .into_position(shakmaty::CastlingMode::Standard)
        .expect("legal");
    let with = search(&mut engine_with_tables(), &pos, 4);
    let hits = with.info.as_ref().map_or(0, |i| i.tbhits);
    assert!(hits > 0, "no probe below the root");
    let without = search(&mut Engine::new(4), &pos, 4);
    assert_eq!(without.info.map(|i| i.tbhits), Some(0));
}
