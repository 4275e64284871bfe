//! The one error type of the pipeline; each variant says where the problem is.

use std::fmt;

/// Everything that can go wrong between reading a puzzle and printing its solutions.
#[derive(Debug)]
pub enum Error {
    /// The puzzle file (or stdin) cannot be read or understood as a puzzle.
    Input {
        /// The file, `-` for stdin.
        source: String,
        /// What is wrong.
        msg: String,
    },
    /// One clue cannot be used: bad syntax, unsupported construct, automaton too large.
    Clue {
        /// The file, `-` for stdin.
        source: String,
        /// Which clue, e.g. `row 2 (left)`.
        clue: String,
        /// The clue text.
        regex: String,
        /// What is wrong.
        msg: String,
    },
    /// Bad command-line usage that clap cannot catch (e.g. an `--alphabet` that lacks a given).
    Usage(String),
    /// An output file cannot be written.
    Output(String),
    /// Standard output is a pipe whose reader has gone (`crossat … | head`): not an
    /// error for the user; the process ends quietly with exit code 0.
    PipeClosed,
    /// A bug in crossat: a decoded solution failed independent verification.
    Internal(String),
    /// The work was cancelled ([`crate::stop::cancel_on`]): `bench --timeout` gave up on
    /// the puzzle. Never reaches the user as such.
    Cancelled,
}

impl Error {
    /// The process exit code for this error: 2 for bad input or usage, 3 for a bug.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Internal(_) => 3,
            Error::PipeClosed => 0,
            _ => 2,
        }
    }

    /// Builds an input error.
    pub fn input(source: &str, msg: impl Into<String>) -> Error {
        Error::Input { source: source.to_string(), msg: msg.into() }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Input { source, msg } => write!(f, "{source}: {msg}"),
            Error::Clue { source, clue, regex, msg } => write!(f, "{source}: {clue} clue '{}': {msg}", shorten(regex)),
            Error::Usage(msg) | Error::Output(msg) => write!(f, "{msg}"),
            Error::Internal(msg) => write!(f, "internal error (please report): {msg}"),
            Error::PipeClosed => write!(f, "standard output: the reader of the pipe has gone"),
            Error::Cancelled => write!(f, "cancelled"),
        }
    }
}

impl std::error::Error for Error {}

/// A clue as shown in a message: whole up to 200 characters, else its start and its
/// length (a huge clue must not flood the terminal).
fn shorten(regex: &str) -> std::borrow::Cow<'_, str> {
    let n = regex.chars().count();
    if n <= 200 {
        return regex.into();
    }
    format!("{}… ({n} characters)", regex.chars().take(80).collect::<String>()).into()
}

/// Shorthand used across the crate.
pub type Result<T> = std::result::Result<T, Error>;
