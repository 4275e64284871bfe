//! An sre-faithful matcher: what CPython 3.11's `re.fullmatch(clue, line)` answers,
//! computed the way `_sre` computes it.
//!
//! A clue's meaning is defined by CPython's matcher, not by regex theory: which group
//! value a back-reference sees after backtracking, when a repeat stops on an empty
//! iteration, what a possessive repeat gives up. So this module does not reinterpret
//! the tree; it follows CPython step by step:
//!
//! - `program` turns a `Parsed` tree into a program the way `re._compiler`
//!   does (flags per `_combine_flags`, the `*_IGNORE` / `*_UNI_IGNORE` opcodes and
//!   `_casefix` fixes, `_optimize_charset`'s case folding, ASCII or Unicode
//!   categories, `_simple` choosing `REPEAT_ONE` / `MIN_REPEAT_ONE` /
//!   `POSSESSIVE_REPEAT_ONE` over `REPEAT` + `MAX_UNTIL` / `MIN_UNTIL` /
//!   `POSSESSIVE_REPEAT`, lookbehind widths);
//! - `vm` runs it like `SRE(match)` in `Modules/_sre/sre_lib.h`: the same
//!   backtracking order, marks saved and restored with `LASTMARK_SAVE`/`RESTORE` and
//!   `MARK_PUSH`/`POP` at the same points, the `last_ptr` protection against empty
//!   iterations, and fullmatch as sre does it (`state->match_all`: `SUCCESS` at the
//!   top level fails unless at the end of the string; lookarounds, atomic groups and
//!   possessive repeats run their bodies as non-top-level calls).
//!
//! The recursion of `SRE(match)` is an explicit stack, so deep nesting and long
//! strings cannot overflow Rust's stack; a step budget (`STEP_BUDGET`) bounds the
//! work, and running out is an error (`BudgetExceeded`), never a verdict.

pub(crate) mod charset;
pub(crate) mod program;
pub(crate) mod vm;

pub(crate) use program::{CompileError, combine_flags};
pub(crate) use vm::BudgetExceeded;

use crate::regex::syntax::{Item, Parsed, flag};
use crate::regex::unicode as uni;
use charset::CharTest;
use program::Program;

/// The default number of steps (opcodes dispatched, calls resumed, characters
/// counted) one [`Matcher::fullmatch`] may take: about half a second of work at the
/// worst, a little more than CPython spends on the most expensive clues of the
/// differential test before answering.
pub(crate) const STEP_BUDGET: u64 = 50_000_000;

/// A compiled clue, ready to answer `re.fullmatch(clue, line) is not None`.
#[derive(Clone, Debug)]
pub(crate) struct Matcher {
    prog: Program,
    budget: u64,
}

/// The groups of a successful match, as Python's match object reports them.
#[cfg(test)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Captures {
    /// `m.span(g)` for groups `1..`: `None` for a group that did not participate.
    /// A span with start > end is one Python refuses with `SystemError` ("The span
    /// of capturing group is wrong"); it is kept as is.
    pub spans: Vec<Option<(usize, usize)>>,
    /// `m.lastindex`.
    pub lastindex: Option<usize>,
}

impl Matcher {
    /// Compiles `p` (`re._compiler.compile` without its optimisation-only parts).
    ///
    /// Fails where `re.compile` fails after parsing: a lookbehind whose width is not
    /// fixed (`look-behind requires fixed-width pattern`) or too large, and a repeat
    /// under `(?t)` (`internal: unsupported template operator …`). The Unicode
    /// tables are static, so this only builds the program; sets under IGNORECASE
    /// are case-folded here once, as `_optimize_charset` does.
    pub(crate) fn new(p: &Parsed) -> Result<Matcher, CompileError> {
        Ok(Matcher { prog: program::compile(p)?, budget: STEP_BUDGET })
    }

    /// The same matcher with another step budget.
    pub(crate) fn with_budget(mut self, budget: u64) -> Matcher {
        self.budget = budget;
        self
    }

    /// `re.fullmatch(clue, text) is not None`.
    pub(crate) fn fullmatch(&self, text: &[char]) -> Result<bool, BudgetExceeded> {
        Ok(vm::Vm::new(&self.prog, text, self.budget).fullmatch()?.is_some())
    }

    /// [`Matcher::fullmatch`] on a `&str`.
    #[cfg(test)]
    pub(crate) fn fullmatch_str(&self, text: &str) -> Result<bool, BudgetExceeded> {
        let chars: Vec<char> = text.chars().collect();
        self.fullmatch(&chars)
    }

    /// `re.fullmatch(clue, text)` with its groups (`m.span(g)`, `m.lastindex`), or
    /// `None` when it does not match.
    #[cfg(test)]
    pub(crate) fn fullmatch_groups(&self, text: &[char]) -> Result<Option<Captures>, BudgetExceeded> {
        let Some(m) = vm::Vm::new(&self.prog, text, self.budget).fullmatch()? else { return Ok(None) };
        // pattern_new_match: a group is set when both marks are within lastmark.
        let spans = (0..self.prog.groups)
            .map(|g| {
                let j = 2 * g;
                let set = (j + 1) as isize <= m.lastmark && m.mark[j] != usize::MAX && m.mark[j + 1] != usize::MAX;
                set.then(|| (m.mark[j], m.mark[j + 1]))
            })
            .collect();
        Ok(Some(Captures { spans, lastindex: (m.lastindex >= 0).then_some(m.lastindex as usize) }))
    }
}

/// The predicate of a single-character item: exactly the test the matcher runs for
/// it (one of sre's `LITERAL`, `NOT_LITERAL`, `ANY`, `ANY_ALL`, `IN` opcodes or their
/// `_IGNORE` / `_UNI_IGNORE` forms, with `_optimize_charset`'s case folding).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CharClass(CharTest);

impl CharClass {
    /// Whether `c` is accepted.
    #[inline]
    pub(crate) fn contains(&self, c: char) -> bool {
        self.0.matches(c)
    }
}

/// The class of a single-character item (`Literal`, `NotLiteral`, `Any`, `In`), or
/// `None` for any other item.
///
/// `flags` are the *effective* flags at the item: the tree's global
/// [`Parsed::flags`] combined with every enclosing `(?add-del:…)` by
/// [`combine_flags`], in order from the outside in — as `_compile` passes them down.
pub(crate) fn char_class(item: &Item, flags: u32) -> Option<CharClass> {
    charset::char_test(item, flags).map(CharClass)
}

/// Whether `c` is a word character for `\b` / `\B` under the effective `flags`
/// (`SRE_UNI_IS_WORD` when `UNICODE` is set, `SRE_IS_WORD` — ASCII only — when not).
pub(crate) fn is_word(c: char, flags: u32) -> bool {
    if flags & flag::UNICODE != 0 { uni::is_word(c) } else { uni::is_ascii_word(c) }
}

#[cfg(test)]
mod cpython;
#[cfg(test)]
mod tests;
