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

use crate::model::{Applicability, Finding};
use std::collections::HashMap;

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

/// Caps (or drops) the fix of every Markdown finding by how its event's declaration goes.
pub(crate) fn follow_declarations(findings: &mut [Finding]) {
    let mut goes: HashMap<String, Goes> = HashMap::new();
    for f in findings.iter() {
        if f.rule != DECLARE || !is_code(&f.path) {
            continue;
        }
        let Some(event) = &f.event else { continue };
        let this = match &f.fix {
            None => Goes::Stays,
            Some(fix) => Goes::With(fix.applicability),
        };
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
            Some(Goes::Stays) => f.fix = None,
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
