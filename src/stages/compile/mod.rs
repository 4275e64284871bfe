//! The **compile** stage: every clue → an automaton over the puzzle alphabet, bounded by
//! the length of its line.
//!
//! This file is the driver: `parse_clues` (each clue's tree in the puzzle's
//! dialect, [`crate::dialect`]: `re._parser`'s by [`crate::regex::parser`], or the
//! ECMAScript parser's), `choose_alphabet`, `compile` (each clue once per
//! line length, equal and renamed clues shared) and `positions` (the clues' position
//! automata, for propagation before compiling). Per clue, `compile` runs three
//! passes:
//!
//! 1. `normalise`: the parsed tree → a flag-free `Node` over the alphabet (or a
//!    regular over-approximation of it); `normalise_es` for an ECMAScript clue;
//! 2. `classify`: choose the route (regular, bounded, tagged, guarded);
//! 3. build the route's automaton. Regular trees take the DFA route (`dfa`): a subset
//!    construction over the tree's positions (`glushkov`), else the tree fitted to
//!    the line (`bounded`) and translated to a `regex_syntax` HIR for regex-automata's
//!    dense DFA (a lazy DFA walked to the line's length when the dense one is too
//!    large). Back-references are expanded where they are regular (`expand`), or
//!    become markers of a tagged skeleton (`skeleton`); clues equal up to renamed
//!    symbols compile once (`rename`).
//!
//! Every table is an `Automaton` (`automaton`: the type, `DEAD`, `trim`),
//! minimised by `minimize`; `fxhash` holds the hash map the builders share.
//!
//! Limits (each failure is a clear error naming the clue): NFA and DFA builders get
//! `BUILD_SIZE_LIMIT` bytes, the explicit table `MAX_STATES` states.

pub(crate) mod alphabet;
pub(crate) mod automaton;
pub(crate) mod bounded;
pub(crate) mod classify;
pub(crate) mod dfa;
pub(crate) mod expand;
pub(crate) mod fxhash;
pub(crate) mod glushkov;
pub(crate) mod minimize;
pub(crate) mod normalise;
pub(crate) mod normalise_es;
pub(crate) mod rename;
pub(crate) mod skeleton;

pub(crate) use alphabet::Alphabet;
pub(crate) use automaton::Automaton;
pub(crate) use automaton::DEAD;
pub(crate) use automaton::MAX_STATES;
pub(crate) use automaton::trim;
pub(crate) use classify::Options;
pub(crate) use classify::Route;
pub(crate) use dfa::{always_nullable, min_len, thompson_nfa, to_hir};
pub(crate) use dfa::{clue_automaton, determinize, fitted_automaton};
pub(crate) use fxhash::FastMap;
pub(crate) use minimize::minimize;

use crate::dialect::{self, Tree};
use crate::error::{ClueError, ClueErrorKind, Error, Result};
use crate::puzzle::Puzzle;
use crate::regex::ast::Node;
use crate::regex::parser;
use crate::regex::syntax::{Item, Parsed, RepeatKind};
use crate::stop::Cancel;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// One compiled clue.
#[derive(Clone, Debug)]
pub(crate) struct CompiledClue {
    /// The automaton (trimmed; minimal unless `glushkov` built a large table); for a
    /// tagged clue, the skeleton over the alphabet, then the markers, then the idle
    /// symbol.
    pub automaton: Automaton,
    /// Markers, slots and lookarounds of a clue with back-references or lookarounds.
    pub tagged: Option<skeleton::Tagged>,
    /// States of the DFA restricted to the alphabet, before trimming and minimising.
    pub raw_states: usize,
    /// How the clue is encoded.
    pub route: Route,
}

impl CompiledClue {
    /// Whether the automaton only over-approximates the clue (a tagged skeleton, which
    /// ignores the registers in propagation, or the counterexample route's regular
    /// approximation): a line it accepts must still be asked of the matcher, and a
    /// grid the matcher rejects on this clue is a counterexample, not a bug.
    pub(crate) fn approximate(&self) -> bool {
        matches!(self.route, Route::Tagged | Route::Guarded)
    }
}

/// Output of the compile stage.
#[derive(Clone, Debug)]
pub(crate) struct Compiled {
    /// The alphabet every automaton reads.
    pub alphabet: Alphabet,
    /// One entry per clue, in puzzle order.
    pub clues: Vec<CompiledClue>,
    /// Per pool regex, its automaton for each entry length.
    pub pool: Vec<BTreeMap<usize, CompiledClue>>,
}

/// Parses every clue, then every regex of the pool, in the puzzle's dialect (Python's
/// as `re._parser` does); the error names the clue and gives the dialect's reason.
pub(crate) fn parse_clues(source: &str, puzzle: &Puzzle) -> Result<Vec<Tree>> {
    (0..regex_count(puzzle))
        .map(|i| dialect::parse(puzzle.dialect, regex_text(puzzle, i)).map_err(|e| clue_error(source, puzzle, i, parse_error(e))))
        .collect()
}

/// A dialect's refusal of a clue, as a clue error's kind.
pub(crate) fn parse_error(e: dialect::ParseError) -> ClueErrorKind {
    match e {
        dialect::ParseError::Python(e) => syntax_error(&e),
        dialect::ParseError::Ecmascript(e) => ClueErrorKind::Syntax {
            message: format!("invalid ECMAScript regular expression: {}", e.message),
            position: Some(e.position),
            exception: None,
        },
    }
}

/// A clue's tree normalised over `alphabet` ([`normalise`], [`normalise_es`]).
pub(crate) fn normalise_tree(tree: &Tree, alphabet: &Alphabet, mode: normalise::Mode) -> std::result::Result<Node, normalise::Hard> {
    match tree {
        Tree::Python(p) => normalise::normalise(p, alphabet, mode),
        Tree::Ecmascript(p) => normalise_es::normalise(p, alphabet, mode),
    }
}

/// Clues, then pool regexes.
fn regex_count(puzzle: &Puzzle) -> usize {
    puzzle.clues.len() + puzzle.pool.as_ref().map_or(0, |p| p.regexes.len())
}

fn regex_text(puzzle: &Puzzle, i: usize) -> &str {
    match puzzle.clues.get(i) {
        Some(c) => &c.regex,
        None => puzzle.pool.as_ref().map_or("", |p| &p.regexes[i - puzzle.clues.len()]),
    }
}

fn clue_error(source: &str, puzzle: &Puzzle, i: usize, kind: ClueErrorKind) -> Error {
    let clue = puzzle.clues.get(i).map_or_else(|| format!("pool regex {}", i - puzzle.clues.len() + 1), |c| c.label.clone());
    Error::from(ClueError { source: source.to_string(), clue, regex: regex_text(puzzle, i).to_string(), kind })
}

/// Python's refusal as a clue error: `re.error` (and the other exceptions Python
/// raises) is a syntax error, crossat's own caps on length and nesting are limits.
fn syntax_error(e: &parser::ParseError) -> ClueErrorKind {
    let exception = match e.kind {
        parser::ErrorKind::Overflow => Some("OverflowError"),
        parser::ErrorKind::Value => Some("ValueError"),
        parser::ErrorKind::Nesting | parser::ErrorKind::Length => return ClueErrorKind::Limit(e.to_string()),
        parser::ErrorKind::Re => None,
    };
    ClueErrorKind::Syntax { message: e.msg.clone(), position: e.pos, exception }
}

/// Chooses the alphabet: the explicit one (`--alphabet` or the puzzle's), else the
/// characters the clues and givens mention.
pub(crate) fn choose_alphabet(source: &str, puzzle: &Puzzle, parsed: &[Tree], explicit: Option<&[char]>) -> Result<Alphabet> {
    let explicit = explicit.or(puzzle.alphabet.as_deref());
    let chars: BTreeSet<char> = match explicit {
        Some(chars) => {
            let set: BTreeSet<char> = chars.iter().copied().collect();
            if let Some((c, g)) = puzzle.givens.iter().enumerate().find_map(|(c, g)| g.filter(|g| !set.contains(g)).map(|g| (c, g))) {
                return Err(Error::input(source, format!("given '{g}' in cell {} is not in the alphabet", puzzle.shape.cell_name(c))));
            }
            set
        }
        None => {
            let mut set = BTreeSet::new();
            for (i, r) in parsed.iter().enumerate() {
                match r {
                    Tree::Python(r) => alphabet::mentioned(&r.items, &mut set),
                    Tree::Ecmascript(p) => normalise_es::mentioned(p, regex_text(puzzle, i), &mut set),
                }
                .map_err(|m| clue_error(source, puzzle, i, ClueErrorKind::Limit(m)))?;
            }
            set.extend(puzzle.givens.iter().flatten());
            set
        }
    };
    Alphabet::new(chars).map_err(|m| Error::input(source, m))
}

/// Compiles every clue to an automaton over `alphabet`, bounded by its line's length.
pub(crate) fn compile(source: &str, puzzle: &Puzzle, parsed: &[Tree], alphabet: Alphabet) -> Result<Compiled> {
    compile_with(source, puzzle, parsed, alphabet, Options::default())
}

/// `compile` with the routes of `classify` restricted by `opts`.
pub(crate) fn compile_with(source: &str, puzzle: &Puzzle, parsed: &[Tree], alphabet: Alphabet, opts: Options) -> Result<Compiled> {
    compile_cancellable(source, puzzle, parsed, alphabet, opts, &Cancel::never())
}

/// [`compile_with`], polling `cancel` before each clue.
pub(crate) fn compile_cancellable(
    source: &str,
    puzzle: &Puzzle,
    parsed: &[Tree],
    alphabet: Alphabet,
    opts: Options,
    cancel: &Cancel,
) -> Result<Compiled> {
    let build = |i: usize, len: usize| -> Result<CompiledClue> {
        cancel.check()?;
        classify::compile_clue(&parsed[i], &alphabet, len, opts).map_err(|m| clue_error(source, puzzle, i, m))
    };
    // Equal clues on lines of equal length compile once (rows 2–6 of good_ol_days, the
    // repeated rows of hamlet or exterminate): the result depends only on the parsed
    // clue, the alphabet and the length.
    let mut seen: HashMap<(&str, usize), usize> = HashMap::new();
    let mut clues: Vec<CompiledClue> = Vec::with_capacity(puzzle.clues.len());
    // Clues equal up to a renaming of the symbols compile once too ([`rename`]).
    let mut family = rename::Family::new(parsed, &alphabet);
    for (i, clue) in puzzle.clues.iter().enumerate() {
        let len = clue.cells.len();
        let compiled = match seen.get(&(clue.regex.as_str(), len)) {
            Some(&j) if parsed[j] == parsed[i] => clues[j].clone(),
            _ => match family.renamed(i, len, clue.regex.as_str(), &clues) {
                Some(c) => c,
                None => build(i, len)?,
            },
        };
        family.add(i, len, clue.regex.as_str(), &compiled);
        let _ = seen.entry((clue.regex.as_str(), len)).or_insert(i);
        clues.push(compiled);
    }
    // Each pool regex, for every entry length it may be assigned to.
    let mut pool = Vec::new();
    if let Some(p) = &puzzle.pool {
        let lengths: BTreeSet<usize> = p.entries.iter().map(Vec::len).collect();
        for r in 0..p.regexes.len() {
            let i = puzzle.clues.len() + r;
            pool.push(lengths.iter().map(|&len| Ok((len, build(i, len)?))).collect::<Result<BTreeMap<_, _>>>()?);
        }
    }
    Ok(Compiled { alphabet, clues, pool })
}

/// Each clue's position automaton on its line ([`glushkov::positions`]), for line
/// propagation before compiling: `None` unless every clue has one (no pool; no
/// lookaround or assertion; back-references only to single-character groups).
pub(crate) fn positions(puzzle: &Puzzle, parsed: &[Tree], alphabet: &Alphabet) -> Option<Vec<glushkov::Positions>> {
    // A cheap look at the parsed clues first: normalising every clue before the one
    // that has no position automaton would be work lost.
    if puzzle.pool.is_some() || !parsed.iter().all(may_have_positions) {
        return None;
    }
    let mut seen: HashMap<(&str, usize), usize> = HashMap::new();
    let mut out: Vec<glushkov::Positions> = Vec::with_capacity(puzzle.clues.len());
    for (i, clue) in puzzle.clues.iter().enumerate() {
        let len = clue.cells.len();
        if let Some(&j) = seen.get(&(clue.regex.as_str(), len))
            && parsed[j] == parsed[i]
        {
            out.push(out[j].clone());
            continue;
        }
        let node = normalise_tree(&parsed[i], alphabet, normalise::Mode::Exact).ok()?;
        out.push(glushkov::positions(&node, alphabet, len)?);
        let _ = seen.entry((clue.regex.as_str(), len)).or_insert(i);
    }
    Some(out)
}

/// Whether a parsed clue may have a position automaton: none of the constructs it
/// cannot take (anchors and boundaries, lookarounds, conditionals, atomic groups,
/// possessive repeats), and back-references only to groups of one character (as
/// parsed; normalising decides the rest). An ECMAScript clue's normalised tree decides
/// (it has no back-reference or lookaround when exact).
fn may_have_positions(tree: &Tree) -> bool {
    match tree {
        Tree::Python(p) => python_may_have_positions(p),
        Tree::Ecmascript(_) => true,
    }
}

fn python_may_have_positions(parsed: &Parsed) -> bool {
    fn constructs_ok(items: &[Item], groups: &mut Vec<(u32, bool)>, refs: &mut Vec<u32>) -> bool {
        items.iter().all(|it| match it {
            Item::At(_) | Item::Atomic(_) | Item::GroupRefExists { .. } | Item::Assert { .. } => false,
            Item::Repeat { kind: RepeatKind::Possessive, .. } => false,
            Item::Subpattern { group, items, .. } => {
                if let Some(k) = group {
                    groups.push((*k, one_char(items)));
                }
                constructs_ok(items, groups, refs)
            }
            Item::Repeat { items, .. } => constructs_ok(items, groups, refs),
            Item::Branch(alts) => alts.iter().all(|a| constructs_ok(a, groups, refs)),
            Item::GroupRef(k) => {
                refs.push(*k);
                true
            }
            Item::Literal(_) | Item::NotLiteral(_) | Item::Any | Item::In(_) => true,
        })
    }
    fn one_char(items: &[Item]) -> bool {
        match items {
            [Item::Literal(_) | Item::NotLiteral(_) | Item::Any | Item::In(_)] => true,
            [Item::Branch(alts)] => alts.iter().all(|a| one_char(a)),
            [Item::Subpattern { group: None, items, .. }] => one_char(items),
            _ => false,
        }
    }
    let (mut groups, mut refs) = (Vec::new(), Vec::new());
    constructs_ok(&parsed.items, &mut groups, &mut refs) && refs.iter().all(|k| groups.iter().any(|&(g, one)| g == *k && one))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The alphabet's table for ASCII characters finds what a search finds.
    #[test]
    fn alphabet_index_agrees_with_search() {
        let alphabet = Alphabet::new("\n !AZaz09-~\u{7f}éΩ中".chars()).expect("alphabet");
        for c in (0u32..0x300).chain([0x3a9, 0x4e2d, 0x10ffff]).filter_map(char::from_u32) {
            assert_eq!(alphabet.index(c), alphabet.chars().binary_search(&c).ok(), "{c:?}");
        }
    }
}
