//! Support of a tagged clue (back-references, lookarounds, assertions): the line is
//! unrolled as the layers of its skeleton automaton, each cell preceded by marker
//! slots ([`layers`]), and a letter of a cell is supported when some run of the
//! skeleton uses it ([`cell_support`], and `tagged_support` with the engine's
//! buffers). The registers and lookaround runs are left to the encoder's clauses, so
//! this is a sound relaxation.

use super::SymSet;
use super::layers::{Edges, Layers, live_layers, supported};
use crate::compile::Automaton;
use crate::compile::tagged::{Marker, Tagged};

/// One layer of a tagged line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layer {
    /// Cell `p` of the line.
    Cell(usize),
    /// A marker slot at position (boundary) `p`.
    Slot(usize),
}

/// The layers of the line from position `from` to its end `n` (positions are those of
/// the whole line), and their domains before propagation; `cells` are the domains of
/// cells `from..n`.
pub fn layers(t: &Tagged, alphabet_len: usize, cells: &[SymSet], from: usize) -> (Vec<Layer>, Vec<SymSet>) {
    let n = from + cells.len();
    let (mut kinds, mut doms) = (Vec::new(), Vec::new());
    for p in from..=n {
        let mut slot = SymSet::default();
        slot.insert(t.idle_symbol(alphabet_len));
        for (i, m) in t.markers.iter().enumerate() {
            let allowed = match m {
                Marker::Start => p == 0,
                Marker::End => p == n,
                Marker::Look(j) => {
                    let l = &t.looks[*j];
                    l.ahead || l.negate || l.width <= p
                }
                _ => true,
            };
            if allowed {
                slot.insert(t.marker_symbol(alphabet_len, i));
            }
        }
        for _ in 0..t.slots {
            kinds.push(Layer::Slot(p));
            doms.push(slot);
        }
        if p < n {
            kinds.push(Layer::Cell(p));
            doms.push(cells[p - from]);
        }
    }
    (kinds, doms)
}

/// Letters of each cell that some run of the skeleton can use (ignoring the
/// registers and lookarounds: a sound relaxation for domain propagation).
pub fn cell_support(a: &Automaton, t: &Tagged, alphabet_len: usize, cells: &[SymSet]) -> Vec<SymSet> {
    let (kinds, doms) = layers(t, alphabet_len, cells, 0);
    let live = live_layers(a, &doms);
    let sup = supported(a, &doms, &live);
    kinds.iter().zip(sup).filter(|(k, _)| matches!(k, Layer::Cell(_))).map(|(_, s)| s).collect()
}

/// [`cell_support`] by the one-pass [`Layers::support`] over the skeleton's
/// layers (the line's cells and marker slots), with buffers kept between calls.
pub(super) fn tagged_support(
    a: &Automaton,
    t: &Tagged,
    edges: &Edges,
    layers: &mut Layers,
    sigma: usize,
    line: &[SymSet],
    buf: &mut Vec<SymSet>,
) -> Vec<SymSet> {
    let (kinds, doms) = self::layers(t, sigma, line, 0);
    layers.support(a, edges, &doms, buf);
    kinds.iter().zip(buf.iter()).filter(|(k, _)| matches!(k, Layer::Cell(_))).map(|(_, s)| *s).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::propagate::layers::{Edges, Layers};

    /// Propagation supports a tagged line through the skeleton's layers (cells and
    /// marker slots) with [`Layers::support`]; that must be [`cell_support`]'s
    /// answer (the two-pass definition) on every line: back-references, lookarounds and
    /// anchors, random domains over the clue's alphabet.
    #[test]
    fn tagged_lines_propagate_as_their_skeleton_supports_them() {
        let json = r#"{"left": ["(.)(.)\\2\\1(.)\\3", "(?=.*B)(.)[^A]*\\1", "(A|BC)+\\1?$"], "top": ["(.)\\1|CA[AB]", "(..)\\1", ".*(?!A).", "A|.*(.)\\1", ".(?<=B).*", "[ABC]*"], "alphabet": "ABC"}"#;
        let puzzle = crate::puzzle::read("p.json", json.as_bytes(), None, None, None).expect("a puzzle");
        let parsed = crate::compile::parse_clues("p.json", &puzzle).expect("clues");
        let alphabet = crate::compile::choose_alphabet("p.json", &puzzle, &parsed, None).expect("an alphabet");
        // No bounded route, so that short lines are tagged too.
        let opts = crate::compile::Options { prefer_bounded: 0, ..Default::default() };
        let compiled = crate::compile::compile_with("p.json", &puzzle, &parsed, alphabet, opts).expect("automata");
        let sigma = compiled.alphabet.len();
        let tagged = compiled.clues.iter().filter(|c| c.tagged.is_some()).count();
        assert!(tagged >= 4, "only {tagged} tagged clues");
        let mut rng = crate::rng::Rng::new(7);
        let (mut layers, mut out) = (Layers::default(), Vec::new());
        let mut checked = 0;
        for (i, cc) in compiled.clues.iter().enumerate() {
            let Some(t) = &cc.tagged else { continue };
            let edges = Edges::new(&cc.automaton);
            for _ in 0..300 {
                let line: Vec<SymSet> = puzzle.clues[i]
                    .cells
                    .iter()
                    .map(|_| {
                        let mut d = SymSet::default();
                        (0..sigma).filter(|_| rng.below(3) > 0).for_each(|x| d.insert(x));
                        d
                    })
                    .collect();
                let got = tagged_support(&cc.automaton, t, &edges, &mut layers, sigma, &line, &mut out);
                assert_eq!(got, cell_support(&cc.automaton, t, sigma, &line), "clue {i} on {line:?}");
                checked += 1;
            }
        }
        assert!(checked >= 1200, "only {checked} tagged lines checked");
    }
}
