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
    /// Per cell k, when filtering a [`Table`]: each kept transition's index there.
    index: Vec<Vec<u32>>,
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
/// instead of unrolling the automaton again.
///
/// A pass that keeps most of a [`Table`] marks what it keeps in a bitset over it
/// ([`Live::Subset`], one bit a transition) instead of copying it: the lanes of the
/// portfolio share the root's tables, and the snapshots of a search's decisions share
/// their tables, so a snapshot near the root costs kilobytes, not megabytes. A pass
/// that keeps few copies them into a table of their own, which later passes filter at
/// the cost of what is left. Cloning a `Live` clones two `Arc`s; a pass replaces its
/// line's `Live`, never changes a table while it is shared.
#[derive(Clone, Debug, Default)]
pub(super) enum Live {
    /// Before the line's opening walk.
    #[default]
    Unwalked,
    /// Every transition of the table.
    Table(Arc<Table>),
    /// The transitions of `table` whose bit is set in `bits` (`len` of them).
    Subset { table: Arc<Table>, bits: Arc<Vec<u64>>, len: usize },
}

/// Transitions of a line, cell by cell and within a cell by their first node: node `x`
/// at boundary `k` leaves by the transitions `first[base[k] + x]..first[base[k] + x + 1]`,
/// each its target node at `k + 1` and its value.
#[derive(Clone, Debug, Default)]
pub(super) struct Table {
    /// Per boundary, the number of nodes.
    count: Vec<u32>,
    to: Vec<u32>,
    value: Vec<Cell>,
    first: Vec<u32>,
    base: Vec<u32>,
}

impl Table {
    /// The transitions out of node `x` at boundary `k`, as indices.
    fn out(&self, k: usize, x: usize) -> std::ops::Range<usize> {
        let f = &self.first[self.base[k] as usize + x..];
        f[0] as usize..f[1] as usize
    }
}

/// The set bits of `bits` within `range`, ascending.
fn ones(bits: &[u64], range: std::ops::Range<usize>) -> impl Iterator<Item = usize> + '_ {
    let mut i = range.start;
    let end = range.end;
    std::iter::from_fn(move || {
        while i < end {
            let w = bits[i / 64] >> (i % 64);
            if w == 0 {
                i = (i / 64 + 1) * 64;
                continue;
            }
            let at = i + w.trailing_zeros() as usize;
            if at >= end {
                i = end;
                return None;
            }
            i = at + 1;
            return Some(at);
        }
        None
    })
}

impl Pass {
    /// Unrolls `fa` over cells with domains `doms` — or, when `live` holds the line's
    /// live transitions under domains that contained `doms`, filters those; fills
    /// `support` and returns whether some word fits, and then replaces `live` with this
    /// pass's live transitions: a subset of the table it filtered while it keeps at
    /// least one transition in `share` ([`super::Tuning::subset_share`]), else a table of
    /// their own. With `weigh = Some(k)`, also fills `weight` with the words through
    /// each value of cell `k`.
    pub(super) fn run(&mut self, fa: &Flat, doms: &[Values], weigh: Option<usize>, live: &mut Live, share: usize) -> bool {
        let n = doms.len();
        self.trans.resize_with(n, Vec::new);
        self.index.resize_with(n, Vec::new);
        self.reach.resize_with(n + 1, Vec::new);
        self.alive.resize_with(n + 1, Vec::new);
        self.renumber.resize_with(n + 1, Vec::new);
        self.count.clear();
        if weigh.is_some() {
            // A line with no word left weighs nothing.
            self.weight.clear();
            self.weight.resize(usize::from(BLANK) + 1, 0.0);
        }
        let (fits, before) = match live {
            Live::Unwalked => (self.unroll(fa, doms), None),
            Live::Table(t) => (self.filter(doms, t, None), Some(t.to.len())),
            Live::Subset { table, bits, len } => (self.filter(doms, table, Some(bits)), Some(*len)),
        };
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
        // When a filtering pass lost no transition, the line's `Live` stands as it is.
        if before == Some(kept) {
            return true;
        }
        let table = match live {
            Live::Table(t) | Live::Subset { table: t, .. } if kept.saturating_mul(share) >= t.to.len() => Some(Arc::clone(t)),
            _ => None,
        };
        match table {
            Some(t) => self.keep_subset(t, kept, live),
            None => self.keep_table(n, kept, live),
        }
        true
    }

    /// Replaces `live` with the kept transitions as a subset of `table`, the table the
    /// pass filtered.
    fn keep_subset(&mut self, table: Arc<Table>, kept: usize, live: &mut Live) {
        let words = table.to.len().div_ceil(64);
        // The bitset of the line's previous subset, when nothing else holds it.
        let mut bits = match std::mem::take(live) {
            Live::Subset { bits, .. } => Arc::try_unwrap(bits).unwrap_or_default(),
            _ => Vec::new(),
        };
        bits.clear();
        bits.resize(words, 0);
        for (k, trans) in self.trans.iter().enumerate() {
            let after = &self.alive[k + 1];
            for (&(_, y, _), &i) in trans.iter().zip(&self.index[k]) {
                if after[y as usize] {
                    bits[i as usize / 64] |= 1 << (i % 64);
                }
            }
        }
        *live = Live::Subset { table, bits: Arc::new(bits), len: kept };
    }

    /// Replaces `live` with a table of the kept transitions, nodes renumbered densely.
    fn keep_table(&mut self, n: usize, kept: usize, live: &mut Live) {
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
        // The line's previous table, when nothing else holds it.
        let mut out = match std::mem::take(live) {
            Live::Table(t) => Arc::try_unwrap(t).unwrap_or_default(),
            _ => Table::default(),
        };
        out.count.clear();
        out.count.extend(self.alive.iter().take(n + 1).map(|a| a.iter().filter(|&&x| x).count() as u32));
        out.to.clear();
        out.to.reserve(kept);
        out.value.clear();
        out.value.reserve(kept);
        out.first.clear();
        out.base.clear();
        for k in 0..n {
            out.base.push(out.first.len() as u32);
            let (rx, ry) = (&self.renumber[k], &self.renumber[k + 1]);
            // The kept transitions are in the order of their first node, and the
            // renumbering keeps that order.
            out.first.push(out.to.len() as u32);
            let mut at = 0;
            for &(x, y, v) in &self.trans[k] {
                let y = ry[y as usize];
                if y != DEAD {
                    let x = rx[x as usize];
                    while at < x {
                        out.first.push(out.to.len() as u32);
                        at += 1;
                    }
                    out.to.push(y);
                    out.value.push(v);
                }
            }
            while at < out.count[k] {
                out.first.push(out.to.len() as u32);
                at += 1;
            }
        }
        *live = Live::Table(Arc::new(out));
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

    /// The forward pass over the line's live transitions: those of `table` (within
    /// `subset`, when given) whose value is still in its cell's domain, from a node
    /// still reached.
    fn filter(&mut self, doms: &[Values], table: &Table, subset: Option<&Vec<u64>>) -> bool {
        let n = doms.len();
        self.count.extend_from_slice(&table.count);
        for k in 0..=n {
            self.reach[k].clear();
            self.reach[k].resize(table.count[k] as usize, false);
        }
        self.reach[0][0] = true;
        for (k, dom) in doms.iter().enumerate() {
            let (head, tail) = self.reach.split_at_mut(k + 1);
            let (cur, next) = (&head[k], &mut tail[0]);
            let (trans, index) = (&mut self.trans[k], &mut self.index[k]);
            trans.clear();
            index.clear();
            let mut take = |x: usize, i: usize| {
                let (y, v) = (table.to[i], table.value[i]);
                if dom.has(v) {
                    next[y as usize] = true;
                    trans.push((x as u32, y, v));
                    index.push(i as u32);
                }
            };
            for (x, _) in cur.iter().enumerate().filter(|p| *p.1) {
                match subset {
                    None => table.out(k, x).for_each(|i| take(x, i)),
                    Some(bits) => ones(bits, table.out(k, x)).for_each(|i| take(x, i)),
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
