//! Which of the solve stage's strategies lists a puzzle's grids, and how its solutions
//! are counted: the choice [`crate::pipeline`] makes with one call.

use super::count::{self as counter, Big};
use super::{Outcome, PARTS_FROM, Prepared};
use crate::clock::Instant;
use crate::error::{Error, Result};
use crate::puzzle::Puzzle;
use crate::stats::Stage;
use crate::verify::Grid;

/// The strategy: the one candidate when propagation decided the puzzle
/// ([`super::decided`]); the line search for up to [`PARTS_FROM`] grids
/// ([`super::lines`]); independent parts for more ([`super::parts`]); and one SAT search
/// over whole grids ([`super::whole`]) when neither applies or gives up. Each
/// strategy checks every grid with the matcher: a grid that fails a clue on the
/// counterexample route (whose CNF over-approximates it) is not a solution, and the
/// search goes on, so the count stays exact.
pub(crate) fn solve(prep: &mut Prepared, limit: Option<usize>, mut emit: impl FnMut(&Puzzle, &Grid) -> Result<()>) -> Result<Outcome> {
    if let Some(candidate) = prep.decided() {
        return super::solve_decided(prep, candidate, limit, emit);
    }
    if let Some(want) = limit.filter(|&l| l <= PARTS_FROM)
        && let Some(outcome) = super::solve_lines(prep, want, &mut emit)?
    {
        return Ok(outcome);
    }
    if limit.is_none_or(|l| l > PARTS_FROM)
        && let Some(outcome) = super::solve_parts(prep, limit, &mut emit)?
    {
        return Ok(outcome);
    }
    super::solve_whole(prep, limit, emit)
}

/// How [`Puzzle::search`](crate::Puzzle::search) lists a puzzle's grids.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Listing {
    /// Most grids to hand over (all when `None`).
    pub limit: Option<usize>,
    /// Threads to search on (1: the caller's alone, exactly as `solve()`)).
    pub jobs: usize,
    /// Hand the grids over in sorted order (by their cells row by row, then a regex
    /// pool's assignment): every grid is found first, and with a limit the smallest
    /// ones are kept.
    pub sorted: bool,
}

impl Default for Listing {
    fn default() -> Listing {
        Listing { limit: None, jobs: 1, sorted: false }
    }
}

/// [`solve()`] as `listing` says. The grids handed to `emit` do not depend on
/// `listing.jobs`, only their order does (and with `sorted` not even that); with a
/// limit and several threads they are a set of that many solutions, not necessarily
/// the ones one thread finds first. On several threads, a search over whole grids is
/// split into cubes ([`super::parallel`]); a puzzle that propagation decided, a
/// listing of at most [`PARTS_FROM`] grids, and the listing by independent parts
/// (which makes no SAT call per grid) run on the caller's thread.
///
/// Sorted, the outcome counts the grids handed over, and it is `complete` when they
/// are all the grids there are (the search always runs to its end).
pub(crate) fn solve_listing(prep: &mut Prepared, listing: Listing, mut emit: impl FnMut(&Puzzle, &Grid) -> Result<()>) -> Result<Outcome> {
    if !listing.sorted {
        return solve_jobs(prep, listing.limit, listing.jobs, emit);
    }
    // The smallest grids so far, at most `limit` of them, the largest on top.
    let mut kept: std::collections::BinaryHeap<(Vec<char>, Vec<usize>)> = Default::default();
    let outcome = solve_jobs(prep, None, listing.jobs, |_, grid| {
        kept.push((grid.cells.clone(), grid.assignment.clone()));
        if listing.limit.is_some_and(|l| kept.len() > l) {
            let _ = kept.pop();
        }
        Ok(())
    })?;
    let kept = kept.into_sorted_vec();
    for (cells, assignment) in kept.iter().cloned() {
        emit(&prep.puzzle, &Grid { cells, assignment })?;
    }
    Ok(Outcome { found: kept.len(), complete: outcome.complete && kept.len() == outcome.found })
}

/// [`solve()`] on `jobs` threads where that helps (see [`solve_listing`]).
fn solve_jobs(
    prep: &mut Prepared,
    limit: Option<usize>,
    jobs: usize,
    mut emit: impl FnMut(&Puzzle, &Grid) -> Result<()>,
) -> Result<Outcome> {
    if jobs <= 1 || limit.is_some_and(|l| l <= PARTS_FROM) || prep.decided().is_some() {
        return solve(prep, limit, emit);
    }
    if let Some(outcome) = super::solve_parts(prep, limit, &mut emit)? {
        return Ok(outcome);
    }
    if let Some(outcome) = super::parallel::solve_whole_jobs(prep, limit, jobs, &mut emit)? {
        return Ok(outcome);
    }
    super::solve_whole(prep, limit, emit)
}

/// How `count()` found a puzzle's number of solutions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Count {
    /// The exact number of solutions.
    pub count: Big,
    /// Whether it came from listing every solution (a regex pool, or a puzzle that
    /// propagation decided) rather than from the counting search.
    pub listed: bool,
}

/// The exact number of solutions ([`super::count`]). The frontier sweep runs first, to
/// its full table ([`counter::count_swept`]): where it applies it is exact and the
/// fastest route. Else the counting search runs within [`COUNT_FIRST`] decisions; a
/// puzzle it does not finish is listed up to [`COUNT_LISTED`] grids (where the search
/// is weak — back-references it cannot settle — but the SAT search proves a small count
/// at once), and past that the counting search runs to the end. A regex pool (whose
/// grids also assign regexes) and a puzzle that propagation decided are counted by
/// listing. A stop (its cancel token, [`Prepared::cancel`]) ends it with an error,
/// never a number.
pub(crate) fn count(prep: &mut Prepared) -> Result<Count> {
    count_reporting(prep, 1, None)
}

/// [`count()`], telling `report` how far the sweep or the counting search has got
/// ([`counter::Report`]; each route starts again from no parts done), with the sweep's
/// large steps and the unbounded search on `jobs` threads
/// ([`counter::count_branching_jobs`]) when `jobs` is more than 1.
pub(crate) fn count_reporting(prep: &mut Prepared, jobs: usize, mut report: Option<counter::Report<'_>>) -> Result<Count> {
    let listed = |prep: &mut Prepared, limit: Option<usize>| -> Result<Option<Count>> {
        let outcome = solve(prep, limit, |_, _| Ok(()))?;
        Ok(outcome.complete.then(|| Count { count: Big::from(outcome.found), listed: true }))
    };
    if prep.puzzle.pool.is_some() || prep.decided().is_some() {
        return listed(prep, None)?.ok_or_else(|| Error::Internal("a listing without a limit did not finish".into()));
    }
    let counted = |count: Big| Count { count, listed: false };
    if let Some(count) = timed(prep, |p| counter::count_swept(p, jobs, report.as_mut().map(|r| &mut **r as counter::Report<'_>)))? {
        return Ok(counted(count));
    }
    if let Some(count) =
        timed(prep, |p| counter::count_prepared_branching(p, COUNT_FIRST, report.as_mut().map(|r| &mut **r as counter::Report<'_>)))?
    {
        return Ok(counted(count));
    }
    if let Some(count) = listed(prep, Some(COUNT_LISTED + 1))? {
        return Ok(count);
    }
    let all = timed(prep, |p| {
        if jobs > 1 {
            counter::count_branching_jobs(p, jobs, report).map(Some)
        } else {
            counter::count_prepared_branching(p, usize::MAX, report)
        }
    })?;
    all.map(counted).ok_or_else(|| Error::Internal("an unbounded count gave up".into()))
}

/// A count by `route`, its time added to the solve stage's.
fn timed(prep: &mut Prepared, route: impl FnOnce(&Prepared) -> Result<Option<counter::Counted>>) -> Result<Option<Big>> {
    let start = Instant::now();
    let counted = route(prep);
    prep.times.add(Stage::Solve, start.elapsed());
    prep.times.add_wall(start.elapsed());
    Ok(counted?.map(|c| c.count))
}

/// Decisions of the counting search that `count()` tries before listing.
pub(crate) const COUNT_FIRST: usize = 20_000;

/// Most grids `count()` lists before it gives the counting search all the time.
pub(crate) const COUNT_LISTED: usize = 1_000;

/// `count()` when it is cheap: within `max_nodes` decisions of the counting search,
/// never by listing; `None` otherwise (a regex pool, a decided puzzle, a harder count).
pub fn count_within(prep: &mut Prepared, max_nodes: usize) -> Result<Option<Big>> {
    if prep.puzzle.pool.is_some() || prep.decided().is_some() {
        return Ok(None);
    }
    timed(prep, |p| counter::count_prepared_within(p, max_nodes))
}
