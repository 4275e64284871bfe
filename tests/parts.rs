//! Enumeration by independent parts: `solve::solve_parts` lists exactly the grids that
//! one search over whole grids (`solve::solve_whole`) lists.

use crate::common::{input_file, input_text, puzzle, root};
use crossat::pipeline::{self, Prepared};
use crossat::propagate::SymSet;
use crossat::solve;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Puzzles with at most this many solutions are compared (sheep has 2304).
const MAX_SOLUTIONS: usize = 2500;

/// Every grid of a search, as rows, and whether it was exhausted.
fn grids(prep: &mut Prepared, parts: bool) -> (BTreeSet<Vec<String>>, usize, bool) {
    let mut set = BTreeSet::new();
    let mut record = |p: &crossat::puzzle::Puzzle, g: &crossat::verify::Grid| {
        let _ = set.insert(g.rows(&p.shape));
        Ok(())
    };
    let outcome = if parts {
        solve::solve_parts(prep, None, &mut record).expect("solve by parts").expect("the split applies")
    } else {
        solve::solve_whole(prep, Some(MAX_SOLUTIONS + 1), record).expect("solve whole")
    };
    (set, outcome.found, outcome.complete)
}

fn puzzle_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).expect("read puzzles").map(|e| e.expect("entry").path()).collect();
    entries.sort();
    for p in entries {
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
        if p.is_dir() {
            puzzle_files(&p, out);
        } else if [".txt", ".json", ".dat"].iter().any(|s| name.ends_with(s)) && !name.contains("expected") {
            out.push(p);
        }
    }
}

#[test]
fn parts_list_the_same_grids_as_one_search_on_the_bundled_puzzles() {
    let mut files = Vec::new();
    puzzle_files(&root().join("puzzles"), &mut files);
    let (mut compared, mut several) = (Vec::new(), 0);
    for file in files {
        // Collections (which need an id), solution files and unsupported puzzles.
        let Ok(mut prep) = pipeline::prepare(&input_file(&file, None)) else { continue };
        if solve::split_parts(&prep).is_none_or(|p| p.cells.len() < 2) {
            continue;
        }
        let (old, old_found, old_complete) = grids(&mut prep, false);
        if !old_complete {
            continue;
        }
        let (new, new_found, new_complete) = grids(&mut prep, true);
        let name = file.strip_prefix(root()).unwrap_or(&file).display().to_string();
        assert!(new_complete, "{name}: the product was not exhausted");
        assert_eq!(new_found, new.len(), "{name}: a grid listed twice");
        assert_eq!((new_found, &new), (old_found, &old), "{name}: the parts list other grids than one search");
        several += usize::from(old_found > 1);
        compared.push((name, old_found));
    }
    eprintln!("compared by parts: {compared:?}");
    // Most bundled puzzles are unique and decided by propagation alone.
    assert!(compared.len() >= 2 && several >= 2, "too few puzzles split into parts: {compared:?}");
    let sheep = compared.iter().find(|(n, _)| n.ends_with("player_puzzle_sheep.input.txt")).expect("sheep splits into parts");
    assert_eq!(sheep.1, crate::common::sheep_solutions());
}

#[test]
fn parts_keep_limits_and_count_sheep() {
    let sheep = puzzle("antoine-trux/player_puzzle_sheep.input.txt");
    let mut prep = pipeline::prepare(&input_file(&sheep, None)).expect("prepare");
    let parts = solve::split_parts(&prep).expect("sheep splits");
    assert!(parts.cells.len() >= 2);
    let mut rows = Vec::new();
    let outcome = pipeline::solve(&mut prep, Some(10), |p, g| {
        rows.push(g.rows(&p.shape));
        Ok(())
    })
    .expect("solve");
    assert_eq!((outcome.found, outcome.complete, rows.len()), (10, false, 10));
    let distinct: BTreeSet<_> = rows.iter().collect();
    assert_eq!(distinct.len(), 10);
    let mut n = 0;
    let outcome = pipeline::solve(&mut prep, None, |_, _| {
        n += 1;
        Ok(())
    })
    .expect("solve");
    let want = crate::common::sheep_solutions();
    assert_eq!((outcome.found, outcome.complete, n), (want, true, want));
}

/// The domains of a line over the named letters of the puzzle's alphabet.
fn line(prep: &Prepared, cells: &[&str]) -> Vec<SymSet> {
    let alphabet = prep.alphabet();
    cells
        .iter()
        .map(|letters| {
            let mut s = SymSet::default();
            for c in letters.chars() {
                s.insert(alphabet.index(c).expect("letter of the alphabet"));
            }
            s
        })
        .collect()
}

#[test]
fn a_clue_couples_cells_only_when_its_words_are_not_a_product() {
    // Row 1 accepts every word of {A,B}×{A,B}; row 2 only AA and BB; row 3 (a
    // back-reference, asked of the matcher) also only AA and BB.
    let text = r#"{"left": ["[AB][AB]", "AA|BB", "(.)\\1"], "top": ["[AB]+", "[AB]+"]}"#;
    let prep = pipeline::prepare(&input_text(text)).expect("prepare");
    let (compiled, verifier) = (prep.compiled().expect("compiles"), &prep.verifier);
    let ab = line(&prep, &["AB", "AB"]);
    assert!(solve::parts::is_product(compiled, verifier, 0, &ab));
    assert!(!solve::parts::is_product(compiled, verifier, 1, &ab));
    assert!(!solve::parts::is_product(compiled, verifier, 2, &ab));
    // Once one cell is decided, no clue couples anything.
    for i in 0..3 {
        assert!(solve::parts::is_product(compiled, verifier, i, &line(&prep, &["A", "A"])), "clue {i}");
    }
    // A cell the clue forbids a letter of: no longer the product.
    assert!(!solve::parts::is_product(compiled, verifier, 1, &line(&prep, &["A", "AB"])));
    // The counts themselves.
    let a = &compiled.clues[1].automaton;
    assert_eq!(crossat::propagate::line_count(a, &ab), Some(2));
    assert_eq!(crossat::propagate::line_count(&compiled.clues[0].automaton, &ab), Some(4));
}

#[test]
fn independent_rows_make_separate_parts() {
    // Rows 1 and 2 accept every word over A and B, and so do the columns; row 3 ties
    // its two cells. Parts: the cells of rows 1 and 2 one by one, then row 3.
    let text = r#"{"left": ["[AB][AB]", "A[AB]|B[AB]", "AA|BB"], "top": ["[AB]+", "[AB]+"]}"#;
    let mut prep = pipeline::prepare(&input_text(text)).expect("prepare");
    let parts = solve::split_parts(&prep).expect("the split applies");
    assert_eq!(parts.cells, vec![vec![0], vec![1], vec![2], vec![3], vec![4, 5]]);
    assert_eq!(parts.constrained, vec![false, false, false, false, true]);
    let (set, found, complete) = grids(&mut prep, true);
    assert_eq!((found, complete), (32, true));
    assert_eq!(set, grids(&mut prep, false).0);
}

#[test]
fn parts_list_the_same_grids_as_one_search_on_random_small_puzzles() {
    // Rows of three cells, columns of two, clues drawn from a pool that mixes
    // products, couplings, back-references and lookaheads over A, B, C.
    const POOL: &[&str] =
        &[".*", "[AB]*", "A*B*", ".*(.)\\1.*", "(.)\\1*", "[^C]*C?", "(AB|BA|C)*", ".?A.*", "(?=.*B).*", "B*.", "[AC].*", "(.)(?!\\1).*"];
    let mut seed: u64 = 0x5eed;
    let mut next = |n: usize| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 33) as usize % n
    };
    let (mut split, mut several) = (0, 0);
    for _ in 0..300 {
        let left: Vec<&str> = (0..2).map(|_| POOL[next(POOL.len())]).collect();
        let top: Vec<&str> = (0..3).map(|_| POOL[next(POOL.len())]).collect();
        let text = serde_json::json!({"left": left, "top": top, "alphabet": "ABC"}).to_string();
        let Ok(mut prep) = pipeline::prepare(&input_text(&text)) else { continue };
        if solve::split_parts(&prep).is_none_or(|p| p.cells.len() < 2) {
            continue;
        }
        let (old, old_found, old_complete) = grids(&mut prep, false);
        assert!(old_complete);
        let (new, new_found, new_complete) = grids(&mut prep, true);
        assert!(new_complete);
        assert_eq!((new_found, &new), (old_found, &old), "{text}");
        split += 1;
        several += usize::from(old_found > 1);
    }
    eprintln!("split: {split}, several solutions: {several}");
    assert!(split >= 50 && several >= 30, "too few puzzles split: {split}, {several} with several solutions");
}
