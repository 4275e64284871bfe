//! Compile pass 2, **classify**, and pass 3, **build**: choose how a clue is encoded
//! on a line of `len` cells, then build its automaton bounded by that length.
//!
//! | route | when | automaton | exact in the CNF |
//! |---|---|---|---|
//! | [`Route::Regular`] | no back-references, lookarounds or [`Hard`] constructs | minimal DFA (bounded by the line if the full DFA is too large) | yes |
//! | [`Route::Bounded`] | anything, if the line has few candidate strings | the strings of the over-approximation that the matcher accepts | yes |
//! | [`Route::Tagged`] | back-references and lookarounds in the forms `super::skeleton` encodes | skeleton with markers | yes (and still checked) |
//! | [`Route::Guarded`] | the rest | regular over-approximation | no: the counterexample loop blocks each line string the matcher rejects |
//!
//! The bounded route is tried first when the over-approximation leaves at most
//! `PREFER_BOUNDED` strings (it is exact by construction, since the matcher decides
//! every string), and again up to `BOUNDED_LIMIT` strings when the other exact routes
//! do not apply.

use super::normalise::{Hard, Mode};
use super::{Alphabet, Automaton, CompiledClue, bounded, clue_automaton, expand, normalise_es, normalise_tree, skeleton};
use crate::dialect::{Matcher, Tree};
use crate::error::ClueErrorKind;
use crate::regex::ast::Node;

/// Candidate strings below which the bounded route is preferred.
pub(crate) const PREFER_BOUNDED: u64 = 256;
/// Most candidate strings the bounded route enumerates.
pub(crate) const BOUNDED_LIMIT: usize = 1_000_000;
/// Most subset-construction steps an expanded clue ([`expand`]) may cost before it
/// goes to the tagged route instead. A failed attempt costs its whole budget, and the
/// tagged route's skeleton costs a few thousand steps: on generated 16×16 puzzles two
/// expansions over 12 symbols each ran to the general budget of 300,000 steps and
/// failed (8 of 15 ms of compile), while others that succeeded near it built
/// 2,000–5,000 states the tagged route does without. The largest expansion that pays
/// is good_ol_days' (45,000 steps: the tagged route doubles that puzzle's cost).
pub(crate) const EXPANSION_WORK: usize = 50_000;

/// How a clue is encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    /// A minimal DFA of the clue.
    Regular,
    /// The finite set of line strings the clue accepts, `strings` of them.
    Bounded {
        /// How many strings.
        strings: usize,
    },
    /// Skeleton with markers for back-references and lookarounds.
    Tagged,
    /// A regular over-approximation; solutions are checked and failing line strings
    /// blocked (the counterexample loop).
    Guarded,
}

impl Route {
    /// Whether the CNF means exactly the clue (so DIMACS export is exact).
    pub(crate) fn exact(self) -> bool {
        !matches!(self, Route::Guarded)
    }

    /// A short name for statistics and messages.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Route::Regular => "regular",
            Route::Bounded { .. } => "bounded",
            Route::Tagged => "tagged",
            Route::Guarded => "guarded",
        }
    }
}

/// Which routes the classifier may take (tests force each one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Options {
    /// Prefer the bounded route when the over-approximation has at most this many
    /// strings.
    pub prefer_bounded: u64,
    /// Most strings the bounded route enumerates.
    pub bounded_limit: usize,
    /// Allow the tagged route.
    pub tagged: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options { prefer_bounded: PREFER_BOUNDED, bounded_limit: BOUNDED_LIMIT, tagged: true }
    }
}

/// Compiles one clue for a line of `len` cells: the one ladder of routes for both
/// dialects.
///
/// An ECMAScript clue takes the regular route when its normalised tree is exact
/// (`super::normalise_es`); a regular ECMAScript tree whose automaton is too large
/// (`(?:$|a){99999999999}`) goes on to the routes below, which the matcher keeps exact,
/// where a Python clue's refusal is final. The expansion of back-references and the
/// tagged route model Python's back-references (a group that did not take part fails,
/// captures kept across iterations): an ECMAScript clue uses them only when its
/// back-references mean the same in both dialects
/// (`normalise_es::python_equivalent`). The bounded route (the dialect's matcher
/// decides each candidate) and the counterexample loop (every solution checked by it)
/// do not depend on the dialect.
pub(crate) fn compile_clue(tree: &Tree, alphabet: &Alphabet, len: usize, opts: Options) -> Result<CompiledClue, ClueErrorKind> {
    let exact = normalise_tree(tree, alphabet, Mode::Exact);
    if let Ok(node) = &exact
        && !skeleton::needs_tags(node)
    {
        match clue_automaton(node, alphabet, len) {
            Ok((automaton, raw_states)) => return Ok(CompiledClue { automaton, raw_states, tagged: None, route: Route::Regular }),
            Err(e) if matches!(tree, Tree::Python(_)) => return Err(e),
            Err(_) => {}
        }
    }
    // The tree whose back-references mean what Python's do: Python's own, or an
    // ECMAScript clue's where both dialects agree.
    let python_like = match tree {
        Tree::Python(_) => exact.ok(),
        Tree::Ecmascript(pattern) => normalise_es::python_equivalent(pattern, alphabet),
    };
    // Single-character groups that are only back-referenced, and leading lookaheads,
    // are regular after all (see [`expand`]); any failure (a product too large) falls
    // back to the routes below.
    if let Some(node) = &python_like
        && let Some(done) = regular_after_expansion(node, alphabet, len)
    {
        return Ok(done);
    }
    // Back-references, lookarounds or a hard construct: start from the regular
    // over-approximation.
    let over = normalise_tree(tree, alphabet, Mode::Over).map_err(|Hard(h)| format!("internal: over-approximation failed: {h}"))?;
    let (over_automaton, raw_states) = clue_automaton(&over, alphabet, len)?;
    let candidates = bounded::count(&over_automaton, len);
    if candidates <= opts.prefer_bounded.min(opts.bounded_limit as u64) {
        return by_strings(&over_automaton, tree, alphabet, len, raw_states);
    }
    if opts.tagged
        && let Some(node) = &python_like
        && taggable(node)
        && let Ok((automaton, raw_states, t)) = skeleton::compile(node, alphabet, len)
    {
        return Ok(CompiledClue { automaton, raw_states, tagged: Some(t), route: Route::Tagged });
    }
    if candidates <= opts.bounded_limit as u64 {
        return by_strings(&over_automaton, tree, alphabet, len, raw_states);
    }
    Ok(CompiledClue { automaton: over_automaton, raw_states, tagged: None, route: Route::Guarded })
}

/// The regular route for a clue that [`expand`] rewrites without back-references or
/// lookarounds (or with only leading lookaheads, intersected); `None` if it does not
/// apply or the automaton is too large.
fn regular_after_expansion(node: &Node, alphabet: &Alphabet, len: usize) -> Option<CompiledClue> {
    let expanded = |n: &Node| {
        let n = expand::single_char_backrefs(n, alphabet).unwrap_or_else(|| n.clone());
        (!skeleton::needs_tags(&n)).then_some(n)
    };
    let regular = |automaton, raw_states| CompiledClue { automaton, raw_states, tagged: None, route: Route::Regular };
    // An expansion whose subset construction is too costly (`.*(.)\1.*` copies `.*` once
    // per symbol) goes to the tagged route rather than to regex-automata's slower builder.
    let clue_automaton =
        |n: &Node, alphabet: &Alphabet, len: usize| match super::glushkov::automaton_within(n, alphabet, len, EXPANSION_WORK) {
            Some(done) => done.map_err(drop),
            None => super::fitted_automaton(n, alphabet, len).map_err(drop),
        };
    // An expansion keeps every lookaround: a clue with one goes straight to the split.
    let has_look = node.any(&mut |n| matches!(n, Node::Look { .. }));
    if !has_look && let Some(n) = expanded(node) {
        let (automaton, raw_states) = clue_automaton(&n, alphabet, len).ok()?;
        return Some(regular(automaton, raw_states));
    }
    let (rest, looks) = expand::leading_lookaheads(node);
    if looks.is_empty() {
        return None;
    }
    let rest = expanded(&rest)?;
    let (mut automaton, mut raw_states) = clue_automaton(&rest, alphabet, len).ok()?;
    // The rest of `(?=.*(.)\1{4}).+` accepts every line: the clue is its lookahead
    // (no product to walk and minimise).
    let mut everything = expand::accepts_every_line(&automaton, len);
    for (body, negate) in looks {
        // Every line the product can still accept is written in the symbols the
        // automaton so far reads, so the body only needs those: on such lines each set
        // of the body matches what it matched before (`(?=.*(.)\1{5})[ -$- ]+`
        // expands over 6 symbols instead of 64).
        let used = expand::symbols_read(&automaton);
        let body = if used.iter().all(|&u| u) { body } else { expand::restrict(&body, &used, alphabet) };
        let body = expand::then_anything(expanded(&body)?);
        let (b, b_raw) = clue_automaton(&body, alphabet, len).ok()?;
        if everything && !negate {
            (automaton, raw_states, everything) = (b, b_raw, false);
            continue;
        }
        (automaton, raw_states) = expand::intersect(&automaton, &b, negate).ok()?;
        everything = false;
    }
    Some(regular(automaton, raw_states))
}

/// The bounded route: the over-approximation's strings, filtered by the matcher.
fn by_strings(over: &Automaton, tree: &Tree, alphabet: &Alphabet, len: usize, raw_states: usize) -> Result<CompiledClue, ClueErrorKind> {
    let matcher = Matcher::new(tree).map_err(|e| ClueErrorKind::Syntax { message: e, position: None, exception: None })?;
    // Candidates are generated and checked one at a time; only accepted ones are kept.
    let mut kept = Vec::new();
    let mut text = Vec::with_capacity(len);
    bounded::for_each_string(over, len, &mut |w| {
        text.clear();
        text.extend(w.iter().map(|&x| alphabet.chars()[x]));
        match matcher.fullmatch(&text) {
            Ok(true) => kept.push(w.to_vec()),
            Ok(false) => {}
            Err(e) => return Err(ClueErrorKind::Check(format!("{e} on the line string \"{}\"", text.iter().collect::<String>()))),
        }
        Ok(())
    })?;
    let strings = kept.len();
    Ok(CompiledClue {
        automaton: bounded::from_strings(alphabet.len(), &kept),
        raw_states,
        tagged: None,
        route: Route::Bounded { strings },
    })
}

/// The forms the tagged encoding is trusted with: a back-reference inside a lookaround
/// only in a positive lookahead, and only to a group captured inside that same
/// lookahead (the tagged compiler refuses, and so sends elsewhere, the other forms it
/// does not encode, such as nested lookarounds).
fn taggable(node: &Node) -> bool {
    fn groups(n: &Node, out: &mut Vec<u32>) {
        let _ = n.any(&mut |x| {
            if let Node::Group { index: Some(k), .. } = x {
                out.push(*k);
            }
            false
        });
    }
    fn ok(n: &Node) -> bool {
        match n {
            Node::Look { ahead, negate, sub } => {
                let mut inner = Vec::new();
                groups(sub, &mut inner);
                let refs_ok = !sub.any(&mut |x| matches!(x, Node::Backref(k) if !(*ahead && !*negate && inner.contains(k))));
                refs_ok && ok(sub)
            }
            Node::Concat(v) | Node::Alt(v) => v.iter().all(ok),
            Node::Repeat { sub, .. } | Node::Group { sub, .. } => ok(sub),
            Node::Empty | Node::Set(_) | Node::Assert(_) | Node::Backref(_) => true,
        }
    }
    ok(node)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::glushkov;
    use crate::regex::parser::parse;

    /// An expansion whose subset construction would pay off under the general budget
    /// but costs more than [`EXPANSION_WORK`] goes to the tagged route (a clue of a
    /// generated 16×16 puzzle: 12 copies of the tail after `.*(.)`, about 4,900 states).
    #[test]
    fn a_costly_expansion_takes_the_tagged_route() {
        let alphabet = Alphabet::new('A'..='L').expect("alphabet");
        let parsed = parse(r"[CGH](F)(?:J|H).*(.)(.)H+.\1J[AI]+\2.").expect("parse");
        let exact = super::super::normalise::normalise(&parsed, &alphabet, Mode::Exact).expect("exact");
        let expanded = expand::single_char_backrefs(&exact, &alphabet).expect("expands");
        assert!(!skeleton::needs_tags(&expanded), "the expansion is regular");
        let (_, states) = glushkov::automaton(&expanded, &alphabet, 16).expect("applies").expect("within the general budget");
        assert!(states > 1000, "{states} states");
        assert!(glushkov::automaton_within(&expanded, &alphabet, 16, EXPANSION_WORK).expect("applies").is_err());
        let compiled = compile_clue(&Tree::Python(parsed.clone()), &alphabet, 16, Options::default()).expect("compiles");
        assert_eq!(compiled.route, Route::Tagged);
        // A cheap expansion of the same shape stays regular.
        let parsed = parse(r"[CGH](F)(?:J|H)(.)(.)H+.\1J[AI]+\2.").expect("parse");
        assert_eq!(compile_clue(&Tree::Python(parsed), &alphabet, 16, Options::default()).expect("compiles").route, Route::Regular);
    }
}
