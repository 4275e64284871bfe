//! The errors of the pipeline, one type per stage, wrapped by [`Error`].
//!
//! Each stage fails with its own type, whose fields say where the problem is and whose
//! `kind` says what it is, so that a caller can match on it:
//!
//! | stage | type | kinds |
//! |---|---|---|
//! | parse (reading the puzzle) | [`InputError`] | [`InputErrorKind`]: `Io`, `Limit`, `Invalid` |
//! | compile (one clue) | [`ClueError`] | [`ClueErrorKind`]: `Syntax`, `Unsupported`, `TooLarge`, `Limit`, `Inexact`, `Check`, `Other` |
//! | encode | [`EncodeError`] | [`EncodeLimit`]: `Clauses`, `Variables` |
//! | emit (files, standard output) | [`OutputError`] | — |
//!
//! [`Error`] wraps them (each converts into it with `From`) and adds usage errors,
//! internal errors (bugs) and cancellation. Exit statuses are the command line's
//! business (it maps an internal error to 3, the others to 2).
//!
//! ```
//! use crossat::error::{ClueErrorKind, Error};
//!
//! // A dkesler `.dat` puzzle of one cell whose row clue is not a regex.
//! let Err(err) = crossat::Puzzle::read("mine.txt", b"1 1\n\na(\n\nb\n") else { panic!("read a bad clue") };
//! match &err {
//!     Error::Clue(e) => {
//!         assert_eq!((e.source.as_str(), e.clue.as_str(), e.regex.as_str()), ("mine.txt", "row 1 (left)", "a("));
//!         assert!(matches!(e.kind, ClueErrorKind::Syntax { position: Some(1), .. }));
//!     }
//!     other => panic!("unexpected {other}"),
//! }
//! assert_eq!(err.to_string(), "mine.txt: row 1 (left) clue 'a(': missing ), unterminated subpattern at position 1");
//! ```

use std::fmt;

/// Everything that can go wrong between reading a puzzle and printing its solutions.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Error {
    /// The puzzle file (or stdin, or another input such as a dictionary) cannot be read
    /// or understood: the parse stage.
    Input(InputError),
    /// One clue cannot be used: bad syntax, unsupported construct, automaton too large
    /// (the compile stage, and the verifier's matcher). Boxed: it is the largest.
    Clue(Box<ClueError>),
    /// The formula would exceed one of the encoder's limits: the encode stage.
    Encode(EncodeError),
    /// Bad usage that clap cannot catch (e.g. an `--alphabet` that lacks a given), or a
    /// request that cannot be met (no unique puzzle found, a timeout).
    Usage(String),
    /// A request the library cannot meet as made, naming the parameter at fault.
    Request(RequestError),
    /// An output file (or standard output) cannot be written.
    Output(OutputError),
    /// A bug in crossat, e.g. a decoded solution failed independent verification.
    Internal(String),
    /// The work was cancelled: the [`Cancel`](crate::stop::Cancel) token the caller
    /// passed was cancelled or its deadline passed.
    Cancelled,
}

/// Why an input cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum InputErrorKind {
    /// The file (or standard input) cannot be read: missing, no permission, I/O.
    Io,
    /// The input exceeds one of crossat's limits (bytes, cells, clues, words).
    Limit,
    /// The bytes are not a puzzle of the format: syntax, sizes, shapes, givens, encoding.
    Invalid,
}

/// A puzzle (or another input) that cannot be read or understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    /// The file, `-` for stdin (or `--given` and the like for command-line inputs).
    pub source: String,
    /// What kind of problem.
    pub kind: InputErrorKind,
    /// What is wrong, in words.
    pub message: String,
}

/// Why a clue cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ClueErrorKind {
    /// Python's `re` refuses the pattern.
    Syntax {
        /// `re.error.msg` (or the text of the other exception Python raises).
        message: String,
        /// `re.error.pos`, a character offset in the clue, where Python gives one.
        position: Option<usize>,
        /// The Python exception when it is not `re.error` (`OverflowError`, `ValueError`).
        exception: Option<&'static str>,
    },
    /// A construct crossat does not encode (e.g. a back-reference inside a lookaround).
    Unsupported(String),
    /// The clue's automaton (or its encoding) exceeds crossat's size limits.
    TooLarge(String),
    /// Another of crossat's limits on a clue (length, nesting, markers, ranges).
    Limit(String),
    /// An export needs an exact formula, and this clue's is an over-approximation.
    Inexact {
        /// What needs the exact formula (`DIMACS export`, a proof, a hint).
        what: String,
        /// The number of candidate line strings above which the clue is not exact.
        limit: usize,
    },
    /// The independent matcher could not decide a line (its step budget ran out).
    Check(String),
    /// Anything else a lower layer reports about the clue, in its words.
    Other(String),
}

/// A clue that cannot be used, with its place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClueError {
    /// The file, `-` for stdin.
    pub source: String,
    /// Which clue, e.g. `row 2 (left)` or `pool regex 3`.
    pub clue: String,
    /// The clue text.
    pub regex: String,
    /// What is wrong.
    pub kind: ClueErrorKind,
}

/// A parameter of a library call, as an error names it ([`Error::message_with`] spells
/// it in the caller's terms, e.g. as a command-line flag).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Param {
    /// Which puzzle of a collection ([`Input::id`](crate::puzzle::Input::id)).
    Id,
    /// The seed of `generate` ([`Spec::seed`](crate::generate::Spec::seed)).
    Seed,
    /// The cap on input size ([`Limits::max_input_bytes`](crate::limits::Limits::max_input_bytes)).
    MaxInputBytes,
    /// A word square's width.
    Width,
    /// A word square's height.
    Height,
    /// The difficulty `generate` is asked for ([`Spec::difficulty`](crate::generate::Spec::difficulty)).
    Difficulty,
    /// `generate`'s back-references ([`Spec::backrefs`](crate::generate::Spec::backrefs)).
    Backrefs,
    /// `generate`'s lookarounds ([`Spec::lookarounds`](crate::generate::Spec::lookarounds)).
    Lookarounds,
}

impl Param {
    /// The parameter's name in the library: `id`, `seed`, `max_input_bytes`, `width`,
    /// `height`, `difficulty`, `backrefs`, `lookarounds`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Param::Id => "id",
            Param::Seed => "seed",
            Param::MaxInputBytes => "max_input_bytes",
            Param::Width => "width",
            Param::Height => "height",
            Param::Difficulty => "difficulty",
            Param::Backrefs => "backrefs",
            Param::Lookarounds => "lookarounds",
        }
    }
}

impl fmt::Display for Param {
    /// The parameter's name in the library (see `Param::name`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A request the library cannot meet as made.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RequestError {
    /// A collection holds several puzzles and no [`Param::Id`] picks one.
    IdNeeded {
        /// The collection's file.
        source: String,
        /// How many puzzles it holds.
        puzzles: usize,
    },
    /// A [`Param::Id`] was given for a file that holds a single puzzle.
    IdForSinglePuzzle {
        /// The file.
        source: String,
    },
    /// `generate` found no unique puzzle in its attempts for this [`Param::Seed`].
    NoUniquePuzzle {
        /// The difficulty asked for, if any (`hard`, …).
        difficulty: Option<&'static str>,
        /// Attempts made.
        attempts: u64,
        /// Uniqueness checks made, when counted.
        checks: Option<usize>,
    },
    /// A word square's side ([`Param::Width`] or [`Param::Height`]) out of range.
    SquareSide {
        /// Which side.
        side: Param,
        /// The value given.
        value: usize,
        /// The largest allowed (the smallest is 2).
        max: usize,
    },
    /// `generate` at [`Param::Difficulty`] `hard` with [`Param::Backrefs`] or
    /// [`Param::Lookarounds`]: hard clues are alternations of code words.
    HardWithPatterns,
    /// `generate` at [`Param::Difficulty`] `hard` on lines too short for its codes.
    HardTooSmall {
        /// The shape, as `3x3` or `hexagon of side 2`.
        shape: String,
        /// Clues per line.
        sides: usize,
    },
    /// `generate` at [`Param::Difficulty`] `medium` on a grid of one row or column.
    MediumTooSmall {
        /// Rows.
        rows: usize,
        /// Columns.
        cols: usize,
    },
    /// `generate`'s text to hide is empty.
    EmptyText,
    /// `generate`'s text to hide has more characters than the grid has cells.
    TextTooLong {
        /// Characters in the text.
        chars: usize,
        /// Cells in the grid.
        cells: usize,
        /// The shape, as `2x2` or `hexagon of side 2`.
        shape: String,
    },
}

impl RequestError {
    /// The message, with each parameter spelt by `spell`.
    pub(crate) fn message_with(&self, spell: &dyn Fn(Param) -> String) -> String {
        match self {
            RequestError::IdNeeded { source, puzzles } => format!("{source} holds {puzzles} puzzles: pick one with {}", spell(Param::Id)),
            RequestError::IdForSinglePuzzle { source } => {
                format!("{} only applies to challenges.json collections; {source} is a single puzzle", spell(Param::Id))
            }
            RequestError::NoUniquePuzzle { difficulty, attempts, checks } => format!(
                "no unique{} puzzle found in {attempts} attempts{}; try another {}",
                difficulty.map_or(String::new(), |d| format!(" {d}")),
                checks.map_or(String::new(), |c| format!(" ({c} checks)")),
                spell(Param::Seed)
            ),
            RequestError::SquareSide { side, value, max } => format!(
                "{} {value}: a word square needs from 2 to {max} cells per side (every line needs a blank and at least half filled)",
                spell(*side)
            ),
            RequestError::HardWithPatterns => format!(
                "{} hard builds its clues from alternations; it cannot be combined with {} or {}",
                spell(Param::Difficulty),
                spell(Param::Backrefs),
                spell(Param::Lookarounds)
            ),
            RequestError::HardTooSmall { shape, sides } => format!(
                "{} hard cannot be made for a {shape} with {sides} clue{} per line: its lines are too short for clues that leave every cell open while deciding the grid together (with one clue per line a rectangle needs 4x4, or 3x6 and 6x3; with two, 3x3; a hexagon needs side 3)",
                spell(Param::Difficulty),
                if *sides == 1 { "" } else { "s" }
            ),
            RequestError::MediumTooSmall { rows, cols } => format!(
                "{} medium needs at least 2 rows and 2 columns, got {rows}x{cols} (a grid of one row or column is solved line by line: easy)",
                spell(Param::Difficulty)
            ),
            RequestError::EmptyText => "the target text is empty".into(),
            RequestError::TextTooLong { chars, cells, shape } => {
                format!("the text has {chars} characters, more than the {cells} cells of a {shape}")
            }
        }
    }
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message_with(&|p| format!("`{}`", p.name())))
    }
}

/// Which limit of the encoder a formula exceeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EncodeLimit {
    /// More clauses than this in the puzzle's formula.
    Clauses(usize),
    /// More variables than this for the whole puzzle.
    Variables(usize),
}

/// A formula too large to build.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodeError {
    /// The file, `-` for stdin.
    pub source: String,
    /// The clue whose encoding is too large, as (label, regex), when one clue is to blame.
    pub clue: Option<(String, String)>,
    /// The limit exceeded.
    pub limit: EncodeLimit,
}

/// A file (or standard output) that cannot be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputError {
    /// The file, or `standard output`.
    pub target: String,
    /// What went wrong, e.g. `cannot create file: permission denied`.
    pub message: String,
}

impl Error {
    /// Builds an input error of kind [`InputErrorKind::Invalid`].
    pub(crate) fn input(source: &str, msg: impl Into<String>) -> Error {
        Error::Input(InputError { source: source.to_string(), kind: InputErrorKind::Invalid, message: msg.into() })
    }

    /// Builds an input error of kind [`InputErrorKind::Limit`].
    pub(crate) fn input_limit(source: &str, msg: impl Into<String>) -> Error {
        Error::Input(InputError { source: source.to_string(), kind: InputErrorKind::Limit, message: msg.into() })
    }

    /// Builds an output error.
    pub(crate) fn output(target: impl Into<String>, message: impl Into<String>) -> Error {
        Error::Output(OutputError { target: target.into(), message: message.into() })
    }

    /// The message ([`Display`](fmt::Display)) with each parameter it names spelt by
    /// `spell`: the command line spells [`Param::MaxInputBytes`] `--max-input-bytes`.
    pub fn message_with(&self, spell: &dyn Fn(Param) -> String) -> String {
        match self {
            Error::Request(r) => r.message_with(spell),
            Error::Input(e) if e.kind == InputErrorKind::Limit => {
                let name = format!("`{}`", Param::MaxInputBytes.name());
                e.to_string().replace(&name, &spell(Param::MaxInputBytes))
            }
            other => other.to_string(),
        }
    }

    /// The same error with `source` as its file, for errors built before the file was
    /// known (the encoder does not know it).
    pub(crate) fn with_source(self, source: &str) -> Error {
        match self {
            Error::Clue(e) => Error::from(ClueError { source: source.to_string(), ..*e }),
            Error::Encode(e) => Error::Encode(EncodeError { source: source.to_string(), ..e }),
            other => other,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Input(e) => e.fmt(f),
            Error::Clue(e) => e.fmt(f),
            Error::Encode(e) => e.fmt(f),
            Error::Output(e) => e.fmt(f),
            Error::Usage(msg) => write!(f, "{msg}"),
            Error::Request(e) => e.fmt(f),
            Error::Internal(msg) => write!(f, "internal error (please report): {msg}"),
            Error::Cancelled => write!(f, "cancelled"),
        }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.source, self.message)
    }
}

impl fmt::Display for ClueErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClueErrorKind::Syntax { message, exception: Some(exc), .. } => write!(f, "{message} (Python raises {exc})"),
            ClueErrorKind::Syntax { message, position: Some(p), .. } => write!(f, "{message} at position {p}"),
            ClueErrorKind::Syntax { message, .. } => f.write_str(message),
            ClueErrorKind::Unsupported(m)
            | ClueErrorKind::TooLarge(m)
            | ClueErrorKind::Limit(m)
            | ClueErrorKind::Check(m)
            | ClueErrorKind::Other(m) => f.write_str(m),
            ClueErrorKind::Inexact { what, limit } => write!(
                f,
                "{what} needs an exact CNF, but this clue has too many candidate line strings (more than {limit}) for its constructs to be encoded exactly; `solve` handles it with the counterexample loop"
            ),
        }
    }
}

impl fmt::Display for ClueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} clue '{}': {}", self.source, self.clue, shorten(&self.regex), self.kind)
    }
}

impl fmt::Display for EncodeLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeLimit::Clauses(n) => write!(f, "encoding too large: more than {n} clauses, the limit of one puzzle's formula"),
            EncodeLimit::Variables(n) => write!(f, "encoding too large: more than {n} variables, the limit of one puzzle's formula"),
        }
    }
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.clue {
            Some((clue, regex)) => write!(f, "{}: {clue} clue '{}': {}", self.source, shorten(regex), self.limit),
            None => write!(f, "{}: {}", self.source, self.limit),
        }
    }
}

impl fmt::Display for OutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.target, self.message)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Input(e) => Some(e),
            Error::Clue(e) => Some(e.as_ref()),
            Error::Encode(e) => Some(e),
            Error::Output(e) => Some(e),
            _ => None,
        }
    }
}
impl std::error::Error for InputError {}
impl std::error::Error for ClueError {}
impl std::error::Error for EncodeError {}
impl std::error::Error for OutputError {}
impl std::error::Error for RequestError {}

impl From<InputError> for Error {
    fn from(e: InputError) -> Error {
        Error::Input(e)
    }
}
impl From<ClueError> for Error {
    fn from(e: ClueError) -> Error {
        Error::Clue(Box::new(e))
    }
}
impl From<EncodeError> for Error {
    fn from(e: EncodeError) -> Error {
        Error::Encode(e)
    }
}
impl From<OutputError> for Error {
    fn from(e: OutputError) -> Error {
        Error::Output(e)
    }
}

/// A bare message is a problem the compile stage did not classify.
impl From<String> for ClueErrorKind {
    fn from(m: String) -> ClueErrorKind {
        ClueErrorKind::Other(m)
    }
}

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
