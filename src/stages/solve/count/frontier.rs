//! Counting by a sweep over the cells: a transfer-matrix (profile) dynamic program
//! whose state is the frontier of the lines the sweep is crossing.
//!
//! The cells are taken in an order ([`super::order`]) in which every line's cells come
//! in reading order or in reverse. After the first `t` cells, every line that has some
//! cells before and some after the cut is in a state; the grids of the first `t` cells
//! are grouped by the tuple of those states (the *frontier*), and the table holds how
//! many grids each tuple has. Taking the next cell moves the lines through it by one
//! letter; a line that finishes must accept; the count is the table's total at the end.
//!
//! A line read in order is in one of its [`Layered`] classes (states merged where their
//! futures over the cells left are equal). A line read in reverse is in the *set* of
//! classes, at the layer before the cells read, from which the letters read lead to
//! acceptance: the reversed automaton's subset construction, over the classes that
//! some prefix reaches — distinct sets are distinct futures. Both are the coarsest
//! states that keep the count exact, so equal futures share one entry of the table.
//!
//! Each grid has one run per line (the automata are deterministic), so each grid of
//! the first `t` cells is in exactly one entry, and each completed grid is counted
//! once; letters that every line through a cell reads alike are taken together, their
//! number as a weight.

use super::Big;
use super::classes::{Layered, NONE};
use super::table::Table;
use crate::compile::fxhash::FastMap;
use crate::error::{Error, Result};
use crate::propagate::SymSet;
use crate::stop::Cancel;

/// How a line is read by the sweep, and where its state sits in a frontier key.
struct Reader<'c> {
    classes: &'c Layered,
    /// Read from its last cell to its first.
    backward: bool,
    /// The key word and bit offset of its state, and the state's bit mask there.
    word: usize,
    shift: u32,
    mask: u64,
}

/// What moves at one step of the sweep: the cell's lines, with their positions.
struct Step {
    cell: usize,
    /// (line, position in it, whether the sweep reads it here first, and last).
    lines: Vec<(usize, usize, bool, bool)>,
    /// Letters of the cell taken together: one of them, and how many.
    groups: Vec<(usize, u64)>,
}

/// How many threads the sweep's steps may use: `jobs`, for a step from a table of at
/// least `from` entries (below, starting the threads costs more than they save).
#[derive(Clone, Copy, Debug)]
pub(super) struct Threads {
    pub(super) jobs: usize,
    pub(super) from: usize,
}

impl Threads {
    /// `jobs` threads for steps from tables of 8,192 entries or more.
    pub(super) fn new(jobs: usize) -> Threads {
        Threads { jobs: jobs.max(1), from: 1 << 13 }
    }
}

/// Counts the grids over `doms` (a domain per cell, propagated) whose every line `i`
/// (`lines[i]`, cells in reading order) is accepted by its automaton, as `classes[i]`
/// ([`Layered::new`] over the line's domains) reads it, sweeping the cells in `order`
/// (every cell once); `None` when the sweep does not apply to that order (a line's
/// cells out of order, a state too wide) or its table would pass `max_entries`.
/// `report(done, total)` hears of the cells swept.
///
/// With `threads.jobs` above one, a step over a large table is taken on that many threads, each
/// building its own part of the next table: the entries are split by their key with
/// the step's lines' slots masked out. A step writes only those slots, so entries of
/// different parts lead to different keys, and the parts never need merging.
#[allow(clippy::too_many_arguments)]
pub(super) fn count(
    lines: &[Vec<usize>],
    classes: &[Layered],
    doms: &[SymSet],
    order: &[usize],
    max_entries: usize,
    threads: Threads,
    cancel: &Cancel,
    report: &mut dyn FnMut(u64, u64),
) -> Result<Option<Big>> {
    let Some(plan) = Plan::new(lines, classes, doms, order) else { return Ok(None) };
    let Plan { readers, steps, words, dead } = plan;
    if dead {
        return Ok(Some(Big::zero()));
    }
    let bits: f64 = doms.iter().map(|d| (d.len().max(1) as f64).log2()).sum();
    let limbs = (bits / 64.0).floor() as usize + 1;
    let jobs = threads.jobs.max(1);
    // The table, in parts (one but where a step was taken on several threads).
    let mut table = vec![Table::new(words, limbs)];
    let mut next: Vec<Table> = Vec::new();
    let mut one = vec![0u64; limbs];
    one[0] = 1;
    table[0].add(&vec![0; words], &one, 1);
    let mut scratch: Vec<Scratch> = (0..jobs).map(|_| Scratch::new(words)).collect();
    // Whether `table[i]` holds exactly the entries of part `i % jobs` of this step.
    let mut routed = false;
    for (t, step) in steps.iter().enumerate() {
        cancel.check()?;
        report(t as u64, steps.len() as u64);
        let entries: usize = table.iter().map(Table::len).sum();
        let parts = if jobs > 1 && entries >= threads.from { jobs } else { 1 };
        // A step on threads writes each entry into the part of the next step it
        // belongs to, so that the next step's threads read only their own.
        let route = (parts > 1).then(|| steps.get(t + 1).map(|s| kept(&readers, s, words))).flatten();
        let outs = if route.is_some() { jobs } else { 1 };
        next.truncate(parts * outs);
        next.resize_with(parts * outs, || Table::new(words, limbs));
        if parts == 1 {
            take(&readers, step, &table, Select::All, &mut next, None, &mut scratch[0], cancel)?;
        } else {
            let keep = kept(&readers, step, words);
            let (readers, table, keep, route) = (&readers, &table, &keep, route.as_deref());
            std::thread::scope(|scope| -> Result<()> {
                let mut workers = Vec::with_capacity(parts);
                for (part, (out, scratch)) in next.chunks_mut(outs).zip(&mut scratch).enumerate() {
                    let select = if routed { Select::Routed(part, parts) } else { Select::Hashed(part, parts, keep) };
                    let work = move || take(readers, step, table, select, out, route, scratch, cancel);
                    let spawned = std::thread::Builder::new().name("crossat-sweep".into()).spawn_scoped(scope, work);
                    workers.push(spawned.map_err(|e| Error::Internal(format!("cannot start a thread: {e}")))?);
                }
                workers.into_iter().try_for_each(|w| w.join().map_err(|_| Error::Internal("a sweep thread panicked".into()))?)
            })?;
        }
        routed = outs > 1;
        if next.iter().map(Table::len).sum::<usize>() > max_entries {
            return Ok(None);
        }
        std::mem::swap(&mut table, &mut next);
    }
    report(steps.len() as u64, steps.len() as u64);
    let mut total = Big::zero();
    for part in &table {
        total.add_assign(&part.total());
    }
    Ok(Some(total))
}

/// What a thread keeps from step to step: the moves of the packed states met at the
/// current step, and a key to build the next one in.
struct Scratch {
    memo: FastMap<u128, usize>,
    moves: Vec<Vec<(u128, u64)>>,
    key: Vec<u64>,
}

impl Scratch {
    fn new(words: usize) -> Scratch {
        Scratch { memo: FastMap::default(), moves: Vec::new(), key: vec![0; words] }
    }
}

/// Which entries of a table a thread takes a step from.
#[derive(Clone, Copy)]
enum Select<'k> {
    /// Every entry.
    All,
    /// Part `k` of `n`: the parts `i` of the table with `i % n == k`, which the step
    /// before routed there.
    Routed(usize, usize),
    /// Part `k` of `n`: the entries whose key under the mask is `k` modulo `n`.
    Hashed(usize, usize, &'k [u64]),
}

/// Takes `step` from the entries of the parts of `table` that `select` picks, into
/// `next` (emptied first): into `next[0]`, or with `route` (the next step's mask),
/// into the part of the next step each entry belongs to.
#[allow(clippy::too_many_arguments)]
fn take(
    readers: &[Reader<'_>],
    step: &Step,
    table: &[Table],
    select: Select<'_>,
    next: &mut [Table],
    route: Option<&[u64]>,
    scratch: &mut Scratch,
    cancel: &Cancel,
) -> Result<()> {
    let Scratch { memo, moves, key } = scratch;
    memo.clear();
    moves.clear();
    next.iter_mut().for_each(Table::clear);
    let outs = next.len() as u64;
    for (i, from_part) in table.iter().enumerate() {
        if let Select::Routed(k, n) = select
            && i % n != k
        {
            continue;
        }
        for e in 0..from_part.len() {
            if e % 65_536 == 65_535 {
                cancel.check()?;
            }
            let from = from_part.key(e);
            if let Select::Hashed(k, n, keep) = select
                && masked_hash(from, keep) % n as u64 != k as u64
            {
                continue;
            }
            let old = pack(readers, step, from);
            let m = *memo.entry(old).or_insert_with(|| {
                moves.push(step_moves(readers, step, old));
                moves.len() - 1
            });
            for &(new, weight) in &moves[m] {
                key.copy_from_slice(from);
                unpack(readers, step, new, key);
                let to = match route {
                    Some(keep) if outs > 1 => (masked_hash(key, keep) % outs) as usize,
                    _ => 0,
                };
                next[to].add(key, from_part.count(e), weight);
            }
        }
    }
    Ok(())
}

/// The bits of a key that `step` leaves as they are (all but its lines' slots).
fn kept(readers: &[Reader<'_>], step: &Step, words: usize) -> Vec<u64> {
    let mut keep = vec![u64::MAX; words];
    for &(i, ..) in &step.lines {
        let r = &readers[i];
        keep[r.word] &= !(r.mask << r.shift);
    }
    keep
}

/// A hash of the bits of `key` under `keep`, to split a table's entries in parts.
fn masked_hash(key: &[u64], keep: &[u64]) -> u64 {
    let h = key.iter().zip(keep).fold(0u64, |h, (&w, &k)| (h.rotate_left(7) ^ (w & k)).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    h ^ h >> 31
}

/// The states of a step's lines in a key, packed side by side (a line read here first
/// is in its initial state).
fn pack(readers: &[Reader<'_>], step: &Step, key: &[u64]) -> u128 {
    let mut packed = 0u128;
    let mut at = 0;
    for &(i, _, first, _) in &step.lines {
        let r = &readers[i];
        let width = r.mask.count_ones();
        if width > 0 {
            let v = if first { initial(r) } else { key[r.word] >> r.shift & r.mask };
            packed |= u128::from(v) << at;
            at += width;
        }
    }
    packed
}

/// Writes a step's lines' packed states into `key`.
fn unpack(readers: &[Reader<'_>], step: &Step, packed: u128, key: &mut [u64]) {
    let mut at = 0;
    for &(i, _, _, _) in &step.lines {
        let r = &readers[i];
        let width = r.mask.count_ones();
        if width > 0 {
            let v = (packed >> at) as u64 & r.mask;
            key[r.word] = key[r.word] & !(r.mask << r.shift) | v << r.shift;
            at += width;
        }
    }
}

/// A line's state before its first cell is read: its start's class (class 0 of layer
/// 0) or, read backward, the set of the one (accepting) class of its last layer.
fn initial(r: &Reader<'_>) -> u64 {
    u64::from(r.backward)
}

/// The packed states after a step's cell, each with the number of its letters that
/// lead there, from the packed states `old` before it.
fn step_moves(readers: &[Reader<'_>], step: &Step, old: u128) -> Vec<(u128, u64)> {
    let mut out: Vec<(u128, u64)> = Vec::new();
    'letter: for &(x, weight) in &step.groups {
        let mut new = 0u128;
        let mut at = 0;
        for &(i, p, _, last) in &step.lines {
            let r = &readers[i];
            let width = r.mask.count_ones();
            let v = if width == 0 { initial(r) } else { (old >> at) as u64 & r.mask };
            let l = &r.classes;
            let moved = if r.backward {
                // The classes at p from which x leads into the set v of classes at p + 1.
                let set = (0..l.k[p]).filter(|&c| {
                    let t = l.step(p, c, x);
                    t != NONE && v >> t & 1 == 1
                });
                set.fold(0u64, |s, c| s | 1 << c)
            } else {
                match l.step(p, v as u32, x) {
                    NONE => 0,
                    t => u64::from(t) + 1,
                }
            };
            if moved == 0 {
                continue 'letter;
            }
            // A finished line has accepted (its only class at the end, or its start's
            // class among the set); its slot goes back to zero.
            let stored = if last {
                0
            } else if r.backward {
                moved
            } else {
                moved - 1
            };
            if width > 0 {
                new |= u128::from(stored) << at;
                at += width;
            }
        }
        match out.iter_mut().find(|(n, _)| *n == new) {
            Some(o) => o.1 += weight,
            None => out.push((new, weight)),
        }
    }
    out
}

/// What the sweep needs before it starts.
struct Plan<'c> {
    readers: Vec<Reader<'c>>,
    steps: Vec<Step>,
    /// Words of a frontier key.
    words: usize,
    /// Some line has no word at all: the count is zero.
    dead: bool,
}

impl<'c> Plan<'c> {
    /// `None` when the order does not suit the sweep.
    fn new(lines: &[Vec<usize>], classes: &'c [Layered], doms: &[SymSet], order: &[usize]) -> Option<Plan<'c>> {
        let mut at = vec![usize::MAX; doms.len()];
        for (t, &c) in order.iter().enumerate() {
            if c >= doms.len() || at[c] != usize::MAX {
                return None;
            }
            at[c] = t;
        }
        if at.contains(&usize::MAX) {
            return None;
        }
        let mut readers = Vec::with_capacity(lines.len());
        let mut dead = false;
        for (cells, classes) in lines.iter().zip(classes) {
            let backward = direction(cells, &at)?;
            dead |= !classes.live();
            let widest = classes.widest();
            let width = if backward { widest } else { 32 - widest.saturating_sub(1).leading_zeros() };
            if width > 64 {
                return None;
            }
            let mask = if width == 64 { u64::MAX } else { (1u64 << width) - 1 };
            readers.push(Reader { classes, backward, word: 0, shift: 0, mask });
        }
        if dead {
            return Some(Plan { readers, steps: Vec::new(), words: 1, dead });
        }
        let mut steps: Vec<Step> = order.iter().map(|&cell| Step { cell, lines: Vec::new(), groups: Vec::new() }).collect();
        for (i, cells) in lines.iter().enumerate() {
            let n = cells.len();
            for (p, &c) in cells.iter().enumerate() {
                let (first, last) = if readers[i].backward { (p + 1 == n, p == 0) } else { (p == 0, p + 1 == n) };
                steps[at[c]].lines.push((i, p, first, last));
            }
        }
        // Bits of the key: a line holds its slot from its first step to its last.
        let mut used: Vec<u64> = Vec::new();
        for step in &steps {
            for &(i, _, first, _) in &step.lines {
                if first {
                    let width = readers[i].mask.count_ones();
                    let (word, shift) = place(&mut used, width);
                    readers[i].word = word;
                    readers[i].shift = shift;
                }
            }
            for &(i, _, _, last) in &step.lines {
                if last && readers[i].mask != 0 {
                    used[readers[i].word] &= !(readers[i].mask << readers[i].shift);
                }
            }
            let bits: u32 = step.lines.iter().map(|&(i, ..)| readers[i].mask.count_ones()).sum();
            if bits > 128 {
                return None;
            }
        }
        for step in &mut steps {
            step.groups = groups(&readers, &step.lines, doms[step.cell]);
        }
        Some(Plan { readers, steps, words: used.len().max(1), dead })
    }
}

/// Whether the sweep reads a line's `cells` backward (`Some(false)`: forward), when
/// `at` gives each cell's step; `None` when it reads them out of order.
pub(super) fn direction(cells: &[usize], at: &[usize]) -> Option<bool> {
    let steps: Vec<usize> = cells.iter().map(|&c| at[c]).collect();
    if steps.windows(2).all(|w| w[0] < w[1]) {
        Some(false)
    } else if steps.windows(2).all(|w| w[0] > w[1]) {
        Some(true)
    } else {
        None
    }
}

/// A free run of `width` bits in one word of `used` (a new word when none has one),
/// marked used.
fn place(used: &mut Vec<u64>, width: u32) -> (usize, u32) {
    if width == 0 {
        return (0, 0);
    }
    let mask = if width == 64 { u64::MAX } else { (1u64 << width) - 1 };
    for (w, u) in used.iter_mut().enumerate() {
        for shift in 0..=64 - width {
            if *u & mask << shift == 0 {
                *u |= mask << shift;
                return (w, shift);
            }
        }
    }
    used.push(mask);
    (used.len() - 1, 0)
}

/// The letters of a cell's domain grouped by how every line through it reads them
/// (equal columns of their class tables): one letter of each group and its size.
fn groups(readers: &[Reader<'_>], lines: &[(usize, usize, bool, bool)], dom: SymSet) -> Vec<(usize, u64)> {
    let mut seen: Vec<(Vec<u32>, usize, u64)> = Vec::new();
    for x in dom.iter() {
        let sig: Vec<u32> = lines.iter().flat_map(|&(i, p, _, _)| readers[i].classes.column(p, x)).collect();
        match seen.iter_mut().find(|(s, _, _)| *s == sig) {
            Some(g) => g.2 += 1,
            None => seen.push((sig, x, 1)),
        }
    }
    seen.into_iter().map(|(_, x, k)| (x, k)).collect()
}
