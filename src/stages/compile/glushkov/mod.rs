//! A small automaton builder for the regular route: the position
//! (Glushkov) automaton of the clue tree over the puzzle's symbols, determinised by a
//! subset construction walked breadth-first to the line's length only, trimmed, and
//! minimised unless its table is large (`MINIMIZE_CELLS`).
//!
//! regex-automata's dense DFA builder costs about 200k instructions per clue whatever
//! its size (byte classes, a 256-wide start table, its own minimisation data), and
//! more on wide alternations such as the expansion of `(?=.*(.)\1{5})` over 64 symbols
//! (`super::expand`); for the short lines and small alphabets of puzzles, a subset
//! construction over the few symbols costs a fraction. `^` and `$` are zero-width
//! positions a run passes only at their end of the line; trees with `\b` or `\B` or
//! too many positions keep the regex-automata route. Positions with the same future
//! are merged before the construction (an expansion copies the clue's tail once per
//! symbol; `.*(.)\1.*[^(]` over 49 symbols took 300k steps and failed without this).
//! `from_hir` builds the tagged route's skeletons the same way, from the `Hir` whose
//! marker bytes are symbols of their own, without the length bound.
//!
//! This file collects the positions of a tree (`Builder`, from the normalised tree or
//! from a `Hir`), hands them to the subset construction (`subset.rs`), and gives them
//! undeterminised to propagation before compiling ([`positions`]).

mod subset;

use subset::construct;

use super::{Alphabet, Automaton, always_nullable, min_len, minimize};
use crate::regex::ast::{Assertion, CharSet, ClassItem, Node};
use regex_syntax::hir::{self, Hir, HirKind};
use smallvec::{SmallVec, smallvec};

/// Most positions (set occurrences after counted repeats are unrolled).
pub(crate) const MAX_POSITIONS: usize = 4096;
/// Most (position, symbol) pairs the subset construction may visit before it hands the
/// clue to regex-automata (large subsets, such as many copies of `.*`, make each state
/// expensive here while the byte DFA shares that work).
pub(crate) const MAX_WORK: usize = 300_000;

/// Largest table (subset states × symbols) that is minimised after the construction.
pub(crate) const MINIMIZE_CELLS: usize = 512;

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
        v.extend(set.items.iter().filter_map(|&ClassItem::Char(c)| alphabet.index(c)).map(|i| i as u16));
        v.sort_unstable();
        v.dedup();
        v
    } else {
        (0..alphabet.len()).filter(|&i| set.contains(alphabet.chars()[i])).map(|i| i as u16).collect()
    }
}

/// The trimmed (and, if small, minimised) automaton of `node` on lines of `len` cells
/// (states first reached after `len` symbols get no transitions), and the number of
/// subset states walked; `None` if the tree has assertions, back-references or
/// lookarounds, or too many positions.
pub(crate) fn automaton(node: &Node, alphabet: &Alphabet, len: usize) -> Option<Result<(Automaton, usize), String>> {
    automaton_within(node, alphabet, len, MAX_WORK)
}

/// [`automaton`] with its own budget of subset-construction steps (an error past it).
pub(crate) fn automaton_within(node: &Node, alphabet: &Alphabet, len: usize, budget: usize) -> Option<Result<(Automaton, usize), String>> {
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
pub(crate) struct Positions {
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
pub(crate) const MAX_REGISTERS: usize = 8;

/// The position automaton of `node` on lines of `len` cells (counted repeats clamped
/// as for `automaton`); `None` if the tree has assertions or lookarounds, a
/// back-reference to a group that is not one character set, more than
/// `MAX_REGISTERS` of them, or too many positions.
pub(crate) fn positions(node: &Node, alphabet: &Alphabet, len: usize) -> Option<Positions> {
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
/// lookaround bodies: markers are one-byte literals, so a skeleton is a
/// plain regular expression over `alphabet ∪ markers`, whose position automaton is
/// determinised without bound on the length (markers are symbols of the skeleton
/// but take no cell). `None` when the tree has a look-around assertion (`^ $ \b \B`
/// left to regex-automata, which knows the context before the text), a Unicode class,
/// or too many positions; an error when the construction exceeds its budget.
pub(crate) fn from_hir(hir: &Hir, bytes: &[u8], idle: bool) -> Option<Result<(Automaton, usize), String>> {
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
