//! The strategy for a puzzle that line propagation decided: no formula, no SAT call,
//! only the matcher's word on the one candidate grid.

use super::counterexample::verdict;
use super::prepared::{Prepared, Settled};
use super::{Found, Outcome};
use crate::clock::Instant;
use crate::compile::Alphabet;
use crate::error::Result;
use crate::puzzle::Puzzle;
use crate::stats::Stage;
use crate::verify::Grid;

/// [`crate::pipeline::solve`] for a puzzle that line propagation decided: no formula,
/// no SAT call. The only candidate grid goes through the same checks as a model would: the matcher
/// accepts it (one solution), or rejects it on a clue whose formula is only checked
/// (no solution: the search would have blocked it and found nothing else), or on an
/// exact clue (a bug, reported by [`crate::verify::Verifier::check`]).
pub(crate) fn solve_decided(
    prep: &mut Prepared,
    candidate: Settled,
    limit: Option<usize>,
    mut emit: impl FnMut(&Puzzle, &Grid) -> Result<()>,
) -> Result<Outcome> {
    let start = Instant::now();
    let prep_ref: &Prepared = prep;
    let (puzzle, verifier) = (&prep_ref.puzzle, &prep_ref.verifier);
    let outcome = match candidate {
        _ if limit == Some(0) => Ok(Outcome { found: 0, complete: false }),
        Settled::Empty => Ok(Outcome { found: 0, complete: true }),
        Settled::Only(cells) => (|| {
            prep_ref.cancel().check()?;
            let grid = grid_of(&prep_ref.alphabet, &cells);
            if !verdict(puzzle, || prep_ref.compiled(), verifier, &grid)? {
                return Ok(Outcome { found: 0, complete: true });
            }
            emit(puzzle, &grid)?;
            // As after a search stopped at its limit: a limit of one claims nothing more.
            Ok(Outcome { found: 1, complete: limit != Some(1) })
        })(),
    };
    prep.times.add(Stage::Verify, start.elapsed());
    prep.times.add_wall(start.elapsed());
    outcome
}

/// The grid of a symbol per cell (no pool assignment: strategies without a formula
/// never take a regex pool).
pub(super) fn grid_of(alphabet: &Alphabet, cells: &[usize]) -> Grid {
    Found { cells: cells.to_vec(), assignment: Vec::new() }.grid(alphabet)
}
