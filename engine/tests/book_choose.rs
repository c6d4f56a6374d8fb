//! Terra's worked example (the 1.e4 table of the Terra help, seed 004) and Crafty's selection,
//! with a seeded random generator.

use kibitz_engine::{
    Book, BookEntry, BookMode, BookSettings, Exclusion, GameRecord, Group, RandomType, Stats, book_key,
    encode_move,
};
use rand::SeedableRng;
use rand::rngs::StdRng;

/// One row: move, fixed games, fixed win%, learned games, learned wins, user value.
type Row = (&'static str, u32, u32, u32, u32, Option<u8>);

/// The table of the example.
const TABLE: &[Row] = &[
    ("e5", 5783, 43, 5, 3, None),
    ("c5", 5230, 48, 127, 95, Some(75)),
    ("e6", 1329, 36, 1, 0, None),
    ("c6", 748, 26, 0, 0, None),
    ("Nf6", 276, 27, 127, 0, Some(0)),
    ("d5", 43, 29, 127, 19, Some(15)),
    ("d6", 21, 34, 0, 0, None),
    ("Nc6", 6, 48, 127, 0, Some(0)),
    ("b6", 5, 27, 0, 0, None),
    ("g6", 2, 0, 0, 0, None),
    ("a6", 2, 100, 0, 0, None),
];

fn example() -> (GameRecord, Book) {
    let mut game = GameRecord::new();
    game.play_text("e4").unwrap();
    let key = book_key(game.position());
    let mut entries = Vec::new();
    for &(san, games, pct, lgames, lwins, user) in TABLE {
        let mv = encode_move(game.parse_move(san).unwrap());
        let wins = (games * pct + 50) / 100;
        let mut e = BookEntry::new(key, mv);
        e.fixed = Stats { games, wins, draws: 0, losses: games - wins };
        e.learned = Stats { games: lgames, wins: lwins, draws: 0, losses: lgames - lwins };
        e.user = user;
        entries.push(e);
    }
    (game, Book::from_entries(entries))
}

/// The example's settings: RandomType=1, BookLimit=33, MinTerraGames=3, TerraLimit=40,
/// MinBookGames=4.
fn settings() -> BookSettings {
    BookSettings {
        mode: BookMode::Terra,
        random_type: RandomType::LearnedOrFrequency,
        book_limit: 33.0,
        min_book_games: 4,
        min_learned_games: 3,
        learned_limit: 40.0,
        ..BookSettings::default()
    }
}

#[test]
fn terra_worked_example_candidates() {
    let (game, book) = example();
    let candidates = book.explain(game.position(), &settings());
    assert_eq!(candidates.len(), TABLE.len());
    let find = |san: &str| {
        let m = game.parse_move(san).unwrap();
        candidates.iter().find(|c| c.mv == m).unwrap().clone()
    };
    // P = 1 - (100-75)/100 * (100-15)/100 = 0.7875 for the user-set group (c5, d5).
    let p_user = 1.0 - 0.25 * 0.85;
    let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
    assert_eq!(find("c5").group, Some(Group::User));
    assert!(close(find("c5").probability, p_user * 75.0 / 90.0));
    assert!(close(find("d5").probability, p_user * 15.0 / 90.0));
    // Statistics group: e5 uses its learned 60%; e6 (1 learned game) and d6 use the frequency
    // 100*f/FSum with FSum = 13445: 9.88 -> 10 and 0.16 -> 1.
    assert_eq!(find("e5").value, 60.0);
    assert_eq!(find("e6").value, 10.0);
    assert_eq!(find("d6").value, 1.0);
    let stats_sum = 71.0;
    assert!(close(find("e5").probability, (1.0 - p_user) * 60.0 / stats_sum));
    assert!(close(find("e6").probability, (1.0 - p_user) * 10.0 / stats_sum));
    assert!(close(find("d6").probability, (1.0 - p_user) * 1.0 / stats_sum));
    // The shaded rows.
    assert_eq!(find("c6").excluded, Some(Exclusion::BookLimit(33.0)));
    assert_eq!(find("b6").excluded, Some(Exclusion::BookLimit(33.0)));
    assert_eq!(find("g6").excluded, Some(Exclusion::MinBookGames(4)));
    assert_eq!(find("a6").excluded, Some(Exclusion::MinBookGames(4)));
    assert_eq!(find("Nf6").excluded, Some(Exclusion::Avoid));
    assert_eq!(find("Nc6").excluded, Some(Exclusion::Avoid));
    let total: f64 = candidates.iter().map(|c| c.probability).sum();
    assert!(close(total, 1.0));
    // The avoid list, which the search respects.
    let avoid = book.avoid_list(game.position(), &settings());
    assert_eq!(avoid.len(), 2);
}

#[test]
fn terra_worked_example_seeded_draws_follow_the_probabilities() {
    let (game, book) = example();
    let s = settings();
    let candidates = book.explain(game.position(), &s);
    let mut rng = StdRng::seed_from_u64(2004);
    let draws = 200_000;
    let mut counts = std::collections::HashMap::new();
    for _ in 0..draws {
        let choice = book.choose(game.position(), &s, &mut rng).unwrap();
        *counts.entry(choice.mv).or_insert(0u32) += 1;
    }
    for c in &candidates {
        let seen = f64::from(counts.get(&c.mv).copied().unwrap_or(0)) / f64::from(draws);
        assert!((seen - c.probability).abs() < 0.005, "{:?}: seen {seen}, expected {}", c.mv, c.probability);
    }
    // Same seed, same sequence of moves.
    let run = |seed| {
        let mut rng = StdRng::seed_from_u64(seed);
        (0..20).map(|_| book.choose(game.position(), &s, &mut rng).unwrap().mv).collect::<Vec<_>>()
    };
    assert_eq!(run(7), run(7));
}

#[test]
fn terra_learned_win_below_terra_limit_goes_to_the_avoid_list() {
    let (game, mut book) = example();
    let key = book_key(game.position());
    let e5 = encode_move(game.parse_move("e5").unwrap());
    book.get_mut(key, e5).unwrap().learned = Stats { games: 5, wins: 1, draws: 0, losses: 4 };
    let avoid = book.avoid_list(game.position(), &settings());
    assert!(avoid.contains(&game.parse_move("e5").unwrap()));
}

#[test]
fn terra_value_100_is_always_played() {
    let (game, mut book) = example();
    let key = book_key(game.position());
    for san in ["e6", "d6"] {
        book.get_mut(key, encode_move(game.parse_move(san).unwrap())).unwrap().user = Some(100);
    }
    let mut rng = StdRng::seed_from_u64(1);
    let mut seen = std::collections::HashSet::new();
    for _ in 0..200 {
        let choice = book.choose(game.position(), &settings(), &mut rng).unwrap();
        seen.insert(choice.mv);
    }
    let expected: std::collections::HashSet<_> =
        ["e6", "d6"].iter().map(|s| game.parse_move(s).unwrap()).collect();
    assert_eq!(seen, expected);
}

#[test]
fn crafty_bang_restricts_question_excludes_width_cuts() {
    let (game, mut book) = example();
    let crafty = BookSettings { mode: BookMode::Crafty, width: 3, ..BookSettings::default() };
    let key = book_key(game.position());
    // Without `!` (c5 is 75, which counts as `!`), only c5 can be played.
    let choice = book.choose(game.position(), &crafty, &mut StdRng::seed_from_u64(3)).unwrap();
    assert_eq!(choice.mv, game.parse_move("c5").unwrap());
    assert_eq!(choice.playable().count(), 1);
    // Remove the user values: the width keeps three moves; `?` moves stay out.
    for e in book.entries().to_vec() {
        book.get_mut(key, e.mv).unwrap().user = None;
    }
    let nf6 = encode_move(game.parse_move("Nf6").unwrap());
    book.get_mut(key, nf6).unwrap().user = Some(0);
    let candidates = book.explain(game.position(), &crafty);
    let playable: Vec<_> = candidates.iter().filter(|c| c.probability > 0.0).collect();
    assert_eq!(playable.len(), 3);
    assert!(candidates.iter().any(|c| matches!(c.excluded, Some(Exclusion::Width(3)))));
    assert!(candidates.iter().any(|c| c.excluded == Some(Exclusion::NoWins)));
    assert!(
        candidates
            .iter()
            .any(|c| c.mv == game.parse_move("Nf6").unwrap() && c.excluded == Some(Exclusion::Avoid))
    );
    // {play 50%} gets exactly half.
    let d6 = encode_move(game.parse_move("d6").unwrap());
    book.get_mut(key, d6).unwrap().play_pct = Some(50);
    let candidates = book.explain(game.position(), &crafty);
    let d6c = candidates.iter().find(|c| c.mv == game.parse_move("d6").unwrap()).unwrap();
    assert!((d6c.probability - 0.5).abs() < 1e-9);
    let total: f64 = candidates.iter().map(|c| c.probability).sum();
    assert!((total - 1.0).abs() < 1e-9);
    // book random 0: search among the book moves.
    let search = BookSettings { crafty_random: 0, ..crafty };
    let choice = book.choose(game.position(), &search, &mut StdRng::seed_from_u64(3)).unwrap();
    assert!(choice.search_only);
}

#[test]
fn terra_worked_example_edited_through_the_document() {
    use kibitz_engine::{BookDocument, BookEdit};
    let (game, book) = example();
    let s = settings();
    let pos = game.position().clone();
    let before = book.explain(&pos, &s);
    let mut doc = BookDocument::new(book);
    let mv = |san: &str| game.parse_move(san).unwrap();
    let find = |doc: &BookDocument, san: &str| {
        doc.book().explain(&pos, &s).into_iter().find(|c| c.mv == mv(san)).unwrap()
    };

    // !! on e5: it is always played; every other playable move gives way.
    doc.apply(BookEdit::set_user(&pos, mv("e5"), Some(100))).unwrap();
    assert_eq!(find(&doc, "e5").probability, 1.0);
    assert_eq!(find(&doc, "c5").excluded, Some(Exclusion::NotAlways));
    doc.undo();
    assert_eq!(doc.book().explain(&pos, &s), before, "undo restores every probability");

    // Clearing Nf6's 0 takes it off the avoid list: its learned 0% keeps it out under TerraLim.
    doc.apply(BookEdit::set_user(&pos, mv("Nf6"), None)).unwrap();
    assert_eq!(find(&doc, "Nf6").excluded, Some(Exclusion::LearnedLimit(40.0)));
    // d5 at 75 instead of 15: the user group is 1 - 0.25 * 0.25 and c5 and d5 share it equally.
    doc.apply(BookEdit::set_user(&pos, mv("d5"), Some(75))).unwrap();
    let p_user = 1.0 - 0.25 * 0.25;
    assert!((find(&doc, "d5").probability - p_user / 2.0).abs() < 1e-9);
    assert!((find(&doc, "c5").probability - p_user / 2.0).abs() < 1e-9);
    let total: f64 = doc.book().explain(&pos, &s).iter().map(|c| c.probability).sum();
    assert!((total - 1.0).abs() < 1e-9);
    doc.undo();
    doc.undo();
    assert_eq!(doc.book().explain(&pos, &s), before);
    doc.redo();
    doc.redo();
    assert!((find(&doc, "d5").probability - p_user / 2.0).abs() < 1e-9, "redo applies both again");
}
