//! A run that skips the passes settling each fix against the whole run
//! (`lint_sources_cached_unsettled`, which the language server runs to check each suppression
//! comment it offers) reports the findings of a settled run, in the same order and places,
//! with the same rules, messages and fingerprints: those passes change a finding's fix, note
//! and human part only. On generated trees (removed names, identifiers declared in one file and
//! used in others, in TypeScript, Rust and Markdown), for the whole run and for each file alone
//! (`only`, as the server asks), and on every lint fixture workspace, with a cache shared with
//! settled runs before and after (as the server's is).

use mirrorless_lint::config::Config;
use mirrorless_lint::engine::{Cache, read_sources};
use mirrorless_lint::model::Finding;
use mirrorless_lint::{Options, Report, lint_sources_cached, lint_sources_cached_unsettled};
use std::path::{Path, PathBuf};

/// A finding without what settling may change.
fn placed(f: &Finding) -> Finding {
    Finding {
        fix: None,
        note: None,
        human: false,
        ..f.clone()
    }
}

fn places(report: &Report) -> Vec<Finding> {
    report.findings.iter().map(placed).collect()
}

/// Compares, for the tree under `root` with `config`, a settled and an unsettled run of the
/// whole tree and, with `alone`, of each file alone, all through one cache; returns how many
/// findings the settled runs fixed otherwise than the unsettled ones (what the skipped passes
/// did).
fn compare(root: &Path, config: Config, alone: bool) -> usize {
    let opts = Options {
        paths: vec![root.to_path_buf()],
        config,
        ..Options::default()
    };
    let (sources, errors) = read_sources(&opts);
    let mut cache = Cache::default();
    let mut settled_otherwise = 0;
    let mut onlys: Vec<Option<Vec<String>>> = vec![None];
    if alone {
        onlys.extend(sources.iter().map(|s| Some(vec![s.display.clone()])));
    }
    for only in &onlys {
        let only = only.as_deref();
        let settled = lint_sources_cached(&opts, &sources, &errors, only, &mut cache);
        let unsettled = lint_sources_cached_unsettled(&opts, &sources, &errors, only, &mut cache);
        let again = lint_sources_cached(&opts, &sources, &errors, only, &mut cache);
        let at = format!("{} (only {only:?})", root.display());
        assert_eq!(places(&unsettled), places(&settled), "{at}");
        assert_eq!(unsettled.errors, settled.errors, "{at}");
        // The unsettled run left the cache as a settled run would use it.
        assert_eq!(again.findings, settled.findings, "{at}");
        settled_otherwise += (settled.findings.iter().zip(&unsettled.findings))
            .filter(|(s, u)| s != u)
            .count();
    }
    settled_otherwise
}

#[test]
fn an_unsettled_run_reports_the_settled_findings_in_the_same_places_on_generated_trees() {
    let mut settled_otherwise = 0;
    for seed in 1..=60u64 {
        let dir = tempfile::tempdir().unwrap();
        crate::prefilter::write_tree(dir.path(), seed);
        settled_otherwise += compare(dir.path(), Config::default(), true);
    }
    // The passes had fixes to settle: the comparison is not of two identical runs.
    assert!(
        settled_otherwise >= 20,
        "only {settled_otherwise} findings settled otherwise"
    );
}

#[test]
fn an_unsettled_run_reports_the_settled_findings_in_the_same_places_on_every_fixture() {
    let top = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/lint");
    let mut roots: Vec<PathBuf> = Vec::new();
    for lang in std::fs::read_dir(&top).unwrap() {
        let lang = lang.unwrap().path();
        if !lang.is_dir() {
            continue;
        }
        roots.push(lang.clone());
        for sub in std::fs::read_dir(&lang).unwrap() {
            let sub = sub.unwrap().path();
            if sub.is_dir() {
                roots.push(sub);
            }
        }
    }
    let mut settled_otherwise = 0;
    for root in &roots {
        let config = Config::discover(root).unwrap_or_default();
        settled_otherwise += compare(root, config, false);
    }
    assert!(roots.len() >= 10, "{} fixture workspaces", roots.len());
    assert!(
        settled_otherwise >= 20,
        "only {settled_otherwise} findings settled otherwise"
    );
}
