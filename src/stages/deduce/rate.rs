//! The difficulty rater: how hard a puzzle is for a person solving it line by line
//! ([`rate`]). The class is the one `crossat explain`'s steps show (line steps alone,
//! case splits of depth 1, or more), computed with the same engine's fixpoints
//! (`super::closure`) without choosing and wording the steps; the proof of a
//! hard puzzle's uniqueness adds search decisions, and [`Rating`] counts what each
//! part needed. It lives in the solve stage because both
//! `crossat generate` (which aims at a difficulty) and `crossat solve --stats` (which
//! reports one) rate puzzles.

use super::Engine;
use super::closure::{Probes, one};
use super::constraints::MAX_POOL;
use crate::compile::{Alphabet, Compiled};
use crate::propagate::{self, SymSet};
use crate::puzzle::Puzzle;
use crate::verify::Verifier;

pub use super::Difficulty;

/// A puzzle's difficulty, with the numbers behind it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rating {
    /// The class.
    pub difficulty: Difficulty,
    /// Cells of the grid.
    pub cells: usize,
    /// Cells fixed by line propagation alone.
    pub by_lines: usize,
    /// Cells fixed by line propagation with probing.
    pub by_probing: usize,
    /// Probes made (a letter tried in a cell, then the lines propagated), in the
    /// whole proof.
    pub probes: usize,
    /// Search decisions the proof of uniqueness made: a cell split into its letters
    /// where propagation and probing left a choice (0 for easy and medium puzzles).
    pub decisions: usize,
    /// Solutions the proof found (at most 2).
    pub solutions: usize,
    /// Whether the proof finished within `MAX_DECISIONS` decisions and
    /// `MAX_PROBES` probes (if not, the class is `hard` and the counts are lower bounds).
    pub complete: bool,
}

impl Rating {
    /// One line for people.
    pub fn describe(&self) -> String {
        let d = format!("{} search decision{}", self.decisions, if self.decisions == 1 { "" } else { "s" });
        let proof = match (self.complete, self.solutions) {
            (false, _) => format!("the proof stopped at its limits after {d}"),
            (true, 0) => format!("no solution ({d})"),
            (true, 1) => format!("uniqueness proof: {d}"),
            (true, _) => format!("not unique ({d})"),
        };
        format!(
            "{}: line propagation fixes {} of {} cells, with probing {} ({} probes); {proof}",
            self.class().unwrap_or("unrated"),
            self.by_lines,
            self.cells,
            self.by_probing,
            self.probes
        )
    }

    /// The rating, knowing how many solutions (0, 1, or 2 for several) another search
    /// that was exhausted or found two has shown: a puzzle with none or several is
    /// unrated (see [`Rating::class`]) even when the proof stopped at its limits before
    /// it could tell. `solve --stats` and `generate` rate with what their search found.
    pub fn knowing(mut self, solutions: Option<usize>) -> Rating {
        if let Some(n) = solutions.map(|n| n.min(2))
            && n != 1
        {
            self.solutions = n;
            self.complete = true;
        }
        self
    }

    /// The class's name, or `None` when the puzzle has no solution or several (shown by
    /// the proof, or by another search: [`Rating::knowing`]): difficulty measures a
    /// proof of uniqueness, which such a puzzle has none of.
    pub fn class(&self) -> Option<&'static str> {
        (!self.complete || self.solutions == 1).then(|| self.difficulty.name())
    }

    /// The numbers as a record (`--json` of `generate`, `solve --stats`); `class` is
    /// null when the puzzle is unrated (see [`Rating::class`]).
    pub fn record(&self) -> crate::records::Rating {
        crate::records::Rating {
            class: self.class().map(str::to_string),
            cells: self.cells,
            by_lines: self.by_lines,
            by_probing: self.by_probing,
            probes: self.probes,
            decisions: self.decisions,
            solutions: self.solutions,
            complete: self.complete,
        }
    }
}

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
pub fn rate(puzzle: &Puzzle, compiled: &Compiled) -> Rating {
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
