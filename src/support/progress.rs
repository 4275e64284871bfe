//! One progress display for long work (enumeration, generation, `bench`), drawn by
//! `indicatif` on standard error — only when standard error is a terminal, and never
//! with `-q`/`--quiet`. It is cleared when the work ends, so it leaves nothing behind
//! in the output.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::Duration;

/// A progress display, or nothing.
pub struct Progress {
    bar: Option<ProgressBar>,
}

/// Whether a display would be shown (`want`, and standard error is a terminal).
pub fn wanted(want: bool) -> bool {
    want && std::io::stderr().is_terminal()
}

impl Progress {
    /// Nothing shown.
    pub fn hidden() -> Progress {
        Progress { bar: None }
    }

    /// A spinner counting `unit` (e.g. "solutions"), labelled `what`.
    pub fn counter(want: bool, what: &str, unit: &str) -> Progress {
        if !wanted(want) {
            return Progress::hidden();
        }
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        let style = ProgressStyle::with_template(&format!("{{spinner}} crossat: {what}: {{pos}} {unit} [{{elapsed}}]"))
            .unwrap_or_else(|_| ProgressStyle::default_spinner());
        bar.set_style(style);
        bar.enable_steady_tick(Duration::from_millis(120));
        Progress { bar: Some(bar) }
    }

    /// A bar of `len` steps (e.g. puzzles), labelled `what`.
    pub fn bar(want: bool, what: &str, len: u64) -> Progress {
        if !wanted(want) {
            return Progress::hidden();
        }
        let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
        let style = ProgressStyle::with_template(&format!("crossat: {what}: [{{bar:30}}] {{pos}}/{{len}} {{msg}} [{{elapsed}}]"))
            .unwrap_or_else(|_| ProgressStyle::default_bar());
        bar.set_style(style);
        bar.enable_steady_tick(Duration::from_millis(250));
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
