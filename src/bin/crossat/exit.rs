//! The exit status of a `crossat` command: one type that every command returns and the
//! program's `main` hands to the operating system.
//!
//! | status | variant | meaning |
//! |---|---|---|
//! | 0 | [`ExitCode::Solved`] | solved (or the grid is valid, or the command succeeded) |
//! | 1 | [`ExitCode::NoSolution`] | no solution (or the grid is not valid, or not unique with `--unique`) |
//! | 2 | [`ExitCode::BadInput`] | bad input or usage: the message names the file, the clue and the problem |
//! | 3 | [`ExitCode::Internal`] | internal error: a bug in crossat |
//! | 4 | [`ExitCode::Timeout`] | stopped by `--timeout`, with what was found and a summary whose `"complete"` is false |
//! | 128 + n | [`ExitCode::Signal`] | stopped by signal n, with the same partial output: 130 for SIGINT, 143 for SIGTERM |
//!
//! Errors map to their status with [`ExitCode::of_error`], stops with
//! [`crate::stop::exit_code`]. Exit statuses are the process's, so they live in the
//! binary, not in the library.

/// The exit status of a command (see the module's table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExitCode {
    /// 0: solved, valid, or done.
    Solved,
    /// 1: no solution, a grid that is not valid or cannot be completed, not unique with
    /// `--unique`.
    NoSolution,
    /// 2: bad input or usage.
    BadInput,
    /// 3: a bug in crossat.
    Internal,
    /// 4: stopped by `--timeout`.
    Timeout,
    /// 128 + the signal number: stopped by that signal (SIGINT 2, SIGTERM 15).
    Signal(u8),
}

impl ExitCode {
    /// Every status the command line documents, in order (the manual page lists them).
    pub const DOCUMENTED: [ExitCode; 7] = [
        ExitCode::Solved,
        ExitCode::NoSolution,
        ExitCode::BadInput,
        ExitCode::Internal,
        ExitCode::Timeout,
        ExitCode::Signal(2),
        ExitCode::Signal(15),
    ];

    /// The status for a library error that ends a command: [`ExitCode::Internal`] for
    /// a bug, [`ExitCode::BadInput`] for everything else (bad input or usage).
    pub fn of_error(e: &crossat::error::Error) -> ExitCode {
        match e {
            crossat::error::Error::Internal(_) => ExitCode::Internal,
            _ => ExitCode::BadInput,
        }
    }

    /// The number the process exits with.
    pub fn code(self) -> u8 {
        match self {
            ExitCode::Solved => 0,
            ExitCode::NoSolution => 1,
            ExitCode::BadInput => 2,
            ExitCode::Internal => 3,
            ExitCode::Timeout => 4,
            ExitCode::Signal(n) => 128u8.saturating_add(n),
        }
    }

    /// [`Solved`](ExitCode::Solved) when something was found, else
    /// [`NoSolution`](ExitCode::NoSolution).
    pub fn from_found(found: usize) -> ExitCode {
        if found > 0 { ExitCode::Solved } else { ExitCode::NoSolution }
    }

    /// [`Solved`](ExitCode::Solved) when `ok`, else [`NoSolution`](ExitCode::NoSolution).
    pub fn from_ok(ok: bool) -> ExitCode {
        if ok { ExitCode::Solved } else { ExitCode::NoSolution }
    }

    /// What the status means, in a few words (for the help's footer).
    pub fn label(self) -> &'static str {
        match self {
            ExitCode::Solved => "solved (or valid)",
            ExitCode::NoSolution => "no solution (or not valid, not unique with --unique)",
            ExitCode::BadInput => "bad input or usage",
            ExitCode::Internal => "internal error",
            ExitCode::Timeout => "stopped by --timeout",
            ExitCode::Signal(2) => "interrupted (SIGINT)",
            ExitCode::Signal(15) => "terminated (SIGTERM)",
            ExitCode::Signal(_) => "stopped by a signal",
        }
    }

    /// What the status means, in a sentence (for the manual page).
    pub fn meaning(self) -> &'static str {
        match self {
            ExitCode::Solved => "Solved (or the grid is valid, or the command succeeded).",
            ExitCode::NoSolution => {
                "No solution (or the grid is not valid or cannot be completed, or the solution is not unique with --unique)."
            }
            ExitCode::BadInput => "Bad input or usage: the message names the file, the clue and the problem.",
            ExitCode::Internal => "Internal error: a bug in crossat (please report it).",
            ExitCode::Timeout => "Stopped by --timeout: what was found is printed, with a summary whose \"complete\" is false.",
            ExitCode::Signal(2) => "Interrupted (SIGINT), with the same partial output.",
            ExitCode::Signal(15) => "Terminated (SIGTERM), with the same partial output.",
            ExitCode::Signal(_) => "Stopped by a signal (128 + its number).",
        }
    }
}

impl From<ExitCode> for std::process::ExitCode {
    fn from(code: ExitCode) -> std::process::ExitCode {
        std::process::ExitCode::from(code.code())
    }
}

#[cfg(test)]
mod tests {
    use super::ExitCode;

    #[test]
    fn codes_and_errors_map_as_documented() {
        assert_eq!(ExitCode::NoSolution.code(), 1);
        assert_eq!(ExitCode::Signal(15).code(), 143);
        assert_eq!(ExitCode::from_found(0), ExitCode::NoSolution);
        assert_eq!(ExitCode::of_error(&crossat::Error::Internal("bug".into())), ExitCode::Internal);
        assert_eq!(ExitCode::of_error(&crossat::Error::Usage("no".into())), ExitCode::BadInput);
    }

    #[test]
    fn documented_statuses_are_distinct_and_in_order() {
        let codes: Vec<u8> = ExitCode::DOCUMENTED.iter().map(|c| c.code()).collect();
        assert_eq!(codes, [0, 1, 2, 3, 4, 130, 143]);
        assert!(ExitCode::DOCUMENTED.iter().all(|c| !c.meaning().is_empty()));
    }
}
