//! The one place where the stages are chained: parse → compile → encode → solve →
//! decode/verify → emit. Each step is one call into a stage: [`prepare`] reads the
//! puzzle and takes it through compiling and propagation, [`solve()`] picks the solve
//! stage's strategy, whose grids the matcher checks before `emit` sees them.

use crate::compile;
use crate::error::{Error, Result};
use crate::propagate::{self, SymSet};
use crate::puzzle::{self, Puzzle};
use crate::regex::syntax::Parsed;
use crate::solve::words::{EXACT_WORDS, exact_support};
use crate::solve::{self, Outcome, PARTS_FROM, prepared::settled};
use crate::stats::{Stage, Times};
use crate::verify::{Grid, Verifier};
use std::time::Instant;

pub use crate::puzzle::Input;
pub use crate::solve::prepared::encode_puzzle;
pub use crate::solve::{Formula, Prepared, require_exact};

/// Parse, compile and encode.
pub fn prepare(input: &Input) -> Result<Prepared> {
    let mut times = Times::default();
    let start = Instant::now();
    let puzzle = times.time(Stage::Parse, || puzzle::read_input(input))?;
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
        Some(d) if decided_early => (None, d),
        early => {
            let compiled = times.time(Stage::Compile, || compile::compile(src, &puzzle, &parsed, alphabet.clone()))?;
            let domains = times.time(Stage::Encode, || {
                let refine = |i, _: &[SymSet], support: &[SymSet]| exact_support(&compiled, &verifier, i, support, EXACT_WORDS);
                match early {
                    Some(Some(start)) => propagate::domains_from(&puzzle, &compiled, start, refine),
                    _ => propagate::domains_with(&puzzle, &compiled, refine),
                }
            });
            (Some(compiled), domains)
        }
    };
    let mut prep = Prepared::new(src, puzzle, parsed, alphabet, verifier, compiled, domains);
    prep.times = times;
    prep.times.add_wall(start.elapsed());
    Ok(prep)
}

/// Line propagation over the clues' position automata, before compiling
/// ([`propagate::early`]): `None` when some clue has none ([`compile::positions`]), else
/// the domains (`Some(None)`: some cell has no letter left).
fn early_domains(puzzle: &Puzzle, parsed: &[Parsed], alphabet: &compile::Alphabet) -> Option<Option<Vec<SymSet>>> {
    let positions = compile::positions(puzzle, parsed, alphabet)?;
    let nfas: Vec<propagate::early::Nfa> = positions.iter().map(propagate::early::Nfa::new).collect();
    Some(propagate::early::domains(puzzle, &nfas, propagate::initial_domains_over(puzzle, alphabet)))
}

/// Solve, verify every grid, and hand each one to `emit`; stops after `limit` grids.
///
/// The strategy: the one candidate when propagation decided the puzzle
/// ([`solve::decided`]); the line search for up to [`PARTS_FROM`] grids
/// ([`solve::lines`]); independent parts for more ([`solve::parts`]); and one SAT search
/// over whole grids ([`solve::whole`]) when neither applies or gives up. Each
/// strategy checks every grid with the matcher: a grid that fails a clue on the
/// counterexample route (whose CNF over-approximates it) is not a solution, and the
/// search goes on, so the count stays exact.
pub fn solve(prep: &mut Prepared, limit: Option<usize>, mut emit: impl FnMut(&Puzzle, &Grid) -> Result<()>) -> Result<Outcome> {
    if let Some(candidate) = prep.decided() {
        return solve::solve_decided(prep, candidate, limit, emit);
    }
    if let Some(want) = limit.filter(|&l| l <= PARTS_FROM)
        && let Some(outcome) = solve::solve_lines(prep, want, &mut emit)?
    {
        return Ok(outcome);
    }
    if limit.is_none_or(|l| l > PARTS_FROM)
        && let Some(outcome) = solve::solve_parts(prep, limit, &mut emit)?
    {
        return Ok(outcome);
    }
    solve::solve_whole(prep, limit, emit)
}

/// How [`count()`] found a puzzle's number of solutions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Count {
    /// The exact number of solutions.
    pub count: solve::count::Big,
    /// Whether it came from listing every solution (a regex pool, or a puzzle that
    /// propagation decided) rather than from the counting search.
    pub listed: bool,
}

/// The exact number of solutions ([`solve::count`]). The counting search runs first
/// within [`COUNT_FIRST`] decisions; a puzzle it does not finish is listed up to
/// [`COUNT_LISTED`] grids (where the search is weak — back-references it cannot
/// settle — but the SAT search proves a small count at once), and past that the
/// counting search runs to the end. A regex pool (whose grids also assign regexes)
/// and a puzzle that propagation decided are counted by listing. A stop
/// ([`crate::stop::check`]) ends it with an error, never a number.
pub fn count(prep: &mut Prepared) -> Result<Count> {
    let listed = |prep: &mut Prepared, limit: Option<usize>| -> Result<Option<Count>> {
        let outcome = solve(prep, limit, |_, _| Ok(()))?;
        Ok(outcome.complete.then(|| Count { count: solve::count::Big::from(outcome.found), listed: true }))
    };
    if prep.puzzle.pool.is_some() || prep.decided().is_some() {
        return listed(prep, None)?.ok_or_else(|| Error::Internal("a listing without a limit did not finish".into()));
    }
    if let Some(count) = count_within(prep, COUNT_FIRST)? {
        return Ok(Count { count, listed: false });
    }
    if let Some(count) = listed(prep, Some(COUNT_LISTED + 1))? {
        return Ok(count);
    }
    let start = Instant::now();
    let counted = solve::count::count_prepared(prep);
    prep.times.add(Stage::Solve, start.elapsed());
    prep.times.add_wall(start.elapsed());
    Ok(Count { count: counted?.count, listed: false })
}

/// Decisions of the counting search that [`count()`] tries before listing.
pub const COUNT_FIRST: usize = 20_000;

/// Most grids [`count()`] lists before it gives the counting search all the time.
pub const COUNT_LISTED: usize = 1_000;

/// [`count()`] when it is cheap: within `max_nodes` decisions of the counting search,
/// never by listing; `None` otherwise (a regex pool, a decided puzzle, a harder count).
pub fn count_within(prep: &mut Prepared, max_nodes: usize) -> Result<Option<solve::count::Big>> {
    if prep.puzzle.pool.is_some() || prep.decided().is_some() {
        return Ok(None);
    }
    let start = Instant::now();
    let counted = solve::count::count_prepared_within(prep, max_nodes);
    prep.times.add(Stage::Solve, start.elapsed());
    prep.times.add_wall(start.elapsed());
    Ok(counted?.map(|c| c.count))
}
