//! Word squares, white-box: the pair-token DAWG, the SAT encoding and the dedicated
//! search against brute force over every placement of the dictionary's words, checked
//! by the rule check (`verify`). The `squares` command is tested as a user runs it in
//! tests/squares.rs.

use super::search::{self, Tuning};
use super::{Given, Lexicon, Progress, Size, Square};
use crate::puzzle::Dictionary;
use crate::squares;
use std::collections::BTreeSet;

fn dict(words: &[&str]) -> Dictionary {
    Dictionary { source: "test".into(), words: words.iter().map(|w| w.to_string()).collect() }
}

/// A small random generator for test data.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) as usize % n
    }
}

fn all_strings(letters: &[u8], max: usize) -> Vec<String> {
    let mut all = vec![String::new()];
    let mut layer = vec![String::new()];
    for _ in 0..max {
        layer = layer.iter().flat_map(|w| letters.iter().map(move |&c| format!("{w}{}", c as char))).collect();
        all.extend(layer.iter().cloned());
    }
    all
}

/// The layered pair DAWG of a line accepts exactly the dictionary words whose length
/// fits the line: every string over the letters up to 8 long is checked.
#[test]
fn the_pair_dawg_accepts_exactly_the_words_that_fit() {
    let mut rng = Lcg(7);
    let strings = all_strings(b"abc", 8);
    for round in 0..40 {
        let words: Vec<&str> = (0..1 + rng.below(30)).map(|_| strings[rng.below(strings.len())].as_str()).collect();
        let d = dict(&words);
        let n = 3 + round % 3; // 3, 4 or 5 cells
        let lex = Lexicon::new(&d, Size::new(n, 2).expect("size"));
        let line = lex.lines.iter().find(|l| l.cells == n).expect("line");
        let range = squares::filled_range(n);
        for s in &strings {
            let fits = s.len().is_multiple_of(2) && range.contains(&(s.len() / 2));
            assert_eq!(line.accepts(s), fits && d.words.contains(s), "n={n} words={words:?} s={s:?}");
        }
        assert_eq!(line.words, d.words.iter().filter(|w| w.len().is_multiple_of(2) && range.contains(&(w.len() / 2))).count());
    }
}

/// Every way to fill a line of `n` cells: a fitting word with blanks placed anywhere.
fn placements(d: &Dictionary, n: usize) -> Vec<Vec<Option<[u8; 2]>>> {
    let range = squares::filled_range(n);
    let mut out = Vec::new();
    for w in d.words.iter().filter(|w| w.len().is_multiple_of(2) && range.contains(&(w.len() / 2))) {
        let pairs: Vec<[u8; 2]> = w.as_bytes().chunks(2).map(|p| [p[0], p[1]]).collect();
        for mask in 0u32..1 << n {
            if mask.count_ones() as usize == pairs.len() {
                let mut it = pairs.iter();
                out.push((0..n).map(|i| if mask >> i & 1 == 1 { it.next().copied() } else { None }).collect());
            }
        }
    }
    out
}

/// Every valid square, by brute force over rows (independent of the encoding).
fn brute_force(d: &Dictionary, size: Size) -> BTreeSet<Vec<String>> {
    let rows = placements(d, size.width);
    let mut found = BTreeSet::new();
    let mut pick = vec![0usize; size.height];
    if rows.is_empty() {
        return found;
    }
    loop {
        let cells: Vec<Option<[u8; 2]>> = pick.iter().flat_map(|&r| rows[r].iter().copied()).collect();
        let sq = Square { size, cells };
        if squares::verify(&sq, d).is_ok() {
            let _ = found.insert(sq.rows());
        }
        let mut i = 0;
        while i < pick.len() {
            pick[i] += 1;
            if pick[i] < rows.len() {
                break;
            }
            pick[i] = 0;
            i += 1;
        }
        if i == pick.len() {
            return found;
        }
    }
}

/// Every square the dedicated search finds with no limit, and how it ended.
fn all_searched(d: &Dictionary, size: Size, given: &Given, seed: u64, tuning: Tuning) -> (BTreeSet<Vec<String>>, squares::Outcome) {
    let mut got = BTreeSet::new();
    let outcome = search::search(&Lexicon::new(d, size), size, d, given, seed, usize::MAX, tuning, 1, &Progress::default(), |sq| {
        squares::verify(sq, d).expect("every square passes the rule check");
        assert!(given.admits(sq), "a given cell was ignored:\n{}", sq.draw());
        assert!(got.insert(sq.rows()), "square printed twice");
        Ok(())
    })
    .expect("search");
    (got, outcome)
}

fn all_squares(d: &Dictionary, size: Size, seed: u64) -> (BTreeSet<Vec<String>>, squares::Outcome) {
    let model = squares::sat::encode(&Lexicon::new(d, size), size).expect("encode");
    let mut got = BTreeSet::new();
    let outcome = squares::sat::generate(&model, d, seed, usize::MAX, &Progress::default(), |sq| {
        assert!(got.insert(sq.rows()), "square printed twice");
        Ok(())
    })
    .expect("generate");
    (got, outcome)
}

/// The whole encoding — counters, fill rules, channels, DAWG runs, lazily blocked
/// repeats — gives exactly the squares brute force finds, on random small dictionaries
/// over two letters (so lines cross often), for every size up to 3×4 and 4×3.
#[test]
fn generated_squares_are_exactly_the_brute_force_squares() {
    let mut rng = Lcg(99);
    let strings = all_strings(b"ab", 6);
    let (mut nonempty, mut total) = (0, 0);
    for round in 0..36 {
        let (w, h) = [(2, 2), (2, 3), (3, 2), (3, 3), (3, 4), (4, 3)][round % 6];
        let size = Size::new(w, h).expect("size");
        let fits = |s: &String| s.len().is_multiple_of(2) && [w, h].iter().any(|&n| squares::filled_range(n).contains(&(s.len() / 2)));
        let pool: Vec<&str> = strings.iter().filter(|s| fits(s)).map(String::as_str).collect();
        let many = if w * h == 12 { 20 } else { 8 };
        let words: Vec<&str> = (0..many + rng.below(12)).map(|_| pool[rng.below(pool.len())]).collect();
        let d = dict(&words);
        let expected = brute_force(&d, size);
        let (got, outcome) = all_squares(&d, size, round as u64);
        assert!(outcome.complete);
        assert_eq!(got, expected, "{w}x{h} words={words:?}");
        // The search finds the same squares and knows it has exhausted the space, by
        // default, with cells taken row by row, with every narrowing waking the line
        // across (full arc consistency) or only singletons waking it, and with uniform
        // value order and a restart after every dead end (so exhaustion is only reached
        // once a Luby cutoff outgrows the tree).
        for tuning in [
            Tuning::default(),
            Tuning { fewest_first: false, ..Tuning::default() },
            Tuning { wake: u32::MAX, ..Tuning::default() },
            Tuning { wake: 1, fewest_first: false, ..Tuning::default() },
            Tuning { restart_base: 1, greed: 0.0, ..Tuning::default() },
            Tuning { subset_share: 0, ..Tuning::default() },
            Tuning { subset_share: 1, wake: u32::MAX, ..Tuning::default() },
        ] {
            let (searched, outcome) = all_searched(&d, size, &Given::none(size), round as u64, tuning);
            assert!(outcome.complete, "{tuning:?}");
            assert_eq!(searched, expected, "search {tuning:?} {w}x{h} words={words:?}");
        }
        nonempty += usize::from(!expected.is_empty());
        total += expected.len();
    }
    // 2×2, 2×3 and 3×2 never have squares (repeats; fill counts that cannot add up).
    assert!(nonempty >= 6, "too few dictionaries with squares: {nonempty}");
    assert!(total >= 100, "too few squares: {total}");
}

/// The author's own doctest: these six words make a 3×3 square; it and its transpose
/// are the only ones.
#[test]
fn the_seed_example_square_is_found_and_is_the_only_one() {
    let d = dict(&["past", "near", "edge", "need", "page", "star"]);
    let (got, outcome) = all_squares(&d, Size::new(3, 3).expect("size"), 1);
    assert!(outcome.complete);
    let rows = |r: [&str; 3]| r.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(got, BTreeSet::from([rows(["  past", "ne  ar", "edge  "]), rows(["  need", "pa  ge", "star  "])]));
}

/// A 2×2 square always repeats its words (each filled cell is a whole row and column),
/// so none exists; every candidate is blocked lazily and the search ends.
#[test]
fn two_by_two_squares_never_exist() {
    let (got, outcome) = all_squares(&dict(&["ab", "cd", "ef", "gh"]), Size::new(2, 2).expect("size"), 3);
    assert!(got.is_empty() && outcome.complete);
    assert!(outcome.repeats_blocked > 0);
}

/// The search with given cells finds exactly the brute-force squares that agree with
/// them: random dictionaries, random cells of a random brute-force square fixed.
#[test]
fn searched_squares_respect_given_cells() {
    let mut rng = Lcg(5);
    let strings = all_strings(b"ab", 6);
    let mut checked = 0;
    for round in 0..30 {
        let (w, h) = [(3, 3), (3, 3), (3, 4)][round % 3];
        let size = Size::new(w, h).expect("size");
        let fits = |s: &String| s.len().is_multiple_of(2) && [w, h].iter().any(|&n| squares::filled_range(n).contains(&(s.len() / 2)));
        let pool: Vec<&str> = strings.iter().filter(|s| fits(s)).map(String::as_str).collect();
        let many = if w * h == 12 { 12 } else { 10 };
        let words: Vec<&str> = (0..many + rng.below(8)).map(|_| pool[rng.below(pool.len())]).collect();
        let d = dict(&words);
        let all: Vec<Vec<String>> = brute_force(&d, size).into_iter().collect();
        let Some(pick) = all.get(rng.below(all.len().max(1))) else { continue };
        let sq = square_of(size, pick);
        let mut given = Given::none(size);
        for (i, c) in sq.cells.iter().enumerate() {
            if rng.below(3) == 0 {
                given.cells[i] = Some(squares::cell_of(*c));
            }
        }
        let expected: BTreeSet<Vec<String>> = all.iter().filter(|rows| given.admits(&square_of(size, rows))).cloned().collect();
        assert!(expected.contains(pick));
        let (got, outcome) = all_searched(&d, size, &given, round as u64, Tuning::default());
        assert!(outcome.complete);
        assert_eq!(got, expected, "{w}x{h} words={words:?} given={given:?}");
        checked += 1;
    }
    assert!(checked >= 10, "too few dictionaries with squares: {checked}");
}

/// A square from its JSON rows (2·W characters, a blank as two spaces).
fn square_of(size: Size, rows: &[String]) -> Square {
    let cells = rows.iter().flat_map(|r| r.as_bytes().chunks(2).map(|p| (p != b"  ").then(|| [p[0], p[1]])).collect::<Vec<_>>()).collect();
    Square { size, cells }
}

/// How a line keeps its live transitions — always as a subset of the table it filtered,
/// always as a copy, or the default mix — changes neither the squares found nor the
/// search's path: the same squares in the same order after the same number of nodes,
/// on squares from the built-in list large enough for many passes of each kind.
#[test]
fn subsets_and_copies_of_live_transitions_search_alike() {
    let d = Dictionary::default();
    for (w, h, seed) in [(5, 5, 1), (5, 4, 2), (6, 5, 3)] {
        let size = Size::new(w, h).expect("size");
        let lex = Lexicon::new(&d, size);
        let run = |subset_share: usize, jobs: usize| {
            let mut got = Vec::new();
            let tuning = Tuning { subset_share, ..Tuning::default() };
            let outcome = search::search(&lex, size, &d, &Given::none(size), seed, 3, tuning, jobs, &Progress::default(), |sq| {
                squares::verify(sq, &d).expect("every square passes the rule check");
                got.push(sq.rows());
                Ok(())
            })
            .expect("search");
            (got, outcome.nodes, outcome.restarts)
        };
        let default = run(Tuning::default().subset_share, 1);
        assert_eq!(default.0.len(), 3, "{w}x{h}");
        assert!(default.1 > 20, "{w}x{h}: too few nodes to compare: {}", default.1);
        for (share, jobs) in [(0, 1), (1, 2), (4, 3)] {
            assert_eq!(run(share, jobs), default, "{w}x{h} subset_share {share} --jobs {jobs}");
        }
    }
}
