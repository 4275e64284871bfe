//! Line propagation over the clues' position automata, before anything is compiled:
//! most puzzles are decided by line propagation alone, and for them the
//! subset constructions of the compile stage are wasted. A position automaton has a
//! state per occurrence of a set in the clue; its runs over a line, as the sets of
//! positions reached after each cell, give each cell's supported letters exactly as
//! the minimal DFA of the same language would.

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
    /// Without registers, and at most [`MAX_BITS`] positions: the automaton as rows of
    /// bits, walked a word at a time.
    bits: Option<Bits>,
}

/// Most positions [`Bits`] takes.
const MAX_BITS: usize = 256;

/// A position automaton as bit sets of `words` words: `follow[p]` the successors of
/// `p`, `reads[x]` the positions whose label holds `x`.
#[derive(Clone, Debug)]
struct Bits {
    words: usize,
    follow: Vec<u64>,
    reads: Vec<u64>,
    accept: Vec<u64>,
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
        let (starts, follow) = (p.follow_starts.clone(), p.follow.clone());
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
                    for &t in &follow[starts[q] as usize..starts[q + 1] as usize] {
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
        let n = p.labels.len();
        let bits = (registers.is_none() && n <= MAX_BITS).then(|| {
            let words = n.div_ceil(64);
            let symbols = p.labels.iter().flatten().map(|&x| x as usize + 1).max().unwrap_or(0);
            let mut b = Bits { words, follow: vec![0; n * words], reads: vec![0; symbols * words], accept: vec![0; words] };
            for q in 0..n {
                for &t in &follow[starts[q] as usize..starts[q + 1] as usize] {
                    b.follow[q * words + t as usize / 64] |= 1 << (t % 64);
                }
                for &x in &p.labels[q] {
                    b.reads[x as usize * words + q / 64] |= 1 << (q % 64);
                }
                if p.accept[q] {
                    b.accept[q / 64] |= 1 << (q % 64);
                }
            }
            b
        });
        Nfa { starts, follow, labels, accept: p.accept.clone(), start: p.start, registers, bits }
    }

    fn next(&self, s: u32) -> &[u32] {
        &self.follow[self.starts[s as usize] as usize..self.starts[s as usize + 1] as usize]
    }

    /// The letters of each cell of `line` that some accepting run uses, into `out` (all
    /// empty when there is none). Without registers and past `MAX_BITS` positions,
    /// the same layered walk as the compiled route's `Layers::support`, over successor
    /// lists whose targets' labels give the letters, where that one steps a DFA's table
    /// letter by letter (a walk generic over both would hand that hot loop a set per
    /// transition instead of a letter).
    pub fn support(&self, line: &[SymSet], walk: &mut Walk, out: &mut Vec<SymSet>) {
        let n = line.len();
        out.clear();
        out.resize(n, SymSet::default());
        if let Some(r) = &self.registers {
            self.support_registers(r, line, walk, out);
            return;
        }
        if let Some(b) = &self.bits {
            match b.words {
                1 => self.support_bits::<1>(b, line, out),
                2 => self.support_bits::<2>(b, line, out),
                _ => self.support_bits::<4>(b, line, out),
            }
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

    /// [`Nfa::support`] over [`Bits`] of at most `W` words: the reachable positions of
    /// each layer as one bit set, then back from the accepting ones.
    // Words of the same sets are combined index by index.
    #[allow(clippy::needless_range_loop)]
    fn support_bits<const W: usize>(&self, b: &Bits, line: &[SymSet], out: &mut [SymSet]) {
        let (w, n) = (b.words, line.len());
        let row = |v: &[u64], i: usize| -> [u64; W] {
            let mut r = [0u64; W];
            r[..w].copy_from_slice(&v[i * w..(i + 1) * w]);
            r
        };
        let symbols = b.reads.len() / w;
        // Reachable positions per layer, on the stack for lines up to 64 cells.
        let mut stack = [[0u64; W]; 65];
        let mut heap = Vec::new();
        let reach: &mut [[u64; W]] = if n < 65 {
            &mut stack[..=n]
        } else {
            heap.resize(n + 1, [0u64; W]);
            &mut heap
        };
        reach[0][self.start as usize / 64] |= 1 << (self.start % 64);
        for (p, dom) in line.iter().enumerate() {
            let mut admit = [0u64; W];
            for x in dom.iter().take_while(|&x| x < symbols) {
                let r = row(&b.reads, x);
                for k in 0..W {
                    admit[k] |= r[k];
                }
            }
            let mut next = [0u64; W];
            for k in 0..W {
                let mut rest = reach[p][k];
                while rest != 0 {
                    let s = k * 64 + rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    let f = row(&b.follow, s);
                    for j in 0..W {
                        next[j] |= f[j];
                    }
                }
            }
            let mut any = 0;
            for k in 0..W {
                next[k] &= admit[k];
                any |= next[k];
            }
            if any == 0 {
                return;
            }
            reach[p + 1] = next;
        }
        // Back: `reach` becomes the live positions, layer by layer.
        let mut any = 0;
        for k in 0..W {
            reach[n][k] &= if k < w { b.accept[k] } else { 0 };
            any |= reach[n][k];
        }
        if any == 0 {
            return;
        }
        for p in (0..n).rev() {
            let live = reach[p + 1];
            let mut letters = SymSet::default();
            for k in 0..W {
                let mut rest = live[k];
                while rest != 0 {
                    let q = k * 64 + rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    letters = letters.or(&self.labels[q]);
                }
            }
            out[p] = letters.and(&line[p]);
            let mut here = reach[p];
            for k in 0..W {
                let mut rest = here[k];
                while rest != 0 {
                    let bit = rest.trailing_zeros();
                    rest &= rest - 1;
                    let f = row(&b.follow, k * 64 + bit as usize);
                    if (0..W).all(|j| f[j] & live[j] == 0) {
                        here[k] &= !(1 << bit);
                    }
                }
            }
            reach[p] = here;
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
pub(crate) fn domains(puzzle: &Puzzle, nfas: &[Nfa], mut doms: Vec<SymSet>) -> Option<Vec<SymSet>> {
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
        lines.narrow_line(i, &mut doms, &support, &mut queue, &mut queued, |_, _| {}).ok()?;
    }
    Some(doms)
}

#[cfg(test)]
mod tests;
