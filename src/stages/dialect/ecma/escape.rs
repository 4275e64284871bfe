//! Escapes and classes of the ES2024 pattern grammar without the `u` flag, with
//! Annex B's readings (B.1.2): legacy octal escapes, identity escapes of any
//! character but `c` (and `k` when the pattern has named groups), `\c` without a
//! control letter read as a backslash, class escapes at the ends of a class range.

use super::Node;
use super::SyntaxError;
use super::parser::{Parser, cmp_decimal, decimal_u32, hex_value, is_digit};
use super::sets::CharSet;

/// One class atom: a unit or a class escape's set.
enum ClassAtom {
    Unit(u16),
    Set(CharSet),
}

impl Parser {
    /// `\` outside a class (the assertions `\b`, `\B` are read by [`Parser::term`]).
    pub(super) fn atom_escape(&mut self) -> Result<Node, SyntaxError> {
        let Some(u) = self.peek_at(1) else {
            return Err(self.err("\\ at end of pattern"));
        };
        if (0x31..=0x39).contains(&u) {
            // DecimalEscape, when it names a group of the pattern.
            let mut j = self.i + 1;
            while self.src.get(j).is_some_and(|&d| is_digit(d)) {
                j += 1;
            }
            let digits = &self.src[self.i + 1..j];
            let groups: Vec<u16> = self.total_groups.to_string().encode_utf16().collect();
            if cmp_decimal(digits, &groups) != std::cmp::Ordering::Greater {
                self.i = j;
                return Ok(Node::BackRef(decimal_u32(digits) as usize));
            }
        }
        if u == u16::from(b'k') && self.has_names {
            let at = self.i;
            self.i += 2;
            if self.peek() != Some(0x3C) {
                return Err(self.err_at(at, "Invalid named reference"));
            }
            self.i += 1;
            let name = self.group_name()?;
            self.refs.push((name, at));
            return Ok(Node::BackRef(0));
        }
        if u == u16::from(b'c') {
            return Ok(Node::Set(CharSet::unit(match self.peek_at(2) {
                Some(l) if u8::try_from(l).is_ok_and(|b| b.is_ascii_alphabetic()) => {
                    self.i += 3;
                    l % 32
                }
                // `\` [lookahead = c]: a backslash; the `c` is read next as itself.
                _ => {
                    self.i += 1;
                    0x5C
                }
            })));
        }
        self.i += 1;
        Ok(match self.class_escape_set() {
            Some(s) => Node::Set(s),
            None => Node::Set(CharSet::unit(self.character_escape())),
        })
    }

    /// After `\`: a class escape (`\d \D \s \S \w \W`), consumed.
    fn class_escape_set(&mut self) -> Option<CharSet> {
        let s = match u8::try_from(self.peek()?).ok()? {
            b'd' => CharSet::digit(),
            b'D' => CharSet::digit().complement(),
            b's' => CharSet::space(),
            b'S' => CharSet::space().complement(),
            b'w' => CharSet::word(),
            b'W' => CharSet::word().complement(),
            _ => return None,
        };
        self.i += 1;
        Some(s)
    }

    /// After `\`, at a unit: a `CharacterEscape` other than `c` (Annex B), consumed.
    fn character_escape(&mut self) -> u16 {
        let u = self.peek().expect("an escaped unit");
        self.i += 1;
        match u8::try_from(u).unwrap_or(0xFF) {
            b'f' => 0x0C,
            b'n' => 0x0A,
            b'r' => 0x0D,
            b't' => 0x09,
            b'v' => 0x0B,
            b'x' => match (self.peek().and_then(hex_value), self.peek_at(1).and_then(hex_value)) {
                (Some(a), Some(b)) => {
                    self.i += 2;
                    (a * 16 + b) as u16
                }
                _ => u,
            },
            b'u' => self.hex4().map_or(u, |v| v as u16),
            b'0'..=b'7' => {
                // LegacyOctalEscapeSequence (`\0` alone is NUL): up to three octal
                // digits while the value stays below 256.
                let mut v = u32::from(u - 0x30);
                for _ in 0..2 {
                    let Some(d) = self.peek().filter(|&d| (0x30..=0x37).contains(&d)) else { break };
                    let next = v * 8 + u32::from(d - 0x30);
                    if next > 0xFF {
                        break;
                    }
                    v = next;
                    self.i += 1;
                }
                v as u16
            }
            // IdentityEscape: any other unit (`\8`, `\9`, `\k` without named groups).
            _ => u,
        }
    }

    /// `[` … `]`.
    pub(super) fn class(&mut self) -> Result<Node, SyntaxError> {
        let open = self.i;
        self.i += 1;
        let negated = self.peek() == Some(0x5E);
        if negated {
            self.i += 1;
        }
        let mut ranges: Vec<(u16, u16)> = Vec::new();
        let mut set = CharSet::empty();
        loop {
            match self.peek() {
                None => return Err(self.err_at(open, "Unterminated character class")),
                Some(0x5D) => {
                    self.i += 1;
                    break;
                }
                _ => {}
            }
            let a = self.class_atom()?;
            if self.peek() == Some(0x2D) && self.peek_at(1).is_some_and(|u| u != 0x5D) {
                let dash = self.i;
                self.i += 1;
                let b = self.class_atom()?;
                match (a, b) {
                    (ClassAtom::Unit(x), ClassAtom::Unit(y)) => {
                        if x > y {
                            return Err(self.err_at(dash, "Range out of order in character class"));
                        }
                        ranges.push((x, y));
                    }
                    // Annex B: a class escape at either end makes `-` a member.
                    (a, b) => {
                        for atom in [a, ClassAtom::Unit(0x2D), b] {
                            match atom {
                                ClassAtom::Unit(x) => ranges.push((x, x)),
                                ClassAtom::Set(s) => set = set.union(&s),
                            }
                        }
                    }
                }
            } else {
                match a {
                    ClassAtom::Unit(x) => ranges.push((x, x)),
                    ClassAtom::Set(s) => set = set.union(&s),
                }
            }
        }
        let all = set.union(&CharSet::from_ranges(ranges));
        Ok(Node::Set(if negated { all.complement() } else { all }))
    }

    fn class_atom(&mut self) -> Result<ClassAtom, SyntaxError> {
        let u = self.peek().expect("a class atom");
        if u != 0x5C {
            self.i += 1;
            return Ok(ClassAtom::Unit(u));
        }
        let Some(e) = self.peek_at(1) else {
            return Err(self.err("\\ at end of pattern"));
        };
        match u8::try_from(e).unwrap_or(0xFF) {
            b'b' => {
                self.i += 2;
                Ok(ClassAtom::Unit(0x08))
            }
            b'c' => match self.peek_at(2).and_then(|l| u8::try_from(l).ok()) {
                Some(l) if l.is_ascii_alphanumeric() || l == b'_' => {
                    self.i += 3;
                    Ok(ClassAtom::Unit(u16::from(l) % 32))
                }
                _ => {
                    self.i += 1;
                    Ok(ClassAtom::Unit(0x5C))
                }
            },
            b'k' if self.has_names => Err(self.err("Invalid escape")),
            _ => {
                self.i += 1;
                Ok(match self.class_escape_set() {
                    Some(s) => ClassAtom::Set(s),
                    None => ClassAtom::Unit(match e {
                        // `\8`, `\9`: identity escapes (no back-references in a class).
                        0x38 | 0x39 => {
                            self.i += 1;
                            e
                        }
                        _ => self.character_escape(),
                    }),
                })
            }
        }
    }
}
