//! Issue #31, item 11: a replayed script that cannot be played within the case limits is
//! refused before it is played, naming the limit and the option that raises it, never blamed
//! on the implementation; with an out-of-process implementation as with the embedded one, and
//! whatever the limit (calls, events, bytes). What a fault prints of a case stays bounded.

use std::process::Command;

/// A case of `prompts` prompts, each one model call of one `finish` chunk.
fn case_file(dir: &std::path::Path, prompts: usize) -> String {
    let actions: Vec<serde_json::Value> = (0..prompts)
        .map(|i| {
            serde_json::json!({
                "action": "prompt",
                "text": format!("prompt {i}"),
                "calls": [{ "chunks": [{ "type": "finish", "reason": { "kind": "stop" } }] }],
            })
        })
        .collect();
    let case = serde_json::json!({ "profile": "2026-08", "script": { "actions": actions } });
    let path = dir.join("case.json");
    std::fs::write(&path, case.to_string()).expect("write");
    path.to_str().expect("utf-8").to_owned()
}

#[test]
fn a_script_over_the_case_limits_is_refused_before_it_is_played() {
    let exe = env!("CARGO_BIN_EXE_mirrorless");
    // (prompts, limit options, the flag named, out of process)
    let shapes: &[(usize, &[&str], &str, bool)] = &[
        (1_001, &[], "--max-case-calls 1000", false),
        (1_001, &[], "--max-case-calls 1000", true),
        (4, &["--max-case-calls", "3"], "--max-case-calls 3", true),
        (
            11,
            &["--max-case-events", "10"],
            "--max-case-events 10",
            true,
        ),
        (
            4,
            &["--max-case-bytes", "100"],
            "--max-case-bytes 100",
            true,
        ),
    ];
    for &(prompts, limits, flag, stdio) in shapes {
        let dir = tempfile::tempdir().expect("tempdir");
        let case = case_file(dir.path(), prompts);
        let mut args = vec!["replay", case.as_str()];
        args.extend(limits);
        if stdio {
            args.extend(["--", exe, "reference-impl", "--stdio"]);
        }
        let o = Command::new(exe)
            .args(&args)
            .output()
            .expect("run mirrorless");
        let out = format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        let what = format!("{prompts} prompts, {limits:?}, stdio {stdio}: {out}");
        assert_eq!(o.status.code(), Some(2), "{what}");
        assert!(
            out.contains("cannot be played within the case limits"),
            "{what}"
        );
        assert!(out.contains(flag), "{what}");
        assert!(
            !out.contains("does it"),
            "blamed on the implementation: {what}"
        );
        assert!(out.len() < 16 * 1024, "{} bytes printed: {what}", out.len());
    }
    // Within the limits, the same script is played.
    let dir = tempfile::tempdir().expect("tempdir");
    let case = case_file(dir.path(), 3);
    let o = Command::new(exe)
        .args([
            "replay",
            &case,
            "--max-case-calls",
            "3",
            "--",
            exe,
            "reference-impl",
            "--stdio",
        ])
        .output()
        .expect("run mirrorless");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}
