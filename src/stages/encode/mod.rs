//! Stage 3, **encode**: automata + cells → CNF, written into a [`ClauseSink`].
//!
//! 1. *Domains.* Each cell starts with the whole alphabet (or its given). Every clue's
//!    automaton is unrolled over its cells; a letter stays in a cell's domain only if
//!    some run of every clue through that cell can use it. Repeated to a fixpoint —
//!    this is arc consistency on each line, done once before the solver starts.
//! 2. *Cells.* One variable `x[c][a]` per cell and letter of its domain; exactly one is
//!    true (at-least-one clause; pairwise at-most-one up to [`PAIRWISE_MAX`] letters,
//!    a sequential counter above).
//! 3. *Clues.* State variables `q[p][s]` for the live states of layer `p`, an edge
//!    variable `e(p,s,t)` for each live pair of states joined by some letter, and the
//!    clauses of `docs/encoding.md`, under which unit propagation enforces arc
//!    consistency on the line. For these clues every auxiliary variable is a function
//!    of the cell variables. Back-references, lookarounds and regex pools add choice
//!    variables (which path matched, which regex went where), so one grid may have
//!    several models; enumeration blocks on cell variables, so counts stay exact.

pub mod early;
mod sink;
pub mod tagged;

pub use sink::{ClauseSink, Cnf};

use crate::compile::{Automaton, Compiled, CompiledClue, DEAD};
use crate::error::{Error, Result};
use crate::puzzle::Puzzle;

/// An edge of a layer of [`encode_line`]: source and target states, and its letters
/// as a range of the layer's label buffer.
type Edge = (u32, u32, usize, usize);

/// Largest cell domain encoded with pairwise at-most-one clauses.
pub const PAIRWISE_MAX: usize = 6;
/// Most clauses one puzzle may produce.
pub const MAX_CLAUSES: usize = 10_000_000;
/// Most variables one puzzle may use. Clues add more clauses than variables, so in
/// practice [`MAX_CLAUSES`] is reached first; this bounds the rest.
pub const MAX_VARS: usize = 10_000_000;

/// A set of alphabet symbols (up to 192).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SymSet([u64; 3]);

impl SymSet {
    /// The symbols `0..n`.
    pub fn full(n: usize) -> SymSet {
        let mut s = SymSet::default();
        for a in 0..n {
            s.insert(a);
        }
        s
    }
    /// Adds `a`.
    pub fn insert(&mut self, a: usize) {
        self.0[a / 64] |= 1 << (a % 64);
    }
    /// Removes `a`.
    pub fn remove(&mut self, a: usize) {
        self.0[a / 64] &= !(1 << (a % 64));
    }
    /// Whether `a` is in the set.
    pub fn contains(&self, a: usize) -> bool {
        self.0[a / 64] >> (a % 64) & 1 == 1
    }
    /// Number of symbols.
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }
    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 3]
    }
    /// The symbols, ascending.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        // Walk the set bits only: this runs for every state of every layer.
        self.0.iter().enumerate().flat_map(|(w, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let bit = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    w * 64 + bit
                })
            })
        })
    }
    /// Union.
    pub fn or(&self, o: &SymSet) -> SymSet {
        SymSet([self.0[0] | o.0[0], self.0[1] | o.0[1], self.0[2] | o.0[2]])
    }
    /// Intersection.
    pub fn and(&self, o: &SymSet) -> SymSet {
        SymSet([self.0[0] & o.0[0], self.0[1] & o.0[1], self.0[2] & o.0[2]])
    }
}

/// Sizes of one clue's encoding, for `--stats`.
#[derive(Clone, Debug, Default)]
pub struct ClueSize {
    /// States of the clue's automaton.
    pub states: usize,
    /// Live (layer, state) pairs after unrolling.
    pub layered_states: usize,
    /// Variables added for this clue.
    pub vars: usize,
    /// Clauses added for this clue.
    pub clauses: usize,
}

/// What the encoder leaves for decoding: the cell variables.
#[derive(Clone, Debug)]
pub struct CellVars {
    /// Per cell, `(symbol, variable)` for each letter of its domain.
    pub cells: Vec<Vec<(usize, i32)>>,
    /// Per clue, sizes.
    pub clue_sizes: Vec<ClueSize>,
    /// Per pool entry, `(regex, variable)` for each regex that may be assigned to it.
    pub assign: Vec<Vec<(usize, i32)>>,
}

/// Computes cell domains: givens, then every clue's supported letters, to a fixpoint.
/// Returns `None` when some cell has no letter left (the puzzle has no solution).
pub fn domains(puzzle: &Puzzle, compiled: &Compiled) -> Option<Vec<SymSet>> {
    domains_with(puzzle, compiled, |_, _, _| None)
}

/// [`domains`], where `refine(i, line, support)` may narrow the support that clue `i`'s
/// automaton finds over `line` (the cells' current domains), e.g. by testing each
/// word the support allows with an exact matcher. It must keep every letter that some
/// matching word of the line uses, so that no solution is lost.
pub fn domains_with(
    puzzle: &Puzzle,
    compiled: &Compiled,
    refine: impl FnMut(usize, &[SymSet], &[SymSet]) -> Option<Vec<SymSet>>,
) -> Option<Vec<SymSet>> {
    domains_from(puzzle, compiled, initial_domains(puzzle, compiled), refine)
}

/// [`domains_with`] from `doms` (which must keep every letter a solution uses).
pub fn domains_from(
    puzzle: &Puzzle,
    compiled: &Compiled,
    mut doms: Vec<SymSet>,
    refine: impl FnMut(usize, &[SymSet], &[SymSet]) -> Option<Vec<SymSet>>,
) -> Option<Vec<SymSet>> {
    let lines = Propagator::new(puzzle);
    let all: Vec<usize> = (0..lines.lines.len()).collect();
    if lines.narrow(compiled, &mut doms, &all, refine).is_err() || doms.iter().any(SymSet::is_empty) {
        return None;
    }
    Some(doms)
}

/// Line propagation over a puzzle's constraints: every clue, then every entry of the
/// pool (supported by the union of the regexes that could be assigned to it). Built
/// once per puzzle, run from any domains (the rating in `generate` runs it per probe).
#[derive(Clone, Debug)]
pub struct Propagator {
    /// Cells of each constraint.
    pub lines: Vec<Vec<usize>>,
    /// Constraints through each cell (each once).
    pub of_cell: Vec<Vec<usize>>,
}

impl Propagator {
    /// The constraints of `puzzle`.
    pub fn new(puzzle: &Puzzle) -> Propagator {
        let pool_entries: &[Vec<usize>] = puzzle.pool.as_ref().map_or(&[], |p| &p.entries);
        let lines: Vec<Vec<usize>> = puzzle.clues.iter().map(|c| c.cells.clone()).chain(pool_entries.iter().cloned()).collect();
        let mut of_cell: Vec<Vec<usize>> = vec![vec![]; puzzle.givens.len()];
        for (i, cells) in lines.iter().enumerate() {
            for &cell in cells {
                if !of_cell[cell].contains(&i) {
                    of_cell[cell].push(i);
                }
            }
        }
        Propagator { lines, of_cell }
    }

    /// Narrows `doms` to a fixpoint, starting from the constraints `start` (see
    /// [`domains_with`] for `refine`); `Err(i)` names the constraint that left a cell
    /// empty, so that a search can weigh the constraints that fail most.
    pub fn narrow(
        &self,
        compiled: &Compiled,
        doms: &mut [SymSet],
        start: &[usize],
        refine: impl FnMut(usize, &[SymSet], &[SymSet]) -> Option<Vec<SymSet>>,
    ) -> std::result::Result<(), usize> {
        self.narrow_with(&mut Scratch::default(), compiled, doms, start, refine)
    }

    /// [`Propagator::narrow`] with buffers kept between calls (a search propagates at
    /// every node).
    pub fn narrow_with(
        &self,
        scratch: &mut Scratch,
        compiled: &Compiled,
        doms: &mut [SymSet],
        start: &[usize],
        mut refine: impl FnMut(usize, &[SymSet], &[SymSet]) -> Option<Vec<SymSet>>,
    ) -> std::result::Result<(), usize> {
        let Scratch { queue, queued, line, support, layers, sparse, trail, tables } = scratch;
        if sparse.len() < compiled.clues.len() {
            sparse.resize_with(compiled.clues.len(), || None);
        }
        queued.clear();
        queued.resize(self.lines.len(), false);
        queue.clear();
        for &i in start {
            if !queued[i] {
                queued[i] = true;
                queue.push_back(i);
            }
        }
        let sigma = compiled.alphabet.len();
        while let Some(i) = queue.pop_front() {
            queued[i] = false;
            let cells = &self.lines[i];
            line.clear();
            line.extend(cells.iter().map(|&c| doms[c]));
            let refined;
            let support: &[SymSet] = match compiled.clues.get(i) {
                Some(_) if tables.get(i).is_some_and(Option::is_some) => {
                    if let Some(Some(t)) = tables.get(i) {
                        t.support(line, support);
                    }
                    &support[..]
                }
                Some(CompiledClue { automaton, tagged: Some(t), .. }) => {
                    // A tagged clue: the skeleton over the line's cells and marker
                    // slots, supported like a regular line, then its cells' letters.
                    let edges = sparse[i].get_or_insert_with(|| Edges::new(automaton));
                    let s = tagged_support(automaton, t, edges, layers, sigma, line, support);
                    refined = refine(i, line, &s).unwrap_or(s);
                    &refined
                }
                Some(cc) => {
                    let edges = sparse[i].get_or_insert_with(|| Edges::new(&cc.automaton));
                    layers.support(&cc.automaton, edges, line, support);
                    match refine(i, line, support) {
                        Some(r) => {
                            refined = r;
                            &refined
                        }
                        None => support,
                    }
                }
                None => {
                    refined = compiled
                        .pool
                        .iter()
                        .filter_map(|by_len| by_len.get(&cells.len()))
                        .fold(vec![SymSet::default(); cells.len()], |acc, cc| {
                            acc.iter().zip(line_support(cc, sigma, line)).map(|(a, b)| a.or(&b)).collect()
                        });
                    &refined
                }
            };
            self.narrow_line(i, doms, support, queue, queued, |cell, before| trail.push((cell, before)))?;
        }
        Ok(())
    }

    /// Narrows the cells of constraint `i` to `support` (letters per cell, in line
    /// order): `changed(cell, before)` hears of each cell that loses letters, and the
    /// constraints through it are queued again. `Err(i)` when a cell is left empty.
    fn narrow_line(
        &self,
        i: usize,
        doms: &mut [SymSet],
        support: &[SymSet],
        queue: &mut std::collections::VecDeque<usize>,
        queued: &mut [bool],
        mut changed: impl FnMut(usize, SymSet),
    ) -> std::result::Result<(), usize> {
        for (&cell, s) in self.lines[i].iter().zip(support) {
            let new = doms[cell].and(s);
            if new != doms[cell] {
                changed(cell, doms[cell]);
                doms[cell] = new;
                if new.is_empty() {
                    return Err(i);
                }
                for &j in &self.of_cell[cell] {
                    if !queued[j] {
                        queued[j] = true;
                        queue.push_back(j);
                    }
                }
            }
        }
        Ok(())
    }
}

/// Buffers of [`Propagator::narrow_with`], reused from one call to the next.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    queue: std::collections::VecDeque<usize>,
    queued: Vec<bool>,
    line: Vec<SymSet>,
    support: Vec<SymSet>,
    layers: Layers,
    /// Per clue, its automaton's transitions as lists (built on first use).
    sparse: Vec<Option<Edges>>,
    /// Every change to a domain, as (cell, the domain before), oldest first, so that
    /// a search can undo a propagation ([`Scratch::undo`]).
    trail: Vec<(usize, SymSet)>,
    /// Per clue, its line's words as a table, when [`Scratch::tabulate`] made one.
    tables: Vec<Option<Table>>,
}

impl Scratch {
    /// Lists the words of each regular clue's line over `doms` as a table, when there
    /// are at most `max_words` of them: a revision of that line then costs a few
    /// bit operations per letter instead of a walk over the automaton. Valid for
    /// every later `doms` that lies within these (as in a search from them): the
    /// table only ever loses words to the domains.
    pub fn tabulate(&mut self, lines: &Propagator, compiled: &Compiled, doms: &[SymSet], max_words: usize) {
        let sigma = compiled.alphabet.len();
        self.tables = compiled
            .clues
            .iter()
            .zip(&lines.lines)
            .map(|(cc, cells)| {
                if cc.approximate() {
                    return None;
                }
                let line: Vec<SymSet> = cells.iter().map(|&c| doms[c]).collect();
                Table::new(&cc.automaton, sigma, &line, max_words)
            })
            .collect();
    }

    /// Length of the trail of changes: a mark to [`Scratch::undo`] to.
    pub fn mark(&self) -> usize {
        self.trail.len()
    }

    /// Sets `doms[cell]` to `value`, on the trail.
    pub fn set(&mut self, doms: &mut [SymSet], cell: usize, value: SymSet) {
        self.trail.push((cell, doms[cell]));
        doms[cell] = value;
    }

    /// Undoes the changes to `doms` made since `mark`.
    pub fn undo(&mut self, doms: &mut [SymSet], mark: usize) {
        while self.trail.len() > mark {
            let Some((cell, old)) = self.trail.pop() else { break };
            doms[cell] = old;
        }
    }
}

/// The words a line can take, as bit sets: `masks[(p * sigma + x) * blocks ..][..blocks]`
/// has bit `w` set when word `w` has letter `x` at position `p` (the idea of the
/// compact-table propagators of constraint solvers).
#[derive(Clone, Debug)]
struct Table {
    sigma: usize,
    blocks: usize,
    masks: Vec<u64>,
    /// The bits of existing words, per block.
    all: Vec<u64>,
}

/// Most words of one line that [`Scratch::tabulate`] lists.
pub const MAX_TABLE_WORDS: usize = 64 * Table::MAX_BLOCKS;

impl Table {
    /// Most `u64`s of masks per line.
    const MAX_MASK_WORDS: usize = 1 << 16;
    /// Most blocks of 64 words.
    const MAX_BLOCKS: usize = 16;

    /// The table of the words `a` accepts over `line`, or `None` when there are more
    /// than `max_words` (or the masks would be too large).
    fn new(a: &Automaton, sigma: usize, line: &[SymSet], max_words: usize) -> Option<Table> {
        let n = line.len();
        if line_count(a, line)? > max_words.min(MAX_TABLE_WORDS) as u128 {
            return None;
        }
        // Only through live states, so that every path walked ends in a word.
        let live = live_layers(a, line);
        let mut alive = vec![vec![false; a.states()]; n + 1];
        for (p, layer) in live.iter().enumerate() {
            for &q in layer {
                alive[p][q as usize] = true;
            }
        }
        let mut words: Vec<Vec<usize>> = Vec::new();
        if a.start != DEAD && alive[0][a.start as usize] {
            collect_words(a, line, &alive, a.start, &mut Vec::with_capacity(n), &mut words);
        }
        let blocks = words.len().div_ceil(64).max(1);
        if n * sigma * blocks > Self::MAX_MASK_WORDS {
            return None;
        }
        let mut masks = vec![0u64; n * sigma * blocks];
        let mut all = vec![0u64; blocks];
        for (w, word) in words.iter().enumerate() {
            all[w / 64] |= 1 << (w % 64);
            for (p, &x) in word.iter().enumerate() {
                masks[(p * sigma + x) * blocks + w / 64] |= 1 << (w % 64);
            }
        }
        Some(Table { sigma, blocks, masks, all })
    }

    fn mask(&self, p: usize, x: usize) -> &[u64] {
        let at = (p * self.sigma + x) * self.blocks;
        &self.masks[at..at + self.blocks]
    }

    /// Letters of each position that some word still valid over `line` uses.
    fn support(&self, line: &[SymSet], out: &mut Vec<SymSet>) {
        out.clear();
        out.resize(line.len(), SymSet::default());
        let (mut valid, mut acc) = ([0u64; Self::MAX_BLOCKS], [0u64; Self::MAX_BLOCKS]);
        let (valid, acc) = (&mut valid[..self.blocks], &mut acc[..self.blocks]);
        valid.copy_from_slice(&self.all);
        for (p, dom) in line.iter().enumerate() {
            acc.iter_mut().for_each(|a| *a = 0);
            for x in dom.iter() {
                for (a, m) in acc.iter_mut().zip(self.mask(p, x)) {
                    *a |= m;
                }
            }
            for (v, a) in valid.iter_mut().zip(acc.iter()) {
                *v &= a;
            }
        }
        if valid.iter().all(|&v| v == 0) {
            return;
        }
        for (p, dom) in line.iter().enumerate() {
            for x in dom.iter() {
                if self.mask(p, x).iter().zip(valid.iter()).any(|(m, v)| m & v != 0) {
                    out[p].insert(x);
                }
            }
        }
    }
}

/// Every word `a` accepts from state `s` over the rest of `line`, through the states
/// `alive[p]` marks live at each layer `p`, appended to `out`.
fn collect_words(a: &Automaton, line: &[SymSet], alive: &[Vec<bool>], s: u32, word: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
    let p = word.len();
    if p == line.len() {
        out.push(word.clone());
        return;
    }
    for x in line[p].iter() {
        let t = a.step(s, x);
        if t != DEAD && alive[p + 1][t as usize] {
            word.push(x);
            collect_words(a, line, alive, t, word, out);
            let _ = word.pop();
        }
    }
}

/// An automaton's transitions other than to [`DEAD`], listed per state: a state with
/// few of them is walked through its list rather than through every letter of a cell.
#[derive(Clone, Debug, Default)]
struct Edges {
    /// The edges of state `s`: `edges[starts[s]..starts[s + 1]]`, as (symbol, target).
    starts: Vec<u32>,
    edges: Vec<(u32, u32)>,
}

impl Edges {
    fn new(a: &Automaton) -> Edges {
        let mut e = Edges { starts: Vec::with_capacity(a.states() + 1), edges: Vec::new() };
        for s in 0..a.states() {
            e.starts.push(e.edges.len() as u32);
            for x in 0..a.symbols {
                let t = a.step(s as u32, x);
                if t != DEAD {
                    e.edges.push((x as u32, t));
                }
            }
        }
        e.starts.push(e.edges.len() as u32);
        e
    }

    fn of(&self, s: u32) -> &[(u32, u32)] {
        &self.edges[self.starts[s as usize] as usize..self.starts[s as usize + 1] as usize]
    }
}

/// Calls `f(x, t)` for each letter `x` of `dom` that leads state `s` to a state `t`
/// other than [`DEAD`], walking whichever is shorter: the letters or the edges.
#[inline]
fn each_step(a: &Automaton, edges: &Edges, s: u32, dom: &SymSet, dom_len: usize, mut f: impl FnMut(usize, u32)) {
    let out = edges.of(s);
    if out.len() < dom_len {
        for &(x, t) in out {
            if dom.contains(x as usize) {
                f(x as usize, t);
            }
        }
    } else {
        for x in dom.iter() {
            let t = a.step(s, x);
            if t != DEAD {
                f(x, t);
            }
        }
    }
}

/// The reachable states of each layer of a line, flat, and epoch marks over states.
#[derive(Clone, Debug, Default)]
struct Layers {
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
    fn support(&mut self, a: &Automaton, edges: &Edges, line: &[SymSet], out: &mut Vec<SymSet>) {
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
            for k in self.starts[p]..self.starts[p + 1] {
                let s = self.states[k];
                let (seen, states) = (&mut self.seen, &mut self.states);
                each_step(a, edges, s, dom, dom_len, |_, t| {
                    if seen[t as usize] != epoch {
                        seen[t as usize] = epoch;
                        states.push(t);
                    }
                });
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
            let dom_len = line[p].len();
            for k in self.starts[p]..self.starts[p + 1] {
                let s = self.states[k];
                let mut used = false;
                let (live, here_out) = (&self.live, &mut out[p]);
                each_step(a, edges, s, &line[p], dom_len, |x, t| {
                    if live[t as usize] == epoch {
                        here_out.insert(x);
                        used = true;
                    }
                });
                if used {
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

/// [`tagged::cell_support`] by the one-pass [`Layers::support`] over the skeleton's
/// layers (the line's cells and marker slots), with buffers kept between calls.
fn tagged_support(
    a: &Automaton,
    t: &crate::compile::tagged::Tagged,
    edges: &Edges,
    layers: &mut Layers,
    sigma: usize,
    line: &[SymSet],
    buf: &mut Vec<SymSet>,
) -> Vec<SymSet> {
    let (kinds, doms) = tagged::layers(t, sigma, line, 0);
    layers.support(a, edges, &doms, buf);
    kinds.iter().zip(buf.iter()).filter(|(k, _)| matches!(k, tagged::Layer::Cell(_))).map(|(_, s)| *s).collect()
}

/// Letters of each cell of `line` that some run of the clue's automaton can use.
pub fn line_support(cc: &CompiledClue, sigma: usize, line: &[SymSet]) -> Vec<SymSet> {
    match &cc.tagged {
        None => supported(&cc.automaton, line, &live_layers(&cc.automaton, line)),
        Some(t) => tagged::cell_support(&cc.automaton, t, sigma, line),
    }
}

/// Domains before propagation: the given letter, or the whole alphabet (a given
/// outside the alphabet leaves the cell empty).
pub fn initial_domains(puzzle: &Puzzle, compiled: &Compiled) -> Vec<SymSet> {
    initial_domains_over(puzzle, &compiled.alphabet)
}

/// [`initial_domains`] over `alphabet`.
pub fn initial_domains_over(puzzle: &Puzzle, alphabet: &crate::compile::Alphabet) -> Vec<SymSet> {
    let n = alphabet.len();
    puzzle
        .givens
        .iter()
        .map(|g| match g {
            None => SymSet::full(n),
            Some(c) => {
                let mut s = SymSet::default();
                if let Some(a) = alphabet.index(*c) {
                    s.insert(a);
                }
                s
            }
        })
        .collect()
}

/// Live states per layer `0..=n`: reachable from the start and able to accept at the end.
pub fn live_layers(a: &Automaton, line: &[SymSet]) -> Vec<Vec<u32>> {
    let n = line.len();
    let states = a.states();
    let mut fwd: Vec<Vec<u32>> = Vec::with_capacity(n + 1);
    fwd.push(if a.start == DEAD { vec![] } else { vec![a.start] });
    let mut mark = vec![usize::MAX; states];
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
    let mut live: Vec<Vec<u32>> = vec![vec![]; n + 1];
    live[n] = fwd[n].iter().copied().filter(|&s| a.accept[s as usize]).collect();
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
/// no two of them (see `pipeline::split_parts`).
pub fn line_count(a: &Automaton, line: &[SymSet]) -> Option<u128> {
    if a.start == DEAD {
        return Some(0);
    }
    let mut count = vec![0u128; a.states()];
    count[a.start as usize] = 1;
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
    count.iter().zip(&a.accept).filter(|&(_, &acc)| acc).try_fold(0u128, |sum, (&k, _)| sum.checked_add(k))
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

/// Encodes the puzzle into `sink`. `doms` comes from [`domains`]; `None` encodes an
/// empty clause (no solution).
pub fn encode<S: ClauseSink>(puzzle: &Puzzle, compiled: &Compiled, doms: Option<&[SymSet]>, sink: &mut S) -> Result<CellVars> {
    encode_with(puzzle, compiled, doms, sink, false).map(|(vars, _)| vars)
}

/// Like [`encode`], but every clue is required only when its *selector* variable is
/// true (returned, one per clue): solving under assumptions then tells which clues
/// (and givens) conflict or force a cell. Use full domains (no givens, no
/// propagation) so that the formula itself carries every constraint.
pub fn encode_gated<S: ClauseSink>(puzzle: &Puzzle, compiled: &Compiled, doms: &[SymSet], sink: &mut S) -> Result<(CellVars, Vec<i32>)> {
    encode_with(puzzle, compiled, Some(doms), sink, true)
}

fn encode_with<S: ClauseSink>(
    puzzle: &Puzzle,
    compiled: &Compiled,
    doms: Option<&[SymSet]>,
    sink: &mut S,
    gated: bool,
) -> Result<(CellVars, Vec<i32>)> {
    let n_cells = puzzle.givens.len();
    let Some(doms) = doms else {
        sink.add_clause(&[]);
        return Ok((
            CellVars { cells: vec![vec![]; n_cells], clue_sizes: vec![ClueSize::default(); puzzle.clues.len()], assign: vec![] },
            vec![],
        ));
    };
    // Cell variables first, cell by cell, letter by letter: DIMACS comments list them.
    let cells: Vec<Vec<(usize, i32)>> = doms.iter().map(|d| d.iter().map(|a| (a, sink.new_var())).collect()).collect();
    for vars in &cells {
        exactly_one(sink, &vars.iter().map(|&(_, v)| v).collect::<Vec<_>>(), None);
    }
    let mut clue_sizes = Vec::with_capacity(puzzle.clues.len());
    let mut shared = tagged::Shared::default();
    let ctx = tagged::Ctx { chars: compiled.alphabet.chars(), cells: &cells, doms };
    let selectors: Vec<i32> = if gated { puzzle.clues.iter().map(|_| sink.new_var()).collect() } else { vec![] };
    for (i, clue) in puzzle.clues.iter().enumerate() {
        crate::stop::check()?;
        let (v0, c0) = (sink.num_vars(), sink.num_clauses());
        let cc = &compiled.clues[i];
        let layered = encode_clue(sink, &mut shared, &ctx, cc, &clue.cells, selectors.get(i).copied());
        clue_sizes.push(ClueSize {
            states: cc.automaton.states(),
            layered_states: layered,
            vars: sink.num_vars() - v0,
            clauses: sink.num_clauses() - c0,
        });
        if sink.num_clauses() > MAX_CLAUSES || sink.num_vars() > MAX_VARS {
            return Err(too_large(sink, &clue.label, &clue.regex));
        }
    }
    let assign = match &puzzle.pool {
        None => vec![],
        Some(pool) => encode_pool(sink, &mut shared, &ctx, pool, compiled)?,
    };
    Ok((CellVars { cells, clue_sizes, assign }, selectors))
}

/// The error of a formula past [`MAX_CLAUSES`] or [`MAX_VARS`], naming the clue being
/// encoded when the limit was passed.
fn too_large<S: ClauseSink>(sink: &S, label: &str, regex: &str) -> Error {
    use crate::error::{EncodeError, EncodeLimit};
    let limit = if sink.num_clauses() > MAX_CLAUSES { EncodeLimit::Clauses(MAX_CLAUSES) } else { EncodeLimit::Variables(MAX_VARS) };
    Error::Encode(EncodeError { source: String::new(), clue: Some((label.to_string(), regex.to_string())), limit })
}

/// One clue (plain or tagged) over `line`, required when `gate` is true (always without
/// a gate). Returns the number of live layered states (or layers, for tagged clues).
fn encode_clue<S: ClauseSink>(
    sink: &mut S,
    shared: &mut tagged::Shared,
    ctx: &tagged::Ctx<'_>,
    cc: &CompiledClue,
    line: &[usize],
    gate: Option<i32>,
) -> usize {
    let a = &cc.automaton;
    match &cc.tagged {
        None => {
            let doms: Vec<SymSet> = line.iter().map(|&c| ctx.doms[c]).collect();
            let live = live_layers(a, &doms);
            let cell_lits: Vec<&[(usize, i32)]> = line.iter().map(|&c| ctx.cells[c].as_slice()).collect();
            encode_line(sink, a, &live, &cell_lits, gate);
            live.iter().map(Vec::len).sum()
        }
        Some(t) => tagged::encode(sink, shared, ctx, a, t, line, 0, gate),
    }
}

/// The regex pool: a variable `a[e][r]` for each entry and each regex that can match
/// it, exactly one per entry and one per regex, and each regex's clauses on each entry
/// gated by its variable.
fn encode_pool<S: ClauseSink>(
    sink: &mut S,
    shared: &mut tagged::Shared,
    ctx: &tagged::Ctx<'_>,
    pool: &crate::puzzle::Pool,
    compiled: &Compiled,
) -> Result<Vec<Vec<(usize, i32)>>> {
    let mut assign: Vec<Vec<(usize, i32)>> = vec![vec![]; pool.entries.len()];
    let mut by_regex: Vec<Vec<i32>> = vec![vec![]; pool.regexes.len()];
    for (e, line) in pool.entries.iter().enumerate() {
        for (r, by_len) in compiled.pool.iter().enumerate() {
            let Some(cc) = by_len.get(&line.len()) else { continue };
            let doms: Vec<SymSet> = line.iter().map(|&c| ctx.doms[c]).collect();
            if line_support(cc, compiled.alphabet.len(), &doms).iter().any(SymSet::is_empty) {
                continue; // this regex cannot match this entry
            }
            let v = sink.new_var();
            assign[e].push((r, v));
            by_regex[r].push(v);
        }
    }
    for vars in assign.iter().map(|a| a.iter().map(|&(_, v)| v).collect::<Vec<_>>()).chain(by_regex) {
        exactly_one(sink, &vars, None);
    }
    for (e, line) in pool.entries.iter().enumerate() {
        for &(r, v) in &assign[e] {
            let _ = encode_clue(sink, shared, ctx, &compiled.pool[r][&line.len()], line, Some(v));
            if sink.num_clauses() > MAX_CLAUSES || sink.num_vars() > MAX_VARS {
                return Err(too_large(sink, &format!("pool regex {}", r + 1), &pool.regexes[r]));
            }
        }
    }
    Ok(assign)
}

/// Exactly one of `vars` (at most one when `gate` is false): one clause for "at least
/// one", then pairwise or a sequential counter whose auxiliaries are defined both ways
/// (`s_i ↔ x_1 ∨ … ∨ x_i`).
pub fn exactly_one<S: ClauseSink>(sink: &mut S, vars: &[i32], gate: Option<i32>) {
    let mut alo: Vec<i32> = gate.map(|g| vec![-g]).unwrap_or_default();
    alo.extend_from_slice(vars);
    sink.add_clause(&alo);
    at_most_one(sink, vars);
}

/// At most one of `vars`: pairwise up to [`PAIRWISE_MAX`], else a sequential counter
/// whose auxiliaries are defined both ways (`s_i ↔ x_1 ∨ … ∨ x_i`).
pub fn at_most_one<S: ClauseSink>(sink: &mut S, vars: &[i32]) {
    if vars.len() <= PAIRWISE_MAX {
        for (i, &a) in vars.iter().enumerate() {
            for &b in &vars[i + 1..] {
                sink.add_clause(&[-a, -b]);
            }
        }
        return;
    }
    let k = vars.len();
    let s: Vec<i32> = (0..k - 1).map(|_| sink.new_var()).collect();
    sink.add_clause(&[-vars[0], s[0]]);
    sink.add_clause(&[-s[0], vars[0]]);
    for i in 1..k - 1 {
        sink.add_clause(&[-vars[i], s[i]]);
        sink.add_clause(&[-s[i - 1], s[i]]);
        sink.add_clause(&[-vars[i], -s[i - 1]]);
        sink.add_clause(&[-s[i], s[i - 1], vars[i]]);
    }
    sink.add_clause(&[-vars[k - 1], -s[k - 2]]);
}

/// The unrolled automaton over one line (see the module doc). With a `gate`, the run
/// is only required when the gate literal is true (used for lookarounds).
pub(crate) fn encode_line<S: ClauseSink>(sink: &mut S, a: &Automaton, live: &[Vec<u32>], cells: &[&[(usize, i32)]], gate: Option<i32>) {
    let n = cells.len();
    if live[0].is_empty() {
        sink.add_clause(&gate.map(|g| vec![-g]).unwrap_or_default());
        return;
    }
    // q[p]: (state, var), sorted by state.
    let q: Vec<Vec<(u32, i32)>> = live.iter().map(|l| l.iter().map(|&s| (s, sink.new_var())).collect()).collect();
    let qvar = |p: usize, s: u32| q[p].binary_search_by_key(&s, |&(st, _)| st).ok().map(|k| q[p][k].1);
    let gated = |mut c: Vec<i32>| {
        if let Some(g) = gate {
            c.insert(0, -g);
        }
        c
    };
    sink.add_clause(&gated(vec![q[0][0].1]));
    for layer in &q[1..] {
        sink.add_clause(&gated(layer.iter().map(|&(_, v)| v).collect()));
    }
    // Buffers reused by every layer (a line's encoding allocated a list per edge and
    // per clause: a fifth of the encode stage's instructions).
    let mut edges: Vec<Edge> = Vec::new();
    let mut labels: Vec<(usize, i32)> = Vec::new();
    let mut found: Vec<(u32, usize, i32)> = Vec::new();
    let mut order: Vec<(u32, u32)> = Vec::new();
    let mut evars: Vec<i32> = Vec::new();
    let mut clause: Vec<i32> = Vec::new();
    for p in 0..n {
        // Edges of this layer: (s, t) → letters, `labels[from..to]`, grouped by `s` in
        // the order of `q[p]`, then by the first letter that reaches `t`.
        edges.clear();
        labels.clear();
        for &(s, qs) in &q[p] {
            let first = edges.len();
            // (edge within this state's, letter) in letter order.
            found.clear();
            for &(x, xv) in cells[p] {
                let t = a.step(s, x);
                match (t != DEAD).then(|| qvar(p + 1, t)).flatten() {
                    None => sink.add_clause(&[-qs, -xv]),
                    Some(_) => {
                        let k = match edges[first..].iter().position(|e| e.1 == t) {
                            Some(k) => k,
                            None => {
                                edges.push((s, t, 0, 0));
                                edges.len() - 1 - first
                            }
                        };
                        found.push((k as u32, x, xv));
                    }
                }
            }
            // Each edge's letters together, in letter order (a stable sort).
            found.sort_by_key(|&(k, _, _)| k);
            for (k, group) in found.chunk_by(|a, b| a.0 == b.0).enumerate() {
                let e = &mut edges[first + k];
                e.2 = labels.len();
                labels.extend(group.iter().map(|&(_, x, xv)| (x, xv)));
                e.3 = labels.len();
            }
        }
        evars.clear();
        evars.extend(edges.iter().map(|_| sink.new_var()));
        let evar = |i: usize| evars[i];
        for (i, &(s, t, from, to)) in edges.iter().enumerate() {
            let e = evar(i);
            let (qs, qt) = (qvar(p, s).unwrap_or(0), qvar(p + 1, t).unwrap_or(0));
            sink.add_clause(&[-e, qs]);
            sink.add_clause(&[-e, qt]);
            clause.clear();
            clause.push(-e);
            clause.extend(labels[from..to].iter().map(|&(_, xv)| xv));
            sink.add_clause(&clause);
            for &(_, xv) in &labels[from..to] {
                sink.add_clause(&[-qs, -xv, e]);
            }
        }
        // Every true state has an outgoing edge (p < n) and an incoming one (p > 0);
        // every true letter is carried by some true edge.
        let mut next_edge = 0;
        for &(s, qs) in &q[p] {
            clause.clear();
            clause.push(-qs);
            while next_edge < edges.len() && edges[next_edge].0 == s {
                clause.push(evar(next_edge));
                next_edge += 1;
            }
            sink.add_clause(&clause);
        }
        // Edges by target (its place in `q[p + 1]`), in edge order (a stable sort).
        order.clear();
        order.extend(edges.iter().enumerate().map(|(i, e)| {
            let j = q[p + 1].binary_search_by_key(&e.1, |&(st, _)| st).unwrap_or(0);
            (j as u32, i as u32)
        }));
        order.sort_by_key(|&(j, _)| j);
        let mut k = 0;
        for (j, &(_, qt)) in q[p + 1].iter().enumerate() {
            clause.clear();
            clause.push(-qt);
            while k < order.len() && order[k].0 as usize == j {
                clause.push(evar(order[k].1 as usize));
                k += 1;
            }
            sink.add_clause(&clause);
        }
        // (Only while the run is active: a gated run must not constrain the cells otherwise.)
        // Edges by letter (its place in `cells[p]`), in edge order.
        order.clear();
        for (i, &(_, _, from, to)) in edges.iter().enumerate() {
            order.extend(
                labels[from..to].iter().map(|&(x, _)| (cells[p].binary_search_by_key(&x, |&(y, _)| y).unwrap_or(0) as u32, i as u32)),
            );
        }
        order.sort_by_key(|&(j, _)| j);
        let mut k = 0;
        for (j, &(_, xv)) in cells[p].iter().enumerate() {
            clause.clear();
            clause.extend(gate.map(|g| -g));
            clause.push(-xv);
            while k < order.len() && order[k].0 as usize == j {
                clause.push(evar(order[k].1 as usize));
                k += 1;
            }
            sink.add_clause(&clause);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sink that only counts, starting from `vars` variables already in use.
    struct Counting {
        vars: usize,
        clauses: usize,
    }

    impl ClauseSink for Counting {
        fn new_var(&mut self) -> i32 {
            self.vars += 1;
            self.vars as i32
        }
        fn add_clause(&mut self, _: &[i32]) {
            self.clauses += 1;
        }
        fn num_vars(&self) -> usize {
            self.vars
        }
        fn num_clauses(&self) -> usize {
            self.clauses
        }
    }

    /// The puzzle and its automata, through the earlier stages only (a stage may not use
    /// the pipeline, even in its tests).
    fn compiled() -> (crate::puzzle::Puzzle, crate::compile::Compiled) {
        let json = r#"{"left": ["(A|B)+C", "[AB]*"], "top": ["[AB]A", "[BC]+"], "alphabet": "ABC"}"#;
        let puzzle = crate::puzzle::read("p.json", json.as_bytes(), None, None, None).expect("a puzzle");
        let parsed = crate::compile::parse_clues("p.json", &puzzle).expect("clues");
        let alphabet = crate::compile::choose_alphabet("p.json", &puzzle, &parsed, None).expect("an alphabet");
        let compiled = crate::compile::compile("p.json", &puzzle, &parsed, alphabet).expect("automata");
        (puzzle, compiled)
    }

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
        let sets: Vec<SymSet> = [0b111u64, 0b001, 0b110, 0b101, 0b000].iter().map(|&b| SymSet([b, 0, 0])).collect();
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

    /// Propagation supports a tagged line through the skeleton's layers (cells and
    /// marker slots) with [`Layers::support`]; that must be [`tagged::cell_support`]'s
    /// answer (the two-pass definition) on every line: back-references, lookarounds and
    /// anchors, random domains over the clue's alphabet.
    #[test]
    fn tagged_lines_propagate_as_their_skeleton_supports_them() {
        let json = r#"{"left": ["(.)(.)\\2\\1(.)\\3", "(?=.*B)(.)[^A]*\\1", "(A|BC)+\\1?$"], "top": ["(.)\\1|CA[AB]", "(..)\\1", ".*(?!A).", "A|.*(.)\\1", ".(?<=B).*", "[ABC]*"], "alphabet": "ABC"}"#;
        let puzzle = crate::puzzle::read("p.json", json.as_bytes(), None, None, None).expect("a puzzle");
        let parsed = crate::compile::parse_clues("p.json", &puzzle).expect("clues");
        let alphabet = crate::compile::choose_alphabet("p.json", &puzzle, &parsed, None).expect("an alphabet");
        // No bounded route, so that short lines are tagged too.
        let opts = crate::compile::Options { prefer_bounded: 0, ..Default::default() };
        let compiled = crate::compile::compile_with("p.json", &puzzle, &parsed, alphabet, opts).expect("automata");
        let sigma = compiled.alphabet.len();
        let tagged = compiled.clues.iter().filter(|c| c.tagged.is_some()).count();
        assert!(tagged >= 4, "only {tagged} tagged clues");
        let mut rng = crate::rng::Rng::new(7);
        let (mut layers, mut out) = (Layers::default(), Vec::new());
        let mut checked = 0;
        for (i, cc) in compiled.clues.iter().enumerate() {
            let Some(t) = &cc.tagged else { continue };
            let edges = Edges::new(&cc.automaton);
            for _ in 0..300 {
                let line: Vec<SymSet> = puzzle.clues[i]
                    .cells
                    .iter()
                    .map(|_| {
                        let mut d = SymSet::default();
                        (0..sigma).filter(|_| rng.below(3) > 0).for_each(|x| d.insert(x));
                        d
                    })
                    .collect();
                let got = tagged_support(&cc.automaton, t, &edges, &mut layers, sigma, &line, &mut out);
                assert_eq!(got, tagged::cell_support(&cc.automaton, t, sigma, &line), "clue {i} on {line:?}");
                checked += 1;
            }
        }
        assert!(checked >= 1200, "only {checked} tagged lines checked");
    }

    /// Both caps are checked after each clue, and the error names the clue and the limit.
    #[test]
    fn variable_and_clause_caps_name_the_clue() {
        let (puzzle, compiled) = compiled();
        let doms = initial_domains(&puzzle, &compiled);
        let run = |vars, clauses| encode(&puzzle, &compiled, Some(&doms), &mut Counting { vars, clauses });
        assert!(run(0, 0).is_ok());
        assert!(run(MAX_VARS - 1000, MAX_CLAUSES - 1000).is_ok());
        use crate::error::{EncodeError, EncodeLimit};
        let clue = Some(("row 1 (left)".to_string(), puzzle.clues[0].regex.clone()));
        let r = run(MAX_VARS, 0);
        let Err(Error::Encode(EncodeError { clue: c, limit, .. })) = r else { panic!("no error at the variable cap: {r:?}") };
        assert_eq!((c, limit), (clue.clone(), EncodeLimit::Variables(MAX_VARS)));
        let r = run(0, MAX_CLAUSES);
        let Err(Error::Encode(e)) = r else { panic!("no error at the clause cap: {r:?}") };
        assert_eq!((e.clue.clone(), e.limit), (clue, EncodeLimit::Clauses(MAX_CLAUSES)));
        assert!(e.to_string().ends_with("encoding too large: more than 10000000 clauses, the limit of one puzzle's formula"), "{e}");
    }
}
