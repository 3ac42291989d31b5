//! Issue #31, items 5 and 7: `--summary FILE` counts what FILE already holds against GitHub's
//! 1 MiB per step (over it GitHub drops the whole summary), says when it cuts or skips, and a
//! file name in a `<details>` summary mentions no one.

use std::path::{Path, PathBuf};
use std::process::Output;

/// GitHub's limit on one step's summary file.
const LIMIT: usize = 1024 * 1024;

/// A directory of 40 invalid logs (one of them named `@octocat.jsonl`): a summary of ~15 KB.
fn logs() -> (tempfile::TempDir, Vec<PathBuf>) {
    let dir = tempfile::tempdir().expect("tempdir");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/check/2026-08/invalid");
    let mut paths = Vec::new();
    for entry in std::fs::read_dir(src).expect("fixtures") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|x| x == "jsonl") {
            let to = dir.path().join(path.file_name().expect("name"));
            std::fs::copy(&path, &to).expect("copy");
            paths.push(to);
        }
    }
    let first = paths[0].clone();
    let mention = dir.path().join("@octocat.jsonl");
    std::fs::copy(first, &mention).expect("copy");
    paths.push(mention);
    (dir, paths)
}

fn check_with_summary(summary: &Path, logs: &[PathBuf]) -> Output {
    crate::common::mirrorless_command()
        .arg("check")
        .arg("--summary")
        .arg(summary)
        .args(logs)
        .output()
        .expect("run mirrorless")
}

#[test]
fn the_summary_file_never_grows_past_the_step_limit_and_a_cut_is_said() {
    let (dir, logs) = logs();
    let alone = dir.path().join("alone.md");
    check_with_summary(&alone, &logs);
    let full = std::fs::read(&alone).expect("summary").len();
    assert!(full > 4096, "{full}");
    for held in [
        0,
        600_000,
        LIMIT - full - 1,
        LIMIT - full / 2,
        LIMIT - 100,
        LIMIT,
        LIMIT + 10,
    ] {
        let summary = dir.path().join(format!("s{held}.md"));
        std::fs::write(&summary, "x".repeat(held)).expect("write");
        let o = check_with_summary(&summary, &logs);
        let stderr = String::from_utf8_lossy(&o.stderr);
        let after = std::fs::read(&summary).expect("summary").len();
        assert!(after <= LIMIT.max(held), "held {held}: {after} bytes");
        if held + full > LIMIT {
            // Cut or skipped, and said so.
            assert!(
                stderr.contains("is cut to") || stderr.contains("is not appended"),
                "held {held}: {stderr}"
            );
        } else {
            assert_eq!(after, held + full, "held {held}");
            assert!(!stderr.contains("job summary"), "held {held}: {stderr}");
        }
        if held < LIMIT - 1024 {
            // What is appended still starts with the verdict and the table.
            let text = std::fs::read_to_string(&summary).expect("summary");
            assert!(text[held..].contains("| "), "held {held}");
        }
    }
}

#[test]
fn a_file_name_in_a_details_summary_mentions_no_one() {
    let (dir, logs) = logs();
    let summary = dir.path().join("s.md");
    check_with_summary(&summary, &logs);
    let text = std::fs::read_to_string(&summary).expect("summary");
    assert!(text.contains("octocat.jsonl"), "{text}");
    for (i, _) in text.match_indices("@octocat") {
        let before = &text[..i];
        // Escaped for Markdown (`\@`) in prose, in a code element inside HTML.
        assert!(
            before.ends_with('\\') || before.ends_with("<code>"),
            "a live mention at {i}: {}",
            &text[i.saturating_sub(80)..i + 20]
        );
    }
}
