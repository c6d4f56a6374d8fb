//! The options of the protocol front ends (UCI and xboard) that name files: `BookFile`,
//! `PositionFile` and `PostBookFile` (the learned positions and the PostBook the app wrote,
//! loaded through [`LearnedData`]), `SyzygyPath` and `EvalFile`. Each returns the line to show the GUI.

use std::path::Path;
use std::sync::Arc;

use crate::network::Network;
use crate::{Book, Command, LearnedData, PositionTable, PostBook, SyzygyTables};

/// Whether an option's path value means "no file".
pub(crate) fn unset(path: &str) -> bool {
    let path = path.trim();
    path.is_empty() || path == "<empty>"
}

/// Opens the tables a `SyzygyPath` option names (folders separated as in `PATH`) and hands
/// the engine thread the command to search with them, or with none when the path is empty or
/// cannot be used (the GUI asked for these tables and no others). Returns a line saying what
/// was found (`None` for no path), or the reason it failed.
pub(crate) fn set_tablebases(path: &str, send: impl FnOnce(Command)) -> Result<Option<String>, String> {
    if unset(path) {
        send(Command::SetTablebases(None));
        return Ok(None);
    }
    match SyzygyTables::open_list(path.trim()) {
        Ok(tables) => {
            let (files, pieces) = (tables.files(), tables.max_pieces());
            send(Command::SetTablebases(Some(Arc::new(tables))));
            Ok(Some(format!("SyzygyPath {}: {files} files, up to {pieces} pieces", path.trim())))
        }
        Err(e) => {
            send(Command::SetTablebases(None));
            Err(format!("SyzygyPath: {e}"))
        }
    }
}

/// Reads the network an `EvalFile` option names and hands the engine thread the command to
/// evaluate with it, or with the built-in network when the path is empty. Returns a line saying
/// what was loaded (`None` for no path), or the reason it failed; on failure the engine keeps
/// the network it had.
pub(crate) fn set_network_file(path: &str, send: impl FnOnce(Command)) -> Result<Option<String>, String> {
    if unset(path) {
        send(Command::SetNetworkFile(None));
        return Ok(None);
    }
    let path = path.trim();
    let bytes = std::fs::read(path).map_err(|e| format!("EvalFile {path}: {e}"))?;
    let network = Network::from_bytes(&bytes).map_err(|e| format!("EvalFile {path}: {e}"))?;
    // "64 hidden neurons", then its output and king buckets where it has more than one.
    let mut shape = vec![format!("{} hidden neurons", network.hidden())];
    for (count, what) in [(network.buckets(), "output"), (network.king_buckets(), "king")] {
        if count > 1 {
            shape.push(format!("{count} {what} buckets"));
        }
    }
    let last = shape.pop().unwrap_or_default();
    let shape = if shape.is_empty() { last } else { format!("{} and {last}", shape.join(", ")) };
    send(Command::SetNetworkFile(Some(Arc::new(network))));
    Ok(Some(format!("EvalFile {path}: a network of {shape}")))
}

/// Opens the book a `BookFile` option names: `None` for no file, else the book and a line
/// saying what was loaded; on failure, the reason.
pub(crate) fn open_book(path: &str) -> Result<Option<(Arc<Book>, String)>, String> {
    if unset(path) {
        return Ok(None);
    }
    match Book::open(Path::new(path)) {
        Ok(book) => {
            let loaded = format!("BookFile {path}: {} positions", book.positions());
            Ok(Some((Arc::new(book), loaded)))
        }
        Err(e) => Err(format!("BookFile {path}: {e}")),
    }
}

/// Applies a `PositionFile` option: loads the learned positions from `path` (none for an
/// empty path). On failure, the reason, and the positions loaded before stay.
pub(crate) fn load_positions(learned: &mut LearnedData, path: &str) -> Result<String, String> {
    if unset(path) {
        learned.set_positions(PositionTable::default());
        return Ok("PositionFile: none".to_owned());
    }
    match learned.load_positions(Path::new(path.trim())) {
        Ok(n) => Ok(format!("PositionFile {}: {n} learned positions", path.trim())),
        Err(e) => Err(format!("PositionFile: {e}")),
    }
}

/// Reads the draw and resign settings a `PolicyFile` option names (the defaults for no
/// file), with a line saying what was loaded; on failure, the reason.
pub(crate) fn load_policy(path: &str) -> Result<(crate::policy::PolicySettings, String), String> {
    if unset(path) {
        return Ok((
            crate::policy::PolicySettings::default(),
            "PolicyFile: none, the default settings".into(),
        ));
    }
    match crate::policy::PolicySettings::load(Path::new(path.trim())) {
        Ok(settings) => Ok((settings, format!("PolicyFile {}: loaded", path.trim()))),
        Err(e) => Err(format!("PolicyFile: {e}")),
    }
}

/// Applies a `PostBookFile` option, as [`load_positions`] does.
pub(crate) fn load_postbook(learned: &mut LearnedData, path: &str) -> Result<String, String> {
    if unset(path) {
        learned.set_postbook(PostBook::new());
        return Ok("PostBookFile: none".to_owned());
    }
    match learned.load_postbook(Path::new(path.trim())) {
        Ok(n) => Ok(format!("PostBookFile {}: {n} moves", path.trim())),
        Err(e) => Err(format!("PostBookFile: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Command;

    #[test]
    fn files_load_switch_and_fail_without_losing_what_was_loaded() {
        let dir = std::env::temp_dir().join(format!("kibitz-file-options-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        let positions = dir.join("learned-positions.kpos");
        let mut table = PositionTable::new(8);
        table.insert(crate::LearnedPosition { key: 1, score: -300, depth: 9, mv: 0 });
        table.save(&positions).expect("writable");
        let mut learned = LearnedData::default();
        let path = positions.to_string_lossy();
        assert_eq!(
            load_positions(&mut learned, &path),
            Ok(format!("PositionFile {path}: 1 learned positions"))
        );
        let bad = dir.join("missing.kpos");
        let error = load_positions(&mut learned, &bad.to_string_lossy()).expect_err("no such file");
        assert!(
            error.starts_with(&format!("PositionFile: {}: cannot read the file", bad.display())),
            "{error}"
        );
        let Command::SetLearning { positions, postbook } = learned.command() else { panic!("SetLearning") };
        assert_eq!(positions.map(|p| p.len()), Some(1), "the earlier file stays loaded");
        assert!(postbook.is_none());
        learned.use_positions = false;
        assert!(matches!(learned.command(), Command::SetLearning { positions: None, .. }));
        learned.use_positions = true;
        assert!(load_positions(&mut learned, "<empty>").is_ok());
        assert!(matches!(learned.command(), Command::SetLearning { positions: None, .. }));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
