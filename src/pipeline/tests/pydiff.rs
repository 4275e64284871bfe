//! Whole clues against CPython 3.11 itself: for random clues over the whole `re` syntax
//! and small alphabets with the characters where Python's tables differ from other
//! engines', the set of one-row solutions crossat prints equals the set of strings
//! `re.fullmatch` accepts (`scripts/clue_oracle.py`). Each case also runs with the
//! routes forced (tagged, counterexample loop), so every route is checked.
//!
//! `python3` must be CPython 3.11: this test fails, never skips, without it.
//! `CROSSAT_PYDIFF_CASES=N` sets the number of cases (default 20,000).

use super::clue_gen::{self, Case};
use crate::compile::{self, Options};
use crate::error::Error;
use crate::puzzle::{Clue, Puzzle, Shape};
use crate::rng::Rng;
use std::collections::BTreeSet;

/// The run's `count` cases: clues in Python's syntax (`clue_gen::PYTHON`).
fn cases(count: usize) -> Vec<Case> {
    (0..count as u64).map(|seed| clue_gen::case(&clue_gen::PYTHON, 900_000 + seed)).collect()
}

/// Python's answer for every case and length `0..=max_n`: `None` when it refuses
/// the pattern.
fn python(cases: &[Case]) -> Vec<Vec<Option<BTreeSet<String>>>> {
    let queries: Vec<(&str, &[char], usize)> =
        cases.iter().flat_map(|c| (0..=c.max_n).map(move |n| (c.p.as_str(), c.alphabet.as_slice(), n))).collect();
    let mut answers = crate::test_support::python_fullmatch(&queries).into_iter();
    cases.iter().map(|c| (0..=c.max_n).map(|_| answers.next().expect("an answer per query")).collect()).collect()
}

/// The strings crossat finds for `case` with the routes restricted by `opts`.
fn crossat(case: &Case, n: usize, opts: Options, propagate: bool) -> Result<BTreeSet<String>, Error> {
    super::one_row_strings(&case.p, Default::default(), &case.alphabet, n, opts, propagate)
}

/// Line propagation before compiling (`propagate::early`), for a clue that has a position
/// automaton: on every line length, with every cell free and with random domains, the
/// letters it keeps are those of the strings Python matches within the domains. Returns
/// whether the clue had one; disagreements go to `failures`.
fn early_agrees(case: &Case, by_length: &[Option<BTreeSet<String>>], seed: u64, failures: &mut Vec<String>) -> bool {
    use crate::compile::{glushkov, normalise};
    use crate::propagate::SymSet;
    use crate::propagate::early::{Nfa, Walk};
    let Ok(parsed) = crate::regex::parser::parse(&case.p) else { return false };
    let Ok(alphabet) = compile::Alphabet::new(case.alphabet.iter().copied()) else { return false };
    let Ok(node) = normalise::normalise(&parsed, &alphabet, normalise::Mode::Exact) else { return false };
    let mut rng = Rng::new(7_000_000 + seed);
    let (mut walk, mut out) = (Walk::default(), Vec::new());
    let mut had = false;
    for (n, want) in by_length.iter().enumerate().skip(1) {
        let Some(want) = want.as_ref().filter(|w| !w.contains(crate::test_support::CRASH)) else { continue };
        let Some(positions) = glushkov::positions(&node, &alphabet, n) else { continue };
        had = true;
        let nfa = Nfa::new(&positions);
        let words: Vec<Vec<usize>> =
            want.iter().map(|w| w.chars().map(|c| alphabet.index(c).expect("a letter of the alphabet")).collect()).collect();
        for round in 0..3 {
            let line: Vec<SymSet> = (0..n)
                .map(|_| {
                    let mut d = SymSet::default();
                    (0..alphabet.len()).filter(|_| round == 0 || rng.below(3) != 0).for_each(|x| d.insert(x));
                    d
                })
                .collect();
            let mut expect = vec![SymSet::default(); n];
            for w in words.iter().filter(|w| w.iter().zip(&line).all(|(&x, d)| d.contains(x))) {
                for (e, &x) in expect.iter_mut().zip(w) {
                    e.insert(x);
                }
            }
            nfa.support(&line, &mut walk, &mut out);
            if out != expect {
                failures.push(format!(
                    "{:?} over {:?}, length {n}, domains {line:?}: early support {out:?}, Python's {expect:?}",
                    case.p, case.alphabet
                ));
                return had;
            }
        }
    }
    had
}

#[test]
fn clues_agree_with_python() {
    let count = crate::test_support::sample_size("CROSSAT_PYDIFF_CASES", 20_000, 20_000);
    let cases = cases(count);
    if let Ok(n) = std::env::var("CROSSAT_PYDIFF_SHOW") {
        for c in cases.iter().take(n.parse().unwrap_or(20)) {
            eprintln!("{:?} over {:?}", c.p, c.alphabet.iter().collect::<String>());
        }
    }
    let answers = python(&cases);
    let forced = [
        ("default", Options::default()),
        ("tagged", Options { prefer_bounded: 0, bounded_limit: 0, tagged: true }),
        ("guarded", Options { prefer_bounded: 0, bounded_limit: 0, tagged: false }),
    ];
    let (mut clues, mut refused_by_python, mut lines, mut pairs, mut mixed) = (0usize, 0usize, 0usize, 0usize, 0usize);
    let (mut python_crashed, mut early) = (0usize, 0usize);
    let mut failures = Vec::new();
    for (i, (case, by_length)) in cases.iter().zip(&answers).enumerate() {
        if by_length[0].is_none() {
            refused_by_python += 1;
            if let Ok(got) = crossat(case, 1, Options::default(), true) {
                failures.push(format!("clue {i}: Python refuses {:?} but crossat accepts it ({} solutions)", case.p, got.len()));
            }
            continue;
        }
        clues += 1;
        early += usize::from(early_agrees(case, by_length, i as u64, &mut failures));
        // Every length where the clue accepts some strings and rejects others, and one more.
        let other = i % (case.max_n + 1);
        for (n, want) in by_length.iter().enumerate() {
            let want = want.as_ref().expect("Python answers every length alike");
            if want.contains(crate::test_support::CRASH) {
                python_crashed += 1;
                continue;
            }
            let total = case.alphabet.len().pow(n as u32);
            let is_mixed = !want.is_empty() && want.len() < total;
            if !is_mixed && n != other {
                continue;
            }
            lines += 1;
            pairs += total;
            mixed += usize::from(is_mixed);
            let (name, opts) = if n == 0 {
                forced[0]
            } else {
                match lines % 4 {
                    0 | 1 => forced[0],
                    2 => forced[1],
                    _ => forced[2],
                }
            };
            match crossat(case, n, opts, lines % 2 == 0) {
                Ok(got) if &got == want => {}
                Ok(got) => failures.push(format!(
                    "clue {i} ({name}): {:?} over {:?}, length {n}: python-only {:?}, crossat-only {:?}",
                    case.p,
                    case.alphabet,
                    want.difference(&got).take(4).collect::<Vec<_>>(),
                    got.difference(want).take(4).collect::<Vec<_>>()
                )),
                Err(e) => failures.push(format!("clue {i} ({name}): {:?} over {:?}, length {n}: refused: {e}", case.p, case.alphabet)),
            }
        }
        if failures.len() >= 20 {
            break;
        }
    }
    eprintln!(
        "pydiff: {clues} clues compared with Python on {lines} line lengths ({pairs} line strings; {mixed} lines accept some strings and reject others), {refused_by_python} clues refused by Python, {python_crashed} lines where Python's matcher raised; {early} clues with position automata"
    );
    // Disagreements first: the run stops at 20 of them, short of the counts below.
    assert!(failures.is_empty(), "{} disagreements with Python:\n{}", failures.len(), failures.join("\n"));
    assert!(early >= count / 10, "only {early} clues had position automata");
    assert!(clues * 100 >= count * 95 && mixed * 2 >= count, "only {clues} clues ({mixed} mixed lines) compared");
    crate::test_support::bound_skips(
        "pydiff: lines where Python's matcher crashed (the documented SystemError)",
        python_crashed,
        lines + python_crashed,
        lines,
        count,
    );
}

/// Repeated single-character groups, `(S)+` read as `S*(S)` before the expansion of
/// back-references: the solutions equal Python's on every line up to 6 cells, and
/// the clues the rewrite makes regular are compiled on the regular route.
#[test]
fn repeated_groups_agree_with_python() {
    // (pattern, whether it must compile on the regular route)
    let patterns: &[(&str, bool)] = &[
        (r".([AB])+.\1.*", true),
        (r"([AB])+\1", true),
        (r"c([AB]){2,3}\1c?", true),
        (r"(?:([AB])+c)+\1", false),
        (r"(?:(?:([AB]))+)\1.", true),
        (r"([AB])+?\1", true),
        (r"([AB])*\1", false),
        (r"(?i)([ab])+\1", false),
        (r"(?=([AB])+c)\1.*", false),
        (r"(?:x|([AB])+)\1", false),
        (r"([AB])++\1?", false),
        (r"(?>([AB])+)\1?", false),
        (r"([ABc])+.\1", true),
        (r"(c)+\1", true),
    ];
    let alphabet = vec!['A', 'B', 'c'];
    let cases: Vec<Case> = patterns.iter().map(|(p, _)| Case { p: (*p).to_string(), alphabet: alphabet.clone(), max_n: 6 }).collect();
    let answers = python(&cases);
    for ((case, by_length), &(_, regular)) in cases.iter().zip(&answers).zip(patterns) {
        for (n, want) in by_length.iter().enumerate().skip(1) {
            let want = want.as_ref().unwrap_or_else(|| panic!("Python refuses {:?}", case.p));
            let got = crossat(case, n, Options::default(), n % 2 == 0).unwrap_or_else(|e| panic!("{:?}: {e}", case.p));
            assert_eq!(&got, want, "{:?} on {n} cells", case.p);
        }
        if regular {
            let src = "<repeated>";
            let puzzle = Puzzle {
                name: None,
                shape: Shape::Rect { rows: 1, cols: 5 },
                clues: vec![Clue { label: "row 1".into(), regex: case.p.clone(), cells: (0..5).collect() }],
                alphabet: None,
                givens: vec![None; 5],
                pool: None,
                dialect: Default::default(),
            };
            let parsed = compile::parse_clues(src, &puzzle).expect("parses");
            let alphabet = compile::choose_alphabet(src, &puzzle, &parsed, Some(&case.alphabet)).expect("alphabet");
            let compiled = compile::compile(src, &puzzle, &parsed, alphabet).expect("compiles");
            assert_eq!(compiled.clues[0].route.name(), "regular", "{:?}", case.p);
        }
    }
}
