//! Sets of UTF-16 code units, and the sets ES gives its class escapes and `.`.

/// A set of UTF-16 code units: sorted, disjoint, non-adjacent inclusive ranges.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub(crate) struct CharSet {
    ranges: Vec<(u16, u16)>,
}

/// `\d`: `[0-9]`.
const DIGIT: &[(u16, u16)] = &[(0x30, 0x39)];
/// `\w`: `[A-Za-z0-9_]` (ASCII without the `u` and `i` flags).
const WORD: &[(u16, u16)] = &[(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)];
/// `\s`: WhiteSpace and LineTerminator (ECMA-262 §12.2, §12.3): TAB, LF, VT, FF, CR,
/// SPACE, NBSP, the `Zs` characters (U+1680, U+2000–U+200A, U+202F, U+205F, U+3000),
/// LS, PS and ZWNBSP (U+FEFF).
const SPACE: &[(u16, u16)] = &[
    (0x09, 0x0D),
    (0x20, 0x20),
    (0xA0, 0xA0),
    (0x1680, 0x1680),
    (0x2000, 0x200A),
    (0x2028, 0x2029),
    (0x202F, 0x202F),
    (0x205F, 0x205F),
    (0x3000, 0x3000),
    (0xFEFF, 0xFEFF),
];
/// The line terminators `.` does not match: LF, CR, LS, PS.
const LINE_TERMINATORS: &[(u16, u16)] = &[(0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029)];

impl CharSet {
    /// The empty set (`[]`).
    pub(crate) fn empty() -> CharSet {
        CharSet::default()
    }

    /// Every code unit (`[^]`).
    #[cfg(test)]
    pub(crate) fn all() -> CharSet {
        CharSet { ranges: vec![(0, u16::MAX)] }
    }

    /// One unit.
    pub(crate) fn unit(u: u16) -> CharSet {
        CharSet { ranges: vec![(u, u)] }
    }

    /// The units of `ranges` (inclusive, in any order, possibly overlapping).
    pub(crate) fn from_ranges(ranges: impl IntoIterator<Item = (u16, u16)>) -> CharSet {
        let mut v: Vec<(u16, u16)> = ranges.into_iter().filter(|(a, b)| a <= b).collect();
        v.sort_unstable();
        let mut out: Vec<(u16, u16)> = Vec::with_capacity(v.len());
        for (a, b) in v {
            match out.last_mut() {
                Some(last) if u32::from(a) <= u32::from(last.1) + 1 => last.1 = last.1.max(b),
                _ => out.push((a, b)),
            }
        }
        CharSet { ranges: out }
    }

    /// `\d`.
    pub(crate) fn digit() -> CharSet {
        CharSet { ranges: DIGIT.to_vec() }
    }

    /// `\w`.
    pub(crate) fn word() -> CharSet {
        CharSet { ranges: WORD.to_vec() }
    }

    /// `\s`.
    pub(crate) fn space() -> CharSet {
        CharSet { ranges: SPACE.to_vec() }
    }

    /// `.`: every unit but the line terminators.
    pub(crate) fn dot() -> CharSet {
        CharSet { ranges: LINE_TERMINATORS.to_vec() }.complement()
    }

    /// The units not in `self`.
    pub(crate) fn complement(&self) -> CharSet {
        let mut out = Vec::with_capacity(self.ranges.len() + 1);
        let mut next: u32 = 0;
        for &(a, b) in &self.ranges {
            if u32::from(a) > next {
                out.push((next as u16, a - 1));
            }
            next = u32::from(b) + 1;
        }
        if next <= u32::from(u16::MAX) {
            out.push((next as u16, u16::MAX));
        }
        CharSet { ranges: out }
    }

    /// The units in `self` or `other`.
    pub(crate) fn union(&self, other: &CharSet) -> CharSet {
        CharSet::from_ranges(self.ranges.iter().chain(&other.ranges).copied())
    }

    /// The ranges, sorted and disjoint.
    #[cfg(test)]
    pub(crate) fn ranges(&self) -> &[(u16, u16)] {
        &self.ranges
    }

    /// Whether unit `u` is in the set.
    #[inline]
    pub(crate) fn contains(&self, u: u16) -> bool {
        // Sets are short: a linear scan beats a binary search on most of them.
        self.ranges.iter().any(|&(a, b)| a <= u && u <= b)
    }

    /// Whether a cell holding `c` matches this one-unit set: `c` must be in the BMP
    /// (one code unit) and that unit in the set. A character outside the BMP is two
    /// units in JavaScript and never matches a single set; alphabets with such
    /// characters cannot be lowered letter by letter.
    pub(crate) fn contains_char(&self, c: char) -> bool {
        u16::try_from(u32::from(c)).is_ok_and(|u| self.contains(u))
    }
}

/// Whether unit `u` is a word character for `\b` / `\B` (`IsWordChar`: ASCII `\w`).
#[inline]
pub(crate) fn is_word(u: u16) -> bool {
    WORD.iter().any(|&(a, b)| a <= u && u <= b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn complement_and_union_are_exact() {
        let s = CharSet::from_ranges([(5, 9), (0, 0), (10, 12), (20, 20)]);
        assert_eq!(s.ranges(), &[(0, 0), (5, 12), (20, 20)]);
        let c = s.complement();
        assert_eq!(c.ranges(), &[(1, 4), (13, 19), (21, u16::MAX)]);
        assert_eq!(c.complement(), s);
        assert_eq!(s.union(&c), CharSet::all());
        assert_eq!(CharSet::all().complement(), CharSet::empty());
        assert!(CharSet::dot().contains(0x0B) && !CharSet::dot().contains(0x0D) && !CharSet::dot().contains(0x2029));
        assert!(!CharSet::all().contains_char('😀') && CharSet::all().contains_char('\u{FFFF}'));
    }
}
