//! Compile-fail tests live in `tests/`: this crate exists so that trybuild re-checks only
//! `mirrorless-conformance`, not its dev-dependencies.
