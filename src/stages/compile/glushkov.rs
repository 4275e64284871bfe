//! A small automaton builder for the regular route (issue 15): the position
//! (Glushkov) automaton of the clue tree over the puzzle's symbols, determinised by a
//! subset construction walked breadth-first to the line's length only.
//!
//! regex-automata's dense DFA builder costs about 200k instructions per clue whatever
//! its size (byte classes, a 256-wide start table, its own minimisation data), and
//! more on wide alternations such as the expansion of `(?=.*(.)\1{5})` over 64 symbols
//! ([`super::expand`]); for the short lines and small alphabets of puzzles, a subset
//! construction over the few symbols costs a fraction. Trees with assertions (`^ $ \b
//! \B`) or too many positions keep the regex-automata route.

use super::{Alphabet, Automaton, DEAD, FastMap, MAX_STATES, always_nullable, min_len, minimize, trim};
use crate::regex::ast::{ClassItem, Node};

/// Most positions (set occurrences after counted repeats are unrolled).
pub const MAX_POSITIONS: usize = 4096;
/// Most (position, symbol) pairs the subset construction may visit before it hands the
/// clue to regex-automata (large subsets, such as many copies of `.*`, make each state
/// expensive here while the byte DFA shares that work).
pub const MAX_WORK: usize = 300_000;

struct Frag {
    nullable: bool,
    first: Vec<u32>,
    last: Vec<u32>,
}

struct Builder<'a> {
    alphabet: &'a Alphabet,
    len: u32,
    /// Symbols each position reads.
    labels: Vec<Vec<u16>>,
    /// Positions that may follow each position.
    follow: Vec<Vec<u32>>,
}

impl Builder<'_> {
    fn position(&mut self, label: Vec<u16>) -> Option<Frag> {
        if self.labels.len() >= MAX_POSITIONS {
            return None;
        }
        let p = self.labels.len() as u32;
        self.labels.push(label);
        self.follow.push(Vec::new());
        Some(Frag { nullable: false, first: vec![p], last: vec![p] })
    }

    fn empty() -> Frag {
        Frag { nullable: true, first: vec![], last: vec![] }
    }

    fn fail() -> Frag {
        Frag { nullable: false, first: vec![], last: vec![] }
    }

    fn concat(&mut self, a: Frag, b: Frag) -> Frag {
        for &p in &a.last {
            self.follow[p as usize].extend_from_slice(&b.first);
        }
        let mut first = a.first;
        if a.nullable {
            first.extend_from_slice(&b.first);
        }
        let mut last = b.last;
        if b.nullable {
            last.extend_from_slice(&a.last);
        }
        Frag { nullable: a.nullable && b.nullable, first, last }
    }

    fn build(&mut self, node: &Node) -> Option<Frag> {
        Some(match node {
            Node::Empty => Self::empty(),
            Node::Set(set) => {
                let label: Vec<u16> = if !set.negated && set.items.iter().all(|it| matches!(it, ClassItem::Char(_))) {
                    let mut v: Vec<u16> = set
                        .items
                        .iter()
                        .filter_map(|it| if let ClassItem::Char(c) = it { self.alphabet.index(*c) } else { None })
                        .map(|i| i as u16)
                        .collect();
                    v.sort_unstable();
                    v.dedup();
                    v
                } else {
                    (0..self.alphabet.len()).filter(|&i| set.contains(self.alphabet.chars()[i])).map(|i| i as u16).collect()
                };
                self.position(label)?
            }
            Node::Concat(v) => {
                let mut acc = Self::empty();
                for x in v {
                    let f = self.build(x)?;
                    acc = self.concat(acc, f);
                }
                acc
            }
            Node::Alt(v) => {
                let mut acc = Self::fail();
                for x in v {
                    let f = self.build(x)?;
                    acc.nullable |= f.nullable;
                    acc.first.extend(f.first);
                    acc.last.extend(f.last);
                }
                acc
            }
            Node::Group { sub, .. } => self.build(sub)?,
            Node::Repeat { sub, min, max } => {
                // Counts clamped to the line as in `to_hir`.
                let n = self.len;
                let (mut min, mut max) = (*min, *max);
                if min > n && min_len(sub) >= 1 {
                    return Some(Self::fail());
                }
                if min > n && always_nullable(sub) {
                    min = n;
                }
                max = max.map(|m| m.min(n.max(min)));
                let mut acc = Self::empty();
                for _ in 0..min.saturating_sub(u32::from(max.is_none() && min > 0)) {
                    let f = self.build(sub)?;
                    acc = self.concat(acc, f);
                }
                match max {
                    None => {
                        // X* (or the last mandatory copy made X+).
                        let mut f = self.build(sub)?;
                        for &p in &f.last {
                            let first = f.first.clone();
                            self.follow[p as usize].extend(first);
                        }
                        if min == 0 {
                            f.nullable = true;
                        }
                        acc = self.concat(acc, f);
                    }
                    Some(m) => {
                        for _ in min..m {
                            let mut f = self.build(sub)?;
                            f.nullable = true;
                            acc = self.concat(acc, f);
                        }
                    }
                }
                acc
            }
            Node::Backref(_) | Node::Look { .. } | Node::Assert(_) => return None,
        })
    }
}

/// The minimal automaton of `node` on lines of `len` cells (states first reached after
/// `len` symbols get no transitions), and the number of subset states walked; `None`
/// if the tree has assertions, back-references or lookarounds, or too many positions.
pub fn automaton(node: &Node, alphabet: &Alphabet, len: usize) -> Option<Result<(Automaton, usize), String>> {
    let mut b = Builder { alphabet, len: u32::try_from(len).unwrap_or(u32::MAX), labels: Vec::new(), follow: Vec::new() };
    let root = b.build(node)?;
    let positions = b.labels.len();
    // Position `positions` is the start.
    let start = positions as u32;
    b.follow.push(root.first.clone());
    let mut is_last = vec![false; positions + 1];
    for &p in &root.last {
        is_last[p as usize] = true;
    }
    is_last[positions] = root.nullable;
    let symbols = alphabet.len();
    // A final position that reads every symbol and loops (the `.*` closing a
    // lookahead's body) accepts every continuation: a subset holding it is that
    // position alone, which keeps `body·Σ*` as small as `body`.
    let universal: Vec<bool> =
        (0..positions).map(|p| is_last[p] && b.labels[p].len() == symbols && b.follow[p].contains(&(p as u32))).chain([false]).collect();
    let mut ids: FastMap<Vec<u32>, u32> = FastMap::default();
    let mut order: Vec<(Vec<u32>, usize)> = vec![(vec![start], 0)];
    let _ = ids.insert(vec![start], 0);
    let (mut next, mut accept) = (Vec::new(), Vec::new());
    let mut buckets: Vec<Vec<u32>> = vec![Vec::new(); symbols];
    let mut work = 0usize;
    let mut i = 0;
    while i < order.len() {
        let depth = order[i].1;
        accept.push(order[i].0.iter().any(|&p| is_last[p as usize]));
        if depth == len {
            next.extend(std::iter::repeat_n(DEAD, symbols));
            i += 1;
            continue;
        }
        for &p in &order[i].0 {
            for &q in &b.follow[p as usize] {
                work += b.labels[q as usize].len();
                for &x in &b.labels[q as usize] {
                    buckets[x as usize].push(q);
                }
            }
        }
        for bucket in &mut buckets {
            if bucket.is_empty() {
                next.push(DEAD);
                continue;
            }
            if let Some(&u) = bucket.iter().find(|&&q| universal[q as usize]) {
                bucket.clear();
                bucket.push(u);
            }
            bucket.sort_unstable();
            bucket.dedup();
            let id = match ids.get(bucket.as_slice()) {
                Some(&id) => id,
                None => {
                    let id = order.len() as u32;
                    let _ = ids.insert(bucket.clone(), id);
                    order.push((bucket.clone(), depth + 1));
                    id
                }
            };
            next.push(id);
            bucket.clear();
        }
        if work > MAX_WORK {
            return Some(Err(format!("automaton too costly: more than {MAX_WORK} steps of the subset construction")));
        }
        if order.len() > MAX_STATES {
            return Some(Err(format!("automaton too large for a line of {len} cells: more than {MAX_STATES} states")));
        }
        i += 1;
    }
    let raw = order.len();
    Some(Ok((minimize(&trim(&Automaton { symbols, start: 0, accept, next })), raw)))
}
