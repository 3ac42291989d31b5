//! File names that are not UTF-8 or hold control characters, in `lint` reports: exact in
//! JSON and SARIF (a lossless escaped text plus the bytes), escaped on the terminal. (`check`
//! is covered in `tests/check_cli.rs`.)
#![cfg(unix)]

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;

/// A directory holding one TypeScript file with a finding, under an odd name.
fn odd_file() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = OsStr::from_bytes(b"plug\xffin\nx\\y.ts");
    let path = dir.path().join(name);
    std::fs::write(&path, "bus.on(\"agent/stream-chunk\", (c) => log(c));\n").expect("write");
    (dir, path)
}

fn lint(args: &[&str], path: &PathBuf) -> std::process::Output {
    crate::common::mirrorless_command()
        .arg("lint")
        .args(args)
        .arg(path)
        .output()
        .expect("run mirrorless")
}

#[test]
fn json_keeps_a_non_utf8_name_exact() {
    let (_dir, path) = odd_file();
    let o = lint(&["--format", "json"], &path);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let finding = &report["findings"][0];
    let bytes: Vec<u8> = finding["path_bytes"]
        .as_array()
        .expect("path_bytes")
        .iter()
        .map(|b| u8::try_from(b.as_u64().expect("byte")).expect("byte"))
        .collect();
    assert_eq!(bytes, path.as_os_str().as_bytes());
    let text = finding["path"].as_str().expect("path");
    assert!(text.ends_with("plug\\xFFin\nx\\\\y.ts"), "{text:?}");
}

#[test]
fn sarif_percent_encodes_the_bytes() {
    let (_dir, path) = odd_file();
    let o = lint(&["--format", "sarif"], &path);
    let sarif: serde_json::Value = serde_json::from_slice(&o.stdout).expect("SARIF");
    let location =
        &sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
    let uri = location["uri"].as_str().expect("uri");
    assert!(uri.starts_with("file:///"), "{uri}");
    assert!(uri.ends_with("plug%FFin%0Ax%5Cy.ts"), "{uri}");
    assert!(
        location["properties"]["path_bytes"].is_array(),
        "{location}"
    );
}

#[test]
fn the_terminal_never_sees_a_raw_newline_from_a_name() {
    let (_dir, path) = odd_file();
    let o = lint(&["--color", "never"], &path);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("plug\\\\xFFin\\nx\\\\\\\\y.ts"), "{out}");
    assert!(!out.contains("in\nx"), "{out}");
}

#[test]
fn an_ordinary_name_has_no_path_bytes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("plugin.ts");
    std::fs::write(&path, "bus.on(\"agent/stream-chunk\", (c) => log(c));\n").expect("write");
    let o = lint(&["--format", "json"], &path);
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert!(report["findings"][0].get("path_bytes").is_none());
    assert!(
        report["findings"][0]["path"]
            .as_str()
            .expect("path")
            .ends_with("plugin.ts")
    );
}

/// A name holding an OSC hyperlink, a colour escape, a C1 CSI (U+009B), BEL, DEL and a
/// right-to-left override: no output format lets one of them reach a terminal raw.
#[test]
fn no_format_prints_a_raw_control_character_from_a_name() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "a\u{1b}]8;;id=x;x.invalid\u{7}b\u{1b}[31m\u{9b}2J\u{7f}\u{202e}c.ts";
    let path = dir.path().join(name);
    std::fs::write(&path, "bus.on(\"agent/stream-chunk\", (c) => log(c));\n").expect("write");
    let raw = |c: char| (c.is_control() && c != '\n') || ('\u{202a}'..='\u{202e}').contains(&c);
    for format in ["human", "github", "json", "sarif", "rdjson", "rdjsonl"] {
        let o = lint(&["--format", format, "--color", "never"], &path);
        assert_eq!(o.status.code(), Some(1), "{format}");
        let out = String::from_utf8(o.stdout).expect("UTF-8");
        let bad: Vec<char> = out.chars().filter(|&c| raw(c)).collect();
        assert!(bad.is_empty(), "{format}: raw {bad:?} in\n{out}");
        if format == "github" {
            assert!(out.contains("\\u{1b}]8;;"), "{out}");
        }
        if format.contains("json") || format == "sarif" {
            // Escaped, not altered: the JSON still decodes to the exact name.
            assert!(
                out.contains("\\u009b") && out.contains("\\u202e"),
                "{format}: {out}"
            );
            let first = out.lines().next().unwrap_or_default();
            let doc: serde_json::Value = if format == "rdjsonl" {
                serde_json::from_str(first).expect("JSON line")
            } else {
                serde_json::from_str(&out).expect("JSON")
            };
            assert!(doc.to_string().contains('\u{9b}'), "{format}: {doc}");
        }
    }
}
