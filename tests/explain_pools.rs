//! `explain` on regex pools through the command line: the steps end at `solve`'s
//! assignment, entry steps list the entry's regexes, and a pool too large to show is
//! refused naming the file. Every step of a pool's explanation is re-checked against
//! CPython and a brute-force assignment in src/features/explain/tests/pools.rs.

use crate::common;
use serde_json::json;

#[test]
fn the_command_line_explains_a_regex_pool() {
    let films = common::puzzle("louridas/films.csv");
    let run = common::crossat(&["explain", "--json", common::arg(&films)], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines = common::json_lines(&run.stdout);
    let summary = lines.last().expect("summary");
    assert_eq!((summary["answer"].as_str(), summary["unique_by_deduction"].as_bool()), (Some("unique"), Some(true)));
    assert!(summary["assign"].as_u64().expect("assign") > 0);
    // The assignment the steps end with is the one `solve` prints.
    let solved = common::crossat(&["solve", "--json", common::arg(&films)], None);
    let solution = common::json_lines(&solved.stdout).into_iter().next().expect("a solution");
    for entry in solution["entries"].as_array().expect("entries") {
        let label = entry["entry"].to_string();
        assert_eq!(summary["assignment"][&label], entry["regex"], "entry {label}");
    }
    // Entry steps list the entry's regexes apart from its cells; every step's reason is words.
    let entry = lines.iter().find(|s| s["kind"] == "line" && s["entries"].is_array()).expect("an entry step");
    assert!(entry["line"].as_str().expect("line").starts_with("entry ") && entry["entries"][0]["removed"].is_array());
    assert!(lines.iter().filter(|s| s["type"] == "step").all(|s| s["reason"].as_str().is_some_and(|r| !r.is_empty())));
    let text = common::crossat(&["explain", "--draw", "none", common::arg(&films)], None);
    let last = text.stdout.lines().last().expect("an ending");
    assert!(
        last.starts_with("unique by deduction: every cell and every entry's regex is forced (") && last.contains(" assign steps"),
        "{last}"
    );
}

#[test]
fn a_pool_too_large_to_show_is_refused_naming_the_file() {
    let dir = tempfile::tempdir().expect("dir");
    let n = 193;
    let entries: Vec<_> = (0..n).map(|i| json!({"label": i.to_string(), "cells": [[0, i]]})).collect();
    let text = json!({"layout": "free", "alphabet": "AB", "entries": entries, "pool": vec!["[AB]"; n]}).to_string();
    let path = common::write_file(dir.path(), "big.json", &text);
    let run = common::crossat(&["explain", common::arg(&path)], None);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(run.stderr.contains("big.json") && run.stderr.contains("at most 192 regexes; this pool has 193"), "{}", run.stderr);
}
