//! One progress display for long work (enumeration, generation, `bench`, `squares`),
//! drawn by `indicatif` on standard error — only when standard error is a terminal, and
//! never with `-q`/`--quiet`. It is cleared when the work ends, so it leaves nothing
//! behind in the output.
//!
//! Test hook: with `CROSSAT_PROGRESS_MS=N` set, the display is drawn even when standard
//! error is not a terminal, as plain lines, redrawn every N milliseconds (at once for 0).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::Duration;

/// A progress display, or nothing.
pub struct Progress {
    bar: Option<ProgressBar>,
}

/// Whether a display would be shown (`want`, and standard error is a terminal or the
/// test hook is set).
pub fn wanted(want: bool) -> bool {
    want && (std::io::stderr().is_terminal() || hook().is_some())
}

/// The test hook's redraw interval (`CROSSAT_PROGRESS_MS`), if set.
fn hook() -> Option<u64> {
    std::env::var("CROSSAT_PROGRESS_MS").ok().map(|v| v.parse().unwrap_or(0))
}

/// Where a display goes: the terminal, or (test hook) plain lines on standard error.
fn target() -> ProgressDrawTarget {
    if std::io::stderr().is_terminal() { ProgressDrawTarget::stderr() } else { ProgressDrawTarget::term_like(Box::new(PlainLines)) }
}

/// A "terminal" that writes each redraw as a line (the test hook).
#[derive(Debug)]
struct PlainLines;

impl indicatif::TermLike for PlainLines {
    fn width(&self) -> u16 {
        200
    }
    fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn write_line(&self, s: &str) -> std::io::Result<()> {
        use std::io::Write;
        writeln!(std::io::stderr(), "{s}")
    }
    fn write_str(&self, s: &str) -> std::io::Result<()> {
        use std::io::Write;
        if s.trim().is_empty() { Ok(()) } else { writeln!(std::io::stderr(), "{s}") }
    }
    fn clear_line(&self) -> std::io::Result<()> {
        Ok(())
    }
    fn flush(&self) -> std::io::Result<()> {
        Ok(())
    }
}

/// How often a display is redrawn.
fn tick(default_ms: u64) -> Duration {
    Duration::from_millis(hook().map_or(default_ms, |ms| ms.max(1)))
}

impl Progress {
    /// Nothing shown.
    pub(crate) fn hidden() -> Progress {
        Progress { bar: None }
    }

    /// A spinner counting `unit` (e.g. "solutions"), labelled `what`.
    pub fn counter(want: bool, what: &str, unit: &str) -> Progress {
        if !wanted(want) {
            return Progress::hidden();
        }
        Progress::spinner(&format!("{{spinner}} crossat: {what}: {{pos}} {unit} [{{elapsed}}]"))
    }

    /// A spinner with a free message (e.g. `squares`' counters), labelled `what`.
    pub fn status(want: bool, what: &str) -> Progress {
        if !wanted(want) {
            return Progress::hidden();
        }
        Progress::spinner(&format!("{{spinner}} crossat: {what}: {{msg}} [{{elapsed}}]"))
    }

    fn spinner(template: &str) -> Progress {
        let bar = ProgressBar::with_draw_target(None, target());
        bar.set_style(ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_spinner()));
        bar.enable_steady_tick(tick(120));
        bar.tick();
        Progress { bar: Some(bar) }
    }

    /// A bar of `len` steps (e.g. puzzles), labelled `what`.
    pub fn bar(want: bool, what: &str, len: u64) -> Progress {
        if !wanted(want) {
            return Progress::hidden();
        }
        let bar = ProgressBar::with_draw_target(Some(len), target());
        let style = ProgressStyle::with_template(&format!("crossat: {what}: [{{bar:30}}] {{pos}}/{{len}} {{msg}} [{{elapsed}}]"))
            .unwrap_or_else(|_| ProgressStyle::default_bar());
        bar.set_style(style);
        bar.enable_steady_tick(tick(250));
        Progress { bar: Some(bar) }
    }

    /// Sets the count.
    pub fn set(&self, n: u64) {
        if let Some(b) = &self.bar {
            b.set_position(n);
        }
    }

    /// Adds to the count.
    pub fn inc(&self, n: u64) {
        if let Some(b) = &self.bar {
            b.inc(n);
        }
    }

    /// A short message after the count (e.g. the current puzzle).
    pub fn message(&self, m: &str) {
        if let Some(b) = &self.bar {
            b.set_message(m.to_string());
        }
    }

    /// Removes the display.
    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}
