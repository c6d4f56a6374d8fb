//! The journal of an in-place save: the records and the header a save is about to write over
//! a Kibitz book, written and flushed beside the book (`NAME.journal`) before the book is
//! touched, and deleted once the book is flushed. A crash while the book is being patched
//! leaves a complete journal, which the next reading of the book replays; a crash while the
//! journal is being written leaves a torn one, which is discarded, and the book is then still
//! the old version. The layout is documented in `docs/BOOK-FORMAT.md`.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::book::file::{HEADER, RECORD, u32_at};

/// The first eight bytes of a journal.
const MAGIC: &[u8; 8] = b"KIBITZBJ";
/// The journal version this code writes and reads.
const VERSION: u32 = 1;
/// Bytes before the patches: magic, version, count, book length, the two headers.
const PREFIX: usize = 8 + 4 + 4 + 8 + HEADER + HEADER;
/// Bytes of one patch: the offset and the record.
const PATCH: usize = 8 + RECORD;

/// What an in-place save writes: records at their offsets, then the header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Journal {
    /// The length of the book file, which a patch does not change.
    pub book_len: u64,
    /// The book's header before the save.
    pub old_header: [u8; HEADER],
    /// The header after it (new records checksum).
    pub new_header: [u8; HEADER],
    /// Each record's offset in the book file and its new bytes.
    pub patches: Vec<(u64, [u8; RECORD])>,
}

/// What reading a book found beside it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Recovery {
    /// A complete journal of a save cut short was replayed: the book is the saved version.
    /// `on_disk` says whether the book file itself was repaired (or only the copy read).
    Replayed {
        /// Records the journal rewrote.
        records: usize,
        /// Whether the file was patched and flushed (false on a read-only disk: the
        /// journal then stays for the next time).
        on_disk: bool,
    },
    /// A journal cut short while it was being written (the book had not been touched yet),
    /// or one that belongs to another version of the file, was deleted: the book is as it
    /// was before that save.
    Discarded,
}

impl Journal {
    /// Where the journal of the book at `book` is kept.
    pub fn path_for(book: &Path) -> PathBuf {
        let mut name = book.file_name().map(std::ffi::OsStr::to_os_string).unwrap_or_default();
        name.push(".journal");
        book.with_file_name(name)
    }

    /// The journal's bytes, ending with the CRC-32 of all before it.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(PREFIX + PATCH * self.patches.len() + 4);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(self.patches.len() as u32).to_le_bytes());
        out.extend_from_slice(&self.book_len.to_le_bytes());
        out.extend_from_slice(&self.old_header);
        out.extend_from_slice(&self.new_header);
        for (offset, record) in &self.patches {
            out.extend_from_slice(&offset.to_le_bytes());
            out.extend_from_slice(record);
        }
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// A complete journal, or `None` for anything else (torn, damaged, not a journal, or
    /// patches that do not fall on whole records of the book).
    pub fn from_bytes(bytes: &[u8]) -> Option<Journal> {
        if bytes.len() < PREFIX + 4 || &bytes[..8] != MAGIC || u32_at(bytes, 8) != VERSION {
            return None;
        }
        let count = u32_at(bytes, 12) as usize;
        let end = PREFIX.checked_add(count.checked_mul(PATCH)?)?;
        if bytes.len() != end + 4 || crc32fast::hash(&bytes[..end]) != u32_at(bytes, end) {
            return None;
        }
        let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap_or_default());
        let book_len = u64_at(16);
        let mut old_header = [0; HEADER];
        old_header.copy_from_slice(&bytes[24..24 + HEADER]);
        let mut new_header = [0; HEADER];
        new_header.copy_from_slice(&bytes[24 + HEADER..PREFIX]);
        let mut patches = Vec::with_capacity(count);
        for patch in bytes[PREFIX..end].chunks_exact(PATCH) {
            let offset = u64::from_le_bytes(patch[..8].try_into().unwrap_or_default());
            let whole = offset >= HEADER as u64
                && (offset - HEADER as u64).is_multiple_of(RECORD as u64)
                && offset.checked_add(RECORD as u64).is_some_and(|e| e <= book_len);
            if !whole {
                return None;
            }
            let mut record = [0; RECORD];
            record.copy_from_slice(&patch[8..]);
            patches.push((offset, record));
        }
        Some(Journal { book_len, old_header, new_header, patches })
    }

    /// Whether the journal was written for this file: its length, and a header that is the
    /// old one, the new one, or (a header write cut short) one that agrees with both on the
    /// first 24 bytes and fails its own checksum.
    pub fn fits(&self, book: &[u8]) -> bool {
        if book.len() as u64 != self.book_len || book.len() < HEADER {
            return false;
        }
        let header = &book[..HEADER];
        let torn = header[..24] == self.old_header[..24]
            && self.old_header[..24] == self.new_header[..24]
            && crc32fast::hash(&header[..28]) != u32_at(header, 28);
        header == self.old_header || header == self.new_header || torn
    }

    /// Applies the patches and the header to the bytes of the book.
    pub fn apply_in_memory(&self, book: &mut [u8]) {
        for (offset, record) in &self.patches {
            let at = *offset as usize;
            book[at..at + RECORD].copy_from_slice(record);
        }
        book[..HEADER].copy_from_slice(&self.new_header);
    }

    /// Writes the patches, then the header, into the open book file and flushes it.
    pub fn apply_to(&self, file: &mut File) -> io::Result<()> {
        for (offset, record) in &self.patches {
            file.seek(SeekFrom::Start(*offset))?;
            file.write_all(record)?;
        }
        file.seek(SeekFrom::Start(0))?;
        file.write_all(&self.new_header)?;
        file.sync_all()
    }

    /// Writes the journal beside the book and flushes it (and its folder, so that the journal
    /// is there after a crash). Returns the bytes written.
    pub fn write(&self, book: &Path) -> io::Result<u64> {
        let bytes = self.to_bytes();
        let path = Journal::path_for(book);
        let written = File::create(&path).and_then(|mut file| {
            file.write_all(&bytes)?;
            file.sync_all()
        });
        if let Err(e) = written {
            // The book is untouched; a torn journal would only be discarded later.
            let _ = fs::remove_file(&path);
            return Err(e);
        }
        sync_folder(&path);
        Ok(bytes.len() as u64)
    }
}

/// Flushes the folder holding `path` (where the platform allows), so that a file created or
/// removed there stays so after a crash.
fn sync_folder(path: &Path) {
    #[cfg(unix)]
    if let Some(dir) = path.parent().map(|d| if d.as_os_str().is_empty() { Path::new(".") } else { d })
        && let Ok(dir) = File::open(dir)
    {
        let _ = dir.sync_all();
    }
    #[cfg(not(unix))]
    let _ = path;
}

/// Removes the journal of the book at `book`, if there is one.
pub(crate) fn remove(book: &Path) -> io::Result<()> {
    match fs::remove_file(Journal::path_for(book)) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// Recovers a book whose save was cut short, given the bytes just read from `book`: a
/// complete journal that fits them is applied to them and, where the disk allows, to the
/// file (then the journal is deleted); any other journal is deleted. `None` when there was
/// no journal.
pub(crate) fn recover(book: &Path, bytes: &mut [u8]) -> Option<Recovery> {
    let path = Journal::path_for(book);
    let mut journal = Vec::new();
    File::open(&path).ok()?.read_to_end(&mut journal).ok()?;
    match Journal::from_bytes(&journal).filter(|j| j.fits(bytes)) {
        Some(journal) => {
            journal.apply_in_memory(bytes);
            let on_disk = OpenOptions::new()
                .write(true)
                .open(book)
                .and_then(|mut file| journal.apply_to(&mut file))
                .is_ok()
                && remove(book).is_ok();
            Some(Recovery::Replayed { records: journal.patches.len(), on_disk })
        }
        None => {
            let _ = remove(book);
            sync_folder(&path);
            Some(Recovery::Discarded)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn journal() -> Journal {
        let mut old_header = [7; HEADER];
        let crc = crc32fast::hash(&old_header[..28]);
        old_header[28..].copy_from_slice(&crc.to_le_bytes());
        let mut new_header = old_header;
        new_header[24..28].copy_from_slice(&[1, 2, 3, 4]);
        let crc = crc32fast::hash(&new_header[..28]);
        new_header[28..].copy_from_slice(&crc.to_le_bytes());
        Journal {
            book_len: (HEADER + 3 * RECORD) as u64,
            old_header,
            new_header,
            patches: vec![(HEADER as u64, [1; RECORD]), ((HEADER + 2 * RECORD) as u64, [2; RECORD])],
        }
    }

    #[test]
    fn a_journal_reads_back_and_any_cut_is_refused() {
        let journal = journal();
        let bytes = journal.to_bytes();
        assert_eq!(Journal::from_bytes(&bytes), Some(journal));
        for len in 0..bytes.len() {
            assert_eq!(Journal::from_bytes(&bytes[..len]), None, "cut at {len}");
        }
        for at in 0..bytes.len() {
            let mut flipped = bytes.clone();
            flipped[at] ^= 0x20;
            assert_eq!(Journal::from_bytes(&flipped), None, "flipped at {at}");
        }
    }

    #[test]
    fn patches_must_fall_on_records_of_the_book() {
        for offset in [0, HEADER as u64 + 1, (HEADER + 3 * RECORD) as u64, u64::MAX] {
            let mut bad = journal();
            bad.patches[0].0 = offset;
            assert_eq!(Journal::from_bytes(&bad.to_bytes()), None, "offset {offset}");
        }
    }

    #[test]
    fn a_journal_fits_the_old_the_new_and_a_torn_header_only() {
        let journal = journal();
        let mut book = vec![0; journal.book_len as usize];
        book[..HEADER].copy_from_slice(&journal.old_header);
        assert!(journal.fits(&book));
        journal.apply_in_memory(&mut book);
        assert!(journal.fits(&book));
        assert_eq!(&book[HEADER..HEADER + RECORD], &[1; RECORD]);
        book[26] = journal.old_header[26];
        assert!(journal.fits(&book), "half of the new checksum written");
        book[3] ^= 1;
        assert!(!journal.fits(&book), "another file");
        assert!(!journal.fits(&book[..book.len() - 1]), "another length");
    }
}
