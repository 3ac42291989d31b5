//! Every report points at the finding's place in the file, on lines of any length and of any
//! characters. A finding keeps a window of a line longer than a few hundred bytes
//! (`Finding::line_text`), and a renderer that counts its column within the window points
//! elsewhere: the human report's `-->` line and rdjson's byte columns once did. Generated
//! Markdown and TypeScript lines put a removed name after prefixes of every length (none, a
//! few characters, past the window, thousands) of one-, two- and three-byte characters.

use crate::test_rng::Rng;
use mirrorless_lint::config::Config;
use mirrorless_lint::render::{Format, render};
use mirrorless_lint::{Options, lint};
use serde_json::Value;

const NAMES: &[&str] = &["agent/turn-end", "agent/stream-chunk", "agent/steering"];

/// Text of about `columns` characters: words of ASCII, `é` (two bytes) and `漢` (three).
fn prose(g: &mut Rng, columns: usize) -> String {
    let mut out = String::new();
    while out.chars().count() < columns {
        out.push_str(g.pick(&["word ", "é ", "漢字 ", "a→b ", "x"]));
    }
    out
}

/// A prefix length: none, short, around the window kept of a long line, or far past it.
fn prefix_columns(g: &mut Rng) -> usize {
    match g.below(4) {
        0 => g.below(3),
        1 => g.below(120),
        2 => 140 + g.below(600),
        _ => 1_000 + g.below(4_000),
    }
}

#[test]
fn every_format_points_at_the_name_on_lines_of_any_length() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let mut g = Rng(0x9051_7104);
    for file in 0..12 {
        let mut markdown = String::from("# Notes\n\n");
        let mut script = String::new();
        for _ in 0..6 {
            let (before, after) = (prefix_columns(&mut g), g.below(800));
            let name = g.pick(NAMES);
            markdown.push_str(&format!(
                "{} `{name}` {}\n\n",
                prose(&mut g, before),
                prose(&mut g, after)
            ));
            script.push_str(&format!(
                "const s = '{}'; bus.on('{name}', h); // {}\n",
                prose(&mut g, before),
                prose(&mut g, after)
            ));
        }
        std::fs::write(dir.path().join(format!("n{file}.md")), markdown).expect("write");
        std::fs::write(dir.path().join(format!("s{file}.ts")), script).expect("write");
    }
    let report = lint(&Options {
        paths: vec![dir.path().to_path_buf()],
        jobs: Some(2),
        follow: false,
        config: Config {
            root: dir.path().to_path_buf(),
            ..Config::default()
        },
    });
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let named: Vec<_> = report
        .findings
        .iter()
        .filter(|f| f.event.is_some())
        .collect();
    assert_eq!(named.len(), 12 * 6 * 2, "one finding a name");
    let line_of = |path: &str, line: usize| -> String {
        let text = std::fs::read_to_string(path).expect("read back");
        text.lines().nth(line - 1).unwrap_or_default().to_owned()
    };

    // JSON and SARIF give the finding's character column: the name starts there.
    for f in &named {
        let line = line_of(&f.path, f.line);
        let at: String = line.chars().skip(f.column - 1).collect();
        assert!(
            at.starts_with(f.event.as_deref().unwrap_or_default()),
            "{f:?}"
        );
    }

    // The human report's `-->` lines, in the order of the findings.
    let human = render(&report, Format::Human, false);
    let locations: Vec<&str> = human
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("--> "))
        .collect();
    let expected: Vec<String> = report
        .findings
        .iter()
        .map(|f| format!("{}:{}:{}", f.path, f.line, f.column))
        .collect();
    assert_eq!(locations, expected);

    // rdjson's columns are 1-based byte columns: the range is the name's bytes.
    let rdjson: Value =
        serde_json::from_str(&render(&report, Format::Rdjson, false)).expect("rdjson parses");
    let diagnostics = rdjson["diagnostics"].as_array().expect("diagnostics");
    assert_eq!(diagnostics.len(), report.findings.len());
    for (d, f) in diagnostics.iter().zip(&report.findings) {
        let Some(name) = &f.event else { continue };
        let range = &d["location"]["range"];
        let column = |at: &str| range[at]["column"].as_u64().unwrap_or(0) as usize;
        let line = line_of(&f.path, f.line);
        assert_eq!(
            line.get(column("start") - 1..column("end") - 1),
            Some(name.as_str()),
            "{f:?}"
        );
    }
}
