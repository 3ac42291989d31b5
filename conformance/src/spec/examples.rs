//! The examples of a spec page, taken from the repository's fixtures so that they cannot drift:
//!
//! * a rule `mirrorless check` enforces is shown by an invalid log (or live trace) of
//!   `fixtures/check/`, named after the requirement: the line the checker flags (found by
//!   running the checker) with the lines around it, next to the lines of a valid fixture of the
//!   same directory whose events have the most in common with them;
//! * a rule only `mirrorless run` sees is shown by the pinned report of a broken implementation
//!   (`tests/snapshots/it__stdio_broken__broken_<ID>-….snap`): the model script, what a conforming
//!   loop records for it, and what the broken one recorded instead.

use crate::check::{LogChecker, check_live_reader};
use crate::registry::{Enforcement, Requirement};
use crate::vocab::Profile;
use std::fmt::Write as _;
use std::io::{self, BufReader};
use std::path::{Path, PathBuf};

/// Lines shown before the flagged line, and after it (counting the flagged one).
const CONTEXT_BEFORE: usize = 2;
const CONTEXT_AFTER: usize = 2;
/// A longer line is cut (the excerpt names its file and line, where the whole line is).
const MAX_LINE_CHARS: usize = 220;

/// Some lines of one fixture file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Excerpt {
    /// The file, relative to the repository root.
    pub path: String,
    /// (1-based line number, text), in order; a gap between numbers is shown as such.
    pub lines: Vec<(usize, String)>,
    /// The line a finding points at, when it is one of `lines`.
    pub flagged: Option<usize>,
}

/// How a requirement is shown by example.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Example {
    /// A recorded log or live trace: `mirrorless check` (`--live`) sees the violation.
    Recorded {
        /// The profile both files are checked under.
        profile: Profile,
        /// Whether the files are live traces rather than session logs.
        live: bool,
        /// Lines of the valid fixture: they conform.
        conforming: Excerpt,
        /// The same place in the invalid fixture, with the flagged line.
        violating: Excerpt,
        /// What the checker says about the flagged line.
        finding: String,
    },
    /// A model script played by `mirrorless run` against a broken implementation.
    Run {
        /// The profile of the case.
        profile: Profile,
        /// The pinned report the example is read from, relative to the repository root.
        snapshot: String,
        /// The broken implementation, relative to the repository root.
        implementation: String,
        /// The minimal model script, as JSON.
        script: String,
        /// What a conforming implementation records at the divergence.
        expected: Vec<String>,
        /// What the broken implementation recorded there.
        observed: Vec<String>,
        /// What `mirrorless run` says.
        finding: String,
    },
}

/// Finds the example of `req` under the repository at `root`: a recorded one when `check`
/// enforces the rule and a fixture breaks it, else a run. `Ok(None)` when the fixtures hold
/// none (a test turns that into what to add).
pub fn find(root: &Path, req: &Requirement) -> io::Result<Option<Example>> {
    let live = req.enforced_by(Enforcement::LiveTrace);
    if req.enforced_by(Enforcement::Log) || live {
        for profile in req.profiles() {
            let dir = if live {
                root.join("fixtures/check/live").join(profile.name())
            } else {
                root.join("fixtures/check").join(profile.name())
            };
            if let Some(example) = recorded(root, &dir, req.id, profile, live)? {
                return Ok(Some(example));
            }
        }
    }
    run(root, req.id)
}

/// Files in `dir` whose name starts with `prefix` and ends with `suffix`, sorted.
fn named(dir: &Path, prefix: &str, suffix: &str) -> io::Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(found),
        Err(e) => return Err(e),
    };
    for entry in entries {
        let path = entry?.path();
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if name.starts_with(prefix) && name.ends_with(suffix) {
            found.push(path);
        }
    }
    found.sort();
    Ok(found)
}

fn relative(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .to_string_lossy()
        .replace('\\', "/")
}

fn read_lines(path: &Path) -> io::Result<Vec<String>> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
    Ok(text.lines().map(str::to_owned).collect())
}

/// The first finding of `id` on `path`: its 1-based line (the last line when it has none)
/// and its message.
fn flag(
    path: &Path,
    id: &str,
    profile: Profile,
    live: bool,
) -> io::Result<Option<(usize, String)>> {
    let file = std::fs::File::open(path)
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
    let findings = if live {
        check_live_reader(profile, BufReader::new(file))?.findings
    } else {
        LogChecker::check_reader(profile, BufReader::new(file))?.findings
    };
    Ok(findings.into_iter().find(|f| f.requirement == id).map(|f| {
        let line = f.line.and_then(|l| usize::try_from(l).ok()).unwrap_or(0);
        (line, f.message)
    }))
}

fn recorded(
    root: &Path,
    dir: &Path,
    id: &str,
    profile: Profile,
    live: bool,
) -> io::Result<Option<Example>> {
    let Some(invalid) = named(&dir.join("invalid"), &format!("{id}-"), ".jsonl")?
        .into_iter()
        .next()
    else {
        return Ok(None);
    };
    let Some((flagged, finding)) = flag(&invalid, id, profile, live)? else {
        return Ok(None);
    };
    let bad = read_lines(&invalid)?;
    let flagged = if flagged == 0 || flagged > bad.len() {
        bad.len()
    } else {
        flagged
    };
    // The lines up to the flagged one, and the one after it.
    let first = flagged.saturating_sub(1 + CONTEXT_BEFORE);
    let window: Vec<usize> = (first..(flagged + CONTEXT_AFTER - 1).min(bad.len())).collect();
    let shapes: Vec<String> = window.iter().map(|&i| shape(&bad[i])).collect();
    // The conforming excerpt: the run of as many lines of a valid fixture in which the most
    // events have the shape of the violating lines at the same place, above all the flagged
    // one (the earliest of equals).
    let mut best: Option<(usize, PathBuf, Vec<String>, usize)> = None;
    for path in named(&dir.join("valid"), "", ".jsonl")? {
        let good = read_lines(&path)?;
        let good_shapes: Vec<String> = good.iter().map(|l| shape(l)).collect();
        // A violation at the top of the file is compared with the top of a valid one.
        let starts = if first == 0 {
            0..=0
        } else {
            0..=good.len().saturating_sub(window.len())
        };
        for start in starts {
            // The flagged line's kind of event at its place counts as much as all the others.
            let at_flag = flagged - 1 - first;
            let score = shapes
                .iter()
                .zip(&good_shapes[start..])
                .enumerate()
                .map(|(i, (a, b))| match (a == b, i == at_flag) {
                    (true, true) => shapes.len(),
                    (true, false) => 1,
                    (false, _) => 0,
                })
                .sum::<usize>();
            if best.as_ref().is_none_or(|(s, ..)| score > *s) {
                best = Some((score, path.clone(), good.clone(), start));
            }
        }
    }
    let Some((_, valid, good, start)) = best else {
        return Ok(None);
    };
    let conforming: Vec<usize> = (start..(start + window.len()).min(good.len())).collect();
    let excerpt =
        |path: &Path, lines: &[String], shown: &[usize], flagged: Option<usize>| Excerpt {
            path: relative(root, path),
            lines: shown.iter().map(|&i| (i + 1, clip(&lines[i]))).collect(),
            flagged,
        };
    Ok(Some(Example::Recorded {
        profile,
        live,
        conforming: excerpt(&valid, &good, &conforming, None),
        violating: excerpt(&invalid, &bad, &window, Some(flagged)),
        finding,
    }))
}

/// What kind of line it is, for matching a violating excerpt with a conforming one: the event
/// type (a live trace's event name), and a chunk's type.
fn shape(line: &str) -> String {
    let Ok(value) = serde_json::from_str::<serde_json::Value>(line) else {
        return String::from("?");
    };
    let name = value
        .get("type")
        .or_else(|| value.get("event"))
        .and_then(|t| t.as_str())
        .unwrap_or("?");
    match value.pointer("/data/chunk/type").and_then(|t| t.as_str()) {
        Some(chunk) => format!("{name} {chunk}"),
        None => name.to_owned(),
    }
}

fn clip(line: &str) -> String {
    if line.chars().count() <= MAX_LINE_CHARS {
        return line.to_owned();
    }
    let mut cut: String = line.chars().take(MAX_LINE_CHARS).collect();
    cut.push_str(" …");
    cut
}

/// The first failure of `id` in its first pinned broken-implementation report.
fn run(root: &Path, id: &str) -> io::Result<Option<Example>> {
    let snapshots = root.join("tests/snapshots");
    for path in named(
        &snapshots,
        &format!("it__stdio_broken__broken_{id}-"),
        ".snap",
    )? {
        let text = std::fs::read_to_string(&path)?;
        if let Some(example) = parse_report(&text, id, &relative(root, &path)) {
            return Ok(Some(example));
        }
    }
    Ok(None)
}

/// Reads the first `FAIL <id> … [profile]` block of a pinned `mirrorless run` report.
fn parse_report(text: &str, id: &str, snapshot: &str) -> Option<Example> {
    let mut lines = text
        .lines()
        .skip_while(|l| !l.starts_with(&format!("FAIL {id} ")));
    let head = lines.next()?;
    let profile: Profile = head
        .rsplit_once('[')?
        .1
        .trim_end_matches(']')
        .parse()
        .ok()?;
    let (mut finding, mut script, mut implementation) = (None, None, None);
    let (mut expected, mut observed) = (Vec::new(), Vec::new());
    let mut into: Option<&mut Vec<String>> = None;
    for line in lines.take_while(|l| !l.starts_with("FAIL ") && !l.starts_with("PASS ")) {
        let depth = line.len() - line.trim_start().len();
        let body = line.trim();
        if depth <= 2 {
            into = None;
        }
        if depth == 4 && body == "expected:" {
            into = Some(&mut expected);
        } else if depth == 4 && body == "observed:" {
            into = Some(&mut observed);
        } else if let Some(list) = into.as_mut().filter(|_| depth > 4) {
            list.push(clip(body));
        } else if let Some(s) = body.strip_prefix("script: ") {
            script = Some(s.to_owned());
        } else if let Some(r) = body.strip_prefix("replay: ") {
            implementation = r.rsplit(' ').next().map(str::to_owned);
        } else if body.starts_with(&format!("{id} at ")) && finding.is_none() {
            finding = Some(body.to_owned());
        }
    }
    let script = script?;
    let pretty = serde_json::from_str::<serde_json::Value>(&script)
        .map(|v| {
            let mut out = String::new();
            layout(&v, 0, &mut out);
            out
        })
        .unwrap_or(script);
    Some(Example::Run {
        profile,
        snapshot: snapshot.to_owned(),
        implementation: implementation?,
        script: pretty,
        expected,
        observed,
        finding: finding?,
    })
}

/// A value no wider than this stays on one line.
const ONE_LINE: usize = 90;

/// `value` indented by two spaces a level, with every value that fits on one line kept there.
fn layout(value: &serde_json::Value, depth: usize, out: &mut String) {
    let compact = value.to_string();
    if compact.len() + depth * 2 <= ONE_LINE {
        out.push_str(&compact);
        return;
    }
    let pad = "  ".repeat(depth + 1);
    match value {
        serde_json::Value::Array(items) => {
            out.push_str("[\n");
            for (i, item) in items.iter().enumerate() {
                out.push_str(&pad);
                layout(item, depth + 1, out);
                out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
            }
            out.push_str(&"  ".repeat(depth));
            out.push(']');
        }
        serde_json::Value::Object(fields) => {
            out.push_str("{\n");
            for (i, (key, item)) in fields.iter().enumerate() {
                out.push_str(&pad);
                out.push_str(&serde_json::Value::from(key.as_str()).to_string());
                out.push_str(": ");
                layout(item, depth + 1, out);
                out.push_str(if i + 1 < fields.len() { ",\n" } else { "\n" });
            }
            out.push_str(&"  ".repeat(depth));
            out.push('}');
        }
        _ => out.push_str(&compact),
    }
}

/// The excerpt as a text block: `  14 │ line`, the flagged line marked `>`, a gap as `┆`.
fn block(excerpt: &Excerpt) -> String {
    let width = excerpt.lines.last().map_or(1, |(n, _)| n.to_string().len());
    let mut out = String::from("```text\n");
    let mut last = None;
    for (n, text) in &excerpt.lines {
        if last.is_some_and(|l: usize| n - l > 1) {
            let _ = writeln!(out, "  {:>width$} ┆", "");
        }
        let mark = if excerpt.flagged == Some(*n) {
            '>'
        } else {
            ' '
        };
        let _ = writeln!(out, "{mark} {n:>width$} │ {text}");
        last = Some(*n);
    }
    out.push_str("```\n");
    out
}

/// A path in the repository, linked from a page under `docs/spec/`.
fn repo_link(path: &str) -> String {
    format!("[`{path}`](../../{path})")
}

/// The Markdown of the `## Examples` section.
pub fn render(example: &Example) -> String {
    let mut out = String::from("## Examples\n\n");
    match example {
        Example::Recorded {
            profile,
            live,
            conforming,
            violating,
            finding,
        } => {
            let (what, command) = if *live {
                ("live trace", "mirrorless check --live")
            } else {
                ("session log", "mirrorless check")
            };
            let _ = writeln!(
                out,
                "Under {profile}, `{command}` accepts this {what} ({}):\n",
                repo_link(&conforming.path)
            );
            out.push_str(&block(conforming));
            let _ = writeln!(
                out,
                "\nand rejects this one ({}) at the line marked `>`:\n",
                repo_link(&violating.path)
            );
            out.push_str(&block(violating));
            let _ = writeln!(out, "\n> {}", one_line(finding));
        }
        Example::Run {
            profile,
            snapshot,
            implementation,
            script,
            expected,
            observed,
            finding,
        } => {
            let _ = writeln!(
                out,
                "Only `mirrorless run` sees this rule: it needs the model script. Under {profile}, \
                 the minimal script of the pinned report {}:\n",
                repo_link(snapshot)
            );
            let _ = writeln!(out, "```json\n{script}\n```\n");
            out.push_str("A conforming implementation records:\n\n```text\n");
            for line in expected {
                let _ = writeln!(out, "{line}");
            }
            let _ = writeln!(
                out,
                "```\n\n{} records instead:\n\n```text",
                repo_link(implementation)
            );
            for line in observed {
                let _ = writeln!(out, "{line}");
            }
            let _ = writeln!(out, "```\n\n> {}", one_line(finding));
        }
    }
    out
}

/// A finding's message on one quoted line (Markdown would end the quote at a newline).
fn one_line(text: &str) -> String {
    text.replace('\n', " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    const REPORT: &str = "---\nsource: x\n---\nFAIL TURN-8 — A turn goes on [2026-08]\n  case 1: shrunk\n  TURN-8 at log #10: turn 1 ended\n    expected:\n      step/start {turn: 1, step: 2}\n    observed:\n      #10 turn/end {}\n  script: {\"profile\":\"2026-08\"}\n  replay: save …, then mirrorless replay CASE.json -- python3 fixtures/impls/broken-stdio/TURN-8-x.py\n";

    /// The parts of a pinned report a page shows are read from their places.
    #[test]
    fn a_pinned_report_gives_script_expected_and_observed() {
        let Some(Example::Run {
            profile,
            implementation,
            expected,
            observed,
            finding,
            ..
        }) = parse_report(REPORT, "TURN-8", "s.snap")
        else {
            panic!("no example read from the report");
        };
        assert_eq!(profile, Profile::V2026_08);
        assert_eq!(implementation, "fixtures/impls/broken-stdio/TURN-8-x.py");
        assert_eq!(expected, ["step/start {turn: 1, step: 2}"]);
        assert_eq!(observed, ["#10 turn/end {}"]);
        assert_eq!(finding, "TURN-8 at log #10: turn 1 ended");
        assert!(parse_report(REPORT, "TURN-1", "s.snap").is_none());
    }

    /// A gap between shown lines is drawn, and only the flagged line is marked.
    #[test]
    fn an_excerpt_marks_its_flagged_line_and_its_gaps() {
        let excerpt = Excerpt {
            path: "f.jsonl".into(),
            lines: vec![(1, "a".into()), (2, "b".into()), (9, "c".into())],
            flagged: Some(9),
        };
        assert_eq!(
            block(&excerpt),
            "```text\n  1 │ a\n  2 │ b\n    ┆\n> 9 │ c\n```\n"
        );
    }
}
