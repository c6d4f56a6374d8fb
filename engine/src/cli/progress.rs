//! Progress of a long command on stderr: a bar redrawn in place on a terminal; plain, sparse
//! lines when stderr is a file or a pipe, so that logs stay readable (carriage returns would
//! run the reports together there).
//!
//! The bar is written by hand rather than with the `indicatif` crate: one line of text is all
//! the commands need, and the engine crate, which the app links, stays free of a terminal
//! library and its dependencies.

use std::io::{self, IsTerminal, Write};
use std::time::{Duration, Instant};

/// How often the bar is redrawn on a terminal.
const REDRAW: Duration = Duration::from_millis(100);
/// Off a terminal, a line is written at least this often while the work goes on...
const LINE_INTERVAL: Duration = Duration::from_secs(5);
/// ... and whenever another tenth of the work is done.
const STEPS: u64 = 10;
/// Width of the bar, in characters.
const BAR: usize = 30;

/// Reports the progress of one command.
pub(crate) struct Progress {
    out: Box<dyn Write>,
    terminal: bool,
    started: Instant,
    /// When the last report was shown.
    shown_at: Option<Instant>,
    /// Tenths of the work shown so far (off a terminal).
    steps_shown: u64,
    /// The last report (fraction done, text) and whether it was shown.
    last: Option<(Option<f64>, String, bool)>,
    /// Characters of the bar on screen, to blank out a longer previous one.
    width: usize,
}

impl Progress {
    /// Progress on stderr, as a bar when stderr is a terminal.
    pub(crate) fn stderr() -> Progress {
        let terminal = io::stderr().is_terminal();
        Progress::new(Box::new(io::stderr()), terminal)
    }

    /// Progress written to `out`, as a bar when `terminal`.
    pub(crate) fn new(out: Box<dyn Write>, terminal: bool) -> Progress {
        Progress {
            out,
            terminal,
            started: Instant::now(),
            shown_at: None,
            steps_shown: 0,
            last: None,
            width: 0,
        }
    }

    /// Reports `detail` (such as "3000 games, 2 MB") with `done` of `total` units (bytes) of
    /// work; a `total` of 0 means unknown.
    pub(crate) fn report(&mut self, done: u64, total: u64, detail: &str) {
        self.report_at(Instant::now(), done, total, detail);
    }

    fn report_at(&mut self, now: Instant, done: u64, total: u64, detail: &str) {
        let fraction = (total > 0).then(|| done.min(total) as f64 / total as f64);
        let text = match fraction {
            Some(f) => format!("{:>3}%  {detail}", (f * 100.0).floor() as u64),
            None => detail.to_string(),
        };
        let shown = if self.terminal {
            let due = self.shown_at.is_none_or(|t| now.duration_since(t) >= REDRAW);
            if due {
                self.draw_bar(fraction, &text);
            }
            due
        } else {
            let steps = fraction.map_or(0, |f| (f * STEPS as f64).floor() as u64);
            let due = steps > self.steps_shown
                || self.shown_at.is_none_or(|t| now.duration_since(t) >= LINE_INTERVAL);
            if due {
                self.steps_shown = steps;
                let seconds = now.duration_since(self.started).as_secs_f64();
                let _ = writeln!(self.out, "{text} ({seconds:.1} s)");
            }
            due
        };
        if shown {
            self.shown_at = Some(now);
        }
        self.last = Some((fraction, text, shown));
    }

    fn draw_bar(&mut self, fraction: Option<f64>, text: &str) {
        let line = match fraction {
            Some(f) => {
                let filled = ((f * BAR as f64).round() as usize).min(BAR);
                format!("[{}{}] {text}", "#".repeat(filled), "-".repeat(BAR - filled))
            }
            None => text.to_string(),
        };
        let blank = self.width.saturating_sub(line.chars().count());
        let _ = write!(self.out, "\r{line}{}", " ".repeat(blank));
        let _ = self.out.flush();
        self.width = line.chars().count();
    }

    /// Ends the report: the last state is shown if it was not, and a terminal's bar is ended
    /// with a new line.
    pub(crate) fn finish(&mut self) {
        let Some((fraction, text, shown)) = self.last.take() else { return };
        if self.terminal {
            if !shown {
                self.draw_bar(fraction, &text);
            }
            let _ = writeln!(self.out);
        } else if !shown {
            let seconds = self.started.elapsed().as_secs_f64();
            let _ = writeln!(self.out, "{text} ({seconds:.1} s)");
        }
        let _ = self.out.flush();
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        // A command that fails half way leaves its bar on a line of its own.
        if self.terminal && self.last.is_some() {
            let _ = writeln!(self.out);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use super::*;

    /// A writer the test can read back.
    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);

    impl Write for Captured {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.lock().expect("the lock").extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl Captured {
        fn text(&self) -> String {
            String::from_utf8(self.0.lock().expect("the lock").clone()).expect("UTF-8")
        }
    }

    /// Reports a thousand units at a time, `ms` milliseconds apart, out of `total`.
    fn run(terminal: bool, total: u64, ms: u64) -> String {
        let captured = Captured::default();
        let mut progress = Progress::new(Box::new(captured.clone()), terminal);
        let start = progress.started;
        for i in 1..=total / 1000 {
            let at = start + Duration::from_millis(i * ms);
            progress.report_at(at, i * 1000, total, &format!("{} games", i * 10));
        }
        progress.finish();
        drop(progress);
        captured.text()
    }

    #[test]
    fn off_a_terminal_one_plain_line_per_tenth() {
        // A hundred quick reports: one line each time another tenth is done.
        let text = run(false, 100_000, 1);
        assert!(!text.contains('\r'), "{text:?}");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 11, "{text}");
        assert!(lines[0].starts_with("  1%  10 games ("), "{}", lines[0]);
        assert!(lines[1].starts_with(" 10%  100 games ("), "{}", lines[1]);
        assert!(lines[10].starts_with("100%  1000 games ("), "{}", lines[10]);
        assert!(lines.iter().all(|l| l.ends_with(" s)")), "{text}");
    }

    #[test]
    fn off_a_terminal_slow_work_reports_every_few_seconds() {
        // Unknown total, a report every 2 s for 20 s: a line at the start, then every 6 s, and
        // the last state at the end.
        let captured = Captured::default();
        let mut progress = Progress::new(Box::new(captured.clone()), false);
        let start = progress.started;
        for i in 1..=10u64 {
            progress.report_at(start + Duration::from_secs(2 * i), i, 0, &format!("{i} files"));
        }
        progress.finish();
        let text = captured.text();
        assert!(!text.contains('\r'), "{text:?}");
        let firsts: Vec<&str> = text.lines().map(|l| l.split(" (").next().unwrap_or("")).collect();
        assert_eq!(firsts, ["1 files", "4 files", "7 files", "10 files"], "{text}");
    }

    #[test]
    fn on_a_terminal_a_bar_redrawn_in_place() {
        let text = run(true, 10_000, 50);
        assert_eq!(text.matches('\n').count(), 1, "one line in the end: {text:?}");
        assert!(text.ends_with('\n'));
        let frames: Vec<&str> = text.trim_end().split('\r').filter(|f| !f.is_empty()).collect();
        // Reports 50 ms apart, redrawn at most every 100 ms: every other one, then the last.
        assert_eq!(frames.len(), 6, "{text:?}");
        assert!(frames[0].starts_with("[###-------"), "{}", frames[0]);
        assert!(frames[5].contains("100%  100 games"), "{}", frames[5]);
    }
}
