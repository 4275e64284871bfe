//! The reference matcher: ECMA-262 §22.2.2's pattern semantics, run as written.
//!
//! Each node is a `Matcher` in the spec's sense: given a state (a position and the
//! captures) and a continuation, it tries its ways of matching in the spec's order
//! and calls the continuation on each, returning the first success. Sequences run
//! right to left inside lookbehinds (`direction` −1), where a character test looks at
//! the unit before the position and a back-reference compares the text before it.
//!
//! The recursion follows the continuations, so its depth grows with the line and the
//! pattern. A match first runs on the caller's stack with a small depth limit; a
//! match that needs more runs again on a thread of its own with a large stack. The
//! step budget ([`STEP_BUDGET`]) and the depth limit bound the work: running out is an
//! error, never a verdict.

use super::sets::is_word;
use super::{Assertion, BudgetExceeded, Node, Pattern};
use std::cell::Cell;

/// The default number of steps (node visits) one match may take.
pub(crate) const STEP_BUDGET: u64 = 50_000_000;
/// The recursion depth allowed on the caller's stack (a few KiB per level at most,
/// well within the 2 MiB of a test thread).
const SHALLOW_DEPTH: usize = 300;
/// The recursion depth allowed on the matcher's own thread ([`DEEP_STACK`] bytes).
const DEEP_DEPTH: usize = 100_000;
/// The stack of the thread that runs deep matches (reserved, not committed, until used).
const DEEP_STACK: usize = 1 << 30;

/// A compiled clue, ready to answer `new RegExp('^(?:' + clue + ')$').test(line)`.
#[derive(Clone, Debug)]
pub(crate) struct Matcher {
    pattern: Pattern,
    budget: u64,
    /// The fewest units any match consumes: a shorter line is refused at once.
    min_len: u64,
}

/// A matcher state: the position and the captures (`None`: undefined).
#[derive(Clone, Debug)]
struct State {
    end: usize,
    caps: Vec<Option<(usize, usize)>>,
}

type Res = Result<Option<State>, BudgetExceeded>;
type Cont<'c> = &'c dyn Fn(State) -> Res;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Dir {
    Forward,
    Backward,
}

struct Run<'a> {
    input: &'a [u16],
    steps: Cell<u64>,
    budget: u64,
    depth: Cell<usize>,
    max_depth: usize,
}

impl Matcher {
    /// A matcher for `p`.
    ///
    /// A repeat whose body never consumes input (`(?:){99999999999}`, `(?:^|(?=a))+`)
    /// is run as the spec's `RepeatMatcher` would end up running it, without its
    /// iterations: with a minimum of 0, every iteration matches the empty string and
    /// fails the empty check, so the repeat is the empty string; with a minimum of
    /// one or more, each iteration starts from the same position with the body's
    /// groups reset, so it succeeds in the same ways as the first, and one iteration
    /// (`{1}`, which keeps the reset) gives every verdict and capture the repeat gives.
    /// A back-reference inside its own group is the empty string, and one to a group
    /// that can only match the empty string is zero-width too (`(?:\\2){99999999999}`
    /// with `(\\3)()` as groups 2 and 3).
    pub(crate) fn new(p: &Pattern) -> Matcher {
        let mut pattern = p.clone();
        let zero = zero_width_groups(&pattern);
        collapse_empty_repeats(&mut pattern.root, &mut Vec::new(), &zero);
        let min_len = min_len(&pattern.root);
        Matcher { pattern, budget: STEP_BUDGET, min_len }
    }

    /// The same matcher with another step budget.
    pub(crate) fn with_budget(mut self, budget: u64) -> Matcher {
        self.budget = budget;
        self
    }

    /// Whether the clue matches the whole line, the line's characters taken as
    /// JavaScript takes them (UTF-16: a character outside the BMP is two units).
    pub(crate) fn fullmatch(&self, line: &[char]) -> Result<bool, BudgetExceeded> {
        let mut units = Vec::with_capacity(line.len());
        let mut buf = [0u16; 2];
        for c in line {
            units.extend_from_slice(c.encode_utf16(&mut buf));
        }
        self.fullmatch_units(&units)
    }

    /// `Matcher::fullmatch` on a `&str`.
    #[cfg(test)]
    pub(crate) fn fullmatch_str(&self, line: &str) -> Result<bool, BudgetExceeded> {
        let units: Vec<u16> = line.encode_utf16().collect();
        self.fullmatch_units(&units)
    }

    /// Whether the clue matches the whole of `units` (a JavaScript string).
    pub(crate) fn fullmatch_units(&self, units: &[u16]) -> Result<bool, BudgetExceeded> {
        match self.run(units, SHALLOW_DEPTH) {
            Err(e) if e.stack => {
                let (m, units) = (self.clone(), units.to_vec());
                let deep = std::thread::Builder::new()
                    .name("ecma-matcher".into())
                    .stack_size(DEEP_STACK)
                    .spawn(move || m.run(&units, DEEP_DEPTH))
                    .map_err(|_| e)?;
                deep.join().unwrap_or(Err(e))
            }
            r => r,
        }
    }

    fn run(&self, units: &[u16], max_depth: usize) -> Result<bool, BudgetExceeded> {
        if self.min_len > units.len() as u64 {
            return Ok(false);
        }
        let run = Run { input: units, steps: Cell::new(0), budget: self.budget, depth: Cell::new(0), max_depth };
        let start = State { end: 0, caps: vec![None; self.pattern.groups] };
        let len = units.len();
        let done = |y: State| Ok((y.end == len).then_some(y));
        Ok(run.m(&self.pattern.root, Dir::Forward, start, &done)?.is_some())
    }
}

/// The fewest units a match of `n` consumes (lookarounds and back-references: none).
fn min_len(n: &Node) -> u64 {
    match n {
        Node::Empty | Node::Assert(_) | Node::Look { .. } | Node::BackRef(_) => 0,
        Node::Set(_) => 1,
        Node::Concat(v) => v.iter().map(min_len).fold(0, u64::saturating_add),
        Node::Alt(v) => v.iter().map(min_len).min().unwrap_or(0),
        Node::Group { body, .. } => min_len(body),
        Node::Repeat { body, min, .. } => min_len(body).saturating_mul(u64::from(*min)),
    }
}

/// Whether `n` can only match the empty string: it has no unit test outside a
/// lookaround, and its back-references refer to groups in `zero` (groups whose body can
/// only match the empty string, so whatever they captured is empty).
fn zero_width(n: &Node, zero: &[bool]) -> bool {
    match n {
        Node::Empty | Node::Assert(_) | Node::Look { .. } => true,
        Node::Set(_) => false,
        Node::BackRef(k) => zero.get(*k).copied().unwrap_or(false),
        Node::Concat(v) | Node::Alt(v) => v.iter().all(|x| zero_width(x, zero)),
        Node::Group { body, .. } | Node::Repeat { body, .. } => zero_width(body, zero),
    }
}

/// `zero[k]`: whether group `k`'s body can only match the empty string. The least
/// fixpoint, so a group that refers to itself through a cycle counts as consuming.
fn zero_width_groups(pattern: &Pattern) -> Vec<bool> {
    let body = pattern.group_bodies();
    let mut zero = vec![false; body.len()];
    loop {
        let next: Vec<bool> = body.iter().map(|b| b.is_some_and(|b| zero_width(b, &zero))).collect();
        if next == zero {
            return zero;
        }
        zero = next;
    }
}

/// Rewrites the repeats of zero-width bodies (see [`Matcher::new`]), innermost first,
/// and the back-references inside their own group (`(a\1)`), which always match the
/// empty string: a group's capture is set when it closes, and a group that runs
/// again on the same path does so in a repeat, which resets it first. `open` holds
/// the groups around `n`.
fn collapse_empty_repeats(n: &mut Node, open: &mut Vec<usize>, zero: &[bool]) {
    match n {
        Node::Concat(v) | Node::Alt(v) => v.iter_mut().for_each(|x| collapse_empty_repeats(x, open, zero)),
        Node::Group { index, body } => {
            open.push(*index);
            collapse_empty_repeats(body, open, zero);
            let _ = open.pop();
        }
        Node::Look { body, .. } => collapse_empty_repeats(body, open, zero),
        Node::BackRef(k) if open.contains(k) => *n = Node::Empty,
        Node::Repeat { body, min, max, .. } => {
            collapse_empty_repeats(body, open, zero);
            if *max == Some(0) {
                // `RepeatMatcher` with max 0 calls the continuation at once.
                *n = Node::Empty;
            } else if zero_width(body, zero) {
                if *min == 0 {
                    *n = Node::Empty;
                } else {
                    *min = 1;
                    *max = Some(1);
                }
            }
        }
        Node::Empty | Node::Set(_) | Node::Assert(_) | Node::BackRef(_) => {}
    }
}

/// A repeat's `(min, max)` with its forced iterations cut to `room`, the number of
/// positions the match may still reach, when the minimum is larger: the answer,
/// captures included, is the same.
///
/// Why: while iterations are forced (`min ≥ 1`, so no empty check), an iteration
/// resets the body's groups before it runs and the body sets no other group, so what
/// the rest of the repeat does from a state depends on its position alone (and the
/// iterations left). Write `f_m(p)` for the first result of the repeat with `m` forced
/// iterations left from position `p` (the same continuation throughout). Positions
/// only move one way, so at the last position every iteration is empty and `f_m` =
/// `f_1` for all `m ≥ 1`; at an earlier `p`, once the later positions have settled,
/// `f_m(p)` is the first success among the body's results in order, each either a
/// settled value (a later position) or `f_{m-1}(p)` itself (an empty iteration) — a
/// map `H` with `H(H(v)) = H(v)`, so `f_m(p)` settles one iteration after the
/// positions after it. By induction `f_m(p) = f_room(p)` for every `m ≥ room`.
/// The optional iterations that follow (`max − min` of them) are kept as they are;
/// `u32::MAX` stands for no bound, as in the parser.
fn cap_forced(min: u32, max: Option<u32>, room: u64) -> (u32, Option<u32>) {
    if u64::from(min) <= room {
        return (min, max);
    }
    let cut = min - room as u32;
    (room as u32, max.map(|m| if m == u32::MAX { m } else { m - cut }))
}

impl Run<'_> {
    /// Matches `node` from `x` in direction `dir`, then `c`.
    fn m(&self, node: &Node, dir: Dir, x: State, c: Cont) -> Res {
        let steps = self.steps.get() + 1;
        self.steps.set(steps);
        if steps > self.budget {
            return Err(BudgetExceeded { steps: self.budget, stack: false });
        }
        let depth = self.depth.get() + 1;
        if depth > self.max_depth {
            return Err(BudgetExceeded { steps: self.budget, stack: true });
        }
        self.depth.set(depth);
        let r = self.m_inner(node, dir, x, c);
        self.depth.set(depth - 1);
        r
    }

    fn m_inner(&self, node: &Node, dir: Dir, x: State, c: Cont) -> Res {
        let input = self.input;
        match node {
            Node::Empty => c(x),
            Node::Set(set) => {
                let (at, next) = match dir {
                    Dir::Forward if x.end < input.len() => (x.end, x.end + 1),
                    Dir::Backward if x.end > 0 => (x.end - 1, x.end - 1),
                    _ => return Ok(None),
                };
                if set.contains(input[at]) { c(State { end: next, caps: x.caps }) } else { Ok(None) }
            }
            Node::Concat(items) => self.seq(items, dir, x, c),
            Node::Alt(alts) => {
                for alt in alts {
                    if let Some(r) = self.m(alt, dir, x.clone(), c)? {
                        return Ok(Some(r));
                    }
                }
                Ok(None)
            }
            Node::Group { index, body } => {
                let from = x.end;
                let close = |y: State| {
                    let mut caps = y.caps;
                    caps[index - 1] = Some(if dir == Dir::Forward { (from, y.end) } else { (y.end, from) });
                    c(State { end: y.end, caps })
                };
                self.m(body, dir, x, &close)
            }
            Node::Repeat { body, min, max, greedy, groups } => self.repeat(body, *min, *max, *greedy, groups.clone(), dir, x, c),
            Node::Assert(a) => {
                let e = x.end;
                let ok = match a {
                    Assertion::Start => e == 0,
                    Assertion::End => e == input.len(),
                    Assertion::WordBoundary | Assertion::NotWordBoundary => {
                        let before = e > 0 && is_word(input[e - 1]);
                        let after = e < input.len() && is_word(input[e]);
                        (before != after) == (*a == Assertion::WordBoundary)
                    }
                };
                if ok { c(x) } else { Ok(None) }
            }
            Node::Look { behind, negated, body } => {
                let inner = if *behind { Dir::Backward } else { Dir::Forward };
                let id = |y: State| Ok(Some(y));
                let r = self.m(body, inner, x.clone(), &id)?;
                match (r, negated) {
                    (Some(y), false) => c(State { end: x.end, caps: y.caps }),
                    (None, true) => c(x),
                    _ => Ok(None),
                }
            }
            Node::BackRef(n) => {
                let Some((s, e)) = x.caps[n - 1] else { return c(x) };
                let len = e - s;
                let (from, to, next) = match dir {
                    Dir::Forward if x.end + len <= input.len() => (x.end, x.end + len, x.end + len),
                    Dir::Backward if x.end >= len => (x.end - len, x.end, x.end - len),
                    _ => return Ok(None),
                };
                if input[s..e] == input[from..to] { c(State { end: next, caps: x.caps }) } else { Ok(None) }
            }
        }
    }

    /// A sequence: left to right forwards, right to left backwards.
    fn seq(&self, items: &[Node], dir: Dir, x: State, c: Cont) -> Res {
        match (items, dir) {
            ([], _) => c(x),
            ([first, rest @ ..], Dir::Forward) => self.m(first, dir, x, &|y| self.seq(rest, dir, y, c)),
            ([rest @ .., last], Dir::Backward) => self.m(last, dir, x, &|y| self.seq(rest, dir, y, c)),
        }
    }

    /// The positions a match from `at` may still reach in direction `dir` (`at`
    /// included).
    fn room(&self, at: usize, dir: Dir) -> u64 {
        let room = match dir {
            Dir::Forward => self.input.len() - at,
            Dir::Backward => at,
        };
        room as u64 + 1
    }

    /// `RepeatMatcher(m, min, max, greedy, x, c, parenIndex, parenCount)`.
    #[allow(clippy::too_many_arguments, reason = "the spec's RepeatMatcher parameters")]
    fn repeat(
        &self,
        body: &Node,
        min: u32,
        max: Option<u32>,
        greedy: bool,
        groups: std::ops::Range<usize>,
        dir: Dir,
        x: State,
        c: Cont,
    ) -> Res {
        if max == Some(0) {
            return c(x);
        }
        let (min, max) = cap_forced(min, max, self.room(x.end, dir));
        let from = x.end;
        let d = |y: State| {
            if min == 0 && y.end == from {
                return Ok(None);
            }
            let min2 = min.saturating_sub(1);
            let max2 = max.map(|m| if m == u32::MAX { m } else { m - 1 });
            self.repeat(body, min2, max2, greedy, groups.clone(), dir, y, c)
        };
        let mut xr = x.clone();
        for g in groups.clone() {
            xr.caps[g - 1] = None;
        }
        if min != 0 {
            return self.m(body, dir, xr, &d);
        }
        if !greedy {
            if let Some(z) = c(x)? {
                return Ok(Some(z));
            }
            return self.m(body, dir, xr, &d);
        }
        if let Some(z) = self.m(body, dir, xr, &d)? {
            return Ok(Some(z));
        }
        c(x)
    }
}
