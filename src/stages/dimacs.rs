//! DIMACS CNF export, and reading a model printed by an external solver.
//!
//! The header comments map every cell variable back to its cell:
//! `c cell VAR ROW COL "CH"` (0-based row and column, the character as a JSON string),
//! and, for a regex pool, every assignment variable to its entry and regex:
//! `c assign VAR "ENTRY" "REGEX"`.

use crate::encode::{CellVars, ClauseSink, Cnf};
use crate::error::{Error, Result};
use crate::puzzle::Puzzle;
use crate::solve::Prepared;
use crate::solve::{Found, decode_assignment, decode_cells};
use crate::verify::Grid;
use std::io::{self, Write};

/// Writes the formula with its variable map.
pub(crate) fn write(
    out: &mut impl Write,
    puzzle: &Puzzle,
    alphabet: &crate::compile::Alphabet,
    cnf: &Cnf,
    vars: &CellVars,
) -> io::Result<()> {
    writeln!(out, "c crossat {} CNF export", env!("CARGO_PKG_VERSION"))?;
    if let Some(name) = &puzzle.name {
        writeln!(out, "c puzzle {}", serde_json::Value::from(name.as_str()))?;
    }
    let alpha: String = alphabet.chars().iter().collect();
    writeln!(out, "c alphabet {}", serde_json::Value::from(alpha))?;
    for clue in &puzzle.clues {
        writeln!(out, "c clue {} {}", serde_json::Value::from(clue.label.as_str()), serde_json::Value::from(clue.regex.as_str()))?;
    }
    for (c, vs) in vars.cells.iter().enumerate() {
        let (r, col) = puzzle.shape.coords(c);
        for &(a, v) in vs {
            let ch = alphabet.chars()[a].to_string();
            writeln!(out, "c cell {v} {r} {col} {}", serde_json::Value::from(ch))?;
        }
    }
    if let Some(pool) = &puzzle.pool {
        for (e, vs) in vars.assign.iter().enumerate() {
            for &(r, v) in vs {
                writeln!(
                    out,
                    "c assign {v} {} {}",
                    serde_json::Value::from(pool.labels[e].as_str()),
                    serde_json::Value::from(pool.regexes[r].as_str())
                )?;
            }
        }
    }
    writeln!(out, "p cnf {} {}", cnf.num_vars(), cnf.num_clauses())?;
    let mut line = String::new();
    for clause in cnf.clauses() {
        line.clear();
        for l in clause {
            line.push_str(&l.to_string());
            line.push(' ');
        }
        line.push('0');
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// What an external solver's answer says of a puzzle ([`read_external`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum External {
    /// `s UNSATISFIABLE`: no solution.
    Unsat,
    /// A model: its grid, decoded and re-checked by the dialect's matcher.
    Grid {
        /// The grid.
        grid: Grid,
        /// The highest variable the model sets: more than `variables` when it came from
        /// another formula (the others are ignored; the model still satisfies this one).
        highest: usize,
        /// The variables of the puzzle's formula.
        variables: usize,
    },
}

/// Reads an external solver's answer (SAT-competition output, `source` names it) to the
/// formula `crossat dimacs` writes for `prep`: an unsatisfiable verdict, or the grid of
/// a model that satisfies every clause, gives each cell one letter (and each pool entry
/// one regex) and passes the matcher. Anything else is an input error naming `source`.
pub(crate) fn read_external(prep: &Prepared, source: &str, text: &str) -> Result<External> {
    let Model::Sat(values) = read_model(text).map_err(|m| Error::input(source, m))? else { return Ok(External::Unsat) };
    let value = |v: i32| values.get(v as usize).copied().unwrap_or(false);
    let f = prep.formula()?;
    let again = "(was it solved from `crossat dimacs` of the same puzzle and options?)";
    if let Some(k) = f.cnf.first_unsatisfied(value) {
        return Err(Error::input(source, format!("the model violates clause {k} of this puzzle's CNF {again}")));
    }
    let cells = decode_cells(&f.vars, value).map_err(|_| Error::input(source, "the model does not give every cell exactly one letter"))?;
    let assignment = decode_assignment(&f.vars, value)
        .map_err(|_| Error::input(source, "the model does not assign exactly one regex to every entry"))?;
    let grid = Found { cells, assignment }.grid(prep.alphabet());
    prep.verifier.check(&prep.puzzle, &grid)?;
    Ok(External::Grid { grid, highest: values.len().saturating_sub(1), variables: f.cnf.num_vars() })
}

/// What an external solver said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Model {
    /// `s SATISFIABLE` with the true variables (others are false).
    Sat(Vec<bool>),
    /// `s UNSATISFIABLE`.
    Unsat,
}

/// Reads SAT-competition output: an `s` line and `v … 0` value lines; other lines are ignored.
pub(crate) fn read_model(text: &str) -> std::result::Result<Model, String> {
    let mut status = None;
    let mut values: Vec<bool> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if let Some(s) = line.strip_prefix("s ") {
            if let Some(first) = &status {
                return Err(format!("line {}: a second status line `s {}` (the first said `s {first}`)", i + 1, s.trim()));
            }
            status = Some(s.trim().to_string());
        } else if let Some(v) = line.strip_prefix("v ").or_else(|| (line == "v").then_some("")) {
            for tok in v.split_whitespace() {
                let lit: i64 = tok.parse().map_err(|_| format!("line {}: '{tok}' is not a literal", i + 1))?;
                if lit == 0 {
                    continue;
                }
                let var = lit.unsigned_abs() as usize;
                if var > 100_000_000 {
                    return Err(format!("line {}: variable {var} out of range", i + 1));
                }
                if values.len() <= var {
                    values.resize(var + 1, false);
                }
                values[var] = lit > 0;
            }
        }
    }
    match status.as_deref() {
        Some("SATISFIABLE") => Ok(Model::Sat(values)),
        Some("UNSATISFIABLE") => Ok(Model::Unsat),
        Some(other) => Err(format!("the solver did not decide the formula (s {other})")),
        None => Err("no `s SATISFIABLE` or `s UNSATISFIABLE` line".into()),
    }
}
