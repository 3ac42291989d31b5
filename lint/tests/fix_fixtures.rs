//! Fixture pairs for `--fix`: every case under `fixtures/lint/fix/` (a file, or a directory
//! linted as a workspace with its own optional `mirrorless.toml`) is fixed in memory twice,
//! with machine-applicable fixes only and with `--unsafe-fixes`:
//! - each input `X.ext` must become its sibling `X.fixed.ext` (machine) and `X.unsafe.ext`
//!   (suggestions too); a missing expected file means "unchanged";
//! - the diffs are pinned by insta snapshots (`fix__CASE`, `fix__CASE__unsafe`);
//! - fixing the fixed text again changes nothing.
//!
//! `MIRRORLESS_BLESS=1` writes the expected files (review them like snapshots).

use mirrorless_lint::config::Config;
use mirrorless_lint::fix::{self, FixOptions};
use mirrorless_lint::{Options, Report};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from("../fixtures/lint/fix")
}

/// `X.fixed.ts` / `X.unsafe.ts` are expectations, not inputs.
fn is_expectation(p: &Path) -> bool {
    let name = p.file_name().unwrap_or_default().to_string_lossy();
    name.contains(".fixed.") || name.contains(".unsafe.")
}

fn is_source(p: &Path) -> bool {
    p.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| ["ts", "tsx", "js", "mjs", "cjs", "md", "rs"].contains(&e))
}

fn inputs(case: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = if case.is_file() {
        vec![case.to_path_buf()]
    } else {
        walkdir::WalkDir::new(case)
            .sort_by_file_name()
            .into_iter()
            .filter_map(Result::ok)
            .map(walkdir::DirEntry::into_path)
            .filter(|p| p.is_file() && is_source(p) && !is_expectation(p))
            .collect()
    };
    out.sort();
    out
}

fn expectation(input: &Path, kind: &str) -> PathBuf {
    let name = input.file_name().unwrap().to_string_lossy();
    let (stem, ext) = name.split_once('.').unwrap();
    input.with_file_name(format!("{stem}.{kind}.{ext}"))
}

fn options(case: &Path, paths: Vec<PathBuf>) -> Options {
    let dir = if case.is_dir() {
        case.to_path_buf()
    } else {
        root()
    };
    let config_file = dir.join("mirrorless.toml");
    let config = if config_file.is_file() {
        Config::load(&config_file).unwrap()
    } else {
        Config {
            root: dir,
            ..Config::default()
        }
    };
    Options {
        paths,
        jobs: Some(2),
        follow: false,
        config,
    }
}

fn no_filter(_: &mut Report) {}

#[test]
fn every_fix_fixture_becomes_its_expected_file() {
    let bless = std::env::var_os("MIRRORLESS_BLESS").is_some();
    let mut cases: Vec<PathBuf> = std::fs::read_dir(root())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir() || (is_source(p) && !is_expectation(p)))
        .collect();
    cases.sort();
    assert!(cases.len() >= 8, "fix fixtures missing: {cases:?}");
    let mut failures = Vec::new();
    for case in &cases {
        let stem = case.file_stem().unwrap().to_string_lossy().into_owned();
        let files = inputs(case);
        for (kind, unsafe_fixes) in [("fixed", false), ("unsafe", true)] {
            let opts = options(case, files.clone());
            let outcome = fix::run(&opts, FixOptions { unsafe_fixes }, &no_filter);
            assert!(
                outcome.report.errors.is_empty(),
                "{stem}: {:?}",
                outcome.report.errors
            );
            assert!(outcome.dropped.is_empty(), "{stem}: {:?}", outcome.dropped);
            let mut diffs = String::new();
            for input in &files {
                let original = std::fs::read_to_string(input).unwrap();
                let display = mirrorless_lint::engine::display_path(input);
                let changed = outcome.files.iter().find(|f| f.display == display);
                let fixed = changed.map_or(original.clone(), |f| f.fixed.clone());
                if let Some(f) = changed {
                    diffs.push_str(&fix::diff(f));
                }
                let want = expectation(input, kind);
                if bless {
                    if fixed == original {
                        let _ = std::fs::remove_file(&want);
                    } else {
                        std::fs::write(&want, &fixed).unwrap();
                    }
                    continue;
                }
                let expected = std::fs::read_to_string(&want).unwrap_or(original);
                if fixed != expected {
                    failures.push(format!(
                        "{display} ({kind}) differs from {}:\n{fixed}",
                        want.display()
                    ));
                }
            }
            let name = if unsafe_fixes {
                format!("fix__{stem}__unsafe")
            } else {
                format!("fix__{stem}")
            };
            insta::with_settings!({ snapshot_path => "snapshots", prepend_module_to_snapshot => false }, {
                insta::assert_snapshot!(name, diffs);
            });

            // Fixing the fixed text again is a no-op: nothing applicable is left.
            for f in &outcome.report.findings {
                if let Some(x) = &f.fix {
                    assert!(
                        !FixOptions { unsafe_fixes }.applies(x.applicability),
                        "{stem} ({kind}): {}:{} still has an applicable fix after the fixpoint: {}",
                        f.path,
                        f.line,
                        x.message
                    );
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
