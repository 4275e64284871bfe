//! Code every layer may use and that uses no stage: errors, limits, cancellation,
//! letters made visible, stage timers, the clock, the seeded generator, and the
//! records crossat prints for programs.

pub(crate) mod clock;
pub mod error;
pub mod limits;
pub mod records;
pub mod rng;
pub(crate) mod stats;
pub mod stop;
pub mod style;
