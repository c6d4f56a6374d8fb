//! The match runner end to end: the built-in engine against itself on an EPD suite, game
//! pairs on one opening with colours reversed, misbehaving engines losing their games while
//! the event goes on, Stockfish against Kibitz, a stopped run resumed, and the PGN's
//! comments read back.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use kibitz_engine::matches::{
    EngineSpec, FinishedGame, Flow, Format, KnockoutPlan, MatchReport, MatchSetup, MoveComment,
    OpeningSource, Order, Standings, Watcher, move_limit, read_suite, run, run_knockout,
};
use kibitz_engine::{EngineConfig, GameRecord, Protocol, TimeControl, read_games};

/// Follows nothing; stops the run after `cancel_after` games by raising the cancel flag, as
/// a killed process would stop it.
struct Quiet<'a> {
    cancel_after: Option<(usize, &'a AtomicBool)>,
    seen: usize,
}

impl Watcher for Quiet<'_> {
    fn finished(&mut self, _: &FinishedGame, _: &Standings) -> Flow {
        self.seen += 1;
        if let Some((after, cancel)) = self.cancel_after
            && self.seen >= after
        {
            cancel.store(true, Ordering::Relaxed);
        }
        Flow::Continue
    }
}

/// Says stop after `after` games, as an SPRT that reached its verdict would.
struct StopAfter(usize);

impl Watcher for StopAfter {
    fn finished(&mut self, _: &FinishedGame, standings: &Standings) -> Flow {
        let played: u32 = standings.engines.iter().map(|e| e.games()).sum();
        if played as usize >= 2 * self.0 { Flow::Stop } else { Flow::Continue }
    }
}

fn play(setup: &MatchSetup) -> MatchReport {
    let cancel = AtomicBool::new(false);
    run(setup, &mut Quiet { cancel_after: None, seen: 0 }, &cancel).expect("the match is played")
}

fn data(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data").join(path)
}

fn temp_pgn(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kibitz-matches-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(format!("{name}.pgn"));
    let _ = std::fs::remove_file(&path);
    path
}

fn games_of(path: &Path) -> Vec<GameRecord> {
    let bytes = std::fs::read(path).expect("the PGN was written");
    read_games(&bytes).map(|g| g.expect("every game reads back")).collect()
}

/// Two built-in engines at depths 1 and 2 on WAC's positions.
fn depth_match(rounds: usize, pgn: &Path) -> MatchSetup {
    let engines = vec![
        EngineSpec::builtin("Depth1", TimeControl::Depth(1)),
        EngineSpec::builtin("Depth2", TimeControl::Depth(2)),
    ];
    let mut setup = MatchSetup::new(engines, Format::Match);
    setup.rounds = rounds;
    let suite = read_suite(&data("epd/wac.epd"), None).expect("WAC");
    setup.openings = OpeningSource::suite(suite, Order::Random, 16);
    setup.adjudication = move_limit(160);
    setup.pgn_out = Some(pgn.to_path_buf());
    setup
}

#[test]
fn builtin_engines_play_game_pairs_on_one_opening_with_colours_reversed() {
    let pgn = temp_pgn("pairs");
    let mut setup = depth_match(3, &pgn);
    setup.concurrency = 2;
    let report = play(&setup);
    assert!(report.complete);
    assert_eq!(report.games.len(), 6);
    let total: u32 = report.standings.engines.iter().map(|e| e.half_points()).sum();
    assert_eq!(total, 2 * 6, "one point per game");
    let games = games_of(&pgn);
    assert_eq!(games.len(), 6);
    let tag = |g: &GameRecord, name: &str| g.tag(name).unwrap_or("?").to_owned();
    for round in 1..=3 {
        let first =
            games.iter().find(|g| tag(g, "Round") == format!("{round}.1")).expect("first of the pair");
        let second =
            games.iter().find(|g| tag(g, "Round") == format!("{round}.2")).expect("second of the pair");
        assert!(first.start_fen().is_some(), "the FEN and SetUp tags give the opening");
        assert_eq!(first.start_fen(), second.start_fen(), "round {round}: one opening");
        assert_eq!((tag(first, "White"), tag(first, "Black")), (tag(second, "Black"), tag(second, "White")));
        assert_eq!(tag(first, "Opening"), tag(second, "Opening"));
        assert!(tag(first, "Opening").starts_with("WAC."));
    }
    // Each pair's opening differs from the others'.
    let fens: std::collections::HashSet<Option<String>> = games.iter().map(GameRecord::start_fen).collect();
    assert_eq!(fens.len(), 3);
    for game in &games {
        assert_ne!(game.result(), "*");
        assert!(game.tag("Termination").is_some() && game.tag("TimeControl") == Some("-"));
    }
}

#[test]
fn every_move_comment_reads_back_with_its_score_depth_and_time() {
    let pgn = temp_pgn("comments");
    let engines = vec![
        EngineSpec::builtin("A", TimeControl::Depth(2)),
        EngineSpec::builtin("B", TimeControl::Depth(2)),
    ];
    let mut setup = MatchSetup::new(engines, Format::Match);
    let suite = read_suite(&data("openings/2moves_v2.pgn"), None).expect("fishtest's openings");
    setup.openings = OpeningSource::suite(suite, Order::Sequential, 1);
    setup.adjudication = move_limit(40);
    setup.pgn_out = Some(pgn.clone());
    let report = play(&setup);
    for (game, finished) in games_of(&pgn).iter().zip(&report.games) {
        let mut book = 0;
        for (ply, &id) in game.main_line().iter().skip(1).enumerate() {
            let comment = game.node(id).map(|n| n.comment().to_owned()).unwrap_or_default();
            match MoveComment::parse(&comment) {
                Some(MoveComment::Book) => book += 1,
                Some(MoveComment::Searched { score, depth, .. }) => {
                    assert!(ply >= 4, "the opening's moves are book");
                    assert_eq!(depth, Some(2), "{comment}");
                    let report = finished.moves.iter().find(|r| r.ply == ply).expect("a report");
                    assert_eq!(score, report.score, "the mover's own score, as cutechess writes it");
                }
                None => panic!("ply {ply}: '{comment}' does not read back"),
            }
            assert!(game.node(id).is_some_and(|n| n.clock().is_none() && n.eval().is_none()));
        }
        assert_eq!(book, 4, "fishtest's lines are four plies");
        let last = game.node(game.main_end()).map(|n| n.comment().to_owned()).unwrap_or_default();
        assert!(last.ends_with(&format!(", {}", finished.verdict)), "{last}");
    }
}

fn fake(script: &str, control: &TimeControl) -> EngineSpec {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/engines").join(script);
    let config =
        EngineConfig { name: script.to_owned(), path, protocol: Some(Protocol::Uci), ..Default::default() };
    EngineSpec::external(config, control.clone())
}

#[test]
fn misbehaving_engines_lose_their_games_and_the_event_goes_on() {
    let control = TimeControl::sudden_death(Duration::from_secs(1), Duration::from_millis(50));
    let mut kibitz = EngineSpec::builtin("Kibitz", control.clone());
    kibitz.limits.depth = Some(1);
    let engines = vec![
        kibitz,
        fake("crash-at-third-go", &control),
        fake("hang-after-handshake", &control),
        fake("illegal-move", &control),
        fake("not-an-engine", &control),
    ];
    let mut setup = MatchSetup::new(engines, Format::Gauntlet);
    setup.concurrency = 2;
    setup.ping_timeout = Duration::from_millis(1500);
    let pgn = temp_pgn("failures");
    setup.pgn_out = Some(pgn.clone());
    let report = play(&setup);
    assert!(report.complete, "every game was played");
    assert_eq!(report.games.len(), 8);
    let kibitz = &report.standings.engines[0];
    assert_eq!((kibitz.wins, kibitz.losses, kibitz.draws), (8, 0, 0), "{}", report.standings);
    let expected = [
        ("crash-at-third-go", "abandoned", "disconnects"),
        ("hang-after-handshake", "time forfeit", "loses on time"),
        ("illegal-move", "rules infraction", "makes an illegal move: e2e5"),
        ("not-an-engine", "abandoned", "no answer to its handshake"),
    ];
    let games = games_of(&pgn);
    for (name, termination, verdict) in expected {
        let theirs: Vec<&FinishedGame> =
            report.games.iter().filter(|g| g.white == name || g.black == name).collect();
        assert_eq!(theirs.len(), 2, "{name} played both games of its pair");
        for game in theirs {
            let record =
                games.iter().find(|g| g.tag("Round") == Some(&game.fixture.round_tag())).expect("written");
            assert_eq!(record.tag("Termination"), Some(termination), "{name}: {}", game.verdict);
            assert!(game.verdict.contains(verdict), "{name}: {}", game.verdict);
        }
    }
    let failed = &report.standings.engines;
    assert_eq!(
        (failed[1].abandoned, failed[2].time_losses, failed[3].illegal, failed[4].abandoned),
        (2, 2, 2, 2)
    );
}

/// Mixed controls: Kibitz's engine on a one-second clock, each move held back 0.3 s, against
/// the built-in engine at depth 1 without a clock. The clocked engine loses on time in both
/// games of the pair; the other, which has no clock, is never flagged.
#[test]
fn the_engine_on_a_clock_loses_on_time_against_one_without() {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/engines/slow-to-move");
    let config = EngineConfig {
        name: "Slow".to_owned(),
        path: script,
        args: vec![env!("CARGO_BIN_EXE_kibitz-engine").to_owned(), "0.3".to_owned()],
        protocol: Some(Protocol::Uci),
        ..Default::default()
    };
    let clock = TimeControl::sudden_death(Duration::from_secs(1), Duration::ZERO);
    let engines =
        vec![EngineSpec::external(config, clock), EngineSpec::builtin("Depth1", TimeControl::Depth(1))];
    let mut setup = MatchSetup::new(engines, Format::Match);
    setup.adjudication = move_limit(200);
    let pgn = temp_pgn("mixed");
    setup.pgn_out = Some(pgn.clone());
    let report = play(&setup);
    assert_eq!(report.games.len(), 2);
    let [slow, depth] = [&report.standings.engines[0], &report.standings.engines[1]];
    assert_eq!((slow.losses, slow.time_losses), (2, 2), "{}", report.standings);
    assert_eq!(depth.time_losses, 0);
    for game in &games_of(&pgn) {
        assert_eq!(game.tag("Termination"), Some("time forfeit"));
        let slow_is_white = game.tag("White") == Some("Slow");
        let (slow_tc, depth_tc) = if slow_is_white { ("White", "Black") } else { ("Black", "White") };
        assert_eq!(game.tag(&format!("{slow_tc}TimeControl")), Some("1"), "each side's own control");
        assert_eq!(game.tag(&format!("{depth_tc}TimeControl")), Some("-"));
        assert_eq!(game.result(), if slow_is_white { "0-1" } else { "1-0" });
        assert!(game.len() >= 2, "a few moves were made before the flag fell: {:?}", game.san_moves());
    }
}

#[test]
fn a_search_that_never_ends_without_a_clock_is_stopped_and_lost() {
    let engines = vec![
        EngineSpec::builtin("Kibitz", TimeControl::Depth(1)),
        fake("hang-after-handshake", &TimeControl::Depth(1)),
    ];
    let mut setup = MatchSetup::new(engines, Format::Match);
    setup.patience.untimed = Some(Duration::from_millis(300));
    setup.patience.grace = Duration::from_millis(300);
    let report = play(&setup);
    assert_eq!(report.standings.engines[1].abandoned, 2, "{}", report.standings);
    for game in &report.games {
        assert_eq!(game.record.tag("Termination"), Some("abandoned"));
        assert!(game.verdict.contains("connection stalls"), "{}", game.verdict);
    }
}

#[test]
fn a_watcher_that_says_stop_ends_the_run_after_the_games_under_way() {
    let pgn = temp_pgn("stop");
    let setup = depth_match(4, &pgn);
    let report = run(&setup, &mut StopAfter(2), &AtomicBool::new(false)).expect("played");
    assert!(!report.complete);
    assert!((2..=3).contains(&report.games.len()), "{}", report.games.len());
    assert_eq!(games_of(&pgn).len(), report.games.len(), "the games finished were written");
}

#[test]
fn stockfish_plays_fast_games_against_the_builtin_engine() {
    let stockfish = Path::new("/usr/games/stockfish");
    if !stockfish.exists() {
        eprintln!("skipped: /usr/games/stockfish is not installed (CI installs it)");
        return;
    }
    let control = TimeControl::sudden_death(Duration::from_secs(1), Duration::from_millis(10));
    let mut sf = EngineConfig::from_path(stockfish);
    sf.name = "Stockfish".into();
    let mut sf = EngineSpec::external(sf, control.clone());
    sf.options = vec![("Hash".into(), "8".into()), ("Threads".into(), "1".into())];
    let engines = vec![EngineSpec::builtin("Kibitz", control), sf];
    let mut setup = MatchSetup::new(engines, Format::Match);
    setup.adjudication = move_limit(80);
    setup.patience.margin = Duration::from_millis(50);
    let suite = read_suite(&data("openings/2moves_v2.pgn"), None).expect("openings");
    setup.openings = OpeningSource::suite(suite, Order::Random, 5);
    let report = play(&setup);
    assert_eq!(report.games.len(), 2);
    for game in &report.games {
        assert!(
            !matches!(game.record.tag("Termination"), Some("abandoned" | "rules infraction")),
            "{}: {}",
            game.fixture.number,
            game.verdict
        );
        assert!(
            game.moves.iter().any(|m| m.score.is_some() && m.depth.is_some()),
            "the engines' scores are kept"
        );
    }
    assert!(
        report.overhead.moves > 0 && report.overhead.mean() < Duration::from_millis(5),
        "{}",
        report.overhead
    );
}

#[test]
fn a_stopped_run_resumes_without_losing_or_repeating_a_game() {
    let pgn = temp_pgn("resume");
    let setup = depth_match(4, &pgn);
    // The first run stops after three games, as if killed: the game under way is lost.
    let cancel = AtomicBool::new(false);
    let first =
        run(&setup, &mut Quiet { cancel_after: Some((3, &cancel)), seen: 0 }, &cancel).expect("played");
    assert!(!first.complete);
    let written = games_of(&pgn).len();
    assert_eq!(written, first.games.len());
    assert!((3..8).contains(&written));
    // Without --resume the file is not mixed with a new run.
    let refused = run(&setup, &mut Quiet { cancel_after: None, seen: 0 }, &AtomicBool::new(false));
    assert!(refused.is_err_and(|e| e.to_string().contains("already holds games")));
    // A crash while writing tore the next game.
    let mut torn = std::fs::read(&pgn).expect("written");
    torn.extend_from_slice(b"[Event \"Kibitz match\"]\n[Round \"4.2\"]\n\n1. e4 e5 2. Nf");
    std::fs::write(&pgn, torn).expect("torn");

    let mut resumed = setup.clone();
    resumed.resume = true;
    let second = play(&resumed);
    assert!(second.complete);
    assert_eq!(second.games.len(), 8);
    assert_eq!(second.games.iter().filter(|g| g.resumed).count(), written);
    let games = games_of(&pgn);
    assert_eq!(games.len(), 8);
    let mut rounds: Vec<String> = games.iter().map(|g| g.tag("Round").unwrap_or("?").to_owned()).collect();
    rounds.sort();
    rounds.dedup();
    assert_eq!(rounds.len(), 8, "every fixture once: {rounds:?}");
    let played: u32 = second.standings.engines.iter().map(|e| e.games()).sum();
    assert_eq!(played, 16, "the standings count the earlier games too");
}

/// The arbiter under TCEC's rules with the repository's 3- and 4-piece tables: a rook ending
/// is adjudicated by Syzygy after the first move, in both games of the pair, for White.
#[test]
fn tcec_rules_adjudicate_tablebase_positions_in_a_match() {
    use kibitz_engine::SyzygyTables;
    use kibitz_engine::matches::Opening;
    use kibitz_engine::tournament::AdjudicationRules;
    use std::sync::Arc;
    let tables = Arc::new(SyzygyTables::open(data("syzygy")).expect("the repository's tables"));
    let rules = AdjudicationRules::tcec();
    let fen = |text: &str| Opening {
        name: None,
        game: GameRecord::from_position(
            text.parse::<shakmaty::fen::Fen>()
                .expect("FEN")
                .into_position(shakmaty::CastlingMode::Standard)
                .expect("legal"),
        ),
    };
    let engines = vec![
        EngineSpec::builtin("A", TimeControl::Depth(2)),
        EngineSpec::builtin("B", TimeControl::Depth(2)),
    ];
    let mut setup = MatchSetup::new(engines, Format::Match);
    setup.openings = OpeningSource::suite(vec![fen("8/8/8/4k3/8/8/8/R3K3 w - - 0 1")], Order::Sequential, 0);
    setup.adjudication = Arc::new(move || rules.adjudicator(Some(Arc::clone(&tables))));
    let report = play(&setup);
    assert_eq!(report.games.len(), 2);
    for game in &report.games {
        assert!(game.verdict.contains("Syzygy"), "adjudicated by the tables: {}", game.verdict);
        assert!(game.record.len() <= 2, "at once, not played out: {} plies", game.record.len());
        assert_eq!(game.result(), "1-0", "White has the rook");
    }
}

/// The knockout of built-in engines at `controls`, seeded in that order, its games written
/// to `pgn`.
fn knockout_setup(controls: &[TimeControl], pgn: &Path) -> MatchSetup {
    let engines = controls
        .iter()
        .enumerate()
        .map(|(i, c)| EngineSpec::builtin(&format!("E{}", i + 1), c.clone()))
        .collect();
    let mut setup = MatchSetup::new(engines, Format::Match);
    let suite = read_suite(&data("epd/wac.epd"), None).expect("WAC");
    setup.openings = OpeningSource::suite(suite, Order::Random, 3);
    setup.adjudication = move_limit(120);
    setup.concurrency = 2;
    setup.pgn_out = Some(pgn.to_path_buf());
    setup
}

/// Every game of a knockout's PGN once, by its Round tag `round.duel.game`, numbered
/// 1, 2, 3... within its duel; the games of each duel by round and duel.
fn duels_of(games: &[GameRecord]) -> std::collections::BTreeMap<(usize, usize), Vec<usize>> {
    let mut duels = std::collections::BTreeMap::<(usize, usize), Vec<usize>>::new();
    for game in games {
        let tag = game.tag("Round").expect("a Round tag");
        let parts: Vec<usize> = tag.split('.').map(|p| p.parse().expect("numbers")).collect();
        let [round, duel, number] = parts[..] else { panic!("round.duel.game, not {tag}") };
        duels.entry((round, duel)).or_default().push(number);
    }
    for numbers in duels.values_mut() {
        numbers.sort_unstable();
        assert_eq!(*numbers, (1..=numbers.len()).collect::<Vec<_>>(), "every game of a duel once");
    }
    duels
}

/// A knockout of four built-in engines at depths 1 to 4, seeded in that order: two
/// semi-finals, a final and a match for third place, each at least two game pairs, the
/// winner of each duel the one with more points; every game reaches the watcher and the one
/// PGN, tagged with its round, duel and game.
#[test]
fn a_knockout_plays_semi_finals_a_final_and_a_match_for_third_place() {
    let pgn = temp_pgn("knockout");
    let setup = knockout_setup(&[1, 2, 3, 4].map(TimeControl::Depth), &pgn);
    let plan = KnockoutPlan { pairs: 2, books: Vec::new() };
    let mut quiet = Quiet { cancel_after: None, seen: 0 };
    let report = run_knockout(&setup, &plan, &mut quiet, &AtomicBool::new(false)).expect("played");
    assert!(report.complete);
    assert_eq!(report.duels.len(), 4, "{report}");
    // Seeds 1 v 4 and 2 v 3 (engine indices 0 v 3 and 1 v 2).
    let firsts: Vec<_> = report.duels[..2].iter().map(|d| (d.high, d.low)).collect();
    assert_eq!(firsts, [(0, Some(3)), (1, Some(2))]);
    for duel in &report.duels {
        assert!(duel.games >= 4 && duel.games % 2 == 0, "pairs in full: {duel:?}");
        assert!(duel.points.0 != duel.points.1, "a duel ends decided: {duel:?}");
        let (winner_points, loser_points) =
            if duel.winner == duel.high { duel.points } else { (duel.points.1, duel.points.0) };
        assert!(winner_points > loser_points, "{duel:?}");
    }
    let total: usize = report.duels.iter().map(|d| d.games).sum();
    assert_eq!(quiet.seen, total, "the watcher saw every game");
    let semi_winners: Vec<usize> = report.duels[..2].iter().map(|d| d.winner).collect();
    assert!(report.champion.is_some_and(|c| semi_winners.contains(&c)));
    let third = report.duels.iter().find(|d| d.third_place).expect("a match for third place");
    assert!(!semi_winners.contains(&third.high) && third.low.is_some_and(|l| !semi_winners.contains(&l)));
    assert_eq!(report.third, Some(third.winner));
    // One PGN: the semi-finals are round 1, the final duel 1 and the third place duel 2 of round 2.
    let duels = duels_of(&games_of(&pgn));
    let counts: Vec<((usize, usize), usize)> = duels.iter().map(|(k, v)| (*k, v.len())).collect();
    let expected: Vec<((usize, usize), usize)> =
        [(1, 1), (1, 2), (2, 1), (2, 2)].into_iter().zip(report.duels.iter().map(|d| d.games)).collect();
    assert_eq!(counts, expected);
}

/// Eight engines; book A holds only bare kings (every game drawn at once), book B is WAC.
/// Round 1 plays from A: every duel tied after its regular pairs, then four tiebreak pairs
/// from A, still tied, then pairs from B until decided. The regular pairs of all four duels
/// are played before any tiebreak, and each tiebreak pair of the tied duels before the next.
/// The semi-finals and the finals play from B.
#[test]
fn a_round_plays_all_its_regular_pairs_then_tiebreaks_from_its_book_then_the_last() {
    use kibitz_engine::matches::Opening;
    let bare = Opening {
        name: Some("bare kings".to_owned()),
        game: GameRecord::from_fen("8/8/8/4k3/8/8/8/4K3 w - - 0 1").expect("FEN"),
    };
    let pgn = temp_pgn("knockout-books");
    // Each engine at its own node count, so that no duel is between equals (two equal
    // engines draw every pair, each playing the other's game).
    let controls: Vec<TimeControl> = (1..=8).rev().map(|k| TimeControl::Nodes(100 * k)).collect();
    let setup = knockout_setup(&controls, &pgn);
    let book_b = setup.openings.clone();
    let plan = KnockoutPlan {
        pairs: 2,
        books: vec![OpeningSource::suite(vec![bare], Order::Sequential, 0), book_b],
    };
    let report =
        run_knockout(&setup, &plan, &mut Quiet { cancel_after: None, seen: 0 }, &AtomicBool::new(false))
            .expect("played");
    assert!(report.complete, "{report}");
    let games = games_of(&pgn);
    let tags = |g: &GameRecord| -> (usize, usize, usize) {
        let parts: Vec<usize> =
            g.tag("Round").expect("Round").split('.').map(|p| p.parse().expect("n")).collect();
        (parts[0], parts[1], parts[2])
    };
    let opening = |g: &GameRecord| g.tag("Opening").unwrap_or("?").to_owned();
    for game in &games {
        let (round, _, number) = tags(game);
        let from_a = round == 1 && number <= 12;
        assert_eq!(opening(game) == "bare kings", from_a, "round {round} game {number}: {}", opening(game));
    }
    // Round 1 in the file: the regular games (1 to 4) of every duel, then the tiebreak pairs
    // wave by wave: pair k of every duel still tied before pair k + 1 of any.
    let round_1: Vec<(usize, usize)> =
        games.iter().map(tags).filter(|t| t.0 == 1).map(|(_, duel, number)| (duel, number)).collect();
    let wave = |number: usize| if number <= 4 { 0 } else { (number - 3) / 2 };
    assert!(round_1.windows(2).all(|w| wave(w[0].1) <= wave(w[1].1)), "{round_1:?}");
    assert_eq!(round_1.iter().filter(|(_, n)| *n <= 4).count(), 16, "four duels, two pairs each");
    let duels = duels_of(&games);
    for duel in report.duels.iter().filter(|d| d.round == 1) {
        assert!(duel.games >= 14, "4 regular, 8 from A, then B: {duel:?}");
    }
    assert_eq!(duels.len(), 4 + 2 + 2);
}

/// Cancels the run once a game of round `round` ends.
struct CancelInRound<'a> {
    round: usize,
    cancel: &'a AtomicBool,
}

impl Watcher for CancelInRound<'_> {
    fn finished(&mut self, game: &FinishedGame, _: &Standings) -> Flow {
        if game.fixture.round == self.round {
            self.cancel.store(true, Ordering::Relaxed);
        }
        Flow::Continue
    }
}

/// A knockout stopped after the first game of its final round (the game under way lost, the
/// next one torn while being written) and resumed: the duels decided are not replayed, the duel under way plays
/// only its missing games, no game is lost or played twice, and the bracket goes on.
#[test]
fn a_stopped_knockout_resumes_without_losing_or_repeating_a_game() {
    let pgn = temp_pgn("knockout-resume");
    let setup = knockout_setup(&[1, 2, 3, 4].map(TimeControl::Depth), &pgn);
    let plan = KnockoutPlan { pairs: 2, books: Vec::new() };
    let cancel = AtomicBool::new(false);
    let first = run_knockout(&setup, &plan, &mut CancelInRound { round: 2, cancel: &cancel }, &cancel)
        .expect("played");
    assert!(!first.complete && first.champion.is_none());
    assert_eq!(first.duels.len(), 2, "the semi-finals were decided: {first}");
    let written = games_of(&pgn).len();
    assert_eq!(written, first.games.len());
    let semi_finals: usize = first.duels.iter().map(|d| d.games).sum();
    // Two games are played at once: the other game of the final round may end before the
    // cancel reaches it, and is then written too.
    assert!(
        (semi_finals + 1..=semi_finals + 2).contains(&written),
        "a game or two of the final round: {written} written, {semi_finals} in the semi-finals: {first}"
    );
    let mut torn = std::fs::read(&pgn).expect("written");
    torn.extend_from_slice(b"[Event \"Kibitz match\"]\n[Round \"2.1.3\"]\n\n1. e4 e5 2. Nf");
    std::fs::write(&pgn, torn).expect("torn");

    let mut resumed = setup.clone();
    resumed.resume = true;
    let second =
        run_knockout(&resumed, &plan, &mut Quiet { cancel_after: None, seen: 0 }, &AtomicBool::new(false))
            .expect("resumed");
    assert!(second.complete && second.champion.is_some() && second.third.is_some(), "{second}");
    assert_eq!(second.games.iter().filter(|g| g.resumed).count(), written);
    assert_eq!(second.duels[..first.duels.len()], first.duels[..], "the decided duels stand");
    let games = games_of(&pgn);
    let total: usize = second.duels.iter().map(|d| d.games).sum();
    assert_eq!((games.len(), second.games.len()), (total, total), "every game once");
    let counts: Vec<usize> = duels_of(&games).values().map(Vec::len).collect();
    assert_eq!(counts, second.duels.iter().map(|d| d.games).collect::<Vec<_>>());
    let played: u32 = second.standings.engines.iter().map(|e| e.games()).sum();
    assert_eq!(played as usize, 2 * total, "the standings count the earlier games too");
    // A second resume of the finished knockout plays nothing and finds the same bracket.
    let again =
        run_knockout(&resumed, &plan, &mut Quiet { cancel_after: None, seen: 0 }, &AtomicBool::new(false))
            .expect("nothing to play");
    assert_eq!(again.duels, second.duels);
    assert!(again.games.iter().all(|g| g.resumed));
    // Seeded otherwise, the file is another knockout's.
    let mut other = resumed.clone();
    other.engines.reverse();
    let refused =
        run_knockout(&other, &plan, &mut Quiet { cancel_after: None, seen: 0 }, &AtomicBool::new(false));
    assert!(refused.is_err_and(|e| e.to_string().contains("not a game of this match")));
}
