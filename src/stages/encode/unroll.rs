//! One line's clauses: [`encode_line`] unrolls an automaton over the line's cells as
//! layers of state variables joined by edge variables, with the clauses of
//! `docs/encoding.md` under which unit propagation keeps the line arc consistent
//! (optionally gated, for lookarounds and regex pools).

use super::ClauseSink;
use crate::compile::{Automaton, DEAD};

/// An edge of a layer of [`encode_line`]: source and target states, and its letters
/// as a range of the layer's label buffer.
type Edge = (u32, u32, usize, usize);

/// The unrolled automaton over one line (see the module doc). With a `gate`, the run
/// is only required when the gate literal is true (used for lookarounds).
pub(crate) fn encode_line<S: ClauseSink>(sink: &mut S, a: &Automaton, live: &[Vec<u32>], cells: &[&[(usize, i32)]], gate: Option<i32>) {
    let n = cells.len();
    if live[0].is_empty() {
        sink.add_clause(&gate.map(|g| vec![-g]).unwrap_or_default());
        return;
    }
    // q[p]: (state, var), sorted by state.
    let q: Vec<Vec<(u32, i32)>> = live.iter().map(|l| l.iter().map(|&s| (s, sink.new_var())).collect()).collect();
    let qvar = |p: usize, s: u32| q[p].binary_search_by_key(&s, |&(st, _)| st).ok().map(|k| q[p][k].1);
    let gated = |mut c: Vec<i32>| {
        if let Some(g) = gate {
            c.insert(0, -g);
        }
        c
    };
    sink.add_clause(&gated(vec![q[0][0].1]));
    for layer in &q[1..] {
        sink.add_clause(&gated(layer.iter().map(|&(_, v)| v).collect()));
    }
    // Buffers reused by every layer (a line's encoding allocated a list per edge and
    // per clause: a fifth of the encode stage's instructions).
    let mut edges: Vec<Edge> = Vec::new();
    let mut labels: Vec<(usize, i32)> = Vec::new();
    let mut found: Vec<(u32, usize, i32)> = Vec::new();
    let mut order: Vec<(u32, u32)> = Vec::new();
    let mut evars: Vec<i32> = Vec::new();
    let mut clause: Vec<i32> = Vec::new();
    for p in 0..n {
        // Edges of this layer: (s, t) → letters, `labels[from..to]`, grouped by `s` in
        // the order of `q[p]`, then by the first letter that reaches `t`.
        edges.clear();
        labels.clear();
        for &(s, qs) in &q[p] {
            let first = edges.len();
            // (edge within this state's, letter) in letter order.
            found.clear();
            for &(x, xv) in cells[p] {
                let t = a.step(s, x);
                match (t != DEAD).then(|| qvar(p + 1, t)).flatten() {
                    None => sink.add_clause(&[-qs, -xv]),
                    Some(_) => {
                        let k = match edges[first..].iter().position(|e| e.1 == t) {
                            Some(k) => k,
                            None => {
                                edges.push((s, t, 0, 0));
                                edges.len() - 1 - first
                            }
                        };
                        found.push((k as u32, x, xv));
                    }
                }
            }
            // Each edge's letters together, in letter order (a stable sort).
            found.sort_by_key(|&(k, _, _)| k);
            for (k, group) in found.chunk_by(|a, b| a.0 == b.0).enumerate() {
                let e = &mut edges[first + k];
                e.2 = labels.len();
                labels.extend(group.iter().map(|&(_, x, xv)| (x, xv)));
                e.3 = labels.len();
            }
        }
        evars.clear();
        evars.extend(edges.iter().map(|_| sink.new_var()));
        let evar = |i: usize| evars[i];
        for (i, &(s, t, from, to)) in edges.iter().enumerate() {
            let e = evar(i);
            let (qs, qt) = (qvar(p, s).unwrap_or(0), qvar(p + 1, t).unwrap_or(0));
            sink.add_clause(&[-e, qs]);
            sink.add_clause(&[-e, qt]);
            clause.clear();
            clause.push(-e);
            clause.extend(labels[from..to].iter().map(|&(_, xv)| xv));
            sink.add_clause(&clause);
            for &(_, xv) in &labels[from..to] {
                sink.add_clause(&[-qs, -xv, e]);
            }
        }
        // Every true state has an outgoing edge (p < n) and an incoming one (p > 0);
        // every true letter is carried by some true edge.
        let mut next_edge = 0;
        for &(s, qs) in &q[p] {
            clause.clear();
            clause.push(-qs);
            while next_edge < edges.len() && edges[next_edge].0 == s {
                clause.push(evar(next_edge));
                next_edge += 1;
            }
            sink.add_clause(&clause);
        }
        // Edges by target (its place in `q[p + 1]`), in edge order (a stable sort).
        order.clear();
        order.extend(edges.iter().enumerate().map(|(i, e)| {
            let j = q[p + 1].binary_search_by_key(&e.1, |&(st, _)| st).unwrap_or(0);
            (j as u32, i as u32)
        }));
        order.sort_by_key(|&(j, _)| j);
        let mut k = 0;
        for (j, &(_, qt)) in q[p + 1].iter().enumerate() {
            clause.clear();
            clause.push(-qt);
            while k < order.len() && order[k].0 as usize == j {
                clause.push(evar(order[k].1 as usize));
                k += 1;
            }
            sink.add_clause(&clause);
        }
        // (Only while the run is active: a gated run must not constrain the cells otherwise.)
        // Edges by letter (its place in `cells[p]`), in edge order.
        order.clear();
        for (i, &(_, _, from, to)) in edges.iter().enumerate() {
            order.extend(
                labels[from..to].iter().map(|&(x, _)| (cells[p].binary_search_by_key(&x, |&(y, _)| y).unwrap_or(0) as u32, i as u32)),
            );
        }
        order.sort_by_key(|&(j, _)| j);
        let mut k = 0;
        for (j, &(_, xv)) in cells[p].iter().enumerate() {
            clause.clear();
            clause.extend(gate.map(|g| -g));
            clause.push(-xv);
            while k < order.len() && order[k].0 as usize == j {
                clause.push(evar(order[k].1 as usize));
                k += 1;
            }
            sink.add_clause(&clause);
        }
    }
}
