//! Line propagation over the clues' position automata, before anything is compiled
//! (issue 15): most puzzles are decided by line propagation alone, and for them the
//! subset constructions of the compile stage are wasted. A position automaton has a
//! state per occurrence of a set in the clue; its runs over a line, as bit sets of
//! positions per layer, give each cell's supported letters exactly as the minimal DFA
//! of the same language would.

use super::{Propagator, SymSet};
use crate::compile::glushkov::Positions;
use crate::puzzle::Puzzle;

/// A position automaton with successor lists, ready for [`Nfa::support`].
#[derive(Clone, Debug)]
pub struct Nfa {
    /// The successors of `p`: `follow[starts[p]..starts[p + 1]]`.
    starts: Vec<u32>,
    follow: Vec<u32>,
    /// The symbols of each position.
    labels: Vec<SymSet>,
    accept: Vec<bool>,
    start: u32,
    /// With back-references: per position, what it does to a register (see
    /// [`Positions::tags`]) and which registers are still to be read after it.
    registers: Option<Registers>,
}

/// The registers of an [`Nfa`]: a run's registers are a `u64`, a byte each, holding
/// the symbol written plus one (0: empty).
#[derive(Clone, Debug)]
struct Registers {
    /// Per position: 0, or the register plus one, with [`COMPARES`] when it reads it.
    tag: Vec<u8>,
    /// Per position: the bytes of the registers some run may still read after it (the
    /// others are emptied, so that runs differing only there are one).
    keep: Vec<u64>,
    /// How many.
    count: usize,
}

const COMPARES: u8 = 0x80;

/// Buffers of [`Nfa::support`], kept between calls.
#[derive(Clone, Debug, Default)]
pub struct Walk {
    /// Positions of layer `p`: `states[starts[p]..starts[p + 1]]`.
    states: Vec<u32>,
    starts: Vec<usize>,
    /// `mark[q] == epoch`: `q` is in the layer being built, or live in the layer read.
    mark: Vec<u32>,
    /// Same, for the layer being marked live on the way back.
    mark_here: Vec<u32>,
    epoch: u32,
    /// With registers: each state's registers, the letters that lead into it, whether
    /// it is live, the (from, to) pairs of each step (`edges[edge_starts[p]..]`), and
    /// the states of the layer being built.
    regs: Vec<u64>,
    letters: Vec<SymSet>,
    live: Vec<bool>,
    edges: Vec<(u32, u32)>,
    edge_starts: Vec<usize>,
    index: crate::compile::FastMap<(u32, u64), u32>,
}

impl Walk {
    fn next_epoch(&mut self) -> u32 {
        if self.epoch == u32::MAX {
            self.epoch = 0;
            self.mark.iter_mut().for_each(|m| *m = 0);
            self.mark_here.iter_mut().for_each(|m| *m = 0);
        }
        self.epoch += 1;
        self.epoch
    }
}

impl Nfa {
    /// `p` as lists.
    pub fn new(p: &Positions) -> Nfa {
        let mut starts = Vec::with_capacity(p.follow.len() + 1);
        let mut follow = Vec::with_capacity(p.follow.iter().map(Vec::len).sum());
        for next in &p.follow {
            starts.push(follow.len() as u32);
            follow.extend_from_slice(next);
        }
        starts.push(follow.len() as u32);
        let labels = p
            .labels
            .iter()
            .map(|l| {
                let mut s = SymSet::default();
                l.iter().for_each(|&x| s.insert(x as usize));
                s
            })
            .collect();
        let registers = (p.registers > 0).then(|| {
            let n = p.labels.len();
            let mut tag = vec![0u8; n];
            for &(q, r, compares) in &p.tags {
                tag[q as usize] = (r + 1) | if compares { COMPARES } else { 0 };
            }
            // Registers read later, to a fixpoint: `r` is live after `q` if a successor
            // reads it, or leaves it alone and it is live after that successor.
            let mut live = vec![0u8; n];
            loop {
                let mut changed = false;
                for q in (0..n).rev() {
                    let mut l = live[q];
                    for &t in &p.follow[q] {
                        let t = t as usize;
                        let (r, bit) = ((tag[t] & !COMPARES) as u32, tag[t] & COMPARES != 0);
                        let mut from_t = live[t];
                        if r > 0 {
                            from_t &= !(1 << (r - 1));
                            if bit {
                                from_t |= 1 << (r - 1);
                            }
                        }
                        l |= from_t;
                    }
                    if l != live[q] {
                        live[q] = l;
                        changed = true;
                    }
                }
                if !changed {
                    break;
                }
            }
            let keep = live.iter().map(|&l| (0..8).filter(|r| l >> r & 1 == 1).fold(0u64, |m, r| m | 0xFF << (8 * r))).collect();
            Registers { tag, keep, count: p.registers }
        });
        Nfa { starts, follow, labels, accept: p.accept.clone(), start: p.start, registers }
    }

    fn next(&self, s: u32) -> &[u32] {
        &self.follow[self.starts[s as usize] as usize..self.starts[s as usize + 1] as usize]
    }

    /// The letters of each cell of `line` that some accepting run uses, into `out` (all
    /// empty when there is none).
    pub fn support(&self, line: &[SymSet], walk: &mut Walk, out: &mut Vec<SymSet>) {
        let n = line.len();
        out.clear();
        out.resize(n, SymSet::default());
        if let Some(r) = &self.registers {
            self.support_registers(r, line, walk, out);
            return;
        }
        if walk.mark.len() < self.labels.len() {
            walk.mark.resize(self.labels.len(), 0);
            walk.mark_here.resize(self.labels.len(), 0);
        }
        walk.states.clear();
        walk.starts.clear();
        walk.starts.push(0);
        walk.states.push(self.start);
        for (p, dom) in line.iter().enumerate() {
            walk.starts.push(walk.states.len());
            let epoch = walk.next_epoch();
            for k in walk.starts[p]..walk.starts[p + 1] {
                let s = walk.states[k];
                for &q in self.next(s) {
                    if walk.mark[q as usize] != epoch && !self.labels[q as usize].and(dom).is_empty() {
                        walk.mark[q as usize] = epoch;
                        walk.states.push(q);
                    }
                }
            }
            if walk.states.len() == walk.starts[p + 1] {
                return;
            }
        }
        walk.starts.push(walk.states.len());
        // Back from the accepting positions of the last layer.
        let mut epoch = walk.next_epoch();
        let mut any = false;
        for k in walk.starts[n]..walk.starts[n + 1] {
            let q = walk.states[k];
            if self.accept[q as usize] {
                walk.mark[q as usize] = epoch;
                any = true;
            }
        }
        if !any {
            return;
        }
        for p in (0..n).rev() {
            // The letters read into the live positions of layer `p + 1`.
            let mut letters = SymSet::default();
            for k in walk.starts[p + 1]..walk.starts[p + 2] {
                let q = walk.states[k];
                if walk.mark[q as usize] == epoch {
                    letters = letters.or(&self.labels[q as usize]);
                }
            }
            out[p] = letters.and(&line[p]);
            let here = walk.next_epoch();
            for k in walk.starts[p]..walk.starts[p + 1] {
                let s = walk.states[k];
                if self.next(s).iter().any(|&q| walk.mark[q as usize] == epoch) {
                    walk.mark_here[s as usize] = here;
                }
            }
            std::mem::swap(&mut walk.mark, &mut walk.mark_here);
            epoch = here;
        }
    }

    /// [`Nfa::support`] with registers: a state is a position and the registers.
    fn support_registers(&self, regs: &Registers, line: &[SymSet], walk: &mut Walk, out: &mut [SymSet]) {
        let n = line.len();
        walk.states.clear();
        walk.regs.clear();
        walk.letters.clear();
        walk.starts.clear();
        walk.edges.clear();
        walk.edge_starts.clear();
        walk.starts.push(0);
        walk.states.push(self.start);
        walk.regs.push(0);
        walk.letters.push(SymSet::default());
        for (p, dom) in line.iter().enumerate() {
            walk.starts.push(walk.states.len());
            walk.edge_starts.push(walk.edges.len());
            walk.index.clear();
            for k in walk.starts[p]..walk.starts[p + 1] {
                let (s, held) = (walk.states[k], walk.regs[k]);
                for &q in self.next(s) {
                    let letters = self.labels[q as usize].and(dom);
                    if letters.is_empty() {
                        continue;
                    }
                    let (tag, keep) = (regs.tag[q as usize], regs.keep[q as usize]);
                    let shift = 8 * u32::from((tag & !COMPARES).saturating_sub(1));
                    let mut go = |held: u64, letters: SymSet| {
                        let key = (q, held & keep);
                        let at = *walk.index.entry(key).or_insert_with(|| {
                            walk.states.push(q);
                            walk.regs.push(key.1);
                            walk.letters.push(SymSet::default());
                            walk.states.len() as u32 - 1
                        });
                        walk.letters[at as usize] = walk.letters[at as usize].or(&letters);
                        walk.edges.push((k as u32, at));
                    };
                    if tag == 0 {
                        go(held, letters);
                    } else if tag & COMPARES != 0 {
                        let v = (held >> shift) & 0xFF;
                        if v != 0 && letters.contains(v as usize - 1) {
                            let mut one = SymSet::default();
                            one.insert(v as usize - 1);
                            go(held, one);
                        }
                    } else if keep >> shift & 0xFF == 0 {
                        go(held, letters);
                    } else {
                        for x in letters.iter() {
                            let mut one = SymSet::default();
                            one.insert(x);
                            go((held & !(0xFF << shift)) | ((x as u64 + 1) << shift), one);
                        }
                    }
                }
            }
            if walk.states.len() == walk.starts[p + 1] {
                return;
            }
        }
        walk.starts.push(walk.states.len());
        walk.edge_starts.push(walk.edges.len());
        walk.live.clear();
        walk.live.resize(walk.states.len(), false);
        let mut any = false;
        for k in walk.starts[n]..walk.starts[n + 1] {
            if self.accept[walk.states[k] as usize] {
                walk.live[k] = true;
                any = true;
            }
        }
        if !any {
            return;
        }
        for p in (0..n).rev() {
            for e in walk.edge_starts[p]..walk.edge_starts[p + 1] {
                let (from, to) = walk.edges[e];
                if walk.live[to as usize] {
                    walk.live[from as usize] = true;
                }
            }
            let mut letters = SymSet::default();
            for k in walk.starts[p + 1]..walk.starts[p + 2] {
                if walk.live[k] {
                    letters = letters.or(&walk.letters[k]);
                }
            }
            out[p] = letters;
        }
    }
}

/// Cell domains by line propagation over `nfas` (one per clue of `puzzle`, which has
/// no pool), from `doms` to a fixpoint; `None` when some cell has no letter left.
pub fn domains(puzzle: &Puzzle, nfas: &[Nfa], mut doms: Vec<SymSet>) -> Option<Vec<SymSet>> {
    let lines = Propagator::new(puzzle);
    // Clues without registers first: they narrow the cells before the costlier walks
    // of the others, whose states multiply with the letters their registers may hold.
    let mut order: Vec<usize> = (0..lines.lines.len()).collect();
    order.sort_by_key(|&i| nfas[i].registers.as_ref().map_or(0, |r| r.count));
    let mut queue: std::collections::VecDeque<usize> = order.into();
    let mut queued = vec![true; lines.lines.len()];
    let (mut line, mut support, mut walk) = (Vec::new(), Vec::new(), Walk::default());
    while let Some(i) = queue.pop_front() {
        queued[i] = false;
        let cells = &lines.lines[i];
        line.clear();
        line.extend(cells.iter().map(|&c| doms[c]));
        nfas[i].support(&line, &mut walk, &mut support);
        for (p, &cell) in cells.iter().enumerate() {
            let new = doms[cell].and(&support[p]);
            if new != doms[cell] {
                doms[cell] = new;
                if new.is_empty() {
                    return None;
                }
                for &j in &lines.of_cell[cell] {
                    if !queued[j] {
                        queued[j] = true;
                        queue.push_back(j);
                    }
                }
            }
        }
    }
    Some(doms)
}
