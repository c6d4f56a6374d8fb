//! The game list of a multi-game PGN file, driven through its accessible labels.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use kibitz_app::{GameList, GameListEvent};

const TWIC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/pgn/games/twic-01-232games.pgn");
const INVALID: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/pgn/edge/fastchess-test_invalid.pgn");

/// The list and what it reported.
struct Fixture {
    list: GameList,
    events: Vec<GameListEvent>,
}

fn harness(path: impl Into<PathBuf>) -> Harness<'static, Fixture> {
    Harness::builder().with_size([1000.0, 700.0]).with_step_dt(1.0 / 60.0).build_ui_state(
        |ui, f: &mut Fixture| {
            if let Some(event) = f.list.ui(ui) {
                f.events.push(event);
            }
        },
        Fixture { list: GameList::open(path), events: Vec::new() },
    )
}

/// Steps frames until `done` holds (the work runs on other threads meanwhile).
fn step_until(h: &mut Harness<'_, Fixture>, what: &str, done: impl Fn(&Fixture) -> bool) {
    let start = Instant::now();
    while !done(h.state()) {
        assert!(start.elapsed() < Duration::from_secs(60), "timed out waiting for {what}");
        h.step();
        std::thread::sleep(Duration::from_millis(5));
    }
    h.run_steps(2);
}

/// The labels of the rows on screen, top to bottom.
fn visible_rows(h: &Harness<'_, Fixture>) -> Vec<String> {
    h.query_all_by(|n| n.label().is_some_and(|l| l.contains(", game ")))
        .map(|n| n.accesskit_node().label().unwrap_or_default())
        .collect()
}

/// The tags of each game in a file, read line by line without the engine's parser.
fn games_tags(path: &Path) -> Vec<Vec<(String, String)>> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut games = Vec::new();
    let mut tags = Vec::new();
    let mut in_tags = false;
    for line in text.lines() {
        let line = line.trim();
        if let Some(inner) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            if !in_tags {
                in_tags = true;
                tags = Vec::new();
            }
            if let Some((name, value)) = inner.split_once(' ') {
                tags.push((name.to_string(), value.trim_matches('"').to_string()));
            }
        } else if in_tags && !line.is_empty() {
            in_tags = false;
            games.push(std::mem::take(&mut tags));
        }
    }
    games
}

fn tag<'a>(tags: &'a [(String, String)], name: &str) -> &'a str {
    tags.iter().find(|(n, _)| n == name).map_or("", |(_, v)| v.as_str())
}

fn indexed(path: &str) -> Harness<'static, Fixture> {
    let mut h = harness(path);
    step_until(&mut h, "the index", |f| f.list.is_settled());
    h.check_accessibility();
    h
}

#[test]
fn lists_filters_and_sorts_the_games() {
    let games = games_tags(Path::new(TWIC));
    assert_eq!(games.len(), 232);
    let mut h = indexed(TWIC);
    assert_eq!(h.state().list.game_count(), 232);
    assert_eq!(h.state().list.row_count(), 232);
    assert!(h.query_by_label_contains("232 games").is_some());
    let first = visible_rows(&h);
    assert!(!first.is_empty());
    assert!(
        first[0].starts_with(&format!("{} - {}", tag(&games[0], "White"), tag(&games[0], "Black"))),
        "{first:?}"
    );

    // Filter by a player: the count is the games where the name appears in White or Black
    // (or Event or ECO, which the filter also searches).
    let name = "Nakamura";
    let expected = games
        .iter()
        .filter(|t| {
            ["White", "Black", "Event", "ECO"].iter().any(|n| tag(t, n).to_lowercase().contains("nakamura"))
        })
        .count();
    assert!(expected > 0 && expected < 232);
    h.get_by_label("Filter").focus();
    h.step();
    h.get_by_label("Filter").type_text(name);
    h.step();
    step_until(&mut h, "the filter", |f| f.list.is_settled());
    assert_eq!(h.state().list.row_count(), expected);
    assert!(h.query_by_label_contains(&format!("{expected} of 232 games")).is_some());
    assert!(visible_rows(&h).iter().all(|l| l.contains(name)), "{:?}", visible_rows(&h));

    // Clear the filter, sort by White: the first row is the smallest name; again, the largest.
    h.get_by_label("Filter").focus();
    h.step();
    for _ in 0..name.len() {
        h.key_press(egui::Key::Backspace);
        h.step();
    }
    step_until(&mut h, "the cleared filter", |f| f.list.is_settled());
    assert_eq!(h.state().list.row_count(), 232);
    let whites: Vec<&str> = games.iter().map(|t| tag(t, "White")).collect();
    let min = whites.iter().min().unwrap();
    let max = whites.iter().max().unwrap();
    h.get_by_label("White").click();
    h.step();
    step_until(&mut h, "the sort", |f| f.list.is_settled());
    let rows = visible_rows(&h);
    assert!(rows[0].starts_with(&format!("{min} - ")), "{rows:?}");
    assert_ne!(rows[0], first[0]);
    h.get_by_label("White, sorted ascending").click();
    h.step();
    step_until(&mut h, "the reverse sort", |f| f.list.is_settled());
    let rows = visible_rows(&h);
    assert!(rows[0].starts_with(&format!("{max} - ")), "{rows:?}");
    assert!(h.query_by_label("White, sorted descending").is_some());
    h.check_accessibility();
}

#[test]
fn opens_the_selected_game() {
    let mut h = indexed(TWIC);
    // Pick the third row on screen.
    let label = visible_rows(&h)[2].clone();
    h.get_by_label(&label).click();
    h.step();
    h.step();
    let game = h.state().list.selected().expect("a row is selected");
    assert_eq!(game, 2);
    h.get_by_label("Open game").click();
    h.step();
    step_until(&mut h, "the game", |f| !f.events.is_empty());
    match h.state_mut().events.remove(0) {
        GameListEvent::Loaded(record) => {
            let white = record.tag("White").unwrap_or_default().to_string();
            let black = record.tag("Black").unwrap_or_default().to_string();
            assert!(label.starts_with(&format!("{white} - {black} ")), "{label} vs {white} - {black}");
            assert!(!record.san_moves().is_empty());
        }
        other => panic!("expected a game, got {other:?}"),
    }
}

#[test]
fn double_click_opens_a_game() {
    let mut h = indexed(TWIC);
    let label = visible_rows(&h)[0].clone();
    h.get_by_label(&label).click();
    h.get_by_label(&label).click();
    h.step();
    assert_eq!(h.state().list.selected(), Some(0));
    step_until(&mut h, "the game", |f| !f.events.is_empty());
    assert!(matches!(h.state().events[0], GameListEvent::Loaded(_)), "{:?}", h.state().events);
}

#[test]
fn a_broken_game_reports_its_line() {
    let mut h = indexed(INVALID);
    let rows = visible_rows(&h);
    assert_eq!(h.state().list.row_count(), 2, "{rows:?}");
    assert_eq!(rows.len(), 2);
    h.get_by_label(&rows[0]).click();
    h.step();
    h.get_by_label("Open game").click();
    h.step();
    step_until(&mut h, "the error", |f| !f.events.is_empty());
    match &h.state().events[0] {
        GameListEvent::Partial(game, message) => {
            assert!(message.contains("line 3"), "{message}");
            assert!(message.contains("Game 1"), "{message}");
            assert_eq!(game.len(), 6, "read up to the last legal move");
        }
        other => panic!("expected a partly read game, got {other:?}"),
    }
    assert!(h.query_by_label_contains("line 3").is_some(), "the panel shows the error");
    // The other game still loads.
    h.state_mut().events.clear();
    h.get_by_label(&rows[1]).click();
    h.step();
    h.get_by_label("Open game").click();
    h.step();
    step_until(&mut h, "the game", |f| !f.events.is_empty());
    assert!(matches!(h.state().events[0], GameListEvent::Loaded(_)), "{:?}", h.state().events);
}

#[test]
fn a_missing_file_says_so() {
    let mut h = harness("/nonexistent/kibitz/games.pgn");
    step_until(&mut h, "the failure", |f| f.list.is_settled());
    let message = h.state().list.message().expect("a message").to_string();
    assert!(message.contains("Could not index games.pgn"), "{message}");
    assert!(h.query_by_label_contains("Could not index").is_some());
    assert_eq!(h.state().list.row_count(), 0);
    h.get_by_label("Close").click();
    h.step();
    assert!(matches!(h.state().events[..], [GameListEvent::Closed]));
}

#[test]
fn indexing_can_be_cancelled() {
    // A file big enough that indexing is still running when Cancel is clicked.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.pgn");
    let one = std::fs::read(TWIC).unwrap();
    let mut big = Vec::with_capacity(one.len() * 200);
    for _ in 0..200 {
        big.extend_from_slice(&one);
        big.extend_from_slice(b"\n\n");
    }
    std::fs::write(&path, big).unwrap();
    let mut h = harness(&path);
    h.step();
    assert!(h.state().list.is_indexing());
    assert!(h.query_by_label_contains("Indexing:").is_some());
    h.get_by_label("Cancel").click();
    h.step();
    step_until(&mut h, "the cancellation", |f| !f.list.is_indexing());
    assert_eq!(h.state().list.message(), Some("Indexing cancelled"));
    assert!(h.query_by_label("Indexing cancelled").is_some());
    assert_eq!(h.state().list.row_count(), 0);
}

/// Frame cost with a million games (`pgn-1m.pgn` in the temporary folder, too large for the
/// repository); make it from the repository root with
/// `for i in $(seq 289); do cat data/pgn/games/*.pgn; done > "${TMPDIR:-/tmp}/pgn-1m.pgn"`
/// (1,003,119 games) and run
/// `cargo test --release -p kibitz --test game_list -- --ignored --nocapture`.
#[test]
#[ignore = "needs pgn-1m.pgn in the temporary folder and takes a while"]
fn frame_cost_with_a_million_games() {
    let path = std::env::temp_dir().join("pgn-1m.pgn");
    if !path.exists() {
        eprintln!(
            "skipped: no {}; make it from the repository root with \
             `for i in $(seq 289); do cat data/pgn/games/*.pgn; done > {}`",
            path.display(),
            path.display()
        );
        return;
    }
    let start = Instant::now();
    let mut h = harness(path);
    let mut first_frame = Duration::ZERO;
    let mut slowest_indexing_frame = Duration::ZERO;
    let mut frames = 0;
    while h.state().list.is_indexing() {
        let t = thread_cpu();
        h.step();
        let spent = thread_cpu() - t;
        if frames == 0 {
            first_frame = spent;
        }
        slowest_indexing_frame = slowest_indexing_frame.max(spent);
        frames += 1;
        std::thread::sleep(Duration::from_millis(50));
        assert!(start.elapsed() < Duration::from_secs(900), "indexing timed out");
    }
    h.run_steps(2);
    let usable = start.elapsed();
    let games = h.state().list.game_count();
    eprintln!(
        "{games} games usable after {usable:.2?} ({frames} frames while indexing, first {first_frame:?}, slowest {slowest_indexing_frame:?})"
    );
    let rss = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmRSS")).map(str::to_owned));
    eprintln!("{rss:?}");

    let measure = |h: &mut Harness<'_, Fixture>, what: &str| {
        let mut times: Vec<Duration> = (0..200)
            .map(|_| {
                let t = thread_cpu();
                h.step();
                thread_cpu() - t
            })
            .collect();
        times.sort();
        eprintln!("{what}: median {:?}, p99 {:?}, max {:?}", times[100], times[198], times[199]);
    };
    measure(&mut h, "idle list, 1M rows");

    // Scroll to the middle and measure while scrolling.
    let centre = h.get_by_label(&visible_rows(&h)[0]).rect().center();
    h.hover_at(centre);
    let mut times = Vec::new();
    for _ in 0..200 {
        h.event(egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Page,
            delta: egui::vec2(0.0, -50.0),
            modifiers: egui::Modifiers::NONE,
            phase: egui::TouchPhase::Move,
            source: egui::MouseWheelSource::Wheel,
        });
        let t = thread_cpu();
        h.step();
        times.push(thread_cpu() - t);
    }
    times.sort();
    eprintln!(
        "scrolling: median {:?}, p99 {:?}, max {:?}; top row {:?}",
        times[100],
        times[198],
        times[199],
        visible_rows(&h).first()
    );

    // Filter and sort off the UI thread: time until the list shows the result.
    let t = Instant::now();
    h.get_by_label("Filter").focus();
    h.step();
    h.get_by_label("Filter").type_text("Carlsen");
    h.step();
    step_until(&mut h, "the filter", |f| f.list.is_settled());
    eprintln!("filter 'Carlsen': {} rows after {:.2?}", h.state().list.row_count(), t.elapsed());
    let t = Instant::now();
    h.get_by_label("Filter").focus();
    h.step();
    for _ in 0.."Carlsen".len() {
        h.key_press(egui::Key::Backspace);
        h.step();
    }
    step_until(&mut h, "the cleared filter", |f| f.list.is_settled());
    eprintln!("filter cleared: {} rows after {:.2?}", h.state().list.row_count(), t.elapsed());
    let t = Instant::now();
    h.get_by_label("White").click();
    h.step();
    step_until(&mut h, "the sort", |f| f.list.is_settled());
    eprintln!("sort by White: {:.2?}; top row {:?}", t.elapsed(), visible_rows(&h).first());
    measure(&mut h, "sorted list, 1M rows");
}

fn thread_cpu() -> Duration {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid timespec for the call to write.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}
