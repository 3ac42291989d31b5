//! The Markdown job summaries of `run`, `check` and `lint` (`--format markdown`, `--summary`)
//! rendered by GitHub's own renderer (`cmark-gfm`, see `tests/common/gfm.rs`): each table is a
//! `<table>` with one row per requirement, file or finding and the right number of columns,
//! also when file names and messages hold `|`, backticks, `<` and line breaks.

use crate::gfm;

use serde_json::Value;
use std::path::Path;

fn mirrorless(args: &[&str], cwd: &Path) -> (Option<i32>, String, String) {
    let out = crate::common::mirrorless_command()
        .args(args)
        .current_dir(cwd)
        .env_remove("CI")
        .env_remove("GITHUB_STEP_SUMMARY")
        .env(
            "MIRRORLESS_DOCS_URL",
            "https://example.invalid/mirrorless/docs/",
        )
        .output()
        .expect("mirrorless runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn the_run_summary_has_one_table_per_profile_with_a_row_per_requirement() {
    let dir = tempfile::tempdir().expect("tempdir");
    let summary = dir.path().join("summary.md");
    let fixture = root().join("fixtures/impls/broken-stdio/CHUNK-1-coalescer.py");
    let (code, json, stderr) = mirrorless(
        &[
            "run",
            "--ci",
            "--no-corpus",
            "--cases",
            "32",
            "--format",
            "json",
            "--summary",
            summary.to_str().expect("UTF-8"),
            "--",
            "python3",
            fixture.to_str().expect("UTF-8"),
        ],
        dir.path(),
    );
    assert_eq!(code, Some(1), "{stderr}");
    let report: Value = serde_json::from_str(&json).expect("the primary output is the JSON report");
    let md = std::fs::read_to_string(&summary).expect("--summary wrote the Markdown");
    assert!(
        md.starts_with("## mirrorless run: ❌ NOT CONFORMANT\n"),
        "{md}"
    );
    let Some(html) = gfm::render(&md) else { return };
    let profiles = report["report"]["profiles"].as_array().expect("profiles");
    let tables = gfm::tables(&html);
    assert_eq!(tables.len(), profiles.len(), "{html}");
    for (t, p) in tables.iter().zip(profiles) {
        assert_eq!(
            t.header,
            ["requirement", "status", "cases", "title"],
            "{html}"
        );
        let ids = p["requirements"].as_array().expect("requirements");
        assert_eq!(t.rows.len(), ids.len(), "one row per requirement: {html}");
        for row in &t.rows {
            assert_eq!(row.len(), 4, "{row:?}");
        }
        // Failures lead; the row links to the spec page and to its counterexample.
        assert!(
            t.rows[0][0]
                .contains("href=\"https://example.invalid/mirrorless/docs/spec/CHUNK-1.md\""),
            "{:?}",
            t.rows[0]
        );
        let profile = p["profile"].as_str().expect("profile");
        assert!(
            t.rows[0][1].contains(&format!("href=\"#chunk-1-{profile}\"")),
            "{:?}",
            t.rows[0]
        );
        assert!(
            html.contains(&format!("<a id=\"chunk-1-{profile}\"></a>")),
            "{html}"
        );
    }
    assert!(html.contains("<details><summary>minimal script"), "{html}");
    assert!(
        html.contains("<pre><code class=\"language-json\">"),
        "{html}"
    );
    assert!(
        html.contains("<pre><code class=\"language-sh\"># save the minimal script as CASE.json"),
        "{html}"
    );
}

/// File names holding what Markdown and HTML give a meaning to.
const HOSTILE: [&str; 3] = [
    "a|b`c<i>x<b>",
    "new\nline | forged | row |",
    "[link](javascript:x)*b*",
];

#[test]
fn hostile_file_names_stay_in_their_cells_for_check_and_lint() {
    let dir = tempfile::tempdir().expect("tempdir");
    let invalid =
        std::fs::read(root().join("fixtures/check/2026-08/invalid/MSG-3-content-differs.jsonl"))
            .expect("fixture");
    for name in HOSTILE {
        std::fs::write(dir.path().join(format!("{name}.jsonl")), &invalid).expect("write");
        std::fs::write(
            dir.path().join(format!("{name}.ts")),
            "bus.on(\"agent/stream-chunk\", (c) => log(c));\nbus.emit(\"agent/turn-start\", t);\n",
        )
        .expect("write");
    }
    let logs: Vec<String> = HOSTILE.iter().map(|n| format!("{n}.jsonl")).collect();
    let mut args = vec!["check", "--format", "markdown", "--"];
    args.extend(logs.iter().map(String::as_str));
    let (code, md, stderr) = mirrorless(&args, dir.path());
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        md.starts_with("## mirrorless check: ❌ violates the spec\n"),
        "{md}"
    );
    if let Some(html) = gfm::render(&md) {
        assert!(!html.contains("<i>"), "a file name opened a tag: {html}");
        let tables = gfm::tables(&html);
        assert_eq!(tables.len(), 1, "{html}");
        assert_eq!(tables[0].header.len(), 6);
        assert_eq!(tables[0].rows.len(), HOSTILE.len(), "{html}");
        for (row, name) in tables[0].rows.iter().zip(HOSTILE) {
            assert_eq!(row.len(), 6, "{row:?}");
            // The name is shown, literally (a line break as `\n`).
            let shown = name
                .replace('\n', "\\n")
                .replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;");
            assert_eq!(row[0], format!("{shown}.jsonl"), "{html}");
        }
    }

    let sources: Vec<String> = HOSTILE.iter().map(|n| format!("{n}.ts")).collect();
    let mut args = vec!["lint", "--no-config", "--format", "markdown", "--"];
    args.extend(sources.iter().map(String::as_str));
    let (code, md, stderr) = mirrorless(&args, dir.path());
    assert_eq!(code, Some(1), "{stderr}");
    let mut json_args = vec!["lint", "--no-config", "--format", "json", "--"];
    json_args.extend(sources.iter().map(String::as_str));
    let (_, json, _) = mirrorless(&json_args, dir.path());
    let json: Value = serde_json::from_str(&json).expect("lint JSON");
    let findings = json["findings"].as_array().expect("findings").len();
    assert!(findings >= HOSTILE.len() * 2, "{json}");
    let Some(html) = gfm::render(&md) else { return };
    assert!(
        !html.contains("<i>") && !html.contains("href=\"javascript"),
        "{html}"
    );
    let tables = gfm::tables(&html);
    assert_eq!(tables.len(), 3, "by rule, by file, findings: {html}");
    let [rules, files, all] = &tables[..] else {
        unreachable!()
    };
    assert_eq!(rules.header.len(), 7);
    assert_eq!(files.header.len(), 7);
    assert_eq!(files.rows.len(), HOSTILE.len(), "{html}");
    assert_eq!(
        all.header,
        ["location", "rule", "severity", "message", "fix"]
    );
    assert_eq!(all.rows.len(), findings, "{html}");
    for row in rules.rows.iter().chain(&files.rows) {
        assert_eq!(row.len(), 7, "{row:?}");
    }
    for row in &all.rows {
        assert_eq!(row.len(), 5, "{row:?}");
    }
    assert!(
        rules.rows[0][0]
            .contains("href=\"https://example.invalid/mirrorless/docs/rules/ML001.md\""),
        "{:?}",
        rules.rows[0]
    );
}
