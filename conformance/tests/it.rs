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

/// Every `.rs` file beside this one is one of its modules: with `autotests = false` a file
/// left out would silently never run (issue #32 item 5: "with nothing skipped").
#[test]
fn every_test_file_is_a_module() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let declared: Vec<&str> = include_str!("it.rs")
        .lines()
        .filter_map(|line| line.strip_prefix("mod ")?.strip_suffix(';'))
        .collect();
    let mut missing = Vec::new();
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .path();
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        if path.extension().is_some_and(|e| e == "rs") && stem != "it" && !declared.contains(&stem)
        {
            missing.push(format!(
                "{}: add `mod {stem};` to tests/it.rs",
                path.display()
            ));
        }
    }
    assert!(
        missing.is_empty(),
        "test files that are not compiled:\n{}",
        missing.join("\n")
    );
    assert!(
        declared.len() > 1,
        "no module read from tests/it.rs: {declared:?}"
    );
}
