//! `--jobs`: work items shared out over threads, their results taken in order.

/// Runs `work(0)`, …, `work(n - 1)` on `jobs` threads (on this one when `jobs` is 1),
/// each thread taking the next item as it finishes one, and hands each result to
/// `take` on this thread in item order, as soon as it and those before it are done:
/// what is printed does not depend on `jobs`. An error from `take` stops the threads
/// taking new items and is returned once the running ones finish.
pub fn in_order<T: Send>(
    jobs: usize,
    n: usize,
    work: impl Fn(usize) -> T + Sync,
    mut take: impl FnMut(usize, T) -> crossat::Result<()>,
) -> crossat::Result<()> {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    if jobs <= 1 || n <= 1 {
        return (0..n).try_for_each(|i| take(i, work(i)));
    }
    let (next, halt) = (AtomicUsize::new(0), AtomicBool::new(false));
    std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::channel();
        for _ in 0..jobs.min(n) {
            let (tx, next, halt, work) = (tx.clone(), &next, &halt, &work);
            let spawned = std::thread::Builder::new().name("crossat-job".into()).spawn_scoped(scope, move || {
                while !halt.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= n || tx.send((i, work(i))).is_err() {
                        break;
                    }
                }
            });
            if let Err(e) = spawned {
                halt.store(true, Ordering::Relaxed);
                return Err(crossat::Error::Internal(format!("cannot start a thread: {e}")));
            }
        }
        drop(tx);
        let mut waiting = std::collections::BTreeMap::new();
        let mut due = 0;
        for (i, result) in rx {
            let _ = waiting.insert(i, result);
            while let Some(result) = waiting.remove(&due) {
                if let Err(e) = take(due, result) {
                    halt.store(true, Ordering::Relaxed);
                    return Err(e);
                }
                due += 1;
            }
        }
        Ok(())
    })
}
