//! Docs stay consistent with the code: a Markdown fix that describes the event's declaration
//! (a catalogue entry deleted as a whole, a mention or comment renamed to the durable twin) is
//! applied in a run only as far as the event's declaration goes in that run. Code in fences (a
//! subscription, an emit, a whole `declare module` example) keeps its own fixes.
//!
//! Upstream's catalogue is generated from the code's `interface Events` declarations, and its
//! check fails when the two differ: `--fix` once deleted the catalogue lines of mirrors whose
//! declarations it kept. So, per event, over the run's code (TypeScript/JavaScript and Rust;
//! Markdown fences are docs too):
//! - a declaration without a fix (it stays): the Markdown fixes of the event are dropped, the
//!   findings stay;
//! - every declaration deleted by a machine-applicable fix: the Markdown fixes keep theirs;
//! - some deletion only a suggestion, or no declaration in the run at all (the code that
//!   declares the event may be outside it): the Markdown fixes are suggestions.
//!
//! A generated catalogue also points into the code by line (`Source: [`types.ts:353`](…)`):
//! the first catalogue-entry fix of a Markdown file renumbers those references by the lines the
//! declaration deletions of its applicability remove from that code file, so the catalogue
//! matches its generator's output again ([`renumber`]).

use crate::hash::HashMap;
use crate::model::{Applicability, Edit, Finding};
use crate::source::{LineIndex, Source};
use std::ops::Range;

/// The rule of a declaration (`Role::Declare`).
const DECLARE: &str = "ML003";
/// The rules of a mention in prose and in an HTML comment.
const MENTION: &str = "ML006";
const COMMENT: &str = "ML007";

fn is_markdown(path: &str) -> bool {
    let ext = path.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    matches!(ext.as_deref(), Some("md" | "markdown" | "mdx"))
}

fn is_code(path: &str) -> bool {
    let ext = path.rsplit_once('.').map(|(_, e)| e);
    matches!(
        ext,
        Some("ts" | "tsx" | "mts" | "cts" | "js" | "jsx" | "mjs" | "cjs" | "rs")
    )
}

/// How the declarations of one event go in the run.
#[derive(Clone, Copy)]
enum Goes {
    /// Some declaration stays (it has no fix).
    Stays,
    /// Every declaration goes, at worst with this applicability.
    With(Applicability),
}

/// Caps (or drops) the fix of every Markdown finding by how its event's declaration goes, then
/// renumbers the line references of catalogues whose entries go.
pub(crate) fn follow_declarations(findings: &mut [Finding], sources: &[Source]) {
    cap(findings);
    renumber(
        findings,
        &|path: &str| {
            sources
                .iter()
                .find(|s| s.display == path)
                .map(|s| s.text.as_str())
        },
        None,
    );
}

/// Renumbers again for `--fix --unsafe-fixes`, which applies every fix of a round: the first
/// catalogue-entry fix of each Markdown file (of any applicability) renumbers by every
/// declaration deletion of the round. [`follow_declarations`] counts only the deletions of
/// that fix's applicability, so a machine-applicable entry fix left the lines of a suggested
/// deletion applied in the same round uncounted (the catalogue went stale).
pub(crate) fn renumber_unsafe<'t>(
    findings: &mut [Finding],
    text_of: &dyn Fn(&str) -> Option<&'t str>,
) {
    for f in findings.iter_mut() {
        let Some(fix) = f.fix.as_mut() else { continue };
        if fix.renumbers.is_empty() {
            continue;
        }
        let gone = std::mem::take(&mut fix.renumbers);
        fix.edits.retain(|e| !gone.contains(&(e.start..e.end)));
        if let Some(text) = text_of(&f.path) {
            fix.lines = crate::lines::line_replacement(&LineIndex::new(text), &fix.edits);
        }
    }
    renumber(findings, text_of, Some(Applicability::Suggestion));
}

fn is_entry_fix(f: &Finding) -> bool {
    f.fix
        .as_ref()
        .is_some_and(|x| x.message.starts_with(crate::frontend::markdown::ENTRY_FIX))
}

/// The lines one edit of a declaration deletion removes from a code file: where it ends (line,
/// column, 1-based) and how many lines fewer the file has after it.
struct Shift {
    applicability: Applicability,
    end_line: usize,
    end_column: usize,
    removed: usize,
}

/// `F:N` in a Markdown file (`packages/x/types.ts:353`): the range of `N` and its value, for
/// each code path `F` with shifts, outside `skip`.
fn line_refs<'p>(
    text: &str,
    paths: impl Iterator<Item = &'p String>,
    skip: &[Range<usize>],
) -> Vec<(Range<usize>, &'p str, usize)> {
    let mut out = Vec::new();
    for path in paths {
        let needle = format!("{path}:");
        for (at, _) in text.match_indices(&needle) {
            let before = text[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || "/._-".contains(c)) {
                continue;
            }
            let digits_start = at + needle.len();
            let digits = text[digits_start..]
                .bytes()
                .take_while(u8::is_ascii_digit)
                .count();
            let r = digits_start..digits_start + digits;
            if digits == 0 || skip.iter().any(|s| s.start <= r.start && r.end <= s.end) {
                continue;
            }
            if let Ok(n) = text[r.clone()].parse::<usize>() {
                out.push((r, path.as_str(), n));
            }
        }
    }
    out
}

/// The count a generated catalogue states of its entries ("The harness declares 24 events
/// across 6 scopes."): the range of the number and its value.
fn event_count(text: &str) -> Option<(Range<usize>, usize)> {
    text.match_indices("declares ").find_map(|(at, w)| {
        let start = at + w.len();
        let digits = text[start..].bytes().take_while(u8::is_ascii_digit).count();
        let rest = &text[start + digits..];
        if digits == 0 || !rest.starts_with(" event") {
            return None;
        }
        let n = text[start..start + digits].parse().ok()?;
        Some((start..start + digits, n))
    })
}

/// Gives the first catalogue-entry fix of each Markdown file the edits that renumber its
/// `F:N` references into code files whose declarations go with that fix's applicability, or,
/// with `applied`, the first of those applied at that applicability by the deletions applied.
fn renumber<'t>(
    findings: &mut [Finding],
    text_of: &dyn Fn(&str) -> Option<&'t str>,
    applied: Option<Applicability>,
) {
    let mut shifts: HashMap<String, Vec<Shift>> = HashMap::default();
    for f in findings.iter() {
        let (true, Some(fix)) = (f.rule == DECLARE && is_code(&f.path), &f.fix) else {
            continue;
        };
        let Some(text) = text_of(&f.path) else {
            continue;
        };
        for e in &fix.edits {
            let Some(old) = text.get(e.start..e.end) else {
                continue;
            };
            let removed = old.matches('\n').count();
            let added = e.replacement.matches('\n').count();
            if removed > added {
                shifts.entry(f.path.clone()).or_default().push(Shift {
                    applicability: fix.applicability,
                    end_line: e.range.end_line,
                    end_column: e.range.end_column,
                    removed: removed - added,
                });
            }
        }
    }
    // Per Markdown file: its entry fixes (index, applicability, deleted range).
    let mut entries: HashMap<String, Vec<(usize, Applicability, Range<usize>)>> =
        HashMap::default();
    for (i, f) in findings.iter().enumerate() {
        if is_markdown(&f.path)
            && is_entry_fix(f)
            && let Some(fix) = &f.fix
            && applied.is_none_or(|a| fix.applicability <= a)
            && let Some(e) = fix.edits.first()
        {
            entries
                .entry(f.path.clone())
                .or_default()
                .push((i, fix.applicability, e.start..e.end));
        }
    }
    for (path, list) in entries {
        let Some(text) = text_of(&path) else { continue };
        let Some(&(first, applicability, _)) = list.iter().min_by_key(|(_, _, r)| r.start) else {
            continue;
        };
        let applicability = applied.unwrap_or(applicability);
        // What the entries that go with it delete is not renumbered.
        // (An entry's heading and its signature are two findings with one fix: one entry.)
        let mut gone: Vec<Range<usize>> = list
            .iter()
            .filter(|(_, a, _)| *a <= applicability)
            .map(|(_, _, r)| r.clone())
            .collect();
        gone.sort_by_key(|r| (r.start, r.end));
        gone.dedup();
        // A reference names the code file from the run's root or from the Markdown file's folder.
        let folder = path.rsplit_once('/').map_or("", |(d, _)| d);
        let spelled: HashMap<String, &String> = shifts
            .keys()
            .flat_map(|code| {
                let relative = (!folder.is_empty())
                    .then(|| code.strip_prefix(folder)?.strip_prefix('/'))
                    .flatten();
                std::iter::once((code.clone(), code)).chain(relative.map(|r| (r.to_owned(), code)))
            })
            .collect();
        let mut edits = Vec::new();
        if let Some((r, n)) = event_count(text)
            && n > gone.len()
        {
            edits.push(Edit::new(r.start, r.end, (n - gone.len()).to_string()));
        }
        for (r, as_spelled, n) in line_refs(text, spelled.keys(), &gone) {
            let code = spelled[as_spelled];
            let fewer: usize = shifts[code]
                .iter()
                .filter(|s| s.applicability <= applicability)
                .filter(|s| s.end_line < n || (s.end_line == n && s.end_column == 1))
                .map(|s| s.removed)
                .sum();
            if fewer > 0 && fewer < n {
                edits.push(Edit::new(r.start, r.end, (n - fewer).to_string()));
            }
        }
        if edits.is_empty() {
            continue;
        }
        let index = LineIndex::new(text);
        let Some(fix) = findings[first].fix.as_mut() else {
            continue;
        };
        for mut e in edits {
            e.range = crate::source::text_range(&index, e.start, e.end);
            fix.renumbers.push(e.start..e.end);
            fix.edits.push(e);
        }
        fix.edits.sort_by_key(|e| (e.start, e.end));
        fix.lines = crate::lines::line_replacement(&index, &fix.edits);
    }
}

/// Caps (or drops) the fix of every Markdown finding by how its event's declaration goes.
fn cap(findings: &mut [Finding]) {
    let mut goes: HashMap<String, Goes> = HashMap::default();
    // The first declaration of each event that stays, for the note of the docs it holds back.
    let mut kept_at: HashMap<String, String> = HashMap::default();
    let mut kept_for_human: HashMap<String, bool> = HashMap::default();
    for f in findings.iter() {
        if f.rule != DECLARE || !is_code(&f.path) {
            continue;
        }
        let Some(event) = &f.event else { continue };
        let this = match &f.fix {
            None => Goes::Stays,
            Some(fix) => Goes::With(fix.applicability),
        };
        if matches!(this, Goes::Stays) {
            kept_at
                .entry(event.clone())
                .or_insert_with(|| format!("{}:{}", f.path, f.line));
            // Whether every declaration of the event that stays is the human's part.
            *kept_for_human.entry(event.clone()).or_insert(true) &= f.human;
        }
        let merged = match (goes.get(event).copied(), this) {
            (Some(Goes::Stays), _) | (_, Goes::Stays) => Goes::Stays,
            (Some(Goes::With(a)), Goes::With(b)) => Goes::With(a.max(b)),
            (None, w) => w,
        };
        goes.insert(event.clone(), merged);
    }
    for f in findings.iter_mut() {
        let describes = [MENTION, COMMENT].contains(&f.rule)
            || f.fix
                .as_ref()
                .is_some_and(|x| x.message.starts_with(crate::frontend::markdown::ENTRY_FIX));
        if !is_markdown(&f.path) || f.fix.is_none() || !describes {
            continue;
        }
        let Some(event) = &f.event else { continue };
        match goes.get(event) {
            Some(Goes::Stays) => {
                f.fix = None;
                // Docs of a declaration kept only for the human's part are the human's part.
                // (A catalogue entry, an error; prose only says why it has no fix.)
                let human =
                    kept_for_human.get(event).copied().unwrap_or(false) && f.rule == DECLARE;
                f.human |= human;
                if let Some(at) = kept_at.get(event) {
                    let why = if human {
                        format!(
                            "the human's part: the declaration of `{event}` at {at} stays for a test a human rewrites, and the docs follow the code (delete this with it)"
                        )
                    } else {
                        format!(
                            "no fix: the declaration of `{event}` at {at} stays in this run, and the docs follow the code"
                        )
                    };
                    f.note = match f.note.take() {
                        None => Some(why),
                        Some(n) if human => Some(format!("{n}; {why}")),
                        n => n,
                    };
                }
            }
            Some(Goes::With(a)) => {
                if let Some(fix) = &mut f.fix {
                    fix.applicability = fix.applicability.max(*a);
                }
            }
            None => {
                if let Some(fix) = &mut f.fix {
                    fix.applicability = Applicability::Suggestion;
                }
            }
        }
    }
}
