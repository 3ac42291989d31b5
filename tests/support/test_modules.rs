//! The guard each crate's one integration-test binary (`tests/it.rs`) runs: with `autotests =
//! false`, a `.rs` file of `tests/` that `it.rs` does not declare would never be compiled, and
//! its tests would silently never run (issue #32 item 5: "with nothing skipped"). Shared by the
//! root crate, `lint/`, `conformance/` and `xtask/` through a `#[path]` module.

use std::path::Path;

/// Fails, naming each file and the line to add, when a `.rs` file of `<manifest_dir>/tests`
/// is not a `mod` of `it_rs` (the text of that directory's `it.rs`).
pub fn assert_every_test_file_is_a_module(manifest_dir: &str, it_rs: &str) {
    let dir = Path::new(manifest_dir).join("tests");
    let declared: Vec<&str> = it_rs
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
