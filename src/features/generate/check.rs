//! Checking candidate clues: every clue fair, and the puzzle's solutions (up to two),
//! found with the same compiler, encoder and solver as `crossat solve` ([`Checker`]).

use super::cache::Cache;
use super::{Spec, assemble};
use crate::compile::{self, Compiled};
use crate::deduce::rate::rate;
use crate::error::Result;
use crate::pipeline;
use crate::records::Rating;
use crate::solve;

/// What a check of the clues found.
pub(super) enum Found {
    /// Clues (line, side) that break the rules under the puzzle's alphabet.
    Unfair(Vec<(usize, usize)>),
    /// The solutions (up to two), with the compiled puzzle.
    Solutions(Vec<Vec<char>>, Compiled),
}

/// Checks candidate puzzles with the encoder and solver of `crossat solve`, compiling
/// each clue once ([`Cache`]).
#[derive(Default)]
pub(super) struct Checker {
    cache: Cache,
    /// Checks made.
    pub(super) checks: usize,
    /// Polled at each check and before each SAT call.
    pub(super) cancel: crate::stop::Cancel,
}

impl Checker {
    /// The rating of the puzzle the clues make, when its only solution is `solution`.
    pub(super) fn rating_if_unique(
        &mut self,
        spec: &Spec,
        lines: &[(String, Vec<usize>)],
        clues: &[Vec<String>],
        solution: &[char],
    ) -> Result<Option<Rating>> {
        match self.check(spec, lines, clues)? {
            Found::Solutions(sols, c) if sols == [solution] => Ok(Some(rate(&assemble(spec, lines, clues), &c).knowing(Some(1)))),
            _ => Ok(None),
        }
    }

    /// Whether every clue is fair, and if so the puzzle's solutions (up to two).
    pub(super) fn check(&mut self, spec: &Spec, lines: &[(String, Vec<usize>)], clues: &[Vec<String>]) -> Result<Found> {
        self.checks += 1;
        self.cancel.check()?;
        let puzzle = assemble(spec, lines, clues);
        let src = "<generated>";
        let parsed = compile::parse_clues(src, &puzzle)?;
        let Ok(alphabet) = compile::choose_alphabet(src, &puzzle, &parsed, None) else {
            // No clue mentions a letter (all `.`): every clue is to be redrawn.
            return Ok(Found::Unfair((0..clues.len()).flat_map(|l| (0..clues[l].len()).map(move |k| (l, k))).collect()));
        };
        let mut compiled_clues = Vec::new();
        let mut unfair = Vec::new();
        let mut k = 0;
        for (l, list) in clues.iter().enumerate() {
            for (side, re) in list.iter().enumerate() {
                let (cc, fair) = self.cache.clue(src, &puzzle.clues[k].label, re, lines[l].1.len(), &parsed[k], &alphabet)?;
                if !fair {
                    unfair.push((l, side));
                }
                compiled_clues.push(cc.clone());
                k += 1;
            }
        }
        if !unfair.is_empty() {
            return Ok(Found::Unfair(unfair));
        }
        let compiled = Compiled { alphabet, clues: compiled_clues, pool: vec![] };
        let (cnf, vars) = pipeline::encode_puzzle(&puzzle, &compiled, true)?;
        let mut grids = Vec::new();
        let chars = compiled.alphabet.chars().to_vec();
        let _ = solve::enumerate_cancellable(&cnf, &vars, Some(2), &self.cancel, |f| {
            grids.push(f.cells.iter().map(|&a| chars[a]).collect());
            Ok(solve::Verdict::Accept)
        })?;
        Ok(Found::Solutions(grids, compiled))
    }
}
