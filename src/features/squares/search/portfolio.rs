//! The dedicated search as a portfolio: [`LANES`] searches ([`Lane`]s) from different
//! seeds, run in rounds on `jobs` threads: a lane's budget of dead ends doubles from
//! round to round ([`FIRST_ROUND`], up to [`MAX_ROUND`]), so that an easy square costs
//! the lanes little more than the first of them to find it would alone.
//!
//! A single search's time has a heavy tail (one seed finds a 7×7 square in a second,
//! another needs a minute); several searches side by side, the first to succeed
//! winning, cut it, and they keep every core busy. The rounds make the result the
//! same on any number of threads: after each round the squares the lanes found are
//! taken lane by lane, lane 0 first, and the search ends in the first round where
//! enough squares (or a lane that exhausted the search) are found. A lane runs on the
//! thread that made it (its state is not shared), and each lane's work in a round
//! depends only on its seed and the round, never on the other lanes or the threads.

use super::super::dawg::Lexicon;
use super::super::{Given, Outcome, Progress, Size, Square};
use super::regular::Pass;
use super::{Lane, Paused, Root};
use crate::error::{Error, Result};
use crate::puzzle::Dictionary;
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Barrier, Condvar, Mutex, PoisonError};

/// Searches in the portfolio: the most threads it can use.
pub(crate) const LANES: usize = 8;

/// Dead ends of each lane in the first round.
const FIRST_ROUND: u64 = 32;

/// The most dead ends of each lane in a round: the most work a round spends after a
/// square is found before it is printed.
const MAX_ROUND: u64 = 2_048;

/// What the portfolio searches for.
pub(super) struct Task<'a> {
    pub lex: &'a Lexicon,
    pub size: Size,
    pub dict: &'a Dictionary,
    pub given: &'a Given,
    pub seed: u64,
    pub count: usize,
    pub tuning: super::Tuning,
    pub progress: &'a Progress,
}

/// What a lane did in a round.
struct Report {
    squares: Vec<Square>,
    paused: Result<Paused>,
    nodes: u64,
    restarts: u64,
    repeats: usize,
}

/// The seed of lane `k`: lane 0 searches with the seed itself.
fn lane_seed(seed: u64, k: usize) -> u64 {
    seed.wrapping_add((k as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

/// Runs the portfolio on `jobs` threads (at most [`LANES`]), passing each new square
/// to `on_square` in the portfolio's order.
pub(super) fn run(task: &Task<'_>, jobs: usize, mut on_square: impl FnMut(&Square) -> Result<()>) -> Result<Outcome> {
    let threads = jobs.clamp(1, LANES);
    let reports: Vec<Mutex<Option<Report>>> = (0..LANES).map(|_| Mutex::new(None)).collect();
    let barrier = Barrier::new(threads + 1);
    let go = AtomicBool::new(true);
    let lock = |k: usize| reports[k].lock().unwrap_or_else(PoisonError::into_inner);
    let root = Root::new(task.lex, task.size, task.given, task.tuning);
    // The threads start searching only once every one of them has started: one that
    // cannot start makes the others return at once, and the run an internal error.
    let gate = (Mutex::new(None::<bool>), Condvar::new());
    std::thread::scope(|scope| {
        let mut unstarted = None;
        for t in 0..threads {
            let (barrier, go, lock, root, gate) = (&barrier, &go, &lock, &root, &gate);
            let spawned = std::thread::Builder::new().name("crossat-squares".into()).spawn_scoped(scope, move || {
                let mut open = gate.0.lock().unwrap_or_else(PoisonError::into_inner);
                while open.is_none() {
                    open = gate.1.wait(open).unwrap_or_else(PoisonError::into_inner);
                }
                if *open != Some(true) {
                    return;
                }
                drop(open);
                let mut lanes: Vec<(usize, Option<Lane<'_>>, bool)> = (t..LANES)
                    .step_by(threads)
                    .map(|k| {
                        (k, root.as_ref().and_then(|r| Lane::new(task.lex, task.size, r, lane_seed(task.seed, k), task.tuning)), false)
                    })
                    .collect();
                let (mut until, mut step) = (0u64, FIRST_ROUND);
                let mut pass = Pass::default();
                loop {
                    barrier.wait();
                    if !go.load(Ordering::Acquire) {
                        break;
                    }
                    until += step;
                    step = (step * 2).min(MAX_ROUND);
                    for (k, lane, complete) in &mut lanes {
                        let mut squares = Vec::new();
                        let report = match lane {
                            Some(l) if !*complete => {
                                let paused = l.advance(&mut pass, until, task.count, task.dict, task.given, task.progress, |sq| {
                                    squares.push(sq);
                                });
                                *complete = paused.as_ref().is_ok_and(|p| *p == Paused::Complete);
                                Report { squares, paused, nodes: l.nodes, restarts: l.run, repeats: l.s.repeats }
                            }
                            Some(l) => {
                                Report { squares, paused: Ok(Paused::Complete), nodes: l.nodes, restarts: l.run, repeats: l.s.repeats }
                            }
                            None => Report { squares, paused: Ok(Paused::Complete), nodes: 0, restarts: 0, repeats: 0 },
                        };
                        *lock(*k) = Some(report);
                    }
                    barrier.wait();
                }
            });
            if let Err(e) = spawned {
                unstarted = Some(Error::Internal(format!("cannot start a search thread: {e}")));
                break;
            }
        }
        *gate.0.lock().unwrap_or_else(PoisonError::into_inner) = Some(unstarted.is_none());
        gate.1.notify_all();
        if let Some(e) = unstarted {
            return Err(e);
        }
        let mut seen: HashSet<Vec<String>> = HashSet::new();
        let mut outcome = Outcome::default();
        let result = loop {
            barrier.wait();
            barrier.wait();
            let mut end = false;
            let (mut nodes, mut restarts, mut repeats) = (0, 0, 0);
            let mut failed = None;
            for k in 0..LANES {
                let Some(report) = lock(k).take() else {
                    failed = Some(Error::Internal("a search lane did not report".into()));
                    break;
                };
                (nodes, restarts, repeats) = (nodes + report.nodes, restarts + report.restarts, repeats + report.repeats);
                if end {
                    continue;
                }
                let paused = match report.paused {
                    Ok(p) => p,
                    Err(e) => {
                        failed = Some(e);
                        break;
                    }
                };
                for sq in report.squares {
                    if outcome.found < task.count && seen.insert(sq.rows()) {
                        if let Err(e) = on_square(&sq) {
                            failed = Some(e);
                            break;
                        }
                        outcome.found += 1;
                        task.progress.found.store(outcome.found, Ordering::Relaxed);
                    }
                }
                if failed.is_some() {
                    break;
                }
                if outcome.found >= task.count {
                    end = true;
                } else if paused == Paused::Complete {
                    // This lane exhausted the search: every square there is was found.
                    outcome.complete = true;
                    end = true;
                }
            }
            (outcome.nodes, outcome.restarts, outcome.repeats_blocked) = (nodes, restarts, repeats);
            match failed {
                Some(e) => break Err(e),
                None if end => break Ok(()),
                None => {}
            }
        };
        go.store(false, Ordering::Release);
        barrier.wait();
        task.progress.nodes.store(outcome.nodes, Ordering::Relaxed);
        result.map(|()| outcome)
    })
}
