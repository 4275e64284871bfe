//! The **encode** stage: automata + cell domains (from [`crate::propagate`]) → CNF,
//! written into a `ClauseSink`.
//!
//! 1. *Cells.* One variable `x[c][a]` per cell and letter of its domain; exactly one is
//!    true (at-least-one clause; pairwise at-most-one up to `PAIRWISE_MAX` letters,
//!    a sequential counter above).
//! 2. *Clues.* State variables `q[p][s]` for the live states of layer `p`, an edge
//!    variable `e(p,s,t)` for each live pair of states joined by some letter, and the
//!    clauses of `docs/encoding.md`, under which unit propagation enforces arc
//!    consistency on the line. For these clues every auxiliary variable is a function
//!    of the cell variables. Back-references, lookarounds and regex pools add choice
//!    variables (which path matched, which regex went where), so one grid may have
//!    several models; enumeration blocks on cell variables, so counts stay exact.
//!
//! This file is the driver (`encode`, `encode_gated`: cells, then clue by clue,
//! within `MAX_CLAUSES` and `MAX_VARS`); a plain clue's line is `encode_line`
//! (`unroll.rs`), a tagged clue's registers and lookarounds are `marker_slots`, the regex
//! pool's assignment is `pool.rs`, `exactly_one` and `at_most_one` are
//! `cardinality.rs`, and the formula is written into a `ClauseSink` (`sink.rs`).

mod cardinality;
pub(crate) mod marker_slots;
mod pool;
mod sink;
mod unroll;

pub(crate) use cardinality::{at_most_one, exactly_one};
pub(crate) use sink::{ClauseSink, Cnf};
pub(crate) use unroll::encode_line;

use crate::compile::{Compiled, CompiledClue};
use crate::error::{Error, Result};
use crate::propagate::{SymSet, live_layers};
use crate::puzzle::Puzzle;
use crate::stop::Cancel;

/// Most clauses one puzzle may produce.
pub(crate) const MAX_CLAUSES: usize = 10_000_000;
/// Most variables one puzzle may use. Clues add more clauses than variables, so in
/// practice [`MAX_CLAUSES`] is reached first; this bounds the rest.
pub(crate) const MAX_VARS: usize = 10_000_000;

/// Sizes of one clue's encoding, for `--stats`.
#[derive(Clone, Debug, Default)]
pub(crate) struct ClueSize {
    /// States of the clue's automaton.
    pub states: usize,
    /// Live (layer, state) pairs after unrolling.
    pub layered_states: usize,
    /// Variables added for this clue.
    pub vars: usize,
    /// Clauses added for this clue.
    pub clauses: usize,
    /// The clauses (indices in the formula) that encode this clue alone: those added
    /// for it but for the definitions of shared variables, which later clues may use.
    pub(crate) own: Vec<std::ops::Range<usize>>,
}

/// What the encoder leaves for decoding: the cell variables.
#[derive(Clone, Debug)]
pub(crate) struct CellVars {
    /// Per cell, `(symbol, variable)` for each letter of its domain.
    pub cells: Vec<Vec<(usize, i32)>>,
    /// Per clue, sizes.
    pub clue_sizes: Vec<ClueSize>,
    /// Per pool entry, `(regex, variable)` for each regex that may be assigned to it.
    pub assign: Vec<Vec<(usize, i32)>>,
}

/// Encodes the puzzle into `sink`. `doms` comes from [`domains`](crate::propagate::domains); `None` encodes an
/// empty clause (no solution).
#[cfg(test)]
pub(crate) fn encode<S: ClauseSink>(puzzle: &Puzzle, compiled: &Compiled, doms: Option<&[SymSet]>, sink: &mut S) -> Result<CellVars> {
    encode_cancellable(puzzle, compiled, doms, sink, &Cancel::never())
}

/// [`encode`], polling `cancel` before each clue.
pub(crate) fn encode_cancellable<S: ClauseSink>(
    puzzle: &Puzzle,
    compiled: &Compiled,
    doms: Option<&[SymSet]>,
    sink: &mut S,
    cancel: &Cancel,
) -> Result<CellVars> {
    encode_with(puzzle, compiled, doms, sink, false, cancel).map(|(vars, _)| vars)
}

/// Like `encode`, but every clue is required only when its *selector* variable is
/// true (returned, one per clue): solving under assumptions then tells which clues
/// (and givens) conflict or force a cell. Use full domains (no givens, no
/// propagation) so that the formula itself carries every constraint.
pub(crate) fn encode_gated<S: ClauseSink>(
    puzzle: &Puzzle,
    compiled: &Compiled,
    doms: &[SymSet],
    sink: &mut S,
) -> Result<(CellVars, Vec<i32>)> {
    encode_with(puzzle, compiled, Some(doms), sink, true, &Cancel::never())
}

fn encode_with<S: ClauseSink>(
    puzzle: &Puzzle,
    compiled: &Compiled,
    doms: Option<&[SymSet]>,
    sink: &mut S,
    gated: bool,
    cancel: &Cancel,
) -> Result<(CellVars, Vec<i32>)> {
    let n_cells = puzzle.givens.len();
    let Some(doms) = doms else {
        sink.add_clause(&[]);
        return Ok((
            CellVars { cells: vec![vec![]; n_cells], clue_sizes: vec![ClueSize::default(); puzzle.clues.len()], assign: vec![] },
            vec![],
        ));
    };
    // Cell variables first, cell by cell, letter by letter: DIMACS comments list them.
    let cells: Vec<Vec<(usize, i32)>> = doms.iter().map(|d| d.iter().map(|a| (a, sink.new_var())).collect()).collect();
    for vars in &cells {
        exactly_one(sink, &vars.iter().map(|&(_, v)| v).collect::<Vec<_>>(), None);
    }
    let mut clue_sizes = Vec::with_capacity(puzzle.clues.len());
    let mut shared = marker_slots::Shared::default();
    let ctx = marker_slots::Ctx { chars: compiled.alphabet.chars(), cells: &cells, doms };
    let selectors: Vec<i32> = if gated { puzzle.clues.iter().map(|_| sink.new_var()).collect() } else { vec![] };
    for (i, clue) in puzzle.clues.iter().enumerate() {
        cancel.check()?;
        let (v0, c0, d0) = (sink.num_vars(), sink.num_clauses(), shared.defs.len());
        let cc = &compiled.clues[i];
        let layered = encode_clue(sink, &mut shared, &ctx, cc, &clue.cells, selectors.get(i).copied());
        clue_sizes.push(ClueSize {
            states: cc.automaton.states(),
            layered_states: layered,
            vars: sink.num_vars() - v0,
            clauses: sink.num_clauses() - c0,
            own: ranges_between(c0..sink.num_clauses(), &shared.defs[d0..]),
        });
        if sink.num_clauses() > MAX_CLAUSES || sink.num_vars() > MAX_VARS {
            return Err(too_large(sink, &clue.label, &clue.regex));
        }
    }
    let assign = match &puzzle.pool {
        None => vec![],
        Some(pool) => pool::encode_pool(sink, &mut shared, &ctx, pool, compiled)?,
    };
    Ok((CellVars { cells, clue_sizes, assign }, selectors))
}

/// The ranges of `all` outside `holes` (ranges within it, in increasing order).
fn ranges_between(all: std::ops::Range<usize>, holes: &[std::ops::Range<usize>]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::with_capacity(holes.len() + 1);
    let mut at = all.start;
    for h in holes {
        if h.start > at {
            out.push(at..h.start);
        }
        at = at.max(h.end);
    }
    if all.end > at {
        out.push(at..all.end);
    }
    out
}

/// The error of a formula past [`MAX_CLAUSES`] or [`MAX_VARS`], naming the clue being
/// encoded when the limit was passed.
pub(super) fn too_large<S: ClauseSink>(sink: &S, label: &str, regex: &str) -> Error {
    use crate::error::{EncodeError, EncodeLimit};
    let limit = if sink.num_clauses() > MAX_CLAUSES { EncodeLimit::Clauses(MAX_CLAUSES) } else { EncodeLimit::Variables(MAX_VARS) };
    Error::Encode(EncodeError { source: String::new(), clue: Some((label.to_string(), regex.to_string())), limit })
}

/// One clue (plain or tagged) over `line`, required when `gate` is true (always without
/// a gate). Returns the number of live layered states (or layers, for tagged clues).
pub(super) fn encode_clue<S: ClauseSink>(
    sink: &mut S,
    shared: &mut marker_slots::Shared,
    ctx: &marker_slots::Ctx<'_>,
    cc: &CompiledClue,
    line: &[usize],
    gate: Option<i32>,
) -> usize {
    let a = &cc.automaton;
    match &cc.tagged {
        None => {
            let doms: Vec<SymSet> = line.iter().map(|&c| ctx.doms[c]).collect();
            let live = live_layers(a, &doms);
            let cell_lits: Vec<&[(usize, i32)]> = line.iter().map(|&c| ctx.cells[c].as_slice()).collect();
            encode_line(sink, a, &live, &cell_lits, gate);
            live.iter().map(Vec::len).sum()
        }
        Some(t) => marker_slots::encode(sink, shared, ctx, a, t, line, 0, gate),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::propagate::initial_domains;

    /// A sink that only counts, starting from `vars` variables already in use.
    struct Counting {
        vars: usize,
        clauses: usize,
    }

    impl ClauseSink for Counting {
        fn new_var(&mut self) -> i32 {
            self.vars += 1;
            self.vars as i32
        }
        fn add_clause(&mut self, _: &[i32]) {
            self.clauses += 1;
        }
        fn num_vars(&self) -> usize {
            self.vars
        }
        fn num_clauses(&self) -> usize {
            self.clauses
        }
    }

    /// The puzzle and its automata, through the earlier stages only (a stage may not use
    /// the pipeline, even in its tests).
    fn compiled() -> (crate::puzzle::Puzzle, crate::compile::Compiled) {
        let json = r#"{"left": ["(A|B)+C", "[AB]*"], "top": ["[AB]A", "[BC]+"], "alphabet": "ABC"}"#;
        let puzzle = crate::puzzle::read("p.json", json.as_bytes(), None, None, None).expect("a puzzle");
        let parsed = crate::compile::parse_clues("p.json", &puzzle).expect("clues");
        let alphabet = crate::compile::choose_alphabet("p.json", &puzzle, &parsed, None).expect("an alphabet");
        let compiled = crate::compile::compile("p.json", &puzzle, &parsed, alphabet).expect("automata");
        (puzzle, compiled)
    }

    /// A clue's own clauses are its range without the shared definitions made for it.
    #[test]
    fn ranges_between_cuts_out_the_holes() {
        assert_eq!(ranges_between(0..10, &[]), vec![0..10]);
        assert_eq!(ranges_between(0..10, &[0..2, 4..5, 5..7, 9..10]), vec![2..4, 7..9]);
        assert_eq!(ranges_between(3..3, &[]), Vec::<std::ops::Range<usize>>::new());
    }

    /// Tagged clues that compare the same cells share the variable that says so; its
    /// definition belongs to no clue, so that leaving out the first clue's clauses keeps it.
    #[test]
    fn own_clauses_leave_out_shared_definitions() {
        let rows = r#"["(((.)\\3)\\2)\\3\\1", "(.)(.)(.)(\\2\\3)+.\\1"]"#;
        let json =
            format!(r#"{{"left": {rows}, "top": [".+", ".+", ".+", ".+", ".+", ".+", ".+", ".+", ".+"], "alphabet": "ABCDEFGHIJ"}}"#);
        let puzzle = crate::puzzle::read("p.json", json.as_bytes(), None, None, None).expect("a puzzle");
        let parsed = crate::compile::parse_clues("p.json", &puzzle).expect("clues");
        let alphabet = crate::compile::choose_alphabet("p.json", &puzzle, &parsed, None).expect("an alphabet");
        let compiled = crate::compile::compile("p.json", &puzzle, &parsed, alphabet).expect("automata");
        assert!(compiled.clues[..2].iter().all(|c| c.tagged.is_some()), "the rows are not tagged");
        let doms = initial_domains(&puzzle, &compiled);
        let mut cnf = Cnf::new();
        let vars = encode(&puzzle, &compiled, Some(&doms), &mut cnf).expect("a formula");
        let own: Vec<usize> = vars.clue_sizes.iter().flat_map(|s| s.own.iter().cloned().flatten()).collect();
        let total: usize = vars.clue_sizes.iter().map(|s| s.clauses).sum();
        let clues_start = cnf.clauses().count() - total;
        // Every own clause lies in the clues' part, no clause is owned twice, and the
        // clues' part holds other clauses: the shared definitions.
        let mut sorted = own.clone();
        sorted.dedup();
        assert_eq!(sorted.len(), own.len());
        assert!(own.iter().all(|&k| k >= clues_start));
        let clauses: Vec<&[i32]> = cnf.clauses().collect();
        let holes: Vec<usize> = (clues_start..clauses.len()).filter(|k| !own.contains(k)).collect();
        // The shared true literal is defined outside every clue's own clauses, and the
        // second clue's own clauses use it: leaving out the first clue keeps its meaning.
        let truth = holes.iter().find_map(|&k| match clauses[k] {
            [v] if *v > 0 => Some(*v),
            _ => None,
        });
        let truth = truth.expect("a shared true literal outside the clues' own clauses");
        let second: Vec<usize> = vars.clue_sizes[1].own.iter().cloned().flatten().collect();
        assert!(second.iter().any(|&k| clauses[k].iter().any(|l| l.abs() == truth)), "the second clue does not use the shared literal");
    }

    /// Both caps are checked after each clue, and the error names the clue and the limit.
    #[test]
    fn variable_and_clause_caps_name_the_clue() {
        let (puzzle, compiled) = compiled();
        let doms = initial_domains(&puzzle, &compiled);
        let run = |vars, clauses| encode(&puzzle, &compiled, Some(&doms), &mut Counting { vars, clauses });
        assert!(run(0, 0).is_ok());
        assert!(run(MAX_VARS - 1000, MAX_CLAUSES - 1000).is_ok());
        use crate::error::{EncodeError, EncodeLimit};
        let clue = Some(("row 1 (left)".to_string(), puzzle.clues[0].regex.clone()));
        let r = run(MAX_VARS, 0);
        let Err(Error::Encode(EncodeError { clue: c, limit, .. })) = r else { panic!("no error at the variable cap: {r:?}") };
        assert_eq!((c, limit), (clue.clone(), EncodeLimit::Variables(MAX_VARS)));
        let r = run(0, MAX_CLAUSES);
        let Err(Error::Encode(e)) = r else { panic!("no error at the clause cap: {r:?}") };
        assert_eq!((e.clue.clone(), e.limit), (clue, EncodeLimit::Clauses(MAX_CLAUSES)));
        assert!(e.to_string().ends_with("encoding too large: more than 10000000 clauses, the limit of one puzzle's formula"), "{e}");
    }
}
