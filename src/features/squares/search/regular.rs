//! One line as a `regular` constraint: a pass unrolls the line's automaton over its
//! cells within their domains (or filters the live transitions of the line's last
//! pass), keeps the transitions on some word that fits the line, and reports per cell
//! the values they carry; when asked, it also weighs one cell's values by the words
//! through them. [`Live`] holds a line's live transitions between passes.

use super::domain::Values;
use crate::squares::dawg::{Flat, StateId};
use crate::squares::{BLANK, Cell};
use std::sync::Arc;

/// Scratch space of one pass over a line, kept between passes.
#[derive(Default)]
pub(super) struct Pass {
    /// Per cell boundary k (cells read), the nodes of a pass that unrolls the
    /// automaton: its states (a state's layer is the number of pairs read, so it names
    /// the node).
    nodes: Vec<Vec<StateId>>,
    /// Per boundary k, the number of nodes (numbered from 0).
    count: Vec<u32>,
    /// Per cell k, the transitions kept: (node at k, node at k + 1, value), each from
    /// a node reached from the start within the domains.
    trans: Vec<Vec<(u32, u32, Cell)>>,
    /// Per boundary k, per node: reached from the start (forward), then whether a word
    /// through it ends at the line's end (backward).
    reach: Vec<Vec<bool>>,
    alive: Vec<Vec<bool>>,
    /// Per boundary k, per node: the words from it to the line's end (only when
    /// weighing a cell).
    back: Vec<Vec<f64>>,
    /// Per boundary k, per node: the ways to reach it (only when weighing a cell).
    fwd: Vec<Vec<f64>>,
    /// Per automaton state, (stamp, node index or [`DEAD`] when no word can end from
    /// it in the cells left) for the layer being built.
    slot: Vec<(u32, u32)>,
    epoch: u32,
    /// Per boundary, per node: its number in the new [`Live`] (or [`DEAD`]).
    renumber: Vec<Vec<u32>>,
    /// The result: per cell, the values some word through the line puts there.
    pub(super) support: Vec<Values>,
    /// Per value, the words through it at the weighed cell.
    pub(super) weight: Vec<f64>,
}

/// A slot's mark for a state from which no word ends in the cells left.
const DEAD: u32 = u32::MAX;

/// A line's live transitions after its last pass: per cell, the (node, node, value)
/// on some word that fits the line. Domains only shrink between two passes of a line
/// (a backtrack restores the lines' `Live`s with the domains), and a transition dead
/// under larger domains stays dead under smaller ones, so the next pass filters these
/// instead of unrolling the automaton again. Shared between the search's snapshots
/// (a pass replaces its line's, never changes one in place while it is shared).
#[derive(Clone, Debug, Default)]
pub(super) struct Live {
    /// Per boundary, the number of nodes; empty before the line's opening walk.
    count: Vec<u32>,
    /// The transitions, cell by cell and within a cell by their first node: node
    /// `x` at boundary `k` leaves by `trans[first[base[k] + x]..first[base[k] + x + 1]]`.
    trans: Vec<(u32, u32, Cell)>,
    first: Vec<u32>,
    base: Vec<u32>,
}

impl Pass {
    /// Unrolls `fa` over cells with domains `doms` — or, when `live` holds the line's
    /// live transitions under domains that contained `doms`, filters those; fills
    /// `support` and returns whether some word fits, and then replaces `live` with this
    /// pass's live transitions. With `weigh = Some(k)`, also fills `weight` with the
    /// words through each value of cell `k`.
    pub(super) fn run(&mut self, fa: &Flat, doms: &[Values], weigh: Option<usize>, live: &mut Arc<Live>) -> bool {
        let n = doms.len();
        self.trans.resize_with(n, Vec::new);
        self.reach.resize_with(n + 1, Vec::new);
        self.alive.resize_with(n + 1, Vec::new);
        self.renumber.resize_with(n + 1, Vec::new);
        self.count.clear();
        if weigh.is_some() {
            // A line with no word left weighs nothing.
            self.weight.clear();
            self.weight.resize(usize::from(BLANK) + 1, 0.0);
        }
        let fits = if live.count.is_empty() { self.unroll(fa, doms) } else { self.filter(doms, live) };
        if !fits {
            return false;
        }
        // Backward: a reached node at the last boundary ends a word; a transition into
        // a live node keeps its source and its value.
        self.support.clear();
        self.support.resize(n, Values::EMPTY);
        self.alive[n].clone_from(&self.reach[n]);
        let mut kept = 0usize;
        for k in (0..n).rev() {
            let (head, tail) = self.alive.split_at_mut(k + 1);
            let (cur, after) = (&mut head[k], &tail[0]);
            cur.clear();
            cur.resize(self.count[k] as usize, false);
            let sup = &mut self.support[k];
            for &(x, y, v) in &self.trans[k] {
                if after[y as usize] {
                    cur[x as usize] = true;
                    sup.add(v);
                    kept += 1;
                }
            }
        }
        if !self.alive[0][0] {
            return false;
        }
        if let Some(cell) = weigh {
            self.weigh(n, cell);
        }
        // The live transitions, nodes renumbered densely; when a filtering pass lost
        // none, the line's `Live` stands as it is.
        if !live.count.is_empty() && kept == live.trans.len() {
            return true;
        }
        for k in 0..=n {
            let mut next = 0u32;
            let r = &mut self.renumber[k];
            r.clear();
            r.reserve(self.alive[k].len());
            for &a in &self.alive[k] {
                r.push(if a { next } else { DEAD });
                next += u32::from(a);
            }
        }
        let out = match Arc::get_mut(live) {
            Some(l) => l,
            None => {
                *live = Arc::new(Live::default());
                Arc::get_mut(live).expect("a new Arc is not shared")
            }
        };
        out.count.clear();
        out.count.extend(self.alive.iter().take(n + 1).map(|a| a.iter().filter(|&&x| x).count() as u32));
        out.trans.clear();
        out.trans.reserve(kept);
        out.first.clear();
        out.base.clear();
        for k in 0..n {
            out.base.push(out.first.len() as u32);
            let (rx, ry) = (&self.renumber[k], &self.renumber[k + 1]);
            // The kept transitions are in the order of their first node, and the
            // renumbering keeps that order.
            out.first.push(out.trans.len() as u32);
            let mut at = 0;
            for &(x, y, v) in &self.trans[k] {
                let y = ry[y as usize];
                if y != DEAD {
                    let x = rx[x as usize];
                    while at < x {
                        out.first.push(out.trans.len() as u32);
                        at += 1;
                    }
                    out.trans.push((x, y, v));
                }
            }
            while at < out.count[k] {
                out.first.push(out.trans.len() as u32);
                at += 1;
            }
        }
        true
    }

    /// The forward pass over the automaton itself (a line's opening walk).
    fn unroll(&mut self, fa: &Flat, doms: &[Values]) -> bool {
        let n = doms.len();
        if self.slot.len() < fa.states() {
            self.slot.resize(fa.states(), (0, 0));
        }
        self.nodes.resize_with(n + 1, Vec::new);
        self.nodes[0].clear();
        self.nodes[0].push(0);
        for k in 0..n {
            let dom = doms[k];
            // Cells left after this one: a node made here must end a word within them.
            let left = (n - k - 1) as u8;
            self.epoch += 1;
            let epoch = self.epoch;
            let (cur, rest) = self.nodes.split_at_mut(k + 1);
            let (cur, next) = (&cur[k], &mut rest[0]);
            next.clear();
            let trans = &mut self.trans[k];
            trans.clear();
            let slot = &mut self.slot;
            for (a, &q) in cur.iter().enumerate() {
                let mut add = |t: StateId, v: Cell| {
                    let s = &mut slot[t as usize];
                    if s.0 != epoch {
                        let viable = fa.need(t) <= left;
                        *s = (epoch, if viable { next.len() as u32 } else { DEAD });
                        if viable {
                            next.push(t);
                        }
                    }
                    if s.1 != DEAD {
                        trans.push((a as u32, s.1, v));
                    }
                };
                if dom.has(BLANK) {
                    add(q, BLANK);
                }
                let (pairs, to) = fa.edges(q);
                if pairs.len() <= 16 {
                    for (&p, &t) in pairs.iter().zip(to) {
                        if dom.has(p) {
                            add(t, p);
                        }
                    }
                } else {
                    // Many edges: intersect their labels with the domain, word by word;
                    // an edge's index is the number of labels below it.
                    let mut rank = 0;
                    for (i, &e) in fa.labels(q).iter().enumerate() {
                        let mut m = e & dom.0[i];
                        while m != 0 {
                            let b = m.trailing_zeros();
                            add(to[rank + (e & ((1u64 << b) - 1)).count_ones() as usize], (i * 64 + b as usize) as Cell);
                            m &= m - 1;
                        }
                        rank += e.count_ones() as usize;
                    }
                }
            }
            if next.is_empty() {
                return false;
            }
        }
        for k in 0..=n {
            self.count.push(self.nodes[k].len() as u32);
            self.reach[k].clear();
            self.reach[k].resize(self.nodes[k].len(), true);
        }
        true
    }

    /// The forward pass over the line's live transitions: those whose value is still
    /// in its cell's domain, from a node still reached.
    fn filter(&mut self, doms: &[Values], live: &Live) -> bool {
        let n = doms.len();
        self.count.extend_from_slice(&live.count);
        for k in 0..=n {
            self.reach[k].clear();
            self.reach[k].resize(live.count[k] as usize, false);
        }
        self.reach[0][0] = true;
        for (k, dom) in doms.iter().enumerate() {
            let (head, tail) = self.reach.split_at_mut(k + 1);
            let (cur, next) = (&head[k], &mut tail[0]);
            let trans = &mut self.trans[k];
            trans.clear();
            let first = &live.first[live.base[k] as usize..];
            for (x, _) in cur.iter().enumerate().filter(|p| *p.1) {
                for &(x, y, v) in &live.trans[first[x] as usize..first[x + 1] as usize] {
                    if dom.has(v) {
                        next[y as usize] = true;
                        trans.push((x, y, v));
                    }
                }
            }
            if trans.is_empty() {
                return false;
            }
        }
        true
    }

    /// Fills `weight`: per value of `cell`, the words of the unrolled line through it.
    fn weigh(&mut self, n: usize, cell: usize) {
        self.back.resize_with(n + 1, Vec::new);
        self.back[n].clear();
        self.back[n].resize(self.count[n] as usize, 1.0);
        for k in (cell + 1..n).rev() {
            let (head, tail) = self.back.split_at_mut(k + 1);
            let (b, after) = (&mut head[k], &tail[0]);
            b.clear();
            b.resize(self.count[k] as usize, 0.0);
            for &(x, y, _) in &self.trans[k] {
                b[x as usize] += after[y as usize];
            }
        }
        self.fwd.resize_with(n + 1, Vec::new);
        self.fwd[0].clear();
        self.fwd[0].push(1.0);
        for k in 0..cell {
            let (head, tail) = self.fwd.split_at_mut(k + 1);
            let (f, next) = (&head[k], &mut tail[0]);
            next.clear();
            next.resize(self.count[k + 1] as usize, 0.0);
            for &(x, y, _) in &self.trans[k] {
                next[y as usize] += f[x as usize];
            }
        }
        self.weight.clear();
        self.weight.resize(usize::from(BLANK) + 1, 0.0);
        let (f, after) = (&self.fwd[cell], &self.back[cell + 1]);
        for &(x, y, v) in &self.trans[cell] {
            self.weight[usize::from(v)] += f[x as usize] * after[y as usize];
        }
    }
}
