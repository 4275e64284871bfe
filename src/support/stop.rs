//! Cancellation as a value the caller passes: a [`Cancel`] token.
//!
//! The library keeps no process state. Work that can run long — compiling and encoding
//! the clues, the line search, the SAT searches between their calls, counting, the
//! deduction engine, lint — polls the token it was given (through
//! `Prepared`, [`Input`](crate::puzzle::Input) or a
//! parameter) and ends with [`Error::Cancelled`] once the token is cancelled or its
//! deadline has passed. Two calls with two tokens never affect each other, whatever
//! thread they run on.
//!
//! A single SAT call cannot be interrupted (varisat has no interrupt): the token is read
//! before each one, and its [`Watcher`] (if any) is told before the call starts, so that
//! a caller who must stop at once (the command line, on a signal) can start a thread of
//! its own to do it.
//!
//! ```
//! use crossat::stop::Cancel;
//! use std::time::Duration;
//!
//! let token = Cancel::new();
//! let worker = token.clone(); // cheap: the clones share one flag
//! assert!(worker.check().is_ok());
//! token.cancel();
//! assert!(matches!(worker.check(), Err(crossat::Error::Cancelled)));
//!
//! // A deadline that has passed cancels too, without anyone setting the flag.
//! let late = Cancel::never().with_timeout(Duration::ZERO);
//! assert!(late.is_cancelled());
//! ```

use crate::clock::Instant;
use crate::error::{Error, Result};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Someone who watches long work besides its flag: told at each poll and before each
/// call that cannot poll (a SAT call). The command line starts its signal thread from
/// here, so that runs which end quickly never pay for one. Both methods must be cheap.
pub trait Watcher: Send + Sync + std::panic::RefUnwindSafe {
    /// At each poll of the token.
    fn poll(&self) {}
    /// Before a call that cannot be interrupted (a SAT call).
    fn blocking(&self) {}
}

/// A cancel token: cheap to clone (the clones share one flag), with an optional
/// deadline and an optional [`Watcher`]. [`Cancel::never`] (the default) is never
/// cancelled and costs one branch per poll.
#[derive(Clone, Default)]
pub struct Cancel {
    flag: Option<Arc<AtomicBool>>,
    deadline: Option<Instant>,
    watcher: Option<Arc<dyn Watcher>>,
}

impl std::fmt::Debug for Cancel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cancel")
            .field("cancelled", &self.flag.as_ref().is_some_and(|f| f.load(Ordering::Relaxed)))
            .field("deadline", &self.deadline)
            .field("watcher", &self.watcher.is_some())
            .finish()
    }
}

impl Cancel {
    /// A token with its own flag, not cancelled yet: [`Cancel::cancel`] on it (or on a
    /// clone) cancels the work that polls it.
    pub fn new() -> Cancel {
        Cancel::from_flag(Arc::new(AtomicBool::new(false)))
    }

    /// A token that is never cancelled (unless given a deadline).
    pub fn never() -> Cancel {
        Cancel::default()
    }

    /// A token whose flag is `flag`: whoever sets it (another thread, a signal
    /// handler) cancels the work.
    pub(crate) fn from_flag(flag: Arc<AtomicBool>) -> Cancel {
        Cancel { flag: Some(flag), ..Cancel::default() }
    }

    /// The same token (same flag), also cancelled from `at` on.
    pub(crate) fn with_deadline(mut self, at: Instant) -> Cancel {
        self.deadline = Some(self.deadline.map_or(at, |d| d.min(at)));
        self
    }

    /// The same token, also cancelled once `limit` has passed from now.
    pub fn with_timeout(self, limit: Duration) -> Cancel {
        let now = Instant::now();
        match now.checked_add(limit) {
            Some(at) => self.with_deadline(at),
            None => self,
        }
    }

    /// The same token, with `watcher` told of its polls and of the calls that cannot
    /// poll.
    pub fn with_watcher(mut self, watcher: Arc<dyn Watcher>) -> Cancel {
        self.watcher = Some(watcher);
        self
    }

    /// Cancels the work polling this token or a clone of it (nothing for a token
    /// without a flag, [`Cancel::never`]).
    pub fn cancel(&self) {
        if let Some(flag) = &self.flag {
            flag.store(true, Ordering::Relaxed);
        }
    }

    /// The deadline, if any.
    #[cfg(test)]
    pub(crate) fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// Whether the token is cancelled: its flag is set or its deadline has passed.
    pub fn is_cancelled(&self) -> bool {
        self.flag.as_ref().is_some_and(|f| f.load(Ordering::Relaxed)) || self.deadline.is_some_and(|at| Instant::now() >= at)
    }

    /// Fails with [`Error::Cancelled`] when the token is cancelled; tells the watcher.
    #[inline]
    pub fn check(&self) -> Result<()> {
        if self.flag.is_none() && self.deadline.is_none() && self.watcher.is_none() {
            return Ok(());
        }
        self.check_slow()
    }

    #[inline(never)]
    fn check_slow(&self) -> Result<()> {
        if let Some(w) = &self.watcher {
            w.poll();
        }
        if self.is_cancelled() { Err(Error::Cancelled) } else { Ok(()) }
    }

    /// Tells the watcher that a call that cannot poll (a SAT call) is about to start.
    #[inline]
    pub(crate) fn blocking(&self) {
        if let Some(w) = &self.watcher {
            w.blocking();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    #[test]
    fn clones_share_the_flag_and_tokens_do_not() {
        let (a, b) = (Cancel::new(), Cancel::new());
        let a2 = a.clone();
        a.cancel();
        assert!(a2.is_cancelled() && a2.check().is_err());
        assert!(!b.is_cancelled() && b.check().is_ok());
        Cancel::never().cancel();
        assert!(Cancel::never().check().is_ok());
    }

    #[test]
    fn deadlines_cancel_and_the_earlier_one_wins() {
        let now = Instant::now();
        let t = Cancel::never().with_deadline(now + Duration::from_secs(3600)).with_deadline(now);
        assert_eq!(t.deadline(), Some(now));
        assert!(t.check().is_err());
        assert!(Cancel::new().with_timeout(Duration::from_secs(3600)).check().is_ok());
    }

    #[test]
    fn the_watcher_hears_polls_and_blocking_calls() {
        #[derive(Default)]
        struct Count(AtomicUsize, AtomicUsize);
        impl Watcher for Count {
            fn poll(&self) {
                let _ = self.0.fetch_add(1, Ordering::Relaxed);
            }
            fn blocking(&self) {
                let _ = self.1.fetch_add(1, Ordering::Relaxed);
            }
        }
        let w = Arc::new(Count::default());
        let t = Cancel::never().with_watcher(w.clone());
        t.check().unwrap();
        t.check().unwrap();
        t.blocking();
        assert_eq!((w.0.load(Ordering::Relaxed), w.1.load(Ordering::Relaxed)), (2, 1));
    }
}
