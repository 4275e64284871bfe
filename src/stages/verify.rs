//! The **verify** stage: a [`Grid`] re-checked against every clue by an independent
//! matcher before anything is printed. It needs nothing that compile and encode make,
//! so it comes right after the matcher in the module order, and every strategy of
//! [`crate::solve`] checks its grids with it (decoding a model is the solve stage's).
//!
//! The matcher is the reference matcher of the puzzle's dialect (`crate::dialect`):
//! for Python `crate::sre`, a port of CPython 3.11's `_sre` backtracking engine, run
//! as `re.fullmatch` on the clue's own parse tree; for ECMAScript
//! [`crate::ecma::Matcher`], which follows ECMA-262's matcher. It shares no code with
//! the compile → encode path beyond the parser and the character tables (checked
//! against Python and node themselves), so a bug there shows up as a failed verification rather
//! than as a wrong answer: an internal error (exit 3) for a clue whose encoding is
//! exact, or a blocked line string for a clue on the counterexample route
//! (`Route::Guarded`).

use crate::dialect::{Matcher, Tree};
use crate::error::{ClueError, ClueErrorKind, Error, Result};
use crate::puzzle::{Puzzle, Shape};

/// A filled grid: one character per cell, in cell order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    /// The characters.
    pub cells: Vec<char>,
    /// For a regex pool, the regex (index into the pool) of each entry.
    pub assignment: Vec<usize>,
}

impl Grid {
    /// The display rows as strings, top to bottom.
    pub(crate) fn rows(&self, shape: &Shape) -> Vec<String> {
        shape.display_rows().iter().map(|r| r.iter().map(|&c| self.cells[c]).collect()).collect()
    }

    /// The characters of a list of cells.
    pub(crate) fn word(&self, cells: &[usize]) -> String {
        cells.iter().map(|&c| self.cells[c]).collect()
    }
}

/// A clue or pool regex that a grid's line does not match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Failure {
    /// Clue `clue` (index into `Puzzle::clues`) does not match `word`.
    Clue {
        /// The clue.
        clue: usize,
        /// The line's text.
        word: String,
    },
    /// Pool regex `regex` does not match entry `entry`, which holds `word`.
    Pool {
        /// The entry.
        entry: usize,
        /// The regex.
        regex: usize,
        /// The entry's text.
        word: String,
    },
}

/// The reference matcher for every clue of a puzzle (and every pool regex).
#[derive(Clone)]
pub struct Verifier {
    regexes: Vec<(String, String, Matcher)>,
    pool: Vec<(String, String, Matcher)>,
    source: String,
}

impl Verifier {
    /// Builds the matchers from trees already parsed (every clue, then every pool
    /// regex, as [`crate::compile::parse_clues`] returns them), so a clue is parsed once.
    pub(crate) fn from_parsed(source: &str, puzzle: &Puzzle, parsed: &[Tree]) -> Result<Verifier> {
        let labels = puzzle.clues.iter().map(|c| (c.label.clone(), c.regex.clone())).chain(
            puzzle.pool.iter().flat_map(|p| p.regexes.iter().enumerate()).map(|(r, x)| (format!("pool regex {}", r + 1), x.clone())),
        );
        let mut all = labels.zip(parsed).map(|((label, regex), tree)| match Matcher::new(tree) {
            Ok(m) => Ok((label, regex, m)),
            Err(e) => Err(Error::from(ClueError {
                source: source.to_string(),
                clue: label,
                regex,
                kind: ClueErrorKind::Syntax { message: e, position: None, exception: None },
            })),
        });
        let regexes = all.by_ref().take(puzzle.clues.len()).collect::<Result<_>>()?;
        let pool = all.collect::<Result<_>>()?;
        Ok(Verifier { regexes, pool, source: source.to_string() })
    }

    fn run(&self, m: &(String, String, Matcher), word: &str) -> Result<bool> {
        let text: Vec<char> = word.chars().collect();
        m.2.fullmatch(&text).map_err(|e| {
            Error::from(ClueError {
                source: self.source.clone(),
                clue: m.0.clone(),
                regex: m.1.clone(),
                kind: ClueErrorKind::Check(format!("{e} while checking the line \"{word}\"; no verdict was reached")),
            })
        })
    }

    /// Whether clue `i` fully matches `word`; an error when the matcher's step limit is
    /// hit (never read as "does not match").
    pub fn clue_matches(&self, i: usize, word: &str) -> Result<bool> {
        self.run(&self.regexes[i], word)
    }

    /// Whether pool regex `r` fully matches `word`.
    pub(crate) fn pool_matches(&self, r: usize, word: &str) -> Result<bool> {
        self.run(&self.pool[r], word)
    }

    /// Whether regex `key` fully matches `word`, numbering the clues, then the pool's
    /// regexes (as the compile stage numbers them).
    pub(crate) fn regex_matches(&self, key: usize, word: &str) -> Result<bool> {
        match key.checked_sub(self.regexes.len()) {
            None => self.clue_matches(key, word),
            Some(r) => self.pool_matches(r, word),
        }
    }

    /// The first clue the grid violates, with the line's text, if any.
    pub(crate) fn first_failure(&self, puzzle: &Puzzle, grid: &Grid) -> Result<Option<(usize, String)>> {
        for (i, c) in puzzle.clues.iter().enumerate() {
            let word = grid.word(&c.cells);
            if !self.clue_matches(i, &word)? {
                return Ok(Some((i, word)));
            }
        }
        Ok(None)
    }

    /// Every clue and pool entry the grid violates.
    pub(crate) fn failures(&self, puzzle: &Puzzle, grid: &Grid) -> Result<Vec<Failure>> {
        let mut out = Vec::new();
        for (i, c) in puzzle.clues.iter().enumerate() {
            let word = grid.word(&c.cells);
            if !self.clue_matches(i, &word)? {
                out.push(Failure::Clue { clue: i, word });
            }
        }
        if let Some(pool) = &puzzle.pool {
            for (e, &r) in grid.assignment.iter().enumerate() {
                let word = grid.word(&pool.entries[e]);
                if !self.pool_matches(r, &word)? {
                    out.push(Failure::Pool { entry: e, regex: r, word });
                }
            }
        }
        Ok(out)
    }

    /// Checks a grid the solver produced; a failure is a bug in crossat.
    pub(crate) fn check(&self, puzzle: &Puzzle, grid: &Grid) -> Result<()> {
        if let Some(pool) = &puzzle.pool {
            let mut used = vec![false; pool.regexes.len()];
            if grid.assignment.len() != pool.entries.len() {
                return Err(Error::Internal("solution does not assign a regex to every entry".into()));
            }
            for &r in &grid.assignment {
                if std::mem::replace(&mut used[r], true) {
                    return Err(Error::Internal(format!("solution uses pool regex '{}' twice", pool.regexes[r])));
                }
            }
        }
        match self.failures(puzzle, grid)?.first() {
            None => Ok(()),
            Some(Failure::Clue { clue, word }) => Err(Error::Internal(format!(
                "solution failed verification: {} clue '{}' does not match \"{word}\"",
                puzzle.clues[*clue].label, puzzle.clues[*clue].regex
            ))),
            Some(Failure::Pool { entry, regex, word }) => Err(Error::Internal(format!(
                "solution failed verification: entry {} regex '{}' does not match \"{word}\"",
                puzzle.pool.as_ref().map_or(String::new(), |p| p.labels[*entry].clone()),
                puzzle.pool.as_ref().map_or(String::new(), |p| p.regexes[*regex].clone())
            ))),
        }
    }
}
