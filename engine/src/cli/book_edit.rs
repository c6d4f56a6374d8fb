//! `kibitz book set` and `kibitz book remove`: one edit of a book from a script, with the
//! same edits and errors as the book editor ([`BookDocument`]). The book is rewritten
//! atomically; a Polyglot `.bin` holds no user values, so it is refused, not converted.

use std::path::{Path, PathBuf};

use clap::Args;
use shakmaty::fen::Fen;
use shakmaty::san::San;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move};

use crate::book::MAGIC;
use crate::{Book, BookDocument, BookEdit, Nag, nag_symbol, nag_value};

/// `kibitz book set BOOK FEN MOVE (--value N | --nag NAG | --play PCT | --clear)`.
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("what").required(true).args(["value", "nag", "play", "clear"])))]
pub struct SetArgs {
    /// The book (Kibitz's format), updated in place.
    book: PathBuf,
    /// The position (quoted), or `startpos`.
    fen: String,
    /// The move, in SAN or UCI (`Nf3`, `g1f3`); added to the book if it is not there.
    #[arg(value_name = "MOVE")]
    mv: String,
    /// The user value, 0 (never) to 100 (always).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(0..=100))]
    value: Option<u8>,
    /// A NAG that sets the user value: `!!` 100, `!` 75, `!?` 15, `?!` `?` `??` 0.
    #[arg(long, value_name = "NAG", allow_hyphen_values = true)]
    nag: Option<String>,
    /// Crafty's `{play nn%}`: how often to play the move, 0 to 100.
    #[arg(long, value_name = "PCT", value_parser = clap::value_parser!(u8).range(0..=100))]
    play: Option<u8>,
    /// Clears the user value and the play percentage.
    #[arg(long)]
    clear: bool,
}

/// `kibitz book remove BOOK FEN MOVE`.
#[derive(Debug, Args)]
pub struct RemoveArgs {
    /// The book (Kibitz's format), updated in place.
    book: PathBuf,
    /// The position (quoted), or `startpos`.
    fen: String,
    /// The move, in SAN or UCI.
    #[arg(value_name = "MOVE")]
    mv: String,
}

impl SetArgs {
    /// Sets the value; the summary line, or the error.
    pub(super) fn execute(&self) -> Result<String, String> {
        let (pos, mv) = position_and_move(&self.fen, &self.mv)?;
        let mut edits = Vec::new();
        if self.clear {
            edits.push(BookEdit::set_user(&pos, mv, None));
            edits.push(BookEdit::set_play(&pos, mv, None));
        }
        if let Some(v) = self.value {
            edits.push(BookEdit::set_user(&pos, mv, Some(v)));
        }
        if let Some(nag) = &self.nag {
            let value = nag_code(nag)
                .and_then(nag_value)
                .ok_or_else(|| format!("'{nag}' sets no value: use !!, !, !?, ?!, ? or ?? (or --value N)"))?;
            edits.push(BookEdit::set_user(&pos, mv, Some(value)));
        }
        if let Some(pct) = self.play {
            edits.push(BookEdit::set_play(&pos, mv, Some(pct)));
        }
        let doc = edit(&self.book, edits)?;
        let entry =
            doc.book().get(crate::book_key(&pos), crate::encode_move(mv)).copied().unwrap_or_default();
        let show = |v: Option<u8>| v.map_or("-".to_string(), |v| v.to_string());
        Ok(format!(
            "set {}: user {} play {} -> {}",
            San::from_move(&pos, mv),
            show(entry.user),
            show(entry.play_pct),
            self.book.display()
        ))
    }
}

impl RemoveArgs {
    /// Removes the move and its subtree; the summary line, or the error.
    pub(super) fn execute(&self) -> Result<String, String> {
        let (pos, mv) = position_and_move(&self.fen, &self.mv)?;
        let before = open_kibitz(&self.book)?.len();
        let doc = edit(&self.book, vec![BookEdit::remove(&pos, mv)])?;
        Ok(format!(
            "removed {} and {} moves after it -> {}",
            San::from_move(&pos, mv),
            before - doc.book().len() - 1,
            self.book.display()
        ))
    }
}

/// Opens the book, applies the edits in order and saves it; nothing is written when one fails.
fn edit(path: &Path, edits: Vec<BookEdit>) -> Result<BookDocument, String> {
    let mut doc = BookDocument::new(open_kibitz(path)?);
    for e in edits {
        doc.apply(e).map_err(|e| e.to_string())?;
    }
    doc.book().save(path).map_err(|e| format!("{}: {e}", path.display()))?;
    doc.mark_saved();
    Ok(doc)
}

/// A book in Kibitz's format; a Polyglot book is refused with what to do instead.
fn open_kibitz(path: &Path) -> Result<Book, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if !bytes.starts_with(MAGIC) {
        return Err(format!(
            "{}: not a Kibitz book (a Polyglot .bin holds no user values; \
             convert it with `kibitz book merge BOOK.bin BOOK.bin OUT.kbook` first)",
            path.display()
        ));
    }
    Book::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

fn position_and_move(fen: &str, text: &str) -> Result<(Chess, Move), String> {
    let pos: Chess = if fen.trim() == "startpos" {
        Chess::default()
    } else {
        fen.trim()
            .parse::<Fen>()
            .map_err(|e| format!("bad FEN '{fen}': {e}"))?
            .into_position(CastlingMode::Standard)
            .map_err(|e| format!("illegal position '{fen}': {e}"))?
    };
    let mv = text
        .parse::<San>()
        .ok()
        .and_then(|san| san.to_move(&pos).ok())
        .or_else(|| text.parse::<UciMove>().ok().and_then(|uci| uci.to_move(&pos).ok()))
        .ok_or_else(|| format!("'{text}' is not a legal move in the position"))?;
    Ok((pos, mv))
}

/// The NAG code of one of the six move glyphs (`!` 1 ... `?!` 6), as PGN numbers them.
fn nag_code(glyph: &str) -> Option<u8> {
    (1..=6).find(|&code| nag_symbol(Nag(code)) == Some(glyph.trim()))
}
