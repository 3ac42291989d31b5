//! Inputs that never end or are far too large are refused in bounded time and memory, with an
//! error naming the file: `lint --config /dev/zero`, `lint --baseline /dev/zero`.

use crate::common;

use std::process::Output;
use std::time::Duration;

/// Runs mirrorless, failing (instead of hanging or exhausting memory) after 60 s.
fn mirrorless_within_deadline(args: &[&str]) -> Output {
    common::mirrorless_within(args, Duration::from_secs(60))
}

fn all_output(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[cfg(unix)]
#[test]
fn an_endless_configuration_is_refused_naming_it() {
    let o = mirrorless_within_deadline(&["lint", "--config", "/dev/zero", "fixtures/lint/ts"]);
    assert_eq!(o.status.code(), Some(2), "{}", all_output(&o));
    let out = all_output(&o);
    assert!(
        out.contains("cannot read configuration /dev/zero: larger than the"),
        "{out}"
    );
}

#[cfg(unix)]
#[test]
fn an_endless_baseline_is_refused_naming_it() {
    let o = mirrorless_within_deadline(&["lint", "--baseline", "/dev/zero", "fixtures/lint/ts"]);
    assert_eq!(o.status.code(), Some(2), "{}", all_output(&o));
    let out = all_output(&o);
    assert!(
        out.contains("cannot read baseline /dev/zero: larger than the"),
        "{out}"
    );
}

#[test]
fn a_configuration_that_is_not_utf8_names_the_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("mirrorless.toml");
    std::fs::write(&path, b"[lint]\n\xff\n").expect("write");
    let arg = path.to_string_lossy();
    let o = mirrorless_within_deadline(&["lint", "--config", &arg, "fixtures/lint/ts"]);
    assert_eq!(o.status.code(), Some(2));
    let out = all_output(&o);
    assert!(
        out.contains(&*arg) && out.contains("not valid UTF-8"),
        "{out}"
    );
}

/// Issue #31, item 3: `report`, `replay` and `check` of a device are refused at once, naming it (the
/// old size check passed a device, which has no size, and read it until memory ran out).
#[cfg(unix)]
#[test]
fn report_and_replay_refuse_a_device_naming_it() {
    for args in [
        &["report", "/dev/zero"][..],
        &["replay", "/dev/zero"][..],
        &["check", "/dev/zero"][..],
    ] {
        let o = mirrorless_within_deadline(args);
        let out = all_output(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {out}");
        assert!(
            out.contains("/dev/zero: not a regular file"),
            "{args:?}: {out}"
        );
    }
}

/// Issue #31, items 3 and 6: a report whose implementation name is 16 MiB renders, in both
/// formats, to a bounded page that still starts with its verdict and table.
#[test]
fn report_clips_a_huge_implementation_name_in_every_format() {
    let dir = tempfile::tempdir().expect("tempdir");
    let run =
        mirrorless_within_deadline(&["run", "--cases", "4", "--no-corpus", "--format", "json"]);
    let mut report: serde_json::Value = serde_json::from_slice(&run.stdout).expect("JSON report");
    let huge = "\u{202e}@octocat<b>".repeat(16 << 20 >> 4);
    report["report"]["implementation"] = serde_json::Value::String(huge.clone());
    report["report"]["hello"] = serde_json::json!({ "name": huge, "version": huge });
    let path = dir.path().join("huge.json");
    std::fs::write(&path, serde_json::to_vec(&report).expect("JSON")).expect("write");
    let path = path.to_str().expect("utf-8 path");
    for format in ["markdown", "html"] {
        let o = mirrorless_within_deadline(&["report", "--format", format, path]);
        assert_eq!(o.status.code(), Some(0), "{format}: {}", all_output(&o));
        assert!(
            o.stdout.len() < 256 * 1024,
            "{format}: {} bytes",
            o.stdout.len()
        );
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(!out.contains('\u{202e}'), "{format}: a raw bidi control");
        let head: String = out.chars().take(4096).collect();
        assert!(
            head.contains("mirrorless conformance matrix"),
            "{format}: {head}"
        );
        assert!(out.contains("MIRROR-1"), "{format}: the table is missing");
    }
}
