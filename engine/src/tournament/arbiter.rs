//! The arbiter of a match game: the draw, win and tablebase rules of an [`AdjudicationRules`]
//! combined into one [`Adjudicator`] for the conductor, with each rule's countdown for a display.

use std::sync::Arc;

use shakmaty::{ByColor, Chess, Position};

use crate::SyzygyTables;
use crate::conductor::Adjudicator;
use crate::tournament::AdjudicationRules;
use crate::tournament::adjudication::{Countdown, Ply};
use crate::{Ending, GameRecord, Score};

/// The rules of a match applied to one game (build one per game: it remembers the scores).
pub struct Arbiter {
    rules: AdjudicationRules,
    tables: Option<Arc<SyzygyTables>>,
    /// One entry per ply of the main line; plies played before the arbiter joined have no score.
    plies: Vec<Ply>,
    /// The position after the last ply seen.
    now: Chess,
    /// Further rules, asked after these (a move limit).
    extra: Vec<Box<dyn Adjudicator>>,
}

impl Arbiter {
    /// An arbiter applying `rules`, with the Syzygy tables when the rules and the match have them.
    #[must_use]
    pub fn new(rules: AdjudicationRules, tables: Option<Arc<SyzygyTables>>) -> Arbiter {
        Arbiter { rules, tables, plies: Vec::new(), now: Chess::default(), extra: Vec::new() }
    }

    /// Adds a further rule, asked after the arbiter's own (for example a
    /// [`MoveLimit`](crate::conductor::MoveLimit)).
    #[must_use]
    pub fn with(mut self, extra: Box<dyn Adjudicator>) -> Arbiter {
        self.extra.push(extra);
        self
    }

    /// The rules applied.
    #[must_use]
    pub fn rules(&self) -> &AdjudicationRules {
        &self.rules
    }

    /// Brings the plies up to date with `game`, the mover of its last move having `score`.
    fn record(&mut self, game: &GameRecord, score: Option<Score>) {
        let len = game.len();
        self.plies.truncate(len.saturating_sub(1));
        while self.plies.len() + 1 < len {
            let ply = ply_of(game, self.plies.len(), None);
            self.plies.push(ply);
        }
        if len > 0 {
            self.plies.push(ply_of(game, len - 1, score));
        }
        self.now = game.position().clone();
    }
}

/// The `index`th ply of `game` (0 for its first move), with the mover's score.
pub(crate) fn ply_of(game: &GameRecord, index: usize, score: Option<Score>) -> Ply {
    let before = game.position_at(index);
    Ply {
        mover: before.turn(),
        move_number: before.fullmoves().get(),
        score,
        zeroing: game.moves().get(index).is_some_and(|m| m.is_zeroing()),
    }
}

impl Adjudicator for Arbiter {
    /// How far each score rule is from ending the game, after the last move seen.
    fn countdowns(&self) -> Vec<Countdown> {
        self.rules.countdowns_of(&self.plies, &self.now)
    }

    fn adjudicate(&mut self, game: &GameRecord, scores: ByColor<Option<Score>>) -> Option<(Ending, String)> {
        if game.is_empty() {
            return None;
        }
        let mover = !game.position().turn();
        self.record(game, *scores.get(mover));
        let decided = self
            .rules
            .tablebase
            .as_ref()
            .zip(self.tables.as_deref())
            .and_then(|(rule, tables)| rule.decide(tables, &self.now))
            .or_else(|| self.rules.draw.as_ref().and_then(|rule| rule.decide(&self.plies, &self.now)))
            .or_else(|| self.rules.win.as_ref().and_then(|rule| rule.decide(&self.plies)));
        if decided.is_some() {
            return decided;
        }
        self.extra.iter_mut().find_map(|rule| rule.adjudicate(game, scores))
    }

    fn take_back(&mut self, plies: usize) {
        self.plies.truncate(self.plies.len().saturating_sub(plies));
        for rule in &mut self.extra {
            rule.take_back(plies);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conductor::{Conductor, GameEvent, MoveLimit};
    use crate::{SearchInfo, Termination};
    use shakmaty::{Color, KnownOutcome};

    /// Plays `moves` (SAN) through `arbiter`, each mover reporting `score(ply)` from its side.
    fn play(
        arbiter: &mut Arbiter,
        game: &mut GameRecord,
        moves: &[&str],
        score: impl Fn(usize, Color) -> Option<Score>,
    ) -> Option<(Ending, String)> {
        for san in moves {
            let mover = game.position().turn();
            game.play_text(san).expect("legal");
            let mut scores = ByColor::new_with(|_| None);
            *scores.get_mut(mover) = score(game.len(), mover);
            if let Some(decided) = arbiter.adjudicate(game, scores) {
                return Some(decided);
            }
        }
        None
    }

    /// Knight shuffles that never capture nor move a pawn, from the initial position.
    fn shuffle(moves: usize) -> Vec<&'static str> {
        ["Nf3", "Nf6", "Ng1", "Ng8"].iter().copied().cycle().take(moves).collect()
    }

    #[test]
    fn the_tcec_draw_rule_ends_a_quiet_game_after_move_35() {
        let mut arbiter = AdjudicationRules::tcec().arbiter(None);
        let mut game = GameRecord::new();
        let decided = play(&mut arbiter, &mut game, &shuffle(80), |_, _| Some(Score::Cp(0)));
        let (ending, why) = decided.expect("drawn");
        assert_eq!(ending.outcome, KnownOutcome::Draw);
        // 35 moves complete after 70 plies; the engines were drawish all along.
        assert_eq!(game.len(), 70);
        assert_eq!(why, "TCEC draw rule: both engines within ±0.08 for 5 moves from move 31");
        let draw = &arbiter.countdowns()[0];
        assert_eq!((draw.rule.as_str(), draw.counted, draw.plies_left), ("TCEC draw rule", 70, 0));
    }

    #[test]
    fn an_opening_without_scores_does_not_count() {
        let mut arbiter = AdjudicationRules::tcec().arbiter(None);
        let mut game = GameRecord::new();
        for san in shuffle(68) {
            game.play_text(san).expect("legal");
        }
        // The arbiter joins at ply 69: the book plies have no score.
        let decided = play(&mut arbiter, &mut game, &shuffle(9), |_, _| Some(Score::Cp(1)));
        assert_eq!(decided, None);
        assert_eq!(arbiter.countdowns()[0].counted, 9);
        let decided = play(&mut arbiter, &mut game, &["Nf6"], |_, _| Some(Score::Cp(1)));
        assert!(decided.is_some());
        assert_eq!(game.len(), 78);
    }

    #[test]
    fn a_real_pawn_move_or_capture_restarts_the_draw_count() {
        let mut arbiter = AdjudicationRules::tcec().arbiter(None);
        let mut game = GameRecord::from_fen("1n2k3/p7/8/3p4/8/8/P7/1N2K3 w - - 0 40").expect("fen");
        let level = |_: usize, _: Color| Some(Score::Cp(0));
        let shuffle = ["Nc3", "Nc6", "Nb1", "Nb8"];
        assert_eq!(play(&mut arbiter, &mut game, &shuffle, level), None);
        assert_eq!(arbiter.countdowns()[0].counted, 4);
        // A pawn move: the count starts again after it.
        assert_eq!(play(&mut arbiter, &mut game, &["a3"], level), None);
        assert_eq!(arbiter.countdowns()[0].counted, 0);
        assert_eq!(play(&mut arbiter, &mut game, &["Nc6", "Nc3"], level), None);
        assert_eq!(arbiter.countdowns()[0].counted, 2);
        // A capture (not by a pawn) too.
        assert_eq!(play(&mut arbiter, &mut game, &["Nd4", "Nxd5"], level), None);
        assert_eq!(arbiter.countdowns()[0].counted, 0);
        let decided = play(&mut arbiter, &mut game, &["Nc6", "Nc3", "Nb8", "Nb1", "Nc6"], level);
        assert_eq!(decided, None);
        assert_eq!(arbiter.countdowns()[0].plies_left, 5);
        let decided = play(&mut arbiter, &mut game, &["Nc3", "Nb8", "Nb1", "Nc6", "Nc3"], level);
        let (_, why) = decided.expect("drawn");
        assert_eq!(why, "TCEC draw rule: both engines within ±0.08 for 5 moves from move 44");
    }

    #[test]
    fn taking_back_forgets_the_scores() {
        let mut arbiter = AdjudicationRules::tcec().arbiter(None);
        let mut game = GameRecord::new();
        let winning =
            |_: usize, side: Color| Some(Score::Cp(if side == Color::White { 1100 } else { -1100 }));
        assert_eq!(play(&mut arbiter, &mut game, &shuffle(7), winning), None);
        assert_eq!(arbiter.countdowns()[1].counted, 7);
        game.truncate(3);
        arbiter.take_back(4);
        assert_eq!(arbiter.countdowns()[1].counted, 3);
        let decided = play(&mut arbiter, &mut game, &shuffle(8)[3..], winning);
        let (ending, _) = decided.expect("won");
        assert_eq!(ending, Ending::win(Color::White, Termination::Adjudication));
        assert_eq!(game.len(), 8);
    }

    #[test]
    fn the_tablebase_decides_first() {
        let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/syzygy");
        let tables = Arc::new(SyzygyTables::open(folder).expect("tables"));
        let mut arbiter = AdjudicationRules::tcec().arbiter(Some(tables));
        // White takes the last black piece: KRvK.
        let mut game = GameRecord::from_fen("8/8/8/4k3/8/8/r7/R3K3 w - - 0 50").expect("fen");
        let decided = play(&mut arbiter, &mut game, &["Rxa2"], |_, _| Some(Score::Cp(0)));
        let (ending, why) = decided.expect("adjudicated");
        assert_eq!(ending, Ending::win(Color::White, Termination::Adjudication));
        assert_eq!(why, "Syzygy: KRvK is won for White");
    }

    #[test]
    fn the_engines_scores_reach_the_arbiter_through_the_conductor() {
        let rules = AdjudicationRules::tcec();
        let game = GameRecord::from_fen("1n2k3/p7/8/8/8/8/P7/1N2K3 w - - 0 40").expect("fen");
        let mut conductor =
            Conductor::new(game, None, ByColor::new_with(|_| None)).with_adjudicator(rules.adjudicator(None));
        for san in ["Nc3", "Nc6", "Nb1", "Nb8"].iter().cycle().take(12) {
            if conductor.is_over() {
                break;
            }
            let side = conductor.to_move();
            let searched = conductor.game().position().clone();
            let m = conductor.game().parse_move(san).expect("legal");
            let info = SearchInfo {
                depth: 18,
                seldepth: 24,
                multipv: 1,
                score: Score::Cp(-4),
                bound: None,
                nodes: 1000,
                nps: 1000,
                time: std::time::Duration::from_millis(1),
                hashfull: 0,
                tbhits: 0,
                pv: vec![m],
            };
            conductor.record_search(side, &searched, &info);
            let _ = conductor.engine_move(side, m);
        }
        assert_eq!(conductor.game().len(), 10);
        assert_eq!(conductor.game().ending(), Some(Ending::draw(Termination::Adjudication)));
        let note = conductor.note().expect("explained");
        assert!(
            note.contains("TCEC draw rule: both engines within ±0.08 for 5 moves from move 40"),
            "{note}"
        );
        // The scores the conductor wrote on the moves give a display the same countdown.
        let draw = &rules.countdowns(conductor.game())[0];
        assert_eq!((draw.counted, draw.plies_left), (10, 0));
    }

    #[test]
    fn the_conductor_ends_a_game_through_the_arbiter() {
        let arbiter = AdjudicationRules::none().arbiter(None).with(Box::new(MoveLimit { plies: 4 }));
        let mut conductor = Conductor::new(GameRecord::new(), None, ByColor::new_with(|_| None))
            .with_adjudicator(Box::new(arbiter));
        let mut events = Vec::new();
        for san in shuffle(4) {
            let side = conductor.to_move();
            let m = conductor.game().parse_move(san).expect("legal");
            events.extend(conductor.person_move(side, m).expect("played"));
        }
        assert!(conductor.is_over());
        assert!(events.iter().any(|e| matches!(e, GameEvent::Adjudicated { .. })));
    }
}
