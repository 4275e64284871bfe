//! Support over a line's layers: which letters of each cell some accepting run of a
//! clue's automaton can use, given the cells' domains. `Layers::support` does it in
//! one pass forward and one back with buffers kept between calls, walking each state
//! through its `Edges` (each letter's default target and the state's exceptions) or
//! the cell's letters one transition at a time, whichever is shorter; [`live_layers`] and
//! `supported` are the two-pass definition the encoder unrolls ([`super::support`]
//! picks the plain or tagged route for a clue); [`line_count`] counts a line's words.

use super::SymSet;
use crate::compile::{Automaton, DEAD};

/// An automaton's transitions, compressed for walking sets of letters at once: each
/// letter's target from most states (its *default*), and per state the
/// letters that go elsewhere (its *exceptions*), grouped by target. A state whose
/// transitions are mostly the defaults (after a letter `x`, "the run of `x` starts
/// again", as in `(?=.*(.)\1{4})` over 64 letters) then costs a few bit operations
/// rather than one transition per letter of the cell.
#[derive(Clone, Debug, Default)]
pub(super) struct Edges {
    /// Each letter's default target other than [`DEAD`], with the letters whose
    /// default it is.
    defaults: Vec<(u32, SymSet)>,
    /// Per state, the letters whose target is not their default.
    except: Vec<SymSet>,
    /// The exceptions of state `s` other than to [`DEAD`]: `groups[starts[s]..starts[s + 1]]`,
    /// as (target, the letters leading there), targets in order of their first letter.
    starts: Vec<u32>,
    groups: Vec<(u32, SymSet)>,
}

impl Edges {
    pub(super) fn new(a: &Automaton) -> Edges {
        let states = a.states();
        let mut default = vec![DEAD; a.symbols];
        let mut e = Edges {
            defaults: Vec::new(),
            except: vec![SymSet::default(); states],
            starts: Vec::with_capacity(states + 1),
            groups: Vec::new(),
        };
        // Per letter, the target (or [`DEAD`]) most states go to when one goes from
        // more than half of them (a majority vote in one pass over the table; without a
        // majority any choice is as correct, only slower to walk).
        let mut votes = vec![0u32; a.symbols];
        for row in a.next.chunks_exact(a.symbols.max(1)) {
            for ((d, v), &t) in default.iter_mut().zip(&mut votes).zip(row) {
                if *v == 0 {
                    (*d, *v) = (t, 1);
                } else if *d == t {
                    *v += 1;
                } else {
                    *v -= 1;
                }
            }
        }
        for (x, &d) in default.iter().enumerate() {
            if d == DEAD {
                continue;
            }
            match e.defaults.iter_mut().find(|g| g.0 == d) {
                Some(g) => g.1.insert(x),
                None => {
                    let mut letters = SymSet::default();
                    letters.insert(x);
                    e.defaults.push((d, letters));
                }
            }
        }
        let mut group = vec![u32::MAX; states];
        for (s, row) in a.next.chunks_exact(a.symbols.max(1)).enumerate().take(states) {
            let first = e.groups.len();
            e.starts.push(first as u32);
            let mut except = SymSet::default();
            for (x, (&default, &t)) in default.iter().zip(row).enumerate() {
                if t == default {
                    continue;
                }
                except.insert(x);
                if t == DEAD {
                    continue;
                }
                // `group[t]`: the place of target `t`'s group, if it is this state's.
                let g = group[t as usize] as usize;
                if (first..e.groups.len()).contains(&g) && e.groups[g].0 == t {
                    e.groups[g].1.insert(x);
                } else {
                    group[t as usize] = e.groups.len() as u32;
                    let mut letters = SymSet::default();
                    letters.insert(x);
                    e.groups.push((t, letters));
                }
            }
            e.except[s] = except;
        }
        // (No rows at all over an empty alphabet.)
        e.starts.resize(states + 1, e.groups.len() as u32);
        e
    }

    fn of(&self, s: u32) -> &[(u32, SymSet)] {
        &self.groups[self.starts[s as usize] as usize..self.starts[s as usize + 1] as usize]
    }

    /// Whether state `s` is walked through its exceptions (and the defaults) rather
    /// than through the cell's `dom_len` letters one by one.
    #[inline]
    fn grouped(&self, s: u32, dom_len: usize) -> bool {
        let s = s as usize;
        ((self.starts[s + 1] - self.starts[s]) as usize) < dom_len
    }
}

/// The reachable states of each layer of a line, flat, and epoch marks over states.
#[derive(Clone, Debug, Default)]
pub(super) struct Layers {
    /// States of layer `p`: `states[starts[p]..starts[p + 1]]`.
    states: Vec<u32>,
    starts: Vec<usize>,
    /// `seen[s] == epoch`: `s` is already in the layer being built.
    seen: Vec<u32>,
    /// `live[s] == epoch`: `s` is live in the layer after the one being read.
    live: Vec<u32>,
    /// Same, for the layer being read (swapped with `live` at each step back).
    live_here: Vec<u32>,
    epoch: u32,
}

impl Layers {
    /// A fresh epoch (marks of earlier ones then mean nothing).
    fn next_epoch(&mut self) -> u32 {
        if self.epoch == u32::MAX {
            self.epoch = 0;
            self.seen.iter_mut().for_each(|m| *m = 0);
            self.live.iter_mut().for_each(|m| *m = 0);
            self.live_here.iter_mut().for_each(|m| *m = 0);
        }
        self.epoch += 1;
        self.epoch
    }

    /// [`supported`] over [`live_layers`], in one pass forward and one back, into `out`:
    /// the letters of each position that some accepting run over `line` uses (all
    /// empty when there is none).
    pub(super) fn support(&mut self, a: &Automaton, edges: &Edges, line: &[SymSet], out: &mut Vec<SymSet>) {
        let n = line.len();
        out.clear();
        out.resize(n, SymSet::default());
        if a.start == DEAD {
            return;
        }
        let states = a.states();
        if self.seen.len() < states {
            self.seen.resize(states, 0);
            self.live.resize(states, 0);
            self.live_here.resize(states, 0);
        }
        self.states.clear();
        self.starts.clear();
        self.starts.push(0);
        self.states.push(a.start);
        for (p, dom) in line.iter().enumerate() {
            self.starts.push(self.states.len());
            let epoch = self.next_epoch();
            let dom_len = dom.len();
            // Letters of `dom` whose default some state walked through its exceptions
            // takes (one not among them).
            let mut defaults = SymSet::default();
            for k in self.starts[p]..self.starts[p + 1] {
                let s = self.states[k];
                let (seen, states) = (&mut self.seen, &mut self.states);
                let mut mark = |t: u32| {
                    if seen[t as usize] != epoch {
                        seen[t as usize] = epoch;
                        states.push(t);
                    }
                };
                if edges.grouped(s, dom_len) {
                    defaults = defaults.or(&dom.without(&edges.except[s as usize]));
                    for &(t, ref letters) in edges.of(s) {
                        if !letters.and(dom).is_empty() {
                            mark(t);
                        }
                    }
                } else {
                    for x in dom.iter() {
                        let t = a.step(s, x);
                        if t != DEAD {
                            mark(t);
                        }
                    }
                }
            }
            if !defaults.is_empty() {
                for &(t, ref letters) in &edges.defaults {
                    if self.seen[t as usize] != epoch && !letters.and(&defaults).is_empty() {
                        self.seen[t as usize] = epoch;
                        self.states.push(t);
                    }
                }
            }
        }
        self.starts.push(self.states.len());
        // Back from the accepting states of the last layer.
        let mut epoch = self.next_epoch();
        for k in self.starts[n]..self.starts[n + 1] {
            let s = self.states[k];
            if a.accept[s as usize] {
                self.live[s as usize] = epoch;
            }
        }
        for p in (0..n).rev() {
            let here = self.next_epoch();
            let mut any = false;
            let dom = &line[p];
            let dom_len = dom.len();
            // Letters of `dom` whose default target is live.
            let mut live_defaults = SymSet::default();
            for &(t, ref letters) in &edges.defaults {
                if self.live[t as usize] == epoch {
                    live_defaults = live_defaults.or(&letters.and(dom));
                }
            }
            for k in self.starts[p]..self.starts[p + 1] {
                let s = self.states[k];
                let mut used = SymSet::default();
                if edges.grouped(s, dom_len) {
                    used = live_defaults.without(&edges.except[s as usize]);
                    for &(t, ref letters) in edges.of(s) {
                        if self.live[t as usize] == epoch {
                            used = used.or(&letters.and(dom));
                        }
                    }
                } else {
                    for x in dom.iter() {
                        let t = a.step(s, x);
                        if t != DEAD && self.live[t as usize] == epoch {
                            used.insert(x);
                        }
                    }
                }
                if !used.is_empty() {
                    out[p] = out[p].or(&used);
                    self.live_here[s as usize] = here;
                    any = true;
                }
            }
            if !any {
                out.iter_mut().for_each(|d| *d = SymSet::default());
                return;
            }
            std::mem::swap(&mut self.live, &mut self.live_here);
            epoch = here;
        }
    }
}

/// Live states per layer `0..=n`: reachable from the start and able to accept at the end.
pub(crate) fn live_layers(a: &Automaton, line: &[SymSet]) -> Vec<Vec<u32>> {
    live_between(a, line, a.start, |s| a.accept[s as usize])
}

/// States per layer `0..=n` that some word of `line`'s first cells leads to from
/// `from` (none when [`DEAD`]), each layer sorted.
pub(crate) fn reached(a: &Automaton, line: &[SymSet], from: u32) -> Vec<Vec<u32>> {
    let mut fwd: Vec<Vec<u32>> = Vec::with_capacity(line.len() + 1);
    fwd.push(if from == DEAD { vec![] } else { vec![from] });
    let mut mark = vec![usize::MAX; a.states()];
    for (p, dom) in line.iter().enumerate() {
        let mut next = Vec::new();
        for &s in &fwd[p] {
            for x in dom.iter() {
                let t = a.step(s, x);
                if t != DEAD && mark[t as usize] != p {
                    mark[t as usize] = p;
                    next.push(t);
                }
            }
        }
        next.sort_unstable();
        fwd.push(next);
    }
    fwd
}

/// Live states per layer `0..=n` of runs over `line` from state `from` (none when
/// [`DEAD`]) to a state `end` accepts, each layer sorted. Some layer is empty when no
/// run exists.
pub(crate) fn live_between(a: &Automaton, line: &[SymSet], from: u32, end: impl Fn(u32) -> bool) -> Vec<Vec<u32>> {
    let n = line.len();
    let states = a.states();
    let fwd = reached(a, line, from);
    let mut live: Vec<Vec<u32>> = vec![vec![]; n + 1];
    live[n] = fwd[n].iter().copied().filter(|&s| end(s)).collect();
    let mut in_next = vec![false; states];
    for p in (0..n).rev() {
        for &t in &live[p + 1] {
            in_next[t as usize] = true;
        }
        live[p] = fwd[p].iter().copied().filter(|&s| line[p].iter().any(|x| is_in(&in_next, a.step(s, x)))).collect();
        for &t in &live[p + 1] {
            in_next[t as usize] = false;
        }
    }
    live
}

/// How many words of `line` (a domain per position) the automaton accepts, by dynamic
/// programming over its states; `None` when the count does not fit in a `u128`.
///
/// The words accepted always lie in the product of the per-position supports, so the
/// count equals the product of the support sizes exactly when the clue's language on
/// the line *is* that product: then the clue constrains each cell alone and couples
/// no two of them (see `solve::split_parts`).
pub(crate) fn line_count(a: &Automaton, line: &[SymSet]) -> Option<u128> {
    let count = runs_from(a, line, a.start)?;
    count.iter().zip(&a.accept).filter(|&(_, &acc)| acc).try_fold(0u128, |sum, (&k, _)| sum.checked_add(k))
}

/// How many runs of the automaton from state `from` read a word of `line` and end in
/// each state (all zero when `from` is [`DEAD`]); `None` when a count does not fit in a
/// `u128`.
pub(crate) fn runs_from(a: &Automaton, line: &[SymSet], from: u32) -> Option<Vec<u128>> {
    let mut count = vec![0u128; a.states()];
    if from == DEAD {
        return Some(count);
    }
    count[from as usize] = 1;
    let mut next = vec![0u128; a.states()];
    for dom in line {
        next.iter_mut().for_each(|n| *n = 0);
        for (s, &k) in count.iter().enumerate().filter(|&(_, &k)| k != 0) {
            for x in dom.iter() {
                let t = a.step(s as u32, x);
                if t != DEAD {
                    next[t as usize] = next[t as usize].checked_add(k)?;
                }
            }
        }
        std::mem::swap(&mut count, &mut next);
    }
    Some(count)
}

fn is_in(set: &[bool], t: u32) -> bool {
    t != DEAD && set[t as usize]
}

/// Letters of each position that some live run uses.
pub(crate) fn supported(a: &Automaton, line: &[SymSet], live: &[Vec<u32>]) -> Vec<SymSet> {
    let mut in_next = vec![false; a.states()];
    (0..line.len())
        .map(|p| {
            for &t in &live[p + 1] {
                in_next[t as usize] = true;
            }
            let mut s = SymSet::default();
            for x in line[p].iter() {
                if live[p].iter().any(|&q| is_in(&in_next, a.step(q, x))) {
                    s.insert(x);
                }
            }
            for &t in &live[p + 1] {
                in_next[t as usize] = false;
            }
            s
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::propagate::table::{MAX_TABLE_WORDS, Table};

    /// The one-pass support of the line search, and its table of words, against
    /// their definition, word by word: a letter is supported at a position exactly
    /// when some word of the line's domains that the automaton accepts uses it there. Random automata of up to five
    /// states over three symbols (with missing transitions), every line of length 0–4
    /// over every combination of domains drawn from a fixed list, and the same
    /// [`Layers`] reused throughout (stale marks must not leak from one call to the
    /// next). The two-pass [`supported`] must agree too.
    #[test]
    fn one_pass_support_is_exact_on_small_automata() {
        let mut seed: u64 = 7;
        let mut next = |n: u64| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((seed >> 33) % n) as u32
        };
        let sets: Vec<SymSet> = [0b111u64, 0b001, 0b110, 0b101, 0b000]
            .iter()
            .map(|&b| {
                (0..3).filter(|x| b >> x & 1 == 1).fold(SymSet::default(), |mut s, x| {
                    s.insert(x);
                    s
                })
            })
            .collect();
        let (mut layers, mut out) = (Layers::default(), Vec::new());
        let mut checked = 0;
        for _ in 0..300 {
            let states = 1 + next(5) as usize;
            let a = Automaton {
                symbols: 3,
                start: if next(10) == 0 { DEAD } else { next(states as u64) },
                accept: (0..states).map(|_| next(2) == 1).collect(),
                next: (0..states * 3).map(|_| if next(4) == 0 { DEAD } else { next(states as u64) }).collect(),
            };
            let edges = Edges::new(&a);
            for len in 0..=4usize {
                for pick in 0..sets.len().pow(len as u32) {
                    let line: Vec<SymSet> = (0..len).map(|p| sets[pick / sets.len().pow(p as u32) % sets.len()]).collect();
                    // By definition: every word over the domains.
                    let mut want = vec![SymSet::default(); len];
                    for w in 0..3usize.pow(len as u32) {
                        let word: Vec<usize> = (0..len).map(|p| w / 3usize.pow(p as u32) % 3).collect();
                        if word.iter().zip(&line).all(|(&x, d)| d.contains(x)) && a.accepts(&word) {
                            for (p, &x) in word.iter().enumerate() {
                                want[p].insert(x);
                            }
                        }
                    }
                    layers.support(&a, &edges, &line, &mut out);
                    assert_eq!(out, want, "automaton {a:?}, line {line:?}");
                    // The table of the words over the whole alphabet, read under
                    // narrower domains (as in a search from wider ones).
                    let table = Table::new(&a, 3, &vec![sets[0]; len], MAX_TABLE_WORDS);
                    match &table {
                        Some(t) => t.support(&line, &mut out),
                        None => panic!("no table of at most 81 words: {a:?}"),
                    }
                    assert_eq!(out, want, "table of automaton {a:?}, line {line:?}");
                    assert_eq!(supported(&a, &line, &live_layers(&a, &line)), want, "automaton {a:?}, line {line:?}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 100_000, "{checked}");
    }
}
