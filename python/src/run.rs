//! Running the library's work off the GIL: each long call runs on a thread of its own
//! while the calling thread, without the GIL, waits for it and checks for signals
//! every [`POLL`]. Ctrl-C thus raises `KeyboardInterrupt` within that time even while
//! a SAT call (which cannot be interrupted) runs: the call's token is cancelled and
//! the worker, left to finish on its own, stops at its next poll.

use crossat::Error;
use crossat::stop::Cancel;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

/// How often a waiting call checks for signals (Ctrl-C).
pub(crate) const POLL: Duration = Duration::from_millis(20);

/// A token for one call: its own flag (set on Ctrl-C), and a deadline after
/// `timeout` seconds when one is given.
pub(crate) fn token(timeout: Option<f64>) -> PyResult<Cancel> {
    let cancel = Cancel::new();
    match timeout {
        None => Ok(cancel),
        Some(t) if t.is_nan() || t < 0.0 => {
            Err(PyErr::new::<pyo3::exceptions::PyValueError, _>(format!("timeout must be a number of seconds ≥ 0, got {t}")))
        }
        Some(t) if t.is_infinite() => Ok(cancel),
        Some(t) => Ok(cancel.with_timeout(Duration::from_secs_f64(t))),
    }
}

/// What a worker sends back: its result, or the text of a panic.
type Reply<T> = std::result::Result<crossat::Result<T>, String>;

/// Runs `f` on a worker thread with `cancel`, waiting without the GIL; a panic in `f`
/// comes back as an internal error, never as a panic in Python.
pub(crate) fn run<T: Send + 'static>(
    py: Python<'_>,
    cancel: &Cancel,
    f: impl FnOnce(&Cancel) -> crossat::Result<T> + Send + 'static,
) -> PyResult<T> {
    let (tx, rx) = mpsc::sync_channel::<Reply<T>>(1);
    let token = cancel.clone();
    std::thread::Builder::new()
        .name("crossat".into())
        .spawn(move || {
            let reply = catch_unwind(AssertUnwindSafe(|| f(&token))).map_err(panic_text);
            let _ = tx.send(reply);
        })
        .map_err(|e| raise(py, &Error::Internal(format!("cannot start a thread: {e}"))))?;
    match receive(py, rx, cancel) {
        (_, Ok(Some(Ok(result)))) => result.map_err(|e| raise(py, &e)),
        (_, Ok(Some(Err(panic)))) => Err(raise(py, &Error::Internal(panic))),
        (_, Ok(None)) => Err(raise(py, &Error::Internal("the worker thread vanished".into()))),
        (_, Err(e)) => Err(e),
    }
}

/// Waits without the GIL for the next message on `rx` (`None`: the sender is gone),
/// checking for signals every [`POLL`]; a signal's exception (`KeyboardInterrupt`)
/// cancels `cancel` and is returned. The receiver comes back for the next wait.
pub(crate) fn receive<T: Send>(py: Python<'_>, mut rx: Receiver<T>, cancel: &Cancel) -> (Receiver<T>, PyResult<Option<T>>) {
    loop {
        // The receiver moves into the closure and back (it is `Send`, not `Sync`).
        let (back, got) = py.allow_threads(move || {
            let got = rx.recv_timeout(POLL);
            (rx, got)
        });
        rx = back;
        match got {
            Ok(item) => return (rx, Ok(Some(item))),
            Err(RecvTimeoutError::Disconnected) => return (rx, Ok(None)),
            Err(RecvTimeoutError::Timeout) => {
                if let Err(e) = py.check_signals() {
                    cancel.cancel();
                    return (rx, Err(e));
                }
            }
        }
    }
}

/// The message of a panic's payload.
pub(crate) fn panic_text(payload: Box<dyn std::any::Any + Send>) -> String {
    let what = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into());
    format!("crossat panicked: {what}")
}

/// The Python exception for a library error: the classes of `crossat._errors`.
pub(crate) fn raise(py: Python<'_>, e: &Error) -> PyErr {
    match exception(py, e) {
        Ok(err) => err,
        Err(err) => err,
    }
}

fn exception(py: Python<'_>, e: &Error) -> PyResult<PyErr> {
    let errors = py.import("crossat._errors")?;
    let message = e.message_with(&|p| p.to_string());
    let value = match e {
        Error::Input(_) => errors.getattr("InputError")?.call1((message,))?,
        Error::Clue(c) => {
            let position = match &c.kind {
                crossat::error::ClueErrorKind::Syntax { position, .. } => *position,
                _ => None,
            };
            errors.getattr("ClueError")?.call1((message, c.clue.clone(), c.regex.clone(), position, c.kind.to_string()))?
        }
        Error::Cancelled => errors.getattr("Timeout")?.call1(("the time limit passed before the call finished",))?,
        Error::Usage(_) | Error::Request(_) => errors.getattr("UsageError")?.call1((message,))?,
        _ => errors.getattr("Error")?.call1((message,))?,
    };
    if !value.is_instance_of::<pyo3::exceptions::PyBaseException>() {
        return Err(PyTypeError::new_err("crossat._errors holds a class that is not an exception"));
    }
    Ok(PyErr::from_value(value))
}
