//! What crossat does besides solving a puzzle. Each feature stands on the stages, the
//! pipeline and support code, never on another feature.

// `check` and `hint`: a partial grid against the clues
pub mod assist;
// `generate`: new regex crosswords with a unique solution
pub mod generate;
// word lists as constraints, and the `blocks` puzzle
pub mod words;
// `squares`: word squares (dictionary automata, search, SAT route)
pub mod squares;
// `explain`: the solution path, step by step
pub(crate) mod explain;
// `lint`: clues whose meaning differs between the Python and ECMAScript dialects
pub mod lint;
