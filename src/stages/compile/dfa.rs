//! The DFA route of a regular clue: [`clue_automaton`] tries the subset construction
//! of [`super::glushkov`], then [`fitted_automaton`] fits the tree to the line and falls
//! back to regex-automata — `to_hir` translates the tree to a `regex_syntax` HIR over
//! the alphabet's DFA bytes, `thompson_nfa` and [`determinize`] build and walk its
//! dense DFA within [`BUILD_SIZE_LIMIT`] — and the tree measures both routes need
//! (`min_len`, `always_nullable`).

use super::{Alphabet, Automaton, DEAD, FastMap, MAX_STATES, bounded, glushkov, minimize, skeleton, trim};
use crate::error::ClueErrorKind;
use crate::regex::ast::{Assertion, ClassItem, Node};
use regex_automata::dfa::{Automaton as _, StartKind, dense};
use regex_automata::nfa::thompson;
use regex_automata::util::start;
use regex_automata::{Anchored, MatchKind};
use regex_syntax::hir::{self, Hir, Look};

/// Memory each regex-automata builder (NFA, determinizer, DFA) may use.
pub(crate) const BUILD_SIZE_LIMIT: usize = 16 << 20;

/// Compiles one parsed clue for a line of `len` cells; returns its automaton (trimmed,
/// and minimised unless [`glushkov`] built a large table) and the number of DFA states
/// seen.
pub(crate) fn clue_automaton(node: &Node, alphabet: &Alphabet, len: usize) -> std::result::Result<(Automaton, usize), ClueErrorKind> {
    // Small trees without word boundaries: a subset construction over the puzzle's symbols
    // walked to the line's length, far cheaper than regex-automata's byte DFA builder;
    // the walk's bound does what fitting to the length does for the DFA.
    // Too many states unfitted (`(?:.*A.{4}|.*B.{4})*Z`): fit to the length, then again.
    if let Some(Ok(done)) = glushkov::automaton(node, alphabet, len) {
        return Ok(done);
    }
    fitted_automaton(node, alphabet, len)
}

/// [`clue_automaton`] after its first subset construction failed or did not apply:
/// the tree fitted to the line's length, by subset construction again, else by
/// regex-automata (whose DFA, when too large, is walked only as far as the line).
pub(crate) fn fitted_automaton(node: &Node, alphabet: &Alphabet, len: usize) -> std::result::Result<(Automaton, usize), ClueErrorKind> {
    let node = bounded::fit_to_length(node, len);
    if let Some(Ok(done)) = glushkov::automaton(&node, alphabet, len) {
        return Ok(done);
    }
    let hir = to_hir(&node, alphabet, len, &mut None)?;
    let bytes: Vec<u8> = (0..alphabet.len()).map(|i| alphabet.byte(i)).collect();
    match determinize(&hir, &bytes, false, None) {
        // The whole DFA is too large: only the part a line of `len` cells reaches counts.
        Err(ClueErrorKind::TooLarge(_)) => bounded::walk_bounded(&hir, &bytes, len),
        other => other,
    }
}

/// Builds the DFA of `hir` with regex-automata and walks it over `bytes` (symbol `i`
/// reads `bytes[i]`); with `idle`, one more symbol loops on every state. Returns the
/// trimmed, minimised table and the number of states walked.
/// `look_behind` is the byte before the text (`None`: the text starts the line), which
/// decides `^`, `\b` and `\B` at the start.
pub(crate) fn determinize(
    hir: &Hir,
    bytes: &[u8],
    idle: bool,
    look_behind: Option<u8>,
) -> std::result::Result<(Automaton, usize), ClueErrorKind> {
    let nfa = thompson_nfa(hir).map_err(too_large_or)?;
    let dfa = dense::Builder::new()
        .configure(
            dense::Config::new()
                .start_kind(StartKind::Anchored)
                .match_kind(MatchKind::All)
                .minimize(false)
                .byte_classes(true)
                .accelerate(false)
                .dfa_size_limit(Some(BUILD_SIZE_LIMIT))
                .determinize_size_limit(Some(BUILD_SIZE_LIMIT)),
        )
        .build_from_nfa(&nfa)
        .map_err(|e| too_large_or(format!("{e}")))?;
    let s0 = dfa
        .start_state(&start::Config::new().anchored(Anchored::Yes).look_behind(look_behind))
        .map_err(|e| format!("DFA start state: {e}"))?;
    // Breadth-first walk over the symbols' bytes.
    let symbols = bytes.len() + usize::from(idle);
    let mut ids: FastMap<_, u32> = FastMap::default();
    let mut order = vec![s0];
    let _ = ids.insert(s0, 0u32);
    let mut next = Vec::new();
    let mut accept = Vec::new();
    let mut i = 0;
    while i < order.len() {
        let s = order[i];
        accept.push(dfa.is_match_state(dfa.next_eoi_state(s)));
        for &b in bytes {
            let t = dfa.next_state(s, b);
            if dfa.is_dead_state(t) || dfa.is_quit_state(t) {
                next.push(DEAD);
                continue;
            }
            let id = *ids.entry(t).or_insert_with(|| {
                order.push(t);
                (order.len() - 1) as u32
            });
            next.push(id);
        }
        if idle {
            next.push(i as u32);
        }
        if order.len() > MAX_STATES {
            return Err(ClueErrorKind::TooLarge(format!("automaton too large: more than {MAX_STATES} states over the puzzle alphabet")));
        }
        i += 1;
    }
    let raw = order.len();
    let table = Automaton { symbols, start: 0, accept, next };
    Ok((minimize(&trim(&table)), raw))
}

/// The Thompson NFA of `hir` over bytes, without captures, within [`BUILD_SIZE_LIMIT`].
pub(crate) fn thompson_nfa(hir: &Hir) -> std::result::Result<thompson::NFA, String> {
    thompson::Compiler::new()
        .configure(
            thompson::Config::new()
                .utf8(false)
                .shrink(false)
                .which_captures(thompson::WhichCaptures::None)
                .nfa_size_limit(Some(BUILD_SIZE_LIMIT)),
        )
        .build_from_hir(hir)
        .map_err(|e| e.to_string())
}

fn too_large_or(msg: String) -> ClueErrorKind {
    if msg.contains("exceeded") || msg.contains("limit") {
        ClueErrorKind::TooLarge(format!("automaton too large: {msg} (limit {} MiB per builder)", BUILD_SIZE_LIMIT >> 20))
    } else {
        ClueErrorKind::Other(msg)
    }
}

/// Translates the AST to a `Hir` over the alphabet's DFA bytes. With `tags`, groups
/// that are referenced, back-references, lookarounds and assertions become marker
/// bytes (see [`tagged`]); without, they are refused.
pub(crate) fn to_hir(
    node: &Node,
    alphabet: &Alphabet,
    len: usize,
    tags: &mut Option<&mut skeleton::TagCtx>,
) -> std::result::Result<Hir, ClueErrorKind> {
    if let Some(ctx) = tags.as_deref_mut()
        && let Some(h) = ctx.marker_hir(node, alphabet, len)?
    {
        return Ok(h);
    }
    Ok(match node {
        Node::Empty => Hir::empty(),
        Node::Set(set) => {
            let byte = |i: usize| hir::ClassBytesRange::new(alphabet.byte(i), alphabet.byte(i));
            let ranges: Vec<hir::ClassBytesRange> = if !set.negated && set.items.iter().all(|it| matches!(it, ClassItem::Char(_))) {
                // The normaliser's sets list alphabet characters: look them up instead
                // of testing every alphabet character against every member.
                set.items.iter().filter_map(|&ClassItem::Char(c)| alphabet.index(c)).map(byte).collect()
            } else {
                (0..alphabet.len()).filter(|&i| set.contains(alphabet.chars()[i])).map(byte).collect()
            };
            if ranges.is_empty() { Hir::fail() } else { Hir::class(hir::Class::Bytes(hir::ClassBytes::new(ranges))) }
        }
        Node::Concat(v) => Hir::concat(v.iter().map(|n| to_hir(n, alphabet, len, tags)).collect::<std::result::Result<_, _>>()?),
        Node::Alt(v) => Hir::alternation(v.iter().map(|n| to_hir(n, alphabet, len, tags)).collect::<std::result::Result<_, _>>()?),
        Node::Group { sub, .. } => to_hir(sub, alphabet, len, tags)?,
        Node::Repeat { sub, min, max } => {
            let n = u32::try_from(len).unwrap_or(u32::MAX);
            let mut min = *min;
            let mut max = *max;
            // A line of `len` cells holds at most `len` non-empty pieces: larger counts
            // change nothing (see docs/encoding.md), but would blow up the NFA. Markers
            // make iterations distinguishable, so tagged subtrees keep their counts.
            let plain = tags.is_none() || !skeleton::has_markers(sub);
            if min > n && min_len(sub) >= 1 {
                return Ok(Hir::fail());
            }
            if plain {
                if min > n && always_nullable(sub) {
                    min = n;
                }
                max = max.map(|m| m.min(n.max(min)));
            }
            Hir::repetition(hir::Repetition { min, max, greedy: true, sub: Box::new(to_hir(sub, alphabet, len, tags)?) })
        }
        Node::Assert(a) => Hir::look(match a {
            Assertion::Start => Look::Start,
            Assertion::End => Look::End,
            Assertion::WordBoundary => Look::WordAscii,
            Assertion::NotWordBoundary => Look::WordAsciiNegate,
        }),
        Node::Backref(k) => {
            return Err(ClueErrorKind::Unsupported(format!("unsupported construct: back-reference \\{k} inside a lookaround")));
        }
        Node::Look { .. } => {
            return Err(ClueErrorKind::Unsupported("unsupported construct: lookaround nested inside a lookaround".into()));
        }
    })
}

/// Fewest characters any match of `node` consumes.
pub(crate) fn min_len(node: &Node) -> u64 {
    match node {
        Node::Empty | Node::Assert(_) | Node::Look { .. } | Node::Backref(_) => 0,
        Node::Set(_) => 1,
        Node::Concat(v) => v.iter().map(min_len).sum(),
        Node::Alt(v) => v.iter().map(min_len).min().unwrap_or(0),
        Node::Group { sub, .. } => min_len(sub),
        Node::Repeat { sub, min, .. } => u64::from(*min).saturating_mul(min_len(sub)),
    }
}

/// Whether `node` matches the empty string everywhere (no assertion involved).
pub(crate) fn always_nullable(node: &Node) -> bool {
    match node {
        Node::Empty => true,
        Node::Set(_) | Node::Assert(_) | Node::Look { .. } | Node::Backref(_) => false,
        Node::Concat(v) => v.iter().all(always_nullable),
        Node::Alt(v) => v.iter().any(always_nullable),
        Node::Group { sub, .. } => always_nullable(sub),
        Node::Repeat { sub, min, .. } => *min == 0 || always_nullable(sub),
    }
}
