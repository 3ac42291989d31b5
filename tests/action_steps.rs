//! The GitHub Action (`action.yml`) as the runner runs it: its metadata (inputs, the actions it
//! calls) and its shell steps run with `bash -eo pipefail`, the inputs in the environment the
//! way the steps map them, and the debug binary on `PATH`. (The same steps with the release
//! binary and the packaging are in `xtask/tests/packages.rs`.)
#![cfg(unix)]

use serde_norway::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn action() -> Value {
    let text = std::fs::read_to_string(root().join("action.yml")).expect("read action.yml");
    serde_norway::from_str(&text).expect("action.yml parses")
}

/// The `run` script of the step whose `id` is `id`.
fn step(id: &str) -> String {
    let doc = action();
    let steps = doc["runs"]["steps"].as_sequence().expect("runs.steps");
    let found = steps
        .iter()
        .find(|s| s["id"].as_str() == Some(id))
        .unwrap_or_else(|| panic!("action.yml has no step {id}"));
    let script = found["run"].as_str().expect("a run step").to_owned();
    assert!(
        !script.contains("${{"),
        "step {id}: expressions belong in env, not in the script"
    );
    script
}

struct StepRun {
    code: Option<i32>,
    output: String,
    outputs: String,
}

fn run_step(id: &str, dir: &Path, env: &[(&str, &str)]) -> StepRun {
    let outputs = dir.join("github_output");
    std::fs::write(&outputs, "").expect("write GITHUB_OUTPUT");
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_mirrorless"));
    let path = std::env::join_paths(
        std::iter::once(bin.parent().expect("bin dir").to_path_buf()).chain(std::env::split_paths(
            &std::env::var_os("PATH").unwrap_or_default(),
        )),
    )
    .expect("PATH");
    let mut cmd = Command::new("bash");
    cmd.args(["--noprofile", "--norc", "-eo", "pipefail", "-c", &step(id)])
        .current_dir(dir)
        .env("GITHUB_OUTPUT", &outputs)
        .env("GITHUB_ACTION_PATH", root())
        .env("RUNNER_TEMP", dir)
        .env("PATH", path)
        .env("NO_COLOR", "1")
        // The runner's own summary and docs link, when these tests run on GitHub.
        .env_remove("GITHUB_STEP_SUMMARY")
        .env_remove("MIRRORLESS_DOCS_URL");
    for (key, value) in env {
        cmd.env(key, value);
    }
    let out = cmd.output().expect("run bash");
    StepRun {
        code: out.status.code(),
        output: format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
        outputs: std::fs::read_to_string(&outputs).expect("read GITHUB_OUTPUT"),
    }
}

#[test]
fn no_input_is_both_required_and_defaulted() {
    let doc = action();
    let inputs = doc["inputs"].as_mapping().expect("inputs");
    assert!(inputs.len() >= 5);
    for (name, input) in inputs {
        let required = input["required"].as_bool().unwrap_or(false);
        let defaulted = input.get("default").is_some_and(|d| !d.is_null());
        assert!(
            !(required && defaulted),
            "input {name:?} is required and has a default: the default is never used"
        );
    }
}

#[test]
fn every_action_the_action_calls_is_pinned_by_commit_sha() {
    let text = std::fs::read_to_string(root().join("action.yml")).expect("read action.yml");
    let mut pinned = 0;
    for line in text.lines() {
        let Some(rest) = line.trim_start().strip_prefix("uses:") else {
            let t = line.trim_start().strip_prefix("- ").unwrap_or_default();
            assert!(!t.starts_with("uses:"), "{line}");
            continue;
        };
        let (reference, comment) = rest.split_once(" # ").unwrap_or((rest, ""));
        let sha = reference.trim().rsplit_once('@').map_or("", |(_, r)| r);
        assert!(
            sha.len() == 40 && sha.bytes().all(|b| b.is_ascii_hexdigit()),
            "not pinned by a commit SHA: {line}"
        );
        assert!(
            comment.trim().starts_with('v'),
            "the pinned tag belongs in a comment: {line}"
        );
        pinned += 1;
    }
    assert!(pinned >= 2, "no `uses:` found in action.yml");
}

#[test]
fn the_default_version_is_the_actions_own_and_a_pinned_sha_needs_no_input() {
    let dir = tempfile::tempdir().expect("tempdir");
    // No ref at all (a SHA pin gives the runner no tag): the version is read from the
    // action's checkout.
    let r = run_step(
        "resolve",
        dir.path(),
        &[("COMMAND", "lint"), ("VERSION", "")],
    );
    assert_eq!(
        (r.code, r.outputs.as_str()),
        (
            Some(0),
            format!("version={}\n", env!("CARGO_PKG_VERSION")).as_str()
        ),
        "{}",
        r.output
    );
    for (input, resolved) in [
        ("v0.2.0", "0.2.0"),
        ("1.2.3-rc.1", "1.2.3-rc.1"),
        ("source", "source"),
    ] {
        let r = run_step(
            "resolve",
            dir.path(),
            &[("COMMAND", "run"), ("VERSION", input)],
        );
        assert_eq!(
            (r.code, r.outputs.as_str()),
            (Some(0), format!("version={resolved}\n").as_str()),
            "{input}: {}",
            r.output
        );
    }
}

#[test]
fn a_version_that_is_not_a_release_number_is_refused_before_it_is_written_anywhere() {
    let dir = tempfile::tempdir().expect("tempdir");
    for bad in [
        "0.1.0\nversion=source",
        "0.1.0\n",
        "../../../evil/releases/download/v1.0.0",
        "0.1.0/../../x",
        "1.0",
        "latest",
        "0.1.0 --base-url https://evil.invalid",
    ] {
        let r = run_step(
            "resolve",
            dir.path(),
            &[("COMMAND", "lint"), ("VERSION", bad)],
        );
        assert_eq!(r.code, Some(2), "{bad:?}: {}", r.output);
        assert_eq!(r.outputs, "", "{bad:?}: an output was written");
        assert!(
            r.output
                .contains("the version input must be a release such as 0.1.0"),
            "{bad:?}: {}",
            r.output
        );
        assert_eq!(r.output.lines().count(), 1, "{bad:?}: {}", r.output);
    }
}

#[test]
fn a_bad_command_or_files_for_run_is_a_clear_error_that_forges_no_workflow_command() {
    let dir = tempfile::tempdir().expect("tempdir");
    let r = run_step(
        "resolve",
        dir.path(),
        &[("COMMAND", "fmt\n::warning::forged"), ("VERSION", "0.1.0")],
    );
    assert_eq!(r.code, Some(2), "{}", r.output);
    assert!(
        r.output
            .contains("command must be lint, check or run, not 'fmt???warning??forged'"),
        "{}",
        r.output
    );
    assert!(
        !r.output.lines().any(|l| l.starts_with("::warning")),
        "{}",
        r.output
    );
    let r = run_step(
        "resolve",
        dir.path(),
        &[
            ("COMMAND", "run"),
            ("VERSION", "0.1.0"),
            ("FILES", "a.ts\n"),
        ],
    );
    assert_eq!(r.code, Some(2), "{}", r.output);
    assert!(
        r.output.contains("the files input is for lint and check"),
        "{}",
        r.output
    );
}

const STALE: &str = "bus.on(\"agent/stream-chunk\", (c) => log(c));\n";

#[test]
fn files_are_passed_after_the_options_end_and_never_split() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    std::fs::create_dir(d.join("src")).expect("mkdir");
    std::fs::write(d.join("src/app.ts"), STALE).expect("write");
    std::fs::write(
        d.join("--write-baseline"),
        format!("#!/usr/bin/env node\n{STALE}"),
    )
    .expect("write");
    std::fs::write(d.join("two words.ts"), STALE).expect("write");
    let r = run_step(
        "run",
        d,
        &[
            ("COMMAND", "lint"),
            ("ARGS", "--no-config"),
            ("FILES", "--write-baseline\r\nsrc/app.ts\n\ntwo words.ts\n"),
        ],
    );
    assert_eq!(
        std::fs::read_to_string(d.join("src/app.ts")).expect("read"),
        STALE,
        "src/app.ts was overwritten: {}",
        r.output
    );
    assert_eq!(r.code, Some(0), "{}", r.output);
    // `--write-baseline` has no front end (a file error: status 2); the others were linted.
    assert!(r.outputs.contains("exit-code=2\n"), "{}", r.outputs);
    let sarif = std::fs::read_to_string(d.join("mirrorless-lint.sarif")).expect("SARIF");
    assert!(
        sarif.contains("src/app.ts") && sarif.contains("two%20words.ts"),
        "{sarif}"
    );
    assert!(sarif.contains("--write-baseline"), "{sarif}");

    // The same files, all lintable, for check: names are log files, never options.
    std::fs::write(d.join("--help"), "").expect("write");
    let r = run_step("run", d, &[("COMMAND", "check"), ("FILES", "--help\n")]);
    assert!(!r.output.contains("Usage:"), "{}", r.output);
    assert!(r.output.contains("--help"), "{}", r.output);
}

#[test]
fn every_command_appends_its_markdown_to_the_step_summary_and_keeps_its_status() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let summary = d.join("step_summary.md");
    let summary_env = summary.to_str().expect("a UTF-8 temp path");
    std::fs::create_dir(d.join("src")).expect("mkdir");
    std::fs::write(d.join("src/app.ts"), STALE).expect("write");
    let invalid = root().join("fixtures/check/2026-08/invalid/MSG-3-content-differs.jsonl");
    let invalid = invalid.to_str().expect("UTF-8");
    let cases: [(&str, &str, &str, &str, &str); 3] = [
        (
            "lint",
            "--no-config",
            "src/app.ts\n",
            "## mirrorless lint: ❌ findings",
            "1",
        ),
        (
            "check",
            "",
            invalid,
            "## mirrorless check: ❌ violates the spec",
            "1",
        ),
        (
            "run",
            "--no-corpus",
            "",
            "## mirrorless run: ✅ conformant",
            "0",
        ),
    ];
    for (command, args, files, heading, status) in cases {
        let _ = std::fs::remove_file(&summary);
        let env = [
            ("COMMAND", command),
            ("ARGS", args),
            ("FILES", files),
            ("GITHUB_STEP_SUMMARY", summary_env),
            ("ACTION_REPOSITORY", "OWNER/mirrorless"),
            ("ACTION_REF", "v0.1.0"),
            (
                "ACTION_DOCS",
                "https://github.com/OWNER/mirrorless/blob/v0.1.0/docs/",
            ),
        ];
        let r = run_step("run", d, &env);
        assert_eq!(r.code, Some(0), "{command}: {}", r.output);
        assert!(
            r.outputs.contains(&format!("exit-code={status}\n")),
            "{command}: {}",
            r.outputs
        );
        let md = std::fs::read_to_string(&summary)
            .unwrap_or_else(|e| panic!("{command} wrote no summary ({e}): {}", r.output));
        assert!(md.starts_with(heading), "{command}: {md}");
        assert_eq!(
            md.matches("## mirrorless ").count(),
            1,
            "{command}: once: {md}"
        );
        // The IDs link to the action's own docs.
        assert!(
            md.contains("](https://github.com/OWNER/mirrorless/blob/v0.1.0/docs/"),
            "{command}: {md}"
        );
        // The primary outputs are unchanged: SARIF and annotations for lint, the human
        // report for check, JUnit for run.
        match command {
            "lint" => {
                assert!(r.output.contains("::error file=src/app.ts"), "{}", r.output);
                let sarif =
                    std::fs::read_to_string(d.join("mirrorless-lint.sarif")).expect("SARIF");
                assert!(sarif.contains("\"version\": \"2.1.0\""), "{sarif}");
            }
            "check" => assert!(r.output.contains("error[MSG-3]"), "{}", r.output),
            _ => {
                let junit = std::fs::read_to_string(d.join("mirrorless-junit.xml")).expect("JUnit");
                assert!(junit.starts_with("<?xml"), "{junit}");
                assert!(!r.output.contains("## mirrorless"), "{}", r.output);
            }
        }
    }
    // Without a step summary (outside GitHub) nothing is appended anywhere and nothing fails.
    let _ = std::fs::remove_file(&summary);
    let r = run_step("run", d, &[("COMMAND", "check"), ("FILES", invalid)]);
    assert!(r.outputs.contains("exit-code=1\n"), "{}", r.outputs);
    assert!(!summary.exists());
}
