//! Writing user files safely, and cleaning up after a write that a kill interrupted.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Writes `bytes` to `path` atomically: to a temporary file beside it, flushed to disk, then
/// renamed over the old file. A crash at any moment leaves either the old file or the new one,
/// never a half-written file. Missing parent directories are created.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_then_rename(path, bytes, true)
}

/// Writes `bytes` to `path` as [`write_atomic`] does, but without waiting for the disk: the
/// file is written and renamed into place when this returns, which a killed process cannot
/// undo (the kernel keeps it), but only [`sync_file`] makes it survive a power loss. Writing a
/// few kilobytes this way takes tens of microseconds, so the UI thread can afford it.
pub fn replace_file(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_then_rename(path, bytes, false)
}

/// Flushes a file written by [`replace_file`] to disk, and (on Unix) its folder, so that the
/// rename survives a power loss too.
pub fn sync_file(path: &Path) -> io::Result<()> {
    fs::OpenOptions::new().write(true).open(path)?.sync_all()?;
    #[cfg(unix)]
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::File::open(dir)?.sync_all()?;
    }
    Ok(())
}

fn write_then_rename(path: &Path, bytes: &[u8], sync: bool) -> io::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    fs::create_dir_all(dir)?;
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "path has no file name"))?;
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".{}.tmp", std::process::id()));
    let tmp = dir.join(tmp_name);
    let result = (|| {
        let mut file = fs::File::create(&tmp)?;
        file.write_all(bytes)?;
        if sync {
            file.sync_all()?;
        }
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// How old a temporary file must be to be removed although a process of its id runs (ids are
/// reused; no save takes an hour). Where it cannot be known whether a process runs (not
/// Linux), only this age counts.
pub const STALE_AFTER: Duration = Duration::from_secs(3600);

/// Removes the temporary files a killed save left in `dir` (not in its subfolders): the files
/// named `.NAME.PID.tmp`, as [`write_atomic`] and [`replace_file`] name them, whose process
/// `PID` no longer runs or which are older than [`STALE_AFTER`]. Nothing else is touched: not
/// other files, not folders, not the temporary files of a running process (another Kibitz, or
/// this one's writer). Returns the files removed; a folder that cannot be read removes none.
pub fn remove_stale_temporaries(dir: &Path) -> Vec<PathBuf> {
    let mut removed = Vec::new();
    for entry in fs::read_dir(dir).into_iter().flatten().flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(temporary_owner) else { continue };
        let Ok(meta) = entry.metadata() else { continue };
        if !meta.is_file() {
            continue;
        }
        let age = meta.modified().ok().and_then(|t| t.elapsed().ok()).unwrap_or_default();
        let gone = pid != std::process::id() && process_runs(pid) == Some(false);
        if (gone || age >= STALE_AFTER) && fs::remove_file(entry.path()).is_ok() {
            removed.push(entry.path());
        }
    }
    removed
}

/// The process id in the name of a temporary file `.NAME.PID.tmp`, or `None` when the name is
/// not of that form.
fn temporary_owner(name: &str) -> Option<u32> {
    let rest = name.strip_prefix('.')?.strip_suffix(".tmp")?;
    let (file, pid) = rest.rsplit_once('.')?;
    if file.is_empty() || pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    pid.parse().ok()
}

/// Whether a process of this id runs: `None` where that cannot be known.
fn process_runs(pid: u32) -> Option<bool> {
    if cfg!(target_os = "linux") { Some(Path::new("/proc").join(pid.to_string()).exists()) } else { None }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("kibitz-storage-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn replaces_the_file_and_leaves_no_temporary() {
        let dir = scratch("replace");
        let path = dir.join("sub").join("game.pgn");
        write_atomic(&path, b"old").unwrap();
        write_atomic(&path, b"new").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"new");
        replace_file(&path, b"newer").unwrap();
        sync_file(&path).unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"newer");
        assert_eq!(names(&dir.join("sub")), ["game.pgn"]);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn temporary_names() {
        assert_eq!(temporary_owner(".settings.json.4242.tmp"), Some(4242));
        assert_eq!(temporary_owner(".kibitz.kbook.7.tmp"), Some(7));
        for name in
            [".settings.json.tmp", "settings.json.42.tmp", "..42.tmp", ".a.4x2.tmp", ".a.42.tmpx", ".a..tmp"]
        {
            assert_eq!(temporary_owner(name), None, "{name}");
        }
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn removes_only_the_temporaries_of_processes_gone_or_long_ago() {
        let dir = scratch("sweep");
        // A process that ran and is gone: its id is free (and not reused within this test).
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let gone = child.id();
        child.wait().unwrap();
        let own = std::process::id();
        let running = 1; // init, or the container's first process
        let files = [
            format!(".settings.json.{gone}.tmp"),
            format!(".kibitz.kbook.{gone}.tmp"),
            format!(".current-game.json.{own}.tmp"),
            format!(".settings.json.{running}.tmp"),
            format!(".old.json.{running}.tmp"),
            format!("settings.json.{gone}.tmp"),
            ".settings.json.tmp".to_string(),
            "settings.json".to_string(),
        ];
        for name in &files {
            fs::write(dir.join(name), b"x").unwrap();
        }
        let old = std::time::SystemTime::now() - STALE_AFTER - Duration::from_secs(60);
        fs::File::options()
            .write(true)
            .open(dir.join(format!(".old.json.{running}.tmp")))
            .unwrap()
            .set_modified(old)
            .unwrap();
        fs::create_dir(dir.join(format!(".folder.{gone}.tmp"))).unwrap();

        let mut removed: Vec<String> = remove_stale_temporaries(&dir)
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        removed.sort();
        let mut expected = vec![
            format!(".kibitz.kbook.{gone}.tmp"),
            format!(".old.json.{running}.tmp"),
            format!(".settings.json.{gone}.tmp"),
        ];
        expected.sort();
        assert_eq!(removed, expected);
        let mut kept = vec![
            format!(".current-game.json.{own}.tmp"),
            format!(".folder.{gone}.tmp"),
            format!(".settings.json.{running}.tmp"),
            ".settings.json.tmp".to_string(),
            "settings.json".to_string(),
            format!("settings.json.{gone}.tmp"),
        ];
        kept.sort();
        assert_eq!(names(&dir), kept);
        assert!(remove_stale_temporaries(&dir.join("missing")).is_empty());
        fs::remove_dir_all(&dir).unwrap();
    }
}
