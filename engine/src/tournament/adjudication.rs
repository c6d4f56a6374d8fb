//! The score rules of a match's arbiter: TCEC's draw and win rules and their kin (Fishtest's draw
//! and resign adjudication), counted over the plies of a game from the engines' own scores.
//!
//! Each rule looks at the last plies of the game, one score per ply: the score the engine that
//! moved gave for its move, from its own side. "Both engines for 5 moves" is therefore 10
//! consecutive plies, 5 scores of each engine, as cutechess and fastchess count it.

use serde::{Deserialize, Serialize};
use shakmaty::{Chess, Color, Position};

use crate::{Ending, Score, Termination};

/// One ply as the arbiter saw it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Ply {
    /// The side that played the move.
    pub mover: Color,
    /// The number of the move (1 for each side's first move of a game from the initial position).
    pub move_number: u32,
    /// The mover's score for its move, from its own side; `None` when it gave none (a book move,
    /// a person's move, an engine that reports no score).
    pub score: Option<Score>,
    /// Whether the move was a capture or a pawn move.
    pub zeroing: bool,
}

/// How far a rule is from ending the game, for a display like TCEC's ("TCEC draw rule: 4 plies
/// left").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Countdown {
    /// The rule's name ("TCEC draw rule").
    pub rule: String,
    /// The plies that count towards the rule now.
    pub counted: usize,
    /// The plies the rule needs.
    pub needed: usize,
    /// The plies still to play before the rule can end the game, if every one of them counts
    /// (the draw rule also waits for its first move number).
    pub plies_left: usize,
    /// The side a win rule would score the game for, once its count is full.
    pub favours: Option<Color>,
}

/// The draw rule: the game is drawn once both engines' scores stayed close to equal for a number
/// of moves each, late enough in the game. A capture or a pawn move starts the count again, and a
/// mate score never counts as close to equal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawRule {
    /// The rule's name in reasons and countdowns ("TCEC draw rule").
    pub name: String,
    /// The rule ends a game only once this many full moves are complete, both sides' moves of
    /// this number included (cutechess's and fastchess's `movenumber`).
    pub from_move: u32,
    /// How many moves each engine's score must stay in the window (twice as many plies).
    pub moves: u32,
    /// The window: scores from `-max_cp` to `+max_cp` centipawns count.
    pub max_cp: i32,
}

impl DrawRule {
    /// TCEC's draw rule: from move 35, both engines within ±0.08 for the last 5 moves each.
    #[must_use]
    pub fn tcec() -> DrawRule {
        DrawRule { name: "TCEC draw rule".into(), from_move: 35, moves: 5, max_cp: 8 }
    }

    /// Fishtest's draw adjudication: from move 34, both engines within ±0.20 for 8 moves each
    /// (its `-draw movenumber=34 movecount=8 score=20`).
    #[must_use]
    pub fn fishtest() -> DrawRule {
        DrawRule { name: "Fishtest draw rule".into(), from_move: 34, moves: 8, max_cp: 20 }
    }

    /// The plies the rule needs.
    #[must_use]
    pub fn needed(&self) -> usize {
        2 * self.moves as usize
    }

    fn counts(&self, ply: &Ply) -> bool {
        !ply.zeroing
            && matches!(ply.score, Some(Score::Cp(cp)) if cp.unsigned_abs() <= self.max_cp.unsigned_abs())
    }

    /// How many of the last plies count towards the rule.
    #[must_use]
    pub fn counted(&self, plies: &[Ply]) -> usize {
        plies.iter().rev().take_while(|p| self.counts(p)).count()
    }

    /// How far the rule is from ending the game after `plies`, in position `now`.
    #[must_use]
    pub fn countdown(&self, plies: &[Ply], now: &Chess) -> Countdown {
        let counted = self.counted(plies);
        let needed = self.needed();
        Countdown {
            rule: self.name.clone(),
            counted,
            needed,
            plies_left: needed.saturating_sub(counted).max(plies_until_complete(now, self.from_move)),
            favours: None,
        }
    }

    /// The draw and its reason, when the rule ends the game after `plies` in position `now`.
    #[must_use]
    pub fn decide(&self, plies: &[Ply], now: &Chess) -> Option<(Ending, String)> {
        let needed = self.needed();
        if needed == 0 || self.counted(plies) < needed || plies_until_complete(now, self.from_move) > 0 {
            return None;
        }
        let first = plies[plies.len() - needed];
        let why = format!(
            "{}: both engines within ±{} for {} moves from move {}",
            self.name,
            pawns(self.max_cp.saturating_abs()),
            self.moves,
            first.move_number
        );
        Some((Ending::draw(Termination::Adjudication), why))
    }
}

/// The win rule: the game is won for a side once both engines scored it at least so far ahead
/// (the winner's engine from its side, the loser's engine from its own) for a number of moves
/// each. Mate scores count as beyond any threshold.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WinRule {
    /// The rule's name in reasons and countdowns ("TCEC win rule").
    pub name: String,
    /// How many moves each engine's score must stay past the threshold (twice as many plies).
    pub moves: u32,
    /// The threshold in centipawns: the winner's engine at `+min_cp` or more, the loser's at
    /// `-min_cp` or less.
    pub min_cp: i32,
}

impl WinRule {
    /// TCEC's win rule: both engines at ±10.00 or beyond for the same side for 4 moves each,
    /// from the start of the game.
    #[must_use]
    pub fn tcec() -> WinRule {
        WinRule { name: "TCEC win rule".into(), moves: 4, min_cp: 1000 }
    }

    /// Fishtest's resign adjudication (its `-resign movecount=3 score=600`), asked here of both
    /// engines: both at ±6.00 or beyond for the same side for 3 moves each. (Fishtest asks only
    /// the loser's engine, both engines being almost the same program.)
    #[must_use]
    pub fn fishtest() -> WinRule {
        WinRule { name: "Fishtest resign rule".into(), moves: 3, min_cp: 600 }
    }

    /// The plies the rule needs.
    #[must_use]
    pub fn needed(&self) -> usize {
        2 * self.moves as usize
    }

    /// The side the ply's score says is winning by the threshold.
    fn favours(&self, ply: &Ply) -> Option<Color> {
        let min = self.min_cp.saturating_abs();
        match ply.score? {
            Score::Cp(cp) if cp >= min => Some(ply.mover),
            Score::Cp(cp) if cp <= -min => Some(!ply.mover),
            Score::Cp(_) => None,
            Score::Mate(n) if n > 0 => Some(ply.mover),
            Score::Mate(_) => Some(!ply.mover),
        }
    }

    /// How many of the last plies agree on a winner, and that winner.
    #[must_use]
    pub fn counted(&self, plies: &[Ply]) -> (usize, Option<Color>) {
        let Some(winner) = plies.last().and_then(|p| self.favours(p)) else { return (0, None) };
        (plies.iter().rev().take_while(|p| self.favours(p) == Some(winner)).count(), Some(winner))
    }

    /// How far the rule is from ending the game after `plies`.
    #[must_use]
    pub fn countdown(&self, plies: &[Ply]) -> Countdown {
        let (counted, favours) = self.counted(plies);
        let needed = self.needed();
        Countdown {
            rule: self.name.clone(),
            counted,
            needed,
            plies_left: needed.saturating_sub(counted),
            favours,
        }
    }

    /// The win and its reason, when the rule ends the game after `plies`.
    #[must_use]
    pub fn decide(&self, plies: &[Ply]) -> Option<(Ending, String)> {
        let needed = self.needed();
        let (counted, winner) = self.counted(plies);
        let winner = winner.filter(|_| needed > 0 && counted >= needed)?;
        let first = plies[plies.len() - needed];
        let why = format!(
            "{}: both engines scored {} +{} or better for {} moves from move {}",
            self.name,
            color_name(winner),
            pawns(self.min_cp.saturating_abs()),
            self.moves,
            first.move_number
        );
        Some((Ending::win(winner, Termination::Adjudication), why))
    }
}

/// The plies from `now` until `moves` full moves are complete (0 when they are).
fn plies_until_complete(now: &Chess, moves: u32) -> usize {
    let fullmoves = now.fullmoves().get();
    if fullmoves > moves {
        return 0;
    }
    let black_to_move = usize::from(now.turn() == Color::Black);
    2 * (moves + 1 - fullmoves) as usize - black_to_move
}

/// Centipawns as pawns with two decimals: 8 is "0.08", 1000 is "10.00".
pub(crate) fn pawns(cp: i32) -> String {
    let abs = cp.unsigned_abs();
    let sign = if cp < 0 { "-" } else { "" };
    format!("{sign}{}.{:02}", abs / 100, abs % 100)
}

pub(crate) fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, EnPassantMode};

    /// A position with `fullmoves` and `turn` (the pieces do not matter to these rules).
    fn at(fullmoves: u32, turn: Color) -> Chess {
        let side = if turn == Color::White { 'w' } else { 'b' };
        let fen: Fen = format!("4k3/8/8/8/8/8/8/4K2R {side} - - 0 {fullmoves}").parse().expect("fen");
        fen.into_position(CastlingMode::Standard).expect("legal")
    }

    /// `count` quiet plies with `cp` for each mover, the last of them Black's move `last_move`.
    fn quiet(count: usize, last_move: u32, cp: i32) -> Vec<Ply> {
        let mut plies = Vec::new();
        let mut number = last_move;
        let mut mover = Color::Black;
        for _ in 0..count {
            plies.push(Ply { mover, move_number: number, score: Some(Score::Cp(cp)), zeroing: false });
            if mover == Color::White {
                number -= 1;
            }
            mover = !mover;
        }
        plies.reverse();
        plies
    }

    /// The position after Black's move `n`.
    fn after_black(n: u32) -> Chess {
        at(n + 1, Color::White)
    }

    #[test]
    fn the_draw_rule_waits_for_move_35() {
        let rule = DrawRule::tcec();
        // Ten drawish plies ending with Black's 34th move: 34 moves complete, not 35.
        let plies = quiet(10, 34, 3);
        assert_eq!(rule.counted(&plies), 10);
        assert_eq!(rule.decide(&plies, &after_black(34)), None);
        assert_eq!(rule.countdown(&plies, &after_black(34)).plies_left, 2);
        // White's 35th move: move 35 is not complete yet.
        let mut plies = quiet(11, 34, 3);
        plies.push(Ply { mover: Color::White, move_number: 35, score: Some(Score::Cp(-2)), zeroing: false });
        assert_eq!(rule.decide(&plies, &at(35, Color::Black)), None);
        assert_eq!(rule.countdown(&plies, &at(35, Color::Black)).plies_left, 1);
        // Black's 35th move completes move 35.
        let plies = quiet(10, 35, 3);
        let (ending, why) = rule.decide(&plies, &after_black(35)).expect("drawn");
        assert_eq!(ending, Ending::draw(Termination::Adjudication));
        assert_eq!(why, "TCEC draw rule: both engines within ±0.08 for 5 moves from move 31");
    }

    #[test]
    fn the_draw_rule_needs_ten_plies() {
        let rule = DrawRule::tcec();
        let nine = quiet(9, 40, -8);
        assert_eq!(rule.decide(&nine, &after_black(40)), None);
        let countdown = rule.countdown(&nine, &after_black(40));
        assert_eq!((countdown.counted, countdown.needed, countdown.plies_left), (9, 10, 1));
        let ten = quiet(10, 40, 8);
        assert!(rule.decide(&ten, &after_black(40)).is_some());
        // One ply outside the window (±0.09) breaks the count.
        let mut plies = quiet(12, 40, 0);
        plies[3].score = Some(Score::Cp(9));
        assert_eq!(rule.counted(&plies), 8);
        assert_eq!(rule.decide(&plies, &after_black(40)), None);
    }

    #[test]
    fn a_capture_or_a_pawn_move_starts_the_count_again() {
        let rule = DrawRule::tcec();
        let mut plies = quiet(10, 40, 0);
        // The ninth ply of ten captured (or moved a pawn): the count starts after it.
        plies[8].zeroing = true;
        assert_eq!(rule.counted(&plies), 1);
        assert_eq!(rule.decide(&plies, &after_black(40)), None);
        let mut plies = quiet(11, 40, 0);
        plies[0].zeroing = true;
        assert_eq!(rule.counted(&plies), 10, "a zeroing move before the window does not matter");
        assert!(rule.decide(&plies, &after_black(40)).is_some());
    }

    #[test]
    fn a_mate_score_is_never_drawish() {
        let rule = DrawRule::tcec();
        let mut plies = quiet(10, 40, 0);
        plies[4].score = Some(Score::Mate(0));
        assert_eq!(rule.decide(&plies, &after_black(40)), None);
        plies[4].score = Some(Score::Mate(-1));
        assert_eq!(rule.counted(&plies), 5);
        plies[4].score = None;
        assert_eq!(rule.counted(&plies), 5, "a ply without a score does not count");
    }

    #[test]
    fn the_win_rule_needs_eight_plies_for_one_side() {
        let rule = WinRule::tcec();
        // White's engine says +10.00 for itself, Black's engine says -10.00 for itself.
        let mut plies: Vec<Ply> = quiet(8, 20, 0);
        for ply in &mut plies {
            let cp = if ply.mover == Color::White { 1000 } else { -1000 };
            ply.score = Some(Score::Cp(cp));
        }
        let (ending, why) = rule.decide(&plies).expect("won");
        assert_eq!(ending, Ending::win(Color::White, Termination::Adjudication));
        assert_eq!(why, "TCEC win rule: both engines scored White +10.00 or better for 4 moves from move 17");
        assert_eq!(rule.decide(&plies[1..]), None, "seven plies are not enough");
        let countdown = rule.countdown(&plies[1..]);
        assert_eq!((countdown.counted, countdown.plies_left, countdown.favours), (7, 1, Some(Color::White)));
        // Black's engine at -9.99 for one ply breaks the count.
        let mut short = plies.clone();
        short[3].score = Some(Score::Cp(-999));
        assert_eq!(rule.counted(&short), (4, Some(Color::White)));
        assert_eq!(rule.decide(&short), None);
    }

    #[test]
    fn the_win_rule_wants_both_engines_on_the_same_side() {
        let rule = WinRule::tcec();
        // Each engine thinks it is winning: no agreement, no win.
        let plies: Vec<Ply> =
            quiet(8, 20, 0).into_iter().map(|p| Ply { score: Some(Score::Cp(1200)), ..p }).collect();
        assert_eq!(rule.counted(&plies), (1, Some(Color::Black)));
        assert_eq!(rule.decide(&plies), None);
        // Both say Black wins, one of them with a mate score: Black wins.
        let plies: Vec<Ply> = quiet(8, 20, 0)
            .into_iter()
            .map(|p| {
                let score = if p.mover == Color::Black { Score::Mate(7) } else { Score::Cp(-1500) };
                Ply { score: Some(score), ..p }
            })
            .collect();
        let (ending, _) = rule.decide(&plies).expect("won");
        assert_eq!(ending, Ending::win(Color::Black, Termination::Adjudication));
    }

    #[test]
    fn the_fishtest_rules_use_their_own_thresholds() {
        let draw = DrawRule::fishtest();
        let plies = quiet(16, 34, 20);
        assert!(draw.decide(&plies, &after_black(34)).is_some());
        assert_eq!(draw.decide(&plies[1..], &after_black(34)), None);
        assert_eq!(draw.decide(&plies, &after_black(33)), None);
        let resign = WinRule::fishtest();
        let plies: Vec<Ply> = quiet(6, 30, 0)
            .into_iter()
            .map(|p| Ply { score: Some(Score::Cp(if p.mover == Color::White { -600 } else { 600 })), ..p })
            .collect();
        let (ending, why) = resign.decide(&plies).expect("won");
        assert_eq!(ending, Ending::win(Color::Black, Termination::Adjudication));
        assert!(why.starts_with("Fishtest resign rule: both engines scored Black +6.00"), "{why}");
        assert_eq!(resign.decide(&plies[1..]), None);
    }

    #[test]
    fn plies_until_a_move_is_complete() {
        assert_eq!(plies_until_complete(&Chess::default(), 35), 70);
        assert_eq!(plies_until_complete(&at(35, Color::White), 35), 2);
        assert_eq!(plies_until_complete(&at(35, Color::Black), 35), 1);
        assert_eq!(plies_until_complete(&at(36, Color::White), 35), 0);
        let fen = Fen::from_position(&at(36, Color::White), EnPassantMode::Legal).to_string();
        assert!(fen.ends_with(" 36"), "{fen}");
        assert_eq!(pawns(8), "0.08");
        assert_eq!(pawns(-1250), "-12.50");
    }
}
