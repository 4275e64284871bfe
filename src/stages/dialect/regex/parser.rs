//! A port of CPython 3.11.7's `re._parser` (plus the checks `re._compiler` makes), for
//! str patterns compiled with no flags: `re.compile(clue)` accepts a clue exactly when
//! [`parse`] does, and the tree is the one `re._parser.parse(clue)` builds, in the types
//! of `super::syntax`.
//!
//! The structure follows `_parser.py` function by function — `Tokenizer` (one
//! character or one backslash escape per token, read one token ahead, as Python's),
//! `State`, `_parse_sub` (alternation, with its common-prefix and branch-to-set
//! optimisations), `_parse` (one sequence, with the set optimisations), `_class_escape`,
//! `_escape`, `_parse_flags`, `SubPattern.getwidth` and `fix_flags` — so that every
//! error is found in the same order as Python finds it, with its message and position.
//! The compile-time refusals of `re._compiler` (look-behind width, `(?t)` with a repeat)
//! are checked afterwards in the compiler's order.
//!
//! Differences, all deliberate:
//! - nesting deeper than `MAX_NESTING` groups is refused (Python fails with a
//!   `RecursionError` somewhere above 450 levels);
//! - code points are Rust `char`s in the tree, so the surrogates `\ud800`–`\udfff`, which
//!   Python accepts as escapes but which no line can contain, are rewritten to what they
//!   match: a surrogate literal becomes the empty set `IN []` (matches nothing), `[^…]` of
//!   one surrogate becomes `IN [NEGATE]` (matches any character), surrogates are
//!   dropped from sets, and a range that starts or ends in the block starts after or
//!   ends before it. A range across the block is kept whole (`[ı-😀]` is one range, as
//!   in Python): under IGNORECASE a range past U+FFFF is compiled to `RANGE_UNI_IGNORE`,
//!   which accepts a character whose upper case lies anywhere between its bounds. No
//!   character is, or has as a case, a surrogate, so none of this changes a match.

use super::syntax::{self, At, Category, Item, Parsed, RepeatKind, SetItem, flag};
use super::unicode;
use std::fmt;

/// The deepest nesting of parenthesised constructs (groups, lookarounds, conditionals)
/// that [`parse`] accepts. Python's recursive parser gives up (`RecursionError`) a little
/// above 450; a fixed, lower limit keeps every recursive walk of the tree safe.
pub(crate) const MAX_NESTING: usize = 200;

/// Longest clue crossat reads, in characters. Parsing and compiling take about 120
/// bytes per character (docs/performance.md), so a clue at the limit needs about
/// 120 MB; Python has no such limit.
pub(crate) const MAX_CLUE_CHARS: usize = 1_000_000;

/// sre's `MAXGROUPS` on a 64-bit build.
pub(crate) const MAXGROUPS: u64 = 1_073_741_823;

const MAXREPEAT: u64 = syntax::MAXREPEAT as u64;
/// `_parser.MAXWIDTH` (3.11.7): the cap of `getwidth`.
const MAXWIDTH: u128 = 1 << 64;
/// `_compiler.MAXCODE`.
const MAXCODE: u128 = (1 << 32) - 1;

/// What kind of exception Python raises for a refused pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ErrorKind {
    /// `re.error`.
    Re,
    /// `OverflowError` (a repeat count of 2^32 - 1 or more).
    Overflow,
    /// `ValueError` (`fix_flags`: ASCII and UNICODE together).
    Value,
    /// Nesting deeper than `MAX_NESTING` (Python: `RecursionError`, a little deeper).
    Nesting,
    /// A clue longer than `MAX_CLUE_CHARS` (crossat's limit; Python has none).
    Length,
}

/// A refused pattern: Python's `re.error` message and position where Python raises
/// `re.error`, else the text of the other exception.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ParseError {
    /// `re.error.pos`: a character offset in the pattern; `None` where Python gives none
    /// (errors of `re._compiler` and exceptions other than `re.error`).
    pub pos: Option<usize>,
    /// `re.error.msg` (or the text of the other exception).
    pub msg: String,
    /// Which exception Python raises.
    pub kind: ErrorKind,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.kind, self.pos) {
            (ErrorKind::Overflow, _) => write!(f, "{} (Python raises OverflowError)", self.msg),
            (ErrorKind::Value, _) => write!(f, "{} (Python raises ValueError)", self.msg),
            (_, Some(p)) => write!(f, "{} at position {p}", self.msg),
            (_, None) => f.write_str(&self.msg),
        }
    }
}

impl std::error::Error for ParseError {}

type Res<T> = Result<T, ParseError>;

fn re_error(msg: impl Into<String>, pos: Option<usize>) -> ParseError {
    ParseError { pos, msg: msg.into(), kind: ErrorKind::Re }
}

// ---------------------------------------------------------------------------------
// The intermediate tree: `SubPattern` data with code points as u32 (surrogates allowed).

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Member {
    Negate,
    Literal(u32),
    Range(u32, u32),
    Category(Category),
}

#[derive(Clone, Debug)]
enum Node {
    Literal(u32),
    NotLiteral(u32),
    Any,
    In(Vec<Member>),
    At(At),
    Branch(Vec<Vec<Node>>),
    Subpattern { group: Option<u32>, add: u32, del: u32, items: Vec<Node> },
    Repeat { kind: RepeatKind, min: u32, max: u32, items: Vec<Node> },
    Atomic(Vec<Node>),
    GroupRef(u32),
    GroupRefExists { group: u32, yes: Vec<Node>, no: Option<Vec<Node>> },
    Assert { behind: bool, negate: bool, items: Vec<Node> },
}

impl Node {
    /// Python's `==` on two `(op, av)` tuples: operands holding a `SubPattern` compare by
    /// identity, so two distinct nodes of that kind are never equal.
    fn same(&self, other: &Node) -> bool {
        match (self, other) {
            (Node::Literal(a), Node::Literal(b)) | (Node::NotLiteral(a), Node::NotLiteral(b)) => a == b,
            (Node::Any, Node::Any) => true,
            (Node::In(a), Node::In(b)) => a == b,
            (Node::At(a), Node::At(b)) => a == b,
            (Node::GroupRef(a), Node::GroupRef(b)) => a == b,
            _ => false,
        }
    }
}

/// `_uniq`: drop repeated members, keeping the first of each.
fn uniq(items: Vec<Member>) -> Vec<Member> {
    if items.len() <= 32 {
        // A set's few members: a scan beats hashing them.
        let mut out: Vec<Member> = Vec::with_capacity(items.len());
        for m in items {
            if !out.contains(&m) {
                out.push(m);
            }
        }
        return out;
    }
    let mut seen = std::collections::HashSet::with_capacity(items.len());
    items.into_iter().filter(|m| seen.insert(m.clone())).collect()
}

fn category_escape(c: char) -> Option<Node> {
    let cat = |c| Some(Node::In(vec![Member::Category(c)]));
    match c {
        'A' => Some(Node::At(At::BeginningString)),
        'b' => Some(Node::At(At::Boundary)),
        'B' => Some(Node::At(At::NonBoundary)),
        'd' => cat(Category::Digit),
        'D' => cat(Category::NotDigit),
        's' => cat(Category::Space),
        'S' => cat(Category::NotSpace),
        'w' => cat(Category::Word),
        'W' => cat(Category::NotWord),
        'Z' => Some(Node::At(At::EndString)),
        _ => None,
    }
}

fn simple_escape(c: char) -> Option<u32> {
    Some(match c {
        'a' => 7,
        'b' => 8,
        'f' => 12,
        'n' => 10,
        'r' => 13,
        't' => 9,
        'v' => 11,
        '\\' => 92,
        _ => return None,
    })
}

fn flag_of(c: char) -> Option<u32> {
    Some(match c {
        'i' => flag::IGNORECASE,
        'L' => flag::LOCALE,
        'm' => flag::MULTILINE,
        's' => flag::DOTALL,
        'x' => flag::VERBOSE,
        'a' => flag::ASCII,
        't' => flag::TEMPLATE,
        'u' => flag::UNICODE,
        _ => return None,
    })
}

const TYPE_FLAGS: u32 = flag::ASCII | flag::LOCALE | flag::UNICODE;
/// `SRE_FLAG_DEBUG | SRE_FLAG_TEMPLATE` (DEBUG has no inline letter).
const GLOBAL_FLAGS: u32 = 128 | flag::TEMPLATE;

// ---------------------------------------------------------------------------------
// Tokenizer

/// One token: a character, or a backslash and the character after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok {
    Char(char),
    Esc(char),
}

impl Tok {
    fn len(self) -> usize {
        match self {
            Tok::Char(_) => 1,
            Tok::Esc(_) => 2,
        }
    }
    fn push_to(self, s: &mut String) {
        match self {
            Tok::Char(c) => s.push(c),
            Tok::Esc(c) => {
                s.push('\\');
                s.push(c);
            }
        }
    }
    fn text(self) -> String {
        let mut s = String::new();
        self.push_to(&mut s);
        s
    }
    fn is_char_in(self, set: &str) -> bool {
        matches!(self, Tok::Char(c) if set.contains(c))
    }
}

fn is_tok(t: Option<Tok>, pred: impl Fn(char) -> bool) -> bool {
    matches!(t, Some(Tok::Char(c)) if pred(c))
}

/// `_parser.Tokenizer` for a str pattern.
struct Tokenizer {
    chars: Vec<char>,
    index: usize,
    next: Option<Tok>,
}

impl Tokenizer {
    fn new(pattern: &str) -> Res<Tokenizer> {
        let mut t = Tokenizer { chars: pattern.chars().collect(), index: 0, next: None };
        t.advance()?;
        Ok(t)
    }

    /// `__next`.
    fn advance(&mut self) -> Res<()> {
        let mut index = self.index;
        let Some(&c) = self.chars.get(index) else {
            self.next = None;
            return Ok(());
        };
        let tok = if c == '\\' {
            index += 1;
            match self.chars.get(index) {
                Some(&d) => Tok::Esc(d),
                None => return Err(re_error("bad escape (end of pattern)", Some(self.chars.len() - 1))),
            }
        } else {
            Tok::Char(c)
        };
        self.index = index + 1;
        self.next = Some(tok);
        Ok(())
    }

    fn matches(&mut self, c: char) -> Res<bool> {
        if self.next == Some(Tok::Char(c)) {
            self.advance()?;
            return Ok(true);
        }
        Ok(false)
    }

    fn get(&mut self) -> Res<Option<Tok>> {
        let this = self.next;
        self.advance()?;
        Ok(this)
    }

    fn getwhile(&mut self, n: usize, pred: impl Fn(char) -> bool) -> Res<String> {
        let mut result = String::new();
        for _ in 0..n {
            match self.next {
                Some(Tok::Char(c)) if pred(c) => result.push(c),
                _ => break,
            }
            self.advance()?;
        }
        Ok(result)
    }

    fn getuntil(&mut self, terminator: char, name: &str) -> Res<String> {
        let mut result = String::new();
        let mut len = 0;
        loop {
            let c = self.next;
            self.advance()?;
            match c {
                None => {
                    if result.is_empty() {
                        return Err(self.error(format!("missing {name}"), 0));
                    }
                    return Err(self.error(format!("missing {terminator}, unterminated name"), len));
                }
                Some(Tok::Char(t)) if t == terminator => {
                    if result.is_empty() {
                        return Err(self.error(format!("missing {name}"), 1));
                    }
                    break;
                }
                Some(t) => {
                    t.push_to(&mut result);
                    len += t.len();
                }
            }
        }
        Ok(result)
    }

    fn tell(&self) -> usize {
        self.index - self.next.map_or(0, Tok::len)
    }

    fn seek(&mut self, index: usize) -> Res<()> {
        self.index = index;
        self.advance()
    }

    fn error(&self, msg: impl Into<String>, offset: usize) -> ParseError {
        re_error(msg, Some(self.tell().saturating_sub(offset)))
    }

    fn checkgroupname(&self, name: &str, offset: usize) -> Res<()> {
        if !unicode::is_identifier(name) {
            let msg = format!("bad character in group name {}", py_repr(name));
            return Err(self.error(msg, name.chars().count() + offset));
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------
// State

struct State {
    flags: u32,
    groupdict: Vec<(String, u32)>,
    /// `groupwidths`: `None` while a group is open.
    groupwidths: Vec<Option<(u128, u128)>>,
    lookbehindgroups: Option<usize>,
    /// `grouprefpos`, in insertion order.
    grouprefpos: Vec<(u64, usize)>,
    /// Open parenthesised constructs (for [`MAX_NESTING`]).
    depth: usize,
}

impl State {
    fn groups(&self) -> usize {
        self.groupwidths.len()
    }

    fn lookup(&self, name: &str) -> Option<u32> {
        self.groupdict.iter().find(|(n, _)| n == name).map(|&(_, g)| g)
    }

    fn opengroup(&mut self, name: Option<&str>) -> Result<u32, String> {
        let gid = self.groups();
        self.groupwidths.push(None);
        if self.groups() as u64 > MAXGROUPS {
            return Err("too many groups".into());
        }
        if let Some(name) = name {
            if let Some(ogid) = self.lookup(name) {
                return Err(format!("redefinition of group name {} as group {gid}; was group {ogid}", py_repr(name)));
            }
            self.groupdict.push((name.to_string(), gid as u32));
        }
        Ok(gid as u32)
    }

    fn closegroup(&mut self, gid: u32, p: &[Node]) {
        let w = self.getwidth(p);
        self.groupwidths[gid as usize] = Some(w);
    }

    fn checkgroup(&self, gid: u64) -> bool {
        gid < self.groups() as u64 && self.groupwidths[gid as usize].is_some()
    }

    fn checklookbehindgroup(&self, gid: u64, source: &Tokenizer) -> Res<()> {
        if let Some(lb) = self.lookbehindgroups {
            if !self.checkgroup(gid) {
                return Err(source.error("cannot refer to an open group", 0));
            }
            if gid >= lb as u64 {
                return Err(source.error("cannot refer to group defined in the same lookbehind subpattern", 0));
            }
        }
        Ok(())
    }

    /// `SubPattern.getwidth` (3.11.7: capped at `MAXWIDTH`).
    fn getwidth(&self, p: &[Node]) -> (u128, u128) {
        let (mut lo, mut hi) = (0u128, 0u128);
        for node in p {
            let (i, j) = match node {
                Node::Branch(alts) => {
                    let (mut i, mut j) = (MAXWIDTH, 0);
                    for a in alts {
                        let (l, h) = self.getwidth(a);
                        i = i.min(l);
                        j = j.max(h);
                    }
                    (i, j)
                }
                Node::Atomic(items) | Node::Subpattern { items, .. } => self.getwidth(items),
                Node::Repeat { min, max, items, .. } => {
                    let (i, j) = self.getwidth(items);
                    let lo_part = i.saturating_mul(*min as u128);
                    if *max as u64 == MAXREPEAT && j != 0 {
                        lo = lo.saturating_add(lo_part);
                        hi = MAXWIDTH;
                        continue;
                    }
                    (lo_part, j.saturating_mul(*max as u128))
                }
                Node::Any | Node::In(_) | Node::Literal(_) | Node::NotLiteral(_) => (1, 1),
                Node::GroupRef(g) => self.groupwidths[*g as usize].unwrap_or((0, 0)),
                Node::GroupRefExists { yes, no, .. } => {
                    let (mut i, mut j) = self.getwidth(yes);
                    match no {
                        Some(no) => {
                            let (l, h) = self.getwidth(no);
                            i = i.min(l);
                            j = j.max(h);
                        }
                        None => i = 0,
                    }
                    (i, j)
                }
                Node::At(_) | Node::Assert { .. } => (0, 0),
            };
            lo = lo.saturating_add(i);
            hi = hi.saturating_add(j);
        }
        (lo.min(MAXWIDTH), hi.min(MAXWIDTH))
    }
}

// ---------------------------------------------------------------------------------
// Python helpers

/// Python's `repr()` of a str (as in `'%r' % name`).
pub(crate) fn py_repr(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') { '"' } else { '\'' };
    let mut out = String::new();
    out.push(quote);
    for c in s.chars() {
        match c {
            _ if c == quote || c == '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            _ if (c as u32) < 0x20 || c as u32 == 0x7f => out.push_str(&format!("\\x{:02x}", c as u32)),
            _ if c.is_ascii() || unicode::is_printable(c) => out.push(c),
            _ if (c as u32) <= 0xff => out.push_str(&format!("\\x{:02x}", c as u32)),
            _ if (c as u32) <= 0xffff => out.push_str(&format!("\\u{:04x}", c as u32)),
            _ => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out.push(quote);
    out
}

/// Python's `int(s)` for a str, as the canonical decimal digits of a non-negative result
/// (`Ok(None)` for a negative one, `Err` where `int` raises `ValueError`).
fn py_int(s: &str) -> Result<Option<String>, ()> {
    // int() turns non-ASCII white space into ' ' and decimal digits into ASCII digits.
    let norm: Vec<char> = s
        .chars()
        .map(|c| {
            if c.is_ascii() {
                c
            } else if unicode::is_space(c) {
                ' '
            } else if let Some(d) = unicode::decimal_value(c) {
                char::from_digit(d, 10).unwrap_or('?')
            } else {
                '?'
            }
        })
        .collect();
    let ws = |c: &char| matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c');
    let start = norm.iter().position(|c| !ws(c)).ok_or(())?;
    let end = norm.iter().rposition(|c| !ws(c)).ok_or(())? + 1;
    let mut body = &norm[start..end];
    let mut negative = false;
    if let Some(&c @ ('+' | '-')) = body.first() {
        negative = c == '-';
        body = &body[1..];
    }
    let mut digits = String::new();
    let mut prev_digit = false;
    for &c in body {
        if c.is_ascii_digit() {
            digits.push(c);
            prev_digit = true;
        } else if c == '_' && prev_digit {
            prev_digit = false;
        } else {
            return Err(());
        }
    }
    if digits.is_empty() || !prev_digit {
        return Err(());
    }
    let trimmed = digits.trim_start_matches('0');
    let canon = if trimmed.is_empty() { "0".to_string() } else { trimmed.to_string() };
    if negative && canon != "0" {
        return Ok(None);
    }
    Ok(Some(canon))
}

/// Compares a canonical decimal string with a number.
fn dec_value(canon: &str) -> Option<u64> {
    if canon.len() > 19 { None } else { canon.parse().ok() }
}

// ---------------------------------------------------------------------------------
// The parser proper

struct Parser {
    source: Tokenizer,
    state: State,
}

fn is_oct(c: char) -> bool {
    ('0'..='7').contains(&c)
}

fn is_hex(c: char) -> bool {
    c.is_ascii_hexdigit()
}

impl Parser {
    /// `_class_escape`: returns a literal code point or a category set.
    fn class_escape(&mut self, c: char) -> Res<Node> {
        let mut escape = format!("\\{c}");
        if let Some(v) = simple_escape(c) {
            return Ok(Node::Literal(v));
        }
        if let Some(n @ Node::In(_)) = category_escape(c) {
            return Ok(n);
        }
        let source = &mut self.source;
        match c {
            'x' | 'u' | 'U' => return self.hex_escape(c, escape),
            'N' => return self.named_escape(),
            _ if is_oct(c) => {
                escape += &source.getwhile(2, is_oct)?;
                let v = u32::from_str_radix(&escape[1..], 8).unwrap_or(0);
                if v > 0o377 {
                    let len = escape.chars().count();
                    return Err(source.error(format!("octal escape value {escape} outside of range 0-0o377"), len));
                }
                return Ok(Node::Literal(v));
            }
            _ if c.is_ascii_digit() => {}
            _ => {
                if !c.is_ascii_alphabetic() {
                    return Ok(Node::Literal(c as u32));
                }
            }
        }
        let len = escape.chars().count();
        Err(source.error(format!("bad escape {escape}"), len))
    }

    /// `\x`, `\u`, `\U` (the same in and out of classes).
    fn hex_escape(&mut self, c: char, mut escape: String) -> Res<Node> {
        let (n, want) = match c {
            'x' => (2, 4),
            'u' => (4, 6),
            _ => (8, 10),
        };
        escape += &self.source.getwhile(n, is_hex)?;
        let len = escape.chars().count();
        if len != want {
            return Err(self.source.error(format!("incomplete escape {escape}"), len));
        }
        let v = u32::from_str_radix(&escape[2..], 16).unwrap_or(u32::MAX);
        if v > i32::MAX as u32 {
            // chr() takes a C int.
            return Err(ParseError { pos: None, msg: "Python int too large to convert to C int".into(), kind: ErrorKind::Overflow });
        }
        if v > 0x10FFFF {
            // chr() raises ValueError: "bad escape".
            return Err(self.source.error(format!("bad escape {escape}"), len));
        }
        Ok(Node::Literal(v))
    }

    /// `\N{name}`.
    fn named_escape(&mut self) -> Res<Node> {
        if !self.source.matches('{')? {
            return Err(self.source.error("missing {", 0));
        }
        let charname = self.source.getuntil('}', "character name")?;
        match unicode::lookup_name(&charname) {
            Some(c) => Ok(Node::Literal(c as u32)),
            None => {
                let msg = format!("undefined character name {}", py_repr(&charname));
                Err(self.source.error(msg, charname.chars().count() + 4))
            }
        }
    }

    /// `_escape`: an escape outside a class.
    fn escape(&mut self, c: char) -> Res<Node> {
        let mut escape = format!("\\{c}");
        if let Some(n) = category_escape(c) {
            return Ok(n);
        }
        if let Some(v) = simple_escape(c) {
            return Ok(Node::Literal(v));
        }
        match c {
            'x' | 'u' | 'U' => return self.hex_escape(c, escape),
            'N' => return self.named_escape(),
            '0' => {
                escape += &self.source.getwhile(2, is_oct)?;
                return Ok(Node::Literal(u32::from_str_radix(&escape[1..], 8).unwrap_or(0)));
            }
            _ if c.is_ascii_digit() => {
                // octal escape *or* decimal group reference
                if is_tok(self.source.next, |d| d.is_ascii_digit()) {
                    let Some(Tok::Char(d)) = self.source.get()? else { unreachable!() };
                    escape.push(d);
                    if is_oct(c) && is_oct(d) && is_tok(self.source.next, is_oct) {
                        let Some(Tok::Char(e)) = self.source.get()? else { unreachable!() };
                        escape.push(e);
                        let v = u32::from_str_radix(&escape[1..], 8).unwrap_or(0);
                        if v > 0o377 {
                            let msg = format!("octal escape value {escape} outside of range 0-0o377");
                            return Err(self.source.error(msg, 4));
                        }
                        return Ok(Node::Literal(v));
                    }
                }
                let group: u64 = escape[1..].parse().unwrap_or(0);
                let len = escape.chars().count();
                if group < self.state.groups() as u64 {
                    if !self.state.checkgroup(group) {
                        return Err(self.source.error("cannot refer to an open group", len));
                    }
                    self.state.checklookbehindgroup(group, &self.source)?;
                    return Ok(Node::GroupRef(group as u32));
                }
                return Err(self.source.error(format!("invalid group reference {group}"), len - 1));
            }
            _ => {
                if !c.is_ascii_alphabetic() {
                    return Ok(Node::Literal(c as u32));
                }
            }
        }
        let len = escape.chars().count();
        Err(self.source.error(format!("bad escape {escape}"), len))
    }

    /// `_parse_sub`: an alternation.
    fn parse_sub(&mut self, mut verbose: bool, nested: usize) -> Res<Vec<Node>> {
        let mut items: Vec<Vec<Node>> = Vec::new();
        loop {
            let first = nested == 0 && items.is_empty();
            items.push(self.parse_seq(verbose, nested + 1, first)?);
            if !self.source.matches('|')? {
                break;
            }
            if nested == 0 {
                verbose = self.state.flags & flag::VERBOSE != 0;
            }
        }
        if items.len() == 1 {
            return Ok(items.pop().unwrap_or_default());
        }
        let mut subpattern = Vec::new();
        // common prefix: the first k nodes that every alternative shares, moved out
        // of the branch (Python moves them one at a time; the result is the same)
        let k = (0..items[0].len()).take_while(|&j| items.iter().all(|it| it.get(j).is_some_and(|n| n.same(&items[0][j])))).count();
        if k > 0 {
            subpattern.extend(items[0][..k].iter().cloned());
            for it in &mut items {
                it.drain(..k);
            }
        }
        // branch → set
        let mut set = Vec::new();
        let mut all = true;
        for it in &items {
            match it.as_slice() {
                [Node::Literal(c)] => set.push(Member::Literal(*c)),
                [Node::In(av)] if av.first() != Some(&Member::Negate) => set.extend(av.iter().cloned()),
                _ => {
                    all = false;
                    break;
                }
            }
        }
        if all {
            subpattern.push(Node::In(uniq(set)));
            return Ok(subpattern);
        }
        subpattern.push(Node::Branch(items));
        Ok(subpattern)
    }

    /// `_parse`: a sequence.
    fn parse_seq(&mut self, verbose: bool, nested: usize, first: bool) -> Res<Vec<Node>> {
        let mut verbose = verbose;
        let mut subpattern: Vec<Node> = Vec::new();
        loop {
            let this = match self.source.next {
                None => break,
                Some(t) if t.is_char_in("|)") => break,
                Some(t) => t,
            };
            self.source.get()?;
            if verbose {
                if this.is_char_in(" \t\n\r\x0b\x0c") {
                    continue;
                }
                if this == Tok::Char('#') {
                    loop {
                        match self.source.get()? {
                            None | Some(Tok::Char('\n')) => break,
                            _ => {}
                        }
                    }
                    continue;
                }
            }
            let ch = match this {
                Tok::Esc(c) => {
                    let code = self.escape(c)?;
                    subpattern.push(code);
                    continue;
                }
                Tok::Char(c) => c,
            };
            match ch {
                '[' => self.parse_class(&mut subpattern)?,
                '?' | '*' | '+' | '{' => {
                    if !self.parse_repeat(ch, &mut subpattern)? {
                        continue;
                    }
                }
                '.' => subpattern.push(Node::Any),
                '(' => {
                    if let Some(set_verbose) = self.parse_group(&mut subpattern, verbose, nested, first)? {
                        verbose = set_verbose;
                    }
                }
                '^' => subpattern.push(Node::At(At::Beginning)),
                '$' => subpattern.push(Node::At(At::End)),
                _ => subpattern.push(Node::Literal(ch as u32)),
            }
        }
        // unpack non-capturing groups
        if subpattern.iter().any(|n| matches!(n, Node::Subpattern { group: None, add: 0, del: 0, .. })) {
            let mut out = Vec::with_capacity(subpattern.len());
            for n in subpattern {
                match n {
                    Node::Subpattern { group: None, add: 0, del: 0, items } => out.extend(items),
                    n => out.push(n),
                }
            }
            subpattern = out;
        }
        Ok(subpattern)
    }

    /// A character set, after its `[`.
    fn parse_class(&mut self, subpattern: &mut Vec<Node>) -> Res<()> {
        let here = self.source.tell() - 1;
        let mut set: Vec<Member> = Vec::new();
        let negate = self.source.matches('^')?;
        let unterminated = |s: &Tokenizer| s.error("unterminated character set", s.tell() - here);
        loop {
            let Some(this) = self.source.get()? else {
                return Err(unterminated(&self.source));
            };
            if this == Tok::Char(']') && !set.is_empty() {
                break;
            }
            let code1 = match this {
                Tok::Esc(c) => self.class_escape(c)?,
                Tok::Char(c) => Node::Literal(c as u32),
            };
            if self.source.matches('-')? {
                let Some(that) = self.source.get()? else {
                    return Err(unterminated(&self.source));
                };
                if that == Tok::Char(']') {
                    set.push(class_member(code1));
                    set.push(Member::Literal('-' as u32));
                    break;
                }
                let code2 = match that {
                    Tok::Esc(c) => self.class_escape(c)?,
                    Tok::Char(c) => Node::Literal(c as u32),
                };
                let bad = || format!("bad character range {}-{}", this.text(), that.text());
                let offset = this.len() + 1 + that.len();
                match (code1, code2) {
                    (Node::Literal(lo), Node::Literal(hi)) => {
                        if hi < lo {
                            return Err(self.source.error(bad(), offset));
                        }
                        set.push(Member::Range(lo, hi));
                    }
                    _ => return Err(self.source.error(bad(), offset)),
                }
            } else {
                set.push(class_member(code1));
            }
        }
        let mut set = uniq(set);
        if let [Member::Literal(c)] = set.as_slice() {
            subpattern.push(if negate { Node::NotLiteral(*c) } else { Node::Literal(*c) });
        } else {
            if negate {
                set.insert(0, Member::Negate);
            }
            subpattern.push(Node::In(set));
        }
        Ok(())
    }

    /// A quantifier after `this`; `Ok(false)` where `{` turned out to be a literal.
    fn parse_repeat(&mut self, this: char, subpattern: &mut Vec<Node>) -> Res<bool> {
        let here = self.source.tell();
        let (min, max): (u64, u64) = match this {
            '?' => (0, 1),
            '*' => (0, MAXREPEAT),
            '+' => (1, MAXREPEAT),
            _ => {
                if self.source.next == Some(Tok::Char('}')) {
                    subpattern.push(Node::Literal('{' as u32));
                    return Ok(false);
                }
                let (mut min, mut max) = (0u64, MAXREPEAT);
                let mut lo = String::new();
                let mut hi = String::new();
                while is_tok(self.source.next, |c| c.is_ascii_digit()) {
                    if let Some(Tok::Char(c)) = self.source.get()? {
                        lo.push(c);
                    }
                }
                if self.source.matches(',')? {
                    while is_tok(self.source.next, |c| c.is_ascii_digit()) {
                        if let Some(Tok::Char(c)) = self.source.get()? {
                            hi.push(c);
                        }
                    }
                } else {
                    hi = lo.clone();
                }
                if !self.source.matches('}')? {
                    subpattern.push(Node::Literal('{' as u32));
                    self.source.seek(here)?;
                    return Ok(false);
                }
                let too_large = || ParseError { pos: None, msg: "the repetition number is too large".into(), kind: ErrorKind::Overflow };
                let value =
                    |s: &str| dec_value(s.trim_start_matches('0')).or(if s.trim_start_matches('0').is_empty() { Some(0) } else { None });
                if !lo.is_empty() {
                    min = value(&lo).filter(|&v| v < MAXREPEAT).ok_or_else(too_large)?;
                }
                if !hi.is_empty() {
                    max = value(&hi).filter(|&v| v < MAXREPEAT).ok_or_else(too_large)?;
                    if max < min {
                        return Err(self.source.error("min repeat greater than max repeat", self.source.tell() - here));
                    }
                }
                (min, max)
            }
        };
        let offset = self.source.tell() - here + 1;
        let item = match subpattern.last() {
            None | Some(Node::At(_)) => return Err(self.source.error("nothing to repeat", offset)),
            Some(Node::Repeat { .. }) => return Err(self.source.error("multiple repeat", offset)),
            Some(_) => subpattern.pop().unwrap_or(Node::Any),
        };
        let items = match item {
            Node::Subpattern { group: None, add: 0, del: 0, items } => items,
            other => vec![other],
        };
        let kind = if self.source.matches('?')? {
            RepeatKind::Lazy
        } else if self.source.matches('+')? {
            RepeatKind::Possessive
        } else {
            RepeatKind::Greedy
        };
        subpattern.push(Node::Repeat { kind, min: min as u32, max: max as u32, items });
        Ok(true)
    }

    /// Everything after a `(`. Returns the new `verbose` after global flags.
    fn parse_group(&mut self, subpattern: &mut Vec<Node>, verbose: bool, nested: usize, first: bool) -> Res<Option<bool>> {
        let start = self.source.tell() - 1;
        self.parse_group_inner(subpattern, verbose, nested, first, start)
    }

    /// Counts one more level of nesting for the parenthesis at `start`, refusing more
    /// than [`MAX_NESTING`].
    fn enter(&mut self, start: usize) -> Res<()> {
        if self.state.depth >= MAX_NESTING {
            return Err(ParseError {
                pos: Some(start),
                msg: format!("nesting too deep (more than {MAX_NESTING} levels)"),
                kind: ErrorKind::Nesting,
            });
        }
        self.state.depth += 1;
        Ok(())
    }

    /// `_parse_sub` for the body of the group opened at `start`.
    fn nested_sub(&mut self, verbose: bool, nested: usize, start: usize) -> Res<Vec<Node>> {
        self.enter(start)?;
        let p = self.parse_sub(verbose, nested + 1)?;
        self.state.depth -= 1;
        Ok(p)
    }

    fn unterminated(&self, start: usize) -> ParseError {
        self.source.error("missing ), unterminated subpattern", self.source.tell() - start)
    }

    fn parse_group_inner(
        &mut self,
        subpattern: &mut Vec<Node>,
        verbose: bool,
        nested: usize,
        first: bool,
        start: usize,
    ) -> Res<Option<bool>> {
        let mut capture = true;
        let mut atomic = false;
        let mut name: Option<String> = None;
        let mut add_flags = 0;
        let mut del_flags = 0;
        if self.source.matches('?')? {
            let Some(char) = self.source.get()? else {
                return Err(self.source.error("unexpected end of pattern", 0));
            };
            match char {
                Tok::Char('P') => {
                    if self.source.matches('<')? {
                        let n = self.source.getuntil('>', "group name")?;
                        self.source.checkgroupname(&n, 1)?;
                        name = Some(n);
                    } else if self.source.matches('=')? {
                        let n = self.source.getuntil(')', "group name")?;
                        self.source.checkgroupname(&n, 1)?;
                        let len = n.chars().count();
                        let Some(gid) = self.state.lookup(&n) else {
                            return Err(self.source.error(format!("unknown group name {}", py_repr(&n)), len + 1));
                        };
                        if !self.state.checkgroup(gid as u64) {
                            return Err(self.source.error("cannot refer to an open group", len + 1));
                        }
                        self.state.checklookbehindgroup(gid as u64, &self.source)?;
                        subpattern.push(Node::GroupRef(gid));
                        return Ok(None);
                    } else {
                        let Some(c) = self.source.get()? else {
                            return Err(self.source.error("unexpected end of pattern", 0));
                        };
                        return Err(self.source.error(format!("unknown extension ?P{}", c.text()), c.len() + 2));
                    }
                }
                Tok::Char(':') => capture = false,
                Tok::Char('#') => {
                    loop {
                        if self.source.next.is_none() {
                            return Err(self.source.error("missing ), unterminated comment", self.source.tell() - start));
                        }
                        if self.source.get()? == Some(Tok::Char(')')) {
                            break;
                        }
                    }
                    return Ok(None);
                }
                Tok::Char(c @ ('=' | '!' | '<')) => {
                    let mut c = c;
                    let mut behind = false;
                    let mut outer_lookbehind = None;
                    if c == '<' {
                        let Some(d) = self.source.get()? else {
                            return Err(self.source.error("unexpected end of pattern", 0));
                        };
                        match d {
                            Tok::Char(x @ ('=' | '!')) => c = x,
                            _ => return Err(self.source.error(format!("unknown extension ?<{}", d.text()), d.len() + 2)),
                        }
                        behind = true;
                        outer_lookbehind = Some(self.state.lookbehindgroups);
                        if self.state.lookbehindgroups.is_none() {
                            self.state.lookbehindgroups = Some(self.state.groups());
                        }
                    }
                    let p = self.nested_sub(verbose, nested, start)?;
                    if let Some(None) = outer_lookbehind {
                        self.state.lookbehindgroups = None;
                    }
                    if !self.source.matches(')')? {
                        return Err(self.unterminated(start));
                    }
                    subpattern.push(Node::Assert { behind, negate: c == '!', items: p });
                    return Ok(None);
                }
                Tok::Char('(') => {
                    self.parse_conditional(subpattern, verbose, nested, start)?;
                    return Ok(None);
                }
                Tok::Char('>') => {
                    capture = false;
                    atomic = true;
                }
                Tok::Char(c) if flag_of(c).is_some() || c == '-' => match self.parse_flags(c)? {
                    None => {
                        if !first || !subpattern.is_empty() {
                            return Err(self.source.error("global flags not at the start of the expression", self.source.tell() - start));
                        }
                        return Ok(Some(self.state.flags & flag::VERBOSE != 0));
                    }
                    Some((a, d)) => {
                        add_flags = a;
                        del_flags = d;
                        capture = false;
                    }
                },
                other => return Err(self.source.error(format!("unknown extension ?{}", other.text()), other.len() + 1)),
            }
        }
        // parse group contents
        let group = if capture {
            match self.state.opengroup(name.as_deref()) {
                Ok(g) => Some(g),
                Err(msg) => {
                    let len = name.as_deref().map_or(0, |n| n.chars().count());
                    return Err(self.source.error(msg, len + 1));
                }
            }
        } else {
            None
        };
        let sub_verbose = (verbose || add_flags & flag::VERBOSE != 0) && del_flags & flag::VERBOSE == 0;
        let p = self.nested_sub(sub_verbose, nested, start)?;
        if !self.source.matches(')')? {
            return Err(self.unterminated(start));
        }
        if let Some(g) = group {
            self.state.closegroup(g, &p);
        }
        if atomic {
            subpattern.push(Node::Atomic(p));
        } else {
            subpattern.push(Node::Subpattern { group, add: add_flags, del: del_flags, items: p });
        }
        Ok(None)
    }

    /// `(?(cond)yes|no)`, after `(?(`.
    fn parse_conditional(&mut self, subpattern: &mut Vec<Node>, verbose: bool, nested: usize, start: usize) -> Res<()> {
        let condname = self.source.getuntil(')', "group name")?;
        let len = condname.chars().count();
        let condgroup: u64;
        if unicode::is_identifier(&condname) {
            self.source.checkgroupname(&condname, 1)?;
            match self.state.lookup(&condname) {
                Some(g) => condgroup = g as u64,
                None => return Err(self.source.error(format!("unknown group name {}", py_repr(&condname)), len + 1)),
            }
        } else {
            let bad = |s: &Tokenizer| s.error(format!("bad character in group name {}", py_repr(&condname)), len + 1);
            let canon = match py_int(&condname) {
                Ok(Some(c)) => c,
                _ => return Err(bad(&self.source)),
            };
            if canon == "0" {
                return Err(self.source.error("bad group number", len + 1));
            }
            match dec_value(&canon) {
                Some(v) if v < MAXGROUPS => condgroup = v,
                _ => return Err(self.source.error(format!("invalid group reference {canon}"), len + 1)),
            }
            if !self.state.grouprefpos.iter().any(|&(g, _)| g == condgroup) {
                let pos = self.source.tell() - len - 1;
                self.state.grouprefpos.push((condgroup, pos));
            }
        }
        self.state.checklookbehindgroup(condgroup, &self.source)?;
        self.enter(start)?;
        let item_yes = self.parse_seq(verbose, nested + 1, false)?;
        let item_no = if self.source.matches('|')? {
            let no = self.parse_seq(verbose, nested + 1, false)?;
            if self.source.next == Some(Tok::Char('|')) {
                return Err(self.source.error("conditional backref with more than two branches", 0));
            }
            Some(no)
        } else {
            None
        };
        self.state.depth -= 1;
        if !self.source.matches(')')? {
            return Err(self.unterminated(start));
        }
        subpattern.push(Node::GroupRefExists { group: condgroup as u32, yes: item_yes, no: item_no });
        Ok(())
    }

    /// `_parse_flags`: `None` for global flags (already added to the state).
    fn parse_flags(&mut self, first: char) -> Res<Option<(u32, u32)>> {
        let mut add_flags = 0u32;
        let mut del_flags = 0u32;
        let mut char = Tok::Char(first);
        if first != '-' {
            loop {
                let Tok::Char(c) = char else { unreachable!() };
                let f = flag_of(c).unwrap_or(0);
                if c == 'L' {
                    return Err(self.source.error("bad inline flags: cannot use 'L' flag with a str pattern", 0));
                }
                add_flags |= f;
                if f & TYPE_FLAGS != 0 && add_flags & TYPE_FLAGS != f {
                    return Err(self.source.error("bad inline flags: flags 'a', 'u' and 'L' are incompatible", 0));
                }
                let Some(next) = self.source.get()? else {
                    return Err(self.source.error("missing -, : or )", 0));
                };
                char = next;
                if next.is_char_in(")-:") {
                    break;
                }
                if !matches!(next, Tok::Char(c) if flag_of(c).is_some()) {
                    let msg = if tok_isalpha(next) { "unknown flag" } else { "missing -, : or )" };
                    return Err(self.source.error(msg, next.len()));
                }
            }
        }
        if char == Tok::Char(')') {
            self.state.flags |= add_flags;
            return Ok(None);
        }
        if add_flags & GLOBAL_FLAGS != 0 {
            return Err(self.source.error("bad inline flags: cannot turn on global flag", 1));
        }
        if char == Tok::Char('-') {
            let Some(next) = self.source.get()? else {
                return Err(self.source.error("missing flag", 0));
            };
            char = next;
            if !matches!(char, Tok::Char(c) if flag_of(c).is_some()) {
                let msg = if tok_isalpha(char) { "unknown flag" } else { "missing flag" };
                return Err(self.source.error(msg, char.len()));
            }
            loop {
                let Tok::Char(c) = char else { unreachable!() };
                let f = flag_of(c).unwrap_or(0);
                if f & TYPE_FLAGS != 0 {
                    return Err(self.source.error("bad inline flags: cannot turn off flags 'a', 'u' and 'L'", 0));
                }
                del_flags |= f;
                let Some(next) = self.source.get()? else {
                    return Err(self.source.error("missing :", 0));
                };
                char = next;
                if char == Tok::Char(':') {
                    break;
                }
                if !matches!(char, Tok::Char(c) if flag_of(c).is_some()) {
                    let msg = if tok_isalpha(char) { "unknown flag" } else { "missing :" };
                    return Err(self.source.error(msg, char.len()));
                }
            }
        }
        if del_flags & GLOBAL_FLAGS != 0 {
            return Err(self.source.error("bad inline flags: cannot turn off global flag", 1));
        }
        if add_flags & del_flags != 0 {
            return Err(self.source.error("bad inline flags: flag turned on and off", 1));
        }
        Ok(Some((add_flags, del_flags)))
    }
}

fn tok_isalpha(t: Tok) -> bool {
    matches!(t, Tok::Char(c) if unicode::is_alpha(c))
}

/// A class item from an escape or literal: a category set contributes its one member.
fn class_member(code: Node) -> Member {
    match code {
        Node::Literal(c) => Member::Literal(c),
        Node::In(mut v) => v.pop().unwrap_or(Member::Negate),
        _ => Member::Negate,
    }
}

/// `fix_flags` for a str pattern.
fn fix_flags(flags: u32) -> Res<u32> {
    let value = |msg: &str| ParseError { pos: None, msg: msg.into(), kind: ErrorKind::Value };
    if flags & flag::LOCALE != 0 {
        return Err(value("cannot use LOCALE flag with a str pattern"));
    }
    if flags & flag::ASCII == 0 {
        Ok(flags | flag::UNICODE)
    } else if flags & flag::UNICODE != 0 {
        Err(value("ASCII and UNICODE flags are incompatible"))
    } else {
        Ok(flags)
    }
}

/// The refusals of `re._compiler._compile`, in its (pre-order) walk: look-behind widths,
/// and repeats under `(?t)`.
fn compile_check(state: &State, items: &[Node], template: bool) -> Res<()> {
    for n in items {
        match n {
            Node::Repeat { kind, items, .. } => {
                if template {
                    let op = match kind {
                        RepeatKind::Greedy => "MAX_REPEAT",
                        RepeatKind::Lazy => "MIN_REPEAT",
                        RepeatKind::Possessive => "POSSESSIVE_REPEAT",
                    };
                    return Err(re_error(format!("internal: unsupported template operator {op}"), None));
                }
                compile_check(state, items, template)?;
            }
            Node::Assert { behind, items, .. } => {
                if *behind {
                    let (lo, hi) = state.getwidth(items);
                    if lo > MAXCODE {
                        return Err(re_error("looks too much behind", None));
                    }
                    if lo != hi {
                        return Err(re_error("look-behind requires fixed-width pattern", None));
                    }
                }
                compile_check(state, items, template)?;
            }
            Node::Subpattern { items, .. } | Node::Atomic(items) => compile_check(state, items, template)?,
            Node::Branch(alts) => {
                for a in alts {
                    compile_check(state, a, template)?;
                }
            }
            Node::GroupRefExists { yes, no, .. } => {
                compile_check(state, yes, template)?;
                if let Some(no) = no {
                    compile_check(state, no, template)?;
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// Parses a clue as `re.compile(pattern)` does for a str pattern with no flags: the tree
/// of `re._parser.parse(pattern)` (with `fix_flags` applied), or Python's refusal.
pub(crate) fn parse(pattern: &str) -> Result<Parsed, ParseError> {
    let chars = pattern.chars().count();
    if chars > MAX_CLUE_CHARS {
        return Err(ParseError {
            pos: None,
            msg: format!("the clue has {chars} characters, more than the limit of {MAX_CLUE_CHARS}"),
            kind: ErrorKind::Length,
        });
    }
    let source = Tokenizer::new(pattern)?;
    let state =
        State { flags: 0, groupdict: Vec::new(), groupwidths: vec![None], lookbehindgroups: None, grouprefpos: Vec::new(), depth: 0 };
    let mut p = Parser { source, state };
    let items = p.parse_sub(false, 0)?;
    p.state.flags = fix_flags(p.state.flags)?;
    if p.source.next.is_some() {
        return Err(p.source.error("unbalanced parenthesis", 0));
    }
    for &(g, pos) in &p.state.grouprefpos {
        if g >= p.state.groups() as u64 {
            return Err(re_error(format!("invalid group reference {g}"), Some(pos)));
        }
    }
    compile_check(&p.state, &items, p.state.flags & flag::TEMPLATE != 0)?;
    Ok(Parsed { items: convert_seq(items), flags: p.state.flags, groups: p.state.groups() as u32 - 1, names: p.state.groupdict })
}

// ---------------------------------------------------------------------------------
// Conversion to the public tree (surrogates rewritten: see the module documentation).

fn is_surrogate(c: u32) -> bool {
    (0xD800..=0xDFFF).contains(&c)
}

fn to_char(c: u32) -> char {
    char::from_u32(c).unwrap_or('\u{FFFD}')
}

fn convert_seq(items: Vec<Node>) -> Vec<Item> {
    items.into_iter().map(convert).collect()
}

fn convert(n: Node) -> Item {
    match n {
        Node::Literal(c) if is_surrogate(c) => Item::In(Vec::new()),
        Node::Literal(c) => Item::Literal(to_char(c)),
        Node::NotLiteral(c) if is_surrogate(c) => Item::In(vec![SetItem::Negate]),
        Node::NotLiteral(c) => Item::NotLiteral(to_char(c)),
        Node::Any => Item::Any,
        Node::In(set) => {
            let mut out = Vec::with_capacity(set.len());
            for m in set {
                match m {
                    Member::Negate => out.push(SetItem::Negate),
                    Member::Literal(c) if is_surrogate(c) => {}
                    Member::Literal(c) => out.push(SetItem::Literal(to_char(c))),
                    Member::Range(lo, hi) => {
                        // Only an end inside the block moves: a range across it stays
                        // one range, whose bounds are those `RANGE_UNI_IGNORE` tests
                        // upper cases against.
                        let lo = if is_surrogate(lo) { 0xE000 } else { lo };
                        let hi = if is_surrogate(hi) { 0xD7FF } else { hi };
                        if lo <= hi {
                            out.push(SetItem::Range(to_char(lo), to_char(hi)));
                        }
                    }
                    Member::Category(c) => out.push(SetItem::Category(c)),
                }
            }
            Item::In(out)
        }
        Node::At(a) => Item::At(a),
        Node::Branch(alts) => Item::Branch(alts.into_iter().map(convert_seq).collect()),
        Node::Subpattern { group, add, del, items } => Item::Subpattern { group, add, del, items: convert_seq(items) },
        Node::Repeat { kind, min, max, items } => Item::Repeat { kind, min, max, items: convert_seq(items) },
        Node::Atomic(items) => Item::Atomic(convert_seq(items)),
        Node::GroupRef(g) => Item::GroupRef(g),
        Node::GroupRefExists { group, yes, no } => Item::GroupRefExists { group, yes: convert_seq(yes), no: no.map(convert_seq) },
        Node::Assert { behind, negate, items } => Item::Assert { behind, negate, items: convert_seq(items) },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The dump of `p` without its FLAGS/GROUPS header, lines joined by `;`.
    fn tree(p: &str) -> String {
        let parsed = parse(p).unwrap_or_else(|e| panic!("{p:?}: {e}"));
        syntax::dump(&parsed).lines().skip(2).map(str::trim).collect::<Vec<_>>().join(";")
    }

    fn refused(p: &str) -> (String, Option<usize>) {
        let e = parse(p).expect_err(p);
        assert_eq!(e.kind, ErrorKind::Re, "{p:?}");
        (e.msg, e.pos)
    }

    fn err(msg: &str, pos: usize) -> (String, Option<usize>) {
        (msg.to_string(), Some(pos))
    }

    // Every expectation below is what CPython 3.11.7 answers (scripts/sre_tree.py).

    #[test]
    fn branch_and_set_optimisations() {
        assert_eq!(tree("a|b"), "IN;LITERAL 97;LITERAL 98");
        assert_eq!(tree("ab|ac"), "LITERAL 97;IN;LITERAL 98;LITERAL 99");
        assert_eq!(tree(r"a|\d"), "IN;LITERAL 97;CATEGORY CATEGORY_DIGIT");
        assert_eq!(tree("[a]"), "LITERAL 97");
        assert_eq!(tree("[^a]"), "NOT_LITERAL 97");
        assert_eq!(tree(r"[\d]"), "IN;CATEGORY CATEGORY_DIGIT");
        assert_eq!(tree(r"[^\d]"), "IN;NEGATE;CATEGORY CATEGORY_DIGIT");
        assert_eq!(tree("[]a]"), "IN;LITERAL 93;LITERAL 97");
        assert_eq!(tree("[a-]"), "IN;LITERAL 97;LITERAL 45");
        assert_eq!(tree("(?:a)(?:b)*"), "LITERAL 97;MAX_REPEAT 0 4294967295;LITERAL 98");
        assert_eq!(tree("(?:)"), "");
    }

    #[test]
    fn repeats() {
        assert_eq!(tree("a{,2}"), "MAX_REPEAT 0 2;LITERAL 97");
        assert_eq!(tree("a{}"), "LITERAL 97;LITERAL 123;LITERAL 125");
        assert_eq!(tree("a{1,2}?"), "MIN_REPEAT 1 2;LITERAL 97");
        assert_eq!(tree("a*+"), "POSSESSIVE_REPEAT 0 4294967295;LITERAL 97");
        assert_eq!(refused("x{2,1}"), err("min repeat greater than max repeat", 2));
        assert_eq!(refused("{1}"), err("nothing to repeat", 0));
        assert_eq!(refused("a**"), err("multiple repeat", 2));
        let e = parse("a{4294967295}").expect_err("overflow");
        assert_eq!((e.kind, e.msg.as_str(), e.pos), (ErrorKind::Overflow, "the repetition number is too large", None));
    }

    #[test]
    fn escapes_and_group_references() {
        assert_eq!(tree(r"(a)\1"), "SUBPATTERN 1 0 0;LITERAL 97;GROUPREF 1");
        assert_eq!(tree(r"\141"), "LITERAL 97");
        assert_eq!(tree(r"\N{EM DASH}"), "LITERAL 8212");
        assert_eq!(refused(r"\12"), err("invalid group reference 12", 1));
        assert_eq!(refused(r"\400"), err(r"octal escape value \400 outside of range 0-0o377", 0));
        assert_eq!(refused(r"(a)\2"), err("invalid group reference 2", 4));
        assert_eq!(refused(r"(a\1)"), err("cannot refer to an open group", 2));
        assert_eq!(refused(r"\N{bogus}"), err("undefined character name 'bogus'", 0));
        assert_eq!(refused("\\"), err("bad escape (end of pattern)", 0));
        assert_eq!(refused("[z-a]"), err("bad character range z-a", 1));
        assert_eq!(refused(r"[\w-a]"), err(r"bad character range \w-a", 1));
    }

    #[test]
    fn flags() {
        assert_eq!(tree("(?x) a b #c\n"), "LITERAL 97;LITERAL 98");
        assert_eq!(parse("(?x) a").map(|p| p.flags), Ok(flag::VERBOSE | flag::UNICODE));
        assert_eq!(tree("(?i)a(?-i:b)"), "LITERAL 97;SUBPATTERN None 0 2;LITERAL 98");
        assert_eq!(refused("a(?i)b"), err("global flags not at the start of the expression", 1));
        assert_eq!(refused("(?L)a"), err("bad inline flags: cannot use 'L' flag with a str pattern", 3));
        let e = parse("(?a)(?u)a").expect_err("a and u");
        assert_eq!((e.kind, e.msg.as_str()), (ErrorKind::Value, "ASCII and UNICODE flags are incompatible"));
        assert_eq!(refused("(?#x"), err("missing ), unterminated comment", 0));
    }

    #[test]
    fn groups_conditionals_lookbehind() {
        assert_eq!(refused("(?P<1>a)"), err("bad character in group name '1'", 4));
        assert_eq!(refused(r"(?P<a\b>x)"), err(r"bad character in group name 'a\\b'", 4));
        assert_eq!(refused("(?P<a>x)(?P<a>y)"), err("redefinition of group name 'a' as group 2; was group 1", 12));
        assert_eq!(refused("(?(1)a|b|c)"), err("conditional backref with more than two branches", 8));
        assert_eq!(refused("(?(0)a)"), err("bad group number", 3));
        assert_eq!(tree("(a)(?( 1 )b)"), "SUBPATTERN 1 0 0;LITERAL 97;GROUPREF_EXISTS 1;YES;LITERAL 98");
        assert_eq!(refused(r"(?<=(a)\1)"), err("cannot refer to group defined in the same lookbehind subpattern", 9));
        assert_eq!(tree("(?<=a)(?<=(?<=ab)c)"), "ASSERT -1;LITERAL 97;ASSERT -1;ASSERT -1;LITERAL 97;LITERAL 98;LITERAL 99");
        let compile_error = |p: &str| parse(p).map_err(|e| (e.msg, e.pos)).expect_err(p);
        assert_eq!(compile_error("(?<=a|bc)"), ("look-behind requires fixed-width pattern".to_string(), None));
        assert_eq!(compile_error("(?<=(?:a{4294967294}){2})"), ("looks too much behind".to_string(), None));
        assert_eq!(compile_error("(?t)a*"), ("internal: unsupported template operator MAX_REPEAT".to_string(), None));
    }

    #[test]
    fn surrogates_become_what_they_match() {
        assert_eq!(tree(r"\ud800"), "IN");
        assert_eq!(tree(r"[^\ud800]"), "IN;NEGATE");
        assert_eq!(tree(r"[\ud7ff-\ue000]"), "IN;RANGE 55295 57344");
        assert_eq!(tree(r"[\ud800-\U00010000]"), "IN;RANGE 57344 65536");
        assert_eq!(tree(r"[a\ud800-\udfff]"), "IN;LITERAL 97");
        assert_eq!(tree(r"[\x00-\udbff]"), "IN;RANGE 0 55295");
    }

    #[test]
    fn nesting_limit() {
        let deep = "(".repeat(MAX_NESTING) + &")".repeat(MAX_NESTING);
        assert_eq!(parse(&deep).map(|p| p.groups), Ok(MAX_NESTING as u32));
        let e = parse(&("(".repeat(10_000) + &")".repeat(10_000))).expect_err("too deep");
        assert_eq!((e.kind, e.msg.as_str(), e.pos), (ErrorKind::Nesting, "nesting too deep (more than 200 levels)", Some(MAX_NESTING)));
    }

    #[test]
    fn the_deepest_patterns_fit_in_a_small_stack() {
        // The limit keeps the recursive parser (and the walks of its tree) well inside
        // any thread's stack: 512 KiB is enough even in a debug build.
        let n = MAX_NESTING;
        let patterns = [
            "(".repeat(n) + "a" + &")*".repeat(n),
            "(?<=".to_string() + &"(?:".repeat(n - 1) + "a" + &"){1}".repeat(n - 1) + ")",
            "(a)".to_string() + &"(?(1)".repeat(n - 1) + &"|b)".repeat(n - 1),
            "(?:a|".repeat(n) + &")".repeat(n),
            "(?>".repeat(n) + "a" + &")++".repeat(n),
        ];
        let worker = std::thread::Builder::new().stack_size(512 * 1024).spawn(move || {
            for p in &patterns {
                let tree = parse(p).unwrap_or_else(|e| panic!("{e}"));
                assert!(syntax::dump(&tree).len() > n);
            }
        });
        worker.expect("spawn").join().expect("no stack overflow");
    }

    #[test]
    fn python_repr() {
        assert_eq!(py_repr("a'b"), "\"a'b\"");
        assert_eq!(py_repr("a'\"b"), "'a\\'\"b'");
        assert_eq!(py_repr("\u{2028}é\u{85}\u{1F600}\n"), "'\\u2028é\\x85\u{1F600}\\n'");
    }
}
