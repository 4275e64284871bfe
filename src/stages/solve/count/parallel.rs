//! The counting search on several threads (`--jobs`).
//!
//! The first levels of the search are walked once, on the caller's thread, as the
//! sequential search walks them ([`Counter::split`], [`Counter::cases`]), but instead of
//! counting below a given depth each case there becomes a *task*: its domains, open cells
//! and segments. What was walked is kept as a [`Plan`], sums of cases and products of
//! components whose leaves are the tasks. The tasks are then counted by `jobs` threads,
//! each with its own [`Counter`] (and cache), taking the next task as they finish one;
//! the plan adds and multiplies their counts. The count is exact whatever the number of
//! threads or the order in which tasks finish: each task is counted whole, and the
//! plan's arithmetic is the sequential search's.

use super::segment::Segment;
use super::{Big, Component, Counted, Counter, Prepared, Report, Watch, matcher, refiner, root_domains};
use crate::error::{Error, Result};
use crate::propagate::{MAX_TABLE_WORDS, Propagator, SymSet};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// The deepest level of decisions the plan walks before it has enough tasks.
const MAX_DEPTH: usize = 4;

/// Tasks per thread the plan aims for, so that a thread that drew a large task is not
/// left alone with it while the others wait.
const TASKS_PER_JOB: usize = 16;

/// The first levels of the search, with counting left to tasks.
enum Plan {
    /// Task `k`'s count.
    Task(usize),
    /// The sum of the cases of a component, each times its weight.
    Sum(Vec<(u32, Plan)>),
    /// A number times the product of components' counts (zero when no grid fits).
    Product(Big, Vec<Plan>),
}

/// A part of the search to count on its own.
struct Task {
    doms: Vec<SymSet>,
    cells: Vec<usize>,
    segs: Vec<Segment>,
}

/// The exact count of `prep`'s grids (as [`super::count_prepared`]) by the branching
/// search on `jobs` threads.
pub(crate) fn count_branching_jobs(prep: &Prepared, jobs: usize, mut report: Option<Report<'_>>) -> Result<Counted> {
    let compiled = prep.compiled()?;
    let Some(root) = root_domains(prep, compiled) else { return Ok(Counted { count: Big::zero(), nodes: 0, cache_hits: 0 }) };
    if root.iter().any(SymSet::is_empty) {
        return Ok(Counted { count: Big::zero(), nodes: 0, cache_hits: 0 });
    }
    let lines = Propagator::new(&prep.puzzle);
    let shared = super::cache::Shared::new();
    let counter = || {
        let watch = Watch { max_nodes: usize::MAX, cancel: &prep.cancel, report: None };
        let mut counter = Counter::new(&lines, compiled, &root, refiner(prep, compiled), matcher(prep, compiled), watch);
        counter.scratch.tabulate(&lines, compiled, &root, MAX_TABLE_WORDS);
        counter.cache = super::cache::Cache::Shared(&shared);
        counter
    };
    let cells: Vec<usize> = (0..root.len()).filter(|&c| root[c].len() > 1).collect();
    let segs: Vec<Segment> =
        compiled.clues.iter().enumerate().map(|(i, cc)| Segment::whole(i, lines.lines[i].len(), &cc.automaton)).collect();
    // Deeper until there are enough tasks to share out.
    let mut planner = counter();
    let mut tasks = Vec::new();
    let mut plan = Plan::Product(Big::one(), Vec::new());
    for depth in 1..=MAX_DEPTH {
        tasks.clear();
        plan = planner.plan_split(&cells, &segs, depth, &mut tasks)?;
        if tasks.len() >= TASKS_PER_JOB * jobs {
            break;
        }
    }
    let (mut nodes, mut cache_hits) = (planner.nodes, planner.cache_hits);
    drop(planner);
    let total = tasks.len() as u64;
    let mut counts: Vec<Option<Big>> = vec![None; tasks.len()];
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let mut first_error = None;
    std::thread::scope(|scope| -> Result<()> {
        let (tx, rx) = std::sync::mpsc::channel();
        let mut workers = Vec::new();
        for _ in 0..jobs.min(tasks.len()) {
            let (tx, tasks, next, failed, counter) = (tx.clone(), &tasks, &next, &failed, &counter);
            let worker = std::thread::Builder::new().name("crossat-count".into()).spawn_scoped(scope, move || {
                let mut counter = counter();
                while !failed.load(Ordering::Relaxed) {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(task) = tasks.get(k) else { break };
                    counter.doms.clone_from(&task.doms);
                    let counted = counter.split(&task.cells, &task.segs);
                    failed.fetch_or(counted.is_err(), Ordering::Relaxed);
                    if tx.send((k, counted)).is_err() {
                        break;
                    }
                }
                (counter.nodes, counter.cache_hits)
            });
            match worker {
                Ok(w) => workers.push(w),
                Err(e) if workers.is_empty() => return Err(Error::Internal(format!("cannot start a counting thread: {e}"))),
                Err(_) => break,
            }
        }
        drop(tx);
        let mut done = 0;
        if let Some(report) = report.as_mut() {
            report(done, total);
        }
        for (k, counted) in rx {
            match counted {
                Ok(n) => counts[k] = Some(n),
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
            done += 1;
            if let Some(report) = report.as_mut() {
                report(done, total);
            }
        }
        for w in workers {
            let (n, hits) = w.join().map_err(|_| Error::Internal("a counting thread panicked".into()))?;
            nodes += n;
            cache_hits += hits;
        }
        Ok(())
    })?;
    if let Some(e) = first_error {
        return Err(e);
    }
    let counts: Vec<Big> = counts.into_iter().collect::<Option<_>>().ok_or_else(|| Error::Internal("a counting task was lost".into()))?;
    Ok(Counted { count: plan.value(&counts), nodes, cache_hits })
}

impl Plan {
    fn value(&self, counts: &[Big]) -> Big {
        match self {
            Plan::Task(k) => counts[*k].clone(),
            Plan::Sum(cases) => {
                let mut total = Big::zero();
                for (weight, case) in cases {
                    let mut k = case.value(counts);
                    k.mul_small(*weight);
                    total.add_assign(&k);
                }
                total
            }
            Plan::Product(first, parts) => parts.iter().fold(first.clone(), |p, part| p.mul(&part.value(counts))),
        }
    }
}

impl<R, M> Counter<'_, R, M>
where
    R: FnMut(usize, &[SymSet], &[SymSet]) -> Option<Vec<SymSet>>,
    M: FnMut(usize, &[usize]) -> Result<bool>,
{
    /// [`Counter::split`] down to `depth` levels of decisions, the cases there left as
    /// tasks in `tasks`.
    fn plan_split(&mut self, cells: &[usize], segs: &[Segment], depth: usize, tasks: &mut Vec<Task>) -> Result<Plan> {
        if depth == 0 {
            tasks.push(Task { doms: self.doms.clone(), cells: cells.to_vec(), segs: segs.to_vec() });
            return Ok(Plan::Task(tasks.len() - 1));
        }
        let Some((product, comps)) = self.decompose(cells, segs)? else { return Ok(Plan::Product(Big::zero(), Vec::new())) };
        let parts = comps.iter().map(|comp| self.plan_component(comp, depth, tasks)).collect::<Result<_>>()?;
        Ok(Plan::Product(product, parts))
    }

    /// A component's cases ([`Counter::cases`]), each planned one level deeper.
    fn plan_component(&mut self, comp: &Component, depth: usize, tasks: &mut Vec<Task>) -> Result<Plan> {
        let mut cases = Vec::new();
        self.cases(comp, |counter, rest, segs, weight| {
            cases.push((weight, counter.plan_split(rest, segs, depth - 1, tasks)?));
            Ok(())
        })?;
        Ok(Plan::Sum(cases))
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Counted, count_prepared_branching, count_prepared_within, count_swept};
    use super::count_branching_jobs as branching_jobs;
    use crate::error::Result;

    /// The count as `--jobs` runs it: by the frontier sweep where it applies, else by
    /// the branching search, both on `jobs` threads.
    fn count_prepared_jobs(prep: &crate::solve::Prepared, jobs: usize) -> Result<Counted> {
        count_swept(prep, jobs, None)?.map_or_else(|| branching_jobs(prep, jobs, None), Ok)
    }

    /// The bundled puzzles whose count by the branching search takes at most
    /// `max_nodes` decisions on one thread.
    fn countable(max_nodes: usize) -> Vec<(String, crate::solve::Prepared, super::Big)> {
        super::super::order::tests::bundled()
            .into_iter()
            .filter_map(|(name, prep)| match count_prepared_branching(&prep, max_nodes, None) {
                Ok(Some(c)) => Some((name, prep, c.count)),
                _ => None,
            })
            .collect()
    }

    /// The branching search on several threads counts as on one, for every number of
    /// threads, on puzzles with one solution and with up to about 10^89; and the count
    /// as `--jobs` runs it (the frontier sweep where it applies) is the same whatever
    /// the number of threads.
    #[test]
    fn counts_do_not_depend_on_the_threads() {
        let puzzles = countable(30_000);
        assert!(puzzles.len() >= 20, "only {} puzzles counted", puzzles.len());
        let many = puzzles.iter().filter(|(_, _, n)| n.to_u64().is_none_or(|n| n > 1_000)).count();
        assert!(many >= 3, "only {many} puzzles with many solutions");
        for (name, prep, expected) in &puzzles {
            for jobs in [2, 3, 8] {
                let counted = branching_jobs(prep, jobs, None).unwrap_or_else(|e| panic!("{name}: {e}"));
                assert_eq!(&counted.count, expected, "{name} on {jobs} threads");
                let counted = count_prepared_jobs(prep, jobs).unwrap_or_else(|e| panic!("{name}: {e}"));
                assert_eq!(&counted.count, expected, "{name} on {jobs} threads, by the first route that applies");
            }
            let one = count_prepared_within(prep, usize::MAX).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(one.map(|c| c.count).as_ref(), Some(expected), "{name} on one thread");
        }
    }

    /// A cancelled count on several threads ends with `Cancelled`, not a number.
    #[test]
    fn a_cancelled_count_gives_no_number() {
        let (name, mut prep, _) = countable(30_000).into_iter().find(|(_, _, n)| n.to_u64().is_none()).expect("a large count");
        prep.cancel = crate::stop::Cancel::new();
        prep.cancel.cancel();
        let r = branching_jobs(&prep, 2, None);
        assert!(matches!(r, Err(crate::error::Error::Cancelled)), "{name}: {r:?}");
        let r = count_prepared_jobs(&prep, 2);
        assert!(matches!(r, Err(crate::error::Error::Cancelled)), "{name}: {r:?}");
    }
}
