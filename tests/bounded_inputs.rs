//! Inputs that never end or are far too large are refused in bounded time and memory, with an
//! error naming the file: `lint --config /dev/zero`, `lint --baseline /dev/zero`.

mod common;

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
