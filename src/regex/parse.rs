//! A recursive-descent parser for the Python `re` dialect used by puzzle clues.
//!
//! It follows CPython's `sre_parse` on every point puzzles exercise: `{` that does not
//! start a valid quantifier is a literal, `{,n}` means `{0,n}`, `]` first in a class is
//! a member, `\b` inside a class is a backspace, `\1`–`\99` are group references
//! unless they spell a three-digit octal escape. Constructs that are not regular and
//! not otherwise supported (atomic groups, possessive quantifiers, conditionals,
//! inline flags) are refused with an error that names them.

use super::ast::{Assertion, CharSet, ClassItem, Node};
use std::fmt;

/// Why a clue could not be parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// Character offset in the clue.
    pub pos: usize,
    /// What is wrong.
    pub msg: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at position {}", self.msg, self.pos)
    }
}

/// A parsed clue.
#[derive(Clone, Debug)]
pub struct Regex {
    /// The tree.
    pub node: Node,
    /// Number of capturing groups.
    pub groups: u32,
}

/// Parses a clue in Python `re` syntax.
pub fn parse(pattern: &str) -> Result<Regex, ParseError> {
    let mut p = Parser { chars: pattern.chars().collect(), pos: 0, groups: 0, open: Vec::new(), names: Vec::new() };
    let node = p.alternation()?;
    if p.pos < p.chars.len() {
        // Only an unmatched ')' stops the top-level alternation early.
        return Err(p.err("unbalanced parenthesis ')'"));
    }
    Ok(Regex { node, groups: p.groups })
}

struct Parser {
    chars: Vec<char>,
    pos: usize,
    groups: u32,
    /// Capturing groups currently open.
    open: Vec<u32>,
    /// Named groups seen so far.
    names: Vec<(String, u32)>,
}

const MAX_REPEAT: u32 = 65_535;

impl Parser {
    fn err(&self, msg: impl Into<String>) -> ParseError {
        ParseError { pos: self.pos, msg: msg.into() }
    }

    fn err_at(&self, pos: usize, msg: impl Into<String>) -> ParseError {
        ParseError { pos, msg: msg.into() }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn peek_at(&self, k: usize) -> Option<char> {
        self.chars.get(self.pos + k).copied()
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn eat_str(&mut self, s: &str) -> bool {
        let n = s.chars().count();
        if self.chars[self.pos..].iter().take(n).copied().eq(s.chars()) {
            self.pos += n;
            true
        } else {
            false
        }
    }

    fn alternation(&mut self) -> Result<Node, ParseError> {
        let mut branches = vec![self.concat()?];
        while self.eat('|') {
            branches.push(self.concat()?);
        }
        Ok(if branches.len() == 1 { branches.pop().unwrap_or(Node::Empty) } else { Node::Alt(branches) })
    }

    fn concat(&mut self) -> Result<Node, ParseError> {
        let mut items: Vec<Node> = Vec::new();
        // Whether the last item may take a quantifier, and whether it already has one.
        let mut last_repeatable = false;
        let mut last_quantified = false;
        while let Some(c) = self.peek() {
            match c {
                '|' | ')' => break,
                '*' | '+' | '?' | '{' => {
                    let start = self.pos;
                    let Some((min, max)) = self.quantifier()? else {
                        // A '{' that does not start a quantifier is a literal.
                        self.pos += 1;
                        items.push(Node::Set(CharSet::char('{')));
                        last_repeatable = true;
                        last_quantified = false;
                        continue;
                    };
                    if last_quantified {
                        return Err(self.err_at(start, "multiple repeat"));
                    }
                    if !last_repeatable {
                        return Err(self.err_at(start, "nothing to repeat"));
                    }
                    if self.eat('+') {
                        return Err(self.err_at(start, "unsupported construct: possessive quantifier"));
                    }
                    let _lazy = self.eat('?');
                    let sub = items.pop().unwrap_or(Node::Empty);
                    items.push(Node::Repeat { sub: Box::new(sub), min, max });
                    last_quantified = true;
                }
                _ => {
                    let (node, repeatable) = self.atom()?;
                    if let Some(node) = node {
                        items.push(node);
                        last_repeatable = repeatable;
                        last_quantified = false;
                    }
                }
            }
        }
        Ok(match items.len() {
            0 => Node::Empty,
            1 => items.pop().unwrap_or(Node::Empty),
            _ => Node::Concat(items),
        })
    }

    /// Parses `*`, `+`, `?` or a valid `{…}`; returns `None` (consuming nothing) for a
    /// `{` that Python reads as a literal.
    fn quantifier(&mut self) -> Result<Option<(u32, Option<u32>)>, ParseError> {
        let start = self.pos;
        match self.peek() {
            Some('*') => {
                self.pos += 1;
                Ok(Some((0, None)))
            }
            Some('+') => {
                self.pos += 1;
                Ok(Some((1, None)))
            }
            Some('?') => {
                self.pos += 1;
                Ok(Some((0, Some(1))))
            }
            _ => {
                self.pos += 1; // '{'
                let lo = self.digits();
                let hi = if self.eat(',') { Some(self.digits()) } else { None };
                if !self.eat('}') || (lo.is_empty() && hi.is_none()) {
                    self.pos = start;
                    return Ok(None);
                }
                let parse_num = |s: &str, this: &Parser| -> Result<u32, ParseError> {
                    s.parse::<u32>()
                        .ok()
                        .filter(|&v| v <= MAX_REPEAT)
                        .ok_or_else(|| this.err_at(start, format!("repeat count {s} is too large (limit {MAX_REPEAT})")))
                };
                let min = if lo.is_empty() { 0 } else { parse_num(&lo, self)? };
                let max = match hi {
                    None => Some(min),
                    Some(h) if h.is_empty() => None,
                    Some(h) => Some(parse_num(&h, self)?),
                };
                if let Some(m) = max
                    && m < min
                {
                    return Err(self.err_at(start, "min repeat greater than max repeat"));
                }
                Ok(Some((min, max)))
            }
        }
    }

    fn digits(&mut self) -> String {
        let mut s = String::new();
        while let Some(c) = self.peek().filter(char::is_ascii_digit) {
            s.push(c);
            self.pos += 1;
        }
        s
    }

    /// Parses one atom. Returns the node (None for a comment) and whether a
    /// quantifier may follow it.
    fn atom(&mut self) -> Result<(Option<Node>, bool), ParseError> {
        let start = self.pos;
        let Some(c) = self.peek() else {
            return Err(self.err("unexpected end of pattern"));
        };
        self.pos += 1;
        Ok(match c {
            '(' => return self.group(start),
            '[' => (Some(Node::Set(self.class(start)?)), true),
            '.' => (Some(Node::Set(CharSet { negated: true, items: vec![ClassItem::Char('\n')] })), true),
            '^' => (Some(Node::Assert(Assertion::Start)), false),
            '$' => (Some(Node::Assert(Assertion::End)), false),
            '\\' => {
                let node = self.escape(start)?;
                let repeatable = !matches!(node, Node::Assert(_));
                (Some(node), repeatable)
            }
            _ => (Some(Node::Set(CharSet::char(c))), true),
        })
    }

    fn group(&mut self, start: usize) -> Result<(Option<Node>, bool), ParseError> {
        let mut index = None;
        let mut look = None;
        if self.eat('?') {
            if self.eat(':') {
            } else if self.eat_str("P<") {
                let name = self.name('>')?;
                if self.names.iter().any(|(n, _)| *n == name) {
                    return Err(self.err_at(start, format!("redefinition of group name '{name}'")));
                }
                self.groups += 1;
                self.names.push((name, self.groups));
                index = Some(self.groups);
            } else if self.eat_str("P=") {
                let name = self.name(')')?;
                let Some(&(_, k)) = self.names.iter().find(|(n, _)| *n == name) else {
                    return Err(self.err_at(start, format!("unknown group name '{name}'")));
                };
                return Ok((Some(self.backref(k, start)?), true));
            } else if self.eat('#') {
                while let Some(c) = self.peek() {
                    self.pos += 1;
                    if c == ')' {
                        return Ok((None, false));
                    }
                }
                return Err(self.err_at(start, "missing ), unterminated comment"));
            } else if self.eat('=') {
                look = Some((true, false));
            } else if self.eat('!') {
                look = Some((true, true));
            } else if self.eat_str("<=") {
                look = Some((false, false));
            } else if self.eat_str("<!") {
                look = Some((false, true));
            } else if self.eat('>') {
                return Err(self.err_at(start, "unsupported construct: atomic group (?>…)"));
            } else if self.eat('(') {
                return Err(self.err_at(start, "unsupported construct: conditional (?(…)…)"));
            } else if self.peek() == Some('<') {
                return Err(self.err_at(start, "unsupported construct: (?<name>…) is not Python syntax, use (?P<name>…)"));
            } else if self.peek().is_some_and(|c| "aiLmsux-".contains(c)) {
                return Err(self.err_at(start, "unsupported construct: inline flags such as (?i)"));
            } else {
                return Err(self.err_at(start, format!("unknown extension ?{}", self.peek().map(String::from).unwrap_or_default())));
            }
        } else {
            self.groups += 1;
            index = Some(self.groups);
        }
        if let Some(k) = index {
            self.open.push(k);
        }
        let sub = self.alternation()?;
        if !self.eat(')') {
            return Err(self.err_at(start, "missing ), unterminated subpattern"));
        }
        if index.is_some() {
            let _ = self.open.pop();
        }
        Ok(match look {
            Some((ahead, negate)) => (Some(Node::Look { ahead, negate, sub: Box::new(sub) }), true),
            None => (Some(Node::Group { index, sub: Box::new(sub) }), true),
        })
    }

    fn name(&mut self, term: char) -> Result<String, ParseError> {
        let start = self.pos;
        let mut s = String::new();
        loop {
            match self.peek() {
                None => return Err(self.err_at(start, "missing group name terminator")),
                Some(c) if c == term => {
                    self.pos += 1;
                    break;
                }
                Some(c) => {
                    s.push(c);
                    self.pos += 1;
                }
            }
        }
        let valid = s.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_') && s.chars().all(|c| c.is_alphanumeric() || c == '_');
        if !valid {
            return Err(self.err_at(start, format!("bad character in group name '{s}'")));
        }
        Ok(s)
    }

    fn backref(&self, k: u32, start: usize) -> Result<Node, ParseError> {
        if k > self.groups {
            return Err(self.err_at(start, format!("invalid group reference {k}")));
        }
        if self.open.contains(&k) {
            return Err(self.err_at(start, format!("cannot refer to an open group ({k})")));
        }
        Ok(Node::Backref(k))
    }

    fn escape(&mut self, start: usize) -> Result<Node, ParseError> {
        let Some(c) = self.peek() else {
            return Err(self.err_at(start, "bad escape (end of pattern)"));
        };
        Ok(match c {
            'A' => {
                self.pos += 1;
                Node::Assert(Assertion::Start)
            }
            'Z' => {
                self.pos += 1;
                Node::Assert(Assertion::End)
            }
            'b' => {
                self.pos += 1;
                Node::Assert(Assertion::WordBoundary)
            }
            'B' => {
                self.pos += 1;
                Node::Assert(Assertion::NotWordBoundary)
            }
            '1'..='9' => {
                // Three octal digits make an octal escape; otherwise a group reference
                // of one or two digits.
                let octal3 = (0..3).all(|k| self.peek_at(k).is_some_and(|d| ('0'..='7').contains(&d)));
                if octal3 {
                    Node::Set(CharSet::char(self.octal(start)?))
                } else {
                    let mut k = 0u32;
                    for _ in 0..2 {
                        match self.peek().and_then(|d| d.to_digit(10)) {
                            Some(d) => {
                                k = k * 10 + d;
                                self.pos += 1;
                            }
                            None => break,
                        }
                    }
                    self.backref(k, start)?
                }
            }
            _ => Node::Set(self.common_escape(start, false)?),
        })
    }

    /// Escapes valid both inside and outside classes; `self.pos` is after the `\`.
    fn common_escape(&mut self, start: usize, in_class: bool) -> Result<CharSet, ParseError> {
        let Some(c) = self.peek() else {
            return Err(self.err_at(start, "bad escape (end of pattern)"));
        };
        self.pos += 1;
        let item = |i| Ok(CharSet { negated: false, items: vec![i] });
        let ch = |c| Ok(CharSet::char(c));
        match c {
            'd' => item(ClassItem::Digit(false)),
            'D' => item(ClassItem::Digit(true)),
            's' => item(ClassItem::Space(false)),
            'S' => item(ClassItem::Space(true)),
            'w' => item(ClassItem::Word(false)),
            'W' => item(ClassItem::Word(true)),
            'a' => ch('\x07'),
            'f' => ch('\x0c'),
            'n' => ch('\n'),
            'r' => ch('\r'),
            't' => ch('\t'),
            'v' => ch('\x0b'),
            'b' if in_class => ch('\x08'),
            'x' => ch(self.hex(start, 2)?),
            'u' => ch(self.hex(start, 4)?),
            'U' => ch(self.hex(start, 8)?),
            '0' => {
                self.pos -= 1;
                ch(self.octal(start)?)
            }
            '1'..='7' if in_class => {
                self.pos -= 1;
                ch(self.octal(start)?)
            }
            c if c.is_ascii_alphanumeric() => Err(self.err_at(start, format!("bad escape \\{c}"))),
            c => ch(c),
        }
    }

    fn hex(&mut self, start: usize, n: usize) -> Result<char, ParseError> {
        let mut v = 0u32;
        for _ in 0..n {
            let Some(d) = self.peek().and_then(|d| d.to_digit(16)) else {
                return Err(self.err_at(start, format!("incomplete escape (expected {n} hex digits)")));
            };
            v = v * 16 + d;
            self.pos += 1;
        }
        char::from_u32(v).ok_or_else(|| self.err_at(start, "bad escape: not a Unicode scalar value"))
    }

    /// Up to three octal digits starting at `self.pos`.
    fn octal(&mut self, start: usize) -> Result<char, ParseError> {
        let mut v = 0u32;
        for _ in 0..3 {
            match self.peek().filter(|d| ('0'..='7').contains(d)) {
                Some(d) => {
                    v = v * 8 + (d as u32 - '0' as u32);
                    self.pos += 1;
                }
                None => break,
            }
        }
        if v > 0o377 {
            return Err(self.err_at(start, "octal escape value outside of range 0-0o377"));
        }
        char::from_u32(v).ok_or_else(|| self.err_at(start, "bad octal escape"))
    }

    /// Parses a class after its `[`.
    fn class(&mut self, start: usize) -> Result<CharSet, ParseError> {
        let negated = self.eat('^');
        let mut items = Vec::new();
        let first = self.pos;
        loop {
            let Some(c) = self.peek() else {
                return Err(self.err_at(start, "unterminated character set"));
            };
            if c == ']' && self.pos != first {
                self.pos += 1;
                break;
            }
            let lo = self.class_member(start)?;
            if self.peek() == Some('-') && self.peek_at(1).is_some_and(|c| c != ']') {
                self.pos += 1;
                let hi = self.class_member(start)?;
                match (lo, hi) {
                    (ClassItem::Char(a), ClassItem::Char(b)) if a <= b => items.push(ClassItem::Range(a, b)),
                    _ => return Err(self.err_at(start, "bad character range")),
                }
            } else {
                items.push(lo);
            }
        }
        Ok(CharSet { negated, items })
    }

    fn class_member(&mut self, start: usize) -> Result<ClassItem, ParseError> {
        let Some(c) = self.peek() else {
            return Err(self.err_at(start, "unterminated character set"));
        };
        self.pos += 1;
        if c != '\\' {
            return Ok(ClassItem::Char(c));
        }
        if self.peek().is_some_and(|d| d == '8' || d == '9') {
            return Err(self.err_at(start, "bad escape in character class"));
        }
        let set = self.common_escape(start, true)?;
        Ok(set.items[0])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(p: &str) -> Node {
        parse(p).unwrap_or_else(|e| panic!("{p}: {e}")).node
    }

    fn err(p: &str) -> String {
        parse(p).map(|r| format!("{:?}", r.node)).expect_err(p).msg
    }

    #[test]
    fn python_quirks() {
        assert_eq!(ok("a{"), Node::Concat(vec![Node::Set(CharSet::char('a')), Node::Set(CharSet::char('{'))]));
        assert!(matches!(ok("a{,3}"), Node::Repeat { min: 0, max: Some(3), .. }));
        assert!(matches!(ok("a{2,}"), Node::Repeat { min: 2, max: None, .. }));
        assert!(matches!(ok("a{}"), Node::Concat(_)));
        assert_eq!(ok("[]a]"), Node::Set(CharSet { negated: false, items: vec![ClassItem::Char(']'), ClassItem::Char('a')] }));
        assert_eq!(ok("[a-]"), Node::Set(CharSet { negated: false, items: vec![ClassItem::Char('a'), ClassItem::Char('-')] }));
        assert_eq!(ok("[\\b]"), Node::Set(CharSet::char('\x08')));
        assert_eq!(ok("\\101"), Node::Set(CharSet::char('A')));
        assert_eq!(ok("[.-\\/]"), Node::Set(CharSet { negated: false, items: vec![ClassItem::Range('.', '/')] }));
        assert!(matches!(ok("(a)\\1"), Node::Concat(ref v) if v[1] == Node::Backref(1)));
        assert!(matches!(ok("(?P<x>a)(?P=x)"), Node::Concat(ref v) if v[1] == Node::Backref(1)));
        assert_eq!(ok("a(?#comment)"), Node::Set(CharSet::char('a')));
        assert!(matches!(ok("a*?"), Node::Repeat { min: 0, max: None, .. }));
    }

    #[test]
    fn errors() {
        assert_eq!(err("*a"), "nothing to repeat");
        assert_eq!(err("a**"), "multiple repeat");
        assert_eq!(err("^*"), "nothing to repeat");
        assert_eq!(err("(a"), "missing ), unterminated subpattern");
        assert_eq!(err("a)"), "unbalanced parenthesis ')'");
        assert_eq!(err("[a"), "unterminated character set");
        assert_eq!(err("[z-a]"), "bad character range");
        assert_eq!(err("\\1(a)"), "invalid group reference 1");
        assert_eq!(err("(a\\1)"), "cannot refer to an open group (1)");
        assert_eq!(err("\\q"), "bad escape \\q");
        assert_eq!(err("a{3,2}"), "min repeat greater than max repeat");
        assert!(err("(?>a)").contains("atomic"));
        assert!(err("a*+").contains("possessive"));
        assert!(err("(?i)a").contains("inline flags"));
        assert!(err("(?(1)a|b)").contains("conditional"));
    }
}
