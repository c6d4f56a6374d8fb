//! The design note's replacement rules: how a game's ending decides who is cloned, who is
//! mated with whom and who is replaced. Each member plays one game a generation, so every
//! game replaces at most its own two players, and the new members are made from them.
//!
//! In the order they are tried:
//! 0. Kibitz's additions, when the run checks readings (the `playout` module): every declined
//!    offer is played on from where it was made, and every agreed draw and resignation from
//!    where the game ended, by the run's judge (or scored there by its referee,
//!    [`super::referee`], whose verdict reads as a game played on).
//!    - The first declined offer played on decides the game's replacements. A side wins
//!      when it is played on: the offer was the misreading, and the offerer is replaced by
//!      a clone of the side that declined, as a side that is mated is. It is drawn: the
//!      decline was, and the decliner is replaced by an offspring of the two (the note's
//!      rule 2, judged where the offer was made rather than by how a game between two
//!      engines of the same strength happened to end).
//!    - An agreed draw that a side wins when played on: the offer was the misreading, and
//!      the offerer is replaced by a clone of the side that accepted. But when a referee
//!      scored the accepter more than its draw margin ahead, the accepter gave away a won
//!      game and is replaced by a clone of the offerer instead. One that is drawn when
//!      played on falls under rule 3, whoever declined before.
//! 1. A side declined a draw offer (a rejecter) and the game was decided: the loser is
//!    replaced by a clone of the winner (the rejecter lost: it is replaced; it won: the other
//!    is), however the loser lost.
//! 2. A rejecter and the game was drawn (by agreement later, or by a rule): each rejecter is
//!    replaced by an offspring of the two (the same ending as resigning).
//! 3. An agreed draw: both are replaced by mutated clones of themselves.
//! 4. A draw by a rule (repetition, fifty moves, stalemate, dead position, the move limit):
//!    an offspring replaces one of the two, chosen with probability 1/2.
//! 5. A resignation: the resigner is replaced by an offspring.
//!    - Kibitz's addition, when the run checks readings: if the game, played on, is not lost
//!      by the resigner, it lost a game it did not have to and is replaced by a clone of the
//!      winner, as if mated.
//! 6. Checkmate, a loss on time or any other loss: the loser is replaced by a clone of the
//!    winner.
//!
//! A reading whose judge failed (crashed, or the run was cancelled) is taken at its word:
//! the note's rules apply to it.
//!
//! Why the additions. Under the note's rules alone an agreed draw costs nothing (both members
//! go on, mutated), while declining an offer that ends in a draw costs the decliner, so an
//! offer is a free threat, and a population of identical engines drifts to offering and
//! agreeing at its first move (docs/BENCHMARKS.md, "Self-play tuning"). The note's aim, that
//! accurate readings are rewarded and inaccurate ones punished, needs a judge of the
//! readings the game does not test itself. Checking only the agreements and resignations
//! was not enough (docs/BENCHMARKS.md, "Checking readings by playing on"): every game
//! replaces members only by clones and offspring of its own two players, so when both share
//! a trait (offering early) no ending of their game changes how common it is; only games
//! between members that differ select, and in those an early offer is declined, never
//! agreed, and was never judged. Judging declined offers makes offering a risk (a wrong
//! offer costs a whole loss, accepted or not) as declining already was (a wrong decline
//! costs an offspring), which is what the note asks of both. The offerer, not the side
//! that would have won, pays for a refuted draw: in a level position the side that would
//! have won is a coin's toss, and only the offer's timing differs between the two. Not so
//! when a referee scores a side clearly ahead: then the side that accepted a draw it had
//! won misread the game, and an offer from the side behind was a fair try; charged to the
//! offerer, a run's best member came to answer on a single level score (`recent` 1), and 4
//! of its 65 agreed draws in fresh games were wrong by Stockfish (docs/BENCHMARKS.md,
//! "Likely draws", session 26).

use rand::Rng;
use serde::{Deserialize, Serialize};

use super::{Finish, Genome, HowEnded, Member, Origin, Playout, Seat, Variation};

/// The rule a game's ending fell under.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RuleApplied {
    /// Rule 1, the rejecter lost.
    RejectedAndLost,
    /// Rule 1, the rejecter won.
    RejectedAndWon,
    /// Rule 2.
    RejectedAndDrawn,
    /// Rule 3.
    AgreedDraw,
    /// Rule 0, the agreed draw was won by a side when played on: the offerer is replaced.
    AgreementRefuted,
    /// Rule 0, a declined offer was won by a side when played on: the offerer is replaced.
    OfferRefuted,
    /// Rule 0, a declined offer was drawn when played on: the decliner is replaced.
    DeclineRefuted,
    /// Rule 4.
    DrawByRule,
    /// Rule 5.
    Resigned,
    /// Rule 5, the resigner did not lose when the game was played on.
    ResignationRefuted,
    /// Rule 6.
    Lost,
}

/// What a game changes: the members replacing its players (`None`: kept).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replacement {
    /// The rule applied.
    pub rule: RuleApplied,
    /// White's replacement.
    pub white: Option<Member>,
    /// Black's replacement.
    pub black: Option<Member>,
}

impl Replacement {
    /// The replacements `new` (a seat and its new member) under `rule`.
    fn of(rule: RuleApplied, new: &[(Seat, Member)]) -> Replacement {
        let pick = |seat: Seat| new.iter().find(|(s, _)| *s == seat).map(|(_, m)| m.clone());
        Replacement { rule, white: pick(Seat::White), black: pick(Seat::Black) }
    }
}

/// Makes the new members of one generation, numbering them from `next_id`.
pub struct Breeder<'a, R: Rng> {
    /// The tuned parameters.
    pub genome: &'a Genome,
    /// The operators.
    pub variation: Variation,
    /// The seeded random number generator.
    pub rng: &'a mut R,
    /// The generation the new members are born in.
    pub generation: u32,
    /// The next member's number.
    pub next_id: u64,
    /// The referee's draw margin ([`super::Margins::draw_ahead`]): an accepter it scores
    /// further ahead than this pays for the refuted agreement (games played on have no score).
    pub draw_ahead: i32,
}

impl<R: Rng> Breeder<'_, R> {
    fn make(&mut self, origin: Origin, values: Vec<i64>) -> Member {
        let id = self.next_id;
        self.next_id += 1;
        Member { id, born: self.generation, origin, values }
    }

    fn clone_of(&mut self, m: &Member) -> Member {
        self.make(Origin::Clone { of: m.id }, m.values.clone())
    }

    fn mutated_clone_of(&mut self, m: &Member) -> Member {
        let values = self.variation.mutate(self.genome, &m.values, self.rng);
        self.make(Origin::MutatedClone { of: m.id }, values)
    }

    fn offspring(&mut self, white: &Member, black: &Member) -> Member {
        let values = self.variation.mate(self.genome, &white.values, &black.values, self.rng);
        self.make(Origin::Offspring { of: [white.id, black.id] }, values)
    }

    /// `loser` replaced by a clone of the other side, as a side that is mated is.
    fn beaten(&mut self, rule: RuleApplied, loser: Seat, white: &Member, black: &Member) -> Replacement {
        let winner = if loser == Seat::White { black } else { white };
        let clone = self.clone_of(winner);
        Replacement::of(rule, &[(loser, clone)])
    }

    /// `seat` replaced by an offspring of the two, as a side that resigns is.
    fn bred_over(&mut self, rule: RuleApplied, seat: Seat, white: &Member, black: &Member) -> Replacement {
        let child = self.offspring(white, black);
        Replacement::of(rule, &[(seat, child)])
    }

    /// The replacements the game between `white` and `black` that ended as `finish` calls
    /// for, by the rules above.
    pub fn replace(&mut self, finish: &Finish, white: &Member, black: &Member) -> Replacement {
        let won_on = |playout: Option<Playout>| playout.is_some_and(|p| p.winner.is_some());
        if let Some(offer) = finish.judged_decline() {
            return if won_on(offer.playout) {
                self.beaten(RuleApplied::OfferRefuted, offer.side, white, black)
            } else {
                self.bred_over(RuleApplied::DeclineRefuted, offer.side.other(), white, black)
            };
        }
        if finish.how == HowEnded::Agreement && won_on(finish.playout) {
            return match finish.accepted_offer() {
                Some(offerer) => {
                    let accepter = offerer.other();
                    let accepter_had_won = finish
                        .playout
                        .and_then(|p| p.score)
                        .is_some_and(|cp| accepter.sees(cp) > self.draw_ahead);
                    let pays = if accepter_had_won { accepter } else { offerer };
                    self.beaten(RuleApplied::AgreementRefuted, pays, white, black)
                }
                None => Replacement::of(RuleApplied::AgreementRefuted, &[]),
            };
        }
        let confirmed = finish.how == HowEnded::Agreement && finish.playout.is_some();
        let rejecters = if confirmed { Vec::new() } else { finish.rejecters() };
        match (finish.winner, rejecters.is_empty(), finish.how) {
            (Some(winner), false, _) => {
                let loser = winner.other();
                let rule = if rejecters.contains(&loser) {
                    RuleApplied::RejectedAndLost
                } else {
                    RuleApplied::RejectedAndWon
                };
                self.beaten(rule, loser, white, black)
            }
            (None, false, _) => {
                let children: Vec<(Seat, Member)> = [Seat::White, Seat::Black]
                    .into_iter()
                    .filter(|s| rejecters.contains(s))
                    .map(|seat| (seat, self.offspring(white, black)))
                    .collect();
                Replacement::of(RuleApplied::RejectedAndDrawn, &children)
            }
            (None, true, HowEnded::Agreement) => {
                let (w, b) = (self.mutated_clone_of(white), self.mutated_clone_of(black));
                Replacement::of(RuleApplied::AgreedDraw, &[(Seat::White, w), (Seat::Black, b)])
            }
            (None, true, _) => {
                let child = self.offspring(white, black);
                let seat = if self.rng.random::<bool>() { Seat::White } else { Seat::Black };
                Replacement::of(RuleApplied::DrawByRule, &[(seat, child)])
            }
            (Some(winner), true, HowEnded::Resignation) => {
                let resigner = finish.resigned.unwrap_or(winner.other());
                if finish.playout.is_some_and(|p| p.winner != Some(resigner.other())) {
                    self.beaten(RuleApplied::ResignationRefuted, resigner, white, black)
                } else {
                    self.bred_over(RuleApplied::Resigned, resigner, white, black)
                }
            }
            (Some(winner), true, _) => self.beaten(RuleApplied::Lost, winner.other(), white, black),
        }
    }
}
