//! A piece of a line between two cuts, for the counting search: the constraint "the
//! clue's automaton, started in state `from` before the piece's first cell, reads the
//! piece's cells into state `to` (or into an accepting state)".
//!
//! The automata are deterministic, so a word of the whole line has exactly one run:
//! fixing the state after position `p` splits the line into two segments, and the
//! words of the line are the disjoint union, over the states `q` its runs can be in
//! there, of (prefix from the start to `q`) × (suffix from `q` to acceptance). The
//! counting search branches on such a cut as it branches on a cell's letters; the two
//! halves then fall into different components as soon as the cells between them do.

use crate::compile::automaton::{Automaton, DEAD};
use crate::propagate::SymSet;

/// `to` of a segment that ends the line: any accepting state.
pub(crate) const ACCEPT: u32 = u32::MAX - 1;

/// Positions `lo..hi` of clue `clue`'s line, read from state `from` into `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Segment {
    /// The clue.
    pub clue: u32,
    /// First position (into the clue's cells).
    pub lo: u32,
    /// One past the last position.
    pub hi: u32,
    /// State before position `lo`.
    pub from: u32,
    /// State after position `hi - 1`, or [`ACCEPT`].
    pub to: u32,
}

impl Segment {
    /// The whole line of clue `clue` (of `len` cells) from the automaton's start.
    pub(crate) fn whole(clue: usize, len: usize, a: &Automaton) -> Segment {
        Segment { clue: clue as u32, lo: 0, hi: len as u32, from: a.start, to: ACCEPT }
    }

    /// Whether this is a whole line read from the start to acceptance.
    pub(crate) fn is_whole(&self, len: usize, a: &Automaton) -> bool {
        self.lo == 0 && self.hi as usize == len && self.from == a.start && self.to == ACCEPT
    }

    /// The segment's cells, among its clue's `cells`.
    pub(crate) fn cells<'c>(&self, cells: &'c [usize]) -> &'c [usize] {
        &cells[self.lo as usize..self.hi as usize]
    }
}

fn ends(a: &Automaton, to: u32, s: u32) -> bool {
    s != DEAD && if to == ACCEPT { a.accept[s as usize] } else { s == to }
}

/// Live states per layer `0..=n` of a segment over `line` (a domain per cell): states
/// reachable from `from` that can still end in `to`. Some layer is empty when the
/// segment has no word.
pub(crate) fn live(a: &Automaton, line: &[SymSet], from: u32, to: u32) -> Vec<Vec<u32>> {
    crate::propagate::layers::live_between(a, line, from, |s| ends(a, to, s))
}

/// How many words of `line` the segment accepts; `None` past `u128`.
pub(crate) fn words(a: &Automaton, line: &[SymSet], from: u32, to: u32) -> Option<u128> {
    let count = crate::propagate::layers::runs_from(a, line, from)?;
    count.iter().enumerate().filter(|&(s, _)| ends(a, to, s as u32)).try_fold(0u128, |sum, (_, &k)| sum.checked_add(k))
}
