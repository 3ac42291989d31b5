//! `mirrorless report`: the matrix of implementations × requirements over real run reports —
//! the embedded reference, the reference adapters in Python and JavaScript and a broken stdio
//! fixture — in Markdown and HTML (insta snapshots), checked as a reader follows it: every
//! failing cell links to a counterexample in the page, the header names each implementation
//! as its `hello` does, and GitHub's renderer sees one table per profile. A file that is not a
//! report, or one of another format version, is an error naming it; the others still render.

use crate::gfm;

use std::path::Path;

fn mirrorless(args: &[&str], cwd: &Path) -> (Option<i32>, String, String) {
    let out = crate::common::mirrorless_command()
        .args(args)
        .current_dir(cwd)
        .env_remove("CI")
        .env_remove("MIRRORLESS_DOCS_URL")
        .output()
        .expect("mirrorless runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The implementations of the matrix: report file name, command after `--` (none: embedded).
const RUNS: [(&str, &[&str]); 4] = [
    ("reference.json", &[]),
    (
        "reference-py.json",
        &["python3", "fixtures/adapters/reference-py/adapter.py"],
    ),
    (
        "reference-js.json",
        &["node", "fixtures/adapters/reference-js/adapter.mjs"],
    ),
    (
        "broken-coalescer.json",
        &[
            "python3",
            "fixtures/impls/broken-stdio/CHUNK-1-coalescer.py",
        ],
    ),
];

/// Writes the JSON report of each run into `dir`. Run in the repository root, so that the
/// replay commands name the fixtures by relative paths; shrinking is bounded by steps only,
/// so the minimal cases do not depend on the machine's speed.
fn write_reports(dir: &Path) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (file, command) in RUNS {
        let mut args = vec![
            "run",
            "--ci",
            "--no-corpus",
            "--cases",
            "64",
            "--shrink-time",
            "600",
            "--format",
            "json",
        ];
        if !command.is_empty() {
            args.push("--");
            args.extend_from_slice(command);
        }
        let (code, json, stderr) = mirrorless(&args, root);
        assert!(matches!(code, Some(0 | 1)), "{file}: {stderr}");
        std::fs::write(dir.join(file), json).expect("write the report");
    }
}

/// The `href="#…"` / `](#…)` targets of `page`, and whether each has its anchor.
fn assert_links_resolve(page: &str, link: &str, anchor: &str) -> usize {
    let mut n = 0;
    for part in page.split(link).skip(1) {
        let target = &part[..part.find(['"', ')']).expect("a link ends")];
        assert!(
            page.contains(&anchor.replace("{}", target)),
            "#{target} has no anchor in the page"
        );
        n += 1;
    }
    n
}

#[test]
fn the_matrix_of_real_reports_in_markdown_and_html() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    write_reports(d);
    let names: Vec<&str> = RUNS.iter().map(|(f, _)| *f).collect();

    let mut args = vec!["report"];
    args.extend(&names);
    let (code, md, stderr) = mirrorless(&args, d);
    assert_eq!(code, Some(0), "{stderr}");
    // The header names each implementation as its `hello` does.
    for label in [
        "reference (embedded) 0.1.0",
        "reference-py 1.0.0",
        "reference-js 1.0.0",
        "broken-coalescer 1.0.0",
    ] {
        assert!(md.contains(&format!("| {label} |")), "{label}: {md}");
    }
    assert!(md.contains("[❌ FAIL ("), "{md}");
    let links = assert_links_resolve(&md, "](#", "<a id=\"{}\"></a>");
    assert_eq!(links, 2, "CHUNK-1 fails under both profiles: {md}");
    insta::assert_snapshot!("matrix_markdown", md);

    let mut args = vec!["report", "--format", "html"];
    args.extend(&names);
    let (code, html, stderr) = mirrorless(&args, d);
    assert_eq!(code, Some(0), "{stderr}");
    // Self-contained: nothing fetched, no script needed.
    for banned in ["<script", "<link", "src=", "http://", "https://", "@import"] {
        assert!(!html.contains(banned), "{banned} in the HTML");
    }
    let links = assert_links_resolve(&html, "href=\"#", "id=\"{}\"");
    assert_eq!(links, 2, "{html}");
    assert!(
        html.contains("<td class=\"fail\"><a href=\"#cx-4-2026-07-chunk-1\">FAIL ("),
        "{html}"
    );
    insta::assert_snapshot!("matrix_html", html);

    // GitHub's renderer: one table per profile, a column per report besides the requirement.
    if let Some(rendered) = gfm::render(&md) {
        let tables = gfm::tables(&rendered);
        assert_eq!(tables.len(), 2, "{rendered}");
        for t in &tables {
            assert_eq!(t.header.len(), 1 + RUNS.len(), "{:?}", t.header);
            assert!(t.rows.len() > 40, "{}", t.rows.len());
            for row in &t.rows {
                assert_eq!(row.len(), 1 + RUNS.len(), "{row:?}");
            }
        }
    }
}

#[test]
fn a_file_that_is_not_a_report_is_named_and_the_others_still_render() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (_, json, stderr) = mirrorless(
        &[
            "run",
            "--ci",
            "--no-corpus",
            "--cases",
            "64",
            "--format",
            "json",
        ],
        root,
    );
    std::fs::write(d.join("good.json"), &json).unwrap_or_else(|e| panic!("{e}: {stderr}"));
    let future = json.replacen("\"format_version\": 2", "\"format_version\": 3", 1);
    assert_ne!(future, json);
    std::fs::write(d.join("future.json"), future).expect("write");
    std::fs::write(
        d.join("lint.json"),
        "{\"tool\": \"mirrorless\", \"findings\": []}",
    )
    .expect("write");
    std::fs::write(
        d.join("broken.json"),
        "{\"format_version\": 1, \"tool\": \"mirrorless\"",
    )
    .expect("write");
    let files = [
        "future.json",
        "good.json",
        "lint.json",
        "broken.json",
        "missing.json",
    ];
    for format in ["markdown", "html"] {
        let mut args = vec!["report", "--format", format];
        args.extend(files);
        let (code, out, stderr) = mirrorless(&args, d);
        assert_eq!(code, Some(2), "{stderr}");
        let want = [
            "error: future.json: format_version 3, but this mirrorless (",
            "error: lint.json: not a `mirrorless run --format json` report: no `format_version`",
            "error: broken.json: not a `mirrorless run --format json` report: not JSON (EOF while parsing an object at line 1 column 42)",
            "error: missing.json: cannot read it: No such file or directory",
        ];
        for w in want {
            assert!(stderr.contains(w), "{w}\n{stderr}");
        }
        // The good report still renders, and the page names what it left out.
        assert!(out.contains("reference (embedded)"), "{out}");
        for f in ["future.json", "lint.json", "broken.json", "missing.json"] {
            assert!(
                out.contains("not rendered: ") && out.contains(f),
                "{f}: {out}"
            );
        }
    }
    // Nothing readable at all: an error, no page.
    let (code, out, stderr) = mirrorless(&["report", "lint.json"], d);
    assert_eq!(code, Some(2));
    assert!(out.is_empty(), "{out}");
    assert!(stderr.contains("error: no report to render"), "{stderr}");
}

/// The real upstream loop (`fixtures/adapters/dsh/`, the pinned npm packages its `setup.sh`
/// installs) beside the reference: its column is named as its `hello` names it, and every
/// requirement it fails is one `expected-verdict.json` documents, linked to its counterexample.
/// Skipped, loudly, when the packages are not installed, unless `MIRRORLESS_REQUIRE_DSH` is set.
#[test]
fn the_real_upstream_loop_has_its_column() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let installed =
        root.join("fixtures/adapters/dsh/node_modules/@deepseek-ai/dsh-agent-loop/package.json");
    if !installed.is_file() {
        assert!(
            std::env::var_os("MIRRORLESS_REQUIRE_DSH").is_none(),
            "MIRRORLESS_REQUIRE_DSH is set but {} is missing",
            installed.display()
        );
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED: the upstream packages are not installed; run fixtures/adapters/dsh/setup.sh (the matrix of the real upstream loop did NOT run)"
        );
        return;
    }
    let expected: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root.join("fixtures/adapters/dsh/expected-verdict.json"))
            .expect("read"),
    )
    .expect("JSON");
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    // 128 cases: the CI seed's first 128 draw the documented fault (a max-tokens step, then a
    // step that dispatches tool calls) at least once.
    for (file, command) in [
        ("reference.json", &[][..]),
        (
            "dsh.json",
            &["node", "fixtures/adapters/dsh/stdio-host.mjs"][..],
        ),
    ] {
        let mut args = vec![
            "run",
            "--ci",
            "--no-corpus",
            "--cases",
            "128",
            "--shrink-time",
            "600",
            "--case-timeout",
            "120",
            "--format",
            "json",
        ];
        if !command.is_empty() {
            args.push("--");
            args.extend_from_slice(command);
        }
        let (code, json, stderr) = mirrorless(&args, root);
        assert!(matches!(code, Some(0 | 1)), "{file}: {stderr}");
        std::fs::write(d.join(file), json).expect("write");
    }
    let (code, md, stderr) = mirrorless(&["report", "reference.json", "dsh.json"], d);
    assert_eq!(code, Some(0), "{stderr}");
    let name = expected["implementation"].as_str().expect("implementation");
    // `@` is escaped, so that the name mentions nobody.
    let shown = name.replace('@', "\\@");
    assert!(md.contains(&format!("| {shown} |")), "{shown}: {md}");
    let profile = expected["profile"].as_str().expect("profile");
    let mut failing = 0;
    for line in md.lines().filter(|l| l.contains("](#cx-2-")) {
        failing += 1;
        let id = line.split_whitespace().nth(1).expect("a requirement");
        assert!(
            expected["failing"].get(id).is_some(),
            "{id} fails but expected-verdict.json does not list it: {line}"
        );
        let anchor = format!("cx-2-{profile}-{}", id.to_ascii_lowercase());
        assert!(line.contains(&format!("(#{anchor})")), "{line}");
        assert!(md.contains(&format!("<a id=\"{anchor}\"></a>")), "{md}");
    }
    assert!(
        failing > 0,
        "the documented upstream fault shows in 128 cases: {md}"
    );
}
