//! The SAT route: the square rules as CNF over the layered DAWGs, solved by varisat.
//! Kept for what SAT does well: proving that no square exists (or that a partly given
//! square cannot be completed), exact enumeration on small instances, and `--dimacs`.
//!
//! A cell is one-hot over *blank* and the two-letter pairs (tokens) some word uses. The
//! encoding does not unroll a DAWG over the cells of a line, which would repeat every
//! state once per way the blanks can fall before it. Each line instead has its own
//! *word tokens* (pair `j` of the word, blanks skipped), a DAWG run over them, and a
//! sequential counter over its cells: `t[i][j]` says that `j` of the first `i` cells are
//! filled. Cell `i` holds word pair `j` exactly when `t[i][j]` holds and the cell is not
//! blank, which ties cell tokens to word tokens. The counter's last column is the word
//! length, where the fill rules (at least half filled, at least one blank) are stated,
//! and where the run must accept. The run has state and edge variables (as for regex
//! clues), so unit propagation keeps only the pairs some whole word supports.

use super::dawg::{Lexicon, LineWords};
use super::{BLANK, Given, LETTERS, MAX_CLAUSES, Outcome, PAIRS, Progress, Size, Square, filled_range, verify};
use crate::encode::{ClauseSink, Cnf, exactly_one};
use crate::error::{Error, Result};
use crate::puzzle::Dictionary;
use crate::rng::Rng;
use crate::solve::Oracle;
use std::collections::BTreeMap;

/// The variables of one cell: blank, or one per pair (0 where no word has that pair).
#[derive(Clone, Debug)]
struct CellVars {
    blank: i32,
    pairs: Vec<i32>,
}

/// The variables of one line that name its word.
#[derive(Clone, Debug)]
struct LineVars {
    /// `(k, var)`: the line has exactly `k` filled cells.
    len: Vec<(usize, i32)>,
    /// Per word position, per pair: the variable (0 when no word has it there).
    tokens: Vec<Vec<i32>>,
}

/// The formula and how to read it.
pub(crate) struct Model {
    /// The size.
    pub size: Size,
    /// The formula.
    pub cnf: Cnf,
    cells: Vec<CellVars>,
    lines: Vec<LineVars>,
}

/// Encodes the square rules for `size` over the compiled words.
pub(crate) fn encode(lex: &Lexicon, size: Size) -> Result<Model> {
    let mut cnf = Cnf::new();
    let mut used = vec![false; PAIRS];
    for l in &lex.lines {
        for &(t, _) in l.layers.iter().flatten().flat_map(|s| &s.1) {
            used[t as usize] = true;
        }
    }
    let cells: Vec<CellVars> = (0..size.width * size.height)
        .map(|_| CellVars { blank: cnf.new_var(), pairs: used.iter().map(|&u| if u { cnf.new_var() } else { 0 }).collect() })
        .collect();
    for c in &cells {
        let mut one = vec![c.blank];
        one.extend(c.pairs.iter().filter(|&&v| v != 0));
        exactly_one(&mut cnf, &one, None);
    }
    let mut lines = Vec::new();
    for (l, line) in size.lines().iter().enumerate() {
        lines.push(encode_line(&mut cnf, lex.get(line.len()), &cells, line));
        if cnf.num_clauses() > MAX_CLAUSES {
            return Err(Error::Usage(format!(
                "the formula is too large at {}: more than {MAX_CLAUSES} clauses (use a smaller size or dictionary)",
                size.line_name(l)
            )));
        }
    }
    Ok(Model { size, cnf, cells, lines })
}

fn encode_line(cnf: &mut Cnf, words: &LineWords, cells: &[CellVars], line: &[usize]) -> LineVars {
    let n = line.len();
    let range = filled_range(n);
    let (kmin, kmax) = (*range.start(), *range.end());
    // Counter: t[i][j] for j filled among the first i cells, within reach of the rules.
    let possible = |i: usize, j: usize| j <= i && j <= kmax && i - j <= n - kmin && j + (n - i) >= kmin && (i < n || j >= kmin);
    let t: Vec<Vec<i32>> = (0..=n).map(|i| (0..=i).map(|j| if possible(i, j) { cnf.new_var() } else { 0 }).collect()).collect();
    cnf.add_clause(&[t[0][0]]);
    for i in 0..n {
        let b = cells[line[i]].blank;
        let vars: Vec<i32> = t[i + 1].iter().copied().filter(|&v| v != 0).collect();
        exactly_one(cnf, &vars, None);
        for j in 0..=i {
            let v = t[i][j];
            if v == 0 {
                continue;
            }
            // A blank keeps the count, a filled cell raises it.
            for (lit, to) in [(b, t[i + 1][j]), (-b, t[i + 1][j + 1])] {
                cnf.add_clause(&if to == 0 { vec![-v, -lit] } else { vec![-v, -lit, to] });
            }
        }
        for j in 0..=i + 1 {
            let v = t[i + 1][j];
            if v == 0 {
                continue;
            }
            let same = t[i].get(j).copied().unwrap_or(0);
            let below = if j > 0 { t[i][j - 1] } else { 0 };
            cnf.add_clause(&if same == 0 { vec![-v, -b] } else { vec![-v, -b, same] });
            cnf.add_clause(&if below == 0 { vec![-v, b] } else { vec![-v, b, below] });
        }
    }
    let len: Vec<(usize, i32)> = range.clone().map(|k| (k, t[n][k])).collect();
    // more[j]: the word has a pair j (more than j cells filled).
    let more: Vec<i32> = (0..kmax)
        .map(|j| {
            let m = cnf.new_var();
            let longer: Vec<i32> = len.iter().filter(|&&(k, _)| k > j).map(|&(_, v)| v).collect();
            let mut c = vec![-m];
            c.extend(&longer);
            cnf.add_clause(&c);
            for &v in &longer {
                cnf.add_clause(&[-v, m]);
            }
            m
        })
        .collect();
    // Word tokens: per position, the pairs some word has there.
    let tokens: Vec<Vec<i32>> = (0..kmax)
        .map(|j| {
            let mut used = vec![false; PAIRS];
            for (_, edges) in &words.layers[j] {
                for &(x, _) in edges {
                    used[x as usize] = true;
                }
            }
            used.iter().map(|&u| if u { cnf.new_var() } else { 0 }).collect()
        })
        .collect();
    for (j, row) in tokens.iter().enumerate() {
        for &w in row.iter().filter(|&&w| w != 0) {
            cnf.add_clause(&[-w, more[j]]);
        }
    }
    // Channel: cell i holds pair j exactly when t[i][j] holds and the cell is filled.
    for i in 0..n {
        let cell = &cells[line[i]];
        for j in 0..=i.min(kmax - 1) {
            let v = t[i][j];
            if v == 0 {
                continue;
            }
            let f = cnf.new_var();
            cnf.add_clause(&[-f, v]);
            cnf.add_clause(&[-f, -cell.blank]);
            cnf.add_clause(&[f, -v, cell.blank]);
            for (&x, &w) in cell.pairs.iter().zip(&tokens[j]) {
                match (x, w) {
                    (0, 0) => {}
                    (x, 0) => cnf.add_clause(&[-f, -x]),
                    (0, w) => cnf.add_clause(&[-f, -w]),
                    (x, w) => {
                        cnf.add_clause(&[-f, -x, w]);
                        cnf.add_clause(&[-f, -w, x]);
                    }
                }
            }
        }
    }
    // The run of the DAWG over the word tokens, with state and edge variables so that
    // unit propagation keeps only the tokens some whole word supports.
    let states: Vec<Vec<i32>> = words.layers.iter().take(kmax + 1).map(|l| l.iter().map(|_| cnf.new_var()).collect()).collect();
    match states[0].first() {
        Some(&root) => cnf.add_clause(&[root]),
        None => cnf.add_clause(&[]),
    }
    let mut incoming: Vec<Vec<i32>> = vec![];
    for j in 0..=kmax {
        let layer = &words.layers[j];
        for (q, &s) in states[j].iter().enumerate() {
            if j > 0 {
                let mut c = vec![-s];
                c.extend(&incoming[q]);
                cnf.add_clause(&c);
            }
            if !layer[q].0 {
                // A word may stop only where the DAWG accepts.
                cnf.add_clause(&if j < kmax { vec![-s, more[j]] } else { vec![-s] });
            }
        }
        if j == kmax {
            break;
        }
        incoming = vec![vec![]; states[j + 1].len()];
        let mut carry: BTreeMap<u16, Vec<i32>> = BTreeMap::new();
        for (q, (_, edges)) in layer.iter().enumerate() {
            let s = states[j][q];
            // While the word goes on, some edge out of the state is taken.
            let mut out = vec![-s, -more[j]];
            for &(x, to) in edges {
                let (w, t) = (tokens[j][x as usize], states[j + 1][to as usize]);
                let e = cnf.new_var();
                cnf.add_clause(&[-e, s]);
                cnf.add_clause(&[-e, w]);
                cnf.add_clause(&[-e, t]);
                cnf.add_clause(&[-s, -w, e]);
                out.push(e);
                incoming[to as usize].push(e);
                carry.entry(x).or_default().push(e);
            }
            cnf.add_clause(&out);
        }
        // A token is used only on some edge.
        for (x, es) in carry {
            let mut c = vec![-tokens[j][x as usize]];
            c.extend(es);
            cnf.add_clause(&c);
        }
    }
    LineVars { len, tokens }
}

/// Writes the formula in DIMACS, with comments naming the cell variables:
/// `c blank VAR ROW COL` and `c cell VAR ROW COL "xy"` (0-based).
pub(crate) fn write_dimacs(out: &mut impl std::io::Write, model: &Model) -> std::io::Result<()> {
    writeln!(out, "c crossat {} word-square CNF, {}x{}", env!("CARGO_PKG_VERSION"), model.size.width, model.size.height)?;
    for (i, cell) in model.cells.iter().enumerate() {
        let (r, c) = (i / model.size.width, i % model.size.width);
        writeln!(out, "c blank {} {r} {c}", cell.blank)?;
        for (p, &v) in cell.pairs.iter().enumerate().filter(|&(_, &v)| v != 0) {
            let pair: String = [p / LETTERS, p % LETTERS].iter().map(|&x| char::from(b'a' + x as u8)).collect();
            writeln!(out, "c cell {v} {r} {c} \"{pair}\"")?;
        }
    }
    writeln!(out, "p cnf {} {}", model.cnf.num_vars(), model.cnf.num_clauses())?;
    for clause in model.cnf.clauses() {
        for l in clause {
            write!(out, "{l} ")?;
        }
        writeln!(out, "0")?;
    }
    Ok(())
}

/// Finds up to `count` distinct squares, each verified before it is passed on. The
/// seed sets the polarity of every variable, so different seeds explore the space in
/// different orders; a seed always gives the same squares.
pub(crate) fn generate(
    model: &Model,
    dict: &Dictionary,
    seed: u64,
    count: usize,
    progress: &Progress,
    mut on_square: impl FnMut(&Square) -> Result<()>,
) -> Result<Outcome> {
    use std::sync::atomic::Ordering::Relaxed;
    let polarity = Polarity::new(model.cnf.num_vars(), seed);
    let mut oracle = Oracle::from_clauses(model.cnf.clauses().map(|c| polarity.clause(c)));
    let mut outcome = Outcome::default();
    while outcome.found < count {
        let Some(value) = oracle.solve(&[])? else {
            outcome.complete = true;
            break;
        };
        let value = |v: i32| polarity.value(&value, v);
        let sq = decode(model, &value)?;
        let repeats = repeated_words(model, &sq, &value);
        if !repeats.is_empty() {
            for c in repeats {
                oracle.add_clause(&polarity.clause(&c));
                outcome.repeats_blocked += 1;
            }
            progress.repeats.store(outcome.repeats_blocked, Relaxed);
            continue;
        }
        verify(&sq, dict).map_err(|e| Error::Internal(format!("a generated square failed verification: {e}\n{}", sq.draw())))?;
        on_square(&sq)?;
        outcome.found += 1;
        progress.found.store(outcome.found, Relaxed);
        oracle.add_clause(&polarity.clause(&blocking_clause(model, &value)));
    }
    Ok(outcome)
}

fn decode(model: &Model, value: &impl Fn(i32) -> bool) -> Result<Square> {
    let cells = model
        .cells
        .iter()
        .map(|c| match (value(c.blank), c.pairs.iter().position(|&v| v != 0 && value(v))) {
            (true, _) => Ok(None),
            (false, Some(p)) => Ok(Some([b'a' + (p / LETTERS) as u8, b'a' + (p % LETTERS) as u8])),
            _ => Err(Error::Internal("a cell of the model has no letters".into())),
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(Square { size: model.size, cells })
}

/// For each word two lines share: a clause that forbids exactly that (both lines
/// spelling that word), stated on the lines' word variables.
fn repeated_words(model: &Model, sq: &Square, value: &impl Fn(i32) -> bool) -> Vec<Vec<i32>> {
    let words = sq.words();
    let mut clauses = Vec::new();
    for a in 0..words.len() {
        for b in a + 1..words.len() {
            if words[a] == words[b] {
                let mut c = spells(&model.lines[a], &words[a]);
                c.extend(spells(&model.lines[b], &words[b]));
                debug_assert!(c.iter().all(|&l| value(l)));
                clauses.push(c.into_iter().map(|l| -l).collect());
            }
        }
    }
    clauses
}

/// The literals that together say "this line spells `word`".
fn spells(line: &LineVars, word: &str) -> Vec<i32> {
    let k = word.len() / 2;
    let mut lits: Vec<i32> = line.len.iter().filter(|&&(n, _)| n == k).map(|&(_, v)| v).collect();
    lits.extend(
        word.as_bytes().chunks(2).enumerate().map(|(j, p)| line.tokens[j][usize::from(p[0] - b'a') * LETTERS + usize::from(p[1] - b'a')]),
    );
    lits
}

/// The clause that rules out this square's cells.
fn blocking_clause(model: &Model, value: &impl Fn(i32) -> bool) -> Vec<i32> {
    let mut c = Vec::new();
    for cell in &model.cells {
        if value(cell.blank) {
            c.push(-cell.blank);
        } else {
            c.extend(cell.pairs.iter().filter(|&&v| v != 0 && value(v)).map(|&v| -v));
        }
    }
    c
}

/// A seeded choice of polarity per variable: the solver first tries every variable
/// false (varisat has no phase setting), so flipping a variable's sign makes "true" its
/// first guess. Each seed thus walks the search space in its own order and a seed
/// always gives the same squares. Variable numbering and clause order stay as encoded:
/// shuffling them as well made runs slower and far more erratic (docs/performance.md).
struct Polarity {
    /// Per variable (index 0 unused): whether the solver sees it negated.
    flip: Vec<bool>,
}

impl Polarity {
    fn new(vars: usize, seed: u64) -> Polarity {
        let mut rng = Rng::new(seed);
        Polarity { flip: (0..=vars).map(|_| rng.below(2) == 1).collect() }
    }

    /// The solver's clause for clause `c`.
    fn clause(&self, c: &[i32]) -> Vec<i32> {
        c.iter().map(|&l| if self.flip[l.unsigned_abs() as usize] { -l } else { l }).collect()
    }

    /// Value of variable `v` in a model of the flipped formula.
    fn value(&self, model: &[bool], v: i32) -> bool {
        model[v as usize] != self.flip[v as usize]
    }
}

/// Fixes the given cells by unit clauses; a given pair no word uses there makes the
/// formula unsatisfiable (an empty clause).
pub(crate) fn pin(model: &mut Model, given: &Given) {
    for (cell, g) in model.cells.iter().zip(&given.cells) {
        match *g {
            None => {}
            Some(BLANK) => model.cnf.add_clause(&[cell.blank]),
            Some(p) => match cell.pairs[usize::from(p)] {
                0 => model.cnf.add_clause(&[]),
                v => model.cnf.add_clause(&[v]),
            },
        }
    }
}
