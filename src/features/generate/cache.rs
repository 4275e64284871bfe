//! The compile cache: a generator checks thousands of candidate puzzles that differ in
//! a clue or two, so each clue is compiled once per (regex, line length, alphabet) and
//! kept with whether it is fair ([`super::fair`]).

use super::fair::clue_is_fair;
use crate::compile::{self, Alphabet, CompiledClue};
use crate::dialect::Tree;
use crate::error::{Error, Result};
use crate::puzzle::{Clue, Puzzle, Shape};
use std::collections::HashMap;

/// Compiled clues by (regex, line length, alphabet), each with whether it is fair.
#[derive(Default)]
pub(super) struct Cache {
    clues: HashMap<(String, usize, String), (CompiledClue, bool)>,
}

impl Cache {
    /// The clue `re` (labelled `label`, parsed as `parsed`) compiled for a line of `len`
    /// cells over `alphabet`, and whether it is fair; compiled on first use.
    pub(super) fn clue(
        &mut self,
        src: &str,
        label: &str,
        re: &str,
        len: usize,
        parsed: &Tree,
        alphabet: &Alphabet,
    ) -> Result<&(CompiledClue, bool)> {
        let key = (re.to_string(), len, alphabet.chars().iter().collect::<String>());
        if !self.clues.contains_key(&key) {
            // The clue alone on a free line of its length, over the puzzle's alphabet.
            let one = Puzzle {
                name: None,
                shape: Shape::Free { cells: len, coords: None },
                clues: vec![Clue { label: label.to_string(), regex: re.to_string(), cells: (0..len).collect() }],
                alphabet: Some(alphabet.chars().to_vec()),
                givens: vec![None; len],
                pool: None,
                dialect: crate::puzzle::Dialect::Python,
            };
            let c = compile::compile(
                src,
                &one,
                std::slice::from_ref(parsed),
                Alphabet::new(alphabet.chars().iter().copied()).map_err(Error::Internal)?,
            )?;
            let cc = c.clues.into_iter().next().ok_or_else(|| Error::Internal("no compiled clue".into()))?;
            let fair = clue_is_fair(&cc, alphabet.len(), len);
            let _ = self.clues.insert(key.clone(), (cc, fair));
        }
        Ok(&self.clues[&key])
    }
}
