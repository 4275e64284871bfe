//! crossat solves word-grid puzzles — regex crosswords first — by compiling them to SAT.
//!
//! # Using crossat as a library
//!
//! [`Puzzle`] is the entry point: read a puzzle in any supported format
//! ([`Puzzle::read`], [`Puzzle::read_file`]), then solve it ([`Puzzle::solve`]),
//! enumerate its solutions up to a limit ([`Puzzle::solutions`]), prove it has exactly
//! one ([`Puzzle::is_unique`]), check a filled grid ([`Puzzle::check`]) or export its
//! formula ([`Puzzle::to_dimacs`]). Every failure is an [`Error`] that says which
//! stage refused what, with typed kinds to match on (see [`error`]).
//!
//! ```
//! use crossat::{Error, Puzzle};
//! use crossat::error::ClueErrorKind;
//!
//! // The regexcrossword.com tutorial puzzle, in crossat's JSON format.
//! let text = r#"{"left": ["HE|LL|O+", "[PLEASE]+"], "top": ["[^SPEAK]+", "EP|IP|EF"]}"#;
//! let mut puzzle = Puzzle::read("beatles.json", text.as_bytes())?;
//! let solution = puzzle.solve()?.expect("the puzzle has a solution");
//! assert_eq!(solution.rows, ["HE", "LP"]);
//! assert!(puzzle.is_unique()?);
//! assert!(puzzle.check(&["HE", "LP"])?.is_empty());
//! assert_eq!(puzzle.check(&["HE", "LL"])?, ["column 2 (top)"]);
//! assert!(puzzle.to_dimacs()?.starts_with("c crossat"));
//!
//! // A clue Python's `re` refuses: the error names the file, the clue and the problem.
//! let bad = r#"{"left": ["A(B"], "top": ["A", "B", "C"]}"#;
//! match Puzzle::read("bad.json", bad.as_bytes()) {
//!     Err(Error::Clue(e)) => {
//!         assert_eq!((e.clue.as_str(), e.regex.as_str()), ("row 1 (left)", "A(B"));
//!         assert!(matches!(e.kind, ClueErrorKind::Syntax { position: Some(1), .. }));
//!         assert_eq!(e.to_string(), "bad.json: row 1 (left) clue 'A(B': missing ), unterminated subpattern at position 1");
//!     }
//!     other => panic!("expected a clue error, got {other:?}", other = other.err()),
//! }
//! # Ok::<(), crossat::Error>(())
//! ```
//!
//! The stages behind the facade are the library's own: `pipeline` chains them, and the
//! command line, the page and the Python package are thin layers over [`Puzzle`] and
//! the [`records`].
//!
//! # Architecture
//!
//! ```text
//! bytes ──parse──▶ Puzzle ──compile──▶ Compiled ──propagate──▶ domains ──encode──▶ Cnf ──solve──▶ models
//!                  (cells,    (one minimal DFA    (letters left    (one-hot cells,  (varisat; block
//!                   clues)     per clue)           per cell)        unrolled DFAs)   on cells only)
//!       ──decode/verify──▶ Grid (re-checked by the sre port) ──emit──▶ text, JSON Lines
//! ```
//!
//! | stage | module | in → out | fails with |
//! |---|---|---|---|
//! | parse | `puzzle` | bytes → `puzzle::Puzzle` | `error::InputError`: bad format, wrong sizes, bad encoding |
//! | compile | `compile` (with `dialect`) | clues → `compile::Automaton`s | `error::ClueError`: bad regex, unsupported construct, automaton too large |
//! | propagate | `propagate` | automata → cell domains (`propagate::SymSet`s) | — (an empty domain means no solution) |
//! | encode | `encode` | automata + domains → `encode::Cnf` | `error::EncodeError`: formula too large |
//! | solve | `solve` | domains or CNF → grids, by one of four strategies | `error::ClueError`: the counterexample loop's limit |
//! | deduce | `deduce` (behind [`Puzzle::explain`]) | domains → the steps a person takes; a difficulty | — |
//! | verify | `verify` | `verify::Grid` → independently re-checked, for every strategy | [`Error::Internal`]: a bug |
//! | emit | `emit`, `dimacs` | grid → text / JSON; CNF → DIMACS | `error::OutputError`: I/O |
//!
//! `pipeline` chains them; `crossat` (the binary, `src/bin/crossat/`) is a thin layer over them.
//!
//! # Module map
//!
//! The source tree is this architecture. docs/architecture.md holds the module map, one
//! row per module (`tests/architecture.rs` checks that it, this summary and `src/` agree, and
//! enforces who may use whom):
//!
//! | group | modules | may use |
//! |---|---|---|
//! | spine, `src/pipeline.rs` | `pipeline` | stages, support |
//! | stages (`src/stages/`), in pipeline order | `puzzle` → `dialect` (Python's `regex` and `sre`, ECMAScript's `ecma`) → `compile` → `propagate` → `encode` → `verify` → `solve` → `deduce` → `emit` → `dimacs` | earlier stages, support |
//! | features (`src/features/`) | `assist`, `explain`, `generate`, `words`, `squares`, `lint` | stages, pipeline, support; never another feature |
//! | support (`src/support/`) | `clock`, `error`, `limits`, `records`, `rng`, `stats`, `stop`, `style` | support |
//! | front end, `src/bin/crossat/` (binary only) | `main`, `cli`, `args`, `manual`, `io`, `print`, `app`, `jobs`, `bench`, `exit`, `stop`, `progress`, `terminal`, `draw` | the library |
//!
//! The group modules (`stages`, `features`, `support`) are private: each module is named
//! by its short name only, `crate::compile` for `src/stages/compile/`, `crate::sre` for
//! `src/stages/dialect/sre/`. A module other crates need is public under that name;
//! every item no other crate uses is `pub(crate)`.
//!
//!

#![deny(missing_docs)]
// An item `pub` inside a module other crates cannot reach is `pub(crate)`: the public
// surface is what the root exports, nothing hidden behind private modules.
#![warn(unreachable_pub)]

mod features;

pub mod pipeline;
mod stages;
mod support;
#[cfg(test)]
mod test_support;

// The modules under their short names, so that `crate::compile` (and `crossat::compile`)
// name a module wherever it sits in the tree.
pub(crate) use features::explain;
pub use features::{assist, generate, lint, squares, words};
pub(crate) use stages::deduce;
pub use stages::dialect::ecma;
pub(crate) use stages::dialect::{regex, sre};
pub(crate) use stages::{compile, dialect};
pub use stages::{dimacs, emit, encode, propagate, puzzle, solve, verify};
pub use support::{clock, error, limits, records, rng, stats, stop, style};

pub use error::{Error, Result};
pub use pipeline::Listing;

use std::path::Path;

/// docs/api.md's examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../docs/api.md")]
mod api_md {}

/// A puzzle read, compiled and encoded: ready to solve, check or export.
///
/// The facade over the stages: every front end (the command line, the page, Python)
/// reads, solves, counts, checks, explains and exports through it.
#[derive(Clone)]
pub struct Puzzle {
    prep: pipeline::Prepared,
}

/// A solution: the grid, re-checked by the independent matcher.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The display rows, top to bottom (for a hexagon, its rows of cells).
    pub rows: Vec<String>,
    /// The grid as the stages see it: one character per cell, and for a regex pool
    /// the regex of each entry.
    pub grid: verify::Grid,
}

impl Solution {
    /// The record `crossat solve --json` prints for it: the rows, and for a free layout
    /// or a regex pool each entry's regex and word.
    pub fn record(&self, puzzle: &puzzle::Puzzle) -> records::Solution {
        emit::solution(puzzle, &self.grid)
    }
}

/// Solutions found by [`Puzzle::solutions`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solutions {
    /// The solutions, in the order the solver found them.
    pub solutions: Vec<Solution>,
    /// Whether the search was exhausted, so that these are all the solutions.
    pub complete: bool,
}

/// A puzzle explained as `crossat explain --json` prints it: the steps a person takes,
/// then the summary (the answer, the steps of each kind, the difficulty).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    /// The top-level steps; a case split carries its sub-steps.
    pub steps: Vec<records::StepRecord>,
    /// The answer and the counts.
    pub summary: records::ExplainSummary,
    /// How deduction ended (not in the JSON; `crossat explain`'s last line says it).
    pub ending: Ending,
    /// Each grid cell's letter before the first step, where it has only one: the givens
    /// (every cell when the alphabet has one letter). Not in the JSON.
    pub start: Vec<Option<char>>,
}

/// How the deduction of an [`Explanation`] ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Line steps and case splits fixed every cell.
    Solved,
    /// A cell is left without a letter: the givens cannot be completed.
    EmptyCell(records::Cell),
    /// A regex pool's entry (named as the steps name it) is left without a regex.
    EmptyEntry(String),
    /// Deduction stalled: the search took over.
    Stalled,
    /// The step limit was reached.
    StepLimit,
}

impl Puzzle {
    /// Reads a puzzle from bytes in any supported format (detected from the content);
    /// `source` names it in error messages.
    pub fn read(source: &str, bytes: &[u8]) -> Result<Puzzle> {
        Puzzle::from_input(&pipeline::Input { source: source.to_string(), bytes: bytes.to_vec(), ..Default::default() })
    }

    /// Reads a puzzle file in any supported format. A regex-pool CSV takes its pool
    /// from the `.txt` file beside it; a collection (`challenges.json`) needs
    /// [`Puzzle::from_input`] with an `id`.
    pub fn read_file(path: impl AsRef<Path>) -> Result<Puzzle> {
        Puzzle::read_file_within(path, &limits::Limits::default())
    }

    /// [`Puzzle::read_file`] within `limits` (e.g. a smaller cap on the file's size).
    pub fn read_file_within(path: impl AsRef<Path>, limits: &limits::Limits) -> Result<Puzzle> {
        let path = path.as_ref();
        let (source, bytes) = limits::read_input(path, limits)?;
        let pool = puzzle::louridas::pool_beside(path).map(|txt| limits::read_input(&txt, limits)).transpose()?;
        Puzzle::from_input(&pipeline::Input { source, bytes, pool, ..Default::default() })
    }

    /// Reads a puzzle with every option of the command line: a forced format, a puzzle
    /// of a collection, an alphabet, givens, a regex pool.
    pub fn from_input(input: &pipeline::Input) -> Result<Puzzle> {
        Ok(Puzzle { prep: pipeline::prepare(input)? })
    }

    /// A puzzle already parsed (one of a collection, say), compiled and encoded over
    /// `alphabet` (`None`: the one its clues and givens name); `source` names it in
    /// errors, and the work polls `cancel` (as every later call on it does, until
    /// [`Puzzle::set_cancel`]).
    pub fn from_parsed(source: &str, puzzle: puzzle::Puzzle, alphabet: Option<&[char]>, cancel: &stop::Cancel) -> Result<Puzzle> {
        Ok(Puzzle { prep: pipeline::prepare_puzzle_cancellable(source, puzzle, alphabet, stats::Times::default(), cancel)? })
    }

    /// The puzzle as parsed: its shape, clues and givens.
    pub fn puzzle(&self) -> &puzzle::Puzzle {
        &self.prep.puzzle
    }

    /// A solution, or `None` when the puzzle has none.
    pub fn solve(&mut self) -> Result<Option<Solution>> {
        Ok(self.solutions(1)?.solutions.pop())
    }

    /// Up to `limit` solutions (at least one is asked for), each verified independently.
    pub fn solutions(&mut self, limit: usize) -> Result<Solutions> {
        let mut solutions = Vec::new();
        let outcome = pipeline::solve(&mut self.prep, Some(limit.max(1)), |puzzle, grid| {
            solutions.push(Solution { rows: grid.rows(&puzzle.shape), grid: grid.clone() });
            Ok(())
        })?;
        Ok(Solutions { solutions, complete: outcome.complete })
    }

    /// The exact number of solutions, counted without listing them (see
    /// [`pipeline::count`]): an integer of any size.
    ///
    /// ```
    /// // Three free cells over A and B; column 2 starts with an A.
    /// let text = r#"{"left": ["[AB]*", "[AB]*"], "top": ["[AB]*", "A."]}"#;
    /// let mut puzzle = crossat::Puzzle::read("eight.json", text.as_bytes())?;
    /// assert_eq!(puzzle.count()?.to_string(), "8");
    /// # Ok::<(), crossat::Error>(())
    /// ```
    pub fn count(&mut self) -> Result<solve::count::Big> {
        Ok(pipeline::count(&mut self.prep)?.count)
    }

    /// Whether the puzzle has exactly one solution: the solver finds one and proves
    /// that no other exists.
    pub fn is_unique(&mut self) -> Result<bool> {
        let found = self.solutions(2)?;
        Ok(found.solutions.len() == 1 && found.complete)
    }

    /// Checks a filled grid, given as its display rows: the labels of the clues it
    /// fails, in puzzle order (empty when every clue matches). A grid of the wrong
    /// size is an input error named `grid`.
    pub fn check(&self, rows: &[&str]) -> Result<Vec<String>> {
        let puzzle = &self.prep.puzzle;
        if puzzle.pool.is_some() {
            return Err(Error::Usage("check needs a puzzle with fixed clues, not a regex pool".into()));
        }
        // The rows are read as givens are (same size checks), then checked clue by clue.
        let cells = self.grid_cells(rows, false)?;
        let grid = verify::Grid { cells: cells.iter().map(|g| g.unwrap_or(' ')).collect(), assignment: Vec::new() };
        let failures = self.prep.verifier.failures(puzzle, &grid)?;
        Ok(failures
            .iter()
            .filter_map(|f| match f {
                verify::Failure::Clue { clue, .. } => Some(puzzle.clues[*clue].label.clone()),
                verify::Failure::Pool { .. } => None,
            })
            .collect())
    }

    /// Polls `cancel` in every later call on this puzzle: a call that sees it cancelled
    /// (or past its deadline) fails with [`Error::Cancelled`]. Other puzzles, and other
    /// threads, are not affected.
    pub fn set_cancel(&mut self, cancel: stop::Cancel) {
        self.prep.set_cancel(cancel);
    }

    /// Up to `limit` solutions (`None`: all) as the records `crossat solve --json`
    /// prints, each handed to `found` as the solver finds it, then the summary: how many,
    /// whether the search was exhausted, uniqueness, the cells that differ.
    pub fn solve_records(
        &mut self,
        limit: Option<usize>,
        mut found: impl FnMut(records::Solution) -> Result<()>,
    ) -> Result<records::SolveSummary> {
        let mut values = vec![std::collections::BTreeSet::new(); self.prep.puzzle.givens.len()];
        let outcome = pipeline::solve(&mut self.prep, limit, |puzzle, grid| {
            for (set, &ch) in values.iter_mut().zip(&grid.cells) {
                let _ = set.insert(ch);
            }
            found(emit::solution(puzzle, grid))
        })?;
        Ok(emit::solve_summary(&self.prep, outcome, &values))
    }

    /// The exact count as `crossat solve --count --json` prints it.
    pub fn count_record(&mut self) -> Result<records::CountSummary> {
        self.count_reporting(1, &mut |_, _| {})
    }

    /// The steps a person takes from the givens to the answer (line steps, case splits,
    /// and a search step where those stall), at most `max_steps` of them.
    ///
    /// ```
    /// let text = r#"{"left": ["HE|LL|O+", "[PLEASE]+"], "top": ["[^SPEAK]+", "EP|IP|EF"]}"#;
    /// let mut puzzle = crossat::Puzzle::read("beatles.json", text.as_bytes())?;
    /// let explained = puzzle.explain(None)?;
    /// assert_eq!(explained.summary.answer, crossat::records::Answer::Unique);
    /// assert!(explained.summary.unique_by_deduction);
    /// assert_eq!(explained.steps[0].step.number, 1);
    /// # Ok::<(), crossat::Error>(())
    /// ```
    pub fn explain(&mut self, max_steps: Option<usize>) -> Result<Explanation> {
        let ex = explain::explain(&mut self.prep, deduce::Options { max_steps, ..deduce::Options::default() })?;
        let puzzle = &self.prep.puzzle;
        let ending = match ex.deduction.end {
            deduce::End::Solved => Ending::Solved,
            deduce::End::Contradiction { cell } if cell < puzzle.givens.len() => Ending::EmptyCell(puzzle.shape.cell_json(cell)),
            deduce::End::Contradiction { cell } => Ending::EmptyEntry(deduce::constraints::cell_name(puzzle, cell)),
            deduce::End::Stalled => Ending::Stalled,
            deduce::End::StepLimit => Ending::StepLimit,
        };
        Ok(Explanation {
            steps: explain::step_records(&self.prep, &ex),
            summary: explain::summary_record(&self.prep, &ex),
            ending,
            start: explain::start_cells(&self.prep, &ex),
        })
    }

    /// A player's next forced cell, with the clues and filled cells behind it, for a
    /// partial grid given as its display rows (`.` an empty cell). `None` when the grid
    /// is full, an entry is wrong, or it cannot be completed.
    ///
    /// ```
    /// let text = r#"{"left": ["HE|LL|O+", "[PLEASE]+"], "top": ["[^SPEAK]+", "EP|IP|EF"]}"#;
    /// let puzzle = crossat::Puzzle::read("beatles.json", text.as_bytes())?;
    /// let hint = puzzle.hint(&["H.", ".."])?.expect("a forced cell");
    /// assert!(["E", "L", "P"].contains(&hint.ch.as_str()));
    /// assert!(puzzle.hint(&["HL", ".."])?.is_none(), "the L is wrong");
    /// # Ok::<(), crossat::Error>(())
    /// ```
    pub fn hint(&self, rows: &[&str]) -> Result<Option<records::Hint>> {
        assist::next_hint(&self.prep, &self.grid_cells(rows, true)?)
    }

    /// A player's grid given as display rows, cell by cell, read as givens are (the same
    /// size checks, errors naming `grid`); with `dots`, `.` is an empty cell.
    fn grid_cells(&self, rows: &[&str], dots: bool) -> Result<Vec<Option<char>>> {
        let mut filled = self.prep.puzzle.clone();
        let rows: Vec<Vec<Option<char>>> = rows.iter().map(|r| r.chars().map(|c| (!dots || c != '.').then_some(c)).collect()).collect();
        filled.set_given_rows("grid", &rows)?;
        Ok(filled.givens)
    }

    /// The formula in DIMACS CNF, with comments that map variables to cells. Fails
    /// with [`error::ClueErrorKind::Inexact`] when a clue's formula is only an
    /// over-approximation (the solver handles those clues, an export cannot).
    pub fn to_dimacs(&self) -> Result<String> {
        self.require_exact("a DIMACS export")?;
        let mut out = Vec::new();
        let f = self.prep.formula()?;
        dimacs::write(&mut out, &self.prep.puzzle, self.prep.alphabet(), &f.cnf, &f.vars)
            .map_err(|e| Error::output("DIMACS", e.to_string()))?;
        String::from_utf8(out).map_err(|e| Error::Internal(format!("DIMACS output is not UTF-8: {e}")))
    }
}

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
    pub fn count_within(&mut self, max_nodes: usize) -> Result<Option<solve::count::Big>> {
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
    /// solution after all. Fails with [`error::ClueErrorKind::Inexact`] when a clue's
    /// formula is only an over-approximation.
    pub fn prove_unique(&self, solution: &Solution, format: solve::ProofFormat, proof: impl std::io::Write + 'static) -> Result<bool> {
        let block = self.blocking_clause(solution)?;
        let f = self.prep.formula()?;
        solve::prove_unsat(&f.cnf, std::slice::from_ref(&block), proof, format)
    }

    /// [`Puzzle::to_dimacs`] with one more clause that excludes `solution`: the formula
    /// a proof of uniqueness refutes.
    pub fn to_dimacs_excluding(&self, solution: &Solution) -> Result<String> {
        let block = self.blocking_clause(solution)?;
        let f = self.prep.formula()?;
        let mut cnf = f.cnf.clone();
        encode::ClauseSink::add_clause(&mut cnf, &block);
        let mut out = Vec::new();
        dimacs::write(&mut out, &self.prep.puzzle, self.prep.alphabet(), &cnf, &f.vars)
            .map_err(|e| Error::output("DIMACS", e.to_string()))?;
        String::from_utf8(out).map_err(|e| Error::Internal(format!("DIMACS output is not UTF-8: {e}")))
    }

    /// How hard the puzzle is for a person solving it line by line: the class
    /// `crossat explain`'s steps show and what its proof of uniqueness needed, as
    /// `solve --stats` reports it.
    pub fn rate(&self) -> Result<records::Rating> {
        Ok(pipeline::rate(&self.prep.puzzle, self.prep.compiled()?))
    }

    /// Fails with [`error::ClueErrorKind::Inexact`] when some clue's formula is only an
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

/// For players: `check` and `hint` as the command line runs them.
impl Puzzle {
    /// `crossat check` on a player's grid (one entry per cell, `None` empty): each
    /// record (a failing clue, a character outside the alphabet) handed to `found`
    /// with the clues it names, then the summary (see [`assist::check`]).
    pub fn check_records(
        &self,
        grid: &[Option<char>],
        options: assist::CheckOptions,
        found: impl FnMut(assist::Named<records::CheckRecord>) -> Result<()>,
    ) -> Result<assist::Named<records::CheckSummary>> {
        assist::check(&self.prep, grid, options, found)
    }

    /// `crossat hint` on a player's grid (`None`: the puzzle's givens): the wrong
    /// entries, or the forced cells, each handed to `found`, then the summary (see
    /// [`assist::hint`]).
    pub fn hint_records(
        &self,
        grid: Option<&[Option<char>]>,
        options: assist::HintOptions,
        found: impl FnMut(assist::Named<records::HintRecord>) -> Result<()>,
    ) -> Result<assist::Named<records::HintSummary>> {
        assist::hint(&self.prep, grid, options, found)
    }
}

/// For the page.
impl Puzzle {
    /// Per clue, whether a player's partial grid (one entry per cell, `None` empty)
    /// satisfies it, may still satisfy it, or cannot; `cache` keeps verdicts on slow
    /// lines between calls on this puzzle (see [`assist::status::status`]).
    pub fn status(&self, grid: &[Option<char>], cache: &mut assist::status::Cache) -> Result<Vec<records::ClueStatus>> {
        assist::status::status(&self.prep, grid, cache)
    }
}

/// For setters.
impl Puzzle {
    /// The solutions up to `bound` (their rows), whether that is all of them, the cells
    /// that differ between them (with their ids) and, when the listing does not settle
    /// it, the exact count. A cancel token ([`Puzzle::set_cancel`]) that fires during
    /// the listing gives what was found before it, with `reason` `timeout`; during the
    /// count, no count.
    pub fn analyse(&mut self, bound: usize) -> Result<records::Analysis> {
        let mut grids = Vec::new();
        let mut values = vec![std::collections::BTreeSet::new(); self.prep.puzzle.givens.len()];
        let listed = pipeline::solve(&mut self.prep, Some(bound), |puzzle, grid| {
            for (set, &ch) in values.iter_mut().zip(&grid.cells) {
                let _ = set.insert(ch);
            }
            grids.push(grid.rows(&puzzle.shape));
            Ok(())
        });
        let outcome = match listed {
            Ok(outcome) => Some(outcome),
            Err(Error::Cancelled) => None,
            Err(e) => return Err(e),
        };
        let count = match outcome {
            Some(o) if o.complete => Some(records::Count::Number(o.found as u64)),
            Some(_) => match pipeline::count(&mut self.prep) {
                Ok(counted) => Some(emit::count_value(&counted.count)),
                Err(Error::Cancelled) => None,
                Err(e) => return Err(e),
            },
            None => None,
        };
        let (cells, clues) = emit::ambiguity(&self.prep, &values, true);
        Ok(records::Analysis {
            solutions: grids.len(),
            complete: outcome.is_some_and(|o| o.complete),
            unique: outcome.map_or(records::Uniqueness::Undecided, |o| records::Uniqueness::of(o.found, o.complete)),
            grids,
            ambiguous_cells: cells.unwrap_or_default(),
            ambiguous_clues: clues.unwrap_or_default(),
            count,
            reason: outcome.is_none().then_some(records::StopReason::Timeout),
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
