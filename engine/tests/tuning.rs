//! Self-play tuning of the draw and resign policy: the replacement rules on scripted game
//! endings, and a short real run resumed from its log.

mod common;

use std::path::PathBuf;
use std::process::ExitCode;

use rand::SeedableRng;
use rand::rngs::StdRng;
use shakmaty::Color;

use kibitz_engine::conductor::GameEvent;
use kibitz_engine::policy::{PolicySettings, Rules};
use kibitz_engine::runner::Remark;
use kibitz_engine::tuning::{
    Breeder, DRAW_AHEAD, Finish, Genome, HowEnded, Margins, Member, Origin, Playout, Reading, Replacement,
    Reply, RuleApplied, RunHeader, Seat, Tuner, TuningLog, Variation,
};
use kibitz_engine::{Ending, Termination};

use common::Scratch;

const FEN: &str = "4k3/8/8/8/8/8/8/4K3 w - - 0 30";

fn remark(event: GameEvent) -> Remark {
    Remark { ply: 40, fen: FEN.to_owned(), event }
}

fn offered(side: Color) -> Remark {
    remark(GameEvent::DrawOffered { side, why: None })
}

fn declined(side: Color) -> Remark {
    remark(GameEvent::DrawDeclined { side, why: None })
}

fn accepted(side: Color) -> Remark {
    remark(GameEvent::DrawAccepted { side, why: None })
}

fn resigned(side: Color) -> Remark {
    remark(GameEvent::Resigned { side, why: None })
}

fn member(id: u64, values: [i64; 3]) -> Member {
    Member { id, born: 0, origin: Origin::Initial, values: values.to_vec() }
}

/// The replacements of a game between two distinct members that ended as `ending` after
/// `remarks` (the game-over remark added).
fn replace(ending: Ending, remarks: Vec<Remark>, seed: u64) -> Replacement {
    replace_checked(ending, remarks, seed, None)
}

/// [`replace`] for a game whose ending was checked by playing on, as `playout` went.
fn replace_checked(ending: Ending, remarks: Vec<Remark>, seed: u64, playout: Option<Playout>) -> Replacement {
    let mut finish = finish_of(ending, remarks);
    finish.playout = playout;
    breed(&finish, seed)
}

/// How a game that ended as `ending` after `remarks` (the game-over remark added) finished.
fn finish_of(ending: Ending, mut remarks: Vec<Remark>) -> Finish {
    remarks.push(remark(GameEvent::GameOver { ending }));
    Finish::read(ending, &remarks, 60)
}

/// The replacements of a game between two distinct members that finished as `finish`.
fn breed(finish: &Finish, seed: u64) -> Replacement {
    let genome = Genome::for_rules(Rules::DeadBand);
    let mut rng = StdRng::seed_from_u64(seed);
    let mut breeder = Breeder {
        genome: &genome,
        variation: Variation::default(),
        rng: &mut rng,
        generation: 3,
        next_id: 100,
        draw_ahead: DRAW_AHEAD,
    };
    breeder.replace(finish, &member(1, [10, 5, 2000]), &member(2, [300, 60, 40_000]))
}

fn is_clone_of(m: &Option<Member>, id: u64, values: [i64; 3]) -> bool {
    m.as_ref().is_some_and(|m| m.origin == Origin::Clone { of: id } && m.values == values && m.born == 3)
}

fn is_offspring(m: &Option<Member>) -> bool {
    m.as_ref().is_some_and(|m| m.origin == Origin::Offspring { of: [1, 2] })
}

#[test]
fn an_agreed_draw_replaces_both_by_mutated_clones() {
    let r =
        replace(Ending::draw(Termination::Agreement), vec![offered(Color::White), accepted(Color::Black)], 1);
    assert_eq!(r.rule, RuleApplied::AgreedDraw);
    let (w, b) = (r.white.expect("replaced"), r.black.expect("replaced"));
    assert_eq!((w.origin, b.origin), (Origin::MutatedClone { of: 1 }, Origin::MutatedClone { of: 2 }));
    assert_ne!((w.values.clone(), b.values.clone()), (vec![10, 5, 2000], vec![300, 60, 40_000]), "mutated");
    assert_eq!((w.id, b.id), (100, 101), "new numbers");
}

#[test]
fn a_draw_by_rule_replaces_one_parent_by_an_offspring_half_of_the_time() {
    let mut white = 0;
    for seed in 0..200 {
        let r = replace(Ending::draw(Termination::ThreefoldRepetition), vec![], seed);
        assert_eq!(r.rule, RuleApplied::DrawByRule);
        assert!(r.white.is_some() != r.black.is_some(), "exactly one parent replaced");
        assert!(is_offspring(&r.white) || is_offspring(&r.black));
        white += usize::from(r.white.is_some());
    }
    assert!((70..130).contains(&white), "each parent with probability 1/2: White {white} of 200");
}

#[test]
fn rejecting_and_losing_makes_the_rejecter_a_clone_of_the_winner() {
    // Black declines White's offer, then is mated.
    let r = replace(
        Ending::win(Color::White, Termination::Checkmate),
        vec![offered(Color::White), declined(Color::Black)],
        1,
    );
    assert_eq!(r.rule, RuleApplied::RejectedAndLost);
    assert!(r.white.is_none() && is_clone_of(&r.black, 1, [10, 5, 2000]));
    // Even when it resigned later: the rejection decides.
    let r = replace(
        Ending::win(Color::White, Termination::Resignation),
        vec![offered(Color::White), declined(Color::Black), resigned(Color::Black)],
        1,
    );
    assert_eq!(r.rule, RuleApplied::RejectedAndLost);
    assert!(is_clone_of(&r.black, 1, [10, 5, 2000]));
}

#[test]
fn rejecting_and_winning_makes_the_other_a_clone_of_the_winner() {
    let r = replace(
        Ending::win(Color::Black, Termination::Resignation),
        vec![offered(Color::White), declined(Color::Black), resigned(Color::White)],
        1,
    );
    assert_eq!(r.rule, RuleApplied::RejectedAndWon);
    assert!(is_clone_of(&r.white, 2, [300, 60, 40_000]) && r.black.is_none());
}

#[test]
fn rejecting_and_drawing_replaces_the_rejecter_by_an_offspring() {
    let r = replace(
        Ending::draw(Termination::FiftyMoveRule),
        vec![offered(Color::Black), declined(Color::White)],
        1,
    );
    assert_eq!(r.rule, RuleApplied::RejectedAndDrawn);
    assert!(is_offspring(&r.white) && r.black.is_none());
}

#[test]
fn a_resigner_is_replaced_by_an_offspring() {
    let r = replace(Ending::win(Color::White, Termination::Resignation), vec![resigned(Color::Black)], 1);
    assert_eq!(r.rule, RuleApplied::Resigned);
    assert!(r.white.is_none() && is_offspring(&r.black));
}

#[test]
fn an_accepter_a_referee_scores_clearly_ahead_pays_for_the_draw_it_gave_away() {
    let scored =
        |white_cp| Some(Reading::Draw.verdict(white_cp, 20, Margins { draw_odds: 75, ..Margins::default() }));
    let ending = Ending::draw(Termination::Agreement);
    let black_offers = || vec![offered(Color::Black), accepted(Color::White)];
    // White accepted 1.6 pawns up: White is replaced by a clone of Black.
    let r = replace_checked(ending, black_offers(), 1, scored(DRAW_AHEAD + 10));
    assert_eq!(r.rule, RuleApplied::AgreementRefuted);
    assert!(r.black.is_none() && is_clone_of(&r.white, 2, [300, 60, 40_000]), "{r:?}");
    // Black, the offerer, 1.6 pawns up: Black pays, as before.
    let r = replace_checked(ending, black_offers(), 1, scored(-DRAW_AHEAD - 10));
    assert!(r.white.is_none() && is_clone_of(&r.black, 1, [10, 5, 2000]), "{r:?}");
    // Level but lively (20 men: Kibitz's games were drawn 67% of the time): the offer came
    // too soon, whichever side the score leans to.
    for white_cp in [40, -40] {
        let r = replace_checked(ending, black_offers(), 1, scored(white_cp));
        assert_eq!(r.rule, RuleApplied::AgreementRefuted);
        assert!(r.white.is_none() && is_clone_of(&r.black, 1, [10, 5, 2000]), "{white_cp}: {r:?}");
    }
}

#[test]
fn an_agreed_draw_a_side_then_wins_makes_the_offerer_a_clone_of_the_side_that_accepted() {
    let won = |winner| Some(Playout { winner: Some(winner), plies: 31, score: None, tally: None });
    let ending = Ending::draw(Termination::Agreement);
    // White offered, Black accepted, and either side wins when it is played on: White's
    // claim that the game was a draw was wrong.
    for winner in [Seat::White, Seat::Black] {
        let r = replace_checked(ending, vec![offered(Color::White), accepted(Color::Black)], 1, won(winner));
        assert_eq!(r.rule, RuleApplied::AgreementRefuted);
        assert!(is_clone_of(&r.white, 2, [300, 60, 40_000]) && r.black.is_none(), "{r:?}");
    }
    // Black offered: Black is replaced.
    let r = replace_checked(ending, vec![offered(Color::Black), accepted(Color::White)], 1, won(Seat::White));
    assert!(r.white.is_none() && is_clone_of(&r.black, 1, [10, 5, 2000]), "{r:?}");
    // An earlier decliner is not charged with a draw that did not hold: Black declined,
    // then offered itself, and White accepted; when played on White wins.
    let remarks =
        vec![offered(Color::White), declined(Color::Black), offered(Color::Black), accepted(Color::White)];
    let r = replace_checked(ending, remarks.clone(), 1, won(Seat::White));
    assert_eq!(r.rule, RuleApplied::AgreementRefuted);
    assert!(r.white.is_none() && is_clone_of(&r.black, 1, [10, 5, 2000]), "the second offerer pays: {r:?}");
    // When the draw holds it was a right reading: the earlier decliner is not charged with
    // it (the note's rule 2 would replace Black by an offspring), both go on as mutated
    // clones.
    let r = replace_checked(
        ending,
        remarks.clone(),
        1,
        Some(Playout { winner: None, plies: 40, score: None, tally: None }),
    );
    assert_eq!(r.rule, RuleApplied::AgreedDraw);
    assert!(r.black.as_ref().is_some_and(|m| m.origin == Origin::MutatedClone { of: 2 }), "{r:?}");
    // Unchecked, or when playing on failed, the note's rule 2 stands.
    let r = replace_checked(ending, remarks, 1, None);
    assert_eq!(r.rule, RuleApplied::RejectedAndDrawn);
    assert!(r.white.is_none() && is_offspring(&r.black), "{r:?}");
    // Played on to a draw: the note's rule.
    let drawn = Some(Playout { winner: None, plies: 80, score: None, tally: None });
    let r = replace_checked(ending, vec![offered(Color::White), accepted(Color::Black)], 1, drawn);
    assert_eq!(r.rule, RuleApplied::AgreedDraw);
    assert!(r.white.as_ref().is_some_and(|m| m.origin == Origin::MutatedClone { of: 1 }));
}

#[test]
fn a_declined_offer_played_on_decides_who_misread_it() {
    // White offered and Black declined; Black went on to be mated, but the offer, played on
    // from where it was made, decides.
    let remarks = vec![offered(Color::White), declined(Color::Black)];
    let judged = |winner| {
        let mut finish = finish_of(Ending::win(Color::White, Termination::Checkmate), remarks.clone());
        finish.offers[0].playout = Some(Playout { winner, plies: 50, score: None, tally: None });
        breed(&finish, 1)
    };
    // A side wins when it is played on: the offer was wrong, White is replaced by a clone of
    // the side that declined.
    for winner in [Some(Seat::White), Some(Seat::Black)] {
        let r = judged(winner);
        assert_eq!(r.rule, RuleApplied::OfferRefuted);
        assert!(is_clone_of(&r.white, 2, [300, 60, 40_000]) && r.black.is_none(), "{r:?}");
    }
    // Drawn when played on: the decline was wrong, Black is replaced by an offspring.
    let r = judged(None);
    assert_eq!(r.rule, RuleApplied::DeclineRefuted);
    assert!(r.white.is_none() && is_offspring(&r.black), "{r:?}");
    // Not played on (the judge failed): the note's rule 1, by how the game ended.
    let r = replace(Ending::win(Color::White, Termination::Checkmate), remarks, 1);
    assert_eq!(r.rule, RuleApplied::RejectedAndLost);
    assert!(r.white.is_none() && is_clone_of(&r.black, 1, [10, 5, 2000]), "{r:?}");
}

#[test]
fn a_resignation_the_resigner_then_does_not_lose_makes_it_a_clone_of_the_winner() {
    let resigns = || vec![resigned(Color::Black)];
    let ending = Ending::win(Color::White, Termination::Resignation);
    for winner in [None, Some(Seat::Black)] {
        let r = replace_checked(
            ending,
            resigns(),
            1,
            Some(Playout { winner, plies: 12, score: None, tally: None }),
        );
        assert_eq!(r.rule, RuleApplied::ResignationRefuted, "played on: {winner:?}");
        assert!(r.white.is_none() && is_clone_of(&r.black, 1, [10, 5, 2000]));
    }
    let r = replace_checked(
        ending,
        resigns(),
        1,
        Some(Playout { winner: Some(Seat::White), plies: 12, score: None, tally: None }),
    );
    assert_eq!(r.rule, RuleApplied::Resigned, "the resigner lost when it played on");
    assert!(is_offspring(&r.black));
}

#[test]
fn a_side_mated_or_out_of_time_is_replaced_by_a_clone_of_the_winner() {
    for termination in [Termination::Checkmate, Termination::TimeForfeit] {
        let r = replace(Ending::win(Color::Black, termination), vec![], 1);
        assert_eq!(r.rule, RuleApplied::Lost);
        assert!(is_clone_of(&r.white, 2, [300, 60, 40_000]) && r.black.is_none(), "{termination:?}");
    }
}

fn kibitz(args: &[String]) -> ExitCode {
    kibitz_engine::cli::run(args)
}

fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_owned).collect()
}

#[test]
fn a_short_run_resumes_from_its_log_with_the_right_generations_and_a_torn_line_ignored() {
    let dir = Scratch::new("tuning-resume");
    let (log, best) = (dir.0.join("run.log"), dir.0.join("best.json"));
    let openings = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data/epd/wac.epd");
    let path = |p: &PathBuf| p.to_string_lossy().into_owned();
    let args = [
        words("tune-policy --population 4 --generations 2 --concurrency 2 --max-plies 60 --tc"),
        vec!["sd 2".to_owned(), "--openings".to_owned(), path(&openings), "--log".to_owned(), path(&log)],
        vec!["--out".to_owned(), path(&best)],
    ]
    .concat();
    assert_eq!(kibitz(&args), ExitCode::SUCCESS);
    let first = TuningLog::read(&log).expect("a log");
    assert!(!first.header.check_readings, "the note's rules alone unless asked");
    assert!(first.generations.iter().flat_map(|g| &g.games).all(|g| g.finish.playout.is_none()));
    assert_eq!(first.generations.iter().map(|g| g.generation).collect::<Vec<_>>(), [1, 2]);
    assert!(!first.torn);
    for g in &first.generations {
        assert_eq!(g.games.len(), 2, "four members play two games");
        let mut players: Vec<u64> = g.games.iter().flat_map(|x| [x.white, x.black]).collect();
        players.sort_unstable();
        let mut members: Vec<u64> = g.members.iter().map(|m| m.id).collect();
        members.sort_unstable();
        assert_eq!(players, members, "every member plays once");
    }
    assert_eq!(first.generations[1].members, first.generations[0].next);
    let plies: usize = first.generations.iter().flat_map(|g| &g.games).map(|x| x.finish.plies).sum();
    assert!(plies > 4, "the games were played: {plies} plies");
    assert_eq!(kibitz(&args), ExitCode::FAILURE, "an existing log is not overwritten");

    // A torn last line (a killed run) is ignored, then cut off on resuming.
    let mut bytes = std::fs::read(&log).expect("the log");
    bytes.extend_from_slice(br#"{"kind":"generation","generation":3,"members":[{"id"#);
    std::fs::write(&log, &bytes).expect("writable");
    let torn = TuningLog::read(&log).expect("still a log");
    assert!(torn.torn);
    assert_eq!(torn.generations, first.generations);

    let resume =
        [words("tune-policy --resume"), vec![path(&log)], words("--generations 3 --out"), vec![path(&best)]]
            .concat();
    assert_eq!(kibitz(&resume), ExitCode::SUCCESS);
    let resumed = TuningLog::read(&log).expect("a log");
    assert!(!resumed.torn, "the torn line was cut off");
    assert_eq!(resumed.generations.iter().map(|g| g.generation).collect::<Vec<_>>(), [1, 2, 3]);
    assert_eq!(resumed.generations[..2], first.generations[..]);
    assert_eq!(resumed.generations[2].members, first.generations[1].next, "it goes on from generation 2");
    assert!(resumed.generations[2].members.iter().all(|m| m.id < first.generations[1].next_id));

    let summaries = resumed.summaries();
    assert_eq!(summaries.len(), 3);
    let last = &summaries[2];
    assert_eq!(last.endings.games, 2);
    assert_eq!(last.parameters.len(), 3);
    for p in &last.parameters {
        let range = PolicySettings::parameter(&p.name).expect("a named parameter").range();
        assert!(range.contains(&p.min) && range.contains(&p.max) && p.min as f64 <= p.mean, "{p:?}");
    }
    let settings = PolicySettings::load(&best).expect("BEST.json loads as the draw and resign settings");
    assert_eq!(settings.rules, Rules::DeadBand);
    assert_eq!(Genome::for_rules(Rules::DeadBand).values(&settings), last.best.values);
    assert!(dir.0.join("best.population.json").exists());
}

/// A tuner of the dead band at depth 4 from WAC's positions (won for the side to move). At
/// depth 2 the judge's play-on of the first two (120 plies) could not convert either with the
/// ninth-generation network, so no agreed draw was refuted; at depth 4 both networks do.
fn tuner(check_readings: bool) -> Tuner {
    judged_tuner(check_readings, None)
}

/// [`tuner`], the readings played on by `judge` (engine words).
fn judged_tuner(check_readings: bool, judge: Option<&str>) -> Tuner {
    let openings = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data/epd/wac.epd");
    let header = RunHeader {
        openings: Some(openings),
        max_plies: 120,
        check_readings,
        judge: judge.map(str::to_owned),
        ..RunHeader::new(Rules::DeadBand, 4, 7, "sd 4")
    };
    Tuner::new(header, 2, None).expect("a tuner")
}

#[test]
fn agreed_draws_and_resignations_are_played_on_and_judged_by_how_that_game_ends() {
    let cancel = std::sync::atomic::AtomicBool::new(false);
    // Members that agree to anything at once (the widest band, no moves in it needed) and
    // members that resign at the first score below the band.
    for (values, how) in [([1000, 0, 100_000], HowEnded::Agreement), ([0, 100, 0], HowEnded::Resignation)] {
        let population: Vec<Member> = (0..4).map(|id| member(id, values)).collect();
        let record = tuner(true).play_generation(1, &population, 4, &cancel).expect("a generation");
        let readings: Vec<_> = record.games.iter().filter(|g| g.finish.how == how).collect();
        assert!(!readings.is_empty(), "{how:?}: {:?}", record.games);
        for g in &readings {
            let playout = g.finish.playout.expect("played on");
            assert!(playout.plies > 0, "{g:?}");
            let refuted = match how {
                HowEnded::Agreement => playout.winner.is_some(),
                _ => playout.winner != g.finish.winner,
            };
            let rule = if how == HowEnded::Agreement {
                [RuleApplied::AgreedDraw, RuleApplied::AgreementRefuted][usize::from(refuted)]
            } else {
                [RuleApplied::Resigned, RuleApplied::ResignationRefuted][usize::from(refuted)]
            };
            assert_eq!(g.rule, rule, "{g:?}");
        }
        if how == HowEnded::Agreement {
            // WAC's positions are won for the side to move: some of those draws were not.
            assert!(readings.iter().any(|g| g.rule == RuleApplied::AgreementRefuted), "{readings:?}");
        }
        // Without the check the same games are taken at their word.
        let trusted = tuner(false).play_generation(1, &population, 4, &cancel).expect("a generation");
        assert!(trusted.games.iter().all(|g| g.finish.playout.is_none()));
    }
}

#[test]
fn a_declined_offer_is_played_on_from_where_it_was_made() {
    let cancel = std::sync::atomic::AtomicBool::new(false);
    // A member that offers at once against one that never answers yes (a band of 0 held for
    // a hundred moves).
    let population = [member(0, [1000, 0, 100_000]), member(1, [0, 100, 100_000])];
    for seed in 1..=4 {
        let record = tuner(true).play_generation(seed, &population, 2, &cancel).expect("a generation");
        let game = &record.games[0];
        let Some(offer) = game.finish.offers.iter().find(|o| o.reply == Reply::Declined) else {
            continue;
        };
        assert!(offer.ply <= game.finish.plies, "{game:?}");
        let playout = offer.playout.expect("played on");
        let rule =
            [RuleApplied::DeclineRefuted, RuleApplied::OfferRefuted][usize::from(playout.winner.is_some())];
        assert_eq!(game.rule, rule, "{game:?}");
        return;
    }
    panic!("no offer was declined in four generations");
}

#[test]
fn with_several_playouts_each_reading_is_played_on_that_many_times_and_the_majority_decides() {
    let cancel = std::sync::atomic::AtomicBool::new(false);
    // Members that agree to anything at once, from WAC's positions (won for the side to move).
    let population: Vec<Member> = (0..4).map(|id| member(id, [1000, 0, 100_000])).collect();
    let tuner = Tuner::new(RunHeader { playouts: 3, ..tuner(true).header }, 2, None).expect("a tuner");
    let record = tuner.play_generation(1, &population, 4, &cancel).expect("a generation");
    let agreed: Vec<_> = record.games.iter().filter(|g| g.finish.how == HowEnded::Agreement).collect();
    assert!(!agreed.is_empty(), "{:?}", record.games);
    for g in &agreed {
        let playout = g.finish.playout.expect("played on");
        let tally = playout.tally.expect("three games, counted");
        assert_eq!(tally.white + tally.black + tally.draws, 3, "{g:?}");
        let majority = [(tally.white, Seat::White), (tally.black, Seat::Black)]
            .into_iter()
            .find(|&(wins, _)| wins >= 2)
            .map(|(_, seat)| seat);
        assert_eq!(playout.winner, majority, "{g:?}");
        let rule = if majority.is_some() { RuleApplied::AgreementRefuted } else { RuleApplied::AgreedDraw };
        assert_eq!(g.rule, rule, "{g:?}");
    }
    // WAC's positions are won for the side to move: the majority says so of some.
    assert!(agreed.iter().any(|g| g.rule == RuleApplied::AgreementRefuted), "{agreed:?}");
}

#[test]
fn the_judge_named_on_the_command_line_plays_the_readings_on() {
    let stockfish = std::path::Path::new("/usr/games/stockfish");
    if !stockfish.exists() {
        eprintln!("skipped: /usr/games/stockfish is not installed (CI installs it)");
        return;
    }
    let cancel = std::sync::atomic::AtomicBool::new(false);
    // Members that agree to anything at once, from WAC's positions (won for the side to move).
    let population: Vec<Member> = (0..4).map(|id| member(id, [1000, 0, 100_000])).collect();
    let judge = "name=Stockfish cmd=/usr/games/stockfish proto=uci option.Hash=16 depth=8";
    let record =
        judged_tuner(true, Some(judge)).play_generation(1, &population, 4, &cancel).expect("a generation");
    let agreed: Vec<_> = record.games.iter().filter(|g| g.finish.how == HowEnded::Agreement).collect();
    assert!(!agreed.is_empty(), "{:?}", record.games);
    assert!(agreed.iter().all(|g| g.finish.playout.is_some_and(|p| p.plies > 0)), "{agreed:?}");
    assert!(
        agreed.iter().any(|g| g.rule == RuleApplied::AgreementRefuted),
        "Stockfish wins some: {agreed:?}"
    );

    // A judge that plays an illegal move judges nothing: the readings are taken at their word.
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/engines/illegal-move");
    let cheat = format!("name=Cheater cmd={} proto=uci depth=4", script.display());
    let record =
        judged_tuner(true, Some(&cheat)).play_generation(1, &population, 4, &cancel).expect("a generation");
    let agreed: Vec<_> = record.games.iter().filter(|g| g.finish.how == HowEnded::Agreement).collect();
    assert!(!agreed.is_empty());
    assert!(
        agreed.iter().all(|g| g.finish.playout.is_none() && g.rule == RuleApplied::AgreedDraw),
        "{agreed:?}"
    );

    // A judge that cannot be started stops the run with a message.
    let readme = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/engines/README.md");
    let none = format!("cmd={} proto=uci depth=4", readme.display());
    let err =
        judged_tuner(true, Some(&none)).play_generation(1, &population, 4, &cancel).expect_err("no judge");
    assert!(err.to_string().contains("README playing on 1 could not be started"), "{err}");
}

/// `kibitz tune-policy SETTINGS --tc "sd 1" --log run.log --out best.json EXTRA` in `dir`.
fn new_run(dir: &Scratch, settings: &str, extra: &[String]) -> ExitCode {
    let path = |name: &str| dir.0.join(name).to_string_lossy().into_owned();
    let mut args = words(&format!("tune-policy {settings} --tc"));
    args.extend([
        "sd 1".to_owned(),
        "--log".to_owned(),
        path("run.log"),
        "--out".to_owned(),
        path("best.json"),
    ]);
    args.extend_from_slice(extra);
    kibitz(&args)
}

#[test]
fn judge_words_are_checked_before_a_log_is_written() {
    let dir = Scratch::new("tuning-judge");
    let log = dir.0.join("run.log");
    let run = |judge: &str| {
        new_run(
            &dir,
            "--population 2 --generations 1 --max-plies 20",
            &["--judge".to_owned(), judge.to_owned()],
        )
    };
    assert_eq!(run("cmd=builtin colour=blue"), ExitCode::FAILURE, "an unknown key");
    assert_eq!(run("name=NoProgram depth=3"), ExitCode::FAILURE, "no cmd=");
    assert!(!log.exists(), "no log was written for a run that cannot start");
    // A judge is a check of the readings, its words kept in the log.
    assert_eq!(run("name=Deep cmd=builtin depth=3"), ExitCode::SUCCESS);
    let header = TuningLog::read(&log).expect("a log").header;
    assert!(header.check_readings);
    assert_eq!(header.judge.as_deref(), Some("name=Deep cmd=builtin depth=3"));
}

#[test]
fn members_given_tablebases_read_a_drawn_ending_as_drawn() {
    let dir = Scratch::new("tuning-tablebases");
    // Queen against a rook's pawn on the seventh, the queen's king too far: a draw by the
    // tables, which the search alone scores at about +7 for White.
    let openings = dir.0.join("start.epd");
    std::fs::write(&openings, "8/8/8/8/8/5K2/pk6/7Q w - - 0 60\n").expect("writable");
    let header = |tablebases: Option<PathBuf>| RunHeader {
        openings: Some(openings.clone()),
        max_plies: 60,
        tablebases,
        ..RunHeader::new(Rules::DeadBand, 2, 7, "sd 8")
    };
    // Members that resign at the first score below a band of 0 held for no moves.
    let population = [member(0, [0, 0, 0]), member(1, [0, 0, 0])];
    let cancel = std::sync::atomic::AtomicBool::new(false);
    let game = |tablebases| {
        let tuner = Tuner::new(header(tablebases), 1, None).expect("a tuner");
        tuner.play_generation(1, &population, 2, &cancel).expect("a generation").games[0].finish.clone()
    };
    assert_eq!(game(None).how, HowEnded::Resignation, "the search alone misreads it");
    let tables = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data/syzygy");
    let finish = game(Some(tables));
    assert_eq!((finish.how == HowEnded::Resignation, finish.winner), (false, None), "{finish:?}");

    let missing = Tuner::new(header(Some(dir.0.join("no-such-folder"))), 1, None).err().expect("refused");
    assert!(missing.to_string().starts_with("the tablebases: "), "{missing}");
}

#[test]
fn a_kept_parameter_stays_at_its_default_and_a_wrong_name_is_refused() {
    let dir = Scratch::new("tuning-keep");
    let (log, best) = (dir.0.join("run.log"), dir.0.join("best.json"));
    let run = |keep: &[&str]| {
        let keep: Vec<String> = keep.iter().flat_map(|k| ["--keep".to_owned(), (*k).to_owned()]).collect();
        new_run(&dir, "--rules terra --population 4 --generations 2 --max-plies 40", &keep)
    };
    assert_eq!(run(&["colour"]), ExitCode::FAILURE, "no such parameter");
    assert_eq!(run(&["dead_band.width"]), ExitCode::FAILURE, "not one of Terra's");
    assert!(!log.exists(), "no log was written for a run that cannot start");
    assert_eq!(run(&["contempt"]), ExitCode::SUCCESS);
    let read = TuningLog::read(&log).expect("a log");
    assert!(!read.header.genome.iter().any(|n| n == "contempt"), "{:?}", read.header.genome);
    assert_eq!(read.header.genome.len(), Genome::for_rules(Rules::Terra).names().len() - 1);
    let settings = PolicySettings::load(&best).expect("the best member's settings");
    assert_eq!(settings.contempt, PolicySettings::default().contempt);
    // Every member of every generation played with the default contempt: it is not in their values.
    assert!(
        read.generations.iter().flat_map(|g| &g.next).all(|m| m.values.len() == read.header.genome.len())
    );
}

#[test]
fn the_first_population_is_spread_around_the_defaults_whatever_the_mutation_step() {
    let header = RunHeader {
        variation: Variation { sigma: 0.0, ..Variation::default() },
        ..RunHeader::new(Rules::Terra, 16, 7, "sd 1")
    };
    let tuner = Tuner::new(header, 1, None).expect("a tuner");
    let (members, next_id) = tuner.initial_population();
    let defaults = Genome::for_rules(Rules::Terra).defaults();
    assert_eq!((members.len(), next_id), (16, 16));
    assert_eq!(members[0].values, defaults, "the first member plays the defaults");
    let moved = members[1..].iter().filter(|m| m.values != defaults).count();
    assert_eq!(moved, 15, "a run without mutation still starts from a spread population");
}
