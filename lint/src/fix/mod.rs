//! `mirrorless lint --fix` / `--diff`: applies the fixes findings carry, the way ruff and
//! `cargo fix` do.
//!
//! - Only machine-applicable fixes, unless suggestions are asked for (`--unsafe-fixes`).
//! - Rounds: lint, apply every fix that does not overlap another, lint the edited text again
//!   (in memory, parsing again only the files the round edited), until a round applies nothing
//!   (at most [`MAX_ROUNDS`]).
//! - A file must not gain a syntax error: when the fixes of a round would break it, the ones
//!   that do are found by halving, dropped and reported. The check of a round's edits is the
//!   next round's parse of the edited files (one parse per fixed file, not two).
//! - Nothing is written here: [`write`] does that, carefully; [`diff`] prints instead.

pub mod apply;
pub mod write;

use crate::engine::{self, Options, Report, Tree};
use crate::hash::HashSet;
use crate::model::{Applicability, Edit, Fix};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Rounds of fixing before giving up on reaching a fixpoint.
pub const MAX_ROUNDS: usize = 10;

/// Which fixes to apply.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FixOptions {
    /// Apply suggestions too, not only machine-applicable fixes.
    pub unsafe_fixes: bool,
}

impl FixOptions {
    /// Whether a fix of this applicability is applied.
    pub fn applies(&self, a: Applicability) -> bool {
        a == Applicability::MachineApplicable || self.unsafe_fixes
    }
}

/// One file the fixes changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FixedFile {
    /// The path it was read from.
    pub path: PathBuf,
    /// The path as reported.
    pub display: String,
    /// Its content when read.
    pub original: String,
    /// Its content with the fixes applied.
    pub fixed: String,
    /// How many findings' fixes were applied to it.
    pub applied: usize,
}

/// A fix that was not applied because it would have broken the file's syntax.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dropped {
    /// The file.
    pub path: String,
    /// The line of the finding.
    pub line: usize,
    /// The finding's rule.
    pub rule: &'static str,
    /// The fix's message.
    pub message: String,
}

/// A suggestion `--unsafe-fixes` applied: what a reviewer should read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppliedSuggestion {
    /// The file.
    pub path: String,
    /// The line of the finding in the text the fix was applied to (the file as read, for a
    /// fix of the first round).
    pub line: usize,
    /// The finding's rule.
    pub rule: &'static str,
    /// The fix's message, which says why it is only a suggestion.
    pub message: String,
}

/// What a fixing run did.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    /// Every changed file, in path order.
    pub files: Vec<FixedFile>,
    /// Fixes dropped because the result did not parse.
    pub dropped: Vec<Dropped>,
    /// The suggestions applied (`--unsafe-fixes`), in the order they were applied.
    pub suggestions: Vec<AppliedSuggestion>,
    /// The findings that remain after the fixes (linted on the fixed text).
    pub report: Report,
    /// Fixes applied in total.
    pub applied: usize,
    /// Rounds run (lint + apply).
    pub rounds: usize,
}

impl Outcome {
    /// Remaining findings with a fix of each applicability.
    pub fn fixable(&self, a: Applicability) -> usize {
        self.report
            .findings
            .iter()
            .filter(|f| f.fix.as_ref().is_some_and(|x| x.applicability == a))
            .count()
    }
}

/// What identifies a fix across rounds: its file and edits.
type FixKey = (String, Vec<(usize, usize, String)>);

fn key(path: &str, fix: &Fix) -> FixKey {
    (
        path.to_owned(),
        fix.edits
            .iter()
            .map(|e: &Edit| (e.start, e.end, e.replacement.clone()))
            .collect(),
    )
}

/// A file a round edited, whose syntax is checked by the next round's parse.
struct Unchecked {
    display: String,
    /// Its text before the round.
    before: String,
    /// The round's fixes for it, with their findings' line and rule.
    fixes: Vec<(usize, &'static str, Fix)>,
    /// The indices (into `fixes`) of those the round applied.
    applied: Vec<usize>,
}

/// Accepts or corrects the edits of the round before, now that the tree has been linted with
/// them: a file without a syntax error (counted by the lint's parse, or here when the lint did
/// not parse it) keeps them; any other is checked with
/// [`fix_text`] from its text before the round, its breaking fixes dropped (and remembered in
/// `dropped_keys`, so no later round tries them), and it gets what [`fix_text`] keeps.
/// Returns whether some file's text was changed back (the tree must be linted again) and
/// whether some file kept an edit.
#[allow(clippy::too_many_arguments)]
fn settle(
    unchecked: Vec<Unchecked>,
    tree: &mut Tree,
    cache: &crate::cache::Cache,
    applied: &mut usize,
    originals: &mut BTreeMap<String, (PathBuf, String)>,
    applied_per_file: &mut BTreeMap<String, usize>,
    dropped: &mut Vec<Dropped>,
    dropped_keys: &mut HashSet<FixKey>,
    suggestions: &mut Vec<AppliedSuggestion>,
) -> (bool, bool) {
    let (mut undone, mut kept) = (false, false);
    for u in unchecked {
        let Some((path, text)) = tree.file(&u.display) else {
            continue;
        };
        let path = path.to_path_buf();
        // A file the lint did not parse (no longer a candidate, or a front end that counts
        // otherwise) is parsed here: once, as `fix_text` would first.
        let errors = cache
            .syntax_errors(&u.display, &path, text)
            .unwrap_or_else(|| engine::syntax_errors(&path, &u.display, text));
        let (kept_fixes, settled) = if errors == 0 {
            // What `fix_text` gives for a result without errors: every fix the round applied.
            (u.applied.clone(), None)
        } else {
            let fixes: Vec<&Fix> = u.fixes.iter().map(|(_, _, x)| x).collect();
            let (result, broke) = fix_text(&u.before, &fixes, &|t: &str| {
                engine::syntax_errors(&path, &u.display, t)
            });
            for i in broke {
                let (line, rule, x) = &u.fixes[i];
                dropped_keys.insert(key(&u.display, x));
                dropped.push(Dropped {
                    path: u.display.clone(),
                    line: *line,
                    rule,
                    message: x.message.clone(),
                });
            }
            let changed = result.text != u.before && !result.applied.is_empty();
            let settled = if changed {
                result.text
            } else {
                u.before.clone()
            };
            let kept_fixes = if changed { result.applied } else { Vec::new() };
            (kept_fixes, (settled != text).then_some(settled))
        };
        let count = kept_fixes.len();
        for &i in &kept_fixes {
            let (line, rule, x) = &u.fixes[i];
            if x.applicability == Applicability::Suggestion {
                suggestions.push(AppliedSuggestion {
                    path: u.display.clone(),
                    line: *line,
                    rule,
                    message: x.message.clone(),
                });
            }
        }
        if count > 0 {
            kept = true;
            originals
                .entry(u.display.clone())
                .or_insert_with(|| (path.clone(), u.before.clone()));
            *applied_per_file.entry(u.display.clone()).or_default() += count;
            *applied += count;
        }
        if let Some(settled) = settled {
            tree.set_text(&u.display, settled);
            undone = true;
        }
    }
    (undone, kept)
}

/// Lints the files `opts` names and applies their fixes to a fixpoint, in memory.
/// `filter` is applied to every round's report (baselines, `--new-since`), so only the
/// findings the user would see are fixed.
///
/// A round's edits are checked for syntax errors by the next round's lint, which parses the
/// edited files anyway: a file whose parse there counts no error keeps them (most files, one
/// parse fewer each); any other file goes through [`fix_text`] from its text before the round,
/// and when that drops a fix, the file gets [`fix_text`]'s result and the tree is linted
/// again before the next round, so every round sees what checking first would have given.
pub fn run(opts: &Options, fix: FixOptions, filter: &dyn Fn(&mut Report)) -> Outcome {
    let mut tree = Tree::read(opts);
    // The text each changed file had when read (only changed files: the tree may be large).
    let mut originals: BTreeMap<String, (PathBuf, String)> = BTreeMap::new();
    let mut applied_per_file: BTreeMap<String, usize> = BTreeMap::new();
    let mut dropped: Vec<Dropped> = Vec::new();
    let mut dropped_keys: HashSet<FixKey> = HashSet::default();
    let mut outcome = Outcome::default();
    let mut report;
    // Each round after the first parses only the files the one before edited.
    let mut cache = crate::cache::Cache::default();
    let mut unchecked: Vec<Unchecked> = Vec::new();
    let mut round = 0;
    loop {
        report = engine::lint_tree_cached(opts, &tree, &mut cache);
        if fix.unsafe_fixes {
            crate::docs_follow::renumber_unsafe(&mut report.findings, &|p| tree.text(p));
        }
        filter(&mut report);
        if !unchecked.is_empty() {
            let (undone, kept) = settle(
                std::mem::take(&mut unchecked),
                &mut tree,
                &cache,
                &mut outcome.applied,
                &mut originals,
                &mut applied_per_file,
                &mut dropped,
                &mut dropped_keys,
                &mut outcome.suggestions,
            );
            if !kept {
                // Every edit of the round broke its file and is undone: as if the round had
                // found nothing to apply, it is the last.
                round -= 1;
                outcome.rounds = round;
                report = engine::lint_tree_cached(opts, &tree, &mut cache);
                filter(&mut report);
                break;
            }
            if undone {
                // The report was of a text a fix broke: lint what stays instead.
                continue;
            }
        }
        outcome.rounds = round;
        if round == MAX_ROUNDS {
            break;
        }
        let mut by_file: BTreeMap<&str, Vec<(&crate::model::Finding, &Fix)>> = BTreeMap::new();
        for f in &report.findings {
            if let Some(x) = &f.fix
                && fix.applies(x.applicability)
                && (dropped_keys.is_empty() || !dropped_keys.contains(&key(&f.path, x)))
            {
                by_file.entry(f.path.as_str()).or_default().push((f, x));
            }
        }
        let mut edits: Vec<(Unchecked, String)> = Vec::new();
        for (display, list) in by_file {
            let Some(text) = tree.text(display) else {
                continue;
            };
            let fixes: Vec<&Fix> = list.iter().map(|(_, x)| *x).collect();
            let result = apply::apply(text, &fixes);
            if result.text != text && !result.applied.is_empty() {
                let u = Unchecked {
                    display: display.to_owned(),
                    before: text.to_owned(),
                    fixes: list
                        .iter()
                        .map(|(f, x)| (f.line, f.rule, (*x).clone()))
                        .collect(),
                    applied: result.applied.clone(),
                };
                edits.push((u, result.text));
            }
        }
        if edits.is_empty() {
            break;
        }
        for (u, text) in edits {
            tree.set_text(&u.display, text);
            unchecked.push(u);
        }
        round += 1;
    }
    outcome.files = applied_per_file
        .into_iter()
        .filter_map(|(display, applied)| {
            let (path, original) = originals.get(&display)?;
            let fixed = tree.text(&display)?.to_owned();
            (fixed != *original).then(|| FixedFile {
                path: path.clone(),
                display,
                original: original.clone(),
                fixed,
                applied,
            })
        })
        .collect();
    outcome.dropped = dropped;
    outcome.report = report;
    outcome
}

/// Applies `fixes` to `text` without raising its syntax-error count (`errors`): when all of
/// them together would, the culprits are found by halving (a group that keeps the count is
/// taken whole, one that raises it is split), so k breaking fixes among n cost O(k log n)
/// parses rather than n. Returns the result and the indices of the fixes left out for breaking
/// it.
pub fn fix_text(
    text: &str,
    fixes: &[&Fix],
    errors: &dyn Fn(&str) -> usize,
) -> (apply::Applied, Vec<usize>) {
    let result = apply::apply(text, fixes);
    // A result without errors is accepted without parsing the original (the usual case: one
    // parse per fixed file, not two).
    let after = errors(&result.text);
    if after == 0 {
        return (result, Vec::new());
    }
    let before = errors(text);
    if after <= before {
        return (result, Vec::new());
    }
    let mut kept = Vec::new();
    let mut broke = Vec::new();
    // Groups of the fixes that apply together, in order; the last one is the next to try.
    // All of them together raise the count (measured above): start from the halves.
    let (first, second) = result.applied.split_at(result.applied.len() / 2);
    let mut todo: Vec<&[usize]> = vec![second, first];
    while let Some(group) = todo.pop() {
        if group.is_empty() {
            continue;
        }
        let mut candidate: Vec<&Fix> = kept.iter().map(|&i| fixes[i]).collect();
        candidate.extend(group.iter().map(|&i| fixes[i]));
        if errors(&apply::apply(text, &candidate).text) <= before {
            kept.extend_from_slice(group);
        } else if let [one] = group {
            broke.push(*one);
        } else {
            let (first, second) = group.split_at(group.len() / 2);
            todo.push(second);
            todo.push(first);
        }
    }
    kept.sort_unstable();
    broke.sort_unstable();
    let accepted: Vec<&Fix> = kept.iter().map(|&i| fixes[i]).collect();
    let mut result = apply::apply(text, &accepted);
    result.applied = kept;
    (result, broke)
}

/// `a/PATH` for a relative path (what `git apply` and `patch -p1` expect), the path itself
/// for an absolute one.
fn side(prefix: &str, path: &str) -> String {
    if path.starts_with('/') {
        path.to_owned()
    } else {
        format!("{prefix}/{path}")
    }
}

/// Files up to this many lines are diffed with Myers (the minimal diff); longer ones with
/// patience: Myers costs the lines times the lines changed, quadratic for thousands of fixes
/// in one file (120 000 deleted emits: 30 s), while patience anchors on the lines that occur
/// once on both sides and diffs only the small gaps between them.
const MYERS_MAX_LINES: usize = 5_000;

/// The unified diff of one fixed file (`a/PATH` → `b/PATH`, three lines of context).
pub fn diff(file: &FixedFile) -> String {
    let long = memchr::memchr_iter(b'\n', file.original.as_bytes())
        .nth(MYERS_MAX_LINES)
        .is_some();
    let algorithm = if long {
        similar::Algorithm::Patience
    } else {
        similar::Algorithm::Myers
    };
    similar::TextDiff::configure()
        .algorithm(algorithm)
        .diff_lines(&file.original, &file.fixed)
        .unified_diff()
        .context_radius(3)
        .header(&side("a", &file.display), &side("b", &file.display))
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn delete(start: usize, end: usize) -> Fix {
        Fix::new(
            Applicability::MachineApplicable,
            String::new(),
            vec![Edit::new(start, end, "")],
        )
    }

    /// A stand-in parser: one error per unbalanced brace.
    fn unbalanced(t: &str) -> usize {
        t.matches('{').count().abs_diff(t.matches('}').count())
    }

    #[test]
    fn a_fix_that_breaks_the_syntax_is_dropped_and_the_others_kept() {
        let text = "a; { b; } c;";
        let fixes = [delete(0, 3), delete(3, 5), delete(10, 12)];
        let refs: Vec<&Fix> = fixes.iter().collect();
        let (result, broke) = fix_text(text, &refs, &unbalanced);
        assert_eq!(broke, vec![1]);
        assert_eq!(result.applied, vec![0, 2]);
        assert_eq!(result.text, "{ b; } ");
    }

    /// A tree of one TypeScript file, `before` on disk and `after` (the round's edit) in
    /// memory, and the round's edit as `settle` sees it.
    fn edited(dir: &std::path::Path, before: &str, after: &str, fix: Fix) -> (Tree, Unchecked) {
        let path = dir.join("a.ts");
        std::fs::write(&path, before).expect("write a.ts");
        let opts = Options {
            paths: vec![path.clone()],
            ..Options::default()
        };
        let mut tree = Tree::read(&opts);
        let (_, display, _) = tree.files().next().expect("a.ts is read");
        let display = display.to_owned();
        tree.set_text(&display, after.to_owned());
        let u = Unchecked {
            display,
            before: before.to_owned(),
            fixes: vec![(1, "ML002", fix)],
            applied: vec![0],
        };
        (tree, u)
    }

    fn settled(
        tree: &mut Tree,
        cache: &crate::cache::Cache,
        u: Unchecked,
    ) -> ((bool, bool), usize, Vec<Dropped>) {
        let (mut applied, mut dropped) = (0, Vec::new());
        let r = settle(
            vec![u],
            tree,
            cache,
            &mut applied,
            &mut BTreeMap::new(),
            &mut BTreeMap::new(),
            &mut dropped,
            &mut HashSet::default(),
            &mut Vec::new(),
        );
        (r, applied, dropped)
    }

    #[test]
    fn an_edit_the_next_parse_finds_clean_is_kept_without_another_check() {
        let dir = tempfile::tempdir().expect("temp dir");
        let before = "ctx.emit('agent/step-end', s);\nlet a = 1;\n";
        let after = "let a = 1;\n";
        let (mut tree, u) = edited(dir.path(), before, after, delete(0, 31));
        let mut cache = crate::cache::Cache::default();
        // The next round's lint: it parses the edited file (it still names a removed event).
        tree.set_text(&u.display, format!("{after}// agent/step-end\n"));
        let opts = Options::default();
        engine::lint_tree_cached(&opts, &tree, &mut cache);
        let display = u.display.clone();
        let text = tree.text(&display).map(str::to_owned);
        let (r, applied, dropped) = settled(&mut tree, &cache, u);
        // `fix_text` from `before` would give `after` without the comment: kept as linted.
        assert_eq!(r, (false, true), "kept, not undone");
        assert_eq!(applied, 1);
        assert!(dropped.is_empty());
        assert_eq!(tree.text(&display).map(str::to_owned), text);
    }

    #[test]
    fn an_edit_the_lint_did_not_parse_is_parsed_once_and_kept_when_clean() {
        let dir = tempfile::tempdir().expect("temp dir");
        let (mut tree, u) = edited(dir.path(), "a(); b();\n", "b();\n", delete(0, 5));
        let display = u.display.clone();
        let (r, applied, dropped) = settled(&mut tree, &crate::cache::Cache::default(), u);
        assert_eq!(r, (false, true));
        assert_eq!(applied, 1);
        assert!(dropped.is_empty());
        assert_eq!(tree.text(&display), Some("b();\n"));
    }

    #[test]
    fn an_edit_that_breaks_the_file_is_undone_and_its_fix_dropped() {
        let dir = tempfile::tempdir().expect("temp dir");
        let before = "function f() { g(); }\n";
        // Deleting the closing brace breaks it; no lint has parsed this text (empty cache).
        let (mut tree, u) = edited(dir.path(), before, "function f() { g(); \n", delete(20, 21));
        let display = u.display.clone();
        let (r, applied, dropped) = settled(&mut tree, &crate::cache::Cache::default(), u);
        assert_eq!(r, (true, false), "undone, nothing kept");
        assert_eq!(applied, 0);
        assert_eq!(dropped.len(), 1);
        assert_eq!(tree.text(&display), Some(before));
    }

    #[test]
    fn fixes_that_keep_the_syntax_are_all_applied() {
        let text = "a; b;";
        let fixes = [delete(0, 3), delete(3, 5)];
        let refs: Vec<&Fix> = fixes.iter().collect();
        let (result, broke) = fix_text(text, &refs, &unbalanced);
        assert!(broke.is_empty());
        assert_eq!(result.text, "");
    }
}
