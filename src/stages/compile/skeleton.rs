//! Clues that no DFA can express: back-references and lookarounds.
//!
//! Such a clue is compiled to a *skeleton*: a DFA over the alphabet plus zero-width
//! **marker** symbols, where
//!
//! - a referenced group `(G)` becomes `⟨k G ⟩k` (markers `Open(k)`, `Close(k)`);
//! - a back-reference `\k` becomes `[k G' ]k`, with `G'` a relaxed copy of the group's
//!   body (captures, assertions and lookarounds dropped, so `L(G') ⊇` every capture);
//! - a lookaround becomes one `Look(j)` marker, its body a separate automaton;
//! - `^ $ \b \B` become markers too (a marker byte in the DFA's input would otherwise
//!   confuse regex-automata's own look-around).
//!
//! A word matches iff some *tagged* word (the word with markers inserted, at most
//! [`Tagged::slots`] per position) is accepted by the skeleton and every marker's
//! condition holds: the text of each `[k…]k` equals the last `⟨k…⟩k` before it,
//! each lookaround's automaton accepts (or rejects) there, each assertion holds.
//! The encoder turns these conditions into clauses (`encode::tagged`).
//!
//! Refused, each with a clear error: back-references or referenced groups inside a
//! lookaround, assertions or nested lookarounds inside a lookaround, variable-width
//! lookbehind (Python refuses it too), and a repetition that contains both a group
//! that can capture the empty string and a back-reference to it.

use super::{Alphabet, Automaton, determinize, glushkov, min_len, to_hir};
use crate::error::ClueErrorKind;
use crate::regex::ast::{Assertion, Node};
use regex_syntax::hir::Hir;
use std::collections::{BTreeMap, BTreeSet};

/// Most marker symbols one clue may use (marker bytes are 0x01..=0x1F).
pub(crate) const MAX_MARKERS: usize = 31;
/// Most markers at one position of a line.
pub(crate) const MAX_SLOTS: usize = 32;

/// What a marker symbol stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Marker {
    /// Start of capturing group k.
    Open(u32),
    /// End of capturing group k.
    Close(u32),
    /// Start of a back-reference to group k.
    RefOpen(u32),
    /// End of a back-reference to group k.
    RefClose(u32),
    /// Lookaround number j holds here.
    Look(usize),
    /// `^`.
    Start,
    /// `$`.
    End,
    /// `\b`.
    WordBoundary,
    /// `\B`.
    NotWordBoundary,
}

/// A lookaround's body, compiled.
#[derive(Clone, Debug)]
pub(crate) struct LookAround {
    /// Lookahead (`(?=`, `(?!`) or lookbehind.
    pub ahead: bool,
    /// Negative.
    pub negate: bool,
    /// For a lookbehind, its fixed width.
    pub width: usize,
    /// Lookahead: accepts `body·Σ*` (run to the end of the line); lookbehind: accepts
    /// `body`. One automaton per start context when the body has `^`, `\b` or `\B`:
    /// at the start of the line, after a word character, after another character.
    pub automata: Vec<Automaton>,
    /// A positive lookahead with back-references inside: its own markers
    /// (`automata[0]` is then its skeleton).
    pub tagged: Option<Box<Tagged>>,
}

/// The extra structure of a clue with markers.
#[derive(Clone, Debug)]
pub(crate) struct Tagged {
    /// Marker symbol `i` of the skeleton is `alphabet.len() + i`; the idle symbol
    /// (a self-loop on every state) comes last.
    pub markers: Vec<Marker>,
    /// Marker slots per position.
    pub slots: usize,
    /// Lookarounds by index.
    pub looks: Vec<LookAround>,
}

impl Tagged {
    /// Symbol index of marker `i`.
    pub(crate) fn marker_symbol(&self, alphabet_len: usize, i: usize) -> usize {
        alphabet_len + i
    }
    /// Symbol index of the idle symbol.
    pub(crate) fn idle_symbol(&self, alphabet_len: usize) -> usize {
        alphabet_len + self.markers.len()
    }
}

/// Whether a clue needs the tagged compilation.
pub(crate) fn needs_tags(node: &Node) -> bool {
    node.any(&mut |n| matches!(n, Node::Backref(_) | Node::Look { .. }))
}

/// Whether a subtree holds anything that becomes a marker.
pub(crate) fn has_markers(node: &Node) -> bool {
    node.any(&mut |n| matches!(n, Node::Backref(_) | Node::Look { .. } | Node::Assert(_) | Node::Group { index: Some(_), .. }))
}

/// State of the tagged translation.
pub(crate) struct TagCtx {
    referenced: BTreeSet<u32>,
    bodies: BTreeMap<u32, Node>,
    markers: Vec<Marker>,
    looks: Vec<LookAround>,
}

impl TagCtx {
    fn marker(&mut self, m: Marker) -> Result<Hir, ClueErrorKind> {
        let i = match self.markers.iter().position(|&x| x == m) {
            Some(i) => i,
            None => {
                self.markers.push(m);
                self.markers.len() - 1
            }
        };
        if i >= MAX_MARKERS {
            return Err(ClueErrorKind::Limit(format!(
                "too many groups, back-references, lookarounds and assertions in one clue (limit {MAX_MARKERS} markers)"
            )));
        }
        Ok(Hir::literal(vec![(i + 1) as u8]))
    }

    /// The marker translation of `node`, or `None` when `to_hir`'s plain rule applies.
    pub(crate) fn marker_hir(&mut self, node: &Node, alphabet: &Alphabet, len: usize) -> Result<Option<Hir>, ClueErrorKind> {
        Ok(Some(match node {
            Node::Group { index: Some(k), sub } if self.referenced.contains(k) => {
                let open = self.marker(Marker::Open(*k))?;
                let body = to_hir(sub, alphabet, len, &mut Some(&mut *self))?;
                let close = self.marker(Marker::Close(*k))?;
                Hir::concat(vec![open, body, close])
            }
            Node::Backref(k) => {
                let open = self.marker(Marker::RefOpen(*k))?;
                let body = relax(&self.bodies[k], &self.bodies);
                let body = to_hir(&body, alphabet, len, &mut None)?;
                let close = self.marker(Marker::RefClose(*k))?;
                Hir::concat(vec![open, body, close])
            }
            Node::Assert(a) => self.marker(match a {
                Assertion::Start => Marker::Start,
                Assertion::End => Marker::End,
                Assertion::WordBoundary => Marker::WordBoundary,
                Assertion::NotWordBoundary => Marker::NotWordBoundary,
            })?,
            Node::Look { ahead, negate, sub } => {
                let j = self.looks.len();
                self.looks.push(look_around(*ahead, *negate, sub, alphabet, len)?);
                self.marker(Marker::Look(j))?
            }
            _ => return Ok(None),
        }))
    }
}

/// Compiles a clue with back-references or lookarounds: the skeleton over
/// `alphabet ∪ markers ∪ {idle}` and its [`Tagged`] description.
pub(crate) fn compile(node: &Node, alphabet: &Alphabet, len: usize) -> Result<(Automaton, usize, Tagged), ClueErrorKind> {
    let (hir, bytes, ctx, slots) = skeleton_hir(node, alphabet, len)?;
    let (automaton, raw) = skeleton(&hir, &bytes, true, None)?;
    Ok((automaton, raw, Tagged { markers: ctx.markers, slots: slots.max(1), looks: ctx.looks }))
}

/// The skeleton's `Hir` (markers as one-byte literals), the bytes of its symbols
/// (the alphabet's, then the markers'), the markers and lookarounds, and the marker
/// slots a position needs.
fn skeleton_hir(node: &Node, alphabet: &Alphabet, len: usize) -> Result<(Hir, Vec<u8>, TagCtx, usize), ClueErrorKind> {
    check(node)?;
    let mut referenced = BTreeSet::new();
    let _ = node.any(&mut |n| {
        if let Node::Backref(k) = n {
            let _ = referenced.insert(*k);
        }
        false
    });
    let mut bodies = BTreeMap::new();
    collect_bodies(node, &mut bodies);
    let slots = max_markers(node, &referenced, &bodies);
    if slots > MAX_SLOTS {
        return Err(ClueErrorKind::Limit(format!("too many zero-width markers at one position (at most {MAX_SLOTS})")));
    }
    let mut ctx = TagCtx { referenced, bodies, markers: Vec::new(), looks: Vec::new() };
    let hir = to_hir(node, alphabet, len, &mut Some(&mut ctx))?;
    let mut bytes: Vec<u8> = (0..alphabet.len()).map(|i| alphabet.byte(i)).collect();
    bytes.extend((0..ctx.markers.len()).map(|i| (i + 1) as u8));
    Ok((hir, bytes, ctx, slots))
}

/// [`determinize`]'s automaton of a skeleton or a lookaround's body, built by the
/// position automaton's subset construction ([`glushkov::from_hir`], a few thousand
/// instructions for a typical clue against regex-automata's 200k and more), else by
/// regex-automata: with a `^ $ \b \B` assertion (lookaround bodies only: in a
/// skeleton they are markers), too many positions or states.
fn skeleton(hir: &Hir, bytes: &[u8], idle: bool, look_behind: Option<u8>) -> Result<(Automaton, usize), ClueErrorKind> {
    match glushkov::from_hir(hir, bytes, idle) {
        Some(Ok(done)) => Ok(done),
        _ => determinize(hir, bytes, idle, look_behind),
    }
}

fn look_around(ahead: bool, negate: bool, sub: &Node, alphabet: &Alphabet, len: usize) -> Result<LookAround, ClueErrorKind> {
    let kind = if ahead { "lookahead" } else { "lookbehind" };
    if sub.any(&mut |n| matches!(n, Node::Look { .. })) {
        return Err(ClueErrorKind::Unsupported(format!("unsupported construct: lookaround nested inside a {kind}")));
    }
    let any = Node::any_string();
    let backrefs = sub.any(&mut |n| matches!(n, Node::Backref(_)));
    if backrefs {
        if !ahead || negate {
            return Err(ClueErrorKind::Unsupported(format!(
                "unsupported construct: back-reference inside a {}{kind}",
                if negate { "negative " } else { "" }
            )));
        }
        let (automaton, _, t) = compile(&Node::Concat(vec![sub.clone(), any]), alphabet, len)?;
        return Ok(LookAround { ahead, negate, width: 0, automata: vec![automaton], tagged: Some(Box::new(t)) });
    }
    let asserts = sub.any(&mut |n| matches!(n, Node::Assert(_)));
    if asserts && !ahead {
        return Err(ClueErrorKind::Unsupported("unsupported construct: ^, $, \\b or \\B inside a lookbehind".into()));
    }
    let (node, width) = if ahead {
        (Node::Concat(vec![sub.clone(), any]), 0)
    } else {
        let Some(w) = fixed_width(sub) else {
            return Err(ClueErrorKind::Syntax {
                message: "look-behind requires fixed-width pattern".into(),
                position: None,
                exception: None,
            });
        };
        (sub.clone(), w)
    };
    let hir = to_hir(&node, alphabet, len, &mut None)?;
    let bytes: Vec<u8> = (0..alphabet.len()).map(|i| alphabet.byte(i)).collect();
    let contexts: &[Option<u8>] = if asserts { &[None, Some(b'a'), Some(b' ')] } else { &[None] };
    let automata = contexts.iter().map(|&lb| skeleton(&hir, &bytes, false, lb).map(|(a, _)| a)).collect::<Result<_, _>>()?;
    Ok(LookAround { ahead, negate, width, automata, tagged: None })
}

/// Rejects what the encoding cannot make exact.
fn check(node: &Node) -> Result<(), ClueErrorKind> {
    let mut err = None;
    let _ = node.any(&mut |n| {
        match n {
            Node::Look { sub, .. } => {
                // A group captured inside a lookaround may only be referenced inside it.
                let mut groups = BTreeSet::new();
                collect_groups(sub, &mut groups);
                let refs = |n: &Node, k: u32| {
                    let mut count = 0;
                    let _ = n.any(&mut |m| {
                        count += usize::from(*m == Node::Backref(k));
                        false
                    });
                    count
                };
                if groups.iter().any(|&k| refs(node, k) > refs(sub, k)) {
                    err = Some("unsupported construct: back-reference to a group captured inside a lookaround".to_string());
                }
            }
            Node::Repeat { sub, .. } => {
                let mut bodies = BTreeMap::new();
                collect_bodies(sub, &mut bodies);
                for (k, body) in &bodies {
                    if min_len(body) == 0 && sub.any(&mut |m| *m == Node::Backref(*k)) {
                        err = Some(format!(
                            "unsupported construct: a repetition containing both group {k}, which can capture the empty string, and a back-reference \\{k} to it"
                        ));
                    }
                }
            }
            _ => {}
        }
        err.is_some()
    });
    err.map_or(Ok(()), |m| Err(ClueErrorKind::Unsupported(m)))
}

fn collect_groups(node: &Node, out: &mut BTreeSet<u32>) {
    let _ = node.any(&mut |n| {
        if let Node::Group { index: Some(k), .. } = n {
            let _ = out.insert(*k);
        }
        false
    });
}

fn collect_bodies(node: &Node, out: &mut BTreeMap<u32, Node>) {
    let _ = node.any(&mut |n| {
        if let Node::Group { index: Some(k), sub } = n {
            let _ = out.insert(*k, (**sub).clone());
        }
        false
    });
}

/// A copy of `node` without captures, assertions or lookarounds, back-references
/// replaced by their group's body: it matches a superset of what `node` can capture.
/// A reference met again while its group's body is being copied (`(a\\2?)(b\\1)` in
/// ECMAScript) becomes any string, so the copy is finite. Copying bodies into bodies can
/// double the tree at each level (`(a)(\\1\\1)(\\2\\2)…`), so once the copy holds
/// [`RELAX_BUDGET`] nodes every further reference becomes any string too: still a
/// superset, and the copy stays small.
fn relax(node: &Node, bodies: &BTreeMap<u32, Node>) -> Node {
    let mut budget = RELAX_BUDGET;
    relax_in(node, bodies, &mut Vec::new(), &mut budget)
}

/// Most nodes [`relax`] copies before it stops expanding back-references.
const RELAX_BUDGET: usize = 4096;

fn relax_in(node: &Node, bodies: &BTreeMap<u32, Node>, open: &mut Vec<u32>, budget: &mut usize) -> Node {
    *budget = budget.saturating_sub(1);
    match node {
        Node::Empty | Node::Assert(_) | Node::Look { .. } => Node::Empty,
        Node::Set(s) => Node::Set(s.clone()),
        Node::Concat(v) => Node::Concat(v.iter().map(|n| relax_in(n, bodies, open, budget)).collect()),
        Node::Alt(v) => Node::Alt(v.iter().map(|n| relax_in(n, bodies, open, budget)).collect()),
        Node::Repeat { sub, min, max } => Node::Repeat { sub: Box::new(relax_in(sub, bodies, open, budget)), min: *min, max: *max },
        Node::Group { sub, .. } => relax_in(sub, bodies, open, budget),
        Node::Backref(k) if open.contains(k) || *budget == 0 => Node::any_string(),
        Node::Backref(k) => bodies.get(k).map_or(Node::Empty, |b| {
            open.push(*k);
            let r = relax_in(b, bodies, open, budget);
            let _ = open.pop();
            r
        }),
    }
}

/// An upper bound on the markers a Python match emits at one position.
fn max_markers(node: &Node, referenced: &BTreeSet<u32>, bodies: &BTreeMap<u32, Node>) -> usize {
    let b = bounds(node, referenced, bodies);
    [b.empty, b.prefix, b.suffix, b.inner].into_iter().max().unwrap_or(0).max(0) as usize
}

const NONE: i64 = i64::MIN / 4;

/// Marker counts of a subtree: when it matches the empty string; before the first
/// character, after the last one, and at a position in between, of a non-empty match.
/// `NONE` where there is no such match.
#[derive(Clone, Copy)]
struct Bounds {
    empty: i64,
    prefix: i64,
    suffix: i64,
    inner: i64,
}

fn add(a: i64, b: i64) -> i64 {
    if a == NONE || b == NONE { NONE } else { a + b }
}

fn bounds(node: &Node, referenced: &BTreeSet<u32>, bodies: &BTreeMap<u32, Node>) -> Bounds {
    let chars = Bounds { empty: NONE, prefix: 0, suffix: 0, inner: 0 };
    match node {
        Node::Set(_) => chars,
        Node::Empty => Bounds { empty: 0, prefix: NONE, suffix: NONE, inner: NONE },
        Node::Assert(_) | Node::Look { .. } => Bounds { empty: 1, prefix: NONE, suffix: NONE, inner: NONE },
        Node::Backref(k) => {
            let body = bodies.get(k).map_or(0, min_len);
            Bounds { empty: if body == 0 { 2 } else { NONE }, prefix: 1, suffix: 1, inner: 0 }
        }
        Node::Group { index, sub } => {
            let b = bounds(sub, referenced, bodies);
            if index.is_some_and(|k| referenced.contains(&k)) {
                Bounds { empty: add(b.empty, 2), prefix: add(b.prefix, 1), suffix: add(b.suffix, 1), inner: b.inner }
            } else {
                b
            }
        }
        Node::Alt(v) => {
            v.iter().map(|n| bounds(n, referenced, bodies)).fold(Bounds { empty: NONE, prefix: NONE, suffix: NONE, inner: NONE }, |a, b| {
                Bounds {
                    empty: a.empty.max(b.empty),
                    prefix: a.prefix.max(b.prefix),
                    suffix: a.suffix.max(b.suffix),
                    inner: a.inner.max(b.inner),
                }
            })
        }
        Node::Concat(v) => {
            v.iter().map(|n| bounds(n, referenced, bodies)).fold(Bounds { empty: 0, prefix: NONE, suffix: NONE, inner: NONE }, |a, y| {
                Bounds {
                    empty: add(a.empty, y.empty),
                    prefix: a.prefix.max(add(a.empty, y.prefix)),
                    suffix: add(a.suffix, y.empty).max(y.suffix),
                    inner: a.inner.max(y.inner).max(add(a.suffix, y.prefix)),
                }
            })
        }
        Node::Repeat { sub, min, max } => {
            let x = bounds(sub, referenced, bodies);
            // Python makes at most one empty iteration beyond the minimum at a position.
            let times = i64::from((*min).saturating_add(1).min(max.unwrap_or(u32::MAX)));
            let empties = if x.empty == NONE { 0 } else { x.empty.saturating_mul(times) };
            let empty = if *min == 0 {
                empties.max(0)
            } else if x.empty == NONE {
                NONE
            } else {
                empties
            };
            if max == &Some(0) {
                return Bounds { empty: 0, prefix: NONE, suffix: NONE, inner: NONE };
            }
            Bounds {
                empty,
                prefix: add(empties, x.prefix),
                suffix: add(x.suffix, empties),
                inner: x.inner.max(add(add(x.suffix, empties), x.prefix)),
            }
        }
    }
}

/// The width of every match, if it is fixed.
pub(crate) fn fixed_width(node: &Node) -> Option<usize> {
    match node {
        Node::Empty | Node::Assert(_) | Node::Look { .. } => Some(0),
        Node::Set(_) => Some(1),
        Node::Backref(_) => None,
        Node::Group { sub, .. } => fixed_width(sub),
        Node::Concat(v) => v.iter().map(fixed_width).sum(),
        Node::Alt(v) => {
            let ws: Option<Vec<usize>> = v.iter().map(fixed_width).collect();
            let ws = ws?;
            ws.windows(2).all(|w| w[0] == w[1]).then(|| ws.first().copied().unwrap_or(0))
        }
        Node::Repeat { sub, min, max } => (Some(*min) == *max).then(|| fixed_width(sub).map(|w| w * *min as usize)).flatten(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::{choose_alphabet, normalise, parse_clues};
    use crate::regex::syntax::Parsed;
    use crate::rng::Rng;

    /// Compares the subset construction's skeleton and lookaround automata with
    /// regex-automata's for one clue: both are trimmed, minimised and numbered
    /// breadth-first, so equal languages give equal tables. Returns how many automata
    /// the subset construction built.
    fn compare(parsed: &Parsed, alphabet: &Alphabet, len: usize) -> usize {
        let Ok(node) = normalise::normalise(parsed, alphabet, normalise::Mode::Exact) else { return 0 };
        if !needs_tags(&node) {
            return 0;
        }
        let mut built = 0;
        let mut same = |hir: &Hir, bytes: &[u8], idle: bool| {
            if let Some(Ok((fast, _))) = glushkov::from_hir(hir, bytes, idle)
                && let Ok((slow, _)) = determinize(hir, bytes, idle, None)
            {
                assert_eq!(fast, slow, "{hir:?} over {bytes:?}");
                built += 1;
            }
        };
        if let Ok((hir, bytes, _, _)) = skeleton_hir(&node, alphabet, len) {
            same(&hir, &bytes, true);
        }
        let any = Node::any_string();
        let _ = node.any(&mut |n| {
            if let Node::Look { ahead, sub, .. } = n {
                let body = if *ahead { Node::Concat(vec![(**sub).clone(), any.clone()]) } else { (**sub).clone() };
                if let Ok(hir) = to_hir(&body, alphabet, len, &mut None) {
                    let bytes: Vec<u8> = (0..alphabet.len()).map(|i| alphabet.byte(i)).collect();
                    same(&hir, &bytes, false);
                }
            }
            false
        });
        built
    }

    /// The tagged clues of the antoine-trux puzzles: the subset construction builds
    /// the same skeletons and lookaround automata as regex-automata.
    #[test]
    fn puzzle_skeletons_match_regex_automata() {
        let mut built = 0;
        let mut files: Vec<_> = std::fs::read_dir("puzzles/antoine-trux").expect("corpus").map(|e| e.expect("entry").path()).collect();
        files.sort();
        for path in files.iter().filter(|p| p.to_string_lossy().ends_with(".input.txt")) {
            let source = path.to_string_lossy();
            let bytes = std::fs::read(path).expect("read");
            let Ok(puzzle) = crate::puzzle::read(&source, &bytes, None, None, None) else { continue };
            let Ok(parsed) = parse_clues(&source, &puzzle) else { continue };
            let Ok(alphabet) = choose_alphabet(&source, &puzzle, &parsed, None) else { continue };
            for (clue, p) in puzzle.clues.iter().zip(&parsed) {
                built += compare(p.python().expect("a Python clue"), &alphabet, clue.cells.len());
            }
        }
        assert!(built >= 200, "only {built} automata compared");
    }

    /// Random clues with groups, back-references, lookarounds and assertions.
    #[test]
    fn random_skeletons_match_regex_automata() {
        fn tree(r: &mut Rng, depth: usize, groups: &mut u32) -> String {
            let atoms = ["A", "B", "-", ".", "[AB]", "[^A]", "^", "$", "\\b", "\\B"];
            if depth == 0 || r.chance(0.3) {
                let mut s = (*r.pick(&atoms)).to_string();
                if *groups > 0 && r.chance(0.2) {
                    s = format!("\\{}", 1 + r.below(*groups as usize));
                }
                return s;
            }
            let quants = ["", "", "*", "+", "?", "{2}", "{1,3}", "{0,2}", "{3,}"];
            match r.below(6) {
                0 => {
                    *groups += 1;
                    let q = if r.chance(0.3) { *r.pick(&["?", "+", "{2}"]) } else { "" };
                    format!("({}){q}", tree(r, depth - 1, groups))
                }
                1 => format!("{}|{}", tree(r, depth - 1, groups), tree(r, depth - 1, groups)),
                2 => {
                    let kind = *r.pick(&["?=", "?!", "?<=", "?<!"]);
                    let body =
                        if kind.contains('<') { (*r.pick(&["A", "[AB]", "B-", "."])).to_string() } else { tree(r, depth - 1, &mut 0) };
                    format!("({kind}{body})")
                }
                3 => format!("(?:{}){}", tree(r, depth - 1, groups), r.pick(&quants)),
                _ => format!("{}{}", tree(r, depth - 1, groups), tree(r, depth - 1, groups)),
            }
        }
        let alphabet = Alphabet::new("AB-".chars()).expect("alphabet");
        let mut r = Rng::new(15);
        let mut built = 0;
        for _ in 0..3000 {
            let mut groups = 0;
            let clue = tree(&mut r, 4, &mut groups);
            let Ok(parsed) = crate::regex::parser::parse(&clue) else { continue };
            built += compare(&parsed, &alphabet, 1 + r.below(6));
        }
        assert!(built >= 1000, "only {built} automata compared");
    }
}
