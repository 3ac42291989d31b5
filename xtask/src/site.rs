//! `cargo xtask site`: the documentation site. `docs/` is staged into `target/site/src/` with
//! every link to a file outside `docs/` pointed at a copy of that file inside the site
//! ([`stage`]), built with mdBook into `target/site/book/`, and every internal link and anchor
//! of the built HTML is checked ([`links`]). The site never links out of itself but to the web.

mod links;
mod stage;

use crate::tools;
use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The mdBook the site is built with (`tests/site/setup.sh` installs it).
pub const MDBOOK_VERSION: &str = "0.5.4";

/// Options of `cargo xtask site`.
#[derive(clap::Args)]
pub struct Options {
    /// Stage and check the Markdown only (no mdBook needed): every link resolves inside the
    /// staged site
    #[arg(long)]
    pub check_only: bool,
}

/// mdBook: `MDBOOK`, else the copy `tests/site/setup.sh` installs, else PATH.
fn mdbook(root: &Path) -> Command {
    if let Some(path) = std::env::var_os("MDBOOK") {
        return Command::new(path);
    }
    let local = tools::target_dir(root).join("site-tools/bin/mdbook");
    if local.is_file() {
        return Command::new(local);
    }
    Command::new("mdbook")
}

/// Builds and checks the site into `target/site/`.
pub fn run(options: &Options) -> Result<()> {
    let root = tools::workspace_root();
    let out = tools::target_dir(&root).join("site");
    if options.check_only {
        let staged = stage::stage(&root, &out)?;
        eprintln!(
            "site: staged {} pages and {} files from outside docs/; every link and anchor resolves",
            staged.pages, staged.copied
        );
        return Ok(());
    }
    let book = build(&root, &out)?;
    eprintln!(
        "site: {} — every internal link and anchor resolves",
        book.display()
    );
    Ok(())
}

/// Stages `root`'s docs into `out/src/`, builds them with mdBook into `out/book/` and checks
/// every internal link and anchor of the HTML; returns the built site's directory.
pub fn build(root: &Path, out: &Path) -> Result<PathBuf> {
    stage::stage(root, out)?;
    let book = out.join("book");
    if book.exists() {
        std::fs::remove_dir_all(&book).with_context(|| format!("removing {}", book.display()))?;
    }
    tools::run(
        mdbook(root).arg("build").arg(out),
        &format!(
            "mdBook {MDBOOK_VERSION}: tests/site/setup.sh installs it into target/site-tools/"
        ),
    )?;
    let problems = links::check(&book)?;
    if !problems.is_empty() {
        bail!(
            "{} broken links or anchors in the built site:\n{}",
            problems.len(),
            problems.join("\n")
        );
    }
    Ok(book)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the mdBook [`build`] would run answers `--version` with [`MDBOOK_VERSION`].
    fn mdbook_available(root: &Path) -> bool {
        mdbook(root).arg("--version").output().is_ok_and(|o| {
            o.status.success() && String::from_utf8_lossy(&o.stdout).contains(MDBOOK_VERSION)
        })
    }

    /// The site builds with mdBook and every internal link and anchor of its HTML resolves
    /// (issue #30: "the site builds offline in CI; no link is dangling"). Skipped, loudly, without
    /// mdBook; `MIRRORLESS_REQUIRE_MDBOOK=1` (set by `.ci/run` once `tests/site/setup.sh`
    /// installed it) makes a missing mdBook a failure.
    #[test]
    fn the_site_builds_and_no_link_dangles() {
        let root = tools::workspace_root();
        if !mdbook_available(&root) {
            assert!(
                std::env::var_os("MIRRORLESS_REQUIRE_MDBOOK").is_none(),
                "MIRRORLESS_REQUIRE_MDBOOK is set but mdBook {MDBOOK_VERSION} is not installed (tests/site/setup.sh)"
            );
            eprintln!(
                "SKIPPED: mdBook {MDBOOK_VERSION} is not installed (tests/site/setup.sh): the site was not built"
            );
            return;
        }
        let out = tempfile::tempdir().expect("tempdir");
        let book = match build(&root, out.path()) {
            Ok(book) => book,
            Err(e) => panic!("{e:#}"),
        };
        // Every requirement has its page, and every page shows the spec version (the title).
        let page =
            std::fs::read_to_string(book.join("spec/CHUNK-1.html")).expect("a requirement page");
        let toml = std::fs::read_to_string(root.join("book.toml")).expect("book.toml");
        let title = toml
            .lines()
            .find_map(|l| l.strip_prefix("title = "))
            .expect("book.toml has a title")
            .trim_matches('"');
        assert!(
            page.contains(title),
            "the page does not show the book's title {title:?}"
        );
        let search_index = std::fs::read_dir(&book)
            .expect("the built site")
            .filter_map(Result::ok)
            .any(|e| e.file_name().to_string_lossy().starts_with("searchindex"));
        assert!(search_index, "the site has no search index");
    }
}

/// The path of `target` relative to the directory `from` (both absolute, in one tree).
pub fn relative(from: &Path, target: &Path) -> PathBuf {
    let from: Vec<_> = from.components().collect();
    let to: Vec<_> = target.components().collect();
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut out = PathBuf::new();
    for _ in common..from.len() {
        out.push("..");
    }
    for c in &to[common..] {
        out.push(c);
    }
    out
}

#[cfg(test)]
mod release_tests {
    use super::tools::workspace_root;
    use clap::CommandFactory;

    fn read(rel: &str) -> String {
        let path = workspace_root().join(rel);
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    /// The release workflow's Pages job runs what exists: the setup script, the `site` task,
    /// and publishes the directory the build writes (book.toml's `build-dir`), with the
    /// permissions GitHub Pages deployment needs.
    #[test]
    fn the_release_publishes_the_site_it_builds() {
        let doc: serde_norway::Value =
            serde_norway::from_str(&read(".github/workflows/release.yml"))
                .expect("release.yml parses");
        let job = &doc["jobs"]["pages"];
        assert_eq!(
            job["permissions"]["pages"].as_str(),
            Some("write"),
            "pages: write"
        );
        assert_eq!(
            job["permissions"]["id-token"].as_str(),
            Some("write"),
            "id-token: write"
        );
        let steps = job["steps"]
            .as_sequence()
            .expect("jobs.pages.steps is a list");
        let runs: Vec<&str> = steps.iter().filter_map(|s| s["run"].as_str()).collect();
        let uses: Vec<&str> = steps.iter().filter_map(|s| s["uses"].as_str()).collect();
        for run in &runs {
            let words: Vec<&str> = run.split_whitespace().collect();
            match words.as_slice() {
                [script] => {
                    let path = workspace_root().join(script);
                    assert!(
                        path.is_file(),
                        "release.yml runs {script}, which does not exist"
                    );
                }
                ["cargo", "xtask", task, ..] => {
                    assert!(
                        crate::Cli::command().find_subcommand(task).is_some(),
                        "release.yml runs `cargo xtask {task}`, which xtask does not have"
                    );
                }
                _ => panic!("release.yml's pages job runs `{run}`, which this test does not know"),
            }
        }
        assert!(
            runs.iter().any(|r| r.trim() == "cargo xtask site"),
            "{runs:?}"
        );
        let upload = steps
            .iter()
            .find(|s| {
                s["uses"]
                    .as_str()
                    .is_some_and(|u| u.starts_with("actions/upload-pages-artifact@"))
            })
            .expect("the job uploads a Pages artifact");
        let toml = read("book.toml");
        let build_dir = toml
            .lines()
            .find_map(|l| l.strip_prefix("build-dir = "))
            .expect("book.toml sets build-dir")
            .trim_matches('"');
        assert_eq!(upload["with"]["path"].as_str(), Some(build_dir));
        assert!(
            uses.iter().any(|u| u.starts_with("actions/deploy-pages@")),
            "{uses:?}"
        );
    }
}
