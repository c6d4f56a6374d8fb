//! For `tools/kill_test.sh`: with `KIBITZ_SHOWN_LOG=FILE` set, the app appends to `FILE` what
//! the Play board shows, at the end of every frame that shows another move: `PLIES SAN US`
//! (the plies of the game, the last move, and how long the last save of the game took on the
//! UI thread, in microseconds). The line is written after the frame's saves and just before
//! eframe paints the frame, so a move is logged no later than it is seen; the test checks that
//! every move of the last line is in the saved game.

use std::fs::File;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use kibitz_engine::GameRecord;

/// The log file and the last line written.
pub struct ShownLog {
    file: File,
    last: Option<(usize, String)>,
}

impl ShownLog {
    /// The log `KIBITZ_SHOWN_LOG` names, if set and it can be opened.
    #[must_use]
    pub fn from_env() -> Option<Self> {
        let path = PathBuf::from(std::env::var_os("KIBITZ_SHOWN_LOG")?);
        let file = File::options().create(true).append(true).open(path).ok()?;
        Some(ShownLog { file, last: None })
    }

    /// Logs the game shown if its moves changed since the last line.
    pub fn shown(&mut self, game: &GameRecord, saved_in: Duration) {
        let now = (game.len(), game.san_moves().last().cloned().unwrap_or_else(|| "-".into()));
        if self.last.as_ref() != Some(&now) {
            // One write call, so that a kill never leaves half a line.
            let line = format!("{} {} {}\n", now.0, now.1, saved_in.as_micros());
            let _ = self.file.write_all(line.as_bytes());
            self.last = Some(now);
        }
    }
}
