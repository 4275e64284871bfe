//! Stage 4, **solve**: the CNF → models, with varisat.
//!
//! Solutions are enumerated by blocking each found grid with one clause over the cell
//! variables only (`¬x[c][v_c]` for every cell whose domain has more than one letter),
//! so each grid is found once, however many models it has.
//! When the solver reports UNSAT after the last block, the search is exhausted: the
//! count is exact, and one solution means the puzzle is unique.

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
        varisat::solver::SolverError::ProofIoError { cause } => crate::error::Error::Output(format!("cannot write proof: {cause}")),
        e => crate::error::Error::Internal(format!("SAT solver failed: {e}")),
    })?;
    solver.close_proof().map_err(|e| crate::error::Error::Output(format!("cannot write proof: {e}")))?;
    Ok(!sat)
}

/// A solver for questions under assumptions (hints, checks, cores).
pub struct Oracle {
    solver: Solver<'static>,
}

impl Oracle {
    /// Loads the formula.
    pub fn new(cnf: &Cnf) -> Oracle {
        Oracle::from_clauses(cnf.clauses())
    }

    /// Loads clauses as they come, e.g. a formula rewritten on the fly (no copy of it).
    pub fn from_clauses(clauses: impl IntoIterator<Item = impl AsRef<[i32]>>) -> Oracle {
        let mut solver = Solver::new();
        load(&mut solver, clauses);
        Oracle { solver }
    }

    /// Adds a clause for all later questions.
    pub fn add_clause(&mut self, clause: &[i32]) {
        load(&mut self.solver, std::iter::once(clause));
    }

    /// Solves under the assumptions; returns the model (indexed by variable) if SAT.
    pub fn solve(&mut self, assumptions: &[i32]) -> Result<Option<Vec<bool>>> {
        let lits: Vec<Lit> = assumptions.iter().map(|&l| Lit::from_dimacs(l as isize)).collect();
        self.solver.assume(&lits);
        let sat = self.solver.solve().map_err(|e| crate::error::Error::Internal(format!("SAT solver failed: {e}")))?;
        if !sat {
            return Ok(None);
        }
        let model = self.solver.model().unwrap_or_default();
        let mut value = vec![false; model.len() + 1];
        for lit in model {
            value[lit.var().to_dimacs() as usize] = lit.is_positive();
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

/// Enumerates up to `limit` grids (all when `None`), calling `on_grid` for each.
pub fn enumerate(cnf: &Cnf, vars: &CellVars, limit: Option<usize>, mut on_grid: impl FnMut(Found) -> Result<Verdict>) -> Result<Outcome> {
    let mut search = Search::new(cnf, vars);
    let mut found = 0;
    loop {
        if limit.is_some_and(|l| found >= l) {
            return Ok(Outcome { found, complete: false });
        }
        match search.next_grid()? {
            None => {
                return Ok(Outcome { found, complete: true });
            }
            Some(grid) => match on_grid(grid)? {
                Verdict::Accept => found += 1,
                Verdict::Reject(clauses) => {
                    for c in &clauses {
                        search.oracle.add_clause(c);
                    }
                }
            },
        }
    }
}
