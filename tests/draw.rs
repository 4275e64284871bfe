//! How grids are drawn: snapshots of rectangles, hexagons and free layouts with their
//! clues, in Unicode and ASCII, with and without colour, and wide characters.

use crate::common::{crossat, crossat_env};

const BEATLES: &str = "puzzles/antoine-trux/beginner_1.input.txt";

fn stdout(args: &[&str], stdin: Option<&str>) -> String {
    let r = crossat(args, stdin.map(str::as_bytes));
    assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
    r.stdout
}

#[test]
fn a_rectangle_has_its_row_clues_beside_and_long_column_clues_listed() {
    let want = "            1   2
          ┌───┬───┐
 HE|LL|O+ │ H │ E │
          ├───┼───┤
[PLEASE]+ │ L │ P │
          └───┴───┘
top clues:
  1  [^SPEAK]+
  2  EP|IP|EF
unique: no other solution exists (search exhausted)
";
    assert_eq!(stdout(&["solve", BEATLES], None), want);
    let ascii = want.replace(['┌', '┬', '┐', '├', '┼', '┤', '└', '┴', '┘'], "+").replace('─', "-").replace('│', "|");
    assert_eq!(stdout(&["solve", "--ascii", BEATLES], None), ascii);
    assert_eq!(
        stdout(&["solve", "--no-clues", BEATLES], None),
        "┌───┬───┐\n│ H │ E │\n├───┼───┤\n│ L │ P │\n└───┴───┘\nunique: no other solution exists (search exhausted)\n"
    );
}

#[test]
fn short_clues_stand_on_all_four_sides() {
    let puzzle = r#"{"left": ["AB", "C."], "right": ["A.", ".D"], "top": ["AC", "B+D"], "bottom": [".C", "BD"]}"#;
    let want = "    AC  B+D
   ┌───┬───┐
AB │ A │ B │ A.
   ├───┼───┤
C. │ C │ D │ .D
   └───┴───┘
    .C  BD
unique: no other solution exists (search exhausted)
";
    assert_eq!(stdout(&["solve", "-"], Some(puzzle)), want);
}

#[test]
fn a_hexagon_has_its_row_clues_before_the_rows_and_its_diagonals_after() {
    let puzzle = r#"{"name": "HEX", "size": 3, "y": ["[HA]I", "[^I]+", "E."], "z": ["A.", "HEX", ".H"], "x": ["AH|HA", "E+I", "X."]}"#;
    let want = "         ╱ ╲ ╱ ╲
  [HA]I │ H │ I │
       ╱ ╲ ╱ ╲ ╱ ╲
[^I]+ │ A │ E │ H │
       ╲ ╱ ╲ ╱ ╲ ╱
     E. │ E │ X │
         ╲ ╱ ╲ ╱
NW-SE diagonal 1 (read down)  A.
NW-SE diagonal 2 (read down)  HEX
NW-SE diagonal 3 (read down)  .H
NE-SW diagonal 1 (read up)    AH|HA
NE-SW diagonal 2 (read up)    E+I
NE-SW diagonal 3 (read up)    X.
unique: no other solution exists (search exhausted)
";
    assert_eq!(stdout(&["solve", "-"], Some(puzzle)), want);
    let bare = stdout(&["solve", "--ascii", "--no-clues", "-"], Some(puzzle));
    assert_eq!(
        bare,
        "   / \\ / \\\n  | H | I |\n / \\ / \\ / \\\n| A | E | H |\n \\ / \\ / \\ /\n  | E | X |\n   \\ / \\ /\nunique: no other solution exists (search exhausted)\n"
    );
}

#[test]
fn a_free_layout_is_a_coordinate_grid_with_its_entries() {
    let puzzle = r#"{"layout": "free", "entries": [
        {"label": "1 across", "cells": [[0, 0], [0, 1], [0, 2]], "clues": ["CAT"]},
        {"label": "1 down", "cells": [[0, 0], [1, 0]], "clues": "C[OU]"},
        {"label": "2 down", "cells": [[0, 2], [1, 2]], "clues": "T[EO]"}]}"#;
    let r = crossat(&["solve", "--all", "-"], Some(puzzle.as_bytes()));
    // One of the four solutions (the solver's order is not part of the contract).
    let want = "    1   2   3
  ┌───┬───┬───┐
1 │ C │ A │ T │
  ├───┼───┼───┤
2 │ O │░░░│ E │
  └───┴───┴───┘
1 across  r1c1  CAT    CAT
1 down    r1c1  C[OU]  CO
2 down    r1c3  T[EO]  TE";
    assert!(r.stdout.split("\n\n").any(|grid| grid == want), "{}", r.stdout);
    assert!(r.stdout.contains("\n4 solutions; search exhausted\n"), "{}", r.stdout);
}

#[test]
fn wide_characters_keep_the_grid_aligned() {
    let puzzle = r#"{"left": ["日本", "語."], "top": ["日語", "本[^日]"], "alphabet": "日本語X"}"#;
    let out = stdout(&["solve", "--all", "-"], Some(puzzle));
    let grid: Vec<&str> = out.lines().filter(|l| l.contains('│') || l.contains('┌') || l.contains('├') || l.contains('└')).collect();
    assert_eq!(grid.len(), 5 * 3, "three solutions of two rows: {out}");
    // Every bar of the grid at the same display column, line after line.
    let bars = |l: &str| -> Vec<usize> {
        let mut col = 0;
        let mut at = vec![];
        for c in l.chars() {
            if "│┌┬┐├┼┤└┴┘".contains(c) {
                at.push(col);
            }
            col += unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
        }
        at
    };
    for l in &grid {
        assert_eq!(bars(l), bars(grid[0]), "{out}");
    }
    assert!(out.contains("│ 日 │ 本 │"), "{out}");
    assert!(out.contains("│ 語 │ X  │"), "{out}");
}

#[test]
fn spaces_and_control_characters_are_shown_unambiguously() {
    let out = stdout(&["solve", "-"], Some(r#"{"left": ["A\\s\\t"], "top": ["A", " ", "\\t"], "alphabet": "A \t"}"#));
    assert!(out.contains("│ A │ ␣ │ ␉ │"), "{out}");
    assert!(out.contains("legend: ␉ is the control character U+0009; ␣ is a space"), "{out}");
    let ascii = stdout(&["solve", "--ascii", "-"], Some(r##"{"left": ["#\\+"], "top": ["#", "\\+"]}"##));
    assert!(ascii.contains("| # | + |"), "{ascii}");
    assert!(ascii.contains("legend: '+' '#' inside a cell are the cell's letter"), "{ascii}");
}

#[test]
fn colour_follows_the_flag_and_the_environment() {
    let esc = |s: &str| s.contains('\u{1b}');
    // Piped: no colour by default, colour with --color always or CLICOLOR_FORCE, never with NO_COLOR.
    assert!(!esc(&crossat_env(&["solve", BEATLES], &[]).stdout));
    let always = crossat_env(&["solve", BEATLES, "--color", "always"], &[]).stdout;
    assert!(!esc(&always), "no givens, no marks: nothing to colour");
    let given = crossat(&["solve", "--color", "always", "--given", "-", BEATLES], Some(b"H.\n..\n"));
    assert!(given.stdout.contains("\u{1b}[1m\u{1b}[34m H \u{1b}[0m"), "the given is bold blue: {:?}", given.stdout);
    let forced = |envs: &[(&str, &str)], flag: &str| {
        let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_crossat"));
        c.args(["solve", "--given", "-", BEATLES, "--color", flag])
            .env("LC_ALL", "C.UTF-8")
            .env_remove("NO_COLOR")
            .env_remove("CLICOLOR_FORCE");
        c.envs(envs.iter().copied()).current_dir(env!("CARGO_MANIFEST_DIR"));
        c.stdin(std::process::Stdio::piped()).stdout(std::process::Stdio::piped());
        let mut child = c.spawn().expect("spawn");
        use std::io::Write;
        child.stdin.take().expect("stdin").write_all(b"H.\n..\n").expect("write");
        String::from_utf8(child.wait_with_output().expect("wait").stdout).expect("utf-8")
    };
    assert!(!esc(&forced(&[], "auto")), "piped: off");
    assert!(esc(&forced(&[("CLICOLOR_FORCE", "1")], "auto")), "CLICOLOR_FORCE: on");
    assert!(!esc(&forced(&[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")], "auto")), "NO_COLOR wins");
    assert!(esc(&forced(&[("NO_COLOR", "1")], "always")), "--color always overrides NO_COLOR");
    assert!(!esc(&forced(&[("CLICOLOR_FORCE", "1")], "never")), "--color never");
}

#[test]
fn a_non_utf8_locale_draws_in_ascii() {
    let out = crossat_env(&["solve", BEATLES], &[("LC_ALL", "C")]).stdout;
    assert!(out.contains("+---+---+") && !out.contains('┌'), "{out}");
    let out = crossat_env(&["solve", BEATLES], &[("LC_ALL", ""), ("LC_CTYPE", "en_US.utf8")]).stdout;
    assert!(out.contains('┌'), "{out}");
}

#[test]
fn json_output_is_not_drawn() {
    let out = stdout(&["solve", "--json", BEATLES], None);
    assert_eq!(out.lines().next(), Some(r#"{"type":"solution","grid":["HE","LP"]}"#));
}
