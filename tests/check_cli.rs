//! `mirrorless check` end to end: exit codes, the human and JSON reports, several logs,
//! unreadable files, live traces. Reports are pinned with insta file snapshots.

use crate::common;

use common::mirrorless;
use std::path::Path;
use std::process::{Command, Output};

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
    let mut child = crate::common::mirrorless_command()
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

/// Runs mirrorless and fails (instead of hanging) if it does not finish within 30 s.
#[cfg(unix)]
fn mirrorless_within_deadline(args: &[&str]) -> Output {
    common::mirrorless_within(args, std::time::Duration::from_secs(30))
}

/// A FIFO at `dir/name` fed with `content` by a background thread.
#[cfg(unix)]
fn fifo_with(dir: &Path, name: &str, content: Vec<u8>) -> std::path::PathBuf {
    let path = dir.join(name);
    let made = Command::new("mkfifo").arg(&path).status().expect("mkfifo");
    assert!(made.success());
    let writer = path.clone();
    std::thread::spawn(move || {
        if let Ok(mut f) = std::fs::OpenOptions::new().write(true).open(&writer) {
            use std::io::Write;
            let _ = f.write_all(&content);
        }
    });
    path
}

#[cfg(unix)]
#[test]
fn a_fifo_is_read_once_and_its_context_lines_come_from_that_pass() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let log = std::fs::read(root.join("fixtures/check/2026-08/invalid/SEQ-1-gap.jsonl"))
        .expect("fixture");
    let trace = std::fs::read(
        root.join("fixtures/check/live/2026-08/invalid/MIRROR-1-emits-stream-chunk.jsonl"),
    )
    .expect("fixture");
    let log_fifo = fifo_with(dir.path(), "log", log);
    let live_fifo = fifo_with(dir.path(), "live", trace);
    let (log_arg, live_arg) = (log_fifo.to_string_lossy(), live_fifo.to_string_lossy());
    let o = mirrorless_within_deadline(&["check", "--live", &live_arg, &log_arg]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    // The window shows the line before, the line and the line after the finding.
    assert!(
        out.contains("4 |> {\"type\":\"assistant/chunk\",\"seq\":3"),
        "{out}"
    );
    assert!(out.contains("3 |  {\"type\":\"step/start\""), "{out}");
    assert!(
        out.contains("5 |  {\"type\":\"assistant/chunk\",\"seq\":4"),
        "{out}"
    );
    assert!(out.contains("error[MIRROR-1]"), "{out}");
}

#[test]
fn control_characters_from_the_input_are_escaped_in_the_human_report() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("esc.jsonl");
    let header = r#"{"type":"session","version":0,"id":"s"}"#;
    let bad = "{\"type\":\"x\u{1b}[2J\u{1b}[31mred\r\nforged\",\"seq\":0,\"time\":1,\"data\":{}}";
    let junk = "not json \u{1b}]0;title\u{7}\u{202e}txt";
    std::fs::write(&path, format!("{header}\n{bad}\n{junk}\n")).expect("write");
    let o = mirrorless(&["check", "--color", "never", &path.to_string_lossy()]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(
        !out.contains('\u{1b}') && !out.contains('\u{7}') && !out.contains('\r'),
        "{out:?}"
    );
    assert!(!out.contains('\u{202e}'), "{out:?}");
    assert!(out.contains("\\u{1b}]0;title\\u{7}\\u{202e}txt"), "{out}");
    // JSON keeps the exact text (JSON escapes it).
    let o = mirrorless(&["check", "--format", "json", &path.to_string_lossy()]);
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let messages = report["files"][0]["findings"].to_string();
    assert!(messages.contains("\\u001b]0;title"), "{messages}");
}

#[test]
fn a_byte_order_mark_is_named() {
    let o = mirrorless(&[
        "check",
        "fixtures/check/2026-08/invalid/LOG-1-byte-order-mark.jsonl",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(
        out.contains("error[LOG-1]: the line starts with a UTF-8 byte order mark"),
        "{out}"
    );
    assert!(
        out.contains("1 error, 0 warnings [LOG-1]"),
        "one finding, no cascade: {out}"
    );
}

#[test]
fn a_directory_is_searched_for_logs_in_a_stable_order() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/check/2026-08");
    let logs = dir.path().join("logs");
    std::fs::create_dir_all(logs.join("b/deep")).expect("mkdir");
    std::fs::create_dir_all(logs.join("ignored")).expect("mkdir");
    let copy = |from: &str, to: &str| {
        std::fs::copy(root.join(from), logs.join(to)).expect("copy");
    };
    copy("valid/cancel-interrupted.jsonl", "a.jsonl");
    copy("invalid/SEQ-1-gap.jsonl", "b/deep/z.jsonl");
    copy("invalid/TURN-4-open-tail.jsonl", "b/c.jsonl");
    copy("invalid/SEQ-1-gap.jsonl", "ignored/x.jsonl");
    std::fs::write(logs.join("notes.txt"), "not a log").expect("write");
    std::fs::write(logs.join(".gitignore"), "ignored/\n").expect("write");
    let arg = logs.to_string_lossy();
    let o = mirrorless(&["check", "--format", "json", &arg]);
    assert_eq!(o.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let paths: Vec<String> = report["files"]
        .as_array()
        .expect("files")
        .iter()
        .map(|f| f["path"].as_str().expect("path").replace(&*arg, "LOGS"))
        .collect();
    assert_eq!(
        paths,
        ["LOGS/a.jsonl", "LOGS/b/c.jsonl", "LOGS/b/deep/z.jsonl"],
        "sorted, .gitignore honoured, only *.jsonl"
    );
    assert_eq!(report["summary"]["files"], 3);
    assert_eq!(report["summary"]["violating"], 2);
    // The same order, run after run, and per-file lines plus a total in the human report.
    for _ in 0..3 {
        let again = mirrorless(&["check", &arg]);
        let out = stdout(&again);
        let order: Vec<usize> = [
            "a.jsonl: conforms",
            "b/c.jsonl: violates",
            "z.jsonl: violates",
        ]
        .iter()
        .map(|s| out.find(s).unwrap_or_else(|| panic!("{s} in {out}")))
        .collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]), "{out}");
        assert!(
            out.contains("checked 3 files: 1 conform, 2 violate, 0 unreadable"),
            "{out}"
        );
    }
}

#[test]
fn a_directory_without_logs_is_an_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("readme.md"), "no logs here").expect("write");
    let arg = dir.path().to_string_lossy();
    let o = mirrorless(&["check", &arg]);
    assert_eq!(o.status.code(), Some(2));
    let out = stdout(&o);
    assert!(
        out.contains("no session logs (*.jsonl) below the directory"),
        "{out}"
    );
    assert!(out.contains(&*arg), "names the directory: {out}");
}

#[cfg(unix)]
#[test]
fn odd_file_names_are_kept_exact_in_json_and_escaped_in_human_output() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().expect("tempdir");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let name = std::ffi::OsStr::from_bytes(b"bad\xffname\nline\\2.jsonl");
    let path = dir.path().join(name);
    std::fs::copy(
        root.join("fixtures/check/2026-08/invalid/SEQ-1-gap.jsonl"),
        &path,
    )
    .expect("copy");
    let o = crate::common::mirrorless_command()
        .args(["check", "--format", "json"])
        .arg(&path)
        .output()
        .expect("run");
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let file = &report["files"][0];
    let bytes: Vec<u8> = file["path_bytes"]
        .as_array()
        .expect("path_bytes for a non-UTF-8 name")
        .iter()
        .map(|b| u8::try_from(b.as_u64().expect("byte")).expect("byte"))
        .collect();
    assert_eq!(bytes, path.as_os_str().as_bytes(), "exact bytes");
    let shown = file["path"].as_str().expect("path");
    assert!(
        shown.ends_with("bad\\xFFname\nline\\\\2.jsonl"),
        "{shown:?}"
    );
    let o = crate::common::mirrorless_command()
        .arg("check")
        .arg(&path)
        .output()
        .expect("run");
    let out = stdout(&o);
    assert!(
        out.contains("bad\\xFFname\\nline\\\\2.jsonl:4 (seq 3)"),
        "{out}"
    );
    assert!(
        !out.contains("name\nline"),
        "no raw newline from the name: {out}"
    );
    // A C1 CSI or a right-to-left override in a name is escaped in JSON, the value exact.
    let name = "csi\u{9b}2J\u{202e}x.jsonl";
    let path = dir.path().join(name);
    std::fs::copy(
        root.join("fixtures/check/2026-08/invalid/SEQ-1-gap.jsonl"),
        &path,
    )
    .expect("copy");
    let o = crate::common::mirrorless_command()
        .args(["check", "--format", "json"])
        .arg(&path)
        .output()
        .expect("run");
    let text = String::from_utf8(o.stdout).expect("UTF-8");
    assert!(
        !text.contains('\u{9b}') && !text.contains('\u{202e}') && text.contains("\\u009b"),
        "{text}"
    );
    let report: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    assert!(
        report["files"][0]["path"]
            .as_str()
            .is_some_and(|p| p.ends_with(name)),
        "{report}"
    );
    // A UTF-8 name has no `path_bytes`.
    let o = mirrorless(&[
        "check",
        "--format",
        "json",
        "fixtures/check/2026-08/invalid/SEQ-1-gap.jsonl",
    ]);
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert!(report["files"][0].get("path_bytes").is_none());
}

#[test]
fn a_directory_of_recordings_checks_its_live_traces_as_live_traces() {
    let o = mirrorless(&["check", "fixtures/check/2026-08/upstream"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(
        out.contains("adapter-throw/live.jsonl: conforms (0 errors, 0 warnings; live trace of"),
        "{out}"
    );
    assert!(
        out.contains("adapter-throw/session.jsonl: conforms"),
        "{out}"
    );
}
