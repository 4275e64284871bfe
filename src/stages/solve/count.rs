//! Exact model counting over the cells: how many grids a puzzle has, without listing
//! them.
//!
//! Two routes: where the clues' automata are exact, a frontier sweep over the cells
//! (`order`, `frontier`, `classes`); else, or past the sweep's size, a branching search.
//!
//! The branching search: a depth-first search over the cells, as `super::lines` does,
//! that counts instead of listing, in the manner of the component-caching model counters (sharpSAT, Ganak):
//!
//! - *Propagation.* At every node each line is kept arc consistent over its
//!   automaton (`Propagator`): a letter leaves a cell only when no word of some
//!   clue's line uses it, so no grid is lost.
//! - *Segments and cuts.* A clue with an exact automaton (regular and bounded
//!   routes; deterministic, so a word has one run) is held as segments of its line
//!   (`segment`): the search branches on the state of a long segment's run after one
//!   of its cells, as on a cell's letters, splitting it in two; and a segment splits
//!   for free where its run has a single live state.
//! - *Satisfied segments.* A segment that accepts every word of the product of its
//!   cells' domains constrains nothing below this node: it is dropped (a count over
//!   the automaton, `segment::words`, equal to the product of the domain sizes). A
//!   clue whose automaton over-approximates it (back-references, lookarounds, the
//!   counterexample route) is never cut: the caller's matcher is asked about each word
//!   of its line, when there are at most `EXACT_WORDS`, and otherwise it stays; left
//!   with no open cell it is one word, which the matcher decides.
//! - *Components.* The open cells fall into components: two cells are in one when a
//!   segment that is not satisfied runs through both. The grids below a node are the
//!   product of the components' counts (and of the domain sizes of cells that no clue
//!   constrains any more), each counted alone.
//! - *Cache.* A component's count depends only on its segments and on the domains of
//!   their cells, so it is cached under that key; the same component met again (after
//!   other choices elsewhere) costs a look-up.
//!
//! Counts are over cell letters only: automaton states are branched on but never
//! counted, and each grid has one run per line, so nothing but the cells can multiply
//! a count. Every grid counted has every clue accepting its line (by an exact
//! automaton, or by the matcher), and every such grid is counted once (the branches on
//! a cell's letters, and on the states of a cut, are disjoint): the count is exact.

pub(crate) mod big;
mod branch;
mod cache;
mod classes;
mod frontier;
mod order;
mod parallel;
pub(crate) mod segment;
mod table;

use crate::stop::Cancel;
pub use big::Big;
use branch::{Branch, letter_classes};
pub(crate) use order::count_swept;
pub(crate) use parallel::count_branching_jobs;
use segment::Segment;

use super::Prepared;
use super::odometer::{EXACT_WORDS, Odometer, exact_support};
use crate::compile::Compiled;
use crate::error::Result;
use crate::propagate::{self, MAX_TABLE_WORDS, Propagator, Scratch, SymSet};
use std::collections::HashMap;

/// Counts the grids of a prepared puzzle with fixed clues (not a regex pool), from its
/// propagated domains; the matcher decides the clues whose automata over-approximate
/// them.
#[cfg(test)]
pub(crate) fn count_prepared(prep: &Prepared) -> Result<Counted> {
    count_prepared_within(prep, usize::MAX)?.ok_or_else(|| crate::error::Error::Internal("an unbounded count gave up".into()))
}

/// How far a count has got, for a progress display: `(done, total)` parts, where a part
/// is one case of the first two levels of decisions (a component's cases, then each
/// case's). `total` grows as cases are reached, so the pair says how much is left of the
/// work seen so far, not a time estimate.
pub(crate) type Report<'r> = &'r mut dyn FnMut(u64, u64);

/// The levels of decisions whose cases are parts of a [`Report`].
const REPORT_DEPTH: usize = 3;

/// [`count_prepared`] within `max_nodes` decisions: `None` when the count needs more.
/// By the frontier sweep (`order::swept`) where it applies, with a table of at most
/// 16 entries per decision; otherwise by the branching search.
pub(crate) fn count_prepared_within(prep: &Prepared, max_nodes: usize) -> Result<Option<Counted>> {
    if let Some(counted) = order::swept(prep, max_nodes, 1, None)? {
        return Ok(Some(counted));
    }
    count_prepared_branching(prep, max_nodes, None)
}

/// [`count_prepared_within`] by the branching search alone, telling `report` how far
/// it has got.
pub(crate) fn count_prepared_branching(prep: &Prepared, max_nodes: usize, report: Option<Report<'_>>) -> Result<Option<Counted>> {
    let compiled = prep.compiled()?;
    let Some(doms) = root_domains(prep, compiled) else { return Ok(Some(Counted { count: Big::zero(), nodes: 0, cache_hits: 0 })) };
    let lines = Propagator::new(&prep.puzzle);
    let mut report = report;
    let watch = Watch { max_nodes, cancel: &prep.cancel, report: report.as_mut().map(|r| &mut **r as Report<'_>) };
    run(&lines, compiled, &doms, refiner(prep, compiled), matcher(prep, compiled), watch)
}

/// The propagated domains a count of `prep` starts from; `None` when a cell has none.
fn root_domains(prep: &Prepared, compiled: &Compiled) -> Option<Vec<SymSet>> {
    if prep.direct { prep.domains.clone() } else { propagate::domains_with(&prep.puzzle, compiled, refiner(prep, compiled)) }
}

/// How a count narrows an over-approximated line's support (see [`count()`]).
fn refiner<'a>(prep: &'a Prepared, compiled: &'a Compiled) -> impl FnMut(usize, &[SymSet], &[SymSet]) -> Option<Vec<SymSet>> + 'a {
    let verifier = &prep.verifier;
    move |i, _: &[SymSet], s: &[SymSet]| exact_support(compiled, verifier, i, s, EXACT_WORDS)
}

/// The reference verdict of a clue on a word of symbols (see [`count()`]).
fn matcher<'a>(prep: &'a Prepared, compiled: &'a Compiled) -> impl FnMut(usize, &[usize]) -> Result<bool> + 'a {
    let (chars, verifier) = (compiled.alphabet.chars(), &prep.verifier);
    let mut text = String::new();
    move |i: usize, word: &[usize]| {
        text.clear();
        text.extend(word.iter().map(|&a| chars[a]));
        verifier.clue_matches(i, &text)
    }
}

/// A finished count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counted {
    /// The number of grids.
    pub count: Big,
    /// Nodes (decisions) of the search.
    pub nodes: usize,
    /// Components whose count came from the cache.
    pub cache_hits: usize,
}

/// Counts the grids within `doms` (already propagated; a domain per cell) that every
/// clue of `compiled` accepts. `refine` narrows an over-approximated line's support as
/// in `Propagator::narrow`; `matches(i, word)` is the reference verdict of clue `i`
/// on a word of symbols, asked for clues whose automaton over-approximates them.
///
/// Stops with [`crate::error::Error::Cancelled`] when its cancel token says so:
/// a count is complete or not given at all.
pub fn count(
    lines: &Propagator,
    compiled: &Compiled,
    doms: &[SymSet],
    refine: impl FnMut(usize, &[SymSet], &[SymSet]) -> Option<Vec<SymSet>>,
    matches: impl FnMut(usize, &[usize]) -> Result<bool>,
) -> Result<Counted> {
    count_within(lines, compiled, doms, usize::MAX, refine, matches, &Cancel::never())?
        .ok_or_else(|| crate::error::Error::Internal("an unbounded count gave up".into()))
}

/// [`count()`] within `max_nodes` decisions: `None` when the count needs more. It
/// polls `cancel` every 64 decisions.
pub fn count_within(
    lines: &Propagator,
    compiled: &Compiled,
    doms: &[SymSet],
    max_nodes: usize,
    refine: impl FnMut(usize, &[SymSet], &[SymSet]) -> Option<Vec<SymSet>>,
    matches: impl FnMut(usize, &[usize]) -> Result<bool>,
    cancel: &Cancel,
) -> Result<Option<Counted>> {
    run(lines, compiled, doms, refine, matches, Watch { max_nodes, cancel, report: None })
}

/// What bounds a count and who hears of its progress.
struct Watch<'a> {
    /// Most decisions before giving up.
    max_nodes: usize,
    cancel: &'a Cancel,
    report: Option<Report<'a>>,
}

fn run<'a>(
    lines: &'a Propagator,
    compiled: &'a Compiled,
    doms: &[SymSet],
    refine: impl FnMut(usize, &[SymSet], &[SymSet]) -> Option<Vec<SymSet>>,
    matches: impl FnMut(usize, &[usize]) -> Result<bool>,
    watch: Watch<'a>,
) -> Result<Option<Counted>> {
    let mut counter = Counter::new(lines, compiled, doms, refine, matches, watch);
    if doms.iter().any(SymSet::is_empty) {
        return Ok(Some(Counted { count: Big::zero(), nodes: 0, cache_hits: 0 }));
    }
    counter.scratch.tabulate(lines, compiled, doms, MAX_TABLE_WORDS);
    let cells: Vec<usize> = (0..doms.len()).filter(|&c| doms[c].len() > 1).collect();
    let segs: Vec<Segment> =
        compiled.clues.iter().enumerate().map(|(i, cc)| Segment::whole(i, lines.lines[i].len(), &cc.automaton)).collect();
    match counter.split(&cells, &segs) {
        Ok(count) => Ok(Some(Counted { count, nodes: counter.nodes, cache_hits: counter.cache_hits })),
        Err(_) if counter.nodes > counter.max_nodes => Ok(None),
        Err(e) => Err(e),
    }
}

struct Counter<'a, R, M> {
    /// Where progress goes ([`Report`]), with the depth of the decision being counted
    /// and the parts (done, total) so far.
    report: Option<Report<'a>>,
    depth: usize,
    parts: (u64, u64),
    /// Most decisions before giving up.
    max_nodes: usize,
    /// Polled every 64 decisions.
    cancel: &'a Cancel,
    lines: &'a Propagator,
    compiled: &'a Compiled,
    refine: R,
    matches: M,
    doms: Vec<SymSet>,
    scratch: Scratch,
    cache: cache::Cache<'a>,
    nodes: usize,
    cache_hits: usize,
    /// Union-find over cells, reset after each use.
    parent: Vec<usize>,
    word: Vec<usize>,
    line: Vec<SymSet>,
    /// Per clue, the class of each letter ([`letter_classes`]).
    classes: Vec<Vec<u32>>,
}

/// One component: its open cells and the segments that tie them.
struct Component {
    cells: Vec<usize>,
    segs: Vec<Segment>,
}

impl<'a, R, M> Counter<'a, R, M>
where
    R: FnMut(usize, &[SymSet], &[SymSet]) -> Option<Vec<SymSet>>,
    M: FnMut(usize, &[usize]) -> Result<bool>,
{
    /// A counter at the root `doms`, its line tables not yet made.
    fn new(lines: &'a Propagator, compiled: &'a Compiled, doms: &[SymSet], refine: R, matches: M, watch: Watch<'a>) -> Self {
        let Watch { max_nodes, cancel, report } = watch;
        Counter {
            report,
            depth: 0,
            parts: (0, 0),
            max_nodes,
            cancel,
            lines,
            compiled,
            refine,
            matches,
            doms: doms.to_vec(),
            scratch: Scratch::default(),
            cache: cache::Cache::own(),
            nodes: 0,
            cache_hits: 0,
            parent: vec![usize::MAX; doms.len()],
            word: Vec::new(),
            line: Vec::new(),
            classes: compiled.clues.iter().map(|cc| letter_classes(cc, compiled.alphabet.len())).collect(),
        }
    }

    fn open(&self, seg: &Segment) -> usize {
        seg.cells(&self.lines.lines[seg.clue as usize]).iter().filter(|&&c| self.doms[c].len() > 1).count()
    }

    /// The grids over `cells` (open cells, propagated) that `segs` (every segment through
    /// them that may still constrain them) accept: the product over the components.
    fn split(&mut self, cells: &[usize], segs: &[Segment]) -> Result<Big> {
        let Some((mut product, comps)) = self.decompose(cells, segs)? else { return Ok(Big::zero()) };
        for comp in &comps {
            let k = self.component(comp)?;
            if k.is_zero() {
                return Ok(Big::zero());
            }
            product = product.mul(&k);
        }
        Ok(product)
    }

    /// The components of [`Counter::split`] (smaller first, so that a zero among them
    /// ends the product early), with the product of the domain sizes of the cells no
    /// segment constrains any more; `None` when a segment accepts no word.
    fn decompose(&mut self, cells: &[usize], segs: &[Segment]) -> Result<Option<(Big, Vec<Component>)>> {
        let mut active = Vec::with_capacity(segs.len());
        for &s in segs {
            if !self.settle(s, &mut active)? {
                return Ok(None);
            }
        }
        let mut product = Big::one();
        let doms = &self.doms;
        let parent = &mut self.parent;
        let lines = &self.lines.lines;
        for s in &active {
            let mut first = None;
            for &c in s.cells(&lines[s.clue as usize]).iter().filter(|&&c| doms[c].len() > 1) {
                if parent[c] == usize::MAX {
                    parent[c] = c;
                }
                let rc = find(parent, c);
                match first {
                    None => first = Some(rc),
                    Some(r) if r != rc => parent[rc] = r,
                    Some(_) => {}
                }
            }
        }
        let mut comps: Vec<Component> = Vec::new();
        let mut index: HashMap<usize, usize> = HashMap::new();
        for &c in cells.iter().filter(|&&c| doms[c].len() > 1) {
            if parent[c] == usize::MAX {
                // No clue constrains it any more: any letter of its domain.
                product.mul_small(doms[c].len() as u32);
                continue;
            }
            let r = find(parent, c);
            let k = *index.entry(r).or_insert_with(|| {
                comps.push(Component { cells: Vec::new(), segs: Vec::new() });
                comps.len() - 1
            });
            comps[k].cells.push(c);
        }
        for s in &active {
            if let Some(&c) = s.cells(&lines[s.clue as usize]).iter().find(|&&c| doms[c].len() > 1) {
                let r = find(parent, c);
                comps[index[&r]].segs.push(*s);
            }
        }
        for s in &active {
            for &c in s.cells(&lines[s.clue as usize]) {
                self.parent[c] = usize::MAX;
            }
        }
        comps.sort_by_key(|k| k.cells.len());
        Ok(Some((product, comps)))
    }

    /// Puts in `active` what of segment `s` still constrains its cells: nothing when
    /// it accepts every word of its cells' domains; for a clue with an exact
    /// automaton, the pieces between the positions where its run has one live state
    /// (the run is known there, so the pieces are independent). `false` when the
    /// segment accepts no word.
    fn settle(&mut self, s: Segment, active: &mut Vec<Segment>) -> Result<bool> {
        let i = s.clue as usize;
        let cc = &self.compiled.clues[i];
        if cc.approximate() {
            if self.satisfied(i)? {
                return Ok(true);
            }
            if self.lines.lines[i].iter().all(|&c| self.doms[c].len() == 1) {
                // One word, which the clue rejects.
                return Ok(false);
            }
            active.push(s);
            return Ok(true);
        }
        let a = &cc.automaton;
        let cells = s.cells(&self.lines.lines[i]);
        self.line.clear();
        self.line.extend(cells.iter().map(|&c| self.doms[c]));
        let live = segment::live(a, &self.line, s.from, s.to);
        if live.iter().any(Vec::is_empty) {
            return Ok(false);
        }
        let mut lo = 0;
        let n = cells.len();
        for p in 1..=n {
            if p < n && live[p].len() > 1 {
                continue;
            }
            if p < n && !(lo..p).any(|k| self.line[k].len() > 1) {
                // Nothing open in the piece so far: it is one word, accepted.
                lo = p;
                continue;
            }
            let from = if lo == 0 { s.from } else { live[lo][0] };
            let to = if p == n { s.to } else { live[p][0] };
            let piece = &self.line[lo..p];
            let total = piece.iter().try_fold(1u128, |k, d| k.checked_mul(d.len() as u128));
            if total.is_none() || segment::words(a, piece, from, to) != total {
                active.push(Segment { clue: s.clue, lo: s.lo + lo as u32, hi: s.lo + p as u32, from, to });
            }
            lo = p;
        }
        Ok(true)
    }

    /// The count of one component, from the cache or by branching on one of its cells
    /// or on a cut of one of its segments.
    fn component(&mut self, comp: &Component) -> Result<Big> {
        let key = self.key(comp);
        if let Some(k) = self.cache.get(&key) {
            self.cache_hits += 1;
            return Ok(k);
        }
        let mut total = Big::zero();
        self.depth += 1;
        let counted = self.branch(comp, &mut total);
        self.depth -= 1;
        counted?;
        self.cache.store(key, total.clone());
        Ok(total)
    }

    /// Adds to `total` the count of each case of `comp`'s branch.
    fn branch(&mut self, comp: &Component, total: &mut Big) -> Result<()> {
        self.cases(comp, |counter, rest, segs, weight| {
            let mut k = counter.split(rest, segs)?;
            if weight != 1 {
                k.mul_small(weight);
            }
            total.add_assign(&k);
            Ok(())
        })
    }

    /// Calls `case(self, open cells, segments, weight)` for each case of `comp`'s
    /// branch that propagation leaves consistent, with the case's domains in place: the
    /// component's count is the sum of the cases' counts, each times its weight.
    fn cases(&mut self, comp: &Component, mut case: impl FnMut(&mut Self, &[usize], &[Segment], u32) -> Result<()>) -> Result<()> {
        match self.choose(comp) {
            Branch::Cell(cell) => {
                let groups = self.letter_groups(cell, comp);
                self.found(groups.len());
                for (x, weight) in groups {
                    self.node()?;
                    let mark = self.scratch.mark();
                    let mut one = SymSet::default();
                    one.insert(x);
                    self.scratch.set(&mut self.doms, cell, one);
                    if self.propagate(self.lines.of_cell[cell].clone(), &comp.segs) {
                        let rest: Vec<usize> = comp.cells.iter().copied().filter(|&c| self.doms[c].len() > 1).collect();
                        case(self, &rest, &comp.segs, weight)?;
                    }
                    self.scratch.undo(&mut self.doms, mark);
                    self.done();
                }
            }
            Branch::Cut(k, at, states) => {
                let s = comp.segs[k];
                self.found(states.len());
                for q in states {
                    self.node()?;
                    let mark = self.scratch.mark();
                    let mut segs = comp.segs.clone();
                    segs[k] = Segment { hi: s.lo + at, to: q, ..s };
                    segs.push(Segment { lo: s.lo + at, from: q, ..s });
                    if self.propagate(Vec::new(), &segs) {
                        let rest: Vec<usize> = comp.cells.iter().copied().filter(|&c| self.doms[c].len() > 1).collect();
                        case(self, &rest, &segs, 1)?;
                    }
                    self.scratch.undo(&mut self.doms, mark);
                    self.done();
                }
            }
        }
        Ok(())
    }

    /// `n` cases reached at the current depth: parts to do, when it is reported.
    fn found(&mut self, n: usize) {
        if self.depth <= REPORT_DEPTH
            && let Some(report) = self.report.as_mut()
        {
            self.parts.1 += n as u64;
            report(self.parts.0, self.parts.1);
        }
    }

    /// A case at the current depth is counted.
    fn done(&mut self) {
        if self.depth <= REPORT_DEPTH
            && let Some(report) = self.report.as_mut()
        {
            self.parts.0 += 1;
            report(self.parts.0, self.parts.1);
        }
    }

    /// Counts a decision, and stops when asked to or past the budget.
    fn node(&mut self) -> Result<()> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(64) {
            self.cancel.check()?;
        }
        if self.nodes > self.max_nodes {
            return Err(crate::error::Error::Cancelled);
        }
        Ok(())
    }

    /// Narrows the domains to a fixpoint over the clues (from `clues`, whole lines, as
    /// [`Propagator::narrow_with`] does) and over the segments of `segs` that are
    /// pieces of a line; `false` when a cell is left empty.
    fn propagate(&mut self, mut clues: Vec<usize>, segs: &[Segment]) -> bool {
        let lines = self.lines;
        let compiled = self.compiled;
        let pieces: Vec<Segment> = segs
            .iter()
            .copied()
            .filter(|s| {
                let cc = &compiled.clues[s.clue as usize];
                !cc.approximate() && !s.is_whole(lines.lines[s.clue as usize].len(), &cc.automaton)
            })
            .collect();
        loop {
            if !clues.is_empty() && lines.narrow_with(&mut self.scratch, compiled, &mut self.doms, &clues, &mut self.refine).is_err() {
                return false;
            }
            clues.clear();
            for s in &pieces {
                let a = &compiled.clues[s.clue as usize].automaton;
                let cells = s.cells(&lines.lines[s.clue as usize]);
                self.line.clear();
                self.line.extend(cells.iter().map(|&c| self.doms[c]));
                let live = segment::live(a, &self.line, s.from, s.to);
                if live.iter().any(Vec::is_empty) {
                    return false;
                }
                for (&c, d) in cells.iter().zip(propagate::supported(a, &self.line, &live)) {
                    let new = self.doms[c].and(&d);
                    if new != self.doms[c] {
                        self.scratch.set(&mut self.doms, c, new);
                        clues.extend(&lines.of_cell[c]);
                    }
                }
            }
            if clues.is_empty() {
                return true;
            }
            clues.sort_unstable();
            clues.dedup();
        }
    }

    /// The cache key of a component: its segments, then the domains of their cells.
    fn key(&self, comp: &Component) -> Vec<u64> {
        let mut segs = comp.segs.clone();
        segs.sort_unstable();
        let wide = self.compiled.alphabet.len() > 64;
        let mut key = Vec::with_capacity(segs.len() * 10);
        key.push(segs.len() as u64);
        for s in &segs {
            key.push(u64::from(s.clue) << 32 | u64::from(s.lo) << 16 | u64::from(s.hi));
            key.push(u64::from(s.from) << 32 | u64::from(s.to));
        }
        for s in &segs {
            for &c in s.cells(&self.lines.lines[s.clue as usize]) {
                let mut w = [0u64; 3];
                for x in self.doms[c].iter() {
                    w[x / 64] |= 1 << (x % 64);
                }
                key.extend_from_slice(if wide { &w[..] } else { &w[..1] });
            }
        }
        key
    }

    /// Whether clue `i` (one whose automaton over-approximates it) accepts every word
    /// of its line's domains (so that it constrains nothing below this node).
    fn satisfied(&mut self, i: usize) -> Result<bool> {
        let cells = &self.lines.lines[i];
        let Some(total) = cells.iter().try_fold(1u128, |k, &c| k.checked_mul(self.doms[c].len() as u128)) else { return Ok(false) };
        if total > EXACT_WORDS as u128 {
            return Ok(false);
        }
        let line: Vec<SymSet> = cells.iter().map(|&c| self.doms[c]).collect();
        let options: Vec<Vec<usize>> = line.iter().map(|d| d.iter().collect()).collect();
        let mut odometer = Odometer::new(options.iter().map(Vec::len).collect());
        if odometer.is_empty() {
            return Ok(true);
        }
        loop {
            self.word.clear();
            self.word.extend(odometer.pick().iter().zip(&options).map(|(&k, o)| o[k]));
            match (self.matches)(i, &self.word) {
                Ok(true) => {}
                Ok(false) => return Ok(false),
                // The matcher gave up: a verdict is needed only for a decided line.
                Err(e) if total == 1 => return Err(e),
                Err(_) => return Ok(false),
            }
            if odometer.advance().is_none() {
                break;
            }
        }
        Ok(true)
    }
}

fn find(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}
