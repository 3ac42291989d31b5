//! `docs/spec/` is generated from the requirement registry. This test regenerates every page
//! and fails when a page is missing, stale, or has no requirement; `MIRRORLESS_BLESS=1`
//! rewrites the pages instead.
//!
//! A page lists the fixtures that exercise its requirement: every file or directory under
//! `fixtures/` whose name starts with the ID followed by `-`, `_` or `.` (case-insensitive),
//! e.g. `fixtures/check/2026-08/invalid/CHUNK-2-usage-after-finish.jsonl`.

use mirrorless_conformance::registry::REQUIREMENTS;
use mirrorless_conformance::spec;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn fixtures_of(id: &str) -> Vec<String> {
    let root = root();
    let id = id.to_ascii_lowercase();
    let mut found: Vec<String> = walkdir::WalkDir::new(root.join("fixtures"))
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| {
            let name = e.file_name().to_string_lossy().to_ascii_lowercase();
            name.strip_prefix(&id)
                .is_some_and(|rest| rest.starts_with(['-', '_', '.']))
        })
        .filter_map(|e| {
            e.path()
                .strip_prefix(&root)
                .ok()
                .map(|p| p.to_string_lossy().replace('\\', "/"))
        })
        .collect();
    found.sort();
    found
}

#[test]
fn spec_pages_match_the_registry() {
    let dir = root().join("docs/spec");
    let mut expected: BTreeMap<String, String> = REQUIREMENTS
        .iter()
        .map(|r| (r.page(), spec::page(r, &fixtures_of(r.id))))
        .collect();
    expected.insert("README.md".into(), spec::index());

    if std::env::var_os("MIRRORLESS_BLESS").is_some() {
        std::fs::create_dir_all(&dir).expect("create docs/spec");
        for entry in std::fs::read_dir(&dir).expect("read docs/spec").flatten() {
            if !expected.contains_key(&*entry.file_name().to_string_lossy()) {
                std::fs::remove_file(entry.path()).expect("remove stale page");
            }
        }
        for (name, text) in &expected {
            std::fs::write(dir.join(name), text).expect("write page");
        }
        return;
    }

    let mut problems = Vec::new();
    for (name, text) in &expected {
        match std::fs::read_to_string(dir.join(name)) {
            Ok(actual) if &actual == text => {}
            Ok(_) => problems.push(format!("docs/spec/{name} is stale")),
            Err(_) => problems.push(format!("docs/spec/{name} is missing")),
        }
    }
    for entry in std::fs::read_dir(&dir).expect("read docs/spec").flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !expected.contains_key(&name) {
            problems.push(format!("docs/spec/{name} documents no requirement"));
        }
    }
    assert!(
        problems.is_empty(),
        "{}\nregenerate with: MIRRORLESS_BLESS=1 cargo test -p mirrorless-conformance --test spec_docs",
        problems.join("\n")
    );
}
