//! Exact counting (`solve::count`): the count equals the length of the listing, a
//! brute force by Python's `re`, and the sum over one cell's letters.

use crate::common::{input_file, puzzle, root};
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
    let refine =
        |i, _: &[SymSet], s: &[SymSet]| crossat::solve::words::exact_support(compiled, verifier, i, s, crossat::solve::words::EXACT_WORDS);
    let Some(doms) = encode::domains_with(prep.0, prep.1, refine) else { return Big::zero() };
    let lines = encode::Propagator::new(prep.0);
    let matches = |i: usize, w: &[usize]| verifier.clue_matches(i, &w.iter().map(|&a| chars[a]).collect::<String>());
    count::count(&lines, compiled, &doms, refine, matches).expect("count").count
}

/// The count, or `None` when it takes more than `secs` seconds.
fn count_within(prep: &Prepared, secs: f64) -> Option<(Big, usize)> {
    let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    crossat::stop::cancel_on(flag.clone());
    let f2 = flag.clone();
    let _timer = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_secs_f64(secs));
        f2.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    let r = count::count_prepared(prep).ok().map(|c| (c.count, c.nodes));
    crossat::stop::cancel_on(std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false)));
    r
}

#[test]
fn sheep_and_binoternary() {
    let sheep = pipeline::prepare(&input_file(&puzzle("antoine-trux/player_puzzle_sheep.input.txt"), None)).expect("prepare");
    let t = std::time::Instant::now();
    assert_eq!(count_of(&sheep).to_string(), "2304");
    eprintln!("sheep {:?}", t.elapsed());
    let mut files: Vec<_> = std::fs::read_dir(root().join("puzzles/binoternary")).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    for f in files.iter().filter(|f| f.extension().is_some_and(|e| e == "json") && !f.to_string_lossy().contains("_solution")) {
        let prep = pipeline::prepare(&input_file(f, None)).expect("prepare");
        let t = std::time::Instant::now();
        let c = count_within(&prep, 8.0);
        eprintln!("{} {:?} {:?}", f.display(), c, t.elapsed());
    }
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
    let cases: usize = std::env::var("CROSSAT_COUNT_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(1000);
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
    for (prep, (seed, alphabet, _)) in prepared.iter().zip(&puzzles) {
        let Some(prep) = prep else { continue };
        let sets: Vec<Option<std::collections::BTreeSet<String>>> =
            prep.puzzle.clues.iter().map(|_| answers.next().expect("answer")).collect();
        // Python refused a clue crossat took, or its matcher raised: nothing to compare.
        if sets.iter().any(|s| s.as_ref().is_none_or(|s| s.contains(crate::common::CRASH))) {
            continue;
        }
        let clues: Vec<(Vec<usize>, std::collections::BTreeSet<String>)> =
            prep.puzzle.clues.iter().zip(sets).map(|(c, s)| (c.cells.clone(), s.expect("set"))).collect();
        let expected = brute_force(prep.puzzle.givens.len(), alphabet, &clues);
        let regexes: Vec<&str> = prep.puzzle.clues.iter().map(|c| c.regex.as_str()).collect();
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
            let Ok(compiled) = compile::compile_with("<count>", puzzle, &parsed, alphabet_set, opts) else { continue };
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
}
