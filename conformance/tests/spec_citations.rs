//! Every requirement cites its upstream evidence (`conformance/src/citations.rs`), for each
//! profile it applies to, and every cited file existed at its commit with the cited lines.
//!
//! The check runs offline against `conformance/data/upstream-files.tsv` (commit, path, line
//! count of every cited file). With `MIRRORLESS_UPSTREAM_GIT` naming a git directory of
//! `deepseek-ai/deepseek-harness` (a bare clone is enough), it also reads each file at its commit
//! and compares; `MIRRORLESS_BLESS=1` with it rewrites the data file from the repository.

use mirrorless_conformance::Profile;
use mirrorless_conformance::citations::{CITATIONS, Citation};
use mirrorless_conformance::registry::{REQUIREMENTS, requirement};
use mirrorless_conformance::upstream_history::{Change, NOTES};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

const DATA: &str = "conformance/data/upstream-files.tsv";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// (commit, path) → line count, from the data file.
fn recorded() -> BTreeMap<(String, String), u32> {
    let text = std::fs::read_to_string(root().join(DATA)).unwrap_or_default();
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
        .map(|(i, l)| {
            let cols: Vec<&str> = l.split('\t').collect();
            assert_eq!(
                cols.len(),
                3,
                "{DATA}:{}: want commit<TAB>path<TAB>lines",
                i + 1
            );
            let lines = cols[2]
                .parse()
                .unwrap_or_else(|_| panic!("{DATA}:{}: line count {:?}", i + 1, cols[2]));
            ((cols[0].to_owned(), cols[1].to_owned()), lines)
        })
        .collect()
}

fn cited_files() -> BTreeSet<(String, String)> {
    let bugs = NOTES.iter().filter_map(|n| match n.change {
        Change::KnownBug { at, path, .. } => Some((at, path)),
        Change::Since { .. } => None,
    });
    CITATIONS
        .iter()
        .map(|c| (c.commit, c.path))
        .chain(bugs)
        .map(|(commit, path)| (commit.to_owned(), path.to_owned()))
        .collect()
}

/// What to add for a requirement without evidence for `profile`: the whole instruction, so that
/// a requirement added by a merge says how to mend it.
fn missing_message(id: &str, profile: Profile) -> String {
    let (ctor, commit) = match profile {
        Profile::V2026_07 => ("m", "ERA_M"),
        Profile::V2026_08 => ("h", "HEAD"),
    };
    format!(
        "{id} cites no upstream evidence for {profile}: add a row \
         `{ctor}(\"{id}\", \"<path>\", <first line>, <last line>, \"<what it shows>\")` \
         (a file at {commit}; `at(…)` for another commit) to conformance/src/citations.rs, \
         then record the file's line count in {DATA}: `<commit>\\t<path>\\t<lines>` \
         (MIRRORLESS_UPSTREAM_GIT=<upstream git dir> MIRRORLESS_BLESS=1 \
         cargo test -p mirrorless-conformance --test it spec_citations:: writes it)"
    )
}

/// spec sentence: "Each requirement page cites the upstream evidence it rests on" — for every
/// profile it applies to, so that a profile difference cites both eras.
#[test]
fn every_requirement_cites_evidence_for_each_of_its_profiles() {
    let mut problems = Vec::new();
    for req in REQUIREMENTS {
        for profile in req.profiles() {
            let cited = CITATIONS
                .iter()
                .any(|c| c.requirement == req.id && c.profile == profile);
            if !cited {
                problems.push(missing_message(req.id, profile));
            }
        }
    }
    for c in CITATIONS {
        match requirement(c.requirement) {
            None => problems.push(format!(
                "conformance/src/citations.rs cites for `{}`, which is no requirement",
                c.requirement
            )),
            Some(req) if !req.applies_to(c.profile) => problems.push(format!(
                "{}: cites {} evidence ({}), but the requirement does not apply under {}",
                c.requirement,
                c.profile,
                c.short(),
                c.profile
            )),
            Some(_) => {}
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Every cited (commit, path) is recorded, and its lines are within the file.
#[test]
fn every_citation_names_lines_of_a_file_that_existed_at_its_commit() {
    let files = recorded();
    let mut problems = Vec::new();
    for c in CITATIONS {
        if c.commit.len() != 40 || !c.commit.bytes().all(|b| b.is_ascii_hexdigit()) {
            problems.push(format!(
                "{}: commit {:?} is not 40 hex digits",
                c.requirement, c.commit
            ));
        }
        match files.get(&(c.commit.to_owned(), c.path.to_owned())) {
            None => problems.push(format!(
                "{}: {} is not in {DATA}; record `{}\\t{}\\t<lines>`",
                c.requirement,
                c.short(),
                c.commit,
                c.path
            )),
            Some(&count) => {
                if let Some((a, b)) = c.lines
                    && (a == 0 || a > b || b > count)
                {
                    problems.push(format!(
                        "{}: {} cites lines {a}-{b} of a {count}-line file",
                        c.requirement,
                        c.short()
                    ));
                }
            }
        }
    }
    let cited = cited_files();
    for key in files.keys() {
        if !cited.contains(key) {
            problems.push(format!("{DATA}: {} {} is cited by nothing", key.0, key.1));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

fn line_count(git_dir: &str, commit: &str, path: &str) -> Option<u32> {
    let out = Command::new("git")
        .args(["--git-dir", git_dir, "show", &format!("{commit}:{path}")])
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let n = out.stdout.iter().filter(|b| **b == b'\n').count();
    let unterminated = out.stdout.last().is_some_and(|b| *b != b'\n');
    u32::try_from(n + usize::from(unterminated)).ok()
}

/// Opt-in: the data file agrees with the upstream repository itself.
#[test]
fn the_recorded_files_match_the_upstream_repository() {
    let Some(git_dir) = std::env::var_os("MIRRORLESS_UPSTREAM_GIT") else {
        eprintln!(
            "SKIPPED: MIRRORLESS_UPSTREAM_GIT is not set; the citations were checked against {DATA} only"
        );
        return;
    };
    let git_dir = git_dir.to_string_lossy().into_owned();
    let mut actual = BTreeMap::new();
    let mut problems = Vec::new();
    for (commit, path) in cited_files() {
        match line_count(&git_dir, &commit, &path) {
            Some(n) => {
                actual.insert((commit, path), n);
            }
            None => problems.push(format!("{path} does not exist at {commit}")),
        }
    }
    if std::env::var_os("MIRRORLESS_BLESS").is_some() && problems.is_empty() {
        let mut text = String::from(
            "# commit\tpath\tlines — every upstream file conformance/src/citations.rs cites, with its\n\
             # line count at that commit. Regenerate: MIRRORLESS_UPSTREAM_GIT=<git dir of\n\
             # deepseek-ai/deepseek-harness> MIRRORLESS_BLESS=1 cargo test -p mirrorless-conformance --test it spec_citations::\n",
        );
        for ((commit, path), n) in &actual {
            text.push_str(&format!("{commit}\t{path}\t{n}\n"));
        }
        std::fs::write(root().join(DATA), text).expect("write the data file");
        return;
    }
    let recorded = recorded();
    for (key, n) in &actual {
        if recorded.get(key) != Some(n) {
            problems.push(format!(
                "{DATA}: {} {} has {n} lines upstream, recorded {:?}",
                key.0,
                key.1,
                recorded.get(key)
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A permalink is the commit's blob URL with a GitHub line anchor.
#[test]
fn a_permalink_names_the_commit_path_and_lines() {
    let c = Citation {
        requirement: "SEQ-1",
        profile: Profile::V2026_08,
        commit: "b150a551b8d465e31e418e1b2eaf5e79bbb7d28e",
        path: "a/b.ts",
        lines: Some((3, 9)),
        shows: "",
    };
    assert_eq!(
        c.url(),
        "https://github.com/deepseek-ai/deepseek-harness/blob/b150a551b8d465e31e418e1b2eaf5e79bbb7d28e/a/b.ts#L3-L9"
    );
}

/// A mirror page names the upstream commit that removed it as a permalink, never as a bare
/// short SHA of no named repository.
#[test]
fn every_removal_commit_resolves_to_a_full_upstream_commit() {
    for m in mirrorless_conformance::vocab::mirrors::REMOVED_MIRRORS {
        let Some(mirror) = mirrorless_conformance::vocab::mirrors::removed_mirror(m.name) else {
            continue;
        };
        assert!(
            mirrorless_conformance::citations::commit_url(mirror.removed_by).is_some(),
            "{}: removed by `{}`, which conformance/src/citations.rs MIGRATION_COMMITS does not hold",
            m.name,
            mirror.removed_by
        );
    }
}

fn is_full_sha(commit: &str) -> bool {
    commit.len() == 40 && commit.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Every note about upstream's history (`conformance/src/upstream_history.rs`) is about a
/// requirement that applies to its profile, names a full commit, a faulty line within its
/// recorded file, and a repository page that has the heading it links to. With
/// `MIRRORLESS_UPSTREAM_GIT`, a merge it names is in the history of the release the 2026-08
/// profile follows.
#[test]
fn every_upstream_note_names_what_exists() {
    let files = recorded();
    let mut problems = Vec::new();
    for n in NOTES {
        match requirement(n.requirement) {
            Some(r) if r.applies_to(n.profile) => {}
            _ => problems.push(format!(
                "{}: no such requirement under {}",
                n.requirement, n.profile
            )),
        }
        match n.change {
            Change::Since {
                merged_as,
                merged_on,
                ..
            } => {
                if !is_full_sha(merged_as) {
                    problems.push(format!(
                        "{}: merge {merged_as:?} is not 40 hex digits",
                        n.requirement
                    ));
                }
                let date: Vec<&str> = merged_on.split('-').collect();
                if date.len() != 3 || date.iter().any(|p| p.parse::<u32>().is_err()) {
                    problems.push(format!(
                        "{}: date {merged_on:?} is not YYYY-MM-DD",
                        n.requirement
                    ));
                }
                if let Some(git_dir) = std::env::var_os("MIRRORLESS_UPSTREAM_GIT") {
                    let ancestor = Command::new("git")
                        .arg("--git-dir")
                        .arg(&git_dir)
                        .args(["merge-base", "--is-ancestor", merged_as])
                        .arg(mirrorless_conformance::citations::HEAD)
                        .status()
                        .is_ok_and(|s| s.success());
                    if !ancestor {
                        problems.push(format!(
                            "{}: {merged_as} is not in the history of the 2026-08 release",
                            n.requirement
                        ));
                    }
                }
            }
            Change::KnownBug { at, path, line } => {
                if !is_full_sha(at) {
                    problems.push(format!(
                        "{}: commit {at:?} is not 40 hex digits",
                        n.requirement
                    ));
                }
                match files.get(&(at.to_owned(), path.to_owned())) {
                    Some(&count) if line >= 1 && line <= count => {}
                    Some(&count) => problems.push(format!(
                        "{}: line {line} of the {count}-line {path}",
                        n.requirement
                    )),
                    None => problems.push(format!(
                        "{}: {path} at {at} is not in {DATA}",
                        n.requirement
                    )),
                }
            }
        }
        if let Some(page) = n.details {
            let (file, anchor) = page.split_once('#').unwrap_or((page, ""));
            match std::fs::read_to_string(root().join(file)) {
                Err(e) => problems.push(format!("{}: {file}: {e}", n.requirement)),
                Ok(text) => {
                    let headings: Vec<String> = text
                        .lines()
                        .filter(|l| l.starts_with('#'))
                        .map(|l| slug(l.trim_start_matches('#')))
                        .collect();
                    if !anchor.is_empty() && !headings.iter().any(|h| h == anchor) {
                        problems.push(format!(
                            "{}: {file} has no heading #{anchor}",
                            n.requirement
                        ));
                    }
                }
            }
        }
        let item = n.markdown();
        if !item.contains(n.text) {
            problems.push(format!(
                "{}: the page item drops the text: {item}",
                n.requirement
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A heading's anchor as mdBook and GitHub make it: lower case, punctuation but `-` and `_`
/// dropped, spaces to `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c.to_ascii_lowercase()),
            _ => None,
        })
        .collect()
}
