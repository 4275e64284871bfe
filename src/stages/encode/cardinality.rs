//! Cardinality constraints over cell, slot and pool variables: [`exactly_one`] and
//! [`at_most_one`], pairwise up to [`PAIRWISE_MAX`] variables, a sequential counter
//! above.

use super::ClauseSink;

/// Largest cell domain encoded with pairwise at-most-one clauses.
pub(crate) const PAIRWISE_MAX: usize = 6;

/// Exactly one of `vars` (at most one when `gate` is false): one clause for "at least
/// one", then pairwise or a sequential counter whose auxiliaries are defined both ways
/// (`s_i ↔ x_1 ∨ … ∨ x_i`).
pub(crate) fn exactly_one<S: ClauseSink>(sink: &mut S, vars: &[i32], gate: Option<i32>) {
    let mut alo: Vec<i32> = gate.map(|g| vec![-g]).unwrap_or_default();
    alo.extend_from_slice(vars);
    sink.add_clause(&alo);
    at_most_one(sink, vars);
}

/// At most one of `vars`: pairwise up to [`PAIRWISE_MAX`], else a sequential counter
/// whose auxiliaries are defined both ways (`s_i ↔ x_1 ∨ … ∨ x_i`).
pub(crate) fn at_most_one<S: ClauseSink>(sink: &mut S, vars: &[i32]) {
    if vars.len() <= PAIRWISE_MAX {
        for (i, &a) in vars.iter().enumerate() {
            for &b in &vars[i + 1..] {
                sink.add_clause(&[-a, -b]);
            }
        }
        return;
    }
    let k = vars.len();
    let s: Vec<i32> = (0..k - 1).map(|_| sink.new_var()).collect();
    sink.add_clause(&[-vars[0], s[0]]);
    sink.add_clause(&[-s[0], vars[0]]);
    for i in 1..k - 1 {
        sink.add_clause(&[-vars[i], s[i]]);
        sink.add_clause(&[-s[i - 1], s[i]]);
        sink.add_clause(&[-vars[i], -s[i - 1]]);
        sink.add_clause(&[-s[i], s[i - 1], vars[i]]);
    }
    sink.add_clause(&[-vars[k - 1], -s[k - 2]]);
}
