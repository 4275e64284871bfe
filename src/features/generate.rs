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
//! 5. *Difficulty* (`--difficulty`): clues are loosened or tightened until the puzzle
//!    rates as asked (see [`rate`]).
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
use crate::encode::{self, SymSet};
use crate::error::{Error, Result};
use crate::pipeline;
use crate::puzzle::{Clue, Puzzle, Shape, hex};
use crate::solve;
use crate::stats::Times;
use std::collections::HashMap;

pub use crate::rng::Rng;

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
    /// Probes made (a letter tried in a cell, then the lines propagated).
    pub probes: usize,
}

impl Rating {
    /// One line for people.
    pub fn describe(&self) -> String {
        format!(
            "{}: line propagation fixes {} of {} cells, with probing {} ({} probes)",
            self.difficulty.name(),
            self.by_lines,
            self.cells,
            self.by_probing,
            self.probes
        )
    }
}

/// Most probes [`rate`] makes; beyond, the puzzle is hard.
const MAX_PROBES: usize = 20_000;

/// Rates a puzzle as a person solving it line by line would find it:
///
/// - **easy**: propagating every line's possibilities to a fixpoint (each clue keeps the
///   letters some match of its line can use, given the other cells' letters; see
///   `docs/encoding.md`) fixes every cell;
/// - **medium**: not easy, but *probing* finishes it: a letter is tried in an undecided
///   cell and the lines propagated; when that fails the letter is ruled out, and a cell
///   with one letter left is fixed; repeated until nothing changes;
/// - **hard**: anything else — the puzzle needs search (or is not unique).
///
/// Fixed cells count only where the given letters are the puzzle's own.
pub fn rate(puzzle: &Puzzle, compiled: &Compiled) -> Rating {
    let cells = puzzle.givens.len();
    let letter = |a: usize| compiled.alphabet.chars()[a];
    let mut p = puzzle.clone();
    let Some(doms) = encode::domains(&p, compiled) else {
        return Rating { difficulty: Difficulty::Hard, cells, by_lines: 0, by_probing: 0, probes: 0 };
    };
    let by_lines = doms.iter().filter(|d| d.len() == 1).count();
    if by_lines == cells {
        return Rating { difficulty: Difficulty::Easy, cells, by_lines, by_probing: cells, probes: 0 };
    }
    let mut probes = 0;
    let mut doms = doms;
    loop {
        for (c, d) in doms.iter().enumerate() {
            if d.len() == 1 {
                p.givens[c] = d.iter().next().map(letter);
            }
        }
        let mut progress = false;
        #[allow(clippy::needless_range_loop, reason = "doms is read while p.givens[c] changes")]
        'cells: for c in 0..cells {
            if doms[c].len() <= 1 {
                continue;
            }
            let mut left: Vec<usize> = Vec::new();
            for a in doms[c].iter() {
                if probes >= MAX_PROBES {
                    break 'cells;
                }
                probes += 1;
                p.givens[c] = Some(letter(a));
                if encode::domains(&p, compiled).is_some() {
                    left.push(a);
                }
                p.givens[c] = None;
            }
            if left.len() == 1 {
                p.givens[c] = Some(letter(left[0]));
                progress = true;
            }
        }
        match encode::domains(&p, compiled) {
            Some(d) => doms = d,
            None => break,
        }
        let fixed = doms.iter().filter(|d| d.len() == 1).count();
        if fixed == cells {
            return Rating { difficulty: Difficulty::Medium, cells, by_lines, by_probing: fixed, probes };
        }
        if !progress || probes >= MAX_PROBES {
            return Rating { difficulty: Difficulty::Hard, cells, by_lines, by_probing: fixed, probes };
        }
    }
    Rating { difficulty: Difficulty::Hard, cells, by_lines, by_probing: by_lines, probes }
}

/// Whether `cc`, a clue over `sigma` letters for a line of `len` cells, obeys the rules:
/// not every string of the length, not the answer spelled out, and (for `len` ≥ 4)
/// fixing by itself at most three quarters of the cells.
pub fn clue_is_fair(cc: &CompiledClue, sigma: usize, len: usize) -> bool {
    let support = encode::line_support(cc, sigma, &vec![SymSet::full(sigma); len]);
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
    /// The same clue with one single-cell atom allowing one more letter: a small step
    /// toward a looser clue. `None` when no atom can grow.
    fn loosen(&self, rng: &mut Rng, alphabet: &[char]) -> Option<Gen> {
        let growable: Vec<usize> = (0..self.atoms.len())
            .filter(|&k| {
                let a = &self.atoms[k];
                !a.fixed && a.len == 1 && a.letters.as_ref().is_some_and(|l| !l.is_empty() && l.len() + 1 < alphabet.len())
            })
            .collect();
        if growable.is_empty() {
            return None;
        }
        let k = *rng.pick(&growable);
        let mut g = self.clone();
        let atom = &mut g.atoms[k];
        let mut set = atom.letters.clone()?;
        let extra: Vec<char> = alphabet.iter().copied().filter(|c| !set.contains(c)).collect();
        set.push(*rng.pick(&extra));
        set.sort_unstable();
        atom.text = format!("[{}]", set.iter().map(|&o| esc(o)).collect::<String>());
        atom.letters = Some(set);
        Some(g)
    }
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

fn attempt_once(spec: &Spec, attempt: u64, checks: &mut usize, progress: &mut dyn FnMut(usize)) -> Result<Option<Generated>> {
    let mut rng = Rng::new(spec.seed);
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
    // Difficulty: loosen (harder) or tighten (easier) one clue at a time while unique.
    let mut rating = rate(&assemble(spec, &lines, &texts(&gens)), &compiled);
    if let Some(want) = spec.difficulty {
        let mut steps = 0;
        while rating.difficulty != want {
            steps += 1;
            if steps > 400 + 4 * lines.len() || budget(&checker) {
                *checks += checker.checks;
                return Ok(None);
            }
            let l = rng.below(lines.len());
            let k = rng.below(spec.sides);
            let harder = rating.difficulty < want;
            let mut trial = gens.clone();
            // Harder: mostly small steps (one class grows by a letter), which keep
            // uniqueness more often than a fresh loose clue does.
            let small = if harder && rng.chance(0.8) { gens[l][k].loosen(&mut rng, &alphabet) } else { None };
            trial[l][k] = match small {
                Some(g) => g,
                None => clue_for(&mut rng, &word(&lines[l].1), &alphabet, if harder { 0.1 } else { 0.9 }, styles),
            };
            progress(*checks + checker.checks);
            if let Found::Solutions(sols, c) = checker.check(spec, &lines, &texts(&trial))?
                && sols == [solution.clone()]
            {
                let r = rate(&assemble(spec, &lines, &texts(&trial)), &c);
                // Accept moves toward the target, or sideways ones that do not move away.
                let toward = if harder { r.difficulty >= rating.difficulty } else { r.difficulty <= rating.difficulty };
                let closer = if harder { r.by_lines <= rating.by_lines } else { r.by_lines >= rating.by_lines };
                if toward && (r.difficulty != rating.difficulty || closer) {
                    gens = trial;
                    rating = r;
                }
            }
        }
    }
    *checks += checker.checks;
    let clues = texts(&gens);
    let puzzle = assemble(spec, &lines, &clues);
    // Final proof by the whole pipeline: compile, encode, solve, and the independent
    // matcher on every grid found.
    let mut prep = pipeline::prepare_puzzle("<generated>", puzzle.clone(), None, Times::default())?;
    let mut sols = Vec::new();
    let _ = pipeline::solve(&mut prep, Some(2), |_, g| {
        sols.push(g.cells.clone());
        Ok(())
    })?;
    if sols != vec![solution.clone()] {
        return Err(Error::Internal("the generated puzzle is not unique after all".into()));
    }
    let rating = rate(&prep.puzzle, &prep.compiled);
    Ok(Some(Generated { puzzle, solution, checks: 0, rating }))
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

/// A rectangular puzzle in the shape of regexcrossword.com's `challenges.json`: one set
/// holding one puzzle, `patternsY` per row `[left, right]`, `patternsX` per column
/// `[top, bottom]`. `None` for hexagons (their diagonals are read in other directions).
pub fn to_challenges(p: &Puzzle, id: &str) -> Option<serde_json::Value> {
    use serde_json::json;
    let Shape::Rect { .. } = p.shape else { return None };
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
    let puzzle = json!({"id": id, "name": id, "patternsX": pairs("top", "bottom"), "patternsY": pairs("left", "right")});
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
