//! The one place where the stages are chained: parse → compile → encode → solve →
//! decode/verify → emit.

use crate::compile::{self, Compiled};
use crate::encode::{self, CellVars, Cnf, SymSet};
use crate::error::{ClueError, ClueErrorKind, Error, Result};
use crate::puzzle::{self, Format, Puzzle};
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
    /// Its automata and alphabet.
    pub compiled: Compiled,
    /// The independent matcher.
    pub verifier: Verifier,
    /// Time spent so far.
    pub times: Times,
    /// Each cell's letters after line propagation (`None`: some cell has none left).
    domains: Option<Vec<SymSet>>,
    /// Whether [`solve`] may answer from `domains` alone (see [`Prepared::decided`]).
    direct: bool,
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
            compiled,
            verifier,
            times: Times::default(),
            domains: None,
            direct: false,
            formula: OnceLock::from(Formula { cnf, vars }),
        }
    }

    /// The formula, encoded now if it was not yet (the encoding time is not counted:
    /// see [`Prepared::encode`]).
    pub fn formula(&self) -> Result<&Formula> {
        if let Some(f) = self.formula.get() {
            return Ok(f);
        }
        let f = encode_domains(&self.puzzle, &self.compiled, self.domains.as_deref()).map_err(|e| with_source(e, &self.source))?;
        Ok(self.formula.get_or_init(|| f))
    }

    /// The formula, encoded now if it was not yet, counting the time as encoding.
    pub fn encode(&mut self) -> Result<&Formula> {
        if self.formula.get().is_none() {
            let start = Instant::now();
            let f = encode_domains(&self.puzzle, &self.compiled, self.domains.as_deref()).map_err(|e| with_source(e, &self.source))?;
            self.times.add(Stage::Encode, start.elapsed());
            self.times.add_wall(start.elapsed());
            let _ = self.formula.set(f);
        }
        self.formula()
    }

    /// Whether the formula has been built (it is not when propagation decided the
    /// puzzle and nothing asked for it since).
    pub fn encoded(&self) -> bool {
        self.formula.get().is_some()
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
        match &self.domains {
            None => Some(None),
            Some(doms) if doms.iter().all(|d| d.len() == 1) => Some(Some(doms.iter().map(|d| d.iter().next().unwrap_or(0)).collect())),
            Some(_) => None,
        }
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
/// formula is left for later: solving does not need it.
pub fn prepare_puzzle(src: &str, puzzle: Puzzle, alphabet: Option<&[char]>, mut times: Times) -> Result<Prepared> {
    let start = Instant::now();
    let (parsed, compiled) = times.time(Stage::Compile, || {
        let parsed = compile::parse_clues(src, &puzzle)?;
        let alphabet = compile::choose_alphabet(src, &puzzle, &parsed, alphabet)?;
        let compiled = compile::compile(src, &puzzle, &parsed, alphabet)?;
        Ok::<_, Error>((parsed, compiled))
    })?;
    // The reference matcher reads the same trees (the parser is checked against Python's).
    let verifier = times.time(Stage::Verify, || Verifier::from_parsed(src, &puzzle, &parsed))?;
    let domains = times.time(Stage::Encode, || {
        encode::domains_with(&puzzle, &compiled, |i, _, support| exact_support(&compiled, &verifier, i, support, EXACT_WORDS))
    });
    let mut prep = Prepared { source: src.to_string(), puzzle, compiled, verifier, times, domains, direct: true, formula: OnceLock::new() };
    prep.times.add_wall(start.elapsed());
    if prep.decided().is_none() {
        let _ = prep.encode()?;
    }
    Ok(prep)
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
    let cc = &compiled.clues[i];
    if cc.tagged.is_none() && cc.route != compile::Route::Guarded {
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
pub fn solve(prep: &mut Prepared, limit: Option<usize>, mut emit: impl FnMut(&Puzzle, &Grid) -> Result<()>) -> Result<Outcome> {
    if let Some(candidate) = prep.decided() {
        return solve_decided(prep, candidate, limit, emit);
    }
    let _ = prep.encode()?;
    let start = Instant::now();
    let mut verify_time = std::time::Duration::ZERO;
    let (puzzle, compiled, verifier) = (&prep.puzzle, &prep.compiled, &prep.verifier);
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

/// [`solve`] for a puzzle that line propagation decided: no formula, no SAT call. The
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
    let (puzzle, compiled, verifier) = (&prep.puzzle, &prep.compiled, &prep.verifier);
    let outcome = match candidate {
        _ if limit == Some(0) => Ok(Outcome { found: 0, complete: false }),
        None => Ok(Outcome { found: 0, complete: true }),
        Some(cells) => (|| {
            crate::stop::check()?;
            let grid = verify::decode(&compiled.alphabet, &solve::Found { cells, assignment: Vec::new() });
            let failures = verifier.failures(puzzle, &grid)?;
            if !failures.is_empty() && failures.iter().all(|f| checked_failure(compiled, f)) {
                return Ok(Outcome { found: 0, complete: true });
            }
            verifier.check(puzzle, &grid)?;
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
    let checked = |cc: &compile::CompiledClue| matches!(cc.route, compile::Route::Guarded | compile::Route::Tagged);
    match f {
        verify::Failure::Clue { clue, .. } => checked(&compiled.clues[*clue]),
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
    let checked = |cc: &compile::CompiledClue| matches!(cc.route, compile::Route::Guarded | compile::Route::Tagged);
    let line = |cells: &[usize]| -> Vec<i32> {
        cells.iter().filter_map(|&c| vars.cells[c].iter().find(|&&(x, _)| x == found.cells[c]).map(|&(_, v)| -v)).collect()
    };
    let mut clauses = Vec::new();
    for f in failures {
        match f {
            verify::Failure::Clue { clue, .. } if checked(&compiled.clues[*clue]) => clauses.push(line(&puzzle.clues[*clue].cells)),
            verify::Failure::Pool { entry, regex, .. } => {
                let pool = puzzle.pool.as_ref()?;
                let entries = &pool.entries[*entry];
                if !compiled.pool[*regex].get(&entries.len()).is_some_and(checked) {
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
    let found =
        prep.compiled.clues.iter().position(inexact).map(|i| (puzzle.clues[i].label.clone(), puzzle.clues[i].regex.clone())).or_else(
            || {
                let r = prep.compiled.pool.iter().position(|m| m.values().any(inexact))?;
                Some((format!("pool regex {}", r + 1), puzzle.pool.as_ref().map_or(String::new(), |p| p.regexes[r].clone())))
            },
        );
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
    let doms = if propagate { encode::domains(puzzle, compiled) } else { Some(encode::initial_domains(puzzle, compiled)) };
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
