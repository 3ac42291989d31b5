//! The example outputs pasted into the docs are what the tool prints.
//!
//! A fenced block in `README.md` or under `docs/` that shows mirrorless's output is preceded by
//! an HTML comment (invisible when the Markdown is rendered) saying how to reproduce it:
//!
//! ```text
//! <!-- output-of: run --seed 7 -- python3 {root}/fixtures/adapters/reference-py/adapter.py ;; {root}/fixtures/adapters/reference-py/adapter.py => adapter.py -->
//! ```
//!
//! The arguments after `output-of:` are split on whitespace (`{root}` is the repository); they
//! run in a fresh temporary directory, so a run's corpus is never written into the checkout.
//! After ` ;; `, `A => B` pairs rewrite the output (a path as the doc's reader would type it;
//! `A =>` deletes A),
//! and `needs PATH` skips the block when PATH (relative to the repository) is missing — unless
//! `MIRRORLESS_REQUIRE_DSH` is set, as in CI, where a missing prerequisite fails.
//!
//! Every line of the block, except `$ ` command lines, blank lines and lines that start with
//! `[…` or are `…` (elisions), must appear in standard output, in order. Inside a line, `…`
//! stands for any text. Throughput (`N cases/s`) and the shrinker's step counts (`shrunk from
//! …`), which depend on the machine, are compared as placeholders.
//!
//! When the tool's output changes, `MIRRORLESS_BLESS=1 cargo test --test it docs_outputs::` rewrites
//! each stale block with what the tool prints (the marker's `A => B` rewrites applied): the lines
//! that still match stay as written (with their `…` and placeholders), as do the elisions; the
//! stale ones are replaced by the printed lines they stand between (beside an elision, as many
//! as were shown, taken from that side). It still fails, naming every block it rewrote, so
//! that the rewrite is reviewed (`git diff`) and never passes silently; the next run passes.

use std::path::{Path, PathBuf};

const MARKER: &str = "<!-- output-of:";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A pinned block: where it is, how to reproduce it and what it shows.
struct Pinned {
    place: String,
    /// The Markdown file, and the index of the block's first line in it (after the fence).
    file: PathBuf,
    first_line: usize,
    args: Vec<String>,
    rewrites: Vec<(String, String)>,
    needs: Vec<String>,
    shown: Vec<String>,
}

fn markdown_files() -> Vec<PathBuf> {
    let mut files = vec![root().join("README.md")];
    for entry in walkdir::WalkDir::new(root().join("docs")) {
        let entry = entry.unwrap_or_else(|e| panic!("walking docs/: {e}"));
        if entry.file_type().is_file() && entry.path().extension().is_some_and(|e| e == "md") {
            files.push(entry.into_path());
        }
    }
    files.sort();
    files
}

fn parse_marker(comment: &str, place: &str) -> (Vec<String>, Vec<(String, String)>, Vec<String>) {
    let root = root().display().to_string();
    let body = comment
        .trim()
        .strip_prefix(MARKER)
        .and_then(|rest| rest.strip_suffix("-->"))
        .unwrap_or_else(|| panic!("{place}: a marker is `{MARKER} ARGS [;; A => B]... -->`"));
    let mut parts = body.split(" ;; ");
    let args = parts
        .next()
        .unwrap_or_default()
        .split_whitespace()
        .map(|a| a.replace("{root}", &root))
        .collect::<Vec<_>>();
    assert!(!args.is_empty(), "{place}: the marker names no arguments");
    let mut rewrites = Vec::new();
    let mut needs = Vec::new();
    for option in parts {
        let option = option.trim();
        if let Some(path) = option.strip_prefix("needs ") {
            needs.push(path.trim().to_string());
        } else if let Some((from, to)) = option.split_once(" =>") {
            rewrites.push((from.trim().replace("{root}", &root), to.trim().to_string()));
        } else {
            panic!("{place}: unknown marker option {option:?}");
        }
    }
    (args, rewrites, needs)
}

fn pinned_blocks() -> Vec<Pinned> {
    let mut found = Vec::new();
    for file in markdown_files() {
        let text =
            std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let rel = file
            .strip_prefix(root())
            .unwrap_or(&file)
            .display()
            .to_string();
        let lines: Vec<&str> = text.lines().collect();
        let mut i = 0;
        while i < lines.len() {
            if !lines[i].trim_start().starts_with(MARKER) {
                i += 1;
                continue;
            }
            let place = format!("{rel}:{}", i + 1);
            let (args, rewrites, needs) = parse_marker(lines[i], &place);
            let fence = lines.get(i + 1).map(|l| l.trim_start()).unwrap_or_default();
            assert!(
                fence.starts_with("```"),
                "{place}: the marker must be followed by a fenced block"
            );
            let mut shown = Vec::new();
            let mut j = i + 2;
            while j < lines.len() && !lines[j].trim_start().starts_with("```") {
                shown.push(lines[j].to_string());
                j += 1;
            }
            assert!(j < lines.len(), "{place}: the fenced block is never closed");
            found.push(Pinned {
                place,
                file: file.clone(),
                first_line: i + 2,
                args,
                rewrites,
                needs,
                shown,
            });
            i = j + 1;
        }
    }
    found
}

/// Replaces what depends on the machine with placeholders.
fn normalize(line: &str) -> String {
    let mut line = line.trim_end().to_string();
    if let Some(at) = line.find(" cases/s") {
        let digits = line[..at]
            .bytes()
            .rev()
            .take_while(|b| b.is_ascii_digit())
            .count();
        line.replace_range(at - digits..at, "N");
    }
    if let Some(start) = line.find("shrunk from ")
        && let Some(len) = line[start..].find(" steps")
    {
        line.replace_range(start..start + len + " steps".len(), "shrunk (…)");
    }
    line
}

fn is_elision(line: &str) -> bool {
    let line = line.trim();
    line.is_empty() || line.starts_with("$ ") || is_marker(line)
}

/// An elision that stands for output lines (`[… 10 more, trimmed …]`, `…`).
fn is_marker(line: &str) -> bool {
    let line = line.trim();
    line.starts_with("[…") || line == "…"
}

/// Does `output` match the doc's `shown` line, where `…` in `shown` stands for any text?
fn line_matches(shown: &str, output: &str) -> bool {
    let pieces: Vec<&str> = shown.split('…').collect();
    if pieces.len() == 1 {
        return shown == output;
    }
    let (first, last) = (pieces[0], pieces[pieces.len() - 1]);
    if !output.starts_with(first) || !output[first.len()..].ends_with(last) {
        return false;
    }
    let mut rest = &output[first.len()..output.len() - last.len()];
    for piece in &pieces[1..pieces.len() - 1] {
        match rest.find(piece) {
            Some(at) => rest = &rest[at + piece.len()..],
            None => return false,
        }
    }
    true
}

/// The first doc line (with its position in the block) that is missing from `output`, in order.
fn first_unmatched(shown: &[String], output: &[String]) -> Option<(usize, String)> {
    let mut next = 0;
    for (index, line) in shown.iter().enumerate() {
        if is_elision(line) {
            continue;
        }
        let wanted = normalize(line);
        match output[next..].iter().position(|o| line_matches(&wanted, o)) {
            Some(at) => next += at + 1,
            None => return Some((index, line.clone())),
        }
    }
    None
}

fn required() -> bool {
    std::env::var_os("MIRRORLESS_REQUIRE_DSH").is_some_and(|v| !v.is_empty())
}

/// Pairs (shown line, output line) of the longest in-order matching of the block's lines to
/// the (normalized) output: the lines that still hold.
fn alignment(shown: &[String], output: &[String]) -> Vec<(usize, usize)> {
    let wanted: Vec<(usize, String)> = shown
        .iter()
        .enumerate()
        .filter(|(_, l)| !is_elision(l))
        .map(|(i, l)| (i, normalize(l)))
        .collect();
    let (n, m) = (wanted.len(), output.len());
    // best[i][j]: the longest matching of wanted[i..] into output[j..].
    let mut best = vec![vec![0usize; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            best[i][j] = if line_matches(&wanted[i].1, &output[j]) {
                best[i + 1][j + 1] + 1
            } else {
                best[i + 1][j].max(best[i][j + 1])
            };
        }
    }
    let (mut i, mut j, mut pairs) = (0, 0, Vec::new());
    while i < n && j < m {
        if line_matches(&wanted[i].1, &output[j]) && best[i][j] == best[i + 1][j + 1] + 1 {
            pairs.push((wanted[i].0, j));
            i += 1;
            j += 1;
        } else if best[i + 1][j] >= best[i][j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    pairs
}

/// The lines between two matching ones: the shown `gap` with its stale lines replaced by the
/// printed ones (`printed`) they stand between. Without an elision the gap becomes what was
/// printed; beside one, the stale lines before the first elision are replaced by as many
/// printed lines from the start, those after the last by as many from the end, and stale lines
/// between two elisions are dropped. `$ ` command lines stay.
fn blessed_gap(gap: &[String], printed: &[String]) -> Vec<String> {
    if gap.iter().all(|l| is_elision(l)) {
        return gap.to_vec();
    }
    let commands = gap
        .iter()
        .take_while(|l| l.trim().starts_with("$ "))
        .count();
    let (head, gap) = gap.split_at(commands);
    let mut out = head.to_vec();
    let Some(first) = gap.iter().position(|l| is_marker(l)) else {
        // Line for line, the machine's figures the doc shows stay (a test build's throughput
        // is not the release build's the doc quotes).
        let old: Vec<&String> = gap.iter().filter(|l| !l.trim().is_empty()).collect();
        let new: Vec<&String> = printed.iter().filter(|l| !l.trim().is_empty()).collect();
        let paired = old.len() == new.len();
        let mut old = old.into_iter();
        for line in printed {
            let was = (paired && !line.trim().is_empty())
                .then(|| old.next())
                .flatten();
            match was {
                Some(was) => out.push(keep_machine_figures(was, line)),
                None => out.push(line.clone()),
            }
        }
        return out;
    };
    let last = gap.iter().rposition(|l| is_marker(l)).unwrap_or(first);
    let stale = |part: &[String]| part.iter().filter(|l| !is_elision(l)).count();
    let front = stale(&gap[..first]).min(printed.len());
    let back = stale(&gap[last + 1..]).min(printed.len() - front);
    out.extend(printed[..front].iter().cloned());
    out.extend(gap[first..=last].iter().filter(|l| is_elision(l)).cloned());
    out.extend(printed[printed.len() - back..].iter().cloned());
    out
}

/// `new` with the machine-dependent parts [`normalize`] hides (throughput, shrink steps)
/// taken from `old` when both have them.
fn keep_machine_figures(old: &str, new: &str) -> String {
    // (which figure, where): the digits before ` cases/s`, or `shrunk from … steps`.
    let figure = |line: &str| -> Option<(bool, std::ops::Range<usize>)> {
        if let Some(at) = line.find(" cases/s") {
            let digits = line[..at]
                .bytes()
                .rev()
                .take_while(u8::is_ascii_digit)
                .count();
            return (digits > 0).then(|| (true, at - digits..at));
        }
        let start = line.find("shrunk from ")?;
        let len = line[start..].find(" steps")?;
        Some((false, start..start + len + " steps".len()))
    };
    match (figure(old), figure(new)) {
        (Some((a, o)), Some((b, n))) if a == b => {
            let mut out = new.to_owned();
            out.replace_range(n, &old[o]);
            out
        }
        _ => new.to_owned(),
    }
}

/// The block's lines rewritten to what the tool prints (see the module documentation).
fn blessed(shown: &[String], printed: &[String]) -> Vec<String> {
    let normalized: Vec<String> = printed.iter().map(|l| normalize(l)).collect();
    let mut out = Vec::new();
    let (mut next_shown, mut next_printed) = (0, 0);
    for (s, p) in alignment(shown, &normalized) {
        out.extend(blessed_gap(
            &shown[next_shown..s],
            &printed[next_printed..p],
        ));
        out.push(shown[s].clone());
        (next_shown, next_printed) = (s + 1, p + 1);
    }
    out.extend(blessed_gap(&shown[next_shown..], &printed[next_printed..]));
    out
}

/// Writes `block`'s new lines into its file (blocks of one file are written bottom up, so the
/// line numbers of the others still hold).
fn rewrite(file: &Path, blocks: &[(usize, usize, Vec<String>)]) {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let mut blocks: Vec<&(usize, usize, Vec<String>)> = blocks.iter().collect();
    blocks.sort_by_key(|(first, _, _)| std::cmp::Reverse(*first));
    for (first, len, new) in blocks {
        lines.splice(*first..first + len, new.iter().cloned());
    }
    let mut text = lines.join("\n");
    text.push('\n');
    std::fs::write(file, text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
}

/// What `block`'s command prints, with the marker's rewrites applied (not normalized).
fn output_of(block: &Pinned, cwd: &Path) -> Vec<String> {
    let out = crate::common::mirrorless_command()
        .args(&block.args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        // The docs show a developer's run; `CI` would switch on CI mode (fixed seed, a note).
        .env_remove("CI")
        .output()
        .unwrap_or_else(|e| panic!("{}: cannot run mirrorless: {e}", block.place));
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    for (from, to) in &block.rewrites {
        text = text.replace(from, to);
    }
    text.lines().map(|l| l.trim_end().to_owned()).collect()
}

fn blessing() -> bool {
    std::env::var_os("MIRRORLESS_BLESS").is_some_and(|v| !v.is_empty())
}

#[test]
fn the_docs_show_what_the_tool_prints() {
    let blocks = pinned_blocks();
    assert!(
        blocks.len() >= 8,
        "only {} pinned output blocks found: the README and the guides pin theirs",
        blocks.len()
    );
    let mut stale = Vec::new();
    let mut rewritten: std::collections::BTreeMap<PathBuf, Vec<(usize, usize, Vec<String>)>> =
        std::collections::BTreeMap::new();
    let mut blessed_places = Vec::new();
    for block in &blocks {
        let missing: Vec<&String> = block
            .needs
            .iter()
            .filter(|p| !root().join(p).exists())
            .collect();
        if !missing.is_empty() {
            let why = format!(
                "{}: needs {missing:?} (fixtures/adapters/dsh/setup.sh)",
                block.place
            );
            assert!(!required(), "{why}; MIRRORLESS_REQUIRE_DSH is set");
            eprintln!("SKIPPED: {why}");
            continue;
        }
        let cwd = tempfile::tempdir().expect("temporary directory");
        let printed = output_of(block, cwd.path());
        let output: Vec<String> = printed.iter().map(|l| normalize(l)).collect();
        if blessing() && first_unmatched(&block.shown, &output).is_some() {
            let new = blessed(&block.shown, &printed);
            if let Some((index, line)) = first_unmatched(&new, &output) {
                stale.push(format!(
                    "{} (line {} of the rewritten block): MIRRORLESS_BLESS=1 could not rewrite it to match\n    {line}",
                    block.place,
                    index + 1
                ));
                continue;
            }
            blessed_places.push(format!(
                "{} (`mirrorless {}`): {} lines → {} lines",
                block.place,
                block
                    .args
                    .join(" ")
                    .replace(&root().display().to_string(), "{root}"),
                block.shown.len(),
                new.len()
            ));
            rewritten.entry(block.file.clone()).or_default().push((
                block.first_line,
                block.shown.len(),
                new,
            ));
            continue;
        }
        if let Some((index, line)) = first_unmatched(&block.shown, &output) {
            stale.push(format!(
                "{} (line {} of the block): the tool does not print\n    {line}\n  it printed:\n    {}",
                block.place,
                index + 1,
                output.join("\n    ")
            ));
        }
    }
    for (file, blocks) in &rewritten {
        rewrite(file, blocks);
    }
    assert!(
        stale.is_empty(),
        "stale example output:\n{}",
        stale.join("\n\n")
    );
    // Never silently: a rewrite is reviewed, and the next run passes.
    assert!(
        blessed_places.is_empty(),
        "MIRRORLESS_BLESS=1 rewrote {} stale block(s) with what the tool prints; review them (`git diff`) and run the test again:\n  {}",
        blessed_places.len(),
        blessed_places.join("\n  ")
    );
}

fn lines(l: &[&str]) -> Vec<String> {
    l.iter().map(|l| l.to_string()).collect()
}

#[test]
fn blessing_replaces_only_the_stale_lines_and_keeps_elisions() {
    let printed = lines(&[
        "FAIL X-1 — title",
        "  case 1: shrunk from 21 to 2 chunks and actions in 23 steps",
        "  detail a",
        "  detail b",
        "  detail c",
        "",
        "2 failed; 9 requirements passed; 1234 cases/s",
    ]);
    let shown = lines(&[
        "$ mirrorless run",
        "FAIL X-1 — old title",
        "  case 1: shrunk from 3 to 1 chunks and actions in 4 steps",
        "  detail a",
        "[… trimmed …]",
        "  detail z",
        "",
        "1 failed; 9 requirements passed; 77 cases/s",
    ]);
    let want = lines(&[
        "$ mirrorless run",
        "FAIL X-1 — title",
        "  case 1: shrunk from 3 to 1 chunks and actions in 4 steps",
        "  detail a",
        "[… trimmed …]",
        "",
        "2 failed; 9 requirements passed; 1234 cases/s",
    ]);
    // Line for line, the doc's throughput stays.
    assert_eq!(
        blessed(&shown[5..], &printed[4..]),
        lines(&[
            "  detail c",
            "",
            "2 failed; 9 requirements passed; 77 cases/s"
        ])
    );
    let got = blessed(&shown, &printed);
    assert_eq!(got, want);
    let normalized: Vec<String> = printed.iter().map(|l| normalize(l)).collect();
    assert_eq!(first_unmatched(&got, &normalized), None);
    // A block that still matches is left as it is.
    assert_eq!(blessed(&got, &printed), got);
}

#[test]
fn blessing_beside_an_elision_takes_as_many_lines_from_that_side() {
    let printed = lines(&["head", "a", "b", "c", "d", "tail"]);
    let shown = lines(&["head", "x", "[… more …]", "y", "tail"]);
    assert_eq!(
        blessed(&shown, &printed),
        lines(&["head", "a", "[… more …]", "d", "tail"])
    );
}

#[test]
fn matching_takes_elisions_and_placeholders_into_account() {
    let output: Vec<String> = [
        "FAIL X-1 — title",
        "  script: {\"a\":[1,2,3],\"b\":4}",
        "2026-08: conformant — 3 cases, 0 failed; 9 requirements passed; 1234 cases/s",
    ]
    .iter()
    .map(|l| normalize(l))
    .collect();
    let shown = |lines: &[&str]| lines.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    let good = shown(&[
        "FAIL X-1 — title",
        "[… trimmed …]",
        "  script: {\"a\":[…],\"b\":4}",
        "2026-08: conformant — 3 cases, 0 failed; 9 requirements passed; 77 cases/s",
    ]);
    assert_eq!(first_unmatched(&good, &output), None);
    let stale_count =
        shown(&["2026-08: conformant — 3 cases, 0 failed; 8 requirements passed; 1 cases/s"]);
    assert_eq!(
        first_unmatched(&stale_count, &output).map(|(i, _)| i),
        Some(0)
    );
    let out_of_order = shown(&["  script: {\"a\":[…],\"b\":4}", "FAIL X-1 — title"]);
    assert_eq!(
        first_unmatched(&out_of_order, &output).map(|(i, _)| i),
        Some(1)
    );
    assert_eq!(
        normalize("  case 1: shrunk from 21 to 2 chunks and actions in 23 steps"),
        "  case 1: shrunk (…)"
    );
}
