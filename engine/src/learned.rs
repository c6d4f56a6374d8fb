//! What the protocol front ends (UCI and xboard) use of Kibitz's learning: the learned
//! positions file (Crafty's position learning, written by the app) and the PostBook file
//! (Terra's), each with an on/off switch, turned into [`Command::SetLearning`].

use std::path::Path;
use std::sync::Arc;

use crate::{Book, Command, PositionTable, PostBook};

/// The learned data a front end loaded, and whether each part is used.
pub(crate) struct Learned {
    positions: Option<Arc<PositionTable>>,
    postbook: Option<Arc<PostBook>>,
    /// Seed the transposition table with the learned positions.
    pub use_positions: bool,
    /// Avoid and prefer moves after the book as the PostBook says.
    pub use_postbook: bool,
}

impl Default for Learned {
    fn default() -> Self {
        Learned { positions: None, postbook: None, use_positions: true, use_postbook: true }
    }
}

/// Whether an option's path value means "no file".
pub(crate) fn unset(path: &str) -> bool {
    let path = path.trim();
    path.is_empty() || path == "<empty>"
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

impl Learned {
    /// Loads the learned positions from `path` (none for an empty path). On success, returns
    /// what was loaded; on failure, the reason, and the positions loaded before stay.
    pub fn load_positions(&mut self, path: &str) -> Result<String, String> {
        if unset(path) {
            self.positions = None;
            return Ok("PositionFile: none".to_owned());
        }
        match PositionTable::load(Path::new(path.trim()), PositionTable::default().capacity()) {
            Ok(table) => {
                let n = table.len();
                self.positions = Some(Arc::new(table));
                Ok(format!("PositionFile {}: {n} learned positions", path.trim()))
            }
            Err(e) => Err(format!("PositionFile {}: {e}", path.trim())),
        }
    }

    /// Loads the PostBook from `path` (none for an empty path), as
    /// [`Learned::load_positions`] does.
    pub fn load_postbook(&mut self, path: &str) -> Result<String, String> {
        if unset(path) {
            self.postbook = None;
            return Ok("PostBookFile: none".to_owned());
        }
        match PostBook::load(Path::new(path.trim())) {
            Ok(postbook) => {
                let n = postbook.len();
                self.postbook = Some(Arc::new(postbook));
                Ok(format!("PostBookFile {}: {n} moves", path.trim()))
            }
            Err(e) => Err(format!("PostBookFile {}: {e}", path.trim())),
        }
    }

    /// The command that gives the engine thread what is loaded and switched on.
    pub fn command(&self) -> Command {
        Command::SetLearning {
            positions: self.positions.clone().filter(|_| self.use_positions),
            postbook: self.postbook.clone().filter(|_| self.use_postbook),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_load_switch_and_fail_without_losing_what_was_loaded() {
        let dir = std::env::temp_dir().join(format!("kibitz-learned-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        let positions = dir.join("learned-positions.kpos");
        let mut table = PositionTable::new(8);
        table.insert(crate::LearnedPosition { key: 1, score: -300, depth: 9, mv: 0 });
        table.save(&positions).expect("writable");
        let mut learned = Learned::default();
        let path = positions.to_string_lossy();
        assert_eq!(learned.load_positions(&path), Ok(format!("PositionFile {path}: 1 learned positions")));
        let bad = dir.join("missing.kpos");
        assert!(learned.load_positions(&bad.to_string_lossy()).is_err());
        let Command::SetLearning { positions, postbook } = learned.command() else { panic!("SetLearning") };
        assert_eq!(positions.map(|p| p.len()), Some(1), "the earlier file stays loaded");
        assert!(postbook.is_none());
        learned.use_positions = false;
        assert!(matches!(learned.command(), Command::SetLearning { positions: None, .. }));
        learned.use_positions = true;
        assert!(learned.load_positions("<empty>").is_ok());
        assert!(matches!(learned.command(), Command::SetLearning { positions: None, .. }));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
