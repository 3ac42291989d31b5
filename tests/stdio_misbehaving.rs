//! Misbehaving implementations over the stdio protocol: each one gives a clear report (the
//! case, the last lines exchanged, the stderr tail) and exit status 2 — a harness fault is
//! never reported as an implementation failure — and none of them hangs the suite.

use std::process::Command;
use std::time::{Duration, Instant};

/// Runs `mirrorless run` with short timeouts against a misbehaving fixture; returns the exit
/// status, stderr and how long it took.
fn run(fixture: &str, extra: &[&str]) -> (i32, String, Duration) {
    let started = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_mirrorless"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["run", "--ci", "--no-corpus", "--cases", "4"])
        .args([
            "--startup-timeout",
            "1",
            "--message-timeout",
            "1",
            "--case-timeout",
            "3",
        ])
        .args(["--", "python3"])
        .arg(format!("fixtures/impls/misbehaving/{fixture}"))
        .args(extra)
        .output()
        .expect("mirrorless runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        started.elapsed(),
    )
}

/// Replaces every 16-hex-digit case id with `[case-id]`: ids follow the generator, which
/// this test does not pin.
fn redact_case_ids(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let run = chars[i..]
            .iter()
            .take_while(|c| c.is_ascii_hexdigit())
            .count();
        let bounded = (i == 0 || !chars[i - 1].is_ascii_alphanumeric())
            && chars
                .get(i + run)
                .is_none_or(|c| !c.is_ascii_alphanumeric());
        if run == 16 && bounded {
            out.push_str("[case-id]");
            i += run;
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}

/// The fault report without the generated case (long, and pinned elsewhere).
fn report(stderr: &str) -> String {
    redact_case_ids(stderr)
        .lines()
        .filter(|l| !l.starts_with("  the case: "))
        .collect::<Vec<_>>()
        .join("\n")
        .replace(
            &format!("\"suite\":\"{}\"", env!("CARGO_PKG_VERSION")),
            "\"suite\":\"[version]\"",
        )
}

fn check(fixture: &str, must_contain: &[&str]) {
    let (code, stderr, took) = run(fixture, &[]);
    assert_eq!(code, 2, "{fixture}: exit status\n{stderr}");
    for needle in must_contain {
        assert!(
            stderr.contains(needle),
            "{fixture}: missing {needle:?} in\n{stderr}"
        );
    }
    assert!(took < Duration::from_secs(20), "{fixture} took {took:?}");
    let name = fixture.trim_end_matches(".py");
    insta::assert_snapshot!(format!("misbehaving_{name}"), report(&stderr));
}

#[test]
fn a_crash_mid_case_names_the_case_the_exit_status_and_stderr() {
    check(
        "crash-mid-case.py",
        &[
            "(profile 2026-07)",
            "exited with status 3",
            "fatal: the tokenizer ran out of memory",
            "the case: {",
        ],
    );
}

#[test]
fn a_hang_is_cut_off_by_the_message_timeout() {
    check(
        "hang.py",
        &[
            "sent nothing for 1 s (--message-timeout)",
            "waiting for a model",
        ],
    );
}

#[test]
fn a_case_that_never_ends_is_cut_off_by_the_case_timeout() {
    check(
        "chatty.py",
        &["the case did not finish within 3 s (--case-timeout)"],
    );
}

#[test]
fn garbage_on_stdout_is_shown_verbatim() {
    check(
        "garbage-stdout.py",
        &["not a protocol message", "< Loading model weights... 42%"],
    );
}

#[test]
fn half_a_line_then_exit_is_reported_as_an_unterminated_line() {
    check(
        "half-line.py",
        &["unterminated line `{\"type\":\"append\",\"event\":{\"type\":\"turn/st`"],
    );
}

#[test]
fn a_wrong_protocol_version_is_refused_at_the_handshake() {
    check(
        "wrong-version.py",
        &["speaks protocol `mirrorless-stdio/0`, the harness speaks `mirrorless-stdio/1`"],
    );
}

#[test]
fn a_slow_start_is_cut_off_by_the_startup_timeout() {
    check(
        "slow-start.py",
        &[
            "no answer within 1 s (--startup-timeout)",
            "warming up caches",
        ],
    );
}

#[test]
fn a_command_that_does_not_exist_is_a_usage_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_mirrorless"))
        .args(["run", "--", "/nonexistent/mirrorless-impl"])
        .output()
        .expect("mirrorless runs");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("cannot start `/nonexistent/mirrorless-impl`"),
        "{stderr}"
    );
}

#[test]
fn a_crash_reported_over_the_protocol_is_an_implementation_failure() {
    let (code, stderr, _) = run("declared-crash.py", &[]);
    assert_eq!(code, 1, "{stderr}");
    let out = Command::new(env!("CARGO_BIN_EXE_mirrorless"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["run", "--ci", "--no-corpus", "--cases", "4", "--no-shrink"])
        .args([
            "--",
            "python3",
            "fixtures/impls/misbehaving/declared-crash.py",
        ])
        .output()
        .expect("mirrorless runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(
            "the implementation reported a crash: TypeError: cannot read properties of undefined"
        ),
        "{stdout}"
    );
}

#[test]
fn validate_protocol_turns_a_schema_violation_into_a_protocol_fault() {
    let (code, stderr, _) = run("schema-violation.py", &[]);
    assert_ne!(code, 2, "without validation the run goes on: {stderr}");
    let out = Command::new(env!("CARGO_BIN_EXE_mirrorless"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "run",
            "--ci",
            "--no-corpus",
            "--cases",
            "4",
            "--validate-protocol",
        ])
        .args([
            "--",
            "python3",
            "fixtures/impls/misbehaving/schema-violation.py",
        ])
        .output()
        .expect("mirrorless runs");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "a message breaks the protocol schema: `event` lacks the required field `seq`"
        ),
        "{stderr}"
    );
}
