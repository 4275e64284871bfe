//! regexle.com's puzzle JSON (`{"side", "diameter", "day", "x", "y", "z"}`): read as
//! board JSON with cells A–Z and ECMAScript clues, its axes checked against nelhage's
//! regexle solver's coordinates by node, independently of crossat's hexagon geometry.

use crate::common::{arg, crossat, json_solutions, puzzle, tmp, write_file};
use std::process::Command;

const BUNDLED: [&str; 3] = ["regexle/side3-seed1.json", "regexle/side5-seed1.json", "regexle/side8-seed1.json"];

/// The clues (`x3`, `y0`, …) that node's `RegExp` says the grid breaks, with the lines
/// taken as nelhage's solver takes them: cell (x, y) with |x − y| < side is row y's
/// cell x − max(0, y − side + 1); `x[k]` walks x = k with y descending, `y[k]` y = k
/// with x ascending, `z[k]` y − x = side − 1 − k with x ascending. `x_up = false` walks
/// `x[k]` the other way, which a correct reading must notice.
fn node_failures(puzzle: &serde_json::Value, rows: &[String], x_up: bool) -> Vec<String> {
    let script = r#"
const [p, rows, xUp] = JSON.parse(process.argv[1]);
const s = p.side, d = 2 * s - 1, ok = (x, y) => x >= 0 && y >= 0 && x < d && y < d && Math.abs(x - y) < s;
const at = (x, y) => [...rows[y]][x - Math.max(0, y - s + 1)];
const ys = [...Array(d).keys()], xs = ys;
const lines = {
  x: (k) => (xUp ? [...ys].reverse() : ys).filter((y) => ok(k, y)).map((y) => at(k, y)),
  y: (k) => xs.filter((x) => ok(x, k)).map((x) => at(x, k)),
  z: (k) => xs.filter((x) => ok(x, x + s - 1 - k)).map((x) => at(x, x + s - 1 - k)),
};
const bad = [];
for (const a of 'xyz') p[a].forEach((c, k) => { if (!new RegExp('^(?:' + c + ')$').test(lines[a](k).join(''))) bad.push(a + k); });
console.log(JSON.stringify(bad));
"#;
    let args = serde_json::json!([puzzle, rows, x_up]).to_string();
    let out = Command::new("node").args(["-e", script, &args]).output().expect("node runs (tests/tools.rs requires it)");
    assert!(out.status.success(), "node: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("node's JSON")
}

#[test]
fn bundled_regexle_puzzles_solve_uniquely_to_their_grids_along_the_peers_axes() {
    for rel in BUNDLED {
        let path = puzzle(rel);
        let file: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let run = crossat(&["solve", "--json", arg(&path)], None);
        assert_eq!(run.code, 0, "{rel}: {}", run.stderr);
        let (grids, summary) = json_solutions(&run.stdout);
        assert_eq!(grids.len(), 1, "{rel}: {grids:?}");
        assert_eq!(summary["unique"], true, "{rel}");
        assert_eq!(summary["complete"], true, "{rel}");
        assert_eq!(summary["dialect"], "ecmascript", "{rel}: regexle checks its clues in the browser");
        assert_eq!(summary["alphabet"], "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "{rel}");
        let day = file["day"].as_u64().unwrap();
        assert_eq!(summary["puzzle"], format!("regexle day {day}"), "{rel}");
        let expected: Vec<String> = serde_json::from_value(file["solution"].clone()).unwrap();
        assert_eq!(grids[0], expected, "{rel}: the generator's grid");
        assert_eq!(node_failures(&file, &grids[0], true), Vec::<String>::new(), "{rel}: node rejects clues on the peer's axes");
    }
    // The check sees a reversed axis: read bottom-up the other way, side 8's NE–SW lines break.
    let path = puzzle(BUNDLED[2]);
    let file: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let rows: Vec<String> = serde_json::from_value(file["solution"].clone()).unwrap();
    let wrong = node_failures(&file, &rows, false);
    assert!(!wrong.is_empty() && wrong.iter().all(|c| c.starts_with('x')), "{wrong:?}");
}

#[test]
fn a_regexle_puzzle_may_name_its_dialect_and_the_command_line_its_alphabet() {
    let dir = tmp();
    let p = write_file(
        dir.path(),
        "p.json",
        r#"{"side": 2, "diameter": 3, "day": 9, "dialect": "python", "y": ["[HA]I", "[^I]+", "E."], "z": ["A.", "HEX", ".H"], "x": ["AH|HA", "E+I", "X."]}"#,
    );
    let run = crossat(&["solve", "--json", arg(&p)], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let (grids, summary) = json_solutions(&run.stdout);
    assert_eq!(grids, vec![vec!["HI".to_string(), "AEH".into(), "EX".into()]]);
    assert_eq!(summary["dialect"], "python");
    // `[^I]+` over A–Z leaves the middle row open until the diagonals pin it; over
    // the clues' letters only (H, A, E, X, I) the answer is the same grid.
    let run = crossat(&["solve", "--json", "--alphabet", "AEHIX", arg(&p)], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(json_solutions(&run.stdout).1["alphabet"], "AEHIX");
}

#[test]
fn a_regexle_puzzle_whose_side_or_diameter_disagrees_with_its_lines_is_refused() {
    let dir = tmp();
    let lines = r#""y": ["[HA]I", "[^I]+", "E."], "z": ["A.", "HEX", ".H"], "x": ["AH|HA", "E+I", "X."]"#;
    for (head, says) in [
        (r#""side": 3, "diameter": 3"#, r#"board "side" 3 (a hexagon of 5 rows) does not match its 3 rows of clues"#),
        (r#""side": 2, "diameter": 5"#, r#"board "diameter" 5 does not match its 3 rows of clues"#),
        (r#""side": "two""#, r#""side" must be a non-negative integer"#),
    ] {
        let p = write_file(dir.path(), "bad.json", format!("{{{head}, {lines}}}"));
        let run = crossat(&["solve", arg(&p)], None);
        assert_eq!(run.code, 2, "{head}: {}", run.stderr);
        assert!(run.stderr.contains("bad.json") && run.stderr.contains(says), "{head}: {}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    }
}
