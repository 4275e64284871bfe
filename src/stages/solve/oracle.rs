//! The SAT oracle: a varisat solver loaded with a formula simplified by unit
//! propagation, asked questions under assumptions, with *selectors* that guard clauses
//! which can later be dropped for good.

use crate::encode::Cnf;
use crate::error::Result;
use crate::stop::Cancel;
use varisat::{ExtendFormula, Lit, Solver};

/// Adds clauses in DIMACS numbering to a varisat solver.
pub(super) fn load(solver: &mut Solver<'static>, clauses: impl IntoIterator<Item = impl AsRef<[i32]>>) {
    let mut buf = Vec::new();
    for clause in clauses {
        buf.clear();
        buf.extend(clause.as_ref().iter().map(|&l| Lit::from_dimacs(l as isize)));
        solver.add_clause(&buf);
    }
}

/// A solver for questions under assumptions (hints, checks, cores).
///
/// Variables keep their numbers; besides them the oracle has its own *selectors*
/// (`Oracle::selector`): fresh variables that guard clauses which can later be
/// dropped for good (`Oracle::retire`). A variable that a clause added later brings
/// in (beyond the loaded formula's) is renumbered internally, so that it can never
/// collide with a selector; models are still indexed by the caller's numbers.
pub(crate) struct Oracle {
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
    /// Read before each SAT call, whose start its watcher is told of.
    cancel: Cancel,
}

/// A fresh variable of an [`Oracle`] that guards clauses: they hold while it is
/// assumed and are dropped for good when it is retired.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Selector(i32);

impl Oracle {
    /// Loads the formula, simplified first by unit propagation (`propagate_units`):
    /// the fixed variables go in as unit clauses, the clauses they satisfy are left out
    /// and the false literals dropped from the others. The loaded formula is equivalent
    /// to `cnf` (every model of one is a model of the other), but varisat reads and, at
    /// each unit it learns, rescans fewer clauses: on the published puzzles, whose
    /// domains fix most cells, a third to three quarters of them.
    pub(crate) fn new(cnf: &Cnf) -> Oracle {
        Oracle::without(cnf, &[])
    }

    /// [`Oracle::new`] on the formula without the clauses of `skip` (ranges of clause
    /// indices, in increasing order): those of clues the cells' domains imply.
    pub(crate) fn without(cnf: &Cnf, skip: &[std::ops::Range<usize>]) -> Oracle {
        let mut next = skip.iter().peekable();
        let clauses: Vec<&[i32]> = cnf
            .clauses()
            .enumerate()
            .filter(|(k, _)| {
                while next.next_if(|r| r.end <= *k).is_some() {}
                !next.peek().is_some_and(|r| r.contains(k))
            })
            .map(|(_, c)| c)
            .collect();
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
        Oracle { solver, base: units.base, fresh: Default::default(), next: g, guard: Some(g), fixed: units.value, cancel: Cancel::never() }
    }

    /// Loads clauses as they come, e.g. a formula rewritten on the fly (no copy of it).
    pub(crate) fn from_clauses(clauses: impl IntoIterator<Item = impl AsRef<[i32]>>) -> Oracle {
        let mut solver = Solver::new();
        let mut base = 0;
        load(&mut solver, clauses.into_iter().inspect(|c| base = c.as_ref().iter().fold(base, |m, l| m.max(l.abs()))));
        Oracle { solver, base, fresh: Default::default(), next: base, guard: None, fixed: Vec::new(), cancel: Cancel::never() }
    }

    /// The same oracle, polling `cancel` before each SAT call (which itself cannot be
    /// interrupted): a cancelled token ends the next call with
    /// [`Error::Cancelled`](crate::error::Error::Cancelled).
    pub(crate) fn with_cancel(mut self, cancel: Cancel) -> Oracle {
        self.cancel = cancel;
        self
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
    pub(crate) fn add_clause(&mut self, clause: &[i32]) {
        let Some(mut lits) = self.simplified(clause) else { return };
        if let Some(g) = self.guard {
            lits.push(Lit::from_dimacs(-(g as isize)));
        }
        self.add_lits(&lits);
    }

    /// A new selector.
    pub(crate) fn selector(&mut self) -> Selector {
        self.next += 1;
        Selector(self.next)
    }

    /// Adds a clause that holds only while `s` is assumed.
    pub(crate) fn add_guarded(&mut self, s: Selector, clause: &[i32]) {
        let Some(mut lits) = self.simplified(clause) else { return };
        lits.push(Lit::from_dimacs(-(s.0 as isize)));
        self.add_lits(&lits);
    }

    /// Drops the clauses guarded by `s` for good (they become satisfied, and the solver
    /// deletes satisfied clauses).
    pub(crate) fn retire(&mut self, s: Selector) {
        self.add_lits(&[Lit::from_dimacs(-(s.0 as isize))]);
    }

    /// Solves under the assumptions; returns the model (indexed by variable) if SAT.
    pub(crate) fn solve(&mut self, assumptions: &[i32]) -> Result<Option<Vec<bool>>> {
        self.solve_under(&[], assumptions)
    }

    /// Solves assuming the selectors and the literals; returns the model if SAT.
    pub(crate) fn solve_under(&mut self, selectors: &[Selector], assumptions: &[i32]) -> Result<Option<Vec<bool>>> {
        let mut lits: Vec<Lit> = assumptions.iter().map(|&l| self.lit(l)).collect();
        lits.extend(selectors.iter().map(|s| Lit::from_dimacs(s.0 as isize)));
        if let Some(g) = self.guard {
            lits.push(Lit::from_dimacs(g as isize));
        }
        self.solver.assume(&lits);
        // A SAT call cannot be interrupted: whoever must stop it has to know it starts.
        self.cancel.check()?;
        self.cancel.blocking();
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
    pub(crate) fn minimal_core(&mut self, assumptions: &[i32]) -> Result<Vec<i32>> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::ClauseSink;

    fn cnf(clauses: &[&[i32]]) -> Cnf {
        let mut cnf = Cnf::new();
        for _ in 0..3 {
            let _ = cnf.new_var();
        }
        for c in clauses {
            cnf.add_clause(c);
        }
        cnf
    }

    /// The clauses in the skipped ranges are left out, and only they: a formula
    /// unsatisfiable through them becomes satisfiable, and what is left still binds.
    #[test]
    fn without_leaves_out_exactly_the_skipped_ranges() {
        let f = cnf(&[&[1, 2], &[-1], &[-2], &[3], &[-3, 1, 2]]);
        assert_eq!(Oracle::new(&f).solve(&[]).expect("a verdict"), None);
        // Without clauses 1 and 2 (¬1, ¬2), 1 ∨ 2 and 3 remain.
        let model = Oracle::without(&f, &[1..2, 2..3]).solve(&[]).expect("a verdict").expect("a model");
        assert!(model[1] || model[2]);
        assert!(model[3]);
        // Without clause 0 and 3..5: ¬1 and ¬2 remain, and they still hold.
        let model = Oracle::without(&f, &[0..1, 3..5]).solve(&[]).expect("a verdict").expect("a model");
        assert!(!model[1] && !model[2]);
        assert_eq!(Oracle::without(&f, &[0..1, 3..5]).solve(&[1]).expect("a verdict"), None);
    }
}
