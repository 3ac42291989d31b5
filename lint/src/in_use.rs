//! A declaration of a removed event is deleted by `--fix` only when the code stops using it.
//!
//! A front end sees one file, so it offers to delete an event-map entry (a
//! `declare module … { interface Events { … } }` member) or a declaration as machine-applicable.
//! Deleting it while another file still subscribes to, emits or names the event breaks the
//! build (on the upstream tree before the migrations: `tsc` reports every remaining
//! `ctx.emit('agent/turn-end', …)` as "no overload matches this call"). So over the whole run,
//! a deletion stays machine-applicable only when every other use of its event in the same
//! program (TypeScript/JavaScript, or Rust; Markdown fences compile with nothing) will itself
//! be migrated by a machine-applicable fix; otherwise it becomes a suggestion that says where
//! the event is still used. `--fix` runs rounds, so the deletion is applied once those uses
//! are gone.

use crate::model::{Applicability, Finding};
use std::collections::HashMap;

/// The rule of a declaration (`Role::Declare`).
const DECLARE: &str = "ML003";
/// The rules of code that needs the declaration: subscribe, emit, reference.
const USES: [&str; 3] = ["ML001", "ML002", "ML004"];

/// Which program a file's code belongs to, for what a declaration in it is visible to.
fn program(path: &str) -> Option<&'static str> {
    let ext = path.rsplit_once('.').map(|(_, e)| e)?;
    match ext {
        "ts" | "tsx" | "mts" | "cts" | "js" | "jsx" | "mjs" | "cjs" => Some("js"),
        "rs" => Some("rust"),
        _ => None,
    }
}

/// Downgrades each machine-applicable deletion of a declaration whose event is still used,
/// without such a fix, elsewhere in its program (see the module documentation).
pub(crate) fn keep_declarations_in_use(findings: &mut [Finding]) {
    // (program, event) → the first use that will remain after the machine-applicable fixes.
    let mut remaining: HashMap<(&'static str, String), (String, usize)> = HashMap::new();
    for f in findings.iter() {
        let (Some(program), Some(event)) = (program(&f.path), &f.event) else {
            continue;
        };
        let migrated = f
            .fix
            .as_ref()
            .is_some_and(|x| x.applicability == Applicability::MachineApplicable);
        if USES.contains(&f.rule) && !migrated {
            remaining
                .entry((program, event.clone()))
                .or_insert_with(|| (f.path.clone(), f.line));
        }
    }
    if remaining.is_empty() {
        return;
    }
    for f in findings.iter_mut() {
        if f.rule != DECLARE {
            continue;
        }
        let (Some(program), Some(event)) = (program(&f.path), &f.event) else {
            continue;
        };
        let Some((path, line)) = remaining.get(&(program, event.clone())) else {
            continue;
        };
        if let Some(fix) = f.fix.as_mut()
            && fix.applicability == Applicability::MachineApplicable
        {
            fix.applicability = Applicability::Suggestion;
            fix.message = format!(
                "{} once nothing uses it: `{event}` is still used at {path}:{line}",
                fix.message
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Edit, Fix, Severity};

    fn finding(rule: &'static str, path: &str, line: usize, fix: Option<Applicability>) -> Finding {
        Finding {
            rule,
            rule_name: "",
            severity: Severity::Error,
            event: Some("agent/turn-end".to_owned()),
            path: path.to_owned(),
            line,
            column: 1,
            end_line: line,
            end_column: 2,
            message: String::new(),
            help: String::new(),
            note: None,
            fingerprint: String::new(),
            line_text: String::new(),
            line_text_column: 1,
            fix: fix.map(|a| Fix::new(a, "delete it".to_owned(), vec![Edit::new(0, 1, "")])),
        }
    }

    fn applicability(f: &Finding) -> Option<Applicability> {
        f.fix.as_ref().map(|x| x.applicability)
    }

    #[test]
    fn a_declaration_still_emitted_elsewhere_is_only_a_suggestion() {
        let mut fs = vec![
            finding(
                DECLARE,
                "agent/types.ts",
                3,
                Some(Applicability::MachineApplicable),
            ),
            finding("ML002", "loop/loop.ts", 9, Some(Applicability::Suggestion)),
        ];
        keep_declarations_in_use(&mut fs);
        assert_eq!(applicability(&fs[0]), Some(Applicability::Suggestion));
        let message = &fs[0].fix.as_ref().map(|x| x.message.clone());
        assert_eq!(
            message.as_deref(),
            Some(
                "delete it once nothing uses it: `agent/turn-end` is still used at loop/loop.ts:9"
            )
        );
        assert_eq!(applicability(&fs[1]), Some(Applicability::Suggestion));
    }

    #[test]
    fn uses_the_fixes_migrate_or_in_other_programs_do_not_keep_it() {
        let mut fs = vec![
            finding(
                DECLARE,
                "agent/types.ts",
                3,
                Some(Applicability::MachineApplicable),
            ),
            finding(
                "ML001",
                "ui/index.ts",
                5,
                Some(Applicability::MachineApplicable),
            ),
            finding("ML002", "docs/guide.md", 7, None),
            finding("ML004", "host/src/lib.rs", 2, None),
            finding("ML006", "ui/index.ts", 8, Some(Applicability::Suggestion)),
        ];
        keep_declarations_in_use(&mut fs);
        assert_eq!(
            applicability(&fs[0]),
            Some(Applicability::MachineApplicable)
        );
    }

    #[test]
    fn a_reference_without_a_fix_keeps_it() {
        let mut fs = vec![
            finding(
                DECLARE,
                "agent/types.ts",
                3,
                Some(Applicability::MachineApplicable),
            ),
            finding("ML004", "tests/loop.spec.ts", 57, None),
        ];
        keep_declarations_in_use(&mut fs);
        assert_eq!(applicability(&fs[0]), Some(Applicability::Suggestion));
    }
}
