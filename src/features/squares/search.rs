//! The default route: a dedicated search over the pair-token automata that keeps every
//! row and column arc consistent, picks the most constrained cell next, and restarts.
//!
//! * **Domains.** Every cell has a domain: the pairs and the blank it may still take
//!   (a given cell's value only, at the start).
//! * **Lines.** A row or column is a `regular` constraint (Pesant): its automaton is
//!   unrolled over its cells, each cell within its domain — a forward pass over
//!   (cell, state) nodes that can still end a word in the cells left (word-final
//!   information per state), then a backward pass that keeps the nodes from which a
//!   word ends at the last cell. A value stays in a cell's domain only if some
//!   surviving transition there carries it: some word through it completes the line.
//!   A line with no word left is a dead end.
//! * **Live transitions.** Each pass keeps its line's live transitions; the domains
//!   only shrink until a backtrack restores them (and these) from a snapshot, so only
//!   a line's first pass walks the automaton, and later passes filter what is left.
//! * **Propagation.** When a cell's domain shrinks to at most [`Tuning::wake`] values,
//!   the line across it is queued, and the queue runs to a fixpoint (with no limit,
//!   every line is arc consistent after every step; a pass over a line of large
//!   domains costs the most and prunes the least, so by default they wait). The
//!   decided cell's row and column are always passed, so every line of a complete
//!   square has been checked.
//! * **Cell order.** The next cell is the undecided one with the fewest values left
//!   per dead end of its row and column so far (dom/wdeg, counted over all runs; ties
//!   broken by the seeded generator): the search goes where the square is tightest and
//!   where it failed before, wherever that is, instead of row by row.
//! * **Value order.** The cell's values are weighed by the words left through them: the
//!   row's count times the column's (the backward pass with forward counts too).
//!   The value taken is the one with the largest `α·ln(weight)` plus Gumbel noise from
//!   the seeded generator — a sample in proportion to `weight^α`, α = 3 by default —
//!   so a seed fixes the run, and other seeds explore elsewhere.
//! * **Branching** is binary: the cell takes the value, or, when that fails, loses it
//!   (and the loss propagates like any other narrowing).
//! * **Repeats** are checked after each fixpoint among the lines whose every cell is
//!   decided.
//! * **Restarts** follow the Luby sequence (1, 1, 2, 1, 1, 2, 4, …) times a base number
//!   of dead ends, which cuts the heavy tail of single runs. Cutoffs grow without
//!   bound, and a run that finishes its whole tree below its cutoff has exhausted the
//!   search: then no (further) square exists.

use super::dawg::{Flat, Lexicon, StateId};
use super::{BLANK, Cell, Given, Outcome, PAIRS, Progress, Size, Square, letters_of, verify};
use crate::error::{Error, Result};
use crate::puzzle::Dictionary;
use crate::rng::Rng;
use std::collections::HashSet;
use std::rc::Rc;
use std::sync::atomic::Ordering::Relaxed;

/// Tuning of the search.
#[derive(Clone, Copy, Debug)]
pub struct Tuning {
    /// Dead ends per Luby unit before a restart.
    pub restart_base: u64,
    /// Exponent of the weights in the sampled value order (0: uniform, large: greedy).
    pub greed: f64,
    /// Pick the cell with the fewest values left (else the first undecided cell,
    /// row by row).
    pub fewest_first: bool,
    /// A narrowed cell wakes the line across it only when it has at most this many
    /// values left (a large domain rarely prunes the other line, and a pass over a
    /// line with large domains is the costliest step).
    pub wake: u32,
    /// Weigh a cell's domain size by its lines' dead ends (dom/wdeg): the cell taken is
    /// the one with the fewest values per dead end of its row and column so far,
    /// counted over all runs.
    pub wdeg: bool,
}

impl Default for Tuning {
    fn default() -> Tuning {
        Tuning { restart_base: 100, greed: 3.0, fewest_first: true, wake: 32, wdeg: true }
    }
}

impl Tuning {
    /// The default, with fields overridden by `CROSSAT_SQUARES_TUNING`
    /// (`restart_base,greed,fewest_first,wake,wdeg`, empty fields kept; for
    /// measurements).
    pub fn from_env() -> Tuning {
        let mut t = Tuning::default();
        if let Ok(v) = std::env::var("CROSSAT_SQUARES_TUNING") {
            let f: Vec<&str> = v.split(',').collect();
            if let Some(x) = f.first().and_then(|x| x.parse().ok()) {
                t.restart_base = x;
            }
            if let Some(x) = f.get(1).and_then(|x| x.parse().ok()) {
                t.greed = x;
            }
            if let Some(x) = f.get(2).and_then(|x| x.parse().ok()) {
                t.fewest_first = x;
            }
            if let Some(x) = f.get(3).and_then(|x| x.parse().ok()) {
                t.wake = x;
            }
            if let Some(x) = f.get(4).and_then(|x| x.parse().ok()) {
                t.wdeg = x;
            }
        }
        t
    }
}

/// The values a cell may take, as a bitset over the pairs and the blank.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Values([u64; WORDS]);

const WORDS: usize = (PAIRS + 1).div_ceil(64);

impl Values {
    const EMPTY: Values = Values([0; WORDS]);
    fn full() -> Values {
        let mut v = Values::EMPTY;
        for x in 0..=BLANK {
            v.add(x);
        }
        v
    }
    fn one(v: Cell) -> Values {
        let mut s = Values::EMPTY;
        s.add(v);
        s
    }
    fn has(&self, v: Cell) -> bool {
        self.0[usize::from(v) / 64] >> (v % 64) & 1 == 1
    }
    fn add(&mut self, v: Cell) {
        self.0[usize::from(v) / 64] |= 1 << (v % 64);
    }
    fn remove(&mut self, v: Cell) {
        self.0[usize::from(v) / 64] &= !(1 << (v % 64));
    }
    fn len(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    /// The value of a singleton.
    fn first(&self) -> Option<Cell> {
        self.0.iter().enumerate().find(|(_, w)| **w != 0).map(|(i, w)| (i * 64 + w.trailing_zeros() as usize) as Cell)
    }
    fn iter(&self) -> impl Iterator<Item = Cell> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let b = w.trailing_zeros();
                    w &= w - 1;
                    (i * 64 + b as usize) as Cell
                })
            })
        })
    }
}

/// Scratch space of one pass over a line, kept between passes.
#[derive(Default)]
struct Pass {
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
    support: Vec<Values>,
    /// Per value, the words through it at the weighed cell.
    weight: Vec<f64>,
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
struct Live {
    /// Per boundary, the number of nodes; empty before the line's first pass.
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
    fn run(&mut self, fa: &Flat, doms: &[Values], weigh: Option<usize>, live: &mut Rc<Live>) -> bool {
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
        let out = match Rc::get_mut(live) {
            Some(l) => l,
            None => {
                *live = Rc::new(Live::default());
                Rc::get_mut(live).expect("a new Rc is not shared")
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

    /// The forward pass over the automaton itself (a line's first pass).
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

/// One decision: the domains before it, the cell and the value it took.
struct Decision {
    saved: Vec<Values>,
    /// The lines' live nodes before it.
    live: Vec<Rc<Live>>,
    cell: usize,
    value: Cell,
}

struct Search<'a> {
    size: Size,
    row_fa: &'a Flat,
    col_fa: &'a Flat,
    /// Lines: rows, then columns, as cell indices.
    lines: Vec<Vec<usize>>,
    dom: Vec<Values>,
    /// Per line, its live nodes after its last pass.
    live: Vec<Rc<Live>>,
    queue: Vec<usize>,
    queued: Vec<bool>,
    pass: Pass,
    doms: Vec<Values>,
    rng: Rng,
    tuning: Tuning,
    repeats: usize,
    /// Per line, 1 + the dead ends its passes found (for [`Tuning::wdeg`]).
    fails: Vec<u64>,
}

/// Finds up to `count` distinct squares with the dedicated search, each verified before
/// it is passed on. The seed fixes the whole run: the same seed gives the same squares.
#[allow(clippy::too_many_arguments, reason = "the command's parameters, passed through")]
pub fn search(
    lex: &Lexicon,
    size: Size,
    dict: &Dictionary,
    given: &Given,
    seed: u64,
    count: usize,
    tuning: Tuning,
    progress: &Progress,
    mut on_square: impl FnMut(&Square) -> Result<()>,
) -> Result<Outcome> {
    let (row_fa, col_fa) = (&lex.get(size.width).flat, &lex.get(size.height).flat);
    let mut outcome = Outcome::default();
    if row_fa.root().is_none() || col_fa.root().is_none() {
        outcome.complete = true;
        return Ok(outcome);
    }
    let lines = size.lines();
    let nlines = lines.len();
    let mut s = Search {
        size,
        row_fa,
        col_fa,
        lines,
        dom: given.cells.iter().map(|g| g.map_or_else(Values::full, Values::one)).collect(),
        live: (0..nlines).map(|_| Rc::new(Live::default())).collect(),
        queue: (0..nlines).collect(),
        queued: vec![true; nlines],
        pass: Pass::default(),
        doms: Vec::new(),
        rng: Rng::new(seed),
        tuning,
        repeats: 0,
        fails: vec![1; nlines],
    };
    // The root: every line made arc consistent once; every run starts from here.
    if !s.propagate() {
        outcome.complete = true;
        return Ok(outcome);
    }
    let root = s.dom.clone();
    let root_live = s.live.clone();
    let mut found: HashSet<Vec<Values>> = HashSet::new();
    let mut stack: Vec<Decision> = Vec::new();
    let mut nodes = 0u64;
    'runs: for run in 0u64.. {
        let cutoff = tuning.restart_base.saturating_mul(luby(run + 1));
        let mut dead_ends = 0u64;
        outcome.restarts = run;
        progress.restarts.store(run, Relaxed);
        s.dom.clone_from(&root);
        s.live.clone_from(&root_live);
        stack.clear();
        // Invariant at the loop head: the domains are at a fixpoint with no dead end.
        loop {
            let failed = match s.pick_cell() {
                Some(cell) => {
                    let value = s.pick_value(cell);
                    nodes += 1;
                    if nodes.is_multiple_of(256) {
                        progress.nodes.store(nodes, Relaxed);
                    }
                    stack.push(Decision { saved: s.dom.clone(), live: s.live.clone(), cell, value });
                    s.narrow(cell, Values::one(value));
                    !s.propagate() || !s.no_repeats()
                }
                None => {
                    // Every cell decided: a square (each line spells a word, no repeats).
                    if found.insert(s.dom.clone()) {
                        let sq = s.square();
                        verify(&sq, dict)
                            .map_err(|e| Error::Internal(format!("a generated square failed verification: {e}\n{}", sq.draw())))?;
                        if !given.admits(&sq) {
                            return Err(Error::Internal(format!("a generated square ignores a given cell\n{}", sq.draw())));
                        }
                        on_square(&sq)?;
                        outcome.found += 1;
                        progress.found.store(outcome.found, Relaxed);
                        if outcome.found >= count {
                            break 'runs;
                        }
                    }
                    true
                }
            };
            if !failed {
                continue;
            }
            // Back up: undo the latest decision and take its value away instead, until
            // that leaves a consistent square.
            dead_ends += 1;
            loop {
                let Some(d) = stack.pop() else {
                    outcome.complete = true;
                    break 'runs;
                };
                s.dom = d.saved;
                s.live = d.live;
                let mut rest = s.dom[d.cell];
                rest.remove(d.value);
                s.narrow(d.cell, rest);
                if s.propagate() && s.no_repeats() {
                    break;
                }
                dead_ends += 1;
            }
            if dead_ends >= cutoff {
                break;
            }
        }
    }
    outcome.nodes = nodes;
    outcome.repeats_blocked = s.repeats;
    progress.nodes.store(nodes, Relaxed);
    Ok(outcome)
}

/// The Luby sequence, from `i = 1`: 1, 1, 2, 1, 1, 2, 4, 1, …
fn luby(i: u64) -> u64 {
    let mut k = 1u32;
    while (1u64 << k) - 1 < i {
        k += 1;
    }
    if (1u64 << k) - 1 == i { 1 << (k - 1) } else { luby(i - (1u64 << (k - 1)) + 1) }
}

impl Search<'_> {
    fn fa<'f>(&self, line: usize) -> &'f Flat
    where
        Self: 'f,
    {
        if line < self.size.height { self.row_fa } else { self.col_fa }
    }

    /// The row and the column through `cell`.
    fn lines_of(&self, cell: usize) -> [usize; 2] {
        let w = self.size.width;
        [cell / w, self.size.height + cell % w]
    }

    /// Sets a cell's domain and queues its lines.
    fn narrow(&mut self, cell: usize, to: Values) {
        self.dom[cell] = to;
        for l in self.lines_of(cell) {
            if !self.queued[l] {
                self.queued[l] = true;
                self.queue.push(l);
            }
        }
    }

    /// Runs the queued lines to a fixpoint; false at a dead end (a line with no word
    /// left). The queue is empty afterwards either way.
    fn propagate(&mut self) -> bool {
        while let Some(l) = self.queue.pop() {
            self.queued[l] = false;
            let fa = self.fa(l);
            self.doms.clear();
            self.doms.extend(self.lines[l].iter().map(|&c| self.dom[c]));
            if !self.pass.run(fa, &self.doms, None, &mut self.live[l]) {
                self.fails[l] += 1;
                for &q in &self.queue {
                    self.queued[q] = false;
                }
                self.queue.clear();
                return false;
            }
            for k in 0..self.doms.len() {
                let sup = self.pass.support[k];
                if sup != self.doms[k] {
                    let cell = self.lines[l][k];
                    self.dom[cell] = sup;
                    if sup.len() > self.tuning.wake {
                        continue;
                    }
                    let [row, col] = self.lines_of(cell);
                    let other = if row == l { col } else { row };
                    if !self.queued[other] {
                        self.queued[other] = true;
                        self.queue.push(other);
                    }
                }
            }
        }
        true
    }

    /// Whether no two lines whose cells are all decided spell the same word.
    fn no_repeats(&mut self) -> bool {
        let mut words: Vec<Vec<Cell>> = Vec::new();
        for line in &self.lines {
            if line.iter().all(|&c| self.dom[c].len() == 1) {
                let word: Vec<Cell> = line.iter().filter_map(|&c| self.dom[c].first()).filter(|&v| v != BLANK).collect();
                if words.contains(&word) {
                    self.repeats += 1;
                    return false;
                }
                words.push(word);
            }
        }
        true
    }

    /// The undecided cell to branch on, `None` when every cell is decided.
    fn pick_cell(&mut self) -> Option<usize> {
        if !self.tuning.fewest_first {
            return (0..self.dom.len()).find(|&c| self.dom[c].len() > 1);
        }
        let mut best: Option<(u64, usize)> = None;
        let mut ties = 0;
        for c in 0..self.dom.len() {
            let n = self.dom[c].len();
            if n <= 1 {
                continue;
            }
            // Fewest values, or fewest values per dead end of the cell's lines (scaled
            // so that the comparison stays in integers).
            let n = if self.tuning.wdeg {
                let [row, col] = self.lines_of(c);
                (u64::from(n) << 32) / (self.fails[row] + self.fails[col])
            } else {
                u64::from(n)
            };
            match best {
                Some((b, _)) if n > b => {}
                Some((b, _)) if n == b => {
                    ties += 1;
                    if self.rng.below(ties + 1) == 0 {
                        best = Some((n, c));
                    }
                }
                _ => {
                    best = Some((n, c));
                    ties = 0;
                }
            }
        }
        best.map(|b| b.1)
    }

    /// The value to try at `cell`: sampled in proportion to (row words through it ×
    /// column words through it) to the power `greed`.
    fn pick_value(&mut self, cell: usize) -> Cell {
        let mut weight = vec![1.0f64; usize::from(BLANK) + 1];
        for l in self.lines_of(cell) {
            let k = self.lines[l].iter().position(|&c| c == cell).expect("the cell is on its line");
            self.doms.clear();
            self.doms.extend(self.lines[l].iter().map(|&c| self.dom[c]));
            let fa = if l < self.size.height { self.row_fa } else { self.col_fa };
            let _ = self.pass.run(fa, &self.doms, Some(k), &mut self.live[l]);
            for (w, x) in weight.iter_mut().zip(&self.pass.weight) {
                *w *= x;
            }
        }
        let greed = self.tuning.greed;
        let mut best = (f64::NEG_INFINITY, BLANK);
        for v in self.dom[cell].iter() {
            let x = (self.rng.next() >> 11) as f64 / (1u64 << 53) as f64;
            let gumbel = -(-(x.max(1e-300)).ln()).ln();
            let score = greed * weight[usize::from(v)].max(1e-300).ln() + gumbel;
            if score > best.0 {
                best = (score, v);
            }
        }
        best.1
    }

    fn square(&self) -> Square {
        Square { size: self.size, cells: self.dom.iter().map(|d| letters_of(d.first().unwrap_or(BLANK))).collect() }
    }
}
