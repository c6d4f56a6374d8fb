//! A tuning run: each generation's games played by the match runner (the built-in engine on
//! both sides, identical but for the draw and resign policy the conductor applies for each),
//! then the replacement rules, then the generation appended to the log.

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use rand::SeedableRng;
use rand::rngs::StdRng;

use super::log::{
    GenerationRecord, LogWriter, RefereeJudges, RunHeader, TunedGame, TuningLog, TuningLogError,
};
use super::{Breeder, Finish, Genome, GenomeError, Member, Origin, Playout, Reading, Referee, Reply, pair};
use crate::matches::{
    EngineSpec, FinishedGame, Fixture, Flow, Format, MatchError, MatchReport, MatchSetup, OpeningSource,
    OpeningsError, Order, Program, SpecError, Standings, Watcher, engine_spec, move_limit, play_fixtures,
    read_suite,
};
use crate::{Ending, SyzygyTables, TablebaseError, TimeControl, TimeControlError};

/// How widely the first population is spread around the defaults: the standard deviation of
/// each value, as a share of its parameter's range. It does not follow `--sigma`, so that a
/// smaller mutation step does not also start the run nearer the defaults.
const INITIAL_SPREAD: f64 = 0.15;

/// Why a run cannot go on.
#[derive(Debug)]
pub enum TuningError {
    /// The header's time control does not parse.
    Control(TimeControlError),
    /// The openings cannot be read.
    Openings(OpeningsError),
    /// The header's genome is not valid.
    Genome(GenomeError),
    /// The judge's words do not describe an engine.
    Judge(SpecError),
    /// The referee's words do not describe an engine, or one without a fixed limit.
    Referee(String),
    /// The tablebase folder cannot be read.
    Tablebases(TablebaseError),
    /// The games could not be played.
    Match(MatchError),
    /// The log cannot be read.
    Log(TuningLogError),
    /// The log cannot be written.
    Write(std::io::Error),
}

impl fmt::Display for TuningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TuningError::Control(e) => write!(f, "the time control: {e}"),
            TuningError::Openings(e) => write!(f, "the openings: {e}"),
            TuningError::Genome(e) => write!(f, "{e}"),
            TuningError::Judge(e) => write!(f, "the judge: {e}"),
            TuningError::Referee(e) => write!(f, "the referee: {e}"),
            TuningError::Tablebases(e) => write!(f, "the tablebases: {e}"),
            TuningError::Match(e) => write!(f, "{e}"),
            TuningError::Log(e) => write!(f, "{e}"),
            TuningError::Write(e) => write!(f, "the log: {e}"),
        }
    }
}

impl std::error::Error for TuningError {}

/// A run's settings, made ready to play.
pub struct Tuner {
    /// The settings as logged.
    pub header: RunHeader,
    /// The tuned parameters.
    pub genome: Genome,
    /// The time control of every game.
    pub control: TimeControl,
    /// Where the games start.
    pub openings: OpeningSource,
    /// How many games are played at once.
    pub concurrency: usize,
    /// A PGN file every game is appended to, if any.
    pub pgn: Option<PathBuf>,
    /// Who plays the readings on when the run checks them ([`RunHeader::judge`]).
    pub judge: EngineSpec,
    /// Who scores the readings it judges instead ([`RunHeader::referee`]).
    pub referee: Option<EngineSpec>,
    /// The tables of [`RunHeader::tablebases`], opened once and shared by every member.
    pub tablebases: Option<Arc<SyzygyTables>>,
}

/// The built-in engine named `name` at `control`, probing `tablebases`.
pub(super) fn builtin(
    name: &str,
    control: &TimeControl,
    tablebases: Option<&Arc<SyzygyTables>>,
) -> EngineSpec {
    EngineSpec {
        program: Program::Builtin { book: None, tablebases: tablebases.cloned() },
        ..EngineSpec::builtin(name, control.clone())
    }
}

/// How each of `fixtures` that `report` holds finished, with its game, in the fixtures'
/// order; a fixture not played or not ended is left out.
pub(super) fn finishes<'a>(
    report: &'a MatchReport,
    fixtures: &'a [Fixture],
) -> Vec<(&'a Fixture, Finish, &'a crate::GameRecord)> {
    fixtures
        .iter()
        .filter_map(|fixture| {
            let game = report.games.iter().find(|g| g.fixture.number == fixture.number)?;
            let ending = Ending { outcome: game.outcome, termination: game.termination? };
            Some((fixture, Finish::read(ending, &game.remarks, game.moves.len()), &game.record))
        })
        .collect()
}

/// Says nothing and never stops the games.
pub(super) struct Quiet;

impl Watcher for Quiet {
    fn finished(&mut self, _game: &FinishedGame, _standings: &Standings) -> Flow {
        Flow::Continue
    }
}

impl Tuner {
    /// Readies the run `header` describes.
    ///
    /// # Errors
    /// [`TuningError`] for a time control, genome, openings file or judge that is not valid.
    pub fn new(header: RunHeader, concurrency: usize, pgn: Option<PathBuf>) -> Result<Tuner, TuningError> {
        let control = TimeControl::parse(&header.control).map_err(TuningError::Control)?;
        let genome = Genome::from_names(header.rules, &header.genome).map_err(TuningError::Genome)?;
        let openings = match &header.openings {
            Some(path) => OpeningSource::suite(
                read_suite(path, None).map_err(TuningError::Openings)?,
                Order::Random,
                header.seed,
            ),
            None => OpeningSource::Start,
        };
        let tablebases = match &header.tablebases {
            Some(folder) => Some(Arc::new(SyzygyTables::open(folder).map_err(TuningError::Tablebases)?)),
            None => None,
        };
        let judge = match &header.judge {
            // The judge's own limits (`depth=12`), else the run's control.
            Some(words) => {
                let words = [words.clone()];
                match engine_spec(&words, None) {
                    Err(SpecError::NoTimeControl(_)) => engine_spec(&words, Some(&control)),
                    judge => judge,
                }
                .map_err(TuningError::Judge)?
            }
            None => builtin("Kibitz", &control, tablebases.as_ref()),
        };
        let referee = match &header.referee {
            Some(words) => {
                let spec = engine_spec(std::slice::from_ref(words), None)
                    .map_err(|e| TuningError::Referee(e.to_string()))?;
                Referee::limits(&spec).map_err(|e| TuningError::Referee(e.to_string()))?;
                Some(spec)
            }
            None => None,
        };
        Ok(Tuner {
            header,
            genome,
            control,
            openings,
            concurrency: concurrency.max(1),
            pgn,
            judge,
            referee,
            tablebases,
        })
    }

    /// The random number generator of `generation` (0: the first population's).
    #[must_use]
    pub fn rng(&self, generation: u32) -> StdRng {
        StdRng::seed_from_u64(self.header.seed ^ u64::from(generation).wrapping_mul(0x9E37_79B9_7F4A_7C15))
    }

    /// The first population: the default settings, and mutations of them by a step of
    /// `INITIAL_SPREAD`; with the next member's number.
    #[must_use]
    pub fn initial_population(&self) -> (Vec<Member>, u64) {
        let mut rng = self.rng(0);
        let defaults = self.genome.defaults();
        let members = (0..self.header.population)
            .map(|i| Member {
                id: i as u64,
                born: 0,
                origin: Origin::Initial,
                values: if i == 0 {
                    defaults.clone()
                } else {
                    self.header.variation.mutate_by(INITIAL_SPREAD, &self.genome, &defaults, &mut rng)
                },
            })
            .collect();
        (members, self.header.population as u64)
    }

    /// The hall a run's games are played in: `engines` from `openings`, the run's games at
    /// once and its move limit, under the PGN event `event`.
    pub(super) fn hall(&self, engines: Vec<EngineSpec>, openings: OpeningSource, event: &str) -> MatchSetup {
        let mut setup = MatchSetup::new(engines, Format::RoundRobin);
        setup.openings = openings;
        setup.concurrency = self.concurrency;
        setup.adjudication = move_limit(self.header.max_plies);
        setup.event = event.to_owned();
        setup
    }

    /// Plays generation `generation` of `population` and applies the replacement rules;
    /// new members are numbered from `next_id`.
    ///
    /// # Errors
    /// [`MatchError`] when the games cannot be played.
    pub fn play_generation(
        &self,
        generation: u32,
        population: &[Member],
        next_id: u64,
        cancel: &AtomicBool,
    ) -> Result<GenerationRecord, MatchError> {
        let mut rng = self.rng(generation);
        let pairs = pair(population.len(), &mut rng);
        let engines = population
            .iter()
            .map(|m| EngineSpec {
                policy: Some(self.genome.settings(&m.values)),
                ..builtin(&format!("member {}", m.id), &self.control, self.tablebases.as_ref())
            })
            .collect();
        let mut setup = self.hall(engines, self.openings.clone(), "Kibitz policy tuning");
        setup.pgn_out.clone_from(&self.pgn);
        setup.resume = true;
        let first_opening = (generation as usize).saturating_sub(1) * pairs.len();
        let fixtures: Vec<Fixture> = pairs
            .iter()
            .enumerate()
            .map(|(k, &(white, black))| Fixture {
                number: k + 1,
                round: generation as usize,
                game: k + 1,
                encounter: k,
                white,
                black,
                opening: first_opening + k,
                duel: None,
            })
            .collect();
        let report = play_fixtures(&setup, &fixtures, &mut Quiet, cancel)?;
        let mut breeder = Breeder {
            genome: &self.genome,
            variation: self.header.variation,
            rng: &mut rng,
            generation,
            next_id,
            draw_ahead: self.header.referee_margins.draw_ahead,
        };
        let mut played = finishes(&report, &fixtures);
        if self.header.check_readings {
            // Every declined offer from where it was made, every agreed draw and resignation
            // from where the game ended.
            let mut readings: Vec<(&crate::GameRecord, usize, Reading)> = Vec::new();
            for (_, finish, record) in &played {
                let declined = finish.offers.iter().filter(|o| o.reply == Reply::Declined);
                readings.extend(declined.map(|o| (*record, o.ply.min(record.len()), Reading::Draw)));
                readings.extend(Reading::ended(finish).map(|r| (*record, record.len(), r)));
            }
            let mut playouts = self.judge_readings(&readings, cancel)?.into_iter();
            for (_, finish, _) in &mut played {
                for offer in finish.offers.iter_mut().filter(|o| o.reply == Reply::Declined) {
                    offer.playout = playouts.next().flatten();
                }
                if finish.is_reading() {
                    finish.playout = playouts.next().flatten();
                }
            }
        }
        let mut next = population.to_vec();
        let mut games = Vec::new();
        for (fixture, finish, _) in played {
            let (white, black) = (&population[fixture.white], &population[fixture.black]);
            let replacement = breeder.replace(&finish, white, black);
            games.push(TunedGame {
                white: white.id,
                black: black.id,
                opening: fixture.opening,
                finish,
                rule: replacement.rule,
            });
            if let Some(m) = replacement.white {
                next[fixture.white] = m;
            }
            if let Some(m) = replacement.black {
                next[fixture.black] = m;
            }
        }
        let next_id = breeder.next_id;
        Ok(GenerationRecord { generation, members: population.to_vec(), games, next, next_id })
    }

    /// The verdict on each of `readings`, in order: the referee's on those it judges, the
    /// game played on by the judge for the others.
    fn judge_readings(
        &self,
        readings: &[(&crate::GameRecord, usize, Reading)],
        cancel: &AtomicBool,
    ) -> Result<Vec<Option<Playout>>, MatchError> {
        let refereed = |reading: &Reading| {
            self.referee.is_some()
                && (self.header.referee_judges == RefereeJudges::All
                    || matches!(reading, Reading::Resignation(_)))
        };
        let (to_score, to_play): (Vec<_>, Vec<_>) = readings.iter().partition(|r| refereed(&r.2));
        let mut scored = match &self.referee {
            Some(spec) => self.referee(spec, &to_score, self.header.referee_margins, cancel)?,
            None => Vec::new(),
        }
        .into_iter();
        let starts: Vec<(&crate::GameRecord, usize)> =
            to_play.iter().map(|&(game, plies, _)| (game, plies)).collect();
        let mut played = self.play_on(&starts, cancel)?.into_iter();
        Ok(readings
            .iter()
            .map(|r| if refereed(&r.2) { scored.next().flatten() } else { played.next().flatten() })
            .collect())
    }

    /// Plays generations until the log holds `until`, appending each to `writer` and telling
    /// `done` of it; goes on from `log`'s last generation when resuming. Returns the last
    /// population.
    ///
    /// # Errors
    /// [`TuningError`] when the games cannot be played or the log written.
    pub fn run(
        &self,
        log: Option<&TuningLog>,
        writer: &mut LogWriter,
        until: u32,
        done: &mut dyn FnMut(&GenerationRecord),
        cancel: &AtomicBool,
    ) -> Result<Vec<Member>, TuningError> {
        let (mut population, mut next_id, mut generation) = match log.and_then(|l| l.generations.last()) {
            Some(last) => (last.next.clone(), last.next_id, last.generation + 1),
            None => {
                let (members, next_id) = self.initial_population();
                (members, next_id, 1)
            }
        };
        while generation <= until && !cancel.load(std::sync::atomic::Ordering::Relaxed) {
            let record =
                self.play_generation(generation, &population, next_id, cancel).map_err(TuningError::Match)?;
            writer.append(&record).map_err(TuningError::Write)?;
            done(&record);
            population.clone_from(&record.next);
            next_id = record.next_id;
            generation += 1;
        }
        Ok(population)
    }
}
