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
//!    the puzzle rates as asked (see `deduce::rate`, the deduce stage's rater). Hard puzzles
//!    are built another way: every clue a coset of a linear code (see `hard.rs`).
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
//!
//! The files: this one holds the public entry points (`generate`, `offered`) and
//! what every route shares (the answer, the lines, assembling and proving a puzzle);
//! `attempt.rs` runs steps 2–5 for easy and medium puzzles, `hard.rs` builds hard ones;
//! `clues.rs` draws clues, `block.rs` places medium blocks, `fair.rs` holds the two
//! rules, `cache.rs` compiles each clue once and `check.rs` checks candidate puzzles.
//! The writers of the output formats sit beside their readers in the parse stage
//! (`puzzle::native::file`, `puzzle::challenges::sets`, `puzzle::trux::write`);
//! [`Generated::record`] holds the puzzle in each.

use crate::error::RequestError;
use crate::error::{Error, Result};
use crate::pipeline;
use crate::puzzle::{Clue, Puzzle, Shape};
use crate::stats::Times;
use crate::stop::Cancel;

pub(crate) use crate::deduce::rate::rate;
pub(crate) use crate::records::{Difficulty, Rating};
pub(crate) use crate::rng::Rng;

mod attempt;
mod block;
mod cache;
mod check;
mod clues;
mod fair;
mod hard;

/// Most rows or columns of a generated rectangle (`--size`).
pub const MAX_SIDE: usize = 24;

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
    /// Clues a line (the spec's `sides`).
    pub(crate) sides: usize,
    /// The seed it was made from.
    pub(crate) seed: u64,
    /// Milliseconds [`generate`] took.
    pub(crate) time_ms: f64,
}

impl Generated {
    /// The puzzle's rows of its solution, top to bottom.
    pub(crate) fn rows(&self) -> Vec<String> {
        self.puzzle.shape.display_rows().iter().map(|r| r.iter().map(|&c| self.solution[c]).collect()).collect()
    }

    /// The record `crossat generate --json` prints: the puzzle in every format that
    /// holds it (antoine-trux text, with the spec's clues a line, for regular shapes
    /// only), its solution and rating, its seed and the time [`generate`] took.
    pub fn record(&self) -> crate::records::Generated {
        let (p, seed) = (&self.puzzle, self.seed);
        // The trux format lists a hexagon's lines in thirds: it holds regular ones only.
        let regular = !matches!(&p.shape, crate::puzzle::Shape::Hex(h) if h.regular_side().is_none());
        crate::records::Generated {
            crossat: crate::puzzle::native::file(p),
            trux: regular.then(|| crate::puzzle::trux::write(p, self.sides)),
            solution: self.rows(),
            unique: true,
            difficulty: self.rating.difficulty,
            rating: self.rating,
            checks: self.checks,
            seed,
            time_ms: self.time_ms,
            challenges: crate::puzzle::challenges::sets(p, &format!("crossat-{seed}")),
        }
    }
}

/// Lines of the shape: (label, cells), one per line; each line carries `sides` clues.
/// In the antoine-trux order, so that `puzzle::trux::write` lists the clues line by
/// line.
fn lines(shape: &Shape) -> Vec<(String, Vec<usize>)> {
    crate::puzzle::trux::lines(shape)
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
    Puzzle {
        name: None,
        shape: spec.shape.clone(),
        clues: all,
        alphabet: None,
        givens: vec![None; n],
        pool: None,
        dialect: Default::default(),
    }
}

/// Generates a unique puzzle, trying fresh random streams when one gets stuck,
/// reporting the uniqueness checks made so far to `progress` and polling `cancel` at
/// each uniqueness check and before each SAT call: a cancelled token ends it with
/// [`Error::Cancelled`].
pub fn generate(spec: &Spec, progress: &mut dyn FnMut(usize), cancel: &Cancel) -> Result<Generated> {
    let started = crate::clock::Instant::now();
    let mut made = search(spec, progress, cancel)?;
    made.time_ms = started.elapsed().as_secs_f64() * 1e3;
    Ok(made)
}

/// [`generate`] without its timing.
fn search(spec: &Spec, progress: &mut dyn FnMut(usize), cancel: &Cancel) -> Result<Generated> {
    offered(spec)?;
    if spec.difficulty == Some(Difficulty::Hard) {
        return generate_hard(spec, progress, cancel);
    }
    let mut checks = 0;
    for attempt in 0..ATTEMPTS {
        if let Some(mut g) = attempt::attempt_once(spec, attempt, &mut checks, progress, cancel)? {
            g.checks = checks;
            return Ok(g);
        }
    }
    Err(Error::Request(RequestError::NoUniquePuzzle {
        difficulty: spec.difficulty.map(Difficulty::name),
        attempts: ATTEMPTS,
        checks: Some(checks),
    }))
}

/// Refuses, before any search, a difficulty the generator does not make for the spec:
/// `hard` with back-references or lookarounds (its clues are alternations of code
/// words) or on lines too short for its codes (`hard::plan`), `medium` on a grid of one row
/// or one column (with one clue per line such a grid is always easy: each cell's column
/// clue is a set of letters, and propagating the single row clue against them leaves
/// exactly the letters of its solutions; the generator's medium block needs 2×2 cells).
pub(crate) fn offered(spec: &Spec) -> Result<()> {
    match (spec.difficulty, &spec.shape) {
        (Some(Difficulty::Hard), _) if spec.backrefs || spec.lookarounds => Err(Error::Request(RequestError::HardWithPatterns)),
        (Some(Difficulty::Hard), shape) => {
            let lengths: Vec<usize> = lines(shape).iter().map(|(_, c)| c.len()).collect();
            match hard::plan(&lengths, spec.sides, shape.cells()) {
                Some(_) => Ok(()),
                None => Err(hard_refusal(spec)),
            }
        }
        (Some(Difficulty::Medium), Shape::Rect { rows, cols }) if *rows < 2 || *cols < 2 => {
            Err(Error::Request(RequestError::MediumTooSmall { rows: *rows, cols: *cols }))
        }
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
        return Err(Error::Request(RequestError::EmptyText));
    }
    if text.len() > n {
        return Err(Error::Request(RequestError::TextTooLong { chars: text.len(), cells: n, shape: spec.shape.to_string() }));
    }
    let mut solution = text.clone();
    while solution.len() < n {
        solution.push(text[rng.below(text.len())]);
    }
    Ok(solution)
}

/// The final proof by the whole pipeline (compile, encode, solve, and the independent
/// matcher on every grid found) that `solution` is the puzzle's only solution, and the
/// puzzle's rating.
fn prove(puzzle: &Puzzle, solution: &[char], cancel: &Cancel) -> Result<Rating> {
    let mut prep = pipeline::prepare_puzzle_cancellable("<generated>", puzzle.clone(), None, Times::default(), cancel)?;
    let mut sols = Vec::new();
    let _ = pipeline::solve(&mut prep, Some(2), |_, g| {
        sols.push(g.cells.clone());
        Ok(())
    })?;
    if sols != [solution] {
        return Err(Error::Internal("the generated puzzle is not unique after all".into()));
    }
    Ok(rate(&prep.puzzle, prep.compiled()?).knowing(Some(1)))
}

/// A hard puzzle ([`hard`]): clues that are cosets of linear codes, drawn until they
/// decide the grid; each attempt is proven unique and rated by the whole pipeline.
fn generate_hard(spec: &Spec, progress: &mut dyn FnMut(usize), cancel: &Cancel) -> Result<Generated> {
    let lines = lines(&spec.shape);
    let lengths: Vec<usize> = lines.iter().map(|(_, c)| c.len()).collect();
    let plan = hard::plan(&lengths, spec.sides, spec.shape.cells()).ok_or_else(|| hard_refusal(spec))?;
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
        let rating = prove(&puzzle, &solution, cancel)?;
        if rating.difficulty == Difficulty::Hard {
            return Ok(Generated {
                puzzle,
                solution,
                checks: attempt as usize + 1,
                rating,
                sides: spec.sides,
                seed: spec.seed,
                time_ms: 0.0,
            });
        }
    }
    Err(Error::Request(RequestError::NoUniquePuzzle { difficulty: Some(Difficulty::Hard.name()), attempts: ATTEMPTS, checks: None }))
}

/// The refusal of a hard puzzle on the spec's shape: its lines are too short for the codes.
fn hard_refusal(spec: &Spec) -> Error {
    Error::Request(RequestError::HardTooSmall { shape: spec.shape.to_string(), sides: spec.sides })
}

#[cfg(test)]
mod tests;
