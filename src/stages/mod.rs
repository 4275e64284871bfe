//! The pipeline's stages, in the order a puzzle goes through them. A stage uses only
//! the stages above it in this list and [`crate::support`]; [`crate::pipeline`] chains them.

// parse: bytes → Puzzle (and word lists)
pub mod puzzle;
// compile: a clue's syntax (a port of Python's `re._parser`) ...
pub mod regex;
// ... and its meaning (a port of CPython's `_sre` matcher), the reference for compile and verify
pub mod sre;
// ... and the ECMAScript dialect's syntax and meaning (node's `RegExp` without flags)
pub mod ecma;
// ... and the clue's dialect: its tree and reference matcher, Python's or ECMAScript's
pub mod dialect;
// verify: grid → checked by the sre matcher, independently of compile and encode
pub mod verify;
// compile: clues → automata
pub mod compile;
// propagate: automata + cells → cell domains, by line propagation
pub mod propagate;
// encode: automata + domains → CNF
pub mod encode;
// solve: CNF → models → grids, each checked by verify
pub mod solve;
// emit: Grid → text drawing ...
pub mod draw;
// ... → text and JSON Lines
pub mod emit;
// ... and CNF → DIMACS
pub mod dimacs;
