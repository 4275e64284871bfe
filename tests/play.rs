//! What a player sees: `hint --grid` (wrong entries first, then the next forced cell
//! drawn on the grid with the clues behind it) and `check` drawing what fails.

use crate::common::{crossat, json_lines, parse_text_grids};
use serde_json::Value;

const BEATLES: &str = "puzzles/antoine-trux/beginner_1.input.txt";
/// 5×5, unique: REGUL / AREXP / RESSI / ONOFT / HEDAY.
const EXPERIENCED: &str = "puzzles/regexcrossword-com/challenges.json";

fn hint(puzzle: &[&str], grid: &str, extra: &[&str]) -> crate::common::Run {
    let mut args = vec!["hint"];
    args.extend_from_slice(puzzle);
    args.extend_from_slice(&["--grid", "-"]);
    args.extend_from_slice(extra);
    crossat(&args, Some(grid.as_bytes()))
}

#[test]
fn the_next_hint_is_drawn_on_the_players_grid_with_the_clue_that_forces_it() {
    let r = hint(&[BEATLES], "H.\n..\n", &[]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("│ H │[E]│"), "the hint is highlighted: {}", r.stdout);
    assert!(r.stdout.contains("▸ HE|LL|O+ │"), "the clue that forces it is marked: {}", r.stdout);
    assert!(r.stdout.contains("(row 1, column 2) is 'E' (row 1 (left) alone)"), "{}", r.stdout);
    assert!(r.stdout.contains("    clue row 1 (left) 'HE|LL|O+'\n    filled cell (row 1, column 1) 'H'"), "{}", r.stdout);
    // The drawn grid is the player's, plus the hint.
    assert_eq!(parse_text_grids(&r.stdout), vec![vec!["HE".to_string(), "  ".to_string()]]);
    // With colour: the hint black on yellow, no brackets.
    let c = hint(&[BEATLES], "H.\n..\n", &["--color", "always"]);
    assert!(c.stdout.contains("\u{1b}[1m\u{1b}[30m\u{1b}[43m E \u{1b}[0m"), "{:?}", c.stdout);
    assert!(!c.stdout.contains("[E]"), "{}", c.stdout);
}

#[test]
fn following_the_hints_fills_the_grid() {
    // A player who always takes the hint finishes the 5x5 puzzle, each hint forced by
    // the grid so far.
    let want = ["REGUL", "AREXP", "RESSI", "ONOFT", "HEDAY"];
    let mut grid = vec![vec!['.'; 5]; 5];
    for step in 0..25 {
        let text: String = grid.iter().map(|r| format!("{}\n", r.iter().collect::<String>())).collect();
        let r = hint(&[EXPERIENCED, "--id", "experienced/2"], &text, &["--json"]);
        assert_eq!(r.code, 0, "step {step}: {r:?}");
        let lines = json_lines(&r.stdout);
        let h = lines.iter().find(|l| l["type"] == "hint").unwrap_or_else(|| panic!("step {step}: no hint: {}", r.stdout));
        let (row, col) = (h["cell"][0].as_u64().expect("row") as usize, h["cell"][1].as_u64().expect("col") as usize);
        let ch = h["char"].as_str().expect("char").chars().next().expect("one char");
        assert_eq!(grid[row][col], '.', "a hint is an empty cell");
        assert_eq!(ch, want[row].chars().nth(col).expect("cell"), "step {step}");
        assert!(h["because"]["clues"].as_array().is_some_and(|c| !c.is_empty()), "the player's hint names its clues: {h}");
        grid[row][col] = ch;
    }
    let text: String = grid.iter().map(|r| format!("{}\n", r.iter().collect::<String>())).collect();
    let r = hint(&[EXPERIENCED, "--id", "experienced/2"], &text, &[]);
    assert!(r.stdout.contains("the grid is already complete"), "{}", r.stdout);
}

#[test]
fn wrong_entries_come_first_with_the_clues_they_break() {
    // Two wrong entries in the 5x5 puzzle, and right ones around them.
    let grid = "RE...\nAX...\n.....\n.....\n....Q\n";
    let r = hint(&[EXPERIENCED, "--id", "experienced/2"], grid, &[]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stdout.contains("│!X!│"), "{}", r.stdout);
    assert!(r.stdout.contains("(row 2, column 2) 'X' is wrong: with it these clues cannot all hold:"), "{}", r.stdout);
    assert!(r.stdout.contains("(row 5, column 5) 'Q' is wrong: no clue allows it"), "{}", r.stdout);
    assert!(!r.stdout.contains(" is '"), "no hint while entries are wrong: {}", r.stdout);
    let j = hint(&[EXPERIENCED, "--id", "experienced/2"], grid, &["--json"]);
    assert_eq!(j.code, 1);
    let lines = json_lines(&j.stdout);
    let wrong: Vec<&Value> = lines.iter().filter(|l| l["type"] == "wrong").collect();
    assert_eq!(wrong.len(), 2, "{}", j.stdout);
    assert_eq!(wrong[0]["cell"], serde_json::json!([1, 1]));
    assert_eq!(wrong[0]["char"], "X");
    // The entry is wrong: the puzzle with it given has no solution.
    assert!(!wrong[0]["clues"].as_array().expect("clues").is_empty());
    let given = crossat(&["solve", EXPERIENCED, "--id", "experienced/2", "--given", "-"], Some(b".....\n.X...\n.....\n.....\n.....\n"));
    assert_eq!(given.code, 1, "the entry alone has no solution");
    assert_eq!(wrong[1]["clues"], serde_json::json!([]));
    assert_eq!(lines.last().expect("summary")["wrong"], 2);
    // Right entries only: no wrong ones, a hint.
    assert_eq!(hint(&[EXPERIENCED, "--id", "experienced/2"], "RE...\nAR...\n.....\n.....\n.....\n", &[]).code, 0);
}

#[test]
fn a_wrong_entry_names_every_clue_it_breaks_on_its_lines() {
    // L in row 1: column 2 rules it out alone, and with the H beside it row 1
    // ('HE|LL|O+') cannot hold either: both are named and marked.
    let r = hint(&[BEATLES], "HL\n..\n", &[]);
    assert_eq!(r.code, 1, "{r:?}");
    let after = r.stdout.split("is wrong").nth(1).unwrap_or_else(|| panic!("{}", r.stdout));
    assert!(after.contains("row 1 (left) 'HE|LL|O+'") && after.contains("column 2 (top) 'EP|IP|EF'"), "{}", r.stdout);
    assert!(r.stdout.contains("✗ HE|LL|O+"), "{}", r.stdout);
    let j = hint(&[BEATLES], "HL\n..\n", &["--json"]);
    let wrong = json_lines(&j.stdout).into_iter().find(|l| l["type"] == "wrong").expect("wrong");
    assert_eq!(wrong["clues"], serde_json::json!(["row 1 (left)", "column 2 (top)"]));
    // L alone (no H) breaks only column 2: row 1 could still be LL.
    let j = hint(&[BEATLES], ".L\n..\n", &["--json"]);
    let wrong = json_lines(&j.stdout).into_iter().find(|l| l["type"] == "wrong").expect("wrong");
    assert_eq!(wrong["clues"], serde_json::json!(["column 2 (top)"]));
    // check lists the broken clues beside the minimal conflict.
    let c = crossat(&["check", "--json", BEATLES, "-"], Some(b"HL\n..\n"));
    assert_eq!(c.code, 1);
    let summary = json_lines(&c.stdout).pop().expect("summary");
    assert_eq!(summary["broken"], serde_json::json!(["row 1 (left)", "column 2 (top)"]), "{summary}");
    let c = crossat(&["check", BEATLES, "-"], Some(b"HL\n..\n"));
    assert!(c.stdout.contains("clues the entries on their own line break:\n  row 1 (left) 'HE|LL|O+'\n"), "{}", c.stdout);
}

#[test]
fn check_draws_the_failing_cells_and_clues() {
    let r = crossat(&["check", BEATLES, "-"], Some(b"HE\nLE\n"));
    assert_eq!(r.code, 1);
    assert!(r.stdout.contains("[PLEASE]+ │ L │!E!│"), "{}", r.stdout);
    assert!(r.stdout.contains("  2  ✗ EP|IP|EF"), "{}", r.stdout);
    assert!(r.stdout.ends_with("invalid: 1 of 4 clues fail\n"), "{}", r.stdout);
    let c = crossat(&["check", "--color", "always", BEATLES, "-"], Some(b"HE\nLE\n"));
    assert!(c.stdout.contains("\u{1b}[1m\u{1b}[37m\u{1b}[41m E \u{1b}[0m"), "the failing cell white on red: {:?}", c.stdout);
    assert!(c.stdout.contains("\u{1b}[1m\u{1b}[31mEP|IP|EF\u{1b}[0m"), "the failing clue red: {:?}", c.stdout);
    let ok = crossat(&["check", "--no-clues", BEATLES, "-"], Some(b"HE\nLP\n"));
    assert_eq!(ok.code, 0);
    assert_eq!(ok.stdout, "┌───┬───┐\n│ H │ E │\n├───┼───┤\n│ L │ P │\n└───┴───┘\nvalid: all 4 clues match\n");
    // JSON output stays the same: no drawing.
    let j = crossat(&["check", "--json", BEATLES, "-"], Some(b"HE\nLE\n"));
    assert!(json_lines(&j.stdout).iter().all(|l| l.is_object()));
}
