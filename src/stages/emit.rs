//! The **emit** stage: grids and summaries as records for programs ([`crate::records`],
//! printed as JSON Lines; people get the command line's drawings). The command line and the
//! browser's API print the same records.

use crate::puzzle::{Puzzle, Shape};
use crate::records::{self, Uniqueness};
use crate::solve::strategy::Count;
use crate::solve::{Outcome, Prepared};
use crate::verify::Grid;
use std::collections::BTreeSet;

/// `(entry, regex, word)` for each entry of a free layout or regex pool, in entry order.
pub(crate) fn entries(puzzle: &Puzzle, grid: &Grid) -> Vec<(String, String, String)> {
    match &puzzle.pool {
        Some(pool) => pool
            .entries
            .iter()
            .enumerate()
            .map(|(e, cells)| (pool.labels[e].clone(), pool.regexes[grid.assignment[e]].clone(), grid.word(cells)))
            .collect(),
        None => puzzle.clues.iter().map(|c| (c.label.clone(), c.regex.clone(), grid.word(&c.cells))).collect(),
    }
}

/// `{"type":"solution","grid":[rows…]}`, plus `"entries"` for free layouts and pools.
pub(crate) fn solution(puzzle: &Puzzle, grid: &Grid) -> records::Solution {
    let listed = matches!(puzzle.shape, Shape::Free { .. }) || puzzle.pool.is_some();
    records::Solution {
        grid: grid.rows(&puzzle.shape),
        entries: listed.then(|| {
            entries(puzzle, grid)
                .into_iter()
                .map(|(e, regex, word)| records::EntryWord { entry: records::Label::from(e), regex, word })
                .collect()
        }),
    }
}

/// `"unique"` of a summary: true when the search found one solution and was
/// exhausted, false when it found two, else null (not decided).
pub(crate) fn unique(o: Outcome) -> Uniqueness {
    Uniqueness::of(o.found, o.complete)
}

/// The puzzle's alphabet as one string.
pub(crate) fn alphabet_text(prep: &Prepared) -> String {
    prep.alphabet().chars().iter().collect()
}

/// The summary of `solve --json` after a search that ended (`values`: per cell, the
/// letters it takes in the solutions found), with the cells that differ.
pub(crate) fn solve_summary(prep: &Prepared, o: Outcome, values: &[BTreeSet<char>]) -> records::SolveSummary {
    let (ambiguous_cells, ambiguous_clues) = ambiguity(prep, values, false);
    records::SolveSummary {
        solutions: o.found,
        complete: o.complete,
        unique: unique(o),
        source: None,
        puzzle: prep.puzzle.name.clone(),
        alphabet: alphabet_text(prep),
        dialect: Some(prep.puzzle.dialect.to_string()),
        ambiguous_cells,
        ambiguous_clues,
        proof: None,
        stats: None,
    }
}

/// `"ambiguous_cells"` (each `{"cell", "values"}`, with the cell's `"id"` when `ids`)
/// and `"ambiguous_clues"` (the clues through them), when some cell takes more than
/// one letter in `values`.
pub(crate) fn ambiguity(
    prep: &Prepared,
    values: &[BTreeSet<char>],
    ids: bool,
) -> (Option<Vec<records::AmbiguousCell>>, Option<Vec<String>>) {
    let ambiguous: Vec<usize> = (0..values.len()).filter(|&c| values[c].len() > 1).collect();
    if ambiguous.is_empty() {
        return (None, None);
    }
    let cells = ambiguous
        .iter()
        .map(|&c| records::AmbiguousCell {
            cell: prep.puzzle.shape.cell_json(c),
            values: values[c].iter().map(char::to_string).collect(),
            id: ids.then_some(c),
        })
        .collect();
    (Some(cells), Some(ambiguous_clues(prep, values).into_iter().map(str::to_string).collect()))
}

/// The labels of the clues through a cell that takes more than one letter in `values`.
pub(crate) fn ambiguous_clues<'a>(prep: &'a Prepared, values: &[BTreeSet<char>]) -> Vec<&'a str> {
    let open = |c: &usize| values.get(*c).is_some_and(|v| v.len() > 1);
    prep.puzzle.clues.iter().filter(|clue| clue.cells.iter().any(open)).map(|clue| clue.label.as_str()).collect()
}

/// A count in JSON: a number up to 2^53 (exact in every JSON reader), else a string of
/// digits.
pub(crate) fn count_value(n: &crate::solve::count::Big) -> records::Count {
    records::Count::new(n.to_u64(), || n.to_string())
}

/// The summary of `solve --count --json`.
pub(crate) fn count_summary(prep: &Prepared, counted: &Count) -> records::CountSummary {
    let n = &counted.count;
    records::CountSummary {
        solutions: 0,
        count: count_value(n),
        complete: true,
        unique: n.to_u64() == Some(1),
        puzzle: prep.puzzle.name.clone(),
        alphabet: alphabet_text(prep),
        dialect: prep.puzzle.dialect.to_string(),
        counted_by: counted.listed.then(|| "listing".to_string()),
        stats: None,
    }
}

/// `--stats` of a prepared puzzle whose formula is built: stage times, the formula's
/// size, how the puzzle was decided (`searched`: whether the SAT search ran), the
/// difficulty (`known`: how many solutions the search showed) and each clue's sizes.
pub(crate) fn stats(prep: &Prepared, searched: bool, known: Option<usize>) -> crate::error::Result<records::Stats> {
    use crate::encode::ClauseSink;
    use crate::stats::ms;
    let f = prep.formula()?;
    let compiled = prep.compiled()?;
    let clues = prep
        .puzzle
        .clues
        .iter()
        .zip(&f.vars.clue_sizes)
        .zip(&compiled.clues)
        .map(|((c, s), cc)| records::ClueStats {
            clue: c.label.clone(),
            route: cc.route.name().to_string(),
            dfa_states: cc.raw_states,
            states: s.states,
            layered_states: s.layered_states,
            vars: s.vars,
            clauses: s.clauses,
        })
        .collect();
    Ok(records::Stats {
        times: records::StageTimes::from_fn(|s| ms(prep.times.get(s))),
        total_ms: ms(prep.times.total()),
        wall_ms: ms(prep.times.wall()),
        variables: f.cnf.num_vars(),
        clauses: f.cnf.num_clauses(),
        searched,
        decided_before_compiling: prep.decided_before_compiling(),
        line_search_nodes: prep.line_nodes(),
        difficulty: crate::deduce::rate::rate(&prep.puzzle, compiled).knowing(known),
        clues,
    })
}
