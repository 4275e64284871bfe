//! The bundled puzzle collections (`puzzles/`) against their published solutions.
//!
//! Every expected grid comes from the collection's own files: antoine-trux's
//! `*.output_expected.txt`, `solutions_from_antoine_trux.json`, the solution rows at the
//! end of dkesler's `.dat` files, seed000's `.expected` files and the BBC puzzle's
//! `solution_rows`.

use crate::common::{crossat, input_file, parse_trux_expected, puzzle, read_text, solve_in_process};
use crossat::error::Result;
use crossat::puzzle::Shape;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The puzzles with more than one solution: each has its count and the hash of its
/// solutions recorded beside it (`NAME.solutions.md`, from the peer's full run and
/// CPython).
const SEVERAL: &[&str] = &["player_puzzle_sheep"];

/// The SHA-256 of `grids` sorted, each grid's rows joined by `/` and the grids by
/// newlines (the form of the `.solutions.md` records), by CPython's hashlib.
fn solutions_sha256(grids: &[Vec<String>]) -> String {
    let mut lines: Vec<String> = grids.iter().map(|g| g.join("/")).collect();
    lines.sort();
    let script = "import hashlib, sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())";
    let mut child = std::process::Command::new("python3")
        .args(["-c", script])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("python3 is required: {e}"));
    std::io::Write::write_all(&mut child.stdin.take().expect("stdin"), lines.join("\n").as_bytes()).expect("write to python3");
    let out = child.wait_with_output().expect("python3");
    assert!(out.status.success(), "python3 failed");
    String::from_utf8(out.stdout).expect("UTF-8").trim().to_string()
}

#[test]
fn sheeps_record_is_the_count_cpython_finds() {
    // The record's first source is the peer's full run (not repeated here: its code is
    // not in this project); the second, CPython's, runs here, over the alphabet crossat
    // chooses for the file.
    let record = crate::common::recorded_solutions("antoine-trux/player_puzzle_sheep");
    let sheep = puzzle("antoine-trux/player_puzzle_sheep.input.txt");
    let sheep = sheep.to_str().expect("UTF-8 path");
    let run = crossat(&["solve", "--limit", "1", "--json", sheep], None);
    let summary: Value = serde_json::from_str(run.stdout.lines().last().expect("a summary")).expect("JSON");
    assert_eq!(summary["alphabet"].as_str(), Some(record.alphabet.as_str()), "crossat's alphabet is the record's");
    let out = std::process::Command::new("python3")
        .arg(crate::common::root().join("scripts/trux_count.py"))
        .args([sheep, &record.alphabet])
        .output()
        .unwrap_or_else(|e| panic!("python3 is required: {e}"));
    assert!(out.status.success(), "scripts/trux_count.py failed: {}", String::from_utf8_lossy(&out.stderr));
    let want = format!("{} {}", record.count, record.sha256);
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), want, "CPython's count and hash are the record's");
}

/// What a corpus walk found: failures are collected so that one run names them all.
#[derive(Default)]
struct Report {
    failures: Vec<String>,
    solved: usize,
}

impl Report {
    /// The solutions, or `None` after recording a failure.
    fn solutions(&mut self, name: &str, result: Result<(Vec<Vec<String>>, bool)>) -> Option<(Vec<Vec<String>>, bool)> {
        match result {
            Ok(found) => {
                self.solved += 1;
                Some(found)
            }
            Err(e) => {
                self.fail(name, format!("failed: {e}"));
                None
            }
        }
    }

    fn fail(&mut self, name: &str, msg: String) {
        self.failures.push(format!("{name}: {msg}"));
    }

    /// Checks that `expected` is among the solutions and, for a unique puzzle, that the
    /// search was exhausted after exactly one.
    fn check(&mut self, name: &str, (grids, complete): &(Vec<Vec<String>>, bool), expected: &[String], unique: bool) {
        if !grids.iter().any(|g| g == expected) {
            self.fail(name, format!("expected grid {expected:?} is not among the {} solution(s) {grids:?}", grids.len()));
        }
        let distinct: BTreeSet<_> = grids.iter().collect();
        if distinct.len() != grids.len() {
            self.fail(name, "a grid was reported twice".into());
        }
        if unique && (grids.len() != 1 || !complete) {
            self.fail(name, format!("expected a unique solution, got {} (complete: {complete})", grids.len()));
        }
    }

    /// Prints the tally and fails with every failure found.
    fn finish(self, what: &str, min_puzzles: usize) {
        eprintln!("{what}: {} solved", self.solved);
        assert!(self.failures.is_empty(), "{what}: {} failure(s):\n{}", self.failures.len(), self.failures.join("\n"));
        assert!(self.solved >= min_puzzles, "{what}: only {} puzzles checked, expected at least {min_puzzles}", self.solved);
    }
}

/// Files of `dir` whose name ends with `suffix`, sorted.
fn files(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with(suffix)))
        .collect();
    v.sort();
    v
}

fn is_hex_trux(text: &str) -> bool {
    text.lines().any(|l| l.split_once('=').is_some_and(|(k, v)| k.trim() == "shape" && v.trim() == "hexagonal"))
}

#[test]
fn antoine_trux_puzzles_match_their_expected_outputs() {
    let dir = puzzle("antoine-trux");
    let mut report = Report::default();
    let (mut hex, mut counted) = (0, BTreeSet::new());
    for input in files(&dir, ".input.txt") {
        let file = input.file_name().and_then(|n| n.to_str()).expect("name");
        let name = file.strip_suffix(".input.txt").expect("suffix");
        let expected = parse_trux_expected(&read_text(&dir.join(format!("{name}.output_expected.txt"))));
        let first = expected.grids.first().unwrap_or_else(|| panic!("{name}: no grid in the expected output"));
        let result = solve_in_process(input_file(&input, None), None);
        // Hexagons are drawn as rows top to bottom, like crossat's display rows.
        hex += usize::from(is_hex_trux(&read_text(&input)));
        let known = SEVERAL.contains(&name).then(|| crate::common::recorded_solutions(&format!("antoine-trux/{name}")));
        if !expected.unique && known.is_none() {
            report.fail(name, "several solutions expected: record them in NAME.solutions.md and SEVERAL".into());
        }
        let Some(found) = report.solutions(name, result) else { continue };
        report.check(name, &found, first, expected.unique);
        for g in &expected.grids[1..] {
            if !found.0.contains(g) {
                report.fail(name, format!("expected grid {g:?} is not among the solutions"));
            }
        }
        if let Some(record) = known {
            let _ = counted.insert(name.to_string());
            if found.0.len() != record.count || !found.1 {
                report.fail(name, format!("expected exactly {} solutions, got {} (complete: {})", record.count, found.0.len(), found.1));
            } else if solutions_sha256(&found.0) != record.sha256 {
                report.fail(name, "the solutions are not the recorded ones (their SHA-256 differs)".into());
            }
        }
    }
    assert_eq!(hex, 5, "hexagonal files (MIT, hexagonal_2..4, star_wars)");
    assert_eq!(counted.len(), SEVERAL.len(), "every puzzle of SEVERAL is in the corpus");
    report.finish("antoine-trux", 84);
}

#[test]
fn antoine_trux_decoding_reads_windows_1252_files() {
    // hamlet_5's clue holds the byte 0x96: an en dash in Windows-1252.
    let bytes = std::fs::read(puzzle("antoine-trux/hamlet_5.input.txt")).expect("read");
    assert!(std::str::from_utf8(&bytes).is_err(), "the test relies on a non-UTF-8 file");
    let text = read_text(&puzzle("antoine-trux/hamlet_5.input.txt"));
    assert!(text.contains('\u{2013}'), "0x96 decodes to an en dash");
    assert!(!text.contains('\u{FFFD}'));
}

/// `solutions_from_antoine_trux.json`: puzzles keyed by id, with `solution_rows`.
fn regexcrossword_solutions() -> BTreeMap<String, Value> {
    let text = std::fs::read_to_string(puzzle("regexcrossword-com/solutions_from_antoine_trux.json")).expect("read");
    let v: Value = serde_json::from_str(&text).expect("JSON");
    assert!(v["about"].as_str().is_some_and(|a| a.contains("solution_rows[i] is row i")), "format described in \"about\"");
    v["puzzles"].as_object().expect("puzzles object").iter().map(|(k, v)| (k.clone(), v.clone())).collect()
}

/// Every puzzle of `challenges.json` as (set/number key, puzzle object).
fn challenges() -> Vec<(String, Value)> {
    let text = std::fs::read_to_string(puzzle("regexcrossword-com/challenges.json")).expect("read");
    let sets: Value = serde_json::from_str(&text).expect("JSON");
    let mut out = Vec::new();
    for set in sets.as_array().expect("array of sets") {
        let id = set["id"].as_str().expect("set id");
        for (i, p) in set["puzzles"].as_array().expect("puzzles").iter().enumerate() {
            out.push((format!("{id}/{}", i + 1), p.clone()));
        }
    }
    out
}

#[test]
fn regexcrossword_com_puzzles_match_their_solutions() {
    let path = puzzle("regexcrossword-com/challenges.json");
    let solutions = regexcrossword_solutions();
    let mut report = Report::default();
    let mut with_solution = 0;
    for (key, p) in challenges() {
        let id = p["id"].as_str().expect("id");
        let name = format!("{key} ({id})");
        let Some(rows) = solutions.get(id).and_then(|s| s["solution_rows"].as_array()) else { continue };
        with_solution += 1;
        let expected: Vec<String> = rows.iter().map(|r| r.as_str().expect("row").to_string()).collect();
        let unique = solutions[id]["antoine_reports"].as_str().is_none_or(|r| r.contains("there are no other solutions"));
        let result = solve_in_process(input_file(&path, Some(id)), None);
        if let Some(found) = report.solutions(&name, result) {
            report.check(&name, &found, &expected, unique);
        }
    }
    assert_eq!(with_solution, 53, "puzzles with a known solution (2 hexagonal ones have none)");
    report.finish("regexcrossword.com", 53);
}

#[test]
fn regexcrossword_com_ids_by_key_and_uuid_pick_the_same_puzzle() {
    let path = puzzle("regexcrossword-com/challenges.json");
    let text = std::fs::read_to_string(&path).expect("read");
    let src = path.display().to_string();
    for (key, p) in challenges() {
        if p["hexagonal"].as_bool() == Some(true) {
            continue;
        }
        let id = p["id"].as_str().expect("id");
        let by_key = crossat::puzzle::read(&src, text.as_bytes(), None, Some(&key), None).expect("by key");
        let by_id = crossat::puzzle::read(&src, text.as_bytes(), None, Some(id), None).expect("by id");
        assert_eq!(by_key, by_id, "{key} / {id}");
        let rows = p["patternsY"].as_array().expect("patternsY").len();
        let cols = p["patternsX"].as_array().expect("patternsX").len();
        assert_eq!(by_key.shape, Shape::Rect { rows, cols }, "{key}");
    }
}

#[test]
fn regexcrossword_com_list_shows_every_puzzle() {
    let r = crossat(&["list", "puzzles/regexcrossword-com/challenges.json"], None);
    assert_eq!(r.code, 0, "{r:?}");
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 55, "{}", r.stdout);
    let all = challenges();
    assert_eq!(all.len(), 55);
    for ((key, p), line) in all.iter().zip(&lines) {
        assert!(line.starts_with(key.as_str()), "{line:?} lists {key}");
        assert!(line.contains(p["id"].as_str().expect("id")), "{line:?} shows the id");
    }
    let r = crossat(&["list", "--json", "puzzles/regexcrossword-com/challenges.json"], None);
    assert_eq!(r.code, 0, "{r:?}");
    let entries = crate::common::json_lines(&r.stdout);
    assert_eq!(entries.len(), 55);
    assert!(entries.iter().all(|e| e["type"] == "puzzle"));
    for ((key, p), e) in all.iter().zip(&entries) {
        assert_eq!(e["key"], key.as_str());
        assert_eq!(e["id"], p["id"]);
        assert_eq!(e["name"], p["name"]);
        let size = e["size"].as_str().expect("size");
        if p["hexagonal"].as_bool() == Some(true) {
            assert!(size.contains("hexagon"), "{key}: {size}");
        } else {
            let n = |k: &str| p[k].as_array().expect("patterns").len();
            assert_eq!(size, format!("{}x{}", n("patternsY"), n("patternsX")), "{key}");
        }
    }
}

/// A dkesler `.dat` file: `rows cols`, row regexes, column regexes, solution rows, as
/// blank-line separated blocks; returns the solution block.
fn dat_solution(text: &str) -> Vec<String> {
    let blocks: Vec<Vec<&str>> = text
        .split("\n\n")
        .map(|b| b.lines().map(|l| l.trim_end_matches('\r')).filter(|l| !l.is_empty()).collect::<Vec<_>>())
        .filter(|b| !b.is_empty())
        .collect();
    assert_eq!(blocks.len(), 4, "size, rows, columns, solution: {text:?}");
    let dims: Vec<usize> = blocks[0][0].split_whitespace().map(|n| n.parse().expect("number")).collect();
    let solution: Vec<String> = blocks[3].iter().map(|s| s.to_string()).collect();
    assert_eq!(dims, [solution.len(), solution[0].chars().count()], "solution matches `rows cols`");
    assert_eq!(blocks[1].len(), dims[0]);
    assert_eq!(blocks[2].len(), dims[1]);
    solution
}

#[test]
fn dkesler_puzzles_match_the_solutions_they_carry() {
    let mut report = Report::default();
    for path in files(&puzzle("dkesler"), ".dat") {
        let name = path.file_name().and_then(|n| n.to_str()).expect("name").to_string();
        let expected = dat_solution(&read_text(&path));
        if let Some(found) = report.solutions(&name, solve_in_process(input_file(&path, None), None)) {
            report.check(&name, &found, &expected, true);
        }
    }
    report.finish("dkesler", 10);
}

#[test]
fn seed000_puzzles_match_their_expected_files() {
    let mut report = Report::default();
    for (name, rows) in [("problem1", vec!["HE", "LP"]), ("problem3", vec!["NOS", "FER", "ATU"])] {
        let expected: Vec<String> =
            read_text(&puzzle(&format!("seed000/{name}.expected"))).lines().filter(|l| !l.is_empty()).map(str::to_string).collect();
        assert_eq!(expected, rows, "{name}.expected");
        let found = report.solutions(name, solve_in_process(input_file(&puzzle(&format!("seed000/{name}.json")), None), None));
        if let Some(found) = found {
            report.check(name, &found, &expected, true);
        }
    }
    report.finish("seed000", 2);
}

/// The BBC puzzle uses back-references: while they are unsupported it may fail with that
/// error; once it solves, its unique solution is checked — from the antoine-trux file,
/// and from the bundled crossat JSON (whose notes and solution are under `comment`).
#[test]
fn bbc_puzzle_matches_its_solution_rows() {
    let json: Value = serde_json::from_str(&std::fs::read_to_string(puzzle("bbc/bbc-2017-07-05.json")).expect("read")).expect("JSON");
    let expected: Vec<String> =
        json["comment"]["solution_rows"].as_array().expect("solution_rows").iter().map(|r| r.as_str().expect("row").to_string()).collect();
    assert_eq!((expected.len(), expected[0].chars().count()), (5, 14));
    let mut report = Report::default();
    let trux = puzzle("bbc/bbc-2017-07-05.antoine-format.input.txt");
    let inputs =
        [("bbc antoine-format", input_file(&trux, None)), ("bbc crossat JSON", input_file(&puzzle("bbc/bbc-2017-07-05.json"), None))];
    for (name, input) in inputs {
        if let Some(found) = report.solutions(name, solve_in_process(input, None)) {
            report.check(name, &found, &expected, true);
        }
    }
    report.finish("bbc", 2);
}

/// The expected-output parser reads cells by fixed width: a cell may be `|` or a space.
#[test]
fn expected_output_parser_reads_cells_by_fixed_width() {
    let rect = "found 1 solution(s) (there are no other solutions):\n\n -- -- -- \n|| |  |A |\n -- -- -- \n|  || || |\n -- -- -- \n";
    let e = parse_trux_expected(rect);
    assert!(e.unique);
    assert_eq!(e.grids, vec![vec!["| A".to_string(), " ||".to_string()]]);
    let hex = "first 2 solution(s) found (there might be other solutions):\n\n   / \\ / \\   \n  | F |   |  \n / \\ / \\ / \\ \n| | | O | ! |\n \\ / \\ / \\ / \n\n   / \\ / \\   \n  | X | Y |  \n";
    let e = parse_trux_expected(hex);
    assert!(!e.unique);
    assert_eq!(e.grids, vec![vec!["F ".to_string(), "|O!".to_string()], vec!["XY".to_string()]]);
    let exterminate = parse_trux_expected(&read_text(&puzzle("antoine-trux/player_puzzle_exterminate.output_expected.txt")));
    assert!(exterminate.grids[0].iter().any(|r| r.starts_with("(|.|.|.|.|)")), "{:?}", exterminate.grids[0]);
}
