//! `Table`: the words a line can take, listed once and kept as bit sets per position
//! and letter, so that revising the line under narrower domains costs a few bit
//! operations per letter (the compact-table propagators of constraint solvers), for
//! lines of at most [`MAX_TABLE_WORDS`] words.

use super::{SymSet, line_count, live_layers};
use crate::compile::{Automaton, DEAD};

/// The words a line can take, as bit sets: `masks[(p * sigma + x) * blocks ..][..blocks]`
/// has bit `w` set when word `w` has letter `x` at position `p` (the idea of the
/// compact-table propagators of constraint solvers).
#[derive(Clone, Debug)]
pub(super) struct Table {
    sigma: usize,
    blocks: usize,
    masks: Vec<u64>,
    /// The bits of existing words, per block.
    all: Vec<u64>,
}

/// Most words of one line that [`Scratch::tabulate`](super::Scratch::tabulate) lists.
pub(crate) const MAX_TABLE_WORDS: usize = 64 * Table::MAX_BLOCKS;

impl Table {
    /// Most `u64`s of masks per line.
    const MAX_MASK_WORDS: usize = 1 << 16;
    /// Most blocks of 64 words.
    const MAX_BLOCKS: usize = 16;

    /// The table of the words `a` accepts over `line`, or `None` when there are more
    /// than `max_words` (or the masks would be too large).
    pub(super) fn new(a: &Automaton, sigma: usize, line: &[SymSet], max_words: usize) -> Option<Table> {
        let n = line.len();
        if line_count(a, line)? > max_words.min(MAX_TABLE_WORDS) as u128 {
            return None;
        }
        // Only through live states, so that every path walked ends in a word.
        let live = live_layers(a, line);
        let mut alive = vec![vec![false; a.states()]; n + 1];
        for (p, layer) in live.iter().enumerate() {
            for &q in layer {
                alive[p][q as usize] = true;
            }
        }
        let mut words: Vec<Vec<usize>> = Vec::new();
        if a.start != DEAD && alive[0][a.start as usize] {
            collect_words(a, line, &alive, a.start, &mut Vec::with_capacity(n), &mut words);
        }
        let blocks = words.len().div_ceil(64).max(1);
        if n * sigma * blocks > Self::MAX_MASK_WORDS {
            return None;
        }
        let mut masks = vec![0u64; n * sigma * blocks];
        let mut all = vec![0u64; blocks];
        for (w, word) in words.iter().enumerate() {
            all[w / 64] |= 1 << (w % 64);
            for (p, &x) in word.iter().enumerate() {
                masks[(p * sigma + x) * blocks + w / 64] |= 1 << (w % 64);
            }
        }
        Some(Table { sigma, blocks, masks, all })
    }

    fn mask(&self, p: usize, x: usize) -> &[u64] {
        let at = (p * self.sigma + x) * self.blocks;
        &self.masks[at..at + self.blocks]
    }

    /// Letters of each position that some word still valid over `line` uses.
    pub(super) fn support(&self, line: &[SymSet], out: &mut Vec<SymSet>) {
        out.clear();
        out.resize(line.len(), SymSet::default());
        let (mut valid, mut acc) = ([0u64; Self::MAX_BLOCKS], [0u64; Self::MAX_BLOCKS]);
        let (valid, acc) = (&mut valid[..self.blocks], &mut acc[..self.blocks]);
        valid.copy_from_slice(&self.all);
        for (p, dom) in line.iter().enumerate() {
            acc.iter_mut().for_each(|a| *a = 0);
            for x in dom.iter() {
                for (a, m) in acc.iter_mut().zip(self.mask(p, x)) {
                    *a |= m;
                }
            }
            for (v, a) in valid.iter_mut().zip(acc.iter()) {
                *v &= a;
            }
        }
        if valid.iter().all(|&v| v == 0) {
            return;
        }
        for (p, dom) in line.iter().enumerate() {
            for x in dom.iter() {
                if self.mask(p, x).iter().zip(valid.iter()).any(|(m, v)| m & v != 0) {
                    out[p].insert(x);
                }
            }
        }
    }
}

/// Every word `a` accepts from state `s` over the rest of `line`, through the states
/// `alive[p]` marks live at each layer `p`, appended to `out`.
fn collect_words(a: &Automaton, line: &[SymSet], alive: &[Vec<bool>], s: u32, word: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
    let p = word.len();
    if p == line.len() {
        out.push(word.clone());
        return;
    }
    for x in line[p].iter() {
        let t = a.step(s, x);
        if t != DEAD && alive[p + 1][t as usize] {
            word.push(x);
            collect_words(a, line, alive, t, word, out);
            let _ = word.pop();
        }
    }
}
