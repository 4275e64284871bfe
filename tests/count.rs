//! Exact counting (`solve::count`): the count equals the length of the listing, a
//! brute force by Python's `re`, and the sum over one cell's letters.

use crate::common::{arg, input_file, puzzle, root};
use crossat::compile::{self, Options};
use crossat::pipeline::{self, Prepared};
use crossat::propagate::{self as encode, SymSet};
use crossat::solve::count::{self, Big};

/// The count of a prepared puzzle.
fn count_of(prep: &Prepared) -> Big {
    count::count_prepared(prep).expect("count").count
}

/// The count of a puzzle compiled by the caller (with its routes forced, say).
fn count_with(puzzle: &crossat::puzzle::Puzzle, compiled: &crossat::compile::Compiled, verifier: &crossat::verify::Verifier) -> Big {
    let prep = (puzzle, compiled);
    let chars = compiled.alphabet.chars();
    let refine = |i, _: &[SymSet], s: &[SymSet]| {
        crossat::solve::odometer::exact_support(compiled, verifier, i, s, crossat::solve::odometer::EXACT_WORDS)
    };
    let Some(doms) = encode::domains_with(prep.0, prep.1, refine) else { return Big::zero() };
    let lines = encode::Propagator::new(prep.0);
    let matches = |i: usize, w: &[usize]| verifier.clue_matches(i, &w.iter().map(|&a| chars[a]).collect::<String>());
    count::count(&lines, compiled, &doms, refine, matches).expect("count").count
}

fn binoternary() -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(root().join("puzzles/binoternary")).expect("dir").map(|e| e.expect("entry").path()).collect();
    files.retain(|f| f.extension().is_some_and(|e| e == "json") && !f.to_string_lossy().contains("_solution"));
    files.sort();
    files
}

#[test]
fn counts_equal_the_length_of_the_listing_on_the_bundled_puzzles() {
    let mut files = Vec::new();
    crate::common::puzzle_files(&root().join("puzzles"), &mut files);
    let (mut compared, mut several, mut searched_too_long) = (0, Vec::new(), Vec::<String>::new());
    for file in files {
        // Collections (which need an id) and unsupported puzzles.
        let Ok(mut prep) = pipeline::prepare(&input_file(&file, None)) else { continue };
        // Listings of up to 10^5 grids where a cheap count says so, of up to 2,500
        // otherwise; puzzles with more are compared elsewhere (partitions, Ganak).
        let cheap = if prep.puzzle.pool.is_none() { count::count_prepared_within(&prep, 20_000).ok().flatten() } else { None };
        let limit = cheap.and_then(|c| c.count.to_u64()).filter(|&n| n <= 100_000).map_or(2501, |n| n as usize + 1);
        let Ok(outcome) = pipeline::solve(&mut prep, Some(limit), |_, _| Ok(())) else { continue };
        if !outcome.complete {
            continue;
        }
        let name = file.display();
        let counted = pipeline::count(&mut prep).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(counted.count, Big::from(outcome.found), "{name}");
        // The counting search itself, also where propagation decided the puzzle or
        // the count above listed (a regex pool is only counted by listing).
        if prep.puzzle.pool.is_none() {
            match count::count_prepared_within(&prep, 200_000).unwrap_or_else(|e| panic!("{name}: {e}")) {
                Some(c) => assert_eq!(c.count, Big::from(outcome.found), "{name}: the counting search"),
                None => searched_too_long.push(name.to_string()),
            }
        }
        compared += 1;
        if outcome.found > 1 {
            several.push((file.file_name().map(|n| n.to_string_lossy().into_owned()), outcome.found));
        }
    }
    eprintln!(
        "count = listing on {compared} bundled puzzles; with several solutions: {several:?}; counting search past 200,000 nodes: {searched_too_long:?}"
    );
    assert!(compared > 100 && several.len() >= 2, "too few compared: {compared}, {several:?}");
    // The counting search settles all but a few (back-references it cannot narrow).
    assert!(searched_too_long.len() * 20 < compared, "the counting search gave up on {searched_too_long:?}");
}

/// Generated puzzles: unique as made, then with clues replaced by `.*` (every third,
/// every second, three of every four), which gives anything from a few to
/// astronomically many grids.
pub(crate) fn generated() -> Vec<(String, Prepared)> {
    let mut out = Vec::new();
    for seed in 0..20u64 {
        let shape = match seed % 4 {
            0 => crossat::puzzle::Shape::Rect { rows: 4, cols: 4 },
            1 => crossat::puzzle::Shape::Rect { rows: 5, cols: 6 },
            2 => crossat::puzzle::Shape::Hex(crossat::puzzle::hex::Sides::regular(3)),
            _ => crossat::puzzle::Shape::Rect { rows: 3, cols: 7 },
        };
        let spec = crossat::generate::Spec {
            shape,
            sides: 1 + (seed % 2) as usize,
            text: None,
            backrefs: seed % 3 == 1,
            lookarounds: false,
            difficulty: None,
            seed,
        };
        let made = crossat::generate::generate(&spec).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        // (name, m, loosened when k % m == 0 or, with `false`, when it is not)
        let variants = [
            ("as made", 1, false),
            ("every third clue .*", 3, true),
            ("every second clue .*", 2, true),
            ("three clues of four .*", 4, false),
        ];
        for (what, m, on_zero) in variants {
            let mut puzzle = made.puzzle.clone();
            for (k, clue) in puzzle.clues.iter_mut().enumerate() {
                if (k + seed as usize).is_multiple_of(m) == on_zero {
                    clue.regex = ".*".into();
                }
            }
            let name = format!("seed {seed}, {what}");
            let prep = pipeline::prepare_puzzle("<generated>", puzzle, None, crossat::stats::Times::default())
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            out.push((name, prep));
        }
    }
    out
}

#[test]
fn counts_equal_the_length_of_the_listing_on_generated_puzzles() {
    let (mut compared, mut several, mut larger) = (0, Vec::new(), 0);
    for (name, mut prep) in generated() {
        let counted = pipeline::count(&mut prep).unwrap_or_else(|e| panic!("{name}: {e}"));
        // Listings of at most 10^5 grids.
        if counted.count > Big::from(100_000u64) {
            larger += 1;
            continue;
        }
        let outcome = pipeline::solve(&mut prep, None, |_, _| Ok(())).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(outcome.complete, "{name}");
        assert_eq!(counted.count, Big::from(outcome.found), "{name}: count and listing differ");
        compared += 1;
        if outcome.found > 1 {
            several.push(outcome.found);
        }
    }
    eprintln!("count = listing on {compared} generated puzzles; several solutions: {several:?}; more than 10^5: {larger}");
    assert!(compared >= 40 && several.len() >= 15, "too few compared: {compared}, {several:?}");
}

#[test]
fn sheep_counts_its_recorded_solutions() {
    let mut sheep = pipeline::prepare(&input_file(&puzzle("antoine-trux/player_puzzle_sheep.input.txt"), None)).expect("prepare");
    let counted = pipeline::count(&mut sheep).expect("count");
    assert_eq!((counted.count.to_string(), counted.listed), (crate::common::sheep_solutions().to_string(), false));
}

/// The 2×20 grid whose rows must hold an A and a B, every column free: each row is
/// one of 2^20 − 1 words, independently.
fn two_rows(cols: usize) -> String {
    serde_json::json!({"left": ["[AB]*A[AB]*", "[AB]*B[AB]*"], "top": vec!["[AB][AB]"; cols]}).to_string()
}

/// The count with cell `cell` given each letter of the alphabet in turn, summed.
fn partition_sum(text: &str, source: &str, cell: usize) -> (Big, Big) {
    let whole = pipeline::prepare(&pipeline::Input { source: source.into(), bytes: text.as_bytes().to_vec(), ..Default::default() })
        .expect("prepare");
    let total = count_of(&whole);
    let shape = &whole.puzzle.shape;
    let mut sum = Big::zero();
    for &letter in whole.alphabet().chars() {
        let given: Vec<Vec<Option<char>>> =
            shape.display_rows().iter().map(|row| row.iter().map(|&c| (c == cell).then_some(letter)).collect()).collect();
        let input = pipeline::Input { source: source.into(), bytes: text.as_bytes().to_vec(), given: Some(given), ..Default::default() };
        let prep = pipeline::prepare(&input).expect("prepare with a given");
        sum.add_assign(&count_of(&prep));
    }
    (total, sum)
}

#[test]
fn counts_of_the_two_rows_puzzle_are_products_and_partition_over_a_cell() {
    let text = two_rows(20);
    let prep = pipeline::prepare(&pipeline::Input { source: "2x20".into(), bytes: text.clone().into_bytes(), ..Default::default() })
        .expect("prepare");
    let row = (1u64 << 20) - 1;
    assert_eq!(count_of(&prep), Big::from(row * row));
    let wide = two_rows(64);
    let prep = pipeline::prepare(&pipeline::Input { source: "2x64".into(), bytes: wide.clone().into_bytes(), ..Default::default() })
        .expect("prepare");
    let row = Big::from(u64::MAX);
    assert_eq!(count_of(&prep), row.mul(&row));
    for cell in [0, 7, 63, 64 + 5] {
        let (total, sum) = partition_sum(&wide, "2x64", cell);
        assert_eq!(total, sum, "cell {cell}");
    }
}

/// The counts of the binoternary hexagons (10^55 to 10^89 grids; four of them beyond
/// the branching search, counted by the frontier sweep), pinned to Ganak 2.8's counts
/// of crossat's DIMACS export (448, 26, 41 and 53 s of CPU for the four; see ganak.rs
/// for the run that repeats them).
const HEXAGON_COUNTS: [(&str, &str); 11] = [
    ("1389923839891520", "16285115205727910372096110105618829671507719735119172577776193097643859042461894574080"),
    ("1389924189214500", "50850167323811279115591642857741264074913611776000000000000000000000"),
    ("1389924189506517", "10864810504226500802562934326747992427552590266368000000000000000000000000000"),
    ("1389924189788533", "49748163719374948641844877345314412142826349455283380723928879301918720"),
    ("1389924190075550", "515054001663856512749386224721510256712169076865884678985909628486401008861184"),
    ("1389924190358566", "1014790018536878283167105054607687776981620033522237440"),
    ("1389924190671584", "6937956518440461910166619208399929028307697777043162932761424807591936000"),
    ("1389924191034605", "23468371255018978357013301079969625744944652049840987911822864547840"),
    ("1389924191386625", "778996024795901122489465613851717863915820237420915180168764881662783185181339671230152704"),
    ("1389924191714643", "3033916381142556474504270902237969571481328476164875740148138067886080"),
    ("1389924192029662", "16138786242941881564571494851053015134348164396464992525541483463604961280"),
];

/// Every binoternary hexagon's count is the sum of its counts with a corner cell given
/// each letter of the alphabet, for two opposite corners (the first and last cells),
/// each count of a puzzle with a given prepared anew (its domains propagated again).
#[test]
fn counts_partition_over_two_far_cells_on_every_binoternary_hexagon() {
    let files = binoternary();
    assert_eq!(files.len(), HEXAGON_COUNTS.len());
    for (file, (name, expected)) in files.iter().zip(HEXAGON_COUNTS) {
        assert!(file.ends_with(format!("{name}.json")), "{}", file.display());
        let text = std::fs::read_to_string(file).expect("read");
        let prep = pipeline::prepare(&input_file(file, None)).expect("prepare");
        let last = prep.puzzle.givens.len() - 1;
        for cell in [0, last] {
            let (total, sum) = partition_sum(&text, name, cell);
            assert_eq!(total.to_string(), expected, "{name}");
            assert_eq!(total, sum, "{name}, cell {cell}");
        }
    }
}

/// `solve --count` on the command line gives every hexagon's count, the same on one
/// thread and on two.
#[test]
fn hexagon_counts_on_the_command_line_do_not_depend_on_the_jobs() {
    for (file, (name, expected)) in binoternary().iter().zip(HEXAGON_COUNTS) {
        for jobs in ["1", "2"] {
            let run = crate::common::crossat(&["solve", "--count", "--jobs", jobs, arg(file)], None);
            assert_eq!(
                (run.code, run.stdout.as_str()),
                (0, format!("{expected} solutions (exact count)\n").as_str()),
                "{name} --jobs {jobs}"
            );
        }
    }
}

#[test]
fn limit_3_lists_three_grids_of_every_binoternary_hexagon() {
    for file in binoternary() {
        let run = crate::common::crossat(&["solve", "--limit", "3", "--json", "--timeout", "20", arg(&file)], None);
        assert_eq!(run.code, 0, "{}: {}", file.display(), run.stderr);
        assert_eq!(run.stdout.lines().filter(|l| l.starts_with(r#"{"type":"solution""#)).count(), 3, "{}", file.display());
    }
}

#[test]
fn count_on_the_command_line_and_a_stopped_count() {
    let sheep = puzzle("antoine-trux/player_puzzle_sheep.input.txt");
    let run = crate::common::crossat(&["solve", "--count", arg(&sheep)], None);
    let want = format!("{} solutions (exact count)\n", crate::common::sheep_solutions());
    assert_eq!((run.code, run.stdout.as_str()), (0, want.as_str()));
    // A count too hard for a tenth of a second ends with no number: a 12×12 grid of
    // A and B whose every row and column holds a multiple of five As (the frontier
    // sweep's table would need 5^12 entries; the branching search takes minutes).
    let dir = crate::common::tmp();
    let five = "(?:B*AB*AB*AB*AB*A)*B*";
    let text = serde_json::json!({"left": vec![five; 12], "top": vec![five; 12], "alphabet": "AB"}).to_string();
    let hard = crate::common::write_file(dir.path(), "fives.json", text);
    let run = crate::common::crossat(&["solve", "--count", "--json", "--timeout", "0.1", arg(&hard)], None);
    assert_eq!(run.code, 4, "{}", run.stderr);
    let summary: serde_json::Value = serde_json::from_str(run.stdout.trim()).expect("JSON");
    assert_eq!((summary["complete"].clone(), summary["count"].clone()), (serde_json::json!(false), serde_json::Value::Null));
    let run = crate::common::crossat(&["solve", "--count", "--all", arg(&sheep)], None);
    assert_eq!(run.code, 2);
}

/// A random clue over `alphabet`: letters, classes, groups with alternatives,
/// quantifiers, back-references and lookarounds.
struct Gen<'a> {
    rng: crossat::rng::Rng,
    alphabet: &'a [char],
    groups: usize,
    closed: Vec<usize>,
}

impl Gen<'_> {
    fn atom(&mut self, depth: usize) -> String {
        let a = self.alphabet;
        match self.rng.below(if depth == 0 { 4 } else { 9 }) {
            0 => self.rng.pick(a).to_string(),
            1 | 2 => ".".into(),
            3 => {
                let neg = if self.rng.chance(0.3) { "^" } else { "" };
                let k = 1 + self.rng.below(a.len());
                let set: String = (0..k).map(|_| *self.rng.pick(a)).collect();
                format!("[{neg}{set}]")
            }
            4 | 5 => {
                self.groups += 1;
                let g = self.groups;
                let alts = 1 + self.rng.below(2);
                let body: Vec<String> = (0..alts).map(|_| self.seq(depth - 1)).collect();
                self.closed.push(g);
                format!("({})", body.join("|"))
            }
            6 if !self.closed.is_empty() => format!("\\{}", self.rng.pick(&self.closed)),
            6 | 7 => {
                let kind = *self.rng.pick(&["?=", "?!"]);
                format!("({kind}{})", self.seq(depth - 1))
            }
            _ => {
                let kind = *self.rng.pick(&["?<=", "?<!"]);
                format!("({kind}{})", self.rng.pick(a))
            }
        }
    }

    fn seq(&mut self, depth: usize) -> String {
        let n = 1 + self.rng.below(2);
        (0..n)
            .map(|_| {
                let atom = self.atom(depth);
                let q = if atom.starts_with("(?") { "" } else { *self.rng.pick(&["", "", "*", "*", "+", "?", "{0,2}", "*?"]) };
                format!("{atom}{q}")
            })
            .collect()
    }

    fn clue(&mut self) -> String {
        self.groups = 0;
        self.closed.clear();
        let alts = 1 + usize::from(self.rng.chance(0.3));
        // Loose ends often, so that many grids have several solutions.
        let ends = *self.rng.pick(&[("", ""), (".*", ""), ("", ".*"), (".*", ".*")]);
        let body = (0..alts).map(|_| self.seq(2)).collect::<Vec<_>>().join("|");
        if alts > 1 { format!("{}({body}){}", ends.0, ends.1) } else { format!("{}{body}{}", ends.0, ends.1) }
    }
}

/// The number of grids over `alphabet` whose every line is in its clue's set of
/// accepted words, by trying every grid.
fn brute_force(cells: usize, alphabet: &[char], clues: &[(Vec<usize>, std::collections::BTreeSet<String>)]) -> u64 {
    let k = alphabet.len();
    let total = k.pow(cells as u32);
    let mut grid = vec![0usize; cells];
    let mut found = 0;
    for mut g in 0..total {
        for cell in grid.iter_mut() {
            *cell = g % k;
            g /= k;
        }
        if clues.iter().all(|(line, ok)| ok.contains(&line.iter().map(|&c| alphabet[grid[c]]).collect::<String>())) {
            found += 1;
        }
    }
    found
}

#[test]
fn counts_equal_a_brute_force_by_python_on_random_tiny_grids() {
    let cases = crate::common::sample_size("CROSSAT_COUNT_CASES", 1000, 1000);
    let alphabets: [&[char]; 4] = [&['A', 'B'], &['A', 'B', 'C'], &['a', '1', '_'], &['x', 'y']];
    // The puzzles, then one Python batch for every clue of every puzzle.
    let mut puzzles = Vec::new();
    for seed in 0..cases as u64 {
        let mut rng = crossat::rng::Rng::new(2_800_000 + seed);
        let (rows, cols) = (2 + rng.below(2), 2 + rng.below(2));
        let alphabet = *rng.pick(&alphabets);
        let mut g = Gen { rng, alphabet, groups: 0, closed: Vec::new() };
        let left: Vec<String> = (0..rows).map(|_| g.clue()).collect();
        let top: Vec<String> = (0..cols).map(|_| g.clue()).collect();
        let text = serde_json::json!({"left": left, "top": top}).to_string();
        let input = pipeline::Input {
            source: format!("case {seed}"),
            bytes: text.into_bytes(),
            alphabet: Some(alphabet.to_vec()),
            ..Default::default()
        };
        puzzles.push((seed, alphabet, input));
    }
    let prepared: Vec<_> = puzzles.iter().map(|(_, _, input)| pipeline::prepare(input).ok()).collect();
    let queries: Vec<(&str, &[char], usize)> = prepared
        .iter()
        .zip(&puzzles)
        .filter_map(|(p, (_, a, _))| p.as_ref().map(|p| (p, a)))
        .flat_map(|(p, a)| p.puzzle.clues.iter().map(move |c| (c.regex.as_str(), *a, c.cells.len())))
        .collect();
    let mut answers = crate::common::python_fullmatch(&queries).into_iter();
    let (mut compared, mut tagged, mut several, mut none) = (0, 0, 0, 0);
    let (mut crashed, mut routes_tried, mut routes_refused) = (0usize, 0usize, Vec::new());
    for (prep, (seed, alphabet, _)) in prepared.iter().zip(&puzzles) {
        let Some(prep) = prep else { continue };
        let sets: Vec<Option<std::collections::BTreeSet<String>>> =
            prep.puzzle.clues.iter().map(|_| answers.next().expect("answer")).collect();
        // A clue crossat reads, Python must read too.
        let regexes: Vec<&str> = prep.puzzle.clues.iter().map(|c| c.regex.as_str()).collect();
        assert!(sets.iter().all(Option::is_some), "case {seed}: Python refuses one of {regexes:?}, crossat reads them all");
        // Where CPython's matcher crashed (its documented SystemError) there is nothing
        // to compare: counted and bounded below.
        if sets.iter().any(|s| s.as_ref().is_some_and(|s| s.contains(crate::common::CRASH))) {
            crashed += 1;
            continue;
        }
        let clues: Vec<(Vec<usize>, std::collections::BTreeSet<String>)> =
            prep.puzzle.clues.iter().zip(sets).map(|(c, s)| (c.cells.clone(), s.expect("set"))).collect();
        let expected = brute_force(prep.puzzle.givens.len(), alphabet, &clues);
        // Every route: as chosen, then with back-references and lookarounds forced onto
        // the tagged route, then onto the counterexample route.
        let routes = [
            ("default", Options::default()),
            ("tagged", Options { prefer_bounded: 0, bounded_limit: 0, tagged: true }),
            ("guarded", Options { prefer_bounded: 0, bounded_limit: 0, tagged: false }),
        ];
        let puzzle = &prep.puzzle;
        let parsed = compile::parse_clues("<count>", puzzle).expect("parsed");
        for (route, opts) in routes {
            let alphabet_set = compile::choose_alphabet("<count>", puzzle, &parsed, Some(alphabet)).expect("alphabet");
            routes_tried += 1;
            let compiled = match compile::compile_with("<count>", puzzle, &parsed, alphabet_set, opts) {
                Ok(compiled) => compiled,
                Err(e) => {
                    routes_refused.push(format!("case {seed} ({route}): {e}"));
                    continue;
                }
            };
            let got = count_with(puzzle, &compiled, &prep.verifier);
            assert_eq!(got.to_u64(), Some(expected), "case {seed} ({route}): {regexes:?} over {alphabet:?}");
            tagged += usize::from(compiled.clues.iter().any(|c| c.approximate()));
        }
        assert_eq!(count_of(prep).to_u64(), Some(expected), "case {seed}: {regexes:?} over {alphabet:?}");
        compared += 1;
        several += usize::from(expected > 1);
        none += usize::from(expected == 0);
    }
    eprintln!(
        "count vs Python: {compared} grids compared, {tagged} with back-references or lookarounds, {several} with several solutions, {none} with none"
    );
    assert!(
        compared * 2 > cases && tagged * 2 > compared && several * 10 > compared,
        "too few useful cases: {compared} compared, {tagged} tagged, {several} several"
    );
    crate::common::bound_skips(
        "count vs Python: puzzles where CPython's matcher crashed",
        crashed,
        compared + crashed,
        compared,
        cases / 2,
    );
    eprintln!("routes that refused to compile: {routes_refused:?}");
    crate::common::bound_skips(
        "count vs Python: routes that refused to compile",
        routes_refused.len(),
        routes_tried,
        routes_tried - routes_refused.len(),
        cases,
    );
}

#[test]
fn check_counts_the_completions_of_a_partial_grid() {
    let dir = crate::common::tmp();
    // Row 1 holds an A (its first cell does): 4 words; row 2 holds a B: 7 words.
    let text = serde_json::json!({"left": ["[AB]*A[AB]*", "[AB]*B[AB]*"], "top": vec!["[AB][AB]"; 3]}).to_string();
    let file = crate::common::write_file(dir.path(), "two.json", text);
    let run = crate::common::crossat(&["check", arg(&file), "-"], Some(b"A..\n...\n"));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.ends_with("can be completed in 28 ways\n"), "{}", run.stdout);
    let run = crate::common::crossat(&["check", "--json", arg(&file), "-"], Some(b"AB.\n...\n"));
    let summary: serde_json::Value = serde_json::from_str(run.stdout.trim()).expect("JSON");
    assert_eq!((summary["completions"].clone(), summary["unique_completion"].clone()), (serde_json::json!(14), serde_json::json!(false)));
}

#[test]
fn a_listing_by_parts_splits_a_long_pass_into_cubes_and_lists_each_grid_once() {
    // Two independent rows: 1,023 words with an A (more than the 512 blocking clauses
    // after which a pass is split into cubes), and 10 with exactly one B.
    let text = serde_json::json!({"left": ["[AB]*A[AB]*", "A*BA*"], "top": vec!["[AB][AB]"; 10]}).to_string();
    let input = pipeline::Input { source: "rows".into(), bytes: text.into_bytes(), ..Default::default() };
    let mut prep = pipeline::prepare(&input).expect("prepare");
    let mut seen = std::collections::HashSet::new();
    let outcome = pipeline::solve(&mut prep, None, |_, g| {
        assert!(seen.insert(g.cells.clone()), "a grid listed twice: {:?}", g.cells);
        Ok(())
    })
    .expect("listing");
    assert!(outcome.complete);
    assert_eq!((outcome.found, count_of(&prep)), (1023 * 10, Big::from(1023u64 * 10)));
}
