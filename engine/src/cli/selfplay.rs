//! `kibitz selfplay`: engine-against-itself games with the draw and resign policy on, for
//! measuring the policy (how often it resigns, offers, accepts, and whether it resigned a
//! game that was not lost).

use std::io::Write;
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use shakmaty::ByColor;

use crate::conductor::GameEvent;
use crate::policy::{PolicySettings, Rules, UnknownParameter};
use crate::runner::{GameSetup, play_builtin};
use crate::{GameRecord, TimeControl, write_pgn};

const USAGE: &str =
    "Usage: kibitz selfplay [--games N] [--tc CONTROL] [--openings EPD] [--rules terra|dead-band]
                       [--set NAME=VALUE]... [--concurrency N] [--pgn OUT.pgn] [--remarks OUT.tsv]
Plays the engine against itself with its draw and resign policy on. --set changes one of the
policy's numbers (contempt, terra.resign_score, dead_band.width...: the list is in the error
for an unknown name). CONTROL is Crafty's notation (`level 0 5 3`, `time 40/90/sd/30`,
`st 1`, `sd 8`) or PGN's (`10+0.1`, `40/5400:1800`); default 5+0.05.
The last line is `games N resignations R offers O accepted A white W black B draws D`.";

#[derive(Debug)]
struct Options {
    games: usize,
    control: TimeControl,
    openings: Vec<GameRecord>,
    policy: PolicySettings,
    concurrency: usize,
    pgn: Option<String>,
    remarks: Option<String>,
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        games: 20,
        control: TimeControl::sudden_death(Duration::from_secs(5), Duration::from_millis(50)),
        openings: Vec::new(),
        policy: PolicySettings::default(),
        concurrency: 1,
        pgn: None,
        remarks: None,
    };
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || it.next().cloned().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--games" => o.games = value()?.parse().map_err(|_| "--games takes a number".to_string())?,
            "--tc" => {
                let text = value()?;
                o.control = TimeControl::parse(&text).map_err(|e| format!("--tc {text}: {e}"))?;
            }
            "--openings" => {
                let path = value()?;
                let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
                for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
                    let fen = line.split(';').next().unwrap_or("");
                    let game = GameRecord::from_fen(fen).map_err(|e| format!("{path}:{}: {e}", i + 1))?;
                    o.openings.push(game);
                }
            }
            "--rules" => {
                o.policy.rules = match value()?.as_str() {
                    "terra" => Rules::Terra,
                    "dead-band" => Rules::DeadBand,
                    other => return Err(format!("--rules {other}: expected terra or dead-band")),
                }
            }
            "--set" => set_parameter(&mut o.policy, &value()?)?,
            "--concurrency" => {
                o.concurrency = value()?.parse().map_err(|_| "--concurrency takes a number".to_string())?
            }
            "--pgn" => o.pgn = Some(value()?),
            "--remarks" => o.remarks = Some(value()?),
            other => return Err(format!("unknown option {other}")),
        }
    }
    if o.openings.is_empty() {
        o.openings.push(GameRecord::new());
    }
    o.concurrency = o.concurrency.clamp(1, 16);
    Ok(o)
}

/// `--set NAME=VALUE`: a policy number, refused when out of its range.
fn set_parameter(policy: &mut PolicySettings, text: &str) -> Result<(), String> {
    let (name, value) = text.split_once('=').ok_or(format!("--set {text}: expected NAME=VALUE"))?;
    let p = PolicySettings::parameter(name.trim())
        .ok_or_else(|| format!("--set {text}: {}", UnknownParameter(name.trim().to_owned())))?;
    let value: i64 =
        value.trim().parse().map_err(|_| format!("--set {text}: {value} is not a whole number"))?;
    if !p.range().contains(&value) {
        return Err(format!("--set {text}: {} takes {} to {}", p.name, p.min, p.max));
    }
    p.set(policy, value);
    Ok(())
}

/// Runs `kibitz selfplay ARGS`.
pub fn run(args: &[String]) -> ExitCode {
    if args.first().is_some_and(|a| a == "help" || a == "--help") {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let o = match parse(args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("kibitz selfplay: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..o.concurrency {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= o.games {
                        break;
                    }
                    let setup = GameSetup {
                        opening: o.openings[i % o.openings.len()].clone(),
                        controls: ByColor::new_with(|_| o.control.clone()),
                        policy: o.policy.clone(),
                        max_plies: 400,
                    };
                    let mut played = play_builtin(&setup);
                    played.game.set_tag("Event", "Kibitz self-play");
                    played.game.set_tag("Round", &(i + 1).to_string());
                    let ending = played.game.ending().map(|e| e.to_string()).unwrap_or_default();
                    println!(
                        "game {} {} {ending} after {} plies",
                        i + 1,
                        played.game.result(),
                        played.game.len()
                    );
                    if let Ok(mut all) = results.lock() {
                        all.push((i, played));
                    }
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap_or_default();
    results.sort_by_key(|(i, _)| *i);

    let mut pgn = String::new();
    let mut remarks = String::from("game\tside\tply\tfen\tremark\n");
    let (mut resignations, mut offers, mut accepted) = (0, 0, 0);
    let (mut white, mut black, mut draws) = (0, 0, 0);
    for (i, played) in &results {
        pgn.push_str(&write_pgn(&played.game));
        pgn.push('\n');
        match played.game.result() {
            "1-0" => white += 1,
            "0-1" => black += 1,
            _ => draws += 1,
        }
        resignations += played.count(|e| matches!(e, GameEvent::Resigned { .. }));
        accepted += played.count(|e| matches!(e, GameEvent::DrawAccepted { .. }));
        offers += played.count(|e| matches!(e, GameEvent::DrawOffered { .. }));
        for r in &played.remarks {
            let side = match r.event.side() {
                Some(shakmaty::Color::White) => "white",
                Some(shakmaty::Color::Black) => "black",
                None => "-",
            };
            remarks.push_str(&format!("{}\t{side}\t{}\t{}\t{}\n", i + 1, r.ply, r.fen, r.event));
        }
    }
    for (path, text) in [(&o.pgn, &pgn), (&o.remarks, &remarks)] {
        if let Some(path) = path
            && let Err(e) = crate::write_atomic(std::path::Path::new(path), text.as_bytes())
        {
            eprintln!("kibitz selfplay: cannot write {path}: {e}");
            return ExitCode::FAILURE;
        }
    }
    let _ = std::io::stdout().flush();
    println!(
        "games {} resignations {resignations} offers {offers} accepted {accepted} white {white} black {black} draws {draws}",
        results.len()
    );
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_options_are_explained() {
        let args = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        assert!(parse(&args("--games x")).is_err());
        assert!(parse(&args("--tc banana")).unwrap_err().starts_with("--tc banana"));
        assert!(parse(&args("--rules nice")).is_err());
        assert!(parse(&args("--bogus")).is_err());
        let crafty = ["--tc".to_owned(), "level 0 5 3".to_owned()];
        assert_eq!(parse(&crafty).unwrap().control.to_pgn(), "300+3");
        let o = parse(&args("--games 3 --tc 10+0.1 --rules dead-band")).unwrap();
        assert_eq!((o.games, o.policy.rules, o.control.to_pgn().as_str()), (3, Rules::DeadBand, "10+0.1"));
    }

    #[test]
    fn policy_numbers_are_set_by_name_within_their_ranges() {
        let args = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        let o = parse(&args("--set contempt=-20 --set dead_band.width=40")).unwrap();
        assert_eq!((o.policy.contempt, o.policy.dead_band.width), (-20, 40));
        assert!(parse(&args("--set contempt=100000")).unwrap_err().contains("-500 to 500"));
        assert!(parse(&args("--set courage=3")).unwrap_err().contains("terra.resign_score"));
        assert!(parse(&args("--set contempt")).is_err());
        assert!(parse(&args("--set contempt=x")).is_err());
    }
}
