//! The matrix as one self-contained HTML page: inline CSS, no script, nothing fetched.

use super::{Column, anchor, cell, counterexamples, pre, pretty, replay_text, rows, verdict};
use crate::report::md_text::html_escape;
use crate::report::{at_log, title};
use std::fmt::Write as _;

const CSS: &str = "body{font-family:system-ui,sans-serif;margin:2em;color:#1f2328;background:#fff}
table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #d0d7de;padding:.3em .6em;text-align:left;vertical-align:top}
th{background:#f6f8fa}td.pass{background:#dafbe1}td.fail{background:#ffebe9;font-weight:bold}
td.warn{background:#fff8c5}td.skip,td.none{color:#59636e}code,pre{font-family:ui-monospace,monospace}
pre{background:#f6f8fa;padding:.8em;overflow:auto}.sub{color:#59636e;font-size:.9em}
.error{border:2px solid #cf222e;padding:.5em}section.cx{border-top:1px solid #d0d7de;margin-top:1.5em}
:target{outline:3px solid #0969da}";

/// Renders the matrix as one self-contained HTML page (inline CSS, no script, nothing
/// fetched); `errors` are the files that could not be read.
pub fn render_html(columns: &[Column], errors: &[String]) -> String {
    let mut out = String::from(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>mirrorless conformance matrix</title>\n",
    );
    let _ = writeln!(out, "<style>\n{CSS}\n</style>\n</head>\n<body>");
    let _ = writeln!(
        out,
        "<h1>mirrorless conformance matrix</h1>\n<p class=\"sub\">{} implementation{} × requirements — {}</p>",
        columns.len(),
        if columns.len() == 1 { "" } else { "s" },
        html_escape(&crate::version_banner())
    );
    for e in errors {
        let _ = writeln!(
            out,
            "<p class=\"error\">not rendered: {}</p>",
            html_escape(e)
        );
    }
    out.push_str("<ol>\n");
    for c in columns {
        let _ = write!(
            out,
            "<li><strong>{}</strong> — {} <span class=\"sub\">({}; {})</span>",
            html_escape(&c.label()),
            verdict(c),
            html_escape(&c.subtitle()),
            html_escape(&c.file)
        );
        let problems = c.problem_headlines();
        if !problems.is_empty() {
            out.push_str("<ul>");
            for p in &problems {
                let _ = write!(out, "<li>problem: {}</li>", html_escape(p));
            }
            out.push_str("</ul>");
        }
        out.push_str("</li>\n");
    }
    out.push_str("</ol>\n");
    for (profile, ids) in rows(columns) {
        let _ = writeln!(
            out,
            "<h2>{}</h2>\n<table>\n<thead><tr><th>requirement</th>",
            html_escape(&profile)
        );
        for c in columns {
            let _ = write!(
                out,
                "<th>{}<br><span class=\"sub\">{}</span></th>",
                html_escape(&c.label()),
                html_escape(&c.subtitle())
            );
        }
        out.push_str("</tr></thead>\n<tbody>\n");
        for id in ids {
            let _ = write!(
                out,
                "<tr><th><code>{}</code> {}</th>",
                html_escape(&id),
                html_escape(title(&id))
            );
            for (i, c) in columns.iter().enumerate() {
                let x = cell(i, c, &profile, &id);
                match x.link {
                    Some(a) => {
                        let _ = write!(
                            out,
                            "<td class=\"{}\"><a href=\"#{a}\">{}</a></td>",
                            x.class,
                            html_escape(&x.text)
                        );
                    }
                    None => {
                        let _ = write!(
                            out,
                            "<td class=\"{}\">{}</td>",
                            x.class,
                            html_escape(&x.text)
                        );
                    }
                }
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</tbody>\n</table>\n");
    }
    if columns.iter().any(|c| counterexamples(c).next().is_some()) {
        out.push_str("<h2>Counterexamples</h2>\n");
    }
    for (i, c) in columns.iter().enumerate() {
        for (profile, f, warning) in counterexamples(c) {
            let _ = writeln!(
                out,
                "<section class=\"cx\" id=\"{}\">\n<h3>{} {} — {} [{}] — {}</h3>",
                anchor(i, profile, &f.requirement),
                if warning { "WARN" } else { "FAIL" },
                html_escape(&f.requirement),
                html_escape(title(&f.requirement)),
                html_escape(profile),
                html_escape(&c.label())
            );
            let at = at_log(f.finding.position);
            let _ = writeln!(
                out,
                "<p>{}{at}: {}</p>",
                html_escape(&f.requirement),
                html_escape(&f.finding.message)
            );
            let _ = writeln!(
                out,
                "<details><summary>minimal script (case {})</summary>\n<pre><code>{}</code></pre>\n</details>",
                html_escape(&f.case_id),
                pre(&pretty(&f.case))
            );
            let _ = writeln!(
                out,
                "<p>Replay:</p>\n<pre><code>{}</code></pre>\n</section>",
                pre(&replay_text(f))
            );
        }
    }
    out.push_str("</body>\n</html>\n");
    out
}
