//! The engine's manners: when it resigns, offers a draw or accepts one, and why.
//!
//! Two rule sets are available. [`Rules::Terra`] follows Terra's documented rules (resign
//! after four bad moves with bad material, draw offers only from move 40, never twice in a
//! row, never when the opponent is short of time...). [`Rules::DeadBand`] follows the design
//! note: draws when the score stays in a band of ±D, resignation when a running sum of the
//! scores below the band falls under −T. Every decision carries an [`Explanation`] in plain
//! words, shown in the app's prompt and written as a PGN comment.
//!
//! Scores here are always the engine's own (positive is good for the engine), in centipawns;
//! a mate score counts as ±[`MATE_CP`].

mod dead_band;
mod file;
mod material;
mod option;
mod parameter;
mod terra;

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use shakmaty::{Chess, Move, Position};

use crate::Score;

pub use dead_band::DeadBandSettings;
pub use file::PolicyFileError;
pub use material::material_balance;
pub use option::{Clamped, DRAW, PolicyChange, RESIGN, RULES};
pub use parameter::{Parameter, Unit, UnknownParameter};
pub use terra::TerraSettings;

/// The centipawn value given to a mate score when comparing scores.
pub const MATE_CP: i32 = 30_000;

/// A score as centipawns, mates as ±[`MATE_CP`] (nearer mates further out).
#[must_use]
pub fn score_cp(score: Score) -> i32 {
    score.centipawns(MATE_CP)
}

/// Which rule set decides.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rules {
    /// Terra's rules.
    #[default]
    Terra,
    /// The design note's dead band and running sum.
    DeadBand,
}

/// The policy's settings: Crafty's `resign`, `draw` and `drawscore`, and the numbers of
/// both rule sets. Every number has a name and a range in [`PolicySettings::PARAMETERS`];
/// [`PolicySettings::sanitized`] brings a loaded file's numbers into their ranges.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PolicySettings {
    /// Whether the engine may resign at all.
    pub resign: bool,
    /// Whether the engine may offer and accept draws at all.
    pub draw: bool,
    /// The score a draw is worth to the engine (Crafty's `drawscore`, Terra's `contempt`):
    /// it offers and accepts draws only at or below this score.
    pub contempt: i32,
    /// Which rule set decides.
    pub rules: Rules,
    /// Terra's numbers.
    pub terra: TerraSettings,
    /// The design note's numbers.
    pub dead_band: DeadBandSettings,
}

impl Default for PolicySettings {
    fn default() -> Self {
        PolicySettings {
            resign: true,
            draw: true,
            contempt: 0,
            rules: Rules::default(),
            terra: TerraSettings::default(),
            dead_band: DeadBandSettings::default(),
        }
    }
}

/// The clock as the policy sees it, when there is one.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ClockView {
    /// The engine's remaining time.
    pub own: Duration,
    /// The opponent's remaining time.
    pub opponent: Duration,
    /// The opponent's increment per move.
    pub opponent_increment: Duration,
    /// Moves left until the next control, if the control says.
    pub moves_to_go: Option<u32>,
}

/// What the engine knows when it decides, after the search for its move.
#[derive(Clone, Debug, PartialEq)]
pub struct Situation {
    /// The full-move number of the move being played.
    pub move_number: u32,
    /// The search's score for the chosen move, from the engine's side.
    pub score: Score,
    /// Material balance in centipawns (pawn 100, knight and bishop 300, rook 500, queen
    /// 900), from the engine's side.
    pub material: i32,
    /// The clocks, if the game has any.
    pub clock: Option<ClockView>,
    /// Whether the opponent is in check after the engine's move.
    pub opponent_in_check: bool,
}

impl Situation {
    /// The situation of the side to move in `pos` after choosing `chosen` (none when it
    /// answers an offer rather than moves) with the search's `score`, on `clock`.
    #[must_use]
    pub fn after(pos: &Chess, chosen: Option<Move>, score: Score, clock: Option<ClockView>) -> Situation {
        let side = pos.turn();
        let mut after = pos.clone();
        if let Some(m) = chosen {
            after.play_unchecked(m);
        }
        Situation {
            move_number: pos.fullmoves().get(),
            score,
            material: material_balance(&after, side),
            clock,
            opponent_in_check: chosen.is_some() && after.is_check(),
        }
    }
}

/// An explanation in plain words, one reason after another.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Explanation {
    /// The reasons, each a short sentence fragment ("my score was +0.80 two moves ago").
    pub reasons: Vec<String>,
}

impl Explanation {
    fn push(&mut self, reason: impl Into<String>) {
        self.reasons.push(reason.into());
    }
}

impl fmt::Display for Explanation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reasons.join(", "))
    }
}

/// What the engine does with its move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Play on, saying nothing.
    Play,
    /// Play the move and offer a draw.
    OfferDraw(Explanation),
    /// Resign instead of moving.
    Resign(Explanation),
}

impl Decision {
    /// The sentence shown to the player and written in the PGN, if any.
    #[must_use]
    pub fn message(&self) -> Option<String> {
        match self {
            Decision::Play => None,
            Decision::OfferDraw(why) => Some(format!("I offer a draw: {why}.")),
            Decision::Resign(why) => Some(format!("I resign: {why}.")),
        }
    }
}

/// The answer to a draw offer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// Whether the engine accepts.
    pub accept: bool,
    /// Why.
    pub why: Explanation,
}

impl Answer {
    /// "I accept: ..." or "I decline: ...".
    #[must_use]
    pub fn message(&self) -> String {
        if self.accept { format!("I accept: {}.", self.why) } else { format!("I decline: {}.", self.why) }
    }
}

/// The engine's draw and resign policy for one game: its settings and what it remembers of
/// the game (its scores, its offers).
#[derive(Clone, Debug, Default)]
pub struct Policy {
    settings: PolicySettings,
    /// The engine's score after each of its moves, oldest first.
    scores: Vec<i32>,
    /// The move number of the engine's last draw offer.
    last_offer: Option<u32>,
}

impl Policy {
    /// A policy for a new game, its numbers brought into their ranges
    /// ([`PolicySettings::sanitized`]) whatever their source.
    #[must_use]
    pub fn new(settings: PolicySettings) -> Self {
        Policy { settings: settings.sanitized(), scores: Vec::new(), last_offer: None }
    }

    /// The settings.
    #[must_use]
    pub fn settings(&self) -> &PolicySettings {
        &self.settings
    }

    /// Records the engine's search result for its move and decides whether it resigns or
    /// offers a draw with it.
    pub fn decide(&mut self, now: &Situation) -> Decision {
        self.scores.push(score_cp(now.score));
        let s = &self.settings;
        let decision = match s.rules {
            Rules::Terra => terra::decide(s, &self.scores, self.last_offer, now),
            Rules::DeadBand => dead_band::decide(s, &self.scores, self.last_offer.is_some(), now),
        };
        if matches!(decision, Decision::OfferDraw(_)) {
            self.last_offer = Some(now.move_number);
        }
        decision
    }

    /// Answers the opponent's draw offer, given the engine's latest search.
    #[must_use]
    pub fn answer(&self, now: &Situation) -> Answer {
        let s = &self.settings;
        let mut scores = self.scores.clone();
        scores.push(score_cp(now.score));
        match s.rules {
            Rules::Terra => terra::answer(s, &scores, now),
            Rules::DeadBand => dead_band::answer(s, &scores, now),
        }
    }

    /// Forgets the engine's last `moves` scores (after a take-back).
    pub fn take_back(&mut self, moves: usize) {
        let keep = self.scores.len().saturating_sub(moves);
        self.scores.truncate(keep);
    }
}

/// "+0.80", "-4.50", "#3", for explanations.
fn pawns(cp: i32) -> String {
    if cp >= MATE_CP - 1000 {
        format!("a mate in {}", MATE_CP - cp)
    } else if cp <= -MATE_CP + 1000 {
        format!("being mated in {}", cp + MATE_CP)
    } else {
        Score::Cp(cp).to_string()
    }
}

/// "one move ago", "two moves ago"...
fn moves_ago(n: usize) -> String {
    const WORDS: [&str; 10] = [
        "this move",
        "one move ago",
        "two moves ago",
        "three moves ago",
        "four moves ago",
        "five moves ago",
        "six moves ago",
        "seven moves ago",
        "eight moves ago",
        "nine moves ago",
    ];
    WORDS.get(n).map_or_else(|| format!("{n} moves ago"), |w| (*w).to_string())
}

/// "3 minutes", "42 seconds", "4.9 seconds".
fn duration_words(d: Duration) -> String {
    let secs = d.as_secs_f64();
    if secs >= 120.0 {
        format!("{} minutes", (secs / 60.0).round())
    } else if secs >= 10.0 {
        format!("{} seconds", secs.round())
    } else {
        format!("{secs:.1} seconds")
    }
}

/// The opponent's time per coming move, with the number of moves assumed.
fn per_move(clock: &ClockView, default_moves: u32) -> (Duration, u32) {
    let moves = clock.moves_to_go.unwrap_or(default_moves).max(1);
    (clock.opponent / moves + clock.opponent_increment, moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_compare_beyond_any_centipawn_score() {
        assert!(score_cp(Score::Mate(1)) > score_cp(Score::Mate(5)));
        assert!(score_cp(Score::Mate(5)) > 20_000);
        assert!(score_cp(Score::Mate(-1)) < score_cp(Score::Mate(-5)));
        assert_eq!(pawns(-450), "-4.50");
        assert_eq!(pawns(score_cp(Score::Mate(3))), "a mate in 3");
    }

    #[test]
    fn explanations_read_as_sentences() {
        let mut why = Explanation::default();
        why.push("my score was +0.80 two moves ago");
        assert_eq!(Answer { accept: false, why }.message(), "I decline: my score was +0.80 two moves ago.");
        assert_eq!(duration_words(Duration::from_secs(180)), "3 minutes");
        assert_eq!(duration_words(Duration::from_millis(4900)), "4.9 seconds");
    }
}
