//! The assignments of one part of a puzzle, listed lazily: the listing by independent
//! parts walks the product of the parts' streams as an odometer, so its first grid
//! needs one assignment of each part, not all of them.
//!
//! A stream asks the SAT solver for one assignment at a time, blocking each under the
//! stream's own selector so that another pass can start afresh. The assignments of
//! the first pass are kept while they fit in the stream's budget; a part that fits is
//! then replayed from memory, one that does not is enumerated again by the solver at
//! each pass (each pass lists every assignment exactly once, in whatever order the
//! solver finds them, so the product still lists each grid once). Memory is bounded
//! by the budgets, never by the number of grids.

use super::{Oracle, Selector};
use crate::encode::{CellVars, Cnf};
use crate::error::{Error, Result};

/// One part's assignments: its cells' symbols, one assignment at a time.
pub struct Stream {
    cells: Vec<usize>,
    /// Symbols kept from the first pass (stride: the number of cells).
    kept: Vec<usize>,
    /// Whether `kept` holds every assignment (the first pass ended within the budget).
    complete: bool,
    /// Most symbols `kept` may hold.
    budget: usize,
    /// The pass under way: its selector (while the solver lists it), the assignments
    /// it gave, and where a replay from `kept` stands.
    selector: Option<Selector>,
    given: usize,
    first_pass: bool,
    /// The current assignment.
    current: Vec<usize>,
}

impl Stream {
    /// A stream over `cells`, keeping at most `budget` symbols of its assignments.
    pub fn new(cells: Vec<usize>, budget: usize) -> Stream {
        Stream { cells, kept: Vec::new(), complete: false, budget, selector: None, given: 0, first_pass: true, current: Vec::new() }
    }

    /// A stream of the given assignments (stride: the number of cells), kept in memory.
    pub fn fixed(cells: Vec<usize>, assignments: Vec<usize>) -> Stream {
        let budget = assignments.len();
        Stream { cells, kept: assignments, complete: true, budget, selector: None, given: 0, first_pass: false, current: Vec::new() }
    }

    /// The part's cells.
    pub fn cells(&self) -> &[usize] {
        &self.cells
    }

    /// The current assignment (after [`Stream::next`] gave one).
    pub fn current(&self) -> &[usize] {
        &self.current
    }

    /// Moves to the next assignment of this pass; `false` when the pass is over (the
    /// stream then starts a new pass at the next call).
    pub fn next(&mut self, oracle: &mut Option<Oracle>, cnf: &Cnf, vars: &CellVars) -> Result<bool> {
        let n = self.cells.len();
        if self.complete && !self.first_pass {
            if self.given * n >= self.kept.len() {
                self.given = 0;
                return Ok(false);
            }
            self.current.clear();
            self.current.extend_from_slice(&self.kept[self.given * n..(self.given + 1) * n]);
            self.given += 1;
            return Ok(true);
        }
        let oracle = oracle.get_or_insert_with(|| Oracle::new(cnf));
        let sel = *self.selector.get_or_insert_with(|| oracle.selector());
        crate::stop::check()?;
        let Some(model) = oracle.solve_under(&[sel], &[])? else {
            oracle.retire(sel);
            self.selector = None;
            if self.first_pass {
                self.complete = self.given * n == self.kept.len();
                self.first_pass = false;
                if !self.complete {
                    self.kept = Vec::new();
                }
            }
            self.given = 0;
            return Ok(false);
        };
        let value = |v: i32| model.get(v as usize).copied().unwrap_or(false);
        let mut block = Vec::with_capacity(n);
        self.current.clear();
        for &c in &self.cells {
            let mut on = vars.cells[c].iter().filter(|&&(_, v)| value(v));
            let (Some(&(a, v)), None) = (on.next(), on.next()) else {
                return Err(Error::Internal(format!("model does not give cell {c} exactly one letter")));
            };
            self.current.push(a);
            block.push(-v);
        }
        oracle.add_guarded(sel, &block);
        if self.first_pass && self.kept.len() + n <= self.budget && self.kept.len() == self.given * n {
            self.kept.extend_from_slice(&self.current);
        }
        self.given += 1;
        Ok(true)
    }
}
