//! The documentation's examples are checked, not just written:
//!
//! - every workflow and hook file under `docs/examples/` parses as YAML and has the shape its
//!   consumer (GitHub Actions, pre-commit) needs;
//! - every `mirrorless <subcommand> --flag` invoked in them, in the guides' and the README's
//!   shell blocks and in the example hook script names a subcommand and long flags that exist
//!   (checked against `mirrorless <subcommand> --help`);
//! - the migration examples lint as the guide says: each `*.before.*` file is flagged for
//!   exactly its removed event, each `*.after.*` file is clean, for every removed mirror;
//! - `mirrorless lint --fix` of each TypeScript *before* file is its *after* file (with
//!   `--unsafe-fixes` where the guide says so), and the Rust ones get no fix, as it says;
//! - every relative link in `README.md`, `docs/README.md` and `docs/guides/*.md` resolves.

use mirrorless_conformance::vocab::mirrors::REMOVED_MIRRORS;
use serde_norway::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn rel(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// Files under `dir` (recursively, hidden files included) whose name ends with one of `exts`.
fn files_under(dir: &Path, exts: &[&str]) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap_or_else(|e| panic!("walking {}: {e}", dir.display())))
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            exts.iter().any(|ext| name.ends_with(ext))
        })
        .collect();
    out.sort();
    out
}

fn yaml_files() -> Vec<PathBuf> {
    files_under(&root().join("docs/examples"), &[".yml", ".yaml"])
}

fn parse_yaml(path: &Path) -> Value {
    serde_norway::from_str(&read(path))
        .unwrap_or_else(|e| panic!("{}: not valid YAML: {e}", rel(path)))
}

fn get<'a>(map: &'a Value, key: &str) -> Option<&'a Value> {
    map.as_mapping()?.get(Value::String(key.to_owned()))
}

/// The shell command lines of a parsed workflow or hook file, with where they come from.
fn yaml_commands(path: &Path, doc: &Value) -> Vec<(String, String)> {
    let name = rel(path);
    let mut out = Vec::new();
    if let Some(jobs) = get(doc, "jobs") {
        let jobs = jobs
            .as_mapping()
            .unwrap_or_else(|| panic!("{name}: `jobs` is not a mapping"));
        assert!(!jobs.is_empty(), "{name}: no jobs");
        for (job_name, job) in jobs {
            let job_name = job_name.as_str().unwrap_or("?");
            assert!(
                get(job, "runs-on").is_some(),
                "{name}: job `{job_name}` has no `runs-on`"
            );
            let steps = get(job, "steps")
                .and_then(Value::as_sequence)
                .unwrap_or_else(|| panic!("{name}: job `{job_name}` has no `steps` list"));
            assert!(!steps.is_empty(), "{name}: job `{job_name}` has no steps");
            for (i, step) in steps.iter().enumerate() {
                let run = get(step, "run").and_then(Value::as_str);
                let uses = get(step, "uses").and_then(Value::as_str);
                assert!(
                    run.is_some() != uses.is_some(),
                    "{name}: job `{job_name}` step {i} needs exactly one of `run` and `uses`"
                );
                if let Some(uses) = uses {
                    assert!(
                        uses.contains('@'),
                        "{name}: job `{job_name}` step {i}: `uses: {uses}` is not pinned to a version"
                    );
                    // The mirrorless action (action.yml) runs `mirrorless <command> <args>`.
                    if uses.contains("/mirrorless@") {
                        let with = get(step, "with");
                        let input = |key| with.and_then(|w| get(w, key)).and_then(Value::as_str);
                        let line = format!(
                            "mirrorless {} {}",
                            input("command").unwrap_or("lint"),
                            input("args").unwrap_or_default()
                        );
                        out.push((format!("{name} (job {job_name}, action)"), line));
                    }
                }
                for line in run.unwrap_or_default().lines() {
                    out.push((format!("{name} (job {job_name})"), line.to_owned()));
                }
            }
        }
    } else if let Some(hooks) = doc.as_sequence() {
        // .pre-commit-hooks.yaml: a list of hook definitions.
        for hook in hooks {
            out.extend(pre_commit_hook(&name, hook));
        }
    } else if let Some(repos) = get(doc, "repos").and_then(Value::as_sequence) {
        // .pre-commit-config.yaml
        for repo in repos {
            assert!(get(repo, "repo").is_some(), "{name}: a repo without `repo`");
            let hooks = get(repo, "hooks")
                .and_then(Value::as_sequence)
                .unwrap_or_else(|| panic!("{name}: a repo without a `hooks` list"));
            for hook in hooks {
                if get(hook, "entry").is_some() {
                    out.extend(pre_commit_hook(&name, hook));
                } else {
                    assert!(get(hook, "id").is_some(), "{name}: a hook without `id`");
                }
            }
        }
    } else {
        panic!("{name}: neither a GitHub Actions workflow nor a pre-commit file");
    }
    out
}

fn pre_commit_hook(name: &str, hook: &Value) -> Vec<(String, String)> {
    for key in ["id", "name", "entry", "language"] {
        assert!(
            get(hook, key).and_then(Value::as_str).is_some(),
            "{name}: a hook without a string `{key}`"
        );
    }
    let entry = get(hook, "entry")
        .and_then(Value::as_str)
        .unwrap_or_default();
    vec![(format!("{name} (hook entry)"), entry.to_owned())]
}

/// Shell lines of the fenced `sh`/`console`/`bash`/`shell` blocks of a Markdown file. In a
/// `console` block only `$ ` lines are commands.
fn markdown_commands(path: &Path) -> Vec<(String, String)> {
    let text = read(path);
    let mut out = Vec::new();
    let mut fence: Option<String> = None;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(info) = trimmed.strip_prefix("```") {
            fence = match fence {
                Some(_) => None,
                None => Some(info.trim().to_owned()),
            };
            continue;
        }
        let Some(lang) = fence.as_deref() else {
            continue;
        };
        let command = match lang {
            "console" => trimmed.strip_prefix("$ "),
            "sh" | "bash" | "shell" => Some(trimmed),
            _ => None,
        };
        if let Some(command) = command {
            out.push((format!("{}:{}", rel(path), i + 1), command.to_owned()));
        }
    }
    out
}

/// One `mirrorless` invocation: the subcommand (None for the top level) and its long flags.
#[derive(Debug, PartialEq)]
struct Invocation {
    sub: Option<String>,
    flags: Vec<String>,
}

fn is_separator(token: &str) -> bool {
    matches!(token, "|" | "||" | "&&" | ";" | ")" | "2>&1")
        || token.starts_with('>')
        || token.starts_with("2>")
        || token.starts_with('<')
}

/// The `mirrorless` invocations on one shell line: `mirrorless …`, a path ending in
/// `/mirrorless`, `exec mirrorless`, and `cargo run [--release] -- …` (the binary of this
/// repository). A `mirrorless` that is an argument of another command (`cargo install … mirrorless`)
/// is not one.
fn invocations(line: &str) -> Vec<Invocation> {
    let line = line.split(" #").next().unwrap_or_default();
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let at_command_start = i == 0 || is_separator(tokens[i - 1]) || tokens[i - 1] == "exec";
        let mut start = None;
        if at_command_start {
            let t = tokens[i].trim_start_matches("$(");
            if t == "mirrorless" || t.ends_with("/mirrorless") {
                start = Some(i + 1);
            } else if t == "cargo" && tokens.get(i + 1) == Some(&"run") {
                let dashdash = tokens[i..]
                    .iter()
                    .position(|t| *t == "--")
                    .filter(|p| !tokens[i..i + p].iter().any(|t| is_separator(t)));
                start = dashdash.map(|p| i + p + 1);
            }
        }
        let Some(mut j) = start else {
            i += 1;
            continue;
        };
        let mut sub = None;
        let mut flags = Vec::new();
        if let Some(t) = tokens.get(j)
            && !t.starts_with('-')
            && !is_separator(t)
        {
            sub = Some((*t).to_owned());
            j += 1;
        }
        while j < tokens.len() && !is_separator(tokens[j]) && tokens[j] != "--" {
            let t = tokens[j];
            if t.starts_with("--") {
                flags.push(t.split('=').next().unwrap_or(t).to_owned());
            }
            j += 1;
        }
        out.push(Invocation { sub, flags });
        i = j;
    }
    out
}

#[test]
fn invocations_are_found_where_they_are_commands() {
    let inv = |line| invocations(line);
    assert_eq!(
        inv("mirrorless lint --format sarif > x.sarif || [ $? -eq 1 ]"),
        vec![Invocation {
            sub: Some("lint".into()),
            flags: vec!["--format".into()]
        }]
    );
    assert_eq!(
        inv("cargo run --release -- run --cases 8 -- python3 a.py --verbose"),
        vec![Invocation {
            sub: Some("run".into()),
            flags: vec!["--cases".into()]
        }]
    );
    assert_eq!(
        inv("cargo install --locked --git \"$MIRRORLESS_GIT\" mirrorless"),
        vec![]
    );
    assert_eq!(
        inv("zcat s.gz | mirrorless check - # comment --nothing"),
        vec![Invocation {
            sub: Some("check".into()),
            flags: vec![]
        }]
    );
    assert_eq!(
        inv("target/release/mirrorless --version"),
        vec![Invocation {
            sub: None,
            flags: vec!["--version".into()]
        }]
    );
}

/// Every place the docs tell a user to run mirrorless.
fn documented_commands() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for path in yaml_files() {
        out.extend(yaml_commands(&path, &parse_yaml(&path)));
    }
    for path in files_under(&root().join("docs/examples"), &[".sh"]) {
        for (i, line) in read(&path).lines().enumerate() {
            if !line.trim_start().starts_with('#') {
                out.push((format!("{}:{}", rel(&path), i + 1), line.to_owned()));
            }
        }
    }
    let mut markdown = vec![root().join("README.md"), root().join("docs/README.md")];
    markdown.extend(files_under(&root().join("docs/guides"), &[".md"]));
    for path in markdown {
        out.extend(markdown_commands(&path));
    }
    out
}

#[test]
fn example_yaml_files_parse_and_have_their_shape() {
    let files = yaml_files();
    let names: BTreeSet<String> = files.iter().map(|p| rel(p)).collect();
    for expected in [
        "docs/examples/pre-commit/.pre-commit-hooks.yaml",
        "docs/examples/pre-commit/.pre-commit-config.yaml",
    ] {
        assert!(names.contains(expected), "missing {expected}");
    }
    assert!(
        names.iter().filter(|n| n.contains("/github/")).count() >= 4,
        "expected the four GitHub workflows, found {names:?}"
    );
    for path in files {
        let doc = parse_yaml(&path);
        if rel(&path).contains("/github/") {
            assert!(get(&doc, "on").is_some(), "{}: no `on` trigger", rel(&path));
        }
        assert!(
            !yaml_commands(&path, &doc).is_empty(),
            "{}: runs nothing",
            rel(&path)
        );
    }
}

#[test]
fn every_documented_mirrorless_command_and_flag_exists() {
    let bin = env!("CARGO_BIN_EXE_mirrorless");
    let mut help: BTreeMap<Option<String>, String> = BTreeMap::new();
    let mut checked = 0;
    let mut problems = Vec::new();
    for (place, line) in documented_commands() {
        for inv in invocations(&line) {
            checked += 1;
            let text = help.entry(inv.sub.clone()).or_insert_with(|| {
                let mut cmd = Command::new(bin);
                cmd.args(inv.sub.iter()).arg("--help");
                match cmd.output() {
                    Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout).into_owned(),
                    _ => String::new(),
                }
            });
            let sub = inv.sub.as_deref().unwrap_or("");
            if text.is_empty() {
                problems.push(format!(
                    "{place}: `mirrorless {sub}` is not a subcommand: {line}"
                ));
                continue;
            }
            for flag in &inv.flags {
                let known = text.match_indices(flag.as_str()).any(|(at, _)| {
                    let next = text[at + flag.len()..].chars().next();
                    !matches!(next, Some(c) if c.is_alphanumeric() || c == '-' || c == '_')
                });
                if !known {
                    problems.push(format!(
                        "{place}: `mirrorless {sub}` has no flag {flag}: {line}"
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(
        checked >= 20,
        "only {checked} invocations found: is the extraction broken?"
    );
}

/// Lints one file with no configuration; returns (severity, event) per finding.
fn lint(path: &Path) -> Vec<(String, Option<String>)> {
    let output = crate::common::mirrorless_command()
        .args(["lint", "--no-config", "--format", "json"])
        .arg(path)
        .output()
        .unwrap_or_else(|e| panic!("running mirrorless lint {}: {e}", rel(path)));
    let doc: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "{}: lint output is not JSON ({e}); stderr: {}",
            rel(path),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    assert_eq!(
        doc["errors"].as_array().map(Vec::len),
        Some(0),
        "{}: {}",
        rel(path),
        doc["errors"]
    );
    doc["findings"]
        .as_array()
        .unwrap_or_else(|| panic!("{}: no findings array", rel(path)))
        .iter()
        .map(|f| {
            (
                f["severity"].as_str().unwrap_or_default().to_owned(),
                f["event"].as_str().map(str::to_owned),
            )
        })
        .collect()
}

#[test]
fn migration_examples_before_is_flagged_after_is_clean() {
    let dir = root().join("docs/examples/migrate");
    for (lang, ext) in [("rust", "rs"), ("ts", "ts")] {
        for mirror in REMOVED_MIRRORS {
            let slug = mirror.name.trim_start_matches("agent/");
            let before = dir.join(lang).join(format!("{slug}.before.{ext}"));
            let after = dir.join(lang).join(format!("{slug}.after.{ext}"));
            let findings = lint(&before);
            assert!(
                findings.iter().any(|(severity, _)| severity == "error"),
                "{}: expected an error-level finding, got {findings:?}",
                rel(&before)
            );
            for (_, event) in &findings {
                assert_eq!(
                    event.as_deref(),
                    Some(mirror.name),
                    "{}: a finding for another event",
                    rel(&before)
                );
            }
            let findings = lint(&after);
            assert!(
                findings.is_empty(),
                "{}: expected no findings, got {findings:?}",
                rel(&after)
            );
        }
    }
    // No stray example that the loop above does not check.
    let all = files_under(&dir, &[".rs", ".ts"]);
    assert_eq!(all.len(), 4 * REMOVED_MIRRORS.len(), "{all:?}");
}

/// Relative link targets of a Markdown file: `[text](target)`, outside fenced code blocks.
fn relative_links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut in_fence = false;
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            let Some(end) = rest.find(')') else { break };
            let target = rest[..end].trim().trim_matches(['<', '>']);
            let target = target.split_whitespace().next().unwrap_or_default();
            rest = &rest[end..];
            if target.is_empty() || target.starts_with('#') || target.contains("://") {
                continue;
            }
            if target.starts_with("mailto:") {
                continue;
            }
            let path = target.split('#').next().unwrap_or_default();
            out.push((i + 1, path.to_owned()));
        }
    }
    out
}

#[test]
fn relative_links_in_readme_and_guides_resolve() {
    let mut files = vec![root().join("README.md"), root().join("docs/README.md")];
    files.extend(files_under(&root().join("docs/guides"), &[".md"]));
    let mut broken = Vec::new();
    let mut count = 0;
    for file in files {
        let base = file.parent().unwrap_or(Path::new("."));
        for (line, target) in relative_links(&read(&file)) {
            count += 1;
            if !base.join(&target).exists() {
                broken.push(format!("{}:{line}: {target}", rel(&file)));
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    assert!(count >= 20, "only {count} relative links found");
}

#[test]
fn link_extraction_skips_urls_anchors_and_code() {
    let text = "[a](docs/x.md#sec) [b](https://x.invalid) [c](#top)\n```\n[d](no.md)\n```\n[e](y.md \"title\")";
    assert_eq!(
        relative_links(text),
        vec![(1, "docs/x.md".to_owned()), (5, "y.md".to_owned())]
    );
}

#[test]
fn migration_guide_shows_every_example_verbatim() {
    let guide = read(&root().join("docs/guides/migrate.md"));
    for path in files_under(&root().join("docs/examples/migrate"), &[".rs", ".ts"]) {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let body = read(&path);
        assert!(
            guide.contains(&format!("\n{body}```")),
            "docs/guides/migrate.md does not show {} as it is (regenerate the section)",
            rel(&path)
        );
        assert!(
            guide.contains(name),
            "docs/guides/migrate.md does not name {name}"
        );
    }
}

/// Fixes a copy of `before` (`--fix`, plus `--unsafe-fixes` when asked) and returns the result.
fn fixed_copy(before: &Path, unsafe_fixes: bool) -> String {
    let dir = tempfile::tempdir().unwrap();
    let name = before.file_name().unwrap();
    std::fs::copy(before, dir.path().join(name)).unwrap();
    let mut cmd = crate::common::mirrorless_command();
    cmd.args(["lint", "--no-config", "--fix"])
        .current_dir(dir.path());
    if unsafe_fixes {
        cmd.arg("--unsafe-fixes");
    }
    let out = cmd.arg(name).output().unwrap();
    assert_ne!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    read(&dir.path().join(name))
}

#[test]
fn migration_examples_fix_to_their_after_file_as_the_guide_says() {
    let dir = root().join("docs/examples/migrate");
    let guide = read(&root().join("docs/guides/migrate.md"));
    // Every TypeScript handler here reads fields uncast and nothing in its file shows how the
    // host types `session/event`'s `data` (and two use the agent): each fix is a suggestion.
    let suggestion_only = [
        "steering",
        "turn-end",
        "stream-chunk",
        "turn-start",
        "step-start",
        "step-end",
    ];
    for mirror in REMOVED_MIRRORS {
        let slug = mirror.name.trim_start_matches("agent/");
        let before = dir.join("ts").join(format!("{slug}.before.ts"));
        let after = read(&dir.join("ts").join(format!("{slug}.after.ts")));
        let machine = fixed_copy(&before, false);
        if suggestion_only.contains(&slug) {
            assert_eq!(machine, read(&before), "{slug}: --fix alone changed it");
            assert_eq!(
                fixed_copy(&before, true),
                after,
                "{slug}: --fix --unsafe-fixes"
            );
            assert!(
                guide.contains(&format!("`{slug}`"))
                    && guide.contains("with `--fix --unsafe-fixes`")
            );
        } else {
            assert_eq!(
                machine, after,
                "{slug}: the fix of the before file is not the after file"
            );
        }
        // Rust: the fix of the before file is its after file, except where the guide says the
        // handler needs the agent (no fix: the after file is written by hand).
        let rust = dir.join("rust").join(format!("{slug}.before.rs"));
        let rust_after = read(&dir.join("rust").join(format!("{slug}.after.rs")));
        let (machine, unsafe_fixed) = (fixed_copy(&rust, false), fixed_copy(&rust, true));
        match slug {
            "steering" | "turn-end" => {
                assert_eq!(unsafe_fixed, read(&rust), "{slug}.before.rs got a fix");
            }
            "stream-chunk" => {
                assert_eq!(
                    machine,
                    read(&rust),
                    "{slug}.before.rs: --fix alone changed it"
                );
                assert_eq!(
                    unsafe_fixed, rust_after,
                    "{slug}.before.rs: --fix --unsafe-fixes"
                );
            }
            _ => assert_eq!(machine, rust_after, "{slug}.before.rs: --fix"),
        }
    }
    assert!(guide.contains(
        "The fix of each Rust *before* file is its *after* file too, but for `steering` and `turn-end`"
    ));
}
