//! `crossat generate`: a new puzzle with exactly one solution, from a target text.
//!
//! 1. The text fills the grid (row by row; a short text is padded with its own letters).
//! 2. Every line gets, on each requested side, a random clue that its word matches, of
//!    middling looseness, in varied styles: classes, alternations, runs, counted repeats,
//!    back-references (`--backrefs`), lookarounds (`--lookarounds`).
//! 3. *Tighten*: while a second solution exists, a line through a cell where the two
//!    solutions differ gets a tighter clue.
//! 4. *Loosen*: each clue in turn is replaced by looser, shorter candidates wherever the
//!    puzzle stays unique. Every side keeps a real clue.
//! 5. *Difficulty* (`--difficulty easy|medium`): clues are loosened or tightened until
//!    the puzzle rates as asked (see [`rate`]). Hard puzzles are built another way:
//!    every clue a coset of a linear code (see `hard.rs`).
//! 6. The result is solved once more by the whole pipeline (the independent matcher
//!    included) and proven unique before it is printed.
//!
//! Every clue obeys two rules, checked on its automaton over the puzzle's alphabet (the
//! characters its clues mention): it says something — its language is not every string
//! of the line's length (`.*`, `.*.*`, `[ABC]*` when those are all the letters) — and it
//! does not give its line away — it is not the answer spelled out (`ILI[B]BK`), and by
//! itself it fixes at most three quarters of the cells of a line of 4 or more.
//!
//! Every decision uses the same compiler, encoding and solver as `crossat solve`;
//! `--seed` makes it repeatable.

use crate::compile::{self, Alphabet, Compiled, CompiledClue, DEAD};
use crate::error::{Error, Result};
use crate::pipeline;
use crate::propagate::{self, SymSet};
use crate::puzzle::{Clue, Puzzle, Shape, hex};
use crate::solve;
use crate::stats::Times;
use std::collections::HashMap;

pub use crate::rng::Rng;

mod hard;

/// Most rows or columns of a generated rectangle (`--size`).
pub const MAX_SIDE: usize = 24;

/// Uniqueness checks one attempt may make before starting over with fresh clues.
const MAX_CHECKS: usize = 1500;

/// Attempts (each with its own random stream) before giving up.
const ATTEMPTS: u64 = 6;

/// What to generate.
#[derive(Clone, Debug)]
pub struct Spec {
    /// Rectangle (rows, cols) or hexagon side.
    pub shape: Shape,
    /// Clues per line: 1 or 2.
    pub sides: usize,
    /// The text to hide (row by row); `None` for random letters.
    pub text: Option<String>,
    /// Allow back-references in clues.
    pub backrefs: bool,
    /// Allow lookaheads in clues.
    pub lookarounds: bool,
    /// The difficulty asked for, if any.
    pub difficulty: Option<Difficulty>,
    /// Seed.
    pub seed: u64,
}

/// How hard a puzzle is to solve by hand (see [`rate`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, clap::ValueEnum)]
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

/// Lines of a clue with back-references or lookarounds are propagated exactly (every
/// word tried) when their cells allow at most this many words.
pub const EXACT_WORDS: usize = 512;

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
        let verifier = if inexact { crate::verify::Verifier::new("<rated>", puzzle).ok() } else { None };
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
    /// is narrowed exactly (every word its cells allow, up to [`EXACT_WORDS`], tried
    /// with the independent matcher).
    fn propagate(&self, doms: &mut [SymSet], start: &[usize]) -> bool {
        let exact = |i: usize, line: &[SymSet], _: &[SymSet]| {
            let v = self.verifier.as_ref()?;
            self.compiled.clues[i].tagged.as_ref()?;
            pipeline::exact_support(self.compiled, v, i, line, EXACT_WORDS)
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

/// Whether `cc`, a clue over `sigma` letters for a line of `len` cells, obeys the rules:
/// not every string of the length, not the answer spelled out, and (for `len` ≥ 4)
/// fixing by itself at most three quarters of the cells.
pub fn clue_is_fair(cc: &CompiledClue, sigma: usize, len: usize) -> bool {
    let support = propagate::line_support(cc, sigma, &vec![SymSet::full(sigma); len]);
    let fixed = support.iter().filter(|s| s.len() == 1).count();
    if fixed == len || (len >= 4 && 4 * fixed > 3 * len) {
        return false;
    }
    cc.tagged.is_some() || !universal(&cc.automaton, len)
}

/// Whether the automaton accepts every word of length `n` over its symbols.
fn universal(a: &compile::Automaton, n: usize) -> bool {
    if a.start == DEAD {
        return false;
    }
    let states = a.states();
    // live[k][s]: from s, some word of n − k letters is accepted.
    let mut live = vec![vec![false; states]; n + 1];
    live[n].clone_from(&a.accept);
    for k in (0..n).rev() {
        for s in 0..states {
            live[k][s] = (0..a.symbols).any(|x| {
                let t = a.step(s as u32, x);
                t != DEAD && live[k + 1][t as usize]
            });
        }
    }
    let mut layer = vec![a.start];
    for k in 0..n {
        let mut next = Vec::new();
        for &s in &layer {
            for x in 0..a.symbols {
                let t = a.step(s, x);
                if t == DEAD || !live[k + 1][t as usize] {
                    return false;
                }
                next.push(t);
            }
        }
        next.sort_unstable();
        next.dedup();
        layer = next;
    }
    layer.iter().all(|&s| a.accept[s as usize])
}

/// A generated puzzle with its solution.
pub struct Generated {
    /// The puzzle (its alphabet: the characters its clues mention).
    pub puzzle: Puzzle,
    /// The unique solution, cell by cell.
    pub solution: Vec<char>,
    /// Uniqueness checks made.
    pub checks: usize,
    /// How hard it is.
    pub rating: Rating,
}

/// Lines of the shape: (label, cells), one per line; each line carries `sides` clues.
fn lines(shape: &Shape) -> Vec<(String, Vec<usize>)> {
    match shape {
        Shape::Rect { rows, cols } => (0..*rows)
            .map(|r| (format!("row {}", r + 1), (0..*cols).map(|c| r * cols + c).collect()))
            .chain((0..*cols).map(|c| (format!("column {}", c + 1), (0..*rows).map(|r| r * cols + c).collect())))
            .collect(),
        // In the antoine-trux order, so that `to_trux` can list clues line by line.
        Shape::Hex { side } => crate::puzzle::trux::hex_lines(*side),
        Shape::Free { .. } => vec![],
    }
}

/// Escapes a character for use in a clue (outside or inside a class).
fn esc(c: char) -> String {
    if c == ' ' {
        "\\s".into()
    } else if "\\^$.|?*+()[]{}-/".contains(c) {
        format!("\\{c}")
    } else {
        c.to_string()
    }
}

/// Which constructs clues may use.
#[derive(Clone, Copy, Debug)]
struct Styles {
    backrefs: bool,
    lookarounds: bool,
}

/// One piece of a generated clue: the text matching `word[start..start + len]`.
#[derive(Clone, Debug)]
struct Atom {
    start: usize,
    len: usize,
    text: String,
    /// The letters it may match, when it is a class or a run of one (`None`: any
    /// letter, `.`/`.*`); `Some(vec![])` for what cannot be split (groups,
    /// back-references, alternations, which are replaced by literals).
    letters: Option<Vec<char>>,
    /// Part of a back-reference: never replaced.
    fixed: bool,
}

/// A generated clue: an optional lookahead, then atoms covering the word.
#[derive(Clone, Debug)]
struct Gen {
    prefix: String,
    atoms: Vec<Atom>,
}

impl Gen {
    fn text(&self) -> String {
        let mut body: String = self.atoms.iter().map(|a| a.text.as_str()).collect();
        while body.contains(".*.*") {
            body = body.replace(".*.*", ".*");
        }
        format!("{}{body}", self.prefix)
    }

    /// The same clue with cell `p` of the line no longer allowing `other` (and the
    /// atom around it split into single cells drawn from the letters it allowed): a
    /// tighter clue, so progress is monotone. `None` when `p` lies in a back-reference.
    fn pin(&self, rng: &mut Rng, word: &[char], alphabet: &[char], p: usize, other: char) -> Option<Gen> {
        let k = self.atoms.iter().position(|a| a.start <= p && p < a.start + a.len)?;
        let atom = &self.atoms[k];
        if atom.fixed {
            return None;
        }
        let mut split = Vec::new();
        for (q, &c) in word.iter().enumerate().skip(atom.start).take(atom.len) {
            let pool: Vec<char> = match &atom.letters {
                None => alphabet.to_vec(),
                Some(l) => l.clone(),
            };
            let mut set = vec![c];
            if !pool.is_empty() && rng.chance(if q == p { 0.5 } else { 0.7 }) {
                let o = *rng.pick(&pool);
                if o != c && !(q == p && o == other) {
                    set.push(o);
                }
            }
            if q != p && atom.letters.is_none() && rng.chance(0.3) {
                split.push(Atom { start: q, len: 1, text: ".".into(), letters: None, fixed: false });
                continue;
            }
            set.sort_unstable();
            let text = if set.len() == 1 { esc(c) } else { format!("[{}]", set.iter().map(|&o| esc(o)).collect::<String>()) };
            split.push(Atom { start: q, len: 1, text, letters: Some(set), fixed: false });
        }
        let mut g = self.clone();
        let _ = g.atoms.splice(k..=k, split);
        Some(g)
    }
}

impl Gen {
    /// Every one-step loosening of the clue (its language grows, so the puzzle can only
    /// get harder): a one-cell atom grows by a random letter or becomes `.`, a longer
    /// atom becomes `.*`, the lookahead goes. Back-reference parts stay.
    fn loosenings(&self, rng: &mut Rng, alphabet: &[char]) -> Vec<Gen> {
        let mut out = Vec::new();
        for (k, a) in self.atoms.iter().enumerate() {
            if a.fixed {
                continue;
            }
            let mut with = |text: String, letters: Option<Vec<char>>| {
                let mut g = self.clone();
                g.atoms[k].text = text;
                g.atoms[k].letters = letters;
                out.push(g);
            };
            if a.len == 1 {
                if let Some(set) = a.letters.as_ref().filter(|l| !l.is_empty() && l.len() + 1 < alphabet.len()) {
                    let extra: Vec<char> = alphabet.iter().copied().filter(|c| !set.contains(c)).collect();
                    let mut set = set.clone();
                    set.push(*rng.pick(&extra));
                    set.sort_unstable();
                    with(format!("[{}]", set.iter().map(|&o| esc(o)).collect::<String>()), Some(set));
                }
                if a.text != "." {
                    with(".".into(), None);
                }
            } else if a.text != ".*" {
                with(".*".into(), None);
            }
        }
        if !self.prefix.is_empty() {
            let mut g = self.clone();
            g.prefix.clear();
            out.push(g);
        }
        out
    }
}

/// Four cells `A B / C D` and four lines: `ab` holds A then B next to each other (in
/// either order), `cd` holds C and D, `ac` A and C, `bd` B and D.
#[derive(Clone, Debug)]
struct Block {
    cells: [usize; 4],
    /// (line, position of its first block cell) for ab, cd, ac, bd.
    lines: [(usize, usize); 4],
}

/// Every place for a medium block. Its clues say, on `ab`, `ac` and `bd`, "both cells
/// hold their answer letter, or both hold their decoy", and on `cd` "not both hold
/// their decoy": line by line every cell keeps two letters, but trying a decoy in any
/// of them forces the decoys around the block and breaks `cd`, so probing (and only
/// probing) solves it.
fn block_placements(lines: &[(String, Vec<usize>)]) -> Vec<Block> {
    // Where two cells are next to each other on a line: (line, position of the first).
    let mut pair: HashMap<(usize, usize), (usize, usize)> = HashMap::new();
    for (l, (_, cells)) in lines.iter().enumerate() {
        for p in 0..cells.len().saturating_sub(1) {
            let _ = pair.insert((cells[p], cells[p + 1]), (l, p));
            let _ = pair.insert((cells[p + 1], cells[p]), (l, p));
        }
    }
    let mut out = Vec::new();
    for (l, (_, cells)) in lines.iter().enumerate() {
        for p in 0..cells.len().saturating_sub(1) {
            let (a, b) = (cells[p], cells[p + 1]);
            for (l3, (_, c3)) in lines.iter().enumerate() {
                if l3 == l || !c3.contains(&a) {
                    continue;
                }
                let q = c3.iter().position(|&x| x == a).unwrap_or(0);
                for c in [q.checked_sub(1), Some(q + 1)].into_iter().flatten().filter_map(|i| c3.get(i).copied()) {
                    for (l4, (_, c4)) in lines.iter().enumerate() {
                        if l4 == l || l4 == l3 || !c4.contains(&b) {
                            continue;
                        }
                        let r = c4.iter().position(|&x| x == b).unwrap_or(0);
                        for d in [r.checked_sub(1), Some(r + 1)].into_iter().flatten().filter_map(|i| c4.get(i).copied()) {
                            if [a, b, c].contains(&d) || c == b {
                                continue;
                            }
                            let Some(&(l2, p2)) = pair.get(&(c, d)) else { continue };
                            if [l, l3, l4].contains(&l2) {
                                continue;
                            }
                            let at = |line: usize, x: usize, y: usize| -> (usize, usize) {
                                let cs = &lines[line].1;
                                let i = cs.iter().position(|&z| z == x).unwrap_or(0);
                                let j = cs.iter().position(|&z| z == y).unwrap_or(0);
                                (line, i.min(j))
                            };
                            out.push(Block { cells: [a, b, c, d], lines: [(l, p), (l2, p2), at(l3, a, c), at(l4, b, d)] });
                        }
                    }
                }
            }
        }
    }
    out
}

impl Gen {
    /// The clue with the cells `start..start + len` covered by `atom` alone; the cells of
    /// atoms it cuts through are covered one by one by what those atoms allowed there.
    /// `None` when it would cut a back-reference.
    fn with_span(&self, word: &[char], start: usize, len: usize, atom: Atom) -> Option<Gen> {
        let end = start + len;
        let mut atoms = Vec::new();
        let mut placed = false;
        for a in &self.atoms {
            let (s, e) = (a.start, a.start + a.len);
            if e <= start || s >= end {
                atoms.push(a.clone());
                continue;
            }
            if a.fixed {
                return None;
            }
            for q in (s..e).filter(|&q| q < start || q >= end) {
                if q >= end && !placed {
                    atoms.push(atom.clone());
                    placed = true;
                }
                let (text, letters) = match &a.letters {
                    Some(l) if !l.is_empty() && l.contains(&word[q]) => {
                        let t = if l.len() == 1 { esc(l[0]) } else { format!("[{}]", l.iter().map(|&o| esc(o)).collect::<String>()) };
                        (t, Some(l.clone()))
                    }
                    _ => (".".to_string(), None),
                };
                atoms.push(Atom { start: q, len: 1, text, letters, fixed: false });
            }
            if !placed && e >= end {
                // The atom's cells before the span are in; the span comes next.
                atoms.push(atom.clone());
                placed = true;
            }
        }
        if !placed {
            return None;
        }
        atoms.sort_by_key(|a| a.start);
        Some(Gen { prefix: String::new(), atoms })
    }
}

/// The clues with a medium block at `place` (see [`block_placements`]); every other
/// clue through its cells allows both letters there.
fn with_block(
    rng: &mut Rng,
    gens: &[Vec<Gen>],
    lines: &[(String, Vec<usize>)],
    solution: &[char],
    alphabet: &[char],
    place: &Block,
) -> Option<Vec<Vec<Gen>>> {
    let mut decoy: HashMap<usize, char> = HashMap::new();
    for &c in &place.cells {
        let others: Vec<char> = alphabet.iter().copied().filter(|&o| o != solution[c]).collect();
        let _ = decoy.insert(c, *rng.pick(&others));
    }
    let word = |l: usize| -> Vec<char> { lines[l].1.iter().map(|&c| solution[c]).collect() };
    let mut out = gens.to_vec();
    for (k, &(l, p)) in place.lines.iter().enumerate() {
        let cells = [lines[l].1[p], lines[l].1[p + 1]];
        let ans = |c: usize| esc(solution[c]);
        let dec = |c: usize| esc(decoy[&c]);
        let [x, y] = cells;
        let options = if k == 1 {
            vec![format!("{}{}", ans(x), ans(y)), format!("{}{}", dec(x), ans(y)), format!("{}{}", ans(x), dec(y))]
        } else {
            vec![format!("{}{}", ans(x), ans(y)), format!("{}{}", dec(x), dec(y))]
        };
        let atom = Atom { start: p, len: 2, text: format!("(?:{})", options.join("|")), letters: Some(vec![]), fixed: true };
        out[l][0] = match out[l][0].with_span(&word(l), p, 2, atom.clone()) {
            Some(g) => g,
            // The block would cut a back-reference: a fresh clue without any.
            None => {
                clue_for(rng, &word(l), alphabet, 0.9, Styles { backrefs: false, lookarounds: false }).with_span(&word(l), p, 2, atom)?
            }
        };
    }
    // Every other clue through a block cell allows its two letters there.
    for (l, (_, cells)) in lines.iter().enumerate() {
        for (side, g) in out[l].iter_mut().enumerate() {
            if side == 0 && place.lines.iter().any(|&(m, _)| m == l) {
                continue;
            }
            for (q, c) in cells.iter().enumerate() {
                if let Some(&d) = decoy.get(c) {
                    let mut set = vec![solution[*c], d];
                    set.sort_unstable();
                    let text = format!("[{}]", set.iter().map(|&o| esc(o)).collect::<String>());
                    let atom = Atom { start: q, len: 1, text, letters: Some(set), fixed: false };
                    *g = match g.with_span(&word(l), q, 1, atom.clone()) {
                        Some(g) => g,
                        None => clue_for(rng, &word(l), alphabet, 0.9, Styles { backrefs: false, lookarounds: false }).with_span(
                            &word(l),
                            q,
                            1,
                            atom,
                        )?,
                    };
                }
            }
        }
    }
    Some(out)
}

/// A random clue that `word` fully matches. `tight` in 0..=1: the higher, the more of
/// the word the clue pins down.
fn clue_for(rng: &mut Rng, word: &[char], alphabet: &[char], tight: f64, styles: Styles) -> Gen {
    let atoms = clue_atoms(rng, word, alphabet, tight, styles.backrefs);
    let mut prefix = String::new();
    if styles.lookarounds && rng.chance(0.35) {
        // A lookahead: a letter the word has, or one it lacks.
        let absent: Vec<char> = alphabet.iter().copied().filter(|c| !word.contains(c)).collect();
        prefix = if !absent.is_empty() && rng.chance(0.5) {
            format!("(?!.*{})", esc(*rng.pick(&absent)))
        } else {
            format!("(?=.*{})", esc(*rng.pick(word)))
        };
    }
    Gen { prefix, atoms }
}

fn clue_atoms(rng: &mut Rng, word: &[char], alphabet: &[char], tight: f64, backrefs: bool) -> Vec<Atom> {
    let mut out: Vec<Atom> = Vec::new();
    let push = |out: &mut Vec<Atom>, start: usize, len: usize, text: String, letters: Option<Vec<char>>, fixed: bool| {
        out.push(Atom { start, len, text, letters, fixed });
    };
    let mut i = 0;
    let mut group_of: Vec<(char, usize)> = Vec::new(); // captured single characters
    while i < word.len() {
        let c = word[i];
        // Back-reference to an earlier captured character (at most three groups, far
        // within the compiler's marker limit).
        if backrefs {
            if let Some(&(_, k)) = group_of.iter().find(|&&(g, _)| g == c)
                && rng.chance(0.6)
            {
                push(&mut out, i, 1, format!("\\{k}"), Some(vec![]), true);
                i += 1;
                continue;
            }
            if group_of.len() < 3 && word[i + 1..].contains(&c) && rng.chance(0.5) {
                let k = group_of.len() + 1;
                group_of.push((c, k));
                let text = if rng.chance(tight * 0.5) { format!("({})", esc(c)) } else { "(.)".to_string() };
                push(&mut out, i, 1, text, Some(vec![]), true);
                i += 1;
                continue;
            }
        }
        // A counted repeat of a run of one letter.
        let same = word[i..].iter().take_while(|&&o| o == c).count();
        if same >= 2 && rng.chance(0.5) {
            let text = if rng.chance(0.5) { format!("{}{{{same}}}", esc(c)) } else { format!("{}+", esc(c)) };
            push(&mut out, i, same, text, Some(vec![c]), false);
            i += same;
            continue;
        }
        // Literal, class, run or alternation; the tighter, the more literals.
        let roll = (rng.next() % 1000) as f64 / 1000.0;
        let (literal, class) = (tight * 0.45, tight * 0.45 + 0.3);
        let run_end = class + (1.0 - class) * 0.6;
        if roll < literal {
            push(&mut out, i, 1, esc(c), Some(vec![c]), false);
            i += 1;
        } else if roll < class {
            // A class with the letter and one to three others (or a negated one without it).
            let k = 1 + rng.below(3);
            let mut set = vec![c];
            for _ in 0..k {
                let o = alphabet[rng.below(alphabet.len())];
                if !set.contains(&o) {
                    set.push(o);
                }
            }
            if set.len() == 1 {
                set.extend(alphabet.iter().copied().find(|&o| o != c));
            }
            let others: Vec<char> = alphabet.iter().copied().filter(|o| !set.contains(o)).collect();
            if others.len() >= 2 && rng.chance(0.35) {
                let ex: Vec<char> = others.iter().take(1 + rng.below(3)).copied().collect();
                let allowed: Vec<char> = alphabet.iter().copied().filter(|o| !ex.contains(o)).collect();
                push(&mut out, i, 1, format!("[^{}]", ex.iter().map(|&o| esc(o)).collect::<String>()), Some(allowed), false);
            } else {
                set.sort_unstable();
                let text = format!("[{}]", set.iter().map(|&o| esc(o)).collect::<String>());
                push(&mut out, i, 1, text, Some(set), false);
            }
            i += 1;
        } else if roll < run_end || i + 1 >= word.len() {
            // A run of letters from a class: [ABC]+ / .* style.
            let run = 1 + rng.below((word.len() - i).min(4));
            let mut set: Vec<char> = word[i..i + run].to_vec();
            set.sort_unstable();
            set.dedup();
            if rng.chance(0.5 * (1.0 - tight)) {
                push(&mut out, i, run, if run > 1 { ".*".into() } else { ".".into() }, None, false);
            } else if set.len() == 1 {
                push(&mut out, i, run, format!("{}+", esc(set[0])), Some(set), false);
            } else {
                // Sometimes a decoy letter widens the class.
                if rng.chance(0.5) {
                    let o = alphabet[rng.below(alphabet.len())];
                    if !set.contains(&o) {
                        set.push(o);
                        set.sort_unstable();
                    }
                }
                let s: String = set.iter().map(|&o| esc(o)).collect();
                let text = format!("[{s}]{}", if rng.chance(0.5) { "+" } else { "*" });
                push(&mut out, i, run, text, Some(set), false);
            }
            i += run;
        } else {
            // An alternation between the chunk and one or two decoys.
            let run = (1 + rng.below(2)).min(word.len() - i);
            let chunk: String = word[i..i + run].iter().map(|&o| esc(o)).collect();
            let mut options = vec![chunk.clone()];
            for _ in 0..1 + rng.below(2) {
                let decoy: String = (0..1 + rng.below(run + 1)).map(|_| esc(alphabet[rng.below(alphabet.len())])).collect();
                if !options.contains(&decoy) {
                    options.push(decoy);
                }
            }
            for k in (1..options.len()).rev() {
                options.swap(k, rng.below(k + 1));
            }
            let text = if options.len() == 1 {
                chunk
            } else {
                if backrefs { format!("(?:{})", options.join("|")) } else { format!("({})", options.join("|")) }
            };
            push(&mut out, i, run, text, Some(vec![]), false);
            i += run;
        }
    }
    out
}

/// Builds the puzzle from per-line clue lists.
fn assemble(spec: &Spec, lines: &[(String, Vec<usize>)], clues: &[Vec<String>]) -> Puzzle {
    let mut all = Vec::new();
    for ((label, cells), list) in lines.iter().zip(clues) {
        for (k, re) in list.iter().enumerate() {
            let side = if k == 0 { "" } else { " #2" };
            all.push(Clue { label: format!("{label}{side}"), regex: re.clone(), cells: cells.clone() });
        }
    }
    let n = spec.shape.cells();
    // No explicit alphabet: the one inferred from the clues, as every format can carry.
    Puzzle { name: None, shape: spec.shape.clone(), clues: all, alphabet: None, givens: vec![None; n], pool: None }
}

/// What a check of the clues found.
enum Found {
    /// Clues (line, side) that break the rules under the puzzle's alphabet.
    Unfair(Vec<(usize, usize)>),
    /// The solutions (up to two), with the compiled puzzle.
    Solutions(Vec<Vec<char>>, Compiled),
}

/// Compiles clues once per (regex, length, alphabet) and checks candidate puzzles with
/// the encoder and solver of `crossat solve`.
#[derive(Default)]
struct Checker {
    cache: HashMap<(String, usize, String), (CompiledClue, bool)>,
    checks: usize,
}

impl Checker {
    /// The rating of the puzzle the clues make, when its only solution is `solution`.
    fn rating_if_unique(
        &mut self,
        spec: &Spec,
        lines: &[(String, Vec<usize>)],
        clues: &[Vec<String>],
        solution: &[char],
    ) -> Result<Option<Rating>> {
        match self.check(spec, lines, clues)? {
            Found::Solutions(sols, c) if sols == [solution] => Ok(Some(rate(&assemble(spec, lines, clues), &c))),
            _ => Ok(None),
        }
    }

    fn check(&mut self, spec: &Spec, lines: &[(String, Vec<usize>)], clues: &[Vec<String>]) -> Result<Found> {
        self.checks += 1;
        let puzzle = assemble(spec, lines, clues);
        let src = "<generated>";
        let parsed = compile::parse_clues(src, &puzzle)?;
        let Ok(alphabet) = compile::choose_alphabet(src, &puzzle, &parsed, None) else {
            // No clue mentions a letter (all `.`): every clue is to be redrawn.
            return Ok(Found::Unfair((0..clues.len()).flat_map(|l| (0..clues[l].len()).map(move |k| (l, k))).collect()));
        };
        let key_alpha: String = alphabet.chars().iter().collect();
        let mut compiled_clues = Vec::new();
        let mut unfair = Vec::new();
        let mut k = 0;
        for (l, list) in clues.iter().enumerate() {
            for (side, re) in list.iter().enumerate() {
                let len = lines[l].1.len();
                let key = (re.clone(), len, key_alpha.clone());
                if !self.cache.contains_key(&key) {
                    let one = Puzzle {
                        name: None,
                        shape: Shape::Free { cells: len, coords: None },
                        clues: vec![Clue { label: puzzle.clues[k].label.clone(), regex: re.clone(), cells: (0..len).collect() }],
                        alphabet: Some(alphabet.chars().to_vec()),
                        givens: vec![None; len],
                        pool: None,
                    };
                    let c = compile::compile(
                        src,
                        &one,
                        std::slice::from_ref(&parsed[k]),
                        Alphabet::new(alphabet.chars().iter().copied()).map_err(Error::Internal)?,
                    )?;
                    let cc = c.clues.into_iter().next().ok_or_else(|| Error::Internal("no compiled clue".into()))?;
                    let fair = clue_is_fair(&cc, alphabet.len(), len);
                    let _ = self.cache.insert(key.clone(), (cc, fair));
                }
                let (cc, fair) = &self.cache[&key];
                if !fair {
                    unfair.push((l, side));
                }
                compiled_clues.push(cc.clone());
                k += 1;
            }
        }
        if !unfair.is_empty() {
            return Ok(Found::Unfair(unfair));
        }
        let compiled = Compiled { alphabet, clues: compiled_clues, pool: vec![] };
        let (cnf, vars) = pipeline::encode_puzzle(&puzzle, &compiled, true)?;
        let mut grids = Vec::new();
        let chars = compiled.alphabet.chars().to_vec();
        let _ = solve::enumerate(&cnf, &vars, Some(2), |f| {
            grids.push(f.cells.iter().map(|&a| chars[a]).collect());
            Ok(solve::Verdict::Accept)
        })?;
        Ok(Found::Solutions(grids, compiled))
    }
}

/// Generates a unique puzzle, trying fresh random streams when one gets stuck.
pub fn generate(spec: &Spec) -> Result<Generated> {
    generate_with(spec, &mut |_| {})
}

/// [`generate`], reporting the uniqueness checks made so far to `progress`.
pub fn generate_with(spec: &Spec, progress: &mut dyn FnMut(usize)) -> Result<Generated> {
    offered(spec)?;
    if spec.difficulty == Some(Difficulty::Hard) {
        return generate_hard(spec, progress);
    }
    let mut checks = 0;
    for attempt in 0..ATTEMPTS {
        if let Some(mut g) = attempt_once(spec, attempt, &mut checks, progress)? {
            g.checks = checks;
            return Ok(g);
        }
    }
    let what = spec.difficulty.map_or(String::new(), |d| format!(" {}", d.name()));
    Err(Error::Usage(format!("no unique{what} puzzle found in {ATTEMPTS} attempts ({checks} checks); try another --seed")))
}

/// Refuses, before any search, a difficulty the generator does not make for the shape:
/// `hard` at all (no construction makes it reliably yet), `medium` on a grid of one row
/// or one column (with one clue per line such a grid is always easy: each cell's column
/// clue is a set of letters, and propagating the single row clue against them leaves
/// exactly the letters of its solutions; the generator's medium block needs 2×2 cells).
pub fn offered(spec: &Spec) -> Result<()> {
    match (spec.difficulty, &spec.shape) {
        (Some(Difficulty::Hard), _) if spec.backrefs || spec.lookarounds => Err(Error::Usage(
            "--difficulty hard builds its clues from alternations (see `crossat man`); it cannot be combined with --backrefs or --lookarounds".into(),
        )),
        (Some(Difficulty::Hard), shape) => {
            let lengths: Vec<usize> = lines(shape).iter().map(|(_, c)| c.len()).collect();
            match hard::plan(&lengths, spec.sides, shape.cells()) {
                Some(_) => Ok(()),
                None => Err(Error::Usage(hard_refusal(spec))),
            }
        }
        (Some(Difficulty::Medium), Shape::Rect { rows, cols }) if *rows < 2 || *cols < 2 => Err(Error::Usage(format!(
            "--difficulty medium needs at least 2 rows and 2 columns, got {rows}x{cols} (a grid of one row or column is solved line by line: easy)"
        ))),
        _ => Ok(()),
    }
}

/// The answer the puzzle hides: the text (padded with its own letters), or random
/// letters.
fn answer(spec: &Spec, rng: &mut Rng) -> Result<Vec<char>> {
    let n = spec.shape.cells();
    let text: Vec<char> = match &spec.text {
        Some(t) => t.chars().filter(|c| *c != '\n' && *c != '\r').collect(),
        None => (0..n).map(|_| (b'A' + rng.below(12) as u8) as char).collect(),
    };
    if text.is_empty() {
        return Err(Error::Usage("the target text is empty".into()));
    }
    if text.len() > n {
        return Err(Error::Usage(format!(
            "the text has {} characters, more than the {n} cells of a {}",
            text.len(),
            spec.shape.describe()
        )));
    }
    let mut solution = text.clone();
    while solution.len() < n {
        solution.push(text[rng.below(text.len())]);
    }
    Ok(solution)
}

fn attempt_once(spec: &Spec, attempt: u64, checks: &mut usize, progress: &mut dyn FnMut(usize)) -> Result<Option<Generated>> {
    let mut rng = Rng::new(spec.seed);
    let n = spec.shape.cells();
    let solution = answer(spec, &mut rng)?;
    // Later attempts draw other clues for the same solution.
    for _ in 0..attempt * 7919 {
        let _ = rng.next();
    }
    let mut alphabet: Vec<char> = solution.clone();
    alphabet.sort();
    alphabet.dedup();
    // Decoys make classes and alternations meaningful for tiny alphabets.
    for extra in ['E', 'T', 'A', 'O', 'N', 'R', 'S', 'I'] {
        if alphabet.len() >= 6 {
            break;
        }
        if !alphabet.contains(&extra) {
            alphabet.push(extra);
        }
    }
    alphabet.sort();
    let styles = Styles { backrefs: spec.backrefs, lookarounds: spec.lookarounds };
    let lines = lines(&spec.shape);
    let word = |cells: &[usize]| -> Vec<char> { cells.iter().map(|&c| solution[c]).collect() };
    let mut gens: Vec<Vec<Gen>> = lines
        .iter()
        .map(|(_, cells)| (0..spec.sides).map(|_| clue_for(&mut rng, &word(cells), &alphabet, 0.45, styles)).collect())
        .collect();
    let texts = |gens: &[Vec<Gen>]| -> Vec<Vec<String>> { gens.iter().map(|l| l.iter().map(Gen::text).collect()).collect() };
    let mut checker = Checker::default();
    let budget = |checker: &Checker| checker.checks > MAX_CHECKS;
    // Tighten until the text is the only solution and every clue is fair.
    let mut tight = 0.55;
    let mut unfair_rounds = 0;
    let mut compiled;
    loop {
        progress(*checks + checker.checks);
        if budget(&checker) {
            *checks += checker.checks;
            return Ok(None);
        }
        let found = checker.check(spec, &lines, &texts(&gens))?;
        let sols = match found {
            Found::Unfair(bad) => {
                unfair_rounds += 1;
                for (l, k) in bad {
                    let t = if unfair_rounds % 2 == 0 { 0.9 } else { 0.45 };
                    gens[l][k] = clue_for(&mut rng, &word(&lines[l].1), &alphabet, t, styles);
                }
                continue;
            }
            Found::Solutions(sols, c) => {
                compiled = c;
                sols
            }
        };
        if sols == [solution.clone()] {
            break;
        }
        // Every clue matches its word by construction, so the text is a solution when
        // the puzzle's alphabet (the letters the clues mention) holds all its letters.
        let text_ok = solution.iter().all(|&c| compiled.alphabet.index(c).is_some());
        let Some(other) = sols.iter().find(|s| **s != solution).filter(|_| text_ok) else {
            // A letter of the text that no clue mentions: tighter clues on random lines.
            for _ in 0..3 {
                let l = rng.below(lines.len());
                let k = rng.below(spec.sides);
                gens[l][k] = clue_for(&mut rng, &word(&lines[l].1), &alphabet, 1.0, styles);
            }
            continue;
        };
        // Pin a cell where another solution differs: on a line through it, the clue
        // stops allowing the other letter there (and gets no looser elsewhere).
        let differ: Vec<usize> = (0..n).filter(|&c| other[c] != solution[c]).collect();
        let mut pinned = 0;
        for _ in 0..8 {
            let c = *rng.pick(&differ);
            let through: Vec<usize> = (0..lines.len()).filter(|&l| lines[l].1.contains(&c)).collect();
            let l = *rng.pick(&through);
            let k = rng.below(spec.sides);
            let p = lines[l].1.iter().position(|&x| x == c).unwrap_or(0);
            if let Some(g) = gens[l][k].pin(&mut rng, &word(&lines[l].1), &alphabet, p, other[c]) {
                gens[l][k] = g;
                pinned += 1;
                if pinned >= 2 {
                    break;
                }
            }
        }
        if pinned == 0 {
            let c = *rng.pick(&differ);
            let through: Vec<usize> = (0..lines.len()).filter(|&l| lines[l].1.contains(&c)).collect();
            let l = *rng.pick(&through);
            let k = rng.below(spec.sides);
            gens[l][k] = clue_for(&mut rng, &word(&lines[l].1), &alphabet, tight, styles);
        }
        tight = (tight + 0.02).min(1.0);
    }
    // Loosen: for each clue, try looser, shorter candidates.
    let mut order: Vec<(usize, usize)> = (0..lines.len()).flat_map(|l| (0..spec.sides).map(move |k| (l, k))).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
    for (l, k) in order {
        let mut candidates: Vec<Gen> = (0..3).map(|_| clue_for(&mut rng, &word(&lines[l].1), &alphabet, 0.15, styles)).collect();
        candidates.sort_by_key(|g| g.text().len());
        for cand in candidates {
            if cand.text().len() >= gens[l][k].text().len() {
                continue;
            }
            let mut trial = gens.clone();
            trial[l][k] = cand;
            progress(*checks + checker.checks);
            if let Found::Solutions(sols, c) = checker.check(spec, &lines, &texts(&trial))?
                && sols == [solution.clone()]
            {
                gens = trial;
                compiled = c;
                break;
            }
        }
    }
    // Difficulty. Harder: loosening moves (each clue's language only grows), which
    // can only make the puzzle harder or keep its class, accepted while the puzzle
    // stays unique and no harder than asked. Easier: tighter fresh clues.
    let mut rating = rate(&assemble(spec, &lines, &texts(&gens)), &compiled);
    if spec.difficulty == Some(Difficulty::Medium) && rating.difficulty == Difficulty::Easy {
        // A medium block (see [`block_placements`]) at one place after another.
        let mut places = block_placements(&lines);
        for i in (1..places.len()).rev() {
            places.swap(i, rng.below(i + 1));
        }
        for place in places.into_iter().take(12) {
            if budget(&checker) {
                break;
            }
            let Some(trial) = with_block(&mut rng, &gens, &lines, &solution, &alphabet, &place) else { continue };
            progress(*checks + checker.checks);
            if let Some(r) = checker.rating_if_unique(spec, &lines, &texts(&trial), &solution)?
                && r.difficulty == Difficulty::Medium
            {
                gens = trial;
                rating = r;
                break;
            }
        }
    }
    if let Some(want) = spec.difficulty {
        let mut steps = 0;
        while rating.difficulty != want {
            steps += 1;
            if steps > 400 + 4 * lines.len() || budget(&checker) {
                *checks += checker.checks;
                return Ok(None);
            }
            if rating.difficulty > want {
                let l = rng.below(lines.len());
                let k = rng.below(spec.sides);
                let mut trial = gens.clone();
                trial[l][k] = clue_for(&mut rng, &word(&lines[l].1), &alphabet, 0.9, styles);
                progress(*checks + checker.checks);
                if let Some(r) = checker.rating_if_unique(spec, &lines, &texts(&trial), &solution)?
                    && (r.difficulty < rating.difficulty || (r.difficulty == rating.difficulty && r.by_lines >= rating.by_lines))
                {
                    gens = trial;
                    rating = r;
                }
                continue;
            }
            let mut moves: Vec<(usize, usize, Gen)> = Vec::new();
            for (l, line) in gens.iter().enumerate() {
                for (k, clue) in line.iter().enumerate() {
                    for g in clue.loosenings(&mut rng, &alphabet) {
                        moves.push((l, k, g));
                    }
                }
            }
            for i in (1..moves.len()).rev() {
                moves.swap(i, rng.below(i + 1));
            }
            let mut moved = false;
            for (l, k, g) in moves {
                if budget(&checker) {
                    break;
                }
                let mut trial = gens.clone();
                trial[l][k] = g;
                progress(*checks + checker.checks);
                if let Some(r) = checker.rating_if_unique(spec, &lines, &texts(&trial), &solution)?
                    && r.difficulty <= want
                    && r.complete
                {
                    gens = trial;
                    rating = r;
                    moved = true;
                    break;
                }
            }
            if !moved {
                // Every loosening either breaks uniqueness or overshoots.
                *checks += checker.checks;
                return Ok(None);
            }
        }
    }
    *checks += checker.checks;
    let clues = texts(&gens);
    let puzzle = assemble(spec, &lines, &clues);
    let rating = prove(&puzzle, &solution)?;
    Ok(Some(Generated { puzzle, solution, checks: 0, rating }))
}

/// The final proof by the whole pipeline (compile, encode, solve, and the independent
/// matcher on every grid found) that `solution` is the puzzle's only solution, and the
/// puzzle's rating.
fn prove(puzzle: &Puzzle, solution: &[char]) -> Result<Rating> {
    let mut prep = pipeline::prepare_puzzle("<generated>", puzzle.clone(), None, Times::default())?;
    let mut sols = Vec::new();
    let _ = pipeline::solve(&mut prep, Some(2), |_, g| {
        sols.push(g.cells.clone());
        Ok(())
    })?;
    if sols != [solution] {
        return Err(Error::Internal("the generated puzzle is not unique after all".into()));
    }
    Ok(rate(&prep.puzzle, prep.compiled()?))
}

/// A hard puzzle ([`hard`]): clues that are cosets of linear codes, drawn until they
/// decide the grid; each attempt is proven unique and rated by the whole pipeline.
fn generate_hard(spec: &Spec, progress: &mut dyn FnMut(usize)) -> Result<Generated> {
    let lines = lines(&spec.shape);
    let lengths: Vec<usize> = lines.iter().map(|(_, c)| c.len()).collect();
    let plan = hard::plan(&lengths, spec.sides, spec.shape.cells()).ok_or_else(|| Error::Usage(hard_refusal(spec)))?;
    let cells: Vec<Vec<usize>> = lines.iter().map(|(_, c)| c.clone()).collect();
    let mut rng = Rng::new(spec.seed);
    // Random answers use the whole alphabet, as the decoys do (see `hard::clues`).
    let solution = match spec.text {
        Some(_) => answer(spec, &mut rng)?,
        None => (0..spec.shape.cells()).map(|_| (b'A' + rng.below(26) as u8) as char).collect(),
    };
    for attempt in 0..ATTEMPTS {
        progress(attempt as usize);
        let Some(clues) = hard::clues(&mut rng, &plan, &cells, spec.sides, &solution) else { continue };
        let puzzle = assemble(spec, &lines, &clues);
        // `prove` has shown the answer to be the only solution; the rating's own
        // search may stop at its limits on large grids, which leaves the class hard.
        let rating = prove(&puzzle, &solution)?;
        if rating.difficulty == Difficulty::Hard {
            return Ok(Generated { puzzle, solution, checks: attempt as usize + 1, rating });
        }
    }
    Err(Error::Usage(format!("no unique hard puzzle found in {ATTEMPTS} attempts; try another --seed")))
}

/// Why `--difficulty hard` cannot be made for the shape.
fn hard_refusal(spec: &Spec) -> String {
    format!(
        "--difficulty hard cannot be made for a {} with {} clue{} per line: its lines are too short for clues that leave every cell open while deciding the grid together (with one clue per line a rectangle needs 4x4, or 3x6 and 6x3; with two, 3x3; a hexagon needs side 3)",
        spec.shape.describe(),
        spec.sides,
        if spec.sides == 1 { "" } else { "s" }
    )
}

/// The puzzle in crossat's JSON format.
pub fn to_crossat_json(p: &Puzzle) -> serde_json::Value {
    use serde_json::json;
    match &p.shape {
        Shape::Rect { rows, cols } => {
            let side = |prefix: &str, second: bool| -> Vec<serde_json::Value> {
                let count = if prefix == "row" { *rows } else { *cols };
                (0..count)
                    .map(|i| {
                        let label = format!("{prefix} {}{}", i + 1, if second { " #2" } else { "" });
                        p.clues.iter().find(|c| c.label == label).map_or(serde_json::Value::Null, |c| json!(c.regex))
                    })
                    .collect()
            };
            let mut v = json!({"rows": rows, "cols": cols, "left": side("row", false), "top": side("column", false)});
            if p.clues.iter().any(|c| c.label.ends_with("#2")) {
                v["right"] = json!(side("row", true));
                v["bottom"] = json!(side("column", true));
            }
            v
        }
        _ => {
            let Shape::Hex { side } = p.shape else { return json!(null) };
            let entries: Vec<serde_json::Value> = p
                .clues
                .iter()
                .map(|c| json!({"label": c.label, "cells": c.cells.iter().map(|&x| { let (r, col) = hex::coords(side, x); json!([r, col]) }).collect::<Vec<_>>(), "clues": [c.regex]}))
                .collect();
            json!({"layout": "hexagon", "side": side, "entries": entries})
        }
    }
}

/// The puzzle in the shape of regexcrossword.com's `challenges.json`: one set holding
/// one puzzle. A rectangle has `patternsY` per row `[left, right]` and `patternsX` per
/// column `[top, bottom]`; a hexagon (`"hexagonal": true`) has `patternsY` per row (read
/// left to right), `patternsZ` per NW–SE diagonal (read upward) and `patternsX` per
/// NE–SW diagonal (read downward), each diagonal family from left to right along the
/// top — as crossat's challenges reader takes them (`src/puzzle/challenges.rs`).
pub fn to_challenges(p: &Puzzle, id: &str) -> Option<serde_json::Value> {
    use serde_json::json;
    let puzzle = match p.shape {
        Shape::Rect { .. } => {
            let v = to_crossat_json(p);
            let pairs = |first: &str, second: &str| -> Vec<serde_json::Value> {
                let a = v[first].as_array().cloned().unwrap_or_default();
                let b = v.get(second).and_then(|x| x.as_array().cloned());
                a.iter()
                    .enumerate()
                    .map(|(i, c)| {
                        let mut pair = vec![c.clone()];
                        if let Some(b) = &b {
                            pair.push(b[i].clone());
                        }
                        json!(pair)
                    })
                    .collect()
            };
            json!({"id": id, "name": id, "patternsX": pairs("top", "bottom"), "patternsY": pairs("left", "right")})
        }
        Shape::Hex { side } => {
            // The generator's lines carry the labels of `hex::lines` (rows, NW–SE read
            // up, NE–SW read down): each field lists its family by index.
            let family = |label: &dyn Fn(usize) -> String| -> Vec<serde_json::Value> {
                (0..2 * side - 1)
                    .map(|k| {
                        let l = label(k);
                        let two = format!("{l} #2");
                        json!(p.clues.iter().filter(|c| c.label == l || c.label == two).map(|c| c.regex.clone()).collect::<Vec<_>>())
                    })
                    .collect()
            };
            json!({"id": id, "name": id, "hexagonal": true,
                "patternsY": family(&|k| format!("row {}", k + 1)),
                "patternsZ": family(&|k| format!("NW-SE diagonal {} (read up)", k + 1)),
                "patternsX": family(&|k| format!("NE-SW diagonal {} (read down)", k + 1))})
        }
        Shape::Free { .. } => return None,
    };
    Some(json!([{"id": "generated", "name": "Generated by crossat", "puzzles": [puzzle]}]))
}

/// The puzzle in the antoine-trux text format (one or two regexes per line).
pub fn to_trux(p: &Puzzle, sides: usize) -> String {
    let quote = |re: &str| format!("'{re}'");
    let lines = lines(&p.shape);
    let clues_of = |label: &str| -> Vec<String> {
        let mut v: Vec<String> =
            p.clues.iter().filter(|c| c.label == label || c.label == format!("{label} #2")).map(|c| quote(&c.regex)).collect();
        while v.len() < sides {
            v.push("'.*'".into());
        }
        v
    };
    let body: Vec<String> = lines.iter().flat_map(|(label, _)| clues_of(label)).collect();
    match &p.shape {
        Shape::Rect { rows, cols } => format!(
            "# generated by crossat\n\nshape = rectangular\n\nnum_rows = {rows}\nnum_cols = {cols}\n\nnum_regexes_per_row = {sides}\nnum_regexes_per_col = {sides}\n\n{}\n",
            body.join("\n")
        ),
        _ => format!(
            "# generated by crossat\n\nshape = hexagonal\n\nnum_regexes_per_line = {sides}\n\n# the regexes are listed counterclockwise\n\n{}\n",
            body.join("\n")
        ),
    }
}
