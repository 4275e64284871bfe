//! The ES2024 pattern grammar without the `u`/`v` flags, with Annex B (ECMA-262
//! §22.2.1 and B.1.2), read into a [`Pattern`].
//!
//! The clue is read as UTF-16 code units, as JavaScript holds it. Before parsing, a
//! scan counts the capturing groups (`CountLeftCapturingParensWithin`, which decides
//! whether `\N` is a back-reference or an octal escape) and notes whether any group
//! has a name (the `[N]` parameter, which makes `\k` a named reference instead of an
//! identity escape).

use super::sets::CharSet;
use super::{Assertion, Node, Pattern, SyntaxError};
use crate::regex::unicode;

/// The deepest nesting of groups and lookarounds accepted (node accepts more; the
/// parser and the matcher recurse on the tree).
pub(crate) const MAX_NESTING: usize = 200;
/// The most UTF-16 code units a clue may have.
pub(crate) const MAX_CLUE_UNITS: usize = 1_000_000;

/// Reads `clue` as `new RegExp(clue)` does (no flags), or says why node throws.
pub(crate) fn parse(clue: &str) -> Result<Pattern, SyntaxError> {
    let src: Vec<u16> = clue.encode_utf16().collect();
    let mut pos_of = Vec::with_capacity(src.len() + 1);
    for (i, c) in clue.chars().enumerate() {
        pos_of.extend(std::iter::repeat_n(i, c.len_utf16()));
    }
    pos_of.push(clue.chars().count());
    let mut p = Parser { src, pos_of, i: 0, total_groups: 0, has_names: false, names: Vec::new(), refs: Vec::new(), depth: 0 };
    if p.src.len() > MAX_CLUE_UNITS {
        return Err(p.err_at(0, &format!("the clue is longer than {MAX_CLUE_UNITS} UTF-16 code units")));
    }
    p.scan();
    let mut root = p.disjunction()?;
    if p.i < p.src.len() {
        // Only an unmatched `)` stops the top-level disjunction early.
        return Err(p.err("Unmatched ')'"));
    }
    // Named references may point forward: resolve them now that every name is known.
    let mut resolved = Vec::with_capacity(p.refs.len());
    for (name, at) in std::mem::take(&mut p.refs) {
        match p.names.iter().position(|n| n.as_deref() == Some(name.as_str())) {
            Some(g) => resolved.push(g + 1),
            None => return Err(p.err_at(at, "Invalid named capture referenced")),
        }
    }
    let mut it = resolved.into_iter();
    patch_refs(&mut root, &mut it);
    drop_self_references(&mut root, &mut Vec::new());
    Ok(Pattern { root, groups: p.names.len(), names: p.names })
}

/// Replaces each back-reference inside its own group (`(a\\1)`, `(?<n>\\k<n>)`) by
/// [`Node::Empty`], which is what ECMA-262 makes it match: a group's capture is set
/// when the group closes, and a group that runs again on the same path does so in a
/// repeat, which resets it first. Every consumer of the tree (the matcher, the
/// automata, the back-reference routes) then meets only references to other groups.
/// `open` holds the groups around `n`; the depth is bounded by [`MAX_NESTING`].
fn drop_self_references(n: &mut Node, open: &mut Vec<usize>) {
    match n {
        Node::BackRef(k) if open.contains(k) => *n = Node::Empty,
        Node::Concat(v) | Node::Alt(v) => v.iter_mut().for_each(|c| drop_self_references(c, open)),
        Node::Group { index, body } => {
            open.push(*index);
            drop_self_references(body, open);
            let _ = open.pop();
        }
        Node::Repeat { body, .. } | Node::Look { body, .. } => drop_self_references(body, open),
        Node::Empty | Node::Set(_) | Node::Assert(_) | Node::BackRef(_) => {}
    }
}

/// Replaces the placeholders `BackRef(0)` of named references, in source order.
fn patch_refs(n: &mut Node, it: &mut impl Iterator<Item = usize>) {
    match n {
        Node::BackRef(g @ 0) => *g = it.next().expect("one resolved reference per placeholder"),
        Node::Concat(v) | Node::Alt(v) => v.iter_mut().for_each(|c| patch_refs(c, it)),
        Node::Group { body, .. } | Node::Repeat { body, .. } | Node::Look { body, .. } => patch_refs(body, it),
        Node::Empty | Node::Set(_) | Node::Assert(_) | Node::BackRef(_) => {}
    }
}

pub(super) struct Parser {
    pub(super) src: Vec<u16>,
    pub(super) pos_of: Vec<usize>,
    pub(super) i: usize,
    /// Capturing groups in the whole pattern.
    pub(super) total_groups: usize,
    /// Whether the pattern has a named group (the grammar's `[+N]`).
    pub(super) has_names: bool,
    /// Names of the groups opened so far.
    pub(super) names: Vec<Option<String>>,
    /// Named references met so far, with their positions.
    pub(super) refs: Vec<(String, usize)>,
    pub(super) depth: usize,
}

pub(super) fn is_digit(u: u16) -> bool {
    (0x30..=0x39).contains(&u)
}

pub(super) fn hex_value(u: u16) -> Option<u32> {
    char::from_u32(u32::from(u)).and_then(|c| c.to_digit(16))
}

impl Parser {
    pub(super) fn peek(&self) -> Option<u16> {
        self.src.get(self.i).copied()
    }

    pub(super) fn peek_at(&self, k: usize) -> Option<u16> {
        self.src.get(self.i + k).copied()
    }

    pub(super) fn looking_at(&self, s: &str) -> bool {
        s.encode_utf16().enumerate().all(|(k, u)| self.peek_at(k) == Some(u))
    }

    pub(super) fn err_at(&self, unit: usize, msg: &str) -> SyntaxError {
        SyntaxError { message: msg.to_string(), position: self.pos_of[unit.min(self.src.len())] }
    }

    pub(super) fn err(&self, msg: &str) -> SyntaxError {
        self.err_at(self.i, msg)
    }

    /// Counts the capturing groups and notes named ones, skipping escapes and classes.
    fn scan(&mut self) {
        let s = &self.src;
        let mut i = 0;
        let mut in_class = false;
        while i < s.len() {
            match s[i] {
                0x5C => i += 1,
                0x5B => in_class = true,
                0x5D => in_class = false,
                0x28 if !in_class => {
                    if s.get(i + 1) != Some(&0x3F) {
                        self.total_groups += 1;
                    } else if s.get(i + 2) == Some(&0x3C) && !matches!(s.get(i + 3), Some(&0x3D) | Some(&0x21)) {
                        self.total_groups += 1;
                        self.has_names = true;
                    }
                }
                _ => {}
            }
            i += 1;
        }
    }

    /// Disjunction: alternatives up to an unmatched `)` or the end.
    fn disjunction(&mut self) -> Result<Node, SyntaxError> {
        let mut alts = vec![self.alternative()?];
        while self.peek() == Some(u16::from(b'|')) {
            self.i += 1;
            alts.push(self.alternative()?);
        }
        Ok(if alts.len() == 1 { alts.pop().expect("one alternative") } else { Node::Alt(alts) })
    }

    fn alternative(&mut self) -> Result<Node, SyntaxError> {
        let mut terms = Vec::new();
        while let Some(u) = self.peek() {
            if u == u16::from(b'|') || u == u16::from(b')') {
                break;
            }
            terms.push(self.term()?);
        }
        Ok(match terms.len() {
            0 => Node::Empty,
            1 => terms.pop().expect("one term"),
            _ => Node::Concat(terms),
        })
    }

    /// A quantifier at the position, if any: `(min, max, consumed units)`. A `{` that
    /// does not start `{n}`, `{n,}` or `{n,m}` is not one (Annex B reads it as text).
    fn quantifier(&self) -> Result<Option<(u32, Option<u32>, usize)>, SyntaxError> {
        match self.peek() {
            Some(0x2A) => return Ok(Some((0, None, 1))),
            Some(0x2B) => return Ok(Some((1, None, 1))),
            Some(0x3F) => return Ok(Some((0, Some(1), 1))),
            Some(0x7B) => {}
            _ => return Ok(None),
        }
        let digits = |from: usize| {
            let mut j = from;
            while self.src.get(j).is_some_and(|&u| is_digit(u)) {
                j += 1;
            }
            j
        };
        let a0 = self.i + 1;
        let a1 = digits(a0);
        if a1 == a0 {
            return Ok(None);
        }
        let (b, end) = match self.src.get(a1) {
            Some(0x7D) => (Some((a0, a1)), a1 + 1),
            Some(0x2C) => {
                let b1 = digits(a1 + 1);
                if self.src.get(b1) != Some(&0x7D) {
                    return Ok(None);
                }
                (if b1 == a1 + 1 { None } else { Some((a1 + 1, b1)) }, b1 + 1)
            }
            _ => return Ok(None),
        };
        let min = &self.src[a0..a1];
        if let Some((b0, b1)) = b
            && cmp_decimal(min, &self.src[b0..b1]) == std::cmp::Ordering::Greater
        {
            return Err(self.err_at(a0, "numbers out of order in {} quantifier"));
        }
        let max = b.map(|(b0, b1)| decimal_u32(&self.src[b0..b1]));
        Ok(Some((decimal_u32(min), max, end - self.i)))
    }

    fn term(&mut self) -> Result<Node, SyntaxError> {
        let u = self.peek().expect("term at a unit");
        // Assertions that take no quantifier.
        let assertion = match u {
            0x5E => Some((Assertion::Start, 1)),
            0x24 => Some((Assertion::End, 1)),
            0x5C if self.peek_at(1) == Some(u16::from(b'b')) => Some((Assertion::WordBoundary, 2)),
            0x5C if self.peek_at(1) == Some(u16::from(b'B')) => Some((Assertion::NotWordBoundary, 2)),
            _ => None,
        };
        if let Some((a, len)) = assertion {
            self.i += len;
            if self.quantifier()?.is_some() {
                return Err(self.err("Nothing to repeat"));
            }
            return Ok(Node::Assert(a));
        }
        let groups_before = self.names.len();
        let atom = match u {
            0x28 => {
                let (node, quantifiable) = self.group()?;
                if !quantifiable {
                    if self.quantifier()?.is_some() {
                        return Err(self.err("Invalid quantifier"));
                    }
                    return Ok(node);
                }
                node
            }
            0x2A | 0x2B | 0x3F => return Err(self.err("Nothing to repeat")),
            0x7B => {
                if self.quantifier()?.is_some() {
                    return Err(self.err("Nothing to repeat"));
                }
                self.i += 1;
                Node::Set(CharSet::unit(u))
            }
            0x2E => {
                self.i += 1;
                Node::Set(CharSet::dot())
            }
            0x5B => self.class()?,
            0x5C => self.atom_escape()?,
            _ => {
                self.i += 1;
                Node::Set(CharSet::unit(u))
            }
        };
        let Some((min, max, len)) = self.quantifier()? else { return Ok(atom) };
        self.i += len;
        let greedy = if self.peek() == Some(0x3F) {
            self.i += 1;
            false
        } else {
            true
        };
        Ok(Node::Repeat { body: Box::new(atom), min, max, greedy, groups: groups_before + 1..self.names.len() + 1 })
    }

    /// A parenthesised term, and whether a quantifier may follow it.
    fn group(&mut self) -> Result<(Node, bool), SyntaxError> {
        let open = self.i;
        if self.depth >= MAX_NESTING {
            return Err(self.err(&format!("groups and lookarounds nested deeper than {MAX_NESTING} levels")));
        }
        self.i += 1;
        enum Kind {
            Plain,
            Capture(Option<String>),
            Look { behind: bool, negated: bool },
        }
        let kind = if self.peek() != Some(0x3F) {
            Kind::Capture(None)
        } else if self.looking_at("?:") {
            self.i += 2;
            Kind::Plain
        } else if self.looking_at("?=") || self.looking_at("?!") {
            let negated = self.peek_at(1) == Some(0x21);
            self.i += 2;
            Kind::Look { behind: false, negated }
        } else if self.looking_at("?<=") || self.looking_at("?<!") {
            let negated = self.peek_at(2) == Some(0x21);
            self.i += 3;
            Kind::Look { behind: true, negated }
        } else if self.looking_at("?<") {
            self.i += 2;
            let name = self.group_name()?;
            if self.names.iter().any(|n| n.as_deref() == Some(name.as_str())) {
                return Err(self.err("Duplicate capture group name"));
            }
            Kind::Capture(Some(name))
        } else {
            return Err(self.err("Invalid group"));
        };
        let index = if let Kind::Capture(name) = &kind {
            self.names.push(name.clone());
            self.names.len()
        } else {
            0
        };
        self.depth += 1;
        let body = self.disjunction()?;
        self.depth -= 1;
        if self.peek() != Some(0x29) {
            return Err(self.err_at(open, "Unterminated group"));
        }
        self.i += 1;
        Ok(match kind {
            Kind::Plain => (body, true),
            Kind::Capture(_) => (Node::Group { index, body: Box::new(body) }, true),
            Kind::Look { behind, negated } => (Node::Look { behind, negated, body: Box::new(body) }, !behind),
        })
    }

    /// `RegExpIdentifierName >` after `(?<` or `\k<`.
    pub(super) fn group_name(&mut self) -> Result<String, SyntaxError> {
        let bad = |p: &Parser| Err(p.err("Invalid capture group name"));
        let mut name = String::new();
        loop {
            let Some(u) = self.peek() else { return bad(self) };
            if u == 0x3E {
                self.i += 1;
                break;
            }
            let c = if u == 0x5C {
                if self.peek_at(1) != Some(u16::from(b'u')) {
                    return bad(self);
                }
                self.i += 2;
                match self.name_escape() {
                    Some(c) => c,
                    None => return bad(self),
                }
            } else {
                self.i += 1;
                match self.surrogate_pair(u) {
                    Some(c) => c,
                    None => return bad(self),
                }
            };
            let ok = if name.is_empty() { is_id_start(c) } else { is_id_continue(c) };
            if !ok {
                return bad(self);
            }
            name.push(c);
        }
        if name.is_empty() {
            return bad(self);
        }
        Ok(name)
    }

    /// The character of unit `u` (just read), joined with a following trail surrogate.
    fn surrogate_pair(&mut self, u: u16) -> Option<char> {
        if (0xD800..0xDC00).contains(&u)
            && let Some(t) = self.peek().filter(|t| (0xDC00..0xE000).contains(t))
        {
            self.i += 1;
            return char::decode_utf16([u, t]).next()?.ok();
        }
        char::from_u32(u32::from(u))
    }

    /// After `\u` in a group name: `XXXX` (a lead surrogate may be followed by
    /// `\uXXXX` of a trail) or `{X…}`.
    fn name_escape(&mut self) -> Option<char> {
        if self.peek() == Some(0x7B) {
            let mut v: u32 = 0;
            self.i += 1;
            let start = self.i;
            while let Some(d) = self.peek().and_then(hex_value) {
                v = v.checked_mul(16)?.checked_add(d)?;
                if v > 0x10FFFF {
                    return None;
                }
                self.i += 1;
            }
            if self.i == start || self.peek() != Some(0x7D) {
                return None;
            }
            self.i += 1;
            return char::from_u32(v);
        }
        let lead = self.hex4()?;
        if (0xD800..0xDC00).contains(&lead) && self.looking_at("\\u") {
            let save = self.i;
            self.i += 2;
            match self.hex4() {
                Some(t) if (0xDC00..0xE000).contains(&t) => {
                    return char::decode_utf16([lead as u16, t as u16]).next()?.ok();
                }
                _ => self.i = save,
            }
        }
        char::from_u32(lead)
    }

    /// Four hex digits at the position, consumed when present.
    pub(super) fn hex4(&mut self) -> Option<u32> {
        let v = (0..4).try_fold(0u32, |v, k| Some(v * 16 + self.peek_at(k).and_then(hex_value)?))?;
        self.i += 4;
        Some(v)
    }
}

/// `ID_Start`, `$` and `_` (names are checked with the XID tables, which accept a
/// subset of what ES accepts: the few characters `ID_*` has and `XID_*` lacks are
/// refused).
fn is_id_start(c: char) -> bool {
    c == '$' || c == '_' || c.is_ascii_alphabetic() || (!c.is_ascii() && unicode::is_identifier(&c.to_string()))
}

/// `ID_Continue`, `$`, ZWNJ and ZWJ.
fn is_id_continue(c: char) -> bool {
    c == '$'
        || c == '\u{200C}'
        || c == '\u{200D}'
        || c.is_ascii_alphanumeric()
        || c == '_'
        || (!c.is_ascii() && unicode::is_identifier(&format!("a{c}")))
}

/// Compares two decimal digit strings by value.
pub(super) fn cmp_decimal(a: &[u16], b: &[u16]) -> std::cmp::Ordering {
    let trim = |s: &[u16]| -> Vec<u16> { s.iter().copied().skip_while(|&d| d == 0x30).collect() };
    let (a, b) = (trim(a), trim(b));
    a.len().cmp(&b.len()).then_with(|| a.cmp(&b))
}

/// The value of a decimal digit string, `u32::MAX` when larger.
pub(super) fn decimal_u32(s: &[u16]) -> u32 {
    s.iter().try_fold(0u32, |v, &d| v.checked_mul(10)?.checked_add(u32::from(d - 0x30))).unwrap_or(u32::MAX)
}
