//! A parse tree compiled the way CPython 3.11's `re._compiler._compile` compiles it.
//!
//! The program is a flat list of [`Op`]s laid out like sre's code words: a
//! construct's body follows its opcode and ends with the opcode sre ends it with
//! (`MAX_UNTIL`, `MIN_UNTIL`, `SUCCESS`, a `JUMP`), and offsets (`skip`) become
//! absolute indices. What `_compile` decides from the flags is decided here the same
//! way: which literal and set opcodes (`*_IGNORE`, `*_UNI_IGNORE`, `IN_UNI_IGNORE` with
//! the `_casefix` fixes; the tests themselves, and how `_optimize_charset` turns a set
//! into the members actually tested, are [`super::charset`]), ASCII or Unicode word boundaries, `ANY` or
//! `ANY_ALL`, `AT_BEGINNING_LINE`/`AT_END_LINE` under `MULTILINE`, and — because it
//! changes how marks are saved — which repeat opcode a repeat gets (`_simple`).
//! Optimisations that cannot change a result (literal prefixes, charset bitmaps) are
//! not reproduced; the `INFO` block's minimum length is, since it can.

use super::charset::{CharTest, Fold, char_test};
use crate::regex::syntax::At;
use crate::regex::syntax::{Item, MAXREPEAT, Parsed, RepeatKind, flag};

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
pub(crate) enum Op {
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
pub(crate) struct CompileError(pub String);

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
pub(crate) fn compile(p: &Parsed) -> Result<Program, CompileError> {
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
