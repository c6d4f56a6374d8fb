//! The evaluation as a linear model, for tuning: how often each weight of [`super::weights`]
//! counts in a position. The evaluation code reports every weight it adds to a [`Trace`];
//! the engine's own evaluation passes `()`, which records nothing and compiles away.

use shakmaty::{Chess, Color};

use super::tapered::Tapered;
use super::weights::{
    BISHOP_PAIR, DOUBLED_PAWN, HANGING, ISOLATED_PAWN, MOBILITY, PASSED_ENEMY_KING, PASSED_FREE_PATH,
    PASSED_OWN_KING, PASSED_PAWN, PAWN_SHIELD_CLOSE, PAWN_SHIELD_FAR, PIECE_VALUE, ROOK_OPEN_FILE,
    ROOK_SEMI_OPEN_FILE, TEMPO, THREAT_BY_MINOR, THREAT_BY_PAWN, THREAT_BY_ROOK,
};

/// A tunable weight (or table of weights) of `eval/weights.rs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Term {
    /// `PIECE_VALUE`, by role.
    PieceValue,
    /// `TEMPO`.
    Tempo,
    /// `MOBILITY`, by role from knight to queen; counted per square above `MOBILITY_BASE`.
    Mobility,
    /// `DOUBLED_PAWN`.
    DoubledPawn,
    /// `ISOLATED_PAWN`.
    IsolatedPawn,
    /// `PASSED_PAWN`, by relative rank.
    PassedPawn,
    /// `PASSED_FREE_PATH`, by relative rank.
    PassedFreePath,
    /// `BISHOP_PAIR`.
    BishopPair,
    /// `ROOK_OPEN_FILE`.
    RookOpenFile,
    /// `ROOK_SEMI_OPEN_FILE`.
    RookSemiOpenFile,
    /// `PAWN_SHIELD_CLOSE`.
    PawnShieldClose,
    /// `PAWN_SHIELD_FAR`.
    PawnShieldFar,
    /// `PASSED_ENEMY_KING`, by relative rank, counted per square of distance.
    PassedEnemyKing,
    /// `PASSED_OWN_KING`, by relative rank, counted per square of distance.
    PassedOwnKing,
    /// `THREAT_BY_PAWN`, by victim from knight to queen.
    ThreatByPawn,
    /// `THREAT_BY_MINOR`, by victim: rook, queen.
    ThreatByMinor,
    /// `THREAT_BY_ROOK`.
    ThreatByRook,
    /// `HANGING`.
    Hanging,
}

impl Term {
    /// Every term, in the order of [`EvalTrace::counts`].
    pub const ALL: [Term; 18] = [
        Term::PieceValue,
        Term::Tempo,
        Term::Mobility,
        Term::DoubledPawn,
        Term::IsolatedPawn,
        Term::PassedPawn,
        Term::PassedFreePath,
        Term::BishopPair,
        Term::RookOpenFile,
        Term::RookSemiOpenFile,
        Term::PawnShieldClose,
        Term::PawnShieldFar,
        Term::PassedEnemyKing,
        Term::PassedOwnKing,
        Term::ThreatByPawn,
        Term::ThreatByMinor,
        Term::ThreatByRook,
        Term::Hanging,
    ];

    /// The name of the constant in `eval/weights.rs`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Term::PieceValue => "PIECE_VALUE",
            Term::Tempo => "TEMPO",
            Term::Mobility => "MOBILITY",
            Term::DoubledPawn => "DOUBLED_PAWN",
            Term::IsolatedPawn => "ISOLATED_PAWN",
            Term::PassedPawn => "PASSED_PAWN",
            Term::PassedFreePath => "PASSED_FREE_PATH",
            Term::BishopPair => "BISHOP_PAIR",
            Term::RookOpenFile => "ROOK_OPEN_FILE",
            Term::RookSemiOpenFile => "ROOK_SEMI_OPEN_FILE",
            Term::PawnShieldClose => "PAWN_SHIELD_CLOSE",
            Term::PawnShieldFar => "PAWN_SHIELD_FAR",
            Term::PassedEnemyKing => "PASSED_ENEMY_KING",
            Term::PassedOwnKing => "PASSED_OWN_KING",
            Term::ThreatByPawn => "THREAT_BY_PAWN",
            Term::ThreatByMinor => "THREAT_BY_MINOR",
            Term::ThreatByRook => "THREAT_BY_ROOK",
            Term::Hanging => "HANGING",
        }
    }

    /// The weights the engine is built with: one, or a table.
    #[must_use]
    pub fn weights(self) -> &'static [Tapered] {
        match self {
            Term::PieceValue => &PIECE_VALUE,
            Term::Tempo => std::slice::from_ref(&TEMPO),
            Term::Mobility => &MOBILITY,
            Term::DoubledPawn => std::slice::from_ref(&DOUBLED_PAWN),
            Term::IsolatedPawn => std::slice::from_ref(&ISOLATED_PAWN),
            Term::PassedPawn => &PASSED_PAWN,
            Term::PassedFreePath => &PASSED_FREE_PATH,
            Term::BishopPair => std::slice::from_ref(&BISHOP_PAIR),
            Term::RookOpenFile => std::slice::from_ref(&ROOK_OPEN_FILE),
            Term::RookSemiOpenFile => std::slice::from_ref(&ROOK_SEMI_OPEN_FILE),
            Term::PawnShieldClose => std::slice::from_ref(&PAWN_SHIELD_CLOSE),
            Term::PawnShieldFar => std::slice::from_ref(&PAWN_SHIELD_FAR),
            Term::PassedEnemyKing => &PASSED_ENEMY_KING,
            Term::PassedOwnKing => &PASSED_OWN_KING,
            Term::ThreatByPawn => &THREAT_BY_PAWN,
            Term::ThreatByMinor => &THREAT_BY_MINOR,
            Term::ThreatByRook => std::slice::from_ref(&THREAT_BY_ROOK),
            Term::Hanging => std::slice::from_ref(&HANGING),
        }
    }

    /// Where this term's weights start in [`EvalTrace::counts`].
    #[must_use]
    pub fn offset(self) -> usize {
        Term::ALL.iter().take_while(|&&term| term != self).map(|term| term.weights().len()).sum()
    }
}

/// Receives every weight the evaluation adds, with how often it counts for a side.
pub trait Trace {
    /// `color` gets `count` times weight `index` of `term`.
    #[inline(always)]
    fn add(&mut self, _color: Color, _term: Term, _index: usize, _count: f64) {}
}

/// The engine's evaluation records nothing.
impl Trace for () {}

/// A position's evaluation as a linear model of the weights, from White's point of view:
/// `(mg * phase + eg * (24 - phase)) / 24` where `mg` and `eg` are `fixed` plus the sum of
/// `counts` times the weights.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalTrace {
    /// For every weight in the order of [`Term::ALL`], White's count minus Black's.
    pub counts: Vec<f64>,
    /// The part of the score that no weight explains (the piece-square tables), middlegame
    /// and endgame.
    pub fixed: (f64, f64),
    /// The game phase, from 0 (bare kings and pawns) to [`EvalTrace::MAX_PHASE`].
    pub phase: i32,
    /// The engine's evaluation, from White's point of view.
    pub eval: i32,
}

impl EvalTrace {
    /// The phase of a full middlegame.
    pub const MAX_PHASE: i32 = super::MAX_PHASE;

    /// The number of weights, the length of [`EvalTrace::counts`].
    #[must_use]
    pub fn len() -> usize {
        Term::ALL.iter().map(|term| term.weights().len()).sum()
    }

    /// The model's score, from White's point of view, for `weights` (middlegame, endgame) in the
    /// order of [`EvalTrace::counts`].
    #[must_use]
    pub fn score(&self, weights: &[(f64, f64)]) -> f64 {
        let (mut mg, mut eg) = self.fixed;
        for (count, weight) in self.counts.iter().zip(weights) {
            mg += count * weight.0;
            eg += count * weight.1;
        }
        let phase = f64::from(self.phase);
        let max = f64::from(Self::MAX_PHASE);
        (mg * phase + eg * (max - phase)) / max
    }
}

/// The weights the engine is built with, in the order of [`EvalTrace::counts`].
#[must_use]
pub fn current_weights() -> Vec<(f64, f64)> {
    Term::ALL
        .iter()
        .flat_map(|term| term.weights().iter().map(|w| (f64::from(w.mg), f64::from(w.eg))))
        .collect()
}

/// Traces the evaluation of `pos`.
#[must_use]
pub fn trace(pos: &Chess) -> EvalTrace {
    /// Tallies the counts, White's positive and Black's negative.
    struct Counts(Vec<f64>);
    impl Trace for Counts {
        fn add(&mut self, color: Color, term: Term, index: usize, count: f64) {
            let sign = match color {
                Color::White => 1.0,
                Color::Black => -1.0,
            };
            self.0[term.offset() + index] += sign * count;
        }
    }
    let mut counts = Counts(vec![0.0; EvalTrace::len()]);
    let (score, phase) = super::score_white(pos, &mut counts);
    // Whatever the weights do not explain is fixed.
    let weights = current_weights();
    let (mut mg, mut eg) = (f64::from(score.mg), f64::from(score.eg));
    for (count, weight) in counts.0.iter().zip(&weights) {
        mg -= count * weight.0;
        eg -= count * weight.1;
    }
    let eval = score.blend(phase, EvalTrace::MAX_PHASE);
    EvalTrace { counts: counts.0, fixed: (mg, eg), phase, eval }
}

#[cfg(test)]
mod tests {
    use shakmaty::Position;

    use super::*;

    #[test]
    fn the_model_reproduces_the_evaluation() {
        let fens = [
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R1BQKB1R w KQ - 0 8",
            "8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 0 50",
            "6k1/5ppp/8/8/8/5n1b/5PPP/1q4K1 w - - 0 1",
        ];
        for fen in fens {
            let pos = crate::eval::tests::pos(fen);
            let trace = trace(&pos);
            let white = match pos.turn() {
                Color::White => crate::evaluate(&pos),
                Color::Black => -crate::evaluate(&pos),
            };
            assert_eq!(trace.eval, white, "{fen}");
            let model = trace.score(&current_weights());
            assert!((model - f64::from(white)).abs() <= 1.0, "{fen}: {model} vs {white}");
        }
    }

    #[test]
    fn counts_are_white_minus_black() {
        // White has an extra knight.
        let trace = trace(&crate::eval::tests::pos("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1"));
        assert_eq!(trace.counts[Term::PieceValue.offset() + 1], 1.0);
        assert_eq!(trace.counts[Term::Tempo.offset()], 1.0);
    }
}
