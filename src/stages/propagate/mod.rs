//! The **propagate** stage: cell domains narrowed by line propagation, before (and
//! often instead of) a formula.
//!
//! Each cell starts with the whole alphabet or its given (`initial_domains`). Every
//! clue's automaton is unrolled over its cells; a letter stays in a cell's domain only
//! if some run of every clue through that cell can use it. Repeated to a fixpoint
//! (`domains`), this is arc consistency on each line, done once before the solver
//! starts; the line search, the rater and `hint` run the same `Propagator` from their
//! own domains.
//!
//! - `symset`: `SymSet`, the letters a cell may hold;
//! - `engine`: `Propagator`, the fixpoint over a puzzle's constraints, and its
//!   `Scratch` buffers and trail;
//! - `layers`: the support of one line over an automaton's layers;
//! - `support`: a clue's support by its route (plain layers, or tagged);
//! - `table`: a line's words as bit sets, for lines with few words;
//! - `skeleton_support`: the support of a tagged clue through its skeleton's cells and marker
//!   slots;
//! - `early`: the same propagation over the clues' position automata, before
//!   anything is compiled.

pub(crate) mod early;
pub(crate) mod engine;
pub(crate) mod layers;
pub(crate) mod skeleton_support;
pub(crate) mod support;
pub(crate) mod symset;
pub(crate) mod table;

pub(crate) use engine::Propagator;
pub(crate) use engine::Scratch;
pub(crate) use engine::Wipeout;
pub(crate) use layers::line_count;
pub(crate) use layers::live_layers;
pub(crate) use layers::supported;
pub(crate) use support::{LineSupport, line_support};
pub(crate) use symset::SymSet;
pub(crate) use table::MAX_TABLE_WORDS;

use crate::compile::Compiled;
use crate::puzzle::Puzzle;

/// Computes cell domains: givens, then every clue's supported letters, to a fixpoint.
/// Returns `None` when some cell has no letter left (the puzzle has no solution).
pub(crate) fn domains(puzzle: &Puzzle, compiled: &Compiled) -> Option<Vec<SymSet>> {
    domains_with(puzzle, compiled, |_, _, _| None)
}

/// `domains`, where `refine(i, line, support)` may narrow the support that clue `i`'s
/// automaton finds over `line` (the cells' current domains), e.g. by testing each
/// word the support allows with an exact matcher. It must keep every letter that some
/// matching word of the line uses, so that no solution is lost.
pub(crate) fn domains_with(
    puzzle: &Puzzle,
    compiled: &Compiled,
    refine: impl FnMut(usize, &[SymSet], &[SymSet]) -> Option<Vec<SymSet>>,
) -> Option<Vec<SymSet>> {
    domains_from(puzzle, compiled, initial_domains(puzzle, compiled), refine)
}

/// [`domains_with`] from `doms` (which must keep every letter a solution uses).
pub(crate) fn domains_from(
    puzzle: &Puzzle,
    compiled: &Compiled,
    mut doms: Vec<SymSet>,
    refine: impl FnMut(usize, &[SymSet], &[SymSet]) -> Option<Vec<SymSet>>,
) -> Option<Vec<SymSet>> {
    let lines = Propagator::new(puzzle);
    let all: Vec<usize> = (0..lines.lines.len()).collect();
    if lines.narrow(compiled, &mut doms, &all, refine).is_err() || doms.iter().any(SymSet::is_empty) {
        return None;
    }
    Some(doms)
}

/// Domains before propagation: the given letter, or the whole alphabet (a given
/// outside the alphabet leaves the cell empty).
pub(crate) fn initial_domains(puzzle: &Puzzle, compiled: &Compiled) -> Vec<SymSet> {
    initial_domains_over(puzzle, &compiled.alphabet)
}

/// [`initial_domains`] over `alphabet`.
pub(crate) fn initial_domains_over(puzzle: &Puzzle, alphabet: &crate::compile::Alphabet) -> Vec<SymSet> {
    let n = alphabet.len();
    puzzle
        .givens
        .iter()
        .map(|g| match g {
            None => SymSet::full(n),
            Some(c) => {
                let mut s = SymSet::default();
                if let Some(a) = alphabet.index(*c) {
                    s.insert(a);
                }
                s
            }
        })
        .collect()
}
