//! Live clue checking: for a partial grid, each clue is `satisfied` (its line is full
//! and the matcher accepts it), `possible` (some completion of the line's empty cells
//! over the alphabet matches), or `broken` (none does) — decided exactly:
//!
//! - a full line: the matcher of the puzzle's dialect (every solution is checked by it);
//! - a partial line whose automaton is exact: the automaton run on every completion at
//!   once (the set of states reachable after each cell);
//! - a partial line whose automaton only over-approximates the clue (back-references,
//!   lookarounds): the automaton first (when it rejects every completion, so does the
//!   clue), then every completion asked of the matcher when there are few, else the
//!   formula of the clue alone (a SAT call), when that formula is exact; when it is not
//!   (a clue of the counterexample route), such a line is `unknown`.
//!
//! A letter outside the puzzle's alphabet breaks the partial lines through it: no
//! solution can hold it.

use crossat::compile::{Automaton, Compiled, CompiledClue, DEAD};
use crossat::encode::{self, Cnf};
use crossat::pipeline::Prepared;
use crossat::propagate::SymSet;
use crossat::puzzle::Puzzle;
use crossat::solve::Oracle;
use std::collections::BTreeMap;

/// Completions of a line tried one by one with the matcher, at most.
const MATCHER_WORDS: usize = 4096;

/// The verdicts on lines of over-approximated clues, by clue and line contents: those
/// are the slow ones, and a player's typing changes few lines at a time.
pub type Cache = BTreeMap<(usize, Vec<Option<usize>>), State>;

pub use crossat::records::ClueStatus as State;

/// Whether the automaton accepts some completion of `line` (symbols; `None` empty).
fn automaton_allows(a: &Automaton, line: &[Option<usize>], symbols: usize) -> bool {
    if a.start == DEAD {
        return false;
    }
    let mut seen = vec![false; a.states()];
    let mut now = vec![a.start];
    for cell in line {
        let mut next = Vec::new();
        for &s in &now {
            let mut go = |t: u32| {
                if t != DEAD && !seen[t as usize] {
                    seen[t as usize] = true;
                    next.push(t);
                }
            };
            match *cell {
                Some(x) => go(a.step(s, x)),
                None => (0..symbols).for_each(|x| go(a.step(s, x))),
            }
        }
        for &t in &next {
            seen[t as usize] = false;
        }
        if next.is_empty() {
            return false;
        }
        now = next;
    }
    now.iter().any(|&s| a.accept[s as usize])
}

/// Whether the matcher accepts some completion of `line`; `None` when there are more
/// than [`MATCHER_WORDS`] completions.
fn matcher_allows(prep: &Prepared, clue: usize, line: &[Option<usize>]) -> crossat::Result<Option<bool>> {
    let chars = prep.alphabet().chars();
    let empty: Vec<usize> = (0..line.len()).filter(|&p| line[p].is_none()).collect();
    let total = (0..empty.len()).try_fold(1usize, |n, _| n.checked_mul(chars.len()).filter(|&n| n <= MATCHER_WORDS));
    let Some(total) = total else { return Ok(None) };
    let mut word: Vec<char> = line.iter().map(|x| x.map_or(' ', |x| chars[x])).collect();
    for k in 0..total {
        let mut rest = k;
        for &p in &empty {
            word[p] = chars[rest % chars.len()];
            rest /= chars.len();
        }
        if prep.verifier.clue_matches(clue, &word.iter().collect::<String>())? {
            return Ok(Some(true));
        }
    }
    Ok(Some(false))
}

/// Whether clue `i` alone accepts some completion of `line`, by a SAT call on the
/// formula of that clue alone (the encoding `crossat check` gates, with the line's
/// entries as domains); `None` when the clue's formula only over-approximates it (the
/// counterexample route).
fn sat_allows(prep: &Prepared, i: usize, line: &[Option<usize>]) -> crossat::Result<Option<bool>> {
    let compiled = prep.compiled()?;
    if !compiled.clues[i].route.exact() {
        return Ok(None);
    }
    let clue = &prep.puzzle.clues[i];
    let one = Puzzle { clues: vec![clue.clone()], ..prep.puzzle.clone() };
    let alone = Compiled { alphabet: compiled.alphabet.clone(), clues: vec![compiled.clues[i].clone()], pool: Vec::new() };
    let mut doms = vec![SymSet::full(prep.alphabet().len()); one.givens.len()];
    for (&c, x) in clue.cells.iter().zip(line) {
        if let Some(x) = *x {
            doms[c] = SymSet::default();
            doms[c].insert(x);
        }
    }
    let mut cnf = Cnf::new();
    let (_, selectors) = encode::encode_gated(&one, &alone, &doms, &mut cnf)?;
    Ok(Some(Oracle::new(&cnf).solve(&selectors)?.is_some()))
}

/// The status of every clue, in puzzle order (web/API.md).
pub fn status(prep: &Prepared, grid: &[Option<char>], cache: &mut Cache) -> crossat::Result<Vec<State>> {
    let puzzle = &prep.puzzle;
    let alphabet = prep.alphabet();
    let mut states = Vec::with_capacity(puzzle.clues.len());
    // The clues left to the gated formula: over-approximated, with many completions.
    let mut by_sat = Vec::new();
    for (i, clue) in puzzle.clues.iter().enumerate() {
        let filled: Vec<Option<char>> = clue.cells.iter().map(|&c| grid[c]).collect();
        if filled.iter().all(Option::is_some) {
            let word: String = filled.iter().flatten().collect();
            states.push(if prep.verifier.clue_matches(i, &word)? { State::Satisfied } else { State::Broken });
            continue;
        }
        let line: Vec<Option<Option<usize>>> = filled.iter().map(|g| g.map(|ch| alphabet.index(ch))).collect();
        if line.contains(&Some(None)) {
            states.push(State::Broken);
            continue;
        }
        let line: Vec<Option<usize>> = line.into_iter().map(Option::flatten).collect();
        let compiled: &CompiledClue = &prep.compiled()?.clues[i];
        if !compiled.approximate() {
            states.push(if automaton_allows(&compiled.automaton, &line, alphabet.len()) { State::Possible } else { State::Broken });
            continue;
        }
        if let Some(&known) = cache.get(&(i, line.clone())) {
            states.push(known);
            continue;
        }
        // The skeleton of a tagged clue reads markers too: only the regular
        // approximation of the counterexample route can rule a line out by itself.
        let state = if compiled.tagged.is_none() && !automaton_allows(&compiled.automaton, &line, alphabet.len()) {
            State::Broken
        } else {
            match matcher_allows(prep, i, &line)? {
                Some(true) => State::Possible,
                Some(false) => State::Broken,
                None => {
                    by_sat.push((i, line));
                    states.push(State::Unknown);
                    continue;
                }
            }
        };
        let _ = cache.insert((i, line), state);
        states.push(state);
    }
    for (i, line) in by_sat {
        if let Some(allowed) = sat_allows(prep, i, &line)? {
            states[i] = if allowed { State::Possible } else { State::Broken };
            let _ = cache.insert((i, line), states[i]);
        }
    }
    Ok(states)
}
