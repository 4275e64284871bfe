//! Compile pass 1 for an ECMAScript clue, **normalise**: the ECMAScript parser's tree
//! ([`crate::ecma::Pattern`]) → a [`Node`] over the puzzle alphabet, as
//! [`super::normalise`] does for a Python clue.
//!
//! The ECMAScript tree is over UTF-16 code units and every set in it is already
//! resolved (`\d` `\w` ASCII, `\s` ECMAScript's white space and line terminators, `.`
//! everything but `\n`, `\r`, U+2028 and U+2029; no case folding, since a clue has no
//! flags). A letter of the BMP is one unit, so each set becomes the letters whose unit
//! it holds; `^` and `$` are the plain anchors of the whole line (no `m` flag, and `$`
//! does not match before a final newline).
//!
//! Two modes, as for Python:
//! - [`Mode::Exact`]: the clue's meaning on lines over the alphabet, or [`Hard`] —
//!   back-references and lookarounds (their meaning is ECMAScript's, which the tagged
//!   encoding does not model: a group that did not take part matches the empty string,
//!   captures are reset at each iteration, lookbehinds match right to left), `\b` or
//!   `\B` when some letter is a word character for one of ECMAScript (ASCII) and the
//!   automata's word classes (Unicode) but not the other, and any clue over an
//!   alphabet with a letter outside the BMP (two code units, which a set never
//!   matches alone).
//! - [`Mode::Over`]: a regular superset: a back-reference matches the empty string or
//!   a string its group's body matches (whatever the group captured last is one),
//!   lookarounds and doubtful word boundaries always hold; over an alphabet with a
//!   letter outside the BMP, every string.
//!
//! Without back-references and lookarounds, ECMAScript's rule that an iteration past
//! the minimum may not match the empty string changes which way a string is matched,
//! never whether it is: the languages are the classical ones of the tree.

use super::Alphabet;
use super::normalise::{Hard, Mode};
use crate::ecma::{self, Pattern};
use crate::regex::ast::{Assertion, CharSet, ClassItem, Node};
use crate::regex::unicode;
use std::collections::BTreeSet;

/// Normalises an ECMAScript clue for lines over `alphabet`.
pub(crate) fn normalise(pattern: &Pattern, alphabet: &Alphabet, mode: Mode) -> Result<Node, Hard> {
    if alphabet.chars().iter().any(|&c| u32::from(c) > 0xFFFF) {
        return match mode {
            Mode::Exact => Err(Hard("a letter outside the BMP (two UTF-16 code units in ECMAScript)".into())),
            Mode::Over => Ok(Node::any_string()),
        };
    }
    let bodies = pattern.group_bodies();
    let cx = Cx {
        alphabet,
        mode,
        word_exact: alphabet.chars().iter().all(|&c| es_word(c) == unicode::is_word(c)),
        bodies,
        open: std::cell::RefCell::new(Vec::new()),
        captures: false,
        copying: std::cell::Cell::new(false),
        copy_budget: std::cell::Cell::new(COPY_BUDGET),
    };
    cx.node(&pattern.root)
}

/// The clue as a tree with its captures and back-references, when every
/// back-reference means the same in Python as in ECMAScript, so that the Python
/// routes for back-references (their expansion, the tagged encoding) apply: `None`
/// otherwise, or when the clue has a lookaround or [`normalise`] finds it hard.
///
/// The meanings agree when each `\k` comes after a point where group `k` has surely
/// matched and cannot have been reset since: group `k` stands earlier in a sequence
/// that holds the reference (through groups and sequences only, never an alternative
/// or a repeat that could skip it), or earlier in the same iteration of a repeat that
/// holds both. Then in both dialects `\k` matches the text the group captured last —
/// ECMAScript's reset of a repeat's captures at each iteration and its empty match of
/// a group that did not take part never apply.
pub(crate) fn python_equivalent(pattern: &Pattern, alphabet: &Alphabet) -> Option<Node> {
    let mut referenced = Vec::new();
    references(&pattern.root, &mut referenced);
    // A reference alone under a repeat may name only groups outside every repeat.
    let mut repeated = Vec::new();
    repeated_groups(&pattern.root, false, &mut repeated);
    let refs = Refs { referenced, repeated };
    if alphabet.chars().iter().any(|&c| u32::from(c) > 0xFFFF) || !surely_set(&pattern.root, &mut Vec::new(), &refs) {
        return None;
    }
    let cx = Cx {
        alphabet,
        mode: Mode::Exact,
        word_exact: alphabet.chars().iter().all(|&c| es_word(c) == unicode::is_word(c)),
        bodies: Vec::new(),
        open: std::cell::RefCell::new(Vec::new()),
        captures: true,
        copying: std::cell::Cell::new(false),
        copy_budget: std::cell::Cell::new(COPY_BUDGET),
    };
    cx.node(&pattern.root).ok()
}

/// Whether every back-reference in `n` refers to a group surely set before it, given
/// the groups `set` surely set before `n`; adds those `n` surely sets. No lookaround.
/// An optional or repeated reference alone (`(\1)?`, `\1*`, in groups no reference
/// names) may refer to a group outside every repeat of more than one iteration (whose state is then the same in
/// both dialects): when the group is unset the reference matches the empty string in
/// ECMAScript and fails in Python, and either way the repeat matches nothing.
fn surely_set(n: &ecma::Node, set: &mut Vec<usize>, referenced: &Refs) -> bool {
    match n {
        ecma::Node::Empty | ecma::Node::Set(_) | ecma::Node::Assert(_) => true,
        ecma::Node::BackRef(k) => set.contains(k),
        ecma::Node::Concat(v) => v.iter().all(|x| surely_set(x, set, referenced)),
        ecma::Node::Alt(v) => v.iter().all(|x| surely_set(x, &mut set.clone(), referenced)),
        ecma::Node::Group { index, body } => {
            let ok = surely_set(body, set, referenced);
            set.push(*index);
            ok
        }
        ecma::Node::Repeat { body, min: 0, .. } if lone_reference(body, referenced) => true,
        ecma::Node::Repeat { body, .. } => surely_set(body, &mut set.clone(), referenced),
        ecma::Node::Look { .. } => false,
    }
}

/// The groups a pattern refers to, and those inside a repeat.
struct Refs {
    referenced: Vec<usize>,
    repeated: Vec<usize>,
}

/// Whether `n` is a back-reference to a group outside every repeat of more than one
/// iteration, possibly inside groups that no reference names.
fn lone_reference(n: &ecma::Node, refs: &Refs) -> bool {
    match n {
        ecma::Node::BackRef(k) => !refs.repeated.contains(k),
        ecma::Node::Group { index, body } => !refs.referenced.contains(index) && lone_reference(body, refs),
        _ => false,
    }
}

/// The groups inside a repeat of more than one iteration (an optional group matches at
/// most once, so its state is the same in both dialects).
fn repeated_groups(n: &ecma::Node, inside: bool, out: &mut Vec<usize>) {
    match n {
        ecma::Node::Group { index, body } => {
            if inside {
                out.push(*index);
            }
            repeated_groups(body, inside, out);
        }
        ecma::Node::Repeat { body, max, .. } => repeated_groups(body, inside || !matches!(max, Some(0 | 1)), out),
        ecma::Node::Concat(v) | ecma::Node::Alt(v) => v.iter().for_each(|x| repeated_groups(x, inside, out)),
        ecma::Node::Look { body, .. } => repeated_groups(body, inside, out),
        ecma::Node::Empty | ecma::Node::Set(_) | ecma::Node::Assert(_) | ecma::Node::BackRef(_) => {}
    }
}

/// The groups `n` refers to.
fn references(n: &ecma::Node, out: &mut Vec<usize>) {
    match n {
        ecma::Node::BackRef(k) => out.push(*k),
        ecma::Node::Concat(v) | ecma::Node::Alt(v) => v.iter().for_each(|x| references(x, out)),
        ecma::Node::Group { body, .. } | ecma::Node::Repeat { body, .. } | ecma::Node::Look { body, .. } => references(body, out),
        ecma::Node::Empty | ecma::Node::Set(_) | ecma::Node::Assert(_) => {}
    }
}

/// Whether `c` is a word character for ECMAScript's `\b` (ASCII `\w`).
fn es_word(c: char) -> bool {
    u16::try_from(u32::from(c)).is_ok_and(ecma::sets::is_word)
}

struct Cx<'a> {
    alphabet: &'a Alphabet,
    mode: Mode,
    /// Whether ECMAScript's word characters and the automata's agree on the alphabet.
    word_exact: bool,
    /// The body of each capturing group, by number.
    bodies: Vec<Option<&'a ecma::Node>>,
    /// The groups whose body is being over-approximated for a back-reference.
    open: std::cell::RefCell<Vec<usize>>,
    /// Keep capture numbers and back-references ([`python_equivalent`]).
    captures: bool,
    /// Whether a group's body is being copied for a back-reference: its assertions held
    /// where the group matched, not where the copy stands, so they are dropped.
    copying: std::cell::Cell<bool>,
    /// Nodes that copies of group bodies may still make. Copying bodies into bodies can
    /// double the tree at each group (`(a)(\\1\\1)(\\2\\2)…`); once this runs out, a
    /// back-reference matches any string (still a superset), so the tree stays small.
    copy_budget: std::cell::Cell<usize>,
}

/// The initial [`Cx::copy_budget`].
const COPY_BUDGET: usize = 1 << 10;

impl Cx<'_> {
    fn hard(&self, what: &str, over: Node) -> Result<Node, Hard> {
        match self.mode {
            Mode::Exact => Err(Hard(what.to_string())),
            Mode::Over => Ok(over),
        }
    }

    fn node(&self, n: &ecma::Node) -> Result<Node, Hard> {
        if self.copying.get() {
            self.copy_budget.set(self.copy_budget.get().saturating_sub(1));
        }
        Ok(match n {
            ecma::Node::Empty => Node::Empty,
            ecma::Node::Set(set) => {
                let members: Vec<ClassItem> =
                    self.alphabet.chars().iter().copied().filter(|&c| set.contains_char(c)).map(ClassItem::Char).collect();
                Node::Set(CharSet { negated: false, items: members.into() })
            }
            ecma::Node::Concat(v) => {
                let mut v = v.iter().map(|x| self.node(x)).collect::<Result<Vec<_>, _>>()?;
                match v.len() {
                    0 => Node::Empty,
                    1 => v.pop().unwrap_or(Node::Empty),
                    _ => Node::Concat(v),
                }
            }
            ecma::Node::Alt(v) => {
                let v: Vec<Node> = v.iter().map(|x| self.node(x)).collect::<Result<_, _>>()?;
                // Alternatives of single characters are one set (as Python's parser
                // makes `F|O` the class `[FO]`): the expansion of back-references
                // recognises a group of one character by it.
                if v.iter().all(|x| matches!(x, Node::Set(_))) {
                    let members: BTreeSet<char> = v
                        .iter()
                        .flat_map(|x| match x {
                            Node::Set(set) => set.items.to_vec(),
                            _ => Vec::new(),
                        })
                        .map(|ClassItem::Char(c)| c)
                        .collect();
                    Node::Set(CharSet { negated: false, items: members.into_iter().map(ClassItem::Char).collect::<Vec<_>>().into() })
                } else {
                    Node::Alt(v)
                }
            }
            // Without back-references, a capture is a plain group.
            ecma::Node::Group { index, body } => {
                let index = if self.captures { u32::try_from(*index).ok() } else { None };
                Node::Group { index, sub: Box::new(self.node(body)?) }
            }
            ecma::Node::Repeat { body, min, max, .. } => {
                let sub = self.node(body)?;
                // A body that matches the empty string anywhere makes its minimum
                // count free, and a maximum past any line's length none
                // (`(?:$|a){99999999999}` is `(?:$|a)*`): the automaton builders are
                // spared a huge count.
                // In the over-approximation, any body that may match the empty string.
                let nullable = super::always_nullable(&sub) || self.mode == Mode::Over && super::min_len(&sub) == 0;
                let free = !self.captures && nullable;
                let min = if free { 0 } else { *min };
                let max = if free && max.is_some_and(|m| m > 1_000_000) { None } else { *max };
                Node::Repeat { sub: Box::new(sub), min, max }
            }
            ecma::Node::Assert(_) if self.copying.get() => Node::Empty,
            ecma::Node::Assert(a) => match a {
                ecma::Assertion::Start => Node::Assert(Assertion::Start),
                ecma::Assertion::End => Node::Assert(Assertion::End),
                ecma::Assertion::WordBoundary | ecma::Assertion::NotWordBoundary => {
                    let node = Node::Assert(if *a == ecma::Assertion::WordBoundary {
                        Assertion::WordBoundary
                    } else {
                        Assertion::NotWordBoundary
                    });
                    if self.word_exact { node } else { self.hard("\\b or \\B over letters whose word class differs", Node::Empty)? }
                }
            },
            ecma::Node::Look { .. } => self.hard("lookaround", Node::Empty)?,
            ecma::Node::BackRef(k) if self.captures => Node::Backref(u32::try_from(*k).map_err(|_| Hard("group number".into()))?),
            ecma::Node::BackRef(k) => {
                let over = if self.mode == Mode::Over { self.backref_over(*k)? } else { Node::Empty };
                self.hard("back-reference", over)?
            }
        })
    }
}

impl Cx<'_> {
    /// A regular superset of what `\k` matches: the empty string (group `k` did not
    /// take part, was reset, or is referred to before or inside itself) or a string
    /// the group's body matches (what it captured last), the body over-approximated in
    /// turn and without its assertions (`^`, `$`, `\b`, `\B` held where the group
    /// matched, not where the copy is); a reference met again while its own group's
    /// body is being approximated matches any string.
    fn backref_over(&self, k: usize) -> Result<Node, Hard> {
        let Some(body) = self.bodies.get(k).copied().flatten() else { return Ok(Node::Empty) };
        if self.open.borrow().contains(&k) || self.copy_budget.get() == 0 {
            return Ok(Node::any_string());
        }
        self.open.borrow_mut().push(k);
        let was = self.copying.replace(true);
        let sub = self.node(body);
        self.copying.set(was);
        let _ = self.open.borrow_mut().pop();
        Ok(Node::Alt(vec![Node::Empty, sub?]))
    }
}

/// Adds to `out` the characters an ECMAScript clue mentions, by the rule Python clues
/// follow ([`super::alphabet::mentioned`]): literals, class members (negated classes
/// too), every member of a range, and a space for each `\s`; `.`, `\d`, `\w`, their
/// negations and `\S` add nothing. The clue's text is read, with the syntax of Annex
/// B, because the tree no longer tells `[0-9]` from `\d`; the clue has been parsed
/// already, so the text is well formed. `groups` is the number of capturing groups
/// (it decides whether `\2` is a back-reference or an octal escape), `named` whether
/// any has a name (then `\k<name>` is a back-reference, else `\k` is `k`).
pub(crate) fn mentioned(pattern: &Pattern, text: &str, out: &mut BTreeSet<char>) -> Result<(), String> {
    let named = pattern.names.iter().any(Option::is_some);
    let mut s = Scan { t: text.chars().collect(), i: 0, groups: pattern.groups, named };
    while s.i < s.t.len() {
        let c = s.t[s.i];
        s.i += 1;
        match c {
            '\\' => {
                let at = s.i;
                match s.escape(false) {
                    Atom::Char(c) => add(c, out),
                    Atom::Other if s.t.get(at) == Some(&'s') => add(' ', out),
                    Atom::Other => {}
                }
            }
            '(' => s.group_opener(),
            ')' | '|' | '^' | '$' | '.' | '*' | '+' | '?' => {}
            '{' => {
                if let Some(end) = s.quantifier_end() {
                    s.i = end;
                } else {
                    add('{', out);
                }
            }
            '[' => s.class(out)?,
            c => add(c, out),
        }
    }
    Ok(())
}

/// A class atom or escape as read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Atom {
    /// One character (a code unit that is no lone surrogate).
    Char(char),
    /// A class escape (`\d`, `\s` …), a back-reference, or a unit that is no character.
    Other,
}

struct Scan {
    t: Vec<char>,
    i: usize,
    groups: usize,
    named: bool,
}

impl Scan {
    fn peek(&self, k: usize) -> Option<char> {
        self.t.get(self.i + k).copied()
    }

    /// The end of a quantifier `{n}`, `{n,}`, `{n,m}` whose `{` was just read.
    fn quantifier_end(&self) -> Option<usize> {
        let mut j = self.i;
        let digits = |j: &mut usize| {
            let start = *j;
            while self.t.get(*j).is_some_and(char::is_ascii_digit) {
                *j += 1;
            }
            *j > start
        };
        if !digits(&mut j) {
            return None;
        }
        if self.t.get(j) == Some(&',') {
            j += 1;
            let _ = digits(&mut j);
        }
        (self.t.get(j) == Some(&'}')).then_some(j + 1)
    }

    /// Skips what follows a `(`: `?:`, `?=`, `?!`, `?<=`, `?<!`, `?<name>`.
    fn group_opener(&mut self) {
        if self.peek(0) != Some('?') {
            return;
        }
        match (self.peek(1), self.peek(2)) {
            (Some(':' | '=' | '!'), _) => self.i += 2,
            (Some('<'), Some('=' | '!')) => self.i += 3,
            (Some('<'), _) => {
                while self.i < self.t.len() && self.t[self.i] != '>' {
                    self.i += 1;
                }
                self.i += 1;
            }
            _ => {}
        }
    }

    fn hex(&mut self, n: usize) -> Option<u32> {
        let digits: String = self.t.get(self.i..self.i + n)?.iter().collect();
        if digits.len() != n || !digits.chars().all(|c| c.is_ascii_hexdigit()) {
            return None;
        }
        self.i += n;
        u32::from_str_radix(&digits, 16).ok()
    }

    /// A legacy octal escape whose first digit is at `self.i`.
    fn octal(&mut self) -> Atom {
        let first = self.t[self.i];
        let most = if first <= '3' { 3 } else { 2 };
        let mut v = 0u32;
        let mut k = 0;
        while k < most && self.peek(0).is_some_and(|c| ('0'..='7').contains(&c)) {
            v = v * 8 + self.t[self.i].to_digit(8).unwrap_or(0);
            self.i += 1;
            k += 1;
        }
        char::from_u32(v).map_or(Atom::Other, Atom::Char)
    }

    /// The escape after a `\` just read.
    fn escape(&mut self, in_class: bool) -> Atom {
        let Some(c) = self.peek(0) else { return Atom::Char('\\') };
        match c {
            'd' | 'D' | 'w' | 'W' | 's' | 'S' => {
                self.i += 1;
                Atom::Other
            }
            'b' if in_class => {
                self.i += 1;
                Atom::Char('\u{8}')
            }
            'b' | 'B' => {
                self.i += 1;
                Atom::Other
            }
            '0' if !self.peek(1).is_some_and(|d| d.is_ascii_digit()) => {
                self.i += 1;
                Atom::Char('\0')
            }
            '0'..='7' | '8' | '9' => {
                // A back-reference when its number names a group (outside a class).
                let start = self.i;
                let mut j = self.i;
                while self.t.get(j).is_some_and(char::is_ascii_digit) {
                    j += 1;
                }
                let n: usize = self.t[start..j].iter().collect::<String>().parse().unwrap_or(usize::MAX);
                if !in_class && c != '0' && n <= self.groups {
                    self.i = j;
                    return Atom::Other;
                }
                if c >= '8' {
                    self.i += 1;
                    return Atom::Char(c);
                }
                self.octal()
            }
            'k' if self.named && !in_class => {
                while self.i < self.t.len() && self.t[self.i] != '>' {
                    self.i += 1;
                }
                self.i += 1;
                Atom::Other
            }
            'c' => {
                let next = self.peek(1);
                let control = next.is_some_and(|x| x.is_ascii_alphabetic() || (in_class && (x.is_ascii_digit() || x == '_')));
                if control {
                    self.i += 2;
                    Atom::Other
                } else {
                    // Annex B: the backslash is itself, and `c` is read next.
                    Atom::Char('\\')
                }
            }
            'x' => {
                self.i += 1;
                self.hex(2).and_then(char::from_u32).map_or(Atom::Char('x'), Atom::Char)
            }
            'u' => {
                self.i += 1;
                match self.hex(4) {
                    Some(u) => char::from_u32(u).map_or(Atom::Other, Atom::Char),
                    None => Atom::Char('u'),
                }
            }
            't' | 'n' | 'v' | 'f' | 'r' => {
                self.i += 1;
                Atom::Other
            }
            c => {
                self.i += 1;
                Atom::Char(c)
            }
        }
    }

    /// A class whose `[` was just read.
    fn class(&mut self, out: &mut BTreeSet<char>) -> Result<(), String> {
        if self.peek(0) == Some('^') {
            self.i += 1;
        }
        while let Some(c) = self.peek(0) {
            if c == ']' {
                self.i += 1;
                return Ok(());
            }
            let a = self.class_atom(out);
            if self.peek(0) == Some('-') && self.peek(1).is_some_and(|x| x != ']') {
                self.i += 1;
                let b = self.class_atom(out);
                match (a, b) {
                    (Atom::Char(a), Atom::Char(b)) => range(a, b, out)?,
                    (a, b) => {
                        // Annex B: a range with a class escape at one end is the union.
                        for x in [a, b] {
                            if let Atom::Char(x) = x {
                                add(x, out);
                            }
                        }
                        add('-', out);
                    }
                }
            } else if let Atom::Char(a) = a {
                add(a, out);
            }
        }
        Ok(())
    }

    /// One class atom; a `\s` adds its space at once.
    fn class_atom(&mut self, out: &mut BTreeSet<char>) -> Atom {
        let c = self.t[self.i];
        self.i += 1;
        if c != '\\' {
            return Atom::Char(c);
        }
        let at = self.i;
        let atom = self.escape(true);
        if self.t.get(at) == Some(&'s') && atom == Atom::Other {
            add(' ', out);
        }
        atom
    }
}

/// Adds every member of the range `a-b`, refusing one too large to list.
fn range(a: char, b: char, out: &mut BTreeSet<char>) -> Result<(), String> {
    let gap = if (a as u32) < 0xD800 && (b as u32) > 0xDFFF { 0x800 } else { 0 };
    let size = (b as u32 + 1).saturating_sub(a as u32 + gap);
    if size > super::alphabet::MAX_INFERRED_RANGE {
        return Err(format!(
            "range {}-{} spans {size} characters, too many to infer the alphabet from (limit {}); give the alphabet explicitly",
            a.escape_debug(),
            b.escape_debug(),
            super::alphabet::MAX_INFERRED_RANGE
        ));
    }
    (a..=b).for_each(|c| add(c, out));
    Ok(())
}

fn add(c: char, out: &mut BTreeSet<char>) {
    if !c.is_control() {
        let _ = out.insert(c);
    }
}
