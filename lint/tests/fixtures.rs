//! Walks `fixtures/lint/{rust,ts,md}/`: every top-level entry is one case (a source file, or
//! a directory linted as a workspace with its own optional `mirrorless.toml`).
//!
//! Each case is checked twice:
//! - its markers (`//~ RULE…` in code, `<!--~ RULE… -->` in Markdown prose): every line with
//!   a finding carries a marker per finding, and every marker has its finding (compiletest
//!   style), so precision and recall are explicit in the fixture itself;
//! - its human output, pinned by an insta file snapshot in `tests/snapshots/`.

use mirrorless_lint::config::Config;
use mirrorless_lint::render::{self, Format};
use mirrorless_lint::{Options, lint};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Fixture roots: directory, snapshot prefix, file extensions, minimum number of cases.
const ROOTS: &[(&str, &str, &[&str], usize)] = &[
    ("rust", "", &["rs"], 10),
    (
        "ts",
        "ts__",
        &["ts", "tsx", "mts", "cts", "js", "jsx", "mjs", "cjs"],
        8,
    ),
    ("md", "md__", &["md", "markdown", "mdx"], 5),
];

fn fixtures_root(lang: &str) -> PathBuf {
    // Relative to the crate directory, so reported paths are the same on every machine.
    PathBuf::from("../fixtures/lint").join(lang)
}

fn has_ext(p: &Path, exts: &[&str]) -> bool {
    p.extension()
        .and_then(|x| x.to_str())
        .is_some_and(|x| exts.contains(&x))
}

fn markers(case: &Path, exts: &[&str]) -> BTreeMap<(String, usize), Vec<String>> {
    let mut out = BTreeMap::new();
    let files: Vec<PathBuf> = if case.is_file() {
        vec![case.to_path_buf()]
    } else {
        walkdir::WalkDir::new(case)
            .sort_by_file_name()
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| has_ext(e.path(), exts))
            .map(walkdir::DirEntry::into_path)
            .collect()
    };
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        for (i, line) in text.lines().enumerate() {
            let marker = line
                .find("//~")
                .map(|at| at + 3)
                .or_else(|| line.find("<!--~").map(|at| at + 5));
            if let Some(at) = marker {
                let mut rules: Vec<String> = line[at..]
                    .split_whitespace()
                    .take_while(|w| w.starts_with("ML"))
                    .map(str::to_owned)
                    .collect();
                rules.sort();
                let path = mirrorless_lint::source::display_path(&f);
                out.insert((path, i + 1), rules);
            }
        }
    }
    out
}

fn run_case(case: &Path) -> (String, BTreeMap<(String, usize), Vec<String>>) {
    let config_file = case.join("mirrorless.toml");
    let config = if config_file.is_file() {
        Config::load(&config_file).unwrap()
    } else {
        Config {
            root: case.to_path_buf(),
            ..Config::default()
        }
    };
    let report = lint(&Options {
        paths: vec![case.to_path_buf()],
        jobs: Some(2),
        follow: false,
        config,
    });
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let mut found: BTreeMap<(String, usize), Vec<String>> = BTreeMap::new();
    for f in &report.findings {
        found
            .entry((f.path.clone(), f.line))
            .or_default()
            .push(f.rule.to_owned());
    }
    for v in found.values_mut() {
        v.sort();
    }
    (render::render(&report, Format::Human, false), found)
}

#[test]
fn every_fixture_case_matches_its_markers_and_snapshot() {
    let mut failures = Vec::new();
    for &(lang, prefix, exts, min_cases) in ROOTS {
        let mut cases: Vec<PathBuf> = std::fs::read_dir(fixtures_root(lang))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_dir() || has_ext(p, exts))
            .collect();
        cases.sort();
        assert!(cases.len() >= min_cases, "fixtures missing: {cases:?}");
        for case in &cases {
            let stem = case.file_stem().unwrap().to_string_lossy().into_owned();
            let name = format!("{prefix}{stem}");
            let (human, found) = run_case(case);
            let expected = markers(case, exts);
            if found != expected {
                let mut diff = String::new();
                for (k, v) in &expected {
                    if found.get(k) != Some(v) {
                        diff.push_str(&format!(
                            "  {}:{} expected {:?}, found {:?}\n",
                            k.0,
                            k.1,
                            v,
                            found.get(k)
                        ));
                    }
                }
                for (k, v) in &found {
                    if !expected.contains_key(k) {
                        diff.push_str(&format!("  {}:{} unexpected {:?}\n", k.0, k.1, v));
                    }
                }
                failures.push(format!("{name}:\n{diff}"));
            }
            insta::with_settings!({ snapshot_path => "snapshots", prepend_module_to_snapshot => false }, {
                insta::assert_snapshot!(format!("fixture__{name}"), human);
            });
        }
    }
    assert!(
        failures.is_empty(),
        "marker mismatches:\n{}",
        failures.join("\n")
    );
}
