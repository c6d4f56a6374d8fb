//! The Tuning workspace, clicked through: a real tuning run's log opens as plots of its
//! generations, its best member becomes Kibitz's draw and resign settings, and a file that is
//! not a tuning log is refused with its reason.

mod common;

use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use common::{app_in, wait_for_text};
use egui_kittest::kittest::Queryable;
use kibitz_app::{Paths, Settings};
use kibitz_engine::policy::PolicySettings;
use kibitz_engine::tuning::TuningLog;

/// Three generations of four members, one ply deep, readings checked as `check` says (a few
/// seconds).
fn tuning_run(root: &Path, check: &[&str]) {
    let openings = format!("{}/../data/epd/wac.epd", env!("CARGO_MANIFEST_DIR"));
    let log = root.join("run.log").to_string_lossy().into_owned();
    let best = root.join("best.json").to_string_lossy().into_owned();
    let args: Vec<String> = [
        "tune-policy",
        "--population",
        "4",
        "--generations",
        "3",
        "--concurrency",
        "2",
        "--max-plies",
        "60",
        "--tc",
        "sd 1",
        "--openings",
        &openings,
        "--log",
        &log,
        "--out",
        &best,
    ]
    .map(String::from)
    .into_iter()
    .chain(check.iter().map(|&a| a.to_owned()))
    .collect();
    assert_eq!(kibitz_engine::cli::run(&args), ExitCode::SUCCESS, "the tuning run");
}

#[test]
fn a_tuning_run_opens_as_plots_and_its_best_member_becomes_the_policy() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    tuning_run(dir.path(), &["--check-readings"]);
    let log = TuningLog::read(&dir.path().join("run.log")).expect("the run's log");
    let summaries = log.summaries();
    let best = &summaries.last().expect("three generations").best;
    let expected = log.genome.settings(&best.values);

    let mut h = app_in(dir.path());
    h.get_by_label("Tuning").click();
    h.run_steps(10);
    h.get_by_label("Open tuning log…").click();
    wait_for_text(&mut h, "3 generations of 4 members");
    assert!(log.header.check_readings, "the run checked readings");
    assert!(
        h.query_by_label("Readings checked by playing the game on: Kibitz at the run's control.").is_some()
    );
    // The side panel grew with the run: let it settle before clicking in it.
    h.run_steps(10);
    let second = log.genome.parameters()[1].name;
    h.get_by_label(second).click();
    h.run_steps(4);
    wait_for_text(&mut h, &format!("({second}) over the generations"));
    assert!(h.query_by_label_contains("How the games ended").is_some());

    use_the_best(&mut h, dir.path(), &expected);
}

/// Clicks "Use the best parameters" and waits for `expected` to reach the settings file
/// under `root`.
fn use_the_best(
    h: &mut egui_kittest::Harness<'static, kibitz_app::KibitzApp>,
    root: &Path,
    expected: &PolicySettings,
) {
    h.get_by_label("Use the best parameters").click();
    h.run_steps(4);
    wait_for_text(h, "The new draw and resign settings apply from the next game.");
    // The settings reach their file within a few seconds.
    let file = Paths::under(root.to_path_buf()).settings_file();
    let start = Instant::now();
    while Settings::load(&file).0.policy != *expected {
        assert!(start.elapsed() < Duration::from_secs(20), "the tuned policy was not saved");
        h.step();
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_run_closed_by_a_trial_shows_its_candidates_and_offers_the_chosen_one() {
    let referee = "name=Referee cmd=builtin depth=2";
    let (dir, mut h) = run_opened(&["--referee", referee, "--trial", "2", "--candidates", "2"]);
    let log = TuningLog::read(&dir.path().join("run.log")).expect("the run's log");
    let trial = log.trial.as_ref().expect("the log keeps the trial");
    let chosen = trial.chosen().expect("a chosen candidate");
    h.run_steps(10);
    assert!(h.query_by_label("Trial after generation 3").is_some());
    assert!(h.query_by_label_contains("Each candidate played 2 fresh self-play games").is_some());
    for t in &trial.trials {
        assert!(h.query_by_label(&format!("#{}", t.candidate.id)).is_some(), "a row for #{}", t.candidate.id);
    }
    let verdict = if trial.met {
        format!("Candidate #{} met every target, its weakest by the widest margin.", chosen.candidate.id)
    } else {
        format!("No candidate met the targets; #{} came nearest.", chosen.candidate.id)
    };
    assert!(h.query_by_label(&verdict).is_some(), "{verdict}");
    assert!(h.query_by_label(&format!("Best: candidate #{} of the trial", chosen.candidate.id)).is_some());
    use_the_best(&mut h, dir.path(), &log.genome.settings(&chosen.candidate.values));
}

/// A run of [`tuning_run`] with `check` in a fresh folder, opened in the Tuning view.
fn run_opened(check: &[&str]) -> (tempfile::TempDir, egui_kittest::Harness<'static, kibitz_app::KibitzApp>) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    tuning_run(dir.path(), check);
    let mut h = app_in(dir.path());
    h.get_by_label("Tuning").click();
    h.run_steps(10);
    h.get_by_label("Open tuning log…").click();
    wait_for_text(&mut h, "3 generations of 4 members");
    (dir, h)
}

#[test]
fn a_refereed_run_says_who_judged_which_readings() {
    let referee = "name=Referee cmd=builtin depth=2";
    let tables = format!("{}/../data/syzygy", env!("CARGO_MANIFEST_DIR"));
    let args = ["--referee", referee, "--referee-judges", "resignations", "--playouts", "3", "--tb", &tables];
    let (_dir, h) = run_opened(&args);
    assert!(h.query_by_label(&format!("Resignations judged by a referee's score: {referee}.")).is_some());
    assert!(
        h.query_by_label(
            "Draw offers checked by playing the game on, 3 games each: Kibitz at the run's control."
        )
        .is_some()
    );
    assert!(h.query_by_label(&format!("The members probed the Syzygy tables in {tables}.")).is_some());
}

#[test]
fn a_run_that_required_likely_draws_says_how_likely() {
    let referee = "name=Referee cmd=builtin depth=2";
    let (_dir, h) = run_opened(&["--referee", referee, "--referee-draw-odds", "75"]);
    assert!(h.query_by_label(&format!("Readings judged by a referee's score: {referee}.")).is_some());
    assert!(
        h.query_by_label(
            "A draw counted only where Kibitz's own games from positions with as many men and as large a score \
             were drawn at least 75% of the time."
        )
        .is_some()
    );
}

#[test]
fn a_file_that_is_not_a_tuning_log_is_refused_with_its_reason() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    std::fs::write(dir.path().join("run.log"), "[Event \"not a tuning log\"]\n").expect("a file");
    let mut h = app_in(dir.path());
    h.get_by_label("Tuning").click();
    h.run_steps(10);
    h.get_by_label("Open tuning log…").click();
    wait_for_text(&mut h, "run.log: ");
    assert!(h.query_by_label("Use the best parameters").is_none(), "nothing to use");
}
