//! Reading models and enumerating grids: one grid per model, each blocked by a clause
//! over the cell variables only, in a tree of cubes so that memory stays flat; and
//! the projection of the models onto a few cells.

use super::Outcome;
use super::oracle::{Oracle, Selector};
use crate::compile::Alphabet;
use crate::encode::{CellVars, Cnf};
use crate::error::Result;
use crate::stop::Cancel;
use crate::verify::Grid;

/// The clause that rules out one grid: some cell (with a choice) differs.
pub(crate) fn blocking_clause(vars: &CellVars, grid: &[usize]) -> Vec<i32> {
    vars.cells
        .iter()
        .zip(grid)
        .filter(|(vs, _)| vs.len() > 1)
        .filter_map(|(vs, &a)| vs.iter().find(|&&(x, _)| x == a).map(|&(_, v)| -v))
        .collect()
}

/// A model, read back: each cell's letter and, for a regex pool, each entry's regex.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Found {
    /// Symbol index per cell.
    pub cells: Vec<usize>,
    /// Regex index per pool entry (empty without a pool).
    pub assignment: Vec<usize>,
}

/// Reads each entry's regex from an assignment of the pool variables.
pub(crate) fn decode_assignment(vars: &CellVars, value: impl Fn(i32) -> bool) -> Result<Vec<usize>> {
    exactly_one_true(&vars.assign, value, "entry", "regex")
}

/// Reads each cell's letter from an assignment of the cell variables.
pub(crate) fn decode_cells(vars: &CellVars, value: impl Fn(i32) -> bool) -> Result<Vec<usize>> {
    exactly_one_true(&vars.cells, value, "cell", "letter")
}

/// For each one-hot group of `(choice, variable)`, the choice whose variable is true.
fn exactly_one_true(groups: &[Vec<(usize, i32)>], value: impl Fn(i32) -> bool, what: &str, of: &str) -> Result<Vec<usize>> {
    groups
        .iter()
        .enumerate()
        .map(|(i, vs)| {
            let mut on = vs.iter().filter(|&&(_, v)| value(v));
            match (on.next(), on.next()) {
                (Some(&(x, _)), None) => Ok(x),
                _ => Err(crate::error::Error::Internal(format!("model does not give {what} {i} exactly one {of}"))),
            }
        })
        .collect()
}

/// What the caller of [`enumerate`] says of a grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// The grid is a solution: count it.
    Accept,
    /// The grid is not a solution (a clue the formula over-approximates rejects it):
    /// add these clauses, which hold in every solution and exclude this grid, and go on
    /// without counting it. This is the counterexample loop of docs/encoding.md.
    Reject(Vec<Vec<i32>>),
}

/// Blocking clauses a cube keeps before it is split into smaller cubes.
const CUBE_BLOCKS: usize = 512;

/// One cube of the search: the grids that agree with its ancestors' and its own cell
/// literal. Grids found in it are blocked by clauses guarded by its selector.
struct Cube {
    /// None for the whole space, whose blocks are plain clauses: at most
    /// [`CUBE_BLOCKS`] of them, and the search is over when it is done.
    sel: Option<Selector>,
    /// The cell literal this cube adds to its parent's (none for the whole space).
    lit: Option<i32>,
    /// How many cells of `split_cells` its literals fix.
    depth: usize,
    /// Grids blocked in it so far.
    blocks: usize,
    /// Once split: the index of the next value of `split_cells[depth]` to visit.
    next_child: Option<usize>,
}

/// Enumerates up to `limit` grids (all when `None`), calling `on_grid` for each.
///
/// Memory stays flat however many grids there are: instead of one permanent blocking
/// clause per grid, the space is searched as a tree of disjoint *cubes* under
/// assumptions. A cube blocks the grids found in it with clauses guarded by its own
/// selector; after `CUBE_BLOCKS` (512) of them it is split on its next cell (one child
/// per value of the cell, each assuming that value, visited in turn while the parent's
/// blocks still hold), and when a cube is exhausted its selector is retired, which
/// drops its clauses. At most `CUBE_BLOCKS` blocking clauses per level of the tree
/// are alive. Every grid is found once; the count is exact when the search ends.
/// Clauses of a [`Verdict::Reject`] are kept for good: they hold in every solution.
pub(crate) fn enumerate(
    cnf: &Cnf,
    vars: &CellVars,
    limit: Option<usize>,
    on_grid: impl FnMut(Found) -> Result<Verdict>,
) -> Result<Outcome> {
    enumerate_cancellable(cnf, vars, limit, &Cancel::never(), on_grid)
}

/// [`enumerate()`], polling `cancel` before each SAT call.
pub(crate) fn enumerate_cancellable(
    cnf: &Cnf,
    vars: &CellVars,
    limit: Option<usize>,
    cancel: &Cancel,
    on_grid: impl FnMut(Found) -> Result<Verdict>,
) -> Result<Outcome> {
    enumerate_without(cnf, &[], vars, limit, cancel, on_grid)
}

/// [`enumerate_cancellable`] on the formula without the clauses of `skip` (ranges of
/// clause indices, in increasing order), which the caller knows every grid within the
/// cells' domains satisfies ([`Oracle::without`]).
pub(crate) fn enumerate_without(
    cnf: &Cnf,
    skip: &[std::ops::Range<usize>],
    vars: &CellVars,
    limit: Option<usize>,
    cancel: &Cancel,
    on_grid: impl FnMut(Found) -> Result<Verdict>,
) -> Result<Outcome> {
    let mut oracle = Oracle::without(cnf, skip).with_cancel(cancel.clone());
    enumerate_in(&mut oracle, vars, None, limit, &|| false, on_grid)
}

/// [`enumerate()`] on a loaded `oracle`: over the whole space when `cube` is `None`
/// (its blocks are then plain clauses), or over the grids with the cell literals of
/// `cube` (its blocks guarded by a selector retired at the end, so that the oracle can
/// list another cube next). Ends early, not complete, when `halt()` says so (read
/// before each SAT call) or at `limit`.
pub(crate) fn enumerate_in(
    oracle: &mut Oracle,
    vars: &CellVars,
    cube: Option<&[i32]>,
    limit: Option<usize>,
    halt: &dyn Fn() -> bool,
    mut on_grid: impl FnMut(Found) -> Result<Verdict>,
) -> Result<Outcome> {
    // The cells a cube can be split on: those with a choice, in order.
    let split_cells: Vec<usize> = (0..vars.cells.len()).filter(|&c| vars.cells[c].len() > 1).collect();
    let root = Cube { sel: cube.map(|_| oracle.selector()), lit: None, depth: 0, blocks: 0, next_child: None };
    let base = cube.unwrap_or_default();
    let mut stack = vec![root];
    let mut found = 0;
    while let Some(top) = stack.last_mut() {
        if limit.is_some_and(|l| found >= l) || halt() {
            for sel in stack.iter().filter_map(|c| c.sel) {
                oracle.retire(sel);
            }
            return Ok(Outcome { found, complete: false });
        }
        if let Some(next) = top.next_child {
            let cell = &vars.cells[split_cells[top.depth]];
            if next == cell.len() {
                // Every child is done, so the cube is.
                if let Some(sel) = top.sel {
                    oracle.retire(sel);
                }
                let _ = stack.pop();
                continue;
            }
            top.next_child = Some(next + 1);
            let child = Cube { sel: Some(oracle.selector()), lit: Some(cell[next].1), depth: top.depth + 1, blocks: 0, next_child: None };
            stack.push(child);
            continue;
        }
        let selectors: Vec<Selector> = stack.iter().filter_map(|c| c.sel).collect();
        let lits: Vec<i32> = base.iter().copied().chain(stack.iter().filter_map(|c| c.lit)).collect();
        let Some(model) = oracle.solve_under(&selectors, &lits)? else {
            let done = stack.pop().and_then(|c| c.sel);
            if let Some(sel) = done {
                oracle.retire(sel);
            }
            continue;
        };
        let value = |v: i32| model.get(v as usize).copied().unwrap_or(false);
        let grid = decode_cells(vars, value)?;
        let assignment = decode_assignment(vars, value)?;
        let top = stack.last_mut().expect("a cube is being searched");
        match top.sel {
            Some(sel) => oracle.add_guarded(sel, &blocking_clause(vars, &grid)),
            None => oracle.add_clause(&blocking_clause(vars, &grid)),
        }
        top.blocks += 1;
        if top.blocks >= CUBE_BLOCKS && top.depth < split_cells.len() {
            top.next_child = Some(0);
        }
        match on_grid(Found { cells: grid, assignment })? {
            Verdict::Accept => found += 1,
            Verdict::Reject(clauses) => {
                for c in &clauses {
                    oracle.add_clause(c);
                }
            }
        }
    }
    Ok(Outcome { found, complete: true })
}

/// Every assignment of `cells` (their symbols, in order, one after another in the
/// returned vector) that extends to a model of the oracle's formula, each once: one
/// SAT call per assignment, blocked by a clause over `cells` alone that is dropped
/// when the enumeration ends. `None` when there are more than `max` of them.
pub(crate) fn project(oracle: &mut Oracle, vars: &CellVars, cells: &[usize], max: usize) -> Result<Option<Vec<usize>>> {
    let sel = oracle.selector();
    let mut out = Vec::new();
    let mut found = 0;
    let result = loop {
        let Some(model) = oracle.solve_under(&[sel], &[])? else { break Some(out) };
        if found == max {
            break None;
        }
        found += 1;
        let value = |v: i32| model.get(v as usize).copied().unwrap_or(false);
        let mut block = Vec::with_capacity(cells.len());
        for &c in cells {
            let mut on = vars.cells[c].iter().filter(|&&(_, v)| value(v));
            let (Some(&(a, v)), None) = (on.next(), on.next()) else {
                return Err(crate::error::Error::Internal(format!("model does not give cell {c} exactly one letter")));
            };
            out.push(a);
            block.push(-v);
        }
        oracle.add_guarded(sel, &block);
    };
    oracle.retire(sel);
    Ok(result)
}

impl Found {
    /// The grid of these symbols: each cell's character, and the pool assignment.
    pub(crate) fn grid(&self, alphabet: &Alphabet) -> Grid {
        Grid { cells: self.cells.iter().map(|&a| alphabet.chars()[a]).collect(), assignment: self.assignment.clone() }
    }
}
