//! The clue dialects end to end: how a puzzle's dialect is chosen (format default, the
//! crossat JSON field, `--dialect`), that it is shown, that every bundled
//! regexcrossword.com challenge solves under ECMAScript with a unique answer node
//! accepts, each difference between the dialects, and `crossat lint` — its witnesses
//! checked by python3 and node.

use crate::common::{arg, crossat, input_file, json_lines, puzzle, tmp, write_file};
use crossat::puzzle::Dialect;
use crossat::puzzle::Input;
use std::io::Write;
use std::process::{Command, Stdio};

const CHALLENGES: &str = "regexcrossword-com/challenges.json";

/// node's verdict `new RegExp('^(?:' + clue + ')$').test(line)` for each pair (`None`:
/// `new RegExp(clue)` throws). Panics without node.
fn node_tests(pairs: &[(String, String)]) -> Vec<Option<bool>> {
    let script = "let d='';process.stdin.on('data',c=>d+=c).on('end',()=>{console.log(JSON.stringify(JSON.parse(d).map(([p,s])=>{try{new RegExp(p)}catch(e){return null}return new RegExp('^(?:'+p+')$').test(s)})))})";
    assert!(crate::tools::require(crate::tools::Tool::Node), "node {} is required", crate::tools::NODE_MAJOR);
    oracle("node", &["-e", script], pairs)
}

/// Python's verdict `re.fullmatch(clue, line) is not None` for each pair (`None`: `re`
/// refuses the clue). Panics without python3.
fn python_tests(pairs: &[(String, String)]) -> Vec<Option<bool>> {
    let script = "import json,re,sys\ndef t(p,s):\n    try: r=re.compile(p)\n    except Exception: return None\n    return r.fullmatch(s) is not None\nprint(json.dumps([t(p,s) for p,s in json.load(sys.stdin)]))";
    oracle("python3", &["-c", script], pairs)
}

fn oracle(program: &str, args: &[&str], pairs: &[(String, String)]) -> Vec<Option<bool>> {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{program} is required for this test: {e}"));
    child.stdin.take().expect("stdin").write_all(serde_json::to_string(pairs).expect("json").as_bytes()).expect("write");
    let out = child.wait_with_output().expect("wait");
    assert!(out.status.success(), "{program} failed");
    serde_json::from_slice(&out.stdout).expect("oracle JSON")
}

fn challenge_ids() -> Vec<String> {
    let run = crossat(&["list", arg(&puzzle(CHALLENGES)), "--json"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    json_lines(&run.stdout).iter().map(|v| v["key"].as_str().expect("key").to_string()).collect()
}

/// Every bundled challenge, under its default dialect (ECMAScript), has exactly one
/// solution, and node's `RegExp` accepts every clue on its line of it.
#[test]
fn every_challenge_solves_under_ecmascript_and_node_accepts_it() {
    if !crate::tools::require(crate::tools::Tool::Node) {
        return;
    }
    let ids = challenge_ids();
    assert!(ids.len() >= 55, "{} challenges", ids.len());
    assert!(ids.iter().filter(|k| k.starts_with("hexagonal/")).count() == 5);
    let mut pairs = Vec::new();
    for id in &ids {
        let mut p = crossat::Puzzle::from_input(&input_file(&puzzle(CHALLENGES), Some(id))).unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(p.puzzle().dialect, Dialect::Ecmascript, "{id}");
        let found = p.solutions(2).unwrap_or_else(|e| panic!("{id}: {e}"));
        let (grids, complete) = (found.solutions, found.complete);
        assert!(complete && grids.len() == 1, "{id}: {} solutions, complete {complete}", grids.len());
        for clue in &p.puzzle().clues {
            pairs.push((clue.regex.clone(), clue.cells.iter().map(|&c| grids[0].grid.cells[c]).collect()));
        }
    }
    let verdicts = node_tests(&pairs);
    let rejected: Vec<&(String, String)> = pairs.iter().zip(&verdicts).filter(|(_, v)| **v != Some(true)).map(|(p, _)| p).collect();
    assert!(rejected.is_empty(), "node rejects {rejected:?}");
}

/// The dialect: challenges.json defaults to ECMAScript, crossat JSON to Python, its
/// `"dialect"` field and `--dialect` override; the summary and the drawing say which.
#[test]
fn the_dialect_is_chosen_and_shown() {
    let dir = tmp();
    // `(a)?\1b` on "b": the group did not take part; ECMAScript's `\1` then matches the
    // empty string, Python's fails.
    let python = write_file(dir.path(), "p.json", r#"{"left": ["(a)?\\1b"], "top": ["b"], "alphabet": "ab"}"#);
    let es = write_file(dir.path(), "e.json", r#"{"left": ["(a)?\\1b"], "top": ["b"], "alphabet": "ab", "dialect": "ecmascript"}"#);
    let summary = |args: &[&str]| {
        let run = crossat(args, None);
        (run.code, json_lines(&run.stdout).last().cloned().expect("summary"))
    };
    let (code, s) = summary(&["solve", arg(&python), "--json"]);
    assert_eq!((code, s["dialect"].as_str(), s["solutions"].as_u64()), (1, Some("python"), Some(0)));
    let (code, s) = summary(&["solve", arg(&es), "--json"]);
    assert_eq!((code, s["dialect"].as_str(), s["solutions"].as_u64()), (0, Some("ecmascript"), Some(1)));
    let (code, s) = summary(&["solve", arg(&python), "--json", "--dialect", "ecmascript"]);
    assert_eq!((code, s["dialect"].as_str()), (0, Some("ecmascript")));
    let (code, s) = summary(&["solve", arg(&es), "--json", "--dialect", "python"]);
    assert_eq!((code, s["dialect"].as_str()), (1, Some("python")));
    let (_, s) = summary(&["solve", arg(&puzzle(CHALLENGES)), "--id", "beginner/1", "--json"]);
    assert_eq!(s["dialect"].as_str(), Some("ecmascript"));
    let (_, s) = summary(&["solve", arg(&puzzle(CHALLENGES)), "--id", "beginner/1", "--json", "--dialect", "python"]);
    assert_eq!(s["dialect"].as_str(), Some("python"));
    // The drawing names a dialect other than Python's.
    let run = crossat(&["solve", arg(&es)], None);
    assert!(run.stdout.contains("clues in the ECMAScript dialect"), "{}", run.stdout);
    assert!(!crossat(&["solve", arg(&python), "--dialect", "ecmascript", "--no-clues"], None).stdout.contains("dialect"));
    assert!(!crossat(&["solve", arg(&puzzle(CHALLENGES)), "--id", "beginner/1", "--dialect", "python"], None).stdout.contains("dialect"));
    // check, hint and explain use the dialect's matcher.
    let grid = write_file(dir.path(), "g.txt", "b\n");
    assert_eq!(crossat(&["check", arg(&es), arg(&grid)], None).code, 0);
    assert_eq!(crossat(&["check", arg(&python), arg(&grid)], None).code, 1);
    assert_eq!(crossat(&["hint", arg(&es), "--json"], None).code, 0);
    assert_eq!(crossat(&["explain", arg(&es), "--json"], None).code, 0);
    // A bad field is one clear error.
    let bad = write_file(dir.path(), "b.json", r#"{"left": ["a"], "top": ["a"], "dialect": "perl"}"#);
    let run = crossat(&["solve", arg(&bad)], None);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("b.json") && run.stderr.contains("\"dialect\" must be \"python\" or \"ecmascript\""), "{}", run.stderr);
    // list says each puzzle's dialect.
    let run = crossat(&["list", arg(&es), arg(&python), "--json"], None);
    let dialects: Vec<&str> = json_lines(&run.stdout).iter().map(|v| v["dialect"].as_str().map_or("", |_| "x")).collect();
    assert_eq!(dialects.len(), 2);
    assert!(run.stdout.contains(r#""dialect":"ecmascript""#) && run.stdout.contains(r#""dialect":"python""#), "{}", run.stdout);
}

/// A clue ECMAScript refuses is one clear error naming the file, the clue and the
/// problem; so is one it accepts only inside the wrapper (`a)|(b`).
#[test]
fn ecmascript_syntax_errors_name_the_clue() {
    if !crate::tools::require(crate::tools::Tool::Node) {
        return;
    }
    for clue in ["a)|(b", "(?i)a", "a**", "(?<n>a)(?<n>b)"] {
        let text = serde_json::json!({"left": [clue], "top": ["."], "dialect": "ecmascript"}).to_string();
        let run = crossat(&["solve", "-"], Some(text.as_bytes()));
        assert_eq!(run.code, 2, "{clue}: {}", run.stderr);
        assert!(
            run.stderr.contains(&format!("row 1 (left) clue '{clue}'")) && run.stderr.contains("invalid ECMAScript regular expression"),
            "{clue}: {}",
            run.stderr
        );
        assert_eq!(node_tests(&[(clue.to_string(), "a".to_string())]), [None], "node accepts {clue}");
    }
}

/// Each difference between the dialects, as a clue, an alphabet and a line: crossat's
/// `check` in each dialect agrees with python3 and node, which disagree with each other;
/// `lint` finds every one of these clues different, with a witness both oracles confirm.
#[test]
fn each_difference_is_seen_by_check_and_lint() {
    if !crate::tools::require(crate::tools::Tool::Node) {
        return;
    }
    // (clue, alphabet, line)
    let cases: &[(&str, &str, &str)] = &[
        (r"(a)?\1b", "ab", "b"),          // a group that did not take part
        (r"(?:(a)|b)+\1", "ab", "aba"),   // captures reset at each iteration
        (r"\d", "1١", "١"),               // \d is ASCII
        (r"\w", "aé", "é"),               // \w is ASCII
        (r"a\bé", "aé", "aé"),            // \b is ASCII
        (r"\s", "\u{1c}a", "\u{1c}"),     // U+001C is Python space only
        (r"\s", "\u{85}a", "\u{85}"),     // U+0085 too
        (r"\s", "\u{feff}a", "\u{feff}"), // U+FEFF is ECMAScript space only
        (r".", "a\r", "\r"),              // . excludes \r in ECMAScript
        (r".", "a\u{2028}", "\u{2028}"),  // and U+2028
        ("a$\n?", "a\n", "a\n"),          // $ before a final newline: Python only
        (r"\Z|a", "aZ", "Z"),             // \Z is a letter in ECMAScript
        (r"\8", "8a", "8"),               // \8 is 8
        (r"(a)\2", "a\u{2}", "a\u{2}"),   // \2 with one group: octal U+0002
        (r"[^]", "ab", "a"),              // any character
        (r"a{,2}", "a{,2}", "a{,2}"),     // a{,3} is text
        (r".(?<=a+)b", "ab", "ab"),       // variable-width lookbehind
        (r"(?i)a", "aA", "A"),            // (?i) is Python's only
    ];
    let pairs: Vec<(String, String)> = cases.iter().map(|(c, _, l)| (c.to_string(), l.to_string())).collect();
    let (python, node) = (python_tests(&pairs), node_tests(&pairs));
    let dir = tmp();
    for (((clue, alphabet, line), p), n) in cases.iter().zip(&python).zip(&node) {
        assert_ne!(p, n, "{clue:?} on {line:?}: Python and node agree");
        let file = write_file(
            dir.path(),
            "d.json",
            serde_json::json!({"layout": "free", "entries": [{"label": "line", "cells": (0..line.chars().count()).map(|c| [0, c]).collect::<Vec<_>>(), "clues": [clue]}], "alphabet": alphabet}).to_string(),
        );
        for (dialect, want) in [(Dialect::Python, p), (Dialect::Ecmascript, n)] {
            let input = Input { dialect: Some(dialect), ..input_file(&file, None) };
            let got = crossat::Puzzle::from_input(&input).ok().map(|p| p.check(&[line]).expect("check").is_empty());
            assert_eq!(got, *want, "{clue:?} on {line:?} in {dialect:?}");
        }
        let run = crossat(&["lint", arg(&file), "--json"], None);
        assert_eq!(run.code, 1, "{clue:?}: {}{}", run.stdout, run.stderr);
        let record = json_lines(&run.stdout).into_iter().find(|v| v["type"] == "clue").expect("a differing clue");
        match record["verdict"].as_str() {
            Some("differs") => {
                let witness = record["witness"].as_str().expect("witness").to_string();
                let pair = [(clue.to_string(), witness.clone())];
                assert_eq!(python_tests(&pair)[0], Some(record["python"] == true), "{clue:?} on {witness:?}");
                assert_eq!(node_tests(&pair)[0], Some(record["ecmascript"] == true), "{clue:?} on {witness:?}");
            }
            Some("refused") => assert!(p.is_none() || n.is_none(), "{clue:?}: {record}"),
            other => panic!("{clue:?}: {other:?}"),
        }
    }
}

/// `lint` on the bundled collection lists Hamlet's row 1 with a witness that python3
/// and node judge as lint says; every listed witness is confirmed by both.
#[test]
fn lint_lists_hamlet_row_1_with_a_witness() {
    if !crate::tools::require(crate::tools::Tool::Node) {
        return;
    }
    let run = crossat(&["lint", arg(&puzzle(CHALLENGES)), "--json"], None);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let lines = json_lines(&run.stdout);
    let differs: Vec<&serde_json::Value> = lines.iter().filter(|v| v["verdict"] == "differs").collect();
    assert!(
        differs.iter().any(|v| v["puzzle"] == "experienced/5" && v["clue"] == "row 1 (left)" && v["regex"] == r"[IT](O)*(BE|AD)*\1"),
        "{}",
        run.stdout
    );
    let pairs: Vec<(String, String)> = differs
        .iter()
        .map(|v| (v["regex"].as_str().expect("regex").to_string(), v["witness"].as_str().expect("witness").to_string()))
        .collect();
    let (python, node) = (python_tests(&pairs), node_tests(&pairs));
    for ((v, p), n) in differs.iter().zip(&python).zip(&node) {
        assert_eq!((*p, *n), (Some(v["python"] == true), Some(v["ecmascript"] == true)), "{v}");
    }
    let summary = lines.last().expect("summary");
    assert_eq!(summary["type"], "summary");
    assert_eq!(summary["differ"].as_u64(), Some(differs.len() as u64));
    // Text output, one puzzle, exit 0 when nothing differs.
    let run = crossat(&["lint", arg(&puzzle(CHALLENGES)), "--id", "beginner/1"], None);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("1 puzzle, 4 clues: 0 differ"), "{}", run.stdout);
}

/// A given input through the library, so that the test of `--dialect`'s input field
/// does not depend on the command line.
#[test]
fn the_input_overrides_the_dialect() {
    let text = r#"{"left": ["(a)?\\1b"], "top": ["b"], "alphabet": "ab"}"#;
    let input = Input { source: "t.json".into(), bytes: text.as_bytes().to_vec(), dialect: Some(Dialect::Ecmascript), ..Input::default() };
    let mut p = crossat::Puzzle::from_input(&input).expect("read");
    assert_eq!(p.puzzle().dialect, Dialect::Ecmascript);
    assert!(p.is_unique().expect("solve"));
    let mut p = crossat::Puzzle::read("t.json", text.as_bytes()).expect("read");
    assert!(p.solve().expect("solve").is_none());
}

/// `lint` reads a regex-pool puzzle's pool (beside the CSV, or `--pool`) and lints each
/// regex at each length of an entry it may be assigned to.
#[test]
fn lint_checks_every_pool_regex_at_every_entry_length() {
    let dir = tmp();
    let csv = write_file(dir.path(), "p.csv", "0,.\n1,..\n");
    write_file(dir.path(), "p.txt", "(a)?\\1b\nb.\n");
    let other = write_file(dir.path(), "other.txt", "b.\nb|bb\n");
    let run = crossat(&["lint", arg(&csv), "--json"], None);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let lines = json_lines(&run.stdout);
    let differs: Vec<&serde_json::Value> = lines.iter().filter(|v| v["type"] == "clue").collect();
    assert_eq!(differs.len(), 1, "{}", run.stdout);
    let v = differs[0];
    assert_eq!((v["clue"].as_str(), v["regex"].as_str(), v["length"].as_u64()), (Some("pool regex 1"), Some(r"(a)?\1b"), Some(1)), "{v}");
    let pair = [(v["regex"].as_str().unwrap().to_string(), v["witness"].as_str().unwrap().to_string())];
    assert_eq!((python_tests(&pair)[0], node_tests(&pair)[0]), (Some(v["python"] == true), Some(v["ecmascript"] == true)), "{v}");
    assert_eq!(lines.last().unwrap()["clues"], 4, "two regexes at two lengths");
    let run = crossat(&["lint", arg(&csv), "--pool", arg(&other)], None);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("1 puzzle, 4 clues: 0 differ"), "{}", run.stdout);
}
