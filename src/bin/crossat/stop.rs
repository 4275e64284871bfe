//! Orderly stops — `--timeout`, SIGINT, SIGTERM — and the one path to standard output.
//! Process concerns, so they live in the binary: the library only polls the cancel
//! token it is given ([`token`]), which a stop cancels.
//!
//! varisat cannot be interrupted inside a SAT call, so a stop does not wait for the
//! search: a watchdog thread (the timer, or the signal thread) takes the output lock,
//! cancels the token, prints the command's *epilogue* (the summary of what was found
//! so far, with `"complete": false` and the reason), flushes standard output and exits
//! the process.
//!
//! The signal thread starts only when it may be needed: signals are caught from the
//! start ([`catch_signals`]) and wait in a pipe, and the thread that acts on them
//! starts before anything that can block or run long ([`watch`]: standard input, a
//! SAT call, which the library tells the token's watcher of) or at the first poll of
//! the token after a signal came or after [`WATCH_AFTER`]. Most runs on small puzzles
//! end sooner and never pay for a thread (about 0.13 ms of CPU per process).
//!
//! Every byte of standard output goes through [`Stdout`], which writes complete lines
//! (or, inside [`record`], complete records) while holding the same lock, so a stop
//! never cuts a solution in half and never prints a summary in the middle of one.
//! A command [`arm`]s the stop with its epilogue while it searches and calls
//! [`finish`] before printing its own final verdict; after that, a stop changes nothing
//! (the command is about to end with a complete answer).

use crate::exit::ExitCode;
use crossat::records::{StopReason, Stopped};
use crossat::stop::{Cancel, Watcher};
use std::cell::{Cell, RefCell};
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::Duration;
use std::time::Instant;

/// The numbers of SIGINT and SIGTERM, the same on every platform crossat runs on.
const SIGINT: u8 = 2;
const SIGTERM: u8 = 15;

/// Why a command stopped before its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The time limit passed.
    Timeout,
    /// SIGINT (Ctrl-C).
    Interrupt,
    /// SIGTERM.
    Terminate,
}

/// The JSON summary of a stopped command: `base` (a record's start) with `"complete":
/// false` and `"reason"`.
fn stopped_json<T>(reason: Reason, base: T) -> Stopped<T> {
    let reason = match reason {
        Reason::Timeout => StopReason::Timeout,
        Reason::Interrupt | Reason::Terminate => StopReason::Interrupted,
    };
    Stopped::new(base, reason)
}

/// The process exit status of a stop: [`ExitCode::Timeout`] for a timeout, the
/// signal's [`ExitCode::Signal`] (128 + its number) for a signal.
pub fn exit_code(reason: Reason) -> ExitCode {
    match reason {
        Reason::Timeout => ExitCode::Timeout,
        Reason::Interrupt => ExitCode::Signal(SIGINT),
        Reason::Terminate => ExitCode::Signal(SIGTERM),
    }
}

/// For people: `the --timeout of 5 s was reached`, `interrupted by SIGINT`.
pub fn describe(reason: Reason) -> String {
    match reason {
        Reason::Timeout => match timeout() {
            Some(t) => format!("stopped: the --timeout of {} s was reached", t.as_secs_f64()),
            None => "stopped: the time limit was reached".to_string(),
        },
        Reason::Interrupt => "stopped: interrupted by SIGINT".to_string(),
        Reason::Terminate => "stopped: terminated by SIGTERM".to_string(),
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
    /// The lock while this thread is inside [`record`] (which may nest).
    static HELD: RefCell<Option<MutexGuard<'static, State>>> = const { RefCell::new(None) };
    static DEPTH: Cell<usize> = const { Cell::new(0) };
}

/// The cancel token of this process's work: cancelled by a stop; its watcher starts
/// the signal thread when needed.
static TOKEN: LazyLock<Cancel> = LazyLock::new(|| Cancel::new().with_watcher(Arc::new(SignalWatcher)));

/// The token every library call of a command polls.
pub fn token() -> Cancel {
    TOKEN.clone()
}

/// Starts the signal thread from the library's polls and before its SAT calls.
struct SignalWatcher;

impl Watcher for SignalWatcher {
    fn poll(&self) {
        if !WATCHING.load(Ordering::Relaxed)
            && (CAUGHT.load(Ordering::Relaxed) || STARTED.get().is_some_and(|t| t.elapsed() >= WATCH_AFTER))
        {
            watch();
        }
    }

    fn blocking(&self) {
        watch();
    }
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

/// The library's work ended with [`Error::Cancelled`](crossat::Error::Cancelled): a
/// stop cancelled the token and holds the output lock until it exits the process.
/// Waits for that (a cancelled token with no stop behind it is a bug).
pub fn await_stop() -> ExitCode {
    drop(lock());
    ExitCode::Internal
}

/// Starts the `--timeout` clock (from now), if there is a timeout.
pub fn set_timeout(limit: Option<Duration>) {
    if let Some(d) = limit {
        TIMEOUT_NS.store(u64::try_from(d.as_nanos()).unwrap_or(u64::MAX).max(1), Ordering::Relaxed);
        let _ = std::thread::Builder::new().name("crossat-timeout".into()).spawn(move || {
            std::thread::sleep(d);
            stop(Reason::Timeout);
        });
    }
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
    // The work still running stops at its next poll instead of burning CPU.
    TOKEN.cancel();
    let mut out = io::stdout().lock();
    let written = out.write_all(text.as_bytes()).and_then(|()| out.flush());
    let code = match written {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            eprintln!("error: standard output: cannot write: {e}");
            ExitCode::BadInput
        }
        _ => exit_code(reason),
    };
    std::process::exit(i32::from(code.code()));
}

/// How long after [`catch_signals`] the first poll starts the signal thread.
pub const WATCH_AFTER: Duration = Duration::from_millis(20);

/// The signals caught, until the signal thread takes them.
static SIGNALS: Mutex<Option<signal_hook::iterator::Signals>> = Mutex::new(None);
/// Set when SIGINT or SIGTERM came (read by the token's watcher).
static CAUGHT: LazyLock<Arc<AtomicBool>> = LazyLock::new(|| Arc::new(AtomicBool::new(false)));
/// Whether the signal thread has been started.
static WATCHING: AtomicBool = AtomicBool::new(false);
/// When [`catch_signals`] ran.
static STARTED: OnceLock<Instant> = OnceLock::new();

/// Catches SIGINT and SIGTERM from now on; the thread that turns them into orderly
/// stops starts later, when [`watch`] is first called (a signal that comes before
/// waits for it).
pub fn catch_signals() {
    let _ = STARTED.set(Instant::now());
    use signal_hook::consts::{SIGINT, SIGTERM};
    let Ok(signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM]) else { return };
    for sig in [SIGINT, SIGTERM] {
        let _ = signal_hook::flag::register(sig, Arc::clone(&CAUGHT));
    }
    *SIGNALS.lock().unwrap_or_else(PoisonError::into_inner) = Some(signals);
}

/// Starts the thread that turns the signals [`catch_signals`] caught (and later ones)
/// into orderly stops, unless it runs already: call it before anything that can block
/// or run long without polling the token.
pub fn watch() {
    if !WATCHING.swap(true, Ordering::AcqRel) {
        start_signal_thread();
    }
}

fn start_signal_thread() {
    let Some(mut signals) = SIGNALS.lock().unwrap_or_else(PoisonError::into_inner).take() else { return };
    let _ = std::thread::Builder::new().name("crossat-signals".into()).spawn(move || {
        use signal_hook::consts::SIGINT;
        for sig in signals.forever() {
            stop(if sig == SIGINT { Reason::Interrupt } else { Reason::Terminate });
        }
    });
}

/// The summary line of a stopped command: [`stopped_json`] for JSON
/// output, else `text` followed by what stopped it.
pub fn summary(json: bool, reason: Reason, base: impl serde::Serialize, text: &str) -> String {
    if json { format!("{}\n", crate::print::line(&stopped_json(reason, base))) } else { format!("{}; {text}\n", describe(reason)) }
}

/// Standard output for commands, the one printer: complete lines are written while
/// holding the output lock; inside [`record`], nothing is written before an explicit
/// flush. It remembers whether the reader of the pipe went away
/// ([`Stdout::pipe_closed`]), which `main` turns into a quiet exit 0 once, whatever
/// error the write became on its way up.
#[derive(Default)]
pub struct Stdout {
    buf: Vec<u8>,
    closed: bool,
}

impl Stdout {
    /// An empty buffer in front of the process's standard output.
    pub fn new() -> Stdout {
        Stdout::default()
    }

    /// Whether a write found the pipe closed (`crossat solve --all … | head`).
    pub fn pipe_closed(&self) -> bool {
        self.closed
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
        self.closed |= r.as_ref().is_err_and(|e| e.kind() == io::ErrorKind::BrokenPipe);
        r
    }
}

/// Standard error for commands, remembering a closed pipe as [`Stdout`] does.
#[derive(Default)]
pub struct Stderr {
    closed: bool,
}

impl Stderr {
    /// Whether a write found the pipe closed.
    pub fn pipe_closed(&self) -> bool {
        self.closed
    }
}

impl Write for Stderr {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        let r = io::stderr().write(data);
        self.closed |= r.as_ref().is_err_and(|e| e.kind() == io::ErrorKind::BrokenPipe);
        r
    }

    fn flush(&mut self) -> io::Result<()> {
        io::stderr().flush()
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
