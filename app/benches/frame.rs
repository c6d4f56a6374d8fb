//! Frame cost of the play view while engines think, and of the study view.
//!
//! Run with `cargo bench -p kibitz --bench frame`; a word after `--` (`study`, `thinking`,
//! `watch`, `analysis`, `book`) runs only the case of that name. The cases: a study of a long
//! annotated game, without and with Kibitz analysing it (five lines, the board stepping on
//! every second, and the time from a step to the first line shown); a 40-ply game resumed with Kibitz to move at full strength, so it
//! searches for three seconds while frames are measured; and two external engines (Debian's
//! Stockfish twice) playing each other at 1+0.01, game after game, frames paced at 60 Hz; and
//! the Book workspace on a book of a million positions (opening it, dragging a value, saving).
//! Each frame is timed with the thread's CPU clock (not wall time): the egui pass alone, and
//! the pass plus tessellation. Rendering is left out: a software rasteriser says nothing
//! about a real GPU.

use std::sync::Arc;
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use kibitz_app::{AppOptions, FilePicker, KibitzApp, Paths, SavedGame};
use kibitz_engine::{GameRecord, Level};
use shakmaty::{Color, Position};

struct NoFiles;

impl FilePicker for NoFiles {
    fn open_pgn(&self) -> Option<std::path::PathBuf> {
        None
    }
    fn save_pgn(&self, _: &str) -> Option<std::path::PathBuf> {
        None
    }
}

fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes into the timespec we own.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

/// Runs one frame and tessellates it: the CPU time of the egui pass alone, and with
/// tessellation.
fn timed_frame(h: &mut Harness<'_, KibitzApp>) -> (Duration, Duration) {
    let t0 = thread_cpu_time();
    h.step();
    let t1 = thread_cpu_time();
    let output = h.output();
    let shapes = output.shapes.clone();
    let ppp = output.pixels_per_point;
    let primitives = h.ctx.tessellate(shapes, ppp);
    let t2 = thread_cpu_time();
    std::hint::black_box(primitives);
    (t1 - t0, t2 - t0)
}

/// Times `frames` frames: the egui pass alone, and with tessellation.
fn measure(h: &mut Harness<'_, KibitzApp>, frames: usize) -> (Vec<Duration>, Vec<Duration>) {
    let (mut pass, mut total): (Vec<_>, Vec<_>) = (0..frames).map(|_| timed_frame(h)).unzip();
    pass.sort();
    total.sort();
    (pass, total)
}

fn report(title: &str, (pass, total): &(Vec<Duration>, Vec<Duration>)) {
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    let n = pass.len();
    println!("{title}");
    println!(
        "  egui pass:              median {:7.1} us  p99 {:7.1} us  max {:7.1} us",
        us(percentile(pass, 0.5)),
        us(percentile(pass, 0.99)),
        us(pass[n - 1])
    );
    println!(
        "  pass + tessellation:    median {:7.1} us  p99 {:7.1} us  max {:7.1} us",
        us(percentile(total, 0.5)),
        us(percentile(total, 0.99)),
        us(total[n - 1])
    );
}

/// A study of a game of at least 200 plies from `data/pgn/games`, with a variation (and
/// a nested one) every ten plies and a comment every five.
fn annotated_study() -> GameRecord {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/pgn/games/Carlsen.pgn");
    let bytes = std::fs::read(path).expect("data/pgn/games/Carlsen.pgn is readable");
    let mut game = kibitz_engine::read_games(&bytes)
        .filter_map(Result::ok)
        .find(|g| g.len() >= 200)
        .expect("a game of 200 plies");
    // Only unfinished games are offered for resuming; the benchmark resumes this one.
    game.set_tag("Result", "*");
    let main = game.main_line().to_vec();
    for (i, &id) in main.iter().enumerate().skip(1) {
        if i % 5 == 0 {
            game.set_comment(id, "A comment of a few words, as annotators write them.");
        }
        if i % 10 == 0 {
            let parent = main[i - 1];
            let played = game.node(id).and_then(|n| n.mv());
            let alternatives: Vec<_> = game
                .position_at_node(parent)
                .legal_moves()
                .into_iter()
                .filter(|&m| Some(m) != played)
                .take(2)
                .collect();
            for m in alternatives {
                if let Ok(v) = game.play_at(parent, m) {
                    let reply = game.position_at_node(v).legal_moves().first().copied();
                    if let Some(r) = reply
                        && let Ok(w) = game.play_at(v, r)
                    {
                        let nested = game.position_at_node(v).legal_moves().get(1).copied();
                        if let Some(n) = nested {
                            let _ = game.play_at(v, n);
                        }
                        let _ = w;
                    }
                }
            }
        }
    }
    game
}

/// Whether the case `name` runs: the words after `--` (cargo adds `--bench`) name the cases
/// to run; with none, every case runs.
fn selected(name: &str) -> bool {
    let words: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    words.is_empty() || words.iter().any(|w| w == name)
}

fn main() {
    if selected("study") {
        study_frames();
    }
    if selected("thinking") {
        thinking_frames();
    }
    if selected("watch") {
        watch_frames();
    }
    if selected("analysis") {
        analysis_frames();
    }
    if selected("book") {
        book_frames();
    }
    if selected("tournament") {
        tournament_frames();
    }
}

/// Frames measured in the `tournament` case.
const TOURNAMENT_FRAMES: usize = 1000;

/// Frames of the Tournament workspace while a round robin of four levels of Kibitz plays two
/// games at once: two live boards, the table, the cross table and the games so far.
fn tournament_frames() {
    let dir = std::env::temp_dir().join(format!("kibitz-frame-bench-tournament-{}", std::process::id()));
    let paths = Paths::under(dir.clone());
    let settings = br#"{"own_book": false, "tournament": {"entrants": [{"kibitz": "strong"},
        {"kibitz": "club"}, {"kibitz": "casual"}, {"kibitz": "beginner"}], "control": "st 0.05",
        "format": "roundrobin", "pairs": 4, "concurrency": 2, "rules": "tcec"}}"#;
    kibitz_engine::write_atomic(&paths.settings_file(), settings).expect("settings");
    let options = AppOptions { paths, picker: Arc::new(NoFiles), screenshot: None, open: None };
    let mut h = Harness::builder().with_size([1280.0, 800.0]).build_eframe(|cc| KibitzApp::new(cc, options));
    h.run_steps(2);
    h.get_by_label("Tournament").click();
    h.run_steps(10);
    h.get_by_label("Start").click();
    h.run_steps(2);
    // Let some games end, so that the table and the list have rows.
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(10) {
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    report(
        &format!("tournament, two live boards and {TOURNAMENT_FRAMES} frames while the games go on:"),
        &measure(&mut h, TOURNAMENT_FRAMES),
    );
    h.get_by_label("Cancel tournament").click();
    h.run_steps(2);
    drop(h);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Opens the book `book.kbook` of its folder; writes books nowhere.
struct BookPicker(std::path::PathBuf);

impl FilePicker for BookPicker {
    fn open_pgn(&self) -> Option<std::path::PathBuf> {
        None
    }
    fn save_pgn(&self, _: &str) -> Option<std::path::PathBuf> {
        None
    }
    fn open_book(&self) -> Option<std::path::PathBuf> {
        Some(self.0.join("book.kbook"))
    }
}

/// How many positions the book of the `book` case has.
const BOOK_POSITIONS: usize = 1_000_000;

/// A book of [`BOOK_POSITIONS`] positions: random games of up to 40 plies from the initial
/// position, each move counted with a random result, until that many positions have moves.
fn synthetic_book() -> kibitz_engine::Book {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let mut entries = std::collections::HashMap::<(u64, u16), kibitz_engine::BookEntry>::new();
    let mut positions = std::collections::HashSet::new();
    while positions.len() < BOOK_POSITIONS {
        let mut pos = shakmaty::Chess::default();
        for _ in 0..rng.random_range(1..=40) {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.random_range(0..moves.len())];
            let key = kibitz_engine::book_key(&pos);
            positions.insert(key);
            let e = entries
                .entry((key, kibitz_engine::encode_move(m)))
                .or_insert_with(|| kibitz_engine::BookEntry::new(key, kibitz_engine::encode_move(m)));
            let outcome = match rng.random_range(0..3) {
                0 => kibitz_engine::Outcome::Win,
                1 => kibitz_engine::Outcome::Draw,
                _ => kibitz_engine::Outcome::Loss,
            };
            e.fixed.record(outcome);
            pos.play_unchecked(m);
        }
    }
    kibitz_engine::Book::from_entries(entries.into_values().collect())
}

/// The Book workspace on a book of a million positions: the time until the opened book is
/// shown, and the frames meanwhile (the UI does not wait for the file); then frames while a
/// value is dragged back and forth, the time from a drag to every probability updated, and
/// the time and bytes of saving one edited position.
fn book_frames() {
    let dir = std::env::temp_dir().join(format!("kibitz-frame-bench-book-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let started = Instant::now();
    let book = synthetic_book();
    let file = dir.join("book.kbook");
    std::fs::create_dir_all(&dir).expect("temp dir");
    book.save(&file).expect("temp dir is writable");
    let bytes = std::fs::metadata(&file).map(|m| m.len()).unwrap_or(0);
    println!(
        "book of {} positions, {} moves, {:.0} MB, made in {:.1} s",
        book.positions(),
        book.len(),
        bytes as f64 / 1e6,
        started.elapsed().as_secs_f64()
    );
    let paths = Paths::under(dir.clone());
    let options =
        AppOptions { paths, picker: Arc::new(BookPicker(dir.clone())), screenshot: None, open: None };
    let mut h = Harness::builder().with_size([1100.0, 760.0]).build_eframe(|cc| KibitzApp::new(cc, options));
    h.run_steps(3);
    h.get_by_label("Book").click();
    h.run_steps(10);

    // Open: frames go on while the file is read; time until its moves are listed.
    let shown = format!("{} moves", book.len());
    h.get_by_label("Open book…").click();
    let asked = Instant::now();
    let mut frames = Vec::new();
    while h.query_all_by_label_contains(&shown).next().is_none() {
        assert!(asked.elapsed() < Duration::from_secs(60), "the book opens within a minute");
        frames.push(timed_frame(&mut h).1);
        std::thread::sleep(Duration::from_millis(5));
    }
    let open = asked.elapsed();
    frames.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "open: {:.0} ms until the book is shown; {} frames meanwhile, the longest {:.2} ms",
        ms(open),
        frames.len(),
        ms(frames.last().copied().unwrap_or_default())
    );
    h.run_steps(10);

    // Drag e4's bar back and forth, a pointer move a frame.
    let bar = h.get_by_label("value of e4").rect();
    let (left, right) = (bar.left_center() + egui::vec2(2.0, 0.0), bar.right_center() - egui::vec2(2.0, 0.0));
    let button = |pos, pressed| egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: egui::Modifiers::NONE,
    };
    h.event(egui::Event::PointerMoved(left));
    h.event(button(left, true));
    h.step();
    let (mut pass, mut total) = (Vec::new(), Vec::new());
    let mut updates = Vec::new();
    for frame in 0..BOOK_DRAG_FRAMES {
        let phase = (frame % 120) as f32 / 60.0;
        let t = if phase <= 1.0 { phase } else { 2.0 - phase };
        h.event(egui::Event::PointerMoved(left.lerp(right, t)));
        let before = probabilities(&h);
        let frame_start = Instant::now();
        let (p, all) = timed_frame(&mut h);
        if probabilities(&h) != before {
            updates.push(all);
        }
        pass.push(p);
        total.push(all);
        std::thread::sleep(FRAME_PERIOD.saturating_sub(frame_start.elapsed()));
    }
    // Let go in the middle: the move keeps a value of about 50.
    let middle = left.lerp(right, 0.5);
    h.event(egui::Event::PointerMoved(middle));
    h.step();
    h.event(button(middle, false));
    h.run_steps(2);
    pass.sort();
    total.sort();
    updates.sort();
    report(
        &format!("Book workspace, a value dragged back and forth ({BOOK_DRAG_FRAMES} frames at 60 Hz)"),
        &(pass, total),
    );
    println!(
        "  drag to every probability updated: in the same frame, {} of {} frames changed them; \
         those frames: median {:.2} ms, max {:.2} ms",
        updates.len(),
        BOOK_DRAG_FRAMES,
        ms(percentile(&updates, 0.5)),
        ms(updates.last().copied().unwrap_or_default())
    );

    // Save the one edited position.
    h.get_by_label("Save book").click();
    let asked = Instant::now();
    while h.query_all_by_label_contains("Saved the book").next().is_none() {
        assert!(asked.elapsed() < Duration::from_secs(60), "the book is saved within a minute");
        h.step();
        std::thread::sleep(Duration::from_millis(2));
    }
    let wrote = h
        .query_all_by_label_contains("Wrote")
        .filter_map(|n| n.accesskit_node().value())
        .next()
        .unwrap_or_default();
    println!("save of one edited position: {:.0} ms until saved; {wrote}", ms(asked.elapsed()));
    let _ = std::fs::remove_dir_all(dir);
}

/// Frames measured while a book value is dragged.
const BOOK_DRAG_FRAMES: usize = 600;

/// The probabilities the Book workspace shows.
fn probabilities(h: &Harness<'_, KibitzApp>) -> Vec<String> {
    h.query_all_by(|n| {
        n.role() == egui::accesskit::Role::Label
            && n.value().is_some_and(|v| v.ends_with('%') || v.starts_with("excluded"))
    })
    .filter_map(|n| n.accesskit_node().value())
    .collect()
}

/// The play view of a 40-ply game while Kibitz searches at full strength.
fn thinking_frames() {
    let dir = std::env::temp_dir().join(format!("kibitz-frame-bench-{}", std::process::id()));
    let paths = Paths::under(dir.clone());
    let mut game = GameRecord::new();
    let moves = "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6 Be3 e5 Nb3 Be6 f3 Be7 Qd2 O-O O-O-O Nbd7 \
                 g4 b5 g5 b4 Ne2 Ne8 f4 a5 f5 a4 Nbd4 exd4 Nxd4 b3 Kb1 bxc2+ Nxc2 Bb3 axb3 axb3";
    for m in moves.split_whitespace() {
        game.play_text(m).expect("the benchmark game is legal");
    }
    let saved = SavedGame::new(&game, Color::Black, Level::Full);
    kibitz_engine::write_atomic(&paths.current_game_file(), &saved.to_json()).expect("temp dir is writable");

    let options = AppOptions { paths, picker: Arc::new(NoFiles), screenshot: None, open: None };
    let mut h = Harness::builder().with_size([1100.0, 760.0]).build_eframe(|cc| KibitzApp::new(cc, options));
    h.run_steps(3);
    h.get_by_label("Resume").click();
    h.run_steps(20);
    assert!(h.state().is_thinking(), "the engine should be thinking during the measurement");

    let frames = 3000;
    let measured = measure(&mut h, frames);
    let still_thinking = h.state().is_thinking();
    report(
        &format!("play view, engine thinking ({frames} frames; still thinking at the end: {still_thinking})"),
        &measured,
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// The app with its files in `dir`, resumed on the study of [`annotated_study`]; and the
/// game's length in plies.
fn study_harness(dir: &std::path::Path) -> (Harness<'static, KibitzApp>, usize) {
    let paths = Paths::under(dir.to_path_buf());
    let game = annotated_study();
    let plies = game.len();
    let mut saved = SavedGame::new(&game, Color::White, Level::Full);
    saved.study = true;
    kibitz_engine::write_atomic(&paths.current_game_file(), &saved.to_json()).expect("temp dir is writable");
    let options = AppOptions { paths, picker: Arc::new(NoFiles), screenshot: None, open: None };
    let mut h = Harness::builder().with_size([1100.0, 760.0]).build_eframe(|cc| KibitzApp::new(cc, options));
    h.run_steps(3);
    h.get_by_label("Resume").click();
    h.run_steps(5);
    assert!(h.state().is_study());
    (h, plies)
}

/// The study view of a 200-ply game with nested variations and comments on screen.
fn study_frames() {
    let dir = std::env::temp_dir().join(format!("kibitz-frame-bench-study-{}", std::process::id()));
    let (mut h, plies) = study_harness(&dir);
    // Walk to the middle of the game so that the list shows moves, variations and comments.
    for _ in 0..100 {
        h.key_press(egui::Key::ArrowRight);
        h.step();
    }
    let measured = measure(&mut h, 2000);
    report(&format!("study view, {plies}-ply game with variations and comments (2000 frames)"), &measured);
    let _ = std::fs::remove_dir_all(dir);
}

/// Debian's Stockfish, run twice to play itself.
const STOCKFISH: &str = "/usr/games/stockfish";
/// How many frames are measured while two engines play.
const WATCH_FRAMES: usize = 3000;
/// The pace of those frames: a 60 Hz display.
const FRAME_PERIOD: Duration = Duration::from_micros(16_667);

/// The play view while two external engines play each other at 1+0.01 (one second and a
/// hundredth per move each), set up through the settings and the New game dialog as a user
/// would. Only the frames of running games count; a game that ends is closed and the next
/// one started, until enough frames are measured.
fn watch_frames() {
    assert!(
        std::path::Path::new(STOCKFISH).exists(),
        "{STOCKFISH} is missing: install Debian's stockfish package (.ci/run does) to run this benchmark"
    );
    let settings = format!(
        r#"{{"engines": [{{"name": "SF", "path": "{STOCKFISH}", "protocol": "uci"}}],
            "clock": {{"enabled": true, "player": "1+0.01", "engine": "1+0.01"}},
            "color": "watch", "watch": ["SF", "SF"]}}"#
    );
    let (mut pass, mut total) = (Vec::with_capacity(WATCH_FRAMES), Vec::with_capacity(WATCH_FRAMES));
    let (mut games, mut plies, mut endings) = (0, 0, Vec::new());
    let started = Instant::now();
    while pass.len() < WATCH_FRAMES {
        assert!(started.elapsed() < Duration::from_secs(600), "the engines' games took too long");
        // Each game in a fresh app: after a game over, the side panel's "New game" click is
        // sometimes lost in the harness (see docs/BENCHMARKS.md).
        let dir =
            std::env::temp_dir().join(format!("kibitz-frame-bench-watch-{}-{games}", std::process::id()));
        let paths = Paths::under(dir.clone());
        kibitz_engine::write_atomic(&paths.settings_file(), settings.as_bytes())
            .expect("temp dir is writable");
        let options = AppOptions { paths, picker: Arc::new(NoFiles), screenshot: None, open: None };
        let mut h =
            Harness::builder().with_size([1100.0, 760.0]).build_eframe(|cc| KibitzApp::new(cc, options));
        h.run_steps(3);
        // The dialog opens preset with the settings' choice: Stockfish against itself.
        h.get_by_label("New game").click();
        h.run_steps(3);
        assert!(h.query_by_label("White engine").is_some(), "the New game dialog should be set to watch");
        h.get_by_label("Start").click();
        h.step();
        games += 1;
        while pass.len() < WATCH_FRAMES && h.state().game().ending().is_none() {
            let frame_start = Instant::now();
            let (p, t) = timed_frame(&mut h);
            pass.push(p);
            total.push(t);
            std::thread::sleep(FRAME_PERIOD.saturating_sub(frame_start.elapsed()));
        }
        plies += h.state().game().len();
        if let Some(ending) = h.state().game().ending() {
            endings.push(format!("{} {ending}", h.state().game().result()));
        }
        drop(h);
        let _ = std::fs::remove_dir_all(dir);
    }
    pass.sort();
    total.sort();
    report(
        &format!(
            "play view, Stockfish against itself at 1+0.01 ({WATCH_FRAMES} frames at 60 Hz over {games} games, \
             {plies} plies, {:.1} s; endings: {})",
            started.elapsed().as_secs_f64(),
            endings.join("; ")
        ),
        &(pass, total),
    );
}

/// How many lines are shown while analysis frames are measured.
const ANALYSIS_LINES: &str = "5";
/// How many frames are measured while the study is analysed.
const ANALYSIS_FRAMES: usize = 3000;

/// How many analysis lines the panel shows: each has its "+" button.
fn lines_shown(h: &Harness<'_, KibitzApp>) -> usize {
    h.query_all_by_label("+").count()
}

/// The study of the 200-ply annotated game with Kibitz analysing: first the time from a step
/// forward to the first line shown (one line, 100 steps), then frames at 60 Hz with five
/// lines while the board steps forward once a second.
fn analysis_frames() {
    let dir = std::env::temp_dir().join(format!("kibitz-frame-bench-analysis-{}", std::process::id()));
    let (mut h, plies) = study_harness(&dir);
    h.key_press(egui::Key::Home);
    h.step();
    h.key_press(egui::Key::A);
    h.run_steps(3);
    // Time to the first line, one line, after each of 100 steps forward.
    let mut latencies = Vec::new();
    for _ in 0..100 {
        // Let the search run a little, as a person reads the lines before stepping on.
        for _ in 0..10 {
            h.step();
            std::thread::sleep(Duration::from_millis(5));
        }
        h.key_press(egui::Key::ArrowRight);
        let asked = Instant::now();
        h.step();
        while lines_shown(&h) == 0 {
            assert!(asked.elapsed() < Duration::from_secs(10), "no line within 10 s");
            h.step();
        }
        latencies.push(asked.elapsed());
    }
    latencies.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "analysis, Kibitz, one line: time from a step to the first line shown over 100 steps: \
         median {:.1} ms, p90 {:.1} ms, max {:.1} ms",
        ms(percentile(&latencies, 0.5)),
        ms(percentile(&latencies, 0.9)),
        ms(latencies[latencies.len() - 1])
    );
    // Five lines.
    h.get_by_label("Lines").focus();
    h.step();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_by_label("Lines").type_text(ANALYSIS_LINES);
    h.key_press(egui::Key::Enter);
    h.run_steps(2);
    h.get_by_label("Chess board").click();
    h.run_steps(2);
    let (mut pass, mut total) = (Vec::with_capacity(ANALYSIS_FRAMES), Vec::with_capacity(ANALYSIS_FRAMES));
    let mut most_lines = 0;
    for frame in 0..ANALYSIS_FRAMES {
        if frame % 60 == 59 {
            h.key_press(egui::Key::ArrowRight);
        }
        let frame_start = Instant::now();
        let (p, t) = timed_frame(&mut h);
        pass.push(p);
        total.push(t);
        most_lines = most_lines.max(lines_shown(&h));
        std::thread::sleep(FRAME_PERIOD.saturating_sub(frame_start.elapsed()));
    }
    assert_eq!(most_lines, 5, "five lines were shown");
    pass.sort();
    total.sort();
    report(
        &format!(
            "study view of a {plies}-ply game with variations, Kibitz analysing with five lines, \
             a step forward every second ({ANALYSIS_FRAMES} frames at 60 Hz)"
        ),
        &(pass, total),
    );
    let _ = std::fs::remove_dir_all(dir);
}
