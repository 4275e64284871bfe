//! Exact counting (`solve::count`), white-box: the counting search itself (on every
//! route a clue compiles to) equals the length of the listing, a brute force by
//! Python's `re`, products of independent rows and the sum over one cell's letters.
//! The counts through the command line and on generated puzzles are integration tests
//! (tests/count.rs, tests/ganak.rs).

use crate::compile::{self, Options};
use crate::pipeline::{self, Input, Prepared};
use crate::propagate::{self as encode, SymSet};
use crate::solve::count::{self, Big};
use crate::test_support::{HEXAGON_COUNTS, binoternary, root};

/// An `Input` for a file on disk.
fn input_file(path: &std::path::Path) -> Input {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Input { source: path.display().to_string(), bytes, ..Input::default() }
}

/// The count of a prepared puzzle.
fn count_of(prep: &Prepared) -> Big {
    count::count_prepared(prep).expect("count").count
}

/// The count of a puzzle compiled by the caller (with its routes forced, say).
fn count_with(puzzle: &crate::puzzle::Puzzle, compiled: &crate::compile::Compiled, verifier: &crate::verify::Verifier) -> Big {
    let prep = (puzzle, compiled);
    let chars = compiled.alphabet.chars();
    let refine = |i, _: &[SymSet], s: &[SymSet]| {
        crate::solve::odometer::exact_support(compiled, verifier, i, s, crate::solve::odometer::EXACT_WORDS)
    };
    let Some(doms) = encode::domains_with(prep.0, prep.1, refine) else { return Big::zero() };
    let lines = encode::Propagator::new(prep.0);
    let matches = |i: usize, w: &[usize]| verifier.clue_matches(i, &w.iter().map(|&a| chars[a]).collect::<String>());
    count::count(&lines, compiled, &doms, refine, matches).expect("count").count
}

#[test]
fn counts_equal_the_length_of_the_listing_on_the_bundled_puzzles() {
    let mut files = Vec::new();
    crate::test_support::puzzle_files(&root().join("puzzles"), &mut files);
    let (mut compared, mut several, mut searched_too_long) = (0, Vec::new(), Vec::<String>::new());
    for file in files {
        // Collections (which need an id) and unsupported puzzles.
        let Ok(mut prep) = pipeline::prepare(&input_file(&file)) else { continue };
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
        let prep = pipeline::prepare(&input_file(file)).expect("prepare");
        let last = prep.puzzle.givens.len() - 1;
        for cell in [0, last] {
            let (total, sum) = partition_sum(&text, name, cell);
            assert_eq!(total.to_string(), expected, "{name}");
            assert_eq!(total, sum, "{name}, cell {cell}");
        }
    }
}

/// A random clue over `alphabet`: letters, classes, groups with alternatives,
/// quantifiers, back-references and lookarounds.
struct Gen<'a> {
    rng: crate::rng::Rng,
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
    let cases = crate::test_support::sample_size("CROSSAT_COUNT_CASES", 1000, 1000);
    let alphabets: [&[char]; 4] = [&['A', 'B'], &['A', 'B', 'C'], &['a', '1', '_'], &['x', 'y']];
    // The puzzles, then one Python batch for every clue of every puzzle.
    let mut puzzles = Vec::new();
    for seed in 0..cases as u64 {
        let mut rng = crate::rng::Rng::new(2_800_000 + seed);
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
    let mut answers = crate::test_support::python_fullmatch(&queries).into_iter();
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
        if sets.iter().any(|s| s.as_ref().is_some_and(|s| s.contains(crate::test_support::CRASH))) {
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
    crate::test_support::bound_skips(
        "count vs Python: puzzles where CPython's matcher crashed",
        crashed,
        compared + crashed,
        compared,
        cases / 2,
    );
    eprintln!("routes that refused to compile: {routes_refused:?}");
    crate::test_support::bound_skips(
        "count vs Python: routes that refused to compile",
        routes_refused.len(),
        routes_tried,
        routes_tried - routes_refused.len(),
        cases,
    );
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
