//! `mirrorless lint` never loses a finding and never skips silently (issue 11), run as a user
//! runs it: the real binary on generated trees.

use std::path::Path;
use std::process::{Command, Output};

fn lint_in(dir: &Path, args: &[&str]) -> Output {
    crate::common::mirrorless_command()
        .env_remove("GITHUB_STEP_SUMMARY")
        .env("NO_COLOR", "1")
        .arg("lint")
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

/// Everything the run printed, both streams.
fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn write(dir: &Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn git(dir: &Path, args: &[&str]) {
    let s = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@t"])
        .args(["-c", "commit.gpgsign=false"])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(s.status.success(), "{}", String::from_utf8_lossy(&s.stderr));
}

#[test]
fn every_finding_on_a_line_survives_allows_and_off_rules() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let line = "bus.on('agent/turn-start', a); bus.emit('agent/turn-start', x)";
    write(d, "a.ts", &format!("{line}\n"));
    write(
        d,
        "b.ts",
        &format!("{line} // mirrorless: allow(ML001) bridged\n"),
    );
    let o = lint_in(d, &["--no-config", "--format", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let rules: Vec<(String, String)> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["path"].as_str().unwrap().to_owned(),
                f["rule"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let pair = |p: &str, r: &str| (p.to_owned(), r.to_owned());
    assert_eq!(
        rules,
        [
            pair("a.ts", "ML001"),
            pair("a.ts", "ML002"),
            pair("b.ts", "ML002")
        ]
    );
    write(
        d,
        "mirrorless.toml",
        "[lint.severity]\nsubscribe = \"off\"\n",
    );
    std::fs::remove_file(d.join("b.ts")).unwrap();
    let o = lint_in(d, &["--format", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(doc["findings"][0]["rule"], "ML002", "{doc}");
}

#[test]
fn new_since_refuses_a_path_outside_the_repository() {
    let repo = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    git(repo.path(), &["init", "-q"]);
    write(repo.path(), "a.ts", "export {}\n");
    git(repo.path(), &["add", "."]);
    git(repo.path(), &["commit", "-qm", "init"]);
    write(outside.path(), "x.ts", "bus.on('agent/turn-start', a)\n");
    let abs = outside.path().join("x.ts");
    let o = lint_in(
        repo.path(),
        &["--no-config", "--new-since", "HEAD", abs.to_str().unwrap()],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("outside the repository"), "{}", text(&o));
    // Inside the repository the same file is new since HEAD.
    write(repo.path(), "x.ts", "bus.on('agent/turn-start', a)\n");
    let o = lint_in(repo.path(), &["--no-config", "--new-since", "HEAD", "x.ts"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
}

#[test]
fn silent_skips_are_reported() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    write(d, "ok.ts", "bus.on('agent/turn-start', a)\n");

    // A FIFO named on the command line is reported, never read (reading would block).
    let fifo = d.join("pipe.ts");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let o = lint_in(d, &["--no-config", "pipe.ts", "ok.ts"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("pipe.ts"), "{}", text(&o));
    assert!(text(&o).contains("FIFO"), "{}", text(&o));
    assert!(text(&o).contains("ok.ts:1:9"), "{}", text(&o));
    std::fs::remove_file(&fifo).unwrap();

    // A .gitignore that excludes everything below a named directory.
    write(d, "src/.gitignore", "*\n");
    write(d, "src/a.ts", "bus.on('agent/turn-start', a)\n");
    let o = lint_in(d, &["--no-config", "src"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("excluded by .gitignore"), "{}", text(&o));

    // An unknown top-level table in mirrorless.toml.
    write(d, "mirrorless.toml", "[lnt]\nexclude = [\"x\"]\n");
    let o = lint_in(d, &["ok.ts"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("mirrorless.toml"), "{}", text(&o));
    assert!(text(&o).contains("lnt"), "{}", text(&o));
}

// The deep shapes `lint/tests/robust.rs` checks in-process, here through the binary.
use crate::shapes;

/// Code too deep to parse, of every shape, is one ML009 per file through `lint` and `lint
/// --fix` (never an abort, exit 134), the deep files are left as they are, and the other
/// files' findings stay. Each file is just past the limit ([`shapes::just_over`]): the
/// refusal is the same as five times deeper (`lint/tests/robust.rs` lints the shapes at twice
/// the limit and more in-process), at a fifth of the bytes or less.
#[test]
fn deep_code_of_every_shape_is_one_error_through_lint_and_fix() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let code: Vec<&shapes::Shape> = shapes::RUST.iter().chain(shapes::SCRIPT).collect();
    for shape in &code {
        write(d, shape.name, &(shape.make)(shapes::just_over(shape)));
    }
    for shape in shapes::MARKDOWN {
        write(d, shape.name, &(shape.make)(60_000));
    }
    write(d, "ok.ts", shapes::TS_SUB);
    let o = lint_in(d, &["--no-config", "--format", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let findings = doc["findings"].as_array().unwrap();
    let of = |name: &str, rule: &str| {
        findings
            .iter()
            .filter(|f| f["path"] == name && f["rule"] == rule)
            .count()
    };
    for shape in &code {
        assert_eq!(of(shape.name, "ML009"), 1, "{}", shape.name);
    }
    for shape in shapes::MARKDOWN {
        assert_eq!(of(shape.name, "ML001"), 1, "{}", shape.name);
    }
    assert_eq!(of("ok.ts", "ML001"), 1);

    let before: Vec<String> = code
        .iter()
        .map(|s| std::fs::read_to_string(d.join(s.name)).unwrap())
        .collect();
    let o = lint_in(d, &["--no-config", "--fix"]);
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", text(&o));
    assert!(text(&o).contains("ML009"), "{}", text(&o));
    assert!(text(&o).contains("ok.ts:1:"), "{}", text(&o));
    for (shape, text) in code.iter().zip(before) {
        assert_eq!(
            std::fs::read_to_string(d.join(shape.name)).unwrap(),
            text,
            "{}",
            shape.name
        );
    }
}

/// Flat code without semicolons, twice as many lines of each shape as the depth limit, is
/// parsed and linted through the binary like any file (issue 19: it was refused as nested too
/// deeply): one ML001 per file, no ML009. Were a line (or half a line) counted as a level, the
/// files would be refused.
#[test]
fn flat_code_without_semicolons_is_linted_through_the_binary() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let lines = 2 * mirrorless_lint::frontend::depth::MAX_DEPTH + 1;
    for shape in shapes::FLAT {
        write(d, shape.name, &(shape.make)(lines));
    }
    let o = lint_in(d, &["--no-config", "--format", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let findings = doc["findings"].as_array().unwrap();
    for shape in shapes::FLAT {
        let rules: Vec<&str> = findings
            .iter()
            .filter(|f| f["path"] == shape.name)
            .filter_map(|f| f["rule"].as_str())
            .collect();
        assert_eq!(rules, ["ML001"], "{}", shape.name);
    }
}
