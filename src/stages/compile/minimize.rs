//! Minimisation: [`minimize`] merges the states of a trimmed [`Automaton`] that have the
//! same future (Moore's partition refinement, over whole rows or over the transitions
//! that exist, with an open-addressed `Numbering` of each round's signatures) and
//! `renumber`s the classes breadth-first, so that equal languages give equal tables.

use super::{Automaton, DEAD};

/// The minimal automaton: one state per class of states with the same future (Moore
/// partition refinement), the classes numbered breadth-first from the start (a
/// canonical table: equal languages give equal tables).
///
/// A missing ([`DEAD`]) transition counts as a successor of its own, so states that
/// cannot reach acceptance are not merged with it: the tables given here are trimmed
/// ([`trim`](super::trim)) first.
pub(crate) fn minimize(a: &Automaton) -> Automaton {
    if a.states() == 0 {
        return a.clone();
    }
    renumber(a, &equivalent_states(a))
}

/// Each state's class under [`minimize`]'s refinement (Moore's: signatures of class
/// and successors' classes, looked up in one open-addressed table per round, until a
/// round splits no class). Most rows of a clue's automaton are sparse (after `(.)` of
/// `(.)\1\1.*`, one symbol of 33 goes on): a table with fewer than a third of its
/// transitions present is refined over the transitions that exist, a denser one over
/// whole rows. Both give the same classes.
fn equivalent_states(a: &Automaton) -> Vec<u32> {
    let present = a.next.iter().filter(|&&t| t != DEAD).count();
    if 3 * present < a.next.len() { sparse_classes(a, present) } else { dense_classes(a) }
}

/// [`equivalent_states`] for sparse tables: a state's signature is its class and, for
/// each transition that exists, its symbol and the class it leads to.
fn sparse_classes(a: &Automaton, present: usize) -> Vec<u32> {
    let (n, k) = (a.states(), a.symbols);
    // The transitions that exist, row by row: symbol and target.
    let mut row = Vec::with_capacity(n + 1);
    let mut sym: Vec<u32> = Vec::with_capacity(present);
    let mut dst: Vec<u32> = Vec::with_capacity(present);
    row.push(0usize);
    for r in a.next.chunks_exact(k.max(1)).take(n) {
        for (x, &t) in r.iter().enumerate() {
            if t != DEAD {
                sym.push(x as u32);
                dst.push(t);
            }
        }
        row.push(sym.len());
    }
    let mut class: Vec<u32> = a.accept.iter().map(|&x| u32::from(x)).collect();
    let mut classes = if class.iter().all(|&c| c == class[0]) { 1 } else { 2 };
    let mut new = vec![0u32; n];
    let mut numbering = Numbering::new(n);
    let mix = |h: u64, x: u32| (h.rotate_left(5) ^ u64::from(x)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    // The symbols of each row do not change: hashed once.
    let shape: Vec<u64> = (0..n).map(|s| sym[row[s]..row[s + 1]].iter().fold(0, |h, &x| mix(h, x))).collect();
    loop {
        numbering.clear();
        for s in 0..n {
            let span = row[s]..row[s + 1];
            let hash = dst[span.clone()].iter().fold(mix(shape[s], class[s]), |h, &t| mix(h, class[t as usize]));
            let same = |r: usize| {
                class[r] == class[s]
                    && row[r + 1] - row[r] == span.len()
                    && (row[r]..row[r + 1])
                        .zip(span.clone())
                        .all(|(i, j)| sym[i] == sym[j] && class[dst[i] as usize] == class[dst[j] as usize])
            };
            new[s] = numbering.class_of(hash, s, &new, same);
        }
        let stable = numbering.count as usize == classes;
        classes = numbering.count as usize;
        std::mem::swap(&mut class, &mut new);
        if stable {
            return class;
        }
    }
}

/// [`equivalent_states`] for dense tables: a state's signature is its class and its
/// successors' classes ([`DEAD`] for a missing one), laid out back to back so that one
/// buffer (and one table of signatures) serves every round.
fn dense_classes(a: &Automaton) -> Vec<u32> {
    let n = a.states();
    let mut class: Vec<u32> = a.accept.iter().map(|&x| u32::from(x)).collect();
    let mut classes = if class.iter().all(|&c| c == class[0]) { 1 } else { 2 };
    let width = a.symbols + 1;
    let mut sigs = vec![0u32; n * width];
    let mut new = vec![0u32; n];
    let mut numbering = Numbering::new(n);
    loop {
        for s in 0..n {
            let sig = &mut sigs[s * width..(s + 1) * width];
            sig[0] = class[s];
            for (x, &t) in sig[1..].iter_mut().zip(&a.next[s * a.symbols..(s + 1) * a.symbols]) {
                *x = if t == DEAD { DEAD } else { class[t as usize] };
            }
        }
        numbering.clear();
        for s in 0..n {
            let sig = &sigs[s * width..(s + 1) * width];
            let hash = sig.iter().fold(0u64, |h, &x| (h.rotate_left(5) ^ u64::from(x)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95));
            new[s] = numbering.class_of(hash, s, &new, |r| &sigs[r * width..(r + 1) * width] == sig);
        }
        let stable = numbering.count as usize == classes;
        classes = numbering.count as usize;
        std::mem::swap(&mut class, &mut new);
        if stable {
            return class;
        }
    }
}

/// An open-addressed table that numbers the states of one round of Moore's
/// refinement by signature: the first state with a signature opens the next class,
/// a later one with the same signature (`same`) joins it.
struct Numbering {
    table: Vec<u32>,
    mask: usize,
    /// Classes opened this round.
    count: u32,
}

impl Numbering {
    fn new(n: usize) -> Numbering {
        let mask = (2 * n).next_power_of_two() - 1;
        Numbering { table: vec![u32::MAX; mask + 1], mask, count: 0 }
    }

    fn clear(&mut self) {
        self.table.fill(u32::MAX);
        self.count = 0;
    }

    /// The class of state `s`, whose signature hashes to `hash`; `class[r]` is the
    /// class given to an earlier state `r` of this round.
    fn class_of(&mut self, hash: u64, s: usize, class: &[u32], same: impl Fn(usize) -> bool) -> u32 {
        let mut i = ((hash ^ (hash >> 29)) as usize) & self.mask;
        loop {
            let r = self.table[i];
            if r == u32::MAX {
                self.table[i] = s as u32;
                self.count += 1;
                return self.count - 1;
            }
            if same(r as usize) {
                return class[r as usize];
            }
            i = (i + 1) & self.mask;
        }
    }
}

/// One state per class, numbered breadth-first from the start's class (symbols in
/// order), each class's row read from any of its states.
fn renumber(a: &Automaton, class: &[u32]) -> Automaton {
    let classes = class.iter().max().map_or(0, |&c| c as usize + 1);
    let mut rep = vec![u32::MAX; classes];
    for (s, &c) in class.iter().enumerate() {
        if rep[c as usize] == u32::MAX {
            rep[c as usize] = s as u32;
        }
    }
    let mut id = vec![DEAD; classes];
    let mut order = vec![class[a.start as usize]];
    id[order[0] as usize] = 0;
    let (mut next, mut accept) = (Vec::with_capacity(classes * a.symbols), Vec::with_capacity(classes));
    let mut i = 0;
    while i < order.len() {
        let s = rep[order[i] as usize] as usize;
        accept.push(a.accept[s]);
        for &t in &a.next[s * a.symbols..(s + 1) * a.symbols] {
            if t == DEAD {
                next.push(DEAD);
            } else {
                let c = class[t as usize] as usize;
                if id[c] == DEAD {
                    id[c] = order.len() as u32;
                    order.push(c as u32);
                }
                next.push(id[c]);
            }
        }
        i += 1;
    }
    Automaton { symbols: a.symbols, start: 0, accept, next }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::{DEAD, trim};
    use std::collections::{BTreeSet, HashMap};

    /// Moore's refinement, the textbook way (classes of `(accept, successor classes)`
    /// until stable), as the reference for [`minimize`].
    fn moore_classes(a: &Automaton) -> Vec<u32> {
        let n = a.states();
        let mut class: Vec<u32> = a.accept.iter().map(|&x| u32::from(x)).collect();
        loop {
            let mut ids: HashMap<Vec<u32>, u32> = HashMap::new();
            let new: Vec<u32> = (0..n)
                .map(|s| {
                    let mut sig = vec![class[s]];
                    sig.extend(
                        a.next[s * a.symbols..(s + 1) * a.symbols].iter().map(|&t| if t == DEAD { DEAD } else { class[t as usize] }),
                    );
                    let len = ids.len() as u32;
                    *ids.entry(sig).or_insert(len)
                })
                .collect();
            let before = class.iter().collect::<BTreeSet<_>>().len();
            class = new;
            if ids.len() == before {
                return class;
            }
        }
    }

    /// Trimming the simple way: predecessor lists, a search back from the accepting
    /// states, the live states renumbered in order.
    fn trim_reference(a: &Automaton) -> Automaton {
        let n = a.states();
        let mut preds: Vec<Vec<usize>> = vec![vec![]; n];
        for s in 0..n {
            for x in 0..a.symbols {
                let t = a.step(s as u32, x);
                if t != DEAD {
                    preds[t as usize].push(s);
                }
            }
        }
        let mut live = a.accept.clone();
        let mut stack: Vec<usize> = (0..n).filter(|&s| live[s]).collect();
        while let Some(t) = stack.pop() {
            for &s in &preds[t] {
                if !std::mem::replace(&mut live[s], true) {
                    stack.push(s);
                }
            }
        }
        if n == 0 || !live[a.start as usize] {
            return Automaton::empty(a.symbols);
        }
        let map: Vec<u32> = (0..n)
            .scan(0u32, |k, s| {
                Some(if live[s] {
                    *k += 1;
                    *k - 1
                } else {
                    DEAD
                })
            })
            .collect();
        let keep: Vec<usize> = (0..n).filter(|&s| live[s]).collect();
        Automaton {
            symbols: a.symbols,
            start: map[a.start as usize],
            accept: keep.iter().map(|&s| a.accept[s]).collect(),
            next: keep
                .iter()
                .flat_map(|&s| (0..a.symbols).map(move |x| (s, x)))
                .map(|(s, x)| a.step(s as u32, x))
                .map(|t| if t == DEAD { DEAD } else { map[t as usize] })
                .collect(),
        }
    }

    /// On random partial automata (trimmed, as the builders hand them over), the
    /// refinement finds exactly Moore's classes, and the table is the canonical one.
    #[test]
    fn minimize_agrees_with_moore() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut rand = |m: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % m as u64) as usize
        };
        for round in 0..3000 {
            let n = 1 + rand(12);
            let k = 1 + rand(4);
            let dead_in = 1 + rand(4);
            let next: Vec<u32> = (0..n * k).map(|_| if rand(dead_in + 1) == 0 { DEAD } else { rand(n) as u32 }).collect();
            let accept: Vec<bool> = (0..n).map(|_| rand(3) == 0).collect();
            let raw = Automaton { symbols: k, start: rand(n) as u32, accept, next };
            let a = trim(&raw);
            assert_eq!(a, trim_reference(&raw), "round {round}: trim of {raw:?}");
            if a.states() == 0 {
                continue;
            }
            let got = minimize(&a);
            let want = renumber(&a, &moore_classes(&a));
            assert_eq!(got, want, "round {round}: {a:?}");
            // Equal classes, not just equal tables: the same partition of the states,
            // by whole rows and by the transitions that exist.
            let y = moore_classes(&a);
            let present = a.next.iter().filter(|&&t| t != DEAD).count();
            for x in [dense_classes(&a), sparse_classes(&a, present)] {
                for s in 0..a.states() {
                    for t in 0..a.states() {
                        assert_eq!(x[s] == x[t], y[s] == y[t], "round {round}: states {s}, {t} of {a:?}");
                    }
                }
            }
            assert_eq!(minimize(&got), got, "round {round}: minimal tables are fixed points");
        }
    }
}
