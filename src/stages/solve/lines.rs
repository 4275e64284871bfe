//! The line search: a depth-first search over the cells that keeps every line arc
//! consistent ([`Propagator`]), tried before the CNF is built.
//!
//! Most puzzles that line propagation leaves undecided need only a few decisions; a
//! search over the same line automata settles them without building a formula or
//! loading it into the SAT solver, which on a small puzzle costs more than the search.
//! The search is complete: a letter leaves a cell only when no run of some clue's
//! automaton can use it (every automaton accepts at least its clue's matches), and
//! every cell of the grid is tried with every letter left. So when it ends within its
//! budget, the grids it found are all the solutions (up to the number asked for). On a
//! puzzle it cannot finish within [`MAX_NODES`] nodes it gives up, and the caller
//! falls back to the SAT search, which is better at learning from conflicts.
//!
//! Cells are chosen by *dom/wdeg*: fewest letters left per weight of the lines through
//! them, a line's weight growing each time its propagation empties a cell.

use super::Outcome;
use super::counterexample::verdict;
use super::decided::grid_of;
use super::odometer::{EXACT_WORDS, exact_support};
use super::prepared::Prepared;
use crate::clock::Instant;
use crate::compile::{Compiled, CompiledClue};
use crate::error::Result;
use crate::propagate::{MAX_TABLE_WORDS, Propagator, Scratch, SymSet};
use crate::puzzle::Puzzle;
use crate::stats::Stage;
use crate::stop::Cancel;
use crate::verify::Grid;

/// Most nodes (decisions) the line search takes before it gives up, when every
/// clue's automaton is exact (so propagation keeps each line arc consistent, as unit
/// propagation does on the CNF): about a minute of search.
pub(crate) const MAX_NODES: usize = 1_000_000;

/// Most nodes when some clue's automaton over-approximates it (back-references,
/// lookarounds): none. Propagation is then weaker than on the CNF, whose tagged
/// encoding is exact, and each step costs matcher calls (the exact narrowing of a
/// line of at most 256 words): the SAT search is the quicker on every such puzzle
/// measured (MIT, `good_ol_days`, `brain_fucking`, and `player_puzzle_references` while its clues were tagged).
pub(crate) const MAX_NODES_INEXACT: usize = 0;

/// [`crate::pipeline::solve`] by the line [`search`] for up to `want` grids, before any
/// formula is built; `None`, having printed nothing, when it does not apply (a regex
/// pool, a formula given by the caller) or gives up after [`MAX_NODES`]
/// nodes. Each grid it reaches is checked by the matcher as a model would be: a
/// failure on a clue whose automaton over-approximates it rejects the grid.
pub(crate) fn solve_lines(
    prep: &mut Prepared,
    want: usize,
    emit: &mut impl FnMut(&Puzzle, &Grid) -> Result<()>,
) -> Result<Option<Outcome>> {
    if !prep.direct || prep.puzzle.pool.is_some() || want == 0 {
        return Ok(None);
    }
    let Some(doms) = prep.domains.as_deref() else { return Ok(None) };
    let start = Instant::now();
    let (puzzle, compiled, verifier) = (&prep.puzzle, prep.compiled()?, &prep.verifier);
    let lines = Propagator::new(puzzle);
    let exact = !compiled.clues.iter().any(CompiledClue::approximate);
    let max_nodes = prep.line_budget.unwrap_or(if exact { MAX_NODES } else { MAX_NODES_INEXACT });
    let searched = search(
        &lines,
        compiled,
        doms,
        Bounds { want, max_nodes, cancel: &prep.cancel },
        |i, _, support| exact_support(compiled, verifier, i, support, EXACT_WORDS),
        |cells| verdict(puzzle, || Ok(compiled), verifier, &grid_of(&compiled.alphabet, cells)),
    );
    let elapsed = start.elapsed();
    prep.times.add(Stage::Solve, elapsed);
    prep.times.add_wall(elapsed);
    let Some(searched) = searched? else { return Ok(None) };
    prep.line_nodes = Some(searched.nodes);
    // Every grid found passed the matcher in the search (`verdict`).
    for cells in &searched.grids {
        prep.cancel().check()?;
        emit(&prep.puzzle, &grid_of(&prep.alphabet, cells))?;
    }
    // As after a search stopped at its limit: reaching `want` claims nothing more.
    Ok(Some(Outcome { found: searched.grids.len(), complete: searched.complete }))
}

/// What a finished line search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Searched {
    /// The grids found (a symbol per cell), each accepted by the caller's check.
    pub grids: Vec<Vec<usize>>,
    /// Whether the search was exhausted, so that `grids` are all the solutions.
    pub complete: bool,
    /// Nodes visited.
    pub nodes: usize,
}

/// How far [`search`] goes: up to `want` grids, at most `max_nodes` nodes, polling
/// `cancel` every 64 nodes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bounds<'a> {
    /// Most grids to find.
    pub want: usize,
    /// Most nodes before giving up.
    pub max_nodes: usize,
    /// Polled every 64 nodes.
    pub cancel: &'a Cancel,
}

/// Searches from `doms` (already propagated) for up to `want` grids that `accept`
/// takes; `None` when the search needs more than `max_nodes` nodes ([`Bounds`]). `refine` narrows a
/// line's support as in [`Propagator::narrow`]; `accept` sees each grid where every
/// cell has one letter left and says whether it is a solution (the automata of
/// back-reference and lookaround clues over-approximate them).
///
/// One array of domains is narrowed in place and restored from a trail of changes on
/// the way back, and the decisions are an explicit stack, so memory grows with the
/// number of cells, not with its square, and deep searches need no deep call stack.
pub(crate) fn search(
    lines: &Propagator,
    compiled: &Compiled,
    doms: &[SymSet],
    bounds: Bounds<'_>,
    mut refine: impl FnMut(usize, &[SymSet], &[SymSet]) -> Option<Vec<SymSet>>,
    mut accept: impl FnMut(&[usize]) -> Result<bool>,
) -> Result<Option<Searched>> {
    let Bounds { want, max_nodes, cancel } = bounds;
    let root = doms;
    let mut doms = root.to_vec();
    let mut scratch = Scratch::default();
    // The lines' tables are made at the first node, not before: a search that takes
    // none (a zero budget, or domains already decided) would not use them.
    let mut tabulated = false;
    let mut weight = vec![1u32; lines.lines.len()];
    let mut grids = Vec::new();
    // Open decisions: the cell, the letters not yet tried, the trail mark before it.
    let mut stack: Vec<(usize, SymSet, usize)> = Vec::new();
    let mut nodes = 0usize;
    loop {
        // Here `doms` is propagated and no cell is empty.
        match pick(lines, &weight, &doms) {
            Some(cell) => stack.push((cell, doms[cell], scratch.mark())),
            None => {
                let grid: Vec<usize> = doms.iter().map(|d| d.iter().next().unwrap_or(0)).collect();
                if accept(&grid)? {
                    grids.push(grid);
                    if grids.len() >= want {
                        return Ok(Some(Searched { grids, complete: false, nodes }));
                    }
                }
            }
        }
        // The next letter to try, backing up past exhausted decisions.
        loop {
            let Some((cell, rest, mark)) = stack.last_mut() else {
                return Ok(Some(Searched { grids, complete: true, nodes }));
            };
            let (cell, mark) = (*cell, *mark);
            scratch.undo(&mut doms, mark);
            let Some(x) = rest.iter().next() else {
                let _ = stack.pop();
                continue;
            };
            rest.remove(x);
            let mut one = SymSet::default();
            one.insert(x);
            nodes += 1;
            if nodes > max_nodes {
                return Ok(None);
            }
            if nodes.is_multiple_of(64) {
                cancel.check()?;
            }
            if !std::mem::replace(&mut tabulated, true) {
                scratch.tabulate(lines, compiled, root, MAX_TABLE_WORDS);
            }
            scratch.set(&mut doms, cell, one);
            match lines.narrow_with(&mut scratch, compiled, &mut doms, &lines.of_cell[cell], &mut refine) {
                Err(crate::propagate::Wipeout { line }) => weight[line] += 1,
                Ok(()) => break,
            }
        }
    }
}

/// The undecided cell with the fewest letters per weight of its lines (`None` when
/// every cell has one letter).
fn pick(lines: &Propagator, weight: &[u32], doms: &[SymSet]) -> Option<usize> {
    let mut best: Option<(usize, u64, u64)> = None;
    for (c, d) in doms.iter().enumerate() {
        let n = d.len() as u64;
        if n < 2 {
            continue;
        }
        let w: u64 = lines.of_cell[c].iter().map(|&i| u64::from(weight[i])).sum::<u64>().max(1);
        // n / w < bn / bw, compared without division.
        if best.is_none_or(|(_, bn, bw)| n * bw < bn * w) {
            best = Some((c, n, w));
        }
    }
    best.map(|(c, _, _)| c)
}

/// The line search finds what the SAT search finds, and what trying every grid with
/// the matcher finds. That brute force judges grids with crossat's own matcher (the
/// verifier that also filters solver output); the matcher is cross-checked against
/// CPython's `re.fullmatch` on every clue and line string it was asked about, in the
/// same test.
#[cfg(test)]
mod tests {
    use crate::pipeline::{self, Input, Prepared};
    use crate::test_support::python_verdicts;
    use crate::verify::Grid;
    use std::collections::{BTreeMap, BTreeSet};

    /// Up to `limit` grids of `solve`, as rows, and the outcome; `budget` bounds the line
    /// search (0: the SAT search alone).
    fn solve(text: &str, limit: usize, budget: Option<usize>) -> (BTreeSet<Vec<String>>, usize, bool, Option<usize>) {
        let mut prep = prepare(text);
        if let Some(b) = budget {
            prep.set_line_budget(b);
        }
        let mut set = BTreeSet::new();
        let outcome = pipeline::solve(&mut prep, Some(limit), |p, g| {
            let _ = set.insert(g.rows(&p.shape));
            Ok(())
        })
        .expect("solve");
        (set, outcome.found, outcome.complete, prep.line_nodes())
    }

    fn prepare(text: &str) -> Prepared {
        pipeline::prepare(&Input { source: "<test>".into(), bytes: text.as_bytes().to_vec(), ..Input::default() }).expect("prepare")
    }

    /// Every grid over `alphabet` that the matcher accepts on every clue; each verdict of
    /// the matcher is recorded in `asked` for the cross-check against CPython.
    fn brute_force(prep: &Prepared, alphabet: &[char], asked: &mut BTreeMap<(String, String), bool>) -> BTreeSet<Vec<String>> {
        let p = &prep.puzzle;
        let cells = p.givens.len();
        let mut found = BTreeSet::new();
        for k in 0..alphabet.len().pow(cells as u32) {
            let letters: Vec<char> = (0..cells).map(|c| alphabet[k / alphabet.len().pow(c as u32) % alphabet.len()]).collect();
            let ok = p.clues.iter().enumerate().all(|(i, clue)| {
                let word: String = clue.cells.iter().map(|&c| letters[c]).collect();
                let verdict = prep.verifier.clue_matches(i, &word).expect("the matcher decides");
                asked.insert((clue.regex.clone(), word), verdict);
                verdict
            });
            if ok {
                let grid = Grid { cells: letters, assignment: Vec::new() };
                let _ = found.insert(grid.rows(&p.shape));
            }
        }
        found
    }

    #[test]
    fn the_line_search_finds_what_every_grid_tried_finds_on_random_small_puzzles() {
        // Three by three over A and B (512 grids each), clues drawn from regular ones and
        // ones with back-references and lookarounds (whose automata over-approximate them:
        // the search must check each grid it reaches with the matcher).
        const POOL: &[&str] = &[
            ".*",
            "A*B*",
            "(AB|BA)*.?",
            "B*A.*",
            ".A.",
            "AB.|BA.",
            "A.B",
            "(.)\\1.*",
            ".*(.)\\1",
            "(?=.*B).*",
            "(.)(?!\\1).*",
            ".*(?<=A)",
            "(.).\\1",
            "AA?B*",
            "[^A]*A[^A]*",
            "(.)\\1\\1",
            "B.?A",
            "(?!A).(.)\\1",
            "ABA|BAB|AAA",
        ];
        let mut seed: u64 = 0x11e5;
        let mut next = |n: usize| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) as usize % n
        };
        let (mut by_lines, mut counts) = (0, [0usize; 3]);
        let mut asked = BTreeMap::new();
        for _ in 0..800 {
            let left: Vec<&str> = (0..3).map(|_| POOL[next(POOL.len())]).collect();
            let top: Vec<&str> = (0..3).map(|_| POOL[next(POOL.len())]).collect();
            let text = serde_json::json!({"left": left, "top": top, "alphabet": "AB"}).to_string();
            let prep = prepare(&text);
            let all = brute_force(&prep, &['A', 'B'], &mut asked);
            counts[all.len().min(2)] += 1;
            for limit in [1, 2] {
                // The default budget, a budget large enough for every puzzle, and none.
                for budget in [None, Some(100_000), Some(0)] {
                    let (grids, found, complete, nodes) = solve(&text, limit, budget);
                    let context = format!("{text}, limit {limit}, budget {budget:?}");
                    assert_eq!(found, all.len().min(limit), "{context}: count");
                    assert_eq!(complete, all.len() < limit, "{context}: complete");
                    assert_eq!(grids.len(), found, "{context}: a grid found twice");
                    assert!(grids.is_subset(&all), "{context}: {grids:?} is not among {all:?}");
                    if budget == Some(0) {
                        assert_eq!(nodes, None, "{context}: no line search with no budget");
                    }
                    by_lines += usize::from(nodes.is_some());
                }
            }
        }
        // The matcher that judged the grids is CPython's reading of the clues.
        let mut by_clue: BTreeMap<String, Vec<(String, bool)>> = BTreeMap::new();
        for ((clue, word), verdict) in &asked {
            by_clue.entry(clue.clone()).or_default().push((word.clone(), *verdict));
        }
        let cases: Vec<(String, Vec<String>)> =
            by_clue.iter().map(|(c, ws)| (c.clone(), ws.iter().map(|(w, _)| w.clone()).collect())).collect();
        for ((clue, words), python) in by_clue.iter().zip(python_verdicts(&cases)) {
            let python = python.unwrap_or_else(|e| panic!("Python refuses {clue:?}: {e}"));
            let ours: Vec<bool> = words.iter().map(|(_, v)| *v).collect();
            assert_eq!(ours, python, "{clue:?} on {words:?}: crossat's matcher and CPython differ");
        }
        assert_eq!(by_clue.len(), POOL.len(), "every clue of the pool cross-checked");
        eprintln!("no solution, one, several: {counts:?}; decided by the line search: {by_lines}");
        assert!(counts[0] >= 50 && counts[1] >= 10 && counts[2] >= 50, "too few puzzles of some kind: {counts:?}");
        assert!(by_lines >= 1000, "the line search decided too few: {by_lines}");
    }
}
