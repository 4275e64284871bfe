//! A clue's support over its line by the route its compilation took: the layers of its
//! automaton ([`super::layers`]) for a plain clue, the layers of its skeleton with marker
//! slots ([`super::skeleton_support`]) for a tagged one.

use super::layers::{Edges, Layers, live_layers, supported};
use super::{SymSet, skeleton_support};
use crate::compile::CompiledClue;

/// [`line_support`] for one clue, again and again, with its transition lists and
/// buffers kept between calls (the one-pass support over the layers).
#[derive(Clone, Debug, Default)]
pub(crate) struct LineSupport {
    edges: Option<Edges>,
    layers: Layers,
    buf: Vec<SymSet>,
    /// A tagged clue's layers over its line (cells and marker slots), which depend on
    /// the line's length only: their domains, the cells' filled in at each call, and
    /// the layer of each cell.
    doms: Vec<SymSet>,
    cells: Vec<usize>,
}

impl LineSupport {
    /// The letters of each cell of `line` that some run of `cc`'s automaton can use.
    pub(crate) fn support(&mut self, cc: &CompiledClue, sigma: usize, line: &[SymSet]) -> Vec<SymSet> {
        let edges = self.edges.get_or_insert_with(|| Edges::new(&cc.automaton));
        match &cc.tagged {
            None => {
                self.layers.support(&cc.automaton, edges, line, &mut self.buf);
                self.buf.clone()
            }
            Some(t) => {
                if self.doms.is_empty() || self.cells.len() != line.len() {
                    let (kinds, doms) = skeleton_support::layers(t, sigma, line, 0);
                    self.cells =
                        kinds.iter().enumerate().filter(|(_, k)| matches!(k, skeleton_support::Layer::Cell(_))).map(|(j, _)| j).collect();
                    self.doms = doms;
                }
                for (&j, d) in self.cells.iter().zip(line) {
                    self.doms[j] = *d;
                }
                self.layers.support(&cc.automaton, edges, &self.doms, &mut self.buf);
                self.cells.iter().map(|&j| self.buf[j]).collect()
            }
        }
    }
}

/// Letters of each cell of `line` that some run of the clue's automaton can use.
pub(crate) fn line_support(cc: &CompiledClue, sigma: usize, line: &[SymSet]) -> Vec<SymSet> {
    match &cc.tagged {
        None => supported(&cc.automaton, line, &live_layers(&cc.automaton, line)),
        Some(t) => skeleton_support::cell_support(&cc.automaton, t, sigma, line),
    }
}
