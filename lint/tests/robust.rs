//! Lint survives any source file (issue 11): deeply nested code, huge lines and many findings
//! on one line end in findings, never in a crash. The inputs are generated here (nothing large
//! is committed); their time and memory are measured by `benches/lint_attacks.sh`, not here.

use mirrorless_lint::config::Config;
use mirrorless_lint::model::Finding;
use mirrorless_lint::{Options, Report, lint};
use std::path::Path;

use crate::shapes;

use mirrorless_lint::frontend::depth::MAX_DEPTH;
use shapes::{FLAT, MARKDOWN, RS_SUB, RUST, SCRIPT, Shape, TS_SUB, readings};

fn lint_dir(dir: &Path) -> Report {
    lint(&Options {
        paths: vec![dir.to_path_buf()],
        jobs: Some(2),
        follow: false,
        config: Config {
            root: dir.to_path_buf(),
            ..Config::default()
        },
    })
}

fn rules_of<'a>(report: &'a Report, file: &str) -> Vec<&'a str> {
    let mut r: Vec<&str> = report
        .findings
        .iter()
        .filter(|f| named(&f.path, file))
        .map(|f: &Finding| f.rule)
        .collect();
    r.sort();
    r
}

fn nest(open: &str, inner: &str, close: &str, n: usize) -> String {
    format!("{}{inner}{}", open.repeat(n), close.repeat(n))
}

/// Nesting depths that overflowed the stack before (issue 11), a little deeper.
fn deep_cases() -> Vec<(&'static str, String)> {
    let ts_arrays = format!("{TS_SUB}const x = {};\n", nest("[", "", "]", 6_000));
    let rs_parens = format!(
        "{RS_SUB}fn f() {{ let x = {}; }}\n",
        nest("(", "1", ")", 2_700)
    );
    vec![
        (
            "generics.rs",
            format!("{RS_SUB}type T = {};\n", nest("A<", "u8", ">", 1_200)),
        ),
        (
            "ifs.rs",
            format!("{RS_SUB}fn f() {{ {} }}\n", nest("if a {", "", "}", 1_400)),
        ),
        ("parens.rs", rs_parens.clone()),
        ("arrays.ts", ts_arrays.clone()),
        ("fence-ts.md", format!("# t\n\n```ts\n{ts_arrays}```\n")),
        ("fence-rs.md", format!("# t\n\n```rust\n{rs_parens}```\n")),
    ]
}

#[test]
fn deeply_nested_files_are_parsed() {
    let dir = tempfile::tempdir().unwrap();
    let cases = deep_cases();
    for (name, text) in &cases {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let report = lint_dir(dir.path());
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    for (name, _) in &cases {
        // Parsed, so the subscription is classified as one; nothing is left unparsed.
        assert_eq!(rules_of(&report, name), ["ML001"], "{name}");
    }
}

#[test]
fn files_too_deep_to_parse_are_reported_and_the_run_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let deep = 60_000;
    let files = [
        (
            "deep.rs",
            format!(
                "{RS_SUB}fn f() {{ let x = {}; }}\n",
                nest("(", "1", ")", deep)
            ),
        ),
        (
            "deep.ts",
            format!("{TS_SUB}const x = {};\n", nest("[", "", "]", deep)),
        ),
        ("chain.ts", format!("{TS_SUB}a{};\n", ".b()".repeat(51_200))),
        (
            "fence.md",
            format!(
                "```ts\n{TS_SUB}const x = {};\n```\n",
                nest("(", "1", ")", deep)
            ),
        ),
        ("ok.ts", TS_SUB.to_owned()),
    ];
    for (name, text) in &files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let report = lint_dir(dir.path());
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    // Rust without a tree: the exact string is a reference; TypeScript still sees the call.
    assert_eq!(rules_of(&report, "deep.rs"), ["ML004", "ML009"]);
    assert_eq!(rules_of(&report, "deep.ts"), ["ML001", "ML009"]);
    assert_eq!(rules_of(&report, "chain.ts"), ["ML001", "ML009"]);
    assert_eq!(rules_of(&report, "fence.md"), ["ML001"]);
    assert_eq!(rules_of(&report, "ok.ts"), ["ML001"]);
    let unparsed = report
        .findings
        .iter()
        .find(|f| f.path.ends_with("deep.rs") && f.rule == "ML009")
        .unwrap();
    assert!(
        unparsed.message.contains("nested too deeply"),
        "{unparsed:?}"
    );
    let fenced = report
        .findings
        .iter()
        .find(|f| f.path.ends_with("fence.md"))
        .unwrap();
    assert!(
        fenced
            .note
            .as_deref()
            .unwrap_or("")
            .contains("nested too deeply"),
        "{fenced:?}"
    );
}

#[test]
fn many_findings_on_one_line_cost_linear_memory() {
    let dir = tempfile::tempdir().unwrap();
    let mentions = 4_000;
    let terms = vec!["'agent/turn-start'"; mentions].join(" + ");
    std::fs::write(dir.path().join("mentions.ts"), format!("log({terms});\n")).unwrap();
    let cols = 10_000;
    let table = format!(
        "| {} |\n|{}\n| {} |\n",
        vec!["agent/turn-end"; cols].join(" | "),
        "---|".repeat(cols),
        vec!["x"; cols].join(" | ")
    );
    std::fs::write(dir.path().join("table.md"), table).unwrap();
    let report = lint_dir(dir.path());
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let count = |file: &str| {
        report
            .findings
            .iter()
            .filter(|f| f.path.ends_with(file) && f.event.is_some())
            .count()
    };
    assert_eq!(count("mentions.ts"), mentions);
    assert_eq!(count("table.md"), cols);
    // Each finding keeps a bounded window of its line, starting where the window starts.
    for f in &report.findings {
        assert!(f.line_text.len() <= 1024, "{}", f.line_text.len());
        if let Some(ev) = &f.event {
            let at = f.column - f.line_text_column;
            let shown: String = f.line_text.chars().skip(at).take(ev.len()).collect();
            assert_eq!(&shown, ev, "{f:?}");
        }
    }
    let human =
        mirrorless_lint::render::render(&report, mirrorless_lint::render::Format::Human, false);
    assert!(
        human.len() < report.findings.len() * 2048,
        "{}",
        human.len()
    );
}

#[test]
fn huge_files_and_nested_macros_are_scanned_lexically() {
    let dir = tempfile::tempdir().unwrap();
    // 5 MiB of Rust on one line: over the Rust front end's parse limit.
    let body = "let x = a + b; ".repeat(5 << 20 >> 4);
    std::fs::write(
        dir.path().join("huge.rs"),
        format!("fn f() {{ bus.on(\"agent/turn-start\", h); {body} }}"),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("macros.rs"),
        format!("{RS_SUB}fn f() {{ {}; }}\n", nest("m!(", "", ")", 12_800)),
    )
    .unwrap();
    let report = lint_dir(dir.path());
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert_eq!(rules_of(&report, "huge.rs"), ["ML004", "ML009"]);
    let huge = report
        .findings
        .iter()
        .find(|f| f.path.ends_with("huge.rs") && f.rule == "ML009")
        .unwrap();
    assert!(huge.message.contains("too large to parse"), "{huge:?}");
    let macros = rules_of(&report, "macros.rs");
    assert!(
        macros.contains(&"ML004") || macros.contains(&"ML001"),
        "{macros:?}"
    );
}

/// The estimate the front end bounds `shape` at depth `n` by (for scripts, the deeper of the
/// JSX and plain readings: a file is retried as the other).
fn estimated(shape: &Shape, n: usize) -> usize {
    readings(shape, n).1
}

/// The largest depth (within 2 %) at which `shape` is still estimated within the limit.
fn just_under(shape: &Shape) -> usize {
    let per_thousand = estimated(shape, 1_000);
    let mut n = 1_000 * (MAX_DEPTH - 200) / per_thousand;
    while estimated(shape, n) > MAX_DEPTH {
        n = n * 49 / 50;
    }
    assert!(
        estimated(shape, n) > MAX_DEPTH * 9 / 10,
        "{}: {n} levels estimated at only {}",
        shape.name,
        estimated(shape, n)
    );
    n
}

/// The estimate counts at least one level per repetition of every shape, in the shallower of
/// the two readings: a shape the scanner misreads (a `/` taken for a regular expression that
/// swallows the nesting after it) shows here as an estimate below its depth, before any parse.
#[test]
fn every_shape_is_estimated_at_least_as_deep_as_it_nests() {
    let n = 1_000;
    let code: Vec<&Shape> = RUST.iter().chain(SCRIPT).collect();
    let shallow: Vec<(&str, usize)> = code
        .iter()
        .map(|shape| (shape.name, readings(shape, n).0))
        .filter(|&(_, depth)| depth < n)
        .collect();
    assert!(
        shallow.is_empty(),
        "estimated below {n} levels: {shallow:?}"
    );
}

/// Every shape of code just under the limit parses: the stack sized from the estimate holds.
#[test]
fn every_shape_of_deep_code_parses_under_the_limit() {
    let under = tempfile::tempdir().unwrap();
    let code: Vec<&Shape> = RUST.iter().chain(SCRIPT).collect();
    for shape in &code {
        let n = just_under(shape);
        std::fs::write(under.path().join(shape.name), (shape.make)(n)).unwrap();
    }
    let report = lint_dir(under.path());
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    for shape in &code {
        assert_eq!(rules_of(&report, shape.name), ["ML001"], "{}", shape.name);
    }
}

/// Every shape of code over the limit is one ML009 while the other files' findings stay: a
/// result, never a crash.
#[test]
fn every_shape_of_deep_code_over_the_limit_is_one_error() {
    let over = tempfile::tempdir().unwrap();
    let code: Vec<&Shape> = RUST.iter().chain(SCRIPT).collect();
    for shape in &code {
        let mut deeper = 4_096;
        while readings(shape, deeper).0 <= MAX_DEPTH {
            deeper *= 2;
        }
        std::fs::write(over.path().join(shape.name), (shape.make)(deeper)).unwrap();
    }
    std::fs::write(over.path().join("ok.ts"), TS_SUB).unwrap();
    let report = lint_dir(over.path());
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    for shape in &code {
        let unparsed: Vec<&Finding> = report
            .findings
            .iter()
            .filter(|f| named(&f.path, shape.name) && f.rule == "ML009")
            .collect();
        assert_eq!(unparsed.len(), 1, "{}: {unparsed:?}", shape.name);
        assert!(
            unparsed[0].message.contains("nested too deeply"),
            "{}: {:?}",
            shape.name,
            unparsed[0]
        );
    }
    assert_eq!(rules_of(&report, "ok.ts"), ["ML001"]);
}

/// Flat code without semicolons is flat (issue 19): a line break that ends a statement ends
/// its estimate as a `;` does, so twice as many such lines as the depth limit are estimated
/// shallow, parse and are linted like any file (a line counted as even half a level would
/// refuse them; any count per line shows in the estimate).
#[test]
fn flat_code_without_semicolons_is_parsed_however_long() {
    let dir = tempfile::tempdir().unwrap();
    let lines = 2 * MAX_DEPTH + 1;
    for shape in FLAT {
        let text = (shape.make)(lines);
        let depth = readings(shape, lines).1;
        assert!(depth < 100, "{}: estimated {depth} levels", shape.name);
        std::fs::write(dir.path().join(shape.name), text).unwrap();
    }
    let report = lint_dir(dir.path());
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    for shape in FLAT {
        assert_eq!(rules_of(&report, shape.name), ["ML001"], "{}", shape.name);
    }
}

/// Markdown nests without our bound (pulldown-cmark keeps its own stack): deep block quotes,
/// lists, emphasis and links are read, and code fenced deep inside them is bounded as code.
#[test]
fn deep_markdown_is_read_and_its_fenced_code_bounded() {
    let dir = tempfile::tempdir().unwrap();
    for shape in MARKDOWN {
        std::fs::write(dir.path().join(shape.name), (shape.make)(50_000)).unwrap();
    }
    let report = lint_dir(dir.path());
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    for shape in MARKDOWN {
        assert_eq!(rules_of(&report, shape.name), ["ML001"], "{}", shape.name);
    }
    let fenced = report
        .findings
        .iter()
        .find(|f| f.path.ends_with("fenced-in-quotes.md"))
        .unwrap();
    assert!(
        fenced
            .note
            .as_deref()
            .unwrap_or("")
            .contains("nested too deeply"),
        "{fenced:?}"
    );
}

/// Whether `path` names the file `name` (not merely ends with it: `move-closures.rs`).
fn named(path: &str, name: &str) -> bool {
    path == name || path.ends_with(&format!("/{name}"))
}

/// The reports of many fixes on one long line grow with the findings, not with the findings
/// times the line (issue 18: 4 000 mentions on one 76 KB line gave a 308 MB JSON report):
/// bytes per finding stay bounded however long the line, in every format carrying fixes.
#[test]
fn reports_of_many_fixes_on_one_long_line_are_linear() {
    use mirrorless_lint::render::{Format, render};
    // Each report is linted once and rendered in every format.
    let report_of = |n: usize| {
        let src = format!(
            "export const s = '{}';\n",
            vec!["agent/turn-start"; n].join(" ")
        );
        let config = Config {
            root: ".".into(),
            ..Config::default()
        };
        let report = mirrorless_lint::lint_document(Path::new("one.ts"), &src, &config);
        let fixed = report.findings.iter().filter(|f| f.fix.is_some()).count();
        assert_eq!(fixed, n, "every mention has its suggestion");
        (report, n)
    };
    let (small_report, large_report) = (report_of(200), report_of(4000));
    let per_finding =
        |(report, n): &(_, usize), format: Format| render(report, format, false).len() / n;
    for format in [Format::Json, Format::Rdjson, Format::Sarif, Format::Human] {
        let (small, large) = (
            per_finding(&small_report, format),
            per_finding(&large_report, format),
        );
        // 4 000 findings on a line 20 times as long: about the same bytes each.
        assert!(
            large < 2 * small && large < 4096,
            "{format:?}: {small} bytes per finding at 200, {large} at 4000"
        );
    }
}
