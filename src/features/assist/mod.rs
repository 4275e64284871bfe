//! Help for players and setters, on the same CNF: checking a grid, finding the next
//! forced cell, explaining it, and naming the clues behind a conflict.
//!
//! The formula here has every clue gated by a *selector* variable and no givens:
//! givens and selectors are passed as assumptions, so that an unsatisfiable question
//! comes back with a core — the clues and givens that conflict — which is then shrunk
//! until nothing can be left out. Every forced cell reported is confirmed by the SAT
//! solver (the formula with that cell set otherwise is unsatisfiable).

mod commands;
pub(crate) mod status;

pub(crate) use commands::next_hint;
pub use commands::{CheckOptions, HintOptions, Named};
pub(crate) use commands::{check, hint};

use crate::compile::Compiled;
use crate::encode::{self, Cnf};
use crate::error::{Error, Result};
use crate::pipeline::Prepared;
use crate::propagate::{self, SymSet};
use crate::puzzle::Puzzle;
use crate::solve::Oracle;

/// Why a cell is forced, as a person would find it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Reason {
    /// The clue (index) alone forces the cell, given the filled cells.
    SingleLine(usize),
    /// Propagating every line's possibilities to a fixpoint forces it.
    Lines,
    /// Only a search over the whole grid shows it.
    Search,
}

/// A forced cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Hint {
    /// The cell id.
    pub(crate) cell: usize,
    /// Its forced character.
    pub(crate) ch: char,
    /// How it follows.
    pub(crate) reason: Reason,
}

/// A conflict: clue indices and given cells that cannot all hold.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Conflict {
    /// Clues (indices into `Puzzle::clues`).
    pub(crate) clues: Vec<usize>,
    /// Given cells.
    pub(crate) givens: Vec<usize>,
}

/// The gated formula and its solver.
pub(crate) struct Assistant<'a> {
    prep: &'a Prepared,
    compiled: &'a Compiled,
    cells: Vec<Vec<(usize, i32)>>,
    selectors: Vec<i32>,
    oracle: Oracle,
}

impl<'a> Assistant<'a> {
    /// Encodes the puzzle with gated clues and full domains.
    pub(crate) fn new(prep: &'a Prepared) -> Result<Assistant<'a>> {
        crate::pipeline::require_exact(prep, "checking and hinting")?;
        let doms = vec![SymSet::full(prep.alphabet().len()); prep.puzzle.givens.len()];
        let mut cnf = Cnf::new();
        let compiled = prep.compiled()?;
        let (vars, selectors) = encode::encode_gated(&prep.puzzle, compiled, &doms, &mut cnf)?;
        Ok(Assistant { prep, compiled, cells: vars.cells, selectors, oracle: Oracle::new(&cnf).with_cancel(prep.cancel().clone()) })
    }

    fn puzzle(&self) -> &Puzzle {
        &self.prep.puzzle
    }

    fn compiled(&self) -> &Compiled {
        self.compiled
    }

    /// The variable "cell `c` holds `ch`".
    fn lit(&self, c: usize, ch: char) -> Result<i32> {
        let a = self
            .compiled()
            .alphabet
            .index(ch)
            .ok_or_else(|| Error::Usage(format!("'{ch}' in cell {} is not in the alphabet", self.puzzle().shape.cell_name(c))))?;
        Ok(self.cells[c].iter().find(|&&(x, _)| x == a).map_or(0, |&(_, v)| v))
    }

    fn given_lits(&self, givens: &[Option<char>]) -> Result<Vec<i32>> {
        givens.iter().enumerate().filter_map(|(c, g)| g.map(|ch| self.lit(c, ch))).collect()
    }

    fn all_clues(&self) -> Vec<i32> {
        self.selectors.clone()
    }

    /// Solves with every clue and the givens; `None` when they conflict.
    pub(crate) fn complete(&mut self, givens: &[Option<char>]) -> Result<Option<Vec<char>>> {
        let mut assume = self.all_clues();
        assume.extend(self.given_lits(givens)?);
        Ok(self.oracle.solve(&assume)?.map(|model| self.read(&model)))
    }

    /// Whether the givens can be completed in more than one way.
    pub(crate) fn several(&mut self, givens: &[Option<char>], one: &[char]) -> Result<bool> {
        let mut assume = self.all_clues();
        assume.extend(self.given_lits(givens)?);
        // A different grid: some free cell differs. Use a fresh selector-free check by
        // asking, cell by cell, for another letter (cheap for puzzle sizes).
        for c in (0..one.len()).filter(|&c| givens[c].is_none()) {
            let v = self.lit(c, one[c])?;
            let mut a = assume.clone();
            a.push(-v);
            if self.oracle.solve(&a)?.is_some() {
                return Ok(true);
            }
        }
        Ok(false)
    }

    fn read(&self, model: &[bool]) -> Vec<char> {
        self.cells
            .iter()
            .map(|vs| {
                vs.iter()
                    .find(|&&(_, v)| model.get(v as usize).copied().unwrap_or(false))
                    .map_or('?', |&(a, _)| self.compiled().alphabet.chars()[a])
            })
            .collect()
    }

    /// A minimal set of clues and givens that cannot all hold (call when
    /// [`Assistant::complete`] found none).
    pub(crate) fn conflict(&mut self, givens: &[Option<char>]) -> Result<Conflict> {
        self.core(&[], givens)
    }

    /// The clues and givens that force `cell` to `ch`: a minimal core of "cell ≠ ch".
    pub(crate) fn explain(&mut self, givens: &[Option<char>], cell: usize, ch: char) -> Result<Conflict> {
        let v = self.lit(cell, ch)?;
        self.core(&[-v], givens)
    }

    fn core(&mut self, fixed: &[i32], givens: &[Option<char>]) -> Result<Conflict> {
        let given_lits: Vec<(usize, i32)> =
            givens.iter().enumerate().filter_map(|(c, g)| g.map(|ch| self.lit(c, ch).map(|l| (c, l)))).collect::<Result<_>>()?;
        let mut assume: Vec<i32> = fixed.to_vec();
        assume.extend(self.selectors.iter().copied());
        assume.extend(given_lits.iter().map(|&(_, l)| l));
        if self.oracle.solve(&assume)?.is_some() {
            return Err(Error::Internal("asked for a conflict where there is none".into()));
        }
        let core = self.oracle.minimal_core(&assume)?;
        Ok(Conflict {
            clues: (0..self.selectors.len()).filter(|&i| core.contains(&self.selectors[i])).collect(),
            givens: given_lits.iter().filter(|(_, l)| core.contains(l)).map(|&(c, _)| c).collect(),
        })
    }

    /// The clues that cannot hold with the entries on their own line (each clue
    /// alone, with only its line's cells of `givens`): the clues a player's entries
    /// break by themselves, whatever the rest of the grid.
    pub(crate) fn broken_clues(&mut self, givens: &[Option<char>]) -> Result<Vec<usize>> {
        let mut broken = Vec::new();
        for i in 0..self.selectors.len() {
            let mut assume = vec![self.selectors[i]];
            for &c in &self.puzzle().clues[i].cells {
                if let Some(ch) = givens[c] {
                    assume.push(self.lit(c, ch)?);
                }
            }
            if self.oracle.solve(&assume)?.is_none() {
                broken.push(i);
            }
        }
        Ok(broken)
    }

    /// Whether `cell` must hold `ch` under all clues and the givens (SAT-confirmed).
    pub(crate) fn is_forced(&mut self, givens: &[Option<char>], cell: usize, ch: char) -> Result<bool> {
        let mut assume = self.all_clues();
        assume.extend(self.given_lits(givens)?);
        assume.push(-self.lit(cell, ch)?);
        Ok(self.oracle.solve(&assume)?.is_none())
    }

    /// The first cell (position in the clue's line) at which `clue` can no longer match
    /// `grid`: the shortest prefix of the line that no completion of the line accepts.
    pub(crate) fn first_bad_cell(&mut self, clue: usize, grid: &[char]) -> Result<Option<usize>> {
        let cells = self.puzzle().clues[clue].cells.clone();
        let mut assume = vec![self.selectors[clue]];
        for (p, &c) in cells.iter().enumerate() {
            if self.compiled().alphabet.index(grid[c]).is_none() {
                return Ok(Some(p));
            }
            assume.push(self.lit(c, grid[c])?);
            if self.oracle.solve(&assume)?.is_none() {
                return Ok(Some(p));
            }
        }
        Ok(None)
    }

    /// The clues a filled grid breaks, in puzzle order: each clue's index, its line's
    /// word, and the cell at which it can no longer match (`None`: at the end of the
    /// line, `Assistant::first_bad_cell`).
    pub(crate) fn failures(&mut self, grid: &[char]) -> Result<Vec<(usize, String, Option<usize>)>> {
        let mut out = Vec::new();
        for i in 0..self.puzzle().clues.len() {
            let cells = self.puzzle().clues[i].cells.clone();
            let word: String = cells.iter().map(|&c| grid[c]).collect();
            if self.prep.verifier.clue_matches(i, &word)? {
                continue;
            }
            let cell = self.first_bad_cell(i, grid)?.map(|p| cells[p]);
            out.push((i, word, cell));
        }
        Ok(out)
    }

    /// The next forced cell, preferring what one line shows by itself, then what
    /// propagating all lines shows, then what only search shows. `None` when every
    /// cell is filled or nothing is forced.
    pub(crate) fn hint(&mut self, givens: &[Option<char>]) -> Result<Option<Hint>> {
        if let Some(h) = self.single_line(givens)? {
            return Ok(Some(h));
        }
        if let Some(h) = self.by_propagation(givens)? {
            return Ok(Some(h));
        }
        Ok(self.backbone(givens)?.into_iter().next())
    }

    /// The clues and filled cells behind hint `h`: a single-line hint's clue with the
    /// filled cells of its line, else a minimal set that conflicts with any other
    /// letter in the cell.
    pub(crate) fn because(&mut self, givens: &[Option<char>], h: &Hint) -> Result<Conflict> {
        match h.reason {
            Reason::SingleLine(i) => {
                let line = &self.puzzle().clues[i].cells;
                Ok(Conflict { clues: vec![i], givens: line.iter().copied().filter(|&c| givens[c].is_some()).collect() })
            }
            _ => self.explain(givens, h.cell, h.ch),
        }
    }

    fn doms_from(&self, givens: &[Option<char>]) -> Vec<SymSet> {
        let n = self.compiled().alphabet.len();
        givens
            .iter()
            .map(|g| match g.and_then(|ch| self.compiled().alphabet.index(ch)) {
                Some(a) => {
                    let mut s = SymSet::default();
                    s.insert(a);
                    s
                }
                None => SymSet::full(n),
            })
            .collect()
    }

    fn single_line(&mut self, givens: &[Option<char>]) -> Result<Option<Hint>> {
        Ok(self.single_line_all(givens)?.into_iter().next())
    }

    /// Every empty cell that some clue forces by itself, given the filled cells.
    pub(crate) fn single_line_all(&mut self, givens: &[Option<char>]) -> Result<Vec<Hint>> {
        let mut found = Vec::new();
        for h in self.single_line_candidates(givens) {
            if self.is_forced(givens, h.cell, h.ch)? {
                found.push(h);
            }
        }
        Ok(found)
    }

    fn by_propagation(&mut self, givens: &[Option<char>]) -> Result<Option<Hint>> {
        Ok(self.propagation_all(givens)?.into_iter().next())
    }

    /// Every empty cell that propagating all lines to a fixpoint decides.
    pub(crate) fn propagation_all(&mut self, givens: &[Option<char>]) -> Result<Vec<Hint>> {
        let mut found = Vec::new();
        let mut puzzle = self.puzzle().clone();
        puzzle.givens = givens.to_vec();
        let Some(doms) = propagate::domains(&puzzle, self.compiled()) else { return Ok(found) };
        for (c, d) in doms.iter().enumerate() {
            if givens[c].is_none() && d.len() == 1 {
                let ch = self.compiled().alphabet.chars()[d.iter().next().unwrap_or(0)];
                if self.is_forced(givens, c, ch)? {
                    found.push(Hint { cell: c, ch, reason: Reason::Lines });
                }
            }
        }
        Ok(found)
    }

    /// Every forced empty cell (the backbone). Cells that propagating the lines fixes are
    /// forced outright (propagation only removes letters no solution can use); the rest
    /// are settled by the iterative algorithm with model filtering: candidates come from
    /// one solution; each is tested by asking for a grid without it, and every such grid
    /// rules out the candidates it contradicts. Each is labelled with the simplest way to
    /// find it (one line, all lines, search).
    pub(crate) fn backbone(&mut self, givens: &[Option<char>]) -> Result<Vec<Hint>> {
        let Some(first) = self.complete(givens)? else { return Ok(vec![]) };
        let single = self.single_line_candidates(givens);
        let mut puzzle = self.puzzle().clone();
        puzzle.givens = givens.to_vec();
        let doms = propagate::domains(&puzzle, self.compiled());
        let mut forced = Vec::new();
        let mut candidates: Vec<Option<char>> = vec![None; first.len()];
        for c in (0..first.len()).filter(|&c| givens[c].is_none()) {
            if let Some(h) = single.iter().find(|h| h.cell == c) {
                forced.push(h.clone());
            } else if doms.as_ref().is_some_and(|d| d[c].len() == 1) {
                forced.push(Hint { cell: c, ch: first[c], reason: Reason::Lines });
            } else {
                candidates[c] = Some(first[c]);
            }
        }
        let base: Vec<i32> = {
            let mut a = self.all_clues();
            a.extend(self.given_lits(givens)?);
            a
        };
        for c in 0..candidates.len() {
            let Some(ch) = candidates[c] else { continue };
            let mut a = base.clone();
            a.push(-self.lit(c, ch)?);
            match self.oracle.solve(&a)? {
                None => forced.push(Hint { cell: c, ch, reason: Reason::Search }),
                Some(model) => {
                    let other = self.read(&model);
                    for (d, cand) in candidates.iter_mut().enumerate() {
                        if cand.is_some_and(|x| x != other[d]) {
                            *cand = None;
                        }
                    }
                }
            }
        }
        forced.sort_by_key(|h| h.cell);
        Ok(forced)
    }

    /// Cells some clue by itself decides, given the filled cells (sound, not yet
    /// confirmed against the whole grid).
    fn single_line_candidates(&self, givens: &[Option<char>]) -> Vec<Hint> {
        let doms = self.doms_from(givens);
        let mut found: Vec<Hint> = Vec::new();
        for (i, clue) in self.puzzle().clues.iter().enumerate() {
            let line: Vec<SymSet> = clue.cells.iter().map(|&c| doms[c]).collect();
            let support = propagate::line_support(&self.compiled().clues[i], self.compiled().alphabet.len(), &line);
            for (p, &c) in clue.cells.iter().enumerate() {
                if givens[c].is_none() && support[p].len() == 1 && !found.iter().any(|h| h.cell == c) {
                    let ch = self.compiled().alphabet.chars()[support[p].iter().next().unwrap_or(0)];
                    found.push(Hint { cell: c, ch, reason: Reason::SingleLine(i) });
                }
            }
        }
        found
    }
}

/// The player's entries that cannot be right, each with the clues it breaks: against the
/// solution when the puzzle is unique (each wrong entry alone conflicts with a minimal set
/// of clues), else the entries of a minimal conflict; to each entry's clues are added the
/// clues through it that the entries on their own line break. Empty when the entries can
/// be completed.
pub(crate) fn wrong_entries(prep: &Prepared, assistant: &mut Assistant, grid: &[Option<char>]) -> Result<Vec<(usize, Vec<usize>)>> {
    let unknown: Vec<(usize, Vec<usize>)> =
        (0..grid.len()).filter(|&c| grid[c].is_some_and(|ch| prep.alphabet().index(ch).is_none())).map(|c| (c, vec![])).collect();
    let known: Vec<Option<char>> = grid.iter().map(|g| g.filter(|&ch| prep.alphabet().index(ch).is_some())).collect();
    if assistant.complete(&known)?.is_some() {
        return Ok(unknown);
    }
    let base = &prep.puzzle.givens;
    let mut wrong = unknown;
    match assistant.complete(base)? {
        Some(sol) if !assistant.several(base, &sol)? => {
            for c in (0..grid.len()).filter(|&c| known[c].is_some_and(|ch| ch != sol[c])) {
                let mut alone = base.clone();
                alone[c] = known[c];
                wrong.push((c, assistant.conflict(&alone)?.clues));
            }
        }
        _ => {
            let k = assistant.conflict(&known)?;
            wrong.extend(k.givens.iter().filter(|&&c| base[c].is_none()).map(|&c| (c, k.clues.clone())));
        }
    }
    let broken = assistant.broken_clues(&known)?;
    for (c, clues) in &mut wrong {
        clues.extend(broken.iter().filter(|&&i| prep.puzzle.clues[i].cells.contains(c)));
        clues.sort_unstable();
        clues.dedup();
    }
    wrong.sort_unstable();
    Ok(wrong)
}
