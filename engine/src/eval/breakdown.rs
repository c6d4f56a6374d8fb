//! The static evaluation broken down by part and side, for the player to read (Crafty's
//! `score`): material, piece-square bonuses, mobility, pawns, pieces, king safety, threats and
//! the tempo, each for White and for Black. The weighted terms come from the evaluation's own
//! [`Trace`], tallied per side; the parts the weights do not explain (the square bonuses and
//! the king danger) are computed by the same functions the evaluation calls.

use shakmaty::{ByColor, Chess, Color, Position};

use super::attacks::Attacks;
use super::king_safety::king_safety;
use super::mobility::mobility;
use super::psqt::psqt;
use super::tapered::Tapered;
use super::trace::{EvalTrace, Term, Trace};

/// A part of the evaluation as a player names it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EvalPart {
    /// The pieces' values.
    Material,
    /// The piece-square tables' bonuses beyond the pieces' values.
    PieceSquares,
    /// How many squares the pieces reach.
    Mobility,
    /// Doubled, isolated and passed pawns.
    Pawns,
    /// The bishop pair and rooks on open files.
    Pieces,
    /// The king's pawn shield and the danger from the enemy pieces near it.
    KingSafety,
    /// Pieces attacked by lesser ones, and hanging pieces.
    Threats,
    /// The side to move's bonus.
    Tempo,
    /// Driving a bare king to the edge, when the other side has mating material.
    LoneKing,
}

impl EvalPart {
    /// Every part, in the order of [`Breakdown::parts`].
    pub const ALL: [EvalPart; 9] = [
        EvalPart::Material,
        EvalPart::PieceSquares,
        EvalPart::Mobility,
        EvalPart::Pawns,
        EvalPart::Pieces,
        EvalPart::KingSafety,
        EvalPart::Threats,
        EvalPart::Tempo,
        EvalPart::LoneKing,
    ];

    /// The part's name for the player: "Material", "King safety".
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            EvalPart::Material => "Material",
            EvalPart::PieceSquares => "Piece squares",
            EvalPart::Mobility => "Mobility",
            EvalPart::Pawns => "Pawns",
            EvalPart::Pieces => "Pieces",
            EvalPart::KingSafety => "King safety",
            EvalPart::Threats => "Threats",
            EvalPart::Tempo => "Tempo",
            EvalPart::LoneKing => "Lone king",
        }
    }

    /// The part a traced term belongs to; `None` for the pawn shield, which
    /// [`EvalPart::KingSafety`] takes whole from the king-safety code.
    fn of(term: Term) -> Option<EvalPart> {
        Some(match term {
            Term::PieceValue => EvalPart::Material,
            Term::Tempo => EvalPart::Tempo,
            Term::Mobility => EvalPart::Mobility,
            Term::DoubledPawn
            | Term::IsolatedPawn
            | Term::PassedPawn
            | Term::PassedFreePath
            | Term::PassedEnemyKing
            | Term::PassedOwnKing => EvalPart::Pawns,
            Term::BishopPair | Term::RookOpenFile | Term::RookSemiOpenFile => EvalPart::Pieces,
            Term::PawnShieldClose | Term::PawnShieldFar => return None,
            Term::ThreatByPawn | Term::ThreatByMinor | Term::ThreatByRook | Term::Hanging => {
                EvalPart::Threats
            }
        })
    }

    fn index(self) -> usize {
        EvalPart::ALL.iter().position(|&p| p == self).unwrap_or(0)
    }
}

/// A position's static evaluation by part and side.
#[derive(Clone, Debug, PartialEq)]
pub struct Breakdown {
    /// Every part in the order of [`EvalPart::ALL`], with what it is worth to each side in
    /// centipawns, blended by the phase: positive is good for that side.
    pub parts: Vec<(EvalPart, ByColor<f64>)>,
    /// The game phase, from 0 (bare kings and pawns) to [`EvalTrace::MAX_PHASE`].
    pub phase: i32,
    /// The engine's evaluation from White's point of view, in centipawns: the sum of White's
    /// parts minus Black's, rounded as the engine rounds.
    pub eval: i32,
    /// The evaluation network's score from White's point of view, in centipawns, when the
    /// engine asked evaluates with one: what its search starts from. The parts above are the
    /// classical evaluation's; a network has no parts to show.
    pub network: Option<i32>,
}

/// The breakdown as a table, pawns from each side's point of view (what `eval` prints over
/// UCI): one row per part with White's, Black's and the difference, then the total.
impl std::fmt::Display for Breakdown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let pawns = |cp: f64| cp / 100.0;
        writeln!(f, "{:<14} {:>7} {:>7} {:>7}", "Term", "White", "Black", "Total")?;
        for (part, side) in &self.parts {
            writeln!(
                f,
                "{:<14} {:>+7.2} {:>+7.2} {:>+7.2}",
                part.label(),
                pawns(side.white),
                pawns(side.black),
                pawns(side.white - side.black)
            )?;
        }
        write!(
            f,
            "Phase {} of {}; evaluation {:+.2} (White's side)",
            self.phase,
            EvalTrace::MAX_PHASE,
            pawns(f64::from(self.eval))
        )?;
        if let Some(network) = self.network {
            write!(
                f,
                "\nNetwork evaluation {:+.2} (White's side), the one the search uses",
                pawns(f64::from(network))
            )?;
        }
        Ok(())
    }
}

/// Breaks down the static evaluation of `pos` (see [`Breakdown`]).
///
/// ```
/// use kibitz_engine::{EvalPart, breakdown, evaluate};
/// use shakmaty::Chess;
/// let start = breakdown(&Chess::default());
/// assert_eq!(start.eval, evaluate(&Chess::default()));
/// let (_, material) = start.parts.iter().find(|(p, _)| *p == EvalPart::Material).unwrap();
/// assert_eq!(material.white, material.black);
/// ```
#[must_use]
pub fn breakdown(pos: &Chess) -> Breakdown {
    /// Tallies each side's counts apart.
    struct BySide(ByColor<Vec<f64>>);
    impl Trace for BySide {
        fn add(&mut self, color: Color, term: Term, index: usize, count: f64) {
            self.0.get_mut(color)[term.offset() + index] += count;
        }
    }
    let mut counts = BySide(ByColor::new_with(|_| vec![0.0; EvalTrace::len()]));
    let (total, phase) = super::score_white(pos, &mut counts);
    let board = pos.board();

    // The weighted terms, per side, middlegame and endgame.
    let mut parts: ByColor<Vec<(f64, f64)>> = ByColor::new_with(|_| vec![(0.0, 0.0); EvalPart::ALL.len()]);
    for color in Color::ALL {
        let side = parts.get_mut(color);
        for term in Term::ALL {
            let Some(part) = EvalPart::of(term) else { continue };
            for (i, weight) in term.weights().iter().enumerate() {
                let count = counts.0.get(color)[term.offset() + i];
                side[part.index()].0 += count * f64::from(weight.mg);
                side[part.index()].1 += count * f64::from(weight.eg);
            }
        }
    }
    // The square bonuses: the tables' sum less the pieces' values.
    for color in Color::ALL {
        let squares = psqt(board, color, &mut ()).0;
        let side = parts.get_mut(color);
        let material = side[EvalPart::Material.index()];
        side[EvalPart::PieceSquares.index()] =
            (f64::from(squares.mg) - material.0, f64::from(squares.eg) - material.1);
    }
    // King safety as the evaluation computes it, the danger included.
    let (_, on_black_king, white_attacks) = mobility(board, Color::White, &mut ());
    let (_, on_white_king, black_attacks) = mobility(board, Color::Black, &mut ());
    let safety = |color: Color, ours: &Attacks, theirs: &Attacks| {
        let attack = if color == Color::White { on_white_king } else { on_black_king };
        let Tapered { mg, eg } = king_safety(board, color, attack, ours, theirs, &mut ());
        (f64::from(mg), f64::from(eg))
    };
    parts.white[EvalPart::KingSafety.index()] = safety(Color::White, &white_attacks, &black_attacks);
    parts.black[EvalPart::KingSafety.index()] = safety(Color::Black, &black_attacks, &white_attacks);
    // The push of a bare king, to the side that pushes it.
    let lone_king = f64::from(super::mop_up::mop_up(board));
    let pusher = if lone_king >= 0.0 { Color::White } else { Color::Black };
    parts.get_mut(pusher)[EvalPart::LoneKing.index()] = (lone_king.abs(), lone_king.abs());

    let max = f64::from(EvalTrace::MAX_PHASE);
    let blend = |(mg, eg): (f64, f64)| (mg * f64::from(phase) + eg * (max - f64::from(phase))) / max;
    let parts = EvalPart::ALL
        .into_iter()
        .map(|part| (part, ByColor::new_with(|color| blend(parts.get(color)[part.index()]))))
        .collect();
    Breakdown { parts, phase, eval: total.blend(phase, EvalTrace::MAX_PHASE), network: None }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parts_add_up_to_the_evaluation() {
        let fens = [
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R1BQKB1R w KQ - 0 8",
            "8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 0 50",
            "6k1/5ppp/8/8/8/5n1b/5PPP/1q4K1 w - - 0 1",
            "r3k2r/pp3ppp/2n5/3qp3/3P4/2P2N2/P4PPP/R2QR1K1 b kq - 0 14",
            "8/8/8/3k4/8/8/8/R3K3 b - - 0 60",
            "4r3/8/8/8/8/1K6/8/5k2 w - - 0 60",
        ];
        for fen in fens {
            let pos = crate::eval::tests::pos(fen);
            let b = breakdown(&pos);
            let white = match pos.turn() {
                Color::White => crate::evaluate(&pos),
                Color::Black => -crate::evaluate(&pos),
            };
            assert_eq!(b.eval, white, "{fen}");
            let sum: f64 = b.parts.iter().map(|(_, v)| v.white - v.black).sum();
            assert!((sum - f64::from(white)).abs() < 1.0, "{fen}: the parts sum to {sum}, not {white}");
        }
    }

    #[test]
    fn each_side_gets_its_own_terms() {
        // White has an extra knight and is to move; Black has a doubled pawn.
        let b = breakdown(&crate::eval::tests::pos("4k3/8/8/8/8/5p2/5p2/1N2K3 w - - 0 1"));
        let part = |p: EvalPart| b.parts.iter().find(|(q, _)| *q == p).map(|(_, v)| *v).unwrap();
        assert!(part(EvalPart::Material).white > 0.0);
        assert!(part(EvalPart::Tempo).white > 0.0);
        assert_eq!(part(EvalPart::Tempo).black, 0.0);
        assert!(part(EvalPart::Pawns).black != 0.0);
        assert_eq!(part(EvalPart::Pawns).white, 0.0, "White has no pawns");
    }
}
