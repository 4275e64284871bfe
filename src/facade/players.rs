//! For players, the page and setters: `check` and `hint` records, each clue's live
//! status, and the setter's analysis.

use super::Puzzle;
use crate::{Error, Result};
use crate::{assist, emit, pipeline, records};

/// For players: `check` and `hint` as the command line runs them.
impl Puzzle {
    /// `crossat check` on a player's grid (one entry per cell, `None` empty): each
    /// record (a failing clue, a character outside the alphabet) handed to `found`
    /// with the clues it names, then the summary (see `assist::check`).
    pub fn check_records(
        &self,
        grid: &[Option<char>],
        options: assist::CheckOptions,
        found: impl FnMut(assist::Named<records::CheckRecord>) -> Result<()>,
    ) -> Result<assist::Named<records::CheckSummary>> {
        assist::check(&self.prep, grid, options, found)
    }

    /// `crossat hint` on a player's grid (`None`: the puzzle's givens): the wrong
    /// entries, or the forced cells, each handed to `found`, then the summary (see
    /// `assist::hint`).
    pub fn hint_records(
        &self,
        grid: Option<&[Option<char>]>,
        options: assist::HintOptions,
        found: impl FnMut(assist::Named<records::HintRecord>) -> Result<()>,
    ) -> Result<assist::Named<records::HintSummary>> {
        assist::hint(&self.prep, grid, options, found)
    }
}

/// For the page.
impl Puzzle {
    /// Per clue, whether a player's partial grid (one entry per cell, `None` empty)
    /// satisfies it, may still satisfy it, or cannot. The puzzle keeps its verdicts on
    /// slow lines (clues no automaton decides) between calls, since a player's typing
    /// changes few lines at a time.
    pub fn status(&mut self, grid: &[Option<char>]) -> Result<Vec<records::ClueStatus>> {
        assist::status::status(&self.prep, grid, &mut self.status_cache)
    }
}

/// For setters.
impl Puzzle {
    /// The solutions up to `bound` (their rows), whether that is all of them, the cells
    /// that differ between them (with their ids) and, when the listing does not settle
    /// it, the exact count. A cancel token ([`Puzzle::set_cancel`]) that fires during
    /// the listing gives what was found before it, with `reason` `timeout`; during the
    /// count, no count.
    pub fn analyse(&mut self, bound: usize) -> Result<records::Analysis> {
        let mut grids = Vec::new();
        let mut values = vec![std::collections::BTreeSet::new(); self.prep.puzzle.givens.len()];
        let listed = pipeline::solve(&mut self.prep, Some(bound), |puzzle, grid| {
            for (set, &ch) in values.iter_mut().zip(&grid.cells) {
                let _ = set.insert(ch);
            }
            grids.push(grid.rows(&puzzle.shape));
            Ok(())
        });
        let outcome = match listed {
            Ok(outcome) => Some(outcome),
            Err(Error::Cancelled) => None,
            Err(e) => return Err(e),
        };
        let count = match outcome {
            Some(o) if o.complete => Some(records::Count::Number(o.found as u64)),
            Some(_) => match pipeline::count(&mut self.prep) {
                Ok(counted) => Some(emit::count_value(&counted.count)),
                Err(Error::Cancelled) => None,
                Err(e) => return Err(e),
            },
            None => None,
        };
        let (cells, clues) = emit::ambiguity(&self.prep, &values, true);
        Ok(records::Analysis {
            solutions: grids.len(),
            complete: outcome.is_some_and(|o| o.complete),
            unique: outcome.map_or(records::Uniqueness::Undecided, |o| records::Uniqueness::of(o.found, o.complete)),
            grids,
            ambiguous_cells: cells.unwrap_or_default(),
            ambiguous_clues: clues.unwrap_or_default(),
            count,
            reason: outcome.is_none().then_some(records::StopReason::Timeout),
        })
    }
}
