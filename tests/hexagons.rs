//! Hexagons whose sides differ: regexcrossword.com's irregular challenges against
//! Python's `re`, the drawing, the formats and bad input (the geometry against an
//! independent construction, and crossat JSON's sides, are tested beside the code).

use crate::common::{arg, crossat, input_file, json_solutions, puzzle, solve_in_process, tmp, write_file};
use crossat::puzzle::Shape;
use crossat::puzzle::Sides;

/// Checks every clue of challenge `key` on `grid` (display rows) with Python's
/// `re.fullmatch`, building the lines from the axial construction above (in Python).
fn python_checks_challenge(key: &str, grid: &[String]) -> String {
    let script = r#"
import json, re, sys
key, grid = sys.argv[1], json.loads(sys.argv[2])
sets = json.load(open('puzzles/regexcrossword-com/challenges.json'))
s, k = key.split('/')
p = [x for x in sets if x['id'] == s][0]['puzzles'][int(k) - 1]
Y, X, Z = ([[c for c in l if c] for l in p[f]] for f in ('patternsY', 'patternsX', 'patternsZ'))
top = (len(Z) + len(X) - len(Y) + 1) // 2
nw = len(Z) - top + 1
cells = [(q, r) for r in range(len(Y)) for q in range(len(Z)) if nw - 1 <= q + r < nw - 1 + len(X)]
flat = ''.join(grid)
assert len(flat) == len(cells) == len(p.get('solutionMap') or cells), (len(flat), len(cells))
val = dict(zip(cells, flat))
def line(pred, key, rev):
    return ''.join(val[c] for c in sorted((c for c in cells if pred(c)), key=key, reverse=rev))
bad = []
for r, cl in enumerate(Y):
    bad += [x for x in cl if not re.fullmatch(x, line(lambda c: c[1] == r, lambda c: c[0], False))]
for q, cl in enumerate(Z):
    bad += [x for x in cl if not re.fullmatch(x, line(lambda c: c[0] == q, lambda c: c[1], True))]
for i, cl in enumerate(X):
    bad += [x for x in cl if not re.fullmatch(x, line(lambda c: c[0] + c[1] == nw - 1 + i, lambda c: c[1], False))]
print('ok' if not bad else bad)
"#;
    let out = std::process::Command::new("python3")
        .current_dir(crate::common::root())
        .args(["-c", script, key, &serde_json::to_string(grid).expect("json")])
        .output()
        .expect("python3 is needed for this test");
    assert!(out.status.success(), "{key}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

#[test]
fn irregular_challenges_solve_uniquely_and_python_accepts_every_clue() {
    let file = puzzle("regexcrossword-com/challenges.json");
    for (key, sides) in [("hexagonal/1", (1, 2, 2)), ("hexagonal/5", (4, 5, 5))] {
        let (grids, complete) = solve_in_process(input_file(&file, Some(key)), None).unwrap_or_else(|e| panic!("{key}: {e}"));
        assert!(complete && grids.len() == 1, "{key}: {grids:?}");
        assert_eq!(python_checks_challenge(key, &grids[0]), "ok", "{key}: {:?}", grids[0]);
        let p = crossat::Puzzle::from_input(&input_file(&file, Some(key))).expect("reads");
        assert_eq!(p.puzzle().shape, Shape::Hex(Sides { top: sides.0, nw: sides.1, ne: sides.2 }), "{key}");
        // The same answer through the command line, with --all and as JSON.
        let run = crossat(&["solve", arg(&file), "--id", key, "--all", "--json"], None);
        assert_eq!(run.code, 0, "{key}: {}", run.stderr);
        assert_eq!(json_solutions(&run.stdout).0, grids, "{key}");
    }
}

#[test]
fn irregular_hexagons_check_hint_and_dimacs_like_regular_ones() {
    let file = puzzle("regexcrossword-com/challenges.json");
    let (grids, _) = solve_in_process(input_file(&file, Some("hexagonal/5")), None).expect("solves");
    let dir = tmp();
    let good = write_file(dir.path(), "good.txt", grids[0].join("\n") + "\n");
    let run = crossat(&["check", arg(&file), arg(&good), "--id", "hexagonal/5"], None);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    // One wrong cell: the check fails and names the lines through it.
    let mut wrong = grids[0].clone();
    wrong[0] = format!("Q{}", &wrong[0][1..]);
    let bad = write_file(dir.path(), "bad.txt", wrong.join("\n") + "\n");
    let run = crossat(&["check", arg(&file), arg(&bad), "--id", "hexagonal/5"], None);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("row 1"), "{}", run.stdout);
    let run = crossat(&["hint", arg(&file), "--id", "hexagonal/5"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = crossat(&["dimacs", arg(&file), "--id", "hexagonal/1"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.lines().any(|l| l.starts_with("p cnf ")), "{}", run.stdout);
}

#[test]
fn an_irregular_hexagon_is_drawn_with_shifted_rows() {
    let file = puzzle("regexcrossword-com/challenges.json");
    let run = crossat(&["solve", arg(&file), "--id", "hexagonal/1", "--ascii", "--no-clues"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let drawn: Vec<&str> = run.stdout.lines().take_while(|l| !l.starts_with("unique")).map(str::trim_end).collect();
    assert_eq!(drawn, ["   / \\", "  | H |", " / \\ / \\", "| I | V |", " \\ / \\ /", "  | E |", "   \\ /"]);
    // Rows of equal width shift by half a cell; the border between them zigzags.
    let dir = tmp();
    let board =
        write_file(dir.path(), "223.json", r#"{"y": ["AB", "CDE", "FGH", "IJ"], "z": [".*", ".*", ".*"], "x": [".*", ".*", ".*", ".*"]}"#);
    let run = crossat(&["solve", arg(&board), "--ascii", "--no-clues"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let drawn: Vec<&str> = run.stdout.lines().take_while(|l| !l.starts_with("unique")).map(str::trim_end).collect();
    assert_eq!(
        drawn,
        [
            "   / \\ / \\",
            "  | A | B |",
            " / \\ / \\ / \\",
            "| C | D | E |",
            " \\ / \\ / \\ / \\",
            "  | F | G | H |",
            "   \\ / \\ / \\ /",
            "    | I | J |",
            "     \\ / \\ /",
        ]
    );
}

#[test]
fn line_counts_that_fit_no_hexagon_are_refused_clearly() {
    let dir = tmp();
    let cases = [
        ("board.json", r#"{"y": ["A","A","A"], "z": ["A","A","A","A"], "x": ["A"]}"#.to_string(), "3 rows, 4 NW-SE and 1 NE-SW diagonals fit no hexagon"),
        ("sides.json", r#"{"layout": "hexagon", "sides": [2, 0, 3], "entries": []}"#.to_string(), "\"sides\": [top, nw, ne]"),
        ("outside.json", r#"{"layout": "hexagon", "sides": [1, 2, 2], "entries": [{"cells": [[0,1]], "clues": ["A"]}]}"#.to_string(), "outside the hexagon of sides 1, 2, 2"),
        (
            "challenges.json",
            r#"[{"id": "h", "puzzles": [{"name": "x", "hexagonal": true, "patternsY": [["A"],["AB"]], "patternsZ": [["A"],["B"]], "patternsX": [["A"],["B"]]}]}]"#.to_string(),
            "puzzle h/1: 2 rows, 2 NW-SE and 2 NE-SW diagonals fit no hexagon",
        ),
        (
            "map.json",
            r#"[{"id": "h", "puzzles": [{"name": "x", "hexagonal": true, "patternsY": [["A"],["AB"],["A"]], "patternsZ": [["A"],["A"]], "patternsX": [["A"],["A"]], "solutionMap": [0, 1, 2]}]}]"#.to_string(),
            "\"solutionMap\" has 3 entries but the hexagon of sides 1, 2, 2 has 4 cells",
        ),
    ];
    for (name, text, message) in cases {
        let path = write_file(dir.path(), name, text);
        let collection = name == "challenges.json" || name == "map.json";
        let run = crossat(&[&["solve", arg(&path)][..], if collection { &["--id", "h/1"][..] } else { &[][..] }].concat(), None);
        assert_eq!(run.code, 2, "{name}: {}", run.stderr);
        assert!(run.stderr.contains(message) && run.stderr.contains(name), "{name}: {}", run.stderr);
        assert!(!run.stderr.contains("panicked"), "{name}: {}", run.stderr);
    }
}

#[test]
fn generate_makes_irregular_hexagons_that_read_back_uniquely() {
    let dir = tmp();
    for seed in ["1", "2"] {
        let run = crossat(&["generate", "--hex", "2x2x3", "--seed", seed, "--quiet", "--json"], None);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let v: serde_json::Value = serde_json::from_str(run.stdout.trim()).expect("one JSON line");
        assert_eq!(v["crossat"]["sides"], serde_json::json!([2, 2, 3]));
        assert!(v["trux"].is_null(), "the trux format holds regular hexagons only: {v}");
        let solution: Vec<String> = serde_json::from_value(v["solution"].clone()).expect("rows");
        assert_eq!(solution.iter().map(String::len).collect::<Vec<_>>(), [2, 3, 3, 2]);
        for (name, key, id) in [("crossat", "crossat", None), ("challenges", "challenges", Some("generated/1"))] {
            let path = write_file(dir.path(), &format!("{name}{seed}.json"), v[key].to_string());
            let (grids, complete) = solve_in_process(input_file(&path, id), None).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(complete && grids == vec![solution.clone()], "{name} {seed}: {grids:?}");
        }
    }
    let run = crossat(&["generate", "--hex", "2x2x3", "--output-format", "trux"], None);
    assert!(run.code == 2 && run.stderr.contains("regular hexagons only"), "{}", run.stderr);
    for bad in ["3x3", "0x2x2", "1x1x1", "9x2x2"] {
        let run = crossat(&["generate", "--hex", bad], None);
        assert!(run.code == 2 && run.stderr.contains("--hex must be"), "{bad}: {}", run.stderr);
    }
}
