//! Clues mean what they mean in Python, run as a user runs them, against what CPython
//! 3.11 answers for the same clue: one-row puzzles solved with `solve --all --json`,
//! `check` and `hint` on such grids, the constructs beyond plain regular expressions
//! (flags, possessive and atomic groups, conditionals, lookarounds, backreferences), and
//! the limits that stay.

use crate::common::{crossat, json_solutions, python_fullmatch};
use std::collections::BTreeSet;

/// A one-row puzzle: `clue` on the left of `n` cells; the column clues allow anything.
fn one_row(clue: &str, n: usize, alphabet: &str) -> String {
    serde_json::json!({"left": [clue], "top": vec!["(?s)."; n], "alphabet": alphabet}).to_string()
}

/// The rows crossat prints with `solve --all --json`, and its exit status.
fn solve_all(puzzle: &str) -> (BTreeSet<String>, i32, String) {
    let r = crossat(&["solve", "--all", "--json", "-"], Some(puzzle.as_bytes()));
    if r.code > 1 {
        return (BTreeSet::new(), r.code, r.stderr);
    }
    let (grids, summary) = json_solutions(&r.stdout);
    assert_eq!(summary["complete"], true, "{puzzle}: {}", r.stdout);
    (grids.into_iter().map(|g| g.concat()).collect(), r.code, r.stderr)
}

/// Solves `clue` on rows of every length in `lengths` over `alphabet` and compares with
/// Python, which must accept the clue.
fn agrees(clue: &str, alphabet: &str, lengths: &[usize]) {
    let chars: Vec<char> = alphabet.chars().collect();
    let queries: Vec<(&str, &[char], usize)> = lengths.iter().map(|&n| (clue, chars.as_slice(), n)).collect();
    for (&n, want) in lengths.iter().zip(python_fullmatch(&queries)) {
        let want = want.unwrap_or_else(|| panic!("Python refuses {clue:?}"));
        let (got, code, stderr) = solve_all(&one_row(clue, n, alphabet));
        assert!(code <= 1, "{clue:?} on {n} cells over {alphabet:?}: exit {code}: {stderr}");
        assert_eq!(got, want, "{clue:?} on {n} cells over {alphabet:?}");
        assert_eq!(code, i32::from(want.is_empty()), "{clue:?}: exit status");
    }
}

#[test]
fn python_character_classes_on_non_ascii_alphabets() {
    agrees(r"\w", "Ⓐx", &[1]);
    agrees(r"\w", "\u{345}x", &[1]);
    agrees(r"\s", "\u{1c}a", &[1]);
    agrees(r"\W*", "\u{301}a", &[1, 2, 3]);
    agrees(r"\d+|\D+", "\u{2028}1a", &[1, 2, 3]);
    agrees(r"\b\w+\b|\B\W+\B", "é²Ⓐ ", &[1, 2, 3]);
    agrees(r"[\s\d]\S", "\u{85}\u{a0}\u{3000}١x", &[2]);
}

#[test]
fn case_folding_is_sres() {
    agrees("(?i)σ+", "σςΣs", &[1, 2]);
    agrees("(?i)k[a-c]", "kK\u{212A}aBC", &[2]);
    agrees("(?i:s)ſ", "sSſ", &[2]);
    agrees(r"(?i)(.)\1", "sSſσς", &[2]);
    agrees("(?a)(?i)[^k]", "kK\u{212A}x", &[1]);
}

#[test]
fn backreferences_to_repeated_and_looked_ahead_groups_agree_with_python() {
    agrees(r"(A)(?=\1)A", "AB", &[2, 3]);
    agrees(r"(a){4}|\1*", "ab", &[1, 2, 3, 4, 5]);
    agrees(r"(A){2}|\1*", "AB", &[1, 2, 3]);
    agrees(r"(.)(?=.*\1).*", "AB", &[1, 2, 3, 4]);
}

#[test]
fn the_last_iteration_may_be_empty() {
    agrees(r"(a*)+\1", "ab", &[1, 2, 3, 4]);
    agrees(r"(a|)*b\1", "ab", &[1, 2, 3]);
}

#[test]
fn flags_possessives_atomic_groups_conditionals_and_lookarounds_agree_with_python() {
    for clue in [
        "(?i)ab",
        "(?i:a)B",
        "(?i)a(?-i:b)",
        r"(?a)\w\w",
        "(?s).a",
        "(?m)^a$",
        "(?x) a  b # comment",
        r"\N{LATIN CAPITAL LETTER A}b",
        "(?>a|ab)b",
        "a*+a",
        "a++b",
        "a?+a",
        "a{1,2}+b",
        "(a)?(?(1)b|a)",
        "(?=(?!a)).b",
        r"(a)(?!\1)b",
        r"(?=(a))\1b",
        "(?=A)*A",
        "(?<=(?=a)a)b|ab",
    ] {
        agrees(clue, "abAB\n", &[2]);
    }
}

#[test]
fn a_regular_clue_with_a_huge_dfa_is_bounded_by_its_line() {
    // The full DFA of this clue has far more than 50,000 states; on a line of 6 cells it
    // means "one of A–P, four characters, Z". With the middle columns fixed to Q, the 16
    // solutions are exactly the 16 first letters.
    let letters = "ABCDEFGHIJKLMNOP";
    let clue = format!("(?:{})*Z", letters.chars().map(|c| format!(".*{c}.{{4}}")).collect::<Vec<_>>().join("|"));
    let puzzle = serde_json::json!({"left": [clue], "top": [".", "Q", "Q", "Q", "Q", "."], "alphabet": "ABCDEFGHIJKLMNOPQRSTUVWXYZ"});
    let (got, code, stderr) = solve_all(&puzzle.to_string());
    assert_eq!(code, 0, "{stderr}");
    let want: BTreeSet<String> = letters.chars().map(|c| format!("{c}QQQQZ")).collect();
    assert_eq!(got, want);
}

#[test]
fn check_and_hint_use_python_classes() {
    // Ⓐ is not alphanumeric for Python (it is for Rust's `char::is_alphanumeric`).
    let puzzle = serde_json::json!({"left": [r"\w\w"], "top": [".", "."], "alphabet": "Ⓐx"}).to_string();
    let dir = tempfile::tempdir().expect("tmp");
    let path = dir.path().join("p.json");
    std::fs::write(&path, &puzzle).expect("write");
    let p = path.to_str().expect("utf-8");
    let r = crossat(&["check", p, "-"], Some("Ⓐx\n".as_bytes()));
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    let r = crossat(&["check", p, "-"], Some("xx\n".as_bytes()));
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    // With x given, the other cell is forced to x.
    let r = crossat(&["hint", p, "--json", "--given", "-"], Some("x.\n".as_bytes()));
    let hint = crate::common::json_lines(&r.stdout)
        .into_iter()
        .find(|v| v["type"] == "hint")
        .unwrap_or_else(|| panic!("{}{}", r.stdout, r.stderr));
    assert_eq!((hint["cell"].clone(), hint["char"].clone()), (serde_json::json!([0, 1]), serde_json::json!("x")), "{}", r.stdout);
}

#[test]
fn a_budget_is_reported_as_a_limit_never_as_a_verdict() {
    // sre needs about 2^30 steps to refuse this line; the matcher stops at its limit.
    let n = 30;
    let puzzle = serde_json::json!({"left": ["(a|a)*b"], "top": vec!["."; n], "alphabet": "ab"}).to_string();
    let dir = tempfile::tempdir().expect("tmp");
    let path = dir.path().join("p.json");
    std::fs::write(&path, &puzzle).expect("write");
    let grid = format!("{}\n", "a".repeat(n));
    let r = crossat(&["check", path.to_str().expect("utf-8"), "-"], Some(grid.as_bytes()));
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("row 1") && r.stderr.contains("steps") && r.stderr.contains("no verdict"), "{}", r.stderr);
}

#[test]
fn deep_nesting_is_a_clear_error_not_a_crash() {
    let deep = format!("{}a{}", "(".repeat(10_000), ")".repeat(10_000));
    let r = crossat(&["solve", "-"], Some(one_row(&deep, 1, "a").as_bytes()));
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("nesting too deep") && r.stderr.lines().count() == 1, "{}", r.stderr);
    // Nesting Python accepts and crossat's limit allows is solved.
    let ok = format!("{}a{}", "(?:".repeat(150), ")".repeat(150));
    agrees(&ok, "ab", &[1]);
}

#[test]
fn a_clue_beyond_the_length_limit_is_named() {
    // The limit docs/format.md documents (`MAX_CLUE_CHARS`).
    let long = "A".repeat(1_000_000 + 1);
    let r = crossat(&["solve", "-"], Some(one_row(&long, 1, "A").as_bytes()));
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("row 1 (left)") && r.stderr.contains("more than the limit of 1000000"),
        "{}",
        &r.stderr[..200.min(r.stderr.len())]
    );
    assert_eq!(r.stderr.lines().count(), 1);
    assert!(r.stderr.len() < 400, "the message shows the start of the clue, not all of it: {} bytes", r.stderr.len());
}

#[test]
fn python_refusals_are_refused_with_pythons_reason() {
    // The reasons are asked of Python (`scripts/clue_oracle.py`), not written down here.
    let clues = ["a(?i)b", "(?<=a|bc)", r"\N{NO SUCH NAME}", "(?(2)a|b)(a)", "(?L)a"];
    let requests = clues.iter().map(|c| serde_json::json!({"p": c, "alphabet": "a", "n": 1})).collect();
    for (clue, answer) in clues.iter().zip(crate::common::python_oracle("scripts/clue_oracle.py", requests)) {
        assert_eq!(answer["ok"], false, "Python accepts {clue}");
        let error = answer["error"].as_str().expect("Python's message");
        // `error: REASON at position N`: the reason, as crossat must give it.
        let why = error.strip_prefix("error: ").unwrap_or(error);
        let why = why.split(" at position").next().expect("a reason");
        let r = crossat(&["solve", "-"], Some(one_row(clue, 2, "ab").as_bytes()));
        assert_eq!(r.code, 2, "{clue}: {}", r.stderr);
        assert!(r.stderr.contains(why), "{clue}: Python says {why:?}; crossat: {}", r.stderr);
    }
}
