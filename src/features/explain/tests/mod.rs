//! `explain`: every step re-checked, independently of the engine that made it. A line
//! step's candidates before it are replayed from the start, and CPython says which
//! letters the clue's matching strings over them use at each cell
//! (`scripts/line_support.py`: every string matched by `re.fullmatch` where there are
//! at most 20,000, else the clue as `re` parses it walked over the line as an automaton,
//! cross-checked against `re.fullmatch` on every line small enough for both): no
//! removed letter occurs at its cell in a matching string, and every letter left does
//! (unless the step says it kept extra ones). A case split's sub-steps are
//! replayed the same way under its assumption and must end with an empty cell; the
//! steps from the start end at the solution. A regex pool's steps are re-checked in
//! `pools.rs`. The command line's explanations are tested in tests/explain.rs.

mod pools;

use super::{Answer, Explanation};
use crate::deduce::constraints::Constraint;
use crate::deduce::{self, Kind, Step, Why, reason};
use crate::pipeline::{self, Input, Prepared};
use crate::propagate::SymSet;
use crate::rng::Rng;
use crate::test_support as common;
use serde_json::json;
use std::path::Path;
use std::time::{Duration, Instant};

/// An `Input` for a file on disk.
fn input_file(path: &Path) -> Input {
    Input {
        source: path.display().to_string(),
        bytes: std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
        ..Input::default()
    }
}

/// An `Input` from a file, with the regex pool beside a Louridas `.csv` (its `.txt`).
fn input_with_pool(path: &Path) -> Input {
    let mut input = input_file(path);
    if path.extension().is_some_and(|e| e == "csv") {
        let txt = path.with_extension("txt");
        input.pool = Some((txt.display().to_string(), std::fs::read(&txt).unwrap_or_else(|e| panic!("{}: {e}", txt.display()))));
    }
    input
}

/// An `Input` from `text`, named by it.
fn input_text(text: &str) -> Input {
    Input { source: text.to_string(), bytes: text.as_bytes().to_vec(), ..Input::default() }
}

/// Most strings of a line that Python is asked to match for one step of a regex pool
/// or one counting or back-reference reason.
pub(crate) const MAX_PRODUCT: usize = 20_000;

/// One line step to re-check: the clue, the candidates of its cells before and after.
pub(crate) struct Query {
    what: String,
    regex: String,
    before: Vec<String>,
    after: Vec<String>,
    extra: bool,
}

/// A short reason to re-check: the clue, its line's candidates before the step, what
/// it claims (positions in the line).
struct Claim {
    what: String,
    regex: String,
    alphabet: Vec<char>,
    before: Vec<String>,
    /// `Count`: the letter, how many times, the positions that can hold it.
    count: Option<(char, usize, Vec<usize>)>,
    /// `Copy`: pairs of positions that hold the same letter in every matching word.
    same: Vec<(usize, usize)>,
}

/// What the replay of one explanation found.
#[derive(Default)]
pub(crate) struct Replay {
    claims: Vec<Claim>,
    pub(crate) queries: Vec<Query>,
    /// A regex pool's entry steps, for Python.
    pub(crate) entries: Vec<pools::EntryQuery>,
}

pub(crate) fn letters(prep: &Prepared, s: &SymSet) -> String {
    s.iter().map(|x| prep.alphabet().chars()[x]).collect()
}

/// Replays `steps` from `doms`, checking each one's shape and queueing its line checks.
pub(crate) fn replay(prep: &Prepared, name: &str, steps: &[Step], doms: &mut [SymSet], out: &mut Replay) {
    for (n, step) in steps.iter().enumerate() {
        let what = format!("{name} step {}", n + 1);
        assert!(!step.cells.is_empty(), "{what}: a step that changes no cell");
        assert!(step.uses.iter().all(|&u| u >= 1 && u <= n), "{what}: uses {:?} names no earlier step", step.uses);
        for ((&c, r), left) in step.cells.iter().zip(&step.removed).zip(&step.remaining) {
            assert!(!r.is_empty(), "{what}: cell {c} listed without a removal");
            assert_eq!(r.and(left), SymSet::default(), "{what}: cell {c} loses and keeps a letter");
            assert_eq!(r.or(left), doms[c], "{what}: cell {c}: removed and remaining are not its candidates before");
        }
        let constraint = step.clue.map(|i| deduce::constraints::constraint(&prep.puzzle, i));
        match (&step.kind, &step.why) {
            (Kind::Line, _) if matches!(constraint, Some(Constraint::Entry(_))) => {
                pools::entry_step(prep, &what, step, doms, out);
            }
            (Kind::Assign, _) => pools::assign_step(prep, &what, step, doms),
            (Kind::Line, _) => {
                let i = step.clue.expect("a line step names its clue");
                let cells = &prep.puzzle.clues[i].cells;
                assert!(step.cells.iter().all(|c| cells.contains(c)), "{what}: a cell outside the clue's line");
                let before: Vec<SymSet> = cells.iter().map(|&c| doms[c]).collect();
                for (&c, left) in step.cells.iter().zip(&step.remaining) {
                    doms[c] = *left;
                }
                let at = |c: &usize| cells.iter().position(|x| x == c).expect("a cell of the line");
                let (count, same) = match &step.why {
                    Why::Count { letter, count, cells } => {
                        (Some((prep.alphabet().chars()[*letter], *count, cells.iter().map(at).collect())), vec![])
                    }
                    Why::Copy { pairs, .. } => (None, pairs.iter().map(|(a, b)| (at(a), at(b))).collect()),
                    _ => (None, vec![]),
                };
                if count.is_some() || !same.is_empty() {
                    out.claims.push(Claim {
                        what: format!("{what} ({})", reason::describe(&prep.puzzle, prep.alphabet(), step)),
                        regex: prep.puzzle.clues[i].regex.clone(),
                        alphabet: prep.alphabet().chars().to_vec(),
                        before: before.iter().map(|d| letters(prep, d)).collect(),
                        count,
                        same,
                    });
                }
                out.queries.push(Query {
                    what: format!("{what} ({} '{}')", prep.puzzle.clues[i].label, prep.puzzle.clues[i].regex),
                    regex: prep.puzzle.clues[i].regex.clone(),
                    before: before.iter().map(|d| letters(prep, d)).collect(),
                    after: cells.iter().map(|&c| letters(prep, &doms[c])).collect(),
                    extra: step.extra,
                });
            }
            (Kind::Split, Why::Split { cell, letter, steps, empty }) => {
                assert_eq!(step.cells, [*cell], "{what}: a split changes its own cell");
                assert!(step.removed[0].contains(*letter) && step.removed[0].len() == 1, "{what}: a split removes its letter");
                let mut sub = doms.to_vec();
                let mut only = SymSet::default();
                only.insert(*letter);
                sub[*cell] = only;
                replay(prep, &format!("{what} (if {cell} were {letter})"), steps, &mut sub, out);
                assert!(sub[*empty].is_empty(), "{what}: the sub-steps do not empty cell {empty}");
                assert!(steps.last().is_some_and(Step::empties), "{what}: the last sub-step empties no cell");
                doms[*cell] = step.remaining[0];
            }
            (Kind::Search, Why::Search { .. }) => {
                for (&c, left) in step.cells.iter().zip(&step.remaining) {
                    doms[c] = *left;
                }
            }
            (kind, why) => panic!("{what}: a {kind:?} step with reason {why:?}"),
        }
    }
}

/// Asks Python for every matching string of each claim's line (small alphabets and
/// lines only) and checks the claim on those within the candidates before the step.
/// Returns how many claims were checked.
fn check_claims(claims: &[Claim]) -> usize {
    let small: Vec<&Claim> =
        claims.iter().filter(|c| c.alphabet.len().checked_pow(c.before.len() as u32).is_some_and(|n| n <= MAX_PRODUCT)).collect();
    let queries: Vec<(&str, &[char], usize)> = small.iter().map(|c| (c.regex.as_str(), c.alphabet.as_slice(), c.before.len())).collect();
    for (c, matches) in small.iter().zip(common::python_fullmatch(&queries)) {
        let matches = matches.unwrap_or_else(|| panic!("{}: Python refuses `{}`, crossat reads it", c.what, c.regex));
        assert!(!matches.contains(common::CRASH), "{}: CPython's matcher crashed on `{}`", c.what, c.regex);
        let words: Vec<Vec<char>> = matches
            .iter()
            .map(|m| m.chars().collect::<Vec<char>>())
            .filter(|w| w.iter().zip(&c.before).all(|(ch, b)| b.contains(*ch)))
            .collect();
        assert!(!words.is_empty(), "{}: no matching word", c.what);
        if let Some((letter, count, at)) = &c.count {
            assert!(words.iter().all(|w| w.iter().filter(|&&x| x == *letter).count() >= *count), "{}: a word with fewer", c.what);
            let can: Vec<usize> = (0..c.before.len()).filter(|&p| c.before[p].contains(*letter)).collect();
            assert_eq!((&can, can.len()), (at, *count), "{}: the cells that can hold it", c.what);
        }
        for &(a, b) in &c.same {
            assert!(words.iter().all(|w| w[a] == w[b]), "{}: a word with different letters", c.what);
        }
    }
    small.len()
}

/// An answer of `scripts/line_oracle.py` that is no verdict: a clue Python refuses must
/// be refused by crossat too (and crossat explained it, so that fails), and otherwise
/// it is the documented CPython crash, which the caller counts and bounds.
pub(crate) fn python_refusal(regex: &str, answer: &serde_json::Value, what: &str) {
    if let Some(e) = answer.get("error") {
        assert!(crate::regex::parser::parse(regex).is_err(), "{what}: Python refuses `{regex}` ({e}), crossat reads it");
    }
    assert!(answer.get("error").is_some() || answer.get("crash").is_some(), "{what}: {answer}");
}

/// How the line steps were checked.
#[derive(Debug, Default)]
pub(crate) struct Checked {
    /// Steps compared with CPython's answer.
    pub(crate) compared: usize,
    /// Of those, steps answered by the automaton (too many strings to match one by one).
    pub(crate) by_automaton: usize,
    /// Steps where the automaton's answer was compared with `re.fullmatch` over every
    /// string of the line, or (lines past enumeration) of three sub-lines around a string
    /// the automaton says matches, which `re.fullmatch` must match too: the oracle fails
    /// on any difference.
    pub(crate) crosschecked: usize,
}

/// Asks Python about every query; fails naming the first step it contradicts. Steps
/// left unchecked (the documented CPython crash; too large for enumeration with a
/// clue the automaton refuses or more states than it keeps) are counted, each kind at
/// most 1 % of the steps, and at least `min` steps are compared.
pub(crate) fn check_with_python(queries: &[Query], min: usize) -> Checked {
    let requests = queries.iter().map(|q| json!({"p": q.regex, "cands": q.before})).collect();
    let answers = common::python_oracle("scripts/line_support.py", requests);
    let (mut crashed, mut too_large) = (0, 0);
    let mut checked = Checked::default();
    for (q, a) in queries.iter().zip(answers) {
        if let Some(why) = a.get("skip") {
            eprintln!("{}: too large to check: {why}", q.what);
            too_large += 1;
            continue;
        }
        if a["ok"] != true {
            python_refusal(&q.regex, &a, &q.what);
            crashed += 1;
            continue;
        }
        checked.compared += 1;
        checked.by_automaton += usize::from(a["how"] == "automaton");
        checked.crosschecked += usize::from(a["crosschecked"] == true);
        assert!(a["how"] != "automaton" || a["crosschecked"] == true, "{}: {a}", q.what);
        let used: Vec<&str> = a["used"].as_array().expect("used").iter().map(|u| u.as_str().expect("str")).collect();
        for (p, (u, after)) in used.iter().zip(&q.after).enumerate() {
            assert!(
                u.chars().all(|ch| after.contains(ch)),
                "{}: position {p} removes a letter of a matching string: {u} vs {after}",
                q.what
            );
            if !q.extra {
                assert!(
                    after.chars().all(|ch| u.contains(ch)),
                    "{}: position {p} keeps a letter no matching string uses: {after} vs {u}",
                    q.what
                );
            }
        }
    }
    let total = queries.len();
    common::bound_skips("explain: line steps where CPython's matcher crashed", crashed, total, checked.compared, min);
    common::bound_skips("explain: line steps too large to check", too_large, total, checked.compared, min);
    eprintln!("explain: {checked:?}");
    checked
}

/// Explains a puzzle and replays it; returns the explanation and the time it took.
pub(crate) fn explain(input: &Input, budget: usize, out: &mut Replay) -> (Prepared, Explanation, Duration) {
    explain_with(input, deduce::Options { budget, ..deduce::Options::default() }, out)
}

/// [`explain`] within `opts`.
fn explain_with(input: &Input, opts: deduce::Options, out: &mut Replay) -> (Prepared, Explanation, Duration) {
    let mut prep = pipeline::prepare(input).unwrap_or_else(|e| panic!("{}: {e}", input.source));
    let start = Instant::now();
    let ex = super::explain(&mut prep, opts).unwrap_or_else(|e| panic!("{}: {e}", input.source));
    let took = start.elapsed();
    let mut doms = ex.deduction.start.clone();
    replay(&prep, &input.source, &ex.deduction.steps, &mut doms, out);
    assert_eq!(doms, ex.deduction.doms, "{}: the replay ends elsewhere than the deduction", input.source);
    if let Answer::Unique(cells) = &ex.answer {
        let replayed: Vec<char> = doms[..prep.puzzle.givens.len()]
            .iter()
            .map(|d| {
                assert_eq!(d.len(), 1, "{}: a cell open after the last step of a unique answer", input.source);
                prep.alphabet().chars()[d.iter().next().unwrap_or(0)]
            })
            .collect();
        assert_eq!(&replayed, cells, "{}: the steps do not give the answer", input.source);
    }
    (prep, ex, took)
}

/// The antoine-trux grid tests, in name order.
fn trux_files() -> Vec<std::path::PathBuf> {
    let dir = common::root().join("puzzles/antoine-trux");
    let mut files: Vec<_> = std::fs::read_dir(&dir).expect("dir").map(|e| e.expect("entry").path()).collect();
    files.retain(|p| p.to_string_lossy().ends_with(".input.txt"));
    files.sort();
    files
}

#[test]
fn bundled_puzzles_are_explained_step_by_step() {
    let files = trux_files();
    let mut out = Replay::default();
    let (mut by_deduction, mut searched) = (0, 0);
    let mut slowest = (Duration::ZERO, String::new());
    for path in &files {
        let input = input_file(path);
        let (mut prep, ex, took) = explain(&input, 10_000, &mut out);
        if took > slowest.0 {
            slowest = (took, input.source.clone());
        }
        // The answer agrees with the solver's.
        let mut grids = Vec::new();
        let outcome = pipeline::solve(&mut prep, Some(2), |_, g| {
            grids.push(g.cells.clone());
            Ok(())
        })
        .expect("solve");
        match &ex.answer {
            Answer::Unique(cells) => assert!(grids.len() == 1 && outcome.complete && &grids[0] == cells, "{}", input.source),
            Answer::Several => assert_eq!(grids.len(), 2, "{}", input.source),
            other => panic!("{}: answer {other:?}", input.source),
        }
        by_deduction += usize::from(ex.unique_by_deduction);
        searched += ex.deduction.count(Kind::Search);
    }
    let checked = check_with_python(&out.queries, 1200);
    assert!(by_deduction > files.len() * 3 / 4, "only {by_deduction} of {} puzzles unique by deduction", files.len());
    eprintln!(
        "explain: {} puzzles, {by_deduction} unique by deduction, {searched} needing search; {} line steps; slowest {:?} ({})",
        files.len(),
        out.queries.len(),
        slowest.0,
        slowest.1
    );
    // A third of the steps are over more strings than are matched one by one: the
    // automaton answers those, and is itself compared with `re.fullmatch` on the rest
    // and on sub-lines of those.
    assert!(checked.by_automaton >= 300 && checked.crosschecked >= 1200, "{checked:?}");
}

/// Where lines stall, the explanation ends with the SAT search: with case splits off
/// (depth 0), the bundled puzzles that lines alone do not solve end with one search step
/// that settles every open cell to `solve`'s only solution, unique but not by
/// deduction, rated hard; the line steps before it are re-checked with CPython.
#[test]
fn where_lines_stall_the_search_settles_the_open_cells() {
    let files = trux_files();
    let mut out = Replay::default();
    let mut searched = 0;
    for path in &files {
        let input = input_file(path);
        let lines_only = deduce::Options { depth: 0, ..deduce::Options::default() };
        let (mut prep, ex, _) = explain_with(&input, lines_only, &mut out);
        if ex.deduction.end != deduce::End::Stalled {
            continue;
        }
        let mut grids = Vec::new();
        let outcome = pipeline::solve(&mut prep, Some(2), |_, g| {
            grids.push(g.cells.clone());
            Ok(())
        })
        .expect("solve");
        if !(outcome.complete && grids.len() == 1) {
            continue;
        }
        let what = &input.source;
        searched += 1;
        assert_eq!(ex.answer, Answer::Unique(grids[0].clone()), "{what}");
        assert!(!ex.unique_by_deduction, "{what}: not unique by deduction");
        assert_eq!(ex.deduction.count(Kind::Search), 1, "{what}: one search step");
        let last = ex.deduction.steps.last().expect("steps");
        assert!(matches!(last.why, Why::Search { solutions: 1, complete: true }), "{what}: {:?}", last.why);
        assert!(!last.cells.is_empty() && last.remaining.iter().all(|d| d.len() == 1), "{what}: the search fixes the open cells");
        assert_eq!(ex.difficulty().map(|d| d.name()), Some("hard"), "{what}");
    }
    assert!(searched >= 3, "only {searched} bundled puzzles stall on lines alone");
    check_with_python(&out.queries, 20);
}

/// A random clue that `word` satisfies, with back-references and lookarounds.
pub(crate) fn planted(rng: &mut Rng, word: &[char], alphabet: &[char]) -> String {
    let n = word.len();
    let w: String = word.iter().collect();
    let absent: Vec<char> = alphabet.iter().copied().filter(|c| !word.contains(c)).collect();
    let loose = |rng: &mut Rng, c: char| match rng.below(3) {
        0 => c.to_string(),
        1 => ".".to_string(),
        _ => format!("[{c}{}]", rng.pick(alphabet)),
    };
    match rng.below(7) {
        // A back-reference between two equal letters.
        0 => {
            let pair = (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, j))).find(|&(i, j)| word[i] == word[j]);
            let mut out = String::new();
            for (p, &c) in word.iter().enumerate() {
                match pair {
                    Some((i, _)) if p == i => out.push_str(&format!("({})", loose(rng, c))),
                    Some((_, j)) if p == j => out.push_str("\\1"),
                    _ => out.push_str(&loose(rng, c)),
                }
            }
            out
        }
        1 => format!("(?=.*{}).*", rng.pick(word)),
        2 if !absent.is_empty() => format!("(?!.*{}){}", rng.pick(&absent), (0..n).map(|p| loose(rng, word[p])).collect::<String>()),
        3 => format!("{w}|{}", (0..n).map(|_| *rng.pick(alphabet)).collect::<String>()),
        4 => format!("(.)(?:{}|.*\\1.*)", &w[word[0].len_utf8()..]),
        5 => format!("[{}]*", w),
        _ => word.iter().map(|&c| loose(rng, c)).collect(),
    }
}

#[test]
fn random_planted_puzzles_are_explained_step_by_step() {
    let mut rng = Rng::new(27);
    let alphabet = ['A', 'B', 'C'];
    let mut out = Replay::default();
    let (mut total, mut unique, mut splits) = (0, 0, 0);
    for _ in 0..1500 {
        let (rows, cols) = (1 + rng.below(3), 1 + rng.below(3));
        let grid: Vec<char> = (0..rows * cols).map(|_| *rng.pick(&alphabet)).collect();
        let row = |r: usize| (0..cols).map(|c| grid[r * cols + c]).collect::<Vec<_>>();
        let col = |c: usize| (0..rows).map(|r| grid[r * cols + c]).collect::<Vec<_>>();
        let left: Vec<String> = (0..rows).map(|r| planted(&mut rng, &row(r), &alphabet)).collect();
        let top: Vec<String> = (0..cols).map(|c| planted(&mut rng, &col(c), &alphabet)).collect();
        let text = json!({"left": left, "top": top, "alphabet": "ABC"}).to_string();
        let mut input = input_text(&text);
        input.alphabet = Some(alphabet.to_vec());
        let (_, ex, _) = explain(&input, 2_000, &mut out);
        assert!(ex.answer != Answer::None, "{text}: the planted grid is a solution");
        total += 1;
        unique += usize::from(matches!(ex.answer, Answer::Unique(_)));
        splits += ex.deduction.count(Kind::Split);
    }
    check_with_python(&out.queries, 3500);
    let claims = check_claims(&out.claims);
    eprintln!(
        "explain: {total} planted puzzles ({unique} unique, {splits} case splits), {} line steps checked with Python, {claims} counting and back-reference reasons",
        out.queries.len()
    );
}

#[test]
fn random_free_layouts_are_explained_step_by_step() {
    let mut rng = Rng::new(2727);
    let alphabet = ['A', 'B', 'C'];
    let mut out = Replay::default();
    let (mut total, mut unique) = (0, 0);
    for _ in 0..300 {
        // Entries along rows and columns of a 4x4 board, crossing where they meet.
        let board: Vec<char> = (0..16).map(|_| *rng.pick(&alphabet)).collect();
        let mut entries = Vec::new();
        for k in 0..2 + rng.below(4) {
            let (line, from) = (rng.below(4), rng.below(3));
            let len = 1 + rng.below(4 - from);
            let cells: Vec<(usize, usize)> = (from..from + len).map(|p| if k % 2 == 0 { (line, p) } else { (p, line) }).collect();
            let word: Vec<char> = cells.iter().map(|&(r, c)| board[r * 4 + c]).collect();
            let clue = planted(&mut rng, &word, &alphabet);
            entries.push(json!({"label": format!("{}", k + 1), "cells": cells.iter().map(|&(r, c)| json!([r, c])).collect::<Vec<_>>(), "clues": [clue]}));
        }
        let text = json!({"layout": "free", "alphabet": "ABC", "entries": entries}).to_string();
        let mut input = input_text(&text);
        input.alphabet = Some(alphabet.to_vec());
        let (_, ex, _) = explain(&input, 2_000, &mut out);
        assert!(ex.answer != Answer::None, "{text}: the planted board is a solution");
        total += 1;
        unique += usize::from(matches!(ex.answer, Answer::Unique(_)));
    }
    check_with_python(&out.queries, 700);
    eprintln!("explain: {total} free layouts ({unique} unique), {} line steps checked with Python", out.queries.len());
}

/// The short reasons on examples: a count of letters, a back-reference; each also
/// re-checked with Python.
#[test]
fn counting_and_back_reference_reasons_are_given_and_true() {
    let mut out = Replay::default();
    let mut reasons = Vec::new();
    for text in [
        r#"{"left": [".*H.*H.*"], "top": ["[HA]", "[AB]", "[HB]"], "alphabet": "HAB"}"#,
        r#"{"left": ["(.)\\1"], "top": ["[HA]", "A"], "alphabet": "HAB"}"#,
    ] {
        let input = input_text(text);
        let (prep, ex, _) = explain(&input, 2_000, &mut out);
        reasons.extend(ex.deduction.steps.iter().map(|s| reason::describe(&prep.puzzle, prep.alphabet(), s)));
    }
    assert!(
        reasons.contains(&"`.*H.*H.*` needs 2 H's and only (row 1, column 1) and (row 1, column 3) can hold one".to_string()),
        "{reasons:#?}"
    );
    assert!(
        reasons.contains(&"the back-reference `\\1` of `(.)\\1` makes (row 1, column 1) hold the letter of (row 1, column 2)".to_string()),
        "{reasons:#?}"
    );
    assert_eq!(check_claims(&out.claims), 2);
    check_with_python(&out.queries, 5);
}
