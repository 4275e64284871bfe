//! The drawing's colour palette, used only when the terminal takes colour
//! (`crate::terminal` decides).

use anstyle::{AnsiColor, Effects, Style};

/// The styles of the drawing.
pub struct Palette {
    /// Whether styles are emitted at all.
    pub on: bool,
}

impl Palette {
    /// Cells given by the puzzle or the player.
    pub const GIVEN: Style = Style::new().fg_color(Some(anstyle::Color::Ansi(AnsiColor::Blue))).effects(Effects::BOLD);
    /// The hinted cell.
    pub const HINT: Style = Style::new()
        .fg_color(Some(anstyle::Color::Ansi(AnsiColor::Black)))
        .bg_color(Some(anstyle::Color::Ansi(AnsiColor::Yellow)))
        .effects(Effects::BOLD);
    /// A cell where a clue fails, or a wrong entry.
    pub const BAD: Style = Style::new()
        .fg_color(Some(anstyle::Color::Ansi(AnsiColor::White)))
        .bg_color(Some(anstyle::Color::Ansi(AnsiColor::Red)))
        .effects(Effects::BOLD);
    /// A clue that fails.
    pub const BAD_CLUE: Style = Style::new().fg_color(Some(anstyle::Color::Ansi(AnsiColor::Red))).effects(Effects::BOLD);
    /// A clue that forces the hinted cell.
    pub const HINT_CLUE: Style = Style::new().fg_color(Some(anstyle::Color::Ansi(AnsiColor::Yellow))).effects(Effects::BOLD);

    /// `text` in `style` (unchanged when colour is off).
    pub fn paint(&self, style: Style, text: &str) -> String {
        if self.on && !text.is_empty() { format!("{}{text}{}", style.render(), style.render_reset()) } else { text.to_string() }
    }
}
