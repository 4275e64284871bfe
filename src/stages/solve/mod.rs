//! The **solve** stage: a prepared puzzle → its grids, each checked by the matcher.
//!
//! [`Prepared`] holds what the earlier stages made (automata, propagated domains, the
//! formula on first use). Four strategies list the grids, and the pipeline picks one:
//! `decided` when propagation left one candidate, the line `lines` search for a
//! few grids, independent `parts` for many, and one SAT search over `whole` grids
//! otherwise. The SAT side is the `oracle` (varisat under assumptions), the
//! enumeration of grids in cubes that keeps memory flat (`enumerate`) and
//! proofs of unsatisfiability (`proof`). When the solver reports UNSAT after the last
//! block, the search is exhausted: the count is exact, and one solution means the
//! puzzle is unique.

pub(crate) mod count;
pub(crate) mod counterexample;
pub(crate) mod decided;
pub(crate) mod enumerate;
pub(crate) mod lines;
pub(crate) mod odometer;
pub(crate) mod oracle;
pub(crate) mod parallel;
pub(crate) mod parts;
pub(crate) mod prepared;
pub(crate) mod proof;
pub(crate) mod strategy;
pub(crate) mod stream;
pub(crate) mod whole;

pub(crate) use decided::solve_decided;
pub(crate) use enumerate::blocking_clause;
pub(crate) use enumerate::{Found, Verdict, decode_assignment, decode_cells, enumerate};
pub(crate) use enumerate::{enumerate_cancellable, project};
pub(crate) use lines::solve_lines;
pub(crate) use oracle::Oracle;
pub(crate) use oracle::Selector;
pub(crate) use parts::PARTS_FROM;
pub(crate) use parts::solve_parts;
pub(crate) use prepared::{Prepared, require_exact};
pub use proof::ProofFormat;
pub(crate) use proof::prove_unsat;
pub(crate) use whole::solve_whole;

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Outcome {
    /// Solutions found (and handed to the callback).
    pub(crate) found: usize,
    /// Whether the search was exhausted, so that `found` is the exact count.
    pub(crate) complete: bool,
}
