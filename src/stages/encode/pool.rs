//! The regex pool: which regex goes to which entry, as one-hot assignment variables,
//! and each regex's clauses on each entry it may take, gated by its variable.

use super::{ClauseSink, MAX_CLAUSES, MAX_VARS, encode_clue, exactly_one, marker_slots, too_large};
use crate::compile::Compiled;
use crate::error::Result;
use crate::propagate::{SymSet, line_support};

/// The regex pool: a variable `a[e][r]` for each entry and each regex that can match
/// it, exactly one per entry and one per regex, and each regex's clauses on each entry
/// gated by its variable.
pub(super) fn encode_pool<S: ClauseSink>(
    sink: &mut S,
    shared: &mut marker_slots::Shared,
    ctx: &marker_slots::Ctx<'_>,
    pool: &crate::puzzle::Pool,
    compiled: &Compiled,
) -> Result<Vec<Vec<(usize, i32)>>> {
    let mut assign: Vec<Vec<(usize, i32)>> = vec![vec![]; pool.entries.len()];
    let mut by_regex: Vec<Vec<i32>> = vec![vec![]; pool.regexes.len()];
    for (e, line) in pool.entries.iter().enumerate() {
        for (r, by_len) in compiled.pool.iter().enumerate() {
            let Some(cc) = by_len.get(&line.len()) else { continue };
            let doms: Vec<SymSet> = line.iter().map(|&c| ctx.doms[c]).collect();
            if line_support(cc, compiled.alphabet.len(), &doms).iter().any(SymSet::is_empty) {
                continue; // this regex cannot match this entry
            }
            let v = sink.new_var();
            assign[e].push((r, v));
            by_regex[r].push(v);
        }
    }
    for vars in assign.iter().map(|a| a.iter().map(|&(_, v)| v).collect::<Vec<_>>()).chain(by_regex) {
        exactly_one(sink, &vars, None);
    }
    for (e, line) in pool.entries.iter().enumerate() {
        for &(r, v) in &assign[e] {
            let _ = encode_clue(sink, shared, ctx, &compiled.pool[r][&line.len()], line, Some(v));
            if sink.num_clauses() > MAX_CLAUSES || sink.num_vars() > MAX_VARS {
                return Err(too_large(sink, &format!("pool regex {}", r + 1), &pool.regexes[r]));
            }
        }
    }
    Ok(assign)
}
