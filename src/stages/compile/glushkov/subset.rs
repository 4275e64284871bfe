//! The subset construction over the positions a [`Builder`] collected: positions with
//! the same future merged first ([`same_future`]), then the subsets of positions walked
//! breadth-first to the line's length ([`construct`]), anchors passed only at their end
//! of the line ([`through_anchors`]), each subset numbered once ([`Subsets`]).

use super::{AT_END, AT_START, Adj, Builder, Frag, Label, START, SYMBOL};
use crate::compile::{Automaton, DEAD, FastMap, MAX_STATES, trim};

/// Classes of positions (and of the start, the last index) with the same future:
/// Moore refinement of (final, kind, label) by the classes of the successors. Returns
/// each position's class and the number of classes.
fn same_future(labels: &[Label], kinds: &[u8], follow: &Adj, is_last: &[bool]) -> (Vec<u32>, usize) {
    let n = follow.len();
    let mut ids: FastMap<(bool, u8, &[u16]), u32> = FastMap::default();
    let mut class: Vec<u32> = (0..n)
        .map(|p| {
            let next = ids.len() as u32;
            *ids.entry((is_last[p], kinds[p], labels[p].as_slice())).or_insert(next)
        })
        .collect();
    let mut count = ids.len();
    // Signatures (own class, then the successors' classes, sorted and deduplicated)
    // back to back in one buffer.
    let mut buf: Vec<u32> = Vec::with_capacity(n + follow.targets.len());
    let mut ends: Vec<usize> = Vec::with_capacity(n);
    while count < n {
        buf.clear();
        ends.clear();
        for p in 0..n {
            let from = buf.len() + 1;
            buf.push(class[p]);
            buf.extend(follow[p].iter().map(|&q| class[q as usize]));
            sort_dedup_from(&mut buf, from);
            ends.push(buf.len());
        }
        let mut sigs: FastMap<&[u32], u32> = FastMap::default();
        sigs.reserve(n);
        let mut from = 0;
        for (p, &end) in ends.iter().enumerate() {
            let id = sigs.len() as u32;
            class[p] = *sigs.entry(&buf[from..end]).or_insert(id);
            from = end;
        }
        let stable = sigs.len() == count;
        count = sigs.len();
        if stable {
            break;
        }
    }
    (class, count)
}

/// Sorts `v[from..]` and drops its repeats, in place (lists kept back to back in one
/// buffer, the last one just written).
fn sort_dedup_from(v: &mut Vec<u32>, from: usize) {
    v[from..].sort_unstable();
    let mut k = from;
    for i in from..v.len() {
        if k == from || v[i] != v[k - 1] {
            v[k] = v[i];
            k += 1;
        }
    }
    v.truncate(k);
}

/// From class `c`: the symbol classes a run reaches next, passing the anchors it may
/// (`^` only `at_start`, `$` only `at_end`), and whether it may end there (a final
/// anchor among those passed).
fn through_anchors(kinds: &[u8], follow: &Adj, is_final: &[bool], c: usize, at_start: bool, at_end: bool) -> (Vec<u32>, bool) {
    let mut out = Vec::new();
    let mut ends = false;
    let mut visited = vec![false; kinds.len()];
    let mut stack: Vec<u32> = follow[c].to_vec();
    while let Some(q) = stack.pop() {
        let q = q as usize;
        match kinds[q] {
            SYMBOL => out.push(q as u32),
            k if ((k == AT_START && at_start) || (k == AT_END && at_end)) && !std::mem::replace(&mut visited[q], true) => {
                ends |= is_final[q];
                stack.extend_from_slice(&follow[q]);
            }
            _ => {}
        }
    }
    out.sort_unstable();
    out.dedup();
    (out, ends)
}

/// The subset construction of the positions `b` built (`root` the whole tree's
/// fragment) over `symbols` symbols, walked breadth-first to depth `bound`, with `idle`
/// one more column looping on every state: the trimmed table and the number of subset
/// states walked.
pub(super) fn construct(
    mut b: Builder<'_>,
    root: &Frag,
    symbols: usize,
    len: usize,
    idle: bool,
    budget: usize,
) -> Result<(Automaton, usize), String> {
    let positions = b.labels.len();
    // Position `positions` is the start.
    b.edges.extend(root.first.iter().map(|&q| (positions as u32, q)));
    b.labels.push(Label::new());
    b.kinds.push(START);
    let raw_follow = Adj::from_edges(positions + 1, &b.edges);
    let mut is_last = vec![false; positions + 1];
    for &p in &root.last {
        is_last[p as usize] = true;
    }
    is_last[positions] = root.nullable;
    // Positions with the same future (same symbols, both final or not, successors in
    // the same classes) are one: an expansion copies the tail after the group into
    // each alternative (`.*(?:AA.*X|BB.*X|…)`), and without merging the copies every
    // set of pairs seen so far is a subset of its own.
    let (class, classes) = same_future(&b.labels, &b.kinds, &raw_follow, &is_last);
    let start = class[positions];
    let mut labels: Vec<Label> = vec![Label::new(); classes];
    let mut kinds = vec![SYMBOL; classes];
    let mut final_class = vec![false; classes];
    // Each class's first position stands for it.
    let mut first = vec![u32::MAX; classes];
    for p in 0..=positions {
        let c = class[p] as usize;
        if first[c] == u32::MAX {
            first[c] = p as u32;
            labels[c] = std::mem::take(&mut b.labels[p]);
            kinds[c] = b.kinds[p];
            final_class[c] = is_last[p];
        }
    }
    let mut follow = Adj { starts: Vec::with_capacity(classes + 1), targets: Vec::with_capacity(raw_follow.targets.len()) };
    follow.starts.push(0);
    for &p in &first {
        let from = follow.targets.len();
        follow.targets.extend(raw_follow[p as usize].iter().map(|&q| class[q as usize]));
        sort_dedup_from(&mut follow.targets, from);
        follow.starts.push(follow.targets.len() as u32);
    }
    // Anchors read nothing: a run passes `^` only before the first cell (from the
    // start) and `$` only after the last. Each class's successors are closed over the
    // anchors it may pass in the middle of the line, and it accepts if a run may end
    // after it, passing anchors at the end of the line.
    let (follow, is_last) = if kinds.iter().any(|&k| k == AT_START || k == AT_END) {
        let mut succ = Vec::with_capacity(classes);
        let mut accept = Vec::with_capacity(classes);
        for c in 0..classes {
            let at_start = c as u32 == start;
            succ.push(through_anchors(&kinds, &follow, &final_class, c, at_start, false).0);
            accept.push(final_class[c] || through_anchors(&kinds, &follow, &final_class, c, at_start, true).1);
        }
        (Adj::from_lists(succ.iter().map(Vec::as_slice)), accept)
    } else {
        (follow, final_class)
    };
    debug_assert_eq!(follow.len(), classes);
    let positions = classes;
    // A final position that reads every symbol and loops (the `.*` closing a
    // lookahead's body) accepts every continuation: a subset holding it is that
    // position alone, which keeps `body·Σ*` as small as `body`.
    let universal: Vec<bool> = (0..positions)
        .map(|p| p as u32 != start && is_last[p] && labels[p].len() == symbols && follow[p].binary_search(&(p as u32)).is_ok())
        .collect();
    let any_universal = universal.contains(&true);
    // The steps each position's successors cost (the budget counts them per subset
    // member, as the construction once walked them).
    let steps: Vec<usize> = (0..positions).map(|p| follow[p].iter().map(|&q| labels[q as usize].len()).sum()).collect();
    // Subsets back to back in one arena (state `i` is `arena[ends[i]..ends[i + 1]]`),
    // found again through an open-addressed table of state numbers.
    let mut subsets = Subsets::new(start);
    // Room for a typical clue's subsets at once (growing a table row by row copies it
    // again at every doubling).
    let mut depth = Vec::with_capacity(256);
    depth.push(0usize);
    let (mut next, mut accept) = (Vec::with_capacity(256 * symbols), Vec::with_capacity(256));
    let mut buckets: Vec<Vec<u32>> = vec![Vec::new(); symbols];
    // The successors of the current subset as a bit set over positions: read in
    // order, they fill every bucket sorted and without repeats.
    let mut succ = vec![0u64; positions.div_ceil(64)];
    let mut work = 0usize;
    let mut i = 0;
    while i < subsets.len() {
        accept.push(subsets.get(i).iter().any(|&p| is_last[p as usize]));
        if depth[i] == len {
            next.extend(std::iter::repeat_n(DEAD, symbols));
            if idle {
                next.push(i as u32);
            }
            i += 1;
            continue;
        }
        for &p in subsets.get(i) {
            work += steps[p as usize];
            for &q in &follow[p as usize] {
                succ[q as usize / 64] |= 1 << (q % 64);
            }
        }
        for (w, word) in succ.iter_mut().enumerate() {
            while *word != 0 {
                let q = w * 64 + word.trailing_zeros() as usize;
                *word &= *word - 1;
                for &x in &labels[q] {
                    buckets[x as usize].push(q as u32);
                }
            }
        }
        for bucket in &mut buckets {
            if bucket.is_empty() {
                next.push(DEAD);
                continue;
            }
            if any_universal && let Some(&u) = bucket.iter().find(|&&q| universal[q as usize]) {
                bucket.clear();
                bucket.push(u);
            }
            let (id, fresh) = subsets.intern(bucket);
            if fresh {
                depth.push(depth[i] + 1);
            }
            next.push(id);
            bucket.clear();
        }
        if idle {
            next.push(i as u32);
        }
        if work > budget {
            return Err(format!("automaton too costly: more than {budget} steps of the subset construction"));
        }
        if subsets.len() > MAX_STATES {
            let line = if len == usize::MAX { String::new() } else { format!(" for a line of {len} cells") };
            return Err(format!("automaton too large{line}: more than {MAX_STATES} states"));
        }
        i += 1;
    }
    let raw = subsets.len();
    Ok((trim(&Automaton { symbols: symbols + usize::from(idle), start: 0, accept, next }), raw))
}

/// The subsets of a construction, numbered in order of discovery: kept back to back
/// in one arena and found again through an open-addressed table of their numbers.
struct Subsets {
    arena: Vec<u32>,
    ends: Vec<usize>,
    table: Vec<u32>,
}

impl Subsets {
    fn new(first: u32) -> Subsets {
        let mut s = Subsets { arena: Vec::with_capacity(1024), ends: Vec::with_capacity(256), table: vec![u32::MAX; 512] };
        s.ends.push(0);
        let _ = s.intern(&[first]);
        s
    }

    fn len(&self) -> usize {
        self.ends.len() - 1
    }

    fn get(&self, i: usize) -> &[u32] {
        &self.arena[self.ends[i]..self.ends[i + 1]]
    }

    fn slot(table: &[u32], hash: u64) -> usize {
        hash as usize & (table.len() - 1)
    }

    /// Fx over the members, then a final mix so that the low bits pick the slot.
    fn hash(set: &[u32]) -> u64 {
        let h = set.iter().fold(set.len() as u64, |h, &x| (h.rotate_left(5) ^ u64::from(x)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95));
        let h = (h ^ (h >> 33)).wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^ (h >> 33)
    }

    /// The number of `set`, and whether it is new.
    fn intern(&mut self, set: &[u32]) -> (u32, bool) {
        let mut i = Self::slot(&self.table, Self::hash(set));
        loop {
            let id = self.table[i];
            if id == u32::MAX {
                break;
            }
            if self.get(id as usize) == set {
                return (id, false);
            }
            i = (i + 1) & (self.table.len() - 1);
        }
        let id = self.len() as u32;
        self.arena.extend_from_slice(set);
        self.ends.push(self.arena.len());
        self.table[i] = id;
        if 2 * self.len() > self.table.len() {
            // Grow: every subset goes to its slot in a table twice as large.
            let mut table = vec![u32::MAX; 2 * self.table.len()];
            for k in 0..self.len() {
                let mut j = Self::slot(&table, Self::hash(self.get(k)));
                while table[j] != u32::MAX {
                    j = (j + 1) & (table.len() - 1);
                }
                table[j] = k as u32;
            }
            self.table = table;
        }
        (id, true)
    }
}
