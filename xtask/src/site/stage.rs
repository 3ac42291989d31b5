//! Stages `docs/` as the site's source: every file copied, `book.toml` pointed at the copy, and
//! every Markdown link that leaves `docs/` for a file of the repository rewritten to a copy of
//! that file under `repo/` inside the site (a directory gets a generated listing page), so
//! that a reader never leaves the site for a file of the checkout. A link to a path that does
//! not exist is an error.

use super::relative;
use anyhow::{Context, Result, bail};
use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};

/// What [`stage`] did.
pub struct Staged {
    /// Markdown pages staged.
    pub pages: usize,
    /// Files (and directory listings) copied from outside `docs/`.
    pub copied: usize,
}

/// Where a file of the repository lives in the staged site: `docs/X` at `X` (a `README.md` as
/// `index.md`, which mdBook renders as the directory's `index.html`), anything else under
/// `repo/`.
fn site_path(root: &Path, src: &Path, file: &Path) -> PathBuf {
    let docs = root.join("docs");
    let (base, rel) = match file.strip_prefix(&docs) {
        Ok(rel) => (src.to_path_buf(), rel.to_path_buf()),
        Err(_) => (
            src.join("repo"),
            file.strip_prefix(root).unwrap_or(file).to_path_buf(),
        ),
    };
    let rel = if rel.file_name().is_some_and(|n| n == "README.md") {
        rel.with_file_name("index.md")
    } else {
        rel
    };
    base.join(rel)
}

/// Copies `root/docs` to `out/src` and `root/book.toml` to `out/book.toml`, rewriting links; the
/// repository files the pages link to are copied under `repo/`, and the Markdown ones among
/// them become pages of a last part of the table of contents, their own links rewritten alike.
pub fn stage(root: &Path, out: &Path) -> Result<Staged> {
    let docs = root.join("docs");
    let src = out.join("src");
    if src.exists() {
        std::fs::remove_dir_all(&src).with_context(|| format!("removing {}", src.display()))?;
    }
    let toml = std::fs::read_to_string(root.join("book.toml")).context("reading book.toml")?;
    let toml = toml
        .replace("src = \"docs\"", "src = \"src\"")
        .replace("build-dir = \"target/site/book\"", "build-dir = \"book\"");
    std::fs::create_dir_all(out)?;
    std::fs::write(out.join("book.toml"), toml)?;

    let mut queue: Vec<PathBuf> = walk(&docs)?;
    let mut seen: BTreeSet<PathBuf> = queue.iter().cloned().collect();
    let mut listings: BTreeSet<PathBuf> = BTreeSet::new();
    let mut outside_pages: Vec<PathBuf> = Vec::new();
    let mut problems = Vec::new();
    let mut pages = 0;
    let mut copied = 0;
    while let Some(file) = queue.pop() {
        let dest = site_path(root, &src, &file);
        if let Some(parent) = dest.parent() {
            std::fs::create_dir_all(parent)?;
        }
        let inside = file.starts_with(&docs);
        if !inside {
            copied += 1;
        }
        if file.extension().is_none_or(|x| x != "md") {
            std::fs::copy(&file, &dest).with_context(|| format!("copying {}", file.display()))?;
            continue;
        }
        pages += 1;
        if !inside {
            outside_pages.push(file.clone());
        }
        let shown = file
            .strip_prefix(root)
            .unwrap_or(&file)
            .display()
            .to_string();
        let text = std::fs::read_to_string(&file)
            .with_context(|| format!("reading {}", file.display()))?;
        let dir = file.parent().unwrap_or(root).to_path_buf();
        let page_dir = dest.parent().map(Path::to_path_buf).unwrap_or_default();
        let rewritten = rewrite_links(&text, |target| {
            let (path, fragment) = target.split_once('#').unwrap_or((target, ""));
            if path.contains("://") || path.starts_with("mailto:") {
                return None;
            }
            if path.is_empty() {
                if !fragment.is_empty() && !anchors(&text).contains(fragment) {
                    problems.push(format!("{shown}: `#{fragment}` is no heading of the page"));
                }
                return None;
            }
            let resolved = normalize(&dir.join(path));
            if !fragment.is_empty()
                && resolved.extension().is_some_and(|x| x == "md")
                && let Ok(target_text) = std::fs::read_to_string(&resolved)
                && !anchors(&target_text).contains(fragment)
            {
                problems.push(format!(
                    "{shown}: `{target}`: `#{fragment}` is no heading there"
                ));
            }
            if !resolved.starts_with(root) {
                problems.push(format!("{shown}: `{target}` leaves the repository"));
                return None;
            }
            if !resolved.exists() {
                problems.push(format!("{shown}: `{target}` does not exist"));
                return None;
            }
            let linked = if resolved.is_dir() {
                listings.insert(resolved.clone());
                site_path(root, &src, &resolved).join("index.html")
            } else {
                if seen.insert(resolved.clone()) {
                    queue.push(resolved.clone());
                }
                site_path(root, &src, &resolved)
            };
            let mut link = relative(&page_dir, &linked)
                .to_string_lossy()
                .replace('\\', "/");
            if !fragment.is_empty() {
                link = format!("{link}#{fragment}");
            }
            Some(link)
        });
        std::fs::write(&dest, rewritten)?;
    }
    if !problems.is_empty() {
        problems.sort();
        bail!("dangling links:\n{}", problems.join("\n"));
    }
    for dir in &listings {
        copied += write_listing(root, &src, dir)?;
    }
    append_outside_pages(root, &src, &mut outside_pages)?;
    Ok(Staged { pages, copied })
}

/// Adds the repository's Markdown files the pages link to as a last part of the staged table
/// of contents, so that mdBook renders them (and the links to them resolve).
fn append_outside_pages(root: &Path, src: &Path, files: &mut [PathBuf]) -> Result<()> {
    if files.is_empty() {
        return Ok(());
    }
    files.sort();
    let summary_path = src.join("SUMMARY.md");
    let mut summary =
        std::fs::read_to_string(&summary_path).context("reading the staged SUMMARY.md")?;
    summary.push_str("\n# From the repository\n\n");
    for file in files.iter() {
        let text = std::fs::read_to_string(file)?;
        let rel = file
            .strip_prefix(root)
            .unwrap_or(file)
            .to_string_lossy()
            .replace('\\', "/");
        let title = text
            .lines()
            .find_map(|l| l.strip_prefix("# "))
            .unwrap_or(&rel)
            .replace('`', "")
            .replace('[', "\\[")
            .replace(']', "\\]");
        let link = relative(src, &site_path(root, src, file))
            .to_string_lossy()
            .replace('\\', "/");
        summary.push_str(&format!("- [{title}]({link})\n"));
    }
    std::fs::write(summary_path, summary)?;
    Ok(())
}

/// The listing page of a linked directory: its files, each copied next to it (a directory of
/// `docs/` is in the site already). Returns the files copied.
fn write_listing(root: &Path, src: &Path, dir: &Path) -> Result<usize> {
    let to = site_path(root, src, dir);
    std::fs::create_dir_all(&to)?;
    let inside = dir.starts_with(root.join("docs"));
    let mut names: Vec<(String, bool)> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok())
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                e.path().is_dir(),
            )
        })
        .collect();
    names.sort();
    let mut copied = 0;
    let mut items = String::new();
    for (name, is_dir) in &names {
        let href = if *is_dir {
            format!("{name}/")
        } else if name == "README.md" {
            "index.html".to_owned()
        } else {
            name.clone()
        };
        if *is_dir {
            // Listed by name only: a subdirectory gets a page when something links to it.
            items.push_str(&format!("<li>{}/</li>\n", escape(name)));
            continue;
        }
        if !inside && name != "README.md" && !to.join(name).exists() {
            std::fs::copy(dir.join(name), to.join(name))?;
            copied += 1;
        }
        if name == "README.md" && !to.join("index.md").exists() {
            items.push_str(&format!("<li>{}</li>\n", escape(name)));
            continue;
        }
        items.push_str(&format!(
            "<li><a href=\"{}\">{}</a></li>\n",
            escape(&href),
            escape(name)
        ));
    }
    let title = escape(&dir.strip_prefix(root).unwrap_or(dir).to_string_lossy());
    if !to.join("index.md").exists() {
        std::fs::write(
            to.join("index.html"),
            format!(
                "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{title}</title></head>\n<body><h1>{title}</h1>\n<ul>\n{items}</ul></body></html>\n"
            ),
        )?;
    }
    Ok(copied)
}

/// Every file under `dir`, sorted.
fn walk(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).with_context(|| format!("reading {}", d.display()))? {
            let path = entry?.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// `..` and `.` resolved without touching the file system.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            c => out.push(c),
        }
    }
    out
}

/// The anchors a Markdown page gets: each heading's id as mdBook derives it (the heading's
/// text, lower case, whitespace as `-`, only letters, digits, `-` and `_` kept; a repeated id
/// numbered `-1`, `-2`, …) and every `id="…"` written in it.
pub fn anchors(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut fence: Option<&str> = None;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if let Some(f) = fence {
            if trimmed.starts_with(f) {
                fence = None;
            }
            continue;
        }
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fence = Some(&trimmed[..3]);
            continue;
        }
        for (at, _) in line.match_indices(" id=\"") {
            if let Some(end) = line[at + 5..].find('"') {
                out.insert(line[at + 5..at + 5 + end].to_owned());
            }
        }
        let Some(heading) = line.strip_prefix('#') else {
            continue;
        };
        let heading = heading.trim_start_matches('#');
        if !heading.starts_with(' ') {
            continue;
        }
        // The rendered text: a link's text without its target, no code or emphasis marks.
        let mut rendered = String::new();
        let mut rest = heading.trim();
        while let Some(open) = rest.find("](") {
            rendered.push_str(&rest[..open]);
            rest = rest[open + 2..]
                .split_once(')')
                .map_or("", |(_, after)| after);
        }
        rendered.push_str(rest);
        let id: String = rendered
            .chars()
            .filter_map(|c| {
                if c.is_alphanumeric() || c == '_' || c == '-' {
                    Some(c.to_ascii_lowercase())
                } else if c.is_whitespace() {
                    Some('-')
                } else {
                    None
                }
            })
            .collect();
        let mut unique = id.clone();
        let mut n = 0;
        while out.contains(&unique) {
            n += 1;
            unique = format!("{id}-{n}");
        }
        out.insert(unique);
    }
    out
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// `text` with the target of every inline Markdown link `[…](target)` outside code replaced
/// by `rewrite(target)` when it returns one.
pub fn rewrite_links(text: &str, mut rewrite: impl FnMut(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut fence: Option<&str> = None;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if let Some(f) = fence {
            if trimmed.starts_with(f) {
                fence = None;
            }
            out.push_str(line);
            continue;
        }
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fence = Some(&trimmed[..3]);
            out.push_str(line);
            continue;
        }
        let mut rest = line;
        let mut in_code = false;
        while !rest.is_empty() {
            let next_tick = rest.find('`');
            let next_link = if in_code { None } else { rest.find("](") };
            match (next_tick, next_link) {
                (Some(t), Some(l)) if t < l => {
                    out.push_str(&rest[..=t]);
                    rest = &rest[t + 1..];
                    in_code = !in_code;
                }
                (_, Some(l)) => {
                    out.push_str(&rest[..l + 2]);
                    rest = &rest[l + 2..];
                    let end = rest.find(')').unwrap_or(rest.len());
                    let target = &rest[..end];
                    match rewrite(target) {
                        Some(new) if !target.contains(' ') => out.push_str(&new),
                        _ => out.push_str(target),
                    }
                    rest = &rest[end..];
                }
                (Some(t), None) => {
                    out.push_str(&rest[..=t]);
                    rest = &rest[t + 1..];
                    in_code = !in_code;
                }
                (None, None) => {
                    out.push_str(rest);
                    rest = "";
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Links are rewritten outside code only; a fence and a code span are left as written.
    #[test]
    fn links_are_rewritten_outside_code() {
        let text = "see [a](../x.rs) and `[b](../y.rs)`\n```\n[c](../z.rs)\n```\n[d](e.md#f)\n";
        let out = rewrite_links(text, |t| Some(format!("<{t}>")));
        assert_eq!(
            out,
            "see [a](<../x.rs>) and `[b](../y.rs)`\n```\n[c](../z.rs)\n```\n[d](<e.md#f>)\n"
        );
    }

    /// Heading ids as mdBook makes them, repeats numbered.
    #[test]
    fn anchors_are_mdbook_heading_ids() {
        let text = "# The `agent/status` event\n## 5.3 A turn, 2026-08\n## Notes\n## Notes\n```\n# not a heading\n```\n### [LOG-1](x.md) header\n";
        let got: Vec<String> = anchors(text).into_iter().collect();
        assert_eq!(
            got,
            [
                "53-a-turn-2026-08",
                "log-1-header",
                "notes",
                "notes-1",
                "the-agentstatus-event"
            ]
        );
    }

    /// The repository's own docs stage with every link and anchor resolved (what the site's
    /// build then checks again on the HTML), without mdBook.
    #[test]
    fn the_docs_stage_with_no_dangling_link_or_anchor() {
        let out = tempfile::tempdir().expect("tempdir");
        let root = crate::tools::workspace_root();
        if let Err(e) = stage(&root, out.path()) {
            panic!("{e:#}");
        }
        assert!(out.path().join("src/spec/index.md").is_file());
        assert!(out.path().join("src/SUMMARY.md").is_file());
    }

    /// `..` is resolved lexically.
    #[test]
    fn paths_are_normalized() {
        assert_eq!(
            normalize(Path::new("/r/docs/spec/../../fixtures/a")),
            PathBuf::from("/r/fixtures/a")
        );
    }
}
