//! The score of each engine so far: wins, draws and losses, points, and the games lost by
//! failing (on time, by a crash or hang, by an illegal move). Elo, its error and the
//! pentanomial counts come from the statistics module, fed with the same finished games.

use std::fmt;

use shakmaty::{Color, KnownOutcome};

use crate::Termination;

/// One engine's score.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineScore {
    /// Its name.
    pub name: String,
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
    /// Games lost on time.
    pub time_losses: u32,
    /// Games lost because it crashed, hung or could not be started.
    pub abandoned: u32,
    /// Games lost by an illegal move.
    pub illegal: u32,
}

impl EngineScore {
    /// Games played.
    #[must_use]
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points in half-points (a win 2, a draw 1), exact.
    #[must_use]
    pub fn half_points(&self) -> u32 {
        2 * self.wins + self.draws
    }

    /// Points scored.
    #[must_use]
    pub fn points(&self) -> f64 {
        f64::from(self.half_points()) / 2.0
    }
}

/// Every engine's score, in the order the engines were given, and what each scored against
/// each other.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Standings {
    /// The scores, by engine index.
    pub engines: Vec<EngineScore>,
    /// `met[i][j]`: engine `i`'s half-points against engine `j`, and their games.
    met: Vec<Vec<(u32, u32)>>,
}

impl Standings {
    /// No game played yet by engines named `names`.
    #[must_use]
    pub fn new(names: &[String]) -> Standings {
        Standings {
            engines: names.iter().map(|n| EngineScore { name: n.clone(), ..Default::default() }).collect(),
            met: vec![vec![(0, 0); names.len()]; names.len()],
        }
    }

    /// Engine `i`'s points against engine `j`, and their games (`None`: they have not met).
    #[must_use]
    pub fn against(&self, i: usize, j: usize) -> Option<(f64, u32)> {
        let &(half, games) = self.met.get(i)?.get(j)?;
        (games > 0).then(|| (f64::from(half) / 2.0, games))
    }

    /// The cross table: each engine's points against each other, ranked.
    #[must_use]
    pub fn cross_table(&self) -> CrossTable<'_> {
        CrossTable(self)
    }

    /// Counts a game between engines `white` and `black` (indices).
    pub fn record(
        &mut self,
        white: usize,
        black: usize,
        outcome: KnownOutcome,
        termination: Option<Termination>,
    ) {
        let side = |c: Color| if c == Color::White { white } else { black };
        let white_half = match outcome {
            KnownOutcome::Draw => 1,
            KnownOutcome::Decisive { winner } => 2 * u32::from(winner == Color::White),
        };
        for (i, j, half) in [(white, black, white_half), (black, white, 2 - white_half)] {
            if let Some(cell) = self.met.get_mut(i).and_then(|row| row.get_mut(j)) {
                cell.0 += half;
                cell.1 += 1;
            }
        }
        match outcome {
            KnownOutcome::Draw => {
                for i in [white, black] {
                    self.engines[i].draws += 1;
                }
            }
            KnownOutcome::Decisive { winner } => {
                self.engines[side(winner)].wins += 1;
                let loser = &mut self.engines[side(!winner)];
                loser.losses += 1;
                match termination {
                    Some(Termination::TimeForfeit) => loser.time_losses += 1,
                    Some(Termination::Abandoned) => loser.abandoned += 1,
                    Some(Termination::RulesInfraction) => loser.illegal += 1,
                    _ => {}
                }
            }
        }
    }

    /// The engines' indices by points, best first (ties in the order given).
    #[must_use]
    pub fn order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.engines.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(self.engines[i].half_points()));
        order
    }

    /// The engines by points, best first (ties in the order given).
    #[must_use]
    pub fn ranked(&self) -> Vec<&EngineScore> {
        self.order().into_iter().map(|i| &self.engines[i]).collect()
    }
}

impl fmt::Display for Standings {
    /// The results table: rank, name, games, points, score and W/D/L, then the losses by
    /// failure.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width = self.engines.iter().map(|e| e.name.chars().count()).max().unwrap_or(4).max(6);
        writeln!(
            f,
            "{:>4}  {:<width$}  {:>5}  {:>6}  {:>6}  {:>4}  {:>4}  {:>4}  {:>4}  {:>5}  {:>7}",
            "Rank", "Engine", "Games", "Points", "Score", "W", "D", "L", "Time", "Crash", "Illegal"
        )?;
        for (rank, e) in self.ranked().into_iter().enumerate() {
            let score = if e.games() == 0 { 0.0 } else { 100.0 * e.points() / f64::from(e.games()) };
            writeln!(
                f,
                "{:>4}  {:<width$}  {:>5}  {:>6.1}  {:>5.1}%  {:>4}  {:>4}  {:>4}  {:>4}  {:>5}  {:>7}",
                rank + 1,
                e.name,
                e.games(),
                e.points(),
                score,
                e.wins,
                e.draws,
                e.losses,
                e.time_losses,
                e.abandoned,
                e.illegal
            )?;
        }
        Ok(())
    }
}

/// The cross table of a round robin: a row per engine, best first, with its points against
/// each other (by rank) and its total.
pub struct CrossTable<'a>(&'a Standings);

impl fmt::Display for CrossTable<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.0;
        let order = s.order();
        let width = s.engines.iter().map(|e| e.name.chars().count()).max().unwrap_or(4).max(6);
        write!(f, "{:>2}  {:<width$}", "", "Engine")?;
        for rank in 1..=order.len() {
            write!(f, "  {rank:>5}")?;
        }
        writeln!(f, "  {:>6}", "Points")?;
        for (rank, &i) in order.iter().enumerate() {
            write!(f, "{:>2}  {:<width$}", rank + 1, s.engines[i].name)?;
            for &j in &order {
                match s.against(i, j) {
                    _ if i == j => write!(f, "  {:>5}", "*")?,
                    Some((points, _)) => write!(f, "  {points:>5.1}")?,
                    None => write!(f, "  {:>5}", "-")?,
                }
            }
            writeln!(f, "  {:>6.1}", s.engines[i].points())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wins_draws_losses_and_failures_are_counted_per_engine() {
        let mut s = Standings::new(&["A".into(), "B".into(), "C".into()]);
        s.record(0, 1, KnownOutcome::Decisive { winner: Color::White }, Some(Termination::Checkmate));
        s.record(1, 0, KnownOutcome::Decisive { winner: Color::Black }, Some(Termination::TimeForfeit));
        s.record(2, 0, KnownOutcome::Draw, None);
        s.record(1, 2, KnownOutcome::Decisive { winner: Color::Black }, Some(Termination::Abandoned));
        let [a, b, c] = [&s.engines[0], &s.engines[1], &s.engines[2]];
        assert_eq!((a.wins, a.draws, a.losses, a.points()), (2, 1, 0, 2.5));
        assert_eq!((b.wins, b.losses, b.time_losses, b.abandoned), (0, 3, 1, 1));
        assert_eq!((c.wins, c.draws, c.games()), (1, 1, 2));
        assert_eq!(s.ranked().iter().map(|e| e.name.as_str()).collect::<Vec<_>>(), ["A", "C", "B"]);
        assert_eq!((s.against(0, 1), s.against(1, 0)), (Some((2.0, 2)), Some((0.0, 2))));
        assert_eq!((s.against(0, 2), s.against(2, 1)), (Some((0.5, 1)), Some((1.0, 1))));
        let cross = s.cross_table().to_string();
        let rows: Vec<&str> = cross.lines().collect();
        assert!(rows[1].contains('A') && rows[1].ends_with("  *    0.5    2.0     2.5"), "{cross}");
        assert!(rows[3].contains('B') && rows[3].ends_with("0.0    0.0      *     0.0"), "{cross}");
        let table = s.to_string();
        assert!(
            table.lines().nth(1).is_some_and(|l| l.contains("A") && l.contains("2.5") && l.contains("83.3%")),
            "{table}"
        );
    }
}
