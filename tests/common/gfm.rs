//! Rendering Markdown the way GitHub does, with `cmark-gfm` (GitHub's fork of cmark, installed
//! by `tests/gfm/setup.sh`), and reading the tables back out of the HTML. Test files include it
//! with `use crate::gfm;` (a module of `tests/it.rs`).
//!
//! Without `cmark-gfm` on `PATH` a test is skipped, loudly; `MIRRORLESS_REQUIRE_CMARK_GFM=1`
//! (set by `.ci/run` once the setup succeeded) turns the skip into a failure.

use std::io::Write;
use std::process::{Command, Stdio};

/// The HTML GitHub's renderer makes of `md` (tables, autolinks, strikethrough, and the tag
/// filter GitHub applies to raw HTML), or `None` (with the skip printed) without `cmark-gfm`.
pub fn render(md: &str) -> Option<String> {
    let child = Command::new("cmark-gfm")
        .args([
            "-e",
            "table",
            "-e",
            "autolink",
            "-e",
            "strikethrough",
            "-e",
            "tagfilter",
        ])
        .arg("--unsafe")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => {
            if std::env::var_os("MIRRORLESS_REQUIRE_CMARK_GFM").is_some_and(|v| v == "1") {
                panic!(
                    "MIRRORLESS_REQUIRE_CMARK_GFM=1 but `cmark-gfm` cannot run ({e}); run tests/gfm/setup.sh"
                );
            }
            eprintln!(
                "SKIPPED: `cmark-gfm` cannot run ({e}); run tests/gfm/setup.sh (the GitHub table syntax was NOT checked)"
            );
            return None;
        }
    };
    let mut stdin = child.stdin.take().expect("stdin");
    let input = md.to_owned();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("cmark-gfm runs");
    writer.join().expect("writer").expect("write to cmark-gfm");
    assert!(
        out.status.success(),
        "cmark-gfm failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(String::from_utf8(out.stdout).expect("UTF-8 HTML"))
}

/// One rendered table: the header cells and, per body row, its cells (inner HTML).
#[derive(Debug)]
pub struct Table {
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

/// The cells of the `tag` elements (`th` or `td`) in `html`, in order.
fn cells(html: &str, tag: &str) -> Vec<String> {
    let open = format!("<{tag}");
    let close = format!("</{tag}>");
    let mut out = Vec::new();
    let mut rest = html;
    // `<th>` or `<th align=…>`, never `<thead>`.
    let next = |s: &str| {
        s.match_indices(&open)
            .map(|(i, _)| i)
            .find(|&i| matches!(s.as_bytes().get(i + open.len()), Some(b'>' | b' ')))
    };
    while let Some(start) = next(rest) {
        let after = &rest[start..];
        let body_start = after.find('>').expect("a tag ends") + 1;
        let end = after.find(&close).expect("a cell closes");
        out.push(after[body_start..end].to_owned());
        rest = &after[end + close.len()..];
    }
    out
}

/// Every table of the rendered `html`, in order.
pub fn tables(html: &str) -> Vec<Table> {
    html.split("<table>")
        .skip(1)
        .map(|t| {
            let t = t.split("</table>").next().expect("a table closes");
            let (head, body) = t.split_once("</thead>").expect("a table has a header");
            let rows = body.split("<tr>").skip(1).map(|r| cells(r, "td")).collect();
            Table {
                header: cells(head, "th"),
                rows,
            }
        })
        .collect()
}
