//! The pipeline's stages, in the order a puzzle goes through them. A stage uses only
//! the stages above it in this list and [`crate::support`]; [`crate::pipeline`] chains them.

// parse: bytes → Puzzle (and word lists)
pub mod puzzle;
// the clue's dialect: its syntax and reference matcher, Python's (`regex`, `sre`) or
// ECMAScript's (`ecma`), consulted by compile and verify
pub(crate) mod dialect;
// compile: clues → automata
pub(crate) mod compile;
// propagate: automata + cells → cell domains, by line propagation
pub mod propagate;
// encode: automata + domains → CNF
pub mod encode;
// verify: grid → checked by the dialect's matcher, independently of compile and encode;
// it runs inside solve, whose every strategy checks its grids with it
pub mod verify;
// solve: CNF → models → grids, each checked by verify
pub mod solve;
// deduce: deduction as a person does it, and the difficulty rating built on it
// (explain, solve --stats, generate)
pub(crate) mod deduce;
// ... → text and JSON Lines
pub mod emit;
// ... and CNF → DIMACS
pub mod dimacs;
