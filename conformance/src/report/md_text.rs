//! Markdown building blocks every job summary shares (`run`, `check`, `lint`, `report`):
//! escaping text that comes from the input, code fences that cannot be closed by their
//! content, links to the docs, and a document that stays within a byte limit (GitHub's 1 MiB
//! for a step summary), saying what it left out.

use crate::check::escape_control;
use std::fmt::Write as _;

/// GitHub's limit on one step's summary (`$GITHUB_STEP_SUMMARY`), in bytes.
pub const STEP_SUMMARY_LIMIT: usize = 1024 * 1024;

/// The environment variable naming where the docs are published (a URL ending in `docs/`,
/// e.g. `https://github.com/OWNER/mirrorless/blob/v0.1.0/docs/`); requirement and rule IDs
/// link to their pages under it. The Action sets it to its own checkout's docs.
pub const DOCS_URL_VAR: &str = "MIRRORLESS_DOCS_URL";

/// `text` (a file name, a message, a payload excerpt) as inline Markdown that shows it
/// literally: control characters and line breaks written as escapes (`\n`), so the text stays
/// on one line and one table cell; `&`, `<` and `>` as HTML entities, so it opens no tag; and
/// every character that could start emphasis, code, a link, a cell or a mention (`|`,
/// backticks, `*`, `_`, `[`, `@`, …) backslash-escaped. The text never starts a line of ours, so line-start markers
/// (`#`, `-`, `1.`) need no escape.
pub fn escape(text: &str) -> String {
    let text = escape_control(text);
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '!' | '|' | '~' | '@' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// `text` of this project's own (a requirement's title from the registry) as inline Markdown:
/// its backticks stay code spans, and only a `|` is escaped so that it stays in its table
/// cell. Never for input text: that goes through [`escape`].
pub fn trusted(text: &str) -> String {
    text.replace('|', "\\|")
}

/// A fenced code block holding `body` verbatim (each line's control characters escaped): the
/// fence is longer than any run of backticks in the body, so no line of it can close the block
/// early.
pub fn fence(info: &str, body: &str) -> String {
    let body: Vec<String> = body
        .split('\n')
        .map(|l| escape_control(l.strip_suffix('\r').unwrap_or(l)).into_owned())
        .collect();
    let body = body.join("\n");
    let longest = body.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let ticks = "`".repeat(longest.max(2) + 1);
    let mut out = format!("{ticks}{info}\n{body}");
    if !body.ends_with('\n') {
        out.push('\n');
    }
    let _ = writeln!(out, "{ticks}");
    out
}

/// A collapsed `<details>` section: `summary` (escaped) as its title, `body` (Markdown) inside.
/// The summary is HTML, where a Markdown escape does nothing: an `@` there is put in a code
/// element, which GitHub never turns into a mention.
pub fn details(summary: &str, body: &str) -> String {
    format!(
        "<details><summary>{}</summary>\n\n{body}\n</details>\n\n",
        html_escape(summary).replace('@', "<code>@</code>")
    )
}

/// Text for inside an HTML element: `&`, `<`, `>` and quotes as entities, controls escaped.
pub fn html_escape(text: &str) -> String {
    let text = escape_control(text);
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Where the docs are published, from a value of [`DOCS_URL_VAR`]: an `http(s)` URL with no
/// space, parenthesis or angle bracket (so it cannot break out of a link), ending in `/`.
/// `None` (IDs stay plain text) when it is not such a URL.
pub fn docs_url(raw: &str) -> Option<String> {
    let ok = (raw.starts_with("https://") || raw.starts_with("http://"))
        && raw
            .chars()
            .all(|c| c.is_ascii_graphic() && !matches!(c, '(' | ')' | '<' | '>' | '"' | '\\'));
    if !ok {
        return None;
    }
    let mut url = raw.to_owned();
    if !url.ends_with('/') {
        url.push('/');
    }
    Some(url)
}

/// `id` (a requirement or rule ID, ours) linked to its page `{docs}{section}/{id}.md` when the
/// docs URL is known, plain otherwise.
pub fn id_link(id: &str, docs: Option<&str>, section: &str) -> String {
    let plain = escape(id);
    match docs {
        Some(base) if id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') => {
            format!("[{plain}]({base}{section}/{id}.md)")
        }
        _ => plain,
    }
}

/// A Markdown document built from blocks, rendered within a byte limit: blocks are kept in
/// order while they fit; at the first that does not, it and every later block are left out and
/// a note says how many of each kind and where the full report is.
#[derive(Debug, Default)]
pub struct Doc {
    blocks: Vec<(String, &'static str)>,
}

impl Doc {
    /// An empty document.
    pub fn new() -> Self {
        Doc::default()
    }

    /// Appends a block; `kind` names what it is in the truncation note (`"failure details"`,
    /// `"table rows"`; `""` for headings and other structure, which the note does not count);
    /// a block that must end a table starts with a blank line itself.
    pub fn push(&mut self, kind: &'static str, text: impl Into<String>) {
        self.blocks.push((text.into(), kind));
    }

    /// The document within `limit` bytes. `full` says where the whole report is, for the note
    /// (e.g. "`mirrorless run --seed 1 --format json` prints it").
    pub fn render(&self, limit: usize, full: &str) -> String {
        let total: usize = self.blocks.iter().map(|(t, _)| t.len()).sum();
        let mut out = String::new();
        if total <= limit {
            for (t, _) in &self.blocks {
                out.push_str(t);
            }
            return out;
        }
        // The note's worst case: every kind with a 20-digit count.
        let mut kinds: Vec<&'static str> = Vec::new();
        for (_, k) in &self.blocks {
            if !kinds.contains(k) {
                kinds.push(k);
            }
        }
        let reserve = note(
            &kinds.iter().map(|k| (*k, u64::MAX)).collect::<Vec<_>>(),
            limit,
            full,
        )
        .len();
        let mut cut = self.blocks.len();
        let mut size = 0;
        for (i, (t, _)) in self.blocks.iter().enumerate() {
            if size + t.len() + reserve > limit {
                cut = i;
                break;
            }
            size += t.len();
            out.push_str(t);
        }
        let mut left: Vec<(&'static str, u64)> = Vec::new();
        for (_, k) in self.blocks[cut..].iter().filter(|(_, k)| !k.is_empty()) {
            match left.iter_mut().find(|(n, _)| n == k) {
                Some((_, c)) => *c += 1,
                None => left.push((k, 1)),
            }
        }
        out.push_str(&note(&left, limit, full));
        out
    }
}

fn note(left: &[(&'static str, u64)], limit: usize, full: &str) -> String {
    let what: Vec<String> = left.iter().map(|(k, n)| format!("{n} {k}")).collect();
    format!(
        "\n> **Truncated**: this summary stops before {limit} bytes (GitHub's limit for a step summary is 1 MiB). Left out: {}. The full report: {full}.\n",
        what.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn our_titles_keep_their_code_spans_and_stay_in_their_cell() {
        assert_eq!(trusted("No `turn/start` twin"), "No `turn/start` twin");
        assert_eq!(trusted("a | b"), "a \\| b");
        // Every title of the registry has a code span at most as the registry writes it.
        for r in crate::registry::REQUIREMENTS {
            assert_eq!(
                trusted(r.title).matches('`').count(),
                r.title.matches('`').count()
            );
        }
    }

    #[test]
    fn hostile_text_stays_literal_on_one_line() {
        let s = escape("a|b`c<script>\nd\\e*f_[g](h)");
        assert!(!s.contains('\n'), "{s}");
        assert!(!s.contains('<'), "{s}");
        assert!(s.contains("\\|") && s.contains("\\`") && s.contains("&lt;script&gt;"));
        // Every `|` left is escaped, so no cell is split.
        let bytes = s.as_bytes();
        for (i, b) in bytes.iter().enumerate() {
            if *b == b'|' {
                assert_eq!(bytes[i - 1], b'\\', "{s}");
            }
        }
    }

    #[test]
    fn a_fence_outlasts_its_content() {
        let f = fence("json", "a ```` b\n");
        assert!(f.starts_with("`````json\n"), "{f}");
        assert!(f.ends_with("\n`````\n"), "{f}");
    }

    #[test]
    fn docs_url_refuses_what_could_break_a_link() {
        assert_eq!(
            docs_url("https://x.example/o/m/blob/v1/docs").as_deref(),
            Some("https://x.example/o/m/blob/v1/docs/")
        );
        assert_eq!(docs_url("https://x.example/a) [b"), None);
        assert_eq!(docs_url("javascript:alert(1)"), None);
        assert_eq!(
            id_link("CHUNK-1", Some("https://d/"), "spec"),
            "[CHUNK-1](https://d/spec/CHUNK-1.md)"
        );
        assert_eq!(id_link("CHUNK-1", None, "spec"), "CHUNK-1");
    }

    #[test]
    fn a_doc_over_the_limit_is_cut_with_a_note() {
        let mut d = Doc::new();
        d.push("head", "# title\n");
        for i in 0..1000 {
            d.push("rows", format!("| row {i} |\n"));
        }
        let whole = d.render(usize::MAX, "x");
        assert!(whole.contains("row 999"));
        let cut = d.render(2000, "`cmd --format json`");
        assert!(cut.len() <= 2000, "{}", cut.len());
        assert!(cut.contains("# title"));
        assert!(!cut.contains("row 999"));
        let kept = cut.matches("| row ").count();
        assert!(
            cut.contains(&format!("Left out: {} rows.", 1000 - kept)),
            "{cut}"
        );
        assert!(cut.contains("`cmd --format json`"));
    }
}
