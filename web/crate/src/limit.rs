//! Time limits on calls: a [`Cancel`] token with a deadline, and the error text of a
//! call that fails (used by `records`, `make` and `session`).

use crossat::Error;
use crossat::stop::Cancel;
use std::time::Duration;

/// The text of an error as the command line prints it after `error: `: the API's
/// options are named as the command line's flags.
pub(crate) fn message(e: &Error) -> String {
    e.message_with(&|p| format!("--{}", p.to_string().replace('_', "-")))
}

/// Runs `f` with a token cancelled after `timeout_ms` (none when absent or not
/// positive); `Ok(None)` when the time ran out.
pub(crate) fn limited<T>(timeout_ms: Option<f64>, f: impl FnOnce(&Cancel) -> crossat::Result<T>) -> Result<Option<T>, String> {
    let limit = timeout_ms.filter(|&ms| ms.is_finite() && ms > 0.0).map(|ms| Duration::from_secs_f64(ms / 1e3));
    let cancel = limit.map_or_else(Cancel::never, |limit| Cancel::never().with_timeout(limit));
    let r = f(&cancel);
    match r {
        Ok(v) => Ok(Some(v)),
        Err(Error::Cancelled) if limit.is_some() => Ok(None),
        Err(e) => Err(message(&e)),
    }
}

/// [`limited`] for work on `puzzle`, which polls the token while `f` runs.
pub(crate) fn limited_puzzle<T>(
    puzzle: &mut crossat::Puzzle,
    timeout_ms: Option<f64>,
    f: impl FnOnce(&mut crossat::Puzzle) -> crossat::Result<T>,
) -> Result<Option<T>, String> {
    limited(timeout_ms, |cancel| {
        puzzle.set_cancel(cancel.clone());
        let r = f(puzzle);
        puzzle.set_cancel(Cancel::never());
        r
    })
}
