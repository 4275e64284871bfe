//! The text the drawings are made of: the two glyph sets (Unicode and ASCII box
//! drawing), how a cell's character is shown (spaces, control and combining
//! characters), pieces of text that know their display width, and the padding and
//! line endings every shape uses.

use super::width;
use unicode_width::UnicodeWidthChar;

/// The characters a grid is drawn with.
pub(super) struct Glyphs {
    pub(super) h: char,
    pub(super) v: char,
    /// Corners: top, middle, bottom × left, middle, right.
    pub(super) corner: [[char; 3]; 3],
    pub(super) hole: char,
    pub(super) empty: char,
    pub(super) up: (char, char),
}

pub(super) const UNICODE: Glyphs =
    Glyphs {
        h: '─', v: '│', corner: [['┌', '┬', '┐'], ['├', '┼', '┤'], ['└', '┴', '┘']], hole: '░', empty: ' ', up: ('╱', '╲')
    };
pub(super) const ASCII: Glyphs = Glyphs { h: '-', v: '|', corner: [['+'; 3]; 3], hole: '#', empty: '.', up: ('/', '\\') };

/// A piece of text with its display width (the text may hold colour codes).
#[derive(Clone, Default)]
pub(super) struct Piece {
    pub(super) text: String,
    pub(super) width: usize,
}

impl Piece {
    pub(super) fn plain(s: &str) -> Piece {
        Piece { text: s.to_string(), width: width(s) }
    }
    pub(super) fn join(parts: &[Piece], sep: &str) -> Piece {
        let mut out = Piece::default();
        for (k, p) in parts.iter().enumerate() {
            if k > 0 {
                out.text.push_str(sep);
                out.width += width(sep);
            }
            out.text.push_str(&p.text);
            out.width += p.width;
        }
        out
    }
    pub(super) fn centred(&self, w: usize) -> String {
        let mut out = String::with_capacity(self.text.len() + w);
        push_centred(&mut out, &self.text, self.width, w);
        out
    }
    pub(super) fn right(&self, w: usize) -> String {
        format!("{}{}", " ".repeat(w.saturating_sub(self.width)), self.text)
    }
    pub(super) fn left(&self, w: usize) -> String {
        format!("{}{}", self.text, " ".repeat(w.saturating_sub(self.width)))
    }
}

/// How a cell's character is shown (before padding and marking).
pub(super) fn show(c: Option<char>, g: &Glyphs, unicode: bool) -> String {
    match c {
        None => g.empty.to_string(),
        Some(' ') if unicode => "␣".into(),
        Some(c) if c.is_control() => {
            if unicode {
                let pic =
                    if c == '\u{7f}' { '␡' } else { char::from_u32(0x2400 + c as u32).filter(|_| (c as u32) < 0x20).unwrap_or('�') };
                pic.to_string()
            } else {
                "?".into()
            }
        }
        Some(c) if c.width().unwrap_or(0) == 0 => {
            if unicode {
                format!("◌{c}")
            } else {
                "?".into()
            }
        }
        Some(c) => c.to_string(),
    }
}

/// Adds `text` (`tw` columns wide) to `out`, centred in `w` columns.
pub(super) fn push_centred(out: &mut String, text: &str, tw: usize, w: usize) {
    let pad = w.saturating_sub(tw);
    out.extend(std::iter::repeat_n(' ', pad / 2));
    out.push_str(text);
    out.extend(std::iter::repeat_n(' ', pad - pad / 2));
}

/// Adds `p` to `out`, right-aligned in `w` columns.
pub(super) fn push_right(out: &mut String, p: &Piece, w: usize) {
    out.extend(std::iter::repeat_n(' ', w.saturating_sub(p.width)));
    out.push_str(&p.text);
}

/// The lines, each ended by a newline, trailing spaces dropped.
pub(super) fn finish(lines: Vec<String>) -> String {
    let mut out = String::with_capacity(lines.iter().map(|l| l.len() + 1).sum());
    for l in lines {
        out.push_str(l.trim_end_matches(' '));
        out.push('\n');
    }
    out
}
