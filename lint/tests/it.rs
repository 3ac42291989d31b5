//! The integration tests of mirrorless-lint, as ONE test binary (issue #32 item 5: "fewer separate
//! test binaries"): each file of this directory is a module, so the crate's tests link once and
//! libtest runs all of them side by side on every core, instead of one binary after another.
//! `autotests = false` in Cargo.toml, so a new file of this directory must be declared here:
//! `every_test_file_is_a_module` fails until it is. One file's tests: `cargo test -p
//! mirrorless-lint --test it <file>::`. The files share this process: no test may change its
//! environment, current directory or other process-wide state.

/// Generated plugin shapes for `fix_equivalence` (`tests/equivalence/`).
mod equivalence;

/// Deeply nested inputs of every shape, for `robust` (`tests/shapes/`).
mod shapes;

mod agent_compare;
mod fix_equivalence;
mod fix_fixtures;
mod fix_property;
mod fix_typecheck;
mod fixtures;
mod host_declarations;
mod in_memory;
mod prefilter;
mod prose_contrast;
mod render_escapes;
mod robust;
mod rule_docs;
mod rust_fix_compiles;
mod rust_typed_fix;

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
