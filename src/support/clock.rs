//! The clock of stage timers, timeouts and the orderly stop: the standard library's on
//! every target where it works, the browser's (`performance.now()`, `Date.now()`, through
//! `web-time`) on wasm32-unknown-unknown, where `std::time::Instant::now()` panics.
//! Code in the library takes its `Instant` and `SystemTime` from here.

#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
pub(crate) use std::time::{Instant, SystemTime, UNIX_EPOCH};
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
pub(crate) use web_time::{Instant, SystemTime, UNIX_EPOCH};
