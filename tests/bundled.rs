//! Every file bundled under `puzzles/` is accounted for, so a bundled file cannot rot:
//! a puzzle opens with `crossat list` and `crossat solve` (exit 0 or 1, never 2), a
//! building-blocks puzzle with `crossat blocks`; licences, READMEs, solutions, word lists
//! and the pools read with their CSV are named by the rule that sets them aside.

use crate::common::{crossat, json_lines, root};
use std::path::{Path, PathBuf};

/// What a bundled file is, by its name and folder.
#[derive(Debug, PartialEq)]
enum Kind {
    /// A licence, a README, an expected solution, a word list or `--given` grid for
    /// `crossat squares`, or a Louridas pool (read with the CSV of the same stem).
    NotAPuzzle,
    /// `{"patterns": …, "blocks": …}`: for `crossat blocks`.
    Blocks,
    /// Anything else: a puzzle or a collection of puzzles.
    Puzzle,
}

fn kind(path: &Path) -> Kind {
    let name = path.file_name().and_then(|n| n.to_str()).expect("UTF-8 file name");
    let folder = path.parent().and_then(Path::file_name).and_then(|n| n.to_str()).unwrap_or("");
    let pool = name.ends_with(".txt") && path.with_extension("csv").is_file();
    if name.starts_with("LICENSE")
        || name == "README.md"
        || name.contains("expected")
        || name.contains("solution")
        || folder == "squares"
        || pool
    {
        return Kind::NotAPuzzle;
    }
    let bytes = std::fs::read(path).expect("read");
    let json: Option<serde_json::Value> = serde_json::from_slice(&bytes).ok();
    if json.as_ref().and_then(|v| v.get("patterns")).is_some() {
        return Kind::Blocks;
    }
    Kind::Puzzle
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read_dir") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

#[test]
fn every_bundled_puzzle_opens() {
    let mut all = Vec::new();
    files(&root().join("puzzles"), &mut all);
    all.sort();
    let mut failures = Vec::new();
    let (mut puzzles, mut blocks) = (0, 0);
    for path in &all {
        let rel = path.strip_prefix(root()).expect("under the root").to_str().expect("UTF-8").to_string();
        // A solve is bounded so that a hang fails here with a message; every bundled
        // puzzle solves in well under a second.
        let runs: Vec<Vec<String>> = match kind(path) {
            Kind::NotAPuzzle => continue,
            Kind::Blocks => {
                blocks += 1;
                vec![vec!["blocks".to_string(), "--timeout".into(), "60".into(), rel.clone()]]
            }
            Kind::Puzzle => {
                // `list` reads the file; a collection's puzzles are solved one by one.
                let list = crossat(&["list", "--json", &rel], None);
                if !matches!(list.code, 0 | 1) {
                    failures.push(format!("crossat list {rel}: exit {}: {}", list.code, list.stderr.trim()));
                    continue;
                }
                let keys: Vec<String> = json_lines(&list.stdout)
                    .iter()
                    .filter(|v| v.get("id").is_some())
                    .map(|v| v["key"].as_str().expect("key").to_string())
                    .collect();
                puzzles += keys.len().max(1);
                if keys.is_empty() {
                    vec![vec!["solve".to_string(), "--timeout".into(), "60".into(), rel.clone()]]
                } else {
                    keys.into_iter()
                        .map(|k| vec!["solve".to_string(), "--timeout".into(), "60".into(), "--id".into(), k, rel.clone()])
                        .collect()
                }
            }
        };
        for args in runs {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let r = crossat(&args, None);
            if !matches!(r.code, 0 | 1) {
                failures.push(format!("crossat {}: exit {}: {}", args.join(" "), r.code, r.stderr.trim()));
            }
        }
    }
    assert!(failures.is_empty(), "bundled files that do not open:\n{}", failures.join("\n"));
    // The walk itself is checked: the folders hold over a hundred puzzles and three
    // building-blocks puzzles (puzzles/README.md).
    assert!(puzzles > 100 && blocks == 3, "{puzzles} puzzles, {blocks} building-blocks puzzles found");
}

#[test]
fn the_rules_set_aside_only_what_they_name() {
    let p = |rel: &str| root().join("puzzles").join(rel);
    assert_eq!(kind(&p("bbc/LICENSE-blukat29.txt")), Kind::NotAPuzzle);
    assert_eq!(kind(&p("louridas/films.txt")), Kind::NotAPuzzle);
    assert_eq!(kind(&p("binoternary/1389923839891520_solution.json")), Kind::NotAPuzzle);
    assert_eq!(kind(&p("louridas/films.csv")), Kind::Puzzle);
    assert_eq!(kind(&p("bbc/bbc-2017-07-05.json")), Kind::Puzzle);
    assert_eq!(kind(&p("hesselink/puzzle.txt")), Kind::Puzzle);
    assert_eq!(kind(&p("blocks/p1.json")), Kind::Blocks);
}
