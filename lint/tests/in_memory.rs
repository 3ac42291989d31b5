//! The in-memory entry points give what `lint` gives from disk: `lint_document` on every
//! single-file lint fixture, and `lint_sources` (with `only`) on every fixture directory, find
//! exactly the findings — fixes included — that `lint` finds reading the same files.

use mirrorless_lint::config::Config;
use mirrorless_lint::engine::read_sources;
use mirrorless_lint::{Options, lint, lint_document, lint_sources};
use std::path::PathBuf;

fn cases() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for lang in ["rust", "ts", "md"] {
        let root = PathBuf::from("../fixtures/lint").join(lang);
        for e in std::fs::read_dir(&root).unwrap() {
            out.push(e.unwrap().path());
        }
    }
    out.sort();
    out
}

fn options(path: &std::path::Path) -> Options {
    let dir = if path.is_dir() {
        path.to_path_buf()
    } else {
        path.parent().unwrap().to_path_buf()
    };
    Options {
        paths: vec![path.to_path_buf()],
        config: Config::discover(&dir).unwrap(),
        ..Options::default()
    }
}

#[test]
fn lint_document_equals_lint_on_every_single_file_fixture() {
    let mut files = 0;
    let mut findings = 0;
    for case in cases().into_iter().filter(|p| p.is_file()) {
        let opts = options(&case);
        let from_disk = lint(&opts);
        let Ok(text) = std::fs::read_to_string(&case) else {
            continue;
        };
        let in_memory = lint_document(&case, &text, &opts.config);
        assert_eq!(in_memory.findings, from_disk.findings, "{}", case.display());
        files += 1;
        findings += from_disk.findings.len();
    }
    assert!(
        files >= 20 && findings >= 100,
        "{files} files, {findings} findings"
    );
}

#[test]
fn lint_sources_with_only_equals_lint_on_every_fixture_directory() {
    let mut dirs = 0;
    for case in cases().into_iter().filter(|p| p.is_dir()) {
        let opts = options(&case);
        let from_disk = lint(&opts);
        let (sources, _) = read_sources(&opts);
        // File by file, every other file taking part in resolution only.
        for s in &sources {
            let only = [s.display.clone()];
            let report = lint_sources(&opts, &sources, &[], Some(&only));
            let expected: Vec<_> = from_disk
                .findings
                .iter()
                .filter(|f| f.path == s.display)
                .cloned()
                .collect();
            assert_eq!(report.findings, expected, "{}", s.display);
        }
        dirs += 1;
    }
    assert!(dirs >= 5, "{dirs} fixture directories");
}
