//! The command line's `solve` beyond a plain search: listing options, cheap counts,
//! statistics, proofs and an external solver's model.

use super::{Puzzle, Solution};
use crate::{Big, Error, Listing, ProofFormat, Result};
use crate::{dimacs, emit, encode, pipeline, puzzle, records, solve, stats};

/// What the command line's `solve` needs beyond a plain search: listing options, cheap
/// counts, statistics, proofs and an external solver's model.
impl Puzzle {
    /// Lists solutions as `listing` says (a limit, threads, sorted order), handing each
    /// verified solution to `found` as the solver finds it; returns the summary
    /// `crossat solve --json` prints (how many, whether the search was exhausted,
    /// uniqueness, the cells that differ between the solutions found).
    pub fn search(
        &mut self,
        listing: Listing,
        mut found: impl FnMut(&puzzle::Puzzle, &Solution) -> Result<()>,
    ) -> Result<records::SolveSummary> {
        let mut values = vec![std::collections::BTreeSet::new(); self.prep.puzzle.givens.len()];
        let outcome = pipeline::solve_listing(&mut self.prep, listing, |puzzle, grid| {
            for (set, &ch) in values.iter_mut().zip(&grid.cells) {
                let _ = set.insert(ch);
            }
            found(puzzle, &Solution { rows: grid.rows(&puzzle.shape), grid: grid.clone() })
        })?;
        Ok(emit::solve_summary(&self.prep, outcome, &values))
    }

    /// The exact count as `crossat solve --count --json` prints it, counted on `jobs`
    /// threads (the count does not depend on them), telling `report(done, total)` how
    /// many parts of the counting search are done.
    pub fn count_reporting(&mut self, jobs: usize, report: &mut dyn FnMut(u64, u64)) -> Result<records::CountSummary> {
        let counted = pipeline::count_reporting(&mut self.prep, jobs, report)?;
        Ok(emit::count_summary(&self.prep, &counted))
    }

    /// The number of solutions when the counting search settles it within `max_nodes`
    /// decisions; `None` when that would take longer (or for a regex pool, or a puzzle
    /// that propagation decided).
    pub fn count_within(&mut self, max_nodes: usize) -> Result<Option<Big>> {
        pipeline::count_within(&mut self.prep, max_nodes)
    }

    /// Most nodes of the line search, the strategy that lists up to a few solutions
    /// line by line before any SAT call.
    pub fn set_line_budget(&mut self, nodes: usize) {
        self.prep.set_line_budget(nodes);
    }

    /// The puzzle's alphabet, as the summaries give it.
    pub fn alphabet(&self) -> String {
        emit::alphabet_text(&self.prep)
    }

    /// The statistics of `--stats`: stage times, the formula's size (built now if the
    /// search did not need it, its time counted as encoding), how the puzzle was decided,
    /// the difficulty (`known`: how many solutions the search showed) and each clue's
    /// automaton and formula.
    pub fn stats(&mut self, known: Option<usize>) -> Result<records::Stats> {
        let searched = self.prep.encoded();
        let _ = self.prep.encode()?;
        emit::stats(&self.prep, searched, known)
    }

    /// Each stage's time so far, in milliseconds.
    pub fn times(&self) -> records::StageTimes {
        records::StageTimes::from_fn(|s| stats::ms(self.prep.times.get(s)))
    }

    /// The wall-clock time so far, in milliseconds.
    pub fn wall_ms(&self) -> f64 {
        stats::ms(self.prep.times.wall())
    }

    /// Writes a proof (in `format`) that `solution` is the only one: that the formula
    /// with `solution` blocked is unsatisfiable. `false` when the solver finds another
    /// solution after all. Fails with [`ClueErrorKind::Inexact`](crate::error::ClueErrorKind::Inexact) when a clue's
    /// formula is only an over-approximation.
    pub fn prove_unique(&self, solution: &Solution, format: ProofFormat, proof: impl std::io::Write + 'static) -> Result<bool> {
        let block = self.blocking_clause(solution)?;
        let f = self.prep.formula()?;
        solve::prove_unsat(&f.cnf, std::slice::from_ref(&block), proof, format)
    }

    /// [`Puzzle::to_dimacs`] with one more clause that excludes `solution`: the formula
    /// a proof of uniqueness refutes.
    pub fn to_dimacs_excluding(&self, solution: &Solution) -> Result<String> {
        let block = self.blocking_clause(solution)?;
        let mut cnf = self.prep.formula()?.cnf.clone();
        encode::ClauseSink::add_clause(&mut cnf, &block);
        self.dimacs_text(&cnf)
    }

    /// Whether clue `clue` (its index in [`puzzle::Puzzle::clues`]) matches `word`, by
    /// the dialect's reference matcher (the one that re-checks every solution).
    pub fn clue_matches(&self, clue: usize, word: &str) -> Result<bool> {
        if clue >= self.prep.puzzle.clues.len() {
            return Err(Error::Usage(format!("no clue {clue}: the puzzle has {}", self.prep.puzzle.clues.len())));
        }
        self.prep.verifier.clue_matches(clue, word)
    }

    /// How hard the puzzle is for a person solving it line by line: the class
    /// `crossat explain`'s steps show and what its proof of uniqueness needed, as
    /// `solve --stats` reports it.
    pub fn rate(&self) -> Result<records::Rating> {
        Ok(pipeline::rate(&self.prep.puzzle, self.prep.compiled()?))
    }

    /// Fails with [`ClueErrorKind::Inexact`](crate::error::ClueErrorKind::Inexact) when some clue's formula is only an
    /// over-approximation (the solver handles those clues; a proof or an export, named
    /// `what` in the error, cannot).
    pub fn require_exact(&self, what: &str) -> Result<()> {
        pipeline::require_exact(&self.prep, what)
    }

    /// The clause that excludes `solution` from the formula.
    fn blocking_clause(&self, solution: &Solution) -> Result<Vec<i32>> {
        self.require_exact("a proof of uniqueness")?;
        let symbols: Vec<usize> = solution.grid.cells.iter().map(|&ch| self.prep.alphabet().index(ch).unwrap_or(0)).collect();
        Ok(solve::blocking_clause(&self.prep.formula()?.vars, &symbols))
    }

    /// Reads an external solver's answer (SAT-competition output; `source` names it in
    /// errors) to the formula [`Puzzle::to_dimacs`] writes: `None` for an unsatisfiable
    /// verdict, else the model's grid, verified.
    pub fn read_model(&self, source: &str, text: &str) -> Result<Option<Model>> {
        Ok(match dimacs::read_external(&self.prep, source, text)? {
            dimacs::External::Unsat => None,
            dimacs::External::Grid { grid, highest, variables } => {
                Some(Model { solution: Solution { rows: grid.rows(&self.prep.puzzle.shape), grid }, highest, variables })
            }
        })
    }
}

/// An external solver's model read by [`Puzzle::read_model`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Model {
    /// The grid it gives, verified.
    pub solution: Solution,
    /// The highest variable it sets.
    pub highest: usize,
    /// The variables of this puzzle's formula: a model setting more was perhaps made
    /// for another formula.
    pub variables: usize,
}
