//! How well Kibitz's annotation finds mistakes, with Stockfish as the referee: the same games
//! are annotated by the built-in engine (a short time per search) and by Debian's Stockfish
//! (a fixed depth), with the same thresholds, and for `??` and `?` the example counts how many
//! of the referee's marks Kibitz found and how many of Kibitz's marks the referee agrees with.
//!
//! `cargo run --release -p kibitz-engine --example annotate_referee -- [PGN] [GAMES] [MS] [DEPTH] [TSV]`
//! (defaults: `data/pgn/games/dortmund.pgn 20 200 14`). The two annotations run at once, on two
//! threads. With a TSV path, every verdict of both is written there too (engine, game, move
//! index, best and played scores from the mover's side, their depths, the mark), so that other
//! grading rules can be tried on the same searches.

use std::collections::HashMap;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use kibitz_engine::{
    AnnotateLimit, AnnotateSettings, Annotated, EngineConfig, EngineHandle, ExternalEngine, GameRecord,
    Judgement, NodeId, Player, Protocol, annotate_game, read_games,
};

const STOCKFISH: &str = "/usr/games/stockfish";

fn annotate_all(
    player: &dyn Player,
    games: &[GameRecord],
    settings: &AnnotateSettings,
    who: &str,
) -> Vec<Annotated> {
    let started = Instant::now();
    let mut out = Vec::new();
    for (i, game) in games.iter().enumerate() {
        match annotate_game(player, game, settings, &mut |_| ControlFlow::Continue(())) {
            Ok(annotated) => out.push(annotated),
            Err(e) => {
                eprintln!("{who}: game {}: {e}", i + 1);
                std::process::exit(1);
            }
        }
        eprintln!("{who}: game {} done ({:.0} s)", i + 1, started.elapsed().as_secs_f64());
    }
    out
}

/// The marks of every game, by (game, node).
fn marks(annotated: &[Annotated]) -> HashMap<(usize, NodeId), Judgement> {
    let mut all = HashMap::new();
    for (i, a) in annotated.iter().enumerate() {
        for (node, judgement) in a.marks() {
            all.insert((i, node), judgement);
        }
    }
    all
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args.first().map_or("data/pgn/games/dortmund.pgn", String::as_str);
    let count: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(20);
    let ms: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(200);
    let depth: u32 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(14);
    let bytes = std::fs::read(path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(1);
    });
    let games: Vec<GameRecord> =
        read_games(&bytes).filter_map(Result::ok).filter(|g| g.len() >= 20).take(count).collect();
    let kibitz_settings = AnnotateSettings {
        limit: AnnotateLimit::Time(Duration::from_millis(ms)),
        ..AnnotateSettings::default()
    };
    let referee_settings =
        AnnotateSettings { limit: AnnotateLimit::Depth(depth), ..AnnotateSettings::default() };
    let (kibitz, referee) = std::thread::scope(|scope| {
        let kibitz =
            scope.spawn(|| annotate_all(&EngineHandle::spawn(|| {}), &games, &kibitz_settings, "kibitz"));
        let referee = scope.spawn(|| {
            let mut config = EngineConfig::from_path(STOCKFISH);
            config.protocol = Some(Protocol::Uci);
            config.options = vec![("Hash".into(), "32".into())];
            annotate_all(&ExternalEngine::spawn(config, || {}), &games, &referee_settings, "stockfish")
        });
        (kibitz.join().unwrap_or_default(), referee.join().unwrap_or_default())
    });
    if let Some(tsv) = args.get(4) {
        let mut text = String::from("engine\tgame\tindex\tbest\tplayed\tdepth\tplayed_depth\tmark\n");
        for (who, all) in [("kibitz", &kibitz), ("referee", &referee)] {
            for (g, a) in all.iter().enumerate() {
                for (i, v) in a.verdicts.iter().enumerate() {
                    let mark = v.judgement.map_or("", Judgement::symbol);
                    text += &format!(
                        "{who}\t{g}\t{i}\t{:?}\t{:?}\t{}\t{}\t{mark}\n",
                        v.best, v.played, v.depth, v.played_depth
                    );
                }
            }
        }
        if let Err(e) = std::fs::write(tsv, text) {
            eprintln!("{tsv}: {e}");
        }
    }
    let moves: usize = kibitz.iter().map(|a| a.verdicts.len()).sum();
    let (k, r) = (marks(&kibitz), marks(&referee));
    println!("games {} moves {moves}; Kibitz {ms} ms per search, Stockfish depth {depth}", games.len());
    for judgement in [Judgement::Blunder, Judgement::Mistake] {
        let theirs: Vec<_> = r.iter().filter(|(_, j)| **j == judgement).map(|(n, _)| n).collect();
        let ours: Vec<_> = k.iter().filter(|(_, j)| **j == judgement).map(|(n, _)| n).collect();
        let found = theirs.iter().filter(|n| k.get(n) == Some(&judgement)).count();
        let agreed = ours.iter().filter(|n| r.get(n) == Some(&judgement)).count();
        // Looser: the other side marked the move at all (any of ?!, ?, ??).
        let found_any = theirs.iter().filter(|n| k.contains_key(n)).count();
        let agreed_any = ours.iter().filter(|n| r.contains_key(n)).count();
        println!(
            "{}: referee {} found {found} (marked at all {found_any}); kibitz {} agreed {agreed} (marked at all {agreed_any})",
            judgement.symbol(),
            theirs.len(),
            ours.len()
        );
    }
}
