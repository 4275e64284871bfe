//! Deduction as a person does it: the engine behind `crossat explain` and the
//! difficulty a player sees.
//!
//! From the givens, each cell holds a set of candidate letters. A **line step** takes
//! one clue and removes from its cells every letter that no word of the clue over the
//! current candidates uses (its exact support: the automaton's support, and for a clue
//! whose automaton only approximates it, each word of that support asked of the
//! matcher, `mod@candidates`). When lines stall, a **case split** assumes one letter in one
//! cell and shows, by line steps (and, at depth 2, by splits inside), that some cell is
//! then left without a letter, so the letter goes (`split`). Where splits of the
//! allowed depth do not finish, the deduction stops, and the caller falls back to the
//! SAT search: nothing is ever claimed that was not shown.
//!
//! Order (deterministic): a step whose clue leaves a cell empty first (the shortest
//! way to a contradiction); then a step that fixes some cell; then the step that
//! changes the fewest cells; then puzzle order of the clues. A clue's step removes all
//! it can at once (its support is a fixpoint of the line), and a clue that could not
//! be narrowed exactly (too many words to ask the matcher) is tried again at once, its
//! removals merged into the same step. A step always removes something. A split
//! prefers the assumption whose contradiction takes the fewest steps, depth 1 before
//! depth 2. Once the splits' work budget is spent, a depth-1 split is the first
//! assumption that fails (cells round the grid from the last one assumed), so that
//! depth-1 splits always reach their fixpoint: the difficulty is defined by it
//! (`closure`, which the rater computes without the steps).
//!
//! The case splits ask the same lines again and again: the engine remembers each
//! line's support, and for a clue only the matcher decides, the words of a line it
//! listed, so that a narrower line filters them instead of asking again.
//!
//! Each step names, in `uses`, the earlier steps of its own list whose results it
//! reads: for each cell of its line, the step that last narrowed it.

pub(crate) mod candidates;
pub(crate) mod closure;
pub(crate) mod constraints;
pub(crate) mod pool;
pub(crate) mod rate;
pub(crate) mod reason;
pub(crate) mod split;

use crate::compile::Compiled;
use crate::error::Result;
use crate::propagate::SymSet;
use crate::puzzle::Puzzle;
use crate::records::Difficulty;
use constraints::Constraint;
use std::collections::BTreeSet;

/// The matcher a deduction asks about the words of clues whose automata only
/// approximate them: whether clue `i` fully matches the word (`None`: no verdict).
pub(crate) type Matcher<'a> = &'a dyn Fn(usize, &str) -> Option<bool>;

/// The kinds of step, simplest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Kind {
    /// One clue (or one entry of a regex pool) over the current candidates of its cells.
    Line,
    /// A regex pool's one-to-one assignment over its entries' candidate regexes.
    Assign,
    /// An assumption that leads to a contradiction.
    Split,
    /// The SAT search, where deduction stalls.
    Search,
}

/// Why a step removes what it removes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Why {
    /// The removed letters are ones the clue allows at none of those cells, whatever
    /// the other cells hold.
    Excludes,
    /// The only words of the clue that fit the candidates (a few).
    Words(Vec<String>),
    /// Every matching word has `letter` at least `count` times, and only `cells` (as
    /// many) can hold it: the step fixes them to it.
    Count {
        /// The letter (alphabet symbol).
        letter: usize,
        /// How many times every matching word has it.
        count: usize,
        /// The cells that can hold it.
        cells: Vec<usize>,
    },
    /// The clue's back-reference `\group`: in every matching word, the second cell of
    /// each pair holds the letter of the first, whose candidates it is left with.
    Copy {
        /// The group number the back-reference names.
        group: usize,
        /// (cell copied, cell narrowed).
        pairs: Vec<(usize, usize)>,
    },
    /// No word of the clue over the current candidates uses a removed letter at its cell.
    NoWord,
    /// A pool entry: of its candidate regexes, those left have words over its cells'
    /// candidates, the removed ones none, and no word of one left uses a removed
    /// letter at its cell. An entry that held one regex before the step has that
    /// regex's reason as a clue's (`inner`).
    Entry {
        /// The regex the entry held before the step, if one.
        regex: Option<usize>,
        /// Its reason as a clue's ([`Why::NoWord`] without one).
        inner: Box<Why>,
    },
    /// A pool step, by its rule.
    Pool(pool::Rule),
    /// A case split: with `letter` at `cell`, the sub-steps leave `empty` without a letter.
    Split {
        /// The cell assumed.
        cell: usize,
        /// The letter assumed (alphabet symbol).
        letter: usize,
        /// The steps under the assumption, the last one emptying `empty`.
        steps: Vec<Step>,
        /// The cell left without a letter.
        empty: usize,
    },
    /// The SAT search settles the cells: `solutions` found (up to two), `complete`
    /// when the search was exhausted (so one solution is the only one).
    Search {
        /// Solutions found.
        solutions: usize,
        /// Whether the search was exhausted.
        complete: bool,
    },
}

/// One deduction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Step {
    /// Its kind.
    pub kind: Kind,
    /// The constraint of a line or pool step (`Engine::constraint`), or the one whose
    /// step empties a cell in a split.
    pub clue: Option<usize>,
    /// The cells whose candidates change, in the constraint's line order (a split: its
    /// cell); cells past the grid's are pool entries ([`constraints`]).
    pub cells: Vec<usize>,
    /// Per cell of `cells`, the letters removed.
    pub removed: Vec<SymSet>,
    /// Per cell of `cells`, the letters left.
    pub remaining: Vec<SymSet>,
    /// Earlier steps of the same list (numbered from 1) whose results it reads.
    pub uses: Vec<usize>,
    /// Why.
    pub why: Why,
    /// Whether the remaining letters may include some that no matching word uses (a
    /// clue with too many words over the candidates to ask the matcher each one):
    /// the removals are still exact.
    pub extra: bool,
}

impl Step {
    /// Whether the step leaves some cell without a letter.
    pub(crate) fn empties(&self) -> bool {
        self.remaining.iter().any(SymSet::is_empty)
    }

    /// Steps in this step and under it (a split counts its sub-steps).
    pub(crate) fn size(&self) -> usize {
        1 + match &self.why {
            Why::Split { steps, .. } => steps.iter().map(Step::size).sum(),
            _ => 0,
        }
    }
}

/// How a deduction ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum End {
    /// Every cell has one letter, which every clue accepts.
    Solved,
    /// A cell has no letter left: the givens cannot be completed.
    Contradiction {
        /// The cell.
        cell: usize,
    },
    /// Lines and splits of the allowed depth stall (or the split budget ran out).
    Stalled,
    /// The step limit was reached.
    StepLimit,
}

/// Bounds of a deduction.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Options {
    /// Deepest case split (0: lines only; at most 2).
    pub depth: usize,
    /// Most top-level steps (`None`: no limit).
    pub max_steps: Option<usize>,
    /// Most work the case splits may do, all together: a line computation is one
    /// unit, and `WORDS_PER_UNIT` words asked of the matcher one more.
    pub budget: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options { depth: 2, max_steps: None, budget: DEFAULT_BUDGET }
    }
}

/// Work the case splits of one deduction may do by default (a few tenths of a second).
pub(crate) const DEFAULT_BUDGET: usize = 20_000;

/// Words asked of the matcher that cost as much as one line computation.
pub(crate) const WORDS_PER_UNIT: usize = 16;

/// A deduction: from `start`, the steps, and how it ended with which candidates.
#[derive(Clone, Debug)]
pub(crate) struct Deduction {
    /// Candidates before the first step.
    pub start: Vec<SymSet>,
    /// The steps.
    pub steps: Vec<Step>,
    /// How it ended.
    pub end: End,
    /// Candidates after the last step.
    pub doms: Vec<SymSet>,
}

impl Deduction {
    /// The difficulty these steps show (the classes of [`rate`]): easy when
    /// line steps (and a regex pool's assign steps) alone solve the puzzle, medium when case splits of depth 1 (probing:
    /// a letter tried, the lines fail) are needed too, hard when a split of depth 2 or
    /// the search is. `None` when the deduction ended on a contradiction or the step
    /// limit (no proof of uniqueness to rate).
    pub(crate) fn difficulty(&self) -> Option<Difficulty> {
        let nested = |s: &Step| matches!(&s.why, Why::Split { steps, .. } if steps.iter().any(|t| t.kind != Kind::Line));
        match self.end {
            End::Solved if self.steps.iter().all(|s| matches!(s.kind, Kind::Line | Kind::Assign)) => Some(Difficulty::Easy),
            End::Solved if !self.steps.iter().any(nested) => Some(Difficulty::Medium),
            End::Solved | End::Stalled => Some(Difficulty::Hard),
            End::Contradiction { .. } | End::StepLimit => None,
        }
    }

    /// Steps of each kind at the top level.
    pub(crate) fn count(&self, kind: Kind) -> usize {
        self.steps.iter().filter(|s| s.kind == kind).count()
    }
}

/// What a clue's next step would do, once computed over the current candidates.
#[derive(Clone, Debug)]
enum Pending {
    /// Not computed since its cells changed.
    Dirty,
    /// Nothing to remove.
    Quiet,
    /// The clue's support and whether it may keep extra letters.
    Narrows(Vec<SymSet>, bool),
}

/// The state of one list of steps: the top level, or the inside of a split.
#[derive(Clone, Debug)]
struct Ctx {
    doms: Vec<SymSet>,
    /// Per cell, `(level, step)` that last narrowed it (step 0: none, or the assumption).
    origin: Vec<(u8, u32)>,
    level: u8,
    /// Steps of enclosing lists that this list's steps read.
    outer: BTreeSet<(u8, u32)>,
    pending: Vec<Pending>,
}

/// The engine: the puzzle, its automata and the matcher, with counters.
pub(crate) struct Engine<'a> {
    puzzle: &'a Puzzle,
    compiled: &'a Compiled,
    matcher: Matcher<'a>,
    /// The constraints, their cells, and the constraints through each cell.
    layout: constraints::Layout,
    /// Per regex and line length, the letters it allows at each cell over the whole
    /// alphabet.
    alone: std::collections::HashMap<(usize, usize), Vec<SymSet>>,
    /// Work the case splits may still do: a line computation costs one unit, and
    /// one more per [`WORDS_PER_UNIT`] words asked of the matcher.
    budget: usize,
    /// Work done since the budget was set.
    spent: std::cell::Cell<usize>,
    /// What lines and the matcher said, asked again.
    memo: std::cell::RefCell<candidates::Memo>,
    /// Per regex and line length, its automaton's support with buffers kept.
    fast: std::cell::RefCell<std::collections::HashMap<(usize, usize), crate::propagate::LineSupport>>,
    /// The cell the last split found past the budget assumed (the next search starts there).
    first_from: std::cell::Cell<usize>,
    /// Polled at each round of line steps and before each case split.
    cancel: crate::stop::Cancel,
}

impl<'a> Engine<'a> {
    /// An engine for `puzzle`. The matcher is asked about regex `key`: clue `key`, or
    /// pool regex `key` − clues.
    pub(crate) fn new(puzzle: &'a Puzzle, compiled: &'a Compiled, matcher: Matcher<'a>) -> Engine<'a> {
        Engine {
            puzzle,
            compiled,
            matcher,
            layout: constraints::Layout::new(puzzle),
            alone: Default::default(),
            budget: DEFAULT_BUDGET,
            spent: Default::default(),
            memo: Default::default(),
            fast: Default::default(),
            first_from: Default::default(),
            cancel: crate::stop::Cancel::never(),
        }
    }

    /// The same engine, polling `cancel` as it deduces: a cancelled token ends
    /// [`Engine::deduce`] with [`Error::Cancelled`](crate::error::Error::Cancelled).
    pub(crate) fn with_cancel(mut self, cancel: crate::stop::Cancel) -> Engine<'a> {
        self.cancel = cancel;
        self
    }

    /// Whether the case splits have used up their budget.
    fn spent_all(&self) -> bool {
        self.spent.get() >= self.budget
    }

    /// Deduces from `start` (each cell's candidates, pool entries' too:
    /// [`Engine::with_entries`]).
    pub(crate) fn deduce(&mut self, start: Vec<SymSet>, opts: Options) -> Result<Deduction> {
        self.budget = opts.budget;
        self.spent.set(0);
        let n = start.len();
        let mut ctx = Ctx {
            doms: start.clone(),
            origin: vec![(0, 0); n],
            level: 0,
            outer: BTreeSet::new(),
            pending: vec![Pending::Dirty; self.constraints()],
        };
        let mut steps = Vec::new();
        let end = match start.iter().position(SymSet::is_empty) {
            Some(cell) => End::Contradiction { cell },
            None => self.run(&mut ctx, &mut steps, opts.max_steps, opts.depth.min(2))?,
        };
        Ok(Deduction { start, steps, end, doms: ctx.doms })
    }

    /// Line steps, and splits up to `depth` when lines stall, until the candidates
    /// are solved or a cell is empty or nothing more follows; at most `limit` steps
    /// (counting those inside splits).
    fn run(&mut self, ctx: &mut Ctx, steps: &mut Vec<Step>, limit: Option<usize>, depth: usize) -> Result<End> {
        let mut size: usize = steps.iter().map(Step::size).sum();
        loop {
            self.cancel.check()?;
            if let Some(step) = self.next_line_step(ctx, steps.len()) {
                if limit.is_some_and(|l| size >= l) {
                    return Ok(End::StepLimit);
                }
                size += 1;
                let empty = step.remaining.iter().position(SymSet::is_empty).map(|p| step.cells[p]);
                steps.push(step);
                if let Some(cell) = empty {
                    return Ok(End::Contradiction { cell });
                }
                continue;
            }
            if ctx.doms[..self.grid_cells()].iter().all(|d| d.len() == 1) {
                return Ok(End::Solved);
            }
            if depth == 0 {
                return Ok(End::Stalled);
            }
            let room = limit.map(|l| l.saturating_sub(size));
            if room == Some(0) {
                return Ok(End::StepLimit);
            }
            let Some(step) = self.find_split(ctx, steps.len(), depth, room)? else {
                return Ok(End::Stalled);
            };
            size += step.size();
            let empty = step.remaining.iter().position(SymSet::is_empty).map(|p| step.cells[p]);
            steps.push(step);
            if let Some(cell) = empty {
                return Ok(End::Contradiction { cell });
            }
        }
    }

    /// The next line step over `ctx` (numbered `done + 1`), applied; `None` at a
    /// fixpoint of every line.
    fn next_line_step(&mut self, ctx: &mut Ctx, done: usize) -> Option<Step> {
        for i in 0..self.constraints() {
            if matches!(ctx.pending[i], Pending::Dirty) {
                ctx.pending[i] = self.pending(ctx, i);
            }
        }
        // (empties nothing, fixes nothing, cells changed, clue)
        let mut best: Option<(bool, bool, usize, usize)> = None;
        for (i, p) in ctx.pending.iter().enumerate() {
            let Pending::Narrows(support, _) = p else { continue };
            let cells = self.cells_of(i);
            let (mut changed, mut fixes, mut empties) = (0, false, false);
            for (&c, s) in cells.iter().zip(support) {
                let new = ctx.doms[c].and(s);
                if new != ctx.doms[c] {
                    changed += 1;
                    fixes |= new.len() == 1;
                    empties |= new.is_empty();
                }
            }
            let key = (!empties, !fixes, changed, i);
            if best.is_none_or(|b| key < b) {
                best = Some(key);
            }
        }
        let (_, _, _, i) = best?;
        Some(self.apply_line(ctx, i, done + 1))
    }

    /// What constraint `i` would remove now.
    fn pending(&mut self, ctx: &Ctx, i: usize) -> Pending {
        let line: Vec<SymSet> = self.cells_of(i).iter().map(|&c| ctx.doms[c]).collect();
        let (support, extra) = self.constraint_support(i, &line);
        if line.iter().zip(&support).all(|(d, s)| d.and(s) == *d) { Pending::Quiet } else { Pending::Narrows(support, extra) }
    }

    /// Applies constraint `i`'s pending step as step number `number`, merging the
    /// further removals of a clue narrowed inexactly; the pool's, by its simplest rule.
    fn apply_line(&mut self, ctx: &mut Ctx, i: usize, number: usize) -> Step {
        let cells = self.cells_of(i).to_vec();
        let before: Vec<SymSet> = cells.iter().map(|&c| ctx.doms[c]).collect();
        let mut uses = BTreeSet::new();
        for &c in &cells {
            let (level, step) = ctx.origin[c];
            if step == 0 {
                continue;
            }
            if level == ctx.level {
                let _ = uses.insert(step as usize);
            } else {
                let _ = ctx.outer.insert((level, step));
            }
        }
        let mut extra = false;
        let mut rule = None;
        if let (Constraint::Pool, Pending::Narrows(support, _)) = (self.constraint(i), &ctx.pending[i]) {
            // One rule at a time: what is left stays pending.
            let (r, left) = pool::simplest(&before, support);
            rule = Some(r);
            ctx.pending[i] = Pending::Narrows(left, false);
        }
        while let Pending::Narrows(support, x) = std::mem::replace(&mut ctx.pending[i], Pending::Dirty) {
            extra = x;
            let mut any_empty = false;
            for (&c, s) in cells.iter().zip(&support) {
                let new = ctx.doms[c].and(s);
                if new != ctx.doms[c] {
                    ctx.doms[c] = new;
                    ctx.origin[c] = (ctx.level, number as u32);
                    any_empty |= new.is_empty();
                    for &j in &self.layout.of_cell[c] {
                        ctx.pending[j] = Pending::Dirty;
                    }
                }
            }
            if !x || any_empty {
                break;
            }
            ctx.pending[i] = self.pending(ctx, i);
        }
        if matches!(ctx.pending[i], Pending::Dirty) && !extra && rule.is_none() {
            // The support of a line is a fixpoint of that line.
            ctx.pending[i] = Pending::Quiet;
        }
        let mut step = Step {
            kind: if rule.is_some() { Kind::Assign } else { Kind::Line },
            clue: Some(i),
            cells: Vec::new(),
            removed: Vec::new(),
            remaining: Vec::new(),
            uses: uses.into_iter().collect(),
            why: Why::NoWord,
            extra,
        };
        let mut seen = BTreeSet::new();
        for (p, &c) in cells.iter().enumerate() {
            if ctx.doms[c] != before[p] && seen.insert(c) {
                step.cells.push(c);
                step.removed.push(minus(&before[p], &ctx.doms[c]));
                step.remaining.push(ctx.doms[c]);
            }
        }
        if let Some(rule) = rule {
            step.why = Why::Pool(rule);
        } else if ctx.level == 0 {
            // Inside a split the reasons wait until the split is kept ([`Engine::fill_reasons`]).
            step.why = self.why(i, &before, &step);
        }
        step
    }

    /// Words the reasons of `steps` (line steps, and splits' sub-steps), replayed from
    /// the candidates `doms` before the first.
    fn fill_reasons(&mut self, mut doms: Vec<SymSet>, steps: &mut [Step]) {
        for step in steps {
            match step.kind {
                Kind::Line => {
                    let Some(i) = step.clue else { continue };
                    let before: Vec<SymSet> = self.cells_of(i).iter().map(|&c| doms[c]).collect();
                    let why = self.why(i, &before, step);
                    step.why = why;
                }
                Kind::Split => {
                    if let Why::Split { cell, letter, steps: sub, .. } = &mut step.why {
                        let mut inner = doms.clone();
                        inner[*cell] = closure::one(*letter);
                        self.fill_reasons(inner, sub);
                    }
                }
                Kind::Search | Kind::Assign => {}
            }
            for (&c, left) in step.cells.iter().zip(&step.remaining) {
                doms[c] = *left;
            }
        }
    }
}

/// Letters of `a` not in `b`.
pub(crate) fn minus(a: &SymSet, b: &SymSet) -> SymSet {
    let mut out = *a;
    for x in b.iter() {
        out.remove(x);
    }
    out
}
