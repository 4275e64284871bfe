//! One attempt at an easy or medium puzzle: fresh clues for the answer, then the steps
//! of the module docs in order — tighten until unique ([`Attempt::tighten`]), loosen
//! ([`Attempt::loosen`]), place a medium block ([`Attempt::place_block`]) and move
//! toward the asked difficulty ([`Attempt::reach`]) — within a budget of uniqueness
//! checks. Every random draw comes from the attempt's own stream, in a fixed order, so
//! a seed always gives the same puzzle.

use super::block::{block_placements, with_block};
use super::check::{Checker, Found};
use super::clues::{Gen, Styles, clue_for};
use super::{Difficulty, Generated, Spec, answer, assemble, lines, prove};
use crate::compile::Compiled;
use crate::deduce::rate::rate;
use crate::error::Result;
use crate::records::Rating;
use crate::rng::Rng;

/// Uniqueness checks one attempt may make before starting over with fresh clues.
const MAX_CHECKS: usize = 1500;

/// Attempt number `attempt` (each draws other clues for the same answer); `None` when
/// it runs out of checks or gets stuck. `checks` counts the checks of every attempt.
pub(super) fn attempt_once(
    spec: &Spec,
    attempt: u64,
    checks: &mut usize,
    progress: &mut dyn FnMut(usize),
    cancel: &crate::stop::Cancel,
) -> Result<Option<Generated>> {
    let mut a = Attempt::new(spec, attempt, *checks, progress)?;
    a.checker.cancel = cancel.clone();
    let done = a.run();
    *checks += a.checker.checks;
    if !done? {
        return Ok(None);
    }
    let puzzle = assemble(spec, &a.lines, &texts(&a.gens));
    let rating = prove(&puzzle, &a.solution, cancel)?;
    Ok(Some(Generated { puzzle, solution: a.solution, checks: 0, rating, sides: spec.sides, seed: spec.seed, time_ms: 0.0 }))
}

/// An attempt's state: the answer, the clues drawn so far and the checks made.
struct Attempt<'a> {
    spec: &'a Spec,
    rng: Rng,
    /// The answer, cell by cell.
    solution: Vec<char>,
    /// The answer's letters plus decoys: what clues draw from.
    alphabet: Vec<char>,
    styles: Styles,
    lines: Vec<(String, Vec<usize>)>,
    /// The clues, per line and side.
    gens: Vec<Vec<Gen>>,
    checker: Checker,
    /// Checks made by earlier attempts, for `progress`.
    before: usize,
    progress: &'a mut dyn FnMut(usize),
}

impl<'a> Attempt<'a> {
    /// The answer, the alphabet and a first clue on every side of every line.
    fn new(spec: &'a Spec, attempt: u64, before: usize, progress: &'a mut dyn FnMut(usize)) -> Result<Attempt<'a>> {
        let mut rng = Rng::new(spec.seed);
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
        let gens: Vec<Vec<Gen>> = lines
            .iter()
            .map(|(_, cells)| (0..spec.sides).map(|_| clue_for(&mut rng, &word(cells), &alphabet, 0.45, styles)).collect())
            .collect();
        Ok(Attempt { spec, rng, solution, alphabet, styles, lines, gens, checker: Checker::default(), before, progress })
    }

    /// The steps in order; `false` when the attempt gives up.
    fn run(&mut self) -> Result<bool> {
        let Some(mut compiled) = self.tighten()? else { return Ok(false) };
        self.loosen(&mut compiled)?;
        let mut rating = rate(&assemble(self.spec, &self.lines, &texts(&self.gens)), &compiled);
        if self.spec.difficulty == Some(Difficulty::Medium) && rating.difficulty == Difficulty::Easy {
            self.place_block(&mut rating)?;
        }
        match self.spec.difficulty {
            Some(want) => self.reach(want, rating),
            None => Ok(true),
        }
    }

    /// The answer's letters along line `l`.
    fn word(&self, l: usize) -> Vec<char> {
        self.lines[l].1.iter().map(|&c| self.solution[c]).collect()
    }

    fn over_budget(&self) -> bool {
        self.checker.checks > MAX_CHECKS
    }

    fn report(&mut self) {
        (self.progress)(self.before + self.checker.checks);
    }

    /// A fresh clue of tightness `tight` on side `k` of line `l`.
    fn redraw(&mut self, l: usize, k: usize, tight: f64) {
        let word = self.word(l);
        self.gens[l][k] = clue_for(&mut self.rng, &word, &self.alphabet, tight, self.styles);
    }

    /// The rating of the puzzle `gens` make, when the answer is its only solution.
    fn rating_if_unique(&mut self, gens: &[Vec<Gen>]) -> Result<Option<Rating>> {
        let clues = texts(gens);
        self.checker.rating_if_unique(self.spec, &self.lines, &clues, &self.solution)
    }

    /// Tightens until the answer is the only solution and every clue is fair; the
    /// compiled puzzle, or `None` when the checks run out.
    fn tighten(&mut self) -> Result<Option<Compiled>> {
        let mut tight = 0.55;
        let mut unfair_rounds = 0;
        loop {
            self.report();
            if self.over_budget() {
                return Ok(None);
            }
            let clues = texts(&self.gens);
            let (sols, compiled) = match self.checker.check(self.spec, &self.lines, &clues)? {
                Found::Unfair(bad) => {
                    unfair_rounds += 1;
                    for (l, k) in bad {
                        self.redraw(l, k, if unfair_rounds % 2 == 0 { 0.9 } else { 0.45 });
                    }
                    continue;
                }
                Found::Solutions(sols, c) => (sols, c),
            };
            if sols == [self.solution.clone()] {
                return Ok(Some(compiled));
            }
            // Every clue matches its word by construction, so the answer is a solution
            // when the puzzle's alphabet (the letters the clues mention) holds all its
            // letters.
            let text_ok = self.solution.iter().all(|&c| compiled.alphabet.index(c).is_some());
            let Some(other) = sols.iter().find(|s| **s != self.solution).filter(|_| text_ok) else {
                // A letter of the answer that no clue mentions: tighter clues on random lines.
                for _ in 0..3 {
                    let l = self.rng.below(self.lines.len());
                    let k = self.rng.below(self.spec.sides);
                    self.redraw(l, k, 1.0);
                }
                continue;
            };
            self.pin_difference(other, tight);
            tight = (tight + 0.02).min(1.0);
        }
    }

    /// Pins cells where another solution `other` differs from the answer: on a line
    /// through such a cell, the clue stops allowing the other letter there (and gets no
    /// looser elsewhere). When no clue can be pinned, a fresh clue of tightness `tight`.
    fn pin_difference(&mut self, other: &[char], tight: f64) {
        let differ: Vec<usize> = (0..self.spec.shape.cells()).filter(|&c| other[c] != self.solution[c]).collect();
        let mut pinned = 0;
        for _ in 0..8 {
            let (c, l, k) = self.line_through(&differ);
            let p = self.lines[l].1.iter().position(|&x| x == c).unwrap_or(0);
            let word = self.word(l);
            if let Some(g) = self.gens[l][k].pin(&mut self.rng, &word, &self.alphabet, p, other[c]) {
                self.gens[l][k] = g;
                pinned += 1;
                if pinned >= 2 {
                    break;
                }
            }
        }
        if pinned == 0 {
            let (_, l, k) = self.line_through(&differ);
            self.redraw(l, k, tight);
        }
    }

    /// A random cell of `cells`, a random line through it and a random side: (cell,
    /// line, side).
    fn line_through(&mut self, cells: &[usize]) -> (usize, usize, usize) {
        let c = *self.rng.pick(cells);
        let through: Vec<usize> = (0..self.lines.len()).filter(|&l| self.lines[l].1.contains(&c)).collect();
        let l = *self.rng.pick(&through);
        let k = self.rng.below(self.spec.sides);
        (c, l, k)
    }

    /// Loosens: each clue in turn, in random order, is replaced by the shortest of three
    /// looser candidates that keeps the answer the only solution.
    fn loosen(&mut self, compiled: &mut Compiled) -> Result<()> {
        let mut order: Vec<(usize, usize)> = (0..self.lines.len()).flat_map(|l| (0..self.spec.sides).map(move |k| (l, k))).collect();
        shuffle(&mut self.rng, &mut order);
        for (l, k) in order {
            let word = self.word(l);
            let mut candidates: Vec<Gen> = (0..3).map(|_| clue_for(&mut self.rng, &word, &self.alphabet, 0.15, self.styles)).collect();
            candidates.sort_by_key(|g| g.text().len());
            for cand in candidates {
                if cand.text().len() >= self.gens[l][k].text().len() {
                    continue;
                }
                let mut trial = self.gens.clone();
                trial[l][k] = cand;
                self.report();
                let clues = texts(&trial);
                if let Found::Solutions(sols, c) = self.checker.check(self.spec, &self.lines, &clues)?
                    && sols == [self.solution.clone()]
                {
                    self.gens = trial;
                    *compiled = c;
                    break;
                }
            }
        }
        Ok(())
    }

    /// Turns an easy puzzle medium: a medium block (see [`block_placements`]) at one
    /// place after another, until one keeps the puzzle unique and rates medium.
    fn place_block(&mut self, rating: &mut Rating) -> Result<()> {
        let mut places = block_placements(&self.lines);
        shuffle(&mut self.rng, &mut places);
        for place in places.into_iter().take(12) {
            if self.over_budget() {
                break;
            }
            let Some(trial) = with_block(&mut self.rng, &self.gens, &self.lines, &self.solution, &self.alphabet, &place) else {
                continue;
            };
            self.report();
            if let Some(r) = self.rating_if_unique(&trial)?
                && r.difficulty == Difficulty::Medium
            {
                self.gens = trial;
                *rating = r;
                break;
            }
        }
        Ok(())
    }

    /// Moves toward the difficulty `want` from `rating`: easier by tighter fresh clues
    /// ([`Attempt::easier`]), harder by loosening moves ([`Attempt::harder`]). `false`
    /// when the steps or checks run out, or no move is left.
    fn reach(&mut self, want: Difficulty, mut rating: Rating) -> Result<bool> {
        let mut steps = 0;
        while rating.difficulty != want {
            steps += 1;
            if steps > 400 + 4 * self.lines.len() || self.over_budget() {
                return Ok(false);
            }
            if rating.difficulty > want {
                self.easier(&mut rating)?;
            } else if !self.harder(want, &mut rating)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// One step easier: a tight fresh clue on a random side, kept when the puzzle stays
    /// unique and rates easier (or as hard, with as many cells fixed by the lines).
    fn easier(&mut self, rating: &mut Rating) -> Result<()> {
        let l = self.rng.below(self.lines.len());
        let k = self.rng.below(self.spec.sides);
        let mut trial = self.gens.clone();
        let word = self.word(l);
        trial[l][k] = clue_for(&mut self.rng, &word, &self.alphabet, 0.9, self.styles);
        self.report();
        if let Some(r) = self.rating_if_unique(&trial)?
            && (r.difficulty < rating.difficulty || (r.difficulty == rating.difficulty && r.by_lines >= rating.by_lines))
        {
            self.gens = trial;
            *rating = r;
        }
        Ok(())
    }

    /// One step harder: the first loosening move, in random order, that keeps the
    /// puzzle unique and no harder than `want`, with a complete rating. A loosening only
    /// grows a clue's language, so the puzzle can only get harder or keep its class.
    /// `false` when every move breaks uniqueness or overshoots.
    fn harder(&mut self, want: Difficulty, rating: &mut Rating) -> Result<bool> {
        let mut moves: Vec<(usize, usize, Gen)> = Vec::new();
        for (l, line) in self.gens.iter().enumerate() {
            for (k, clue) in line.iter().enumerate() {
                for g in clue.loosenings(&mut self.rng, &self.alphabet) {
                    moves.push((l, k, g));
                }
            }
        }
        shuffle(&mut self.rng, &mut moves);
        for (l, k, g) in moves {
            if self.over_budget() {
                break;
            }
            let mut trial = self.gens.clone();
            trial[l][k] = g;
            self.report();
            if let Some(r) = self.rating_if_unique(&trial)?
                && r.difficulty <= want
                && r.complete
            {
                self.gens = trial;
                *rating = r;
                return Ok(true);
            }
        }
        Ok(false)
    }
}

/// The clues as written, per line and side.
fn texts(gens: &[Vec<Gen>]) -> Vec<Vec<String>> {
    gens.iter().map(|l| l.iter().map(Gen::text).collect()).collect()
}

/// Shuffles `v` in place (Fisher–Yates, from the back).
fn shuffle<T>(rng: &mut Rng, v: &mut [T]) {
    for i in (1..v.len()).rev() {
        v.swap(i, rng.below(i + 1));
    }
}
