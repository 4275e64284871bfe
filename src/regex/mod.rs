//! Clue syntax: the Python `re` dialect, parsed into an [`ast::Node`] tree.

pub mod ast;
pub mod syntax;
pub mod parse;
