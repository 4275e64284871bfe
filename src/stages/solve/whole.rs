//! The strategy of one search over whole grids: the SAT enumeration, each grid checked
//! by the matcher, the counterexample loop for clues the formula over-approximates.

use super::counterexample::{Judged, judge};
use super::decided::solve_decided;
use super::enumerate::enumerate_without;
use super::odometer::entailed;
use super::prepared::{Formula, Prepared};
use super::{Outcome, Verdict};
use crate::clock::Instant;
use crate::error::Result;
use crate::propagate::SymSet;
use crate::puzzle::Puzzle;
use crate::stats::Stage;
use crate::verify::Grid;

/// [`crate::pipeline::solve`] by one search over whole grids: one SAT call per grid,
/// each grid blocked by a clause over every undecided cell.
pub(crate) fn solve_whole(
    prep: &mut Prepared,
    limit: Option<usize>,
    mut emit: impl FnMut(&Puzzle, &Grid) -> Result<()>,
) -> Result<Outcome> {
    if let Some(candidate) = prep.decided() {
        return solve_decided(prep, candidate, limit, emit);
    }
    let _ = prep.encode()?;
    let start = Instant::now();
    let mut verify_time = std::time::Duration::ZERO;
    let (puzzle, compiled, verifier) = (&prep.puzzle, prep.compiled()?, &prep.verifier);
    let Formula { cnf, vars } = prep.formula()?;
    // The clauses of clues that the domains imply are left out of the search.
    let mut skip = Vec::new();
    if let Some(doms) = prep.domains.as_deref() {
        for (i, clue) in puzzle.clues.iter().enumerate() {
            let line: Vec<SymSet> = clue.cells.iter().map(|&c| doms[c]).collect();
            // Propagation has asked the matcher about most such lines already.
            let known = prep.entailed.get(i).copied().unwrap_or(false);
            if known || entailed(compiled, verifier, i, &line, 1) {
                skip.extend(vars.clue_sizes[i].own.iter().cloned());
            }
        }
    }
    let mut rejected = 0usize;
    let outcome = enumerate_without(cnf, &skip, vars, limit, &prep.cancel, |found| {
        let t = Instant::now();
        let judged = judge(&prep.source, puzzle, compiled, verifier, vars, &found, || {
            rejected += 1;
            rejected - 1
        });
        verify_time += t.elapsed();
        match judged? {
            Judged::Reject(clauses) => Ok(Verdict::Reject(clauses)),
            Judged::Accept(grid) => emit(puzzle, &grid).map(|()| Verdict::Accept),
        }
    });
    prep.times.add(Stage::Solve, start.elapsed().saturating_sub(verify_time));
    prep.times.add_wall(start.elapsed());
    prep.times.add(Stage::Verify, verify_time);
    outcome
}
