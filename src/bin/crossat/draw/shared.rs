//! What every shape draws alike: a cell's content as marked (given, hint, wrong), a
//! clue's regex as marked (forces the hint, fails), the legend that explains the
//! marks and special characters, the horizontal borders of a box grid, and the listing
//! of clues drawn nowhere else.

use super::palette::Palette;
use super::text::{Piece, push_centred, show};
use super::{Drawer, Mark, width};
use unicode_width::UnicodeWidthChar;

impl Drawer<'_> {
    /// Fills `legend`: the special characters, marks and marked clues the grid uses.
    pub(super) fn collect_legend(&mut self) {
        let unicode = self.opt.unicode;
        let mut specials: Vec<char> =
            self.view.cells.iter().flatten().copied().filter(|&c| c == ' ' || c.is_control() || c.width() == Some(0)).collect();
        specials.sort_unstable();
        specials.dedup();
        for c in specials {
            let shown = show(Some(c), self.g, unicode);
            self.legend.push(match c {
                ' ' if unicode => "␣ is a space".to_string(),
                ' ' => "a blank cell holds a space".to_string(),
                c if c.is_control() => format!("{shown} is the control character U+{:04X}", c as u32),
                c => format!("{shown} is U+{:04X}, a combining character", c as u32),
            });
        }
        if !unicode {
            let drawing: Vec<String> = "|+-#".chars().filter(|c| self.view.cells.contains(&Some(*c))).map(|c| format!("'{c}'")).collect();
            if !drawing.is_empty() {
                self.legend.push(format!(
                    "{} inside a cell {} the cell's letter",
                    drawing.join(" "),
                    if drawing.len() == 1 { "is" } else { "are" }
                ));
            }
        }
        if self.view.cells.iter().any(Option::is_none) {
            self.legend.push(if unicode { "a blank cell is empty".into() } else { "'.' is an empty cell".into() });
        }
        let used = |m: Mark| self.view.marks.contains(&m);
        if used(Mark::Hint) {
            let sample = if self.pal.on { self.pal.paint(Palette::HINT, " X ") } else { "[X]".into() };
            self.legend.push(format!("{sample} the hint"));
        }
        if used(Mark::Bad) {
            let sample = if self.pal.on { self.pal.paint(Palette::BAD, " X ") } else { "!X!".into() };
            self.legend.push(format!("{sample} a wrong cell"));
        }
        if !self.view.hint_clues.is_empty() && self.opt.clues {
            let sample = if self.pal.on { self.pal.paint(Palette::HINT_CLUE, "clue") } else { format!("{}clue", self.hint_marker()) };
            self.legend.push(format!("{sample} forces the hint"));
        }
        if !self.view.bad_clues.is_empty() && self.opt.clues {
            let sample = if self.pal.on { self.pal.paint(Palette::BAD_CLUE, "clue") } else { format!("{}clue", self.bad_marker()) };
            self.legend.push(format!("{sample} fails"));
        }
        // Python is the default dialect; another one is named beside the clues.
        if self.opt.clues && self.puzzle.dialect != crossat::puzzle::Dialect::Python {
            let title = match self.puzzle.dialect {
                crossat::puzzle::Dialect::Python => "Python",
                crossat::puzzle::Dialect::Ecmascript => "ECMAScript",
            };
            self.legend.push(format!("clues in the {title} dialect"));
        }
    }

    fn hint_marker(&self) -> &'static str {
        if self.opt.unicode { "▸ " } else { "> " }
    }

    fn bad_marker(&self) -> &'static str {
        if self.opt.unicode { "✗ " } else { "! " }
    }

    /// The content of cell `c`, `inner` columns wide, marked, added to `out`.
    pub(super) fn push_cell(&self, out: &mut String, c: usize, inner: usize) {
        let mark = self.view.marks.get(c).copied().unwrap_or_default();
        if mark == Mark::Plain && !self.pal.on {
            // The common case (every cell of a solution), without allocating.
            let shown = &self.shown[c];
            push_centred(out, shown, width(shown), inner);
        } else {
            out.push_str(&self.cell(c, inner));
        }
    }

    /// The content of cell `c`, `inner` columns wide, marked.
    pub(super) fn cell(&self, c: usize, inner: usize) -> String {
        let p = Piece::plain(&self.shown[c]);
        let mark = self.view.marks.get(c).copied().unwrap_or_default();
        if self.pal.on {
            let style = match mark {
                Mark::Plain => return p.centred(inner),
                Mark::Given => Palette::GIVEN,
                Mark::Hint => Palette::HINT,
                Mark::Bad => Palette::BAD,
            };
            return self.pal.paint(style, &p.centred(inner));
        }
        let (l, r) = match mark {
            Mark::Hint => ('[', ']'),
            Mark::Bad => ('!', '!'),
            _ => return p.centred(inner),
        };
        let body = p.centred(inner - 2);
        format!("{l}{body}{r}")
    }

    /// A clue's regex, marked.
    pub(super) fn clue(&self, i: usize) -> Piece {
        let re = &self.puzzle.clues[i].regex;
        let (style, marker) = if self.view.bad_clues.contains(&i) {
            (Some(Palette::BAD_CLUE), self.bad_marker())
        } else if self.view.hint_clues.contains(&i) {
            (Some(Palette::HINT_CLUE), self.hint_marker())
        } else {
            (None, "")
        };
        match style {
            Some(s) if self.pal.on => Piece { text: self.pal.paint(s, re), width: width(re) },
            Some(_) => Piece { text: format!("{marker}{re}"), width: width(marker) + width(re) },
            None => Piece::plain(re),
        }
    }

    /// The regexes of `list`, marked, side by side.
    pub(super) fn clues(&self, list: &[usize]) -> Piece {
        Piece::join(&list.iter().map(|&i| self.clue(i)).collect::<Vec<_>>(), "  ")
    }

    /// Border line `which` (0 top, 1 between rows, 2 bottom) of `cols` cells `inner` wide.
    pub(super) fn border(&self, which: usize, cols: usize, inner: usize) -> String {
        let [l, m, r] = self.g.corner[which];
        let mut s = String::with_capacity((cols * (inner + 1) + 1) * self.g.h.len_utf8());
        s.push(l);
        for j in 0..cols {
            s.extend(std::iter::repeat_n(self.g.h, inner));
            s.push(if j + 1 == cols { r } else { m });
        }
        s
    }

    /// `label  regex` lines for clues drawn nowhere else.
    pub(super) fn other_clues(&self, list: &[usize]) -> Vec<String> {
        let lw = list.iter().map(|&i| width(&self.puzzle.clues[i].label)).max().unwrap_or(0);
        list.iter().map(|&i| format!("{}  {}", Piece::plain(&self.puzzle.clues[i].label).left(lw), self.clue(i).text)).collect()
    }
}
