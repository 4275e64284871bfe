//! Compile pass 3 helpers, **bounded by the line length**.
//!
//! - [`walk_bounded`]: the automaton of a regular clue restricted to what a line of
//!   `len` cells can reach. regex-automata's dense DFA determinises the whole pattern,
//!   which for clues such as `(.*A.{30})` has far more states than any line of a few
//!   cells visits; here a lazy DFA is walked breadth-first to depth `len` only, so the
//!   size limit applies to the states a line can actually be in.
//! - [`strings`] / [`from_strings`]: the finite set of line strings an automaton
//!   accepts, and the minimal automaton of a finite set. The bounded route of
//!   [`super::classify`] enumerates the strings of a regular over-approximation,
//!   keeps those the matcher accepts, and builds their automaton: exact by
//!   construction, for constructs no automaton expresses.

use super::{Automaton, DEAD, MAX_STATES, minimize, trim};
use crate::error::ClueErrorKind;
use crate::regex::ast::{CharSet, Node};
use regex_automata::hybrid::dfa::DFA;
use regex_automata::util::start;
use regex_automata::{Anchored, MatchKind};
use regex_syntax::hir::Hir;
use std::collections::HashMap;

/// Memory the lazy DFA may use before the walk gives up.
const CACHE_BYTES: usize = 256 << 20;

/// The automaton of `hir` over `bytes` (symbol `i` reads `bytes[i]`), restricted to
/// strings of exactly `len` symbols: states first reached at depth `len` get no
/// outgoing transitions, since a line never reads past its last cell.
pub(crate) fn walk_bounded(hir: &Hir, bytes: &[u8], len: usize) -> Result<(Automaton, usize), ClueErrorKind> {
    let too_large = |what: String| ClueErrorKind::TooLarge(format!("automaton too large for a line of {len} cells: {what}"));
    let nfa = super::thompson_nfa(hir).map_err(too_large)?;
    let dfa = DFA::builder()
        .configure(
            DFA::config()
                .match_kind(MatchKind::All)
                .cache_capacity(CACHE_BYTES)
                .skip_cache_capacity_check(true)
                .minimum_cache_clear_count(Some(0)),
        )
        .build_from_nfa(nfa)
        .map_err(|e| too_large(e.to_string()))?;
    let mut cache = dfa.create_cache();
    let s0 = dfa
        .start_state(&mut cache, &start::Config::new().anchored(Anchored::Yes))
        .map_err(|e| ClueErrorKind::Other(format!("DFA start state: {e}")))?;
    let mut ids = HashMap::from([(s0, 0u32)]);
    let mut order = vec![(s0, 0usize)];
    let (mut next, mut accept) = (Vec::new(), Vec::new());
    let mut i = 0;
    while i < order.len() {
        let (s, depth) = order[i];
        let eoi = dfa.next_eoi_state(&mut cache, s).map_err(|e| too_large(e.to_string()))?;
        accept.push(eoi.is_match());
        for &b in bytes {
            if depth == len {
                next.push(DEAD);
                continue;
            }
            let t = dfa.next_state(&mut cache, s, b).map_err(|e| too_large(e.to_string()))?;
            if t.is_dead() || t.is_quit() {
                next.push(DEAD);
                continue;
            }
            let id = *ids.entry(t).or_insert_with(|| {
                order.push((t, depth + 1));
                (order.len() - 1) as u32
            });
            next.push(id);
        }
        if cache.clear_count() > 0 {
            return Err(too_large(format!("the lazy DFA needed more than {} MiB", CACHE_BYTES >> 20)));
        }
        if order.len() > MAX_STATES {
            return Err(too_large(format!("more than {MAX_STATES} states within the line's length")));
        }
        i += 1;
    }
    let raw = order.len();
    let table = Automaton { symbols: bytes.len(), start: 0, accept, next };
    Ok((minimize(&trim(&table)), raw))
}

/// How many strings of exactly `len` symbols `a` accepts (saturating at `u64::MAX`).
pub(crate) fn count(a: &Automaton, len: usize) -> u64 {
    if a.states() == 0 {
        return 0;
    }
    // ways[s]: strings of the remaining length accepted from s.
    let mut ways: Vec<u64> = a.accept.iter().map(|&x| u64::from(x)).collect();
    for _ in 0..len {
        ways = (0..a.states())
            .map(|s| {
                (0..a.symbols).map(|x| a.step(s as u32, x)).filter(|&t| t != DEAD).fold(0u64, |acc, t| acc.saturating_add(ways[t as usize]))
            })
            .collect();
    }
    ways[a.start as usize]
}

/// Every string of exactly `len` symbols that `a` accepts, in symbol order; `None` if
/// there are more than `limit`.
#[cfg(test)]
pub(crate) fn strings(a: &Automaton, len: usize, limit: usize) -> Option<Vec<Vec<usize>>> {
    if count(a, len) > limit as u64 {
        return None;
    }
    let mut out = Vec::new();
    let _ = for_each_string(a, len, &mut |w| {
        out.push(w.to_vec());
        Ok::<(), ()>(())
    });
    Some(out)
}

/// For the compile tests: every string of `len` symbols of `alphabet`, in symbol
/// order, that the matcher full-matches (the language a clue's automaton must have).
#[cfg(test)]
pub(crate) fn matched(matcher: &crate::sre::Matcher, alphabet: &super::Alphabet, len: usize) -> Vec<Vec<usize>> {
    let k = alphabet.len();
    let all = Automaton { symbols: k, start: 0, accept: vec![true], next: vec![0; k] };
    let mut out = Vec::new();
    let _ = for_each_string(&all, len, &mut |w| {
        let text: Vec<char> = w.iter().map(|&x| alphabet.chars()[x]).collect();
        if matcher.fullmatch(&text).expect("match") {
            out.push(w.to_vec());
        }
        Ok::<(), ()>(())
    });
    out
}

/// Calls `f` on every string of exactly `len` symbols that `a` accepts, in symbol
/// order, without keeping them; stops at the first error.
pub(crate) fn for_each_string<E>(a: &Automaton, len: usize, f: &mut impl FnMut(&[usize]) -> Result<(), E>) -> Result<(), E> {
    // live[d][s]: some accepted string of length len - d starts at s.
    let n = a.states();
    if n == 0 {
        return Ok(());
    }
    let mut live = vec![vec![false; n]; len + 1];
    live[len] = a.accept.clone();
    for d in (0..len).rev() {
        for s in 0..n {
            live[d][s] = (0..a.symbols).any(|x| {
                let t = a.step(s as u32, x);
                t != DEAD && live[d + 1][t as usize]
            });
        }
    }
    fn go<E>(
        a: &Automaton,
        live: &[Vec<bool>],
        s: u32,
        word: &mut Vec<usize>,
        f: &mut impl FnMut(&[usize]) -> Result<(), E>,
    ) -> Result<(), E> {
        let d = word.len();
        if d + 1 == live.len() {
            return f(word);
        }
        for x in 0..a.symbols {
            let t = a.step(s, x);
            if t != DEAD && live[d + 1][t as usize] {
                word.push(x);
                go(a, live, t, word, f)?;
                let _ = word.pop();
            }
        }
        Ok(())
    }
    if live[0][a.start as usize] {
        go(a, &live, a.start, &mut Vec::with_capacity(len), f)?;
    }
    Ok(())
}

/// The minimal automaton accepting exactly `words` (all over `symbols` symbols).
pub(crate) fn from_strings(symbols: usize, words: &[Vec<usize>]) -> Automaton {
    // A trie, then minimisation.
    let mut next = vec![DEAD; symbols];
    let mut accept = vec![false];
    for w in words {
        let mut s = 0usize;
        for &x in w {
            let t = next[s * symbols + x];
            s = if t == DEAD {
                let id = accept.len();
                accept.push(false);
                next.extend(std::iter::repeat_n(DEAD, symbols));
                next[s * symbols + x] = id as u32;
                id
            } else {
                t as usize
            };
        }
        accept[s] = true;
    }
    minimize(&trim(&Automaton { symbols, start: 0, accept, next }))
}

/// Longest line on which [`fit_to_length`] runs (its cost grows with the square of the
/// length).
const FIT_MAX_LEN: usize = 512;

/// Rewrites a clue for a line of exactly `len` cells: alternatives that cannot take
/// part in a match of that length are dropped, repeat counts are clamped to what the
/// length allows (`.*` becomes empty where nothing is left for it), and a clue that
/// cannot match `len` characters at all becomes a failing set. The language on strings
/// of length `len` is unchanged; the automaton can be far smaller, e.g. for
/// `(?:.*A.{4}|.*B.{4}|…)*Z`, whose full DFA is huge while a line of 6 cells only
/// leaves room for one iteration with an empty `.*`.
pub(crate) fn fit_to_length(node: &Node, len: usize) -> Node {
    if len > FIT_MAX_LEN {
        return node.clone();
    }
    let mut allowed = vec![false; len + 1];
    allowed[len] = true;
    fit(node, &allowed).unwrap_or_else(fail)
}

fn fail() -> Node {
    Node::Set(CharSet::none())
}

/// The lengths (up to the line's) a node can match: an over-approximation.
fn lens(node: &Node, n: usize) -> Vec<bool> {
    let only = |k: usize| {
        let mut v = vec![false; n + 1];
        if k <= n {
            v[k] = true;
        }
        v
    };
    match node {
        Node::Empty | Node::Assert(_) | Node::Look { .. } => only(0),
        Node::Set(_) => only(1),
        Node::Backref(_) => vec![true; n + 1],
        Node::Group { sub, .. } => lens(sub, n),
        Node::Alt(v) => v.iter().fold(vec![false; n + 1], |acc, x| or(&acc, &lens(x, n))),
        Node::Concat(v) => v.iter().fold(only(0), |acc, x| plus(&acc, &lens(x, n))),
        Node::Repeat { sub, min, max } => repeat_lens(&lens(sub, n), *min, *max),
    }
}

fn or(a: &[bool], b: &[bool]) -> Vec<bool> {
    a.iter().zip(b).map(|(x, y)| *x || *y).collect()
}

/// Lengths of a followed by b, up to the line's.
fn plus(a: &[bool], b: &[bool]) -> Vec<bool> {
    let n = a.len() - 1;
    let mut out = vec![false; n + 1];
    for i in (0..=n).filter(|&i| a[i]) {
        for j in (0..=n - i).filter(|&j| b[j]) {
            out[i + j] = true;
        }
    }
    out
}

fn repeat_lens(sub: &[bool], min: u32, max: Option<u32>) -> Vec<bool> {
    let n = sub.len() - 1;
    let (min, max) = (u64::from(min), max.map_or(u64::MAX, u64::from));
    let empty = vec![false; n + 1];
    if !sub[0] && min > n as u64 {
        return empty;
    }
    // cur: the lengths of exactly k iterations. Without an empty iteration it dies out
    // after n + 1 steps; with one it only grows, and settles within n + 1 steps.
    let mut cur = empty.clone();
    cur[0] = true;
    let mut out = empty;
    let mut k = 0u64;
    loop {
        if k >= min {
            out = or(&out, &cur);
        }
        if k >= max || !cur.iter().any(|&x| x) {
            break;
        }
        let next = plus(&cur, sub);
        k += 1;
        if next == cur {
            // Every count from k - 1 on gives the same lengths; some is in [min, max].
            if min <= max {
                out = or(&out, &cur);
            }
            break;
        }
        cur = next;
    }
    out
}

/// `node` restricted to matches whose length is in `allowed`; `None` if it has none.
fn fit(node: &Node, allowed: &[bool]) -> Option<Node> {
    let n = allowed.len() - 1;
    let mine = lens(node, n);
    if !mine.iter().zip(allowed).any(|(a, b)| *a && *b) {
        return None;
    }
    Some(match node {
        Node::Alt(v) => {
            let kept: Vec<Node> = v.iter().filter_map(|x| fit(x, allowed)).collect();
            match kept.len() {
                0 => return None,
                1 => kept.into_iter().next()?,
                _ => Node::Alt(kept),
            }
        }
        Node::Concat(v) => {
            let parts: Vec<Vec<bool>> = v.iter().map(|x| lens(x, n)).collect();
            let mut zero = vec![false; n + 1];
            zero[0] = true;
            // prefix[i]: lengths of v[..i]; suffix[i]: lengths of v[i..].
            let mut prefix = vec![zero.clone()];
            for p in &parts {
                let last = prefix.last().cloned().unwrap_or_else(|| zero.clone());
                prefix.push(plus(&last, p));
            }
            let mut suffix = vec![zero.clone(); v.len() + 1];
            for i in (0..v.len()).rev() {
                suffix[i] = plus(&parts[i], &suffix[i + 1]);
            }
            let mut out = Vec::with_capacity(v.len());
            for (i, x) in v.iter().enumerate() {
                let rest = plus(&prefix[i], &suffix[i + 1]);
                let child: Vec<bool> = (0..=n).map(|l| parts[i][l] && (0..=n - l).any(|r| rest[r] && allowed[l + r])).collect();
                out.push(fit(x, &child)?);
            }
            Node::Concat(out)
        }
        Node::Group { index, sub } => Node::Group { index: *index, sub: Box::new(fit(sub, allowed)?) },
        Node::Repeat { sub, min, max } => {
            let top = (0..=n).rev().find(|&l| allowed[l]).unwrap_or(0);
            let sub_lens = lens(sub, n);
            let shortest = (0..=n).find(|&l| sub_lens[l]);
            let mut max = *max;
            if let Some(s) = shortest.filter(|&s| s >= 1) {
                // An unbounded repeat stays unbounded unless nothing fits (a counted
                // bound would multiply the automaton's states); a bounded one shrinks.
                let most = u32::try_from(top / s).unwrap_or(u32::MAX);
                max = match max {
                    None if most == 0 => Some(0),
                    None => None,
                    Some(m) => Some(m.min(most)),
                };
            }
            if max.is_some_and(|m| m < *min) {
                return None;
            }
            if max == Some(0) {
                return Some(Node::Empty);
            }
            let body: Vec<bool> = (0..=n).map(|l| sub_lens[l] && l <= top).collect();
            match fit(sub, &body) {
                Some(sub) => Node::Repeat { sub: Box::new(sub), min: *min, max },
                // No iteration fits: only zero iterations remain.
                None if *min == 0 => Node::Empty,
                None => return None,
            }
        }
        other => other.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_round_trip() {
        let words = vec![vec![0, 1, 1], vec![1, 0, 1], vec![1, 1, 1]];
        let a = from_strings(2, &words);
        assert_eq!(count(&a, 3), 3);
        assert_eq!(count(&a, 2), 0);
        assert_eq!(strings(&a, 3, 10), Some(words));
        assert_eq!(strings(&a, 3, 2), None);
        assert_eq!(strings(&from_strings(2, &[]), 3, 10), Some(vec![]));
    }

    #[test]
    fn fitting_keeps_the_language_of_the_line_length() {
        use crate::compile::{Alphabet, clue_automaton};
        use crate::regex::parser::parse;
        let alphabet = Alphabet::new("ABZ".chars()).expect("alphabet");
        for clue in ["(?:.*A.{2}|.*B.{2})*Z", "A*B?A{2,}", "(?:AB){0,3}Z*", "(?:A|BB|ZZZ)+"] {
            let parsed = parse(clue).expect("parse");
            let node = crate::compile::normalise::normalise(&parsed, &alphabet, crate::compile::normalise::Mode::Exact).expect("exact");
            for len in 0..7 {
                let (fitted, _) = clue_automaton(&node, &alphabet, len).expect("automaton");
                let whole = fit_to_length(&node, usize::MAX);
                let (unfitted, _) = clue_automaton(&whole, &alphabet, 64).expect("automaton");
                assert_eq!(strings(&fitted, len, 1 << 20), strings(&unfitted, len, 1 << 20), "{clue} on {len}");
            }
        }
    }
}
