//! The orders in which the frontier sweep ([`super::frontier`]) may take a puzzle's
//! cells: row by row along one family of parallel lines of its shape (a rectangle's
//! rows or columns, a hexagon's rows or either family of diagonals, a free layout's
//! drawn rows or columns), each family forwards or backwards, each row in either
//! direction. Every line of a grid then meets the rows in order, so the sweep reads
//! it in order or in reverse.
//!
//! Of these, the sweep takes first the order whose frontier is estimated to be the
//! narrowest: at each cell, the sum over the lines being crossed of the logarithm of
//! their classes at that point; the estimate is the sum over the cells of two to that
//! width (the table's expected size, were the lines independent).

use super::classes::Layered;
use super::frontier::{self, Threads};
use super::{Big, Counted, Report, root_domains};
use crate::compile::automaton::Automaton;
use crate::error::Result;
use crate::propagate::{Propagator, SymSet};
use crate::puzzle::{Shape, hex};
use crate::solve::Prepared;
use crate::stop::Cancel;

/// Most entries the sweep's table may hold (each some 60 bytes, in two tables).
pub(super) const MAX_ENTRIES: usize = 1 << 21;

/// Orders tried, best estimate first, before the sweep gives up.
const TRIES: usize = 2;

/// The count of `prep` by the frontier sweep alone, to its full table ([`MAX_ENTRIES`]),
/// its large steps on `jobs` threads; `None` when the sweep does not apply or would
/// need more.
pub(crate) fn count_swept(prep: &Prepared, jobs: usize, report: Option<Report<'_>>) -> Result<Option<Counted>> {
    swept(prep, usize::MAX, jobs, report)
}

/// The count of `prep` by the frontier sweep over its cells ([`sweep`]), with a
/// table of at most 16 entries per decision of `max_nodes` (the branching search's
/// budget), and [`MAX_ENTRIES`]; `None` when the sweep does not apply (a regex
/// pool, a clue whose automaton over-approximates it, a shape without an order that
/// reads every line straight) or would need more.
pub(super) fn swept(prep: &Prepared, max_nodes: usize, jobs: usize, mut report: Option<Report<'_>>) -> Result<Option<Counted>> {
    let compiled = prep.compiled()?;
    if prep.puzzle.pool.is_some() || compiled.clues.iter().any(|cc| cc.approximate()) {
        return Ok(None);
    }
    let Some(doms) = root_domains(prep, compiled) else { return Ok(Some(Counted { count: Big::zero(), nodes: 0, cache_hits: 0 })) };
    if doms.iter().any(SymSet::is_empty) {
        return Ok(Some(Counted { count: Big::zero(), nodes: 0, cache_hits: 0 }));
    }
    let lines = Propagator::new(&prep.puzzle);
    let automata: Vec<_> = compiled.clues.iter().map(|cc| &cc.automaton).collect();
    let max_entries = max_nodes.saturating_mul(16).min(MAX_ENTRIES);
    let mut silent = |_, _| {};
    let report: Report<'_> = match report.as_mut() {
        Some(r) => &mut **r,
        None => &mut silent,
    };
    let swept = sweep(&prep.puzzle.shape, &lines.lines, &automata, &doms, max_entries, Threads::new(jobs), &prep.cancel, report)?;
    Ok(swept.map(|count| Counted { count, nodes: 0, cache_hits: 0 }))
}

/// The count of the grids over `doms` (propagated) whose every line `lines[i]` its
/// automaton `automata[i]` (exact, deterministic) accepts, by the frontier sweep in the
/// best of `shape`'s orders; `None` when no order suits or the table would pass
/// `max_entries`. Large steps are taken on `threads` ([`frontier::count`]).
#[allow(clippy::too_many_arguments)]
pub(super) fn sweep(
    shape: &Shape,
    lines: &[Vec<usize>],
    automata: &[&Automaton],
    doms: &[SymSet],
    max_entries: usize,
    threads: Threads,
    cancel: &Cancel,
    report: &mut dyn FnMut(u64, u64),
) -> Result<Option<Big>> {
    let classes: Vec<Layered> =
        lines.iter().zip(automata).map(|(cells, a)| Layered::new(a, &cells.iter().map(|&c| doms[c]).collect::<Vec<_>>())).collect();
    if classes.iter().any(|c| !c.live()) {
        return Ok(Some(Big::zero()));
    }
    let mut orders: Vec<(f64, Vec<usize>)> =
        candidates(shape).into_iter().filter_map(|o| estimate(lines, &classes, &o).map(|e| (e, o))).collect();
    orders.sort_by(|a, b| a.0.total_cmp(&b.0));
    for (_, order) in orders.iter().take(TRIES) {
        if let Some(count) = frontier::count(lines, &classes, doms, order, max_entries, threads, cancel, report)? {
            return Ok(Some(count));
        }
    }
    Ok(None)
}

/// The estimated work of sweeping in `order`: the sum over the cells of two to the
/// frontier's width after each, the width being the sum over the lines crossed of the
/// logarithm of their classes there; `None` when a line's cells are out of order.
pub(super) fn estimate(lines: &[Vec<usize>], classes: &[Layered], order: &[usize]) -> Option<f64> {
    let mut at = vec![usize::MAX; order.len()];
    for (t, &c) in order.iter().enumerate() {
        *at.get_mut(c)? = t;
    }
    let mut of_cell: Vec<Vec<usize>> = vec![Vec::new(); order.len()];
    let mut backward = Vec::with_capacity(lines.len());
    for (i, cells) in lines.iter().enumerate() {
        backward.push(frontier::direction(cells, &at)?);
        for &c in cells {
            of_cell.get_mut(c)?.push(i);
        }
    }
    let mut read = vec![0usize; lines.len()];
    let mut part = vec![0f64; lines.len()];
    let (mut width, mut cost) = (0f64, 0f64);
    for &c in order {
        for &i in &of_cell[c] {
            read[i] += 1;
            let n = lines[i].len();
            let layer = if backward[i] { n - read[i] } else { read[i] };
            let now = if read[i] == n { 0.0 } else { f64::from(classes[i].k[layer].max(1)).log2() };
            width += now - part[i];
            part[i] = now;
        }
        cost += width.exp2();
    }
    Some(cost)
}

/// Candidate orders of the cells of `shape`, each a permutation of them; none for a
/// free layout without coordinates.
pub(super) fn candidates(shape: &Shape) -> Vec<Vec<usize>> {
    let families: Vec<Vec<Vec<usize>>> = match *shape {
        Shape::Rect { rows, cols } => vec![
            (0..rows).map(|r| (0..cols).map(|c| r * cols + c).collect()).collect(),
            (0..cols).map(|c| (0..rows).map(|r| r * cols + c).collect()).collect(),
        ],
        Shape::Hex(h) => vec![
            hex::rows(h),
            (0..h.nw_se_lines()).map(|k| hex::nw_se(h, k)).collect(),
            (0..h.ne_sw_lines()).map(|k| hex::ne_sw(h, k)).collect(),
        ],
        Shape::Free { coords: Some(ref coords), .. } => {
            let by = |major: fn(&(usize, usize)) -> usize, minor: fn(&(usize, usize)) -> usize| {
                let mut ids: Vec<usize> = (0..coords.len()).collect();
                ids.sort_by_key(|&i| (major(&coords[i]), minor(&coords[i])));
                let mut rows: Vec<Vec<usize>> = Vec::new();
                for i in ids {
                    match rows.last_mut() {
                        Some(row) if major(&coords[row[0]]) == major(&coords[i]) => row.push(i),
                        _ => rows.push(vec![i]),
                    }
                }
                rows
            };
            vec![by(|p| p.0, |p| p.1), by(|p| p.1, |p| p.0)]
        }
        Shape::Free { coords: None, .. } => Vec::new(),
    };
    let mut orders = Vec::new();
    for family in families {
        for (rev_rows, rev_cells) in [(false, false), (false, true), (true, false), (true, true)] {
            let mut rows = family.clone();
            if rev_rows {
                rows.reverse();
            }
            let order: Vec<usize> = rows
                .into_iter()
                .flat_map(|mut row| {
                    if rev_cells {
                        row.reverse();
                    }
                    row
                })
                .collect();
            orders.push(order);
        }
    }
    orders
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::classes::Layered;
    use super::super::{count_prepared_branching, frontier, root_domains};
    use super::{Big, MAX_ENTRIES, Threads, candidates, estimate, sweep, swept};
    use crate::pipeline::{Input, prepare};
    use crate::propagate::{Propagator, SymSet};
    use crate::solve::Prepared;

    /// Every bundled puzzle with fixed clues (not a regex pool), prepared.
    pub(in super::super) fn bundled() -> Vec<(String, Prepared)> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles");
        let mut found = Vec::new();
        let mut dirs = vec![root];
        while let Some(dir) = dirs.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else { continue };
            let mut files: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
            files.sort();
            for f in files {
                let name = f.display().to_string();
                if f.is_dir() {
                    dirs.push(f);
                    continue;
                }
                if name.contains("solution") || name.contains("expected") || ![".txt", ".json", ".dat"].iter().any(|s| name.ends_with(s)) {
                    continue;
                }
                let Ok(bytes) = std::fs::read(&f) else { continue };
                let Ok(prep) = prepare(&Input { source: name.clone(), bytes, ..Input::default() }) else { continue };
                if prep.puzzle.pool.is_none() {
                    found.push((name, prep));
                }
            }
        }
        found
    }

    /// The sweep's count of `prep` over `doms` (`None`: it does not apply), on one thread.
    fn sweep_over(prep: &Prepared, doms: &[SymSet]) -> Option<Big> {
        sweep_on(prep, doms, Threads::new(1))
    }

    /// The sweep's count of `prep` over `doms` (`None`: it does not apply).
    fn sweep_on(prep: &Prepared, doms: &[SymSet], threads: Threads) -> Option<Big> {
        let compiled = prep.compiled().expect("compiled");
        let lines = Propagator::new(&prep.puzzle);
        let automata: Vec<_> = compiled.clues.iter().map(|cc| &cc.automaton).collect();
        sweep(&prep.puzzle.shape, &lines.lines, &automata, doms, MAX_ENTRIES, threads, &prep.cancel, &mut |_, _| {}).expect("sweep")
    }

    /// Two independent routes agree: on every bundled puzzle that both the frontier
    /// sweep and the branching search (within 30,000 decisions) count, the counts are
    /// equal. The sweep counts every binoternary hexagon, and most bundled puzzles.
    #[test]
    fn the_sweep_counts_as_the_branching_search() {
        let (mut compared, mut swept_only, mut neither, mut hexagons) = (0, Vec::new(), 0, 0);
        let all = bundled();
        for (name, prep) in &all {
            let Some(by_sweep) = swept(prep, usize::MAX, 1, None).expect("sweep") else {
                neither += 1;
                continue;
            };
            hexagons += usize::from(name.contains("binoternary"));
            match count_prepared_branching(prep, 30_000, None).expect("branching") {
                Some(c) => {
                    assert_eq!(by_sweep.count, c.count, "{name}");
                    compared += 1;
                }
                None => swept_only.push(name.clone()),
            }
        }
        eprintln!("{compared} compared; counted by the sweep alone: {swept_only:?}; {neither} not swept");
        assert_eq!(hexagons, 11, "the sweep counts every binoternary hexagon");
        assert!(compared * 10 >= all.len() * 7, "only {compared} of {} compared", all.len());
    }

    /// On every bundled puzzle the sweep counts, its count is the sum of its counts with
    /// one cell given each letter of its domain, for the first and the last cell with a
    /// choice (far apart: opposite corners of a grid).
    #[test]
    fn sweep_counts_partition_over_two_far_cells() {
        let mut partitioned = Vec::new();
        for (name, prep) in bundled() {
            let compiled = prep.compiled().expect("compiled");
            if compiled.clues.iter().any(|cc| cc.approximate()) {
                continue;
            }
            let Some(doms) = root_domains(&prep, compiled) else { continue };
            let Some(total) = sweep_over(&prep, &doms) else { continue };
            let open: Vec<usize> = (0..doms.len()).filter(|&c| doms[c].len() > 1).collect();
            for &cell in open.first().into_iter().chain(open.last()) {
                let mut sum = Big::zero();
                for x in doms[cell].iter() {
                    let mut one = doms.clone();
                    one[cell] = SymSet::default();
                    one[cell].insert(x);
                    sum.add_assign(&sweep_over(&prep, &one).expect("the sweep applies with a cell fixed"));
                }
                assert_eq!(sum, total, "{name}, cell {cell}");
            }
            if !open.is_empty() {
                partitioned.push(name);
            }
        }
        // Most bundled puzzles have one solution, which propagation finds: no cell is open.
        let hexagons = partitioned.iter().filter(|n| n.contains("binoternary")).count();
        assert!(hexagons == 11 && partitioned.len() > 11, "partitioned: {partitioned:?}");
    }

    /// On threads, the sweep counts as on one: with every step split in 2 and 3 parts
    /// (from the first entry) on every bundled puzzle it counts, and as `--jobs` splits
    /// large steps on grids whose tables pass 10,000 entries (rows and columns holding
    /// a multiple of 4, 5 or 6 As), whose counts are checked by a count over the rows:
    /// the number of grids is the number of ways to pick, row by row, a row of the
    /// language, such that the columns end in the language (a dynamic program over the
    /// columns' residues, independent of the sweep's code).
    #[test]
    fn the_sweep_counts_alike_on_threads() {
        let mut split = 0;
        for (name, prep) in bundled() {
            let compiled = prep.compiled().expect("compiled");
            let Some(doms) = root_domains(&prep, compiled) else { continue };
            let Some(one) = sweep_over(&prep, &doms) else { continue };
            for jobs in [2, 3] {
                assert_eq!(sweep_on(&prep, &doms, Threads { jobs, from: 0 }).as_ref(), Some(&one), "{name} on {jobs}");
            }
            split += 1;
        }
        assert!(split >= 60, "only {split} puzzles swept");
        for (k, n) in [(4, 8), (5, 7), (6, 6)] {
            let clue = format!("(?:{})*B*", "B*A".repeat(k));
            let lines = serde_json::to_string(&vec![&clue; n]).expect("JSON");
            let text = format!(r#"{{"left": {lines}, "top": {lines}, "alphabet": "AB"}}"#);
            let prep = prepare(&Input { source: format!("{k} in {n}"), bytes: text.into_bytes(), ..Input::default() }).expect("prepared");
            let doms = root_domains(&prep, prep.compiled().expect("compiled")).expect("domains");
            let want = residue_count(k, n);
            for jobs in [1, 2, 3] {
                let got = sweep_on(&prep, &doms, Threads { jobs, from: 10_000 }).expect("swept");
                assert_eq!(got, want, "multiples of {k} in {n}×{n} on {jobs}");
            }
        }
    }

    /// The grids of `n`×`n` cells, A or B, whose every row and column holds a multiple
    /// of `k` As: rows one at a time over the columns' counts of As modulo `k`.
    fn residue_count(k: usize, n: usize) -> Big {
        let rows: Vec<u32> = (0..1u32 << n).filter(|r| (r.count_ones() as usize).is_multiple_of(k)).collect();
        let mut table: std::collections::HashMap<Vec<u8>, Big> = [(vec![0; n], Big::one())].into();
        for _ in 0..n {
            let mut next: std::collections::HashMap<Vec<u8>, Big> = std::collections::HashMap::new();
            for (res, count) in &table {
                for &r in &rows {
                    let key: Vec<u8> = (0..n).map(|c| (res[c] + (r >> c & 1) as u8) % k as u8).collect();
                    next.entry(key).or_insert_with(Big::zero).add_assign(count);
                }
            }
            table = next;
        }
        table.remove(&vec![0; n]).unwrap_or_else(Big::zero)
    }

    /// Widths and times of the sweep in every candidate order of the binoternary
    /// hexagons (a measurement: `cargo test --release --lib sweep_orders -- --ignored --nocapture`).
    #[test]
    #[ignore = "a measurement"]
    fn sweep_orders() {
        for (name, prep) in bundled().into_iter().filter(|(name, _)| name.contains("binoternary")) {
            let compiled = prep.compiled().expect("compiled");
            let doms = root_domains(&prep, compiled).expect("domains");
            let lines = Propagator::new(&prep.puzzle);
            let classes: Vec<Layered> = lines
                .lines
                .iter()
                .zip(&compiled.clues)
                .map(|(cells, cc)| Layered::new(&cc.automaton, &cells.iter().map(|&c| doms[c]).collect::<Vec<_>>()))
                .collect();
            let widest: Vec<u32> = classes.iter().map(Layered::widest).collect();
            println!("{name}: classes {widest:?}");
            for (k, order) in candidates(&prep.puzzle.shape).iter().enumerate() {
                let t = std::time::Instant::now();
                let e = estimate(&lines.lines, &classes, order).expect("in order");
                let r = frontier::count(&lines.lines, &classes, &doms, order, 3_000_000, Threads::new(1), &prep.cancel, &mut |_, _| {})
                    .expect("count");
                match r {
                    Some(n) => println!("  order {k}: estimate {e:.0} in {:.2?}: {n}", t.elapsed()),
                    None => println!("  order {k}: gave up in {:.2?}", t.elapsed()),
                }
            }
        }
    }
}
