//! Judges the resignations and agreed draws of a `kibitz selfplay --remarks FILE` run with
//! Stockfish, and counts how the games ended (issue 18's accuracy check).
//!
//! ```text
//! cargo run --release -p kibitz-engine --example judge_policy -- REMARKS.tsv [DEPTH] [STOCKFISH]
//! ```
//!
//! (defaults: depth 20, `/usr/games/stockfish`, one thread, 64 MB hash). A resignation is
//! wrong when Stockfish does not see the resigning side at least 3 pawns behind in the
//! position where it resigned; an agreed draw is wrong when Stockfish sees either side more
//! than 1.5 pawns ahead in the position where it was accepted: the standard of the tuner's
//! referee (`kibitz_engine::tuning::Referee`, which scores the positions here too). The last line is
//! `games G decisive D resigned R drawn N agreed A wrong-resignations W wrong-agreements V
//! earliest-offer M`.

use std::ops::ControlFlow;
use std::process::ExitCode;

use kibitz_engine::matches::engine_spec;
use kibitz_engine::tuning::draw_odds::men;
use kibitz_engine::tuning::{Margins, Reading, Referee, Seat};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

/// One row of the remarks file.
struct Row {
    game: String,
    side: String,
    fen: String,
    remark: String,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: judge_policy REMARKS.tsv [DEPTH] [STOCKFISH]");
        return ExitCode::from(2);
    };
    let depth: u32 = args.get(1).and_then(|d| d.parse().ok()).unwrap_or(20);
    let stockfish = args.get(2).map_or("/usr/games/stockfish", String::as_str);
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let rows: Vec<Row> = text
        .lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.splitn(5, '\t').collect();
            let [game, side, _ply, fen, remark] = f.as_slice() else { return None };
            Some(Row {
                game: (*game).into(),
                side: (*side).into(),
                fen: (*fen).into(),
                remark: (*remark).into(),
            })
        })
        .collect();
    let words = format!("cmd={stockfish} proto=uci option.Threads=1 option.Hash=64 depth={depth}");
    let mut referee = match engine_spec(&[words], None)
        .map_err(|e| e.to_string())
        .and_then(|spec| Referee::start(&spec).map_err(|e| e.to_string()))
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{stockfish}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let (mut games, mut decisive, mut drawn, mut resigned, mut agreed) = (0, 0, 0, 0, 0);
    let (mut wrong_resign, mut wrong_draw) = (0, 0);
    let mut earliest_offer: Option<u32> = None;
    for row in &rows {
        let to_move_white = row.fen.split_whitespace().nth(1) == Some("w");
        if row.side == "-" && (row.remark.starts_with("Draw by") || row.remark.contains(" wins")) {
            games += 1;
            if row.remark.starts_with("Draw by") {
                drawn += 1;
            } else {
                decisive += 1;
            }
        } else if row.remark.contains(" offers a draw") {
            let fullmove = row.fen.split_whitespace().nth(5).and_then(|n| n.parse().ok()).unwrap_or(1);
            earliest_offer = Some(earliest_offer.map_or(fullmove, |e| e.min(fullmove)));
        } else if row.remark.contains(" resigns") || row.remark.contains(" accepts the draw offer") {
            let position: Option<Chess> = Fen::from_ascii(row.fen.as_bytes())
                .ok()
                .and_then(|f| f.into_position(CastlingMode::Standard).ok());
            let Some(position) = position else {
                eprintln!("game {}: not a legal position: {}", row.game, row.fen);
                return ExitCode::FAILURE;
            };
            let white_cp = match referee.white_score(&position, &[], &mut || ControlFlow::Continue(())) {
                Ok(cp) => cp,
                Err(e) => {
                    eprintln!("Stockfish: {e}");
                    return ExitCode::FAILURE;
                }
            };
            let cp = if to_move_white { white_cp } else { -white_cp };
            let resigning = row.remark.contains(" resigns");
            // The tuner's referee's standard (kibitz_engine::tuning::referee).
            let reading = if resigning {
                resigned += 1;
                Reading::Resignation(if row.side == "white" { Seat::White } else { Seat::Black })
            } else {
                agreed += 1;
                Reading::Draw
            };
            let judged = reading.verdict(white_cp, men(&position), Margins::default());
            // A resignation is right when the resigner loses, a draw when nobody wins.
            let wrong = if resigning { judged.winner.is_none() } else { judged.winner.is_some() };
            if resigning {
                wrong_resign += usize::from(wrong);
            } else {
                wrong_draw += usize::from(wrong);
            }
            let verdict = if wrong { "WRONG" } else { "ok" };
            let what = if resigning { "resigned" } else { "agreed a draw" };
            println!(
                "game {} {} {what} at {}: Stockfish {cp:+} cp for the side to move -> {verdict}",
                row.game, row.side, row.fen
            );
        }
    }
    let pct = |n: usize, of: usize| if of == 0 { 0.0 } else { 100.0 * n as f64 / of as f64 };
    println!(
        "decisive games ended by resignation {:.1}%, drawn games by agreement {:.1}%, wrong resignations {:.1}%, wrong agreed draws {:.1}%",
        pct(resigned, decisive),
        pct(agreed, drawn),
        pct(wrong_resign, resigned),
        pct(wrong_draw, agreed)
    );
    println!(
        "games {games} decisive {decisive} resigned {resigned} drawn {drawn} agreed {agreed} wrong-resignations {wrong_resign} wrong-agreements {wrong_draw} earliest-offer {}",
        earliest_offer.map_or("none".to_owned(), |m| m.to_string())
    );
    ExitCode::SUCCESS
}
