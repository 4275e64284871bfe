//! The dictionary as automata: per line length, a layered DAWG over two-letter tokens
//! (the SAT encoding walks its layers), and a flat view of the same automaton with
//! per-state completion counts (the search steps through it cell by cell).

use super::{LETTERS, MAX_SIDE, Size, filled_range, fits};
use crate::puzzle::Dictionary;
use std::collections::HashMap;

/// A DAWG state: whether it accepts, and its edges (pair, index in the next layer).
pub(super) type State = (bool, Vec<(u16, u32)>);

/// The words of one line length as a DAWG over pair tokens, split into depth layers.
#[derive(Debug)]
pub(crate) struct LineWords {
    /// Cells in the line.
    pub cells: usize,
    /// Words that fit (lengths `2k` for `k` in `filled_range`), for the tests.
    #[cfg(test)]
    pub words: usize,
    /// `layers[j]`: the states after `j` pairs: (accepts here, edges (pair, index in
    /// layer `j + 1`)).
    pub(super) layers: Vec<Vec<State>>,
    /// The same automaton, flat, for the search.
    pub(super) flat: Flat,
}

impl LineWords {
    /// Whether the DAWG accepts `word` (for tests).
    #[cfg(test)]
    pub(crate) fn accepts(&self, word: &str) -> bool {
        let mut q = 0u32;
        for (j, p) in word.as_bytes().chunks(2).enumerate() {
            let (Some(layer), [a, b]) = (self.layers.get(j), p) else { return false };
            let tok = u16::from(a - b'a') * LETTERS as u16 + u16::from(b - b'a');
            match layer.get(q as usize).and_then(|s| s.1.iter().find(|e| e.0 == tok)) {
                Some(&(_, t)) => q = t,
                None => return false,
            }
        }
        word.len().is_multiple_of(2) && self.layers.get(word.len() / 2).and_then(|l| l.get(q as usize)).is_some_and(|s| s.0)
    }
}

/// The compiled dictionary for one grid size.
#[derive(Debug)]
pub(crate) struct Lexicon {
    /// Per distinct line length (width, then height if different).
    pub lines: Vec<LineWords>,
}

impl Lexicon {
    /// Compiles the words that can fill a line of the grid.
    pub(crate) fn new(dict: &Dictionary, size: Size) -> Lexicon {
        let mut ns = vec![size.width];
        if size.height != size.width {
            ns.push(size.height);
        }
        Lexicon { lines: ns.into_iter().map(|n| line_words(dict, n)).collect() }
    }

    pub(super) fn get(&self, n: usize) -> &LineWords {
        self.lines.iter().find(|l| l.cells == n).unwrap_or(&self.lines[0])
    }
}

fn line_words(dict: &Dictionary, n: usize) -> LineWords {
    let range = filled_range(n);
    let words: Vec<Vec<u16>> = dict
        .words
        .iter()
        .filter(|w| fits(w, n))
        .map(|w| w.as_bytes().chunks(2).map(|p| u16::from(p[0] - b'a') * LETTERS as u16 + u16::from(p[1] - b'a')).collect())
        .collect();
    let mut layers = layered_dawg(&words);
    layers.resize(range.end() + 1, vec![]);
    let flat = Flat::new(&layers);
    LineWords {
        cells: n,
        #[cfg(test)]
        words: words.len(),
        layers,
        flat,
    }
}

/// The minimal layered automaton of `words` (sorted): a trie, then states merged
/// bottom-up when they have the same depth, finality and edges.
fn layered_dawg(words: &[Vec<u16>]) -> Vec<Vec<State>> {
    let mut edges: Vec<Vec<(u16, u32)>> = vec![vec![]];
    let mut fin = vec![false];
    let mut depth = vec![0usize];
    for w in words {
        let mut s = 0usize;
        for &t in w {
            s = match edges[s].iter().find(|e| e.0 == t) {
                Some(&(_, n)) => n as usize,
                None => {
                    edges.push(vec![]);
                    fin.push(false);
                    depth.push(depth[s] + 1);
                    let n = edges.len() - 1;
                    edges[s].push((t, n as u32));
                    n
                }
            };
        }
        fin[s] = true;
    }
    // Children have larger indices than parents, so a reverse sweep sees children first.
    let max_depth = depth.iter().copied().max().unwrap_or(0);
    let mut layers: Vec<Vec<State>> = vec![vec![]; max_depth + 1];
    let mut sigs: Vec<HashMap<State, u32>> = vec![HashMap::new(); max_depth + 1];
    let mut class = vec![0u32; edges.len()];
    for n in (0..edges.len()).rev() {
        let mut sig: Vec<(u16, u32)> = edges[n].iter().map(|&(t, c)| (t, class[c as usize])).collect();
        sig.sort_unstable();
        let d = depth[n];
        let k = sigs[d].len() as u32;
        class[n] = *sigs[d].entry((fin[n], sig.clone())).or_insert_with(|| {
            layers[d].push((fin[n], sig));
            k
        });
    }
    layers
}

/// A state of the flat automaton: its index over all layers (layer 0 first).
pub(crate) type StateId = u32;

/// The layered DAWG with states numbered over all layers, edges in one array sorted by
/// pair within a state, and per state the number of words that complete from it at
/// each total length (so a line that must end within its remaining cells can be
/// checked and weighed at once).
#[derive(Debug, Default)]
pub(crate) struct Flat {
    /// Per state, its first edge; one more entry closes the last state.
    first: Vec<u32>,
    /// Per edge, its pair.
    pair: Vec<u16>,
    /// Per edge, its target state.
    to: Vec<StateId>,
    /// Per state, bit `k`: some word of `k` pairs completes from it.
    ends: Vec<u16>,
    /// Per state, per total length `k` in pairs: how many words complete from it.
    counts: Vec<[f32; MAX_SIDE]>,
    /// Per state, the pairs on its edges as a bitset of [`LABEL_WORDS`] words.
    labels: Vec<u64>,
    /// Per state, the fewest more pairs that end a word from it ([`u8::MAX`] when no
    /// word does).
    need: Vec<u8>,
}

/// Words of a state's label bitset (one bit per pair).
pub(crate) const LABEL_WORDS: usize = super::PAIRS.div_ceil(64);

impl Flat {
    fn new(layers: &[Vec<State>]) -> Flat {
        let mut base = vec![0u32; layers.len() + 1];
        for (j, l) in layers.iter().enumerate() {
            base[j + 1] = base[j] + l.len() as u32;
        }
        let mut f = Flat::default();
        for (j, layer) in layers.iter().enumerate() {
            for (_, edges) in layer {
                f.first.push(f.pair.len() as u32);
                let mut es = edges.clone();
                es.sort_unstable();
                let at = f.labels.len();
                f.labels.resize(at + LABEL_WORDS, 0);
                for (p, t) in es {
                    f.labels[at + usize::from(p) / 64] |= 1 << (p % 64);
                    f.pair.push(p);
                    f.to.push(base[j + 1] + t);
                }
            }
        }
        f.first.push(f.pair.len() as u32);
        let states = f.first.len() - 1;
        f.ends = vec![0; states];
        f.counts = vec![[0.0; MAX_SIDE]; states];
        // Targets are in deeper layers, so a reverse sweep sees them first.
        for (j, layer) in layers.iter().enumerate().rev() {
            for (i, &(accepts, _)) in layer.iter().enumerate() {
                let q = (base[j] + i as u32) as usize;
                let (mut ends, mut counts) = (0u16, [0f32; MAX_SIDE]);
                if accepts && j < MAX_SIDE {
                    ends |= 1 << j;
                    counts[j] += 1.0;
                }
                for e in f.first[q] as usize..f.first[q + 1] as usize {
                    let t = f.to[e] as usize;
                    ends |= f.ends[t];
                    for (c, d) in counts.iter_mut().zip(&f.counts[t]) {
                        *c += d;
                    }
                }
                f.ends[q] = ends;
                f.counts[q] = counts;
            }
        }
        // A state after `j` pairs only completes words of `j` pairs or more.
        f.need = vec![u8::MAX; states];
        for (j, layer) in layers.iter().enumerate() {
            for i in 0..layer.len() {
                let q = (base[j] + i as u32) as usize;
                if f.ends[q] != 0 {
                    f.need[q] = (f.ends[q].trailing_zeros() as usize - j) as u8;
                }
            }
        }
        f
    }

    /// The fewest more pairs that end a word from `q` ([`u8::MAX`] when none does):
    /// a word can end from `q` within `m` more cells exactly when this is at most `m`.
    pub(crate) fn need(&self, q: StateId) -> u8 {
        self.need[q as usize]
    }

    /// The start state, or `None` when no word fits.
    pub(crate) fn root(&self) -> Option<StateId> {
        (self.ends.first().is_some_and(|&e| e != 0)).then_some(0)
    }

    /// The edges out of `q`: pairs (ascending) and targets.
    pub(crate) fn edges(&self, q: StateId) -> (&[u16], &[StateId]) {
        let r = self.first[q as usize] as usize..self.first[q as usize + 1] as usize;
        (&self.pair[r.clone()], &self.to[r])
    }

    /// The pairs on the edges out of `q`, as a bitset (bit `p` of the words).
    pub(crate) fn labels(&self, q: StateId) -> &[u64] {
        &self.labels[q as usize * LABEL_WORDS..(q as usize + 1) * LABEL_WORDS]
    }

    /// Number of states.
    pub(crate) fn states(&self) -> usize {
        self.ends.len()
    }
}
