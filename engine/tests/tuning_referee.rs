//! The tuner's referee: readings judged by an engine's score of the position where they
//! were made (`tune-policy --referee`), by the same standard as issue 18's targets.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

use kibitz_engine::policy::Rules;
use kibitz_engine::tuning::{
    DRAW_AHEAD, HowEnded, Margins, Member, Origin, RESIGN_BEHIND, RefereeJudges, Reply, RuleApplied,
    RunHeader, Seat, TunedGame, Tuner, TuningLog,
};

/// Members of the dead band that agree to anything at once (the widest band, no moves in it
/// needed).
const AGREE_AT_ONCE: [i64; 3] = [1000, 0, 100_000];
/// Members that resign at the first score below a band of 0.
const RESIGN_AT_ONCE: [i64; 3] = [0, 100, 0];

fn population(values: [i64; 3], size: u64) -> Vec<Member> {
    (0..size).map(|id| Member { id, born: 0, origin: Origin::Initial, values: values.to_vec() }).collect()
}

/// A run's header: the dead band at depth 2 from WAC's positions (won for the side to move),
/// readings judged by `referee` (engine words) as `judges` says.
fn header(referee: &str, judges: RefereeJudges) -> RunHeader {
    RunHeader {
        openings: Some(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data/epd/wac.epd")),
        max_plies: 120,
        check_readings: true,
        referee: Some(referee.to_owned()),
        referee_judges: judges,
        ..RunHeader::new(Rules::DeadBand, 4, 7, "sd 2")
    }
}

/// One generation of `size` members with `values`.
fn generation(referee: &str, judges: RefereeJudges, values: [i64; 3], size: u64) -> Vec<TunedGame> {
    let tuner = Tuner::new(header(referee, judges), 2, None).expect("a tuner");
    let cancel = AtomicBool::new(false);
    tuner.play_generation(1, &population(values, size), size, &cancel).expect("a generation").games
}

/// The rule a refereed reading must fall under, from the score the log keeps.
fn expected_rule(game: &TunedGame) -> RuleApplied {
    let verdict = game.finish.playout.expect("judged");
    let score = verdict.score.expect("scored, not played on");
    assert_eq!(verdict.plies, 0, "{game:?}");
    match game.finish.how {
        HowEnded::Agreement if score.abs() > DRAW_AHEAD => RuleApplied::AgreementRefuted,
        HowEnded::Agreement => RuleApplied::AgreedDraw,
        _ => {
            let resigner = game.finish.resigned.expect("a resigner");
            let for_resigner = if resigner == Seat::White { score } else { -score };
            if for_resigner <= -RESIGN_BEHIND {
                RuleApplied::Resigned
            } else {
                RuleApplied::ResignationRefuted
            }
        }
    }
}

#[test]
fn agreed_draws_and_resignations_are_judged_by_the_referees_score_where_they_were_made() {
    let referee = "name=Referee cmd=builtin depth=6";
    for (values, how) in [(AGREE_AT_ONCE, HowEnded::Agreement), (RESIGN_AT_ONCE, HowEnded::Resignation)] {
        let games = generation(referee, RefereeJudges::All, values, 4);
        let readings: Vec<&TunedGame> = games.iter().filter(|g| g.finish.how == how).collect();
        assert!(!readings.is_empty(), "{how:?}: {games:?}");
        for g in &readings {
            assert_eq!(g.rule, expected_rule(g), "{g:?}");
        }
        if how == HowEnded::Agreement {
            // WAC's positions are won for the side to move: the referee sees some of them.
            assert!(readings.iter().any(|g| g.rule == RuleApplied::AgreementRefuted), "{readings:?}");
        }
    }
}

#[test]
fn a_run_that_requires_likely_draws_refutes_agreements_kibitz_rarely_draws() {
    // No position of Kibitz's games was drawn 99% of the time (the most: 98%, level with
    // seven men or fewer), so every agreement within the margin is refuted too.
    let header = RunHeader {
        referee_margins: Margins { draw_odds: 99, ..Margins::default() },
        ..header("name=Referee cmd=builtin depth=4", RefereeJudges::All)
    };
    let tuner = Tuner::new(header, 2, None).expect("a tuner");
    let games = tuner
        .play_generation(1, &population(AGREE_AT_ONCE, 4), 4, &AtomicBool::new(false))
        .expect("a generation")
        .games;
    let agreements: Vec<&TunedGame> = games.iter().filter(|g| g.finish.how == HowEnded::Agreement).collect();
    assert!(!agreements.is_empty(), "{games:?}");
    for g in &agreements {
        assert!(g.finish.playout.and_then(|p| p.score).is_some(), "scored: {g:?}");
        assert_eq!(g.rule, RuleApplied::AgreementRefuted, "{g:?}");
    }
    assert!(
        agreements.iter().any(|g| g
            .finish
            .playout
            .and_then(|p| p.score)
            .is_some_and(|s| s.abs() <= DRAW_AHEAD)),
        "some agreement within the margin, refuted by the odds alone: {agreements:?}"
    );
}

#[test]
fn a_declined_offer_is_scored_where_it_was_made() {
    let tuner = Tuner::new(header("cmd=builtin depth=5", RefereeJudges::All), 2, None).expect("a tuner");
    let cancel = AtomicBool::new(false);
    // A member that offers at once against one that never answers yes.
    let population = [
        Member { id: 0, born: 0, origin: Origin::Initial, values: AGREE_AT_ONCE.to_vec() },
        Member { id: 1, born: 0, origin: Origin::Initial, values: vec![0, 100, 100_000] },
    ];
    for seed in 1..=4 {
        let record = tuner.play_generation(seed, &population, 2, &cancel).expect("a generation");
        let game = &record.games[0];
        let Some(offer) = game.finish.offers.iter().find(|o| o.reply == Reply::Declined) else {
            continue;
        };
        let verdict = offer.playout.expect("judged");
        let score = verdict.score.expect("scored");
        let rule =
            if score.abs() > DRAW_AHEAD { RuleApplied::OfferRefuted } else { RuleApplied::DeclineRefuted };
        assert_eq!(game.rule, rule, "{game:?}");
        return;
    }
    panic!("no offer was declined in four generations");
}

#[test]
fn a_referee_of_resignations_leaves_the_draws_to_be_played_on() {
    let referee = "cmd=builtin depth=5";
    let agreed = generation(referee, RefereeJudges::Resignations, AGREE_AT_ONCE, 4);
    let agreements: Vec<&TunedGame> = agreed.iter().filter(|g| g.finish.how == HowEnded::Agreement).collect();
    assert!(!agreements.is_empty(), "{agreed:?}");
    for g in agreements {
        let playout = g.finish.playout.expect("played on");
        assert!(playout.score.is_none() && playout.plies > 0, "{g:?}");
    }
    let resigned = generation(referee, RefereeJudges::Resignations, RESIGN_AT_ONCE, 4);
    let resignations: Vec<&TunedGame> =
        resigned.iter().filter(|g| g.finish.how == HowEnded::Resignation).collect();
    assert!(!resignations.is_empty(), "{resigned:?}");
    for g in resignations {
        assert_eq!(g.rule, expected_rule(g), "{g:?}");
    }
}

#[test]
fn stockfish_referees_the_readings() {
    let stockfish = std::path::Path::new("/usr/games/stockfish");
    if !stockfish.exists() {
        eprintln!("skipped: /usr/games/stockfish is not installed (CI installs it)");
        return;
    }
    let referee = "name=Stockfish cmd=/usr/games/stockfish proto=uci option.Hash=16 depth=10";
    let games = generation(referee, RefereeJudges::All, AGREE_AT_ONCE, 4);
    let agreements: Vec<&TunedGame> = games.iter().filter(|g| g.finish.how == HowEnded::Agreement).collect();
    assert!(!agreements.is_empty(), "{games:?}");
    for g in &agreements {
        assert_eq!(g.rule, expected_rule(g), "{g:?}");
    }
    assert!(agreements.iter().any(|g| g.rule == RuleApplied::AgreementRefuted), "{agreements:?}");
}

#[test]
fn a_referee_that_fails_judges_nothing_and_one_that_cannot_start_stops_the_run() {
    let engines = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/engines");
    // It dies in its third search: that reading is taken at its word, the next ones ask a
    // fresh referee.
    let crashing = format!(
        "name=Crasher cmd={} arg={} proto=uci depth=3",
        engines.join("die-at-third-go").display(),
        env!("CARGO_BIN_EXE_kibitz-engine")
    );
    let games = generation(&crashing, RefereeJudges::All, AGREE_AT_ONCE, 8);
    let agreements: Vec<&TunedGame> = games.iter().filter(|g| g.finish.how == HowEnded::Agreement).collect();
    assert!(agreements.len() >= 3, "{games:?}");
    let unjudged: Vec<&&TunedGame> = agreements.iter().filter(|g| g.finish.playout.is_none()).collect();
    assert!(!unjudged.is_empty(), "{agreements:?}");
    assert!(unjudged.iter().all(|g| g.rule == RuleApplied::AgreedDraw), "taken at their word: {unjudged:?}");
    assert!(
        agreements.iter().any(|g| g.finish.playout.is_some()),
        "judged by the restarted referee: {agreements:?}"
    );

    let none = format!("cmd={} proto=uci depth=4", engines.join("README.md").display());
    let tuner = Tuner::new(header(&none, RefereeJudges::All), 2, None).expect("a tuner");
    let err = tuner
        .play_generation(1, &population(AGREE_AT_ONCE, 4), 4, &AtomicBool::new(false))
        .expect_err("no referee");
    assert!(err.to_string().contains("could not be started"), "{err}");
}

#[test]
fn a_referee_needs_a_fixed_limit_and_words_that_describe_an_engine() {
    for (words, says) in [
        ("cmd=builtin tc=40/60", "needs a fixed depth"),
        ("cmd=builtin colour=blue", "the referee"),
        ("name=NoProgram depth=3", "the referee"),
    ] {
        let err = Tuner::new(header(words, RefereeJudges::All), 1, None).err().expect("refused");
        assert!(err.to_string().contains(says), "{words}: {err}");
    }
    for words in ["cmd=builtin st=0.05", "cmd=builtin nodes=2000", "cmd=builtin depth=1"] {
        assert!(Tuner::new(header(words, RefereeJudges::All), 1, None).is_ok(), "{words}");
    }
}

#[test]
fn the_command_line_keeps_the_referee_and_its_margins_in_the_log() {
    let dir = std::env::temp_dir().join(format!("kibitz-referee-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let (log, best) = (dir.join("run.log"), dir.join("best.json"));
    let run = |extra: &[&str]| {
        let mut args: Vec<String> =
            ["tune-policy", "--population", "2", "--generations", "1", "--max-plies", "20", "--tc", "sd 1"]
                .map(String::from)
                .to_vec();
        args.extend(["--log".to_owned(), log.to_string_lossy().into_owned()]);
        args.extend(["--out".to_owned(), best.to_string_lossy().into_owned()]);
        args.extend(extra.iter().map(|&a| a.to_owned()));
        kibitz_engine::cli::run(&args)
    };
    assert_eq!(run(&["--referee-draw-margin", "75"]), ExitCode::from(2), "a margin needs a referee");
    assert_eq!(
        run(&["--referee", "cmd=builtin depth=2", "--referee-draw-margin", "-5"]),
        ExitCode::from(2),
        "a negative margin"
    );
    assert!(!log.exists(), "no log was written for a run that cannot start");
    let words = "name=Ref cmd=builtin depth=2";
    assert_eq!(
        run(&["--referee", words, "--referee-draw-odds", "101"]),
        ExitCode::from(2),
        "odds beyond 100 percent"
    );
    assert!(!log.exists(), "no log was written for a run that cannot start");
    assert_eq!(
        run(&["--referee", words, "--referee-draw-margin", "75", "--referee-draw-odds", "75"]),
        ExitCode::SUCCESS
    );
    let header = TuningLog::read(&log).expect("a log").header;
    assert!(header.check_readings, "a referee checks the readings");
    assert_eq!(header.referee.as_deref(), Some(words));
    assert_eq!(header.referee_judges, RefereeJudges::All);
    assert_eq!(
        header.referee_margins,
        Margins { resign_behind: RESIGN_BEHIND, draw_ahead: 75, draw_odds: 75 }
    );
    let _ = std::fs::remove_dir_all(&dir);
}
