//! How drawings and prose show text: the colour palette of the drawings (used only when
//! the caller asks for colour) and letters made visible in prose. Whether a terminal
//! takes colour or Unicode is the front end's decision (`src/bin/crossat/terminal.rs`).

use anstyle::{AnsiColor, Effects, Style};

/// The styles of the drawing.
pub struct Palette {
    /// Whether styles are emitted at all.
    pub on: bool,
}

impl Palette {
    /// Cells given by the puzzle or the player.
    pub(crate) const GIVEN: Style = Style::new().fg_color(Some(anstyle::Color::Ansi(AnsiColor::Blue))).effects(Effects::BOLD);
    /// The hinted cell.
    pub const HINT: Style = Style::new()
        .fg_color(Some(anstyle::Color::Ansi(AnsiColor::Black)))
        .bg_color(Some(anstyle::Color::Ansi(AnsiColor::Yellow)))
        .effects(Effects::BOLD);
    /// A cell where a clue fails, or a wrong entry.
    pub(crate) const BAD: Style = Style::new()
        .fg_color(Some(anstyle::Color::Ansi(AnsiColor::White)))
        .bg_color(Some(anstyle::Color::Ansi(AnsiColor::Red)))
        .effects(Effects::BOLD);
    /// A clue that fails.
    pub(crate) const BAD_CLUE: Style = Style::new().fg_color(Some(anstyle::Color::Ansi(AnsiColor::Red))).effects(Effects::BOLD);
    /// A clue that forces the hinted cell.
    pub(crate) const HINT_CLUE: Style = Style::new().fg_color(Some(anstyle::Color::Ansi(AnsiColor::Yellow))).effects(Effects::BOLD);

    /// `text` in `style` (unchanged when colour is off).
    pub fn paint(&self, style: Style, text: &str) -> String {
        if self.on && !text.is_empty() { format!("{}{text}{}", style.render(), style.render_reset()) } else { text.to_string() }
    }
}

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
