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
use shakmaty::Color;

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

fn main() {
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
    let still_thinking = h.state().is_thinking();
    pass.sort();
    total.sort();
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    println!("frames: {frames} (engine still thinking at the end: {still_thinking})");
    println!(
        "egui pass:              median {:7.1} us  p99 {:7.1} us  max {:7.1} us",
        us(percentile(&pass, 0.5)),
        us(percentile(&pass, 0.99)),
        us(pass[frames - 1])
    );
    println!(
        "pass + tessellation:    median {:7.1} us  p99 {:7.1} us  max {:7.1} us",
        us(percentile(&total, 0.5)),
        us(percentile(&total, 0.99)),
        us(total[frames - 1])
    );
    let _ = std::fs::remove_dir_all(dir);
}
