//! Proofs of unsatisfiability: a fresh solver that writes DRAT (or varisat's own
//! format) from the first clause, for `solve --prove` and checkers such as drat-trim.

use super::oracle::load;
use crate::encode::Cnf;
use crate::error::Result;
use varisat::Solver;

/// Proof formats for `prove_unsat`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
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
pub(crate) fn prove_unsat(cnf: &Cnf, extra: &[Vec<i32>], out: impl std::io::Write + 'static, format: ProofFormat) -> Result<bool> {
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
