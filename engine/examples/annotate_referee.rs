//! How well Kibitz's annotation finds mistakes, with Stockfish as the referee: the same games
//! are annotated by the built-in engine (a short time per search) and by Debian's Stockfish
//! (a fixed depth), with the same thresholds, and for `??` and `?` the example counts how many
//! of the referee's marks Kibitz found and how many of Kibitz's marks the referee agrees with.
//!
//! `cargo run --release -p kibitz-engine --example annotate_referee -- [PGN] [GAMES] [MS] [DEPTH] [TSV] [REFEREE]`
//! (defaults: `data/pgn/games/dortmund.pgn 20 200 14`). The two annotations run at once, on two
//! threads. With a TSV path, every verdict of both is written there (engine, game, move index,
//! best and played scores from the mover's side, their depths, the mark), so that other grading
//! rules can be tried on the same searches. With REFEREE, the TSV of an earlier run on the same
//! games at the same depth, the referee's verdicts are read from it instead of running
//! Stockfish again: at a fixed depth, on one thread, with its hash cleared before each game,
//! Stockfish gives the same verdicts every time (the file is read once Kibitz is done).
//!
//! MS may also be `stockfish-dN`: Stockfish at depth N takes Kibitz's seat, which measures how
//! far the referee's own marks move between two depths (the floor under any annotator's score).

use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use kibitz_engine::{
    AnnotateLimit, AnnotateSettings, EngineConfig, EngineHandle, ExternalEngine, GameRecord, Judgement,
    Player, Protocol, annotate_game, read_games,
};

const STOCKFISH: &str = "/usr/games/stockfish";

/// One verdict as the TSV holds it: the columns from the best score to the played move's
/// depth, and the mark.
#[derive(Clone)]
struct Row {
    scores: String,
    mark: Option<Judgement>,
}

/// Each game's verdicts, in the order of its moves.
type Rows = Vec<Vec<Row>>;

fn fail(what: &str) -> ! {
    eprintln!("{what}");
    std::process::exit(1);
}

fn annotate_all(player: &dyn Player, games: &[GameRecord], settings: &AnnotateSettings, who: &str) -> Rows {
    let started = Instant::now();
    let mut out = Vec::new();
    for (i, game) in games.iter().enumerate() {
        let annotated = annotate_game(player, game, settings, &mut |_| ControlFlow::Continue(()))
            .unwrap_or_else(|e| fail(&format!("{who}: game {}: {e}", i + 1)));
        let rows = annotated.verdicts.iter().map(|v| Row {
            scores: format!("{:?}\t{:?}\t{}\t{}", v.best, v.played, v.depth, v.played_depth),
            mark: v.judgement,
        });
        out.push(rows.collect());
        eprintln!("{who}: game {} done ({:.0} s)", i + 1, started.elapsed().as_secs_f64());
    }
    out
}

/// The referee's rows of an earlier run's TSV (none when it cannot be read: the moves then
/// do not match, and the Kibitz rows are still written).
fn read_referee(path: &str) -> Rows {
    let Ok(text) = std::fs::read_to_string(path) else { return Vec::new() };
    let mut out: Rows = Vec::new();
    for line in text.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let [who, game, _, best, played, depth, played_depth, mark] = cols[..] else {
            fail(&format!("{path}: not a verdict: {line}"))
        };
        if who != "referee" {
            continue;
        }
        let game: usize = game.parse().unwrap_or_else(|_| fail(&format!("{path}: {line}")));
        out.resize(out.len().max(game + 1), Vec::new());
        let mark = Judgement::ALL.into_iter().find(|j| j.symbol() == mark);
        out[game].push(Row { scores: format!("{best}\t{played}\t{depth}\t{played_depth}"), mark });
    }
    out
}

fn write_tsv(path: &str, kibitz: &Rows, referee: &Rows) {
    let mut text = String::from("engine\tgame\tindex\tbest\tplayed\tdepth\tplayed_depth\tmark\n");
    for (who, all) in [("kibitz", kibitz), ("referee", referee)] {
        for (g, rows) in all.iter().enumerate() {
            for (i, row) in rows.iter().enumerate() {
                let mark = row.mark.map_or("", Judgement::symbol);
                text += &format!("{who}\t{g}\t{i}\t{}\t{mark}\n", row.scores);
            }
        }
    }
    if let Err(e) = std::fs::write(path, text) {
        eprintln!("{path}: {e}");
    }
}

/// The marks given `judgement`, as (game, move index).
fn marked(rows: &Rows, judgement: Judgement) -> Vec<(usize, usize)> {
    let all =
        rows.iter().enumerate().flat_map(|(g, r)| r.iter().enumerate().map(move |(i, row)| (g, i, row)));
    all.filter(|(_, _, row)| row.mark == Some(judgement)).map(|(g, i, _)| (g, i)).collect()
}

fn mark_of(rows: &Rows, (g, i): (usize, usize)) -> Option<Judgement> {
    rows.get(g)?.get(i)?.mark
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args.first().map_or("data/pgn/games/dortmund.pgn", String::as_str);
    let count: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(20);
    // Kibitz's milliseconds per search, or Stockfish's depth in Kibitz's seat.
    let (ms, seat_depth): (u64, Option<u32>) = match args.get(2) {
        None => (200, None),
        Some(arg) => match arg.strip_prefix("stockfish-d") {
            Some(d) => (0, Some(d.parse().unwrap_or_else(|_| fail(&format!("{arg}: not stockfish-dN"))))),
            None => (
                arg.parse().unwrap_or_else(|_| fail(&format!("{arg}: not milliseconds or stockfish-dN"))),
                None,
            ),
        },
    };
    let depth: u32 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(14);
    let bytes = std::fs::read(path).unwrap_or_else(|e| fail(&format!("{path}: {e}")));
    let games: Vec<GameRecord> =
        read_games(&bytes).filter_map(Result::ok).filter(|g| g.len() >= 20).take(count).collect();
    let kibitz_settings = AnnotateSettings {
        limit: seat_depth.map_or(AnnotateLimit::Time(Duration::from_millis(ms)), AnnotateLimit::Depth),
        ..AnnotateSettings::default()
    };
    let referee_settings =
        AnnotateSettings { limit: AnnotateLimit::Depth(depth), ..AnnotateSettings::default() };
    let stockfish = || {
        let mut config = EngineConfig::from_path(STOCKFISH);
        config.protocol = Some(Protocol::Uci);
        config.options = vec![("Hash".into(), "32".into())];
        ExternalEngine::spawn(config, || {})
    };
    let (kibitz, referee) = std::thread::scope(|scope| {
        let kibitz = scope.spawn(|| match seat_depth {
            Some(_) => annotate_all(&stockfish(), &games, &kibitz_settings, "stockfish (Kibitz's seat)"),
            None => annotate_all(&EngineHandle::spawn(|| {}), &games, &kibitz_settings, "kibitz"),
        });
        let referee = scope.spawn(|| {
            if args.get(5).is_some() {
                return Vec::new();
            }
            annotate_all(&stockfish(), &games, &referee_settings, "stockfish")
        });
        (kibitz.join().unwrap_or_default(), referee.join().unwrap_or_default())
    });
    // An earlier run's verdicts are read only now, so that the run that writes them may still
    // be going when this one starts.
    let referee = args.get(5).map_or(referee, |earlier| read_referee(earlier));
    if let Some(tsv) = args.get(4) {
        write_tsv(tsv, &kibitz, &referee);
    }
    let moves: usize = kibitz.iter().map(Vec::len).sum();
    let referee_moves: usize = referee.iter().map(Vec::len).sum();
    if referee_moves != moves {
        fail(&format!(
            "the referee judged {referee_moves} moves, Kibitz {moves}: not the same games, or no referee TSV"
        ));
    }
    let who = seat_depth.map_or(format!("Kibitz {ms} ms per search"), |d| format!("Stockfish depth {d}"));
    println!("games {} moves {moves}; {who}, against Stockfish depth {depth}", games.len());
    for judgement in [Judgement::Blunder, Judgement::Mistake] {
        let (theirs, ours) = (marked(&referee, judgement), marked(&kibitz, judgement));
        let found = theirs.iter().filter(|&&n| mark_of(&kibitz, n) == Some(judgement)).count();
        let agreed = ours.iter().filter(|&&n| mark_of(&referee, n) == Some(judgement)).count();
        // Looser: the other side marked the move at all (any of ?!, ?, ??).
        let found_any = theirs.iter().filter(|&&n| mark_of(&kibitz, n).is_some()).count();
        let agreed_any = ours.iter().filter(|&&n| mark_of(&referee, n).is_some()).count();
        println!(
            "{}: referee {} found {found} (marked at all {found_any}); kibitz {} agreed {agreed} (marked at all {agreed_any})",
            judgement.symbol(),
            theirs.len(),
            ours.len()
        );
    }
}
