//! Checks a built site: every `href` and `src` that stays inside the site names a file that
//! exists, and every `#fragment` an `id` of the page it points at.

use super::stage::normalize;
use anyhow::{Context, Result};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// One problem per broken link: `page: href (why)`.
pub fn check(site: &Path) -> Result<Vec<String>> {
    let pages = html_files(site)?;
    let mut ids: BTreeMap<PathBuf, BTreeSet<String>> = BTreeMap::new();
    let mut texts = Vec::new();
    for page in &pages {
        let text =
            std::fs::read_to_string(page).with_context(|| format!("reading {}", page.display()))?;
        ids.insert(
            page.clone(),
            attribute_values(&text, "id").into_iter().collect(),
        );
        texts.push((page.clone(), text));
    }
    let mut problems = Vec::new();
    for (page, text) in &texts {
        let dir = page.parent().unwrap_or(site);
        let shown = page
            .strip_prefix(site)
            .unwrap_or(page)
            .display()
            .to_string();
        for link in attribute_values(text, "href")
            .into_iter()
            .chain(attribute_values(text, "src"))
        {
            if let Some(why) = broken(site, dir, page, &link, &ids) {
                problems.push(format!("{shown}: `{link}` ({why})"));
            }
        }
    }
    problems.sort();
    problems.dedup();
    Ok(problems)
}

/// Why `link` on `page` is broken, or `None`.
fn broken(
    site: &Path,
    dir: &Path,
    page: &Path,
    link: &str,
    ids: &BTreeMap<PathBuf, BTreeSet<String>>,
) -> Option<String> {
    let link = link.replace("&amp;", "&");
    if link.is_empty()
        || link.starts_with("//")
        || link.split_once(':').is_some_and(|(scheme, _)| {
            !scheme.is_empty()
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '+' || c == '-' || c == '.')
        })
    {
        return None;
    }
    let (path, fragment) = link.split_once('#').unwrap_or((&link, ""));
    let path = path.split_once('?').map_or(path, |(p, _)| p);
    let target = if path.is_empty() {
        page.to_path_buf()
    } else {
        // An absolute path is read against the site's root (mdBook's 404 page uses `/`).
        let base = if path.starts_with('/') { site } else { dir };
        let joined = normalize(&base.join(percent_decode(path.trim_start_matches('/'))));
        if path.ends_with('/') || joined.is_dir() {
            joined.join("index.html")
        } else {
            joined
        }
    };
    if !target.starts_with(site) {
        return Some("leaves the site".into());
    }
    if !target.is_file() {
        return Some("no such file".into());
    }
    if fragment.is_empty() || target.extension().is_none_or(|x| x != "html") {
        return None;
    }
    let fragment = percent_decode(fragment);
    match ids.get(&target) {
        Some(set) if set.contains(&fragment) => None,
        _ => Some(format!("no id `{fragment}` there")),
    }
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(hex) = text.get(i + 1..i + 3)
            && let Ok(b) = u8::from_str_radix(hex, 16)
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The values of every `name="…"` attribute in `html` (double-quoted, as mdBook writes them).
fn attribute_values(html: &str, name: &str) -> Vec<String> {
    let needle = format!(" {name}=\"");
    html.match_indices(&needle)
        .filter_map(|(at, _)| {
            let rest = &html[at + needle.len()..];
            rest.find('"').map(|end| rest[..end].to_owned())
        })
        .collect()
}

fn html_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).with_context(|| format!("reading {}", d.display()))? {
            let path = entry?.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "html") {
                out.push(path);
            }
        }
    }
    out.sort();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A missing page and a missing anchor are reported; the web, a present page and a
    /// present anchor are not.
    #[test]
    fn broken_pages_and_anchors_are_reported() {
        let site = tempfile::tempdir().expect("tempdir");
        let root = site.path();
        std::fs::write(
            root.join("a.html"),
            r##"<h1 id="top">A</h1><a href="b.html#x">b</a><a href="b.html#nope">b</a><a href="c.html">c</a><a href="https://example.org/">w</a><a href="#top">t</a><img src="i%20j.png">"##,
        )
        .expect("write a");
        std::fs::write(root.join("b.html"), r#"<p id="x">B</p>"#).expect("write b");
        std::fs::write(root.join("i j.png"), "").expect("write image");
        let problems = check(root).expect("check");
        assert_eq!(
            problems,
            [
                "a.html: `b.html#nope` (no id `nope` there)",
                "a.html: `c.html` (no such file)"
            ]
        );
    }
}
