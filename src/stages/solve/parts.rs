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
pub struct Parts {
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
pub fn split_parts(prep: &Prepared) -> Option<Parts> {
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
pub fn is_product(compiled: &Compiled, verifier: &Verifier, i: usize, line: &[SymSet]) -> bool {
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
pub fn solve_parts(
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
