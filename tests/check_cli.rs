//! `mirrorless check` end to end: exit codes, the human and JSON reports, several logs,
//! unreadable files, live traces. Reports are pinned with insta file snapshots.

use std::path::Path;
use std::process::{Command, Output};

fn mirrorless(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mirrorless"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("NO_COLOR")
        .output()
        .expect("run mirrorless")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn conforming_logs_exit_0() {
    let o = mirrorless(&[
        "check",
        "--profile",
        "2026-08",
        "fixtures/check/2026-08/valid/parallel-tools-inbox.jsonl",
        "fixtures/check/2026-08/valid/subagent-packed-hooks.jsonl",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    insta::assert_snapshot!("human_conforming", stdout(&o));
}

#[test]
fn a_violation_exits_1_with_rule_line_and_window() {
    let o = mirrorless(&[
        "check",
        "--profile",
        "2026-08",
        "fixtures/check/2026-08/invalid/CHUNK-2-usage-after-finish.jsonl",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(out.contains("error[CHUNK-2]"), "{out}");
    assert!(!out.contains('\x1b'), "no color when not on a terminal");
    insta::assert_snapshot!("human_violation", out);
}

#[test]
fn warnings_alone_exit_0() {
    let o = mirrorless(&[
        "check",
        "--profile",
        "2026-07",
        "fixtures/check/2026-07/invalid/MSG-3-content-differs.jsonl",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("warning[MSG-3]"));
}

#[test]
fn json_report_is_documented_shape() {
    let o = mirrorless(&[
        "check",
        "--format",
        "json",
        "fixtures/check/2026-08/invalid/MSG-1-provenance-cites-other-event.jsonl",
        "fixtures/check/2026-07/valid/steering.jsonl",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let mut report: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(report["exit_code"], 1);
    assert_eq!(report["summary"]["violating"], 1);
    assert_eq!(report["files"][1]["profile"], "2026-07");
    assert_eq!(report["files"][1]["profile_source"], "detected");
    report["version"] = "[version]".into();
    insta::assert_json_snapshot!("json_report", report);
}

#[test]
fn an_unreadable_file_exits_2_and_the_others_are_still_checked() {
    let o = mirrorless(&[
        "check",
        "--profile",
        "2026-08",
        "fixtures/check/does-not-exist.jsonl",
        "fixtures/check/2026-08/invalid/TURN-4-open-tail.jsonl",
    ]);
    assert_eq!(o.status.code(), Some(2), "2 wins over 1");
    let out = stdout(&o);
    assert!(
        out.contains("cannot read fixtures/check/does-not-exist.jsonl"),
        "{out}"
    );
    assert!(out.contains("error[TURN-4]"), "{out}");
    assert!(out.contains("1 violate, 1 unreadable"), "{out}");
}

#[test]
fn bad_input_is_reported_with_file_and_line() {
    let o = mirrorless(&["check", "fixtures/check/bad-input/not-json-line.jsonl"]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(
        out.contains("fixtures/check/bad-input/not-json-line.jsonl:4"),
        "{out}"
    );
}

#[test]
fn live_traces_are_checked_with_the_logs() {
    let o = mirrorless(&[
        "check",
        "--profile",
        "2026-08",
        "--live",
        "fixtures/check/live/2026-08/invalid/MIRROR-1-emits-stream-chunk.jsonl",
        "fixtures/check/2026-08/valid/text-turn-no-seq.jsonl",
    ]);
    assert_eq!(o.status.code(), Some(1));
    insta::assert_snapshot!("human_live_mirror", stdout(&o));
}

#[test]
fn usage_errors_exit_2() {
    let o = mirrorless(&["check", "--profile", "2026-09", "x.jsonl"]);
    assert_eq!(o.status.code(), Some(2));
    let o = mirrorless(&["check"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn help_teaches_with_examples() {
    let o = mirrorless(&["check", "--help"]);
    let out = stdout(&o);
    assert!(
        out.contains("Examples:") && out.contains("Exit status"),
        "{out}"
    );
    assert!(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("docs/check/README.md")
            .exists()
    );
}

#[test]
fn standard_input_is_a_log() {
    use std::io::Write;
    use std::process::Stdio;
    let log = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/check/2026-08/invalid/TURN-4-open-tail.jsonl"),
    )
    .expect("fixture");
    let mut child = Command::new(env!("CARGO_BIN_EXE_mirrorless"))
        .args(["check", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(&log)
        .expect("write");
    let o = child.wait_with_output().expect("wait");
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(
        out.contains("error[TURN-4]") && out.contains("--> <stdin>:2"),
        "{out}"
    );
}

#[test]
fn deny_warnings_makes_a_warning_exit_1() {
    let o = mirrorless(&[
        "check",
        "--deny-warnings",
        "--profile",
        "2026-07",
        "fixtures/check/2026-07/invalid/MSG-3-content-differs.jsonl",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stdout(&o).contains("warning[MSG-3]"));
}
