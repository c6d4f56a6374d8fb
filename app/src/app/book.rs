//! The app's side of the Book workspace: opening the player's book to edit, its keys, and
//! saving it (the engine plays from the edited book at once; the file is written atomically).

use std::sync::Arc;

use egui::{Key, Modifiers};
use kibitz_engine::Book;

use super::KibitzApp;
use crate::book_view::{BookRequest, BookView};
use crate::workspace::Workspace;

impl KibitzApp {
    /// Opens the player's book in the Book workspace the first time it is shown.
    pub(super) fn open_book_view(&mut self) {
        if self.workspace == Workspace::Book && self.book.is_none() {
            let book = self.learning.own_book().map_or_else(Book::new, |b| Book::clone(&b));
            self.book = Some(BookView::new(book));
        }
    }

    /// The Book workspace's keys: ← takes a move back, Ctrl+Z undoes, Ctrl+Y (or Ctrl+Shift+Z)
    /// redoes. Returns whether the workspace took the keys.
    pub(super) fn book_keys(&mut self, ctx: &egui::Context) -> bool {
        let Some(book) = self.book.as_mut().filter(|_| self.workspace == Workspace::Book) else {
            return false;
        };
        let (back, undo, redo) = ctx.input_mut(|i| {
            (
                i.consume_key(Modifiers::NONE, Key::ArrowLeft),
                i.consume_key(Modifiers::COMMAND, Key::Z),
                i.consume_key(Modifiers::COMMAND, Key::Y)
                    || i.consume_key(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z),
            )
        });
        if back {
            book.back();
        }
        if redo {
            book.redo();
        } else if undo {
            book.undo();
        }
        true
    }

    /// Carries out what the Book workspace asked.
    pub(super) fn book_request(&mut self, request: BookRequest) {
        match request {
            BookRequest::Save => {
                let Some(book) = self.book.as_mut() else { return };
                match self.learning.replace_book(Arc::new(book.book().clone())) {
                    Some((path, bytes)) => {
                        book.mark_saved();
                        self.files.write(path, bytes);
                        self.send_learning();
                        self.notices.push("The book is saved; Kibitz plays from it now.".into());
                    }
                    None => self.notices.push(
                        "Kibitz is still learning from the last game; save the book again in a moment."
                            .into(),
                    ),
                }
            }
            BookRequest::Rules => {
                self.learning.configure(&self.settings);
                self.send_learning();
            }
        }
    }
}
