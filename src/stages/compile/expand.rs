//! Rewrites that take a clue with back-references or lookaheads back to the regular
//! route: the tagged encoding of `(?=.*(.)\1{5})` over a 64-symbol
//! alphabet costs tens of thousands of clauses, its regular equivalent a few hundred.
//!
//! - [`single_char_backrefs`]: a group whose body is one character set, `(.)` or
//!   `([AB])`, holds one symbol, so a clue that back-references it is a union over
//!   the set's symbols: in each alternative the group and every `\k` become that
//!   symbol. The union is taken at the smallest concatenation that holds the group
//!   (reached through concatenations and groups only, so it matches exactly once per
//!   match of that concatenation, before any reference to it) and every reference.
//!   Back-references work on the normalised tree, where `\k` means *the same alphabet
//!   symbol* ([`super::normalise`] refuses case-insensitive references that could
//!   match a different symbol), so the union means exactly the clue.
//!   A repeated group `(S)+` is first rewritten `S*(S)` ([`capture_last`]): it captures
//!   the symbol of its last iteration, so both forms match the same strings with the
//!   same capture, and the second is a group the expansion can reach
//!   (`.([/-C#])+.\1.*` in `player_puzzle_good_ol_days`).
//! - [`leading_lookaheads`]: lookaheads at the start of the clue, with neither
//!   back-references nor nested lookarounds, are intersections: the clue matches a
//!   line iff the rest does and each positive body followed by anything does (each
//!   negative one does not). [`intersect`] builds the product.

use super::{Alphabet, Automaton, DEAD, MAX_STATES, minimize, trim};
use crate::regex::ast::{Assertion, CharSet, ClassItem, Node};
use std::collections::HashMap;
use std::rc::Rc;

/// Largest character set a referenced group may have to be expanded.
pub(crate) const MAX_EXPAND_SYMBOLS: usize = 64;
/// Largest set of a repeated group that [`capture_last`] rewrites.
pub(crate) const MAX_LAST_SYMBOLS: usize = 8;
/// Most nodes the tree may have after an expansion.
pub(crate) const MAX_EXPAND_NODES: usize = 4_000;
/// Most branches a clue's expansions may make together, past the first group (whose
/// expansion is always tried): `(.)\1(.)(.)\3\1(.)` over four symbols makes 16, but
/// MIT's `.*(.)(.)(.)(.)\4\3\2\1.*` would make 361 copies of `.*…` after two groups,
/// whose subset construction then gives up after costing more than the tagged route.
pub(crate) const MAX_EXPAND_BRANCHES: usize = 64;

/// The clue with every single-character group that is only back-referenced expanded
/// into a union over its symbols, within [`MAX_EXPAND_SYMBOLS`] and
/// [`MAX_EXPAND_NODES`]; `None` if nothing changed.
pub(crate) fn single_char_backrefs(node: &Node, alphabet: &Alphabet) -> Option<Node> {
    let mut changed = false;
    let mut cur = capture_last(node, alphabet, &mut changed);
    let mut groups = Vec::new();
    collect_single_char_groups(&cur, &mut groups);
    let mut branches = 1usize;
    for (k, set) in groups {
        let refs = count_refs(&cur, k);
        if refs == 0 {
            continue;
        }
        let symbols: Vec<char> = alphabet.chars().iter().copied().filter(|&c| set.contains(c)).collect();
        if symbols.len() > MAX_EXPAND_SYMBOLS || (changed && branches * symbols.len() > MAX_EXPAND_BRANCHES) {
            continue;
        }
        if let Some(new) = expand_at(&cur, k, refs, &symbols)
            && size(&new) <= MAX_EXPAND_NODES
        {
            cur = new;
            changed = true;
            branches *= symbols.len().max(1);
        }
    }
    changed.then_some(cur)
}

/// `node` with every repetition of a single-character group, `(S){m,n}` with `m ≥ 1`,
/// rewritten `S{m-1,n-1}(S)`; sets `changed` if there was one. A repetition leaves the
/// group holding the symbol of its last iteration, so the two match the same strings
/// with the same capture, whatever follows (the fullmatch of a backtracking matcher
/// tries every count). Lookaround bodies are left alone: a lookaround is not
/// backtracked into, so there the first count tried decides the capture.
pub(crate) fn capture_last(node: &Node, alphabet: &Alphabet, changed: &mut bool) -> Node {
    let mut sub = |n: &Node| Box::new(capture_last(n, alphabet, changed));
    match node {
        Node::Repeat { sub: body, min, max } if *min >= 1 => match single_char_group(body) {
            Some((k, set)) if alphabet.chars().iter().filter(|&&c| set.contains(c)).count() <= MAX_LAST_SYMBOLS => {
                *changed = true;
                let set = Node::Set(set.clone());
                Node::Concat(vec![
                    Node::Repeat { sub: Box::new(set.clone()), min: min - 1, max: max.map(|m| m - 1) },
                    Node::Group { index: Some(k), sub: Box::new(set) },
                ])
            }
            _ => Node::Repeat { sub: sub(body), min: *min, max: *max },
        },
        Node::Repeat { sub: body, min, max } => Node::Repeat { sub: sub(body), min: *min, max: *max },
        Node::Group { index, sub: body } => Node::Group { index: *index, sub: sub(body) },
        Node::Concat(v) => Node::Concat(v.iter().map(|x| capture_last(x, alphabet, changed)).collect()),
        Node::Alt(v) => Node::Alt(v.iter().map(|x| capture_last(x, alphabet, changed)).collect()),
        Node::Look { .. } | Node::Empty | Node::Set(_) | Node::Backref(_) | Node::Assert(_) => node.clone(),
    }
}

/// `(k S)` (through non-capturing groups on either side of it): `k` and `S`.
fn single_char_group(node: &Node) -> Option<(u32, &CharSet)> {
    let mut n = node;
    while let Node::Group { index: None, sub } = n {
        n = sub;
    }
    let Node::Group { index: Some(k), sub } = n else { return None };
    let mut body = sub.as_ref();
    while let Node::Group { index: None, sub } = body {
        body = sub;
    }
    if let Node::Set(s) = body { Some((*k, s)) } else { None }
}

/// Groups `(k …)` whose body, through non-capturing groups, is one character set.
pub(super) fn collect_single_char_groups(node: &Node, out: &mut Vec<(u32, CharSet)>) {
    let _ = node.any(&mut |n| {
        if matches!(n, Node::Group { index: Some(_), .. })
            && let Some((k, s)) = single_char_group(n)
        {
            out.push((k, s.clone()));
        }
        false
    });
}

fn count_refs(node: &Node, k: u32) -> usize {
    let mut n = 0;
    let _ = node.any(&mut |x| {
        if matches!(x, Node::Backref(j) if *j == k) {
            n += 1;
        }
        false
    });
    n
}

fn size(node: &Node) -> usize {
    let mut n = 0;
    let _ = node.any(&mut |_| {
        n += 1;
        false
    });
    n
}

/// Whether every match of `node` goes through group `k` exactly once: it is reached
/// through concatenations and non-repeated groups only.
fn always_captures(node: &Node, k: u32) -> bool {
    match node {
        Node::Group { index: Some(j), .. } if *j == k => true,
        Node::Group { sub, .. } => always_captures(sub, k),
        Node::Concat(v) => v.iter().any(|x| always_captures(x, k)),
        _ => false,
    }
}

/// Expands group `k` at the lowest concatenation that always captures it and holds all
/// `refs` references to it.
fn expand_at(node: &Node, k: u32, refs: usize, symbols: &[char]) -> Option<Node> {
    let child = |sub: &Node| expand_at(sub, k, refs, symbols).map(Box::new);
    let inner = match node {
        Node::Concat(v) | Node::Alt(v) => {
            v.iter().enumerate().find_map(|(i, x)| expand_at(x, k, refs, symbols).map(|n| (i, n))).map(|(i, n)| {
                let mut v = v.clone();
                v[i] = n;
                if matches!(node, Node::Concat(_)) { Node::Concat(v) } else { Node::Alt(v) }
            })
        }
        Node::Repeat { sub, min, max } => child(sub).map(|sub| Node::Repeat { sub, min: *min, max: *max }),
        Node::Group { index, sub } => child(sub).map(|sub| Node::Group { index: *index, sub }),
        Node::Look { ahead, negate, sub } => child(sub).map(|sub| Node::Look { ahead: *ahead, negate: *negate, sub }),
        Node::Empty | Node::Set(_) | Node::Backref(_) | Node::Assert(_) => None,
    };
    if inner.is_some() {
        return inner;
    }
    // An alternation holding every reference: each branch that refers to the group
    // expands on its own (the group's capture there is that branch's copy: after an
    // earlier expansion, `(.)\1(.)\2` is `A\1…|B…` with group 2 in every branch).
    if let Node::Alt(v) = node
        && count_refs(node, k) == refs
    {
        let mut out = Vec::with_capacity(v.len());
        for x in v {
            let r = count_refs(x, k);
            out.push(if r == 0 { x.clone() } else { expand_at(x, k, r, symbols)? });
        }
        return Some(Node::Alt(out));
    }
    if let Node::Concat(v) = node
        && always_captures(node, k)
        && count_refs(node, k) == refs
    {
        // The items before the one that captures hold no reference (Python refuses a
        // reference before its group): only the suffix is copied.
        let i = v.iter().position(|x| always_captures(x, k))?;
        let suffix = Node::Concat(v[i..].to_vec());
        let alts: Vec<Node> = symbols.iter().map(|&c| substitute(&suffix, k, c)).collect();
        let mut out = v[..i].to_vec();
        out.push(if alts.is_empty() { Node::Set(CharSet::none()) } else { Node::Alt(alts) });
        return Some(Node::Concat(out));
    }
    None
}

/// `node` with group `k` and every reference to it replaced by the symbol `c`.
fn substitute(node: &Node, k: u32, c: char) -> Node {
    let one: Rc<[ClassItem]> = Rc::new([ClassItem::Char(c)]);
    replace(node, k, &one)
}

/// [`substitute`] with the symbol's set made once.
fn replace(node: &Node, k: u32, one: &Rc<[ClassItem]>) -> Node {
    let sym = || Node::Set(CharSet { negated: false, items: one.clone() });
    match node {
        Node::Group { index: Some(j), .. } if *j == k => sym(),
        Node::Backref(j) if *j == k => sym(),
        Node::Concat(v) => Node::Concat(v.iter().map(|x| replace(x, k, one)).collect()),
        Node::Alt(v) => Node::Alt(v.iter().map(|x| replace(x, k, one)).collect()),
        Node::Repeat { sub, min, max } => Node::Repeat { sub: Box::new(replace(sub, k, one)), min: *min, max: *max },
        Node::Group { index, sub } => Node::Group { index: *index, sub: Box::new(replace(sub, k, one)) },
        Node::Look { ahead, negate, sub } => Node::Look { ahead: *ahead, negate: *negate, sub: Box::new(replace(sub, k, one)) },
        other => other.clone(),
    }
}

/// Splits a clue `(?=A)(?!B)…R` at the lookaheads at its start (after `^`, if any):
/// `(R, [(A, false), (B, true), …])`. The clue matches a line iff `R` does and each
/// `A·Σ*` does (each negative one does not), provided no back-reference crosses the
/// split: the caller checks that no part holds one (nor another lookaround).
pub(crate) fn leading_lookaheads(node: &Node) -> (Node, Vec<(Node, bool)>) {
    let items: &[Node] = match node {
        Node::Concat(v) => v,
        other => std::slice::from_ref(other),
    };
    let mut looks = Vec::new();
    let mut rest = Vec::new();
    let mut leading = true;
    for it in items {
        match it {
            Node::Look { ahead: true, negate, sub } if leading => looks.push((sub.as_ref().clone(), *negate)),
            Node::Assert(Assertion::Start) if leading => rest.push(it.clone()),
            _ => {
                leading = false;
                rest.push(it.clone());
            }
        }
    }
    (Node::Concat(rest), looks)
}

/// The symbols some transition of `a` reads.
pub(crate) fn symbols_read(a: &Automaton) -> Vec<bool> {
    let mut used = vec![false; a.symbols];
    for row in a.next.chunks_exact(a.symbols.max(1)) {
        for (u, &t) in used.iter_mut().zip(row) {
            *u |= t != DEAD;
        }
    }
    used
}

/// `node` with every character set cut down to the symbols marked in `keep`: on lines
/// written in those symbols only, it matches exactly where `node` does (a set, a
/// back-reference or a lookaround only ever compares one line character at a time).
pub(crate) fn restrict(node: &Node, keep: &[bool], alphabet: &Alphabet) -> Node {
    let sub = |n: &Node| Box::new(restrict(n, keep, alphabet));
    match node {
        Node::Set(set) => {
            let chars = alphabet.chars();
            let items = if !set.negated && set.items.iter().all(|it| matches!(it, ClassItem::Char(_))) {
                set.items
                    .iter()
                    .filter(|it| matches!(it, ClassItem::Char(c) if alphabet.index(*c).is_some_and(|i| keep[i])))
                    .copied()
                    .collect()
            } else {
                (0..chars.len()).filter(|&i| keep[i] && set.contains(chars[i])).map(|i| ClassItem::Char(chars[i])).collect()
            };
            Node::Set(CharSet { negated: false, items: Vec::into(items) })
        }
        Node::Concat(v) => Node::Concat(v.iter().map(|n| restrict(n, keep, alphabet)).collect()),
        Node::Alt(v) => Node::Alt(v.iter().map(|n| restrict(n, keep, alphabet)).collect()),
        Node::Repeat { sub: s, min, max } => Node::Repeat { sub: sub(s), min: *min, max: *max },
        Node::Group { index, sub: s } => Node::Group { index: *index, sub: sub(s) },
        Node::Look { ahead, negate, sub: s } => Node::Look { ahead: *ahead, negate: *negate, sub: sub(s) },
        Node::Empty | Node::Backref(_) | Node::Assert(_) => node.clone(),
    }
}

/// `body·Σ*`: a lookahead's body followed by the rest of the line.
pub(crate) fn then_anything(body: Node) -> Node {
    Node::Concat(vec![body, Node::any_string()])
}

/// Whether `a` accepts every word of `len` symbols: every state it reaches in fewer
/// steps reads every symbol, and every state it reaches in `len` steps accepts.
pub(crate) fn accepts_every_line(a: &Automaton, len: usize) -> bool {
    if a.states() == 0 || a.start == DEAD {
        return false;
    }
    let mut layer = vec![a.start];
    let mut seen = vec![usize::MAX; a.states()];
    for depth in 0..len {
        let mut next = Vec::new();
        for &s in &layer {
            for x in 0..a.symbols {
                let t = a.step(s, x);
                if t == DEAD {
                    return false;
                }
                if seen[t as usize] != depth {
                    seen[t as usize] = depth;
                    next.push(t);
                }
            }
        }
        layer = next;
    }
    layer.iter().all(|&s| a.accept[s as usize])
}

/// The words `a` accepts that `b` accepts (`negate`: that `b` rejects), trimmed and
/// minimised; also the number of product states walked.
pub(crate) fn intersect(a: &Automaton, b: &Automaton, negate: bool) -> Result<(Automaton, usize), String> {
    let symbols = a.symbols;
    let b_start = if b.states() == 0 { DEAD } else { b.start };
    if a.states() == 0 || (!negate && b_start == DEAD) {
        return Ok((minimize(&trim(&Automaton { symbols, start: 0, accept: vec![false], next: vec![DEAD; symbols] })), 0));
    }
    // Product states by index: dense when the product table is small (the usual case:
    // `b` is a lookahead's few states), hashed otherwise.
    let b_width = b.states() + 1;
    let key = |p: u32, q: u32| p as usize * b_width + if q == DEAD { b_width - 1 } else { q as usize };
    let dense_len = a.states().checked_mul(b_width).filter(|&n| n <= 1 << 22);
    let mut dense: Vec<u32> = dense_len.map_or_else(Vec::new, |n| vec![DEAD; n]);
    let mut sparse: HashMap<usize, u32> = HashMap::new();
    let mut id_of = |k: usize, fresh: u32| -> (u32, bool) {
        let slot = if dense.is_empty() { sparse.entry(k).or_insert(DEAD) } else { &mut dense[k] };
        if *slot == DEAD {
            *slot = fresh;
            (fresh, true)
        } else {
            (*slot, false)
        }
    };
    let _ = id_of(key(a.start, b_start), 0);
    let mut order = vec![(a.start, b_start)];
    let (mut next, mut accept) = (Vec::new(), Vec::new());
    let mut i = 0;
    while i < order.len() {
        let (p, q) = order[i];
        let b_acc = q != DEAD && b.accept[q as usize];
        accept.push(a.accept[p as usize] && b_acc != negate);
        for x in 0..symbols {
            let p2 = a.step(p, x);
            let q2 = if q == DEAD { DEAD } else { b.step(q, x) };
            if p2 == DEAD || (!negate && q2 == DEAD) {
                next.push(DEAD);
                continue;
            }
            let (id, fresh) = id_of(key(p2, q2), order.len() as u32);
            if fresh {
                order.push((p2, q2));
            }
            next.push(id);
        }
        if order.len() > MAX_STATES {
            return Err(format!("automaton too large: more than {MAX_STATES} states over the puzzle alphabet"));
        }
        i += 1;
    }
    let raw = order.len();
    Ok((minimize(&trim(&Automaton { symbols, start: 0, accept, next })), raw))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::{bounded, classify, normalise};
    use crate::regex::parser::parse;
    use crate::sre::Matcher;

    /// Every string of each length the compiled clue accepts is what Python's matcher
    /// (crossat's sre port) accepts, and the clue took the regular route.
    #[test]
    fn expanded_clues_mean_the_same_and_go_regular() {
        let alphabet = Alphabet::new("ABC-".chars()).expect("alphabet");
        let cases = [
            "(?=.*(.)\\1{2}).+",
            "(?=.*([^A])\\1).*",
            "(.)\\1",
            "(.)B\\1",
            "((.)\\2)\\1B",
            "(?:(.)\\1|C)*",
            "(?=.*B)(?!.*(.)\\1).*",
            "^(?=A)(.)[BC]\\1",
            "(?i)(a)\\1",
            "(?=[^A]*A[^A]$).*",
            // Bodies cut down to the symbols of the rest (and of the lookaheads before).
            "(?=.*(.)\\1{2})[AB]+",
            "(?!.*(.)\\1)[AC-]*",
            "(?=.*[^A]C)(?=.*(.)\\1)[BC]+",
            "(?=.*-)(?!.*[^B]-)[B-]+",
            // Several groups: the later ones expand in each branch of the earlier.
            "(.)(.)\\2\\1",
            "(.)\\1(.)(.)\\3",
            "(.)(.)\\1\\2\\1",
            "(?:(.)\\1|(.)B\\2)C?",
            "(.)(?:(.)\\2|A)\\1",
        ];
        for clue in cases {
            let parsed = parse(clue).expect("parse");
            let matcher = Matcher::new(&parsed).expect("matcher");
            for len in 0..6 {
                let c = classify::compile_clue(
                    &crate::dialect::Tree::Python(parsed.clone()),
                    &alphabet,
                    len,
                    classify::Options { prefer_bounded: 0, ..Default::default() },
                )
                .expect("compile");
                // Group 1 of `((.)\2)\1` holds two symbols: it stays tagged.
                let regular = !clue.starts_with("((");
                assert_eq!(c.route == classify::Route::Regular, regular, "{clue} on {len}: {:?}", c.route);
                if !regular {
                    continue; // a tagged skeleton reads markers too: the encoding tests cover it
                }
                let got = bounded::strings(&c.automaton, len, 1 << 20).expect("few");
                assert_eq!(got, bounded::matched(&matcher, &alphabet, len), "{clue} on {len}");
            }
        }
        // A group inside a repeat or an alternative, referenced outside it, stays tagged.
        for clue in ["(?:(.)A)*\\1", "(?:(.)|B)\\1"] {
            let parsed = parse(clue).expect("parse");
            let node = normalise::normalise(&parsed, &alphabet, normalise::Mode::Exact).expect("exact");
            assert_eq!(single_char_backrefs(&node, &alphabet), None, "{clue}");
        }
    }
}
