//! A clue in its puzzle's [`Dialect`]: parsed by that dialect's parser into a
//! `Tree` (`parse`) and matched by that dialect's reference matcher
//! (`Matcher`).
//!
//! | dialect | parser | tree | reference matcher |
//! |---|---|---|---|
//! | [`Dialect::Python`] | [`crate::regex::parser`] (`re._parser`) | `Parsed` | [`crate::sre`] (`_sre`), as `re.fullmatch` |
//! | [`Dialect::Ecmascript`] | [`crate::ecma::parse`] | [`ecma::Pattern`] | [`crate::ecma::Matcher`], as `new RegExp('^(?:' + clue + ')$').test` |
//!
//! The compile stage lowers either tree to its automata ([`crate::compile`]); the
//! verify stage re-checks every grid with the `Matcher` of the puzzle's dialect.
//!
//! The two dialects are this stage's submodules: Python's syntax ([`regex`], a port of
//! `re._parser`) and meaning ([`sre`], a port of `_sre`), and ECMAScript's syntax and
//! meaning ([`ecma`]).

pub(crate) mod ecma;
pub(crate) mod regex;
pub(crate) mod sre;

pub(crate) use crate::puzzle::Dialect;
use crate::regex::parser;
use crate::regex::syntax::Parsed;
use sre::BudgetExceeded;

/// A clue parsed in its dialect.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Tree {
    /// `re._parser`'s tree.
    Python(Parsed),
    /// The ECMAScript parser's tree.
    Ecmascript(ecma::Pattern),
}

/// Why a dialect's parser refuses a clue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ParseError {
    /// What Python's `re` raises.
    Python(parser::ParseError),
    /// What `new RegExp(clue)` throws.
    Ecmascript(ecma::SyntaxError),
}

/// Parses `text` as a clue of `dialect`.
pub(crate) fn parse(dialect: Dialect, text: &str) -> Result<Tree, ParseError> {
    match dialect {
        Dialect::Python => parser::parse(text).map(Tree::Python).map_err(ParseError::Python),
        Dialect::Ecmascript => ecma::parse(text).map(Tree::Ecmascript).map_err(ParseError::Ecmascript),
    }
}

impl Tree {
    /// `re._parser`'s tree, for a Python clue.
    #[cfg(test)]
    pub(crate) fn python(&self) -> Option<&Parsed> {
        match self {
            Tree::Python(p) => Some(p),
            Tree::Ecmascript(_) => None,
        }
    }
}

/// The reference matcher of a clue's dialect, deciding whether the clue fully matches
/// a line.
#[derive(Clone, Debug)]
pub(crate) enum Matcher {
    /// The port of CPython's `_sre`.
    Python(sre::Matcher),
    /// The ECMAScript backtracking matcher.
    Ecmascript(ecma::Matcher),
}

impl Matcher {
    /// The matcher of a parsed clue; the error is the reason `_sre` cannot compile it
    /// (a Python clue the parser accepted but the compiler refuses).
    pub(crate) fn new(tree: &Tree) -> Result<Matcher, String> {
        match tree {
            Tree::Python(p) => sre::Matcher::new(p).map(Matcher::Python).map_err(|e| e.to_string()),
            Tree::Ecmascript(p) => Ok(Matcher::Ecmascript(ecma::Matcher::new(p))),
        }
    }

    /// The same matcher with a step budget of `steps`.
    pub(crate) fn with_budget(self, steps: u64) -> Matcher {
        match self {
            Matcher::Python(m) => Matcher::Python(m.with_budget(steps)),
            Matcher::Ecmascript(m) => Matcher::Ecmascript(m.with_budget(steps)),
        }
    }

    /// Whether the clue matches the whole of `text`; an error when the matcher's step
    /// budget runs out (never read as "does not match").
    pub(crate) fn fullmatch(&self, text: &[char]) -> Result<bool, BudgetExceeded> {
        match self {
            Matcher::Python(m) => m.fullmatch(text),
            Matcher::Ecmascript(m) => m.fullmatch(text),
        }
    }
}
