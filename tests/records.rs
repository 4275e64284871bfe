//! The record types of `crossat::records` against what crossat prints: every JSON line
//! of every `--json` command parses as the type of its record and prints back the same
//! bytes (so a field the type lacks, or one it writes in another order, fails), and
//! web/API.md names every field of the wasm API's records and no field they lack.

use crate::common::{crossat, puzzle, root};
use crossat::records::*;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::collections::BTreeSet;

/// A record as a JSON value.
fn value(record: &impl Serialize) -> serde_json::Value {
    serde_json::to_value(record).expect("serializes")
}

/// `line` parsed as `T` and printed again, byte for byte.
fn round_trip<T: DeserializeOwned + Serialize>(what: &str, line: &str) {
    let parsed: T = serde_json::from_str(line).unwrap_or_else(|e| panic!("{what}: {line}\ndoes not parse as a record: {e}"));
    assert_eq!(serde_json::to_string(&parsed).expect("serializes"), line, "{what}: the record type does not print the line back");
}

/// Each JSON line `args` prints, parsed as the record type of `command` and its `"type"`.
fn check_lines(command: &str, args: &[&str]) -> usize {
    let run = crossat(args, None);
    assert!(run.code <= 1 || run.code == 4, "crossat {args:?}: exit {} {}", run.code, run.stderr);
    let mut n = 0;
    for line in run.stdout.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{args:?}: not JSON: {line}: {e}"));
        let kind = v["type"].as_str().unwrap_or_else(|| panic!("{args:?}: no \"type\": {line}"));
        let what = format!("crossat {}", args.join(" "));
        let stopped = v.get("reason").is_some();
        match (command, kind) {
            ("solve" | "model", "solution") => round_trip::<Solution>(&what, line),
            ("solve" | "model", "summary") if stopped => round_trip::<Stopped<StoppedSolve>>(&what, line),
            ("solve" | "model", "summary") => round_trip::<SolveSummary>(&what, line),
            ("count", "summary") => round_trip::<CountSummary>(&what, line),
            ("check", "failure") => round_trip::<Failure>(&what, line),
            ("check", "unknown_char") => round_trip::<UnknownChar>(&what, line),
            ("check", "summary") => round_trip::<CheckSummary>(&what, line),
            ("hint", "wrong") => round_trip::<Wrong>(&what, line),
            ("hint", "hint") => round_trip::<Hint>(&what, line),
            ("hint", "summary") => round_trip::<HintSummary>(&what, line),
            ("explain", "step") => round_trip::<StepRecord>(&what, line),
            ("explain", "summary") => round_trip::<ExplainSummary>(&what, line),
            ("lint", "clue") => round_trip::<LintClue>(&what, line),
            ("lint", "summary") => round_trip::<LintSummary>(&what, line),
            ("list", "puzzle") if v.get("id").is_some() => round_trip::<CollectionPuzzle>(&what, line),
            ("list", "puzzle") => round_trip::<PuzzleListing>(&what, line),
            ("generate", "puzzle") => round_trip::<Generated>(&what, line),
            ("squares", "solution") => round_trip::<Square>(&what, line),
            ("squares", "summary") => round_trip::<SquaresSummary>(&what, line),
            ("blocks", "solution") => round_trip::<BlocksSolution>(&what, line),
            ("blocks", "summary") => round_trip::<BlocksSummary>(&what, line),
            ("bench", "unreadable") => round_trip::<Unreadable>(&what, line),
            ("bench", "skipped") => round_trip::<Skipped>(&what, line),
            ("bench", "puzzle") => round_trip::<BenchPuzzle>(&what, line),
            ("bench", "summary") => round_trip::<BenchSummary>(&what, line),
            _ => panic!("{what}: a record of type {kind} has no record type in this test: {line}"),
        }
        n += 1;
    }
    n
}

#[test]
fn every_json_line_is_a_record_type() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let p = |rel: &str| puzzle(rel).display().to_string();
    // A rectangle, a hexagon, a regex pool (entries), an ECMAScript collection, a puzzle
    // with several solutions (ambiguous cells).
    let puzzles: Vec<Vec<String>> = vec![
        vec![p("antoine-trux/MIT.input.txt")],
        vec![p("antoine-trux/hexagonal_2.input.txt")],
        vec![p("louridas/films.csv")],
        vec![p("regexcrossword-com/challenges.json"), "--id".into(), "experienced/5".into()],
        vec![p("antoine-trux/player_puzzle_sheep.input.txt")],
    ];
    let mut lines = 0;
    for args in &puzzles {
        let with = |head: &[&str]| -> Vec<String> { head.iter().map(|s| s.to_string()).chain(args.iter().cloned()).collect() };
        let run = |command: &str, head: &[&str]| {
            let a = with(head);
            check_lines(command, &a.iter().map(String::as_str).collect::<Vec<_>>())
        };
        lines += run("solve", &["solve", "--json", "--stats"]);
        lines += run("solve", &["solve", "--json", "--limit", "3"]);
        lines += run("count", &["solve", "--json", "--count", "--stats"]);
        lines += run("hint", &["hint", "--json", "--all", "--explain"]);
        lines += run("explain", &["explain", "--json", "--max-steps", "12"]);
        if !args[0].ends_with(".csv") {
            // (lint does not read a regex pool: it has no clues of its own)
            lines += run("lint", &["lint", "--json"]);
        }
        // check: the first solution, then every other cell blanked, then a wrong letter.
        let first = crossat(&with(&["solve", "--json"]).iter().map(String::as_str).collect::<Vec<_>>(), None);
        let solution: Solution = serde_json::from_str(first.stdout.lines().next().expect("a solution")).expect("a solution record");
        let full = solution.grid.join("\n");
        let partial: String = full.chars().enumerate().map(|(k, c)| if k % 2 == 1 && c != '\n' && c != ' ' { '.' } else { c }).collect();
        let wrong: String = partial.replacen(|c: char| c.is_alphanumeric(), "~", 1);
        for (name, grid) in [("full", &full), ("partial", &partial), ("wrong", &wrong)] {
            let path = tmp.path().join(name);
            std::fs::write(&path, grid).expect("write grid");
            let g = path.display().to_string();
            let mut a = with(&["check", "--json"]);
            a.push(g.clone());
            lines += check_lines("check", &a.iter().map(String::as_str).collect::<Vec<_>>());
            let mut a = with(&["hint", "--json", "--grid"]);
            a.insert(3, g);
            lines += check_lines("hint", &a.iter().map(String::as_str).collect::<Vec<_>>());
        }
    }
    lines += check_lines("list", &["list", "--json", &p("seed000"), &p("louridas/films.csv"), &p("regexcrossword-com/challenges.json")]);
    lines += check_lines("lint", &["lint", "--json", &p("regexcrossword-com/challenges.json")]);
    lines += check_lines("solve", &["solve", "--json", "--timeout", "0.000001", &p("hexregex/unique_hard_5_3000000_t76.json")]);
    for seed in ["1", "2"] {
        lines += check_lines("generate", &["generate", "--json", "-q", "--size", "3x3", "--sides", "2", "--seed", seed]);
        lines += check_lines("generate", &["generate", "--json", "-q", "--hex", "2x3x3", "--seed", seed]);
        lines += check_lines("generate", &["generate", "--json", "-q", "--hex", "2", "--seed", seed]);
    }
    lines += check_lines("squares", &["squares", "--json", "-q", "-W", "3", "-H", "3", "--seed", "1", "--count", "2"]);
    lines += check_lines("squares", &["squares", "--json", "-q", "-W", "3", "-H", "3", "--seed", "1", "--method", "sat"]);
    lines += check_lines("blocks", &["blocks", "--json", "--all", &p("blocks/p1.json")]);
    lines += check_lines("bench", &["bench", "--json", "-q", "--repeat", "1", &p("seed000"), &p("blocks/p1.json")]);
    assert!(lines > 200, "only {lines} records checked");
}

/// The keys of every object in `v`, recursively.
fn keys(v: &serde_json::Value, out: &mut BTreeSet<String>) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                let _ = out.insert(k.clone());
                keys(x, out);
            }
        }
        serde_json::Value::Array(a) => a.iter().for_each(|x| keys(x, out)),
        _ => {}
    }
}

#[test]
fn web_api_md_names_the_fields_of_the_records() {
    let doc = std::fs::read_to_string(root().join("web/API.md")).expect("web/API.md");
    // The records the wasm API returns, each with every optional field present.
    let cell = AmbiguousCell { cell: [0, 1], values: vec!["A".into(), "B".into()], id: Some(1) };
    let conflict = Conflict { clues: vec!["row 1".into()], cells: vec![[0, 0]] };
    let samples: Vec<serde_json::Value> = vec![
        value(&View {
            name: None,
            shape: ViewShape::Rect { rows: 1, cols: 1 },
            hexagon_side: None,
            cells: vec![ViewCell { row: 0, col: 0, x: 0.0, y: 0, name: "(row 1, column 1)".into() }],
            rows: vec![vec![0]],
            clues: vec![ViewClue { label: "row 1 (left)".into(), regex: "A".into(), cells: vec![0], side: "left".into() }],
            givens: vec![None],
            alphabet: vec!["A".into()],
            pool: Some(ViewPool { labels: vec![], entries: vec![], regexes: vec![] }),
            dialect: "python".into(),
        }),
        value(&ViewShape::Hex { sides: [2, 2, 2] }),
        value(&Solution { grid: vec![], entries: None }),
        value(&SolveSummary {
            solutions: 2,
            complete: true,
            unique: Uniqueness::Several,
            source: None,
            puzzle: None,
            alphabet: "AB".into(),
            dialect: Some("python".into()),
            ambiguous_cells: Some(vec![cell.clone()]),
            ambiguous_clues: Some(vec![]),
            proof: None,
            stats: None,
        }),
        value(&CountSummary {
            solutions: 0,
            count: Count::Number(1),
            complete: true,
            unique: true,
            puzzle: None,
            alphabet: "A".into(),
            dialect: "python".into(),
            counted_by: None,
            stats: None,
        }),
        value(&Failure { clue: "row 1".into(), regex: "A".into(), word: "B".into(), cell: None }),
        value(&CheckSummary {
            valid: Some(true),
            failures: Some(0),
            completable: Some(false),
            unique_completion: Some(true),
            conflict: Some(conflict.clone()),
            broken: Some(vec![]),
            ..CheckSummary::default()
        }),
        value(&Wrong { cell: [0, 0], ch: "A".into(), clues: vec![] }),
        value(&Hint { cell: [0, 0], ch: "A".into(), reason: HintReason::SingleLine, clue: Some("row 1".into()), because: Some(conflict) }),
        value(&HintSummary { completable: Some(true), wrong: Some(0), conflict: None, hints: Some(1), empty_cells: Some(0) }),
        value(&Stopped::new(Unfinished {}, StopReason::Timeout)),
        value(&Analysis {
            solutions: 2,
            complete: true,
            unique: Uniqueness::Several,
            grids: vec![],
            ambiguous_cells: vec![cell],
            ambiguous_clues: vec![],
            count: None,
            reason: Some(StopReason::Timeout),
        }),
        value(&Generated {
            crossat: None,
            trux: None,
            solution: vec![],
            unique: true,
            difficulty: Difficulty::Easy,
            rating: Rating {
                difficulty: Difficulty::Hard,
                cells: 0,
                by_lines: 0,
                by_probing: 0,
                probes: 0,
                decisions: 0,
                solutions: 1,
                complete: true,
            },
            checks: 1,
            seed: 1,
            time_ms: 0.0,
            challenges: Some(vec![]),
        }),
    ];
    let mut fields = BTreeSet::new();
    for s in &samples {
        keys(s, &mut fields);
    }
    // (explain's steps and summary are described in docs/cli.md, which web/API.md points to.)
    let named = |k: &str| doc.contains(&format!("\"{k}\"")) || doc.contains(&format!("`{k}`"));
    let missing: Vec<&String> = fields.iter().filter(|k| !named(k)).collect();
    assert!(missing.is_empty(), "web/API.md does not name these fields of the wasm API's records: {missing:?}");
    // …and every `"field":` in its JSON is a field of a record or an option of a call.
    let options =
        ["id", "format", "dialect", "alphabet", "pool", "size", "hex", "seed", "sides", "text", "backrefs", "lookarounds", "timeout_ms"];
    let mut written = BTreeSet::new();
    let mut rest = doc.as_str();
    while let Some(i) = rest.find('"') {
        rest = &rest[i + 1..];
        let Some(j) = rest.find('"') else { break };
        let (word, after) = (&rest[..j], &rest[j + 1..]);
        if after.trim_start().starts_with(':') && word.chars().all(|c| c.is_ascii_lowercase() || c == '_') && !word.is_empty() {
            let _ = written.insert(word.to_string());
        }
        rest = after;
    }
    let unknown: Vec<&String> = written.iter().filter(|k| !fields.contains(*k) && !options.contains(&k.as_str())).collect();
    assert!(!written.is_empty() && unknown.is_empty(), "web/API.md shows fields no record has: {unknown:?}");
}
