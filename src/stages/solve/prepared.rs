//! What the solve stage works on: a puzzle compiled, its domains propagated, and its
//! formula built on first use ([`Prepared`]), with the checks that an export or a proof
//! needs a formula that means exactly the puzzle ([`require_exact`]).

use crate::clock::Instant;
use crate::compile::{self, Alphabet, Compiled};
use crate::dialect::Tree;
use crate::encode::{self, CellVars, Cnf};
use crate::error::{ClueError, ClueErrorKind, Error, Result};
use crate::propagate::{self, SymSet};
use crate::puzzle::Puzzle;
use crate::stats::{Stage, Times};
use crate::stop::Cancel;
use crate::verify::Verifier;
use std::sync::OnceLock;

/// A puzzle's formula: the CNF and the variables of its cells.
#[derive(Clone, Debug)]
pub(crate) struct Formula {
    /// The clauses.
    pub cnf: Cnf,
    /// Cell variables of the formula.
    pub vars: CellVars,
}

/// A puzzle compiled, its domains propagated, and (unless propagation alone decides
/// it) encoded: ready to solve or export. A clone is a copy to solve on its own.
#[derive(Clone)]
pub struct Prepared {
    /// Where the puzzle came from, for messages.
    pub source: String,
    /// The puzzle.
    pub puzzle: Puzzle,
    /// Its clues, parsed.
    parsed: Vec<Tree>,
    /// The letters a cell may hold.
    pub(super) alphabet: Alphabet,
    /// Its automata: compiled at once, except when propagation over the clues'
    /// position automata decides the puzzle ([`propagate::early`]); then on first use
    /// ([`Prepared::compiled`]).
    compiled: OnceLock<Compiled>,
    /// The independent matcher.
    pub verifier: Verifier,
    /// Time spent so far.
    pub times: Times,
    /// Each cell's letters after line propagation (`None`: some cell has none left).
    pub(super) domains: Option<Vec<SymSet>>,
    /// Whether [`crate::pipeline::solve`] may answer from `domains` alone (see
    /// [`Prepared::decided`]) or by the line search.
    pub(super) direct: bool,
    /// Per clue, whether propagation saw the matcher accept every word of its line, so
    /// that the domains imply it (empty when not known; [`super::odometer::entailed`]).
    pub(crate) entailed: Vec<bool>,
    /// Whether `domains` came from the position automata, before compiling.
    decided_early: bool,
    /// Nodes of the line search, when it decided the puzzle.
    pub(super) line_nodes: Option<usize>,
    /// Most nodes the line search may take (`None`: [`super::lines::MAX_NODES`] when
    /// every automaton is exact, [`super::lines::MAX_NODES_INEXACT`] otherwise).
    pub(super) line_budget: Option<usize>,
    /// The formula: built at once, except when propagation decides the puzzle; then
    /// on first use ([`Prepared::formula`]), for an export, a proof or `--stats`.
    formula: OnceLock<Formula>,
    /// The cancel token every stage polls while it works on this puzzle.
    pub(super) cancel: Cancel,
}

impl Prepared {
    /// A puzzle whose clues are parsed and matchers built, with its domains after
    /// propagation (`None`: some cell has no letter left) and its automata, `None` when
    /// propagation over the position automata decided the puzzle before compiling (then
    /// they are compiled on first use). The formula is built on first use.
    pub(crate) fn new(
        source: &str,
        puzzle: Puzzle,
        parsed: Vec<Tree>,
        alphabet: Alphabet,
        verifier: Verifier,
        compiled: Option<Compiled>,
        domains: Option<Vec<SymSet>>,
    ) -> Prepared {
        Prepared {
            source: source.to_string(),
            puzzle,
            parsed,
            alphabet,
            decided_early: compiled.is_none(),
            compiled: compiled.map_or_else(OnceLock::new, OnceLock::from),
            verifier,
            times: Times::default(),
            domains,
            entailed: Vec::new(),
            direct: true,
            line_nodes: None,
            line_budget: None,
            formula: OnceLock::new(),
            cancel: Cancel::never(),
        }
    }

    /// A puzzle with a formula built by the caller (tests that check the CNF alone):
    /// [`crate::pipeline::solve`] always searches it.
    #[cfg(test)]
    pub(crate) fn with_formula(source: &str, puzzle: Puzzle, compiled: Compiled, cnf: Cnf, vars: CellVars, verifier: Verifier) -> Prepared {
        Prepared {
            source: source.to_string(),
            puzzle,
            parsed: Vec::new(),
            alphabet: compiled.alphabet.clone(),
            compiled: OnceLock::from(compiled),
            verifier,
            times: Times::default(),
            domains: None,
            entailed: Vec::new(),
            direct: false,
            line_nodes: None,
            line_budget: None,
            formula: OnceLock::from(Formula { cnf, vars }),
            decided_early: false,
            cancel: Cancel::never(),
        }
    }

    /// The cancel token that compiling, encoding and solving this puzzle poll
    /// ([`Cancel::never`] unless set).
    pub(crate) fn cancel(&self) -> &Cancel {
        &self.cancel
    }

    /// Sets the cancel token that the work on this puzzle polls from now on.
    pub(crate) fn set_cancel(&mut self, cancel: Cancel) {
        self.cancel = cancel;
    }

    /// The letters a cell may hold.
    pub fn alphabet(&self) -> &Alphabet {
        &self.alphabet
    }

    /// The clues' automata, compiled now if they were not yet (the time is not
    /// counted).
    pub(crate) fn compiled(&self) -> Result<&Compiled> {
        if let Some(c) = self.compiled.get() {
            return Ok(c);
        }
        let c = compile::compile_cancellable(
            &self.source,
            &self.puzzle,
            &self.parsed,
            self.alphabet.clone(),
            compile::Options::default(),
            &self.cancel,
        )?;
        Ok(self.compiled.get_or_init(|| c))
    }

    /// Whether the automata have been compiled (they are not when propagation over the
    /// position automata decided the puzzle and nothing asked for them since).
    #[cfg(test)]
    pub(crate) fn is_compiled(&self) -> bool {
        self.compiled.get().is_some()
    }

    /// Whether propagation over the clues' position automata decided the puzzle before
    /// anything was compiled (`propagate::early`).
    pub(crate) fn decided_before_compiling(&self) -> bool {
        self.decided_early
    }

    /// The formula, encoded now if it was not yet (the encoding time is not counted:
    /// see [`Prepared::encode`]).
    pub(crate) fn formula(&self) -> Result<&Formula> {
        if let Some(f) = self.formula.get() {
            return Ok(f);
        }
        let f = encode_domains(&self.puzzle, self.compiled()?, self.domains.as_deref(), &self.cancel)
            .map_err(|e| with_source(e, &self.source))?;
        Ok(self.formula.get_or_init(|| f))
    }

    /// The formula, encoded now if it was not yet, counting the time as encoding.
    pub(crate) fn encode(&mut self) -> Result<&Formula> {
        if self.compiled.get().is_none() {
            let start = Instant::now();
            let _ = self.compiled()?;
            self.times.add(Stage::Compile, start.elapsed());
            self.times.add_wall(start.elapsed());
        }
        if self.formula.get().is_none() {
            let start = Instant::now();
            let f = encode_domains(&self.puzzle, self.compiled()?, self.domains.as_deref(), &self.cancel)
                .map_err(|e| with_source(e, &self.source))?;
            self.times.add(Stage::Encode, start.elapsed());
            self.times.add_wall(start.elapsed());
            let _ = self.formula.set(f);
        }
        self.formula()
    }

    /// Whether the formula has been built (it is not when propagation or the line
    /// search decided the puzzle and nothing asked for it since).
    pub(crate) fn encoded(&self) -> bool {
        self.formula.get().is_some()
    }

    /// Nodes the line search took, when it decided the puzzle ([`crate::pipeline::solve`]).
    pub(crate) fn line_nodes(&self) -> Option<usize> {
        self.line_nodes
    }

    /// Sets the most nodes the line search of [`crate::pipeline::solve`] may take (0:
    /// none, straight to the SAT search).
    pub(crate) fn set_line_budget(&mut self, nodes: usize) {
        self.line_budget = Some(nodes);
    }

    /// When line propagation alone decides the puzzle: what it settled ([`Settled`]).
    /// `None` when a search is needed, and always for a regex pool (whose grids also
    /// assign regexes to entries).
    ///
    /// Propagation only removes letters that no run of a clue's automaton can use,
    /// and every automaton accepts at least its clue's matches (it over-approximates
    /// on the counterexample route), so no solution is lost: the answer is exhaustive.
    pub(crate) fn decided(&self) -> Option<Settled> {
        if !self.direct || self.puzzle.pool.is_some() {
            return None;
        }
        settled(&self.domains)
    }
}

/// What line propagation settled alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Settled {
    /// Some cell has no letter left: no solution.
    Empty,
    /// Every cell has exactly one letter: the symbols of the only grid that can be a
    /// solution, which the matcher then accepts or rejects.
    Only(Vec<usize>),
}

/// What domains settle alone: [`Settled::Empty`] when some cell has no letter left (or
/// there are no domains), [`Settled::Only`] when every cell has exactly one, `None`
/// otherwise.
pub(crate) fn settled(domains: &Option<Vec<SymSet>>) -> Option<Settled> {
    match domains {
        None => Some(Settled::Empty),
        Some(doms) if doms.iter().all(|d| d.len() == 1) => Some(Settled::Only(doms.iter().map(|d| d.iter().next().unwrap_or(0)).collect())),
        Some(_) => None,
    }
}

/// Fails, naming the clue, when a clue's CNF over-approximates it (the counterexample
/// route): `what` (a DIMACS export, a proof, a hint) needs a formula that means exactly
/// the puzzle.
pub fn require_exact(prep: &Prepared, what: &str) -> Result<()> {
    let puzzle = &prep.puzzle;
    let inexact = |cc: &compile::CompiledClue| !cc.route.exact();
    let compiled = prep.compiled()?;
    let found =
        compiled.clues.iter().position(inexact).map(|i| (puzzle.clues[i].label.clone(), puzzle.clues[i].regex.clone())).or_else(|| {
            let r = compiled.pool.iter().position(|m| m.values().any(inexact))?;
            Some((format!("pool regex {}", r + 1), puzzle.pool.as_ref().map_or(String::new(), |p| p.regexes[r].clone())))
        });
    match found {
        None => Ok(()),
        Some((clue, regex)) => Err(Error::from(ClueError {
            source: prep.source.clone(),
            clue,
            regex,
            kind: ClueErrorKind::Inexact { what: what.to_string(), limit: compile::classify::BOUNDED_LIMIT },
        })),
    }
}

/// Domains, then the CNF. Without `propagate`, each cell's domain is the whole
/// alphabet (or its given): the CNF alone then carries every constraint, which the
/// encoding tests use to check the clauses independently of the propagation.
pub(crate) fn encode_puzzle(puzzle: &Puzzle, compiled: &Compiled, propagate: bool) -> Result<(Cnf, CellVars)> {
    let doms = if propagate { propagate::domains(puzzle, compiled) } else { Some(propagate::initial_domains(puzzle, compiled)) };
    encode_domains(puzzle, compiled, doms.as_deref(), &Cancel::never()).map(|f| (f.cnf, f.vars))
}

/// The CNF over given domains (`None`: the formula is the empty clause).
fn encode_domains(puzzle: &Puzzle, compiled: &Compiled, doms: Option<&[SymSet]>, cancel: &Cancel) -> Result<Formula> {
    let mut cnf = Cnf::new();
    let vars = encode::encode_cancellable(puzzle, compiled, doms, &mut cnf, cancel)?;
    Ok(Formula { cnf, vars })
}

fn with_source(e: Error, source: &str) -> Error {
    e.with_source(source)
}
