//! The puzzle formats `crossat generate` writes — crossat JSON, `challenges.json` and
//! the antoine-trux text — each read back as the puzzle written: in the library
//! (`puzzle::native::write`, `puzzle::challenges::write`, `puzzle::trux::write` then
//! `puzzle::read`) and through the command line (`generate` then `solve`).

use crate::common::crossat;
use crate::generate::{generate, solve_written};
use crossat::generate::Spec;
use crossat::puzzle::{self, Puzzle, Shape};
use serde_json::Value;

/// What a puzzle asks, whatever its format calls its clues: its shape, and for every
/// clue the cells it reads and its regex, in a fixed order.
fn constraints(p: &Puzzle) -> (Shape, Vec<(Vec<usize>, String)>) {
    let mut clues: Vec<(Vec<usize>, String)> = p.clues.iter().map(|c| (c.cells.clone(), c.regex.clone())).collect();
    clues.sort();
    (p.shape.clone(), clues)
}

/// Every writer, then the reader the format is detected as, gives back the puzzle's
/// shape and clues: rectangles and hexagons, one and two clues per line, and clues
/// whose characters need escaping in a regex, in JSON and between quotes.
#[test]
fn every_writer_reads_back_as_the_same_puzzle() {
    let rect = |rows, cols| Shape::Rect { rows, cols };
    let cases = [
        (rect(3, 4), 1, None),
        (rect(2, 5), 2, None),
        (rect(3, 4), 1, Some("IT'S [A] \\/")),
        (rect(1, 5), 2, None),
        (Shape::Hex(crossat::puzzle::hex::Sides::regular(2)), 1, None),
        (Shape::Hex(crossat::puzzle::hex::Sides::regular(3)), 2, Some("HEXAGONAL \"QUOTE\"")),
    ];
    for (shape, sides, text) in cases {
        for seed in [1, 2] {
            let spec = Spec {
                shape: shape.clone(),
                sides,
                text: text.map(str::to_string),
                backrefs: false,
                lookarounds: seed == 2,
                difficulty: None,
                seed,
            };
            let made = crossat::generate::generate(&spec).unwrap_or_else(|e| panic!("{spec:?}: {e}"));
            let want = constraints(&made.puzzle);
            let challenges = puzzle::challenges::write(&made.puzzle, "id").expect("rectangles and hexagons have a challenges shape");
            let written = [
                ("crossat JSON", puzzle::native::write(&made.puzzle).to_string(), None),
                ("antoine-trux text", puzzle::trux::write(&made.puzzle, sides), None),
                ("challenges.json", challenges.to_string(), Some("generated/1")),
            ];
            for (format, text, id) in written {
                let read =
                    puzzle::read("written", text.as_bytes(), None, id, None).unwrap_or_else(|e| panic!("{spec:?} {format}: {e}\n{text}"));
                assert_eq!(constraints(&read), want, "{spec:?} {format}:\n{text}");
            }
        }
    }
}

/// A shape with no format of its own has no challenges shape.
#[test]
fn a_free_shape_has_no_challenges_shape() {
    let p = Puzzle {
        name: None,
        shape: Shape::Free { cells: 2, coords: None },
        clues: vec![],
        alphabet: None,
        givens: vec![None; 2],
        pool: None,
        dialect: Default::default(),
    };
    assert_eq!(puzzle::challenges::write(&p, "id"), None);
}

/// Through the command line: every output format of every shape, written by
/// `generate`, is solved by `solve` to one solution, the generated grid; and each
/// `--output-format` prints what `--json` carries.
#[test]
fn every_output_format_solves_back_to_the_generated_grid() {
    let shapes: [&[&str]; 5] =
        [&["--size", "3x4"], &["--size", "2x5", "--sides", "2"], &["--hex", "2"], &["--hex", "3"], &["--hex", "3", "--sides", "2"]];
    for shape in shapes {
        for seed in ["1", "2", "3"] {
            let mut args = shape.to_vec();
            args.extend_from_slice(&["--seed", seed]);
            let g = generate(&args);
            let solution: Vec<String> =
                g["solution"].as_array().expect("solution").iter().map(|r| r.as_str().expect("row").to_string()).collect();
            for (text, ext) in [(g["crossat"].to_string(), "json"), (g["trux"].as_str().expect("trux").to_string(), "txt")] {
                let (grids, complete) = solve_written(&text, ext);
                assert!(complete && grids == vec![solution.clone()], "{args:?} ({ext}): {grids:?}");
            }
            let dir = tempfile::tempdir().expect("dir");
            let path = dir.path().join("challenges.json");
            std::fs::write(&path, g["challenges"].to_string()).expect("write");
            let r = crossat(&["solve", "--json", path.to_str().expect("path"), "--id", "generated/1"], None);
            assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
            let (grids, summary) = crate::common::json_solutions(&r.stdout);
            assert!(summary["complete"] == true && grids == vec![solution.clone()], "{args:?} (challenges): {grids:?}");
            // The text format and the challenges shape each get their own command too.
            for format in ["trux", "challenges"] {
                let mut a = vec!["generate", "--quiet", "--output-format", format];
                a.extend_from_slice(&args);
                let run = crossat(&a, None);
                assert_eq!(run.code, 0, "{}", run.stderr);
                if format == "trux" {
                    assert_eq!(run.stdout, g["trux"].as_str().expect("trux"));
                } else {
                    assert_eq!(serde_json::from_str::<Value>(&run.stdout).expect("json"), g["challenges"]);
                }
            }
        }
    }
}
