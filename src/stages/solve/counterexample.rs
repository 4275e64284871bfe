//! What a grid that fails a clue means: on a clue whose formula over-approximates it
//! (the counterexample route) the grid is rejected and its failing line strings are
//! blocked; on any other clue it reveals a bug. Shared by every strategy.

use super::Found;
use crate::compile::{self, Compiled};
use crate::encode::CellVars;
use crate::error::{ClueError, ClueErrorKind, Error, Result};
use crate::puzzle::Puzzle;
use crate::verify::{self, Grid, Verifier};

/// Whether `grid`, every cell decided without a formula (by propagation or the line
/// search), is a solution, asked of the matcher as a model would be: `Ok(false)` when
/// it fails only clues whose automata over-approximate them (the SAT search would
/// block it and go on), an error when it fails an exact clue (a bug, which
/// [`Verifier::check`] names).
pub(super) fn verdict<'a>(
    puzzle: &Puzzle,
    compiled: impl FnOnce() -> Result<&'a Compiled>,
    verifier: &Verifier,
    grid: &Grid,
) -> Result<bool> {
    let failures = verifier.failures(puzzle, grid)?;
    if failures.is_empty() {
        return Ok(true);
    }
    let compiled = compiled()?;
    if failures.iter().all(|f| checked_failure(compiled, f)) {
        return Ok(false);
    }
    verifier.check(puzzle, grid)?;
    Err(Error::Internal("a grid failed a clue the matcher then accepted".into()))
}

/// Whether a failure is on a clue whose encoding is checked rather than trusted
/// (the counterexample route), so that it rejects the grid instead of revealing a bug.
pub(super) fn checked_failure(compiled: &Compiled, f: &verify::Failure) -> bool {
    match f {
        verify::Failure::Clue { clue, .. } => compiled.clues[*clue].approximate(),
        verify::Failure::Pool { .. } => false,
    }
}

/// Most grids the counterexample loop rejects in one search. Each costs a SAT call
/// (tens of microseconds to a few milliseconds as the blocking clauses pile up), so
/// this bounds the loop to seconds; beyond it the search ends with an error naming the
/// clue, never with a verdict (the grids not yet rejected might hide a solution).
pub(crate) const MAX_COUNTEREXAMPLES: usize = 20_000;

/// The error of a search that reached [`MAX_COUNTEREXAMPLES`], naming the first clue
/// (or pool regex) that rejected the last grid.
pub(super) fn loop_limit(source: &str, puzzle: &Puzzle, failures: &[verify::Failure]) -> Error {
    let (clue, regex) = match failures.first() {
        Some(verify::Failure::Clue { clue, .. }) => (puzzle.clues[*clue].label.clone(), puzzle.clues[*clue].regex.clone()),
        Some(verify::Failure::Pool { regex, .. }) => {
            (format!("pool regex {}", regex + 1), puzzle.pool.as_ref().map_or(String::new(), |p| p.regexes[*regex].clone()))
        }
        None => (String::new(), String::new()),
    };
    Error::from(ClueError {
        source: source.to_string(),
        clue,
        regex,
        kind: ClueErrorKind::Limit(format!(
            "search stopped: the counterexample loop rejected {MAX_COUNTEREXAMPLES} candidate grids, its limit (this clue's CNF over-approximates it: more than {} candidate line strings); the puzzle is neither solved nor shown unsolvable",
            compile::classify::BOUNDED_LIMIT
        )),
    })
}

/// What becomes of one model in a search over whole grids.
pub(super) enum Judged {
    /// Its grid, which every clue's reference matcher accepts.
    Accept(Grid),
    /// The clauses that block the line strings the matchers reject.
    Reject(Vec<Vec<i32>>),
}

/// Judges the model `found`: its grid checked by the matchers, or the counterexample
/// loop's clauses. `rejected` is called once per rejection and returns how many came
/// before it; past [`MAX_COUNTEREXAMPLES`] the search ends with [`loop_limit`].
pub(super) fn judge(
    source: &str,
    puzzle: &Puzzle,
    compiled: &Compiled,
    verifier: &Verifier,
    vars: &CellVars,
    found: &Found,
    rejected: impl FnOnce() -> usize,
) -> Result<Judged> {
    let grid = found.grid(&compiled.alphabet);
    let failures = verifier.failures(puzzle, &grid)?;
    match counterexamples(puzzle, compiled, vars, found, &failures) {
        Some(_) if rejected() >= MAX_COUNTEREXAMPLES => Err(loop_limit(source, puzzle, &failures)),
        Some(clauses) => Ok(Judged::Reject(clauses)),
        None => {
            verifier.check(puzzle, &grid)?;
            Ok(Judged::Accept(grid))
        }
    }
}

/// When every failure is on a clue whose encoding is checked rather than trusted,
/// the clauses that block the failing line strings; `None` otherwise (no failure, or
/// one that only a bug explains, which [`Verifier::check`] then reports).
pub(super) fn counterexamples(
    puzzle: &Puzzle,
    compiled: &Compiled,
    vars: &CellVars,
    found: &Found,
    failures: &[verify::Failure],
) -> Option<Vec<Vec<i32>>> {
    let line = |cells: &[usize]| -> Vec<i32> {
        cells.iter().filter_map(|&c| vars.cells[c].iter().find(|&&(x, _)| x == found.cells[c]).map(|&(_, v)| -v)).collect()
    };
    let mut clauses = Vec::new();
    for f in failures {
        match f {
            verify::Failure::Clue { clue, .. } if compiled.clues[*clue].approximate() => clauses.push(line(&puzzle.clues[*clue].cells)),
            verify::Failure::Pool { entry, regex, .. } => {
                let pool = puzzle.pool.as_ref()?;
                let entries = &pool.entries[*entry];
                if !compiled.pool[*regex].get(&entries.len()).is_some_and(|cc| cc.approximate()) {
                    return None;
                }
                let mut c = line(entries);
                c.extend(vars.assign[*entry].iter().filter(|&&(r, _)| r == *regex).map(|&(_, v)| -v));
                clauses.push(c);
            }
            verify::Failure::Clue { .. } => return None,
        }
    }
    (!clauses.is_empty()).then_some(clauses)
}
