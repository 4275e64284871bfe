//! The difficulty rater: how hard a puzzle is for a person solving it line by line
//! ([`rate`]). The class is the one `crossat explain`'s steps show (line steps alone,
//! case splits of depth 1, or more), computed with the same engine's fixpoints
//! (`super::closure`) without choosing and wording the steps; the proof of a
//! hard puzzle's uniqueness adds search decisions, and the [`Rating`] counts what each
//! part needed. The rater lives in a stage because both `crossat generate` (which aims
//! at a difficulty) and `crossat solve --stats` (which reports one) rate puzzles; the
//! rating is a record ([`crate::records::Rating`]), which both print as it is.

use super::Engine;
use super::closure::{Probes, one};
use super::constraints::MAX_POOL;
use crate::compile::{Alphabet, Compiled};
use crate::propagate::{self, SymSet};
use crate::puzzle::Puzzle;
use crate::records::{Difficulty, Rating};
use crate::verify::Verifier;

/// Most probes the search for a hard puzzle's proof makes after the first probing;
/// beyond, the proof is incomplete.
pub(crate) const MAX_PROBES: usize = 20_000;

/// Most search decisions [`rate`] makes; beyond, the proof is incomplete.
pub(crate) const MAX_DECISIONS: usize = 1_000;

/// The proof of a hard puzzle: probing, then a decision on the undecided cell with
/// fewest letters, each letter in turn, until two solutions are found or every
/// branch is closed.
struct Proof<'e, 'a> {
    engine: &'e Engine<'a>,
    puzzle: &'e Puzzle,
    alphabet: &'e Alphabet,
    verifier: Option<&'e Verifier>,
    probes: Probes,
    decisions: usize,
    solutions: usize,
    complete: bool,
}

impl Proof<'_, '_> {
    fn search(&mut self, mut doms: Vec<SymSet>) {
        match self.engine.probe(&mut doms, &mut self.probes) {
            None => {
                self.complete = false;
                return;
            }
            Some(false) => return,
            Some(true) => {}
        }
        // Decisions on the grid's cells: once they are fixed, the closures have shown
        // that some assignment of a regex pool fits them.
        let Some(c) = (0..self.engine.grid_cells()).filter(|&c| doms[c].len() > 1).min_by_key(|&c| doms[c].len()) else {
            self.solutions += usize::from(is_solution(self.puzzle, self.alphabet, self.verifier, &doms));
            return;
        };
        if self.decisions >= MAX_DECISIONS {
            self.complete = false;
            return;
        }
        self.decisions += 1;
        for a in doms[c].iter() {
            if self.solutions >= 2 || !self.complete {
                return;
            }
            let mut trial = doms.clone();
            trial[c] = one(a);
            if self.engine.settle(&mut trial, Some(&[c])) {
                self.search(trial);
            }
        }
    }
}

/// Whether the grid of single letters `doms` (the grid's cells first) is a solution (asked of the matcher when
/// some clue's automaton only approximates it; a pool's assignment is not decided here).
fn is_solution(puzzle: &Puzzle, alphabet: &Alphabet, verifier: Option<&Verifier>, doms: &[SymSet]) -> bool {
    let Some(v) = verifier else { return true };
    let chars = alphabet.chars();
    let cells: Vec<char> = doms[..puzzle.givens.len()].iter().map(|d| d.iter().next().map_or('\0', |a| chars[a])).collect();
    let grid = crate::verify::Grid { cells, assignment: vec![] };
    if puzzle.pool.is_some() {
        return puzzle.clues.iter().enumerate().all(|(i, c)| v.clue_matches(i, &grid.word(&c.cells)).unwrap_or(true));
    }
    v.failures(puzzle, &grid).map(|f| f.is_empty()).unwrap_or(true)
}

/// Rates a puzzle by the kinds of step its explanation needs (`super::Deduction::difficulty`
/// states the classes; `crossat explain` shows the steps):
///
/// - **easy**: line steps alone solve it — each clue keeps the letters some word of
///   its line over the current candidates uses, to a fixpoint (`Engine::settle`);
/// - **medium**: not easy, but line steps and case splits of depth 1 solve it: a letter
///   is tried in an undecided cell (a *probe*) and goes when the line steps then leave
///   a cell empty, to a fixpoint (`Engine::probe`);
/// - **hard**: anything else — a deeper case split or the search. The proof of
///   uniqueness then needs search *decisions*: a cell left with several letters is
///   split into them, each branch closed by lines and probes in turn, until every
///   branch but the solution's fails. [`Rating::decisions`] counts them.
///
/// Both fixpoints are unique, so the class does not depend on the order of the steps:
/// it is the one the explanation ends with. Lines are narrowed exactly (the matcher
/// asked of each word of a clue that only it decides, as in the explanation).
pub(crate) fn rate(puzzle: &Puzzle, compiled: &Compiled) -> Rating {
    let inexact = puzzle.pool.is_some() || compiled.clues.iter().any(|c| c.approximate());
    let verifier = if inexact {
        crate::compile::parse_clues("<rated>", puzzle).and_then(|p| Verifier::from_parsed("<rated>", puzzle, &p)).ok()
    } else {
        None
    };
    let matcher = |key: usize, word: &str| verifier.as_ref()?.regex_matches(key, word).ok();
    let engine = Engine::new(puzzle, compiled, &matcher);
    let cells = puzzle.givens.len();
    let fixed = |d: &[SymSet]| d[..cells].iter().filter(|s| s.len() == 1).count();
    let mut rating =
        Rating { difficulty: Difficulty::Hard, cells, by_lines: 0, by_probing: 0, probes: 0, decisions: 0, solutions: 0, complete: true };
    if puzzle.pool.as_ref().is_some_and(|p| p.regexes.len() > MAX_POOL) {
        // Beyond the pools whose assignment the steps show: unrated.
        rating.complete = false;
        return rating;
    }
    // The grid's candidates, then (a regex pool's) each entry's candidate regexes.
    let mut doms = engine.with_entries(propagate::initial_domains(puzzle, compiled));
    if doms.iter().any(SymSet::is_empty) || !engine.settle(&mut doms, None) {
        return rating;
    }
    rating.by_lines = fixed(&doms);
    if rating.by_lines == cells {
        rating.by_probing = cells;
        rating.solutions = usize::from(is_solution(puzzle, &compiled.alphabet, verifier.as_ref(), &doms));
        rating.difficulty = Difficulty::Easy;
        return rating;
    }
    let mut probes = Probes::default();
    let ok = engine.probe(&mut doms, &mut probes) == Some(true);
    rating.probes = probes.made;
    if !ok {
        rating.by_probing = rating.by_lines;
        return rating;
    }
    rating.by_probing = fixed(&doms);
    if rating.by_probing == cells {
        rating.difficulty = Difficulty::Medium;
        rating.solutions = usize::from(is_solution(puzzle, &compiled.alphabet, verifier.as_ref(), &doms));
        return rating;
    }
    let limit = Some(probes.made + MAX_PROBES);
    let mut proof = Proof {
        engine: &engine,
        puzzle,
        alphabet: &compiled.alphabet,
        verifier: verifier.as_ref(),
        probes: Probes { limit, ..probes },
        decisions: 0,
        solutions: 0,
        complete: true,
    };
    proof.search(doms);
    rating.probes = proof.probes.made;
    rating.decisions = proof.decisions;
    rating.solutions = proof.solutions;
    rating.complete = proof.complete;
    rating
}
