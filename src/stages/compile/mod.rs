//! Stage 2, **compile**: every clue → an automaton over the puzzle alphabet, bounded by
//! the length of its line.
//!
//! [`compile`] runs three passes per clue, each in its own file:
//!
//! 1. [`normalise`]: `re._parser`'s tree ([`crate::regex::parser`]) → a flag-free
//!    [`Node`] over the alphabet (or a regular over-approximation of it);
//! 2. [`classify`]: choose the route (regular, bounded, tagged, guarded);
//! 3. build: for regular trees, [`bounded::fit_to_length`] drops what cannot fit the
//!    line, then `regex_syntax::hir::Hir` over the alphabet's DFA bytes (repeats clamped
//!    to the line length) → regex-automata Thompson NFA → dense DFA (`MatchKind::All`,
//!    anchored, so the DFA accepts exactly the strings that fully match; a lazy DFA
//!    walked to the line's length when the dense one is too large) → an explicit table
//!    over the alphabet, trimmed to states that can still accept and minimised.
//!
//! Limits (each failure is a clear error naming the clue): NFA and DFA builders get
//! [`BUILD_SIZE_LIMIT`] bytes, the explicit table [`MAX_STATES`] states.

pub mod alphabet;
pub mod bounded;
pub mod classify;
pub mod expand;
pub mod glushkov;
pub mod normalise;
pub mod rename;
pub mod tagged;

pub use alphabet::Alphabet;
pub use classify::{Options, Route};

use crate::error::{ClueError, ClueErrorKind, Error, Result};
use crate::puzzle::Puzzle;
use crate::regex::ast::{Assertion, ClassItem, Node};
use crate::regex::parser;
use crate::regex::syntax::{Item, Parsed, RepeatKind};
use regex_automata::dfa::{Automaton as _, StartKind, dense};
use regex_automata::nfa::thompson;
use regex_automata::util::start;
use regex_automata::{Anchored, MatchKind};
use regex_syntax::hir::{self, Hir, Look};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Memory each regex-automata builder (NFA, determinizer, DFA) may use.
pub const BUILD_SIZE_LIMIT: usize = 16 << 20;
/// Most states the explicit automaton of one clue may have.
pub const MAX_STATES: usize = 50_000;

/// Marks a missing transition in [`Automaton::next`].
pub const DEAD: u32 = u32::MAX;

/// A complete deterministic automaton over alphabet indices; every state can reach
/// acceptance (dead transitions are [`DEAD`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Automaton {
    /// Number of alphabet symbols (row width of `next`).
    pub symbols: usize,
    /// Start state.
    pub start: u32,
    /// Whether each state accepts at the end of the line.
    pub accept: Vec<bool>,
    /// `next[s * symbols + a]`.
    pub next: Vec<u32>,
}

impl Automaton {
    /// Number of states.
    pub fn states(&self) -> usize {
        self.accept.len()
    }

    /// Transition on symbol `a`.
    pub fn step(&self, s: u32, a: usize) -> u32 {
        self.next[s as usize * self.symbols + a]
    }

    /// Whether the automaton accepts the word (a list of symbol indices).
    pub fn accepts(&self, word: &[usize]) -> bool {
        let mut s = self.start;
        for &a in word {
            if s == DEAD {
                return false;
            }
            s = self.step(s, a);
        }
        s != DEAD && self.accept[s as usize]
    }

    /// The automaton accepting nothing.
    fn empty(symbols: usize) -> Automaton {
        Automaton { symbols, start: DEAD, accept: vec![], next: vec![] }
    }
}

/// One compiled clue.
#[derive(Clone, Debug)]
pub struct CompiledClue {
    /// The automaton (trimmed; minimal unless [`glushkov`] built a large table); for a
    /// tagged clue, the skeleton over the alphabet, then the markers, then the idle
    /// symbol.
    pub automaton: Automaton,
    /// Markers, slots and lookarounds of a clue with back-references or lookarounds.
    pub tagged: Option<tagged::Tagged>,
    /// States of the DFA restricted to the alphabet, before trimming and minimising.
    pub raw_states: usize,
    /// How the clue is encoded.
    pub route: Route,
}

impl CompiledClue {
    /// Whether the automaton only over-approximates the clue (a tagged skeleton, which
    /// ignores the registers in propagation, or the counterexample route's regular
    /// approximation): a line it accepts must still be asked of the matcher, and a
    /// grid the matcher rejects on this clue is a counterexample, not a bug.
    pub fn approximate(&self) -> bool {
        matches!(self.route, Route::Tagged | Route::Guarded)
    }
}

/// Output of the compile stage.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// The alphabet every automaton reads.
    pub alphabet: Alphabet,
    /// One entry per clue, in puzzle order.
    pub clues: Vec<CompiledClue>,
    /// Per pool regex, its automaton for each entry length.
    pub pool: Vec<BTreeMap<usize, CompiledClue>>,
}

/// Parses every clue, then every regex of the pool, as `re._parser` does; the error
/// names the clue and gives Python's reason.
pub fn parse_clues(source: &str, puzzle: &Puzzle) -> Result<Vec<Parsed>> {
    (0..regex_count(puzzle))
        .map(|i| parser::parse(regex_text(puzzle, i)).map_err(|e| clue_error(source, puzzle, i, syntax_error(&e))))
        .collect()
}

/// Clues, then pool regexes.
fn regex_count(puzzle: &Puzzle) -> usize {
    puzzle.clues.len() + puzzle.pool.as_ref().map_or(0, |p| p.regexes.len())
}

fn regex_text(puzzle: &Puzzle, i: usize) -> &str {
    match puzzle.clues.get(i) {
        Some(c) => &c.regex,
        None => puzzle.pool.as_ref().map_or("", |p| &p.regexes[i - puzzle.clues.len()]),
    }
}

fn clue_error(source: &str, puzzle: &Puzzle, i: usize, kind: ClueErrorKind) -> Error {
    let clue = puzzle.clues.get(i).map_or_else(|| format!("pool regex {}", i - puzzle.clues.len() + 1), |c| c.label.clone());
    Error::from(ClueError { source: source.to_string(), clue, regex: regex_text(puzzle, i).to_string(), kind })
}

/// Python's refusal as a clue error: `re.error` (and the other exceptions Python
/// raises) is a syntax error, crossat's own caps on length and nesting are limits.
fn syntax_error(e: &parser::ParseError) -> ClueErrorKind {
    let exception = match e.kind {
        parser::ErrorKind::Overflow => Some("OverflowError"),
        parser::ErrorKind::Value => Some("ValueError"),
        parser::ErrorKind::Nesting | parser::ErrorKind::Length => return ClueErrorKind::Limit(e.to_string()),
        parser::ErrorKind::Re => None,
    };
    ClueErrorKind::Syntax { message: e.msg.clone(), position: e.pos, exception }
}

/// Chooses the alphabet: the explicit one (`--alphabet` or the puzzle's), else the
/// characters the clues and givens mention.
pub fn choose_alphabet(source: &str, puzzle: &Puzzle, parsed: &[Parsed], explicit: Option<&[char]>) -> Result<Alphabet> {
    let explicit = explicit.or(puzzle.alphabet.as_deref());
    let chars: BTreeSet<char> = match explicit {
        Some(chars) => {
            let set: BTreeSet<char> = chars.iter().copied().collect();
            if let Some((c, g)) = puzzle.givens.iter().enumerate().find_map(|(c, g)| g.filter(|g| !set.contains(g)).map(|g| (c, g))) {
                return Err(Error::input(source, format!("given '{g}' in cell {} is not in the alphabet", puzzle.shape.cell_name(c))));
            }
            set
        }
        None => {
            let mut set = BTreeSet::new();
            for (i, r) in parsed.iter().enumerate() {
                alphabet::mentioned(&r.items, &mut set).map_err(|m| clue_error(source, puzzle, i, ClueErrorKind::Limit(m)))?;
            }
            set.extend(puzzle.givens.iter().flatten());
            set
        }
    };
    Alphabet::new(chars).map_err(|m| Error::input(source, m))
}

/// Compiles every clue to an automaton over `alphabet`, bounded by its line's length.
pub fn compile(source: &str, puzzle: &Puzzle, parsed: &[Parsed], alphabet: Alphabet) -> Result<Compiled> {
    compile_with(source, puzzle, parsed, alphabet, Options::default())
}

/// [`compile`] with the routes of [`classify`] restricted by `opts`.
pub fn compile_with(source: &str, puzzle: &Puzzle, parsed: &[Parsed], alphabet: Alphabet, opts: Options) -> Result<Compiled> {
    let build = |i: usize, len: usize| -> Result<CompiledClue> {
        crate::stop::check()?;
        classify::compile_clue(&parsed[i], &alphabet, len, opts).map_err(|m| clue_error(source, puzzle, i, m))
    };
    // Equal clues on lines of equal length compile once (rows 2–6 of good_ol_days, the
    // repeated rows of hamlet or exterminate): the result depends only on the parsed
    // clue, the alphabet and the length.
    let mut seen: HashMap<(&str, usize), usize> = HashMap::new();
    let mut clues: Vec<CompiledClue> = Vec::with_capacity(puzzle.clues.len());
    // Clues equal up to a renaming of the symbols compile once too ([`rename`]).
    let mut family = rename::Family::new(parsed, &alphabet);
    for (i, clue) in puzzle.clues.iter().enumerate() {
        let len = clue.cells.len();
        let compiled = match seen.get(&(clue.regex.as_str(), len)) {
            Some(&j) if parsed[j] == parsed[i] => clues[j].clone(),
            _ => match family.renamed(i, len, clue.regex.as_str(), &clues) {
                Some(c) => c,
                None => build(i, len)?,
            },
        };
        family.add(i, len, clue.regex.as_str(), &compiled);
        let _ = seen.entry((clue.regex.as_str(), len)).or_insert(i);
        clues.push(compiled);
    }
    // Each pool regex, for every entry length it may be assigned to.
    let mut pool = Vec::new();
    if let Some(p) = &puzzle.pool {
        let lengths: BTreeSet<usize> = p.entries.iter().map(Vec::len).collect();
        for r in 0..p.regexes.len() {
            let i = puzzle.clues.len() + r;
            pool.push(lengths.iter().map(|&len| Ok((len, build(i, len)?))).collect::<Result<BTreeMap<_, _>>>()?);
        }
    }
    Ok(Compiled { alphabet, clues, pool })
}

/// Each clue's position automaton on its line ([`glushkov::positions`]), for line
/// propagation before compiling: `None` unless every clue has one (no pool; no
/// lookaround or assertion; back-references only to single-character groups).
pub fn positions(puzzle: &Puzzle, parsed: &[Parsed], alphabet: &Alphabet) -> Option<Vec<glushkov::Positions>> {
    // A cheap look at the parsed clues first: normalising every clue before the one
    // that has no position automaton would be work lost.
    if puzzle.pool.is_some() || !parsed.iter().all(may_have_positions) {
        return None;
    }
    let mut seen: HashMap<(&str, usize), usize> = HashMap::new();
    let mut out: Vec<glushkov::Positions> = Vec::with_capacity(puzzle.clues.len());
    for (i, clue) in puzzle.clues.iter().enumerate() {
        let len = clue.cells.len();
        if let Some(&j) = seen.get(&(clue.regex.as_str(), len))
            && parsed[j] == parsed[i]
        {
            out.push(out[j].clone());
            continue;
        }
        let node = normalise::normalise(&parsed[i], alphabet, normalise::Mode::Exact).ok()?;
        out.push(glushkov::positions(&node, alphabet, len)?);
        let _ = seen.entry((clue.regex.as_str(), len)).or_insert(i);
    }
    Some(out)
}

/// Whether a parsed clue may have a position automaton: none of the constructs it
/// cannot take (anchors and boundaries, lookarounds, conditionals, atomic groups,
/// possessive repeats), and back-references only to groups of one character (as
/// parsed; normalising decides the rest).
fn may_have_positions(parsed: &Parsed) -> bool {
    fn constructs_ok(items: &[Item], groups: &mut Vec<(u32, bool)>, refs: &mut Vec<u32>) -> bool {
        items.iter().all(|it| match it {
            Item::At(_) | Item::Atomic(_) | Item::GroupRefExists { .. } | Item::Assert { .. } => false,
            Item::Repeat { kind: RepeatKind::Possessive, .. } => false,
            Item::Subpattern { group, items, .. } => {
                if let Some(k) = group {
                    groups.push((*k, one_char(items)));
                }
                constructs_ok(items, groups, refs)
            }
            Item::Repeat { items, .. } => constructs_ok(items, groups, refs),
            Item::Branch(alts) => alts.iter().all(|a| constructs_ok(a, groups, refs)),
            Item::GroupRef(k) => {
                refs.push(*k);
                true
            }
            Item::Literal(_) | Item::NotLiteral(_) | Item::Any | Item::In(_) => true,
        })
    }
    fn one_char(items: &[Item]) -> bool {
        match items {
            [Item::Literal(_) | Item::NotLiteral(_) | Item::Any | Item::In(_)] => true,
            [Item::Branch(alts)] => alts.iter().all(|a| one_char(a)),
            [Item::Subpattern { group: None, items, .. }] => one_char(items),
            _ => false,
        }
    }
    let (mut groups, mut refs) = (Vec::new(), Vec::new());
    constructs_ok(&parsed.items, &mut groups, &mut refs) && refs.iter().all(|k| groups.iter().any(|&(g, one)| g == *k && one))
}

/// Compiles one parsed clue for a line of `len` cells; returns its automaton (trimmed,
/// and minimised unless [`glushkov`] built a large table) and the number of DFA states
/// seen.
pub fn clue_automaton(node: &Node, alphabet: &Alphabet, len: usize) -> std::result::Result<(Automaton, usize), ClueErrorKind> {
    // Small trees without word boundaries: a subset construction over the puzzle's symbols
    // walked to the line's length, far cheaper than regex-automata's byte DFA builder
    // (issue 15); the walk's bound does what fitting to the length does for the DFA.
    // Too many states unfitted (`(?:.*A.{4}|.*B.{4})*Z`): fit to the length, then again.
    if let Some(Ok(done)) = glushkov::automaton(node, alphabet, len) {
        return Ok(done);
    }
    fitted_automaton(node, alphabet, len)
}

/// [`clue_automaton`] after its first subset construction failed or did not apply:
/// the tree fitted to the line's length, by subset construction again, else by
/// regex-automata (whose DFA, when too large, is walked only as far as the line).
pub fn fitted_automaton(node: &Node, alphabet: &Alphabet, len: usize) -> std::result::Result<(Automaton, usize), ClueErrorKind> {
    let node = bounded::fit_to_length(node, len);
    if let Some(Ok(done)) = glushkov::automaton(&node, alphabet, len) {
        return Ok(done);
    }
    let hir = to_hir(&node, alphabet, len, &mut None)?;
    let bytes: Vec<u8> = (0..alphabet.len()).map(|i| alphabet.byte(i)).collect();
    match determinize(&hir, &bytes, false, None) {
        // The whole DFA is too large: only the part a line of `len` cells reaches counts.
        Err(ClueErrorKind::TooLarge(_)) => bounded::walk_bounded(&hir, &bytes, len),
        other => other,
    }
}

/// Builds the DFA of `hir` with regex-automata and walks it over `bytes` (symbol `i`
/// reads `bytes[i]`); with `idle`, one more symbol loops on every state. Returns the
/// trimmed, minimised table and the number of states walked.
/// `look_behind` is the byte before the text (`None`: the text starts the line), which
/// decides `^`, `\b` and `\B` at the start.
pub fn determinize(hir: &Hir, bytes: &[u8], idle: bool, look_behind: Option<u8>) -> std::result::Result<(Automaton, usize), ClueErrorKind> {
    let nfa = thompson_nfa(hir).map_err(too_large_or)?;
    let dfa = dense::Builder::new()
        .configure(
            dense::Config::new()
                .start_kind(StartKind::Anchored)
                .match_kind(MatchKind::All)
                .minimize(false)
                .byte_classes(true)
                .accelerate(false)
                .dfa_size_limit(Some(BUILD_SIZE_LIMIT))
                .determinize_size_limit(Some(BUILD_SIZE_LIMIT)),
        )
        .build_from_nfa(&nfa)
        .map_err(|e| too_large_or(format!("{e}")))?;
    let s0 = dfa
        .start_state(&start::Config::new().anchored(Anchored::Yes).look_behind(look_behind))
        .map_err(|e| format!("DFA start state: {e}"))?;
    // Breadth-first walk over the symbols' bytes.
    let symbols = bytes.len() + usize::from(idle);
    let mut ids: FastMap<_, u32> = FastMap::default();
    let mut order = vec![s0];
    let _ = ids.insert(s0, 0u32);
    let mut next = Vec::new();
    let mut accept = Vec::new();
    let mut i = 0;
    while i < order.len() {
        let s = order[i];
        accept.push(dfa.is_match_state(dfa.next_eoi_state(s)));
        for &b in bytes {
            let t = dfa.next_state(s, b);
            if dfa.is_dead_state(t) || dfa.is_quit_state(t) {
                next.push(DEAD);
                continue;
            }
            let id = *ids.entry(t).or_insert_with(|| {
                order.push(t);
                (order.len() - 1) as u32
            });
            next.push(id);
        }
        if idle {
            next.push(i as u32);
        }
        if order.len() > MAX_STATES {
            return Err(ClueErrorKind::TooLarge(format!("automaton too large: more than {MAX_STATES} states over the puzzle alphabet")));
        }
        i += 1;
    }
    let raw = order.len();
    let table = Automaton { symbols, start: 0, accept, next };
    Ok((minimize(&trim(&table)), raw))
}

/// The Thompson NFA of `hir` over bytes, without captures, within [`BUILD_SIZE_LIMIT`].
pub(crate) fn thompson_nfa(hir: &Hir) -> std::result::Result<thompson::NFA, String> {
    thompson::Compiler::new()
        .configure(
            thompson::Config::new()
                .utf8(false)
                .shrink(false)
                .which_captures(thompson::WhichCaptures::None)
                .nfa_size_limit(Some(BUILD_SIZE_LIMIT)),
        )
        .build_from_hir(hir)
        .map_err(|e| e.to_string())
}

fn too_large_or(msg: String) -> ClueErrorKind {
    if msg.contains("exceeded") || msg.contains("limit") {
        ClueErrorKind::TooLarge(format!("automaton too large: {msg} (limit {} MiB per builder)", BUILD_SIZE_LIMIT >> 20))
    } else {
        ClueErrorKind::Other(msg)
    }
}

/// Removes states that cannot reach acceptance; renumbers the rest.
pub fn trim(a: &Automaton) -> Automaton {
    let n = a.states();
    if n == 0 {
        return Automaton::empty(a.symbols);
    }
    // Predecessors of each state, back to back (counted, then filled).
    let mut pred_start = vec![0u32; n + 1];
    for &t in &a.next {
        if t != DEAD {
            pred_start[t as usize + 1] += 1;
        }
    }
    for q in 0..n {
        pred_start[q + 1] += pred_start[q];
    }
    let mut fill = pred_start.clone();
    let mut preds = vec![0u32; pred_start[n] as usize];
    // Row by row, so that an entry's state is the row's, not its index divided by the
    // symbol count.
    for (s, row) in a.next.chunks(a.symbols.max(1)).enumerate() {
        for &t in row {
            if t != DEAD {
                preds[fill[t as usize] as usize] = s as u32;
                fill[t as usize] += 1;
            }
        }
    }
    let mut live = a.accept.clone();
    let mut stack: Vec<u32> = (0..n as u32).filter(|&s| live[s as usize]).collect();
    while let Some(t) = stack.pop() {
        for &s in &preds[pred_start[t as usize] as usize..pred_start[t as usize + 1] as usize] {
            if !live[s as usize] {
                live[s as usize] = true;
                stack.push(s);
            }
        }
    }
    if !live[a.start as usize] {
        return Automaton::empty(a.symbols);
    }
    let mut map = vec![DEAD; n];
    let mut k = 0;
    for s in 0..n {
        if live[s] {
            map[s] = k;
            k += 1;
        }
    }
    let mut next = Vec::with_capacity(k as usize * a.symbols);
    let mut accept = Vec::with_capacity(k as usize);
    for s in (0..n).filter(|&s| live[s]) {
        accept.push(a.accept[s]);
        next.extend(a.next[s * a.symbols..(s + 1) * a.symbols].iter().map(|&t| if t == DEAD { DEAD } else { map[t as usize] }));
    }
    Automaton { symbols: a.symbols, start: map[a.start as usize], accept, next }
}

/// A hash map for the compile stage's small integer keys (states, signatures): FxHash
/// instead of SipHash, whose resistance to chosen keys is not needed here and which
/// cost about 4 % of the instructions over the antoine-trux corpus.
pub(crate) type FastMap<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<FxHasher>>;

/// The Fx hash (rustc's): multiply-rotate over machine words.
#[derive(Default, Clone, Copy)]
pub(crate) struct FxHasher(u64);

impl std::hash::Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.write_u64(u64::from_le_bytes(c.try_into().unwrap_or([0; 8])));
        }
        for &b in chunks.remainder() {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.write_u64(u64::from(i));
    }
    fn write_u32(&mut self, i: u32) {
        self.write_u64(u64::from(i));
    }
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// The minimal automaton: one state per class of states with the same future (Moore
/// partition refinement), the classes numbered breadth-first from the start (a
/// canonical table: equal languages give equal tables).
///
/// A missing ([`DEAD`]) transition counts as a successor of its own, so states that
/// cannot reach acceptance are not merged with it: the tables given here are trimmed
/// ([`trim`]) first.
pub fn minimize(a: &Automaton) -> Automaton {
    if a.states() == 0 {
        return a.clone();
    }
    renumber(a, &equivalent_states(a))
}

/// Each state's class under [`minimize`]'s refinement (Moore's: signatures of class
/// and successors' classes, looked up in one open-addressed table per round, until a
/// round splits no class). Most rows of a clue's automaton are sparse (after `(.)` of
/// `(.)\1\1.*`, one symbol of 33 goes on): a table with fewer than a third of its
/// transitions present is refined over the transitions that exist, a denser one over
/// whole rows. Both give the same classes.
fn equivalent_states(a: &Automaton) -> Vec<u32> {
    let present = a.next.iter().filter(|&&t| t != DEAD).count();
    if 3 * present < a.next.len() { sparse_classes(a, present) } else { dense_classes(a) }
}

/// [`equivalent_states`] for sparse tables: a state's signature is its class and, for
/// each transition that exists, its symbol and the class it leads to.
fn sparse_classes(a: &Automaton, present: usize) -> Vec<u32> {
    let (n, k) = (a.states(), a.symbols);
    // The transitions that exist, row by row: symbol and target.
    let mut row = Vec::with_capacity(n + 1);
    let mut sym: Vec<u32> = Vec::with_capacity(present);
    let mut dst: Vec<u32> = Vec::with_capacity(present);
    row.push(0usize);
    for r in a.next.chunks_exact(k.max(1)).take(n) {
        for (x, &t) in r.iter().enumerate() {
            if t != DEAD {
                sym.push(x as u32);
                dst.push(t);
            }
        }
        row.push(sym.len());
    }
    let mut class: Vec<u32> = a.accept.iter().map(|&x| u32::from(x)).collect();
    let mut classes = if class.iter().all(|&c| c == class[0]) { 1 } else { 2 };
    let mut new = vec![0u32; n];
    let mut numbering = Numbering::new(n);
    let mix = |h: u64, x: u32| (h.rotate_left(5) ^ u64::from(x)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    // The symbols of each row do not change: hashed once.
    let shape: Vec<u64> = (0..n).map(|s| sym[row[s]..row[s + 1]].iter().fold(0, |h, &x| mix(h, x))).collect();
    loop {
        numbering.clear();
        for s in 0..n {
            let span = row[s]..row[s + 1];
            let hash = dst[span.clone()].iter().fold(mix(shape[s], class[s]), |h, &t| mix(h, class[t as usize]));
            let same = |r: usize| {
                class[r] == class[s]
                    && row[r + 1] - row[r] == span.len()
                    && (row[r]..row[r + 1])
                        .zip(span.clone())
                        .all(|(i, j)| sym[i] == sym[j] && class[dst[i] as usize] == class[dst[j] as usize])
            };
            new[s] = numbering.class_of(hash, s, &new, same);
        }
        let stable = numbering.count as usize == classes;
        classes = numbering.count as usize;
        std::mem::swap(&mut class, &mut new);
        if stable {
            return class;
        }
    }
}

/// [`equivalent_states`] for dense tables: a state's signature is its class and its
/// successors' classes ([`DEAD`] for a missing one), laid out back to back so that one
/// buffer (and one table of signatures) serves every round.
fn dense_classes(a: &Automaton) -> Vec<u32> {
    let n = a.states();
    let mut class: Vec<u32> = a.accept.iter().map(|&x| u32::from(x)).collect();
    let mut classes = if class.iter().all(|&c| c == class[0]) { 1 } else { 2 };
    let width = a.symbols + 1;
    let mut sigs = vec![0u32; n * width];
    let mut new = vec![0u32; n];
    let mut numbering = Numbering::new(n);
    loop {
        for s in 0..n {
            let sig = &mut sigs[s * width..(s + 1) * width];
            sig[0] = class[s];
            for (x, &t) in sig[1..].iter_mut().zip(&a.next[s * a.symbols..(s + 1) * a.symbols]) {
                *x = if t == DEAD { DEAD } else { class[t as usize] };
            }
        }
        numbering.clear();
        for s in 0..n {
            let sig = &sigs[s * width..(s + 1) * width];
            let hash = sig.iter().fold(0u64, |h, &x| (h.rotate_left(5) ^ u64::from(x)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95));
            new[s] = numbering.class_of(hash, s, &new, |r| &sigs[r * width..(r + 1) * width] == sig);
        }
        let stable = numbering.count as usize == classes;
        classes = numbering.count as usize;
        std::mem::swap(&mut class, &mut new);
        if stable {
            return class;
        }
    }
}

/// An open-addressed table that numbers the states of one round of Moore's
/// refinement by signature: the first state with a signature opens the next class,
/// a later one with the same signature (`same`) joins it.
struct Numbering {
    table: Vec<u32>,
    mask: usize,
    /// Classes opened this round.
    count: u32,
}

impl Numbering {
    fn new(n: usize) -> Numbering {
        let mask = (2 * n).next_power_of_two() - 1;
        Numbering { table: vec![u32::MAX; mask + 1], mask, count: 0 }
    }

    fn clear(&mut self) {
        self.table.fill(u32::MAX);
        self.count = 0;
    }

    /// The class of state `s`, whose signature hashes to `hash`; `class[r]` is the
    /// class given to an earlier state `r` of this round.
    fn class_of(&mut self, hash: u64, s: usize, class: &[u32], same: impl Fn(usize) -> bool) -> u32 {
        let mut i = ((hash ^ (hash >> 29)) as usize) & self.mask;
        loop {
            let r = self.table[i];
            if r == u32::MAX {
                self.table[i] = s as u32;
                self.count += 1;
                return self.count - 1;
            }
            if same(r as usize) {
                return class[r as usize];
            }
            i = (i + 1) & self.mask;
        }
    }
}

/// One state per class, numbered breadth-first from the start's class (symbols in
/// order), each class's row read from any of its states.
fn renumber(a: &Automaton, class: &[u32]) -> Automaton {
    let classes = class.iter().max().map_or(0, |&c| c as usize + 1);
    let mut rep = vec![u32::MAX; classes];
    for (s, &c) in class.iter().enumerate() {
        if rep[c as usize] == u32::MAX {
            rep[c as usize] = s as u32;
        }
    }
    let mut id = vec![DEAD; classes];
    let mut order = vec![class[a.start as usize]];
    id[order[0] as usize] = 0;
    let (mut next, mut accept) = (Vec::with_capacity(classes * a.symbols), Vec::with_capacity(classes));
    let mut i = 0;
    while i < order.len() {
        let s = rep[order[i] as usize] as usize;
        accept.push(a.accept[s]);
        for &t in &a.next[s * a.symbols..(s + 1) * a.symbols] {
            if t == DEAD {
                next.push(DEAD);
            } else {
                let c = class[t as usize] as usize;
                if id[c] == DEAD {
                    id[c] = order.len() as u32;
                    order.push(c as u32);
                }
                next.push(id[c]);
            }
        }
        i += 1;
    }
    Automaton { symbols: a.symbols, start: 0, accept, next }
}

/// Translates the AST to a `Hir` over the alphabet's DFA bytes. With `tags`, groups
/// that are referenced, back-references, lookarounds and assertions become marker
/// bytes (see [`tagged`]); without, they are refused.
pub(crate) fn to_hir(
    node: &Node,
    alphabet: &Alphabet,
    len: usize,
    tags: &mut Option<&mut tagged::TagCtx>,
) -> std::result::Result<Hir, ClueErrorKind> {
    if let Some(ctx) = tags.as_deref_mut()
        && let Some(h) = ctx.marker_hir(node, alphabet, len)?
    {
        return Ok(h);
    }
    Ok(match node {
        Node::Empty => Hir::empty(),
        Node::Set(set) => {
            let byte = |i: usize| hir::ClassBytesRange::new(alphabet.byte(i), alphabet.byte(i));
            let ranges: Vec<hir::ClassBytesRange> = if !set.negated && set.items.iter().all(|it| matches!(it, ClassItem::Char(_))) {
                // The normaliser's sets list alphabet characters: look them up instead
                // of testing every alphabet character against every member.
                set.items.iter().filter_map(|it| if let ClassItem::Char(c) = it { alphabet.index(*c) } else { None }).map(byte).collect()
            } else {
                (0..alphabet.len()).filter(|&i| set.contains(alphabet.chars()[i])).map(byte).collect()
            };
            if ranges.is_empty() { Hir::fail() } else { Hir::class(hir::Class::Bytes(hir::ClassBytes::new(ranges))) }
        }
        Node::Concat(v) => Hir::concat(v.iter().map(|n| to_hir(n, alphabet, len, tags)).collect::<std::result::Result<_, _>>()?),
        Node::Alt(v) => Hir::alternation(v.iter().map(|n| to_hir(n, alphabet, len, tags)).collect::<std::result::Result<_, _>>()?),
        Node::Group { sub, .. } => to_hir(sub, alphabet, len, tags)?,
        Node::Repeat { sub, min, max } => {
            let n = u32::try_from(len).unwrap_or(u32::MAX);
            let mut min = *min;
            let mut max = *max;
            // A line of `len` cells holds at most `len` non-empty pieces: larger counts
            // change nothing (see docs/encoding.md), but would blow up the NFA. Markers
            // make iterations distinguishable, so tagged subtrees keep their counts.
            let plain = tags.is_none() || !tagged::has_markers(sub);
            if min > n && min_len(sub) >= 1 {
                return Ok(Hir::fail());
            }
            if plain {
                if min > n && always_nullable(sub) {
                    min = n;
                }
                max = max.map(|m| m.min(n.max(min)));
            }
            Hir::repetition(hir::Repetition { min, max, greedy: true, sub: Box::new(to_hir(sub, alphabet, len, tags)?) })
        }
        Node::Assert(a) => Hir::look(match a {
            Assertion::Start => Look::Start,
            Assertion::End => Look::End,
            Assertion::WordBoundary => Look::WordAscii,
            Assertion::NotWordBoundary => Look::WordAsciiNegate,
        }),
        Node::Backref(k) => {
            return Err(ClueErrorKind::Unsupported(format!("unsupported construct: back-reference \\{k} inside a lookaround")));
        }
        Node::Look { .. } => {
            return Err(ClueErrorKind::Unsupported("unsupported construct: lookaround nested inside a lookaround".into()));
        }
    })
}

/// Fewest characters any match of `node` consumes.
pub(crate) fn min_len(node: &Node) -> u64 {
    match node {
        Node::Empty | Node::Assert(_) | Node::Look { .. } | Node::Backref(_) => 0,
        Node::Set(_) => 1,
        Node::Concat(v) => v.iter().map(min_len).sum(),
        Node::Alt(v) => v.iter().map(min_len).min().unwrap_or(0),
        Node::Group { sub, .. } => min_len(sub),
        Node::Repeat { sub, min, .. } => u64::from(*min).saturating_mul(min_len(sub)),
    }
}

/// Whether `node` matches the empty string everywhere (no assertion involved).
pub(crate) fn always_nullable(node: &Node) -> bool {
    match node {
        Node::Empty => true,
        Node::Set(_) | Node::Assert(_) | Node::Look { .. } | Node::Backref(_) => false,
        Node::Concat(v) => v.iter().all(always_nullable),
        Node::Alt(v) => v.iter().any(always_nullable),
        Node::Group { sub, .. } => always_nullable(sub),
        Node::Repeat { sub, min, .. } => *min == 0 || always_nullable(sub),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The alphabet's table for ASCII characters finds what a search finds.
    #[test]
    fn alphabet_index_agrees_with_search() {
        let alphabet = Alphabet::new("\n !AZaz09-~\u{7f}éΩ中".chars()).expect("alphabet");
        for c in (0u32..0x300).chain([0x3a9, 0x4e2d, 0x10ffff]).filter_map(char::from_u32) {
            assert_eq!(alphabet.index(c), alphabet.chars().binary_search(&c).ok(), "{c:?}");
        }
    }

    /// Moore's refinement, the textbook way (classes of `(accept, successor classes)`
    /// until stable), as the reference for [`minimize`].
    fn moore_classes(a: &Automaton) -> Vec<u32> {
        let n = a.states();
        let mut class: Vec<u32> = a.accept.iter().map(|&x| u32::from(x)).collect();
        loop {
            let mut ids: HashMap<Vec<u32>, u32> = HashMap::new();
            let new: Vec<u32> = (0..n)
                .map(|s| {
                    let mut sig = vec![class[s]];
                    sig.extend(
                        a.next[s * a.symbols..(s + 1) * a.symbols].iter().map(|&t| if t == DEAD { DEAD } else { class[t as usize] }),
                    );
                    let len = ids.len() as u32;
                    *ids.entry(sig).or_insert(len)
                })
                .collect();
            let before = class.iter().collect::<BTreeSet<_>>().len();
            class = new;
            if ids.len() == before {
                return class;
            }
        }
    }

    /// Trimming the simple way: predecessor lists, a search back from the accepting
    /// states, the live states renumbered in order.
    fn trim_reference(a: &Automaton) -> Automaton {
        let n = a.states();
        let mut preds: Vec<Vec<usize>> = vec![vec![]; n];
        for s in 0..n {
            for x in 0..a.symbols {
                let t = a.step(s as u32, x);
                if t != DEAD {
                    preds[t as usize].push(s);
                }
            }
        }
        let mut live = a.accept.clone();
        let mut stack: Vec<usize> = (0..n).filter(|&s| live[s]).collect();
        while let Some(t) = stack.pop() {
            for &s in &preds[t] {
                if !std::mem::replace(&mut live[s], true) {
                    stack.push(s);
                }
            }
        }
        if n == 0 || !live[a.start as usize] {
            return Automaton::empty(a.symbols);
        }
        let map: Vec<u32> = (0..n)
            .scan(0u32, |k, s| {
                Some(if live[s] {
                    *k += 1;
                    *k - 1
                } else {
                    DEAD
                })
            })
            .collect();
        let keep: Vec<usize> = (0..n).filter(|&s| live[s]).collect();
        Automaton {
            symbols: a.symbols,
            start: map[a.start as usize],
            accept: keep.iter().map(|&s| a.accept[s]).collect(),
            next: keep
                .iter()
                .flat_map(|&s| (0..a.symbols).map(move |x| (s, x)))
                .map(|(s, x)| a.step(s as u32, x))
                .map(|t| if t == DEAD { DEAD } else { map[t as usize] })
                .collect(),
        }
    }

    /// On random partial automata (trimmed, as the builders hand them over), the
    /// refinement finds exactly Moore's classes, and the table is the canonical one.
    #[test]
    fn minimize_agrees_with_moore() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut rand = |m: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % m as u64) as usize
        };
        for round in 0..3000 {
            let n = 1 + rand(12);
            let k = 1 + rand(4);
            let dead_in = 1 + rand(4);
            let next: Vec<u32> = (0..n * k).map(|_| if rand(dead_in + 1) == 0 { DEAD } else { rand(n) as u32 }).collect();
            let accept: Vec<bool> = (0..n).map(|_| rand(3) == 0).collect();
            let raw = Automaton { symbols: k, start: rand(n) as u32, accept, next };
            let a = trim(&raw);
            assert_eq!(a, trim_reference(&raw), "round {round}: trim of {raw:?}");
            if a.states() == 0 {
                continue;
            }
            let got = minimize(&a);
            let want = renumber(&a, &moore_classes(&a));
            assert_eq!(got, want, "round {round}: {a:?}");
            // Equal classes, not just equal tables: the same partition of the states,
            // by whole rows and by the transitions that exist.
            let y = moore_classes(&a);
            let present = a.next.iter().filter(|&&t| t != DEAD).count();
            for x in [dense_classes(&a), sparse_classes(&a, present)] {
                for s in 0..a.states() {
                    for t in 0..a.states() {
                        assert_eq!(x[s] == x[t], y[s] == y[t], "round {round}: states {s}, {t} of {a:?}");
                    }
                }
            }
            assert_eq!(minimize(&got), got, "round {round}: minimal tables are fixed points");
        }
    }
}
