//! The ECMAScript dialect: what `new RegExp('^(?:' + clue + ')$').test(line)` answers
//! in node 20 (ES2024 `RegExp` without flags, so without `u`/`v`, with the Annex B
//! syntax browsers accept).
//!
//! - [`parse`] reads a clue into a [`Pattern`] following the ES2024 pattern grammar
//!   with Annex B (B.1.2), and refuses exactly what `new RegExp(clue)` refuses (with
//!   V8's message). A clue must be a regular expression on its own: `a)|(b`, which
//!   the wrapper `'^(?:' + clue + ')$'` would happen to accept, is refused.
//! - [`Matcher`] runs a [`Pattern`] the way ECMA-262 §22.2.2 defines it: a
//!   backtracking matcher over continuations, with the spec's order of alternatives,
//!   its `RepeatMatcher` (captures of a quantified group reset at each iteration, an
//!   iteration past the minimum that matches the empty string fails), atomic
//!   lookarounds, lookbehinds matched right to left, and back-references to groups
//!   that did not take part matching the empty string.
//!
//! # The tree
//!
//! JavaScript strings are sequences of UTF-16 code units, and without the `u` flag a
//! pattern works on code units: `.` or `[^a]` consume one unit, and a character
//! outside the Basic Multilingual Plane, in a clue or in a line, is two units (a
//! surrogate pair). The tree is therefore over code units (`u16`): every node that
//! consumes input consumes exactly one unit from a `CharSet`. A clue written with a
//! non-BMP character (`😀`) becomes the two units of its surrogate pair, in sequence.
//! `Matcher::fullmatch` turns a line of `char`s into its UTF-16 units first, so it
//! answers as node does for any line. A lowering of the tree to automata over a
//! puzzle's alphabet of `char`s is exact when every letter of the alphabet is in the
//! BMP (one letter = one unit; surrogate units then match no letter): see
//! `CharSet::contains_char`.
//!
//! A [`Pattern`] is its `Node` tree and its capturing groups (numbered from 1 in the
//! order of their opening parentheses, names resolved to numbers):
//!
//! | node | ES construct |
//! |---|---|
//! | `Node::Empty` | the empty alternative, `(?:)` |
//! | `Node::Set` | one code unit in a set: a literal, an escape, `.`, a class `[…]`, `\d` … |
//! | `Node::Concat` | terms in sequence (matched right to left inside a lookbehind) |
//! | `Node::Alt` | `a|b|…`, tried left to right |
//! | `Node::Group` | a capturing group `(…)` or `(?<name>…)`; `(?:…)` leaves no node |
//! | `Node::Repeat` | a quantifier, with the capturing groups its body contains |
//! | `Node::Assert` | `^`, `$`, `\b`, `\B` |
//! | `Node::Look` | `(?=…)`, `(?!…)`, `(?<=…)`, `(?<!…)` |
//! | `Node::BackRef` | `\N` or `\k<name>` |
//!
//! Everything Annex B reads differently from the main grammar is resolved in the
//! tree: `\2` with fewer than two groups is the octal escape U+0002, `\8` is `8`, `\c`
//! without a control letter is a backslash then `c`, `a{,3}` is five literal units,
//! `[\d-z]` is the union of `\d`, `-` and `z`.

mod escape;
pub(crate) mod matcher;
pub(crate) mod parser;
pub(crate) mod sets;
#[cfg(test)]
mod tests;

pub(crate) use crate::sre::BudgetExceeded;
pub(crate) use matcher::Matcher;
pub(crate) use parser::parse;
pub(crate) use sets::CharSet;

/// A parsed clue: the tree and its capturing groups.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Pattern {
    /// The pattern's tree.
    pub(crate) root: Node,
    /// The number of capturing groups (`NcapturingParens`).
    pub(crate) groups: usize,
    /// `names[i]` is the name of group `i + 1`, when it has one.
    pub(crate) names: Vec<Option<String>>,
}

impl Pattern {
    /// The body of each capturing group, indexed by its number (index 0, and a number
    /// without a group, hold `None`).
    pub(crate) fn group_bodies(&self) -> Vec<Option<&Node>> {
        fn walk<'a>(n: &'a Node, out: &mut Vec<Option<&'a Node>>) {
            match n {
                Node::Group { index, body } => {
                    if let Some(slot) = out.get_mut(*index) {
                        *slot = Some(body);
                    }
                    walk(body, out);
                }
                Node::Concat(v) | Node::Alt(v) => v.iter().for_each(|x| walk(x, out)),
                Node::Repeat { body, .. } | Node::Look { body, .. } => walk(body, out),
                Node::Empty | Node::Set(_) | Node::Assert(_) | Node::BackRef(_) => {}
            }
        }
        let mut out = vec![None; self.groups + 1];
        walk(&self.root, &mut out);
        out
    }
}

/// A node of the tree (see the [module docs](self) for the table).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Node {
    /// Matches the empty string.
    Empty,
    /// One code unit in the set (in a lookbehind, the unit before the position).
    Set(CharSet),
    /// The items in sequence; an empty `Vec` matches the empty string.
    Concat(Vec<Node>),
    /// Alternatives, tried in order; at least two.
    Alt(Vec<Node>),
    /// A capturing group: on success of `body`, group `index` (1-based) holds what it
    /// matched.
    Group {
        /// The group's number, from 1.
        index: usize,
        /// What the group matches.
        body: Box<Node>,
    },
    /// `body` repeated `min..=max` times (`max` `None`: no bound), greedy or lazy
    /// (`?` after the quantifier). Counts past `u32::MAX` are stored as `u32::MAX`.
    Repeat {
        /// What is repeated.
        body: Box<Node>,
        /// The least number of iterations.
        min: u32,
        /// The most, or `None` for `*`, `+`, `{n,}`.
        max: Option<u32>,
        /// `false` for the lazy forms (`*?`, `{n,m}?` …).
        greedy: bool,
        /// The capturing groups inside `body` (`parenIndex + 1 ..= parenIndex +
        /// parenCount` in the spec): reset to undefined before each iteration.
        groups: std::ops::Range<usize>,
    },
    /// A zero-width assertion on the position.
    Assert(Assertion),
    /// A lookaround: atomic, and `body` is matched right to left when `behind`.
    /// Lookaheads may carry a quantifier (Annex B): it is then the body of a
    /// [`Node::Repeat`].
    Look {
        /// `(?<=…)` / `(?<!…)` rather than `(?=…)` / `(?!…)`.
        behind: bool,
        /// `(?!…)` / `(?<!…)`: succeeds when `body` cannot match.
        negated: bool,
        /// The lookaround's pattern.
        body: Box<Node>,
    },
    /// A back-reference to group `n` (1-based); matches the empty string when the
    /// group has not taken part (or is a forward reference).
    BackRef(usize),
}

/// The assertions of ES without the `m` flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Assertion {
    /// `^`: the start of the input.
    Start,
    /// `$`: the end of the input (not before a final `\n`).
    End,
    /// `\b`: between an ASCII word unit (`[A-Za-z0-9_]`) and a non-word one.
    WordBoundary,
    /// `\B`: not at a word boundary.
    NotWordBoundary,
}

/// Why `new RegExp(clue)` throws.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SyntaxError {
    /// V8's message, such as `Nothing to repeat` or `Unterminated group`.
    pub message: String,
    /// Where the parser stopped, 0-based, in characters of the clue.
    pub position: usize,
}

impl std::fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} at position {}", self.message, self.position)
    }
}

impl std::error::Error for SyntaxError {}
