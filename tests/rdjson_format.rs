//! `mirrorless lint --format rdjson` / `--format rdjsonl` is what reviewdog reads, on the real
//! binary over the fix fixtures (`fixtures/lint/fix/`, every kind of fix):
//!
//! - the output is valid Reviewdog Diagnostic Format by an independent validator: the pinned npm
//!   `@umbrelladocs/rdformat-validator` (installed by `tests/js-tools/setup.sh`), in its strict
//!   mode that also refuses fields the format does not define. reviewdog itself is on none of
//!   the registries CI reaches, so it cannot run here (docs/guides/code-review.md says so);
//!   skipped when the validator is missing, a failure with `MIRRORLESS_REQUIRE_RDJSON_VALIDATOR=1`;
//! - every suggestion is one reviewdog's `github-pr-review` reporter posts as a GitHub suggested
//!   change: reviewdog (`service/github/github.go`, `buildSingleSuggestion`) refuses a
//!   suggestion whose line range differs from the comment's, which is the diagnostic's range
//!   (or the first suggestion's); a line-based one (no columns) is posted as the new text of
//!   those lines.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `mirrorless lint --no-config --format FORMAT fixtures/lint/fix`, run from the repository root.
fn lint(format: &str) -> String {
    let out = crate::common::mirrorless_command()
        .env("NO_COLOR", "1")
        .env_remove("GITHUB_STEP_SUMMARY")
        .args([
            "lint",
            "--no-config",
            "--format",
            format,
            "fixtures/lint/fix",
        ])
        .current_dir(root())
        .output()
        .unwrap();
    // 1: findings were reported (the fixtures have many).
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn diagnostics(rdjson: &str) -> Vec<Value> {
    let doc: Value = serde_json::from_str(rdjson).unwrap();
    doc["diagnostics"].as_array().cloned().unwrap_or_default()
}

fn validator() -> Option<PathBuf> {
    let bin = root().join(
        "tests/js-tools/node_modules/@umbrelladocs/rdformat-validator/bin/rdformat-validator.js",
    );
    if bin.is_file() {
        return Some(bin);
    }
    assert!(
        std::env::var("MIRRORLESS_REQUIRE_RDJSON_VALIDATOR").as_deref() != Ok("1"),
        "MIRRORLESS_REQUIRE_RDJSON_VALIDATOR=1 but {} is missing: run tests/js-tools/setup.sh",
        bin.display()
    );
    eprintln!(
        "SKIPPED: {} is missing (run tests/js-tools/setup.sh): the rdjson output was NOT validated",
        bin.display()
    );
    None
}

/// The validator's JSON report on `files` (strict, no fields outside the format).
fn validate(bin: &Path, files: &[PathBuf]) -> Value {
    let out = Command::new("node")
        .arg(bin)
        .args(["--strict", "--no-extra-fields", "--format", "json"])
        .args(files)
        .output()
        .unwrap_or_else(|e| panic!("cannot run node {}: {e}", bin.display()));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "the validator printed no JSON report ({e}):\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

#[test]
fn rdjson_and_rdjsonl_are_valid_reviewdog_diagnostic_format() {
    let Some(bin) = validator() else { return };
    let rdjson = lint("rdjson");
    let rdjsonl = lint("rdjsonl");
    let all = diagnostics(&rdjson);
    let lines: Vec<&str> = rdjsonl.lines().collect();
    assert!(all.len() >= 20, "too few diagnostics: {}", all.len());
    assert_eq!(lines.len(), all.len(), "rdjsonl and rdjson disagree");
    let with_suggestion = all
        .iter()
        .filter(|d| d["suggestions"].as_array().is_some_and(|s| !s.is_empty()))
        .count();
    assert!(
        with_suggestion >= 20,
        "too few suggestions: {with_suggestion}"
    );

    // One file for the document, one per rdjsonl line (each line is one `Diagnostic`).
    let dir = tempfile::tempdir().unwrap();
    let mut files = vec![dir.path().join("result.rdjson")];
    std::fs::write(&files[0], &rdjson).unwrap();
    for (i, line) in lines.iter().enumerate() {
        let f = dir.path().join(format!("line-{i}.json"));
        std::fs::write(&f, line).unwrap();
        files.push(f);
    }
    let report = validate(&bin, &files);
    assert_eq!(report["success"], true, "{report:#}");
    assert_eq!(report["validFiles"], files.len(), "{report:#}");
    assert_eq!(report["totalErrors"], 0, "{report:#}");
}

/// The validator can fail: what reviewdog would refuse (an unknown severity, a diagnostic
/// without its message) is reported.
#[test]
fn the_validator_rejects_a_broken_document() {
    let Some(bin) = validator() else { return };
    let mut doc: Value = serde_json::from_str(&lint("rdjson")).unwrap();
    doc["diagnostics"][0]["severity"] = "FATAL".into();
    doc["diagnostics"][1]
        .as_object_mut()
        .unwrap()
        .remove("message");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("broken.rdjson");
    std::fs::write(&file, doc.to_string()).unwrap();
    let report = validate(&bin, &[file]);
    assert_eq!(report["success"], false, "{report:#}");
    let details = report["fileResults"][0]["errorDetails"].to_string();
    assert!(details.contains("diagnostics[0].severity"), "{details}");
    assert!(details.contains("message"), "{details}");
}

fn line_range(range: &Value) -> (u64, u64) {
    let start = range["start"]["line"].as_u64().unwrap_or(0);
    let end = range["end"]["line"].as_u64().unwrap_or(0);
    (start, if end == 0 { start } else { end })
}

#[test]
fn every_suggestion_is_one_reviewdog_posts_as_a_github_suggested_change() {
    let all = diagnostics(&lint("rdjson"));
    let mut checked = 0;
    for d in &all {
        let Some(suggestions) = d["suggestions"].as_array() else {
            continue;
        };
        let path = d["location"]["path"].as_str().unwrap();
        let source = std::fs::read_to_string(root().join(path)).unwrap();
        let source_lines: Vec<&str> = source.lines().collect();
        for s in suggestions {
            // reviewdog compares the suggestion's lines with the comment's (the diagnostic's).
            assert_eq!(
                line_range(&s["range"]),
                line_range(&d["location"]["range"]),
                "{path}: the suggestion and its diagnostic span different lines: {d:#}"
            );
            // Line-based: no columns, so reviewdog posts the text as the lines' new content.
            assert!(s["range"]["start"].get("column").is_none(), "{d:#}");
            assert!(s["range"]["end"].get("column").is_none(), "{d:#}");
            let text = s["text"].as_str().unwrap();
            // The lines exist, and the suggestion changes them.
            let (start, end) = line_range(&s["range"]);
            assert!(start >= 1 && end as usize <= source_lines.len(), "{d:#}");
            let old = source_lines[start as usize - 1..end as usize].join("\n");
            assert_ne!(
                old, text,
                "{path}:{start}: a suggestion that changes nothing"
            );
            checked += 1;
        }
    }
    assert!(checked >= 20, "too few suggestions checked: {checked}");
}
