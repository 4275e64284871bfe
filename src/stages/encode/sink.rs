//! Where clauses go. The solver and the DIMACS writer both read one [`Cnf`], so they
//! always see the same formula.

/// Receives variables and clauses (DIMACS numbering: variables from 1, `-v` negates).
pub(crate) trait ClauseSink {
    /// A fresh variable.
    fn new_var(&mut self) -> i32;
    /// Adds a clause; the empty clause makes the formula unsatisfiable.
    fn add_clause(&mut self, lits: &[i32]);
    /// Variables so far.
    fn num_vars(&self) -> usize;
    /// Clauses so far.
    fn num_clauses(&self) -> usize;
}

/// A formula held in memory, clauses stored back to back.
#[derive(Clone, Debug, Default)]
pub(crate) struct Cnf {
    vars: usize,
    lits: Vec<i32>,
    ends: Vec<usize>,
}

impl Cnf {
    /// An empty formula.
    pub(crate) fn new() -> Cnf {
        Cnf::default()
    }

    /// Index (1-based) of the first clause the assignment falsifies, if any.
    pub(crate) fn first_unsatisfied(&self, value: impl Fn(i32) -> bool) -> Option<usize> {
        self.clauses().position(|c| !c.iter().any(|&l| value(l.abs()) == (l > 0))).map(|k| k + 1)
    }

    /// The clauses, in insertion order.
    pub(crate) fn clauses(&self) -> impl Iterator<Item = &[i32]> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts.zip(self.ends.iter().copied()).map(|(a, b)| &self.lits[a..b])
    }
}

impl ClauseSink for Cnf {
    fn new_var(&mut self) -> i32 {
        self.vars += 1;
        self.vars as i32
    }

    fn add_clause(&mut self, lits: &[i32]) {
        debug_assert!(lits.iter().all(|&l| l != 0 && l.unsigned_abs() as usize <= self.vars));
        self.lits.extend_from_slice(lits);
        self.ends.push(self.lits.len());
    }

    fn num_vars(&self) -> usize {
        self.vars
    }

    fn num_clauses(&self) -> usize {
        self.ends.len()
    }
}
