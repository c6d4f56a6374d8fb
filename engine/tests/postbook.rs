//! The PostBook's "prefer" advice steers play after the book, but only where the search
//! agrees it is good enough: a preferred move within `PREFER_MARGIN` of the search's best is
//! played, a clearly worse one is not. Driven through the engine thread, as the app and the
//! protocols drive it.

use std::sync::Arc;
use std::time::{Duration, Instant};

use kibitz_engine::{
    Command, EngineHandle, Event, PREFER_MARGIN, PostBook, PreferCheck, Score, SearchLimits, book_key,
    encode_move, policy::score_cp,
};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Move, Position};

const DEPTH: u32 = 4;

/// What one search reported: its best move, its last score and the PostBook's check.
struct Searched {
    best: Option<Move>,
    score: Option<Score>,
    check: Option<PreferCheck>,
}

fn search(handle: &EngineHandle, id: u64, pos: &Chess, limits: SearchLimits) -> Searched {
    // A fresh table for every search, so that the measurements do not depend on their order.
    handle.send(Command::NewGame);
    handle.send(Command::Position { start: pos.clone(), moves: Vec::new() });
    handle.send(Command::Go { id, purpose: kibitz_engine::Purpose::Play, limits });
    let deadline = Instant::now() + Duration::from_secs(60);
    let (mut score, mut check) = (None, None);
    while Instant::now() < deadline {
        match handle.recv_timeout(Duration::from_millis(100)) {
            Some(Event::Info { id: got, info }) if got == id && info.bound.is_none() => {
                score = Some(info.score)
            }
            Some(Event::PostBook { id: got, check: c }) if got == id => check = Some(c),
            Some(Event::BestMove { id: got, best, .. }) if got == id => {
                return Searched { best, score, check };
            }
            _ => {}
        }
    }
    panic!("no best move for search {id}");
}

/// A PostBook that prefers `m` in `pos`: three games, all won, with good scores.
fn prefers(pos: &Chess, m: Move) -> Arc<PostBook> {
    let text = format!("{:016x} {} 3 3 0 0 300\n", book_key(pos), encode_move(m));
    let postbook = PostBook::from_text(&text).expect("valid PostBook text");
    assert_eq!(postbook.best(pos), Some(m), "the PostBook prefers the move");
    Arc::new(postbook)
}

fn position(fen: &str) -> Chess {
    let fen: Fen = fen.parse().expect("test FEN parses");
    fen.into_position(CastlingMode::Standard).expect("legal test position")
}

/// The search's score for each legal move, each searched alone to `DEPTH`.
fn move_scores(handle: &EngineHandle, pos: &Chess) -> Vec<(Move, i32)> {
    let mut scores = Vec::new();
    for (i, m) in pos.legal_moves().into_iter().enumerate() {
        let limits = SearchLimits { searchmoves: vec![m], ..SearchLimits::depth(DEPTH) };
        let searched = search(handle, 1000 + i as u64, pos, limits);
        scores.push((m, score_cp(searched.score.expect("a completed iteration"))));
    }
    scores
}

#[test]
fn a_preferred_move_as_good_as_the_best_is_played() {
    let pos = Chess::default();
    let handle = EngineHandle::spawn(|| {});
    // The classical evaluation scores several first moves within a few centipawns of each
    // other, which this test needs; the network has a clear favourite.
    handle.send(Command::UseNetwork(false));
    let plain = search(&handle, 1, &pos, SearchLimits::depth(DEPTH));
    let (best, best_score) = (plain.best.expect("a move"), score_cp(plain.score.expect("a score")));
    assert!(plain.check.is_none(), "no PostBook, no check");
    // Another first move that the search scores (almost) as well as its own choice.
    let scores = move_scores(&handle, &pos);
    let (near, near_score) = scores
        .iter()
        .copied()
        .filter(|&(m, _)| m != best)
        .max_by_key(|&(_, s)| s)
        .expect("more than one legal move");
    assert!(
        near_score >= best_score - PREFER_MARGIN / 4,
        "precondition: a second move within {} cp of {best_score}, the best was {near_score}",
        PREFER_MARGIN / 4
    );

    handle.send(Command::SetLearning { positions: None, postbook: Some(prefers(&pos, near)) });
    let steered = search(&handle, 2, &pos, SearchLimits::depth(DEPTH));
    assert_eq!(steered.best, Some(near), "the PostBook's preferred move was ignored");
    let check = steered.check.expect("the decision is reported");
    assert!(check.played && check.preferred == near && check.preferred_score.is_some(), "{check:?}");
    let said = check.describe(|m| m.to_uci(CastlingMode::Standard).to_string());
    assert!(said.starts_with("PostBook prefers") && said.ends_with("played"), "{said}");

    // Analysis is not steered.
    let analysis = SearchLimits { searchmoves: pos.legal_moves().to_vec(), ..SearchLimits::depth(DEPTH) };
    let analysed = search(&handle, 3, &pos, analysis);
    assert!(analysed.check.is_none(), "analysis ignores the PostBook");
}

#[test]
fn a_clearly_losing_preferred_move_is_not_played() {
    // After 1.e4 d5, Qg4 puts the queen where the c8 bishop takes it.
    let pos = position("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    let blunder =
        pos.legal_moves().into_iter().find(|m| m.to_uci(CastlingMode::Standard).to_string() == "d1g4");
    let blunder = blunder.expect("Qg4 is legal");
    let handle = EngineHandle::spawn(|| {});
    let scores = move_scores(&handle, &pos);
    let best_score = scores.iter().map(|&(_, s)| s).max().expect("legal moves");
    let blunder_score = scores.iter().find(|&&(m, _)| m == blunder).map(|&(_, s)| s).expect("scored");
    assert!(best_score - blunder_score > 5 * PREFER_MARGIN, "precondition: Qg4 loses ({blunder_score})");

    handle.send(Command::SetLearning { positions: None, postbook: Some(prefers(&pos, blunder)) });
    let searched = search(&handle, 1, &pos, SearchLimits::depth(DEPTH));
    assert_ne!(searched.best, Some(blunder), "played a preferred move that loses the queen");
    let check = searched.check.expect("the decision is reported");
    assert!(!check.played && check.preferred == blunder, "{check:?}");
    assert!(check.preferred_score.is_some_and(|s| score_cp(s) < score_cp(check.best_score) - PREFER_MARGIN));
    let said = check.describe(|m| m.to_uci(CastlingMode::Standard).to_string());
    assert!(said.contains("d1g4") && said.ends_with("not played"), "{said}");

    // With a clock the check gets half the search's time; the losing move is still refused.
    let timed = SearchLimits::movetime(Duration::from_millis(200));
    let searched = search(&handle, 2, &pos, timed);
    assert_ne!(searched.best, Some(blunder));
}
