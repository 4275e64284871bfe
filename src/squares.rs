//! Word squares: W×H grids whose cells hold two letters or are blank, every row and
//! column (read with its blanks skipped) a dictionary word, at least half of every line
//! filled, at least one blank per line, no word twice.
//!
//! The stages mirror the puzzle pipeline:
//!
//! | stage | here | in → out |
//! |---|---|---|
//! | parse | [`crate::words::Dictionary`] | word file → words |
//! | compile | [`Lexicon::new`] | words → one layered DAWG per line length |
//! | encode | [`encode`] | DAWGs → CNF (cells, counters, word tokens, runs) |
//! | solve | [`generate`] | CNF → squares; repeated words blocked lazily |
//! | verify | [`verify`] | square → checked against the word *set*, not the DAWG |
//! | emit | [`Square::rows`], [`Square::draw`] | square → JSON rows, boxed text |
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

use crate::encode::{ClauseSink, Cnf, exactly_one};
use crate::error::{Error, Result};
use crate::generate::Rng;
use crate::solve::Oracle;
use crate::words::Dictionary;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Largest width or height accepted.
pub const MAX_SIDE: usize = 10;
/// Most clauses the formula may have.
pub const MAX_CLAUSES: usize = 30_000_000;
const LETTERS: usize = 26;

/// A grid size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size {
    /// Cells per row.
    pub width: usize,
    /// Cells per column.
    pub height: usize,
}

impl Size {
    /// Checks the limits: each side from 2 to [`MAX_SIDE`].
    pub fn new(width: usize, height: usize) -> Result<Size> {
        for (name, v) in [("width", width), ("height", height)] {
            if !(2..=MAX_SIDE).contains(&v) {
                return Err(Error::Usage(format!(
                    "--{name} {v}: a word square needs from 2 to {MAX_SIDE} cells per side (every line needs a blank and at least half filled)"
                )));
            }
        }
        Ok(Size { width, height })
    }

    /// The lines: rows top to bottom, then columns left to right, each as cell indices.
    pub fn lines(&self) -> Vec<Vec<usize>> {
        let (w, h) = (self.width, self.height);
        (0..h).map(|r| (0..w).map(|c| r * w + c).collect()).chain((0..w).map(|c| (0..h).map(|r| r * w + c).collect())).collect()
    }

    /// Line `l`'s name, e.g. `row 1` or `column 3` (1-based).
    pub fn line_name(&self, l: usize) -> String {
        if l < self.height { format!("row {}", l + 1) } else { format!("column {}", l - self.height + 1) }
    }
}

/// The fill rules for a line of `n` cells: the allowed numbers of filled cells.
pub fn filled_range(n: usize) -> std::ops::RangeInclusive<usize> {
    n.div_ceil(2)..=n - 1
}

/// Whether `word` can fill a line of `n` cells (an even length of allowed pairs).
fn fits(word: &str, n: usize) -> bool {
    word.len().is_multiple_of(2) && filled_range(n).contains(&(word.len() / 2))
}

/// Two-letter cell contents: `26·a + b` for letters `a`, `b`.
pub const PAIRS: usize = LETTERS * LETTERS;

/// A DAWG state: whether it accepts, and its edges (pair, index in the next layer).
type State = (bool, Vec<(u16, u32)>);

/// The words of one line length as a DAWG over pair tokens, split into depth layers.
#[derive(Debug)]
pub struct LineWords {
    /// Cells in the line.
    pub cells: usize,
    /// Words that fit (lengths `2k` for `k` in [`filled_range`]).
    pub words: usize,
    /// `layers[j]`: the states after `j` pairs: (accepts here, edges (pair, index in
    /// layer `j + 1`)).
    layers: Vec<Vec<State>>,
}

impl LineWords {
    /// States over all layers.
    pub fn states(&self) -> usize {
        self.layers.iter().map(Vec::len).sum()
    }

    /// Edges over all layers.
    pub fn edges(&self) -> usize {
        self.layers.iter().flatten().map(|s| s.1.len()).sum()
    }

    /// Whether the DAWG accepts `word` (for tests).
    pub fn accepts(&self, word: &str) -> bool {
        let mut q = 0u32;
        for (j, p) in word.as_bytes().chunks(2).enumerate() {
            let (Some(layer), [a, b]) = (self.layers.get(j), p) else { return false };
            let tok = u16::from(a - b'a') * LETTERS as u16 + u16::from(b - b'a');
            match layer.get(q as usize).and_then(|s| s.1.iter().find(|e| e.0 == tok)) {
                Some(&(_, t)) => q = t,
                None => return false,
            }
        }
        word.len().is_multiple_of(2) && self.layers.get(word.len() / 2).and_then(|l| l.get(q as usize)).is_some_and(|s| s.0)
    }
}

/// The compiled dictionary for one grid size.
#[derive(Debug)]
pub struct Lexicon {
    /// Per distinct line length (width, then height if different).
    pub lines: Vec<LineWords>,
}

impl Lexicon {
    /// Compiles the words that can fill a line of the grid.
    pub fn new(dict: &Dictionary, size: Size) -> Lexicon {
        let mut ns = vec![size.width];
        if size.height != size.width {
            ns.push(size.height);
        }
        Lexicon { lines: ns.into_iter().map(|n| line_words(dict, n)).collect() }
    }

    fn get(&self, n: usize) -> &LineWords {
        self.lines.iter().find(|l| l.cells == n).unwrap_or(&self.lines[0])
    }
}

fn line_words(dict: &Dictionary, n: usize) -> LineWords {
    let range = filled_range(n);
    let words: Vec<Vec<u16>> = dict
        .words
        .iter()
        .filter(|w| fits(w, n))
        .map(|w| w.as_bytes().chunks(2).map(|p| u16::from(p[0] - b'a') * LETTERS as u16 + u16::from(p[1] - b'a')).collect())
        .collect();
    let mut layers = layered_dawg(&words);
    layers.resize(range.end() + 1, vec![]);
    LineWords { cells: n, words: words.len(), layers }
}

/// The minimal layered automaton of `words` (sorted): a trie, then states merged
/// bottom-up when they have the same depth, finality and edges.
fn layered_dawg(words: &[Vec<u16>]) -> Vec<Vec<State>> {
    let mut edges: Vec<Vec<(u16, u32)>> = vec![vec![]];
    let mut fin = vec![false];
    let mut depth = vec![0usize];
    for w in words {
        let mut s = 0usize;
        for &t in w {
            s = match edges[s].iter().find(|e| e.0 == t) {
                Some(&(_, n)) => n as usize,
                None => {
                    edges.push(vec![]);
                    fin.push(false);
                    depth.push(depth[s] + 1);
                    let n = edges.len() - 1;
                    edges[s].push((t, n as u32));
                    n
                }
            };
        }
        fin[s] = true;
    }
    // Children have larger indices than parents, so a reverse sweep sees children first.
    let max_depth = depth.iter().copied().max().unwrap_or(0);
    let mut layers: Vec<Vec<State>> = vec![vec![]; max_depth + 1];
    let mut sigs: Vec<HashMap<State, u32>> = vec![HashMap::new(); max_depth + 1];
    let mut class = vec![0u32; edges.len()];
    for n in (0..edges.len()).rev() {
        let mut sig: Vec<(u16, u32)> = edges[n].iter().map(|&(t, c)| (t, class[c as usize])).collect();
        sig.sort_unstable();
        let d = depth[n];
        let k = sigs[d].len() as u32;
        class[n] = *sigs[d].entry((fin[n], sig.clone())).or_insert_with(|| {
            layers[d].push((fin[n], sig));
            k
        });
    }
    layers
}

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
pub struct Model {
    /// The size.
    pub size: Size,
    /// The formula.
    pub cnf: Cnf,
    cells: Vec<CellVars>,
    lines: Vec<LineVars>,
}

/// Encodes the square rules for `size` over the compiled words.
pub fn encode(lex: &Lexicon, size: Size) -> Result<Model> {
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
pub fn write_dimacs(out: &mut impl std::io::Write, model: &Model) -> std::io::Result<()> {
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

/// A square: per cell, its two letters or `None` for a blank.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Square {
    /// The size.
    pub size: Size,
    /// Row-major cells.
    pub cells: Vec<Option<[u8; 2]>>,
}

impl Square {
    /// The word of each line (rows, then columns), blanks skipped.
    pub fn words(&self) -> Vec<String> {
        self.size.lines().iter().map(|l| l.iter().filter_map(|&c| self.cells[c]).flat_map(|p| p.map(char::from)).collect()).collect()
    }

    /// Rows of `2·W` characters, a blank as two spaces (the JSON form).
    pub fn rows(&self) -> Vec<String> {
        self.cells
            .chunks(self.size.width)
            .map(|r| r.iter().map(|c| c.map_or_else(|| "  ".to_string(), |p| p.iter().map(|&b| char::from(b)).collect())).collect())
            .collect()
    }

    /// The grid with its cell boundaries drawn.
    pub fn draw(&self) -> String {
        let rule = format!("+{}\n", "--+".repeat(self.size.width));
        let mut s = rule.clone();
        for row in self.cells.chunks(self.size.width) {
            s.push('|');
            for c in row {
                match c {
                    Some(p) => s.extend(p.iter().map(|&b| char::from(b))),
                    None => s.push_str("  "),
                }
                s.push('|');
            }
            s.push('\n');
            s.push_str(&rule);
        }
        s
    }
}

/// Checks a square against the rules and the dictionary's word set — not against the
/// automata or the formula it came from.
pub fn verify(sq: &Square, dict: &Dictionary) -> std::result::Result<(), String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    for (l, (line, word)) in sq.size.lines().iter().zip(sq.words()).enumerate() {
        let name = sq.size.line_name(l);
        let filled = line.iter().filter(|&&c| sq.cells[c].is_some()).count();
        if filled == line.len() {
            return Err(format!("{name} has no blank"));
        }
        if 2 * filled < line.len() {
            return Err(format!("{name} is less than half filled"));
        }
        if !dict.words.contains(&word) {
            return Err(format!("{name} spells `{word}`, which is not in the dictionary"));
        }
        if let Some(other) = seen.insert(word.clone(), l) {
            return Err(format!("`{word}` is both {} and {name}", sq.size.line_name(other)));
        }
    }
    Ok(())
}

/// How a generation run went.
#[derive(Clone, Copy, Debug, Default)]
pub struct Outcome {
    /// Squares found.
    pub found: usize,
    /// Whether the search was exhausted (no further square exists).
    pub complete: bool,
    /// Solutions rejected for repeating a word, each blocked by one clause.
    pub repeats_blocked: usize,
}

/// Live counters a progress reporter can read while the solver runs.
#[derive(Debug, Default)]
pub struct Progress {
    /// Squares found so far.
    pub found: std::sync::atomic::AtomicUsize,
    /// Repeats blocked so far.
    pub repeats: std::sync::atomic::AtomicUsize,
    /// Clauses of the formula, once it is built (0 before).
    pub clauses: std::sync::atomic::AtomicUsize,
}

/// Finds up to `count` distinct squares, each verified before it is passed on. The
/// seed sets the polarity of every variable, so different seeds explore the space in
/// different orders; a seed always gives the same squares.
pub fn generate(
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

/// Words of the dictionary that fit some line of `size`.
pub fn usable_words(dict: &Dictionary, size: Size) -> BTreeSet<&str> {
    dict.words.iter().map(String::as_str).filter(|w| fits(w, size.width) || fits(w, size.height)).collect()
}
