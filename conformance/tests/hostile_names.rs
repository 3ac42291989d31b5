//! Issue #31, items 3, 4 and 6: every string an implementation supplies (its name) is clipped
//! and escaped by every renderer of a run (human, JSON, JUnit, Markdown, HTML) and of
//! `mirrorless report` (Markdown, HTML): whatever its size and characters (bidirectional
//! controls, invisible characters, line separators, controls, `@` mentions, markup), the
//! output stays within a fixed bound of the output for a plain name, shows none of those
//! characters raw, mentions no one, opens no tag, and the Markdown summary still starts with
//! its verdict and holds its table.

use mirrorless_conformance::check::escape_control;
use mirrorless_conformance::driver::in_process;
use mirrorless_conformance::reference::ReferenceLoop;
use mirrorless_conformance::report::matrix;
use mirrorless_conformance::report::{
    MarkdownOptions, render_html, render_human, render_json, render_junit, render_markdown,
};
use mirrorless_conformance::suite::{Config, RunReport, run};
use mirrorless_conformance::vocab::Profile;
use proptest::prelude::*;
use std::borrow::Cow;

/// Pieces a hostile name is made of.
const PIECES: &[&str] = &[
    "@octocat",
    "<script>alert(1)</script>",
    "</title><h1>x",
    "</details>",
    "| forged | row |",
    "`code`",
    "\u{202e}txt.exe",
    "\u{2066}isolate\u{2069}",
    "a\u{200b}b",
    "\u{2028}line\u{2029}",
    "\u{1b}[31mred",
    "\n## forged heading\n",
    "\r\u{7f}\u{0}",
    "[link](https://example.invalid)",
    "plain",
];

fn run_named(name: &str) -> RunReport {
    let config = Config {
        cases: 2,
        jobs: 1,
        profiles: vec![Profile::V2026_08],
        ..Config::default()
    };
    let mut driver = in_process::<ReferenceLoop>(name);
    run(&mut driver, &config, &mut |_| {}).expect("the reference runs")
}

/// Each rendering of a run, by format name, the matrix of `mirrorless report` included.
fn renderings(report: &RunReport) -> Vec<(&'static str, String)> {
    let json = render_json(report);
    let column = matrix::read_column("r.json", &json).expect("the JSON report reads back");
    let columns = [column];
    vec![
        ("human", render_human(report)),
        ("junit", render_junit(report)),
        (
            "markdown",
            render_markdown(report, &MarkdownOptions::default()),
        ),
        ("html", render_html(report)),
        (
            "matrix markdown",
            matrix::render_markdown(&columns, &[], None, 1 << 20),
        ),
        ("matrix html", matrix::render_html(&columns, &[])),
        ("json", json),
    ]
}

/// The characters of `out` that must never reach a reader raw, other than line breaks and
/// tabs of the renderer's own.
fn raw(out: &str) -> Vec<char> {
    out.chars()
        .filter(|&c| !matches!(c, '\n' | '\t'))
        .filter(|c| matches!(escape_control(c.encode_utf8(&mut [0; 4])), Cow::Owned(_)))
        .collect()
}

fn hostile_name() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(prop::sample::select(PIECES), 1..6),
        prop::sample::select(&[1usize, 3, 1_000, 200_000][..]),
    )
        .prop_map(|(pieces, times)| pieces.concat().repeat(times))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn every_renderer_clips_and_escapes_the_implementation_name(name in hostile_name()) {
        let plain = renderings(&run_named("plain"));
        let hostile = renderings(&run_named(&name));
        for ((format, base), (_, out)) in plain.iter().zip(&hostile) {
            // Bounded: the name adds at most a fixed amount, whatever its size.
            prop_assert!(
                out.len() <= base.len() + 64 * 1024,
                "{format}: {} bytes for a name of {} (plain: {})",
                out.len(),
                name.len(),
                base.len()
            );
            if *format == "json" {
                continue; // JSON escapes what it must itself; it is only bounded.
            }
            let raw = raw(out);
            prop_assert!(raw.is_empty(), "{format}: raw {raw:?}");
            if format.contains("markdown") {
                // Item 6: the verdict and the table come first, whatever the name.
                let head: String = out.chars().take(4096).collect();
                prop_assert!(head.contains("| "), "{format}: no table first:\n{head}");
                prop_assert!(!out.contains(" @octocat") && !out.contains("(@octocat"), "{format}: a live mention");
                for (i, _) in out.match_indices("@octocat") {
                    prop_assert!(out[..i].ends_with('\\'), "{format}: a live mention at {i}");
                }
            }
            if format.contains("html") {
                prop_assert!(!out.contains("<script>"), "{format}: a tag opened");
                prop_assert!(!out.contains("</title><h1>"), "{format}: the title closed");
            }
            if format.contains("markdown") || format.contains("html") {
                prop_assert!(!out.contains("<script>"), "{format}: a tag opened");
            }
        }
    }
}

/// Issue #31, item 8: a requirement ID from a later release is called unknown to this
/// version, never 'the implementation crashed' (which only `CRASH` is).
#[test]
fn a_requirement_from_a_later_release_is_named_unknown() {
    let report = run_named("plain");
    let mut json: serde_json::Value =
        serde_json::from_str(&render_json(&report)).expect("the JSON report");
    let failure = serde_json::json!({
        "requirement": "TURN-99",
        "finding": { "requirement": "TURN-99", "message": "later" },
        "case_id": "c",
        "case": { "profile": "2026-08", "script": { "actions": [] } },
        "replay": "mirrorless replay c.json",
    });
    json["report"]["profiles"][0]["failures"] = serde_json::json!([failure]);
    let column = matrix::read_column("r.json", &json.to_string()).expect("reads back");
    let columns = [column];
    for out in [
        matrix::render_markdown(&columns, &[], None, 1 << 20),
        matrix::render_html(&columns, &[]),
    ] {
        assert!(out.contains("TURN-99"), "{out}");
        assert!(out.contains("unknown to this version"), "{out}");
        assert!(!out.contains("crashed"), "{out}");
    }
}
