//! Word lists as constraints: token automata (DAWGs) and the building-blocks puzzle.
//! The lists themselves are read by the parse stage (`crate::puzzle::dictionary`).
//!
//! A line constrained to be a dictionary word is compiled, for its length and the
//! tokens its cells may hold, into an acyclic automaton — a trie over tokens, then
//! minimised (a DAWG) — and encoded exactly like a regex clue, in the same CNF.

use crate::compile::{Automaton, DEAD};
use crate::encode::{self, ClauseSink, Cnf};
use crate::error::{Error, Result};
use crate::propagate::{self, SymSet};
use crate::records;
use crate::solve;
// Word lists are read by the parse stage; the blocks API takes them.
pub(crate) use crate::puzzle::Dictionary;
use std::collections::{BTreeMap, HashMap};

/// Most tokens a word-list puzzle may use (one symbol set of the encoder).
pub(crate) const MAX_TOKENS: usize = 160;

/// Minimal acyclic automaton accepting exactly `words` (each a sequence of token
/// indices below `symbols`): a trie, then states merged bottom-up by signature.
pub(crate) fn dawg(words: &[Vec<usize>], symbols: usize) -> Automaton {
    // Trie: per node, sorted edges and a final flag.
    let mut edges: Vec<BTreeMap<usize, usize>> = vec![BTreeMap::new()];
    let mut fin = vec![false];
    for w in words {
        let mut s = 0;
        for &t in w {
            s = match edges[s].get(&t) {
                Some(&n) => n,
                None => {
                    edges.push(BTreeMap::new());
                    fin.push(false);
                    let n = edges.len() - 1;
                    let _ = edges[s].insert(t, n);
                    n
                }
            };
        }
        fin[s] = true;
    }
    // Minimise: process nodes children-first; equal (final, edges→class) share a class.
    let mut class = vec![u32::MAX; edges.len()];
    let mut sigs: HashMap<(bool, Vec<(usize, u32)>), u32> = HashMap::new();
    let mut order = Vec::with_capacity(edges.len());
    let mut stack = vec![(0usize, false)];
    while let Some((n, done)) = stack.pop() {
        if done {
            order.push(n);
        } else {
            stack.push((n, true));
            stack.extend(edges[n].values().map(|&c| (c, false)));
        }
    }
    for n in order {
        let sig: Vec<(usize, u32)> = edges[n].iter().map(|(&t, &c)| (t, class[c])).collect();
        let k = sigs.len() as u32;
        class[n] = *sigs.entry((fin[n], sig)).or_insert(k);
    }
    let states = sigs.len();
    let mut next = vec![DEAD; states * symbols];
    let mut accept = vec![false; states];
    for ((f, sig), &k) in &sigs {
        accept[k as usize] = *f;
        for &(t, c) in sig {
            next[k as usize * symbols + t] = c;
        }
    }
    let a = Automaton { symbols, start: class[0], accept, next };
    crate::compile::minimize(&crate::compile::trim(&a))
}

/// A building-blocks puzzle: word patterns with some letters given, and blocks.
#[derive(Clone, Debug)]
pub struct Blocks {
    /// Patterns such as `pol......`.
    pub patterns: Vec<String>,
    /// The blocks, each used at most once.
    pub blocks: Vec<String>,
}

/// A solution: each pattern's tokens, and the unused blocks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BlocksSolution {
    /// Per pattern, its tokens in order.
    pub(crate) words: Vec<Vec<String>>,
    /// Blocks not used, in input order.
    pub(crate) unused: Vec<String>,
}

impl Blocks {
    /// Reads `{"patterns": [...], "blocks": [...]}` or the text form with lines
    /// `patterns: pol...... imb......` and `blocks: ble cal ...`.
    pub fn read(source: &str, text: &str) -> Result<Blocks> {
        read_blocks(source, text)
    }

    /// Solves the puzzle over `dict`: up to `limit` solutions (all with `None`), each
    /// checked independently against the dictionary and the block rules before it is
    /// passed to `on` as `blocks --json` prints it; then the summary record. Each word
    /// of a solution is a whole number of blocks (the blocks' common length).
    pub fn solve(
        &self,
        dict: &Dictionary,
        limit: Option<usize>,
        mut on: impl FnMut(&records::BlocksSolution) -> Result<()>,
    ) -> Result<records::BlocksSummary> {
        let model = encode_blocks(self, dict)?;
        let outcome = solve_blocks(&model, self, dict, limit, |sol| {
            on(&records::BlocksSolution { words: sol.words.iter().map(|w| w.concat()).collect(), unused: sol.unused.clone() })
        })?;
        Ok(records::BlocksSummary {
            solutions: outcome.found,
            complete: outcome.complete,
            unique: records::Uniqueness::of(outcome.found, outcome.complete),
            dictionary: dict.source.clone(),
            dictionary_words: dict.words.len(),
        })
    }
}

/// Reads a building-blocks puzzle ([`Blocks::read`]).
fn read_blocks(source: &str, text: &str) -> Result<Blocks> {
    let (patterns, blocks) = if text.trim_start().starts_with('{') {
        let v: serde_json::Value = crate::puzzle::json::parse(text).map_err(|e| Error::input(source, format!("invalid JSON: {e}")))?;
        let list = |k: &str| -> Result<Vec<String>> {
            v.get(k)
                .and_then(serde_json::Value::as_array)
                .ok_or_else(|| Error::input(source, format!("\"{k}\" must be an array of strings")))?
                .iter()
                .map(|x| x.as_str().map(str::to_string).ok_or_else(|| Error::input(source, format!("\"{k}\" must hold strings"))))
                .collect()
        };
        (list("patterns")?, list("blocks")?)
    } else {
        let field = |k: &str| -> Result<Vec<String>> {
            text.lines()
                .find_map(|l| l.trim().strip_prefix(k).and_then(|r| r.trim_start().strip_prefix(':')))
                .map(|r| r.split_whitespace().map(str::to_string).collect())
                .ok_or_else(|| Error::input(source, format!("missing a `{k}: …` line")))
        };
        (field("patterns")?, field("blocks")?)
    };
    if patterns.is_empty() || blocks.is_empty() {
        return Err(Error::input(source, "need at least one pattern and one block"));
    }
    let len = blocks[0].chars().count();
    if let Some(b) = blocks.iter().find(|b| b.chars().count() != len || b.contains('.')) {
        return Err(Error::input(
            source,
            format!("block '{b}' differs in length from '{}' (all blocks must have the same length, and no '.')", blocks[0]),
        ));
    }
    for p in &patterns {
        let chars: Vec<char> = p.chars().collect();
        if chars.is_empty() || !chars.len().is_multiple_of(len) {
            return Err(Error::input(source, format!("pattern '{p}' is not a whole number of {len}-letter blocks")));
        }
        for chunk in chars.chunks(len) {
            let dots = chunk.iter().filter(|&&c| c == '.').count();
            if dots != 0 && dots != len {
                return Err(Error::input(source, format!("pattern '{p}': the given letters do not line up with {len}-letter blocks")));
            }
        }
    }
    Ok(Blocks { patterns, blocks })
}

/// Everything the building-blocks search needs.
struct BlocksModel {
    tokens: Vec<String>,
    /// Per pattern, its cells.
    lines: Vec<Vec<usize>>,
    cells: Vec<Vec<(usize, i32)>>,
    /// The formula.
    pub(crate) cnf: Cnf,
    free: Vec<usize>,
}

/// Compiles and encodes a building-blocks puzzle against a dictionary.
fn encode_blocks(puzzle: &Blocks, dict: &Dictionary) -> Result<BlocksModel> {
    let len = puzzle.blocks[0].chars().count();
    // Tokens: the blocks (deduplicated, in order), then the given chunks.
    let mut tokens: Vec<String> = Vec::new();
    for b in &puzzle.blocks {
        if !tokens.contains(b) {
            tokens.push(b.clone());
        }
    }
    let block_count = tokens.len();
    let chunks = |p: &String| -> Vec<String> { p.chars().collect::<Vec<_>>().chunks(len).map(|c| c.iter().collect()).collect() };
    for p in &puzzle.patterns {
        for c in chunks(p) {
            if !c.starts_with('.') && !tokens.contains(&c) {
                tokens.push(c);
            }
        }
    }
    if tokens.len() > MAX_TOKENS {
        return Err(Error::Usage(format!("{} distinct blocks and given chunks, more than the limit of {MAX_TOKENS}", tokens.len())));
    }
    let index: HashMap<&str, usize> = tokens.iter().enumerate().map(|(i, t)| (t.as_str(), i)).collect();
    let mut cnf = Cnf::new();
    let mut cells: Vec<Vec<(usize, i32)>> = Vec::new();
    let mut free = Vec::new();
    let mut lines = Vec::new();
    for p in &puzzle.patterns {
        let mut line = Vec::new();
        for c in chunks(p) {
            let dom: Vec<usize> = if c.starts_with('.') { (0..block_count).collect() } else { vec![index[c.as_str()]] };
            cells.push(dom.iter().map(|&t| (t, cnf.new_var())).collect());
            line.push(cells.len() - 1);
            if c.starts_with('.') {
                free.push(cells.len() - 1);
            }
        }
        lines.push(line);
    }
    for vars in &cells {
        encode::exactly_one(&mut cnf, &vars.iter().map(|&(_, v)| v).collect::<Vec<_>>(), None);
    }
    // Each block at most as often as it is listed: at most one of its variables over
    // the open slots (a block listed twice may fill two).
    for (b, token) in tokens.iter().enumerate().take(block_count) {
        let vars: Vec<i32> = free.iter().flat_map(|&c| cells[c].iter().filter(|&&(t, _)| t == b).map(|&(_, v)| v)).collect();
        let listed = puzzle.blocks.iter().filter(|x| *x == token).count();
        if listed == 1 {
            encode::at_most_one(&mut cnf, &vars);
        } else {
            at_most_k(&mut cnf, &vars, listed);
        }
    }
    // One DAWG per word length, over the tokens.
    let mut automata: HashMap<usize, Automaton> = HashMap::new();
    for line in &lines {
        let n = line.len();
        let a = automata.entry(n).or_insert_with(|| {
            let words: Vec<Vec<usize>> = dict
                .words
                .iter()
                .filter(|w| w.len() == n * len)
                .filter_map(|w| {
                    w.as_bytes()
                        .chunks(len)
                        .map(|c| std::str::from_utf8(c).ok().and_then(|s| index.get(s).copied()))
                        .collect::<Option<Vec<usize>>>()
                })
                .collect();
            dawg(&words, tokens.len())
        });
        let doms: Vec<SymSet> = line
            .iter()
            .map(|&c| {
                let mut s = SymSet::default();
                for &(t, _) in &cells[c] {
                    s.insert(t);
                }
                s
            })
            .collect();
        let live = propagate::live_layers(a, &doms);
        let lits: Vec<&[(usize, i32)]> = line.iter().map(|&c| cells[c].as_slice()).collect();
        encode::encode_line(&mut cnf, a, &live, &lits, None);
    }
    Ok(BlocksModel { tokens, lines, cells, cnf, free })
}

/// At most `k` of `vars` (sequential counter, Sinz 2005).
fn at_most_k<S: ClauseSink>(sink: &mut S, vars: &[i32], k: usize) {
    let n = vars.len();
    if k >= n {
        return;
    }
    // r[i][j]: at least j+1 of vars[0..=i] are true.
    let r: Vec<Vec<i32>> = (0..n).map(|_| (0..k).map(|_| sink.new_var()).collect()).collect();
    for i in 0..n {
        sink.add_clause(&[-vars[i], r[i][0]]);
        if i > 0 {
            for (prev, cur) in r[i - 1].iter().zip(&r[i]) {
                sink.add_clause(&[-prev, *cur]);
            }
            for j in 1..k {
                sink.add_clause(&[-vars[i], -r[i - 1][j - 1], r[i][j]]);
            }
            sink.add_clause(&[-vars[i], -r[i - 1][k - 1]]);
        }
    }
}

/// Enumerates solutions (up to `limit`), each checked independently against the
/// dictionary and the block rules before it is passed on.
fn solve_blocks(
    model: &BlocksModel,
    puzzle: &Blocks,
    dict: &Dictionary,
    limit: Option<usize>,
    mut on: impl FnMut(&BlocksSolution) -> Result<()>,
) -> Result<solve::Outcome> {
    let vars = encode::CellVars { cells: model.cells.clone(), clue_sizes: vec![], assign: vec![] };
    solve::enumerate(&model.cnf, &vars, limit, |found| {
        let words: Vec<Vec<String>> =
            model.lines.iter().map(|line| line.iter().map(|&c| model.tokens[found.cells[c]].clone()).collect()).collect();
        let mut unused: Vec<String> = puzzle.blocks.clone();
        for &c in &model.free {
            if let Some(i) = unused.iter().position(|b| *b == model.tokens[found.cells[c]]) {
                let _ = unused.remove(i);
            }
        }
        let sol = BlocksSolution { words, unused };
        verify_blocks(puzzle, dict, &sol)?;
        on(&sol).map(|()| solve::Verdict::Accept)
    })
}

/// Independent check: every word is in the dictionary and fits its pattern; every
/// filled slot holds a block; no block is used twice.
pub(crate) fn verify_blocks(puzzle: &Blocks, dict: &Dictionary, sol: &BlocksSolution) -> Result<()> {
    let mut left: Vec<&String> = puzzle.blocks.iter().collect();
    for (p, tokens) in puzzle.patterns.iter().zip(&sol.words) {
        let word: String = tokens.concat();
        let fits = word.chars().count() == p.chars().count() && p.chars().zip(word.chars()).all(|(a, b)| a == '.' || a == b);
        if !dict.words.contains(&word) || !fits {
            return Err(Error::Internal(format!("solution failed verification: '{word}' for pattern '{p}'")));
        }
        let len = puzzle.blocks[0].chars().count();
        for (k, t) in tokens.iter().enumerate() {
            let given: String = p.chars().skip(k * len).take(len).collect();
            if given.starts_with('.') {
                match left.iter().position(|b| *b == t) {
                    Some(i) => {
                        let _ = left.remove(i);
                    }
                    None => return Err(Error::Internal(format!("solution failed verification: block '{t}' used more often than given"))),
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::dawg;
    use std::collections::BTreeSet;

    /// The DAWG accepts exactly its words: every token sequence up to the longest length is
    /// checked against the set, for random word sets over small token alphabets.
    #[test]
    fn the_token_automaton_accepts_exactly_its_words() {
        let mut state = 12345u64;
        let mut rand = |n: usize| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) as usize % n
        };
        for _ in 0..200 {
            let symbols = 2 + rand(3);
            let words: BTreeSet<Vec<usize>> = (0..rand(12)).map(|_| (0..rand(5)).map(|_| rand(symbols)).collect()).collect();
            let list: Vec<Vec<usize>> = words.iter().cloned().collect();
            let a = dawg(&list, symbols);
            let mut all = vec![vec![]];
            for len in 0..=5 {
                for w in &all {
                    assert_eq!(a.accepts(w), words.contains(w), "{words:?}: {w:?}");
                }
                if len < 5 {
                    all = all.iter().flat_map(|w| (0..symbols).map(move |t| [w.clone(), vec![t]].concat())).collect();
                }
            }
            // Minimal: no two states accept the same language (checked through the table).
            assert_eq!(crate::compile::minimize(&a).states(), a.states());
        }
    }
}
