//! `crossat lint`: for a puzzle's setter, which clues mean something else in Python's
//! `re` than in ECMAScript's `RegExp` (regexcrossword.com checks answers with the
//! browser's), on their own line: the clue's language at the line's length over the
//! puzzle's alphabet, in each dialect.
//!
//! Per clue ([`lint`]): both dialects parse it (`crate::dialect::parse`); a clue one
//! of them refuses is reported with the error. Otherwise each dialect's clue is
//! compiled for the line without the tagged route (`compile::classify`):
//! when both automata are exact (regular or bounded route) the product of the two is
//! walked for a line string one accepts and the other does not; when one is only a
//! regular over-approximation (the counterexample route), the strings of both
//! over-approximations are enumerated, up to `MAX_CANDIDATES`, and each asked of both
//! matchers; past that, each dialect's clue is solved alone on its line by the whole
//! pipeline (exact on every route) and the listings compared. Every witness is
//! confirmed by both reference matchers.

use crate::compile::{self, Alphabet, Automaton, DEAD, Options, Route, bounded};
use crate::dialect::{self, Dialect, Matcher, Tree};
use crate::error::{Error, Result};
use crate::puzzle::{Clue, Puzzle, Shape};
use crate::records::LintVerdict;
use crate::stats::Times;
use std::collections::{BTreeMap, HashMap};

/// Most candidate line strings enumerated for a clue whose automaton in some dialect is
/// only an over-approximation; past it the languages are listed by the solver.
pub(crate) const MAX_CANDIDATES: u64 = 2_000_000;
/// Most line strings the solver lists per dialect; when neither listing is complete
/// the clue is [`Verdict::Undecided`].
pub(crate) const MAX_LISTED: usize = 20_000;

/// What lint finds for one clue.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Verdict {
    /// Both dialects accept the same line strings.
    Same,
    /// `witness` is accepted by exactly one dialect: Python when `python` is true, else
    /// ECMAScript.
    Differs {
        /// A line string of the clue's length over the alphabet.
        witness: String,
        /// Whether Python accepts it (ECMAScript then does not), or the reverse.
        python: bool,
    },
    /// At least one dialect refuses the clue: each refusing dialect's error.
    Refused {
        /// Python's error, if it refuses the clue.
        python: Option<String>,
        /// ECMAScript's error, if it refuses the clue.
        ecmascript: Option<String>,
    },
    /// Not decided within lint's limits (the reason).
    Undecided(String),
}

/// One clue's verdict on a line of one length.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClueLint {
    /// The clue's label (`row 1 (left)`; `pool regex 3` for a regex of a pool).
    pub label: String,
    /// The clue.
    pub regex: String,
    /// Its line's length (a pool's regex is linted at each length of an entry).
    pub length: usize,
    /// How the dialects differ on it (the record `lint --json` prints); `None` when
    /// they accept the same line strings.
    pub verdict: Option<LintVerdict>,
}

impl Verdict {
    /// The verdict as the record has it; `None` for [`Verdict::Same`].
    fn record(self) -> Option<LintVerdict> {
        match self {
            Verdict::Same => None,
            Verdict::Differs { witness, python } => Some(LintVerdict::Differs { witness, python, ecmascript: !python }),
            Verdict::Refused { python, ecmascript } => Some(LintVerdict::Refused { python_error: python, ecmascript_error: ecmascript }),
            Verdict::Undecided(reason) => Some(LintVerdict::Undecided { reason }),
        }
    }
}

/// Lints every clue of `puzzle` over `alphabet` (default: the puzzle's, else the
/// characters its clues mention as its own dialect reads them, as `solve` infers it).
/// Returns a verdict per clue, in puzzle order. `cancel` is polled before each clue.
pub fn lint(source: &str, puzzle: &Puzzle, alphabet: Option<&[char]>, cancel: &crate::stop::Cancel) -> Result<Vec<ClueLint>> {
    let alphabet = lint_alphabet(source, puzzle, alphabet)?;
    // Every clue on its line, then every regex of a pool at each entry length.
    let mut lines: Vec<(String, &str, usize)> = puzzle.clues.iter().map(|c| (c.label.clone(), c.regex.as_str(), c.cells.len())).collect();
    if let Some(pool) = &puzzle.pool {
        let lengths: std::collections::BTreeSet<usize> = pool.entries.iter().map(Vec::len).collect();
        for (k, regex) in pool.regexes.iter().enumerate() {
            lines.extend(lengths.iter().map(|&len| (format!("pool regex {}", k + 1), regex.as_str(), len)));
        }
    }
    let mut done: HashMap<(&str, usize), Verdict> = HashMap::new();
    let mut out = Vec::with_capacity(lines.len());
    for (label, regex, length) in lines {
        cancel.check()?;
        let verdict = match done.get(&(regex, length)) {
            Some(v) => v.clone(),
            None => {
                let v = clue_verdict(regex, &alphabet, length)?;
                let _ = done.insert((regex, length), v.clone());
                v
            }
        };
        out.push(ClueLint { label, regex: regex.to_string(), length, verdict: verdict.record() });
    }
    Ok(out)
}

/// The alphabet: explicit, else inferred from the clues the puzzle's own dialect
/// parses (a clue it refuses is reported by [`lint`], not here).
fn lint_alphabet(source: &str, puzzle: &Puzzle, explicit: Option<&[char]>) -> Result<Alphabet> {
    let mut parsable = puzzle.clone();
    parsable.clues.retain(|c| dialect::parse(puzzle.dialect, &c.regex).is_ok());
    if let Some(pool) = &mut parsable.pool {
        pool.regexes.retain(|r| dialect::parse(puzzle.dialect, r).is_ok());
    }
    let trees = compile::parse_clues(source, &parsable)?;
    compile::choose_alphabet(source, &parsable, &trees, explicit)
}

/// One clue on a line of `len` cells.
fn clue_verdict(regex: &str, alphabet: &Alphabet, len: usize) -> Result<Verdict> {
    let parse = |d: Dialect| dialect::parse(d, regex);
    let (python, ecmascript) = match (parse(Dialect::Python), parse(Dialect::Ecmascript)) {
        (Ok(p), Ok(e)) => (p, e),
        (p, e) => {
            let message = |r: std::result::Result<Tree, dialect::ParseError>| {
                r.err().map(|e| match e {
                    dialect::ParseError::Python(e) => e.to_string(),
                    dialect::ParseError::Ecmascript(e) => e.to_string(),
                })
            };
            return Ok(Verdict::Refused { python: message(p), ecmascript: message(e) });
        }
    };
    let matchers = match (Matcher::new(&python), Matcher::new(&ecmascript)) {
        (Ok(p), Ok(e)) => [p, e],
        (p, e) => return Ok(Verdict::Refused { python: p.err(), ecmascript: e.err() }),
    };
    let check = |w: &[char]| -> Result<[bool; 2]> {
        let verdict =
            |m: &Matcher| m.fullmatch(w).map_err(|e| Error::Internal(format!("lint: {e} on \"{}\"", w.iter().collect::<String>())));
        Ok([verdict(&matchers[0])?, verdict(&matchers[1])?])
    };
    let differs = |w: &[char], v: [bool; 2]| Verdict::Differs { witness: w.iter().collect(), python: v[0] };
    // The same tree in both dialects, with back-references that mean the same in both
    // (`normalise_es::python_equivalent`): the same language.
    if let (Tree::Ecmascript(pattern), Ok(node)) =
        (&ecmascript, compile::normalise_tree(&python, alphabet, compile::normalise::Mode::Exact))
        && compile::normalise_es::python_equivalent(pattern, alphabet).is_some_and(|n| n == node)
    {
        return Ok(Verdict::Same);
    }
    if len == 0 {
        let v = check(&[])?;
        return Ok(if v[0] == v[1] { Verdict::Same } else { differs(&[], v) });
    }
    let opts = Options { tagged: false, ..Options::default() };
    let compiled = [&python, &ecmascript].map(|t| compile::classify::compile_clue(t, alphabet, len, opts));
    let [Ok(p), Ok(e)] = compiled else {
        let reason = compiled.into_iter().find_map(std::result::Result::err).map(|k| k.to_string()).unwrap_or_default();
        return Ok(Verdict::Undecided(reason));
    };
    let text = |w: &[usize]| -> Vec<char> { w.iter().map(|&x| alphabet.chars()[x]).collect() };
    if p.route != Route::Guarded && e.route != Route::Guarded {
        let Some(w) = difference(&p.automaton, &e.automaton, len) else { return Ok(Verdict::Same) };
        let w = text(&w);
        let v = check(&w)?;
        if v[0] == v[1] {
            return Err(Error::Internal(format!(
                "lint: the automata of '{regex}' differ on \"{}\" but the matchers agree",
                w.iter().collect::<String>()
            )));
        }
        return Ok(differs(&w, v));
    }
    let candidates = bounded::count(&p.automaton, len).saturating_add(bounded::count(&e.automaton, len));
    if candidates > MAX_CANDIDATES {
        return by_listing(regex, alphabet, len, &check);
    }
    let mut found = None;
    for a in [&p.automaton, &e.automaton] {
        let walked = bounded::for_each_string(a, len, &mut |w: &[usize]| -> Result<()> {
            let w = text(w);
            let v = check(&w)?;
            if v[0] != v[1] {
                found = Some(differs(&w, v));
                return Err(Error::Internal(String::new()));
            }
            Ok(())
        });
        match (walked, &found) {
            (Err(_), Some(_)) => break,
            (Err(e), None) => return Err(e),
            (Ok(()), _) => {}
        }
    }
    Ok(found.unwrap_or(Verdict::Same))
}

/// The languages compared through the solver, exact on every route: each dialect's
/// clue alone on a line, its line strings listed up to [`MAX_LISTED`]. When both
/// listings are complete they are compared; when only one is, with `m` strings, `m + 1`
/// strings of the other contain one the first dialect rejects, unless the other's
/// listing ends first (then both are complete).
fn by_listing(regex: &str, alphabet: &Alphabet, len: usize, check: &dyn Fn(&[char]) -> Result<[bool; 2]>) -> Result<Verdict> {
    let list = |d: Dialect, limit: usize| -> Result<(Vec<String>, bool)> {
        let puzzle = Puzzle {
            name: None,
            shape: Shape::Free { cells: len, coords: None },
            clues: vec![Clue { label: "clue".into(), regex: regex.to_string(), cells: (0..len).collect() }],
            alphabet: Some(alphabet.chars().to_vec()),
            givens: vec![None; len],
            pool: None,
            dialect: d,
        };
        let mut prep = crate::pipeline::prepare_puzzle("<lint>", puzzle, None, Times::default())?;
        let mut found = Vec::new();
        let outcome = crate::pipeline::solve(&mut prep, Some(limit), |_, g| {
            found.push(g.cells.iter().collect());
            Ok(())
        })?;
        Ok((found, outcome.complete))
    };
    let undecided = || Verdict::Undecided(format!("more than {MAX_LISTED} line strings in both dialects"));
    let verdict = |w: &str| -> Result<Option<Verdict>> {
        let chars: Vec<char> = w.chars().collect();
        let v = check(&chars)?;
        Ok((v[0] != v[1]).then(|| Verdict::Differs { witness: w.to_string(), python: v[0] }))
    };
    let (python, python_all) = list(Dialect::Python, MAX_LISTED)?;
    let (ecmascript, ecmascript_all) = list(Dialect::Ecmascript, MAX_LISTED)?;
    let (small, large) = match (python_all, ecmascript_all) {
        (false, false) => return Ok(undecided()),
        (true, false) => (python, ecmascript),
        (false, true) => (ecmascript, python),
        (true, true) if python.len() <= ecmascript.len() => (python, ecmascript),
        (true, true) => (ecmascript, python),
    };
    // Every string of the complete listing, then enough of the other's.
    for w in small.iter().chain(large.iter().take(small.len() + 1)) {
        if let Some(v) = verdict(w)? {
            return Ok(v);
        }
    }
    if large.len() > small.len() {
        return Err(Error::Internal(format!("lint: '{regex}' has more line strings in one dialect, but no witness was found")));
    }
    Ok(Verdict::Same)
}

/// A string of length `len` that exactly one of `a` and `b` accepts, by a layered walk
/// of their product (symbol indices).
fn difference(a: &Automaton, b: &Automaton, len: usize) -> Option<Vec<usize>> {
    let step = |m: &Automaton, s: u32, x: usize| if s == DEAD { DEAD } else { m.step(s, x) };
    let accepts = |m: &Automaton, s: u32| s != DEAD && m.accept[s as usize];
    // Each layer's pairs, with the index of the entry that reached them in `trail`.
    let mut trail: Vec<(usize, usize)> = vec![(usize::MAX, usize::MAX)];
    let mut layer: BTreeMap<(u32, u32), usize> = BTreeMap::from([((a.start, b.start), 0)]);
    let symbols = a.symbols.max(b.symbols);
    for _ in 0..len {
        let mut next: BTreeMap<(u32, u32), usize> = BTreeMap::new();
        for (&(sa, sb), &at) in &layer {
            for x in 0..symbols {
                let pair = (step(a, sa, x), step(b, sb, x));
                if pair == (DEAD, DEAD) || next.contains_key(&pair) {
                    continue;
                }
                trail.push((at, x));
                let _ = next.insert(pair, trail.len() - 1);
            }
        }
        layer = next;
    }
    let (_, &at) = layer.iter().find(|&(&(sa, sb), _)| accepts(a, sa) != accepts(b, sb))?;
    let mut word = Vec::with_capacity(len);
    let mut k = at;
    while trail[k].0 != usize::MAX {
        word.push(trail[k].1);
        k = trail[k].0;
    }
    word.reverse();
    Some(word)
}
