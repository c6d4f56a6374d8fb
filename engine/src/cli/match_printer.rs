//! What `kibitz match` prints as the games end: each game, the running score of two engines,
//! the SPRT's state, and at the end of a gauntlet the first engine's table against each
//! opponent.

use shakmaty::KnownOutcome;

use crate::matches::{FinishedGame, Fixture, Flow, Standings, Tally, Watcher};

/// Prints each game as it ends, and for two engines the running score, as cutechess does.
pub(super) struct Printer {
    /// The engines' names, by index.
    pub names: Vec<String>,
    /// The first engine's results as statistics, and the SPRT when one runs.
    pub tally: Tally,
    /// The first engine's results against each engine alone, by the engine's index.
    pub opponents: Vec<Tally>,
}

impl Printer {
    fn score_line(&self, standings: &Standings) {
        if let [a, b] = standings.engines.as_slice() {
            let games = a.games();
            let score = if games == 0 { 0.0 } else { a.points() / f64::from(games) };
            println!(
                "Score of {} vs {}: {} - {} - {}  [{score:.3}] {games}",
                a.name, b.name, a.wins, b.wins, a.draws
            );
        }
    }

    /// Counts a game for the first engine's tallies, overall and against its opponent.
    fn add(&mut self, fixture: &Fixture, outcome: KnownOutcome) {
        self.tally.add(fixture, outcome);
        let opponent = if fixture.white == 0 { fixture.black } else { fixture.white };
        if let Some(tally) = self.opponents.get_mut(opponent) {
            tally.add(fixture, outcome);
        }
    }

    /// The first engine's results against each opponent, one line each, as a gauntlet's
    /// table: games, wins, draws, losses, score, Elo with its 95% interval, and the pairs.
    pub(super) fn against_each(&self) -> String {
        let width = self.names.iter().map(String::len).max().unwrap_or(0).max("Opponent".len());
        let mut text = format!("{} against each:\n", self.names.first().map_or("", String::as_str));
        text += &format!(
            "{:<width$}  Games    W    D    L   Score      Elo  95% interval      Ptnml(0-2)\n",
            "Opponent"
        );
        for (name, tally) in self.names.iter().zip(&self.opponents).skip(1) {
            let g = tally.games();
            let score = if g.games() == 0 { 0.0 } else { 100.0 * g.points() / f64::from(g.games()) };
            let (elo, interval) = match g.elo() {
                Some(e) if e.elo.is_finite() => (format!("{:+.0}", e.elo + 0.0), interval(e.low, e.high)),
                Some(e) => (if e.elo > 0.0 { "+inf" } else { "-inf" }.to_owned(), "-".to_owned()),
                None => ("-".to_owned(), "-".to_owned()),
            };
            let c = tally.pairs().counts;
            text += &format!(
                "{name:<width$}  {:>5} {:>4} {:>4} {:>4}  {score:>5.1}%  {elo:>7}  {interval:<16}  [{}, {}, {}, {}, {}]\n",
                g.games(),
                g.wins,
                g.draws,
                g.losses,
                c[0],
                c[1],
                c[2],
                c[3],
                c[4]
            );
        }
        text
    }
}

/// An Elo interval as `[-120, +35]`; an end at infinity (every point scored) as `inf`.
fn interval(low: f64, high: f64) -> String {
    let end = |x: f64| {
        if x.is_finite() {
            format!("{:+.0}", x + 0.0)
        } else {
            format!("{}inf", if x > 0.0 { '+' } else { '-' })
        }
    };
    format!("[{}, {}]", end(low), end(high))
}

impl Watcher for Printer {
    fn resumed(&mut self, games: &[FinishedGame], standings: &Standings) {
        println!("Resuming: {} games already in the PGN", games.len());
        for game in games {
            self.add(&game.fixture, game.outcome);
        }
        self.score_line(standings);
    }

    fn finished(&mut self, game: &FinishedGame, standings: &Standings) -> Flow {
        println!(
            "Finished game {} ({} vs {}): {} {{{}}}",
            game.fixture.number,
            game.white,
            game.black,
            game.result(),
            game.verdict
        );
        self.score_line(standings);
        self.add(&game.fixture, game.outcome);
        if let Some(status) = self.tally.sprt() {
            println!("SPRT: LLR {:.2} ({:.2}, {:.2})", status.llr, status.lower, status.upper);
        }
        if self.tally.decided() {
            println!("SPRT decided: the games under way finish, no new one starts");
            return Flow::Stop;
        }
        Flow::Continue
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::WinDrawLoss;

    #[test]
    fn a_gauntlet_table_has_the_first_engines_results_against_each_opponent() {
        let names: Vec<String> = ["Kibitz", "Fairy-Max", "Glaurung"].map(String::from).to_vec();
        let mut printer = Printer { tally: Tally::new(None), opponents: vec![Tally::new(None); 3], names };
        let white = KnownOutcome::Decisive { winner: shakmaty::Color::White };
        let black = KnownOutcome::Decisive { winner: shakmaty::Color::Black };
        let games = [
            // Against Fairy-Max: two pairs, one won 2-0, one lost 0.5-1.5 (a draw and a loss).
            (0, 1, 0, white),
            (1, 0, 0, black),
            (0, 1, 1, KnownOutcome::Draw),
            (1, 0, 1, white),
            // Against Glaurung: one pair, split (each side wins with White).
            (0, 2, 2, white),
            (2, 0, 2, white),
        ];
        for (number, &(w, b, opening, outcome)) in games.iter().enumerate() {
            let encounter = w.max(b);
            let fixture = Fixture {
                number,
                round: 1,
                game: number,
                encounter,
                white: w,
                black: b,
                opening,
                duel: None,
            };
            printer.add(&fixture, outcome);
        }
        assert_eq!(printer.tally.games(), WinDrawLoss { wins: 3, draws: 1, losses: 2 });
        let table = printer.against_each();
        let lines: Vec<Vec<&str>> = table.lines().skip(2).map(|l| l.split_whitespace().collect()).collect();
        assert!(table.starts_with("Kibitz against each:"), "{table}");
        assert_eq!(lines.len(), 2, "{table}");
        assert_eq!(lines[0][..6], ["Fairy-Max", "4", "2", "1", "1", "62.5%"], "{table}");
        assert_eq!(lines[0][6], "+89", "{table}");
        assert!(table.contains("[0, 1, 0, 0, 1]"), "{table}");
        assert_eq!(lines[1][..7], ["Glaurung", "2", "1", "0", "1", "50.0%", "+0"], "{table}");
        assert!(lines[1].join(" ").ends_with("[0, 0, 1, 0, 0]"), "{table}");
        assert_eq!(interval(f64::NEG_INFINITY, 12.4), "[-inf, +12]");
    }
}
