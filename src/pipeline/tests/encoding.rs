//! The encoding gadgets against an independent matcher.
//!
//! For small clues and every string up to length 4–6 over small alphabets, the set of
//! one-line grids the solver enumerates must equal the set of strings CPython 3.11's
//! `re.fullmatch` accepts (brute force in `scripts/clue_oracle.py`, one batch per test).
//! Each case runs twice: with domain propagation, and with the CNF alone carrying every
//! constraint. Whole grids (and givens) are checked against crossat's own matcher — the
//! verifier that also filters solver output — and that matcher is cross-checked against
//! CPython on the same clues and line strings in the same test.

use crate::compile;
use crate::error::Result;
use crate::pipeline;
use crate::puzzle::{Clue, Puzzle, Shape};
use crate::rng::Rng;
use crate::stats::Times;
use crate::verify::Verifier;
use std::collections::BTreeSet;

/// A small deterministic generator, so every failure names a seed.
fn rng(seed: u64) -> Rng {
    Rng::new(seed)
}

/// A rows×cols puzzle with the given row and column clues (one per line, `None` = no clue).
fn grid_puzzle(rows: usize, cols: usize, row_clues: &[Option<String>], col_clues: &[Option<String>], givens: Vec<Option<char>>) -> Puzzle {
    let mut clues = Vec::new();
    for (r, c) in row_clues.iter().enumerate() {
        if let Some(re) = c {
            clues.push(Clue { label: format!("row {}", r + 1), regex: re.clone(), cells: (0..cols).map(|k| r * cols + k).collect() });
        }
    }
    for (k, c) in col_clues.iter().enumerate() {
        if let Some(re) = c {
            clues.push(Clue { label: format!("column {}", k + 1), regex: re.clone(), cells: (0..rows).map(|r| r * cols + k).collect() });
        }
    }
    Puzzle { name: None, shape: Shape::Rect { rows, cols }, clues, alphabet: None, givens, pool: None, dialect: Default::default() }
}

/// Every solution (cells as a string), enumerating to the end, with or without propagation.
fn solutions(puzzle: &Puzzle, alphabet: &[char], propagate: bool) -> Result<BTreeSet<String>> {
    if propagate {
        let mut prep = pipeline::prepare_puzzle("<test>", puzzle.clone(), Some(alphabet), Times::default())?;
        let mut found = BTreeSet::new();
        let o = pipeline::solve(&mut prep, None, |_, g| {
            assert!(found.insert(g.cells.iter().collect()), "a grid was enumerated twice");
            Ok(())
        })?;
        assert!(o.complete);
        return Ok(found);
    }
    let parsed = compile::parse_clues("<test>", puzzle)?;
    let alpha = compile::choose_alphabet("<test>", puzzle, &parsed, Some(alphabet))?;
    let compiled = compile::compile("<test>", puzzle, &parsed, alpha)?;
    let (cnf, vars) = pipeline::encode_puzzle(puzzle, &compiled, false)?;
    let verifier = Verifier::from_parsed("<test>", puzzle, &parsed)?;
    let mut prep = pipeline::Prepared::with_formula("<test>", puzzle.clone(), compiled, cnf, vars, verifier);
    let mut found = BTreeSet::new();
    let o = pipeline::solve(&mut prep, None, |_, grid| {
        assert!(found.insert(grid.cells.iter().collect()), "a grid was enumerated twice");
        Ok(())
    })?;
    assert!(o.complete);
    Ok(found)
}

/// All strings of length `n` over `alphabet`.
fn all_words(alphabet: &[char], n: usize) -> Vec<String> {
    let mut words = vec![String::new()];
    for _ in 0..n {
        words = words.iter().flat_map(|w| alphabet.iter().map(move |&c| format!("{w}{c}"))).collect();
    }
    words
}

/// The reference matcher (crossat's port of sre) for one clue, as `re.fullmatch`.
struct Full(crate::sre::Matcher);

impl Full {
    /// Parses `re` as Python does; panics if Python would refuse it.
    fn new(re: &str) -> Full {
        let parsed = crate::regex::parser::parse(re).unwrap_or_else(|e| panic!("{re:?}: {e}"));
        Full(crate::sre::Matcher::new(&parsed).unwrap_or_else(|e| panic!("{re:?}: {e}")))
    }

    /// Whether `re.fullmatch(re, s)` matches.
    fn is_match(&self, s: &str) -> std::result::Result<bool, String> {
        self.0.fullmatch(&s.chars().collect::<Vec<_>>()).map_err(|e| e.to_string())
    }
}

fn full_match(re: &str) -> Full {
    Full::new(re)
}

/// Brute force by CPython: for each `(clue, alphabet, n)`, the words of length `n`
/// `re.fullmatch` accepts, or `None` where Python refuses the clue. Only the documented
/// CPython crash is tolerated, and it must not occur on these clues.
fn python_lines(queries: &[(String, &[char], usize)]) -> Vec<Option<BTreeSet<String>>> {
    let asked: Vec<(&str, &[char], usize)> = queries.iter().map(|(re, a, n)| (re.as_str(), *a, *n)).collect();
    let answers = crate::test_support::python_fullmatch(&asked);
    for ((re, _, n), a) in queries.iter().zip(&answers) {
        assert!(a.as_ref().is_none_or(|a| !a.contains(crate::test_support::CRASH)), "CPython's matcher crashed on {re:?}, length {n}");
    }
    answers
}

/// Whether crossat's matcher accepts `w` (a matcher error fails the test: it is no answer).
fn matches(m: &Full, re: &str, w: &str) -> bool {
    m.is_match(w).unwrap_or_else(|e| panic!("crossat's matcher on {re:?}, {w:?}: {e}"))
}

/// Checks one clue on lines of length 1..=max_len, both encodings, against CPython.
fn check_line(re: &str, alphabet: &[char], max_len: usize) {
    let queries: Vec<(String, &[char], usize)> = (1..=max_len).map(|n| (re.to_string(), alphabet, n)).collect();
    for (n, want) in (1..=max_len).zip(python_lines(&queries)) {
        let p = grid_puzzle(1, n, &[Some(re.to_string())], &vec![None; n], vec![None; n]);
        let want = want.unwrap_or_else(|| panic!("Python refuses {re:?}"));
        for propagate in [true, false] {
            let got = solutions(&p, alphabet, propagate).unwrap_or_else(|e| panic!("{re} (n={n}): {e}"));
            assert_eq!(got, want, "clue {re:?} over {alphabet:?}, length {n}, propagate={propagate}");
        }
    }
}

#[test]
fn hand_written_clues_match_brute_force() {
    let ab: Vec<char> = "AB".chars().collect();
    let abc: Vec<char> = "ABC".chars().collect();
    let mixed: Vec<char> = "A- ".chars().collect();
    let cases: &[(&str, &[char])] = &[
        ("A|AB", &ab),
        ("(A|B)*", &ab),
        ("A*B+", &ab),
        ("[^A]B?", &abc),
        (".{2}", &abc),
        ("(AB|BA)+", &ab),
        ("A{2,3}", &ab),
        ("A{,2}B*", &ab),
        ("(?:A|)B", &ab),
        ("[AB]*A[AB]", &ab),
        (".*(AA|BB).*", &ab),
        ("(A{2}|B){0,3}", &ab),
        ("A{3,}", &ab),
        ("(?:A?){9}", &ab),
        ("(?:AB?){7}", &ab),
        ("^A|B$", &ab),
        ("A^B|B", &ab),
        ("A$|AB", &ab),
        ("\\bA.*", &mixed),
        ("A\\b.*", &mixed),
        (".*\\B-.*", &mixed),
        ("(?:A|-)\\b(?:A| )*", &mixed),
        ("\\s[^\\s]*", &mixed),
        ("\\W+A?", &mixed),
        ("\\w\\W\\S", &mixed),
        ("[B-C]+|A", &abc),
        ("(?:.*C){2}.*", &abc),
        ("[]A]*", &abc),
        ("A{", &['A', '{']),
        ("(?P<x>A|B)C", &abc),
        ("(?#note)AB?", &ab),
    ];
    for (re, alphabet) in cases {
        check_line(re, alphabet, 4);
    }
    check_line("(A|B)*A(A|B)(A|B)", &ab, 5);
    check_line("(ABC|CB|A)*", &abc, 5);
}

/// A random clue over `alphabet` (Python syntax).
fn random_regex(rng: &mut Rng, alphabet: &[char], depth: usize) -> String {
    let lit = |rng: &mut Rng| {
        let c = *rng.pick(alphabet);
        if "-^$.[]()|*+?{}\\".contains(c) {
            format!("\\{c}")
        } else if c == ' ' {
            "\\s".to_string()
        } else {
            c.to_string()
        }
    };
    if depth == 0 || rng.below(4) == 0 {
        // Never an empty atom: fancy-regex refuses to repeat an empty group, Python does not.
        return match rng.below(9) {
            0..=3 => lit(rng),
            4 => ".".into(),
            5 | 6 => {
                let k = 1 + rng.below(alphabet.len());
                let members: String = (0..k).map(|_| lit(rng)).collect();
                if rng.below(3) == 0 { format!("[^{members}]") } else { format!("[{members}]") }
            }
            7 => ["\\b", "\\B", "^", "$"][rng.below(4)].into(),
            _ => ["\\w", "\\W", "\\S"][rng.below(3)].into(),
        };
    }
    let sub = |rng: &mut Rng| random_regex(rng, alphabet, depth - 1);
    match rng.below(6) {
        0 | 1 => (0..2 + rng.below(2)).map(|_| sub(rng)).collect(),
        2 => format!("{}|{}", sub(rng), sub(rng)),
        3 => format!("({})", sub(rng)),
        _ => {
            let q = ["*", "+", "?", "{2}", "{1,2}", "{2,}", "{,2}", "*?", "{0}"][rng.below(9)];
            format!("(?:{}){q}", sub(rng))
        }
    }
}

#[test]
fn random_clues_match_brute_force() {
    let alphabets: [&[char]; 3] = [&['A', 'B'], &['A', 'B', 'C'], &['A', '-', ' ']];
    let mut queries = Vec::new();
    for seed in 0..250u64 {
        let mut rng = rng(seed);
        let alphabet = alphabets[rng.below(3)];
        let re = random_regex(&mut rng, alphabet, 3);
        let max_len = if alphabet.len() == 2 { 5 } else { 4 };
        queries.extend((1..=max_len).map(|n| (re.clone(), alphabet, n, seed)));
    }
    let asked: Vec<(String, &[char], usize)> = queries.iter().map(|(re, a, n, _)| (re.clone(), *a, *n)).collect();
    for ((re, alphabet, n, seed), want) in queries.into_iter().zip(python_lines(&asked)) {
        let want = want.unwrap_or_else(|| panic!("seed {seed}: Python refuses {re:?}"));
        {
            let p = grid_puzzle(1, n, &[Some(re.clone())], &vec![None; n], vec![None; n]);
            for propagate in [true, false] {
                let got = solutions(&p, alphabet, propagate).unwrap_or_else(|e| panic!("seed {seed}: {re:?}: {e}"));
                assert_eq!(got, want, "seed {seed}: clue {re:?} over {alphabet:?}, length {n}, propagate={propagate}");
            }
        }
    }
}

#[test]
fn givens_decide_membership() {
    // A one-line puzzle whose cells are all given is satisfiable iff the clue matches.
    // Judged by crossat's own matcher, which is cross-checked against CPython on the
    // same clues and words.
    let alphabet = ['A', 'B', 'C'];
    let clues = ["(A|BC)+", "[^A]*A?", "(?:AB|C)*B", "A.C|B*"];
    let queries: Vec<(String, &[char], usize)> = clues.iter().flat_map(|re| (1..=4).map(|n| (re.to_string(), &alphabet[..], n))).collect();
    let mut python = python_lines(&queries).into_iter();
    for (seed, re) in clues.iter().enumerate() {
        let m = full_match(re);
        for n in 1..=4 {
            let by_python = python.next().flatten().unwrap_or_else(|| panic!("Python refuses {re:?}"));
            for w in all_words(&alphabet, n) {
                let p = grid_puzzle(1, n, &[Some(re.to_string())], &vec![None; n], w.chars().map(Some).collect());
                let got = solutions(&p, &alphabet, seed % 2 == 0).expect("solve");
                let ours = matches(&m, re, &w);
                assert_eq!(ours, by_python.contains(&w), "crossat's matcher and CPython differ: {re:?} on {w:?}");
                assert_eq!(!got.is_empty(), ours, "{re:?} on {w:?}");
            }
        }
    }
}

#[test]
fn whole_grids_match_brute_force() {
    // Small grids with random row and column clues: enumeration = brute force over every
    // grid, judged by crossat's own matcher — cross-checked below against CPython on
    // every clue and every string of its line's length.
    let mut cross = Vec::new();
    for seed in 0..60u64 {
        let mut rng = rng(1000 + seed);
        let alphabet: &[char] = if rng.below(2) == 0 { &['A', 'B'] } else { &['A', 'B', 'C'] };
        let (rows, cols) = (2, 2 + rng.below(2));
        let row_clues: Vec<Option<String>> = (0..rows).map(|_| Some(random_regex(&mut rng, alphabet, 2))).collect();
        let col_clues: Vec<Option<String>> = (0..cols).map(|_| (rng.below(4) > 0).then(|| random_regex(&mut rng, alphabet, 2))).collect();
        let p = grid_puzzle(rows, cols, &row_clues, &col_clues, vec![None; rows * cols]);
        let matchers: Vec<(Full, &Clue)> = p.clues.iter().map(|c| (full_match(&c.regex), c)).collect();
        let want: BTreeSet<String> = all_words(alphabet, rows * cols)
            .into_iter()
            .filter(|w| {
                let cells: Vec<char> = w.chars().collect();
                matchers.iter().all(|(m, c)| matches(m, &c.regex, &c.cells.iter().map(|&i| cells[i]).collect::<String>()))
            })
            .collect();
        for (m, c) in &matchers {
            let ours: BTreeSet<String> = all_words(alphabet, c.cells.len()).into_iter().filter(|w| matches(m, &c.regex, w)).collect();
            cross.push((c.regex.clone(), alphabet, c.cells.len(), ours));
        }
        for propagate in [true, false] {
            let got = solutions(&p, alphabet, propagate).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            assert_eq!(got, want, "seed {seed}: rows {row_clues:?} cols {col_clues:?} propagate={propagate}");
        }
    }
    let asked: Vec<(String, &[char], usize)> = cross.iter().map(|(re, a, n, _)| (re.clone(), *a, *n)).collect();
    for ((re, _, n, ours), python) in cross.iter().zip(python_lines(&asked)) {
        assert_eq!(Some(ours), python.as_ref(), "crossat's matcher and CPython differ on {re:?}, length {n}");
    }
}

/// A random clue that `word` satisfies: the word cut into chunks, each chunk loosened.
fn planted_regex(rng: &mut Rng, word: &[char], alphabet: &[char]) -> String {
    let mut out = String::new();
    let mut i = 0;
    while i < word.len() {
        let len = 1 + rng.below((word.len() - i).min(3));
        let chunk: String = word[i..i + len].iter().collect();
        let other: String = (0..len).map(|_| *rng.pick(alphabet)).collect();
        out.push_str(&match rng.below(7) {
            0 => chunk.clone(),
            1 => format!(".{{{len}}}"),
            2 => format!("(?:{chunk}|{other})"),
            3 => {
                let members: String = chunk.chars().chain(std::iter::once(*rng.pick(alphabet))).collect();
                format!("[{members}]{{{len}}}")
            }
            4 => {
                let outside: String = alphabet.iter().filter(|c| !chunk.contains(**c)).take(1).collect();
                if outside.is_empty() { format!(".{{{len}}}") } else { format!("[^{outside}]+") }
            }
            5 => format!("(?:{chunk})+"),
            _ => format!("[{chunk}]*"),
        });
        i += len;
    }
    out
}

#[test]
fn planted_grids_are_found() {
    for seed in 0..120u64 {
        let mut rng = rng(5000 + seed);
        let alphabet: Vec<char> = "ABCDE".chars().take(3 + rng.below(3)).collect();
        let (rows, cols) = (2 + rng.below(3), 2 + rng.below(4));
        let planted: Vec<char> = (0..rows * cols).map(|_| *rng.pick(&alphabet)).collect();
        let row = |r: usize| (0..cols).map(|c| planted[r * cols + c]).collect::<Vec<_>>();
        let col = |c: usize| (0..rows).map(|r| planted[r * cols + c]).collect::<Vec<_>>();
        let row_clues: Vec<Option<String>> = (0..rows).map(|r| Some(planted_regex(&mut rng, &row(r), &alphabet))).collect();
        let col_clues: Vec<Option<String>> = (0..cols).map(|c| Some(planted_regex(&mut rng, &col(c), &alphabet))).collect();
        let p = grid_puzzle(rows, cols, &row_clues, &col_clues, vec![None; rows * cols]);
        let ctx = format!("seed {seed}: rows {row_clues:?} cols {col_clues:?}");
        // The solver finds verified solutions, and the planted grid is one of them.
        let mut prep =
            pipeline::prepare_puzzle("<test>", p.clone(), Some(&alphabet), Times::default()).unwrap_or_else(|e| panic!("{ctx}: {e}"));
        let mut found = BTreeSet::new();
        let o = pipeline::solve(&mut prep, Some(2000), |_, g| {
            let _ = found.insert(g.cells.iter().collect::<String>());
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{ctx}: {e}"));
        assert!(o.found >= 1, "{ctx}: no solution");
        let planted_s: String = planted.iter().collect();
        if o.complete {
            assert!(found.contains(&planted_s), "{ctx}: planted grid {planted_s} not enumerated");
        }
        let given = Puzzle { givens: planted.iter().copied().map(Some).collect(), ..p };
        let got = solutions(&given, &alphabet, true).unwrap_or_else(|e| panic!("{ctx}: {e}"));
        assert_eq!(got, BTreeSet::from([planted_s]), "{ctx}");
    }
}

/// A random clue with capturing groups, back-references (also inside repetitions and
/// alternations) and lookarounds.
struct BackrefGen<'a> {
    rng: Rng,
    alphabet: &'a [char],
    groups: u32,
    closed: Vec<u32>,
}

impl BackrefGen<'_> {
    fn atom(&mut self) -> String {
        let c = *self.rng.pick(self.alphabet);
        match self.rng.below(6) {
            0..=2 => c.to_string(),
            3 => ".".into(),
            4 => format!("[^{c}]"),
            _ => format!("[{c}{}]", self.rng.pick(self.alphabet)),
        }
    }

    fn quant(&mut self) -> &'static str {
        ["*", "+", "?", "{2}", "{1,2}", "{0,2}", "*?", "+"][self.rng.below(8)]
    }

    /// `plain`: no groups, back-references or lookarounds (lookaround bodies).
    fn tree(&mut self, depth: usize, plain: bool) -> String {
        if depth == 0 {
            return self.atom();
        }
        let choice = self.rng.below(if plain { 5 } else { 10 });
        match choice {
            0 | 1 => (0..2 + self.rng.below(2)).map(|_| self.tree(depth - 1, plain)).collect(),
            2 => format!("(?:{}|{})", self.tree(depth - 1, plain), self.tree(depth - 1, plain)),
            3 => {
                let q = self.quant();
                format!("(?:{}){q}", self.tree(depth - 1, plain))
            }
            4 => self.atom(),
            5 | 6 => {
                self.groups += 1;
                let k = self.groups;
                let body = self.tree(depth - 1, false);
                self.closed.push(k);
                format!("({body})")
            }
            7 | 8 if !self.closed.is_empty() => {
                let k = *self.rng.pick(&self.closed);
                match self.rng.below(3) {
                    0 => format!("\\{k}"),
                    1 => format!("(?:\\{k}){}", self.quant()),
                    _ => format!("(?:\\{k}|{})", self.atom()),
                }
            }
            _ => {
                let body = self.tree(depth - 1, true);
                match self.rng.below(4) {
                    0 => format!("(?={body})"),
                    1 => format!("(?!{body})"),
                    2 => format!("(?<={})", self.atom()),
                    _ => format!("(?<!{}{})", self.atom(), self.atom()),
                }
            }
        }
    }
}

/// Python-`re`-compatible regexes with back-references and lookarounds: the solver's
/// enumeration equals brute force with the reference matcher. `CROSSAT_DIFF_CASES` raises the
/// number of regexes (the default run checks over 100,000 (regex, string) pairs).
#[test]
fn backrefs_and_lookarounds_match_brute_force() {
    let regexes = crate::test_support::sample_size("CROSSAT_DIFF_CASES", 700, 700) as u64;
    let alphabets: [&[char]; 3] = [&['A', 'B'], &['A', 'B', 'C'], &['A', 'B', 'C', 'D']];
    let (mut pairs, mut refused, mut unreadable) = (0usize, 0usize, 0usize);
    let mut queries = Vec::new();
    for seed in 0..regexes {
        let mut rng = rng(77_000 + seed);
        let alphabet = alphabets[rng.below(3)];
        let max_len = [6, 5, 4][alphabet.len() - 2];
        let mut g = BackrefGen { rng, alphabet, groups: 0, closed: vec![] };
        let re = g.tree(3, false);
        queries.extend((1..=max_len).map(|n| (re.clone(), alphabet, n, seed)));
    }
    let asked: Vec<(String, &[char], usize)> = queries.iter().map(|(re, a, n, _)| (re.clone(), *a, *n)).collect();
    let mut done = None;
    for ((re, alphabet, n, seed), want) in queries.into_iter().zip(python_lines(&asked)) {
        if done == Some(seed) {
            continue;
        }
        // A clue Python refuses is refused by crossat's parser too.
        let Some(want) = want else {
            assert!(crate::regex::parser::parse(&re).is_err(), "seed {seed}: Python refuses {re:?}, crossat reads it");
            unreadable += 1;
            done = Some(seed);
            continue;
        };
        let p = grid_puzzle(1, n, &[Some(re.clone())], &vec![None; n], vec![None; n]);
        let got = match solutions(&p, alphabet, n % 2 == 0) {
            Ok(got) => got,
            Err(e) if e.to_string().contains("unsupported construct") => {
                refused += 1;
                done = Some(seed);
                continue;
            }
            Err(e) => panic!("seed {seed}: {re:?} (n={n}): {e}"),
        };
        assert_eq!(got, want, "seed {seed}: clue {re:?} over {alphabet:?}, length {n}");
        pairs += alphabet.len().pow(n as u32);
    }
    eprintln!(
        "backrefs/lookarounds: {pairs} (regex, string) pairs; {refused} regexes refused, {unreadable} refused by Python and the parser"
    );
    assert!(pairs >= 100_000 * regexes as usize / 700, "only {pairs} pairs checked");
    crate::test_support::bound_skips(
        "backrefs/lookarounds: regexes crossat refuses as unsupported",
        refused,
        regexes as usize,
        regexes as usize - refused - unreadable,
        regexes as usize * 9 / 10,
    );
}

/// When line propagation leaves one letter per cell, or none, `solve` answers without a
/// formula; the formula, built afterwards, must agree (same grids, searched by SAT).
#[test]
fn propagation_alone_decides_and_the_formula_agrees() {
    let some = |v: &[&str]| v.iter().map(|s| Some(s.to_string())).collect::<Vec<_>>();
    let cases: [(Puzzle, &[char], usize); 4] = [
        // Regular clues that fix every cell: one solution.
        (
            grid_puzzle(2, 2, &some(&["HE|LL|O+", "[PLEASE]+"]), &some(&["[^SPEAK]+", "EP|IP|EF"]), vec![None; 4]),
            &['E', 'F', 'H', 'L', 'P', 'S'],
            1,
        ),
        // A back-reference clue (the tagged route, whose propagation ignores the
        // registers) over a line the columns fix: the matcher accepts the line...
        (
            grid_puzzle(1, 9, &some(&["(.).(\\1).(\\2).BB."]), &some(&["A", "C", "A", "C", "A", "C", "B", "B", "C"]), vec![None; 9]),
            &['A', 'B', 'C'],
            1,
        ),
        // ... or rejects it (the third letter differs from the first): no solution.
        (
            grid_puzzle(1, 9, &some(&["(.).(\\1).(\\2).BB."]), &some(&["A", "C", "B", "C", "A", "C", "B", "B", "C"]), vec![None; 9]),
            &['A', 'B', 'C'],
            0,
        ),
        // The columns leave [AB] in the third cell: the matcher's support fixes it.
        (
            grid_puzzle(1, 9, &some(&["(.).(\\1).(\\2).BB."]), &some(&["A", "C", "[AB]", "C", "A", "C", "B", "B", "C"]), vec![None; 9]),
            &['A', 'B', 'C'],
            1,
        ),
    ];
    for (puzzle, alphabet, want) in cases {
        let clues: Vec<String> = puzzle.clues.iter().map(|c| c.regex.clone()).collect();
        let mut prep = pipeline::prepare_puzzle("<test>", puzzle.clone(), Some(alphabet), Times::default()).expect("prepares");
        assert!(prep.decided().is_some(), "{clues:?}: propagation should decide");
        assert!(
            clues.len() > 3 || prep.compiled().expect("compiles").clues[0].route == compile::Route::Tagged,
            "{clues:?}: meant for the tagged route"
        );
        assert!(!prep.encoded(), "{clues:?}: no formula is built for a decided puzzle");
        let mut direct = Vec::new();
        let o = pipeline::solve(&mut prep, None, |_, g| {
            direct.push(g.cells.iter().collect::<String>());
            Ok(())
        })
        .expect("solves");
        assert_eq!((o.found, o.complete), (want, true), "{clues:?}");
        assert!(!prep.encoded(), "{clues:?}: solving did not need the formula");
        // The formula over the same domains, searched by SAT, finds the same grids.
        let f = prep.formula().expect("encodes").clone();
        let verifier =
            Verifier::from_parsed("<test>", &puzzle, &compile::parse_clues("<test>", &puzzle).expect("parses")).expect("matchers");
        let mut searched =
            pipeline::Prepared::with_formula("<test>", puzzle, prep.compiled().expect("compiles").clone(), f.cnf, f.vars, verifier);
        let mut sat = Vec::new();
        let o = pipeline::solve(&mut searched, None, |_, g| {
            sat.push(g.cells.iter().collect::<String>());
            Ok(())
        })
        .expect("searches");
        assert!(o.complete);
        assert_eq!(sat, direct, "{clues:?}");
        // And so does the formula without propagation (every domain the whole alphabet).
        assert_eq!(solutions(&searched.puzzle, alphabet, false).expect("brute").into_iter().collect::<Vec<_>>(), direct, "{clues:?}");
    }
}
