//! No committed file names a path on a particular machine: a path under the scratch and home
//! directories of the machine that wrote it (`work`, `tmp`, `root` and `home` at the root of the
//! file system; this file spells them without their slash, so that it passes its own test). A command a reader
//! runs names a directory of the checkout (`target/…`) or a placeholder (`DIR`, `<dir>`)
//! instead; a path inside a word (`target/tmp/…`, `$DIR/work`) is not absolute and is allowed.

use std::path::PathBuf;
use std::process::Command;

/// The directories, without the leading `/` (see the module comment).
const ROOTS: [&str; 4] = ["work", "tmp", "root", "home"];

/// `/` + `rest`: an absolute path, spelled so that this file holds none.
fn abs(rest: &str) -> String {
    format!("/{rest}")
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The committed files (`git ls-files`), or every file outside build output when the checkout
/// is not a git work tree.
fn files() -> Vec<PathBuf> {
    let root = root();
    if let Ok(out) = Command::new("git")
        .arg("-C")
        .arg(&root)
        .args(["ls-files", "-z"])
        .output()
        && out.status.success()
    {
        return out
            .stdout
            .split(|b| *b == 0)
            .filter(|p| !p.is_empty())
            .map(|p| root.join(String::from_utf8_lossy(p).as_ref()))
            .collect();
    }
    walkdir::WalkDir::new(&root)
        .into_iter()
        .filter_entry(|e| {
            !matches!(
                e.file_name().to_str(),
                Some("target" | ".git" | "node_modules")
            )
        })
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .collect()
}

/// The machine paths on one line: a root at the start of a path (not inside a word or a
/// relative path), followed by `/` or the end of the path.
fn machine_paths(line: &str) -> Vec<String> {
    let mut found = Vec::new();
    for r in ROOTS.map(abs) {
        let r = r.as_str();
        for (at, _) in line.match_indices(r) {
            let before = line[..at].chars().next_back();
            let starts_path = before.is_none_or(|c| {
                c.is_whitespace()
                    || matches!(
                        c,
                        '"' | '\'' | '`' | '(' | '=' | ':' | ',' | '[' | '<' | '>' | '|' | '-'
                    )
            });
            let rest = &line[at + r.len()..];
            let ends_root = rest.chars().next().is_none_or(|c| {
                c == '/' || c.is_whitespace() || matches!(c, '"' | '\'' | '`' | ')' | ',' | ';')
            });
            if starts_path && ends_root {
                let path: String = line[at..]
                    .chars()
                    .take_while(|c| !c.is_whitespace() && !matches!(c, '"' | '\'' | '`' | ')'))
                    .collect();
                found.push(path);
            }
        }
    }
    found
}

#[test]
fn no_committed_file_names_a_machine_path() {
    let root = root();
    let mut problems = Vec::new();
    for path in files() {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue; // binary, or gone from the work tree
        };
        for (n, line) in text.lines().enumerate() {
            for found in machine_paths(line) {
                let rel = path
                    .strip_prefix(&root)
                    .unwrap_or(&path)
                    .display()
                    .to_string();
                problems.push(format!("{rel}:{}: `{found}`", n + 1));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "machine paths in committed files (name a directory of the checkout or a placeholder instead):\n{}",
        problems.join("\n")
    );
}

/// The detector finds absolute scratch paths however they are quoted, and nothing inside a
/// relative path or a word.
#[test]
fn the_detector_tells_absolute_paths_from_relative_ones() {
    assert_eq!(
        machine_paths(&format!("see {}", abs("tmp/x.log"))),
        [abs("tmp/x.log")]
    );
    assert_eq!(
        machine_paths(&format!("DIR=${{1:-{}}}", abs("tmp/bench"))),
        [abs("tmp/bench}")]
    );
    assert_eq!(
        machine_paths(&format!(r#"{{"cwd":"{}"}}"#, abs("work"))),
        [abs("work")]
    );
    assert_eq!(
        machine_paths(&format!("`{}`", abs("home/dev/src"))),
        [abs("home/dev/src")]
    );
    assert!(machine_paths("target/tmp/browser-report/").is_empty());
    assert!(machine_paths(r#""$DIR/work""#).is_empty());
    assert!(machine_paths(&format!("{} and {}", abs("workspace"), abs("tmpfs"))).is_empty());
}
