//! A small automaton builder for the regular route (issue 15): the position
//! (Glushkov) automaton of the clue tree over the puzzle's symbols, determinised by a
//! subset construction walked breadth-first to the line's length only, trimmed, and
//! minimised unless its table is large ([`MINIMIZE_CELLS`]).
//!
//! regex-automata's dense DFA builder costs about 200k instructions per clue whatever
//! its size (byte classes, a 256-wide start table, its own minimisation data), and
//! more on wide alternations such as the expansion of `(?=.*(.)\1{5})` over 64 symbols
//! ([`super::expand`]); for the short lines and small alphabets of puzzles, a subset
//! construction over the few symbols costs a fraction. `^` and `$` are zero-width
//! positions a run passes only at their end of the line; trees with `\b` or `\B` or
//! too many positions keep the regex-automata route. Positions with the same future
//! are merged before the construction (an expansion copies the clue's tail once per
//! symbol; `.*(.)\1.*[^(]` over 49 symbols took 300k steps and failed without this).
//! [`from_hir`] builds the tagged route's skeletons the same way, from the `Hir` whose
//! marker bytes are symbols of their own, without the length bound.

use super::{Alphabet, Automaton, DEAD, FastMap, MAX_STATES, always_nullable, min_len, minimize, trim};
use crate::regex::ast::{Assertion, CharSet, ClassItem, Node};
use regex_syntax::hir::{self, Hir, HirKind};
use smallvec::{SmallVec, smallvec};

/// Most positions (set occurrences after counted repeats are unrolled).
pub const MAX_POSITIONS: usize = 4096;
/// Most (position, symbol) pairs the subset construction may visit before it hands the
/// clue to regex-automata (large subsets, such as many copies of `.*`, make each state
/// expensive here while the byte DFA shares that work).
pub const MAX_WORK: usize = 300_000;

/// Largest table (subset states × symbols) that is minimised after the construction.
pub const MINIMIZE_CELLS: usize = 512;

/// A position that reads a symbol of its label.
const SYMBOL: u8 = 0;
/// `^`: passable only before the line's first cell.
const AT_START: u8 = 1;
/// `$`: passable only after the line's last cell.
const AT_END: u8 = 2;
/// The start of the construction (reads nothing).
const START: u8 = 3;

/// The symbols a position reads (one, mostly: kept inline).
type Label = SmallVec<[u16; 4]>;

/// A subtree's positions: whether it matches the empty string, and the positions that
/// may come first and last (a few, mostly: kept inline).
struct Frag {
    nullable: bool,
    first: SmallVec<[u32; 4]>,
    last: SmallVec<[u32; 4]>,
}

struct Builder<'a> {
    /// The alphabet of the AST's sets (`None` when building from a `Hir`).
    alphabet: Option<&'a Alphabet>,
    len: u32,
    /// Symbols each position reads.
    labels: Vec<Label>,
    /// What each position is: [`SYMBOL`], or an anchor ([`AT_START`], [`AT_END`]),
    /// which reads nothing and lets a run through only at that end of the line.
    kinds: Vec<u8>,
    /// Pairs (position, a position that may follow it), as the tree is walked.
    edges: Vec<(u32, u32)>,
    /// For [`positions`]: the back-referenced groups (register `r` is group
    /// `registers[r]`), the symbols each group reads, and the positions that write or
    /// compare a register, as (position, register, compares).
    registers: Vec<u32>,
    register_labels: Vec<Label>,
    tags: Vec<(u32, u8, bool)>,
}

/// Lists of successors back to back: those of `p` are `targets[starts[p]..starts[p + 1]]`.
/// One allocation for all positions, where a list per position cost an allocation and
/// its regrowths; with labels and fragments kept inline ([`Label`], [`Frag`]), the
/// compile of `player_puzzle_decipher_this` (expansions over 80 symbols) went from
/// 15.4M to 12.9M instructions.
struct Adj {
    starts: Vec<u32>,
    targets: Vec<u32>,
}

impl Adj {
    /// The lists of `n` positions from their pairs, in the order given.
    fn from_edges(n: usize, edges: &[(u32, u32)]) -> Adj {
        let mut starts = vec![0u32; n + 1];
        for &(p, _) in edges {
            starts[p as usize + 1] += 1;
        }
        for i in 1..=n {
            starts[i] += starts[i - 1];
        }
        let mut fill = starts.clone();
        let mut targets = vec![0u32; edges.len()];
        for &(p, q) in edges {
            targets[fill[p as usize] as usize] = q;
            fill[p as usize] += 1;
        }
        Adj { starts, targets }
    }

    /// The lists `lists` yields, in order.
    fn from_lists<'a>(lists: impl Iterator<Item = &'a [u32]>) -> Adj {
        let mut adj = Adj { starts: vec![0], targets: Vec::new() };
        for l in lists {
            adj.targets.extend_from_slice(l);
            adj.starts.push(adj.targets.len() as u32);
        }
        adj
    }

    fn len(&self) -> usize {
        self.starts.len() - 1
    }
}

impl std::ops::Index<usize> for Adj {
    type Output = [u32];

    fn index(&self, p: usize) -> &[u32] {
        &self.targets[self.starts[p] as usize..self.starts[p + 1] as usize]
    }
}

impl<'a> Builder<'a> {
    fn new(alphabet: Option<&'a Alphabet>, len: u32) -> Builder<'a> {
        Builder {
            alphabet,
            len,
            labels: Vec::with_capacity(64),
            kinds: Vec::with_capacity(64),
            edges: Vec::with_capacity(128),
            registers: Vec::new(),
            register_labels: Vec::new(),
            tags: Vec::new(),
        }
    }

    /// The register of group `k`, if it is back-referenced.
    fn register(&self, k: u32) -> Option<u8> {
        self.registers.iter().position(|&g| g == k).map(|r| r as u8)
    }

    fn position(&mut self, label: Label, kind: u8) -> Option<Frag> {
        if self.labels.len() >= MAX_POSITIONS {
            return None;
        }
        let p = self.labels.len() as u32;
        self.labels.push(label);
        self.kinds.push(kind);
        Some(Frag { nullable: false, first: smallvec![p], last: smallvec![p] })
    }

    fn empty() -> Frag {
        Frag { nullable: true, first: SmallVec::new(), last: SmallVec::new() }
    }

    fn fail() -> Frag {
        Frag { nullable: false, first: SmallVec::new(), last: SmallVec::new() }
    }

    fn concat(&mut self, a: Frag, b: Frag) -> Frag {
        for &p in &a.last {
            self.edges.extend(b.first.iter().map(|&q| (p, q)));
        }
        let mut first = a.first;
        if a.nullable {
            first.extend_from_slice(&b.first);
        }
        let mut last = b.last;
        if b.nullable {
            last.extend_from_slice(&a.last);
        }
        Frag { nullable: a.nullable && b.nullable, first, last }
    }

    /// The concatenation of what `part` builds for each of `items`.
    fn sequence<T>(&mut self, items: &[T], mut part: impl FnMut(&mut Self, &T) -> Option<Frag>) -> Option<Frag> {
        let mut acc = Self::empty();
        for x in items {
            let f = part(self, x)?;
            acc = self.concat(acc, f);
        }
        Some(acc)
    }

    /// The alternation of what `part` builds for each of `items`.
    fn union<T>(&mut self, items: &[T], mut part: impl FnMut(&mut Self, &T) -> Option<Frag>) -> Option<Frag> {
        let mut acc = Self::fail();
        for x in items {
            let f = part(self, x)?;
            acc.nullable |= f.nullable;
            acc.first.extend(f.first);
            acc.last.extend(f.last);
        }
        Some(acc)
    }

    /// `min` copies of what `part` builds, the last made `X+` when `max` is unbounded,
    /// else `max - min` optional copies.
    fn repeat(&mut self, min: u32, max: Option<u32>, mut part: impl FnMut(&mut Self) -> Option<Frag>) -> Option<Frag> {
        let mut acc = Self::empty();
        for _ in 0..min.saturating_sub(u32::from(max.is_none() && min > 0)) {
            let f = part(self)?;
            acc = self.concat(acc, f);
        }
        match max {
            None => {
                // X* (or the last mandatory copy made X+).
                let mut f = part(self)?;
                for &p in &f.last {
                    self.edges.extend(f.first.iter().map(|&q| (p, q)));
                }
                if min == 0 {
                    f.nullable = true;
                }
                acc = self.concat(acc, f);
            }
            Some(m) => {
                for _ in min..m {
                    let mut f = part(self)?;
                    f.nullable = true;
                    acc = self.concat(acc, f);
                }
            }
        }
        Some(acc)
    }

    fn build(&mut self, node: &Node) -> Option<Frag> {
        Some(match node {
            Node::Empty => Self::empty(),
            Node::Set(set) => {
                let label = set_label(self.alphabet?, set);
                self.position(label, SYMBOL)?
            }
            Node::Concat(v) => self.sequence(v, Self::build)?,
            Node::Alt(v) => self.union(v, Self::build)?,
            Node::Group { index, sub } => {
                let from = self.labels.len() as u32;
                let f = self.build(sub)?;
                // A back-referenced (single-character) group: its position writes the
                // group's register.
                if let Some(r) = index.and_then(|k| self.register(k)) {
                    self.tags.extend((from..self.labels.len() as u32).map(|p| (p, r, false)));
                }
                f
            }
            Node::Backref(k) => {
                // Reads the symbol the group's register holds (a run whose register is
                // still empty fails, as Python's reference to a group that did not
                // take part does).
                let r = self.register(*k)?;
                let label = self.register_labels[r as usize].clone();
                let f = self.position(label, SYMBOL)?;
                self.tags.push((self.labels.len() as u32 - 1, r, true));
                f
            }
            Node::Repeat { sub, min, max } => {
                // Counts clamped to the line as in `to_hir`.
                let n = self.len;
                let (mut min, mut max) = (*min, *max);
                if min > n && min_len(sub) >= 1 {
                    return Some(Self::fail());
                }
                if min > n && always_nullable(sub) {
                    min = n;
                }
                max = max.map(|m| m.min(n.max(min)));
                self.repeat(min, max, |b| b.build(sub))?
            }
            // `^` and `$` (absolute, see the normaliser): zero-width positions.
            Node::Assert(Assertion::Start) => self.position(Label::new(), AT_START)?,
            Node::Assert(Assertion::End) => self.position(Label::new(), AT_END)?,
            Node::Look { .. } | Node::Assert(_) => return None,
        })
    }

    /// The positions of `hir`, whose bytes are symbols through `symbol` (bytes that
    /// are no symbol read nothing); `None` on a look-around assertion, a Unicode class
    /// or too many positions.
    fn build_hir(&mut self, hir: &Hir, symbol: &[u16; 256]) -> Option<Frag> {
        Some(match hir.kind() {
            HirKind::Empty => Self::empty(),
            HirKind::Literal(hir::Literal(bytes)) => self.sequence(bytes, |b, &x| match symbol[x as usize] {
                u16::MAX => Some(Self::fail()),
                s => b.position(smallvec![s], SYMBOL),
            })?,
            HirKind::Class(hir::Class::Bytes(class)) => {
                let mut label: Label = class
                    .ranges()
                    .iter()
                    .flat_map(|r| r.start()..=r.end())
                    .map(|x| symbol[x as usize])
                    .filter(|&s| s != u16::MAX)
                    .collect();
                if label.is_empty() {
                    return Some(Self::fail());
                }
                label.sort_unstable();
                label.dedup();
                self.position(label, SYMBOL)?
            }
            HirKind::Class(hir::Class::Unicode(_)) | HirKind::Look(_) => return None,
            HirKind::Capture(c) => self.build_hir(&c.sub, symbol)?,
            HirKind::Concat(v) => self.sequence(v, |b, x| b.build_hir(x, symbol))?,
            HirKind::Alternation(v) => self.union(v, |b, x| b.build_hir(x, symbol))?,
            HirKind::Repetition(r) => {
                // Counts as given (`to_hir` already clamped those it may): `min` copies,
                // the last made X+ when unbounded, else `max - min` optional copies.
                let (min, max) = (r.min, r.max);
                if max.is_some_and(|m| m < min) {
                    return Some(Self::fail());
                }
                let copies = max.unwrap_or(min.max(1)) as usize;
                if copies > MAX_POSITIONS {
                    return None;
                }
                self.repeat(min, max, |b| b.build_hir(&r.sub, symbol))?
            }
        })
    }
}

/// The symbols of `alphabet` that `set` holds, ascending.
fn set_label(alphabet: &Alphabet, set: &CharSet) -> Label {
    if !set.negated && set.items.iter().all(|it| matches!(it, ClassItem::Char(_))) {
        let mut v = Label::with_capacity(set.items.len());
        v.extend(set.items.iter().filter_map(|it| if let ClassItem::Char(c) = it { alphabet.index(*c) } else { None }).map(|i| i as u16));
        v.sort_unstable();
        v.dedup();
        v
    } else {
        (0..alphabet.len()).filter(|&i| set.contains(alphabet.chars()[i])).map(|i| i as u16).collect()
    }
}

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

/// The trimmed (and, if small, minimised) automaton of `node` on lines of `len` cells
/// (states first reached after `len` symbols get no transitions), and the number of
/// subset states walked; `None` if the tree has assertions, back-references or
/// lookarounds, or too many positions.
pub fn automaton(node: &Node, alphabet: &Alphabet, len: usize) -> Option<Result<(Automaton, usize), String>> {
    automaton_within(node, alphabet, len, MAX_WORK)
}

/// [`automaton`] with its own budget of subset-construction steps (an error past it).
pub fn automaton_within(node: &Node, alphabet: &Alphabet, len: usize, budget: usize) -> Option<Result<(Automaton, usize), String>> {
    let mut b = Builder::new(Some(alphabet), u32::try_from(len).unwrap_or(u32::MAX));
    let root = b.build(node)?;
    Some(construct(b, &root, alphabet.len(), len, false, budget).map(|(trimmed, raw)| {
        // A large table is trimmed, not minimised: the encoding unrolls the automaton
        // over the line and keeps only the live (layer, state) pairs, which a minimal
        // automaton shrinks little there, while Moore's refinement costs as much as the
        // construction (`(?=.*([^/])\1{4}).+` over 64 symbols: 318 states, 254 minimal;
        // leaving it out saves 3 % of the instructions of the 84 grid tests, 9 % on
        // large generated puzzles). A small one is minimised: cheap, and a counter
        // modulo k built twice over (16 states, 8 minimal) would double its clauses.
        (if raw * alphabet.len() <= MINIMIZE_CELLS { minimize(&trimmed) } else { trimmed }, raw)
    }))
}

/// A clue's position (Glushkov) automaton on a line, undeterminised: what line
/// propagation before compiling walks ([`positions`]). A run is in the position it
/// read last; `start` reads nothing. A back-reference to a single-character group is
/// a register: the group's position writes the symbol it reads into it, the
/// reference's position reads only that symbol.
#[derive(Clone, Debug)]
pub struct Positions {
    /// Symbols each position reads (none for `start`).
    pub labels: Vec<SmallVec<[u16; 4]>>,
    /// Positions that may follow position `p`: `follow[follow_starts[p]..follow_starts[p + 1]]`.
    pub follow_starts: Vec<u32>,
    /// See `follow_starts`.
    pub follow: Vec<u32>,
    /// The position before the first symbol.
    pub start: u32,
    /// Positions a run may end in (`start` when the clue matches the empty line).
    pub accept: Vec<bool>,
    /// Registers (back-referenced groups).
    pub registers: usize,
    /// `(position, register, compares)`: the position writes the register (`false`)
    /// or reads the symbol it holds (`true`).
    pub tags: Vec<(u32, u8, bool)>,
}

/// Most registers of [`positions`].
pub const MAX_REGISTERS: usize = 8;

/// The position automaton of `node` on lines of `len` cells (counted repeats clamped
/// as for [`automaton`]); `None` if the tree has assertions or lookarounds, a
/// back-reference to a group that is not one character set, more than
/// [`MAX_REGISTERS`] of them, or too many positions.
pub fn positions(node: &Node, alphabet: &Alphabet, len: usize) -> Option<Positions> {
    let mut b = Builder::new(Some(alphabet), u32::try_from(len).unwrap_or(u32::MAX));
    let mut refs: Vec<u32> = Vec::new();
    let _ = node.any(&mut |n| {
        if let Node::Backref(k) = n {
            refs.push(*k);
        }
        false
    });
    refs.sort_unstable();
    refs.dedup();
    if refs.len() > MAX_REGISTERS || (!refs.is_empty() && alphabet.len() >= 255) {
        return None;
    }
    // Each referenced group must be one character set (as [`super::expand`] finds them).
    let mut groups = Vec::new();
    if !refs.is_empty() {
        super::expand::collect_single_char_groups(node, &mut groups);
    }
    for &k in &refs {
        let (_, set) = groups.iter().find(|(g, _)| *g == k)?;
        b.register_labels.push(set_label(alphabet, set));
    }
    b.registers = refs;
    let root = b.build(node)?;
    if b.kinds.iter().any(|&k| k != SYMBOL) {
        return None;
    }
    let start = b.labels.len();
    b.edges.extend(root.first.iter().map(|&q| (start as u32, q)));
    let Adj { starts: follow_starts, targets: follow } = Adj::from_edges(start + 1, &b.edges);
    let mut accept = vec![false; start + 1];
    for &p in &root.last {
        accept[p as usize] = true;
    }
    accept[start] = root.nullable;
    let mut labels = b.labels;
    labels.push(Label::new());
    Some(Positions { labels, follow_starts, follow, start: start as u32, accept, registers: b.registers.len(), tags: b.tags })
}

/// The automaton of `hir` (the translation `to_hir` hands to regex-automata)
/// over the symbols `bytes` (symbol `i` reads `bytes[i]`), with `idle` one more symbol
/// that loops on every state: trimmed and minimised, as [`super::determinize`] builds
/// it, and the number of subset states walked. The tagged route's skeletons and
/// lookaround bodies (issue 15): markers are one-byte literals, so a skeleton is a
/// plain regular expression over `alphabet ∪ markers`, whose position automaton is
/// determinised without bound on the length (markers are symbols of the skeleton
/// but take no cell). `None` when the tree has a look-around assertion (`^ $ \b \B`
/// left to regex-automata, which knows the context before the text), a Unicode class,
/// or too many positions; an error when the construction exceeds its budget.
pub fn from_hir(hir: &Hir, bytes: &[u8], idle: bool) -> Option<Result<(Automaton, usize), String>> {
    let mut symbol = [u16::MAX; 256];
    for (i, &x) in bytes.iter().enumerate() {
        if symbol[x as usize] != u16::MAX {
            return None;
        }
        symbol[x as usize] = u16::try_from(i).ok()?;
    }
    let mut b = Builder::new(None, 0);
    let root = b.build_hir(hir, &symbol)?;
    Some(construct(b, &root, bytes.len(), usize::MAX, idle, MAX_WORK).map(|(trimmed, raw)| (minimize(&trimmed), raw)))
}

/// The subset construction of the positions `b` built (`root` the whole tree's
/// fragment) over `symbols` symbols, walked breadth-first to depth `bound`, with `idle`
/// one more column looping on every state: the trimmed table and the number of subset
/// states walked.
fn construct(mut b: Builder<'_>, root: &Frag, symbols: usize, len: usize, idle: bool, budget: usize) -> Result<(Automaton, usize), String> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::{bounded, normalise};
    use crate::regex::parser::parse;
    use crate::sre::Matcher;

    /// The subset construction accepts, on lines of each length, exactly the strings
    /// the matcher (crossat's port of Python's) full-matches: with `^` and `$` anywhere,
    /// and with tails that merge into one class.
    #[test]
    fn anchors_and_merged_positions_keep_the_language() {
        let alphabet = Alphabet::new("AB-".chars()).expect("alphabet");
        let cases = [
            "^A.*$",
            "A^B",
            "A$B",
            "A$|B",
            "(?:^A|B)+",
            "(?:A|^)B*",
            "(?:B$|A)*",
            "A*$$",
            "^^A|^B$",
            "(?:^|-)A(?:-|$)",
            "(?:.$)*",
            ".*(?:AA.*-|BB.*-|--.*-)",
            "(?:A.*B|B.*B)*",
            "(?:^A.*|B.*)(?:$|A)",
        ];
        for clue in cases {
            let parsed = parse(clue).expect("parse");
            let matcher = Matcher::new(&parsed).expect("matcher");
            let node = normalise::normalise(&parsed, &alphabet, normalise::Mode::Exact).expect("exact");
            for len in 0..6 {
                let (a, _) = automaton(&node, &alphabet, len).expect("applies").expect("small");
                let got = bounded::strings(&a, len, 1 << 20).expect("few");
                assert_eq!(got, bounded::matched(&matcher, &alphabet, len), "{clue} on {len}");
            }
        }
        // Word boundaries keep the regex-automata route.
        let node = normalise::normalise(&parse("A\\b").expect("parse"), &alphabet, normalise::Mode::Exact).expect("exact");
        assert!(automaton(&node, &alphabet, 3).is_none());
    }
}
