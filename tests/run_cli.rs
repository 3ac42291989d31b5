//! `mirrorless run` and `mirrorless replay` from the command line: exit codes, formats, the
//! corpus, and clear errors for bad input.

use std::path::Path;
use std::process::Command;

fn mirrorless(args: &[&str], cwd: &Path) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mirrorless"))
        .args(args)
        .current_dir(cwd)
        .env_remove("CI")
        .output()
        .expect("the mirrorless binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Replaces the timing-dependent numbers of a human report.
fn redact(text: &str) -> String {
    text.lines()
        .map(|l| match l.find(" cases/s") {
            Some(end) => {
                let start = l[..end].rfind(' ').map_or(0, |s| s + 1);
                format!("{}[rate]{}", &l[..start], &l[end..])
            }
            None => l.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_reference_conforms_in_ci_mode() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (code, stdout, stderr) = mirrorless(&["run", "--ci", "--cases", "300"], dir.path());
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(stderr.contains("(CI mode)"), "{stderr}");
    insta::assert_snapshot!("run_ci_human", redact(&stdout));
}

#[test]
fn the_seed_reproduces_a_run() {
    let dir = tempfile::tempdir().expect("tempdir");
    let run = |seed: &str| {
        let (code, stdout, _) = mirrorless(
            &[
                "run",
                "--seed",
                seed,
                "--cases",
                "50",
                "--format",
                "json",
                "--no-corpus",
            ],
            dir.path(),
        );
        assert_eq!(code, 0);
        let v: serde_json::Value = serde_json::from_str(&stdout).expect("json report");
        assert_eq!(v["conformant"], true);
        assert_eq!(v["report"]["seed"], seed.parse::<u64>().expect("u64"));
        v["report"]["profiles"][0]["requirements"].clone()
    };
    assert_eq!(run("42"), run("42"));
}

#[test]
fn junit_has_one_test_case_per_requirement_and_profile() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (code, stdout, _) = mirrorless(
        &[
            "run",
            "--ci",
            "--cases",
            "300",
            "--format",
            "junit",
            "--no-corpus",
        ],
        dir.path(),
    );
    assert_eq!(code, 0);
    assert!(stdout.starts_with("<?xml"));
    assert_eq!(stdout.matches("<testsuite ").count(), 2);
    assert!(stdout.contains("name=\"CHUNK-1 One durable chunk per stream chunk\""));
    assert!(
        stdout
            .contains("name=\"STEER-1 Steering is recorded where the profile places it\"><skipped")
    );
    assert!(!stdout.contains("<failure"), "{stdout}");
}

#[test]
fn too_few_cases_fail_as_not_exercised() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (code, stdout, _) = mirrorless(
        &[
            "run",
            "--seed",
            "1",
            "--cases",
            "1",
            "--profile",
            "2026-08",
            "--no-corpus",
        ],
        dir.path(),
    );
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("never exercised"), "{stdout}");
}

#[test]
fn replay_runs_a_case_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let case = r#"{
  "profile": "2026-07",
  "script": { "actions": [
    { "action": "prompt", "text": "hi", "calls": [ { "chunks": [
      { "type": "block-start", "index": 0, "blockType": "text" },
      { "type": "text-delta", "index": 0, "text": "hello" },
      { "type": "finish", "reason": { "kind": "stop" } }
    ], "interrupt": { "after": 1, "kind": "cancel" } } ] }
  ] }
}"#;
    std::fs::write(dir.path().join("case.json"), case).expect("write");
    let (code, stdout, stderr) = mirrorless(&["replay", "case.json", "--log"], dir.path());
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    insta::assert_snapshot!("replay_cancel_2026_07", stdout);
}

#[test]
fn a_bad_case_file_is_a_usage_error_naming_file_and_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("bad.json"),
        "{\n  \"profile\": \"2026-07\",\n  \"script\": [\n}",
    )
    .expect("write");
    let (code, _, stderr) = mirrorless(&["replay", "bad.json"], dir.path());
    assert_eq!(code, 2);
    assert!(stderr.contains("bad.json:4:"), "{stderr}");

    std::fs::write(
        dir.path().join("unplayable.json"),
        r#"{"profile":"2026-08","script":{"actions":[{"action":"inject","text":"x"}]}}"#,
    )
    .expect("write");
    let (code, _, stderr) = mirrorless(&["replay", "unplayable.json"], dir.path());
    assert_eq!(code, 2);
    assert!(stderr.contains("unplayable.json: the script cannot be played: action 0: `inject` exists only under 2026-07"), "{stderr}");
}

#[test]
fn a_broken_corpus_file_is_reported_and_the_run_goes_on() {
    let dir = tempfile::tempdir().expect("tempdir");
    let corpus = dir.path().join("corpus");
    std::fs::create_dir_all(&corpus).expect("mkdir");
    std::fs::write(corpus.join("broken.json"), "not json").expect("write");
    std::fs::write(
        corpus.join("ok.json"),
        r#"{"profile":"2026-08","script":{"actions":[{"action":"dispose"}]}}"#,
    )
    .expect("write");
    let (code, stdout, stderr) = mirrorless(
        &["run", "--ci", "--cases", "300", "--corpus", "corpus"],
        dir.path(),
    );
    assert_eq!(code, 2, "{stdout}\n{stderr}");
    assert!(
        stderr.contains("broken.json:1:2: not a case file"),
        "{stderr}"
    );
    assert!(
        stdout.contains("2026-08: conformant — 301 cases (300 generated, 1 from the corpus)"),
        "{stdout}"
    );
}

#[test]
fn an_external_command_that_does_not_start_is_a_harness_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (code, _, stderr) = mirrorless(&["run", "--", "python3", "impl.py"], dir.path());
    assert_eq!(code, 2);
    assert!(
        stderr.contains("`python3 impl.py` did not complete the `hello` handshake"),
        "{stderr}"
    );
    assert!(stderr.contains("impl.py"), "{stderr}");
}

#[test]
fn help_teaches() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (code, stdout, _) = mirrorless(&["run", "--help"], dir.path());
    assert_eq!(code, 0);
    insta::assert_snapshot!("run_help", stdout);
}

#[test]
fn the_case_file_schema_is_json() {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/run/case.schema.json"),
    )
    .expect("the schema exists");
    let schema: serde_json::Value = serde_json::from_str(&text).expect("the schema is JSON");
    assert_eq!(schema["required"], serde_json::json!(["profile", "script"]));
}
