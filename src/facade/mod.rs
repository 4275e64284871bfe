//! The facade, [`Puzzle`]: what every front end (the command line, the page, Python)
//! calls. This file holds reading, solving, counting, checking, explaining and export;
//! `command_line.rs` what the command line's `solve` needs beyond them (listing
//! options, statistics, proofs, models); `players.rs` the player's and setter's calls
//! (check and hint records, live clue status, analysis).

use crate::{Big, Error, Grid, Result};
use crate::{assist, deduce, dimacs, emit, encode, explain, limits, pipeline, puzzle, records, stats, stop, verify};
use std::path::Path;

mod command_line;
mod players;

pub use command_line::Model;

impl puzzle::Dialect {
    /// Whether `clue`, read in this dialect, matches the whole of `line`: the verdict of
    /// the reference matcher that re-checks every solution crossat prints (a port of
    /// CPython's `_sre`, or of an ECMAScript backtracking engine), run for at most
    /// `steps` steps. `None` when the steps run out first; an error when the dialect
    /// refuses the clue.
    ///
    /// ```
    /// use crossat::puzzle::Dialect;
    /// assert_eq!(Dialect::Python.fullmatch("(a|b)*c", "abac", 10_000), Ok(Some(true)));
    /// assert_eq!(Dialect::Ecmascript.fullmatch("(?<=a)b", "b", 10_000), Ok(Some(false)));
    /// assert_eq!(Dialect::Python.fullmatch("(a*)*b", &"a".repeat(30), 1_000), Ok(None));
    /// assert!(Dialect::Python.fullmatch("a(", "a", 10_000).is_err());
    /// ```
    pub fn fullmatch(self, clue: &str, line: &str, steps: u64) -> std::result::Result<Option<bool>, crate::error::ClueErrorKind> {
        let tree = crate::dialect::parse(self, clue).map_err(crate::compile::parse_error)?;
        let matcher = crate::dialect::Matcher::new(&tree).map_err(|message| crate::error::ClueErrorKind::Syntax {
            message,
            position: None,
            exception: None,
        })?;
        let line: Vec<char> = line.chars().collect();
        Ok(matcher.with_budget(steps).fullmatch(&line).ok())
    }
}

/// A puzzle read, compiled and encoded: ready to solve, check or export.
///
/// The facade over the stages: every front end (the command line, the page, Python)
/// reads, solves, counts, checks, explains and exports through it.
#[derive(Clone)]
pub struct Puzzle {
    prep: pipeline::Prepared,
    /// [`Puzzle::status`]'s verdicts on slow lines, kept between calls: a pure memo of
    /// this puzzle's answers, which no call can change.
    status_cache: assist::status::Cache,
}

/// A solution: the grid, re-checked by the independent matcher.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The display rows, top to bottom (for a hexagon, its rows of cells).
    pub rows: Vec<String>,
    /// The grid as the stages see it: one character per cell, and for a regex pool
    /// the regex of each entry.
    pub grid: Grid,
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
        Puzzle::from_input(&puzzle::Input { source: source.to_string(), bytes: bytes.to_vec(), ..Default::default() })
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
        let pool = puzzle::pool_beside(path).map(|txt| limits::read_input(&txt, limits)).transpose()?;
        Puzzle::from_input(&puzzle::Input { source, bytes, pool, ..Default::default() })
    }

    /// Reads a puzzle with every option of the command line: a forced format, a puzzle
    /// of a collection, an alphabet, givens, a regex pool.
    pub fn from_input(input: &puzzle::Input) -> Result<Puzzle> {
        Ok(Puzzle { prep: pipeline::prepare(input)?, status_cache: Default::default() })
    }

    /// A puzzle already parsed (one of a collection, say), compiled and encoded over
    /// `alphabet` (`None`: the one its clues and givens name); `source` names it in
    /// errors, and the work polls `cancel` (as every later call on it does, until
    /// [`Puzzle::set_cancel`]).
    pub fn from_parsed(source: &str, puzzle: puzzle::Puzzle, alphabet: Option<&[char]>, cancel: &stop::Cancel) -> Result<Puzzle> {
        let prep = pipeline::prepare_puzzle_cancellable(source, puzzle, alphabet, stats::Times::default(), cancel)?;
        Ok(Puzzle { prep, status_cache: Default::default() })
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
    /// `pipeline::count`): an integer of any size.
    ///
    /// ```
    /// // Three free cells over A and B; column 2 starts with an A.
    /// let text = r#"{"left": ["[AB]*", "[AB]*"], "top": ["[AB]*", "A."]}"#;
    /// let mut puzzle = crossat::Puzzle::read("eight.json", text.as_bytes())?;
    /// assert_eq!(puzzle.count()?.to_string(), "8");
    /// # Ok::<(), crossat::Error>(())
    /// ```
    pub fn count(&mut self) -> Result<Big> {
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
    /// with [`ClueErrorKind::Inexact`](crate::error::ClueErrorKind::Inexact) when a clue's formula is only an
    /// over-approximation (the solver handles those clues, an export cannot).
    pub fn to_dimacs(&self) -> Result<String> {
        self.require_exact("a DIMACS export")?;
        self.dimacs_text(&self.prep.formula()?.cnf)
    }

    /// `cnf` (this puzzle's formula, perhaps with clauses added) in DIMACS, with the
    /// comments that map its variables to cells.
    fn dimacs_text(&self, cnf: &encode::Cnf) -> Result<String> {
        let mut out = Vec::new();
        dimacs::write(&mut out, &self.prep.puzzle, self.prep.alphabet(), cnf, &self.prep.formula()?.vars)
            .map_err(|e| Error::output("DIMACS", e.to_string()))?;
        String::from_utf8(out).map_err(|e| Error::Internal(format!("DIMACS output is not UTF-8: {e}")))
    }
}
