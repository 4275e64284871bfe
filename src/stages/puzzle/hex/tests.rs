//! The hexagon's geometry against an independent construction.

use super::{Read, Sides, lines};
use std::collections::BTreeMap;

/// The hexagon built independently in axial coordinates `(q, r)`: `r` the row, `q` the
/// NW–SE diagonal, `q + r` the NE–SW diagonal; `0 ≤ r < nw+ne−1`, `0 ≤ q < top+nw−1`,
/// `nw−1 ≤ q + r < nw−1 + top+ne−1`. Cells listed row by row, left to right (by `q`).
fn axial(h: Sides) -> Vec<(i64, i64)> {
    let (top, nw, ne) = (h.top as i64, h.nw as i64, h.ne as i64);
    let mut cells = vec![];
    for r in 0..nw + ne - 1 {
        for q in 0..top + nw - 1 {
            if (nw - 1..nw - 1 + top + ne - 1).contains(&(q + r)) {
                cells.push((q, r));
            }
        }
    }
    cells
}

#[test]
fn the_geometry_matches_an_axial_construction() {
    for (top, nw, ne) in
        [(1, 1, 1), (2, 2, 2), (4, 4, 4), (1, 2, 2), (4, 5, 5), (5, 4, 5), (5, 5, 4), (2, 2, 3), (3, 1, 4), (1, 1, 6), (6, 3, 2)]
    {
        let h = Sides { top, nw, ne };
        let cells = axial(h);
        let what = format!("sides {top}, {nw}, {ne}");
        assert_eq!(super::cells(h), cells.len(), "{what}: cell count");
        assert_eq!(super::cells(h), top * nw + nw * ne + ne * top + 1 - top - nw - ne, "{what}: closed form");
        assert_eq!((h.rows(), h.nw_se_lines(), h.ne_sw_lines()), (nw + ne - 1, top + nw - 1, top + ne - 1), "{what}");
        // Every line of each family: the axial cells with that coordinate, top to bottom.
        let family = |key: &dyn Fn(&(i64, i64)) -> i64, base: i64| -> Vec<Vec<usize>> {
            let mut by: BTreeMap<i64, Vec<usize>> = BTreeMap::new();
            for (id, c) in cells.iter().enumerate() {
                by.entry(key(c) - base).or_default().push(id);
            }
            assert_eq!(by.keys().copied().collect::<Vec<_>>(), (0..by.len() as i64).collect::<Vec<_>>(), "{what}: no empty line");
            by.into_values().collect()
        };
        let expected: Vec<Vec<usize>> = [family(&|c| c.1, 0), family(&|c| c.0, 0), family(&|c| c.0 + c.1, nw as i64 - 1)].concat();
        let lines: Vec<Vec<usize>> = lines(h, Read::Down, Read::Down).into_iter().map(|(_, c)| c).collect();
        assert_eq!(lines, expected, "{what}: rows, NW-SE and NE-SW diagonals");
        assert_eq!(Sides::from_lines("<test>", h.rows(), h.nw_se_lines(), h.ne_sw_lines()).expect("fits"), h, "{what}: from line counts");
        assert_eq!(h.regular_side().is_some(), top == nw && nw == ne, "{what}");
    }
}
