//! Code every layer may use and that uses no stage: errors, exit statuses, limits, the orderly stop,
//! progress bars, terminal style, stage timers, the seeded generator.

pub mod error;
pub mod exit;
pub mod limits;
pub mod progress;
pub mod rng;
pub mod stats;
pub mod stop;
pub mod style;
