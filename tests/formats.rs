//! The puzzle formats `crossat generate` writes — crossat JSON, `challenges.json` and
//! the antoine-trux text — each read back as the puzzle written, through the command
//! line (`generate` then `solve`); the writers and readers themselves are tested in the
//! library, beside `generate`.

use crate::common::crossat;
use crate::generate::{generate, solve_written};
use serde_json::Value;

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
