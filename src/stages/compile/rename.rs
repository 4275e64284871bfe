//! Clues equal up to a renaming of the alphabet's symbols compile once.
//!
//! Setters write families of clues that differ only in their letters:
//! `player_puzzle_good_ol_days` has `(?=.*([^X])\1{4}).+` for four different `X`, each
//! a 318-state automaton over 64 symbols. When two normalised trees have the same
//! shape and some permutation `π` of the symbols maps every character set of one onto
//! the set at the same place in the other, the second clue's language is the first's
//! with every symbol `x` written `π(x)`: a back-reference compares symbols for
//! equality (the normaliser refuses case-insensitive ones that could match another
//! symbol), `^` and `$` read none, and a lookaround is the same tree again. So its
//! automaton is the first's with its columns permuted. Word boundaries read which
//! symbols are word characters, so trees with `\b` or `\B` are never renamed.

use super::{Alphabet, Automaton, CompiledClue, Route, normalise};
use crate::dialect::Tree;
use crate::regex::ast::{Assertion, CharSet, Node};
use std::collections::HashMap;

/// Most character sets a tree may have to be renamed (a clue with more, such as a
/// union of many words, is compiled on its own: comparing it costs too much).
pub(crate) const MAX_SETS: usize = 64;
/// Smallest automaton (subset states × symbols) that other clues are compared with.
pub(crate) const WORTH_CELLS: usize = 4096;
/// Most earlier clues of the same shape a clue is compared with.
pub(crate) const MAX_TRIES: usize = 4;

/// The permutation `π` (indexed by `a`'s symbols, giving `b`'s) that maps tree `a`
/// onto tree `b`, if the two have the same shape and every pair of sets at the same
/// place corresponds under `π`; `None` otherwise.
pub(crate) fn renaming(a: &Node, b: &Node, alphabet: &Alphabet) -> Option<Vec<usize>> {
    let mut sets = Vec::new();
    if !pair_sets(a, b, &mut sets) {
        return None;
    }
    // Each symbol's signature on each side: the sets it belongs to, as bits.
    let words = sets.len().div_ceil(64).max(1);
    let signatures = |side: usize| -> HashMap<Vec<u64>, Vec<usize>> {
        let mut by_sig: HashMap<Vec<u64>, Vec<usize>> = HashMap::new();
        for (x, &c) in alphabet.chars().iter().enumerate() {
            let mut sig = vec![0u64; words];
            for (k, pair) in sets.iter().enumerate() {
                let set: &CharSet = if side == 0 { pair.0 } else { pair.1 };
                if set.contains(c) {
                    sig[k / 64] |= 1 << (k % 64);
                }
            }
            by_sig.entry(sig).or_default().push(x);
        }
        by_sig
    };
    let (from, to) = (signatures(0), signatures(1));
    if from.len() != to.len() {
        return None;
    }
    // Symbols with the same signature are interchangeable on each side: pair them in
    // order.
    let mut pi = vec![0usize; alphabet.len()];
    for (sig, xs) in &from {
        let ys = to.get(sig).filter(|ys| ys.len() == xs.len())?;
        for (&x, &y) in xs.iter().zip(ys) {
            pi[x] = y;
        }
    }
    Some(pi)
}

/// Walks `a` and `b` together, collecting the sets at the same places; false if their
/// shapes differ (or a word boundary appears, or more than [`MAX_SETS`] sets).
fn pair_sets<'a>(a: &'a Node, b: &'a Node, out: &mut Vec<(&'a CharSet, &'a CharSet)>) -> bool {
    match (a, b) {
        (Node::Empty, Node::Empty) => true,
        (Node::Set(x), Node::Set(y)) => {
            out.push((x, y));
            out.len() <= MAX_SETS
        }
        (Node::Concat(x), Node::Concat(y)) | (Node::Alt(x), Node::Alt(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| pair_sets(p, q, out))
        }
        (Node::Repeat { sub: x, min: m1, max: n1 }, Node::Repeat { sub: y, min: m2, max: n2 }) => {
            m1 == m2 && n1 == n2 && pair_sets(x, y, out)
        }
        (Node::Group { index: i1, sub: x }, Node::Group { index: i2, sub: y }) => i1 == i2 && pair_sets(x, y, out),
        (Node::Backref(i), Node::Backref(j)) => i == j,
        (Node::Look { ahead: a1, negate: n1, sub: x }, Node::Look { ahead: a2, negate: n2, sub: y }) => {
            a1 == a2 && n1 == n2 && pair_sets(x, y, out)
        }
        (Node::Assert(p), Node::Assert(q)) => p == q && matches!(p, Assertion::Start | Assertion::End),
        _ => false,
    }
}

/// The regular clues with large automata compiled so far, by line length and regex
/// length, that later clues are compared with; each clue's normalised tree is built
/// once, when a comparison first needs it.
pub(crate) struct Family<'a> {
    parsed: &'a [Tree],
    alphabet: &'a Alphabet,
    by_shape: HashMap<(usize, usize), Vec<usize>>,
    trees: Vec<Option<Option<Node>>>,
}

impl<'a> Family<'a> {
    /// No clue yet, for the clues `parsed` over `alphabet`.
    pub(crate) fn new(parsed: &'a [Tree], alphabet: &'a Alphabet) -> Family<'a> {
        Family { parsed, alphabet, by_shape: HashMap::new(), trees: vec![None; parsed.len()] }
    }

    /// Clue `i` (`regex`, on a line of `len` cells) as an earlier clue of `clues`
    /// renamed, if one of the last [`MAX_TRIES`] of its shape is.
    pub(crate) fn renamed(&mut self, i: usize, len: usize, regex: &str, clues: &[CompiledClue]) -> Option<CompiledClue> {
        let earlier = self.by_shape.get(&(len, regex.chars().count()))?.clone();
        for j in earlier.into_iter().rev().take(MAX_TRIES) {
            self.normalise(j);
            self.normalise(i);
            if let (Some(Some(a)), Some(Some(b))) = (&self.trees[j], &self.trees[i])
                && let Some(pi) = renaming(a, b, self.alphabet)
            {
                return Some(permuted(&clues[j], &pi));
            }
        }
        None
    }

    /// Records clue `i`, compiled as `clue`, if later clues should be compared with it:
    /// a regular one whose construction walked at least [`WORTH_CELLS`] (the
    /// comparisons cost more than building a small automaton).
    pub(crate) fn add(&mut self, i: usize, len: usize, regex: &str, clue: &CompiledClue) {
        if clue.route == Route::Regular && clue.tagged.is_none() && clue.raw_states * self.alphabet.len() >= WORTH_CELLS {
            self.by_shape.entry((len, regex.chars().count())).or_default().push(i);
        }
    }

    fn normalise(&mut self, i: usize) {
        if self.trees[i].is_none() {
            self.trees[i] = Some(super::normalise_tree(&self.parsed[i], self.alphabet, normalise::Mode::Exact).ok());
        }
    }
}

/// `clue` (a regular one, see [`Family::add`]) with symbol `x` written `pi[x]`: its
/// automaton's columns permuted.
fn permuted(clue: &CompiledClue, pi: &[usize]) -> CompiledClue {
    let a = &clue.automaton;
    let k = a.symbols.max(1);
    let mut next = vec![0u32; a.next.len()];
    for (row, new) in a.next.chunks_exact(k).zip(next.chunks_exact_mut(k)) {
        for (x, &t) in row.iter().enumerate() {
            new[pi[x]] = t;
        }
    }
    let automaton = Automaton { symbols: a.symbols, start: a.start, accept: a.accept.clone(), next };
    CompiledClue { automaton, raw_states: clue.raw_states, tagged: None, route: Route::Regular }
}
