//! The assignments of one part of a puzzle, listed lazily: the listing by independent
//! parts walks the product of the parts' streams as an odometer, so its first grid
//! needs one assignment of each part, not all of them.
//!
//! A stream asks the SAT solver for one assignment at a time, blocking each under a
//! selector of the pass so that another pass can start afresh. Within a pass the
//! blocking clauses do not pile up: as in [`mod@super::enumerate`], the pass is a tree of
//! disjoint cubes (assumptions on the part's cells), a cube is split on its next cell
//! after [`CUBE_BLOCKS`] assignments, and an exhausted cube's selector is retired with
//! its clauses, so at most [`CUBE_BLOCKS`] clauses per level of the tree are alive,
//! however long the pass. The assignments of
//! the first pass are kept while they fit in the stream's budget; a part that fits is
//! then replayed from memory, one that does not is enumerated again by the solver at
//! each pass (each pass lists every assignment exactly once, in whatever order the
//! solver finds them, so the product still lists each grid once). Memory is bounded
//! by the budgets, never by the number of grids.

use super::{Oracle, Selector};
use crate::encode::{CellVars, Cnf};
use crate::error::{Error, Result};
use crate::stop::Cancel;

/// Blocking clauses a cube of a pass keeps before it is split.
pub(crate) const CUBE_BLOCKS: usize = 512;

/// One cube of a pass: the assignments that agree with its ancestors' literals and
/// its own, blocked under its selector.
struct Cube {
    sel: Selector,
    /// The cell literal it adds to its parent's (none for the whole pass).
    lit: Option<i32>,
    /// How many of the part's cells its literals fix.
    depth: usize,
    blocks: usize,
    /// Once split: the next value of the part's cell at `depth` to visit.
    next_child: Option<usize>,
}

/// One part's assignments: its cells' symbols, one assignment at a time.
pub(crate) struct Stream {
    cells: Vec<usize>,
    /// Symbols kept from the first pass (stride: the number of cells).
    kept: Vec<usize>,
    /// Whether `kept` holds every assignment (the first pass ended within the budget).
    complete: bool,
    /// Most symbols `kept` may hold.
    budget: usize,
    /// The pass under way: its cubes (while the solver lists it; empty between
    /// passes), the assignments it gave, and where a replay from `kept` stands.
    cubes: Vec<Cube>,
    given: usize,
    first_pass: bool,
    /// The current assignment.
    current: Vec<usize>,
}

impl Stream {
    /// A stream over `cells`, keeping at most `budget` symbols of its assignments.
    pub(crate) fn new(cells: Vec<usize>, budget: usize) -> Stream {
        Stream { cells, kept: Vec::new(), complete: false, budget, cubes: Vec::new(), given: 0, first_pass: true, current: Vec::new() }
    }

    /// A stream of the given assignments (stride: the number of cells), kept in memory.
    pub(crate) fn fixed(cells: Vec<usize>, assignments: Vec<usize>) -> Stream {
        let budget = assignments.len();
        Stream { cells, kept: assignments, complete: true, budget, cubes: Vec::new(), given: 0, first_pass: false, current: Vec::new() }
    }

    /// The current assignment (after [`Stream::next`] gave one).
    pub(crate) fn current(&self) -> &[usize] {
        &self.current
    }

    /// Moves to the next assignment of this pass; `false` when the pass is over (the
    /// stream then starts a new pass at the next call).
    /// A SAT call polls `cancel` first.
    pub(crate) fn next(&mut self, oracle: &mut Option<Oracle>, cnf: &Cnf, vars: &CellVars, cancel: &Cancel) -> Result<bool> {
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
        let oracle = oracle.get_or_insert_with(|| Oracle::new(cnf).with_cancel(cancel.clone()));
        if self.cubes.is_empty() {
            self.cubes.push(Cube { sel: oracle.selector(), lit: None, depth: 0, blocks: 0, next_child: None });
        }
        let model = loop {
            let Some(top) = self.cubes.last_mut() else { break None };
            if let Some(next) = top.next_child {
                let options = &vars.cells[self.cells[top.depth]];
                if next == options.len() {
                    // Every child is done, so the cube is.
                    oracle.retire(top.sel);
                    let _ = self.cubes.pop();
                    continue;
                }
                top.next_child = Some(next + 1);
                let child = Cube { sel: oracle.selector(), lit: Some(options[next].1), depth: top.depth + 1, blocks: 0, next_child: None };
                self.cubes.push(child);
                continue;
            }
            let selectors: Vec<Selector> = self.cubes.iter().map(|c| c.sel).collect();
            let lits: Vec<i32> = self.cubes.iter().filter_map(|c| c.lit).collect();
            match oracle.solve_under(&selectors, &lits)? {
                Some(model) => break Some(model),
                None => {
                    if let Some(done) = self.cubes.pop() {
                        oracle.retire(done.sel);
                    }
                }
            }
        };
        let Some(model) = model else {
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
        let Some(top) = self.cubes.last_mut() else { return Err(Error::Internal("a pass without a cube".into())) };
        oracle.add_guarded(top.sel, &block);
        top.blocks += 1;
        if top.blocks >= CUBE_BLOCKS {
            // Split on the next cell with a choice, if any is left.
            while top.depth < n && vars.cells[self.cells[top.depth]].len() < 2 {
                top.depth += 1;
            }
            if top.depth < n {
                top.next_child = Some(0);
            }
        }
        if self.first_pass && self.kept.len() + n <= self.budget && self.kept.len() == self.given * n {
            self.kept.extend_from_slice(&self.current);
        }
        self.given += 1;
        Ok(true)
    }
}
