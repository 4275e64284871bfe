//! The pattern generator of the parser differential test: random patterns over the
//! whole syntax, valid and invalid.

pub(super) use crate::rng::Cases as Rng;

pub(super) const LITERALS: &[&str] = &[
    "a", "b", "c", "A", "B", "x", "0", "1", "9", "_", " ", "-", ",", "é", "ß", "σ", "ς", "Σ", "K", "k", "ſ", "İ", "\u{212A}", "١", "²",
    "Ⓐ", "\u{301}", "\u{2028}", "\u{3000}", "\u{85}", "\u{1c}", "\t", "\n", "#", "}", "]", "=", "!", "<", ">", ":", "'", "\"", "😀",
];

pub(super) const ESCAPES: &[&str] = &[
    r"\d",
    r"\D",
    r"\w",
    r"\W",
    r"\s",
    r"\S",
    r"\b",
    r"\B",
    r"\A",
    r"\Z",
    r"\n",
    r"\t",
    r"\\",
    r"\a",
    r"\f",
    r"\v",
    r"\r",
    r"\.",
    r"\*",
    r"\(",
    r"\)",
    r"\[",
    r"\]",
    r"\{",
    r"\|",
    r"\-",
    r"\ ",
    r"\#",
    r"\é",
    r"\q",
    r"\e",
    r"\z",
    r"\E",
    r"\c",
    r"\g",
    r"\x41",
    r"\x4",
    r"\xZZ",
    r"\x",
    r"\u00e9",
    r"\u12",
    r"\u03A3",
    r"\U0001F600",
    r"\U00110000",
    r"\U0000004",
    r"\ud800",
    r"\udfff",
    r"\0",
    r"\00",
    r"\012",
    r"\0123",
    r"\101",
    r"\141",
    r"\400",
    r"\777",
    r"\8",
    r"\9",
    r"\1",
    r"\2",
    r"\3",
    r"\10",
    r"\12",
    r"\19",
    r"\99",
    r"\100",
    r"\N{LATIN SMALL LETTER A}",
    r"\N{EM DASH}",
    r"\N{latin capital letter sharp s}",
    r"\N{GREEK SMALL LETTER FINAL SIGMA}",
    r"\N{CJK UNIFIED IDEOGRAPH-4E00}",
    r"\N{HANGUL SYLLABLE GAG}",
    r"\N{nonexistent}",
    r"\N",
    r"\N{",
    r"\N{}",
    r"\N{EM DASH",
    r"\N{LATIN CAPITAL LETTER A WITH MACRON AND GRAVE}",
    r"\N{SPACE}",
];

pub(super) const CLASS_ITEMS: &[&str] = &[
    "a",
    "b",
    "z",
    "A",
    "0",
    "9",
    "-",
    "]",
    "[",
    "^",
    "é",
    "σ",
    "K",
    "a-z",
    "z-a",
    "0-9",
    "A-Z",
    "a-a",
    r"\d",
    r"\w",
    r"\s",
    r"\D",
    r"\W",
    r"\S",
    r"\b",
    r"\B",
    r"\A",
    r"\Z",
    r"\n",
    r"\\",
    r"\]",
    r"\-",
    r"\x41-\x5a",
    r"\x41-\d",
    r"\d-z",
    r"a-\d",
    r"\1",
    r"\8",
    r"\0",
    r"\141",
    r"\477",
    r"\u0101",
    r"\ud800-\udfff",
    r"\ud7ff-\ue000",
    r"\ud800",
    r"\N{EM DASH}",
    r"\N{BOGUS}",
    r"\q",
    "--",
    "&&",
    "~~",
    "||",
    "a--b",
    " ",
    "#",
    ".",
    "*",
    "(",
    ")",
    "|",
    "é-ü",
    "\u{2028}",
    r"\U0001F600",
];

pub(super) const QUANTS: &[&str] = &[
    "*",
    "+",
    "?",
    "{2}",
    "{1,3}",
    "{,2}",
    "{2,}",
    "{,}",
    "{0}",
    "{0,0}",
    "{}",
    "{3,1}",
    "{1",
    "{a}",
    "{1,2",
    "{ 1}",
    "{1,a}",
    "{-1}",
    "{4294967294}",
    "{4294967295}",
    "{99999999999999999999}",
    "{1,4294967295}",
    "{2}{3}",
    "**",
    "*?",
    "+?",
    "??",
    "{1,2}?",
    "*+",
    "++",
    "?+",
    "{1,2}+",
    "*?+",
    "{,3}+",
];

pub(super) const NAMES: &[&str] = &["a", "b", "n1", "é", "_x", "A"];
pub(super) const BAD_NAMES: &[&str] = &["1a", "", "a-b", "a b", r"a\b", "\u{2028}", "a'b", "😀"];

pub(super) fn name(rng: &mut Rng) -> String {
    if rng.chance(90) { rng.pick(NAMES).to_string() } else { rng.pick(BAD_NAMES).to_string() }
}

pub(super) fn gen_class(rng: &mut Rng, out: &mut String) {
    out.push('[');
    if rng.chance(30) {
        out.push('^');
    }
    for _ in 0..rng.below(4) + usize::from(rng.chance(90)) {
        out.push_str(rng.pick(CLASS_ITEMS));
    }
    if rng.chance(95) {
        out.push(']');
    }
}

pub(super) fn gen_group(rng: &mut Rng, out: &mut String, depth: usize) {
    let kinds = [
        "(", "(", "(", "(?:", "(?:", "(?P<", "(?=", "(?!", "(?<=", "(?<!", "(?>", "(?i:", "(?-i:", "(?x:", "(?s:", "(?m:", "(?a:", "(?u:",
        "(?-a:", "(?L:", "(?t:", "(?im-s:", "(?i-i:", "(?-:", "(?i", "(?#", "(?(", "(?P=", "(?P", "(?<", "(?<>", "(?Q", "(?", "(?-x:",
        "(?ai:", "(?au:", "(?x-i:", "(?-ix:",
    ];
    let kind = rng.pick(&kinds);
    out.push_str(kind);
    match kind {
        "(?P<" => {
            out.push_str(&name(rng));
            if rng.chance(95) {
                out.push('>');
            }
        }
        "(?#" => {
            out.push_str(rng.pick(&["comment", "", "a(b", "x\\)"]));
            if rng.chance(90) {
                out.push(')');
            }
            return;
        }
        "(?P=" => {
            out.push_str(&name(rng));
            if rng.chance(95) {
                out.push(')');
            }
            return;
        }
        "(?(" => {
            let cond = if rng.chance(60) {
                rng.pick(&["1", "2", "3", "0", "01", "10", "-1", "+1", " 1", "1_0", "١", "99999999999999999999", "a b", ""]).to_string()
            } else {
                name(rng)
            };
            out.push_str(&cond);
            out.push(')');
            gen_seq(rng, out, depth + 1);
            if rng.chance(50) {
                out.push('|');
                gen_seq(rng, out, depth + 1);
                if rng.chance(10) {
                    out.push('|');
                    gen_seq(rng, out, depth + 1);
                }
            }
            if rng.chance(95) {
                out.push(')');
            }
            return;
        }
        _ => {}
    }
    gen_alt(rng, out, depth + 1);
    if rng.chance(95) {
        out.push(')');
    }
}

pub(super) fn gen_atom(rng: &mut Rng, out: &mut String, depth: usize) {
    let w = rng.below(100);
    match w {
        0..=29 => out.push_str(rng.pick(LITERALS)),
        30..=34 => out.push('.'),
        35..=37 => out.push('^'),
        38..=40 => out.push('$'),
        41..=57 => out.push_str(rng.pick(ESCAPES)),
        58..=69 => gen_class(rng, out),
        70..=87 if depth < 5 => gen_group(rng, out, depth),
        70..=87 => out.push('x'),
        88..=90 => out.push_str(rng.pick(&[r"\1", r"\2", "(?P=a)", "(?P=b)", "(?P=zz)"])),
        91..=93 => out.push_str(rng.pick(&[" ", "  ", "#c\n", "# comment", "\n", "\x0b"])),
        _ => out.push_str(rng.pick(&[")", "(", "]", "{", "}", "|", "*", "+", "?", "{1}", "\\"])),
    }
}

pub(super) fn gen_seq(rng: &mut Rng, out: &mut String, depth: usize) {
    for _ in 0..rng.below(5) {
        gen_atom(rng, out, depth);
        if rng.chance(25) {
            out.push_str(rng.pick(QUANTS));
        }
    }
}

pub(super) fn gen_alt(rng: &mut Rng, out: &mut String, depth: usize) {
    gen_seq(rng, out, depth);
    while rng.chance(25) {
        out.push('|');
        gen_seq(rng, out, depth);
    }
}

/// One random edit of a pattern: delete, insert or replace a character, or splice in a
/// token of the syntax.
pub(super) fn mutate(rng: &mut Rng, p: &str) -> String {
    let mut chars: Vec<char> = p.chars().collect();
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(chars.len() + 1);
        let piece: Vec<char> = match rng.below(4) {
            0 => rng.pick(LITERALS).chars().collect(),
            1 => rng.pick(ESCAPES).chars().collect(),
            2 => rng.pick(QUANTS).chars().collect(),
            _ => rng
                .pick(&["(", ")", "[", "]", "|", "\\", "?", "<", ">", "=", "!", "P", "#", "-", ":", "{", "}", "^", " ", "\n"])
                .chars()
                .collect(),
        };
        match rng.below(3) {
            0 if at < chars.len() => {
                chars.remove(at);
            }
            1 if at < chars.len() => {
                chars.splice(at..at + 1, piece);
            }
            _ => {
                chars.splice(at..at, piece);
            }
        }
    }
    chars.into_iter().collect()
}

pub(super) fn gen_pattern(rng: &mut Rng, seeds: &[String]) -> String {
    if rng.chance(25) {
        let base = &seeds[rng.below(seeds.len())];
        return mutate(rng, base);
    }
    if rng.chance(15) {
        // character soup over the metacharacters and flag letters
        const SOUP: &[char] = &[
            '(', ')', '[', ']', '{', '}', '|', '*', '+', '?', '\\', '^', '$', '.', '-', ':', '=', '!', '<', '>', 'P', '#', ',', '0', '1',
            '2', '7', '8', 'a', 'i', 'x', 'L', 'u', 't', 'N', 'd', 'b', ' ', '\n', '_', 'é',
        ];
        return (0..1 + rng.below(12)).map(|_| SOUP[rng.below(SOUP.len())]).collect();
    }
    let mut out = String::new();
    if rng.chance(20) {
        let flags = [
            "(?x)",
            "(?x)",
            "(?i)",
            "(?a)",
            "(?s)",
            "(?m)",
            "(?u)",
            "(?ix)",
            "(?L)",
            "(?au)",
            "(?a)(?u)",
            "(?t)",
            "(?#c)(?i)",
            "(?x)(?i)",
            "(?-i)",
            "(?i-s)",
            "(?i:",
            "(?imsx)",
        ];
        out.push_str(rng.pick(&flags));
    }
    gen_alt(rng, &mut out, 0);
    if rng.chance(10) {
        let flags = ["(?i)", "(?x)", "(?s)"];
        let at = rng.below(out.chars().count() + 1);
        let at = out.char_indices().nth(at).map_or(out.len(), |(i, _)| i);
        out.insert_str(at, rng.pick(&flags));
    }
    out
}
