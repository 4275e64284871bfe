//! `explain`: the whole path from the givens to the answer, one deduction at a time,
//! ending in why the answer is the only one.
//!
//! The deductions come from the solve stage's engine ([`crate::deduce`]): line
//! steps, then case splits of depth 1 and 2 where lines stall. Where those do not
//! finish, the SAT search settles the open cells in one `search` step, which says what
//! the search found (one solution and its proof of uniqueness, several, or none):
//! the path never claims a deduction it did not make.

use crate::compile::Alphabet;
use crate::deduce::{self, Deduction, End, Engine, Kind, Step, Why, reason};
use crate::error::{Error, Result};
use crate::pipeline::{self, Prepared};
use crate::propagate::{self, SymSet};
use crate::records;

/// What an explanation shows in the end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Answer {
    /// The only solution (a character per cell).
    Unique(Vec<char>),
    /// No solution: the givens cannot be completed.
    None,
    /// More than one solution (the search found at least two).
    Several,
    /// Not known: the step limit was reached, or the search did not finish.
    Unknown,
}

/// A puzzle explained.
#[derive(Clone, Debug)]
pub(crate) struct Explanation {
    /// The deduction, with the search step appended where deduction stalled.
    pub deduction: Deduction,
    /// Whether every cell was forced by line steps and case splits alone.
    pub unique_by_deduction: bool,
    /// The answer.
    pub answer: Answer,
}

impl Explanation {
    /// The difficulty the steps show (`Deduction::difficulty`); hard when the search
    /// settled the answer, `None` when there is no single answer to rate.
    pub(crate) fn difficulty(&self) -> Option<crate::records::Difficulty> {
        match self.answer {
            Answer::Unique(_) => self.deduction.difficulty(),
            _ => None,
        }
    }

    /// Top-level steps of each kind: line, assign (a regex pool's), split, search.
    pub(crate) fn counts(&self) -> [(Kind, usize); 4] {
        [Kind::Line, Kind::Assign, Kind::Split, Kind::Search].map(|k| (k, self.deduction.count(k)))
    }
}

/// Explains `prep` from its givens (a player's partial grid is read as givens). A
/// regex pool's assignment is deduced with the letters: its entries' candidate regexes
/// follow the grid's cells in the steps' candidates ([`deduce::constraints`]).
pub(crate) fn explain(prep: &mut Prepared, opts: deduce::Options) -> Result<Explanation> {
    if let Some(pool) = prep.puzzle.pool.as_ref().filter(|p| p.regexes.len() > deduce::constraints::MAX_POOL) {
        return Err(Error::input_limit(
            &prep.source,
            format!(
                "explain shows the assignment of a regex pool of at most {} regexes; this pool has {}",
                deduce::constraints::MAX_POOL,
                pool.regexes.len()
            ),
        ));
    }
    let mut deduction = {
        let compiled = prep.compiled()?;
        let verifier = &prep.verifier;
        let matcher = |key: usize, word: &str| verifier.regex_matches(key, word).ok();
        let mut engine = Engine::new(&prep.puzzle, compiled, &matcher).with_cancel(prep.cancel().clone());
        let start = engine.with_entries(propagate::initial_domains(&prep.puzzle, compiled));
        engine.deduce(start, opts)?
    };
    let chars = prep.alphabet().chars().to_vec();
    let grid = prep.puzzle.givens.len();
    let (answer, by_deduction) = match deduction.end {
        End::Solved => {
            let cells: Vec<char> = deduction.doms[..grid].iter().map(|d| chars[d.iter().next().unwrap_or(0)]).collect();
            check_deduced(prep, &deduction.doms, &cells)?;
            (Answer::Unique(cells), true)
        }
        End::Contradiction { .. } => (Answer::None, true),
        End::StepLimit => (Answer::Unknown, false),
        End::Stalled => (search(prep, &mut deduction, &chars)?, false),
    };
    Ok(Explanation { deduction, unique_by_deduction: by_deduction && matches!(answer, Answer::Unique(_)), answer })
}

/// Re-checks a grid the steps fixed with the reference matcher, as every printed
/// solution is: each clue matches its line, and each pool entry's word matches one of
/// the regexes left to it (`doms` past the grid's cells). A failure is a bug in
/// crossat.
fn check_deduced(prep: &Prepared, doms: &[SymSet], cells: &[char]) -> Result<()> {
    let grid = crate::verify::Grid { cells: cells.to_vec(), assignment: Vec::new() };
    if let Some((i, word)) = prep.verifier.first_failure(&prep.puzzle, &grid)? {
        let clue = &prep.puzzle.clues[i];
        return Err(Error::Internal(format!("the deduced grid fails {} '{}' on \"{word}\"", clue.label, clue.regex)));
    }
    for (e, entry) in prep.puzzle.pool.iter().flat_map(|p| p.entries.iter().enumerate()) {
        let word = grid.word(entry);
        let left = doms[cells.len() + e];
        if !left.iter().any(|r| prep.verifier.pool_matches(r, &word).unwrap_or(false)) {
            return Err(Error::Internal(format!("the deduced grid's entry {} (\"{word}\") matches none of its regexes", e + 1)));
        }
    }
    Ok(())
}

/// The search step where deduction stalls: the SAT search for up to two solutions.
fn search(prep: &mut Prepared, deduction: &mut Deduction, chars: &[char]) -> Result<Answer> {
    let mut grids: Vec<Vec<char>> = Vec::new();
    let outcome = pipeline::solve(prep, Some(2), |_, grid| {
        grids.push(grid.cells.clone());
        Ok(())
    })?;
    // The grid's open cells (a pool's entries may stay open: the grid is the answer).
    let open: Vec<usize> = (0..prep.puzzle.givens.len()).filter(|&c| deduction.doms[c].len() > 1).collect();
    let answer = match (grids.len(), outcome.complete) {
        (0, true) => Answer::None,
        (1, true) => Answer::Unique(grids[0].clone()),
        (n, _) if n >= 2 => Answer::Several,
        _ => Answer::Unknown,
    };
    let mut step = Step {
        kind: Kind::Search,
        clue: None,
        cells: Vec::new(),
        removed: Vec::new(),
        remaining: Vec::new(),
        uses: Vec::new(),
        why: Why::Search { solutions: grids.len(), complete: outcome.complete },
        extra: false,
    };
    if let Answer::Unique(solution) = &answer {
        for &c in &open {
            let Some(x) = chars.iter().position(|&ch| ch == solution[c]).filter(|&x| deduction.doms[c].contains(x)) else {
                return Err(Error::Internal(format!("the search's solution uses a letter deduction removed from cell {c}")));
            };
            let mut only = SymSet::default();
            only.insert(x);
            step.cells.push(c);
            step.removed.push(deduce::minus(&deduction.doms[c], &only));
            step.remaining.push(only);
            deduction.doms[c] = only;
        }
        deduction.steps.push(step);
    }
    Ok(answer)
}

impl Answer {
    /// The answer in JSON: `unique`, `none`, `several` or `unknown`.
    pub(crate) fn record(&self) -> records::Answer {
        match self {
            Answer::Unique(_) => records::Answer::Unique,
            Answer::None => records::Answer::None,
            Answer::Several => records::Answer::Several,
            Answer::Unknown => records::Answer::Unknown,
        }
    }
}

/// The summary `crossat explain --json` prints after the steps: the answer, whether
/// it is unique by deduction, the steps of each kind, the difficulty, the grid when
/// unique and, for a regex pool, each entry's regex where the steps fixed it.
pub(crate) fn summary_record(prep: &Prepared, ex: &Explanation) -> records::ExplainSummary {
    let [line, assign, split, search] = ex.counts().map(|(_, n)| n);
    let grid = match &ex.answer {
        Answer::Unique(cells) => Some(prep.puzzle.shape.display_rows().iter().map(|r| r.iter().map(|&c| cells[c]).collect()).collect()),
        _ => None,
    };
    let assignment = match (&prep.puzzle.pool, assignment(prep, ex)) {
        (Some(pool), Some(regexes)) => Some(records::Pairs(pool.labels.iter().cloned().zip(regexes).collect())),
        _ => None,
    };
    records::ExplainSummary {
        answer: ex.answer.record(),
        unique_by_deduction: ex.unique_by_deduction,
        steps: ex.deduction.steps.len(),
        line,
        assign,
        split,
        search,
        difficulty: ex.difficulty(),
        grid,
        assignment,
    }
}

/// The letters of a set of symbols, in alphabet order.
pub(crate) fn letters(a: &Alphabet, s: &SymSet) -> String {
    s.iter().map(|x| a.chars()[x]).collect()
}

/// The regexes of a pool entry's candidates.
fn regexes(prep: &Prepared, s: &SymSet) -> Vec<String> {
    s.iter().map(|r| prep.puzzle.pool.as_ref().map_or(String::new(), |p| p.regexes[r].clone())).collect()
}

/// The pool's regex of each entry where deduction fixed it (`None` elsewhere).
pub(crate) fn assignment(prep: &Prepared, ex: &Explanation) -> Option<Vec<Option<String>>> {
    let grid = prep.puzzle.givens.len();
    prep.puzzle.pool.as_ref()?;
    Some(ex.deduction.doms[grid..].iter().map(|d| (d.len() == 1).then(|| regexes(prep, d).remove(0))).collect())
}

/// One step as `crossat explain --json` prints it (wrap it in [`records::StepRecord`]
/// at the top level); a split carries its sub-steps, numbered from 1 within it. A regex
/// pool's entries whose candidate regexes change are in `entries`.
pub(crate) fn step_record(prep: &Prepared, step: &Step, number: usize) -> records::Step {
    let a = prep.alphabet();
    let grid = prep.puzzle.givens.len();
    let on_grid = |k: &usize| step.cells[*k] < grid;
    let ks: Vec<usize> = (0..step.cells.len()).filter(on_grid).collect();
    let entries = (ks.len() < step.cells.len()).then(|| {
        (0..step.cells.len())
            .filter(|k| !on_grid(k))
            .map(|k| records::EntryChange {
                entry: deduce::constraints::cell_name(&prep.puzzle, step.cells[k]),
                removed: regexes(prep, &step.removed[k]),
                remaining: regexes(prep, &step.remaining[k]),
            })
            .collect()
    });
    let (assume, steps) = match &step.why {
        Why::Split { cell, letter, steps, .. } => {
            let assume = if *cell < grid {
                records::Assumption::Cell { cell: prep.puzzle.shape.cell_json(*cell), letter: a.chars()[*letter].to_string() }
            } else {
                records::Assumption::Entry {
                    entry: deduce::constraints::cell_name(&prep.puzzle, *cell),
                    regex: deduce::constraints::regex_text(&prep.puzzle, prep.puzzle.clues.len() + letter).to_string(),
                }
            };
            (Some(assume), Some(steps.iter().enumerate().map(|(k, s)| step_record(prep, s, k + 1)).collect()))
        }
        _ => (None, None),
    };
    records::Step {
        number,
        kind: step_kind(step.kind),
        line: step.clue.map(|i| deduce::constraints::label(&prep.puzzle, i)),
        cells: ks.iter().map(|&k| prep.puzzle.shape.cell_json(step.cells[k])).collect(),
        removed: ks.iter().map(|&k| letters(a, &step.removed[k])).collect(),
        remaining: ks.iter().map(|&k| letters(a, &step.remaining[k])).collect(),
        uses: step.uses.clone(),
        reason: reason::describe(&prep.puzzle, a, step),
        extra: step.extra,
        entries,
        assume,
        steps,
        clue: step.clue.filter(|&i| step.kind == Kind::Line && i < prep.puzzle.clues.len()),
    }
}

fn step_kind(k: Kind) -> records::StepKind {
    match k {
        Kind::Line => records::StepKind::Line,
        Kind::Assign => records::StepKind::Assign,
        Kind::Split => records::StepKind::Split,
        Kind::Search => records::StepKind::Search,
    }
}

/// The letter of each grid cell before the first step where it has only one (the
/// givens; every cell when the alphabet has one letter).
pub(crate) fn start_cells(prep: &Prepared, ex: &Explanation) -> Vec<Option<char>> {
    let chars = prep.alphabet().chars();
    let grid = prep.puzzle.givens.len();
    ex.deduction.start[..grid].iter().map(|d| (d.len() == 1).then(|| chars[d.iter().next().unwrap_or(0)])).collect()
}

/// The top-level steps of an explanation as `crossat explain --json` prints them.
pub(crate) fn step_records(prep: &Prepared, ex: &Explanation) -> Vec<records::StepRecord> {
    ex.deduction.steps.iter().enumerate().map(|(n, s)| records::StepRecord { step: step_record(prep, s, n + 1) }).collect()
}

#[cfg(test)]
mod tests;
