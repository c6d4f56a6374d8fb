//! The app's workspaces: Play (a game against engines, or two engines playing) and Study (an
//! opened game to browse, annotate and extend), each with its own game and place in it.
//! Analysis is the Study workspace's panel. Book, Tournament and Tuning are siblings: a
//! variant, its state and its panels, not new flags.

use egui::Ui;
use kibitz_engine::{GameRecord, NodeId};

use crate::action::Action;
use crate::analysis_panel::AnalysisPanel;
use crate::table::Table;

/// Which workspace is shown.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Workspace {
    /// The game against engines.
    #[default]
    Play,
    /// The opened game.
    Study,
    /// The player's opening book, to see and shape.
    Book,
    /// Engines playing each other: matches, gauntlets, round robins and knockouts.
    Tournament,
    /// A self-play tuning run of the draw and resign rules, as plots.
    Tuning,
}

impl Workspace {
    /// The tab's name.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Workspace::Play => "Play",
            Workspace::Study => "Study",
            Workspace::Book => "Book",
            Workspace::Tournament => "Tournament",
            Workspace::Tuning => "Tuning",
        }
    }
}

/// An opened game being studied: moves made on the board become variations; engines analyse
/// the position shown when asked, none plays.
pub struct Study {
    /// The game, in a table where the person plays both sides.
    pub table: Table,
    /// The move shown; `None` follows the end of the main line.
    pub cursor: Option<NodeId>,
    /// The engines analysing the position shown.
    pub analysis: AnalysisPanel,
    /// The move the next one made replaces (see `force.rs`).
    pub replacing: Option<NodeId>,
}

impl Study {
    /// A study of `game`, shown from its start.
    #[must_use]
    pub fn new(game: GameRecord) -> Self {
        Study {
            table: Table::study(game),
            cursor: Some(NodeId::ROOT),
            analysis: AnalysisPanel::default(),
            replacing: None,
        }
    }
}

/// The row of workspace tabs; a tab without content (no study open) is disabled.
pub fn workspace_tabs(ui: &mut Ui, active: Workspace, has_study: bool, actions: &mut Vec<Action>) {
    ui.horizontal(|ui| {
        for workspace in
            [Workspace::Play, Workspace::Study, Workspace::Book, Workspace::Tournament, Workspace::Tuning]
        {
            let enabled = workspace != Workspace::Study || has_study;
            let tab =
                ui.add_enabled(enabled, egui::Button::selectable(active == workspace, workspace.label()));
            if tab.clicked() && active != workspace {
                actions.push(Action::ShowWorkspace(workspace));
            }
        }
    });
}
