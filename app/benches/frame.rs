//! Frame cost of the play view while the engine thinks on the other core.
//!
//! Run with `cargo bench -p kibitz --bench frame`. A 40-ply game is resumed with the engine
//! to move at the "Strong" level, so it searches for three seconds while frames are measured.
//! Each frame is timed with the thread's CPU clock (not wall time): the egui pass alone, and
//! the pass plus tessellation. Rendering is left out: a software rasteriser says nothing
//! about a real GPU.

use std::sync::Arc;
use std::time::Duration;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
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

/// Times `frames` frames: the egui pass alone, and with tessellation.
fn measure(h: &mut Harness<'_, KibitzApp>, frames: usize) -> (Vec<Duration>, Vec<Duration>) {
    let mut pass = Vec::with_capacity(frames);
    let mut total = Vec::with_capacity(frames);
    for _ in 0..frames {
        let t0 = thread_cpu_time();
        h.step();
        let t1 = thread_cpu_time();
        let output = h.output();
        let shapes = output.shapes.clone();
        let ppp = output.pixels_per_point;
        let primitives = h.ctx.tessellate(shapes, ppp);
        let t2 = thread_cpu_time();
        std::hint::black_box(primitives);
        pass.push(t1 - t0);
        total.push(t2 - t0);
    }
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

fn main() {
    study_frames();

    let dir = std::env::temp_dir().join(format!("kibitz-frame-bench-{}", std::process::id()));
    let paths = Paths::under(dir.clone());
    let mut game = GameRecord::new();
    let moves = "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6 Be3 e5 Nb3 Be6 f3 Be7 Qd2 O-O O-O-O Nbd7 \
                 g4 b5 g5 b4 Ne2 Ne8 f4 a5 f5 a4 Nbd4 exd4 Nxd4 b3 Kb1 bxc2+ Nxc2 Bb3 axb3 axb3";
    for m in moves.split_whitespace() {
        game.play_text(m).expect("the benchmark game is legal");
    }
    let saved = SavedGame::new(&game, Color::Black, Level::Strong);
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

/// The study view of a 200-ply game with nested variations and comments on screen.
fn study_frames() {
    let dir = std::env::temp_dir().join(format!("kibitz-frame-bench-study-{}", std::process::id()));
    let paths = Paths::under(dir.clone());
    let game = annotated_study();
    let plies = game.len();
    let mut saved = SavedGame::new(&game, Color::White, Level::Strong);
    saved.study = true;
    kibitz_engine::write_atomic(&paths.current_game_file(), &saved.to_json()).expect("temp dir is writable");
    let options = AppOptions { paths, picker: Arc::new(NoFiles), screenshot: None, open: None };
    let mut h = Harness::builder().with_size([1100.0, 760.0]).build_eframe(|cc| KibitzApp::new(cc, options));
    h.run_steps(3);
    h.get_by_label("Resume").click();
    h.run_steps(5);
    assert!(h.state().is_study());
    // Walk to the middle of the game so that the list shows moves, variations and comments.
    for _ in 0..100 {
        h.key_press(egui::Key::ArrowRight);
        h.step();
    }
    let measured = measure(&mut h, 2000);
    report(&format!("study view, {plies}-ply game with variations and comments (2000 frames)"), &measured);
    let _ = std::fs::remove_dir_all(dir);
}
