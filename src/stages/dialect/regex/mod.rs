//! Clue syntax: the Python `re` dialect, parsed as `re._parser` does ([`parser`],
//! `syntax`), with Python's Unicode tables (`unicode`); `ast` is the flag-free
//! tree the compile stage builds from it.

pub(crate) mod ast;
pub(crate) mod parser;
pub(crate) mod syntax;
pub(crate) mod unicode;

#[cfg(test)]
mod cpython;
