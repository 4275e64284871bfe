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

use super::{Alphabet, Automaton, determinize, min_len, to_hir};
use crate::regex::ast::{Assertion, CharSet, Node};
use regex_syntax::hir::Hir;
use std::collections::{BTreeMap, BTreeSet};

/// Most marker symbols one clue may use (marker bytes are 0x01..=0x1F).
pub const MAX_MARKERS: usize = 31;
/// Most markers at one position of a line.
pub const MAX_SLOTS: usize = 32;

/// What a marker symbol stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marker {
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
pub struct LookAround {
    /// Lookahead (`(?=`, `(?!`) or lookbehind.
    pub ahead: bool,
    /// Negative.
    pub negate: bool,
    /// For a lookbehind, its fixed width.
    pub width: usize,
    /// Lookahead: accepts `body·Σ*` (run to the end of the line); lookbehind: accepts `body`.
    pub automaton: Automaton,
}

/// The extra structure of a clue with markers.
#[derive(Clone, Debug)]
pub struct Tagged {
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
    pub fn marker_symbol(&self, alphabet_len: usize, i: usize) -> usize {
        alphabet_len + i
    }
    /// Symbol index of the idle symbol.
    pub fn idle_symbol(&self, alphabet_len: usize) -> usize {
        alphabet_len + self.markers.len()
    }
}

/// Whether a clue needs the tagged compilation.
pub fn needs_tags(node: &Node) -> bool {
    node.any(&mut |n| matches!(n, Node::Backref(_) | Node::Look { .. }))
}

/// Whether a subtree holds anything that becomes a marker.
pub fn has_markers(node: &Node) -> bool {
    node.any(&mut |n| {
        matches!(
            n,
            Node::Backref(_)
                | Node::Look { .. }
                | Node::Assert(_)
                | Node::Group { index: Some(_), .. }
        )
    })
}

/// State of the tagged translation.
pub struct TagCtx {
    referenced: BTreeSet<u32>,
    bodies: BTreeMap<u32, Node>,
    markers: Vec<Marker>,
    looks: Vec<LookAround>,
}

impl TagCtx {
    fn marker(&mut self, m: Marker) -> Result<Hir, String> {
        let i = match self.markers.iter().position(|&x| x == m) {
            Some(i) => i,
            None => {
                self.markers.push(m);
                self.markers.len() - 1
            }
        };
        if i >= MAX_MARKERS {
            return Err(format!(
                "too many groups, back-references, lookarounds and assertions in one clue (limit {MAX_MARKERS} markers)"
            ));
        }
        Ok(Hir::literal(vec![(i + 1) as u8]))
    }

    /// The marker translation of `node`, or `None` when `to_hir`'s plain rule applies.
    pub(crate) fn marker_hir(
        &mut self,
        node: &Node,
        alphabet: &Alphabet,
        len: usize,
    ) -> Result<Option<Hir>, String> {
        Ok(Some(match node {
            Node::Group {
                index: Some(k),
                sub,
            } if self.referenced.contains(k) => {
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
                self.looks
                    .push(look_around(*ahead, *negate, sub, alphabet, len)?);
                self.marker(Marker::Look(j))?
            }
            _ => return Ok(None),
        }))
    }
}

/// Compiles a clue with back-references or lookarounds: the skeleton over
/// `alphabet ∪ markers ∪ {idle}` and its [`Tagged`] description.
pub fn compile(
    node: &Node,
    alphabet: &Alphabet,
    len: usize,
) -> Result<(Automaton, usize, Tagged), String> {
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
    let slots = max_markers(node, &referenced);
    if slots > MAX_SLOTS {
        return Err(format!(
            "too many zero-width markers at one position (at most {MAX_SLOTS})"
        ));
    }
    let mut ctx = TagCtx {
        referenced,
        bodies,
        markers: Vec::new(),
        looks: Vec::new(),
    };
    let hir = to_hir(node, alphabet, len, &mut Some(&mut ctx))?;
    let mut bytes: Vec<u8> = (0..alphabet.len()).map(|i| alphabet.byte(i)).collect();
    bytes.extend((0..ctx.markers.len()).map(|i| (i + 1) as u8));
    let (automaton, raw) = determinize(&hir, &bytes, true)?;
    Ok((
        automaton,
        raw,
        Tagged {
            markers: ctx.markers,
            slots: slots.max(1),
            looks: ctx.looks,
        },
    ))
}

fn look_around(
    ahead: bool,
    negate: bool,
    sub: &Node,
    alphabet: &Alphabet,
    len: usize,
) -> Result<LookAround, String> {
    let kind = if ahead { "lookahead" } else { "lookbehind" };
    if sub.any(&mut |n| matches!(n, Node::Backref(_))) {
        return Err(format!(
            "unsupported construct: back-reference inside a {kind}"
        ));
    }
    if sub.any(&mut |n| matches!(n, Node::Look { .. })) {
        return Err(format!(
            "unsupported construct: lookaround nested inside a {kind}"
        ));
    }
    if sub.any(&mut |n| matches!(n, Node::Assert(_))) {
        return Err(format!(
            "unsupported construct: ^, $, \\b or \\B inside a {kind}"
        ));
    }
    let (node, width) = if ahead {
        let any = Node::Repeat {
            sub: Box::new(Node::Set(CharSet {
                negated: true,
                items: vec![],
            })),
            min: 0,
            max: None,
        };
        (Node::Concat(vec![sub.clone(), any]), 0)
    } else {
        let Some(w) = fixed_width(sub) else {
            return Err("look-behind requires fixed-width pattern".into());
        };
        (sub.clone(), w)
    };
    let hir = to_hir(&node, alphabet, len, &mut None)?;
    let bytes: Vec<u8> = (0..alphabet.len()).map(|i| alphabet.byte(i)).collect();
    let (automaton, _) = determinize(&hir, &bytes, false)?;
    Ok(LookAround {
        ahead,
        negate,
        width,
        automaton,
    })
}

/// Rejects what the encoding cannot make exact.
fn check(node: &Node) -> Result<(), String> {
    let mut err = None;
    let _ = node.any(&mut |n| {
        match n {
            Node::Look { sub, .. } => {
                let mut groups = BTreeSet::new();
                collect_groups(sub, &mut groups);
                if node.any(&mut |m| matches!(m, Node::Backref(k) if groups.contains(k))) {
                    err = Some("unsupported construct: back-reference to a group inside a lookaround".to_string());
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
    err.map_or(Ok(()), Err)
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
        if let Node::Group {
            index: Some(k),
            sub,
        } = n
        {
            let _ = out.insert(*k, (**sub).clone());
        }
        false
    });
}

/// A copy of `node` without captures, assertions or lookarounds, back-references
/// replaced by their group's body: it matches a superset of what `node` can capture.
fn relax(node: &Node, bodies: &BTreeMap<u32, Node>) -> Node {
    match node {
        Node::Empty | Node::Assert(_) | Node::Look { .. } => Node::Empty,
        Node::Set(s) => Node::Set(s.clone()),
        Node::Concat(v) => Node::Concat(v.iter().map(|n| relax(n, bodies)).collect()),
        Node::Alt(v) => Node::Alt(v.iter().map(|n| relax(n, bodies)).collect()),
        Node::Repeat { sub, min, max } => Node::Repeat {
            sub: Box::new(relax(sub, bodies)),
            min: *min,
            max: *max,
        },
        Node::Group { sub, .. } => relax(sub, bodies),
        Node::Backref(k) => bodies.get(k).map_or(Node::Empty, |b| relax(b, bodies)),
    }
}

/// An upper bound on the markers a Python match emits at one position (a loop makes at
/// most one empty iteration beyond its minimum at a position).
fn max_markers(node: &Node, referenced: &BTreeSet<u32>) -> usize {
    match node {
        Node::Empty | Node::Set(_) => 0,
        Node::Assert(_) | Node::Look { .. } => 1,
        Node::Backref(_) => 2,
        Node::Group { index, sub } => {
            max_markers(sub, referenced)
                + if index.is_some_and(|k| referenced.contains(&k)) {
                    2
                } else {
                    0
                }
        }
        Node::Concat(v) => v.iter().map(|n| max_markers(n, referenced)).sum(),
        Node::Alt(v) => v
            .iter()
            .map(|n| max_markers(n, referenced))
            .max()
            .unwrap_or(0),
        Node::Repeat { sub, min, max } => {
            let m = max_markers(sub, referenced);
            let times = (*min as usize + 2).min(max.map_or(usize::MAX, |x| (x as usize).max(1)));
            m.saturating_mul(times)
        }
    }
}

/// The width of every match, if it is fixed.
pub fn fixed_width(node: &Node) -> Option<usize> {
    match node {
        Node::Empty | Node::Assert(_) | Node::Look { .. } => Some(0),
        Node::Set(_) => Some(1),
        Node::Backref(_) => None,
        Node::Group { sub, .. } => fixed_width(sub),
        Node::Concat(v) => v.iter().map(fixed_width).sum(),
        Node::Alt(v) => {
            let ws: Option<Vec<usize>> = v.iter().map(fixed_width).collect();
            let ws = ws?;
            ws.windows(2)
                .all(|w| w[0] == w[1])
                .then(|| ws.first().copied().unwrap_or(0))
        }
        Node::Repeat { sub, min, max } => (Some(*min) == *max)
            .then(|| fixed_width(sub).map(|w| w * *min as usize))
            .flatten(),
    }
}
