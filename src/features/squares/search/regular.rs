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
    /// Per cell boundary k (cells read), the nodes of a line's opening walk over the
    /// automaton: its states (a state's layer is the number of pairs read, so it names
    /// the node).
    nodes: Vec<Vec<StateId>>,
    /// Per boundary k, the number of nodes (numbered from 0).
    count: Vec<u32>,
    /// Per cell k, the transitions the pass keeps, as (index in the table filtered,
    /// source node): the forward pass's (from a reached node, value in the domain),
    /// then the backward pass's (into a live node) in their first `picked_len[k]`
    /// entries, in the table's order. The vectors only grow: the forward pass writes
    /// every transition it reads and advances past the ones it keeps, without a branch.
    picked: Vec<Vec<[u32; 2]>>,
    picked_len: Vec<usize>,
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
    /// A table to build the next copied [`Live`] in (a replaced table nothing else
    /// holds comes back here).
    spare: Table,
    /// The result: per cell, the values some word through the line puts there.
    pub(super) support: Vec<Values>,
    /// Per value, the words through it at the weighed cell.
    pub(super) weight: Vec<f64>,
}

/// A domain's words, padded to 16 so that a value's word is found with a mask instead
/// of a bounds check.
fn wide(v: &Values) -> [u64; 16] {
    let mut w = [0u64; 16];
    w[..v.0.len()].copy_from_slice(&v.0);
    w
}

/// Whether value `v` is in `w` (a [`wide`] domain), as 0 or 1.
fn bit(w: &[u64; 16], v: Cell) -> u64 {
    (w[usize::from(v >> 6) & 15] >> (v & 63)) & 1
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
    /// their own (always after the line's opening walk). With `weigh = Some(k)`, also
    /// fills `weight` with the words through each value of cell `k`.
    pub(super) fn run(&mut self, fa: &Flat, doms: &[Values], weigh: Option<usize>, live: &mut Live, share: usize) -> bool {
        let n = doms.len();
        self.picked.resize_with(n, Vec::new);
        self.picked_len.resize(n, 0);
        self.reach.resize_with(n + 1, Vec::new);
        self.alive.resize_with(n + 1, Vec::new);
        self.renumber.resize_with(n + 1, Vec::new);
        if weigh.is_some() {
            // A line with no word left weighs nothing.
            self.weight.clear();
            self.weight.resize(usize::from(BLANK) + 1, 0.0);
        }
        // The opening walk unrolls the automaton into a table, and the pass filters
        // that like any other.
        let (table, bits, before) = match &*live {
            Live::Unwalked => match self.unroll(fa, doms) {
                Some(t) => (Arc::new(t), None, None),
                None => return false,
            },
            Live::Table(t) => (Arc::clone(t), None, Some(t.to.len())),
            Live::Subset { table, bits, len } => (Arc::clone(table), Some(Arc::clone(bits)), Some(*len)),
        };
        if !self.filter(doms, &table, bits.as_deref()) {
            return false;
        }
        drop(bits);
        let kept = self.backward(n, &table);
        if kept == 0 {
            return false;
        }
        if let Some(cell) = weigh {
            self.weigh(n, cell, &table);
        }
        // When a filtering pass lost no transition, the line's `Live` stands as it is.
        if before == Some(kept) {
            return true;
        }
        if before.is_some() && kept.saturating_mul(share) >= table.to.len() {
            self.keep_subset(table, kept, live);
        } else {
            self.keep_table(n, kept, &table, live);
        }
        true
    }

    /// The backward pass: a reached node at the last boundary ends a word; a picked
    /// transition into a live node keeps its source and its value. Leaves the kept
    /// transitions first in `picked`, fills `support`, and returns how many it kept
    /// (0: no word fits).
    fn backward(&mut self, n: usize, table: &Table) -> usize {
        self.support.clear();
        self.support.resize(n, Values::EMPTY);
        self.alive[n].clone_from(&self.reach[n]);
        let mut kept = 0usize;
        for k in (0..n).rev() {
            let (head, tail) = self.alive.split_at_mut(k + 1);
            let (cur, after) = (&mut head[k], &tail[0]);
            cur.clear();
            cur.resize(self.count[k] as usize, false);
            let mut sup = [0u64; 16];
            let picked = &mut self.picked[k];
            let mut w = 0;
            for j in 0..self.picked_len[k] {
                let [i, x] = picked[j];
                let i = i as usize;
                let a = after[table.to[i] as usize];
                let v = table.value[i];
                picked[w] = [i as u32, x];
                w += usize::from(a);
                cur[x as usize] |= a;
                sup[usize::from(v >> 6) & 15] |= u64::from(a) << (v & 63);
            }
            self.picked_len[k] = w;
            kept += w;
            let s = &mut self.support[k].0;
            let len = s.len();
            s.copy_from_slice(&sup[..len]);
        }
        if self.alive[0].first() != Some(&true) {
            return 0;
        }
        kept
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
        for (picked, &len) in self.picked.iter().zip(&self.picked_len) {
            for &[i, _] in &picked[..len] {
                bits[i as usize / 64] |= 1 << (i % 64);
            }
        }
        *live = Live::Subset { table, bits: Arc::new(bits), len: kept };
    }

    /// Replaces `live` with a table of the kept transitions (read from `table`), nodes
    /// renumbered densely.
    fn keep_table(&mut self, n: usize, kept: usize, table: &Table, live: &mut Live) {
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
        let mut out = std::mem::take(&mut self.spare);
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
            for &[i, x] in &self.picked[k][..self.picked_len[k]] {
                let x = rx[x as usize];
                while at < x {
                    out.first.push(out.to.len() as u32);
                    at += 1;
                }
                out.to.push(ry[table.to[i as usize] as usize]);
                out.value.push(table.value[i as usize]);
            }
            while at < out.count[k] {
                out.first.push(out.to.len() as u32);
                at += 1;
            }
        }
        // The line's previous table comes back as the spare, when nothing else holds it.
        if let Live::Table(t) = std::mem::replace(live, Live::Table(Arc::new(out)))
            && let Ok(t) = Arc::try_unwrap(t)
        {
            self.spare = t;
        }
    }

    /// The forward pass over the automaton itself (a line's opening walk), as a table
    /// of the transitions from reached nodes within the domains into nodes from which
    /// a word can end in the cells left; `None` when no word fits.
    fn unroll(&mut self, fa: &Flat, doms: &[Values]) -> Option<Table> {
        let n = doms.len();
        if self.slot.len() < fa.states() {
            self.slot.resize(fa.states(), (0, 0));
        }
        self.nodes.resize_with(n + 1, Vec::new);
        self.nodes[0].clear();
        self.nodes[0].push(0);
        let mut out = Table::default();
        for k in 0..n {
            let dom = doms[k];
            // Cells left after this one: a node made here must end a word within them.
            let left = (n - k - 1) as u8;
            self.epoch += 1;
            let epoch = self.epoch;
            let (cur, rest) = self.nodes.split_at_mut(k + 1);
            let (cur, next) = (&cur[k], &mut rest[0]);
            next.clear();
            out.base.push(out.first.len() as u32);
            let slot = &mut self.slot;
            for &q in cur {
                out.first.push(out.to.len() as u32);
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
                        out.to.push(s.1);
                        out.value.push(v);
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
            out.first.push(out.to.len() as u32);
            if next.is_empty() {
                return None;
            }
        }
        out.count.extend(self.nodes[..=n].iter().map(|l| l.len() as u32));
        Some(out)
    }

    /// The forward pass over a table's transitions (within `subset`, when given): those
    /// from a node still reached whose value is still in its cell's domain.
    fn filter(&mut self, doms: &[Values], table: &Table, subset: Option<&Vec<u64>>) -> bool {
        let n = doms.len();
        self.count.clear();
        self.count.extend_from_slice(&table.count);
        for k in 0..=n {
            self.reach[k].clear();
            self.reach[k].resize(table.count[k] as usize, false);
        }
        self.reach[0][0] = true;
        for (k, dom) in doms.iter().enumerate() {
            let (head, tail) = self.reach.split_at_mut(k + 1);
            let (cur, next) = (&head[k], &mut tail[0]);
            let dom = wide(dom);
            // Every transition of the cell may be picked.
            let b = table.base[k] as usize;
            let span = (table.first[b + cur.len()] - table.first[b]) as usize;
            let picked = &mut self.picked[k];
            if picked.len() < span {
                picked.resize(span, [0, 0]);
            }
            let mut np = 0;
            let mut take = |x: usize, i: usize| {
                let keep = bit(&dom, table.value[i]);
                picked[np] = [i as u32, x as u32];
                np += keep as usize;
                next[table.to[i] as usize] |= keep != 0;
            };
            for (x, _) in cur.iter().enumerate().filter(|p| *p.1) {
                match subset {
                    None => table.out(k, x).for_each(|i| take(x, i)),
                    Some(bits) => ones(bits, table.out(k, x)).for_each(|i| take(x, i)),
                }
            }
            if np == 0 {
                return false;
            }
            self.picked_len[k] = np;
        }
        true
    }

    /// Fills `weight`: per value of `cell`, the words of the unrolled line through it.
    fn weigh(&mut self, n: usize, cell: usize, table: &Table) {
        self.back.resize_with(n + 1, Vec::new);
        self.back[n].clear();
        self.back[n].resize(self.count[n] as usize, 1.0);
        for k in (cell + 1..n).rev() {
            let (head, tail) = self.back.split_at_mut(k + 1);
            let (b, after) = (&mut head[k], &tail[0]);
            b.clear();
            b.resize(self.count[k] as usize, 0.0);
            for &[i, x] in &self.picked[k][..self.picked_len[k]] {
                b[x as usize] += after[table.to[i as usize] as usize];
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
            for &[i, x] in &self.picked[k][..self.picked_len[k]] {
                next[table.to[i as usize] as usize] += f[x as usize];
            }
        }
        self.weight.clear();
        self.weight.resize(usize::from(BLANK) + 1, 0.0);
        let (f, after) = (&self.fwd[cell], &self.back[cell + 1]);
        for &[i, x] in &self.picked[cell][..self.picked_len[cell]] {
            let i = i as usize;
            self.weight[usize::from(table.value[i])] += f[x as usize] * after[table.to[i] as usize];
        }
    }
}
