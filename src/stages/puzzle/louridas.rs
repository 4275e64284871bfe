//! Regex-pool crosswords in the format of Louridas' "Regular Crosswords" assignment:
//! a CSV file with one line per entry — `entry, pattern, (other_entry, position)*` —
//! and a pool of regexes, one per line, each to be used by exactly one entry.
//!
//! `pattern` holds the entry's known letters, `.` for unknown ones. Each pair says that
//! the entry crosses `other_entry` at that entry's `position` (0-based); the position in
//! this entry comes from the other entry's line, so every crossing is listed from both
//! sides, in the same order as the cells it joins.

use super::{Pool, Puzzle, Shape};
use crate::error::{Error, Result};

/// One CSV entry: its label, its pattern, and its crossings.
type CsvEntry = (usize, Vec<char>, Vec<(usize, usize)>);

/// Reads the CSV and the pool.
pub(crate) fn read(source: &str, csv: &str, pool_source: &str, pool: &str) -> Result<Puzzle> {
    // Entries in file order: (label, pattern, crossings).
    let mut entries: Vec<CsvEntry> = Vec::new();
    for (i, raw) in csv.lines().enumerate() {
        let fields: Vec<&str> = raw.split(',').map(str::trim).collect();
        if fields.iter().all(|f| f.is_empty()) {
            continue;
        }
        let bad = |m: &str| Error::input(source, format!("line {}: {m}", i + 1));
        if fields.len() < 2 || !fields.len().is_multiple_of(2) {
            return Err(bad("expected `entry, pattern, (other entry, position)*`"));
        }
        let label: usize = fields[0].parse().map_err(|_| bad("entry number expected"))?;
        if entries.iter().any(|e| e.0 == label) {
            return Err(bad(&format!("entry {label} is listed twice")));
        }
        let pattern: Vec<char> = fields[1].chars().collect();
        if pattern.is_empty() {
            return Err(bad("empty pattern"));
        }
        let crossings = fields[2..]
            .chunks(2)
            .map(|p| Ok((p[0].parse().map_err(|_| bad("entry number expected"))?, p[1].parse().map_err(|_| bad("position expected"))?)))
            .collect::<Result<Vec<(usize, usize)>>>()?;
        entries.push((label, pattern, crossings));
    }
    if entries.is_empty() {
        return Err(Error::input(source, "no entries"));
    }
    let index = |label: usize| entries.iter().position(|e| e.0 == label);
    // Union-find over (entry, position).
    let offsets: Vec<usize> = entries.iter().scan(0, |acc, e| Some(std::mem::replace(acc, *acc + e.1.len()))).collect();
    let total: usize = entries.iter().map(|e| e.1.len()).sum();
    let mut parent: Vec<usize> = (0..total).collect();
    fn find(p: &mut [usize], x: usize) -> usize {
        let mut r = x;
        while p[r] != r {
            r = p[r];
        }
        p[x] = r;
        r
    }
    for (e, (label, pattern, crossings)) in entries.iter().enumerate() {
        let mut used = vec![0usize; entries.len()];
        for &(other, pos) in crossings {
            let Some(f) = index(other) else {
                return Err(Error::input(source, format!("entry {label} crosses entry {other}, which does not exist")));
            };
            if pos >= entries[f].1.len() {
                return Err(Error::input(
                    source,
                    format!("entry {label} crosses entry {other} at position {pos}, but entry {other} has {} letters", entries[f].1.len()),
                ));
            }
            // The position in this entry: the k-th crossing of `other` that names `label`.
            let k = used[f];
            used[f] += 1;
            let back: Vec<usize> = entries[f].2.iter().filter(|c| c.0 == *label).map(|c| c.1).collect();
            let Some(&mine) = back.get(k) else {
                return Err(Error::input(
                    source,
                    format!(
                        "entry {label} crosses entry {other}, but entry {other} does not list a crossing with entry {label} (intersections contradict each other)"
                    ),
                ));
            };
            if mine >= pattern.len() {
                return Err(Error::input(
                    source,
                    format!("entry {other} crosses entry {label} at position {mine}, but entry {label} has {} letters", pattern.len()),
                ));
            }
            let (a, b) = (find(&mut parent, offsets[e] + mine), find(&mut parent, offsets[f] + pos));
            parent[a] = b;
        }
        if let Some((f, _)) = used.iter().enumerate().find(|&(f, &n)| n != entries[f].2.iter().filter(|c| c.0 == *label).count()) {
            return Err(Error::input(
                source,
                format!("entries {label} and {} list different numbers of crossings with each other", entries[f].0),
            ));
        }
    }
    // Cells are the union-find classes, numbered by first appearance.
    let mut cell_of_root = vec![usize::MAX; total];
    let mut cells = 0;
    let mut pool_entries = Vec::new();
    for (e, (label, pattern, _)) in entries.iter().enumerate() {
        let mut line = Vec::with_capacity(pattern.len());
        for j in 0..pattern.len() {
            let r = find(&mut parent, offsets[e] + j);
            if cell_of_root[r] == usize::MAX {
                cell_of_root[r] = cells;
                cells += 1;
            }
            if line.contains(&cell_of_root[r]) {
                return Err(Error::input(source, format!("entry {label} uses the same cell twice (intersections contradict each other)")));
            }
            line.push(cell_of_root[r]);
        }
        pool_entries.push(line);
    }
    let mut givens: Vec<Option<char>> = vec![None; cells];
    for (e, (label, pattern, _)) in entries.iter().enumerate() {
        for (j, &ch) in pattern.iter().enumerate() {
            if ch == '.' {
                continue;
            }
            let c = pool_entries[e][j];
            match givens[c] {
                Some(g) if g != ch => {
                    return Err(Error::input(
                        source,
                        format!(
                            "entry {label} gives '{ch}' for a cell that another entry gives as '{g}' (intersections contradict each other)"
                        ),
                    ));
                }
                _ => givens[c] = Some(ch),
            }
        }
    }
    let regexes: Vec<String> = pool.lines().map(|l| l.trim_end_matches(['\r', '\t', ' ']).to_string()).filter(|l| !l.is_empty()).collect();
    if regexes.len() != entries.len() {
        return Err(Error::input(
            pool_source,
            format!("the pool has {} regexes for {} entries; each regex must be used by exactly one entry", regexes.len(), entries.len()),
        ));
    }
    let mut order: Vec<usize> = (0..entries.len()).collect();
    order.sort_by_key(|&e| entries[e].0);
    let pool = Pool {
        labels: order.iter().map(|&e| entries[e].0.to_string()).collect(),
        entries: order.iter().map(|&e| pool_entries[e].clone()).collect(),
        regexes,
    };
    Ok(Puzzle {
        name: None,
        shape: Shape::Free { cells, coords: None },
        clues: vec![],
        alphabet: None,
        givens,
        pool: Some(pool),
        dialect: Default::default(),
    })
}
