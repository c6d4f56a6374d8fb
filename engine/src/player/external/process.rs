//! The engine's process: the program started with piped standard streams, and a thread per
//! output that reads it line by line (as bytes, decoded lossily, capped in length).

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, ChildStdin, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, unbounded};

use crate::EngineConfig;

/// The longest line kept from an engine; the rest of a longer line is dropped.
const MAX_LINE: usize = 32 * 1024;

/// A line from the engine.
pub(super) enum Line {
    /// From its standard output.
    Out(String),
    /// From its standard error.
    Err(String),
    /// Its standard output closed.
    Closed,
}

/// The running program and its output, line by line.
pub(super) struct Process {
    child: Child,
    pub(super) stdin: ChildStdin,
    pub(super) lines: Receiver<Line>,
}

impl Process {
    /// Starts the program with piped standard streams and a reader thread for each output.
    pub(super) fn start(config: &EngineConfig) -> Result<Process, String> {
        // A bare name is looked up on the PATH; a path is made absolute, so that the engine
        // can run in its own folder, where engines look for their networks and books.
        let bare = config.path.components().count() == 1;
        let program = if bare {
            config.path.clone()
        } else {
            config.path.canonicalize().unwrap_or(config.path.clone())
        };
        let mut command = std::process::Command::new(&program);
        command.args(&config.args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        if let Some(dir) = program.parent().filter(|d| !bare && d.is_dir()) {
            command.current_dir(dir);
        }
        let mut child = command.spawn().map_err(|e| e.to_string())?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            return Err("its standard streams could not be connected".to_owned());
        };
        let (tx, lines) = unbounded();
        let err_tx = tx.clone();
        thread::spawn(move || {
            read_lines(stdout, |line| tx.send(Line::Out(line)).is_ok());
            let _ = tx.send(Line::Closed);
        });
        thread::spawn(move || read_lines(stderr, |line| err_tx.send(Line::Err(line)).is_ok()));
        Ok(Process { child, stdin, lines })
    }

    /// Kills the program (if it still runs) and reaps it.
    pub(super) fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Waits up to `time` for the program to exit; its status if it did.
    pub(super) fn wait_exit(&mut self, time: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + time;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(10)),
                _ => return None,
            }
        }
    }
}

/// Reads `input` line by line as bytes, decoding each line lossily and capping it at
/// [`MAX_LINE`], until the end or until `send` returns false.
fn read_lines(input: impl Read, mut send: impl FnMut(String) -> bool) {
    let mut reader = BufReader::new(input);
    let mut line = Vec::new();
    loop {
        let (done, used) = match reader.fill_buf() {
            Ok([]) | Err(_) => {
                if !line.is_empty() {
                    send(String::from_utf8_lossy(&line).trim_end().to_owned());
                }
                return;
            }
            Ok(buf) => match buf.iter().position(|&b| b == b'\n') {
                Some(at) => {
                    line.extend_from_slice(&buf[..at.min(MAX_LINE.saturating_sub(line.len()))]);
                    (true, at + 1)
                }
                None => {
                    line.extend_from_slice(&buf[..buf.len().min(MAX_LINE.saturating_sub(line.len()))]);
                    (false, buf.len())
                }
            },
        };
        reader.consume(used);
        if done {
            let text = String::from_utf8_lossy(&line).trim_end().to_owned();
            line.clear();
            if !send(text) {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_decoded_lossily_and_capped() {
        let mut input = b"caf\xc3\x28 \xff\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', MAX_LINE * 3));
        input.extend(b"\r\nreadyok\nlast words without newline");
        let mut lines = Vec::new();
        read_lines(&input[..], |line| {
            lines.push(line);
            true
        });
        assert_eq!(lines.len(), 4);
        assert_eq!(lines[0], "caf\u{fffd}( \u{fffd}");
        assert_eq!(lines[1].len(), MAX_LINE);
        assert_eq!(lines[2], "readyok");
        assert_eq!(lines[3], "last words without newline");
    }
}
