//! The tags editor of a study (Crafty's `pgn <tag> <value>` and `tags`): the Seven Tag Roster
//! always, any other tag listed, tags added and removed; the game keeps them and writes them
//! when it is saved.

use std::fmt;

use egui::{Context, Id, Label, Modal, TextEdit, WidgetInfo, accesskit};
use kibitz_engine::GameRecord;

/// The Seven Tag Roster, in its order: always present, never removed.
pub const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// The values a `Result` tag may hold.
pub const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// Why a tag cannot be kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TagError {
    /// The name is empty, or has other characters than letters, digits and `_`.
    BadName(String),
    /// A tag of that name is already there.
    Duplicate(String),
    /// The value of this tag has a line break.
    Newline(String),
    /// The `Result` tag holds something else than a result.
    BadResult(String),
}

impl fmt::Display for TagError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TagError::BadName(name) if name.is_empty() => f.write_str("Give the new tag a name."),
            TagError::BadName(name) => write!(
                f,
                "\"{name}\" is not a tag name: use letters, digits and _ only, starting with a letter or digit."
            ),
            TagError::Duplicate(name) => write!(f, "There is already a {name} tag: change its value above."),
            TagError::Newline(name) => write!(f, "The value of {name} must fit on one line."),
            TagError::BadResult(value) => {
                write!(f, "\"{value}\" is not a result: use 1-0, 0-1, 1/2-1/2 or *.")
            }
        }
    }
}

impl std::error::Error for TagError {}

/// Checks a tag name: a PGN symbol of letters, digits and `_`, starting with a letter or digit.
pub fn check_name(name: &str) -> Result<(), TagError> {
    let mut chars = name.chars();
    let first_ok = chars.next().is_some_and(|c| c.is_ascii_alphanumeric());
    if first_ok && chars.all(|c| c.is_ascii_alphanumeric() || c == '_') {
        Ok(())
    } else {
        Err(TagError::BadName(name.to_string()))
    }
}

/// Checks a tag's value: one line, and for `Result` one of [`RESULTS`].
pub fn check_value(name: &str, value: &str) -> Result<(), TagError> {
    if value.contains(['\n', '\r']) {
        return Err(TagError::Newline(name.to_string()));
    }
    if name == "Result" && !RESULTS.contains(&value.trim()) {
        return Err(TagError::BadResult(value.to_string()));
    }
    Ok(())
}

/// Makes the game's tags `tags`: the ones listed are set (in that order for new ones), the
/// others removed, except the roster, which stays.
pub fn set_tags(game: &mut GameRecord, tags: &[(String, String)]) {
    let gone: Vec<String> = game
        .tags()
        .iter()
        .filter(|(n, _)| !tags.iter().any(|(m, _)| m == n))
        .map(|(n, _)| n.clone())
        .collect();
    for name in gone {
        game.remove_tag(&name);
    }
    for (name, value) in tags {
        game.set_tag(name, value.trim());
    }
}

/// What the dialog asks the app to do.
pub enum TagsResult {
    /// Keep it open.
    Open,
    /// Close without changes.
    Cancel,
    /// Give the game these tags.
    Apply(Vec<(String, String)>),
}

/// The dialog, editing a copy of the game's tags.
pub struct TagsDialog {
    tags: Vec<(String, String)>,
    new_name: String,
    new_value: String,
    error: Option<TagError>,
}

impl TagsDialog {
    /// A dialog on a copy of `game`'s tags, the roster first.
    #[must_use]
    pub fn new(game: &GameRecord) -> Self {
        let mut tags: Vec<(String, String)> = ROSTER
            .iter()
            .map(|&name| (name.to_string(), game.tag(name).unwrap_or("?").to_string()))
            .collect();
        tags.extend(game.tags().iter().filter(|(n, _)| !ROSTER.contains(&n.as_str())).cloned());
        TagsDialog { tags, new_name: String::new(), new_value: String::new(), error: None }
    }

    /// Every tag checked, or the first error.
    fn check(&self) -> Result<(), TagError> {
        self.tags.iter().try_for_each(|(name, value)| check_value(name, value))
    }

    /// Adds the tag being typed, if it is valid.
    fn add(&mut self) -> Result<(), TagError> {
        let name = self.new_name.trim();
        check_name(name)?;
        if self.tags.iter().any(|(n, _)| n == name) {
            return Err(TagError::Duplicate(name.to_string()));
        }
        check_value(name, &self.new_value)?;
        self.tags.push((name.to_string(), self.new_value.trim().to_string()));
        self.new_name.clear();
        self.new_value.clear();
        Ok(())
    }

    /// Shows the dialog.
    pub fn ui(&mut self, ctx: &Context) -> TagsResult {
        let mut result = TagsResult::Open;
        let modal = Modal::new(Id::unique("tags-editor")).show(ctx, |ui| {
            ui.set_width(460.0);
            ui.heading("Tags");
            let mut remove = None;
            egui::ScrollArea::vertical().max_height(360.0).show(ui, |ui| {
                for (i, (name, value)) in self.tags.iter_mut().enumerate() {
                    ui.horizontal(|ui| {
                        let label = ui.add_sized([120.0, 20.0], Label::new(name.as_str()).truncate());
                        ui.add(TextEdit::singleline(value).desired_width(240.0)).labelled_by(label.id);
                        if ROSTER.contains(&name.as_str()) {
                            ui.weak("roster");
                        } else {
                            let button = ui.small_button("Remove");
                            let described = format!("Remove {name}");
                            button.widget_info(|| {
                                WidgetInfo::labeled(accesskit::Role::Button, true, &described)
                            });
                            if button.clicked() {
                                remove = Some(i);
                            }
                        }
                    });
                }
            });
            if let Some(i) = remove {
                self.tags.remove(i);
            }
            ui.separator();
            ui.horizontal(|ui| {
                let label = ui.label("New tag");
                ui.add(TextEdit::singleline(&mut self.new_name).hint_text("Annotator").desired_width(110.0))
                    .labelled_by(label.id);
                let label = ui.label("Value");
                ui.add(TextEdit::singleline(&mut self.new_value).desired_width(170.0)).labelled_by(label.id);
                if ui.button("Add tag").clicked() {
                    self.error = self.add().err();
                }
            });
            if let Some(error) = &self.error {
                ui.colored_label(ui.visuals().error_fg_color, error.to_string());
            }
            ui.weak("The tags are written when the game is saved.");
            ui.horizontal(|ui| {
                if ui.button("Apply").clicked() {
                    match self.check() {
                        Ok(()) => result = TagsResult::Apply(self.tags.clone()),
                        Err(e) => self.error = Some(e),
                    }
                }
                if ui.button("Cancel").clicked() {
                    result = TagsResult::Cancel;
                }
            });
        });
        if modal.should_close() && matches!(result, TagsResult::Open) {
            result = TagsResult::Cancel;
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_pgn_symbols() {
        assert_eq!(check_name("Annotator"), Ok(()));
        assert_eq!(check_name("White_Elo2"), Ok(()));
        for bad in ["", "Two words", "_x", "Tag]", "Ünïcode", "a\"b"] {
            assert_eq!(check_name(bad), Err(TagError::BadName(bad.to_string())), "{bad}");
        }
    }

    #[test]
    fn values_fit_on_a_line_and_results_are_results() {
        assert_eq!(check_value("Event", "Any \"text\" at all"), Ok(()));
        assert!(matches!(check_value("Event", "two\nlines"), Err(TagError::Newline(_))));
        for result in RESULTS {
            assert_eq!(check_value("Result", result), Ok(()));
        }
        assert!(matches!(check_value("Result", "1-1"), Err(TagError::BadResult(_))));
        assert!(TagError::BadResult("1-1".into()).to_string().contains("1/2-1/2"));
    }

    #[test]
    fn tags_are_set_and_removed_but_the_roster_stays() {
        let mut game = GameRecord::new();
        game.set_tag("Annotator", "old");
        game.set_tag("ECO", "C20");
        let mut dialog = TagsDialog::new(&game);
        assert_eq!(dialog.tags.len(), 9);
        dialog.tags.retain(|(n, _)| n != "Annotator" && n != "Site");
        dialog.tags[0].1 = "Club match".into();
        dialog.new_name = "PlyCount".into();
        dialog.new_value = "0".into();
        assert_eq!(dialog.add(), Ok(()));
        dialog.new_name = "ECO".into();
        assert_eq!(dialog.add(), Err(TagError::Duplicate("ECO".into())));
        set_tags(&mut game, &dialog.tags);
        assert_eq!(game.tag("Event"), Some("Club match"));
        assert_eq!(game.tag("Annotator"), None);
        assert_eq!(game.tag("Site"), Some("?"), "the roster stays");
        assert_eq!(game.tag("PlyCount"), Some("0"));
    }
}
