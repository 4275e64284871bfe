//! Stage 5, **decode/verify**: a model's cells → a [`Grid`], re-checked against every
//! clue by an independent matcher before anything is printed.
//!
//! The matcher is fancy-regex (a backtracking engine with its own parser), run on the
//! clue text as written, anchored as `\A(?:…)\z`. It shares no code with the
//! parse → compile → encode path, so a bug there shows up as a failed verification
//! (reported as an internal error, exit 3) rather than as a wrong answer.

use crate::error::{Error, Result};
use crate::puzzle::{Puzzle, Shape};

/// A filled grid: one character per cell, in cell order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    /// The characters.
    pub cells: Vec<char>,
}

impl Grid {
    /// The display rows as strings, top to bottom.
    pub fn rows(&self, shape: &Shape) -> Vec<String> {
        shape
            .display_rows()
            .iter()
            .map(|r| r.iter().map(|&c| self.cells[c]).collect())
            .collect()
    }

    /// The characters of a list of cells.
    pub fn word(&self, cells: &[usize]) -> String {
        cells.iter().map(|&c| self.cells[c]).collect()
    }
}

/// Backtracking budget of the independent matcher, per clue and line.
const BACKTRACK_LIMIT: usize = 10_000_000;

/// The independent matcher for every clue of a puzzle.
pub struct Verifier {
    regexes: Vec<fancy_regex::Regex>,
}

impl Verifier {
    /// Compiles every clue with fancy-regex; fails if it cannot read one.
    pub fn new(source: &str, puzzle: &Puzzle) -> Result<Verifier> {
        let regexes = puzzle
            .clues
            .iter()
            .map(|c| {
                fancy_regex::RegexBuilder::new(&format!("\\A(?:{})\\z", c.regex))
                    .backtrack_limit(BACKTRACK_LIMIT)
                    .build()
                    .map_err(|e| Error::Clue {
                        source: source.to_string(),
                        clue: c.label.clone(),
                        regex: c.regex.clone(),
                        msg: format!("the independent checker (fancy-regex) cannot read this clue, so no solution could be verified: {e}"),
                    })
            })
            .collect::<Result<_>>()?;
        Ok(Verifier { regexes })
    }

    /// The first clue the grid violates, with the line's text, if any.
    pub fn first_failure(&self, puzzle: &Puzzle, grid: &Grid) -> Option<(usize, String)> {
        puzzle.clues.iter().enumerate().find_map(|(i, c)| {
            let word = grid.word(&c.cells);
            (!self.regexes[i].is_match(&word).unwrap_or(false)).then_some((i, word))
        })
    }

    /// Checks a grid the solver produced; a failure is a bug in crossat.
    pub fn check(&self, puzzle: &Puzzle, grid: &Grid) -> Result<()> {
        match self.first_failure(puzzle, grid) {
            None => Ok(()),
            Some((i, word)) => Err(Error::Internal(format!(
                "solution failed verification: {} clue '{}' does not match \"{word}\"",
                puzzle.clues[i].label, puzzle.clues[i].regex
            ))),
        }
    }
}

/// Turns symbol indices into a grid.
pub fn decode(alphabet: &crate::compile::Alphabet, symbols: &[usize]) -> Grid {
    Grid {
        cells: symbols.iter().map(|&a| alphabet.chars()[a]).collect(),
    }
}
