//! The strategy of enumerating independent parts: the undecided cells split where no
//! clue couples them ([`split_parts`]), each part's assignments found alone, and the
//! grids listed as their product, each still checked by the matcher.

use super::Outcome;
use super::counterexample::checked_failure;
use super::odometer::{EXACT_WORDS, Words};
use super::oracle::Oracle;
use super::prepared::{Formula, Prepared};
use super::stream::Stream;
use crate::clock::Instant;
use crate::compile::Compiled;
use crate::error::{Error, Result};
use crate::propagate::{self, SymSet};
use crate::puzzle::Puzzle;
use crate::stats::Stage;
use crate::verify::{self, Grid, Verifier};

/// [`crate::pipeline::solve`] splits the undecided cells into parts only when more
/// grids than this are asked for: a uniqueness check (two grids) costs one or two SAT
/// calls either way.
pub(crate) const PARTS_FROM: usize = 2;

/// Most symbols of part assignments [`solve_parts`] keeps in memory (the sum over parts
/// of assignments × cells, shared equally among the parts); a part with more is
/// enumerated again by the solver at each pass ([`super::stream`]).
pub(crate) const PARTS_MEMORY: usize = 1 << 22;

/// Most distinct line strings per clue whose verdict [`solve_parts`] remembers.
const VERDICTS_KEPT: usize = 1 << 12;

/// The undecided cells of a puzzle, grouped into independent parts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Parts {
    /// Each part's cells, ascending; parts ordered by their first cell.
    pub cells: Vec<Vec<usize>>,
    /// Per part, whether some clue constrains it (it then needs a search); a part
    /// that no clue constrains is one cell, free to take any letter of its domain.
    pub constrained: Vec<bool>,
}

/// Splits the cells that line propagation left undecided into independent parts: two
/// cells are in one part when a clue through both *couples* them, that is, when the
/// words the clue accepts on its line (over the cells' domains) are not simply the
/// product of the domains ([`is_product`]). The puzzle's solutions are then exactly
/// the product of each part's own solutions: a clue that couples nothing accepts every
/// combination, and every other clue lies within one part (plus decided cells).
///
/// `None` when this does not apply: no domains (no solution), a regex pool, or a clue
/// on the counterexample route (its formula over-approximates it, so a part's
/// assignments would not be exact).
pub(crate) fn split_parts(prep: &Prepared) -> Option<Parts> {
    let doms = prep.domains.as_ref()?;
    let compiled = prep.compiled().ok()?;
    if prep.puzzle.pool.is_some() || compiled.clues.iter().any(|cc| !cc.route.exact()) {
        return None;
    }
    let n = doms.len();
    let mut parent: Vec<usize> = (0..n).collect();
    let find = |parent: &mut Vec<usize>, mut x: usize| {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    };
    let mut constrained = vec![false; n];
    for (i, clue) in prep.puzzle.clues.iter().enumerate() {
        let open: Vec<usize> = clue.cells.iter().copied().filter(|&c| doms[c].len() > 1).collect();
        if open.is_empty() {
            continue;
        }
        let line: Vec<SymSet> = clue.cells.iter().map(|&c| doms[c]).collect();
        if is_product(compiled, &prep.verifier, i, &line) {
            continue;
        }
        let root = find(&mut parent, open[0]);
        for &c in &open {
            constrained[c] = true;
            let r = find(&mut parent, c);
            if r != root {
                parent[r] = root;
            }
        }
    }
    let mut parts = Parts { cells: Vec::new(), constrained: Vec::new() };
    let mut index = vec![usize::MAX; n];
    for c in (0..n).filter(|&c| doms[c].len() > 1) {
        let r = find(&mut parent, c);
        if index[r] == usize::MAX {
            index[r] = parts.cells.len();
            parts.cells.push(Vec::new());
            parts.constrained.push(false);
        }
        parts.cells[index[r]].push(c);
        parts.constrained[index[r]] |= constrained[c];
    }
    Some(parts)
}

/// Whether clue `i` accepts every word of `line` (a domain per cell), so that it
/// constrains no cell of the line and couples none. For a clue whose automaton is
/// exact (regular and bounded routes), by counting the automaton's words
/// ([`propagate::line_count`]); for one with back-references or lookarounds, by asking
/// the matcher about each word when there are at most [`EXACT_WORDS`]. `false` when
/// unsure (more words, a count too large, the matcher giving up).
pub(crate) fn is_product(compiled: &Compiled, verifier: &Verifier, i: usize, line: &[SymSet]) -> bool {
    let Some(total) = line.iter().try_fold(1u128, |k, d| k.checked_mul(d.len() as u128)) else { return false };
    let cc = &compiled.clues[i];
    if !cc.approximate() {
        return propagate::line_count(&cc.automaton, line) == Some(total);
    }
    if total > EXACT_WORDS as u128 {
        return false;
    }
    let mut words = Words::new(compiled.alphabet.chars(), line);
    while let Some(word) = words.next_word() {
        if !matches!(verifier.clue_matches(i, word), Ok(true)) {
            return false;
        }
    }
    true
}

/// [`crate::pipeline::solve`] by parts ([`split_parts`]): each constrained part's
/// assignments come from a lazy stream (`super::stream`: one SAT call each, blocking
/// over the part's cells only), and the grids are listed as the product of the parts'
/// streams, the last part varying fastest, so the first grid needs one assignment of
/// each part. Every grid is still verified by the matcher, each distinct line string
/// once (a clue whose cells did not change keeps its verdict). At most
/// `PARTS_MEMORY` symbols of assignments are kept, never the product.
///
/// `None`, having printed nothing, when the split does not apply or leaves fewer than
/// two parts: then [`super::solve_whole`] does the work.
pub(crate) fn solve_parts(
    prep: &mut Prepared,
    limit: Option<usize>,
    emit: &mut impl FnMut(&Puzzle, &Grid) -> Result<()>,
) -> Result<Option<Outcome>> {
    if prep.decided().is_some() {
        return Ok(None);
    }
    let start = Instant::now();
    let Some(parts) = split_parts(prep).filter(|p| p.cells.len() >= 2) else { return Ok(None) };
    let _ = prep.encode()?;
    let (puzzle, compiled, verifier) = (&prep.puzzle, prep.compiled()?, &prep.verifier);
    let doms = prep.domains.as_deref().unwrap_or_default();
    let Formula { cnf, vars } = prep.formula()?;
    // Each part's assignments as a lazy stream: the first grid needs one of each.
    let mut oracle: Option<Oracle> = None;
    let budget = PARTS_MEMORY / parts.cells.len();
    let mut streams: Vec<Stream> =
        parts
            .cells
            .iter()
            .zip(&parts.constrained)
            .map(|(cells, &constrained)| {
                if constrained { Stream::new(cells.clone(), budget) } else { Stream::fixed(cells.clone(), doms[cells[0]].iter().collect()) }
            })
            .collect();
    let mut verify_time = std::time::Duration::ZERO;
    let outcome = (|| {
        // The clues through each part's cells, and which clues touch no part.
        let mut part_of = vec![usize::MAX; doms.len()];
        for (p, cells) in parts.cells.iter().enumerate() {
            for &c in cells {
                part_of[c] = p;
            }
        }
        let mut clues_of: Vec<Vec<usize>> = vec![Vec::new(); parts.cells.len()];
        for (i, clue) in puzzle.clues.iter().enumerate() {
            let mut touched: Vec<usize> = clue.cells.iter().map(|&c| part_of[c]).filter(|&p| p != usize::MAX).collect();
            touched.sort_unstable();
            touched.dedup();
            for p in touched {
                clues_of[p].push(i);
            }
        }
        let chars = compiled.alphabet.chars();
        let mut grid = Grid { cells: doms.iter().map(|d| d.iter().next().map_or(' ', |a| chars[a])).collect(), assignment: Vec::new() };
        // The product of the parts' streams, the last part varying fastest.
        let place = |grid: &mut Grid, p: usize, stream: &Stream| {
            for (&c, &a) in parts.cells[p].iter().zip(stream.current()) {
                grid.cells[c] = chars[a];
            }
        };
        for (p, stream) in streams.iter_mut().enumerate() {
            if !stream.next(&mut oracle, cnf, vars, &prep.cancel)? {
                return Ok(Outcome { found: 0, complete: true });
            }
            place(&mut grid, p, stream);
        }
        // Per clue, its current verdict and the verdicts of the line strings seen.
        let mut verdicts: Vec<std::collections::HashMap<String, bool>> = vec![Default::default(); puzzle.clues.len()];
        let mut ok: Vec<bool> = vec![true; puzzle.clues.len()];
        let mut stale: Vec<usize> = (0..puzzle.clues.len()).collect();
        let mut found = 0;
        loop {
            if limit.is_some_and(|l| found >= l) {
                return Ok(Outcome { found, complete: false });
            }
            prep.cancel().check()?;
            let t = Instant::now();
            for &i in &stale {
                let word = grid.word(&puzzle.clues[i].cells);
                ok[i] = match verdicts[i].get(&word) {
                    Some(&v) => v,
                    None => {
                        let v = verifier.clue_matches(i, &word)?;
                        if verdicts[i].len() < VERDICTS_KEPT {
                            let _ = verdicts[i].insert(word, v);
                        }
                        v
                    }
                };
            }
            let failed = ok.iter().position(|&v| !v);
            verify_time += t.elapsed();
            match failed {
                None => {
                    emit(puzzle, &grid)?;
                    found += 1;
                }
                // A clue whose formula is checked rather than trusted (the tagged
                // route) rejects the grid, as the counterexample loop would; any other
                // failure is a bug, which the full check reports.
                Some(i) if checked_failure(compiled, &verify::Failure::Clue { clue: i, word: String::new() }) => {}
                Some(_) => {
                    verifier.check(puzzle, &grid)?;
                    return Err(Error::Internal("a grid failed a clue the matcher then accepted".into()));
                }
            }
            // The next grid: the parts that changed take their next assignments.
            stale.clear();
            let mut p = streams.len();
            loop {
                if p == 0 {
                    return Ok(Outcome { found, complete: true });
                }
                p -= 1;
                let more = streams[p].next(&mut oracle, cnf, vars, &prep.cancel)?;
                // A part whose pass ended starts its next pass, and the part before it moves.
                if !more && !streams[p].next(&mut oracle, cnf, vars, &prep.cancel)? {
                    return Err(Error::Internal("a part's assignments changed between passes".into()));
                }
                place(&mut grid, p, &streams[p]);
                stale.extend(&clues_of[p]);
                if more {
                    break;
                }
            }
            stale.sort_unstable();
            stale.dedup();
        }
    })();
    let total = start.elapsed();
    prep.times.add(Stage::Solve, total.saturating_sub(verify_time));
    prep.times.add_wall(total);
    prep.times.add(Stage::Verify, verify_time);
    outcome.map(Some)
}

/// Enumeration by independent parts: [`solve_parts`] lists exactly the grids that one
/// search over whole grids (`solve_whole`) lists.
#[cfg(test)]
mod tests {
    use super::super::Prepared;
    use super::super::whole::solve_whole;
    use super::{is_product, solve_parts, split_parts};
    use crate::pipeline::{self, Input};
    use crate::propagate::{self, SymSet};
    use crate::test_support::{puzzle, root, sheep_solutions};
    use std::collections::BTreeSet;

    /// Puzzles with at most this many solutions are compared (sheep has 2304).
    const MAX_SOLUTIONS: usize = 2500;

    fn prepare(source: &str, bytes: Vec<u8>) -> crate::Result<Prepared> {
        pipeline::prepare(&Input { source: source.into(), bytes, ..Input::default() })
    }

    /// Every grid of a search, as rows, and whether it was exhausted.
    fn grids(prep: &mut Prepared, parts: bool) -> (BTreeSet<Vec<String>>, usize, bool) {
        let mut set = BTreeSet::new();
        let mut record = |p: &crate::puzzle::Puzzle, g: &crate::verify::Grid| {
            let _ = set.insert(g.rows(&p.shape));
            Ok(())
        };
        let outcome = if parts {
            solve_parts(prep, None, &mut record).expect("solve by parts").expect("the split applies")
        } else {
            solve_whole(prep, Some(MAX_SOLUTIONS + 1), record).expect("solve whole")
        };
        (set, outcome.found, outcome.complete)
    }

    #[test]
    fn parts_list_the_same_grids_as_one_search_on_the_bundled_puzzles() {
        let mut files = Vec::new();
        crate::test_support::puzzle_files(&root().join("puzzles"), &mut files);
        let (mut compared, mut several) = (Vec::new(), 0);
        for file in files {
            // Collections (which need an id), solution files and unsupported puzzles.
            let bytes = std::fs::read(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            let Ok(mut prep) = prepare(&file.display().to_string(), bytes) else { continue };
            if split_parts(&prep).is_none_or(|p| p.cells.len() < 2) {
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
        assert_eq!(sheep.1, sheep_solutions());
    }

    #[test]
    fn parts_keep_limits_and_count_sheep() {
        let sheep = puzzle("antoine-trux/player_puzzle_sheep.input.txt");
        let mut prep = prepare(&sheep.display().to_string(), std::fs::read(&sheep).expect("read sheep")).expect("prepare");
        let parts = split_parts(&prep).expect("sheep splits");
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
        let want = sheep_solutions();
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
        let prep = prepare("<test>", text.into()).expect("prepare");
        let (compiled, verifier) = (prep.compiled().expect("compiles"), &prep.verifier);
        let ab = line(&prep, &["AB", "AB"]);
        assert!(is_product(compiled, verifier, 0, &ab));
        assert!(!is_product(compiled, verifier, 1, &ab));
        assert!(!is_product(compiled, verifier, 2, &ab));
        // Once one cell is decided, no clue couples anything.
        for i in 0..3 {
            assert!(is_product(compiled, verifier, i, &line(&prep, &["A", "A"])), "clue {i}");
        }
        // A cell the clue forbids a letter of: no longer the product.
        assert!(!is_product(compiled, verifier, 1, &line(&prep, &["A", "AB"])));
        // The counts themselves.
        let a = &compiled.clues[1].automaton;
        assert_eq!(propagate::line_count(a, &ab), Some(2));
        assert_eq!(propagate::line_count(&compiled.clues[0].automaton, &ab), Some(4));
    }

    #[test]
    fn independent_rows_make_separate_parts() {
        // Rows 1 and 2 accept every word over A and B, and so do the columns; row 3 ties
        // its two cells. Parts: the cells of rows 1 and 2 one by one, then row 3.
        let text = r#"{"left": ["[AB][AB]", "A[AB]|B[AB]", "AA|BB"], "top": ["[AB]+", "[AB]+"]}"#;
        let mut prep = prepare("<test>", text.into()).expect("prepare");
        let parts = split_parts(&prep).expect("the split applies");
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
        const POOL: &[&str] = &[
            ".*",
            "[AB]*",
            "A*B*",
            ".*(.)\\1.*",
            "(.)\\1*",
            "[^C]*C?",
            "(AB|BA|C)*",
            ".?A.*",
            "(?=.*B).*",
            "B*.",
            "[AC].*",
            "(.)(?!\\1).*",
        ];
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
            let Ok(mut prep) = prepare("<test>", text.clone().into_bytes()) else { continue };
            if split_parts(&prep).is_none_or(|p| p.cells.len() < 2) {
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
}
