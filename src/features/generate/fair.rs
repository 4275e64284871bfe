//! The two rules every generated clue obeys, checked on its automaton over the
//! puzzle's alphabet ([`clue_is_fair`]): it says something (its language is not every
//! string of the line's length) and it does not give its line away (it is not the
//! answer spelled out, and by itself it fixes at most three quarters of a line of 4 or
//! more cells).

use crate::compile::{self, CompiledClue, DEAD};
use crate::propagate::{self, SymSet};

/// Whether `cc`, a clue over `sigma` letters for a line of `len` cells, obeys the rules:
/// not every string of the length, not the answer spelled out, and (for `len` ≥ 4)
/// fixing by itself at most three quarters of the cells.
pub(crate) fn clue_is_fair(cc: &CompiledClue, sigma: usize, len: usize) -> bool {
    let support = propagate::line_support(cc, sigma, &vec![SymSet::full(sigma); len]);
    let fixed = support.iter().filter(|s| s.len() == 1).count();
    if fixed == len || (len >= 4 && 4 * fixed > 3 * len) {
        return false;
    }
    cc.tagged.is_some() || !universal(&cc.automaton, len)
}

/// Whether the automaton accepts every word of length `n` over its symbols.
fn universal(a: &compile::Automaton, n: usize) -> bool {
    if a.start == DEAD {
        return false;
    }
    let states = a.states();
    // live[k][s]: from s, some word of n − k letters is accepted.
    let mut live = vec![vec![false; states]; n + 1];
    live[n].clone_from(&a.accept);
    for k in (0..n).rev() {
        for s in 0..states {
            live[k][s] = (0..a.symbols).any(|x| {
                let t = a.step(s as u32, x);
                t != DEAD && live[k + 1][t as usize]
            });
        }
    }
    let mut layer = vec![a.start];
    for k in 0..n {
        let mut next = Vec::new();
        for &s in &layer {
            for x in 0..a.symbols {
                let t = a.step(s, x);
                if t == DEAD || !live[k + 1][t as usize] {
                    return false;
                }
                next.push(t);
            }
        }
        next.sort_unstable();
        next.dedup();
        layer = next;
    }
    layer.iter().all(|&s| a.accept[s as usize])
}
