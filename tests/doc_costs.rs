//! What building and testing cost is stated once, in the build benchmark
//! (`docs/benchmarks/build.md`), and quoted as that figure everywhere: each figure the benchmark
//! marks as quoted ("**N s of CPU time** is the figure …") is the only CPU figure the README and
//! the guides give, and none of them gives a wall-clock estimate of a build of its own.

use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(rel: &str) -> String {
    let path = root().join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The figures `text` states as "**N s of CPU time** is the figure …".
fn quoted_figures(text: &str) -> Vec<String> {
    text.match_indices(" s of CPU time** is the figure")
        .filter_map(|(at, _)| {
            let before = &text[..at];
            let start = before.rfind("**")? + 2;
            Some(before[start..].trim().to_owned())
        })
        .collect()
}

/// Every "N s of CPU" figure in `text`.
fn cpu_figures(text: &str) -> Vec<String> {
    text.match_indices(" s of CPU")
        .filter_map(|(at, _)| {
            let digits: String = text[..at]
                .chars()
                .rev()
                .take_while(|c| c.is_ascii_digit())
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            (!digits.is_empty()).then_some(digits)
        })
        .collect()
}

const QUOTING: [&str; 5] = [
    "README.md",
    "docs/guides/install.md",
    "docs/guides/ci.md",
    "docs/guides/pre-commit.md",
    "docs/guides/github-action.md",
];

#[test]
fn every_cost_quoted_is_the_benchmarks_figure() {
    let figures = quoted_figures(&read("docs/benchmarks/build.md"));
    assert_eq!(
        figures.len(),
        2,
        "the build benchmark quotes the release build and the test command: {figures:?}"
    );
    let mut problems = Vec::new();
    for rel in QUOTING {
        let text = read(rel);
        for found in cpu_figures(&text) {
            if !figures.contains(&found) {
                problems.push(format!("{rel}: \"{found} s of CPU\" is not a figure of docs/benchmarks/build.md ({figures:?})"));
            }
        }
        for (n, line) in text.lines().enumerate() {
            let lower = line.to_lowercase();
            if lower.contains("minute")
                && (lower.contains("build") || lower.contains("cargo install"))
            {
                problems.push(format!(
                    "{rel}:{}: a wall-clock estimate of a build; quote the benchmark's CPU figure instead",
                    n + 1
                ));
            }
        }
    }
    let readme = read("README.md");
    for figure in &figures {
        if !readme.contains(&format!("{figure} s of CPU time")) {
            problems.push(format!("README.md does not quote {figure} s of CPU time"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn figures_are_read_from_their_sentences() {
    assert_eq!(
        quoted_figures("x **275 s of CPU time** is the figure y"),
        ["275"]
    );
    assert_eq!(
        cpu_figures("a 275 s of CPU and 12 s of CPU time, s of CPU"),
        ["275", "12"]
    );
}
