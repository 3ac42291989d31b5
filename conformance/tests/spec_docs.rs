//! `docs/spec/` is generated from the requirement registry. This test regenerates every page
//! (and the site's table of contents, `docs/SUMMARY.md`) and fails when a page is missing,
//! stale, or has no requirement; `MIRRORLESS_BLESS=1` rewrites them instead.
//!
//! A page lists the fixtures that exercise its requirement: every file or directory under
//! `fixtures/` whose name starts with the ID followed by `-`, `_` or `.` (case-insensitive),
//! e.g. `fixtures/check/2026-08/invalid/CHUNK-2-usage-after-finish.jsonl`. Its examples are
//! read from those fixtures (`spec::examples`), and its stdio statements from
//! `docs/protocol/audit.md` (`spec::audit`).

use mirrorless_conformance::Profile;
use mirrorless_conformance::registry::{Enforcement, REQUIREMENTS, requirement};
use mirrorless_conformance::spec::{self, PageContext, audit, examples, history, site};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn fixtures_of(id: &str) -> Vec<String> {
    let root = root();
    let id = id.to_ascii_lowercase();
    let mut found: Vec<String> = walkdir::WalkDir::new(root.join("fixtures"))
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| {
            let name = e.file_name().to_string_lossy().to_ascii_lowercase();
            name.strip_prefix(&id)
                .is_some_and(|rest| rest.starts_with(['-', '_', '.']))
        })
        .filter_map(|e| {
            e.path()
                .strip_prefix(&root)
                .ok()
                .map(|p| p.to_string_lossy().replace('\\', "/"))
        })
        .collect();
    found.sort();
    found
}

fn audit_rows() -> Vec<audit::Row> {
    let path = root().join("docs/protocol/audit.md");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    audit::rows(&text)
}

/// Every Markdown page of `docs/` outside `docs/spec/` and `SUMMARY.md`, README first in each
/// directory, with its first heading as title.
fn other_pages() -> Vec<(String, String)> {
    let docs = root().join("docs");
    let mut pages: Vec<(String, String)> = walkdir::WalkDir::new(&docs)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "md"))
        .filter_map(|e| {
            let rel = e
                .path()
                .strip_prefix(&docs)
                .ok()?
                .to_string_lossy()
                .replace('\\', "/");
            if rel.starts_with("spec/")
                || rel == "SUMMARY.md"
                || rel == "README.md"
                || !rel.contains('/')
            {
                return None;
            }
            let text = std::fs::read_to_string(e.path()).ok()?;
            let title = text
                .lines()
                .find_map(|l| l.strip_prefix("# "))
                .unwrap_or(&rel)
                .trim()
                .to_owned();
            Some((rel, title))
        })
        .collect();
    let order = [
        "guides",
        "protocol",
        "check",
        "run",
        "lint",
        "rules",
        "upstream",
        "benchmarks",
    ];
    pages.sort_by_key(|(path, _)| {
        let dir = path.split('/').next().unwrap_or_default().to_owned();
        let rank = order.iter().position(|d| *d == dir).unwrap_or(order.len());
        (rank, dir, !path.ends_with("/README.md"), path.clone())
    });
    pages
}

fn expected_pages() -> (BTreeMap<String, String>, Vec<String>) {
    let rows = audit_rows();
    let mut missing = Vec::new();
    let mut expected: BTreeMap<String, String> = BTreeMap::new();
    for r in REQUIREMENTS {
        let fixtures = fixtures_of(r.id);
        let example = examples::find(&root(), r).unwrap_or_else(|e| panic!("{}: {e}", r.id));
        if example.is_none() {
            missing.push(r.id.to_owned());
        }
        let stdio: Vec<&audit::Row> = rows
            .iter()
            .filter(|row| row.requirements.contains(&r.id))
            .collect();
        let ctx = PageContext {
            fixtures: &fixtures,
            example: example.as_ref(),
            stdio: &stdio,
        };
        expected.insert(r.page(), spec::page(r, &ctx));
    }
    expected.insert("README.md".into(), spec::index());
    expected.insert("CHANGELOG.md".into(), history::changelog());
    for p in Profile::ALL {
        expected.insert(site::profile_page_name(p), site::profile_page(p));
    }
    (expected, missing)
}

#[test]
fn spec_pages_match_the_registry() {
    let dir = root().join("docs/spec");
    let (expected, _) = expected_pages();
    let summary_path = root().join("docs/SUMMARY.md");
    let summary = site::summary(&other_pages());

    if std::env::var_os("MIRRORLESS_BLESS").is_some() {
        std::fs::create_dir_all(&dir).expect("create docs/spec");
        for entry in std::fs::read_dir(&dir).expect("read docs/spec").flatten() {
            if !expected.contains_key(&*entry.file_name().to_string_lossy()) {
                std::fs::remove_file(entry.path()).expect("remove stale page");
            }
        }
        for (name, text) in &expected {
            std::fs::write(dir.join(name), text).expect("write page");
        }
        std::fs::write(&summary_path, &summary).expect("write docs/SUMMARY.md");
        return;
    }

    let mut problems = Vec::new();
    for (name, text) in &expected {
        match std::fs::read_to_string(dir.join(name)) {
            Ok(actual) if &actual == text => {}
            Ok(_) => problems.push(format!("docs/spec/{name} is stale")),
            Err(_) => problems.push(format!("docs/spec/{name} is missing")),
        }
    }
    for entry in std::fs::read_dir(&dir).expect("read docs/spec").flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !expected.contains_key(&name) {
            problems.push(format!("docs/spec/{name} documents no requirement"));
        }
    }
    if std::fs::read_to_string(&summary_path).ok().as_deref() != Some(summary.as_str()) {
        problems.push("docs/SUMMARY.md (the site's table of contents) is stale".into());
    }
    assert!(
        problems.is_empty(),
        "{}\nregenerate with: MIRRORLESS_BLESS=1 cargo test -p mirrorless-conformance --test it spec_docs::",
        problems.join("\n")
    );
}

/// spec sentence: "Each page shows a minimal conforming and a minimal violating case".
#[test]
fn every_requirement_is_shown_by_example() {
    let (_, missing) = expected_pages();
    let advice: Vec<String> = missing
        .iter()
        .map(|id| {
            let req = requirement(id).expect("a registry ID");
            if req.enforced_by(Enforcement::Log) || req.enforced_by(Enforcement::LiveTrace) {
                format!(
                    "{id} has no example: add fixtures/check/<profile>/invalid/{id}-<what>.jsonl (live \
                     traces: fixtures/check/live/<profile>/invalid/), a copy of a valid log of that \
                     directory broken in one place, which `check` fails with {id} \
                     (fixtures/check/make_fixtures.py writes them)"
                )
            } else {
                format!(
                    "{id} has no example: add fixtures/impls/broken-stdio/{id}-<what>.py, a loop with the \
                     one fault {id} catches, and pin its report in tests/stdio_broken.rs \
                     (tests/snapshots/it__stdio_broken__broken_{id}-<what>.snap)"
                )
            }
        })
        .collect();
    assert!(advice.is_empty(), "{}", advice.join("\n"));
}

/// spec sentence: "`mirrorless explain` prints the page": the terminal text is the page's
/// beginning, word for word.
#[test]
fn explain_is_the_beginning_of_every_page() {
    let (expected, _) = expected_pages();
    for r in REQUIREMENTS {
        let page = &expected[&r.page()];
        assert!(
            page.starts_with(&spec::explain(r)),
            "{}: the page does not begin with `explain`",
            r.id
        );
    }
}

/// The audit of the stdio protocol and the registry say the same thing: every ID the audit
/// names exists, every requirement `run` enforces is named by a statement of §5, and every
/// fixture the audit shows failing exists.
#[test]
fn the_audit_rows_agree_with_the_registry() {
    let rows = audit_rows();
    let text = std::fs::read_to_string(root().join("docs/protocol/audit.md")).expect("audit.md");
    let mut problems = Vec::new();
    // An ID-shaped word of an area the registry knows, which the registry does not hold.
    let areas: Vec<&str> = REQUIREMENTS
        .iter()
        .filter_map(|r| r.id.rsplit_once('-').map(|(a, _)| a))
        .collect();
    for word in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-')) {
        if let Some((area, n)) = word.rsplit_once('-')
            && areas.contains(&area)
            && n.parse::<u32>().is_ok()
            && requirement(word).is_none()
        {
            problems.push(format!(
                "docs/protocol/audit.md names {word}, which is no requirement"
            ));
        }
    }
    for r in REQUIREMENTS
        .iter()
        .filter(|r| r.enforced_by(Enforcement::Driver))
    {
        if !rows.iter().any(|row| row.requirements.contains(&r.id)) {
            problems.push(format!(
                "{}: `mirrorless run` enforces it, but no statement of docs/protocol/audit.md names it: \
                 add the stdio.md §5 statement it checks to the audit's table",
                r.id
            ));
        }
    }
    let impls = root().join("fixtures/impls");
    for row in &rows {
        for name in row.shown_by.split('`').skip(1).step_by(2) {
            let found = if name.contains('/') {
                let pattern = name.trim_end_matches('/');
                glob_exists(&root(), pattern)
            } else if (name.ends_with(".py") || name.ends_with(".rs")) && !name.starts_with('.') {
                [
                    "broken-stdio",
                    "broken-rs",
                    "multi-fault",
                    "conforming",
                    "misbehaving",
                ]
                .iter()
                .any(|d| impls.join(d).join(name).exists())
            } else {
                true
            };
            if !found {
                problems.push(format!(
                    "docs/protocol/audit.md ({}): `{name}` does not exist",
                    row.section
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Whether a repository path with `*` components matches something.
fn glob_exists(root: &Path, pattern: &str) -> bool {
    let mut current = vec![root.to_path_buf()];
    for part in pattern.split('/') {
        let mut next = Vec::new();
        for dir in &current {
            if part.contains('*') {
                let (pre, post) = part.split_once('*').unwrap_or((part, ""));
                for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
                    let n = e.file_name().to_string_lossy().into_owned();
                    if n.starts_with(pre) && n.ends_with(post) {
                        next.push(e.path());
                    }
                }
            } else if dir.join(part).exists() {
                next.push(dir.join(part));
            }
        }
        current = next;
    }
    !current.is_empty()
}

/// The RFC 2119 keywords of a statement, as RFC 2119 means them: the statement carries the
/// keyword of each of its tiers, and a prohibition says MUST NOT / SHOULD NOT, never
/// "no X MUST" (which reads as a requirement of nothing).
#[test]
fn statements_use_rfc_2119_keywords_as_rfc_2119_means_them() {
    let mut problems = Vec::new();
    for r in REQUIREMENTS {
        for profile in r.profiles() {
            if let Some(tier) = r.tier(profile) {
                let word = tier.to_string();
                if !r.statement.contains(&word) {
                    problems.push(format!(
                        "{}: {tier} under {profile}, but its statement has no {word}",
                        r.id
                    ));
                }
            }
        }
        for clause in r.statement.split([';', ',', '.', '(', ')', ':']) {
            let words: Vec<&str> = clause.split_whitespace().collect();
            for (i, w) in words.iter().enumerate() {
                if !matches!(*w, "MUST" | "SHOULD") || words.get(i + 1) == Some(&"NOT") {
                    continue;
                }
                // "no X MUST", but not "a turn with no steps MUST".
                let before: Vec<&&str> = words[..i].iter().rev().take(4).collect();
                let negated = before.iter().enumerate().any(|(k, b)| {
                    matches!(
                        b.to_lowercase().as_str(),
                        "no" | "never" | "nothing" | "none" | "neither"
                    ) && !before
                        .get(k + 1)
                        .is_some_and(|p| matches!(**p, "with" | "without" | "has" | "of"))
                });
                if negated {
                    problems.push(format!(
                        "{}: \"{}\" — a prohibition is written {w} NOT",
                        r.id,
                        clause.trim()
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The changelog of the requirements holds every ID once, and its last version is the spec's.
#[test]
fn the_changelog_of_requirements_names_every_id_and_the_current_version() {
    let mut problems = Vec::new();
    let last = history::HISTORY.last().map(|r| r.version);
    if last != Some(mirrorless_conformance::SPEC_VERSION) {
        problems.push(format!(
            "the last revision of conformance/src/spec/history.rs is {last:?}, but SPEC_VERSION is {}: \
             add a `Revision {{ version: \"{}\", added: &[…], changed: &[…], retired: &[], note: \"…\" }}`",
            mirrorless_conformance::SPEC_VERSION,
            mirrorless_conformance::SPEC_VERSION
        ));
    }
    for r in REQUIREMENTS {
        let added = history::HISTORY
            .iter()
            .filter(|rev| rev.added.contains(&r.id))
            .count();
        if added != 1 {
            problems.push(format!(
                "{}: added by {added} revisions of conformance/src/spec/history.rs; add it to `added` of \
                 the revision of the spec version that introduces it (bump SPEC_VERSION in \
                 conformance/src/lib.rs for a new requirement)",
                r.id
            ));
        }
    }
    for rev in history::HISTORY {
        for id in rev.added.iter().chain(rev.changed) {
            let retired = history::HISTORY.iter().any(|x| x.retired.contains(id));
            if requirement(id).is_none() && !retired {
                problems.push(format!("spec {}: {id} is no requirement", rev.version));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The site's title, which mdBook shows on every page, carries the current spec version.
#[test]
fn every_page_of_the_site_shows_the_spec_version() {
    let toml = std::fs::read_to_string(root().join("book.toml")).expect("book.toml");
    let title = toml
        .lines()
        .find_map(|l| l.strip_prefix("title = "))
        .expect("book.toml sets a title");
    let want = format!("spec {}", mirrorless_conformance::SPEC_VERSION);
    assert!(
        title.contains(&want),
        "book.toml's title {title} does not say `{want}`: set it to the current SPEC_VERSION"
    );
}
