//! Listing grids on several threads (`--jobs`): the search over whole grids split into
//! cubes, each listed by one thread with its own solver.
//!
//! The cubes are the assignments of a few undecided cells that extend to a grid
//! ([`super::project`], on the caller's thread): cells with the most letters first,
//! one more at a time until there are [`CUBES_PER_JOB`] cubes per thread (or
//! [`MAX_CUBES`], or no cell is left). The cubes are disjoint and cover every grid,
//! so listing each one whole ([`super::enumerate::enumerate_in`], under the cube's
//! literals) lists every grid exactly once, whatever the number of threads; only the
//! order in which grids arrive depends on it. Each thread loads the formula into its
//! own solver once and lists cube after cube in it (a cube's blocking clauses are
//! dropped when it is done). Grids are checked by the matcher on the thread that found
//! them (and rejected there on the counterexample route) and handed to the caller's
//! `emit` on the caller's thread, in the order they arrive.

use super::counterexample::{Judged, judge};
use super::enumerate::enumerate_in;
use super::oracle::Oracle;
use super::prepared::{Formula, Prepared};
use super::{Outcome, Verdict, project};
use crate::clock::Instant;
use crate::error::{Error, Result};
use crate::puzzle::Puzzle;
use crate::stats::Stage;
use crate::verify::Grid;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Cubes per thread the split aims for, so that a thread that drew a large cube is not
/// left alone with it while the others wait.
const CUBES_PER_JOB: usize = 16;

/// Most cubes of a split: past it the split keeps the cubes of one cell fewer.
const MAX_CUBES: usize = 4096;

/// Grids found but not yet taken by the caller that a thread may get ahead by, so
/// that memory stays bounded when the caller (printing) is slower than the search.
const QUEUE: usize = 1024;

/// What a thread hands over: a checked grid, or the error that ended its work.
type Message = Result<Grid>;

/// [`super::solve_whole`] on `jobs` threads: the same grids (in another order) and the
/// same outcome, `complete` when every cube was listed. `None`, having printed
/// nothing, when the undecided cells are too few to split.
pub(crate) fn solve_whole_jobs(
    prep: &mut Prepared,
    limit: Option<usize>,
    jobs: usize,
    emit: &mut impl FnMut(&Puzzle, &Grid) -> Result<()>,
) -> Result<Option<Outcome>> {
    let _ = prep.encode()?;
    let start = Instant::now();
    let cubes = split(prep, jobs)?;
    let Some(cubes) = cubes.filter(|c| c.len() >= 2) else { return Ok(None) };
    let (puzzle, compiled, verifier, cancel) = (&prep.puzzle, prep.compiled()?, &prep.verifier, &prep.cancel);
    let Formula { cnf, vars } = prep.formula()?;
    let (next, halt, rejected) = (AtomicUsize::new(0), AtomicBool::new(false), AtomicUsize::new(0));
    let work = |tx: std::sync::mpsc::SyncSender<Message>| {
        let mut oracle = Oracle::new(cnf).with_cancel(cancel.clone());
        let stop = || halt.load(Ordering::Relaxed);
        while !stop() {
            let Some(cube) = cubes.get(next.fetch_add(1, Ordering::Relaxed)) else { break };
            let listed = enumerate_in(&mut oracle, vars, Some(cube), None, &stop, |found| {
                match judge(&prep.source, puzzle, compiled, verifier, vars, &found, || rejected.fetch_add(1, Ordering::Relaxed))? {
                    Judged::Reject(clauses) => Ok(Verdict::Reject(clauses)),
                    Judged::Accept(grid) => {
                        // The caller stopped listening (a limit, an error): stop too.
                        tx.send(Ok(grid)).map_err(|_| Error::Cancelled)?;
                        Ok(Verdict::Accept)
                    }
                }
            });
            if let Err(e) = listed {
                halt.store(true, Ordering::Relaxed);
                let _ = tx.send(Err(e));
                break;
            }
        }
    };
    let mut found = 0;
    let outcome = std::thread::scope(|scope| -> Result<Outcome> {
        let (tx, rx) = std::sync::mpsc::sync_channel(QUEUE);
        for _ in 0..jobs.min(cubes.len()) {
            let (tx, work) = (tx.clone(), &work);
            let spawned = std::thread::Builder::new().name("crossat-list".into()).spawn_scoped(scope, move || work(tx));
            if let Err(e) = spawned {
                halt.store(true, Ordering::Relaxed);
                return Err(Error::Internal(format!("cannot start a thread: {e}")));
            }
        }
        drop(tx);
        // Ends when every thread has ended (and dropped its sender), or earlier.
        let result = (|| {
            for message in &rx {
                emit(puzzle, &message?)?;
                found += 1;
                if limit.is_some_and(|l| found >= l) {
                    return Ok(Outcome { found, complete: false });
                }
            }
            Ok(Outcome { found, complete: !halt.load(Ordering::Relaxed) })
        })();
        halt.store(true, Ordering::Relaxed);
        drop(rx);
        result
    });
    prep.times.add(Stage::Solve, start.elapsed());
    prep.times.add_wall(start.elapsed());
    outcome.map(Some)
}

/// The cubes: for each assignment of the chosen cells that extends to a grid, the
/// literals that assume it. `None` when no cell has a choice.
fn split(prep: &Prepared, jobs: usize) -> Result<Option<Vec<Vec<i32>>>> {
    let Formula { cnf, vars } = prep.formula()?;
    let mut open: Vec<usize> = (0..vars.cells.len()).filter(|&c| vars.cells[c].len() > 1).collect();
    // Most letters first; ties by position, so that the split does not depend on the run.
    open.sort_by_key(|&c| std::cmp::Reverse(vars.cells[c].len()));
    let want = CUBES_PER_JOB.saturating_mul(jobs).min(MAX_CUBES);
    let mut oracle = Oracle::new(cnf).with_cancel(prep.cancel.clone());
    let mut best: Option<(usize, Vec<usize>)> = None;
    for k in 1..=open.len() {
        let Some(symbols) = project(&mut oracle, vars, &open[..k], MAX_CUBES)? else { break };
        let cubes = symbols.len() / k;
        best = Some((k, symbols));
        if cubes >= want || cubes == 0 {
            break;
        }
    }
    let Some((k, symbols)) = best else { return Ok(None) };
    let literal = |c: usize, a: usize| vars.cells[c].iter().find(|&&(x, _)| x == a).map(|&(_, v)| v);
    let cubes = symbols
        .chunks(k)
        .map(|cube| {
            open[..k]
                .iter()
                .zip(cube)
                .map(|(&c, &a)| literal(c, a).ok_or_else(|| Error::Internal("a cube outside its cell".into())))
                .collect()
        })
        .collect::<Result<Vec<Vec<i32>>>>()?;
    Ok(Some(cubes))
}

#[cfg(test)]
mod tests {
    use super::super::{Outcome, Prepared, solve_whole};
    use super::solve_whole_jobs;
    use crate::compile::{self, Options};
    use crate::pipeline::{Input, prepare};
    use crate::verify::Verifier;
    use std::collections::BTreeSet;

    /// Coupled rows and columns (one part, so the search is over whole grids), and
    /// back-references with a lookahead.
    const PUZZLES: [&str; 2] = [
        r#"{"left":["[ABC]*(AB|BC|CA)[ABC]*","[ABC]*(AB|BC|CA)[ABC]*","[ABC]*(AB|BC|CA)[ABC]*"],"top":["[ABC]*(AA|CB|BB)[ABC]*","[ABC]*(AA|CB|BB)[ABC]*","[ABC]*(AA|CB|BB)[ABC]*"]}"#,
        r#"{"left":["(.)[ABC]*\\1","[ABC]*(AB|BC)[ABC]*\\w","(.)(.)\\2?\\1|[ABC]*"],"top":["(.)\\1*[ABC]*","([ABC])(?!\\1)..","(?=.*B)[ABC]+.","(.).\\1.|BBBB|A.*"]}"#,
    ];

    /// The puzzle as prepared, and (for the second) with every back-reference and
    /// lookaround on the counterexample route.
    fn prepared() -> Vec<(String, Prepared)> {
        let mut all = Vec::new();
        for (k, text) in PUZZLES.iter().enumerate() {
            let input = Input { source: format!("puzzle {k}"), bytes: text.as_bytes().to_vec(), ..Input::default() };
            let prep = prepare(&input).expect("prepared");
            let puzzle = prep.puzzle.clone();
            all.push((input.source.clone(), prep));
            let parsed = compile::parse_clues("<guarded>", &puzzle).expect("parsed");
            let alphabet = compile::choose_alphabet("<guarded>", &puzzle, &parsed, None).expect("alphabet");
            let opts = Options { prefer_bounded: 0, bounded_limit: 0, tagged: false };
            let compiled = compile::compile_with("<guarded>", &puzzle, &parsed, alphabet, opts).expect("compiled");
            if compiled.clues.iter().any(|c| !c.route.exact()) {
                let (cnf, vars) = crate::pipeline::encode_puzzle(&puzzle, &compiled, true).expect("encoded");
                let verifier = Verifier::from_parsed("<guarded>", &puzzle, &parsed).expect("verifier");
                all.push((format!("puzzle {k}, guarded"), Prepared::with_formula("<guarded>", puzzle, compiled, cnf, vars, verifier)));
            }
        }
        assert_eq!(all.len(), 3, "the guarded variant exists");
        all
    }

    fn grids(prep: &mut Prepared, limit: Option<usize>, jobs: usize) -> (Vec<String>, Outcome) {
        let mut got = Vec::new();
        let mut keep = |_: &crate::puzzle::Puzzle, g: &crate::verify::Grid| {
            got.push(g.cells.iter().collect::<String>());
            Ok(())
        };
        let outcome = if jobs == 1 {
            solve_whole(prep, limit, keep).expect("listed")
        } else {
            solve_whole_jobs(prep, limit, jobs, &mut keep).expect("listed").expect("split into cubes")
        };
        (got, outcome)
    }

    /// On several threads, the same grids, each once, and an honest outcome with and
    /// without a limit.
    #[test]
    fn the_grids_do_not_depend_on_the_threads() {
        for (name, mut prep) in prepared() {
            let (one, outcome) = grids(&mut prep, None, 1);
            let all: BTreeSet<String> = one.iter().cloned().collect();
            assert!(outcome.complete && all.len() == one.len() && one.len() > 100, "{name}: {outcome:?}");
            for jobs in [2, 3, 8] {
                let (got, outcome) = grids(&mut prep, None, jobs);
                assert_eq!(outcome, Outcome { found: one.len(), complete: true }, "{name} on {jobs}");
                let set: BTreeSet<String> = got.iter().cloned().collect();
                assert_eq!((set.len(), &set), (got.len(), &all), "{name} on {jobs}: each grid once");
                for limit in [1, 37, one.len() - 1, one.len(), one.len() + 1] {
                    let (got, outcome) = grids(&mut prep, Some(limit), jobs);
                    let set: BTreeSet<String> = got.iter().cloned().collect();
                    assert_eq!(got.len(), limit.min(one.len()), "{name} on {jobs}, limit {limit}");
                    assert!(set.len() == got.len() && set.is_subset(&all), "{name} on {jobs}, limit {limit}");
                    assert_eq!(outcome, Outcome { found: got.len(), complete: limit > one.len() }, "{name} on {jobs}, limit {limit}");
                }
            }
        }
    }

    /// A cancelled listing ends with `Cancelled`.
    #[test]
    fn a_cancelled_listing_gives_an_error() {
        let (_, mut prep) = prepared().remove(0);
        let cancel = crate::stop::Cancel::new();
        prep.set_cancel(cancel.clone());
        let _ = prep.encode().expect("encoded");
        cancel.cancel();
        let r = solve_whole_jobs(&mut prep, None, 2, &mut |_, _| Ok(()));
        assert!(matches!(r, Err(crate::error::Error::Cancelled)), "{r:?}");
    }
}
