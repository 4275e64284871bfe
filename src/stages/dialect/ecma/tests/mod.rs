//! The ECMAScript dialect (`crate::ecma`) against node itself.
//!
//! The meaning of a clue C on a line s is `new RegExp('^(?:' + C + ')$').test(s)` in
//! node (no flags: Annex B syntax, UTF-16 code units); a clue must also compile on its
//! own (`new RegExp(C)`). One `node scripts/ecma_oracle.js` process answers every
//! case. The differential test draws random clues mixing JavaScript and Python
//! constructs, Annex B oddities and plain mistakes, and lines of length 0–6 over small
//! awkward alphabets; crossat's parser must accept exactly what node accepts and the
//! matcher must give node's verdict on every line. The named tests check each
//! difference between the dialects docs/format.md lists: the ECMAScript verdict is
//! node's, and crossat's Python dialect (`crate::sre`, itself checked against
//! CPython in src/stages/dialect/sre/tests.rs) answers otherwise.
//!
//! The random clues and the differential test are in `random.rs`.
//! `CROSSAT_ECMA_CASES=N` sets the number of (clue, line) pairs of the differential
//! test (default 200,000) and `CROSSAT_ECMA_SEED` its seed. node must be installed:
//! the tests fail, never skip, without it.

mod random;

use crate::ecma::{self, Matcher};
use crate::test_support::root;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

/// What node answers about a clue: `Err(message)` when `new RegExp(clue)` throws, else
/// the verdict on each line, or `Ok(None)` when node's own backtracking ran past the
/// script's timeout.
type Answer = Result<Option<Vec<bool>>, String>;

/// Asks node about each `(clue, lines)`.
fn node_answers(cases: &[(String, Vec<String>)]) -> Vec<Answer> {
    let mut child = Command::new("node")
        .arg(root().join("scripts/ecma_oracle.js"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("node is required for the ECMAScript tests: {e}"));
    let mut stdin = child.stdin.take().expect("stdin");
    let requests: Vec<Value> = cases.iter().map(|(p, s)| json!({"p": p, "s": s})).collect();
    let writer = std::thread::spawn(move || {
        let mut w = std::io::BufWriter::new(&mut stdin);
        for r in requests {
            writeln!(w, "{r}").expect("write to node");
        }
    });
    let out: Vec<Value> = BufReader::new(child.stdout.take().expect("stdout"))
        .lines()
        .map(|l| serde_json::from_str(&l.expect("node output")).expect("node JSON"))
        .collect();
    writer.join().expect("writer");
    assert!(child.wait().expect("node").success(), "scripts/ecma_oracle.js failed");
    assert_eq!(out.len(), cases.len(), "node answered {} of {} cases", out.len(), cases.len());
    out.into_iter()
        .zip(cases)
        .map(|(v, (p, _))| {
            if let Some(e) = v.get("e") {
                return Err(e.as_str().expect("message").to_string());
            }
            assert!(v.get("w").is_none(), "node accepts {p:?} alone but not wrapped: {v}");
            if v.get("t").is_some() {
                return Ok(None);
            }
            Ok(Some(v["r"].as_array().expect("verdicts").iter().map(|b| b.as_bool().expect("bool")).collect()))
        })
        .collect()
}

/// [`node_answers`] for hand-picked cases, which node answers in time.
fn node(cases: &[(String, Vec<String>)]) -> Vec<Result<Vec<bool>, String>> {
    node_answers(cases).into_iter().map(|a| a.map(|r| r.expect("node answers in time"))).collect()
}

/// crossat's ECMAScript verdicts, or the parse error.
fn crossat_ecma(clue: &str, lines: &[String]) -> Result<Vec<bool>, String> {
    let p = ecma::parse(clue).map_err(|e| e.to_string())?;
    let m = Matcher::new(&p);
    Ok(lines.iter().map(|s| m.fullmatch_str(s).unwrap_or_else(|e| panic!("{clue:?} on {s:?}: {e}"))).collect())
}

/// [`crossat_ecma`], with `Ok(None)` when the matcher runs out of its budget.
fn crossat_ecma_bounded(clue: &str, lines: &[String]) -> Result<Option<Vec<bool>>, String> {
    let p = ecma::parse(clue).map_err(|e| e.to_string())?;
    let m = Matcher::new(&p);
    Ok(lines.iter().map(|s| m.fullmatch_str(s).ok()).collect())
}

/// crossat's Python verdicts (CPython's `re.fullmatch`), or the error.
fn crossat_python(clue: &str, lines: &[String]) -> Result<Vec<bool>, String> {
    let p = crate::regex::parser::parse(clue).map_err(|e| e.to_string())?;
    let m = crate::sre::Matcher::new(&p).map_err(|e| e.to_string())?;
    Ok(lines.iter().map(|s| m.fullmatch_str(s).expect("within budget")).collect())
}

// ---------------------------------------------------------------------------------
// Each difference between the dialects, with node's answer.

/// Checks that crossat's ECMAScript reading of each clue is node's on each line, and
/// that the Python reading differs from it (another verdict, or a refusal).
fn differs(cases: &[(&str, &[&str])]) {
    let cases: Vec<(String, Vec<String>)> =
        cases.iter().map(|(p, ss)| (p.to_string(), ss.iter().map(|s| s.to_string()).collect())).collect();
    // Python's reading is CPython's own; crossat's Python reading must be it too.
    let python = crate::test_support::python_verdicts(&cases);
    for (((clue, lines), js), py) in cases.iter().zip(node(&cases)).zip(python) {
        let ours = crossat_ecma(clue, lines);
        assert_eq!(ours.is_ok(), js.is_ok(), "{clue:?}: crossat {ours:?}, node {js:?}");
        assert_eq!(ours.as_ref().ok(), js.as_ref().ok(), "{clue:?} on {lines:?}");
        assert_eq!(
            crossat_python(clue, lines).ok(),
            py.as_ref().ok().cloned(),
            "{clue:?} on {lines:?}: crossat's Python reading is not CPython's"
        );
        assert_ne!(py.ok(), js.ok(), "{clue:?} on {lines:?}: Python and JavaScript should differ");
    }
}

#[test]
fn a_reference_to_a_group_that_did_not_take_part_matches_empty() {
    differs(&[(r"(a)?\1b", &["b", "ab"]), (r"(?:(a)|b)\1b", &["bb", "aab"])]);
}

#[test]
fn captures_are_reset_at_each_iteration() {
    differs(&[(r"(?:(a)|b)+\1", &["aba", "ab", "abaa"]), (r"(?:(a)|(b))+\1\2", &["abab", "ab", "abb"])]);
}

#[test]
fn forward_references_and_octal_escapes() {
    // `\1(a)`: a forward reference (empty); `\2(a)`: the octal escape U+0002.
    differs(&[(r"\1(a)", &["a", "aa"]), (r"\2(a)", &["\u{2}a", "a"]), (r"(a)\12", &["a\n", "aa2"])]);
}

#[test]
fn eight_and_nine_escapes_are_digits() {
    differs(&[(r"\8", &["8"]), (r"[\9]", &["9"]), (r"\400", &[" 0", "\u{100}"])]);
}

#[test]
fn python_only_escapes_are_letters() {
    differs(&[(r"a\Z", &["aZ", "a"]), (r"\Ab", &["Ab", "b"]), (r"\q", &["q"])]);
}

#[test]
fn empty_and_full_classes() {
    differs(&[("[^]", &["a", "\n", "\u{2028}"]), ("[]a", &["a", "]a"]), ("[]a]", &["a]", "a", "]"])]);
}

#[test]
fn digit_word_and_boundary_are_ascii() {
    differs(&[(r"\d", &["٣", "3"]), (r"\w", &["é", "a"]), (r"é\b", &["é"]), (r".\B", &["é"])]);
}

#[test]
fn space_sets() {
    differs(&[(r"\s", &["\u{1c}", "\u{85}", "\u{feff}", " "]), (r"\S", &["\u{1f}", "\u{feff}"])]);
}

#[test]
fn dot_excludes_line_terminators() {
    differs(&[(".", &["\r", "\u{2028}", "\u{2029}", "\n", "a"])]);
}

#[test]
fn dollar_is_only_the_end() {
    differs(&[("a$\n", &["a\n"]), ("(?:a$)\n?", &["a\n", "a"])]);
}

#[test]
fn lookbehind_of_variable_width() {
    differs(&[(".(?<=a+)b", &["ab", "bb"]), ("(?<=(a|bc))", &[""]), ("..(?<=(.)\\1)", &["aa", "ab"])]);
}

#[test]
fn braces_that_are_not_quantifiers_are_text() {
    differs(&[("a{,3}", &["a{,3}", "aaa", ""]), ("a{,}", &["a{,}"])]);
}

#[test]
fn python_group_syntax_is_refused() {
    // Inline flags, `(?P<…>)`, atomic groups, conditionals, comments: JavaScript errors.
    differs(&[("(?i)a", &["a"]), ("(?i:a)", &["a"]), ("(?P<n>a)", &["a"]), ("(?>a)", &["a"]), ("(a)(?(1)b)", &["ab"]), ("a++", &["a"])]);
}

#[test]
fn javascript_group_syntax() {
    // Named groups `(?<n>…)` and `\k<n>`: Python errors; `\k` without named groups is `k`.
    differs(&[(r"(?<n>a)\k<n>", &["aa", "a"]), (r"\k", &["k"]), (r"\k<n>", &["k<n>"])]);
}

#[test]
fn incomplete_escapes_are_letters() {
    differs(&[(r"\x4", &["x4"]), (r"\u{3}", &["uuu", "\u{3}"]), (r"[\d-z]", &["-", "5", "z", "y"])]);
}

#[test]
fn a_character_outside_the_bmp_is_two_units() {
    differs(&[(".", &["😀"]), ("..", &["😀", "ab"]), ("[😀]", &["😀"])]);
}

#[test]
fn control_escapes() {
    differs(&[(r"\cJ", &["\n"]), (r"\c1", &["\\c1"]), (r"[\c1]", &["\u{11}"]), (r"\c", &["\\c"])]);
}

#[test]
fn a_clue_must_be_a_pattern_on_its_own() {
    // node accepts the wrapped `^(?:a)|(b)$`; the clue alone is refused, in both dialects.
    let lines = vec!["a".to_string()];
    let js = node(&[("a)|(b".to_string(), lines.clone())]);
    assert!(js[0].is_err(), "node refuses `a)|(b` alone");
    assert!(ecma::parse("a)|(b").is_err());
}

#[test]
fn long_lines_recurse_on_the_matchers_own_stack() {
    // Thousands of iterations nest thousands of continuations: past the shallow
    // limit, the match runs again on a thread with a large stack.
    let long = "ab".repeat(3000);
    let cases = vec![
        ("(?:a|b)*".to_string(), vec![long.clone(), format!("{long}c")]),
        ("(a|b)*\\1".to_string(), vec![format!("{long}b"), long.clone()]),
        ("(?:a(?<=(a))b)+\\1".to_string(), vec![format!("{long}a"), format!("{long}b")]),
    ];
    for ((clue, lines), js) in cases.iter().zip(node(&cases)) {
        assert_eq!(crossat_ecma(clue, lines), js, "{clue:?}");
    }
}

#[test]
fn running_out_of_budget_is_an_error_not_a_verdict() {
    let p = ecma::parse("(?:a*)*(?:a*)*(?:a*)*b").expect("parses");
    let line: Vec<char> = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaac".chars().collect();
    let e = Matcher::new(&p).with_budget(10_000).fullmatch(&line).expect_err("over budget");
    assert!(!e.stack && e.steps == 10_000, "{e:?}");
    assert!(e.to_string().contains("budget"), "{e}");
}

#[test]
fn syntax_errors_name_the_problem_and_the_position() {
    for (clue, message, position) in [
        ("a)", "Unmatched ')'", 1),
        ("(?:a", "Unterminated group", 0),
        ("ab**", "Nothing to repeat", 3),
        ("é[z-a]", "Range out of order", 3),
    ] {
        let cases = vec![(clue.to_string(), Vec::new())];
        let js = node(&cases).remove(0).expect_err("node refuses it");
        let e = ecma::parse(clue).expect_err("crossat refuses it");
        assert!(e.message.contains(message) && js.contains(message), "{clue:?}: crossat {e}, node {js}");
        assert_eq!(e.position, position, "{clue:?}: {e}");
    }
}

#[test]
fn a_line_shorter_than_any_match_is_refused_at_once() {
    // node's own analysis refuses these without iterating; so does crossat, by the
    // fewest units a match consumes, before its matcher would run out of depth.
    let cases = vec![("(?:(?:b){0,2}){99999999999}(?<!a)a".to_string(), vec![String::new()])];
    assert_eq!(crossat_ecma(&cases[0].0, &cases[0].1), node(&cases).remove(0));
}

#[test]
fn forced_iterations_past_the_line_are_cut_without_changing_an_answer() {
    // The matcher runs at most one forced iteration per position left (see
    // `cap_forced`); node runs every one. Bodies that may match the empty string in
    // one or more ways, with captures the next iteration resets, references, and
    // assertions, repeated 5 or 8 times on lines of at most 3 units (so the cut always
    // applies), in plain sequence, before a reference, inside a lookahead (whose
    // first result alone counts) and a lookbehind.
    const ATOMS: &[&str] = &["a", "", "(a)", "(a|)", "b?", "(?:a|b)??", "\\1", "(?=a)", "(?!a)", "^", "$", "\\b", "(?<=a)"];
    let mut bodies: Vec<String> = ATOMS.iter().map(|a| a.to_string()).collect();
    for x in ATOMS {
        for y in ATOMS {
            bodies.push(format!("{x}{y}"));
            bodies.push(format!("{x}|{y}"));
        }
    }
    let mut lines = vec![String::new()];
    let mut frontier = vec![String::new()];
    for _ in 0..3 {
        frontier = frontier.iter().flat_map(|s| ['a', 'b'].map(|c| format!("{s}{c}"))).collect();
        lines.extend(frontier.iter().cloned());
    }
    let mut cases: Vec<(String, Vec<String>)> = Vec::new();
    for body in &bodies {
        for q in ["{5}", "{8}?", "{5,}", "{8,}?", "{5,6}"] {
            let r = format!("(?:{body}){q}");
            for clue in [r.clone(), format!("{r}\\1"), format!("(?={r})\\1[ab]*"), format!("[ab]*(?<={r})")] {
                cases.push((clue, lines.clone()));
            }
        }
    }
    let (mut compared, mut matched) = (0, 0);
    for ((clue, lines), js) in cases.iter().zip(node(&cases)) {
        let js = js.unwrap_or_else(|e| panic!("node refuses {clue:?}: {e}"));
        let ours = crossat_ecma(clue, lines).unwrap_or_else(|e| panic!("crossat refuses {clue:?}: {e}"));
        for ((s, x), y) in lines.iter().zip(&ours).zip(&js) {
            assert_eq!(x, y, "{clue:?} on {s:?}: crossat {x}, node {y}");
            compared += 1;
            matched += usize::from(*y);
        }
    }
    // Both verdicts are common, so the comparison means something.
    assert!(matched * 10 > compared && matched * 10 < compared * 9, "{matched} of {compared} lines match");
}

#[test]
fn huge_minimum_repeats_are_solved_as_the_matcher_reads_them() {
    // Past the empty line node runs out of stack on these (no verdict to compare), so
    // the matcher, checked against node with small minimums just above, is the
    // reference: the whole search (whichever route compiles the clue, as `solve --all`
    // runs it) lists exactly the lines it accepts, and answers at once.
    const CLUES: &[&str] = &[
        "(?<n>(?:\\})?){99999999999}",
        "(?: |){99999999999}",
        "(?:a{0,2}){99999999999}",
        "((?:\\2|b|a){99999999999}(?<x1>(.)))",
        "(?:(?:.{0}){99999999999}?|a){99999999999}",
        "(?:|^|a|b{99999999999}){99999999999}",
        "(?<m>\\1|b+?|(\\2)){99999999999}?",
        "(?:(?<n>[a}]){0,2}?){99999999999}?",
        "(?:a|(?=b)){99999999999}b*",
        "(?=(a|){4294967294})\\1.*",
        ".*(?<=(a|}){99999999999})\\1?",
        "(?:(a)|b\\1){3000000000,4000000000}",
    ];
    let alphabet = ['a', 'b', '}', ' '];
    for clue in CLUES {
        let m = Matcher::new(&ecma::parse(clue).unwrap_or_else(|e| panic!("{clue:?}: {e}")));
        let mut lines = vec![String::new()];
        for n in 1..=4 {
            lines = lines.iter().flat_map(|s| alphabet.map(|c| format!("{s}{c}"))).collect();
            let want: Vec<&String> =
                lines.iter().filter(|s| m.fullmatch_str(s).unwrap_or_else(|e| panic!("{clue:?} on {s:?}: {e}"))).collect();
            let puzzle = json!({"rows": 1, "cols": n, "left": [clue], "alphabet": "ab} ", "dialect": "ecmascript"}).to_string();
            let found = crate::Puzzle::read("<huge>", puzzle.as_bytes())
                .and_then(|mut p| p.solutions(usize::MAX))
                .unwrap_or_else(|e| panic!("{clue:?}, length {n}: {e}"));
            assert!(found.complete, "{clue:?}, length {n}");
            let mut got: Vec<String> = found.solutions.into_iter().map(|s| s.rows[0].clone()).collect();
            got.sort();
            let mut want: Vec<String> = want.into_iter().cloned().collect();
            want.sort();
            assert_eq!(got, want, "{clue:?}, length {n}");
        }
    }
}
