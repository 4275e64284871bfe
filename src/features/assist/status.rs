//! Live clue checking, as the web page shows it while a player types: for a partial grid, each clue is `satisfied` (its line is full
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

use crate::compile::{Automaton, Compiled, CompiledClue, DEAD};
use crate::encode::{self, Cnf};
use crate::error::{Error, Result};
use crate::pipeline::Prepared;
use crate::propagate::SymSet;
use crate::puzzle::Puzzle;
use crate::solve::Oracle;
use std::collections::BTreeMap;

/// Completions of a line tried one by one with the matcher, at most.
const MATCHER_WORDS: usize = 4096;

/// The verdicts on lines of over-approximated clues, by clue and line contents: those
/// are the slow ones, and a player's typing changes few lines at a time.
pub(crate) type Cache = BTreeMap<(usize, Vec<Option<usize>>), State>;

use crate::records::ClueStatus as State;

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
fn matcher_allows(prep: &Prepared, clue: usize, line: &[Option<usize>]) -> Result<Option<bool>> {
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
fn sat_allows(prep: &Prepared, i: usize, line: &[Option<usize>]) -> Result<Option<bool>> {
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

/// The status of every clue of `prep` on a player's partial `grid` (`None`: an empty
/// cell), in puzzle order; `cache` keeps the slow verdicts between calls on one puzzle.
pub(crate) fn status(prep: &Prepared, grid: &[Option<char>], cache: &mut Cache) -> Result<Vec<State>> {
    let puzzle = &prep.puzzle;
    if grid.len() != puzzle.givens.len() {
        return Err(Error::input("grid", format!("{} cells given, the puzzle has {}", grid.len(), puzzle.givens.len())));
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::{Input, prepare};

    /// Every partial grid of small puzzles (each cell empty, a letter, or a letter
    /// outside the alphabet), against brute force: a clue is satisfied when its full
    /// line matches, possible when some completion of its line over the alphabet
    /// matches and the line holds no letter outside it, else broken — the matcher
    /// deciding each word.
    #[test]
    fn status_is_the_brute_force_verdict_on_every_partial_grid() {
        let puzzles = [
            // Regular clues (the automaton decides partial lines).
            r#"{"left": ["[AB]*", "A.|.A"], "top": ["[^B]*", "(A|B)B"], "alphabet": "AB"}"#,
            // Back-references and a lookahead (over-approximated: matcher and SAT).
            r#"{"left": ["(.)\\1", "(?=.A).."], "top": ["(.)(?!\\1).", "A*B*"], "alphabet": "ABC"}"#,
        ];
        for text in puzzles {
            let prep = prepare(&Input { source: "t.json".into(), bytes: text.as_bytes().to_vec(), ..Input::default() }).expect("prepares");
            let letters: Vec<Option<char>> =
                std::iter::once(None).chain(prep.alphabet().chars().iter().copied().map(Some)).chain([Some('x')]).collect();
            let cells = prep.puzzle.givens.len();
            let mut cache = Cache::new();
            let mut grids = 0;
            for k in 0..letters.len().pow(cells as u32) {
                let grid: Vec<Option<char>> = (0..cells).map(|c| letters[k / letters.len().pow(c as u32) % letters.len()]).collect();
                let got = status(&prep, &grid, &mut cache).expect("status");
                for (i, clue) in prep.puzzle.clues.iter().enumerate() {
                    let line: Vec<Option<char>> = clue.cells.iter().map(|&c| grid[c]).collect();
                    let mut words = vec![String::new()];
                    for cell in &line {
                        let options: Vec<char> = match cell {
                            Some(ch) => vec![*ch],
                            None => prep.alphabet().chars().to_vec(),
                        };
                        words = words.iter().flat_map(|w| options.iter().map(move |ch| format!("{w}{ch}"))).collect();
                    }
                    let matches = words.iter().any(|w| prep.verifier.clue_matches(i, w).expect("matches"));
                    // A letter no solution can hold breaks every partial line through it.
                    let foreign = line.iter().flatten().any(|&ch| prep.alphabet().index(ch).is_none());
                    let want = match (line.iter().all(Option::is_some), matches) {
                        (true, true) => State::Satisfied,
                        (false, true) if !foreign => State::Possible,
                        _ => State::Broken,
                    };
                    assert_eq!(got[i], want, "{text}: clue {} on {line:?}", clue.regex);
                }
                grids += 1;
            }
            assert!(grids >= 256, "{text}: {grids} grids");
        }
    }

    /// A line with more completions than the matcher is asked about goes to the SAT
    /// call on the clue's formula alone; its verdicts are the brute force's.
    #[test]
    fn long_lines_of_over_approximated_clues_are_decided_by_the_clues_formula() {
        let text = r#"{"left": ["(....)\\1"], "top": [".", ".", ".", ".", ".", ".", ".", "."], "alphabet": "ABCDEFGHIJKLMNOPQRSTUVWXYZ"}"#;
        let prep = prepare(&Input { source: "t.json".into(), bytes: text.as_bytes().to_vec(), ..Input::default() }).expect("prepares");
        assert!(prep.alphabet().len().pow(4) > MATCHER_WORDS, "four empty cells must be too many for the matcher");
        let clue = &prep.compiled().expect("compiled").clues[0];
        assert!(clue.approximate() && clue.route.exact(), "the clue's automaton must over-approximate it, its formula not");
        for (row, want) in [
            ("........", State::Possible),
            ("A.......", State::Possible),
            ("A...A...", State::Possible),
            ("A...B...", State::Broken),
            ("...Z...Y", State::Broken),
            ("..QR..QR", State::Possible),
            ("ABQRABQR", State::Satisfied),
            ("ABQRABQS", State::Broken),
        ] {
            let grid: Vec<Option<char>> = row.chars().map(|c| (c != '.').then_some(c)).collect();
            let got = status(&prep, &grid, &mut Cache::new()).expect("status");
            assert_eq!(got[0], want, "{row}");
        }
        assert!(matches!(status(&prep, &[None; 4], &mut Cache::new()), Err(Error::Input(_))), "a grid of the wrong size");
    }
}
