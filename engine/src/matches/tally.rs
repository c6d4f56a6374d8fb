//! The first engine's results against the others as statistics: wins, draws and losses, the
//! Elo difference with its 95% interval and the likelihood of superiority, the pentanomial
//! counts of game pairs, and an SPRT on those pairs that says when the question is decided.

use std::collections::HashMap;
use std::fmt;

use shakmaty::{Color, KnownOutcome};

use super::Fixture;
use crate::tournament::{GameResult, Pentanomial, Sprt, SprtDecision, SprtStatus, WinDrawLoss};

/// The results of engine 0 (the first given), game by game and pair by pair.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    games: WinDrawLoss,
    pairs: Pentanomial,
    /// The first game of each pair whose second game has not ended yet.
    waiting: HashMap<(usize, usize), GameResult>,
    sprt: Option<Sprt>,
}

impl Tally {
    /// A tally that also runs `sprt` on the pairs, when given.
    #[must_use]
    pub fn new(sprt: Option<Sprt>) -> Self {
        Tally { sprt, ..Tally::default() }
    }

    /// Counts a finished game; games without engine 0 are not counted.
    pub fn add(&mut self, fixture: &Fixture, outcome: KnownOutcome) {
        let side = match (fixture.white, fixture.black) {
            (0, _) => Color::White,
            (_, 0) => Color::Black,
            _ => return,
        };
        let result = match outcome {
            KnownOutcome::Draw => GameResult::Draw,
            KnownOutcome::Decisive { winner } if winner == side => GameResult::Win,
            KnownOutcome::Decisive { .. } => GameResult::Loss,
        };
        self.games.add(result);
        match self.waiting.remove(&fixture.pair()) {
            Some(first) => self.pairs.add_pair(first, result),
            None => {
                self.waiting.insert(fixture.pair(), result);
            }
        }
    }

    /// Engine 0's wins, draws and losses.
    #[must_use]
    pub fn games(&self) -> WinDrawLoss {
        self.games
    }

    /// The pairs both of whose games ended.
    #[must_use]
    pub fn pairs(&self) -> Pentanomial {
        self.pairs
    }

    /// The SPRT's state, when one runs.
    #[must_use]
    pub fn sprt(&self) -> Option<SprtStatus> {
        self.sprt.as_ref().map(|sprt| sprt.status(&self.pairs))
    }

    /// Whether the SPRT has decided (the run may stop).
    #[must_use]
    pub fn decided(&self) -> bool {
        self.sprt().is_some_and(|s| s.decision != SprtDecision::Continue)
    }
}

/// Elo (from the games), the pentanomial counts and the SPRT, one line each, as fastchess
/// prints them.
impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = self.games;
        match g.elo() {
            Some(e) if e.elo.is_finite() => write!(
                f,
                "Elo: {:+.1} +/- {:.1}, nElo: {:+.1} +/- {:.1}, LOS: {:.1} %",
                e.elo,
                e.error(),
                e.nelo,
                e.nelo_error,
                e.los * 100.0
            )?,
            _ => write!(f, "Elo: not yet measurable")?,
        }
        let draws = if g.games() == 0 { 0.0 } else { f64::from(g.draws) * 100.0 / f64::from(g.games()) };
        writeln!(f, ", DrawRatio: {draws:.1} %")?;
        let c = self.pairs.counts;
        write!(f, "Ptnml(0-2): [{}, {}, {}, {}, {}]", c[0], c[1], c[2], c[3], c[4])?;
        if let Some(s) = self.sprt() {
            let verdict = match s.decision {
                SprtDecision::AcceptH0 => "H0 accepted",
                SprtDecision::AcceptH1 => "H1 accepted",
                SprtDecision::Continue => "continue",
            };
            write!(f, "\nSPRT: LLR {:.2} ({:.2}, {:.2}) {verdict}", s.llr, s.lower, s.upper)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::SprtModel;

    fn fixture(number: usize, white: usize, black: usize, opening: usize) -> Fixture {
        Fixture { number, round: 1, game: number, encounter: 0, white, black, opening, duel: None }
    }

    const WHITE_WINS: KnownOutcome = KnownOutcome::Decisive { winner: Color::White };

    #[test]
    fn results_are_engine_zeros_and_pairs_count_when_both_games_ended() {
        let mut tally = Tally::new(None);
        tally.add(&fixture(1, 0, 1, 0), WHITE_WINS); // engine 0 wins with White
        assert_eq!(tally.pairs().pairs(), 0, "the pair is not complete");
        tally.add(&fixture(2, 1, 0, 0), WHITE_WINS); // and loses with Black
        tally.add(&fixture(3, 0, 1, 1), KnownOutcome::Draw);
        tally.add(&fixture(4, 1, 2, 1), WHITE_WINS); // engine 0 is not in it
        assert_eq!(tally.games(), WinDrawLoss { wins: 1, draws: 1, losses: 1 });
        assert_eq!(tally.pairs().counts, [0, 0, 1, 0, 0], "a win and a loss: one pair scoring 1");
        let text = tally.to_string();
        assert!(text.contains("Ptnml(0-2): [0, 0, 1, 0, 0]"), "{text}");
    }

    #[test]
    fn the_sprt_decides_on_pairs() {
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05, SprtModel::Normalized).expect("valid");
        let mut tally = Tally::new(Some(sprt));
        let mut number = 0;
        // Pairs won 1.5-0.5, drawn, and split (each side wins with White), in turn: engine 0
        // is clearly the stronger.
        let pairs = [
            (WHITE_WINS, KnownOutcome::Draw),
            (KnownOutcome::Draw, KnownOutcome::Draw),
            (WHITE_WINS, WHITE_WINS),
        ];
        for opening in 0..600 {
            number += 2;
            let (first, second) = pairs[opening % pairs.len()];
            tally.add(&fixture(number - 1, 0, 1, opening), first);
            tally.add(&fixture(number, 1, 0, opening), second);
            if tally.decided() {
                break;
            }
        }
        let status = tally.sprt().expect("an SPRT");
        assert_eq!(status.decision, SprtDecision::AcceptH1, "{tally}");
        assert!(status.llr >= status.upper);
        assert!(tally.to_string().contains("H1 accepted"));
    }
}
