//! Issue #31, item 1: "An ignore file that cannot be applied is an error naming it, and nothing
//! it would exclude is read or written." Every shape of an unusable ignore file (too many
//! patterns for the matcher, a bad pattern, a FIFO), at every place (the walked root, a
//! directory below it, a directory above a named subdirectory), under every mode (`lint`,
//! `lint --fix --unsafe-fixes`, JSON): exit 2, the file named, and the files below it neither
//! reported nor changed.
#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const FINDING: &str = "bus.emit(\"agent/turn-start\", {});\n";

#[derive(Debug, Clone, Copy)]
enum Shape {
    /// 25,000 directory patterns: the matcher cannot be built ("error building NFA"; 15,000
    /// still can).
    TooMany,
    /// A pattern the glob parser refuses (an unclosed class).
    BadPattern,
    /// A FIFO: reading it would block the walk for ever.
    Fifo,
}

#[derive(Debug, Clone, Copy)]
enum Place {
    /// In the directory linted (`mirrorless lint` in it).
    Root,
    /// In a subdirectory of it.
    Below,
    /// In the directory above a subdirectory named on the command line.
    AboveNamed,
}

fn write_ignore_file(dir: &Path, shape: Shape) -> PathBuf {
    let path = dir.join(".gitignore");
    match shape {
        Shape::TooMany => {
            let mut text = String::from("gen/\n");
            for i in 0..25_000 {
                text.push_str(&format!("foo{i}/*\n"));
            }
            std::fs::write(&path, text).expect("write");
        }
        Shape::BadPattern => std::fs::write(&path, "gen/\nsrc/[z-a]\n").expect("write"),
        Shape::Fifo => mkfifo(&path),
    }
    path
}

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().expect("mkfifo");
    assert!(status.success(), "mkfifo {}", path.display());
}

/// Runs mirrorless in `dir`, failing the test after 120 s instead of hanging.
fn lint_in(dir: &Path, args: &[&str]) -> Output {
    let mut child = crate::common::mirrorless_command()
        .arg("lint")
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let start = Instant::now();
    while child.try_wait().expect("poll").is_none() {
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            panic!("mirrorless lint {args:?} hung");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("collect")
}

#[test]
fn an_unusable_ignore_file_is_an_error_and_nothing_below_it_is_read_or_written() {
    for shape in [Shape::TooMany, Shape::BadPattern, Shape::Fifo] {
        for place in [Place::Root, Place::Below, Place::AboveNamed] {
            for mode in [&["--format", "json"][..], &["--fix", "--unsafe-fixes"][..]] {
                let tmp = tempfile::tempdir().expect("tempdir");
                let root = tmp.path().join("proj");
                // `proj/pkg` holds the ignore file when it is below the root.
                let holder = match place {
                    Place::Below => root.join("pkg"),
                    Place::Root | Place::AboveNamed => root.clone(),
                };
                for sub in ["gen", "src"] {
                    std::fs::create_dir_all(holder.join(sub)).expect("mkdir");
                    std::fs::write(holder.join(sub).join("a.ts"), FINDING).expect("write");
                }
                // A file outside the unusable file's reach, linted as usual.
                std::fs::create_dir_all(root.join("other")).expect("mkdir");
                std::fs::write(root.join("other/ok.ts"), FINDING).expect("write");
                let ignore_file = write_ignore_file(&holder, shape);
                let mut args: Vec<&str> = mode.to_vec();
                if matches!(place, Place::AboveNamed) {
                    args.push("src");
                }
                let o = lint_in(&root, &args);
                let out = format!(
                    "{}{}",
                    String::from_utf8_lossy(&o.stdout),
                    String::from_utf8_lossy(&o.stderr)
                );
                let what = format!("{shape:?} at {place:?} with {mode:?}:\n{out}");
                assert_eq!(o.status.code(), Some(2), "{what}");
                assert!(
                    out.contains(".gitignore") && out.contains("cannot apply this ignore file"),
                    "{what}"
                );
                // Nothing below the unusable file was reported or rewritten.
                for sub in ["gen", "src"] {
                    let text =
                        std::fs::read_to_string(holder.join(sub).join("a.ts")).expect("read");
                    assert_eq!(text, FINDING, "{what}");
                }
                if mode[0] == "--format" {
                    let report: serde_json::Value =
                        serde_json::from_slice(&o.stdout).expect("JSON");
                    let paths: Vec<&str> = report["findings"]
                        .as_array()
                        .expect("findings")
                        .iter()
                        .filter_map(|f| f["path"].as_str())
                        .collect();
                    assert!(
                        paths.iter().all(|p| !p.contains("a.ts")),
                        "{what}: {paths:?}"
                    );
                    // The rest of the work continues: what the file does not cover is linted.
                    if matches!(place, Place::Below) {
                        assert!(paths.iter().any(|p| p.contains("ok.ts")), "{what}");
                    }
                }
                drop(ignore_file);
            }
        }
    }
}
