//! A match's adjudication rules as plain data: a preset (TCEC, Fishtest or none) with each
//! threshold open to change, read from a name such as `tcec` or `fishtest,draw.moves=10`.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use shakmaty::{Chess, Position};

use crate::GameRecord;
use crate::SyzygyTables;
use crate::conductor::Adjudicator;
use crate::tournament::adjudication::{Countdown, DrawRule, Ply, WinRule};
use crate::tournament::arbiter::ply_of;
use crate::tournament::{Arbiter, TablebaseRule};

/// The rules by which an arbiter may end a match game early. The default is TCEC's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AdjudicationRules {
    /// The draw rule, if any.
    pub draw: Option<DrawRule>,
    /// The win (or resign) rule, if any.
    pub win: Option<WinRule>,
    /// Tablebase adjudication, if any (it needs the tables: see [`AdjudicationRules::arbiter`]).
    pub tablebase: Option<TablebaseRule>,
}

impl Default for AdjudicationRules {
    fn default() -> Self {
        AdjudicationRules::tcec()
    }
}

/// Adjudication rules that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AdjudicationError {
    /// The preset's name is not `tcec`, `fishtest` or `none`.
    UnknownPreset(String),
    /// The setting is not one of [`AdjudicationRules::SETTINGS`].
    UnknownSetting(String),
    /// A setting's value is not a number of the right kind (or `off`).
    BadValue {
        /// The setting.
        key: String,
        /// The value given.
        value: String,
    },
}

impl fmt::Display for AdjudicationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AdjudicationError::UnknownPreset(name) => {
                write!(f, "There are no adjudication rules named \"{name}\": use tcec, fishtest or none.")
            }
            AdjudicationError::UnknownSetting(key) => write!(
                f,
                "\"{key}\" is not an adjudication setting: use {}.",
                AdjudicationRules::SETTINGS.join(", ")
            ),
            AdjudicationError::BadValue { key, value } => {
                write!(f, "\"{value}\" is not a value for {key}: give a whole number, or off for the rule.")
            }
        }
    }
}

impl std::error::Error for AdjudicationError {}

impl AdjudicationRules {
    /// The settings [`AdjudicationRules::set`] knows. Scores are in centipawns; a rule's name
    /// alone (`draw=off`) turns it off.
    pub const SETTINGS: [&'static str; 9] = [
        "draw.from_move",
        "draw.moves",
        "draw.score",
        "win.moves",
        "win.score",
        "tablebase.pieces",
        "draw",
        "win",
        "tablebase",
    ];

    /// TCEC's rules: the draw rule from move 35 (±0.08 for 5 moves), the win rule (±10.00 for 4
    /// moves) and Syzygy tables of up to 6 pieces.
    #[must_use]
    pub fn tcec() -> AdjudicationRules {
        AdjudicationRules {
            draw: Some(DrawRule::tcec()),
            win: Some(WinRule::tcec()),
            tablebase: Some(TablebaseRule::default()),
        }
    }

    /// Fishtest's: resign after 3 moves at 6.00 or worse agreed by both engines, draw from move
    /// 34 after 8 moves within ±0.20; no tablebases.
    #[must_use]
    pub fn fishtest() -> AdjudicationRules {
        AdjudicationRules {
            draw: Some(DrawRule::fishtest()),
            win: Some(WinRule::fishtest()),
            tablebase: None,
        }
    }

    /// No adjudication: games are played to their end.
    #[must_use]
    pub fn none() -> AdjudicationRules {
        AdjudicationRules { draw: None, win: None, tablebase: None }
    }

    /// The preset named `name` (`tcec`, `fishtest` or `none`, in any case).
    pub fn preset(name: &str) -> Result<AdjudicationRules, AdjudicationError> {
        match name.trim().to_ascii_lowercase().as_str() {
            "tcec" => Ok(AdjudicationRules::tcec()),
            "fishtest" => Ok(AdjudicationRules::fishtest()),
            "none" => Ok(AdjudicationRules::none()),
            _ => Err(AdjudicationError::UnknownPreset(name.trim().to_string())),
        }
    }

    /// Changes one setting (see [`AdjudicationRules::SETTINGS`]): `draw.score` to `10`, `win` to
    /// `off`. Setting a threshold of a rule the preset lacks adds that rule with TCEC's other
    /// thresholds.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), AdjudicationError> {
        let key = key.trim();
        let value = value.trim();
        let bad = || AdjudicationError::BadValue { key: key.to_string(), value: value.to_string() };
        let number = || value.parse::<u32>().map_err(|_| bad());
        let score = || value.parse::<i32>().ok().filter(|cp| *cp >= 0).ok_or_else(bad);
        match key {
            "draw.from_move" | "draw.movenumber" => self.draw_rule().from_move = number()?,
            "draw.moves" | "draw.movecount" => self.draw_rule().moves = number()?,
            "draw.score" => self.draw_rule().max_cp = score()?,
            "win.moves" | "win.movecount" => self.win_rule().moves = number()?,
            "win.score" => self.win_rule().min_cp = score()?,
            "tablebase.pieces" => {
                self.tablebase.get_or_insert_with(TablebaseRule::default).max_pieces = number()?;
            }
            "draw" | "win" | "tablebase" if value.eq_ignore_ascii_case("off") => match key {
                "draw" => self.draw = None,
                "win" => self.win = None,
                _ => self.tablebase = None,
            },
            "draw" | "win" | "tablebase" => return Err(bad()),
            _ => return Err(AdjudicationError::UnknownSetting(key.to_string())),
        }
        Ok(())
    }

    /// The draw rule, added with TCEC's thresholds if there is none.
    fn draw_rule(&mut self) -> &mut DrawRule {
        self.draw.get_or_insert_with(|| DrawRule { name: "draw rule".into(), ..DrawRule::tcec() })
    }

    /// The win rule, added with TCEC's thresholds if there is none.
    fn win_rule(&mut self) -> &mut WinRule {
        self.win.get_or_insert_with(|| WinRule { name: "win rule".into(), ..WinRule::tcec() })
    }

    /// The arbiter of one game under these rules, with the Syzygy tables if the match has them
    /// (tablebase adjudication needs both the rule and the tables).
    #[must_use]
    pub fn arbiter(&self, tables: Option<Arc<SyzygyTables>>) -> Arbiter {
        Arbiter::new(self.clone(), tables)
    }

    /// The same arbiter, boxed for [`Conductor::with_adjudicator`](crate::Conductor::with_adjudicator).
    #[must_use]
    pub fn adjudicator(&self, tables: Option<Arc<SyzygyTables>>) -> Box<dyn Adjudicator> {
        Box::new(self.arbiter(tables))
    }

    /// Each score rule's countdown in `game`, from the scores written on its moves (the
    /// conductor writes each engine's score on its move): for a display that has the game but
    /// not the arbiter.
    #[must_use]
    pub fn countdowns(&self, game: &GameRecord) -> Vec<Countdown> {
        let plies: Vec<Ply> = (0..game.len())
            .map(|index| {
                let mover = game.position_at(index).turn();
                let id = game.main_line()[index + 1];
                let score = game.node(id).and_then(|n| n.eval()).map(|e| e.score.white_pov(mover));
                ply_of(game, index, score)
            })
            .collect();
        self.countdowns_of(&plies, game.position())
    }

    pub(crate) fn countdowns_of(&self, plies: &[Ply], now: &Chess) -> Vec<Countdown> {
        let draw = self.draw.iter().map(|rule| rule.countdown(plies, now));
        draw.chain(self.win.iter().map(|rule| rule.countdown(plies))).collect()
    }
}

impl FromStr for AdjudicationRules {
    type Err = AdjudicationError;

    /// A preset's name, then settings separated by commas: `tcec`, `fishtest,draw.moves=10`,
    /// `none,tablebase.pieces=5`, `tcec,win=off`.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let mut parts = text.split(',');
        let mut rules = AdjudicationRules::preset(parts.next().unwrap_or_default())?;
        for part in parts.filter(|p| !p.trim().is_empty()) {
            let Some((key, value)) = part.split_once('=') else {
                return Err(AdjudicationError::UnknownSetting(part.trim().to_string()));
            };
            rules.set(key, value)?;
        }
        Ok(rules)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Eval;
    use crate::Score;
    use shakmaty::Color;

    #[test]
    fn presets_are_read_by_name() {
        assert_eq!("tcec".parse::<AdjudicationRules>(), Ok(AdjudicationRules::default()));
        assert_eq!("Fishtest".parse::<AdjudicationRules>(), Ok(AdjudicationRules::fishtest()));
        let none: AdjudicationRules = "none".parse().expect("none");
        assert_eq!((none.draw, none.win, none.tablebase), (None, None, None));
        assert_eq!(
            "cutechess".parse::<AdjudicationRules>(),
            Err(AdjudicationError::UnknownPreset("cutechess".into()))
        );
        let tcec = AdjudicationRules::tcec();
        let draw = tcec.draw.expect("draw rule");
        assert_eq!((draw.from_move, draw.moves, draw.max_cp), (35, 5, 8));
        let win = tcec.win.expect("win rule");
        assert_eq!((win.moves, win.min_cp), (4, 1000));
        assert_eq!(tcec.tablebase, Some(TablebaseRule { max_pieces: 6 }));
    }

    #[test]
    fn settings_override_each_threshold() {
        let rules: AdjudicationRules =
            "tcec, draw.moves=6, draw.score=10, draw.from_move=40, win.moves=5, win.score=900, tablebase.pieces=5"
                .parse()
                .expect("rules");
        let draw = rules.draw.expect("draw rule");
        assert_eq!(
            (draw.name.as_str(), draw.from_move, draw.moves, draw.max_cp),
            ("TCEC draw rule", 40, 6, 10)
        );
        let win = rules.win.expect("win rule");
        assert_eq!((win.moves, win.min_cp), (5, 900));
        assert_eq!(rules.tablebase, Some(TablebaseRule { max_pieces: 5 }));
        let rules: AdjudicationRules = "tcec,win=off,tablebase=OFF".parse().expect("rules");
        assert!(rules.win.is_none() && rules.tablebase.is_none() && rules.draw.is_some());
        // A threshold of a missing rule adds the rule.
        let rules: AdjudicationRules = "none,draw.moves=3".parse().expect("rules");
        let draw = rules.draw.expect("draw rule");
        assert_eq!((draw.name.as_str(), draw.moves, draw.max_cp), ("draw rule", 3, 8));
        assert!(rules.win.is_none());
    }

    #[test]
    fn bad_settings_are_named() {
        let err = "tcec,draw.score=-3".parse::<AdjudicationRules>().unwrap_err();
        assert_eq!(err, AdjudicationError::BadValue { key: "draw.score".into(), value: "-3".into() });
        let err = "tcec,resign.moves=3".parse::<AdjudicationRules>().unwrap_err();
        assert_eq!(err, AdjudicationError::UnknownSetting("resign.moves".into()));
        assert!(err.to_string().contains("draw.moves"), "{err}");
        let err = "tcec,win=on".parse::<AdjudicationRules>().unwrap_err();
        assert!(matches!(err, AdjudicationError::BadValue { .. }));
        let err = "tcec,draw.moves".parse::<AdjudicationRules>().unwrap_err();
        assert_eq!(err, AdjudicationError::UnknownSetting("draw.moves".into()));
    }

    #[test]
    fn rules_round_trip_through_json() {
        let rules: AdjudicationRules = "fishtest,tablebase.pieces=5".parse().expect("rules");
        let json = serde_json::to_string(&rules).expect("json");
        let back: AdjudicationRules = serde_json::from_str(&json).expect("read back");
        assert_eq!(back, rules);
    }

    #[test]
    fn countdowns_read_the_scores_written_on_the_moves() {
        let rules = AdjudicationRules::tcec();
        let mut game = GameRecord::new();
        for san in ["Nf3", "Nf6", "Ng1", "Ng8", "Nc3", "Nc6"] {
            let mover = game.position().turn();
            game.play_text(san).expect("legal");
            // Each engine is 11.00 down for itself on its moves: Black's wins.
            let own = Score::Cp(if mover == Color::White { -1100 } else { 1100 });
            game.set_eval(game.main_end(), Some(Eval { score: own.white_pov(mover), depth: Some(20) }));
        }
        let countdowns = rules.countdowns(&game);
        assert_eq!(countdowns.len(), 2);
        let (draw, win) = (&countdowns[0], &countdowns[1]);
        assert_eq!((draw.counted, draw.needed, draw.plies_left), (0, 10, 64));
        assert_eq!((win.rule.as_str(), win.counted, win.plies_left), ("TCEC win rule", 6, 2));
        assert_eq!(win.favours, Some(Color::Black));
    }
}
