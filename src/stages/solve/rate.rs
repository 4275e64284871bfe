//! The difficulty rater: how hard a puzzle is for a person solving it line by line
//! ([`rate`]). It replays the reasoning a person uses — propagate every line's
//! possibilities, then probe (try a letter, see a line fail), then search — and counts
//! what each step needed ([`Rating`]). It lives in the solve stage because both
//! `crossat generate` (which aims at a difficulty) and `crossat solve --stats` (which
//! reports one) rate puzzles.

use super::words::{RATE_EXACT_WORDS, exact_support};
use crate::compile::Compiled;
use crate::propagate::{self, SymSet};
use crate::puzzle::Puzzle;

/// How hard a puzzle is to solve by hand (see [`rate`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Difficulty {
    /// Line by line: propagating each line's possibilities solves it.
    Easy,
    /// Line by line, plus trying a letter in a cell and seeing a line fail.
    Medium,
    /// Needs search beyond that.
    Hard,
}

impl Difficulty {
    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
        }
    }
}

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
    /// Whether the proof finished within [`MAX_DECISIONS`] decisions and
    /// [`MAX_PROBES`] probes (if not, the class is `hard` and the counts are lower bounds).
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

    /// The class's name, or `None` when the proof finished and found no solution or
    /// several: difficulty measures a proof of uniqueness, which such a puzzle has none of.
    pub fn class(&self) -> Option<&'static str> {
        (!self.complete || self.solutions == 1).then(|| self.difficulty.name())
    }

    /// The numbers as JSON (`--json` of `generate`, `solve --stats`); `class` is null
    /// when the puzzle is unrated (see [`Rating::class`]).
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({"class": self.class(), "cells": self.cells, "by_lines": self.by_lines,
            "by_probing": self.by_probing, "probes": self.probes, "decisions": self.decisions,
            "solutions": self.solutions, "complete": self.complete})
    }
}

/// Most probes [`rate`] makes; beyond, the puzzle is hard and the proof incomplete.
pub const MAX_PROBES: usize = 20_000;

/// Most search decisions [`rate`] makes; beyond, the proof is incomplete.
pub const MAX_DECISIONS: usize = 1_000;

/// Line propagation over a puzzle's clues (and pool entries), from any domains, with
/// the counts of a rating's proof.
struct Lines<'a> {
    puzzle: &'a Puzzle,
    compiled: &'a Compiled,
    /// The constraints and the cells they hold.
    prop: propagate::Propagator,
    /// Propagation's buffers, kept across the many probes.
    scratch: std::cell::RefCell<propagate::Scratch>,
    /// Exact matchers for the leaves, when some clue is only approximated by
    /// propagation (back-references, lookarounds) or the puzzle has a pool.
    verifier: Option<crate::verify::Verifier>,
    probes: usize,
    decisions: usize,
    solutions: usize,
    complete: bool,
}

impl<'a> Lines<'a> {
    fn new(puzzle: &'a Puzzle, compiled: &'a Compiled) -> Lines<'a> {
        let inexact = puzzle.pool.is_some() || compiled.clues.iter().any(|c| c.tagged.is_some());
        let verifier = if inexact {
            crate::compile::parse_clues("<rated>", puzzle).and_then(|p| crate::verify::Verifier::from_parsed("<rated>", puzzle, &p)).ok()
        } else {
            None
        };
        Lines {
            puzzle,
            compiled,
            prop: propagate::Propagator::new(puzzle),
            scratch: Default::default(),
            verifier,
            probes: 0,
            decisions: 0,
            solutions: 0,
            complete: true,
        }
    }

    /// Propagates to a fixpoint, starting from the constraints `start`; `false` when
    /// a cell has no letter left. A line of a clue with back-references or lookarounds
    /// is narrowed exactly (every word its cells allow, up to [`RATE_EXACT_WORDS`], tried
    /// with the independent matcher).
    fn propagate(&self, doms: &mut [SymSet], start: &[usize]) -> bool {
        let exact = |i: usize, line: &[SymSet], _: &[SymSet]| {
            let v = self.verifier.as_ref()?;
            self.compiled.clues[i].tagged.as_ref()?;
            exact_support(self.compiled, v, i, line, RATE_EXACT_WORDS)
        };
        self.prop.narrow_with(&mut self.scratch.borrow_mut(), self.compiled, doms, start, exact).is_ok()
    }

    /// Probing to a fixpoint: every letter of every undecided cell is tried, and
    /// ruled out when line propagation then fails. `false` when a cell has no letter
    /// left.
    fn probe(&mut self, doms: &mut [SymSet]) -> bool {
        loop {
            let mut changed = false;
            for c in 0..doms.len() {
                if doms[c].len() <= 1 {
                    continue;
                }
                let mut left = SymSet::default();
                for a in doms[c].iter() {
                    if self.probes >= MAX_PROBES {
                        self.complete = false;
                        return true;
                    }
                    self.probes += 1;
                    let mut trial = doms.to_vec();
                    trial[c] = one(a);
                    if self.propagate(&mut trial, &self.prop.of_cell[c]) {
                        left.insert(a);
                    }
                }
                if left != doms[c] {
                    doms[c] = left;
                    if left.is_empty() || !self.propagate(doms, &self.prop.of_cell[c]) {
                        return false;
                    }
                    changed = true;
                }
            }
            if !changed {
                return true;
            }
        }
    }

    /// Whether the grid of single letters `doms` is a solution.
    fn is_solution(&self, doms: &[SymSet]) -> bool {
        let Some(v) = &self.verifier else { return true };
        let chars = self.compiled.alphabet.chars();
        let cells: Vec<char> = doms.iter().map(|d| d.iter().next().map_or('\0', |a| chars[a])).collect();
        let grid = crate::verify::Grid { cells, assignment: vec![] };
        if self.puzzle.pool.is_some() {
            // Which pool regex goes where is not decided here: clues only.
            return self.puzzle.clues.iter().enumerate().all(|(i, c)| v.clue_matches(i, &grid.word(&c.cells)).unwrap_or(true));
        }
        v.failures(self.puzzle, &grid).map(|f| f.is_empty()).unwrap_or(true)
    }

    /// The proof: probing, then a decision on the undecided cell with fewest letters,
    /// each letter in turn, until two solutions are found or every branch is closed.
    fn search(&mut self, mut doms: Vec<SymSet>) {
        if !self.probe(&mut doms) || !self.complete {
            return;
        }
        let Some(c) = (0..doms.len()).filter(|&c| doms[c].len() > 1).min_by_key(|&c| doms[c].len()) else {
            if self.is_solution(&doms) {
                self.solutions += 1;
            }
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
            if self.propagate(&mut trial, &self.prop.of_cell[c]) {
                self.search(trial);
            }
        }
    }
}

/// The set of the one symbol `a`.
fn one(a: usize) -> SymSet {
    let mut s = SymSet::default();
    s.insert(a);
    s
}

/// Rates a puzzle as a person solving it would find it:
///
/// - **easy**: propagating every line's possibilities to a fixpoint (each clue keeps the
///   letters some match of its line can use, given the other cells' letters; see
///   `docs/encoding.md`) fixes every cell;
/// - **medium**: not easy, but *probing* finishes it: a letter is tried in an undecided
///   cell and the lines propagated; when that fails the letter is ruled out; repeated
///   until nothing changes;
/// - **hard**: anything else — a proof of uniqueness needs search *decisions*: a cell
///   left with several letters is split into them, each branch propagated and probed
///   in turn, until every branch but the solution's fails. [`Rating::decisions`]
///   counts them.
///
/// Back-references and lookarounds propagate through a relaxation (what their groups
/// captured is ignored), so a branch that ends with one letter per cell is checked by
/// the independent matcher.
pub fn rate(puzzle: &Puzzle, compiled: &Compiled) -> Rating {
    let cells = puzzle.givens.len();
    let mut lines = Lines::new(puzzle, compiled);
    let mut doms = propagate::initial_domains(puzzle, compiled);
    let all: Vec<usize> = (0..lines.prop.lines.len()).collect();
    let fixed = |d: &[SymSet]| d.iter().filter(|s| s.len() == 1).count();
    let mut rating =
        Rating { difficulty: Difficulty::Hard, cells, by_lines: 0, by_probing: 0, probes: 0, decisions: 0, solutions: 0, complete: true };
    if !lines.propagate(&mut doms, &all) {
        return rating;
    }
    rating.by_lines = fixed(&doms);
    if rating.by_lines == cells {
        rating.by_probing = cells;
        rating.solutions = usize::from(lines.is_solution(&doms));
        rating.difficulty = Difficulty::Easy;
        return rating;
    }
    let mut probed = doms.clone();
    let ok = lines.probe(&mut probed);
    rating.by_probing = if ok { fixed(&probed) } else { rating.by_lines };
    if ok && lines.complete && rating.by_probing == cells {
        rating.difficulty = Difficulty::Medium;
        rating.solutions = usize::from(lines.is_solution(&probed));
    } else if ok && lines.complete {
        lines.search(probed);
        rating.solutions = lines.solutions;
    }
    rating.probes = lines.probes;
    rating.decisions = lines.decisions;
    rating.complete = lines.complete;
    rating
}
