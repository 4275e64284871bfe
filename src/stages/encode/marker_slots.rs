//! Clauses for clues with markers (back-references, lookarounds, assertions).
//!
//! The line is unrolled as layers: before each cell and after the last one come
//! [`Tagged::slots`] *marker slots*, each holding exactly one marker or *idle* (a
//! self-loop), idles last. The skeleton automaton runs over cells and slots with the
//! same clauses as a plain clue. On top of that:
//!
//! - *Registers.* For each referenced group k, `LO_k` and `LC_k` hold the position of
//!   its last opening and closing marker (or "none"), one-hot, updated at the slots
//!   where `⟨k`/`⟩k` can occur. A pointer `PTR_k` is set to `LO_k` at `[k` (which fails
//!   if the group never took part, as in Python); while it points at position `a`,
//!   the cell read next must equal cell `a`, and the pointer advances; `]k` requires it
//!   to have reached `LC_k`. Registers take new variables only where they can change.
//! - *Lookarounds.* A lookaround marker at position `p` gates a run of its automaton:
//!   from `p` to the end of the line (lookahead) or over the `w` cells before `p`
//!   (lookbehind of width `w`); positive runs must accept, negative runs are forced
//!   forward and must not reach acceptance.
//! - *Assertions.* `\b` at `p` requires exactly one of cells `p-1`, `p` to be a word
//!   character (outside the line counts as non-word), `\B` neither or both; `^` and `$`
//!   are only allowed in the first and last slots.

use super::{ClauseSink, encode_line, exactly_one};
use crate::compile::Automaton;
use crate::compile::skeleton::{LookAround, Marker, Tagged};
use crate::propagate::skeleton_support::{Layer, layers};
use crate::propagate::{SymSet, live_layers, supported};
use crate::regex::ast::is_word;
use std::collections::HashMap;

/// Variables shared by every clue of a puzzle.
#[derive(Default)]
pub(crate) struct Shared {
    truth: Option<i32>,
    eq: HashMap<(usize, usize), i32>,
    word: HashMap<usize, i32>,
    /// The clauses (indices in the sink) that define these variables, in order: they
    /// belong to no clue, since every later clue may use what they define.
    pub(crate) defs: Vec<std::ops::Range<usize>>,
}

impl Shared {
    /// A literal fixed to true.
    fn t<S: ClauseSink>(&mut self, sink: &mut S) -> i32 {
        *self.truth.get_or_insert_with(|| {
            let v = sink.new_var();
            let at = sink.num_clauses();
            sink.add_clause(&[v]);
            self.defs.push(at..sink.num_clauses());
            v
        })
    }

    /// A variable that implies "cells `u` and `w` hold the same letter".
    fn eq<S: ClauseSink>(&mut self, sink: &mut S, cells: &[Vec<(usize, i32)>], u: usize, w: usize) -> i32 {
        let key = (u.min(w), u.max(w));
        if let Some(&e) = self.eq.get(&key) {
            return e;
        }
        let e = sink.new_var();
        let at = sink.num_clauses();
        for (from, to) in [(u, w), (w, u)] {
            for &(a, xv) in &cells[from] {
                match cells[to].iter().find(|&&(b, _)| b == a) {
                    Some(&(_, yv)) => sink.add_clause(&[-e, -xv, yv]),
                    None => sink.add_clause(&[-e, -xv]),
                }
            }
        }
        self.defs.push(at..sink.num_clauses());
        let _ = self.eq.insert(key, e);
        e
    }

    /// A literal equivalent to "cell `c` holds a word character".
    fn word<S: ClauseSink>(&mut self, sink: &mut S, cells: &[Vec<(usize, i32)>], chars: &[char], c: usize) -> i32 {
        if let Some(&w) = self.word.get(&c) {
            return w;
        }
        let t = self.t(sink);
        let at = sink.num_clauses();
        let (word, other): (Vec<_>, Vec<_>) = cells[c].iter().partition(|&&(a, _)| is_word(chars[a]));
        let w = if other.is_empty() {
            t
        } else if word.is_empty() {
            -t
        } else {
            let w = sink.new_var();
            let mut c1 = vec![-w];
            c1.extend(word.iter().map(|&&(_, x)| x));
            sink.add_clause(&c1);
            for &&(_, x) in &word {
                sink.add_clause(&[-x, w]);
            }
            w
        };
        self.defs.push(at..sink.num_clauses());
        let _ = self.word.insert(c, w);
        w
    }
}

/// A one-hot register: `(value, literal)` for each value it may hold.
type Reg = Vec<(Option<usize>, i32)>;

fn lit_of(r: &Reg, v: Option<usize>) -> Option<i32> {
    r.iter().find(|(x, _)| *x == v).map(|&(_, l)| l)
}

/// `if m { new } else { reg }` — fresh variables, defined both ways.
fn set_if<S: ClauseSink>(sink: &mut S, reg: &Reg, m: i32, new: Option<usize>) -> Reg {
    let mut values: Vec<Option<usize>> = reg.iter().map(|&(v, _)| v).collect();
    if !values.contains(&new) {
        values.push(new);
    }
    values
        .into_iter()
        .map(|v| {
            let nv = sink.new_var();
            let old = lit_of(reg, v);
            if let Some(o) = old {
                sink.add_clause(&[m, -o, nv]);
                sink.add_clause(&[-nv, m, o]);
            } else {
                sink.add_clause(&[-nv, m]);
            }
            if v == new {
                sink.add_clause(&[-m, nv]);
            } else {
                sink.add_clause(&[-nv, -m]);
            }
            (v, nv)
        })
        .collect()
}

/// `if m { src } else { reg }`; `m` with `src` = none is forbidden.
fn copy_if<S: ClauseSink>(sink: &mut S, reg: &Reg, m: i32, src: &Reg) -> Reg {
    if let Some(none) = lit_of(src, None) {
        sink.add_clause(&[-m, -none]);
    }
    let mut values: Vec<Option<usize>> = reg.iter().map(|&(v, _)| v).collect();
    values.extend(src.iter().filter_map(|&(v, _)| v.map(Some)).filter(|v| !reg.iter().any(|(x, _)| x == v)));
    values
        .into_iter()
        .map(|v| {
            let nv = sink.new_var();
            match lit_of(reg, v) {
                Some(o) => {
                    sink.add_clause(&[m, -o, nv]);
                    sink.add_clause(&[-nv, m, o]);
                }
                None => sink.add_clause(&[-nv, m]),
            }
            match lit_of(src, v).filter(|_| v.is_some()) {
                Some(s) => {
                    sink.add_clause(&[-m, -s, nv]);
                    sink.add_clause(&[-nv, -m, s]);
                }
                None => sink.add_clause(&[-nv, -m]),
            }
            (v, nv)
        })
        .collect()
}

/// The puzzle-wide context a tagged clue is encoded in.
pub(crate) struct Ctx<'a> {
    /// The alphabet's characters.
    pub chars: &'a [char],
    /// Cell variables of every cell.
    pub cells: &'a [Vec<(usize, i32)>],
    /// Cell domains.
    pub doms: &'a [SymSet],
}

/// Encodes a tagged automaton over `line[from..]` (cell ids of the whole line); with a
/// `gate`, only when the gate is true (a lookahead with back-references inside).
/// Returns the number of layers.
#[allow(
    clippy::too_many_arguments,
    reason = "the line, its automaton and its place in the formula are all needed; a struct would only rename them"
)]
pub(crate) fn encode<S: ClauseSink>(
    sink: &mut S,
    shared: &mut Shared,
    ctx: &Ctx<'_>,
    a: &Automaton,
    t: &Tagged,
    line: &[usize],
    from: usize,
    gate: Option<i32>,
) -> usize {
    let (chars, cells, doms) = (ctx.chars, ctx.cells, ctx.doms);
    let n = line.len();
    let sigma = chars.len();
    let cell_doms: Vec<SymSet> = line[from..].iter().map(|&c| doms[c]).collect();
    let (kinds, ext) = layers(t, sigma, &cell_doms, from);
    let live = live_layers(a, &ext);
    if live[0].is_empty() {
        sink.add_clause(&gate.map(|g| vec![-g]).unwrap_or_default());
        return 0;
    }
    let sup = supported(a, &ext, &live);
    // Keep cells and the slots where some marker can occur.
    let idle = t.idle_symbol(sigma);
    let keep: Vec<usize> = (0..kinds.len()).filter(|&l| matches!(kinds[l], Layer::Cell(_)) || sup[l].iter().any(|x| x != idle)).collect();
    let kinds: Vec<Layer> = keep.iter().map(|&l| kinds[l]).collect();
    let ext: Vec<SymSet> = keep.iter().map(|&l| sup[l]).collect();
    let live = live_layers(a, &ext);
    // Slot variables: one-hot over the slot's symbols; idles come last.
    let mut slot_vars: Vec<Vec<(usize, i32)>> = Vec::with_capacity(kinds.len());
    let mut prev_idle: Option<(usize, i32)> = None;
    for (l, k) in kinds.iter().enumerate() {
        match *k {
            Layer::Cell(_) => {
                slot_vars.push(vec![]);
                prev_idle = None;
            }
            Layer::Slot(p) => {
                let vars: Vec<(usize, i32)> = ext[l].iter().map(|x| (x, sink.new_var())).collect();
                exactly_one(sink, &vars.iter().map(|&(_, v)| v).collect::<Vec<_>>(), gate);
                let my_idle = vars.iter().find(|&&(x, _)| x == idle).map(|&(_, v)| v);
                if let Some((_, iv)) = prev_idle.filter(|&(q, _)| q == p) {
                    match my_idle {
                        Some(v) => sink.add_clause(&[-iv, v]),
                        None => sink.add_clause(&[-iv]),
                    }
                }
                prev_idle = my_idle.map(|v| (p, v));
                slot_vars.push(vars);
            }
        }
    }
    let layer_lits: Vec<&[(usize, i32)]> = kinds
        .iter()
        .enumerate()
        .map(|(l, k)| match *k {
            Layer::Cell(p) => cells[line[p]].as_slice(),
            Layer::Slot(_) => slot_vars[l].as_slice(),
        })
        .collect();
    encode_line(sink, a, &live, &layer_lits, gate);

    // Registers, assertions and lookaround gates, walking the layers in order.
    let tl = shared.t(sink);
    let groups: Vec<u32> = t.markers.iter().filter_map(|m| if let Marker::Open(k) = m { Some(*k) } else { None }).collect();
    let mut lo: HashMap<u32, Reg> = groups.iter().map(|&k| (k, vec![(None, tl)])).collect();
    let mut lc = lo.clone();
    let mut ptr = lo.clone();
    let mut gates: Vec<Vec<(usize, i32)>> = vec![vec![]; t.looks.len()];
    for (l, k) in kinds.iter().enumerate() {
        match *k {
            Layer::Slot(p) => {
                for &(x, m) in &slot_vars[l] {
                    if x == idle {
                        continue;
                    }
                    match t.markers[x - sigma] {
                        // A reference to a group that can never take part (its
                        // markers were pruned, e.g. `(a){4}` on a shorter line) fails,
                        // as in Python.
                        Marker::RefOpen(g) | Marker::RefClose(g) if !lo.contains_key(&g) => sink.add_clause(&[-m]),
                        Marker::Open(g) => {
                            let r = set_if(sink, &lo[&g], m, Some(p));
                            let _ = lo.insert(g, r);
                        }
                        Marker::Close(g) => {
                            let r = set_if(sink, &lc[&g], m, Some(p));
                            let _ = lc.insert(g, r);
                        }
                        Marker::RefOpen(g) => {
                            let r = copy_if(sink, &ptr[&g], m, &lo[&g]);
                            let _ = ptr.insert(g, r);
                        }
                        Marker::RefClose(g) => {
                            for &(v, pl) in &ptr[&g] {
                                match v.and_then(|a| lit_of(&lc[&g], Some(a))) {
                                    Some(cl) => sink.add_clause(&[-m, -pl, cl]),
                                    None => sink.add_clause(&[-m, -pl]),
                                }
                            }
                            let r = set_if(sink, &ptr[&g], m, None);
                            let _ = ptr.insert(g, r);
                        }
                        Marker::Look(j) => gates[j].push((p, m)),
                        Marker::WordBoundary | Marker::NotWordBoundary => {
                            let before = if p > 0 { shared.word(sink, cells, chars, line[p - 1]) } else { -tl };
                            let after = if p < n { shared.word(sink, cells, chars, line[p]) } else { -tl };
                            if t.markers[x - sigma] == Marker::WordBoundary {
                                sink.add_clause(&[-m, before, after]);
                                sink.add_clause(&[-m, -before, -after]);
                            } else {
                                sink.add_clause(&[-m, -before, after]);
                                sink.add_clause(&[-m, before, -after]);
                            }
                        }
                        Marker::Start | Marker::End => {}
                    }
                }
            }
            Layer::Cell(p) => {
                for &g in &groups {
                    for &(v, pl) in &ptr[&g] {
                        let Some(src) = v else { continue };
                        if src >= p {
                            sink.add_clause(&[-pl]);
                            continue;
                        }
                        let e = shared.eq(sink, cells, line[src], line[p]);
                        sink.add_clause(&[-pl, e]);
                        // The pointer may not run past the capture's end.
                        if let Some(cl) = lit_of(&lc[&g], Some(src)) {
                            sink.add_clause(&[-pl, -cl]);
                        }
                    }
                    let shifted: Reg = ptr[&g].iter().map(|&(v, pl)| (v.map(|a| a + 1), pl)).collect();
                    let _ = ptr.insert(g, shifted);
                }
            }
        }
    }
    for (j, list) in gates.iter().enumerate() {
        let mut by_pos: Vec<(usize, Vec<i32>)> = Vec::new();
        for &(p, m) in list {
            match by_pos.iter_mut().find(|(q, _)| *q == p) {
                Some((_, v)) => v.push(m),
                None => by_pos.push((p, vec![m])),
            }
        }
        for (p, ms) in by_pos {
            let g = if ms.len() == 1 {
                ms[0]
            } else {
                let g = sink.new_var();
                for m in ms {
                    sink.add_clause(&[-m, g]);
                }
                g
            };
            look_run(sink, shared, ctx, &t.looks[j], g, p, line);
        }
    }
    kinds.len()
}

/// The lookaround's run for a marker at position `p`, gated by `g`.
fn look_run<S: ClauseSink>(sink: &mut S, shared: &mut Shared, ctx: &Ctx<'_>, l: &LookAround, g: i32, p: usize, line: &[usize]) {
    if let Some(t) = &l.tagged {
        let _ = encode(sink, shared, ctx, &l.automata[0], t, line, p, Some(g));
        return;
    }
    if l.automata.len() > 1 {
        // The body's start depends on what precedes position p.
        if p == 0 {
            return look_run_with(sink, ctx, l, &l.automata[0], g, p, line);
        }
        let w = shared.word(sink, ctx.cells, ctx.chars, line[p - 1]);
        let (g_word, g_other) = (sink.new_var(), sink.new_var());
        sink.add_clause(&[-g, -w, g_word]);
        sink.add_clause(&[-g, w, g_other]);
        look_run_with(sink, ctx, l, &l.automata[1], g_word, p, line);
        return look_run_with(sink, ctx, l, &l.automata[2], g_other, p, line);
    }
    look_run_with(sink, ctx, l, &l.automata[0], g, p, line)
}

fn look_run_with<S: ClauseSink>(sink: &mut S, ctx: &Ctx<'_>, l: &LookAround, a: &Automaton, g: i32, p: usize, line: &[usize]) {
    let (cells, doms) = (ctx.cells, ctx.doms);
    let span: Vec<usize> = if l.ahead {
        line[p..].to_vec()
    } else if l.width <= p {
        line[p - l.width..p].to_vec()
    } else {
        // Not enough cells before p: a positive lookbehind fails, a negative one holds.
        if !l.negate {
            sink.add_clause(&[-g]);
        }
        return;
    };
    let span_doms: Vec<SymSet> = span.iter().map(|&c| doms[c]).collect();
    let lits: Vec<&[(usize, i32)]> = span.iter().map(|&c| cells[c].as_slice()).collect();
    if !l.negate {
        let live = live_layers(a, &span_doms);
        if live[0].is_empty() {
            sink.add_clause(&[-g]);
        } else {
            encode_line(sink, a, &live, &lits, Some(g));
        }
        return;
    }
    // Negative: a forced forward run that must not end in an accepting state.
    if a.start == crate::compile::DEAD {
        return;
    }
    let mut layer: Vec<(u32, i32)> = vec![(a.start, sink.new_var())];
    sink.add_clause(&[-g, layer[0].1]);
    for lit in &lits {
        let mut next: Vec<(u32, i32)> = Vec::new();
        for &(s, qs) in &layer {
            for &(x, xv) in *lit {
                let t = a.step(s, x);
                if t == crate::compile::DEAD {
                    continue;
                }
                let qt = match next.iter().find(|&&(u, _)| u == t) {
                    Some(&(_, v)) => v,
                    None => {
                        let v = sink.new_var();
                        next.push((t, v));
                        v
                    }
                };
                sink.add_clause(&[-qs, -xv, qt]);
            }
        }
        layer = next;
    }
    for &(s, qs) in &layer {
        if a.accept[s as usize] {
            sink.add_clause(&[-qs]);
        }
    }
}
