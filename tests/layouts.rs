//! Hexagons, free-form layouts and regex pools against their published solutions.

use crate::common::{crossat, input_file, puzzle, read_text, solve_in_process};
use crossat::puzzle::Input;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// The hexagon grid drawn in an antoine-trux expected output: rows of `| X ` cells.
fn trux_hex_rows(path: &Path) -> Vec<String> {
    let text = read_text(path);
    text.lines()
        .map(str::trim)
        .filter(|l| l.starts_with('|'))
        .map(|l| l.chars().collect::<Vec<_>>().chunks(4).filter(|c| c.len() == 4).map(|c| c[2]).collect())
        .collect()
}

fn trim_lines(s: &str) -> String {
    s.lines().map(str::trim_end).collect::<Vec<_>>().join("\n")
}

#[test]
fn antoine_trux_hexagons_match_expected_grids_and_drawing() {
    for name in ["MIT", "hexagonal_2", "hexagonal_3", "hexagonal_4", "player_puzzle_star_wars"] {
        let input = puzzle(&format!("antoine-trux/{name}.input.txt"));
        let expected = puzzle(&format!("antoine-trux/{name}.output_expected.txt"));
        let (grids, complete) = solve_in_process(input_file(&input, None), None).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(complete, "{name}");
        assert_eq!(grids, vec![trux_hex_rows(&expected)], "{name}: the unique solution");
        // The bare ASCII drawing is the reference solver's, line for line.
        let run = crossat(&["solve", "--ascii", "--no-clues", input.to_str().expect("utf-8 path")], None);
        assert_eq!(run.code, 0, "{name}: {}", run.stderr);
        let drawn: Vec<&str> = run.stdout.lines().filter(|l| !l.starts_with("unique") && !l.starts_with("legend:")).collect();
        let reference = read_text(&expected);
        let reference: Vec<&str> = reference.lines().skip(2).collect();
        assert_eq!(trim_lines(&drawn.join("\n")), trim_lines(&reference.join("\n")), "{name}: drawing");
    }
}

#[test]
fn the_mit_hexagon_reads_the_same_from_three_sources() {
    let expected = trux_hex_rows(&puzzle("antoine-trux/MIT.output_expected.txt"));
    for path in ["hesselink/puzzle.txt", "antoine-trux/MIT.input.txt"] {
        let (grids, complete) = solve_in_process(input_file(&puzzle(path), None), None).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert!(complete && grids == vec![expected.clone()], "{path}");
    }
}

#[test]
fn challenges_regular_hexagons_equal_the_reference_solutions() {
    let file = puzzle("regexcrossword-com/challenges.json");
    for k in 2..=4 {
        let (grids, complete) =
            solve_in_process(input_file(&file, Some(&format!("hexagonal/{k}"))), None).unwrap_or_else(|e| panic!("hexagonal/{k}: {e}"));
        let expected = trux_hex_rows(&puzzle(&format!("antoine-trux/hexagonal_{k}.output_expected.txt")));
        assert!(complete && grids == vec![expected], "hexagonal/{k}: {grids:?}");
    }
}

#[test]
fn binoternary_boards_contain_their_published_solution() {
    let dir = puzzle("binoternary");
    let mut boards = 0;
    for entry in std::fs::read_dir(&dir).expect("dir") {
        let path = entry.expect("entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("").to_string();
        if !name.ends_with(".json") || name.contains("solution") {
            continue;
        }
        boards += 1;
        let solution: Value =
            serde_json::from_slice(&std::fs::read(dir.join(name.replace(".json", "_solution.json"))).expect("solution")).expect("json");
        let rows: Vec<Vec<Option<char>>> = solution["rows"]
            .as_array()
            .expect("rows")
            .iter()
            .map(|r| r.as_array().expect("row").iter().map(|c| c.as_str().and_then(|s| s.chars().next())).collect())
            .collect();
        // Solvable, and the published grid is one of the solutions.
        let (grids, _) = solve_in_process(input_file(&path, None), Some(1)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(grids.len(), 1, "{name}");
        let given = Input { given: Some(rows.clone()), ..input_file(&path, None) };
        let (grids, complete) = solve_in_process(given, None).unwrap_or_else(|e| panic!("{name}: {e}"));
        let want: Vec<String> = rows.iter().map(|r| r.iter().map(|c| c.unwrap_or('?')).collect()).collect();
        assert!(complete && grids == vec![want], "{name}");
    }
    assert_eq!(boards, 11);
}

#[test]
fn hexregex_puzzles_equal_their_solution() {
    for (name, unique) in
        [("unique_hard_5_3000000_t76.json", true), ("unique_hard_5_3000001_t76.json", true), ("rect_easy_1000.json", false)]
    {
        let path = puzzle(&format!("hexregex/{name}"));
        let v: Value = serde_json::from_slice(&std::fs::read(&path).expect("read")).expect("json");
        let want: Vec<String> = v["solution"]
            .as_array()
            .expect("solution")
            .iter()
            .map(|r| r.as_array().expect("row").iter().filter_map(Value::as_str).collect())
            .collect();
        let (grids, complete) = solve_in_process(input_file(&path, None), Some(1000)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(grids.contains(&want), "{name}");
        if unique {
            assert!(complete && grids.len() == 1, "{name}: unique");
        }
    }
}

/// A Louridas CSV read independently of crossat: (pattern, crossings) per entry.
fn louridas_csv(text: &str) -> BTreeMap<usize, (String, Vec<(usize, usize)>)> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split(',').map(str::trim).collect();
            let pairs = f[2..].chunks(2).map(|p| (p[0].parse().expect("entry"), p[1].parse().expect("pos"))).collect();
            (f[0].parse().expect("entry"), (f[1].to_string(), pairs))
        })
        .collect()
}

#[test]
fn louridas_pools_solve_and_verify_independently() {
    for name in ["laughs", "films", "hex"] {
        let csv = puzzle(&format!("louridas/{name}.csv"));
        let run = crossat(&["solve", csv.to_str().expect("path"), "--all", "--json"], None);
        assert_eq!(run.code, 0, "{name}: {}", run.stderr);
        let lines: Vec<Value> = run.stdout.lines().map(|l| serde_json::from_str(l).expect("json line")).collect();
        let summary = lines.last().expect("summary");
        assert_eq!(summary["type"], "summary");
        assert_eq!(summary["complete"], true);
        let solutions: Vec<&Value> = lines.iter().filter(|l| l["type"] == "solution").collect();
        assert_eq!(summary["solutions"].as_u64(), Some(solutions.len() as u64));
        assert_eq!(solutions.len(), 1, "{name}: one filling");
        let entries = louridas_csv(&std::fs::read_to_string(&csv).expect("csv"));
        let pool: Vec<String> = std::fs::read_to_string(csv.with_extension("txt"))
            .expect("pool")
            .lines()
            .map(|l| l.trim_end().to_string())
            .filter(|l| !l.is_empty())
            .collect();
        let expected: BTreeMap<usize, String> = std::fs::read_to_string(puzzle(&format!("louridas/expected_output_{name}.txt")))
            .expect("expected")
            .lines()
            .filter_map(|l| {
                let f: Vec<&str> = l.split_whitespace().collect();
                Some((f.first()?.parse().ok()?, f.last()?.to_string()))
            })
            .collect();
        let got = solutions[0]["entries"].as_array().expect("entries");
        let words: BTreeMap<usize, (String, String)> = got
            .iter()
            .map(|e| {
                (
                    e["entry"].as_u64().expect("entry") as usize,
                    (e["regex"].as_str().expect("regex").to_string(), e["word"].as_str().expect("word").to_string()),
                )
            })
            .collect();
        // Each word fits its pattern and fully matches its regex; each regex used once.
        let mut used: Vec<&String> = words.values().map(|(r, _)| r).collect();
        used.sort();
        let mut all: Vec<&String> = pool.iter().collect();
        all.sort();
        assert_eq!(used, all, "{name}: each regex used exactly once");
        for (e, (regex, word)) in &words {
            let (pattern, crossings) = &entries[e];
            assert_eq!(word.chars().count(), pattern.chars().count(), "{name} entry {e}");
            assert!(pattern.chars().zip(word.chars()).all(|(p, w)| p == '.' || p == w), "{name} entry {e}: {word} vs {pattern}");
            let re = crate::common::Full::new(regex);
            assert!(re.is_match(word).expect("match"), "{name} entry {e}: {regex} on {word}");
            // Crossings: the k-th crossing of e with f pairs with the k-th crossing of f with e.
            for (f, pos_in_f) in crossings {
                let k = crossings.iter().take_while(|c| **c != (*f, *pos_in_f)).filter(|c| c.0 == *f).count();
                let pos_in_e = entries[f].1.iter().filter(|c| c.0 == *e).nth(k).expect("reciprocal crossing").1;
                assert_eq!(word.chars().nth(pos_in_e), words[f].1.chars().nth(*pos_in_f), "{name}: entries {e} and {f} disagree");
            }
        }
        // The same letters as the published answer (the hex puzzle also has a second
        // assignment of two regexes giving these letters, counted once).
        let letters: BTreeMap<usize, String> = words.iter().map(|(e, (_, w))| (*e, w.clone())).collect();
        assert_eq!(letters, expected, "{name}");
    }
}

#[test]
fn free_layouts_in_native_json() {
    // Two crossing entries with coordinates, and a pool version of the same grid.
    let dir = tempfile::tempdir().expect("tempdir");
    let free = dir.path().join("free.json");
    std::fs::write(
        &free,
        r#"{"layout": "free", "alphabet": "ABC", "entries": [
            {"label": "1 across", "cells": [[0,0],[0,1],[0,2]], "clues": ["A.C"]},
            {"label": "1 down", "cells": [[0,0],[1,0],[2,0]], "clues": ["[AB]+", "(.)\\1B"]}]}"#,
    )
    .expect("write");
    let run = crossat(&["solve", free.to_str().expect("path"), "--all", "--json"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<Value> = run.stdout.lines().map(|l| serde_json::from_str(l).expect("json")).collect();
    // A?C with ? free over ABC, and the down entry AAB: 3 solutions.
    assert_eq!(lines.last().expect("summary")["solutions"], 3);
    let first = &lines[0]["entries"];
    assert_eq!(first[1]["word"], "AAB");
    assert_eq!(first[2]["word"], "AAB");
    let text = crossat(&["solve", free.to_str().expect("path")], None);
    assert!(
        text.stdout
            .lines()
            .any(|l| l.starts_with("1 down") && l.split_whitespace().skip(2).collect::<Vec<_>>() == ["r1c1", "(.)\\1B", "AAB"]),
        "{}",
        text.stdout
    );
    assert!(text.stdout.contains("│ A │░░░│░░░│"), "{}", text.stdout);

    let pool = dir.path().join("pool.json");
    std::fs::write(
        &pool,
        r#"{"layout": "free", "alphabet": "ABC", "pool": ["(.)\\1B", "A.C"], "entries": [
            {"label": "1", "cells": [[0,0],[0,1],[0,2]]}, {"label": "2", "cells": [[0,0],[1,0],[2,0]]}]}"#,
    )
    .expect("write");
    let run = crossat(&["solve", pool.to_str().expect("path"), "--all", "--json"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<Value> = run.stdout.lines().map(|l| serde_json::from_str(l).expect("json")).collect();
    // Either entry may take either regex: A?C across with AAB down, or AAB across with A?C down.
    let fillings: Vec<String> =
        lines.iter().filter(|l| l["type"] == "solution").map(|l| l["entries"][0]["word"].as_str().unwrap_or("").to_string()).collect();
    assert_eq!(lines.last().expect("summary")["solutions"], 6, "{fillings:?}");
}

#[test]
fn layout_bad_input_is_refused_clearly() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "axis.json",
            r#"{"size": 3, "y": ["A*","A*","A*"], "z": ["A*","A*"], "x": ["A*","A*","A*"]}"#.into(),
            "3 rows, 2 NW-SE and 3 NE-SW diagonals fit no hexagon",
        ),
        (
            "even.json",
            r#"{"size": 4, "y": ["A","A","A","A"], "z": ["A","A","A","A"], "x": ["A","A","A","A"]}"#.into(),
            "4 rows, 4 NW-SE and 4 NE-SW diagonals fit no hexagon",
        ),
        ("twice.json", r#"{"layout": "free", "entries": [{"cells": [[0,0],[0,0]], "clues": ["AA"]}]}"#.into(), "listed twice"),
        (
            "outside.json",
            r#"{"layout": "hexagon", "side": 2, "entries": [{"cells": [[0,2]], "clues": ["A"]}]}"#.into(),
            "outside the hexagon",
        ),
        (
            "poolsize.json",
            r#"{"layout": "free", "pool": ["A"], "entries": [{"cells": [[0,0]]}, {"cells": [[1,0]]}]}"#.into(),
            "the pool has 1 regexes for 2 entries",
        ),
        ("trux.txt", "shape = hexagonal\nnum_regexes_per_line = 1\n'A'\n'A'\n'A'\n'A'\n".into(), "cannot fill 3 axes"),
    ];
    for (name, text, message) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, text).expect("write");
        let run = crossat(&["solve", path.to_str().expect("path")], None);
        assert_eq!(run.code, 2, "{name}: {}", run.stdout);
        assert!(run.stderr.starts_with("error: ") && run.stderr.contains(message), "{name}: {}", run.stderr);
        assert!(!run.stderr.contains("panicked"), "{name}");
    }
    // Louridas CSVs: crossings that contradict each other, letters that disagree, pool size.
    let csv_cases = [
        ("0,..,1,0\n1,..\n", "A.\n.B\n", "does not list a crossing"),
        ("0,A.,1,0\n1,B.,0,0\n", "A.\nB.\n", "intersections contradict"),
        ("0,..,1,5\n1,..,0,0\n", "..\n..\n", "has 2 letters"),
        ("0,..,1,0\n1,..,0,0\n", "..\n", "the pool has 1 regexes for 2 entries"),
    ];
    for (k, (csv, pool, message)) in csv_cases.iter().enumerate() {
        let path = dir.path().join(format!("c{k}.csv"));
        std::fs::write(&path, csv).expect("write");
        std::fs::write(path.with_extension("txt"), pool).expect("write");
        let run = crossat(&["solve", path.to_str().expect("path")], None);
        assert_eq!(run.code, 2, "case {k}: {}", run.stdout);
        assert!(run.stderr.contains(message), "case {k}: {}", run.stderr);
    }
}
