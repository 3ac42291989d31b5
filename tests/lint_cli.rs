//! `mirrorless lint` end to end: exit codes, every output format, baselines, `--new-since`,
//! bad input. Snapshots live in `tests/snapshots/`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin() -> Command {
    let mut c = crate::common::mirrorless_command();
    c.env_remove("GITHUB_STEP_SUMMARY").env("NO_COLOR", "1");
    c
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `mirrorless lint ARGS` in `dir` with no configuration discovery surprises.
fn lint_in(dir: &Path, args: &[&str]) -> Output {
    bin()
        .arg("lint")
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn fixtures() -> PathBuf {
    repo().join("fixtures/lint/rust")
}

fn write(dir: &Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

#[test]
fn exit_codes_follow_the_documented_contract() {
    let f = fixtures();
    let clean = lint_in(&f, &["--no-config", "near_misses.rs"]);
    assert_eq!(clean.status.code(), Some(0), "{}", stdout(&clean));
    assert!(stdout(&clean).contains("0 errors, 0 warnings, 0 notes in 1 file "));
    // Only notes and warnings: still 0.
    let notes = lint_in(&f, &["--no-config", "comments.rs"]);
    assert_eq!(notes.status.code(), Some(0));
    let dirty = lint_in(&f, &["--no-config", "subscribe_literal.rs"]);
    assert_eq!(dirty.status.code(), Some(1));
    let missing = lint_in(&f, &["--no-config", "no/such/dir"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(stdout(&missing).contains("no/such/dir: cannot read"));
    let usage = lint_in(&f, &["--format", "xml"]);
    assert_eq!(usage.status.code(), Some(2));
}

#[test]
fn human_output_is_rustc_style() {
    let o = lint_in(
        &fixtures(),
        &["--no-config", "--color", "never", "emit_literal.rs"],
    );
    insta::assert_snapshot!("human_emit", stdout(&o));
}

#[test]
fn json_output_has_the_documented_fields() {
    let o = lint_in(
        &fixtures(),
        &["--no-config", "--format", "json", "typed_event"],
    );
    assert_eq!(o.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(doc["version"], 1);
    let findings = doc["findings"].as_array().unwrap();
    assert!(!findings.is_empty());
    for f in findings {
        for key in [
            "rule",
            "rule_name",
            "severity",
            "event",
            "path",
            "line",
            "column",
            "end_line",
            "end_column",
            "message",
            "help",
            "fingerprint",
        ] {
            assert!(f.get(key).is_some(), "finding lacks `{key}`: {f}");
        }
        assert!(f["line"].as_u64().unwrap() >= 1 && f["column"].as_u64().unwrap() >= 1);
    }
    insta::assert_snapshot!("json_typed_event", stdout(&o));
}

#[test]
fn sarif_output_has_what_github_code_scanning_requires() {
    let o = lint_in(
        &fixtures(),
        &["--no-config", "--format", "sarif", "consts_cross_file"],
    );
    assert_eq!(o.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(doc["version"], "2.1.0");
    assert_eq!(
        doc["$schema"],
        "https://json.schemastore.org/sarif-2.1.0.json"
    );
    let run = &doc["runs"][0];
    assert_eq!(run["columnKind"], "unicodeCodePoints");
    let driver = &run["tool"]["driver"];
    assert_eq!(driver["name"], "mirrorless");
    let rules = driver["rules"].as_array().unwrap();
    assert_eq!(rules.len(), 9);
    for r in rules {
        for text in ["shortDescription", "fullDescription", "help"] {
            let t = r[text]["text"].as_str().unwrap();
            assert!(!t.is_empty() && t.len() <= if text == "help" { usize::MAX } else { 1024 });
        }
        assert!(
            r["help"]["markdown"]
                .as_str()
                .unwrap()
                .contains(r["id"].as_str().unwrap())
        );
        assert!(r["helpUri"].as_str().unwrap().ends_with(".md"));
        assert!(
            ["error", "warning", "note"]
                .contains(&r["defaultConfiguration"]["level"].as_str().unwrap())
        );
    }
    let results = run["results"].as_array().unwrap();
    assert!(!results.is_empty());
    for r in results {
        let id = r["ruleId"].as_str().unwrap();
        let index = r["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[index]["id"], id);
        assert!(!r["message"]["text"].as_str().unwrap().is_empty());
        let loc = &r["locations"][0]["physicalLocation"];
        assert!(
            !loc["artifactLocation"]["uri"]
                .as_str()
                .unwrap()
                .starts_with('/')
        );
        let region = &loc["region"];
        for k in ["startLine", "startColumn", "endLine", "endColumn"] {
            assert!(region[k].as_u64().unwrap() >= 1, "{k}");
        }
        assert_eq!(
            r["partialFingerprints"]["mirrorless/v1"]
                .as_str()
                .unwrap()
                .len(),
            16
        );
        assert!(
            r["partialFingerprints"]
                .get("primaryLocationLineHash")
                .is_none()
        );
    }
}

#[test]
fn github_annotations_are_escaped_and_capped() {
    let o = lint_in(
        &fixtures(),
        &["--no-config", "--format", "github", "consts_cross_file"],
    );
    let text = stdout(&o);
    insta::assert_snapshot!("github_consts", text);
    assert_eq!(
        text.lines().filter(|l| l.starts_with("::error ")).count(),
        10
    );
    assert!(
        text.contains("::notice title=mirrorless lint::9 more finding(s)"),
        "{text}"
    );
    // Property values escape `:` and `,`.
    for line in text.lines() {
        let props = line.split("::").nth(1).unwrap_or("");
        assert!(!props.contains(", ") && !props.contains(": "), "{line}");
    }
}

#[test]
fn explain_prints_a_rule_page() {
    let o = bin().args(["explain", "subscribe"]).output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).starts_with("# ML001 `subscribe`"));
    let o = bin().args(["explain", "ML404"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn baseline_accepts_old_findings_fails_new_ones_and_reports_stale_entries() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    write(
        d,
        "src/a.rs",
        "fn f(b: &Bus) {\n    b.on(\"agent/turn-start\", h);\n    b.on(\"agent/turn-end\", h);\n}\n",
    );
    let w = lint_in(d, &["--no-config", "--write-baseline", "baseline.json"]);
    assert_eq!(w.status.code(), Some(0), "{}", stderr(&w));
    assert!(stderr(&w).contains("wrote 2 finding(s)"));
    // Regenerating replaces the baseline; a file that is not one is never overwritten (a
    // source file named by mistake, or read as the option's value).
    let w = lint_in(d, &["--no-config", "--write-baseline", "baseline.json"]);
    assert_eq!(w.status.code(), Some(0), "{}", stderr(&w));
    let source = std::fs::read_to_string(d.join("src/a.rs")).unwrap();
    for victim in ["src/a.rs", "src"] {
        let w = lint_in(d, &["--no-config", "--write-baseline", victim, "src"]);
        assert_eq!(w.status.code(), Some(2), "{}", stderr(&w));
        assert!(
            stderr(&w).contains(&format!("refusing to write a baseline over {victim}")),
            "{}",
            stderr(&w)
        );
    }
    assert_eq!(std::fs::read_to_string(d.join("src/a.rs")).unwrap(), source);

    // Lines shift: still accepted.
    write(
        d,
        "src/a.rs",
        "// header\n\nfn f(b: &Bus) {\n    b.on(\"agent/turn-start\", h);\n    b.on(\"agent/turn-end\", h);\n}\n",
    );
    let o = lint_in(d, &["--no-config", "--baseline", "baseline.json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("2 accepted by the baseline"));

    // A new finding fails; a fixed one is reported as stale.
    write(
        d,
        "src/a.rs",
        "fn f(b: &Bus) {\n    b.on(\"agent/turn-start\", h);\n    b.emit(\"agent/step-end\", ());\n}\n",
    );
    let o = lint_in(
        d,
        &[
            "--no-config",
            "--baseline",
            "baseline.json",
            "--format",
            "json",
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let findings = doc["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 1);
    assert_eq!(findings[0]["event"], "agent/step-end");
    assert_eq!(doc["stale_baseline"].as_array().unwrap().len(), 1);
    assert_eq!(doc["stale_baseline"][0]["event"], "agent/turn-end");

    // A malformed baseline is a usage error, never an empty baseline.
    write(d, "bad.json", "{\"version\": 1");
    let o = lint_in(d, &["--no-config", "--baseline", "bad.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("invalid baseline bad.json"));
}

#[test]
fn new_since_reports_only_findings_added_after_the_revision() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let git = |args: &[&str]| {
        let s = Command::new("git")
            .args([
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@t",
                "-c",
                "commit.gpgsign=false",
            ])
            .args(args)
            .current_dir(d)
            .output()
            .unwrap();
        assert!(s.status.success(), "{}", String::from_utf8_lossy(&s.stderr));
    };
    git(&["init", "-q"]);
    write(
        d,
        "src/events.rs",
        "pub const TURN_START: &str = \"agent/turn-start\";\n",
    );
    write(
        d,
        "src/ui.rs",
        "fn f(b: &Bus) {\n    b.on(crate::events::TURN_START, h);\n}\n",
    );
    git(&["add", "."]);
    git(&["commit", "-qm", "old"]);
    write(
        d,
        "src/ui.rs",
        "// moved\nfn f(b: &Bus) {\n    b.on(crate::events::TURN_START, h);\n    b.emit(\"agent/step-end\", ());\n}\n",
    );
    let o = lint_in(
        d,
        &[
            "--no-config",
            "--new-since",
            "HEAD",
            "--format",
            "json",
            "src",
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let findings = doc["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert_eq!(findings[0]["event"], "agent/step-end");
    assert_eq!(doc["summary"]["preexisting"], 2, "{doc}");
    assert_eq!(doc["summary"]["baselined"], 0, "{doc}");
    let o = lint_in(d, &["--no-config", "--new-since", "no-such-rev"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no-such-rev"));
    // A revision that git would read as an option is refused before git sees it.
    let o = lint_in(d, &["--no-config", "--new-since=--output=stolen", "src"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("`--output=stolen` is not a revision"),
        "{}",
        stderr(&o)
    );
    assert!(!d.join("stolen").exists());
}

#[test]
fn bad_files_get_clear_messages_and_the_rest_is_still_linted() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    write(
        d,
        "ok.rs",
        "fn f(b: &Bus) { b.on(\"agent/turn-start\", h); }\n",
    );
    std::fs::write(d.join("latin1.rs"), b"// caf\xe9\nfn f() {}\n").unwrap();
    std::os::unix::fs::symlink(d, d.join("loop")).unwrap();
    let o = lint_in(d, &["--no-config", "-L", "--color", "never"]);
    assert_eq!(o.status.code(), Some(2));
    let out = stdout(&o);
    assert!(out.contains("ok.rs:1:23"), "{out}");
    assert!(out.contains("latin1.rs:1: not valid UTF-8"), "{out}");
    assert!(out.contains("loop"), "{out}");
    assert!(!out.contains("panicked"));
}

/// `--follow` (`-L`): a link that leads nowhere, or back to a directory the walk is in, is
/// an error of its own, named by the link; everything else is still linted. (Until 0.1 a
/// dangling link refused the whole tree, reported as an ignore file that could not be applied.)
#[test]
fn links_that_cannot_be_followed_are_errors_of_their_own() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    write(
        d,
        "src/ok.rs",
        "fn f(b: &Bus) { b.on(\"agent/turn-start\", h); }\n",
    );
    std::os::unix::fs::symlink(d.join("missing.rs"), d.join("src/gone.rs")).unwrap();
    std::os::unix::fs::symlink(d.join("src"), d.join("src/back")).unwrap();
    let o = lint_in(d, &["--no-config", "-L", "--format", "json"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let findings = doc["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 1, "{doc}");
    assert_eq!(findings[0]["path"], "src/ok.rs", "{doc}");
    let mut errors: Vec<(String, String)> = doc["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["path"].as_str().unwrap().to_owned(),
                e["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    errors.sort();
    assert_eq!(errors.len(), 2, "{doc}");
    assert_eq!(errors[0].0, "src/back", "{doc}");
    assert!(errors[0].1.contains("loop"), "{doc}");
    assert_eq!(errors[1].0, "src/gone.rs", "{doc}");
    assert!(errors[1].1.contains("No such file"), "{doc}");
}

#[test]
fn configuration_errors_name_the_file() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    write(d, "mirrorless.toml", "[lint]\nsevrity = 1\n");
    write(d, "a.rs", "fn f() {}\n");
    let o = lint_in(d, &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("mirrorless.toml"), "{}", stderr(&o));
    write(d, "mirrorless.toml", "[lint.severity]\nML077 = \"off\"\n");
    let o = lint_in(d, &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("ML077"));
    write(
        d,
        "Cargo.toml",
        "[workspace.metadata.mirrorless.lint]\nignore-receivers = [\"app\"]\n",
    );
    std::fs::remove_file(d.join("mirrorless.toml")).unwrap();
    write(
        d,
        "a.rs",
        "fn f(app: &App) { app.emit(\"agent/turn-start\", ()); }\n",
    );
    let o = lint_in(d, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}

#[test]
fn help_teaches_with_examples() {
    let o = bin().args(["lint", "--help"]).output().unwrap();
    let text = stdout(&o);
    assert!(text.contains("Examples:") && text.contains("--new-since origin/main"));
    assert!(text.contains("ML001 subscribe"));
}

#[test]
fn configuration_is_found_from_the_linted_path() {
    // Run from the repository root: the fixture's own mirrorless.toml still applies.
    let o = lint_in(
        &repo(),
        &["--format", "json", "fixtures/lint/rust/foreign_bus"],
    );
    assert_eq!(o.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(doc["findings"].as_array().unwrap().len(), 1, "{doc}");
}

#[test]
fn a_directory_named_explicitly_is_linted_even_if_excluded() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    write(
        d,
        "mirrorless.toml",
        "[lint]\nexclude = [\"generated/**\"]\n",
    );
    write(
        d,
        "generated/bus.rs",
        "fn f(bus: &Bus) { bus.on(\"agent/turn-start\", |_| {}); }\n",
    );
    // Walking from the root, `exclude` prunes the directory.
    let o = lint_in(d, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    // Naming it asks for it, like naming a file.
    let o = lint_in(d, &["generated"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stdout(&o).contains("agent/turn-start"), "{}", stdout(&o));
}
