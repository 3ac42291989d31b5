//! The fixed Rust compiles: every Rust fix fixture written against the host stub
//! (`fixtures/lint/fix/*.rs` importing `agent_host`, and each directory case whose
//! `src/lib.rs` is a crate using it) is type-checked with `cargo check --offline`, together
//! with its `.fixed.rs` and `.unsafe.rs` expectations, against the stub in
//! `tests/rust_host/` (which has no dependencies). Unused imports are errors, so a rewrite that
//! leaves an import behind fails too. `tests/fix_fixtures.rs` pins that the expectations are
//! what `--fix` writes.

use std::path::{Path, PathBuf};
use std::process::Command;

fn fixtures() -> PathBuf {
    std::fs::canonicalize("../fixtures/lint/fix").unwrap()
}

/// Inputs written against the stub, and their expectations that exist.
fn checked_files() -> Vec<(String, PathBuf)> {
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(fixtures())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            name.ends_with(".rs") && !name.contains(".fixed.") && !name.contains(".unsafe.")
        })
        .filter(|p| {
            std::fs::read_to_string(p)
                .unwrap()
                .contains("use agent_host::")
        })
        .collect();
    inputs.sort();
    let mut out = Vec::new();
    for input in inputs {
        let stem = input.file_stem().unwrap().to_string_lossy().into_owned();
        for kind in ["", ".fixed", ".unsafe"] {
            let file = input.with_file_name(format!("{stem}{kind}.rs"));
            if file.is_file() {
                out.push((format!("{stem}{}", kind.replace('.', "_")), file));
            }
        }
    }
    out
}

/// Directory cases that are crates written against the stub: for each, the crate's files as
/// they are before the fix and, per expectation kind that exists, after it (`(name, [(path
/// inside src/, file to read)])`).
fn checked_crates() -> Vec<(String, Vec<(PathBuf, PathBuf)>)> {
    let mut cases: Vec<PathBuf> = std::fs::read_dir(fixtures())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("src/lib.rs").is_file())
        .collect();
    cases.sort();
    let mut out = Vec::new();
    for case in cases {
        let src = case.join("src");
        let mut inputs: Vec<PathBuf> = std::fs::read_dir(&src)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "rs"))
            .collect();
        inputs.sort();
        let expectation = |input: &Path, kind: &str| {
            let stem = input.file_stem().unwrap().to_string_lossy().into_owned();
            input.with_file_name(format!("{stem}{kind}.rs"))
        };
        let (expectations, inputs): (Vec<PathBuf>, Vec<PathBuf>) =
            inputs.into_iter().partition(|p| {
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                name.contains(".fixed.") || name.contains(".unsafe.")
            });
        let uses_stub = inputs.iter().any(|p| {
            std::fs::read_to_string(p)
                .unwrap()
                .contains("use agent_host::")
        });
        if !uses_stub {
            continue;
        }
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        for kind in ["", ".fixed", ".unsafe"] {
            if !kind.is_empty()
                && !inputs
                    .iter()
                    .any(|i| expectations.contains(&expectation(i, kind)))
            {
                continue;
            }
            let files = inputs
                .iter()
                .map(|i| {
                    let want = expectation(i, kind);
                    let read = if !kind.is_empty() && want.is_file() {
                        want
                    } else {
                        i.clone()
                    };
                    (PathBuf::from(i.file_name().unwrap()), read)
                })
                .collect();
            out.push((format!("{name}{}", kind.replace('.', "_")), files));
        }
    }
    out
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[test]
fn rust_fix_fixtures_compile_before_and_after_the_fix() {
    let files = checked_files();
    let inputs = files
        .iter()
        .filter(|(m, _)| !m.ends_with("_fixed") && !m.ends_with("_unsafe"))
        .count();
    assert!(
        inputs >= 2,
        "Rust fix fixtures against the stub missing: {files:?}"
    );
    assert!(
        files.len() > inputs,
        "no .fixed/.unsafe Rust expectation to check: {files:?}"
    );

    let crates = checked_crates();
    assert!(
        crates.iter().any(|(n, _)| n.ends_with("_unsafe")),
        "no directory case with an expectation to check: {crates:?}"
    );

    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("rust-fix-compiles");
    let _ = std::fs::remove_dir_all(&dir);
    let stub = std::fs::canonicalize("tests/rust_host/src/lib.rs").unwrap();
    let members: String = crates.iter().map(|(n, _)| format!(", \"{n}\"")).collect();
    write(
        &dir.join("Cargo.toml"),
        &format!(
            "[workspace]\nmembers = [\"agent_host\", \"checked\"{members}]\nresolver = \"2\"\n"
        ),
    );
    for (name, files) in &crates {
        write(
            &dir.join(name).join("Cargo.toml"),
            &format!(
                "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n[dependencies]\nagent_host = {{ path = \"../agent_host\" }}\n"
            ),
        );
        for (rel, from) in files {
            let mut text = std::fs::read_to_string(from).unwrap();
            if rel == Path::new("lib.rs") {
                text.insert_str(
                    0,
                    "#![allow(dead_code, unused_variables)]\n#![deny(unused_imports)]\n",
                );
            }
            write(&dir.join(name).join("src").join(rel), &text);
        }
    }
    write(
        &dir.join("agent_host/Cargo.toml"),
        &format!(
            "[package]\nname = \"agent_host\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n[lib]\npath = {:?}\n",
            stub.display().to_string()
        ),
    );
    write(
        &dir.join("checked/Cargo.toml"),
        "[package]\nname = \"checked\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n[dependencies]\nagent_host = { path = \"../agent_host\" }\n",
    );
    let mut lib =
        String::from("#![allow(dead_code, unused_variables)]\n#![deny(unused_imports)]\n");
    for (module, file) in &files {
        lib.push_str(&format!(
            "#[path = {:?}]\nmod {module};\n",
            file.display().to_string()
        ));
    }
    write(&dir.join("checked/src/lib.rs"), &lib);

    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let out = Command::new(cargo)
        .args([
            "check",
            "--offline",
            "--quiet",
            "--message-format",
            "short",
            "--target-dir",
        ])
        .arg(dir.join("target"))
        .current_dir(&dir)
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "the Rust fix fixtures do not all compile against tests/rust_host:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
