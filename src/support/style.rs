//! Letters made visible in prose (explanations, hints, checks) and in drawings: a space
//! as `␣`, an invisible character as its code point. The drawings' colours are the
//! command line's (`src/bin/crossat/draw/palette.rs`).

/// A letter as prose shows it (explanations, hints, checks): a space as `␣`, a
/// character that shows nothing by itself (other white space, a control or format
/// character, a combining mark) as its code point, `U+00A0`; any other as itself.
pub fn visible(c: char) -> String {
    use unicode_width::UnicodeWidthChar;
    let format = matches!(c as u32, 0xAD | 0x34F | 0x61C | 0x180E | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x206F | 0xFEFF);
    match c {
        ' ' => "␣".to_string(),
        c if c.is_whitespace() || c.is_control() || format || c.width() == Some(0) => format!("U+{:04X}", c as u32),
        c => c.to_string(),
    }
}

/// A word as prose shows it: each letter [`visible`].
pub fn visible_word(word: &str) -> String {
    word.chars().map(visible).collect()
}
