//! The pre-commit hooks of `.pre-commit-hooks.yaml` as pre-commit runs them: the hook's
//! `entry`, then the staged file names. A file name that looks like an option (a committed
//! executable named `--write-baseline`, typed as JavaScript by its `#!` line) must be linted or
//! checked as a file, and nothing may be overwritten.

use serde_norway::Value;
use std::path::Path;

/// Names that are options of `lint` or `check` when read as options: writing a baseline over
/// the next file, rewriting files, printing help instead of linting.
const HOSTILE: [&str; 4] = ["--write-baseline", "--fix", "--unsafe-fixes", "-h"];

const STALE: &str = "bus.on(\"agent/stream-chunk\", (c) => log(c));\n";

fn hooks() -> Vec<Value> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(".pre-commit-hooks.yaml");
    let text = std::fs::read_to_string(&path).expect("read .pre-commit-hooks.yaml");
    let doc: Value = serde_norway::from_str(&text).expect(".pre-commit-hooks.yaml parses");
    doc.as_sequence().expect("a list of hooks").clone()
}

/// `entry` as pre-commit runs it (split at spaces, the first word on PATH), with `names`
/// appended, in `dir`.
fn run_entry(entry: &str, names: &[&str], dir: &Path) -> std::process::Output {
    let mut words = entry.split_whitespace();
    assert_eq!(words.next(), Some("mirrorless"), "entry {entry:?}");
    crate::common::mirrorless_command()
        .args(words)
        .args(names)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("run mirrorless")
}

#[test]
fn every_hook_given_file_names_ends_its_options_first() {
    let mut given_names = 0;
    for hook in hooks() {
        let id = hook["id"].as_str().expect("id").to_owned();
        let entry = hook["entry"].as_str().expect("entry").to_owned();
        if hook["pass_filenames"].as_bool() == Some(false) {
            // pre-commit appends nothing: the user's `args:` are options, as documented.
            assert!(!entry.ends_with(" --"), "{id}: {entry}");
            continue;
        }
        given_names += 1;
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir(dir.path().join("src")).expect("mkdir");
        for name in HOSTILE {
            std::fs::write(
                dir.path().join(name),
                format!("#!/usr/bin/env node\n{STALE}"),
            )
            .expect("write");
        }
        let app = dir.path().join("src/app.ts");
        std::fs::write(&app, STALE).expect("write");
        let mut names: Vec<&str> = HOSTILE.to_vec();
        names.push("src/app.ts");
        let out = run_entry(&entry, &names, dir.path());
        let all = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            std::fs::read_to_string(&app).expect("read app.ts"),
            STALE,
            "{id}: src/app.ts was overwritten\n{all}"
        );
        assert!(
            std::fs::read_dir(dir.path()).expect("ls").count() == HOSTILE.len() + 1,
            "{id}: a file was created\n{all}"
        );
        assert!(
            !all.contains("Usage:"),
            "{id}: -h was read as an option\n{all}"
        );
        for name in HOSTILE {
            assert!(
                all.contains(&format!("{name}:")) || all.contains(&format!("{name} ")),
                "{id}: {name} was not treated as a file\n{all}"
            );
        }
        assert!(
            all.contains("src/app.ts"),
            "{id}: src/app.ts not read\n{all}"
        );
    }
    assert!(given_names >= 2, "the file-name hooks were not found");
}

#[test]
fn a_hook_given_file_names_lints_them_like_any_path() {
    let hook = hooks()
        .into_iter()
        .find(|h| h["id"].as_str() == Some("mirrorless-lint-files"))
        .expect("the mirrorless-lint-files hook");
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("--write-baseline.ts"), STALE).expect("write");
    let entry = hook["entry"].as_str().expect("entry");
    let out = run_entry(entry, &["--write-baseline.ts"], dir.path());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("--> --write-baseline.ts:1:") && stdout.contains("[ML001]"),
        "{stdout}"
    );
}
