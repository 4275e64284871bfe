//! `check` and `hint` as every front end runs them: a player's grid in, and out the
//! records `crossat check --json` and `crossat hint --json` print, each handed over as it
//! is found, then the summary. The command line draws its text from these records, the
//! web page and Python return them.

use super::{Assistant, Conflict, Hint, Reason, wrong_entries};
use crate::error::{Error, Result};
use crate::pipeline::{self, Prepared};
use crate::records::{self, CheckRecord, CheckSummary, HintRecord, HintSummary};

/// What `check` adds to the records every front end gets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CheckOptions {
    /// A grid that can be completed in several ways: count them when the counting search
    /// settles it within this many decisions (the summary's `completions`, `null` when it
    /// does not); `None` leaves `completions` out.
    pub count_within: Option<usize>,
    /// A full grid that fails: say whether it passes in upper case (the summary's
    /// `upper_case_valid`).
    pub upper_case: bool,
}

/// What `hint` gives.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HintOptions {
    /// Every forced cell (the backbone), not only the next one.
    pub all: bool,
    /// With each hint, a minimal set of clues and filled cells that forces it (a
    /// player's next hint has the clues behind it without this).
    pub explain: bool,
}

/// A record with the clues it names, as indices into `Puzzle::clues` (a label alone can
/// stand for several clues: an entry of the native format may have more than one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Named<R> {
    /// The record, as `--json` prints it.
    pub record: R,
    /// The clues it names, in its order: a failure's clue; a wrong entry's clues; a
    /// hint's `because` clues, else its single-line clue; a summary's conflict clues,
    /// then (`check`) its `broken` clues.
    pub clues: Vec<usize>,
}

impl<R> Named<R> {
    fn bare(record: R) -> Named<R> {
        Named { record, clues: Vec::new() }
    }
}

/// An input error unless `grid` has one entry per cell of the puzzle.
fn one_per_cell(prep: &Prepared, grid: &[Option<char>]) -> Result<()> {
    let n = prep.puzzle.givens.len();
    if grid.len() != n {
        return Err(Error::input("grid", format!("{} cells given, the puzzle has {n}", grid.len())));
    }
    Ok(())
}

/// `crossat check` on a player's `grid` (`None`: an empty cell): for a full grid each
/// clue it fails, handed to `found` in puzzle order, then whether all match; for a
/// partial one the cells holding a character outside the alphabet, then whether the grid
/// can be completed, in one way or more, or which clues and cells conflict.
///
/// ```
/// use crossat::assist::CheckOptions;
/// use crossat::records::CheckRecord;
///
/// let text = r#"{"left": ["HE|LL|O+", "[PLEASE]+"], "top": ["[^SPEAK]+", "EP|IP|EF"]}"#;
/// let puzzle = crossat::Puzzle::read("beatles.json", text.as_bytes())?;
/// let mut failed = Vec::new();
/// let grid = [Some('H'), Some('E'), Some('L'), Some('L')];
/// let summary = puzzle.check_records(&grid, CheckOptions::default(), |f| {
///     if let CheckRecord::Failure(failure) = f.record {
///         failed.push(failure.clue);
///     }
///     Ok(())
/// })?;
/// assert_eq!(failed, ["column 2 (top)"]);
/// assert_eq!(summary.record.valid, Some(false));
/// # Ok::<(), crossat::Error>(())
/// ```
pub(crate) fn check(
    prep: &Prepared,
    grid: &[Option<char>],
    options: CheckOptions,
    mut found: impl FnMut(Named<CheckRecord>) -> Result<()>,
) -> Result<Named<CheckSummary>> {
    one_per_cell(prep, grid)?;
    let mut assistant = Assistant::new(prep)?;
    if grid.iter().all(Option::is_some) {
        let full: Vec<char> = grid.iter().map(|c| c.unwrap_or(' ')).collect();
        let failures = assistant.failures(&full)?;
        for failure in &failures {
            found(Named { record: CheckRecord::Failure(failure_record(prep, failure)), clues: vec![failure.0] })?;
        }
        let n = failures.len();
        // Letters are compared exactly; a grid typed in lower case is told so when its
        // upper-case form passes (the page upper-cases as it is typed).
        let upper: Vec<char> = full.iter().flat_map(|c| c.to_uppercase()).collect();
        let case_only = options.upper_case && n > 0 && upper.len() == full.len() && upper != full && assistant.failures(&upper)?.is_empty();
        return Ok(Named::bare(CheckSummary {
            valid: Some(n == 0),
            failures: Some(n),
            upper_case_valid: case_only.then_some(true),
            complete: true,
            ..CheckSummary::default()
        }));
    }
    let unknown: Vec<usize> = (0..grid.len()).filter(|&c| grid[c].is_some_and(|ch| prep.alphabet().index(ch).is_none())).collect();
    if !unknown.is_empty() {
        for &c in &unknown {
            let record = records::UnknownChar { cell: prep.puzzle.shape.cell_json(c), ch: grid[c].unwrap_or(' ').to_string() };
            found(Named::bare(CheckRecord::UnknownChar(record)))?;
        }
        return Ok(Named::bare(CheckSummary { completable: Some(false), ..CheckSummary::default() }));
    }
    Ok(match assistant.complete(grid)? {
        Some(one) => {
            let several = assistant.several(grid, &one)?;
            let completions = match options.count_within {
                None => None,
                Some(_) if !several => Some(Some(records::Count::Number(1))),
                Some(max) => Some(completions(prep, grid, max)?.as_ref().map(crate::emit::count_value)),
            };
            Named::bare(CheckSummary { completable: Some(true), unique_completion: Some(!several), completions, ..CheckSummary::default() })
        }
        None => {
            let k = assistant.conflict(grid)?;
            // Clues whose own line's entries already break them, beyond the core.
            let broken = assistant.broken_clues(grid)?;
            Named {
                record: CheckSummary {
                    completable: Some(false),
                    conflict: Some(conflict_record(prep, &k)),
                    broken: Some(labels(prep, &broken)),
                    ..CheckSummary::default()
                },
                clues: k.clues.iter().chain(&broken).copied().collect(),
            }
        }
    })
}

/// How many ways the filled cells of `grid` can be completed, when the counting search
/// settles it within `max` decisions (as `solve`'s "not unique: N solutions"); `None`
/// when that would take longer.
fn completions(prep: &Prepared, grid: &[Option<char>], max: usize) -> Result<Option<crate::solve::count::Big>> {
    let mut puzzle = prep.puzzle.clone();
    for (g, &c) in puzzle.givens.iter_mut().zip(grid) {
        *g = c.or(*g);
    }
    let mut filled = pipeline::prepare_puzzle(&prep.source, puzzle, Some(prep.alphabet().chars()), Default::default())?;
    pipeline::count_within(&mut filled, max)
}

/// `crossat hint` on a player's `grid` (`None`: the puzzle's own givens, as a setter
/// asks): a player's wrong entries first, handed to `found` each with the clues it
/// breaks (and nothing more when there are any); then, when the filled cells can be
/// completed, the next forced cell (`options.all`: every one), each with the clues and
/// filled cells behind it when a player asks or `options.explain`; then the summary,
/// with the conflict when the cells cannot be completed.
///
/// ```
/// use crossat::assist::HintOptions;
/// use crossat::records::HintRecord;
///
/// let text = r#"{"left": ["HE|LL|O+", "[PLEASE]+"], "top": ["[^SPEAK]+", "EP|IP|EF"]}"#;
/// let puzzle = crossat::Puzzle::read("beatles.json", text.as_bytes())?;
/// // Every forced cell of the empty grid, for a setter.
/// let mut forced = Vec::new();
/// let summary = puzzle.hint_records(None, HintOptions { all: true, explain: false }, |h| {
///     if let HintRecord::Hint(hint) = h.record {
///         forced.push(hint.ch);
///     }
///     Ok(())
/// })?;
/// assert_eq!(forced, ["H", "E", "L", "P"]);
/// assert_eq!(summary.record.hints, Some(4));
/// # Ok::<(), crossat::Error>(())
/// ```
pub(crate) fn hint(
    prep: &Prepared,
    grid: Option<&[Option<char>]>,
    options: HintOptions,
    mut found: impl FnMut(Named<HintRecord>) -> Result<()>,
) -> Result<Named<HintSummary>> {
    let givens = grid.unwrap_or(&prep.puzzle.givens);
    one_per_cell(prep, givens)?;
    let mut assistant = Assistant::new(prep)?;
    if grid.is_some() {
        let wrong = wrong_entries(prep, &mut assistant, givens)?;
        if !wrong.is_empty() {
            for (c, clues) in &wrong {
                let record = records::Wrong {
                    cell: prep.puzzle.shape.cell_json(*c),
                    ch: givens[*c].unwrap_or(' ').to_string(),
                    clues: labels(prep, clues),
                };
                found(Named { record: HintRecord::Wrong(record), clues: clues.clone() })?;
            }
            return Ok(Named::bare(HintSummary { completable: Some(false), wrong: Some(wrong.len()), ..HintSummary::default() }));
        }
    }
    if assistant.complete(givens)?.is_none() {
        let k = assistant.conflict(givens)?;
        let record = HintSummary { completable: Some(false), conflict: Some(conflict_record(prep, &k)), ..HintSummary::default() };
        return Ok(Named { record, clues: k.clues });
    }
    let hints: Vec<Hint> = if options.all { assistant.backbone(givens)? } else { assistant.hint(givens)?.into_iter().collect() };
    // A player's next hint always names the clues behind it.
    let player = grid.is_some() && !options.all;
    for h in &hints {
        let because = if options.explain {
            Some(assistant.explain(givens, h.cell, h.ch)?)
        } else if player {
            Some(assistant.because(givens, h)?)
        } else {
            None
        };
        let clues = match (&because, &h.reason) {
            (Some(k), _) => k.clues.clone(),
            (None, Reason::SingleLine(i)) => vec![*i],
            (None, _) => Vec::new(),
        };
        found(Named { record: HintRecord::Hint(hint_record(prep, h, because.as_ref())), clues })?;
    }
    let empty = givens.iter().filter(|g| g.is_none()).count();
    Ok(Named::bare(HintSummary { completable: Some(true), hints: Some(hints.len()), empty_cells: Some(empty), ..HintSummary::default() }))
}

/// A player's next forced cell with the clues behind it (`hint --json --grid`'s hint
/// record); `None` when the grid is full, an entry is wrong or it cannot be completed.
pub(crate) fn next_hint(prep: &Prepared, givens: &[Option<char>]) -> Result<Option<records::Hint>> {
    let mut next = None;
    let _ = hint(prep, Some(givens), HintOptions::default(), |h| {
        if let HintRecord::Hint(record) = h.record {
            next = Some(record);
        }
        Ok(())
    })?;
    Ok(next)
}

/// A clue a filled grid breaks ([`Assistant::failures`]) as `crossat check --json`
/// prints it.
fn failure_record(prep: &Prepared, (i, word, cell): &(usize, String, Option<usize>)) -> records::Failure {
    let clue = &prep.puzzle.clues[*i];
    records::Failure {
        clue: clue.label.clone(),
        regex: clue.regex.clone(),
        word: word.clone(),
        cell: cell.map(|c| prep.puzzle.shape.cell_json(c)),
    }
}

/// The labels of clues (indices into `Puzzle::clues`).
fn labels(prep: &Prepared, clues: &[usize]) -> Vec<String> {
    clues.iter().map(|&i| prep.puzzle.clues[i].label.clone()).collect()
}

/// A conflict as `check --json` and `hint --json` print it: the clues' labels and the cells.
fn conflict_record(prep: &Prepared, k: &Conflict) -> records::Conflict {
    records::Conflict { clues: labels(prep, &k.clues), cells: k.givens.iter().map(|&c| prep.puzzle.shape.cell_json(c)).collect() }
}

/// A hint as `hint --json` prints it, with the clues and cells behind it when known.
fn hint_record(prep: &Prepared, h: &Hint, because: Option<&Conflict>) -> records::Hint {
    let (reason, clue) = match h.reason {
        Reason::SingleLine(i) => (records::HintReason::SingleLine, Some(prep.puzzle.clues[i].label.clone())),
        Reason::Lines => (records::HintReason::Lines, None),
        Reason::Search => (records::HintReason::Search, None),
    };
    records::Hint {
        cell: prep.puzzle.shape.cell_json(h.cell),
        ch: h.ch.to_string(),
        reason,
        clue,
        because: because.map(|k| conflict_record(prep, k)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::{Input, prepare};
    use crate::records::Cell;

    fn prepared(text: &str) -> Prepared {
        prepare(&Input { source: "t.json".into(), bytes: text.as_bytes().to_vec(), ..Input::default() }).expect("prepares")
    }

    /// Every grid of the puzzle's cells over `letters` (`None`: an empty cell).
    fn grids(cells: usize, letters: &[Option<char>]) -> impl Iterator<Item = Vec<Option<char>>> + '_ {
        (0..letters.len().pow(cells as u32))
            .map(move |k| (0..cells).map(|c| letters[k / letters.len().pow(c as u32) % letters.len()]).collect())
    }

    /// The labels of clue indices.
    fn labels_of(prep: &Prepared, clues: &[usize]) -> Vec<String> {
        clues.iter().map(|&i| prep.puzzle.clues[i].label.clone()).collect()
    }

    /// A record's cell is one of the puzzle's, back by [`crate::puzzle::Shape::cell_at`].
    fn cell(prep: &Prepared, at: Cell) -> usize {
        let c = prep.puzzle.shape.cell_at((at[0], at[1])).unwrap_or_else(|| panic!("no cell at {at:?}"));
        assert_eq!(prep.puzzle.shape.cell_json(c), at);
        c
    }

    /// Every record's clue indices name the clues its labels name, in its order, and
    /// every cell it names is one of the puzzle's; the front ends draw from them. Two
    /// puzzles: unique labels, and a free layout whose entries share labels (an entry
    /// with several clues), where a failure's indices must also give its regex.
    #[test]
    fn each_record_names_its_clues_by_index_and_its_cells_by_position() {
        let beatles = r#"{"left": ["HE|LL|O+", "[PLEASE]+"], "top": ["[^SPEAK]+", "EP|IP|EF"]}"#;
        let shared = r#"{"layout": "free", "entries": [
            {"label": "a", "cells": [[0, 0], [0, 1]], "clues": ["[AC].", "[AB]B"]},
            {"label": "a", "cells": [[0, 0], [1, 0]], "clues": ["[AC][CD]"]},
            {"label": "b", "cells": [[0, 1], [1, 1]], "clues": ["B.", "(.)\\1"]},
            {"label": "c", "cells": [[1, 0], [1, 1]], "clues": ["[CD]B"]}]}"#;
        let cases: [(&str, &[Option<char>]); 2] = [
            (beatles, &[None, Some('H'), Some('E'), Some('L'), Some('P'), Some('x')]),
            (shared, &[None, Some('A'), Some('B'), Some('C'), Some('D'), Some('x')]),
        ];
        let mut seen = std::collections::BTreeSet::new();
        for (text, letters) in cases {
            let prep = prepared(text);
            for grid in grids(prep.puzzle.givens.len(), letters) {
                let options = CheckOptions { count_within: Some(100), upper_case: true };
                let summary = check(&prep, &grid, options, |found| {
                    match &found.record {
                        CheckRecord::Failure(f) => {
                            assert_eq!(found.clues.len(), 1, "{grid:?}");
                            let clue = &prep.puzzle.clues[found.clues[0]];
                            assert_eq!((&clue.label, &clue.regex), (&f.clue, &f.regex), "{grid:?}");
                            let _ = f.cell.map(|at| cell(&prep, at));
                            let _ = seen.insert("failure");
                        }
                        CheckRecord::UnknownChar(u) => {
                            assert!(found.clues.is_empty());
                            assert_eq!(grid[cell(&prep, u.cell)].map(String::from), Some(u.ch.clone()));
                            let _ = seen.insert("unknown");
                        }
                    }
                    Ok(())
                })
                .expect("checks");
                let mut want = summary.record.conflict.as_ref().map(|k| k.clues.clone()).unwrap_or_default();
                want.extend(summary.record.broken.clone().unwrap_or_default());
                assert_eq!(labels_of(&prep, &summary.clues), want, "{grid:?}");
                if let Some(k) = &summary.record.conflict {
                    k.cells.iter().for_each(|&at| assert!(grid[cell(&prep, at)].is_some(), "{grid:?}: a conflict names filled cells"));
                    let _ = seen.insert("check conflict");
                }
                for all in [false, true] {
                    let summary = hint(&prep, Some(&grid), HintOptions { all, explain: false }, |found| {
                        match &found.record {
                            HintRecord::Wrong(w) => {
                                assert_eq!(labels_of(&prep, &found.clues), w.clues, "{grid:?}");
                                let _ = cell(&prep, w.cell);
                                let _ = seen.insert("wrong");
                            }
                            HintRecord::Hint(h) => {
                                let want = match (&h.because, &h.clue) {
                                    (Some(k), _) => k.clues.clone(),
                                    (None, Some(clue)) => vec![clue.clone()],
                                    (None, None) => Vec::new(),
                                };
                                assert_eq!(labels_of(&prep, &found.clues), want, "{grid:?}");
                                assert!(grid[cell(&prep, h.cell)].is_none(), "{grid:?}: a hint is for an empty cell");
                                let _ = seen.insert(if all { "all" } else { "hint" });
                            }
                        }
                        Ok(())
                    })
                    .expect("hints");
                    let want = summary.record.conflict.as_ref().map(|k| k.clues.clone()).unwrap_or_default();
                    assert_eq!(labels_of(&prep, &summary.clues), want, "{grid:?}");
                }
            }
        }
        let kinds = ["all", "check conflict", "failure", "hint", "unknown", "wrong"];
        assert_eq!(seen, kinds.into_iter().collect(), "every kind of record was seen");
    }

    /// A grid of the wrong size is an input error, not a panic.
    #[test]
    fn a_grid_of_the_wrong_size_is_an_input_error() {
        let prep = prepared(r#"{"left": ["A|B", "B"], "top": ["A|B", "B"]}"#);
        assert!(matches!(check(&prep, &[None; 3], CheckOptions::default(), |_| Ok(())), Err(Error::Input(_))));
        assert!(matches!(hint(&prep, Some(&[None; 5]), HintOptions::default(), |_| Ok(())), Err(Error::Input(_))));
    }
}
