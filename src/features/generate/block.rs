//! Medium blocks: four cells and four lines whose clues make probing (and only
//! probing) decide them ([`block_placements`], [`with_block`]); the generator places
//! one to turn an easy puzzle into a medium one.

use super::clues::{Atom, Gen, Styles, clue_for, esc};
use crate::rng::Rng;
use std::collections::HashMap;

/// Four cells `A B / C D` and four lines: `ab` holds A then B next to each other (in
/// either order), `cd` holds C and D, `ac` A and C, `bd` B and D.
#[derive(Clone, Debug)]
pub(super) struct Block {
    pub(super) cells: [usize; 4],
    /// (line, position of its first block cell) for ab, cd, ac, bd.
    pub(super) lines: [(usize, usize); 4],
}

/// Every place for a medium block. Its clues say, on `ab`, `ac` and `bd`, "both cells
/// hold their answer letter, or both hold their decoy", and on `cd` "not both hold
/// their decoy": line by line every cell keeps two letters, but trying a decoy in any
/// of them forces the decoys around the block and breaks `cd`, so probing (and only
/// probing) solves it.
pub(super) fn block_placements(lines: &[(String, Vec<usize>)]) -> Vec<Block> {
    // Where two cells are next to each other on a line: (line, position of the first).
    let mut pair: HashMap<(usize, usize), (usize, usize)> = HashMap::new();
    for (l, (_, cells)) in lines.iter().enumerate() {
        for p in 0..cells.len().saturating_sub(1) {
            let _ = pair.insert((cells[p], cells[p + 1]), (l, p));
            let _ = pair.insert((cells[p + 1], cells[p]), (l, p));
        }
    }
    let mut out = Vec::new();
    for (l, (_, cells)) in lines.iter().enumerate() {
        for p in 0..cells.len().saturating_sub(1) {
            let (a, b) = (cells[p], cells[p + 1]);
            for (l3, (_, c3)) in lines.iter().enumerate() {
                if l3 == l || !c3.contains(&a) {
                    continue;
                }
                let q = c3.iter().position(|&x| x == a).unwrap_or(0);
                for c in [q.checked_sub(1), Some(q + 1)].into_iter().flatten().filter_map(|i| c3.get(i).copied()) {
                    for (l4, (_, c4)) in lines.iter().enumerate() {
                        if l4 == l || l4 == l3 || !c4.contains(&b) {
                            continue;
                        }
                        let r = c4.iter().position(|&x| x == b).unwrap_or(0);
                        for d in [r.checked_sub(1), Some(r + 1)].into_iter().flatten().filter_map(|i| c4.get(i).copied()) {
                            if [a, b, c].contains(&d) || c == b {
                                continue;
                            }
                            let Some(&(l2, p2)) = pair.get(&(c, d)) else { continue };
                            if [l, l3, l4].contains(&l2) {
                                continue;
                            }
                            let at = |line: usize, x: usize, y: usize| -> (usize, usize) {
                                let cs = &lines[line].1;
                                let i = cs.iter().position(|&z| z == x).unwrap_or(0);
                                let j = cs.iter().position(|&z| z == y).unwrap_or(0);
                                (line, i.min(j))
                            };
                            out.push(Block { cells: [a, b, c, d], lines: [(l, p), (l2, p2), at(l3, a, c), at(l4, b, d)] });
                        }
                    }
                }
            }
        }
    }
    out
}

/// The clues with a medium block at `place` (see [`block_placements`]); every other
/// clue through its cells allows both letters there.
pub(super) fn with_block(
    rng: &mut Rng,
    gens: &[Vec<Gen>],
    lines: &[(String, Vec<usize>)],
    solution: &[char],
    alphabet: &[char],
    place: &Block,
) -> Option<Vec<Vec<Gen>>> {
    let mut decoy: HashMap<usize, char> = HashMap::new();
    for &c in &place.cells {
        let others: Vec<char> = alphabet.iter().copied().filter(|&o| o != solution[c]).collect();
        let _ = decoy.insert(c, *rng.pick(&others));
    }
    let word = |l: usize| -> Vec<char> { lines[l].1.iter().map(|&c| solution[c]).collect() };
    let mut out = gens.to_vec();
    for (k, &(l, p)) in place.lines.iter().enumerate() {
        let cells = [lines[l].1[p], lines[l].1[p + 1]];
        let ans = |c: usize| esc(solution[c]);
        let dec = |c: usize| esc(decoy[&c]);
        let [x, y] = cells;
        let options = if k == 1 {
            vec![format!("{}{}", ans(x), ans(y)), format!("{}{}", dec(x), ans(y)), format!("{}{}", ans(x), dec(y))]
        } else {
            vec![format!("{}{}", ans(x), ans(y)), format!("{}{}", dec(x), dec(y))]
        };
        let atom = Atom { start: p, len: 2, text: format!("(?:{})", options.join("|")), letters: Some(vec![]), fixed: true };
        out[l][0] = match out[l][0].with_span(&word(l), p, 2, atom.clone()) {
            Some(g) => g,
            // The block would cut a back-reference: a fresh clue without any.
            None => {
                clue_for(rng, &word(l), alphabet, 0.9, Styles { backrefs: false, lookarounds: false }).with_span(&word(l), p, 2, atom)?
            }
        };
    }
    // Every other clue through a block cell allows its two letters there.
    for (l, (_, cells)) in lines.iter().enumerate() {
        for (side, g) in out[l].iter_mut().enumerate() {
            if side == 0 && place.lines.iter().any(|&(m, _)| m == l) {
                continue;
            }
            for (q, c) in cells.iter().enumerate() {
                if let Some(&d) = decoy.get(c) {
                    let mut set = vec![solution[*c], d];
                    set.sort_unstable();
                    let text = format!("[{}]", set.iter().map(|&o| esc(o)).collect::<String>());
                    let atom = Atom { start: q, len: 1, text, letters: Some(set), fixed: false };
                    *g = match g.with_span(&word(l), q, 1, atom.clone()) {
                        Some(g) => g,
                        None => clue_for(rng, &word(l), alphabet, 0.9, Styles { backrefs: false, lookarounds: false }).with_span(
                            &word(l),
                            q,
                            1,
                            atom,
                        )?,
                    };
                }
            }
        }
    }
    Some(out)
}
