//! The integration tests of mirrorless-conformance, as ONE test binary (issue #32 item 5: "fewer
//! separate test binaries"): each file of this directory is a module, so the crate's tests link
//! once and libtest runs all of them side by side on every core, instead of one binary after
//! another. `autotests = false` in Cargo.toml, so a new file of this directory must be declared
//! here: `every_test_file_is_a_module` fails until it is. One file's tests: `cargo test -p
//! mirrorless-conformance --test it <file>::`. The files share this process: no test may change its
//! environment, current directory or other process-wide state.

// Each file that drives a broken Rust loop declares `fixtures/impls/broken-rs/mutant.rs` beside
// the loops it uses (they reach it as `super::mutant`), so a loop used by two files, and
// `mutant.rs`, are compiled once per file: the files stay as they were as separate binaries.
#![allow(clippy::duplicate_mod)]

mod check_events;
mod check_fixtures;
mod check_live;
mod check_properties;
mod driver_mutants;
mod driver_reference;
mod driver_suite_macro;
mod hostile_names;
mod live_twins;
mod spec_citations;
mod spec_docs;
mod stdio_driver;
mod suite_emit_named;
mod suite_jobs;
mod suite_profiles;
mod suite_verdicts;

#[path = "../../tests/support/test_modules.rs"]
mod test_modules;

/// Every `.rs` file beside this one is one of its modules (`tests/support/test_modules.rs`).
#[test]
fn every_test_file_is_a_module() {
    test_modules::assert_every_test_file_is_a_module(
        env!("CARGO_MANIFEST_DIR"),
        include_str!("it.rs"),
    );
}
