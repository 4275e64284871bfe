//! The one place where the stages are chained: parse → compile → encode → solve →
//! decode/verify → emit. Each step is one call into a stage: `prepare` reads the
//! puzzle and takes it through compiling and propagation, `solve()` picks the solve
//! stage's strategy, whose grids the matcher checks before `emit` sees them.

use crate::clock::Instant;
use crate::compile;
use crate::dialect::Tree;
use crate::error::{Error, Result};
use crate::propagate::{self, SymSet};
use crate::puzzle::{self, Puzzle};
use crate::solve::odometer::{EXACT_WORDS, exact_support_noting};
use crate::solve::{self, Outcome, prepared::settled};
use crate::stats::{Stage, Times};
use crate::stop::Cancel;
use crate::verify::{Grid, Verifier};

pub(crate) use crate::puzzle::Input;
pub(crate) use crate::solve::prepared::encode_puzzle;
pub(crate) use crate::solve::strategy::Listing;
pub(crate) use crate::solve::strategy::{Count, count_within};
pub(crate) use crate::solve::{Prepared, require_exact};

/// Parse, compile and encode.
pub(crate) fn prepare(input: &Input) -> Result<Prepared> {
    let mut times = Times::default();
    let start = Instant::now();
    let puzzle = times.time(Stage::Parse, || puzzle::read_input(input))?;
    times.add_wall(start.elapsed());
    prepare_puzzle_cancellable(&input.source, puzzle, input.alphabet.as_deref(), times, &input.cancel)
}

/// Compile, propagate and encode a puzzle already in memory; `alphabet` overrides the
/// puzzle's. When propagation decides the puzzle (`Prepared::decided`), the
/// formula is left for later: solving does not need it. When propagation over the
/// clues' position automata (`propagate::early`) decides it, so is compiling.
pub(crate) fn prepare_puzzle(src: &str, puzzle: Puzzle, alphabet: Option<&[char]>, times: Times) -> Result<Prepared> {
    prepare_puzzle_cancellable(src, puzzle, alphabet, times, &Cancel::never())
}

/// [`prepare_puzzle`] polling `cancel` as it compiles; the [`Prepared`] keeps it for
/// encoding and solving ([`Prepared::set_cancel`] changes it).
pub(crate) fn prepare_puzzle_cancellable(
    src: &str,
    puzzle: Puzzle,
    alphabet: Option<&[char]>,
    mut times: Times,
    cancel: &Cancel,
) -> Result<Prepared> {
    let start = Instant::now();
    let (parsed, alphabet) = times.time(Stage::Compile, || {
        let parsed = compile::parse_clues(src, &puzzle)?;
        let alphabet = compile::choose_alphabet(src, &puzzle, &parsed, alphabet)?;
        Ok::<_, Error>((parsed, alphabet))
    })?;
    // The reference matcher reads the same trees (the parser is checked against Python's).
    let verifier = times.time(Stage::Verify, || Verifier::from_parsed(src, &puzzle, &parsed))?;
    let early = times.time(Stage::Encode, || early_domains(&puzzle, &parsed, &alphabet));
    let decided_early = matches!(&early, Early::Domains(d) if settled(d).is_some());
    // Per clue, whether propagation saw the matcher accept every word of its line.
    let mut entailed = vec![false; puzzle.clues.len()];
    let (compiled, domains) = match early {
        Early::Domains(d) if decided_early => (None, d),
        early => {
            let compiled = times.time(Stage::Compile, || {
                compile::compile_cancellable(src, &puzzle, &parsed, alphabet.clone(), compile::Options::default(), cancel)
            })?;
            let domains = times.time(Stage::Encode, || {
                let refine = |i, _: &[SymSet], support: &[SymSet]| {
                    exact_support_noting(&compiled, &verifier, i, support, EXACT_WORDS, &mut entailed[i])
                };
                match early {
                    Early::Domains(Some(start)) => propagate::domains_from(&puzzle, &compiled, start, refine),
                    _ => propagate::domains_with(&puzzle, &compiled, refine),
                }
            });
            (Some(compiled), domains)
        }
    };
    let mut prep = Prepared::new(src, puzzle, parsed, alphabet, verifier, compiled, domains);
    prep.entailed = entailed;
    prep.times = times;
    prep.set_cancel(cancel.clone());
    prep.times.add_wall(start.elapsed());
    Ok(prep)
}

/// What line propagation over the clues' position automata gives before compiling.
enum Early {
    /// Some clue has no position automaton ([`compile::positions`]): propagation waits
    /// for the compiled automata.
    Unavailable,
    /// The domains, `None` when some cell has no letter left.
    Domains(Option<Vec<SymSet>>),
}

/// Line propagation over the clues' position automata, before compiling
/// ([`propagate::early`]).
fn early_domains(puzzle: &Puzzle, parsed: &[Tree], alphabet: &compile::Alphabet) -> Early {
    let Some(positions) = compile::positions(puzzle, parsed, alphabet) else { return Early::Unavailable };
    let nfas: Vec<propagate::early::Nfa> = positions.iter().map(propagate::early::Nfa::new).collect();
    Early::Domains(propagate::early::domains(puzzle, &nfas, propagate::initial_domains_over(puzzle, alphabet)))
}

/// Solve, verify every grid, and hand each one to `emit`; stops after `limit` grids.
///
/// The solve stage's strategy for `limit` grids (`solve::strategy::solve`), each
/// grid checked by the matcher before `emit` sees it.
pub(crate) fn solve(prep: &mut Prepared, limit: Option<usize>, emit: impl FnMut(&Puzzle, &Grid) -> Result<()>) -> Result<Outcome> {
    solve::strategy::solve(prep, limit, emit)
}

/// [`solve()`] as `listing` says: on several threads, in sorted order
/// (`solve::strategy::solve_listing`). The grids do not depend on the threads.
pub(crate) fn solve_listing(prep: &mut Prepared, listing: Listing, emit: impl FnMut(&Puzzle, &Grid) -> Result<()>) -> Result<Outcome> {
    solve::strategy::solve_listing(prep, listing, emit)
}

/// The exact number of solutions (`solve::strategy::count`).
pub(crate) fn count(prep: &mut Prepared) -> Result<Count> {
    solve::strategy::count(prep)
}

/// [`count`], telling `report(done, total)` how far it has got: parts of the counting
/// search (`solve::count::Report`), for a progress display. The counting search runs
/// on `jobs` threads (1: on the caller's); the count does not depend on it.
pub(crate) fn count_reporting(prep: &mut Prepared, jobs: usize, report: &mut dyn FnMut(u64, u64)) -> Result<Count> {
    solve::strategy::count_reporting(prep, jobs, Some(report))
}

/// How hard the puzzle is for a person solving it line by line, as `crossat solve
/// --stats` reports it (the deduce stage's rater: the class `crossat explain`'s steps
/// show, and what its proof of uniqueness needed).
pub(crate) fn rate(puzzle: &Puzzle, compiled: &compile::Compiled) -> crate::records::Rating {
    crate::deduce::rate::rate(puzzle, compiled)
}

#[cfg(test)]
mod tests;
