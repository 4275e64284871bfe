//! The printer every command writes through: `writeln!(out, …)?` on a [`Printer`] gives
//! the crate's error for a failed write, naming the stream, so a write error takes the
//! one way out that `main` gives it (a closed pipe: a quiet exit 0, remembered by
//! [`crate::stop::Stdout`]; anything else: an error and exit 2).

use std::io::Write;

/// A stream for a command's output, standard output or standard error.
pub struct Printer<'a> {
    inner: &'a mut dyn Write,
    /// The stream's name for messages.
    stream: &'static str,
}

impl<'a> Printer<'a> {
    /// A printer writing to `inner`, named `stream` in messages.
    pub fn new(inner: &'a mut dyn Write, stream: &'static str) -> Printer<'a> {
        Printer { inner, stream }
    }

    /// Writes formatted text (what `write!` and `writeln!` call).
    pub fn write_fmt(&mut self, args: std::fmt::Arguments<'_>) -> crossat::Result<()> {
        let written = self.inner.write_fmt(args);
        written.map_err(|e| self.failed(&e))
    }

    /// Writes what was buffered.
    pub fn flush(&mut self) -> crossat::Result<()> {
        let flushed = self.inner.flush();
        flushed.map_err(|e| self.failed(&e))
    }

    /// The stream itself, for writers of whole files ([`crate::io::write_file`]).
    pub fn raw(&mut self) -> &mut dyn Write {
        self.inner
    }

    fn failed(&self, e: &std::io::Error) -> crossat::Error {
        output_error(self.stream, format!("cannot write: {}", io_reason(e)))
    }
}

/// An output error: `target` (a file, `standard output`) cannot be written, and why.
pub fn output_error(target: impl Into<String>, message: impl Into<String>) -> crossat::Error {
    crossat::Error::Output(crossat::error::OutputError { target: target.into(), message: message.into() })
}

/// One JSON Lines record: `record` as one line of JSON, without the newline.
pub fn line(record: &impl serde::Serialize) -> String {
    serde_json::to_string(record).expect("a record serializes")
}

/// A reading or writing failure in words for a message.
pub fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}
