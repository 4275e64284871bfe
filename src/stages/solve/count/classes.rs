//! A line's automaton as the frontier sweep ([`super::frontier`]) reads it: per layer
//! (the cells read so far), the states merged where their futures are equal.
//!
//! Two states after `p` cells of a line have the same future when they accept the same
//! words over the domains of the cells `p..n` left: the Myhill–Nerode classes of the
//! line's language restricted to its remaining length and letters. They are found from
//! the end back (classes at `n` are accepting or not; at `p`, two states are alike when
//! each letter of cell `p` takes them into one class at `p + 1`), over the states that
//! some word of the first `p` cells reaches. A state with no future is dropped. The
//! count of grids is unchanged by the merge: the automaton is deterministic, so each
//! word has one run, and the class sequence of a run is a function of the word.

use crate::compile::automaton::{Automaton, DEAD};
use crate::propagate::SymSet;
use std::collections::HashMap;

/// No class: the run has no future (or the letter is not in the cell's domain).
pub(super) const NONE: u32 = u32::MAX;

/// Classes of a line per layer `0..=n`, with the transitions between them.
pub(super) struct Layered {
    /// Letters of the alphabet (row width of `next`).
    pub sigma: usize,
    /// Number of classes at each layer `0..=n`. Layer `n` has one class (accepting)
    /// or none; layer 0 has the start's class or none.
    pub k: Vec<u32>,
    /// Per cell `p` of the line, `next[p][c * sigma + x]`: the class at `p + 1` that
    /// class `c` at `p` reaches on letter `x`, or [`NONE`].
    pub next: Vec<Vec<u32>>,
}

impl Layered {
    /// The classes of automaton `a` over a line whose cells have domains `line`.
    pub(super) fn new(a: &Automaton, line: &[SymSet]) -> Layered {
        let n = line.len();
        let sigma = a.symbols;
        let states = a.states();
        // States that some word of the first p cells reaches.
        let fwd = crate::propagate::layers::reached(a, line, a.start);
        // From the end back: the class of each reached state (NONE: no future).
        let mut class = vec![NONE; states];
        let mut k = vec![0u32; n + 1];
        for &s in &fwd[n] {
            if a.accept[s as usize] {
                class[s as usize] = 0;
                k[n] = 1;
            }
        }
        let mut next_tables = vec![Vec::new(); n];
        let mut here = vec![NONE; states];
        for p in (0..n).rev() {
            let mut ids: HashMap<Vec<u32>, u32> = HashMap::new();
            let mut table: Vec<u32> = Vec::new();
            for &s in &fwd[p] {
                let sig: Vec<u32> = (0..sigma).map(|x| if line[p].contains(x) { lookup(&class, a.step(s, x)) } else { NONE }).collect();
                if sig.iter().all(|&t| t == NONE) {
                    continue;
                }
                let fresh = ids.len() as u32;
                let c = *ids.entry(sig).or_insert(fresh);
                if c == fresh {
                    table.extend((0..sigma).map(|x| if line[p].contains(x) { lookup(&class, a.step(s, x)) } else { NONE }));
                }
                here[s as usize] = c;
            }
            k[p] = ids.len() as u32;
            next_tables[p] = table;
            for &s in &fwd[p + 1] {
                class[s as usize] = NONE;
            }
            for &s in &fwd[p] {
                class[s as usize] = here[s as usize];
                here[s as usize] = NONE;
            }
        }
        Layered { sigma, k, next: next_tables }
    }

    /// Whether the line has a word at all (its start has a class).
    pub(super) fn live(&self) -> bool {
        self.k[0] > 0
    }

    /// Most classes at any layer.
    pub(super) fn widest(&self) -> u32 {
        self.k.iter().copied().max().unwrap_or(0)
    }

    /// The class at `p + 1` that class `c` at `p` reaches on letter `x`.
    pub(super) fn step(&self, p: usize, c: u32, x: usize) -> u32 {
        self.next[p][c as usize * self.sigma + x]
    }

    /// The column of letter `x` at cell `p`: the class each class at `p` reaches on it.
    pub(super) fn column(&self, p: usize, x: usize) -> impl Iterator<Item = u32> + '_ {
        (0..self.k[p]).map(move |c| self.step(p, c, x))
    }
}

fn lookup(class: &[u32], t: u32) -> u32 {
    if t == DEAD { NONE } else { class[t as usize] }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Words of `line` an automaton accepts, by listing them.
    fn brute(a: &Automaton, line: &[SymSet]) -> u64 {
        let mut words: Vec<Vec<usize>> = vec![vec![]];
        for d in line {
            words = words.iter().flat_map(|w| d.iter().map(move |x| [w.clone(), vec![x]].concat())).collect();
        }
        words.iter().filter(|w| a.accepts(w)).count() as u64
    }

    /// Words of `line` the classes accept, by walking them.
    fn by_classes(l: &Layered, line: &[SymSet]) -> u64 {
        if !l.live() {
            return 0;
        }
        let mut counts = vec![1u64];
        for (p, d) in line.iter().enumerate() {
            let mut next = vec![0u64; l.k[p + 1] as usize];
            for (c, &m) in counts.iter().enumerate() {
                for x in d.iter() {
                    let t = l.step(p, c as u32, x);
                    if t != NONE {
                        next[t as usize] += m;
                    }
                }
            }
            counts = next;
        }
        counts.iter().sum()
    }

    /// On random automata over three letters and random domains, the classes accept as
    /// many words as the automaton, with at most as many classes as reached states, one
    /// class at the end and at most one at the start.
    #[test]
    fn classes_count_the_words_of_the_automaton() {
        let mut rng = crate::rng::Rng::new(41);
        for _ in 0..400 {
            let states = 1 + rng.below(6);
            let sigma = 3;
            let next: Vec<u32> = (0..states * sigma).map(|_| if rng.below(4) == 0 { DEAD } else { rng.below(states) as u32 }).collect();
            let accept: Vec<bool> = (0..states).map(|_| rng.below(2) == 0).collect();
            let a = Automaton { symbols: sigma, start: 0, accept, next };
            let n = rng.below(6);
            let line: Vec<SymSet> = (0..n)
                .map(|_| {
                    let mut d = SymSet::default();
                    for x in 0..sigma {
                        if rng.below(3) != 0 {
                            d.insert(x);
                        }
                    }
                    d
                })
                .collect();
            let l = Layered::new(&a, &line);
            assert_eq!(by_classes(&l, &line), brute(&a, &line), "{a:?} over {line:?}");
            assert!(l.k[0] <= 1 && l.k[n] <= 1);
            assert!(l.widest() as usize <= states);
        }
    }
}
