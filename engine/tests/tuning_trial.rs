//! A tuning run's closing trial (`tune-policy --trial GAMES`): candidates play fresh
//! self-play games, their resignations and agreed draws judged by the referee by issue 18's
//! standard, and BEST is the one meeting the targets.

mod common;

use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

use common::Scratch;
use kibitz_engine::policy::{PolicySettings, Rules};
use kibitz_engine::tuning::{
    Genome, Member, Miss, Origin, RunHeader, Targets, Tuner, TuningLog, candidates, chosen,
};

/// White a knight down, to move: lost by any standard, and within the eager drawer's band.
const KNIGHT_DOWN: &str = "1n2k3/4pp2/8/8/8/8/4PP2/4K3 w - - 0 40";
/// White a pawn down, to move, its king in time to stop the pawn: a draw (three pawns short of
/// a resignation, within a pawn and a half for a draw).
const PAWN_DOWN: &str = "4k3/4p3/8/8/8/8/8/4K3 w - - 0 40";

/// Dead-band members that resign at the first score below 0 and offer only at exactly 0.
const RESIGN_AT_ONCE: [i64; 3] = [0, 0, 0];
/// Dead-band members that never resign and agree to anything at once.
const AGREE_AT_ONCE: [i64; 3] = [1000, 0, 100_000];

fn candidate(id: u64, values: [i64; 3]) -> (u32, Member) {
    (40, Member { id, born: 40, origin: Origin::Initial, values: values.to_vec() })
}

#[test]
fn stockfish_judges_each_candidates_resignations_and_agreements_by_the_issues_standard() {
    if !Path::new("/usr/games/stockfish").exists() {
        eprintln!("skipped: /usr/games/stockfish is not installed (CI installs it)");
        return;
    }
    let dir = Scratch::new("trial-stockfish");
    let openings = dir.0.join("openings.epd");
    std::fs::write(&openings, format!("{KNIGHT_DOWN}\n{PAWN_DOWN}\n")).expect("writable");
    let header = RunHeader {
        openings: Some(openings),
        max_plies: 40,
        check_readings: true,
        referee: Some("name=Stockfish cmd=/usr/games/stockfish proto=uci option.Hash=16 depth=10".into()),
        ..RunHeader::new(Rules::DeadBand, 2, 7, "sd 4")
    };
    let tuner = Tuner::new(header, 2, None).expect("a tuner");
    let cancel = AtomicBool::new(false);
    let mut ended = Vec::new();
    let trials = tuner
        .trial(
            &[candidate(5, RESIGN_AT_ONCE), candidate(9, AGREE_AT_ONCE)],
            2,
            0,
            &mut |n| ended.push(n),
            &cancel,
        )
        .expect("a trial");
    let ids: Vec<u64> = trials.iter().map(|t| t.candidate.id).collect();
    assert_eq!(ids, [5, 9], "in the candidates' order");
    assert_eq!(ended, [1, 2, 3, 4], "told of each game as it ended");
    // Each played both positions: the eager resigner gave up both, rightly a knight down and
    // wrongly a pawn down.
    let resigner = &trials[0].counts;
    assert_eq!((resigner.games, resigner.decisive, resigner.resigned), (2, 2, 2), "{resigner:?}");
    assert_eq!((resigner.judged_resignations, resigner.wrong_resignations), (2, 1), "{resigner:?}");
    // The eager drawer agreed both, rightly a pawn down and wrongly a knight down.
    let drawer = &trials[1].counts;
    assert_eq!((drawer.games, drawer.drawn, drawer.agreed), (2, 2, 2), "{drawer:?}");
    assert_eq!((drawer.judged_agreements, drawer.wrong_agreements), (2, 1), "{drawer:?}");
    let targets = Targets::default();
    assert!(resigner.misses(&targets).contains(&Miss::WrongResignations(0.5, 0.02)));
    assert!(drawer.misses(&targets).contains(&Miss::WrongAgreements(0.5, 0.02)));
    let (_, met) = chosen(&trials, &targets).expect("a choice");
    assert!(!met, "neither meets the targets");
}

/// `kibitz tune-policy --population 2 --generations 1 --tc "sd 1" ... EXTRA` in `dir`.
fn run(dir: &Scratch, extra: &[&str]) -> ExitCode {
    let path = |name: &str| dir.0.join(name).to_string_lossy().into_owned();
    let mut args: Vec<String> =
        ["tune-policy", "--population", "4", "--generations", "2", "--max-plies", "30"]
            .map(String::from)
            .to_vec();
    args.extend([
        "--tc".into(),
        "sd 1".into(),
        "--log".into(),
        path("run.log"),
        "--out".into(),
        path("best.json"),
    ]);
    args.extend(extra.iter().map(|&a| a.to_owned()));
    kibitz_engine::cli::run(&args)
}

#[test]
fn the_command_line_closes_a_run_with_a_trial_and_writes_the_chosen_candidate() {
    let dir = Scratch::new("trial-cli");
    let log = dir.0.join("run.log");
    assert_eq!(run(&dir, &["--trial", "2"]), ExitCode::FAILURE, "a trial needs a referee");
    assert!(!log.exists(), "no log was written for a run that cannot start");
    assert_eq!(run(&dir, &["--trial", "2", "--candidates", "0"]), ExitCode::from(2), "no candidate");

    let referee = "name=Ref cmd=builtin depth=3";
    assert_eq!(run(&dir, &["--referee", referee, "--trial", "3", "--candidates", "2"]), ExitCode::SUCCESS);
    let read = TuningLog::read(&log).expect("a log");
    let record = read.trial.clone().expect("the log keeps the trial");
    assert_eq!((record.after, record.games), (2, 3));
    assert!(!record.trials.is_empty() && record.trials.len() <= 2, "{record:?}");
    assert!(record.trials.iter().all(|t| t.counts.games == 3), "{record:?}");
    // The candidates were the consensus of the run's generations.
    let tried: Vec<(u32, Member)> =
        record.trials.iter().map(|t| (t.generation, t.candidate.clone())).collect();
    assert_eq!(candidates(&read.summaries(), 2), tried);
    // BEST.json holds the chosen one's settings.
    let (best, met) = chosen(&record.trials, &Targets::default()).expect("a choice");
    assert_eq!((record.best, record.met), (best.candidate.id, met));
    let settings = PolicySettings::load(&dir.0.join("best.json")).expect("BEST.json loads");
    assert_eq!(Genome::for_rules(Rules::DeadBand).values(&settings), best.candidate.values);

    // A finished run is tried again on resuming, with nothing left to play; the log keeps
    // the newer trial.
    let resume = ["tune-policy", "--resume", &log.to_string_lossy(), "--generations", "2", "--trial", "2"]
        .map(String::from)
        .to_vec();
    let out = ["--out".to_owned(), dir.0.join("best.json").to_string_lossy().into_owned()];
    assert_eq!(kibitz_engine::cli::run(&[resume, out.to_vec()].concat()), ExitCode::SUCCESS);
    let again = TuningLog::read(&log).expect("a log");
    assert_eq!(again.generations.len(), 2, "no generation was added");
    let record = again.trial.expect("the newer trial");
    assert_eq!((record.after, record.games), (2, 2));
    assert!(record.trials.iter().all(|t| t.counts.games == 2), "{record:?}");

    // A run resumed past its trial reads back whole, the trial an earlier generation's.
    let more =
        ["tune-policy", "--resume", &log.to_string_lossy(), "--generations", "3"].map(String::from).to_vec();
    assert_eq!(kibitz_engine::cli::run(&[more, out.to_vec()].concat()), ExitCode::SUCCESS);
    let on = TuningLog::read(&log).expect("a log with a trial line between generations");
    assert_eq!((on.generations.len(), on.trial.map(|t| t.after)), (3, Some(2)));
}
