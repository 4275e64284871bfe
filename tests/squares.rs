//! Word squares: the pair-token DAWG, the SAT encoding and the dedicated search against
//! brute force, and the `squares` command as a user runs it.

use crate::common::{crossat, root};
use crossat::squares::search::{self, Tuning};
use crossat::squares::{self, Given, Lexicon, Progress, Size, Square};
use crossat::words::Dictionary;
use serde_json::Value;
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
    let model = squares::encode(&Lexicon::new(d, size), size).expect("encode");
    let mut got = BTreeSet::new();
    let outcome = squares::generate(&model, d, seed, usize::MAX, &Progress::default(), |sq| {
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

fn write_dict(name: &str, text: &[u8]) -> String {
    let dir = std::env::temp_dir().join(format!("crossat-squares-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write dict");
    path.display().to_string()
}

fn json_lines(s: &str) -> Vec<Value> {
    s.lines().map(|l| serde_json::from_str(l).expect("JSON line")).collect()
}

const SMALL: &str = "past\nnear\nedge\nneed\npage\nstar\nNEAR\nten\n";

/// JSON rows are 2·W characters with a blank as two spaces, every word is listed, and
/// the summary says the search was exhausted when fewer squares exist than asked for.
#[test]
fn squares_json_output() {
    let path = write_dict("small.txt", SMALL.as_bytes());
    let run = crossat(&["squares", "-W", "3", "-H", "3", "--dict", &path, "--count", "5", "--json"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines = json_lines(&run.stdout);
    assert_eq!(lines.len(), 3);
    let grids: BTreeSet<String> = lines[..2].iter().map(|l| l["grid"].to_string()).collect();
    let expected = [serde_json::json!(["  past", "ne  ar", "edge  "]), serde_json::json!(["  need", "pa  ge", "star  "])];
    assert_eq!(grids, expected.iter().map(Value::to_string).collect());
    for l in &lines[..2] {
        assert_eq!(l["type"], "solution");
        let mut words: Vec<&str> = l["words"].as_array().expect("words").iter().filter_map(Value::as_str).collect();
        words.sort_unstable();
        assert_eq!(words, ["edge", "near", "need", "page", "past", "star"]);
    }
    assert_eq!(lines[2]["type"], "summary");
    assert_eq!(lines[2]["solutions"], 2);
    assert_eq!(lines[2]["complete"], true);
    assert_eq!(lines[2]["dictionary_words"], 7, "uppercase NEAR is skipped without --fold-case");
    assert_eq!(lines[2]["usable_words"], 6, "ten has an odd length");
}

/// The text form draws every cell boundary and lists the words.
#[test]
fn squares_text_output_draws_cell_boundaries() {
    let path = write_dict("small-text.txt", SMALL.as_bytes());
    let run = crossat(&["squares", "--width", "3", "--height", "3", "--dict", &path, "--ascii"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // The dictionary has exactly two squares, each the other's transpose; which one
    // the default seed finds depends on the generator.
    let one = "+--+--+--+\n|  |pa|st|\n+--+--+--+\n|ne|  |ar|\n+--+--+--+\n|ed|ge|  |\n+--+--+--+\nrows:    past near edge\ncolumns: need page star\n";
    let other = "+--+--+--+\n|  |ne|ed|\n+--+--+--+\n|pa|  |ge|\n+--+--+--+\n|st|ar|  |\n+--+--+--+\nrows:    need page star\ncolumns: past near edge\n";
    assert!(run.stdout == one || run.stdout == other, "{}", run.stdout);
    assert!(run.stderr.contains("dictionary:") && run.stderr.contains("(7 words)"), "{}", run.stderr);
}

/// The same seed prints the same squares; different seeds print different ones.
#[test]
fn squares_are_deterministic_per_seed_and_vary_across_seeds() {
    let grid = |seed: &str| {
        let run = crossat(&["squares", "-W", "3", "-H", "3", "--seed", seed, "--json"], None);
        assert_eq!(run.code, 0, "{}", run.stderr);
        json_lines(&run.stdout)[0]["grid"].clone()
    };
    let first: Vec<Value> = ["1", "2", "3"].iter().map(|s| grid(s)).collect();
    assert_eq!(grid("1"), first[0]);
    assert!(first[0] != first[1] || first[1] != first[2], "three seeds gave one square: {first:?}");
    let distinct: BTreeSet<String> = first.iter().map(Value::to_string).collect();
    assert!(distinct.len() >= 2);
}

/// `--count` prints that many different squares, each valid.
#[test]
fn squares_count_gives_different_valid_squares() {
    let run = crossat(&["squares", "-W", "3", "-H", "3", "--count", "4", "--json"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines = json_lines(&run.stdout);
    let grids: BTreeSet<String> = lines.iter().filter(|l| l["type"] == "solution").map(|l| l["grid"].to_string()).collect();
    assert_eq!(grids.len(), 4);
    let summary = lines.last().expect("summary");
    assert_eq!((summary["solutions"].as_u64(), summary["complete"].as_bool()), (Some(4), Some(false)));
    let words: BTreeSet<String> = crossat::words::Dictionary::builtin().words.into_iter().collect();
    for l in lines.iter().filter(|l| l["type"] == "solution") {
        let ws: Vec<&str> = l["words"].as_array().expect("words").iter().filter_map(Value::as_str).collect();
        assert!(ws.iter().all(|w| words.contains(*w)), "{ws:?}");
        assert_eq!(ws.iter().collect::<BTreeSet<_>>().len(), ws.len(), "a repeated word: {ws:?}");
        for row in l["grid"].as_array().expect("grid").iter().filter_map(Value::as_str) {
            assert_eq!(row.len(), 6);
        }
    }
}

/// A long run reports progress on stderr (the delay is shortened to nothing for the
/// test, so that even a fast search is seen).
#[test]
fn squares_report_progress_when_slow() {
    let run = crate::common::crossat_env(&["squares", "-W", "3", "-H", "3"], &[("CROSSAT_PROGRESS_MS", "0")]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("crossat: 3x3 squares: "), "{}", run.stderr);
    let quiet = crate::common::crossat_env(&["squares", "-W", "3", "-H", "3", "--quiet"], &[("CROSSAT_PROGRESS_MS", "1")]);
    assert_eq!(quiet.stderr, "");
}

/// No square: exit 1 and a message saying the search was exhausted.
#[test]
fn squares_without_solution_exit_1() {
    let path = write_dict("none.txt", b"ab\ncd\n");
    let run = crossat(&["squares", "-W", "2", "-H", "2", "--dict", &path], None);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stdout.contains("no 2x2 square exists") && run.stdout.contains("exhausted"), "{}", run.stdout);
}

/// Bad sizes and bad dictionaries: one clear error, exit 2.
#[test]
fn squares_bad_input_exits_2() {
    let empty = write_dict("empty.txt", b"");
    let upper = write_dict("upper.txt", b"ABBA\nZulu\n");
    let binary = write_dict("binary.txt", b"abba\n\xff\xfe\n");
    let missing = root().join("no-such-dictionary.txt").display().to_string();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["-W", "1", "-H", "3"], "--width 1"),
        (vec!["-W", "3", "-H", "0"], "--height 0"),
        (vec!["-W", "11", "-H", "3"], "--width 11"),
        (vec!["--dict", &missing], "no-such-dictionary.txt"),
        (vec!["--dict", &empty], "empty.txt"),
        (vec!["--dict", &upper], "no usable words"),
        (vec!["--dict", &binary], "line 2: not UTF-8"),
        (vec!["--count", "0"], "--count"),
    ];
    for (args, needle) in cases {
        let mut all = vec!["squares"];
        all.extend(args.iter().copied());
        let run = crossat(&all, None);
        assert_eq!(run.code, 2, "{all:?}: {}", run.stderr);
        assert!(run.stderr.contains(needle), "{all:?}: {}", run.stderr);
        assert!(!run.stderr.contains("panicked"), "{all:?}: {}", run.stderr);
        assert_eq!(run.stderr.lines().filter(|l| l.contains("error")).count(), 1, "{all:?}: {}", run.stderr);
    }
}

/// The DIMACS export is the same formula: an external solver's model, read back through
/// the `c cell` comments, is a grid whose rows and columns are dictionary words.
#[test]
fn squares_dimacs_round_trip_through_cadical() {
    let Some(cadical) = crate::dimacs::cadical() else { return };
    let dict_path = write_dict("rt.txt", SMALL.as_bytes());
    let cnf = write_dict("rt.cnf", b"");
    let run = crossat(&["squares", "-W", "3", "-H", "3", "--dict", &dict_path, "--dimacs", &cnf], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = std::fs::read_to_string(&cnf).expect("cnf");
    let out = std::process::Command::new(cadical).arg(&cnf).output().expect("cadical");
    let model: BTreeSet<i64> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.starts_with("v "))
        .flat_map(|l| l[2..].split_whitespace().map(|t| t.parse::<i64>().expect("literal")).collect::<Vec<_>>())
        .filter(|&l| l > 0)
        .collect();
    let mut grid = vec![vec!["??".to_string(); 3]; 3];
    for line in text.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        match f.as_slice() {
            ["c", "blank", v, r, c] if model.contains(&v.parse::<i64>().expect("var")) => {
                grid[r.parse::<usize>().expect("row")][c.parse::<usize>().expect("col")] = "  ".into();
            }
            ["c", "cell", v, r, c, p] if model.contains(&v.parse::<i64>().expect("var")) => {
                grid[r.parse::<usize>().expect("row")][c.parse::<usize>().expect("col")] = p.trim_matches('"').into();
            }
            _ => {}
        }
    }
    // The export has no no-repeat clauses (they are added lazily while solving), so the
    // external model may repeat a word; everything else must hold.
    let size = Size::new(3, 3).expect("size");
    let cells = grid.iter().flatten().map(|p| (p != "  ").then(|| [p.as_bytes()[0], p.as_bytes()[1]])).collect();
    let sq = Square { size, cells };
    let d = dict(&SMALL.lines().collect::<Vec<_>>());
    match squares::verify(&sq, &d) {
        Ok(()) => {}
        Err(e) => assert!(e.contains(" is both "), "{e}\n{}", sq.draw()),
    }
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

/// The squares a run printed, each checked against the rules and the dictionary.
fn printed_squares(stdout: &str, size: Size, d: &Dictionary) -> Vec<Vec<String>> {
    json_lines(stdout)
        .iter()
        .filter(|l| l["type"] == "solution")
        .map(|l| {
            let rows: Vec<String> = l["grid"].as_array().expect("grid").iter().map(|r| r.as_str().expect("row").to_string()).collect();
            let sq = square_of(size, &rows);
            squares::verify(&sq, d).unwrap_or_else(|e| panic!("a printed square breaks the rules: {e}\n{}", sq.draw()));
            rows
        })
        .collect()
}

const DOCTEST: &str = "past\nnear\nedge\nneed\npage\nstar\n";

/// Without `star` the doctest words have no 3×3 square (both of its squares use all
/// six words): the search says it exhausted the space, and SAT proves it.
#[test]
fn a_dictionary_without_squares_is_proven_empty() {
    let path = write_dict("nosquare.txt", b"past\nnear\nedge\nneed\npage\n");
    let d = dict(&["past", "near", "edge", "need", "page"]);
    assert!(brute_force(&d, Size::new(3, 3).expect("size")).is_empty());
    let run = crossat(&["squares", "-W", "3", "-H", "3", "--dict", &path, "--prove-none"], None);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stdout.contains("no 3x3 square exists") && run.stdout.contains("proven by the SAT solver"), "{}", run.stdout);
    let run = crossat(&["squares", "-W", "3", "-H", "3", "--dict", &path], None);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stdout.contains("no 3x3 square exists") && run.stdout.contains("exhausted"), "{}", run.stdout);
}

/// The doctest words make exactly two 3×3 squares (one and its transpose): both
/// methods print both and say the search is exhausted; `--prove-none` prints one.
#[test]
fn exactly_two_squares_by_both_methods() {
    let path = write_dict("two.txt", DOCTEST.as_bytes());
    let d = dict(&DOCTEST.lines().collect::<Vec<_>>());
    let size = Size::new(3, 3).expect("size");
    let expected = brute_force(&d, size);
    assert_eq!(expected.len(), 2);
    for method in ["search", "sat"] {
        let run = crossat(&["squares", "-W", "3", "-H", "3", "--dict", &path, "--count", "5", "--json", "--method", method], None);
        assert_eq!(run.code, 0, "{method}: {}", run.stderr);
        let got: BTreeSet<Vec<String>> = printed_squares(&run.stdout, size, &d).into_iter().collect();
        assert_eq!(got, expected, "{method}");
        let summary = json_lines(&run.stdout).pop().expect("summary");
        assert_eq!((summary["solutions"].as_u64(), summary["complete"].as_bool()), (Some(2), Some(true)), "{method}");
        assert_eq!(summary["method"], method);
    }
    let run = crossat(&["squares", "-W", "3", "-H", "3", "--dict", &path, "--prove-none", "--json"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(expected.contains(&printed_squares(&run.stdout, size, &d)[0]));
}

/// Larger squares from the built-in list: every printed square passes the rule check,
/// a seed always gives the same square, and seeds differ.
#[test]
fn searched_squares_are_valid_and_repeatable_per_seed() {
    let size = Size::new(5, 4).expect("size");
    let d = Dictionary::builtin();
    let grid = |seed: &str| {
        let run = crossat(&["squares", "-W", "5", "-H", "4", "--seed", seed, "--json", "--count", "2"], None);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let squares = printed_squares(&run.stdout, size, &d);
        assert_eq!(squares.len(), 2);
        assert_ne!(squares[0], squares[1]);
        squares
    };
    let seeds: Vec<Vec<Vec<String>>> = ["1", "2", "3"].iter().map(|s| grid(s)).collect();
    assert_eq!(grid("1"), seeds[0]);
    assert_eq!(grid("3"), seeds[2]);
    let firsts: BTreeSet<&Vec<String>> = seeds.iter().map(|s| &s[0]).collect();
    assert!(firsts.len() >= 2, "three seeds gave one square: {seeds:?}");
}

/// How a line keeps its live transitions — always as a subset of the table it filtered,
/// always as a copy, or the default mix — changes neither the squares found nor the
/// search's path: the same squares in the same order after the same number of nodes,
/// on squares from the built-in list large enough for many passes of each kind.
#[test]
fn subsets_and_copies_of_live_transitions_search_alike() {
    let d = Dictionary::builtin();
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

/// `--given` fixes cells: the printed square keeps them, under both methods; cells
/// that no square completes give exit 1 (proven by SAT with `--prove-none`).
#[test]
fn given_cells_are_respected() {
    let path = write_dict("given.txt", DOCTEST.as_bytes());
    let d = dict(&DOCTEST.lines().collect::<Vec<_>>());
    let size = Size::new(3, 3).expect("size");
    // Fixing `st` in the bottom-left cell leaves only the transpose of the doctest square.
    let given = write_dict("given-grid.txt", b"# a setter's partial grid\n?  ?  ?\n?  -  ?\nst ?  ?\n");
    for method in ["search", "sat"] {
        let run = crossat(
            &["squares", "-W", "3", "-H", "3", "--dict", &path, "--given", &given, "--count", "3", "--json", "--method", method],
            None,
        );
        assert_eq!(run.code, 0, "{method}: {}", run.stderr);
        let got = printed_squares(&run.stdout, size, &d);
        assert_eq!(got, vec![vec!["  need".to_string(), "pa  ge".into(), "star  ".into()]], "{method}");
        let summary = json_lines(&run.stdout).pop().expect("summary");
        assert_eq!((summary["complete"].as_bool(), summary["given_cells"].as_u64()), (Some(true), Some(2)));
    }
    let blocked = write_dict("given-blocked.txt", b"pa ? ?\n? ? ?\n? ? ?\n");
    for extra in [&[][..], &["--prove-none"][..]] {
        let mut args = vec!["squares", "-W", "3", "-H", "3", "--dict", &path, "--given", &blocked];
        args.extend(extra);
        let run = crossat(&args, None);
        assert_eq!(run.code, 1, "{args:?}: {}", run.stderr);
        assert!(run.stdout.contains("no completion of the given cells"), "{}", run.stdout);
    }
}

/// A progress line goes to stderr only when it is a terminal: piped, a run is silent
/// (beyond the dictionary line); the test hook forces it, `--quiet` silences it.
#[test]
fn squares_progress_only_on_a_terminal() {
    let run = crossat(&["squares", "-W", "4", "-H", "4"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!run.stderr.contains("squares:"), "{}", run.stderr);
    let forced = crate::common::crossat_env(&["squares", "-W", "4", "-H", "4"], &[("CROSSAT_PROGRESS_MS", "1")]);
    assert!(forced.stderr.contains("crossat: 4x4 squares: "), "{}", forced.stderr);
}

/// Bad partial grids: one clear error, exit 2.
#[test]
fn squares_bad_given_exits_2() {
    let cases: [(&[u8], &str); 5] = [
        (b"ab ? ?\n? ? ?\n", "2 rows"),
        (b"ab ? ?\n? ? ?\n? ? ?\n? ? ?\n", "more than 3 rows"),
        (b"ab ? \n? ? ?\n? ? ?\n", "line 1: 2 cells"),
        (b"AB ? ?\n? ? ?\n? ? ?\n", "`AB` is not a cell"),
        (b"ab ? ?\n? \xff ?\n? ? ?\n", "invalid UTF-8"),
    ];
    for (i, (text, needle)) in cases.iter().enumerate() {
        let path = write_dict(&format!("bad-given-{i}.txt"), text);
        let run = crossat(&["squares", "-W", "3", "-H", "3", "--given", &path], None);
        assert_eq!(run.code, 2, "{needle}: {}", run.stderr);
        assert!(run.stderr.contains(needle), "{needle}: {}", run.stderr);
        assert_eq!(run.stderr.lines().filter(|l| l.contains("error")).count(), 1, "{}", run.stderr);
    }
}
