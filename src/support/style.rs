//! How text output looks: box-drawing characters (Unicode or ASCII) and colour.
//!
//! - **Characters.** Unicode box drawing unless `--ascii`, or the locale names another
//!   encoding: the first of `LC_ALL`, `LC_CTYPE` and `LANG` that is set and not empty
//!   decides, Unicode when it mentions UTF-8 (`C.UTF-8`, `en_US.utf8`), ASCII otherwise
//!   (`C`, `POSIX`, `en_US.ISO-8859-1`); with none set, Unicode. This does not depend on
//!   whether standard output is a terminal, so piped output is the same as on screen.
//! - **Colour** (`--color auto|always|never`): `auto` colours only when standard output
//!   is a terminal, `NO_COLOR` is unset or empty, and `TERM` is not `dumb`;
//!   `CLICOLOR_FORCE` (not `0`) turns it on even when piped, but `NO_COLOR` wins. The
//!   decision is `anstream`'s, as for clap's own help. The library built without the
//!   `cli` feature never colours for `auto`.

use anstyle::{AnsiColor, Effects, Style};

/// When to colour (`--color`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum ColorWhen {
    /// On a terminal, unless `NO_COLOR`; also when piped with `CLICOLOR_FORCE`.
    #[default]
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// Whether to colour standard output.
pub fn color_enabled(when: ColorWhen) -> bool {
    match when {
        ColorWhen::Always => true,
        ColorWhen::Never => false,
        #[cfg(feature = "cli")]
        ColorWhen::Auto => anstream::AutoStream::choice(&std::io::stdout()) != anstream::ColorChoice::Never,
        // Without the command line there is no terminal to detect.
        #[cfg(not(feature = "cli"))]
        ColorWhen::Auto => false,
    }
}

/// Whether the locale allows Unicode box drawing (see the module documentation).
pub fn unicode_locale() -> bool {
    for var in ["LC_ALL", "LC_CTYPE", "LANG"] {
        if let Ok(v) = std::env::var(var)
            && !v.is_empty()
        {
            let v = v.to_ascii_lowercase();
            return v.contains("utf-8") || v.contains("utf8");
        }
    }
    true
}

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
