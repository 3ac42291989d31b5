//! What every `--format markdown` shares: where the docs are (`MIRRORLESS_DOCS_URL`, for the
//! links of requirement and rule IDs) and the byte limit of a step summary.

use mirrorless_conformance::report::MarkdownOptions;
use mirrorless_conformance::report::md_text::{DOCS_URL_VAR, docs_url};

/// The options of a Markdown report from the environment. A `MIRRORLESS_DOCS_URL` that is
/// not a plain `http(s)` URL is ignored with a warning (the IDs stay plain text).
pub fn options() -> MarkdownOptions {
    let raw = std::env::var(DOCS_URL_VAR).ok().filter(|v| !v.is_empty());
    let docs_url = raw.as_deref().and_then(|raw| {
        let url = docs_url(raw);
        if url.is_none() {
            eprintln!(
                "warning: {DOCS_URL_VAR} is not an http(s) URL without spaces, parentheses or angle brackets; the report's IDs are not linked"
            );
        }
        url
    });
    MarkdownOptions {
        docs_url,
        ..MarkdownOptions::default()
    }
}

/// Appends `text` to the job-summary file `path` (`--summary FILE`, e.g.
/// `$GITHUB_STEP_SUMMARY`), creating it. A failure is a warning on stderr: the summary is an
/// extra, and never changes the exit status or the primary report.
pub fn append_summary(path: &std::path::Path, text: &str) {
    use std::io::Write;
    let written = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .and_then(|mut f| f.write_all(text.as_bytes()));
    if let Err(e) = written {
        eprintln!(
            "warning: cannot append the job summary to {}: {e}",
            path.display()
        );
    }
}
