//! The one place where the stages are chained: parse → compile → encode → solve →
//! decode/verify → emit.

use crate::compile::{self, Alphabet, Compiled};
use crate::encode::{self, CellVars, Cnf};
use crate::error::{ClueError, ClueErrorKind, Error, Result};
use crate::propagate::{self, SymSet};
use crate::puzzle::{self, Format, Puzzle};
use crate::regex::syntax::Parsed;
use crate::solve::{self, Outcome};
use crate::stats::{Stage, Times};
use crate::verify::{self, Grid, Verifier};
use std::sync::OnceLock;
use std::time::Instant;

/// Where a puzzle comes from and how to read it.
#[derive(Clone, Debug, Default)]
pub struct Input {
    /// File name for messages (`-` for stdin).
    pub source: String,
    /// The raw bytes.
    pub bytes: Vec<u8>,
    /// Force a format instead of detecting it.
    pub format: Option<Format>,
    /// Which puzzle of a collection.
    pub id: Option<String>,
    /// The literal set of cell characters, overriding the puzzle's.
    pub alphabet: Option<Vec<char>>,
    /// Givens as display rows, overriding the puzzle's.
    pub given: Option<Vec<Vec<Option<char>>>>,
    /// Where the givens came from, for messages (default `--given`).
    pub given_source: Option<String>,
    /// The regex pool of a regex-pool CSV: its source name and bytes.
    pub pool: Option<(String, Vec<u8>)>,
}

/// A puzzle's formula: the CNF and the variables of its cells.
#[derive(Clone, Debug)]
pub struct Formula {
    /// The clauses.
    pub cnf: Cnf,
    /// Cell variables of the formula.
    pub vars: CellVars,
}

/// A puzzle compiled, its domains propagated, and (unless propagation alone decides
/// it) encoded: ready to solve or export.
pub struct Prepared {
    /// Where the puzzle came from, for messages.
    pub source: String,
    /// The puzzle.
    pub puzzle: Puzzle,
    /// Its clues, parsed.
    parsed: Vec<Parsed>,
    /// The letters a cell may hold.
    alphabet: Alphabet,
    /// Its automata: compiled at once, except when propagation over the clues'
    /// position automata decides the puzzle ([`propagate::early`]); then on first use
    /// ([`Prepared::compiled`]).
    compiled: OnceLock<Compiled>,
    /// The independent matcher.
    pub verifier: Verifier,
    /// Time spent so far.
    pub times: Times,
    /// Each cell's letters after line propagation (`None`: some cell has none left).
    domains: Option<Vec<SymSet>>,
    /// Whether [`solve()`] may answer from `domains` alone (see [`Prepared::decided`])
    /// or by the line search.
    direct: bool,
    /// Whether `domains` came from the position automata, before compiling.
    decided_early: bool,
    /// Nodes of the line search, when it decided the puzzle.
    line_nodes: Option<usize>,
    /// Most nodes the line search may take (`None`: [`solve::lines::MAX_NODES`] when
    /// every automaton is exact, [`solve::lines::MAX_NODES_INEXACT`] otherwise).
    line_budget: Option<usize>,
    /// The formula: built at once, except when propagation decides the puzzle; then
    /// on first use ([`Prepared::formula`]), for an export, a proof or `--stats`.
    formula: OnceLock<Formula>,
}

impl Prepared {
    /// A puzzle with a formula built by the caller (tests that check the CNF alone):
    /// [`solve()`] always searches it.
    pub fn with_formula(source: &str, puzzle: Puzzle, compiled: Compiled, cnf: Cnf, vars: CellVars, verifier: Verifier) -> Prepared {
        Prepared {
            source: source.to_string(),
            puzzle,
            parsed: Vec::new(),
            alphabet: compiled.alphabet.clone(),
            compiled: OnceLock::from(compiled),
            verifier,
            times: Times::default(),
            domains: None,
            direct: false,
            line_nodes: None,
            line_budget: None,
            formula: OnceLock::from(Formula { cnf, vars }),
            decided_early: false,
        }
    }

    /// The letters a cell may hold.
    pub fn alphabet(&self) -> &Alphabet {
        &self.alphabet
    }

    /// The clues' automata, compiled now if they were not yet (the time is not
    /// counted).
    pub fn compiled(&self) -> Result<&Compiled> {
        if let Some(c) = self.compiled.get() {
            return Ok(c);
        }
        let c = compile::compile(&self.source, &self.puzzle, &self.parsed, self.alphabet.clone())?;
        Ok(self.compiled.get_or_init(|| c))
    }

    /// Whether the automata have been compiled (they are not when propagation over the
    /// position automata decided the puzzle and nothing asked for them since).
    pub fn is_compiled(&self) -> bool {
        self.compiled.get().is_some()
    }

    /// Whether propagation over the clues' position automata decided the puzzle before
    /// anything was compiled ([`propagate::early`]).
    pub fn decided_before_compiling(&self) -> bool {
        self.decided_early
    }

    /// The formula, encoded now if it was not yet (the encoding time is not counted:
    /// see [`Prepared::encode`]).
    pub fn formula(&self) -> Result<&Formula> {
        if let Some(f) = self.formula.get() {
            return Ok(f);
        }
        let f = encode_domains(&self.puzzle, self.compiled()?, self.domains.as_deref()).map_err(|e| with_source(e, &self.source))?;
        Ok(self.formula.get_or_init(|| f))
    }

    /// The formula, encoded now if it was not yet, counting the time as encoding.
    pub fn encode(&mut self) -> Result<&Formula> {
        if self.compiled.get().is_none() {
            let start = Instant::now();
            let _ = self.compiled()?;
            self.times.add(Stage::Compile, start.elapsed());
            self.times.add_wall(start.elapsed());
        }
        if self.formula.get().is_none() {
            let start = Instant::now();
            let f = encode_domains(&self.puzzle, self.compiled()?, self.domains.as_deref()).map_err(|e| with_source(e, &self.source))?;
            self.times.add(Stage::Encode, start.elapsed());
            self.times.add_wall(start.elapsed());
            let _ = self.formula.set(f);
        }
        self.formula()
    }

    /// Whether the formula has been built (it is not when propagation or the line
    /// search decided the puzzle and nothing asked for it since).
    pub fn encoded(&self) -> bool {
        self.formula.get().is_some()
    }

    /// Nodes the line search took, when it decided the puzzle ([`solve()`]).
    pub fn line_nodes(&self) -> Option<usize> {
        self.line_nodes
    }

    /// Sets the most nodes the line search of [`solve()`] may take (0: none, straight
    /// to the SAT search).
    pub fn set_line_budget(&mut self, nodes: usize) {
        self.line_budget = Some(nodes);
    }

    /// When line propagation alone decides the puzzle: `Some(None)` when some cell has
    /// no letter left (no solution), `Some(Some(cells))` when every cell has exactly
    /// one (the symbols of the only grid that can be a solution, which the matcher
    /// then accepts or rejects). `None` when a search is needed, and always for a
    /// regex pool (whose grids also assign regexes to entries).
    ///
    /// Propagation only removes letters that no run of a clue's automaton can use,
    /// and every automaton accepts at least its clue's matches (it over-approximates
    /// on the counterexample route), so no solution is lost: the answer is exhaustive.
    pub fn decided(&self) -> Option<Option<Vec<usize>>> {
        if !self.direct || self.puzzle.pool.is_some() {
            return None;
        }
        settled(&self.domains)
    }
}

/// What domains settle alone: `Some(None)` when some cell has no letter left (or there
/// are no domains), `Some(Some(cells))` when every cell has exactly one, `None`
/// otherwise.
fn settled(domains: &Option<Vec<SymSet>>) -> Option<Option<Vec<usize>>> {
    match domains {
        None => Some(None),
        Some(doms) if doms.iter().all(|d| d.len() == 1) => Some(Some(doms.iter().map(|d| d.iter().next().unwrap_or(0)).collect())),
        Some(_) => None,
    }
}

/// Parse, compile and encode.
pub fn prepare(input: &Input) -> Result<Prepared> {
    let mut times = Times::default();
    let start = Instant::now();
    let puzzle = times.time(Stage::Parse, || read_puzzle(input))?;
    times.add_wall(start.elapsed());
    prepare_puzzle(&input.source, puzzle, input.alphabet.as_deref(), times)
}

/// Compile, propagate and encode a puzzle already in memory; `alphabet` overrides the
/// puzzle's. When propagation decides the puzzle ([`Prepared::decided`]), the
/// formula is left for later: solving does not need it. When propagation over the
/// clues' position automata ([`propagate::early`]) decides it, so is compiling.
pub fn prepare_puzzle(src: &str, puzzle: Puzzle, alphabet: Option<&[char]>, mut times: Times) -> Result<Prepared> {
    let start = Instant::now();
    let (parsed, alphabet) = times.time(Stage::Compile, || {
        let parsed = compile::parse_clues(src, &puzzle)?;
        let alphabet = compile::choose_alphabet(src, &puzzle, &parsed, alphabet)?;
        Ok::<_, Error>((parsed, alphabet))
    })?;
    // The reference matcher reads the same trees (the parser is checked against Python's).
    let verifier = times.time(Stage::Verify, || Verifier::from_parsed(src, &puzzle, &parsed))?;
    let early = times.time(Stage::Encode, || early_domains(&puzzle, &parsed, &alphabet));
    let decided_early = early.as_ref().is_some_and(|d| settled(d).is_some());
    let (compiled, domains) = match early {
        Some(d) if decided_early => (OnceLock::new(), d),
        early => {
            let compiled = times.time(Stage::Compile, || compile::compile(src, &puzzle, &parsed, alphabet.clone()))?;
            let domains = times.time(Stage::Encode, || {
                let refine = |i, _: &[SymSet], support: &[SymSet]| exact_support(&compiled, &verifier, i, support, EXACT_WORDS);
                match early {
                    Some(Some(start)) => propagate::domains_from(&puzzle, &compiled, start, refine),
                    _ => propagate::domains_with(&puzzle, &compiled, refine),
                }
            });
            (OnceLock::from(compiled), domains)
        }
    };
    let mut prep = Prepared {
        source: src.to_string(),
        puzzle,
        parsed,
        alphabet,
        compiled,
        verifier,
        times,
        domains,
        direct: true,
        decided_early,
        line_nodes: None,
        line_budget: None,
        formula: OnceLock::new(),
    };
    prep.times.add_wall(start.elapsed());
    Ok(prep)
}

/// Line propagation over the clues' position automata, before compiling
/// ([`propagate::early`]): `None` when some clue has none ([`compile::positions`]), else
/// the domains (`Some(None)`: some cell has no letter left).
fn early_domains(puzzle: &Puzzle, parsed: &[Parsed], alphabet: &Alphabet) -> Option<Option<Vec<SymSet>>> {
    let positions = compile::positions(puzzle, parsed, alphabet)?;
    let nfas: Vec<propagate::early::Nfa> = positions.iter().map(propagate::early::Nfa::new).collect();
    Some(propagate::early::domains(puzzle, &nfas, propagate::initial_domains_over(puzzle, alphabet)))
}

/// Most words of one line that propagation tests one by one with the matcher.
pub const EXACT_WORDS: usize = 256;

/// For a clue whose automaton only approximates it for propagation (back-references,
/// lookarounds, the counterexample route): the letters of each cell that some word
/// the automaton's `support` allows *and the matcher accepts* uses, when there are at
/// most `max_words` such words ([`EXACT_WORDS`] in propagation); `None` otherwise (or
/// when the matcher gives up, or for a regular clue, whose support is already exact).
/// Exact, so sound: a letter goes only when no matching word of the line uses it.
pub fn exact_support(compiled: &Compiled, verifier: &Verifier, i: usize, support: &[SymSet], max_words: usize) -> Option<Vec<SymSet>> {
    if !compiled.clues[i].approximate() {
        return None;
    }
    let mut count: usize = 1;
    for d in support {
        count = count.checked_mul(d.len()).filter(|&n| n <= max_words)?;
    }
    let chars = compiled.alphabet.chars();
    let options: Vec<Vec<usize>> = support.iter().map(|d| d.iter().collect()).collect();
    let mut exact = vec![SymSet::default(); support.len()];
    let mut pick = vec![0usize; support.len()];
    let mut word = String::with_capacity(support.len() * 4);
    for _ in 0..count {
        word.clear();
        word.extend(pick.iter().zip(&options).map(|(&k, o)| chars[o[k]]));
        if verifier.clue_matches(i, &word).ok()? {
            for (p, (&k, o)) in pick.iter().zip(&options).enumerate() {
                exact[p].insert(o[k]);
            }
        }
        // The next word: an odometer over the options.
        for p in (0..pick.len()).rev() {
            pick[p] += 1;
            if pick[p] < options[p].len() {
                break;
            }
            pick[p] = 0;
        }
    }
    Some(exact)
}

/// Solve, verify every grid, and hand each one to `emit`; stops after `limit` grids.
///
/// A grid that fails a clue on the counterexample route (whose CNF over-approximates
/// it) is not a solution: the failing line strings are blocked and the search goes on,
/// so the count stays exact.
///
/// When more than [`PARTS_FROM`] grids are asked for and the undecided cells fall into
/// independent parts ([`solve_parts`]), each part is enumerated alone and the grids are
/// their product; otherwise (and always for a regex pool or a clue on the
/// counterexample route) one search enumerates whole grids ([`solve_whole`]).
pub fn solve(prep: &mut Prepared, limit: Option<usize>, mut emit: impl FnMut(&Puzzle, &Grid) -> Result<()>) -> Result<Outcome> {
    if let Some(candidate) = prep.decided() {
        return solve_decided(prep, candidate, limit, emit);
    }
    if let Some(want) = limit.filter(|&l| l <= PARTS_FROM)
        && let Some(outcome) = solve_lines(prep, want, &mut emit)?
    {
        return Ok(outcome);
    }
    if limit.is_none_or(|l| l > PARTS_FROM)
        && let Some(outcome) = solve_parts(prep, limit, &mut emit)?
    {
        return Ok(outcome);
    }
    solve_whole(prep, limit, emit)
}

/// [`solve()`] by the line search ([`solve::lines`]) for up to `want` grids, before any
/// formula is built; `None`, having printed nothing, when it does not apply (a regex
/// pool, a formula given by the caller) or gives up after [`solve::lines::MAX_NODES`]
/// nodes. Each grid it reaches is checked by the matcher as a model would be: a
/// failure on a clue whose automaton over-approximates it rejects the grid.
fn solve_lines(prep: &mut Prepared, want: usize, emit: &mut impl FnMut(&Puzzle, &Grid) -> Result<()>) -> Result<Option<Outcome>> {
    if !prep.direct || prep.puzzle.pool.is_some() || want == 0 {
        return Ok(None);
    }
    let Some(doms) = prep.domains.as_deref() else { return Ok(None) };
    let start = Instant::now();
    let (puzzle, compiled, verifier) = (&prep.puzzle, prep.compiled()?, &prep.verifier);
    let lines = propagate::Propagator::new(puzzle);
    let exact = !compiled.clues.iter().any(compile::CompiledClue::approximate);
    let max_nodes = prep.line_budget.unwrap_or(if exact { solve::lines::MAX_NODES } else { solve::lines::MAX_NODES_INEXACT });
    let searched = solve::lines::search(
        &lines,
        compiled,
        doms,
        want,
        max_nodes,
        |i, _, support| exact_support(compiled, verifier, i, support, EXACT_WORDS),
        |cells| verdict(puzzle, || Ok(compiled), verifier, &decode_cells(&compiled.alphabet, cells)),
    );
    let elapsed = start.elapsed();
    prep.times.add(Stage::Solve, elapsed);
    prep.times.add_wall(elapsed);
    let Some(searched) = searched? else { return Ok(None) };
    prep.line_nodes = Some(searched.nodes);
    // Every grid found passed the matcher in the search (`verdict`).
    for cells in &searched.grids {
        crate::stop::check()?;
        emit(&prep.puzzle, &decode_cells(&prep.alphabet, cells))?;
    }
    // As after a search stopped at its limit: reaching `want` claims nothing more.
    Ok(Some(Outcome { found: searched.grids.len(), complete: searched.complete }))
}

/// The grid of a symbol per cell.
fn decode_cells(alphabet: &Alphabet, cells: &[usize]) -> Grid {
    verify::decode(alphabet, &solve::Found { cells: cells.to_vec(), assignment: Vec::new() })
}

/// Whether `grid`, every cell decided without a formula (by propagation or the line
/// search), is a solution, asked of the matcher as a model would be: `Ok(false)` when
/// it fails only clues whose automata over-approximate them (the SAT search would
/// block it and go on), an error when it fails an exact clue (a bug, which
/// [`Verifier::check`] names).
fn verdict<'a>(puzzle: &Puzzle, compiled: impl FnOnce() -> Result<&'a Compiled>, verifier: &Verifier, grid: &Grid) -> Result<bool> {
    let failures = verifier.failures(puzzle, grid)?;
    if failures.is_empty() {
        return Ok(true);
    }
    let compiled = compiled()?;
    if failures.iter().all(|f| checked_failure(compiled, f)) {
        return Ok(false);
    }
    verifier.check(puzzle, grid)?;
    Err(Error::Internal("a grid failed a clue the matcher then accepted".into()))
}

/// [`solve()`] by one search over whole grids: one SAT call per grid, each grid blocked
/// by a clause over every undecided cell.
pub fn solve_whole(prep: &mut Prepared, limit: Option<usize>, mut emit: impl FnMut(&Puzzle, &Grid) -> Result<()>) -> Result<Outcome> {
    if let Some(candidate) = prep.decided() {
        return solve_decided(prep, candidate, limit, emit);
    }
    let _ = prep.encode()?;
    let start = Instant::now();
    let mut verify_time = std::time::Duration::ZERO;
    let (puzzle, compiled, verifier) = (&prep.puzzle, prep.compiled()?, &prep.verifier);
    let Formula { cnf, vars } = prep.formula()?;
    let mut rejected = 0usize;
    let outcome = solve::enumerate(cnf, vars, limit, |found| {
        let t = Instant::now();
        let grid = verify::decode(&compiled.alphabet, &found);
        let failures = verifier.failures(puzzle, &grid)?;
        let verdict = counterexamples(puzzle, compiled, vars, &found, &failures);
        verify_time += t.elapsed();
        match verdict {
            Some(_) if rejected >= MAX_COUNTEREXAMPLES => Err(loop_limit(&prep.source, puzzle, &failures)),
            Some(clauses) => {
                rejected += 1;
                Ok(solve::Verdict::Reject(clauses))
            }
            None => {
                verifier.check(puzzle, &grid)?;
                emit(puzzle, &grid).map(|()| solve::Verdict::Accept)
            }
        }
    });
    prep.times.add(Stage::Solve, start.elapsed().saturating_sub(verify_time));
    prep.times.add_wall(start.elapsed());
    prep.times.add(Stage::Verify, verify_time);
    outcome
}

/// [`solve()`] splits the undecided cells into parts only when more grids than this are
/// asked for: a uniqueness check (two grids) costs one or two SAT calls either way.
pub const PARTS_FROM: usize = 2;

/// Most symbols of part assignments [`solve_parts`] keeps (the sum over parts of
/// assignments × cells); past it, it gives up before printing anything.
pub const PARTS_MEMORY: usize = 1 << 22;

/// Most distinct line strings per clue whose verdict [`solve_parts`] remembers.
const VERDICTS_KEPT: usize = 1 << 12;

/// The undecided cells of a puzzle, grouped into independent parts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parts {
    /// Each part's cells, ascending; parts ordered by their first cell.
    pub cells: Vec<Vec<usize>>,
    /// Per part, whether some clue constrains it (it then needs a search); a part
    /// that no clue constrains is one cell, free to take any letter of its domain.
    pub constrained: Vec<bool>,
}

/// Splits the cells that line propagation left undecided into independent parts: two
/// cells are in one part when a clue through both *couples* them, that is, when the
/// words the clue accepts on its line (over the cells' domains) are not simply the
/// product of the domains ([`is_product`]). The puzzle's solutions are then exactly
/// the product of each part's own solutions: a clue that couples nothing accepts every
/// combination, and every other clue lies within one part (plus decided cells).
///
/// `None` when this does not apply: no domains (no solution), a regex pool, or a clue
/// on the counterexample route (its formula over-approximates it, so a part's
/// assignments would not be exact).
pub fn split_parts(prep: &Prepared) -> Option<Parts> {
    let doms = prep.domains.as_ref()?;
    let compiled = prep.compiled().ok()?;
    if prep.puzzle.pool.is_some() || compiled.clues.iter().any(|cc| !cc.route.exact()) {
        return None;
    }
    let n = doms.len();
    let mut parent: Vec<usize> = (0..n).collect();
    let find = |parent: &mut Vec<usize>, mut x: usize| {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    };
    let mut constrained = vec![false; n];
    for (i, clue) in prep.puzzle.clues.iter().enumerate() {
        let open: Vec<usize> = clue.cells.iter().copied().filter(|&c| doms[c].len() > 1).collect();
        if open.is_empty() {
            continue;
        }
        let line: Vec<SymSet> = clue.cells.iter().map(|&c| doms[c]).collect();
        if is_product(compiled, &prep.verifier, i, &line) {
            continue;
        }
        let root = find(&mut parent, open[0]);
        for &c in &open {
            constrained[c] = true;
            let r = find(&mut parent, c);
            if r != root {
                parent[r] = root;
            }
        }
    }
    let mut parts = Parts { cells: Vec::new(), constrained: Vec::new() };
    let mut index = vec![usize::MAX; n];
    for c in (0..n).filter(|&c| doms[c].len() > 1) {
        let r = find(&mut parent, c);
        if index[r] == usize::MAX {
            index[r] = parts.cells.len();
            parts.cells.push(Vec::new());
            parts.constrained.push(false);
        }
        parts.cells[index[r]].push(c);
        parts.constrained[index[r]] |= constrained[c];
    }
    Some(parts)
}

/// Whether clue `i` accepts every word of `line` (a domain per cell), so that it
/// constrains no cell of the line and couples none. For a clue whose automaton is
/// exact (regular and bounded routes), by counting the automaton's words
/// ([`propagate::line_count`]); for one with back-references or lookarounds, by asking
/// the matcher about each word when there are at most [`EXACT_WORDS`]. `false` when
/// unsure (more words, a count too large, the matcher giving up).
pub fn is_product(compiled: &Compiled, verifier: &Verifier, i: usize, line: &[SymSet]) -> bool {
    let Some(total) = line.iter().try_fold(1u128, |k, d| k.checked_mul(d.len() as u128)) else { return false };
    let cc = &compiled.clues[i];
    if !cc.approximate() {
        return propagate::line_count(&cc.automaton, line) == Some(total);
    }
    if total > EXACT_WORDS as u128 {
        return false;
    }
    let chars = compiled.alphabet.chars();
    let options: Vec<Vec<usize>> = line.iter().map(|d| d.iter().collect()).collect();
    let mut pick = vec![0usize; line.len()];
    let mut word = String::with_capacity(line.len() * 4);
    for _ in 0..total {
        word.clear();
        word.extend(pick.iter().zip(&options).map(|(&k, o)| chars[o[k]]));
        if !matches!(verifier.clue_matches(i, &word), Ok(true)) {
            return false;
        }
        for p in (0..pick.len()).rev() {
            pick[p] += 1;
            if pick[p] < options[p].len() {
                break;
            }
            pick[p] = 0;
        }
    }
    true
}

/// [`solve()`] by parts ([`split_parts`]): each constrained part's assignments are
/// enumerated alone (one SAT call each, blocking over the part's cells only), and the
/// grids are listed as the product of the parts' assignments, the last part varying
/// fastest. Every grid is still verified by the matcher, each distinct line string
/// once (a clue whose cells did not change keeps its verdict). Only the parts'
/// assignments are kept, never the product.
///
/// `None`, having printed nothing, when the split does not apply or leaves fewer than
/// two parts, or the parts' assignments would take more than [`PARTS_MEMORY`] symbols:
/// then [`solve_whole`] does the work.
pub fn solve_parts(
    prep: &mut Prepared,
    limit: Option<usize>,
    emit: &mut impl FnMut(&Puzzle, &Grid) -> Result<()>,
) -> Result<Option<Outcome>> {
    if prep.decided().is_some() {
        return Ok(None);
    }
    let start = Instant::now();
    let Some(parts) = split_parts(prep).filter(|p| p.cells.len() >= 2) else { return Ok(None) };
    let _ = prep.encode()?;
    let (puzzle, compiled, verifier) = (&prep.puzzle, prep.compiled()?, &prep.verifier);
    let doms = prep.domains.as_deref().unwrap_or_default();
    let Formula { cnf, vars } = prep.formula()?;
    // Each part's assignments, one after another (stride: the part's cell count).
    let mut options: Vec<Vec<usize>> = Vec::with_capacity(parts.cells.len());
    let mut oracle: Option<solve::Oracle> = None;
    let mut budget = PARTS_MEMORY;
    for (cells, &constrained) in parts.cells.iter().zip(&parts.constrained) {
        let found = if constrained {
            let oracle = oracle.get_or_insert_with(|| solve::Oracle::new(cnf));
            solve::project(oracle, vars, cells, budget / cells.len())?
        } else {
            Some(doms[cells[0]].iter().collect())
        };
        let Some(found) = found.filter(|f| f.len() <= budget) else {
            prep.times.add(Stage::Solve, start.elapsed());
            prep.times.add_wall(start.elapsed());
            return Ok(None);
        };
        budget -= found.len();
        options.push(found);
    }
    let mut verify_time = std::time::Duration::ZERO;
    let outcome = (|| {
        let counts: Vec<usize> = options.iter().zip(&parts.cells).map(|(o, c)| o.len() / c.len()).collect();
        if counts.contains(&0) {
            return Ok(Outcome { found: 0, complete: true });
        }
        // The clues through each part's cells, and which clues touch no part.
        let mut part_of = vec![usize::MAX; doms.len()];
        for (p, cells) in parts.cells.iter().enumerate() {
            for &c in cells {
                part_of[c] = p;
            }
        }
        let mut clues_of: Vec<Vec<usize>> = vec![Vec::new(); parts.cells.len()];
        for (i, clue) in puzzle.clues.iter().enumerate() {
            let mut touched: Vec<usize> = clue.cells.iter().map(|&c| part_of[c]).filter(|&p| p != usize::MAX).collect();
            touched.sort_unstable();
            touched.dedup();
            for p in touched {
                clues_of[p].push(i);
            }
        }
        let chars = compiled.alphabet.chars();
        let mut grid = Grid { cells: doms.iter().map(|d| d.iter().next().map_or(' ', |a| chars[a])).collect(), assignment: Vec::new() };
        let mut pick = vec![0usize; parts.cells.len()];
        let place = |grid: &mut Grid, p: usize, k: usize| {
            let cells = &parts.cells[p];
            for (&c, &a) in cells.iter().zip(&options[p][k * cells.len()..]) {
                grid.cells[c] = chars[a];
            }
        };
        for p in 0..parts.cells.len() {
            place(&mut grid, p, 0);
        }
        // Per clue, its current verdict and the verdicts of the line strings seen.
        let mut verdicts: Vec<std::collections::HashMap<String, bool>> = vec![Default::default(); puzzle.clues.len()];
        let mut ok: Vec<bool> = vec![true; puzzle.clues.len()];
        let mut stale: Vec<usize> = (0..puzzle.clues.len()).collect();
        let mut found = 0;
        loop {
            if limit.is_some_and(|l| found >= l) {
                return Ok(Outcome { found, complete: false });
            }
            crate::stop::check()?;
            let t = Instant::now();
            for &i in &stale {
                let word = grid.word(&puzzle.clues[i].cells);
                ok[i] = match verdicts[i].get(&word) {
                    Some(&v) => v,
                    None => {
                        let v = verifier.clue_matches(i, &word)?;
                        if verdicts[i].len() < VERDICTS_KEPT {
                            let _ = verdicts[i].insert(word, v);
                        }
                        v
                    }
                };
            }
            let failed = ok.iter().position(|&v| !v);
            verify_time += t.elapsed();
            match failed {
                None => {
                    emit(puzzle, &grid)?;
                    found += 1;
                }
                // A clue whose formula is checked rather than trusted (the tagged
                // route) rejects the grid, as the counterexample loop would; any other
                // failure is a bug, which the full check reports.
                Some(i) if checked_failure(compiled, &verify::Failure::Clue { clue: i, word: String::new() }) => {}
                Some(_) => {
                    verifier.check(puzzle, &grid)?;
                    return Err(Error::Internal("a grid failed a clue the matcher then accepted".into()));
                }
            }
            // The next grid: an odometer over the parts, the last one fastest.
            stale.clear();
            let mut p = parts.cells.len();
            loop {
                if p == 0 {
                    return Ok(Outcome { found, complete: true });
                }
                p -= 1;
                pick[p] += 1;
                if pick[p] == counts[p] {
                    pick[p] = 0;
                }
                place(&mut grid, p, pick[p]);
                stale.extend(&clues_of[p]);
                if pick[p] != 0 {
                    break;
                }
            }
            stale.sort_unstable();
            stale.dedup();
        }
    })();
    let total = start.elapsed();
    prep.times.add(Stage::Solve, total.saturating_sub(verify_time));
    prep.times.add_wall(total);
    prep.times.add(Stage::Verify, verify_time);
    outcome.map(Some)
}

/// [`solve()`] for a puzzle that line propagation decided: no formula, no SAT call. The
/// only candidate grid goes through the same checks as a model would: the matcher
/// accepts it (one solution), or rejects it on a clue whose formula is only checked
/// (no solution: the search would have blocked it and found nothing else), or on an
/// exact clue (a bug, reported by [`Verifier::check`]).
fn solve_decided(
    prep: &mut Prepared,
    candidate: Option<Vec<usize>>,
    limit: Option<usize>,
    mut emit: impl FnMut(&Puzzle, &Grid) -> Result<()>,
) -> Result<Outcome> {
    let start = Instant::now();
    let prep_ref: &Prepared = prep;
    let (puzzle, verifier) = (&prep_ref.puzzle, &prep_ref.verifier);
    let outcome = match candidate {
        _ if limit == Some(0) => Ok(Outcome { found: 0, complete: false }),
        None => Ok(Outcome { found: 0, complete: true }),
        Some(cells) => (|| {
            crate::stop::check()?;
            let grid = decode_cells(&prep_ref.alphabet, &cells);
            if !verdict(puzzle, || prep_ref.compiled(), verifier, &grid)? {
                return Ok(Outcome { found: 0, complete: true });
            }
            emit(puzzle, &grid)?;
            // As after a search stopped at its limit: a limit of one claims nothing more.
            Ok(Outcome { found: 1, complete: limit != Some(1) })
        })(),
    };
    prep.times.add(Stage::Verify, start.elapsed());
    prep.times.add_wall(start.elapsed());
    outcome
}

/// Whether a failure is on a clue whose encoding is checked rather than trusted
/// (the counterexample route), so that it rejects the grid instead of revealing a bug.
fn checked_failure(compiled: &Compiled, f: &verify::Failure) -> bool {
    match f {
        verify::Failure::Clue { clue, .. } => compiled.clues[*clue].approximate(),
        verify::Failure::Pool { .. } => false,
    }
}

/// Most grids the counterexample loop rejects in one search. Each costs a SAT call
/// (tens of microseconds to a few milliseconds as the blocking clauses pile up), so
/// this bounds the loop to seconds; beyond it the search ends with an error naming the
/// clue, never with a verdict (the grids not yet rejected might hide a solution).
pub const MAX_COUNTEREXAMPLES: usize = 20_000;

/// The error of a search that reached [`MAX_COUNTEREXAMPLES`], naming the first clue
/// (or pool regex) that rejected the last grid.
fn loop_limit(source: &str, puzzle: &Puzzle, failures: &[verify::Failure]) -> Error {
    let (clue, regex) = match failures.first() {
        Some(verify::Failure::Clue { clue, .. }) => (puzzle.clues[*clue].label.clone(), puzzle.clues[*clue].regex.clone()),
        Some(verify::Failure::Pool { regex, .. }) => {
            (format!("pool regex {}", regex + 1), puzzle.pool.as_ref().map_or(String::new(), |p| p.regexes[*regex].clone()))
        }
        None => (String::new(), String::new()),
    };
    Error::from(ClueError {
        source: source.to_string(),
        clue,
        regex,
        kind: ClueErrorKind::Limit(format!(
            "search stopped: the counterexample loop rejected {MAX_COUNTEREXAMPLES} candidate grids, its limit (this clue's CNF over-approximates it: more than {} candidate line strings); the puzzle is neither solved nor shown unsolvable",
            compile::classify::BOUNDED_LIMIT
        )),
    })
}

/// When every failure is on a clue whose encoding is checked rather than trusted,
/// the clauses that block the failing line strings; `None` otherwise (no failure, or
/// one that only a bug explains, which [`Verifier::check`] then reports).
fn counterexamples(
    puzzle: &Puzzle,
    compiled: &Compiled,
    vars: &CellVars,
    found: &solve::Found,
    failures: &[verify::Failure],
) -> Option<Vec<Vec<i32>>> {
    let line = |cells: &[usize]| -> Vec<i32> {
        cells.iter().filter_map(|&c| vars.cells[c].iter().find(|&&(x, _)| x == found.cells[c]).map(|&(_, v)| -v)).collect()
    };
    let mut clauses = Vec::new();
    for f in failures {
        match f {
            verify::Failure::Clue { clue, .. } if compiled.clues[*clue].approximate() => clauses.push(line(&puzzle.clues[*clue].cells)),
            verify::Failure::Pool { entry, regex, .. } => {
                let pool = puzzle.pool.as_ref()?;
                let entries = &pool.entries[*entry];
                if !compiled.pool[*regex].get(&entries.len()).is_some_and(|cc| cc.approximate()) {
                    return None;
                }
                let mut c = line(entries);
                c.extend(vars.assign[*entry].iter().filter(|&&(r, _)| r == *regex).map(|&(_, v)| -v));
                clauses.push(c);
            }
            verify::Failure::Clue { .. } => return None,
        }
    }
    (!clauses.is_empty()).then_some(clauses)
}

/// Fails, naming the clue, when a clue's CNF over-approximates it (the counterexample
/// route): `what` (a DIMACS export, a proof, a hint) needs a formula that means exactly
/// the puzzle.
pub fn require_exact(prep: &Prepared, what: &str) -> Result<()> {
    let puzzle = &prep.puzzle;
    let inexact = |cc: &compile::CompiledClue| !cc.route.exact();
    let compiled = prep.compiled()?;
    let found =
        compiled.clues.iter().position(inexact).map(|i| (puzzle.clues[i].label.clone(), puzzle.clues[i].regex.clone())).or_else(|| {
            let r = compiled.pool.iter().position(|m| m.values().any(inexact))?;
            Some((format!("pool regex {}", r + 1), puzzle.pool.as_ref().map_or(String::new(), |p| p.regexes[r].clone())))
        });
    match found {
        None => Ok(()),
        Some((clue, regex)) => Err(Error::from(ClueError {
            source: prep.source.clone(),
            clue,
            regex,
            kind: ClueErrorKind::Inexact { what: what.to_string(), limit: compile::classify::BOUNDED_LIMIT },
        })),
    }
}

fn read_puzzle(input: &Input) -> Result<Puzzle> {
    let mut puzzle = puzzle::read(
        &input.source,
        &input.bytes,
        input.format,
        input.id.as_deref(),
        input.pool.as_ref().map(|(n, b)| (n.as_str(), b.as_slice())),
    )?;
    if let Some(rows) = &input.given {
        let source = input.given_source.as_deref().unwrap_or("--given");
        puzzle.set_given_rows(source, rows)?;
        if let Some(alphabet) = &input.alphabet
            && let Some((c, g)) = puzzle.givens.iter().enumerate().find_map(|(c, g)| g.filter(|g| !alphabet.contains(g)).map(|g| (c, g)))
        {
            return Err(Error::input(
                source,
                format!("given '{g}' in cell {} is not in the alphabet given by --alphabet", puzzle.shape.cell_name(c)),
            ));
        }
    }
    Ok(puzzle)
}

/// Domains, then the CNF. Without `propagate`, each cell's domain is the whole
/// alphabet (or its given): the CNF alone then carries every constraint, which the
/// encoding tests use to check the clauses independently of the propagation.
pub fn encode_puzzle(puzzle: &Puzzle, compiled: &Compiled, propagate: bool) -> Result<(Cnf, CellVars)> {
    let doms = if propagate { propagate::domains(puzzle, compiled) } else { Some(propagate::initial_domains(puzzle, compiled)) };
    encode_domains(puzzle, compiled, doms.as_deref()).map(|f| (f.cnf, f.vars))
}

/// The CNF over given domains (`None`: the formula is the empty clause).
fn encode_domains(puzzle: &Puzzle, compiled: &Compiled, doms: Option<&[SymSet]>) -> Result<Formula> {
    let mut cnf = Cnf::new();
    let vars = encode::encode(puzzle, compiled, doms, &mut cnf)?;
    Ok(Formula { cnf, vars })
}

fn with_source(e: Error, source: &str) -> Error {
    e.with_source(source)
}
