//! The Rust crates under `docs/examples/` work as a user copies them: each is copied out of the
//! tree into a temporary directory, the dependency line its comment asks the user to point at
//! their checkout of mirrorless is pointed at this one (the only edit), and `cargo test
//! --offline` runs there. Every test the crate's `suite!` expands to must run and pass, and a
//! profile the crate does not select must be ignored, not passed.
//!
//! The copies build in the workspace's own target directory (the one this test binary was
//! built in), with the workspace's `debug` setting: the crates the suite depends on are the
//! ones `cargo test` just built, reused rather than compiled again in a directory of their own
//! (issue #32 item 5). Cargo holds no lock on it while tests run; the tests take turns.

use mirrorless_conformance::suite::macros::SUITE_REQUIREMENTS;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The line of an example's `Cargo.toml` the user must edit, and the comment that says so.
const IN_TREE_PATH: &str = r#"path = "../../../conformance""#;
const POINT_HERE: &str = "# Point this at your checkout of mirrorless";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Copies the example's files (not a `target/` or `Cargo.lock` left by an in-tree build).
fn copy_example(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from)
        .into_iter()
        .filter_entry(|e| e.file_name() != "target")
    {
        let entry = entry.unwrap_or_else(|e| panic!("walking {}: {e}", from.display()));
        let rel = entry.path().strip_prefix(from).unwrap_or(entry.path());
        let dest = to.join(rel);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&dest)
                .unwrap_or_else(|e| panic!("creating {}: {e}", dest.display()));
        } else if entry.file_name() != "Cargo.lock" {
            std::fs::copy(entry.path(), &dest).unwrap_or_else(|e| {
                panic!(
                    "copying {} to {}: {e}",
                    entry.path().display(),
                    dest.display()
                )
            });
        }
    }
}

/// What the user does after copying: point the marked dependency at their checkout.
fn point_at_checkout(manifest: &Path) {
    let text = std::fs::read_to_string(manifest)
        .unwrap_or_else(|e| panic!("reading {}: {e}", manifest.display()));
    assert!(
        text.contains(POINT_HERE),
        "{}: no comment telling the user where to point the suite",
        manifest.display()
    );
    assert!(
        text.contains(IN_TREE_PATH),
        "{}: no `{IN_TREE_PATH}` dependency",
        manifest.display()
    );
    let checkout = root().join("conformance");
    let pointed = text.replace(
        IN_TREE_PATH,
        &format!("path = {:?}", checkout.display().to_string()),
    );
    std::fs::write(manifest, pointed)
        .unwrap_or_else(|e| panic!("writing {}: {e}", manifest.display()));
}

/// The target directory this test binary was built in (`<target>/debug/deps/rust_examples-…`),
/// or the workspace's `target/` when the binary is elsewhere.
fn target_dir() -> PathBuf {
    std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.parent()?.parent()?.to_path_buf()))
        .filter(|dir| dir.join("debug").is_dir())
        .unwrap_or_else(|| root().join("target"))
}

/// Copies `docs/examples/<name>` out, runs `cargo test --offline` there and returns its
/// standard output (the test harness's); it must pass.
fn test_as_copied(name: &str) -> String {
    let (passed, stdout) = run_copied(name, |_| {});
    assert!(
        passed,
        "docs/examples/{name}, copied out, fails `cargo test --offline`:\n{stdout}"
    );
    stdout
}

/// Copies `docs/examples/<name>` out, lets `edit` change the copy, runs `cargo test --offline`
/// there and returns whether it passed and everything it printed.
fn run_copied(name: &str, edit: impl FnOnce(&Path)) -> (bool, String) {
    // One at a time: every copy of an example builds to the same artifact names in the shared
    // target directory (cargo hashes a workspace root by its relative path), so a copy edited by
    // one test would replace the test binary another test is about to run.
    static SHARED_TARGET: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _one_at_a_time = SHARED_TARGET
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let tmp = tempfile::Builder::new()
        .prefix("mirrorless-example-")
        .tempdir()
        .expect("a temporary directory");
    let dir = tmp.path().join(name);
    copy_example(&root().join("docs/examples").join(name), &dir);
    point_at_checkout(&dir.join("Cargo.toml"));
    edit(&dir);
    // The versions this workspace is tested with, so that `--offline` finds every crate.
    std::fs::copy(root().join("Cargo.lock"), dir.join("Cargo.lock")).expect("copying Cargo.lock");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let mut command = Command::new(cargo);
    command
        .args(["test", "--offline", "--target-dir"])
        .arg(target_dir())
        .current_dir(&dir)
        // The workspace's `[profile.dev]` (Cargo.toml), which a copy outside it does not read:
        // with it, the third-party crates the copy shares with the workspace have the same
        // hashes and are not built again.
        .args(workspace_dev_profile())
        // Built once and never edited there: incremental compilation would only add its cost
        // (about 40 % on a cold build of `mirrorless-conformance`).
        .env("CARGO_INCREMENTAL", "0")
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("MIRRORLESS_CORPUS");
    for (key, _) in std::env::vars_os() {
        if key.to_string_lossy().starts_with("PROPTEST_") {
            command.env_remove(key);
        }
    }
    let out = command
        .output()
        .unwrap_or_else(|e| panic!("running cargo test in {}: {e}", dir.display()));
    let printed = format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), printed)
}

/// The workspace's `[profile.dev]` table, every setting as a `--config` argument
/// (`profile.dev.package."memchr".opt-level=3`, …).
fn workspace_dev_profile() -> Vec<String> {
    fn flatten(prefix: &str, table: &toml::Table, out: &mut Vec<String>) {
        for (key, value) in table {
            let key = format!("{prefix}.{}", toml::Value::from(key.as_str()));
            match value {
                toml::Value::Table(inner) => flatten(&key, inner, out),
                value => out.extend(["--config".to_owned(), format!("{key}={value}")]),
            }
        }
    }
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).expect("Cargo.toml");
    let manifest: toml::Table = manifest.parse().expect("Cargo.toml is TOML");
    let dev = manifest
        .get("profile")
        .and_then(|p| p.get("dev"))
        .and_then(toml::Value::as_table)
        .expect("the workspace has a [profile.dev]");
    let mut out = Vec::new();
    flatten("profile.dev", dev, &mut out);
    out
}

/// The `test result:` line of the one test binary that runs tests.
fn result_line(stdout: &str) -> &str {
    stdout
        .lines()
        .rfind(|l| l.starts_with("test result:") && !l.contains(" 0 passed"))
        .unwrap_or_else(|| panic!("no test ran:\n{stdout}"))
}

/// `suite!`'s tests: one per requirement, `coverage`, `no_crash`, and one per profile.
fn suite_tests() -> usize {
    SUITE_REQUIREMENTS.len() + 2 + mirrorless_conformance::Profile::ALL.len()
}

#[test]
fn the_rust_suite_example_passes_when_copied() {
    let stdout = test_as_copied("rust-suite");
    let want = format!(
        "test result: ok. {} passed; 0 failed; 0 ignored;",
        suite_tests()
    );
    assert!(result_line(&stdout).starts_with(&want), "{want}\n{stdout}");
}

#[test]
fn the_tokio_example_passes_its_profile_and_skips_the_other_when_copied() {
    let stdout = test_as_copied("rust-tokio");
    // Ignored: the 2026-07 profile's test and those of the requirements of 2026-07 alone.
    let only_2026_07 = mirrorless_conformance::registry::REQUIREMENTS
        .iter()
        .filter(|r| {
            SUITE_REQUIREMENTS.contains(&r.id)
                && r.applies_to(mirrorless_conformance::Profile::V2026_07)
                && !r.applies_to(mirrorless_conformance::Profile::V2026_08)
        })
        .count();
    let ignored = 1 + only_2026_07;
    let want = format!(
        "test result: ok. {} passed; 0 failed; {ignored} ignored;",
        suite_tests() - ignored
    );
    assert!(result_line(&stdout).starts_with(&want), "{want}\n{stdout}");
    assert!(
        stdout.contains(
            "test mirrorless_conformance_suite::profile_2026_07 ... ignored, 2026-07 is not selected"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "test mirrorless_conformance_suite::steer_1 ... ignored, a 2026-07 requirement"
        ),
        "{stdout}"
    );
}

/// The pitfall the bridge handles, shown by the example itself: with a bare `tokio::spawn` for
/// its abort controller instead of `host.spawn`, the abort is set whenever the scheduler gets to
/// it, a chunk past the cancel is recorded, and the suite fails CHUNK-5.
#[test]
fn the_tokio_example_fails_chunk_5_when_its_abort_task_is_spawned_bare() {
    let (passed, printed) = run_copied("rust-tokio", |dir| {
        let lib = dir.join("src/lib.rs");
        let text = std::fs::read_to_string(&lib).expect("the example's lib.rs");
        let spawned = "self.host.spawn(async move {";
        assert_eq!(
            text.matches(spawned).count(),
            1,
            "the abort task is spawned once"
        );
        std::fs::write(&lib, text.replace(spawned, "tokio::spawn(async move {"))
            .expect("writing lib.rs");
    });
    assert!(!passed, "{printed}");
    assert!(
        printed.contains("test mirrorless_conformance_suite::chunk_5 ... FAILED"),
        "{printed}"
    );
}
