//! The example outputs pasted into the docs are what the tool prints.
//!
//! A fenced block in `README.md` or under `docs/` that shows mirrorless's output is preceded by
//! an HTML comment (invisible when the Markdown is rendered) saying how to reproduce it:
//!
//! ```text
//! <!-- output-of: run --seed 7 -- python3 {root}/fixtures/adapters/reference-py/adapter.py ;; {root}/fixtures/adapters/reference-py/adapter.py => adapter.py -->
//! ```
//!
//! The arguments after `output-of:` are split on whitespace (`{root}` is the repository); they
//! run in a fresh temporary directory, so a run's corpus is never written into the checkout.
//! After ` ;; `, `A => B` pairs rewrite the output (a path as the doc's reader would type it;
//! `A =>` deletes A),
//! and `needs PATH` skips the block when PATH (relative to the repository) is missing — unless
//! `MIRRORLESS_REQUIRE_DSH` is set, as in CI, where a missing prerequisite fails.
//!
//! Every line of the block, except `$ ` command lines, blank lines and lines that start with
//! `[…` or are `…` (elisions), must appear in standard output, in order. Inside a line, `…`
//! stands for any text. Throughput (`N cases/s`) and the shrinker's step counts (`shrunk from
//! …`), which depend on the machine, are compared as placeholders.

use std::path::{Path, PathBuf};
use std::process::Command;

const MARKER: &str = "<!-- output-of:";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A pinned block: where it is, how to reproduce it and what it shows.
struct Pinned {
    place: String,
    args: Vec<String>,
    rewrites: Vec<(String, String)>,
    needs: Vec<String>,
    shown: Vec<String>,
}

fn markdown_files() -> Vec<PathBuf> {
    let mut files = vec![root().join("README.md")];
    for entry in walkdir::WalkDir::new(root().join("docs")) {
        let entry = entry.unwrap_or_else(|e| panic!("walking docs/: {e}"));
        if entry.file_type().is_file() && entry.path().extension().is_some_and(|e| e == "md") {
            files.push(entry.into_path());
        }
    }
    files.sort();
    files
}

fn parse_marker(comment: &str, place: &str) -> (Vec<String>, Vec<(String, String)>, Vec<String>) {
    let root = root().display().to_string();
    let body = comment
        .trim()
        .strip_prefix(MARKER)
        .and_then(|rest| rest.strip_suffix("-->"))
        .unwrap_or_else(|| panic!("{place}: a marker is `{MARKER} ARGS [;; A => B]... -->`"));
    let mut parts = body.split(" ;; ");
    let args = parts
        .next()
        .unwrap_or_default()
        .split_whitespace()
        .map(|a| a.replace("{root}", &root))
        .collect::<Vec<_>>();
    assert!(!args.is_empty(), "{place}: the marker names no arguments");
    let mut rewrites = Vec::new();
    let mut needs = Vec::new();
    for option in parts {
        let option = option.trim();
        if let Some(path) = option.strip_prefix("needs ") {
            needs.push(path.trim().to_string());
        } else if let Some((from, to)) = option.split_once(" =>") {
            rewrites.push((from.trim().replace("{root}", &root), to.trim().to_string()));
        } else {
            panic!("{place}: unknown marker option {option:?}");
        }
    }
    (args, rewrites, needs)
}

fn pinned_blocks() -> Vec<Pinned> {
    let mut found = Vec::new();
    for file in markdown_files() {
        let text =
            std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let rel = file
            .strip_prefix(root())
            .unwrap_or(&file)
            .display()
            .to_string();
        let lines: Vec<&str> = text.lines().collect();
        let mut i = 0;
        while i < lines.len() {
            if !lines[i].trim_start().starts_with(MARKER) {
                i += 1;
                continue;
            }
            let place = format!("{rel}:{}", i + 1);
            let (args, rewrites, needs) = parse_marker(lines[i], &place);
            let fence = lines.get(i + 1).map(|l| l.trim_start()).unwrap_or_default();
            assert!(
                fence.starts_with("```"),
                "{place}: the marker must be followed by a fenced block"
            );
            let mut shown = Vec::new();
            let mut j = i + 2;
            while j < lines.len() && !lines[j].trim_start().starts_with("```") {
                shown.push(lines[j].to_string());
                j += 1;
            }
            assert!(j < lines.len(), "{place}: the fenced block is never closed");
            found.push(Pinned {
                place,
                args,
                rewrites,
                needs,
                shown,
            });
            i = j + 1;
        }
    }
    found
}

/// Replaces what depends on the machine with placeholders.
fn normalize(line: &str) -> String {
    let mut line = line.trim_end().to_string();
    if let Some(at) = line.find(" cases/s") {
        let digits = line[..at]
            .bytes()
            .rev()
            .take_while(|b| b.is_ascii_digit())
            .count();
        line.replace_range(at - digits..at, "N");
    }
    if let Some(start) = line.find("shrunk from ")
        && let Some(len) = line[start..].find(" steps")
    {
        line.replace_range(start..start + len + " steps".len(), "shrunk (…)");
    }
    line
}

fn is_elision(line: &str) -> bool {
    let line = line.trim();
    line.is_empty() || line.starts_with("$ ") || line.starts_with("[…") || line == "…"
}

/// Does `output` match the doc's `shown` line, where `…` in `shown` stands for any text?
fn line_matches(shown: &str, output: &str) -> bool {
    let pieces: Vec<&str> = shown.split('…').collect();
    if pieces.len() == 1 {
        return shown == output;
    }
    let (first, last) = (pieces[0], pieces[pieces.len() - 1]);
    if !output.starts_with(first) || !output[first.len()..].ends_with(last) {
        return false;
    }
    let mut rest = &output[first.len()..output.len() - last.len()];
    for piece in &pieces[1..pieces.len() - 1] {
        match rest.find(piece) {
            Some(at) => rest = &rest[at + piece.len()..],
            None => return false,
        }
    }
    true
}

/// The first doc line (with its position in the block) that is missing from `output`, in order.
fn first_unmatched(shown: &[String], output: &[String]) -> Option<(usize, String)> {
    let mut next = 0;
    for (index, line) in shown.iter().enumerate() {
        if is_elision(line) {
            continue;
        }
        let wanted = normalize(line);
        match output[next..].iter().position(|o| line_matches(&wanted, o)) {
            Some(at) => next += at + 1,
            None => return Some((index, line.clone())),
        }
    }
    None
}

fn required() -> bool {
    std::env::var_os("MIRRORLESS_REQUIRE_DSH").is_some_and(|v| !v.is_empty())
}

fn output_of(block: &Pinned, cwd: &Path) -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_mirrorless"))
        .args(&block.args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        // The docs show a developer's run; `CI` would switch on CI mode (fixed seed, a note).
        .env_remove("CI")
        .output()
        .unwrap_or_else(|e| panic!("{}: cannot run mirrorless: {e}", block.place));
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    for (from, to) in &block.rewrites {
        text = text.replace(from, to);
    }
    text.lines().map(normalize).collect()
}

#[test]
fn the_docs_show_what_the_tool_prints() {
    let blocks = pinned_blocks();
    assert!(
        blocks.len() >= 8,
        "only {} pinned output blocks found: the README and the guides pin theirs",
        blocks.len()
    );
    let mut stale = Vec::new();
    for block in &blocks {
        let missing: Vec<&String> = block
            .needs
            .iter()
            .filter(|p| !root().join(p).exists())
            .collect();
        if !missing.is_empty() {
            let why = format!(
                "{}: needs {missing:?} (fixtures/adapters/dsh/setup.sh)",
                block.place
            );
            assert!(!required(), "{why}; MIRRORLESS_REQUIRE_DSH is set");
            eprintln!("SKIPPED: {why}");
            continue;
        }
        let cwd = tempfile::tempdir().expect("temporary directory");
        let output = output_of(block, cwd.path());
        if let Some((index, line)) = first_unmatched(&block.shown, &output) {
            stale.push(format!(
                "{} (line {} of the block): the tool does not print\n    {line}\n  it printed:\n    {}",
                block.place,
                index + 1,
                output.join("\n    ")
            ));
        }
    }
    assert!(
        stale.is_empty(),
        "stale example output:\n{}",
        stale.join("\n\n")
    );
}

#[test]
fn matching_takes_elisions_and_placeholders_into_account() {
    let output: Vec<String> = [
        "FAIL X-1 — title",
        "  script: {\"a\":[1,2,3],\"b\":4}",
        "2026-08: conformant — 3 cases, 0 failed; 9 requirements passed; 1234 cases/s",
    ]
    .iter()
    .map(|l| normalize(l))
    .collect();
    let shown = |lines: &[&str]| lines.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    let good = shown(&[
        "FAIL X-1 — title",
        "[… trimmed …]",
        "  script: {\"a\":[…],\"b\":4}",
        "2026-08: conformant — 3 cases, 0 failed; 9 requirements passed; 77 cases/s",
    ]);
    assert_eq!(first_unmatched(&good, &output), None);
    let stale_count =
        shown(&["2026-08: conformant — 3 cases, 0 failed; 8 requirements passed; 1 cases/s"]);
    assert_eq!(
        first_unmatched(&stale_count, &output).map(|(i, _)| i),
        Some(0)
    );
    let out_of_order = shown(&["  script: {\"a\":[…],\"b\":4}", "FAIL X-1 — title"]);
    assert_eq!(
        first_unmatched(&out_of_order, &output).map(|(i, _)| i),
        Some(1)
    );
    assert_eq!(
        normalize("  case 1: shrunk from 21 to 2 chunks and actions in 23 steps"),
        "  case 1: shrunk (…)"
    );
}
