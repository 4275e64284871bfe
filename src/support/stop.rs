//! Orderly stops — `--timeout`, SIGINT, SIGTERM — and the one path to standard output.
//!
//! varisat cannot be interrupted inside a SAT call, so a stop does not wait for the
//! search: a watchdog thread (the timer, or the signal thread) takes the output lock,
//! prints the command's *epilogue* (the summary of what was found so far, with
//! `"complete": false` and the reason), flushes standard output and exits the process.
//!
//! The signal thread starts only when it may be needed: signals are caught from the
//! start ([`catch_signals`]) and wait in a pipe, and the thread that acts on them
//! starts before anything that can block or run long ([`watch`]: standard input, a
//! SAT call) or at the first [`check`] after a signal came or after [`WATCH_AFTER`].
//! Most runs on small puzzles end sooner and never pay for a thread (about 0.13 ms
//! of CPU per process).
//!
//! Every byte of standard output goes through [`Stdout`], which writes complete lines
//! (or, inside [`record`], complete records) while holding the same lock, so a stop
//! never cuts a solution in half and never prints a summary in the middle of one.
//! A command [`arm`]s the stop with its epilogue while it searches and calls
//! [`finish`] before printing its own final verdict; after that, a stop changes nothing
//! (the command is about to end with a complete answer).

use crate::clock::Instant;
use crate::exit::ExitCode;
use std::cell::{Cell, RefCell};
use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{LazyLock, OnceLock};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

/// The numbers of SIGINT and SIGTERM, the same on every platform crossat runs on.
const SIGINT: u8 = 2;
const SIGTERM: u8 = 15;

/// Why a command was stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// `--timeout` passed.
    Timeout,
    /// SIGINT (Ctrl-C).
    Interrupt,
    /// SIGTERM.
    Terminate,
}

impl Reason {
    /// The process exit status: [`ExitCode::Timeout`] for a timeout, the signal's
    /// [`ExitCode::Signal`] (128 + its number) for a signal.
    pub fn exit_code(self) -> ExitCode {
        match self {
            Reason::Timeout => ExitCode::Timeout,
            Reason::Interrupt => ExitCode::Signal(SIGINT),
            Reason::Terminate => ExitCode::Signal(SIGTERM),
        }
    }

    /// The `"reason"` of the JSON summary.
    pub fn name(self) -> &'static str {
        match self {
            Reason::Timeout => "timeout",
            Reason::Interrupt | Reason::Terminate => "interrupted",
        }
    }

    /// For people: `the --timeout of 5 s was reached`, `interrupted by SIGINT`.
    pub fn describe(self) -> String {
        match self {
            Reason::Timeout => match timeout() {
                Some(t) => format!("stopped: the --timeout of {} s was reached", t.as_secs_f64()),
                None => "stopped: the time limit was reached".to_string(),
            },
            Reason::Interrupt => "stopped: interrupted by SIGINT".to_string(),
            Reason::Terminate => "stopped: terminated by SIGTERM".to_string(),
        }
    }
}

/// What a stop prints on standard output: the partial summary of the running command.
pub type Epilogue = Box<dyn Fn(Reason) -> String + Send>;

enum Phase {
    /// No search under way: a stop ends the process at once, printing nothing more.
    Idle,
    /// Searching: a stop prints this epilogue and exits.
    Armed(Epilogue),
    /// The command has its answer and is printing it: stops are ignored.
    Finishing,
}

struct State {
    phase: Phase,
}

static STATE: Mutex<State> = Mutex::new(State { phase: Phase::Idle });

/// The `--timeout` in nanoseconds, 0 for none.
static TIMEOUT_NS: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// The cancel flag of the work running on this thread ([`cancel_on`]).
    static CANCEL: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
    /// When the work on this thread is cancelled ([`cancel_at`]).
    static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
    /// The lock while this thread is inside [`record`] (which may nest).
    static HELD: RefCell<Option<MutexGuard<'static, State>>> = const { RefCell::new(None) };
    static DEPTH: Cell<usize> = const { Cell::new(0) };
}

fn lock() -> MutexGuard<'static, State> {
    STATE.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Runs `f` holding the output lock (re-entrant on this thread): what `f` writes to
/// [`Stdout`] and flushes is printed whole or, if a stop comes first, not at all.
pub fn record<T>(f: impl FnOnce() -> T) -> T {
    if DEPTH.get() == 0 {
        let guard = lock();
        HELD.with(|h| *h.borrow_mut() = Some(guard));
    }
    DEPTH.set(DEPTH.get() + 1);
    struct Leave;
    impl Drop for Leave {
        fn drop(&mut self) {
            DEPTH.set(DEPTH.get() - 1);
            if DEPTH.get() == 0 {
                HELD.with(|h| drop(h.borrow_mut().take()));
            }
        }
    }
    let _leave = Leave;
    f()
}

fn with_state<T>(f: impl FnOnce(&mut State) -> T) -> T {
    if DEPTH.get() > 0 { HELD.with(|h| f(h.borrow_mut().as_mut().expect("lock held inside record"))) } else { f(&mut lock()) }
}

/// From now on, the work on this thread (compile, encode, the search between SAT calls,
/// the counterexample loop) ends with [`Error::Cancelled`](crate::error::Error::Cancelled)
/// as soon as `flag` is set: `bench --timeout` runs each puzzle on a worker thread and
/// sets the flag when it gives up, so the abandoned work stops instead of burning CPU.
/// A single SAT call cannot be interrupted (varisat has no interrupt); the flag is
/// read before each one.
pub fn cancel_on(flag: Arc<AtomicBool>) {
    CANCEL.with(|c| *c.borrow_mut() = Some(flag));
}

/// From now on, the work on this thread ends with
/// [`Error::Cancelled`](crate::error::Error::Cancelled) at the first [`check`] after
/// `at` (`None`: never). The time limit of a caller that has no second thread to set a
/// [`cancel_on`] flag: the wasm API in a browser. Like the flag, it is read between SAT
/// calls, never inside one.
pub fn cancel_at(at: Option<Instant>) {
    DEADLINE.set(at);
}

/// Fails with [`Error::Cancelled`](crate::error::Error::Cancelled) when the work on this
/// thread has been cancelled ([`cancel_on`], [`cancel_at`]); starts the signal thread ([`watch`]) once
/// a signal has come or [`WATCH_AFTER`] has passed.
pub fn check() -> crate::error::Result<()> {
    if !WATCHING.load(Ordering::Relaxed) && (CAUGHT.load(Ordering::Relaxed) || STARTED.get().is_some_and(|t| t.elapsed() >= WATCH_AFTER)) {
        watch();
    }
    let cancelled = CANCEL.with(|c| c.borrow().as_ref().is_some_and(|f| f.load(Ordering::Relaxed)))
        || DEADLINE.get().is_some_and(|at| Instant::now() >= at);
    if cancelled { Err(crate::error::Error::Cancelled) } else { Ok(()) }
}

/// Sets the timeout that [`arm`] starts the clock for (from now).
pub fn set_timeout(secs: Option<f64>) -> crate::error::Result<()> {
    let d = match secs {
        None => None,
        Some(s) if s.is_finite() && s > 0.0 && s <= 1e9 => Some(Duration::from_secs_f64(s)),
        Some(s) => return Err(crate::error::Error::Usage(format!("--timeout must be a positive number of seconds, got {s}"))),
    };
    if let Some(d) = d {
        TIMEOUT_NS.store(u64::try_from(d.as_nanos()).unwrap_or(u64::MAX).max(1), Ordering::Relaxed);
        let _ = std::thread::Builder::new().name("crossat-timeout".into()).spawn(move || {
            std::thread::sleep(d);
            stop(Reason::Timeout);
        });
    }
    Ok(())
}

/// The `--timeout` in force, if any.
pub fn timeout() -> Option<Duration> {
    let ns = TIMEOUT_NS.load(Ordering::Relaxed);
    (ns > 0).then(|| Duration::from_nanos(ns))
}

/// From now on a stop prints `epilogue` and exits (replacing any earlier epilogue).
pub fn arm(epilogue: Epilogue) {
    with_state(|st| st.phase = Phase::Armed(epilogue));
}

/// The command has its complete answer: later stops are ignored.
pub fn finish() {
    with_state(|st| st.phase = Phase::Finishing);
}

/// Stops the process for `reason`, unless the command is already finishing.
pub fn stop(reason: Reason) {
    let mut st = lock();
    let text = match &st.phase {
        Phase::Finishing => return,
        Phase::Idle => String::new(),
        Phase::Armed(epilogue) => epilogue(reason),
    };
    st.phase = Phase::Finishing;
    let mut out = io::stdout().lock();
    let written = out.write_all(text.as_bytes()).and_then(|()| out.flush());
    let code = match written {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            eprintln!("error: standard output: cannot write: {e}");
            ExitCode::BadInput
        }
        _ => reason.exit_code(),
    };
    std::process::exit(i32::from(code.code()));
}

/// How long after [`catch_signals`] the first [`check`] starts the signal thread.
pub const WATCH_AFTER: Duration = Duration::from_millis(20);

/// The signals caught, until the signal thread takes them.
#[cfg(feature = "cli")]
static SIGNALS: Mutex<Option<signal_hook::iterator::Signals>> = Mutex::new(None);
/// Set when SIGINT or SIGTERM came (read by [`check`]).
static CAUGHT: LazyLock<Arc<AtomicBool>> = LazyLock::new(|| Arc::new(AtomicBool::new(false)));
/// Whether the signal thread has been started.
static WATCHING: AtomicBool = AtomicBool::new(false);
/// When [`catch_signals`] ran.
static STARTED: OnceLock<Instant> = OnceLock::new();

/// Catches SIGINT and SIGTERM from now on; the thread that turns them into orderly
/// stops starts later, when [`watch`] is first called (a signal that comes before
/// waits for it). Signals are the command line's: without the `cli` feature this only
/// starts the clock of [`WATCH_AFTER`].
pub fn catch_signals() {
    let _ = STARTED.set(Instant::now());
    #[cfg(feature = "cli")]
    catch_signals_now();
}

#[cfg(feature = "cli")]
fn catch_signals_now() {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let Ok(signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM]) else { return };
    for sig in [SIGINT, SIGTERM] {
        let _ = signal_hook::flag::register(sig, Arc::clone(&CAUGHT));
    }
    *SIGNALS.lock().unwrap_or_else(PoisonError::into_inner) = Some(signals);
}

/// Starts the thread that turns the signals [`catch_signals`] caught (and later ones)
/// into orderly stops, unless it runs already: call it before anything that can block
/// or run long without a [`check`].
pub fn watch() {
    let started = WATCHING.swap(true, Ordering::AcqRel);
    #[cfg(feature = "cli")]
    if !started {
        start_signal_thread();
    }
    #[cfg(not(feature = "cli"))]
    let _ = started;
}

#[cfg(feature = "cli")]
fn start_signal_thread() {
    let Some(mut signals) = SIGNALS.lock().unwrap_or_else(PoisonError::into_inner).take() else { return };
    let _ = std::thread::Builder::new().name("crossat-signals".into()).spawn(move || {
        use signal_hook::consts::SIGINT;
        for sig in signals.forever() {
            stop(if sig == SIGINT { Reason::Interrupt } else { Reason::Terminate });
        }
    });
}

/// The JSON summary of a stopped command: `base` (a record's start) with `"complete":
/// false` and `"reason"`.
pub fn stopped_json<T>(reason: Reason, base: T) -> crate::records::Stopped<T> {
    let reason = match reason {
        Reason::Timeout => crate::records::StopReason::Timeout,
        Reason::Interrupt | Reason::Terminate => crate::records::StopReason::Interrupted,
    };
    crate::records::Stopped::new(base, reason)
}

/// The summary line of a stopped command: [`stopped_json`] for JSON output, else
/// `text` followed by what stopped it.
pub fn summary(json: bool, reason: Reason, base: impl serde::Serialize, text: &str) -> String {
    if json { format!("{}\n", crate::records::line(&stopped_json(reason, base))) } else { format!("{}; {text}\n", reason.describe()) }
}

/// Standard output for commands: complete lines are written while holding the output
/// lock; inside [`record`], nothing is written before an explicit flush.
#[derive(Default)]
pub struct Stdout {
    buf: Vec<u8>,
}

impl Stdout {
    /// An empty buffer in front of the process's standard output.
    pub fn new() -> Stdout {
        Stdout::default()
    }

    fn commit(&mut self, upto: usize) -> io::Result<()> {
        if upto == 0 {
            return Ok(());
        }
        let r = record(|| {
            let mut out = io::stdout().lock();
            out.write_all(&self.buf[..upto]).and_then(|()| out.flush())
        });
        let _ = self.buf.drain(..upto);
        r
    }
}

impl Write for Stdout {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.buf.extend_from_slice(data);
        // Outside a record, print every complete line (and never hold more than 1 MiB).
        if DEPTH.get() == 0 {
            if self.buf.len() > 1 << 20 {
                self.commit(self.buf.len())?;
            } else if data.contains(&b'\n')
                && let Some(end) = self.buf.iter().rposition(|&b| b == b'\n')
            {
                self.commit(end + 1)?;
            }
        }
        Ok(data.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.commit(self.buf.len())
    }
}
