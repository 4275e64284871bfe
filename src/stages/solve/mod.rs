//! Stage 4, **solve**: the CNF → models, with varisat.
//!
//! Solutions are enumerated by blocking each found grid with one clause over the cell
//! variables only (`¬x[c][v_c]` for every cell whose domain has more than one letter),
//! so each grid is found once, however many models it has. Past a few hundred grids the
//! space is split into cubes under assumptions whose blocking clauses are dropped when
//! the cube is done ([`enumerate`]), so that memory stays flat.
//! When the solver reports UNSAT after the last block, the search is exhausted: the
//! count is exact, and one solution means the puzzle is unique.

pub mod deduce;
pub mod lines;

use crate::encode::{CellVars, Cnf};
use crate::error::Result;
use varisat::{ExtendFormula, Lit, Solver};

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Solutions found (and handed to the callback).
    pub found: usize,
    /// Whether the search was exhausted, so that `found` is the exact count.
    pub complete: bool,
}

/// A loaded solver plus the cell variables needed to read and block grids.
pub struct Search<'a> {
    oracle: Oracle,
    vars: &'a CellVars,
}

impl<'a> Search<'a> {
    /// Loads the formula into a fresh varisat solver.
    pub fn new(cnf: &Cnf, vars: &'a CellVars) -> Search<'a> {
        Search { oracle: Oracle::new(cnf), vars }
    }

    /// Finds the next grid and blocks it.
    pub fn next_grid(&mut self) -> Result<Option<Found>> {
        let Some(model) = self.oracle.solve(&[])? else { return Ok(None) };
        let value = |v: i32| model.get(v as usize).copied().unwrap_or(false);
        let grid = decode_cells(self.vars, value)?;
        let assignment = decode_assignment(self.vars, value)?;
        self.oracle.add_clause(&blocking_clause(self.vars, &grid));
        Ok(Some(Found { cells: grid, assignment }))
    }
}

/// Adds clauses in DIMACS numbering to a varisat solver.
fn load(solver: &mut Solver<'static>, clauses: impl IntoIterator<Item = impl AsRef<[i32]>>) {
    let mut buf = Vec::new();
    for clause in clauses {
        buf.clear();
        buf.extend(clause.as_ref().iter().map(|&l| Lit::from_dimacs(l as isize)));
        solver.add_clause(&buf);
    }
}

/// The clause that rules out one grid: some cell (with a choice) differs.
pub fn blocking_clause(vars: &CellVars, grid: &[usize]) -> Vec<i32> {
    vars.cells
        .iter()
        .zip(grid)
        .filter(|(vs, _)| vs.len() > 1)
        .filter_map(|(vs, &a)| vs.iter().find(|&&(x, _)| x == a).map(|&(_, v)| -v))
        .collect()
}

/// Proof formats for [`prove_unsat`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ProofFormat {
    /// DRAT (text), for drat-trim and similar checkers.
    Drat,
    /// Binary DRAT.
    BinaryDrat,
    /// varisat's own format, checked by the varisat-checker crate.
    Varisat,
}

/// Solves `cnf` plus `extra` clauses with a fresh solver that writes a proof to `out`
/// from the start (varisat cannot write DRAT for clauses added after a solve). Returns
/// whether the formula is unsatisfiable, i.e. the proof is complete.
pub fn prove_unsat(cnf: &Cnf, extra: &[Vec<i32>], out: impl std::io::Write + 'static, format: ProofFormat) -> Result<bool> {
    let mut solver = Solver::new();
    let format = match format {
        ProofFormat::Drat => varisat::ProofFormat::Drat,
        ProofFormat::BinaryDrat => varisat::ProofFormat::BinaryDrat,
        ProofFormat::Varisat => varisat::ProofFormat::Varisat,
    };
    solver.write_proof(out, format);
    load(&mut solver, cnf.clauses().chain(extra.iter().map(Vec::as_slice)));
    let sat = solver.solve().map_err(|e| match e {
        varisat::solver::SolverError::ProofIoError { cause } => {
            crate::error::Error::output("proof", format!("cannot write proof: {cause}"))
        }
        e => crate::error::Error::Internal(format!("SAT solver failed: {e}")),
    })?;
    solver.close_proof().map_err(|e| crate::error::Error::output("proof", format!("cannot write proof: {e}")))?;
    Ok(!sat)
}

/// A solver for questions under assumptions (hints, checks, cores).
///
/// Variables keep their numbers; besides them the oracle has its own *selectors*
/// ([`Oracle::selector`]): fresh variables that guard clauses which can later be
/// dropped for good ([`Oracle::retire`]). A variable that a clause added later brings
/// in (beyond the loaded formula's) is renumbered internally, so that it can never
/// collide with a selector; models are still indexed by the caller's numbers.
pub struct Oracle {
    solver: Solver<'static>,
    /// The highest variable of the loaded formula: numbers up to it are used as they are.
    base: i32,
    /// Later variables of the caller → internal numbers.
    fresh: std::collections::HashMap<i32, i32>,
    /// The highest internal number in use.
    next: i32,
    /// A literal assumed at every solve, which every clause of the loaded formula
    /// contains negated (see [`Oracle::new`]).
    guard: Option<i32>,
    /// Per variable of the loaded formula, its value when unit propagation fixed it
    /// and varisat has not been told yet (1 true, -1 false, 0 otherwise).
    fixed: Vec<i8>,
}

/// A fresh variable of an [`Oracle`] that guards clauses: they hold while it is
/// assumed and are dropped for good when it is retired.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Selector(i32);

impl Oracle {
    /// Loads the formula, simplified first by unit propagation (`propagate_units`):
    /// the fixed variables go in as unit clauses, the clauses they satisfy are left out
    /// and the false literals dropped from the others. The loaded formula is equivalent
    /// to `cnf` (every model of one is a model of the other), but varisat reads and, at
    /// each unit it learns, rescans fewer clauses: on the published puzzles, whose
    /// domains fix most cells, a third to three quarters of them.
    pub fn new(cnf: &Cnf) -> Oracle {
        let clauses: Vec<&[i32]> = cnf.clauses().collect();
        let Some(units) = propagate_units(&clauses) else {
            // A conflict: the formula is unsatisfiable, which varisat finds at once.
            return Oracle::from_clauses(clauses);
        };
        let mut solver = Solver::new();
        // Every clause of the formula is guarded by one literal `g`, assumed at each
        // solve: a clause learned from it then contains ¬g, so that varisat learns no
        // unit at level 0 and never runs its simplification pass over the whole
        // formula (one per learned unit). On the grid tests that need search this is
        // a quarter fewer instructions for `player_puzzle_references`, 11 % for
        // `good_ol_days`. The variables fixed by propagation are in no clause left:
        // they are not loaded at all (varisat would scan the formula once for them),
        // only pinned when a later clause or an assumption names them.
        let g = units.base + 1;
        let mut buf = Vec::new();
        for (c, _) in clauses.iter().zip(&units.satisfied).filter(|&(_, &sat)| !sat) {
            buf.clear();
            buf.extend(c.iter().filter(|&&l| units.value[l.unsigned_abs() as usize] == 0).map(|&l| Lit::from_dimacs(l as isize)));
            buf.push(Lit::from_dimacs(-(g as isize)));
            solver.add_clause(&buf);
        }
        Oracle { solver, base: units.base, fresh: Default::default(), next: g, guard: Some(g), fixed: units.value }
    }

    /// Loads clauses as they come, e.g. a formula rewritten on the fly (no copy of it).
    pub fn from_clauses(clauses: impl IntoIterator<Item = impl AsRef<[i32]>>) -> Oracle {
        let mut solver = Solver::new();
        let mut base = 0;
        load(&mut solver, clauses.into_iter().inspect(|c| base = c.as_ref().iter().fold(base, |m, l| m.max(l.abs()))));
        Oracle { solver, base, fresh: Default::default(), next: base, guard: None, fixed: Vec::new() }
    }

    /// Tells varisat the value of a variable fixed before loading, the first time
    /// the caller names it (in a clause or an assumption).
    fn pin(&mut self, l: i32) {
        let v = l.unsigned_abs() as usize;
        if let Some(x) = self.fixed.get_mut(v).filter(|x| **x != 0) {
            let unit = Lit::from_dimacs(v as isize * isize::from(*x));
            *x = 0;
            self.solver.add_clause(&[unit]);
        }
    }

    fn lit(&mut self, l: i32) -> Lit {
        self.pin(l);
        let v = l.abs();
        let v = if v <= self.base {
            v
        } else {
            *self.fresh.entry(v).or_insert_with(|| {
                self.next += 1;
                self.next
            })
        };
        Lit::from_dimacs(if l < 0 { -(v as isize) } else { v as isize })
    }

    fn add_lits(&mut self, lits: &[Lit]) {
        self.solver.add_clause(lits);
    }

    /// The value propagation fixed for `l` before loading, if it did.
    fn fixed_value(&self, l: i32) -> Option<bool> {
        let x = *self.fixed.get(l.unsigned_abs() as usize)?;
        (x != 0).then_some((x > 0) == (l > 0))
    }

    /// `clause` simplified by the fixed variables (`None` when one satisfies it), in
    /// varisat's numbering.
    fn simplified(&mut self, clause: &[i32]) -> Option<Vec<Lit>> {
        let mut lits = Vec::with_capacity(clause.len() + 2);
        for &l in clause {
            match self.fixed_value(l) {
                Some(true) => return None,
                Some(false) => {}
                None => lits.push(self.lit(l)),
            }
        }
        Some(lits)
    }

    /// Adds a clause for all later questions. It is simplified by the variables fixed
    /// before loading and, like the loaded formula, guarded (see [`Oracle::new`]), so
    /// that a blocking clause never makes varisat learn a unit at level 0.
    pub fn add_clause(&mut self, clause: &[i32]) {
        let Some(mut lits) = self.simplified(clause) else { return };
        if let Some(g) = self.guard {
            lits.push(Lit::from_dimacs(-(g as isize)));
        }
        self.add_lits(&lits);
    }

    /// A new selector.
    pub fn selector(&mut self) -> Selector {
        self.next += 1;
        Selector(self.next)
    }

    /// Adds a clause that holds only while `s` is assumed.
    pub fn add_guarded(&mut self, s: Selector, clause: &[i32]) {
        let Some(mut lits) = self.simplified(clause) else { return };
        lits.push(Lit::from_dimacs(-(s.0 as isize)));
        self.add_lits(&lits);
    }

    /// Drops the clauses guarded by `s` for good (they become satisfied, and the solver
    /// deletes satisfied clauses).
    pub fn retire(&mut self, s: Selector) {
        self.add_lits(&[Lit::from_dimacs(-(s.0 as isize))]);
    }

    /// Solves under the assumptions; returns the model (indexed by variable) if SAT.
    pub fn solve(&mut self, assumptions: &[i32]) -> Result<Option<Vec<bool>>> {
        self.solve_under(&[], assumptions)
    }

    /// Solves assuming the selectors and the literals; returns the model if SAT.
    pub fn solve_under(&mut self, selectors: &[Selector], assumptions: &[i32]) -> Result<Option<Vec<bool>>> {
        let mut lits: Vec<Lit> = assumptions.iter().map(|&l| self.lit(l)).collect();
        lits.extend(selectors.iter().map(|s| Lit::from_dimacs(s.0 as isize)));
        if let Some(g) = self.guard {
            lits.push(Lit::from_dimacs(g as isize));
        }
        self.solver.assume(&lits);
        // A SAT call cannot be interrupted: the signal thread must be there to stop it.
        crate::stop::watch();
        let sat = self.solver.solve().map_err(|e| crate::error::Error::Internal(format!("SAT solver failed: {e}")))?;
        if !sat {
            return Ok(None);
        }
        let model = self.solver.model().unwrap_or_default();
        let mut internal = vec![false; self.next as usize + 1];
        for lit in model {
            if let Some(x) = internal.get_mut(lit.var().to_dimacs() as usize) {
                *x = lit.is_positive();
            }
        }
        for (v, &x) in self.fixed.iter().enumerate().filter(|&(_, &x)| x != 0) {
            internal[v] = x > 0;
        }
        if self.fresh.is_empty() {
            internal.truncate(self.base as usize + 1);
            return Ok(Some(internal));
        }
        let top = self.fresh.keys().copied().max().unwrap_or(0).max(self.base);
        let mut value = internal[..=self.base as usize].to_vec();
        value.resize(top as usize + 1, false);
        for (&ext, &int) in &self.fresh {
            value[ext as usize] = internal[int as usize];
        }
        Ok(Some(value))
    }

    /// After an unsatisfiable [`Oracle::solve`]: a subset of the assumptions that is
    /// already unsatisfiable, shrunk until no element can be left out.
    pub fn minimal_core(&mut self, assumptions: &[i32]) -> Result<Vec<i32>> {
        let first: Vec<i32> =
            self.solver.failed_core().map_or_else(|| assumptions.to_vec(), |c| c.iter().map(|l| l.to_dimacs() as i32).collect());
        let mut core: Vec<i32> = assumptions.iter().copied().filter(|a| first.contains(a)).collect();
        let mut i = 0;
        while i < core.len() {
            let without: Vec<i32> = core.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, &l)| l).collect();
            if self.solve(&without)?.is_none() {
                // Still UNSAT without it: keep the solver's (smaller) core of the rest.
                let failed: Vec<i32> =
                    self.solver.failed_core().map_or_else(|| without.clone(), |c| c.iter().map(|l| l.to_dimacs() as i32).collect());
                core = without.into_iter().filter(|a| failed.contains(a)).collect();
            } else {
                i += 1;
            }
        }
        Ok(core)
    }
}

/// What unit propagation over a whole formula fixed.
struct Units {
    /// Per variable: 1 true, -1 false, 0 free.
    value: Vec<i8>,
    /// Per clause: whether a fixed literal satisfies it.
    satisfied: Vec<bool>,
    /// The highest variable of the formula.
    base: i32,
}

/// Unit propagation to a fixpoint, with occurrence lists and a count of the
/// literals of each clause not yet false (linear in the size of the formula). `None` when
/// it derives a conflict. A literal repeated within a clause is counted once per
/// occurrence, which only makes the pass miss some units, never invent one.
fn propagate_units(clauses: &[&[i32]]) -> Option<Units> {
    let base = clauses.iter().flat_map(|c| c.iter()).fold(0, |m, &l| m.max(l.unsigned_abs())) as usize;
    let idx = |l: i32| 2 * l.unsigned_abs() as usize + usize::from(l < 0);
    // Occurrence lists, one block per literal.
    let mut start = vec![0u32; 2 * base + 3];
    for &l in clauses.iter().flat_map(|c| c.iter()) {
        start[idx(l) + 1] += 1;
    }
    for i in 1..start.len() {
        start[i] += start[i - 1];
    }
    let mut fill = start.clone();
    let mut occ = vec![0u32; start[start.len() - 1] as usize];
    for (k, c) in clauses.iter().enumerate() {
        for &l in c.iter() {
            occ[fill[idx(l)] as usize] = k as u32;
            fill[idx(l)] += 1;
        }
    }
    let mut value = vec![0i8; base + 1];
    let mut satisfied = vec![false; clauses.len()];
    let mut open: Vec<u32> = clauses.iter().map(|c| c.len() as u32).collect();
    let mut queue = Vec::new();
    // Makes `l` true; false on a conflict.
    let assign = |l: i32, value: &mut Vec<i8>, queue: &mut Vec<i32>| -> bool {
        let (v, s) = (l.unsigned_abs() as usize, if l > 0 { 1 } else { -1 });
        match value[v] {
            0 => {
                value[v] = s;
                queue.push(l);
                true
            }
            x => x == s,
        }
    };
    for c in clauses {
        match c[..] {
            [] => return None,
            [l] if !assign(l, &mut value, &mut queue) => return None,
            _ => {}
        }
    }
    let mut head = 0;
    while head < queue.len() {
        let l = queue[head];
        head += 1;
        let (t, f) = (idx(l), idx(-l));
        for &k in &occ[start[t] as usize..start[t + 1] as usize] {
            satisfied[k as usize] = true;
        }
        for &k in &occ[start[f] as usize..start[f + 1] as usize] {
            let k = k as usize;
            if satisfied[k] {
                continue;
            }
            open[k] -= 1;
            if open[k] <= 1 {
                // One literal left that is not false (or none): find it.
                let lit = clauses[k].iter().copied().find(|&x| value[x.unsigned_abs() as usize] * if x > 0 { 1 } else { -1 } != -1);
                match lit {
                    None => return None,
                    Some(x) if value[x.unsigned_abs() as usize] != 0 => satisfied[k] = true,
                    Some(x) => {
                        if !assign(x, &mut value, &mut queue) {
                            return None;
                        }
                        satisfied[k] = true;
                    }
                }
            }
        }
    }
    Some(Units { value, satisfied, base: base as i32 })
}

/// A model, read back: each cell's letter and, for a regex pool, each entry's regex.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// Symbol index per cell.
    pub cells: Vec<usize>,
    /// Regex index per pool entry (empty without a pool).
    pub assignment: Vec<usize>,
}

/// Reads each entry's regex from an assignment of the pool variables.
pub fn decode_assignment(vars: &CellVars, value: impl Fn(i32) -> bool) -> Result<Vec<usize>> {
    exactly_one_true(&vars.assign, value, "entry", "regex")
}

/// Reads each cell's letter from an assignment of the cell variables.
pub fn decode_cells(vars: &CellVars, value: impl Fn(i32) -> bool) -> Result<Vec<usize>> {
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
pub enum Verdict {
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
pub fn enumerate(cnf: &Cnf, vars: &CellVars, limit: Option<usize>, mut on_grid: impl FnMut(Found) -> Result<Verdict>) -> Result<Outcome> {
    let mut oracle = Oracle::new(cnf);
    // The cells a cube can be split on: those with a choice, in order.
    let split_cells: Vec<usize> = (0..vars.cells.len()).filter(|&c| vars.cells[c].len() > 1).collect();
    let root = Cube { sel: None, lit: None, depth: 0, blocks: 0, next_child: None };
    let mut stack = vec![root];
    let mut found = 0;
    while let Some(top) = stack.last_mut() {
        if limit.is_some_and(|l| found >= l) {
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
        crate::stop::check()?;
        let selectors: Vec<Selector> = stack.iter().filter_map(|c| c.sel).collect();
        let lits: Vec<i32> = stack.iter().filter_map(|c| c.lit).collect();
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
pub fn project(oracle: &mut Oracle, vars: &CellVars, cells: &[usize], max: usize) -> Result<Option<Vec<usize>>> {
    let sel = oracle.selector();
    let mut out = Vec::new();
    let mut found = 0;
    let result = loop {
        crate::stop::check()?;
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
