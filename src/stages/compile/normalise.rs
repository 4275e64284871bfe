//! Compile pass 1, **normalise**: the parse tree as `re._parser` builds it
//! (`crate::regex::syntax`) → a flag-free `Node` over the puzzle alphabet.
//!
//! Flags disappear here: every single-character item becomes the set of alphabet
//! characters it matches under the flags in force at that point (the matcher's own
//! predicate, `crate::sre::char_class`, so case folding, `(?a)` and `(?s)` mean the
//! same in the automaton as in the check); anchors become `Assertion`s when the
//! alphabet makes them unambiguous.
//!
//! Two modes:
//! - [`Mode::Exact`]: the result means exactly what the clue means on lines over the
//!   alphabet, or the pass reports [`Hard`] — a construct no automaton or tagged
//!   encoding here expresses (atomic groups, possessive repeats, conditionals,
//!   case-insensitive back-references over cased letters, multi-line anchors or `$`
//!   when `\n` is a cell character, ASCII `\b` over non-ASCII word characters).
//! - [`Mode::Over`]: never fails; the result is regular and accepts a superset of what
//!   the clue accepts (back-references match anything, lookarounds and doubtful
//!   anchors always hold, atomic and possessive behave as plain groups and greedy
//!   repeats, a conditional takes either branch). The bounded and counterexample
//!   routes of `classify` start from it.

use super::Alphabet;
use crate::regex::ast::{Assertion, CharSet, ClassItem, Node};
use crate::regex::syntax::{At, Item, MAXREPEAT, Parsed, RepeatKind, flag};
use crate::regex::unicode;
use crate::sre;

/// Exact, or a regular over-approximation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Same meaning, or [`Hard`].
    Exact,
    /// A regular superset.
    Over,
}

/// The clue uses a construct that [`Mode::Exact`] cannot express; the text says which.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Hard(pub String);

/// Normalises a parsed clue for lines over `alphabet`.
pub(crate) fn normalise(parsed: &Parsed, alphabet: &Alphabet, mode: Mode) -> Result<Node, Hard> {
    let cx = Cx { alphabet, mode, newline: alphabet.index('\n').is_some() };
    cx.seq(&parsed.items, parsed.flags)
}

struct Cx<'a> {
    alphabet: &'a Alphabet,
    mode: Mode,
    newline: bool,
}

impl Cx<'_> {
    fn hard(&self, what: &str, over: Node) -> Result<Node, Hard> {
        match self.mode {
            Mode::Exact => Err(Hard(what.to_string())),
            Mode::Over => Ok(over),
        }
    }

    fn seq(&self, items: &[Item], flags: u32) -> Result<Node, Hard> {
        let mut v = items.iter().map(|it| self.item(it, flags)).collect::<Result<Vec<_>, _>>()?;
        Ok(match v.len() {
            0 => Node::Empty,
            1 => v.pop().unwrap_or(Node::Empty),
            _ => Node::Concat(v),
        })
    }

    fn set(&self, item: &Item, flags: u32) -> Node {
        // A literal outside `(?i)` matches itself alone (the matcher's `char_test`
        // makes it a plain literal test): no need to try every alphabet character.
        if let Item::Literal(c) = item
            && flags & flag::IGNORECASE == 0
        {
            let items = self.alphabet.index(*c).map(|_| ClassItem::Char(*c)).into_iter().collect();
            return Node::Set(CharSet { negated: false, items: Vec::into(items) });
        }
        let members: Vec<ClassItem> = match sre::char_class(item, flags) {
            Some(class) => self.alphabet.chars().iter().copied().filter(|&c| class.contains(c)).map(ClassItem::Char).collect(),
            None => Vec::new(),
        };
        Node::Set(CharSet { negated: false, items: members.into() })
    }

    fn item(&self, it: &Item, flags: u32) -> Result<Node, Hard> {
        Ok(match it {
            Item::Literal(_) | Item::NotLiteral(_) | Item::Any | Item::In(_) => self.set(it, flags),
            Item::At(at) => self.at(*at, flags)?,
            Item::Branch(alts) => Node::Alt(alts.iter().map(|a| self.seq(a, flags)).collect::<Result<_, _>>()?),
            Item::Subpattern { group, add, del, items } => {
                Node::Group { index: *group, sub: Box::new(self.seq(items, sre::combine_flags(flags, *add, *del))?) }
            }
            Item::Repeat { kind, min, max, items } => {
                let sub = Box::new(self.seq(items, flags)?);
                let node = Node::Repeat { sub, min: *min, max: (*max != MAXREPEAT).then_some(*max) };
                match kind {
                    RepeatKind::Greedy | RepeatKind::Lazy => node,
                    RepeatKind::Possessive => self.hard("possessive repeat", node)?,
                }
            }
            Item::Atomic(items) => {
                let node = Node::Group { index: None, sub: Box::new(self.seq(items, flags)?) };
                self.hard("atomic group", node)?
            }
            Item::GroupRef(k) => {
                let folds = flags & flag::IGNORECASE != 0 && !self.lowers_distinct(flags);
                match self.mode {
                    Mode::Over => Node::any_string(),
                    Mode::Exact if folds => return Err(Hard("case-insensitive back-reference".into())),
                    Mode::Exact => Node::Backref(*k),
                }
            }
            Item::GroupRefExists { yes, no, .. } => {
                let yes = self.seq(yes, flags)?;
                let no = match no {
                    Some(no) => self.seq(no, flags)?,
                    None => Node::Empty,
                };
                self.hard("conditional", Node::Alt(vec![yes, no]))?
            }
            Item::Assert { behind, negate, items } => match self.mode {
                Mode::Over => Node::Empty,
                Mode::Exact => Node::Look { ahead: !behind, negate: *negate, sub: Box::new(self.seq(items, flags)?) },
            },
        })
    }

    /// Whether no two alphabet characters are equal for a case-insensitive
    /// back-reference (sre compares their lower cases, without the extra cases).
    fn lowers_distinct(&self, flags: u32) -> bool {
        let ascii = flags & flag::ASCII != 0;
        let mut seen = std::collections::BTreeSet::new();
        self.alphabet.chars().iter().all(|&c| seen.insert(if ascii { unicode::ascii_lower(c) } else { unicode::lower(c) }))
    }

    fn at(&self, at: At, flags: u32) -> Result<Node, Hard> {
        let multiline = flags & flag::MULTILINE != 0;
        Ok(match at {
            At::BeginningString => Node::Assert(Assertion::Start),
            At::EndString => Node::Assert(Assertion::End),
            At::Beginning if !multiline || !self.newline => Node::Assert(Assertion::Start),
            At::Beginning => self.hard("multi-line ^ over an alphabet with a newline", Node::Empty)?,
            At::End if !self.newline => Node::Assert(Assertion::End),
            At::End => self.hard("$ over an alphabet with a newline", Node::Empty)?,
            At::Boundary | At::NonBoundary => {
                let exact = self.alphabet.chars().iter().all(|&c| sre::is_word(c, flags) == unicode::is_word(c));
                let node = Node::Assert(if at == At::Boundary { Assertion::WordBoundary } else { Assertion::NotWordBoundary });
                if exact { node } else { self.hard("ASCII word boundary over non-ASCII word characters", Node::Empty)? }
            }
        })
    }
}
