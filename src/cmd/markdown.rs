//! What every `--format markdown` shares: where the docs are (`MIRRORLESS_DOCS_URL`, for the
//! links of requirement and rule IDs) and the byte limit of a step summary.

use mirrorless_conformance::report::MarkdownOptions;
use mirrorless_conformance::report::md_text::{DOCS_URL_VAR, STEP_SUMMARY_LIMIT, docs_url};

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

/// The least room worth a summary: a verdict line and a truncation note.
const LEAST_SUMMARY: usize = 1024;

/// Appends a summary to the job-summary file `path` (`--summary FILE`, e.g.
/// `$GITHUB_STEP_SUMMARY`), creating it. GitHub's 1 MiB limit is on the whole file of a step
/// (over it, GitHub drops all of it), so `render` is given the room the file has left and the
/// summary is cut to it, with a warning saying so; with no room worth a summary nothing is
/// appended, also with a warning. A failure is a warning on stderr: the summary is an extra,
/// and never changes the exit status or the primary report.
pub fn append_summary(path: &std::path::Path, render: impl Fn(usize) -> String) {
    use std::io::Write;
    let name = path.display();
    let held = std::fs::metadata(path)
        .ok()
        .filter(|m| m.is_file())
        .map_or(0, |m| usize::try_from(m.len()).unwrap_or(usize::MAX));
    let room = STEP_SUMMARY_LIMIT.saturating_sub(held);
    if room < LEAST_SUMMARY {
        eprintln!(
            "warning: the job summary is not appended to {name}: it already holds {held} bytes, and GitHub drops a step summary over {STEP_SUMMARY_LIMIT} bytes"
        );
        return;
    }
    let text = render(room);
    if held > 0 && render(STEP_SUMMARY_LIMIT).len() > text.len() {
        eprintln!(
            "warning: the job summary appended to {name} is cut to {} bytes: the file already holds {held}, and GitHub drops a step summary over {STEP_SUMMARY_LIMIT} bytes",
            text.len()
        );
    }
    let written = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .and_then(|mut f| f.write_all(text.as_bytes()));
    if let Err(e) = written {
        eprintln!("warning: cannot append the job summary to {name}: {e}");
    }
}
