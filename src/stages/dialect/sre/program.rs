//! A parse tree compiled the way CPython 3.11's `re._compiler._compile` compiles it.
//!
//! The program is a flat list of [`Op`]s laid out like sre's code words: a
//! construct's body follows its opcode and ends with the opcode sre ends it with
//! (`MAX_UNTIL`, `MIN_UNTIL`, `SUCCESS`, a `JUMP`), and offsets (`skip`) become
//! absolute indices. What `_compile` decides from the flags is decided here the same
//! way: which literal and set opcodes (`*_IGNORE`, `*_UNI_IGNORE`, `IN_UNI_IGNORE` with
//! the `_casefix` fixes), how `_optimize_charset` turns a set into the members that
//! are actually tested, ASCII or Unicode categories and word boundaries, `ANY` or
//! `ANY_ALL`, `AT_BEGINNING_LINE`/`AT_END_LINE` under `MULTILINE`, and — because it
//! changes how marks are saved — which repeat opcode a repeat gets (`_simple`).
//! Optimisations that cannot change a result (literal prefixes, charset bitmaps) are
//! not reproduced; the `INFO` block's minimum length is, since it can.

use crate::regex::syntax::{At, SetItem as S};
use crate::regex::syntax::{Category, Item, MAXREPEAT, Parsed, RepeatKind, SetItem, flag};
use crate::regex::unicode as uni;

/// `re._parser.TYPE_FLAGS`: the flags that select how characters are classified.
pub(crate) const TYPE_FLAGS: u32 = flag::ASCII | flag::LOCALE | flag::UNICODE;

/// `re._compiler._combine_flags`: the flags in effect inside `(?add-del:…)` when
/// `flags` are in effect outside. Adding a type flag (`a`, `u`, `L`) replaces the
/// outer one.
pub(crate) fn combine_flags(flags: u32, add: u32, del: u32) -> u32 {
    let mut f = flags;
    if add & TYPE_FLAGS != 0 {
        f &= !TYPE_FLAGS;
    }
    (f | add) & !del
}

/// `MAXCODE` for sre's 32-bit code words.
const MAXCODE: u128 = u32::MAX as u128;
/// `re._parser.MAXWIDTH`.
const MAXWIDTH: u128 = 1 << 64;

/// How a character is case-folded before a test: not at all, with
/// `sre_lower_ascii`, or with `sre_lower_unicode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fold {
    /// Compare the character itself.
    None,
    /// `sre_lower_ascii` (ASCII-only lowering: `IN_IGNORE`, `GROUPREF_IGNORE`).
    Ascii,
    /// `sre_lower_unicode` (`_PyUnicode_ToLowercase`: `*_UNI_IGNORE`).
    Unicode,
}

impl Fold {
    /// The folded code point.
    pub(crate) fn apply(self, c: char) -> char {
        match self {
            Fold::None => c,
            Fold::Ascii => c.to_ascii_lowercase(),
            Fold::Unicode => uni::lower(c),
        }
    }
}

/// sre's `CATEGORY_*` codes as compiled: ASCII ones (`SRE_CATEGORY_DIGIT`, …) when
/// `UNICODE` is off, the `UNI_` ones otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cat {
    /// The category (digit, space, word, negated or not).
    Plain(Category),
    /// The `CATEGORY_UNI_*` counterpart.
    Unicode(Category),
}

impl Cat {
    /// `sre_category`.
    pub(crate) fn test(self, c: char) -> bool {
        let (unicode, cat) = match self {
            Cat::Plain(cat) => (false, cat),
            Cat::Unicode(cat) => (true, cat),
        };
        let digit = |c| if unicode { uni::is_decimal(c) } else { uni::is_ascii_digit(c) };
        let space = |c| if unicode { uni::is_space(c) } else { uni::is_ascii_space(c) };
        let word = |c| if unicode { uni::is_word(c) } else { uni::is_ascii_word(c) };
        match cat {
            Category::Digit => digit(c),
            Category::NotDigit => !digit(c),
            Category::Space => space(c),
            Category::NotSpace => !space(c),
            Category::Word => word(c),
            Category::NotWord => !word(c),
        }
    }
}

/// One member test of a compiled set that `_optimize_charset` keeps outside its
/// character map (the "tail").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetOp {
    /// `LITERAL c`.
    Literal(u32),
    /// `RANGE_UNI_IGNORE lo hi`: the (already lowered) character or its upper case
    /// lies in the range.
    RangeUniIgnore(u32, u32),
    /// `CATEGORY code`.
    Category(Cat),
}

/// A set as sre tests it (`SRE(charset)`): `NEGATE` first, then the character map
/// (kept here as sorted disjoint ranges: under IGNORECASE the lowered members, all
/// below U+10000; without it the members as written), then the tail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Charset {
    negate: bool,
    map: Vec<(u32, u32)>,
    tail: Vec<SetOp>,
}

impl Charset {
    /// Whether the (already folded) character `c` is accepted.
    pub(crate) fn contains(&self, c: char) -> bool {
        let u = c as u32;
        let hit = in_ranges(&self.map, u)
            || self.tail.iter().any(|op| match *op {
                SetOp::Literal(x) => u == x,
                SetOp::RangeUniIgnore(a, b) => {
                    let up = uni::upper(c) as u32;
                    (a <= u && u <= b) || (a <= up && up <= b)
                }
                SetOp::Category(cat) => cat.test(c),
            });
        hit != self.negate
    }
}

fn in_ranges(ranges: &[(u32, u32)], c: u32) -> bool {
    let i = ranges.partition_point(|&(_, hi)| hi < c);
    i < ranges.len() && ranges[i].0 <= c
}

/// A single-character test: sre's `LITERAL`, `NOT_LITERAL` and their `_IGNORE` /
/// `_UNI_IGNORE` forms, `ANY`, `ANY_ALL`, and `IN` / `IN_IGNORE` / `IN_UNI_IGNORE`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum CharTest {
    /// `LITERAL c`, or `LITERAL_IGNORE` / `LITERAL_UNI_IGNORE` when the fold is not
    /// `None` (then `c` is already lower-case).
    Literal(Fold, char),
    /// `NOT_LITERAL c` and its `_IGNORE` forms.
    NotLiteral(Fold, char),
    /// `ANY`: anything but `\n`.
    Any,
    /// `ANY_ALL` (`DOTALL`).
    AnyAll,
    /// `IN` (fold `None`), `IN_IGNORE` (`Ascii`), `IN_UNI_IGNORE` (`Unicode`).
    In(Fold, Box<Charset>),
}

impl CharTest {
    /// Whether `c` passes.
    #[inline]
    pub(crate) fn matches(&self, c: char) -> bool {
        match self {
            CharTest::Literal(f, x) => f.apply(c) == *x,
            CharTest::NotLiteral(f, x) => f.apply(c) != *x,
            CharTest::Any => c != '\n',
            CharTest::AnyAll => true,
            CharTest::In(f, set) => set.contains(f.apply(c)),
        }
    }
}

/// sre's `AT_*` codes after `_compile`'s `AT_MULTILINE` / `AT_UNICODE` mapping.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AtCode {
    /// `AT_BEGINNING`, `AT_BEGINNING_STRING`.
    Beginning,
    /// `AT_BEGINNING_LINE`.
    BeginningLine,
    /// `AT_END`: the end, or before a `\n` that is the last character.
    End,
    /// `AT_END_LINE`.
    EndLine,
    /// `AT_END_STRING`.
    EndString,
    /// `AT_BOUNDARY` (ASCII `\w`) or `AT_UNI_BOUNDARY`.
    Boundary(bool),
    /// `AT_NON_BOUNDARY` or `AT_UNI_NON_BOUNDARY`.
    NonBoundary(bool),
}

/// Repeat flavours of the single-character repeat opcodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OneKind {
    /// `REPEAT_ONE`.
    Greedy,
    /// `MIN_REPEAT_ONE`.
    Lazy,
    /// `POSSESSIVE_REPEAT_ONE`.
    Possessive,
}

/// One instruction. Indices are absolute positions in [`Program::ops`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// `MARK i`: group `i / 2 + 1` starts (`i` even) or ends (`i` odd) here.
    Mark(usize),
    /// A single-character test.
    Char(CharTest),
    /// `AT code`.
    At(AtCode),
    /// `BRANCH`: the alternatives start at these indices; each ends with a `Jump`
    /// past the last one.
    Branch(Vec<usize>),
    /// `JUMP`.
    Jump(usize),
    /// `REPEAT_ONE`, `MIN_REPEAT_ONE`, `POSSESSIVE_REPEAT_ONE`: a repeat of one
    /// character test; the tail starts at the next index.
    RepeatOne {
        /// Which of the three.
        kind: OneKind,
        /// Lower bound.
        min: u32,
        /// Upper bound ([`MAXREPEAT`]: none).
        max: u32,
        /// The repeated test.
        item: CharTest,
    },
    /// `REPEAT`: the body starts at the next index and ends at `until`, a
    /// `MaxUntil` or `MinUntil`; the tail follows it.
    Repeat {
        /// Lower bound.
        min: u32,
        /// Upper bound.
        max: u32,
        /// Index of the `MAX_UNTIL` / `MIN_UNTIL`.
        until: usize,
    },
    /// `MAX_UNTIL`.
    MaxUntil,
    /// `MIN_UNTIL`.
    MinUntil,
    /// `POSSESSIVE_REPEAT`: body at the next index, ended by `Success`; `tail` is
    /// the index after that `Success`.
    PossessiveRepeat {
        /// Lower bound.
        min: u32,
        /// Upper bound.
        max: u32,
        /// The tail.
        tail: usize,
    },
    /// `ATOMIC_GROUP`: body at the next index, ended by `Success`.
    Atomic {
        /// The tail.
        tail: usize,
    },
    /// `GROUPREF`, `GROUPREF_IGNORE`, `GROUPREF_UNI_IGNORE` (0-based group).
    GroupRef(usize, Fold),
    /// `GROUPREF_EXISTS`: the yes-branch follows; `no` is where the no-branch (or
    /// the tail) starts.
    GroupRefExists {
        /// 0-based group.
        group: usize,
        /// Where to go when the group is unset.
        no: usize,
    },
    /// `ASSERT` / `ASSERT_NOT`: body at the next index, ended by `Success`.
    Assert {
        /// `ASSERT_NOT`.
        negate: bool,
        /// How far behind the body starts (0 for lookahead).
        back: usize,
        /// The tail.
        tail: usize,
    },
    /// `SUCCESS`.
    Success,
}

/// A compiled clue.
#[derive(Clone, Debug)]
pub(crate) struct Program {
    /// The code; entry at 0, ending with `Success`.
    pub ops: Vec<Op>,
    /// Number of capturing groups.
    pub groups: usize,
    /// The `INFO` block's minimum length (`getwidth()[0]`, capped at `MAXCODE`).
    pub min_len: usize,
}

/// Why `re.compile` (rather than the parser) refuses a tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompileError(pub String);

impl std::fmt::Display for CompileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CompileError {}

/// `_parser.SubPattern.getwidth` with `state.groupwidths`.
struct Widths<'a> {
    bodies: Vec<Option<&'a [Item]>>,
    memo: Vec<Option<(u128, u128)>>,
    busy: Vec<bool>,
}

impl<'a> Widths<'a> {
    fn new(p: &'a Parsed) -> Self {
        let n = p.groups as usize + 1;
        let mut w = Widths { bodies: vec![None; n], memo: vec![None; n], busy: vec![false; n] };
        w.collect(&p.items);
        w
    }

    fn collect(&mut self, items: &'a [Item]) {
        for it in items {
            match it {
                Item::Subpattern { group, items, .. } => {
                    if let Some(g) = group
                        && let Some(slot) = self.bodies.get_mut(*g as usize)
                    {
                        *slot = Some(items);
                    }
                    self.collect(items);
                }
                Item::Branch(alts) => alts.iter().for_each(|a| self.collect(a)),
                Item::Repeat { items, .. } | Item::Atomic(items) | Item::Assert { items, .. } => self.collect(items),
                Item::GroupRefExists { yes, no, .. } => {
                    self.collect(yes);
                    if let Some(no) = no {
                        self.collect(no);
                    }
                }
                _ => {}
            }
        }
    }

    fn group(&mut self, g: u32) -> (u128, u128) {
        let g = g as usize;
        if g >= self.bodies.len() || self.busy[g] {
            return (0, MAXWIDTH);
        }
        if let Some(w) = self.memo[g] {
            return w;
        }
        let Some(body) = self.bodies[g] else { return (0, MAXWIDTH) };
        self.busy[g] = true;
        let w = self.width(body);
        self.busy[g] = false;
        self.memo[g] = Some(w);
        w
    }

    fn width(&mut self, items: &[Item]) -> (u128, u128) {
        let (mut lo, mut hi) = (0u128, 0u128);
        for it in items {
            match it {
                Item::Branch(alts) => {
                    let (mut i, mut j) = (MAXWIDTH, 0);
                    for a in alts {
                        let (l, h) = self.width(a);
                        i = i.min(l);
                        j = j.max(h);
                    }
                    lo += i;
                    hi += j;
                }
                Item::Atomic(items) | Item::Subpattern { items, .. } => {
                    let (i, j) = self.width(items);
                    lo += i;
                    hi += j;
                }
                Item::Repeat { min, max, items, .. } => {
                    let (i, j) = self.width(items);
                    lo += i * *min as u128;
                    if *max == MAXREPEAT && j != 0 {
                        hi = MAXWIDTH;
                    } else {
                        hi += j * *max as u128;
                    }
                }
                Item::Literal(_) | Item::NotLiteral(_) | Item::Any | Item::In(_) => {
                    lo += 1;
                    hi += 1;
                }
                Item::GroupRef(g) => {
                    let (i, j) = self.group(*g);
                    lo += i;
                    hi += j;
                }
                Item::GroupRefExists { yes, no, .. } => {
                    let (mut i, mut j) = self.width(yes);
                    if let Some(no) = no {
                        let (l, h) = self.width(no);
                        i = i.min(l);
                        j = j.max(h);
                    } else {
                        i = 0;
                    }
                    lo += i;
                    hi += j;
                }
                Item::At(_) | Item::Assert { .. } => {}
            }
        }
        (lo.min(MAXWIDTH), hi.min(MAXWIDTH))
    }
}

/// Compiles a parsed clue (`re._compiler._code` without the optimisation-only parts).
pub fn compile(p: &Parsed) -> Result<Program, CompileError> {
    let mut widths = Widths::new(p);
    let min_len = widths.width(&p.items).0.min(MAXCODE) as usize;
    let mut c = Compiler { ops: Vec::new(), widths };
    c.seq(&p.items, p.flags)?;
    c.ops.push(Op::Success);
    Ok(Program { ops: c.ops, groups: p.groups as usize, min_len })
}

struct Compiler<'a> {
    ops: Vec<Op>,
    widths: Widths<'a>,
}

/// `_simple`: a repeat of exactly one character test, possibly wrapped in
/// non-capturing (flag) groups. Returns the test's item and its effective flags.
fn simple(items: &[Item], flags: u32) -> Option<(&Item, u32)> {
    let [it] = items else { return None };
    match it {
        Item::Subpattern { group: None, add, del, items } => simple(items, combine_flags(flags, *add, *del)),
        Item::Literal(_) | Item::NotLiteral(_) | Item::Any | Item::In(_) => Some((it, flags)),
        _ => None,
    }
}

impl Compiler<'_> {
    fn emit(&mut self, op: Op) -> usize {
        self.ops.push(op);
        self.ops.len() - 1
    }

    fn here(&self) -> usize {
        self.ops.len()
    }

    fn seq(&mut self, items: &[Item], flags: u32) -> Result<(), CompileError> {
        for it in items {
            self.item(it, flags)?;
        }
        Ok(())
    }

    fn item(&mut self, it: &Item, flags: u32) -> Result<(), CompileError> {
        match it {
            Item::Literal(_) | Item::NotLiteral(_) | Item::Any | Item::In(_) => {
                let t = char_test(it, flags).expect("a character item");
                self.emit(Op::Char(t));
            }
            Item::Repeat { kind, min, max, items } => {
                if flags & flag::TEMPLATE != 0 {
                    let op = match kind {
                        RepeatKind::Greedy => "MAX_REPEAT",
                        RepeatKind::Lazy => "MIN_REPEAT",
                        RepeatKind::Possessive => "POSSESSIVE_REPEAT",
                    };
                    return Err(CompileError(format!("internal: unsupported template operator {op}")));
                }
                if let Some((one, f)) = simple(items, flags) {
                    let item = char_test(one, f).expect("a character item");
                    let kind = match kind {
                        RepeatKind::Greedy => OneKind::Greedy,
                        RepeatKind::Lazy => OneKind::Lazy,
                        RepeatKind::Possessive => OneKind::Possessive,
                    };
                    self.emit(Op::RepeatOne { kind, min: *min, max: *max, item });
                } else if *kind == RepeatKind::Possessive {
                    let at = self.emit(Op::PossessiveRepeat { min: *min, max: *max, tail: 0 });
                    self.seq(items, flags)?;
                    self.emit(Op::Success);
                    let end = self.here();
                    if let Op::PossessiveRepeat { tail, .. } = &mut self.ops[at] {
                        *tail = end;
                    }
                } else {
                    let at = self.emit(Op::Repeat { min: *min, max: *max, until: 0 });
                    self.seq(items, flags)?;
                    let u = self.emit(if *kind == RepeatKind::Lazy { Op::MinUntil } else { Op::MaxUntil });
                    if let Op::Repeat { until, .. } = &mut self.ops[at] {
                        *until = u;
                    }
                }
            }
            Item::Subpattern { group, add, del, items } => {
                if let Some(g) = group {
                    self.emit(Op::Mark((*g as usize - 1) * 2));
                }
                self.seq(items, combine_flags(flags, *add, *del))?;
                if let Some(g) = group {
                    self.emit(Op::Mark((*g as usize - 1) * 2 + 1));
                }
            }
            Item::Atomic(items) => {
                let at = self.emit(Op::Atomic { tail: 0 });
                self.seq(items, flags)?;
                self.emit(Op::Success);
                let end = self.here();
                self.ops[at] = Op::Atomic { tail: end };
            }
            Item::Assert { behind, negate, items } => {
                let back = if *behind {
                    let (lo, hi) = self.widths.width(items);
                    if lo > MAXCODE {
                        return Err(CompileError("looks too much behind".into()));
                    }
                    if lo != hi {
                        return Err(CompileError("look-behind requires fixed-width pattern".into()));
                    }
                    lo as usize
                } else {
                    0
                };
                let at = self.emit(Op::Assert { negate: *negate, back, tail: 0 });
                self.seq(items, flags)?;
                self.emit(Op::Success);
                let end = self.here();
                self.ops[at] = Op::Assert { negate: *negate, back, tail: end };
            }
            Item::At(a) => {
                self.emit(Op::At(at_code(*a, flags)));
            }
            Item::Branch(alts) => {
                let at = self.emit(Op::Branch(Vec::new()));
                let mut starts = Vec::with_capacity(alts.len());
                let mut jumps = Vec::with_capacity(alts.len());
                for a in alts {
                    starts.push(self.here());
                    self.seq(a, flags)?;
                    jumps.push(self.emit(Op::Jump(0)));
                }
                let end = self.here();
                for j in jumps {
                    self.ops[j] = Op::Jump(end);
                }
                self.ops[at] = Op::Branch(starts);
            }
            Item::GroupRef(g) => {
                let fold = if flags & flag::IGNORECASE == 0 {
                    Fold::None
                } else if flags & flag::UNICODE == 0 {
                    Fold::Ascii
                } else {
                    Fold::Unicode
                };
                self.emit(Op::GroupRef(*g as usize - 1, fold));
            }
            Item::GroupRefExists { group, yes, no } => {
                let at = self.emit(Op::GroupRefExists { group: *group as usize - 1, no: 0 });
                self.seq(yes, flags)?;
                let no_at = if let Some(no) = no {
                    let j = self.emit(Op::Jump(0));
                    let start = self.here();
                    self.seq(no, flags)?;
                    let end = self.here();
                    self.ops[j] = Op::Jump(end);
                    start
                } else {
                    self.here()
                };
                self.ops[at] = Op::GroupRefExists { group: *group as usize - 1, no: no_at };
            }
        }
        Ok(())
    }
}

fn at_code(a: At, flags: u32) -> AtCode {
    let multi = flags & flag::MULTILINE != 0;
    let unicode = flags & flag::UNICODE != 0;
    match a {
        At::Beginning if multi => AtCode::BeginningLine,
        At::Beginning | At::BeginningString => AtCode::Beginning,
        At::End if multi => AtCode::EndLine,
        At::End => AtCode::End,
        At::EndString => AtCode::EndString,
        At::Boundary => AtCode::Boundary(unicode),
        At::NonBoundary => AtCode::NonBoundary(unicode),
    }
}

/// The case functions `_compile` picks under `IGNORECASE`: Unicode ones with the
/// `_casefix` fixes, or ASCII ones without.
#[derive(Clone, Copy)]
struct CaseFns {
    unicode: bool,
}

impl CaseFns {
    fn iscased(self, c: char) -> bool {
        if self.unicode { uni::is_cased(c) } else { uni::ascii_is_cased(c) }
    }
    fn lower(self, c: char) -> char {
        if self.unicode { uni::lower(c) } else { uni::ascii_lower(c) }
    }
    /// [`CaseFns::lower`] of each character of `a..=b`, in order.
    fn lowers(self, a: char, b: char) -> Box<dyn Iterator<Item = char>> {
        if self.unicode { Box::new(uni::lowers(a, b)) } else { Box::new((a..=b).map(uni::ascii_lower)) }
    }
    fn fixes(self, c: char) -> &'static [u32] {
        if self.unicode { uni::extra_cases(c) } else { &[] }
    }
}

/// The test `_compile` emits for a single-character item under `flags`.
pub(crate) fn char_test(it: &Item, flags: u32) -> Option<CharTest> {
    let ignore = flags & flag::IGNORECASE != 0;
    let case = CaseFns { unicode: flags & flag::UNICODE != 0 };
    Some(match it {
        Item::Literal(c) | Item::NotLiteral(c) => {
            let not = matches!(it, Item::NotLiteral(_));
            let plain = |f: Fold, x: char| if not { CharTest::NotLiteral(f, x) } else { CharTest::Literal(f, x) };
            if !ignore || !case.iscased(*c) {
                plain(Fold::None, *c)
            } else {
                let lo = case.lower(*c);
                if !case.unicode {
                    plain(Fold::Ascii, lo)
                } else {
                    let fixes = case.fixes(lo);
                    if fixes.is_empty() {
                        plain(Fold::Unicode, lo)
                    } else {
                        let tail = std::iter::once(lo as u32).chain(fixes.iter().copied()).map(SetOp::Literal).collect();
                        CharTest::In(Fold::Unicode, Box::new(Charset { negate: not, map: Vec::new(), tail }))
                    }
                }
            }
        }
        Item::Any => {
            if flags & flag::DOTALL != 0 {
                CharTest::AnyAll
            } else {
                CharTest::Any
            }
        }
        Item::In(set) => {
            let (charset, hascased) = optimize_charset(set, if ignore { Some(case) } else { None }, flags);
            let fold = if !hascased {
                Fold::None
            } else if !case.unicode {
                Fold::Ascii
            } else {
                Fold::Unicode
            };
            CharTest::In(fold, Box::new(charset))
        }
        _ => return None,
    })
}

const BMP_END: u32 = 0x10000;

/// `_optimize_charset`'s `charmap` at its largest: one bit per BMP code point.
struct Charmap(Vec<u64>);

impl Charmap {
    fn new() -> Charmap {
        Charmap(vec![0; BMP_END as usize / 64])
    }

    /// `charmap[i] = 1`, or `false` where Python raises `IndexError` (past the BMP).
    fn set(&mut self, i: u32) -> bool {
        let Some(word) = self.0.get_mut(i as usize / 64) else { return false };
        *word |= 1 << (i % 64);
        true
    }

    /// The runs of members, as inclusive ranges in ascending order.
    fn runs(&self) -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        let mut open: Option<u32> = None;
        for (w, &bits) in self.0.iter().enumerate() {
            let base = w as u32 * 64;
            match (open, bits) {
                (None, 0) | (Some(_), u64::MAX) => continue,
                _ => {}
            }
            for b in 0..64 {
                let i = base + b;
                match (open, bits >> b & 1 == 1) {
                    (None, true) => open = Some(i),
                    (Some(lo), false) => {
                        out.push((lo, i - 1));
                        open = None;
                    }
                    _ => {}
                }
            }
        }
        if let Some(lo) = open {
            out.push((lo, BMP_END - 1));
        }
        out
    }
}

/// `charmap[lo] = 1` for a lowered member `lo`, then for its fixes; `false` at the
/// first index past the BMP (the rest is not mapped, as in Python).
fn map_lowered(charmap: &mut Charmap, case: CaseFns, lo: char) -> bool {
    charmap.set(lo as u32) && case.fixes(lo).iter().all(|&k| charmap.set(k))
}

/// `_optimize_charset` followed by `_compile_charset`, as membership semantics.
///
/// Without IGNORECASE every member is tested as written. Under it, as in Python, each
/// literal and each character of a range is lowered (`tolower`) into a map of the
/// BMP together with its `_casefix` fixes (Unicode only). A member whose lowered form
/// or fix falls past the BMP (Python's `IndexError`) keeps what was mapped before it
/// and goes to the tail as written, a literal as `LITERAL`, a range as
/// `RANGE_UNI_IGNORE` over its whole span, which also accepts a character whose upper
/// case lies in it; the set is then "cased" (`IN_IGNORE` / `IN_UNI_IGNORE`) whatever
/// the characters, otherwise it is when some member is cased (`iscased`). Which of
/// Python's encodings of the map is chosen (ranges, `CHARSET`, `BIGCHARSET`, the
/// members as written when no case changed) does not change what it accepts.
fn optimize_charset(set: &[SetItem], case: Option<CaseFns>, flags: u32) -> (Charset, bool) {
    let unicode = flags & flag::UNICODE != 0;
    let mut negate = false;
    let mut charmap = case.map(|_| Charmap::new());
    let mut direct: Vec<(u32, u32)> = Vec::new();
    let mut tail = Vec::new();
    let mut hascased = false;
    for s in set {
        match (*s, case, charmap.as_mut()) {
            (S::Negate, ..) => negate = true,
            (S::Category(cat), ..) => tail.push(SetOp::Category(if unicode { Cat::Unicode(cat) } else { Cat::Plain(cat) })),
            (S::Literal(c), Some(case), Some(charmap)) => {
                if !map_lowered(charmap, case, case.lower(c)) {
                    hascased = true;
                    tail.push(SetOp::Literal(c as u32));
                } else if !hascased && case.iscased(c) {
                    hascased = true;
                }
            }
            (S::Range(a, b), Some(case), Some(charmap)) => {
                if !case.lowers(a, b).all(|lo| map_lowered(charmap, case, lo)) {
                    hascased = true;
                    tail.push(SetOp::RangeUniIgnore(a as u32, b as u32));
                } else if !hascased {
                    hascased = (a..=b).any(|c| case.iscased(c));
                }
            }
            (S::Literal(c), ..) => direct.push((c as u32, c as u32)),
            (S::Range(a, b), ..) => direct.push((a as u32, b as u32)),
        }
    }
    let mut map = charmap.map(|m| m.runs()).unwrap_or_default();
    map.extend(direct);
    map.sort_unstable();
    // Merge overlapping ranges so the binary search stays valid.
    let mut merged: Vec<(u32, u32)> = Vec::with_capacity(map.len());
    for (a, b) in map {
        match merged.last_mut() {
            Some((_, hi)) if a <= hi.saturating_add(1) => *hi = (*hi).max(b),
            _ => merged.push((a, b)),
        }
    }
    (Charset { negate, map: merged, tail }, hascased)
}
