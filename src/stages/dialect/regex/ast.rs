//! The abstract syntax tree of a clue, in Python `re` terms.
//!
//! Character sets are kept symbolic ([`ClassItem`]) until the puzzle alphabet is
//! known; [`crate::compile`] resolves them against it.

use std::rc::Rc;

/// One node of a parsed clue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Node {
    /// Matches the empty string.
    Empty,
    /// One character from a set.
    Set(CharSet),
    /// Sequence.
    Concat(Vec<Node>),
    /// Alternation.
    Alt(Vec<Node>),
    /// `sub{min,max}`; `max = None` is unbounded. Laziness does not change which
    /// strings fully match, so it is not kept.
    Repeat {
        /// What is repeated.
        sub: Box<Node>,
        /// Lower bound.
        min: u32,
        /// Upper bound, `None` for unbounded.
        max: Option<u32>,
    },
    /// A group; `index` is `Some(k)` for the k-th capturing group.
    Group {
        /// Capture index (1-based), `None` for `(?:…)`.
        index: Option<u32>,
        /// The group body.
        sub: Box<Node>,
    },
    /// `\k`: back-reference to capturing group `k`.
    Backref(u32),
    /// `(?=…)`, `(?!…)`, `(?<=…)`, `(?<!…)`.
    Look {
        /// Lookahead (`true`) or lookbehind (`false`).
        ahead: bool,
        /// Negative assertion.
        negate: bool,
        /// The asserted pattern.
        sub: Box<Node>,
    },
    /// A zero-width assertion.
    Assert(Assertion),
}

/// Zero-width assertions that a DFA can express.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Assertion {
    /// `^` or `\A`.
    Start,
    /// `$` or `\Z`.
    End,
    /// `\b`.
    WordBoundary,
    /// `\B`.
    NotWordBoundary,
}

/// A character set before it is resolved against the alphabet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CharSet {
    /// `[^…]` (or `\D`, `\S`, `\W`, `.` which is "not newline").
    pub negated: bool,
    /// Members (or non-members when negated), shared: the expansion of a
    /// back-reference copies the clue's tail once per symbol, and the normaliser lists
    /// `.` or `\W` member by member.
    pub items: Rc<[ClassItem]>,
}

/// One member of a character set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ClassItem {
    /// A single character: the normaliser lists ranges and `\d`, `\s`, `\w` member by
    /// member over the puzzle's alphabet.
    Char(char),
}

impl CharSet {
    /// The empty set: no character.
    pub(crate) fn none() -> CharSet {
        CharSet { negated: false, items: Rc::new([]) }
    }

    /// The set excluding nothing: every character.
    pub(crate) fn any() -> CharSet {
        CharSet { negated: true, items: Rc::new([]) }
    }

    /// Whether `c` belongs to this set (Python `re` semantics, Unicode str patterns).
    pub(crate) fn contains(&self, c: char) -> bool {
        self.items.iter().any(|it| it.contains(c)) != self.negated
    }
}

impl ClassItem {
    /// Whether `c` belongs to this item.
    pub(crate) fn contains(&self, c: char) -> bool {
        match *self {
            ClassItem::Char(x) => x == c,
        }
    }
}

/// Python's `\w` for str patterns: `str.isalnum()` or underscore.
pub(crate) fn is_word(c: char) -> bool {
    crate::regex::unicode::is_word(c)
}

impl Node {
    /// `[^]*`: every string, of every length.
    pub(crate) fn any_string() -> Node {
        Node::Repeat { sub: Box::new(Node::Set(CharSet::any())), min: 0, max: None }
    }

    /// Whether the tree contains a node satisfying `pred`.
    pub(crate) fn any(&self, pred: &mut impl FnMut(&Node) -> bool) -> bool {
        if pred(self) {
            return true;
        }
        match self {
            Node::Concat(v) | Node::Alt(v) => v.iter().any(|n| n.any(pred)),
            Node::Repeat { sub, .. } | Node::Group { sub, .. } | Node::Look { sub, .. } => sub.any(pred),
            Node::Empty | Node::Set(_) | Node::Backref(_) | Node::Assert(_) => false,
        }
    }
}
