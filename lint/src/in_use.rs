//! A declaration or an emit of a removed event is deleted by `--fix` only when the code stops
//! needing it.
//!
//! A front end sees one file, so it offers these deletions as machine-applicable:
//! - an event-map entry (a `declare module … { interface Events { … } }` member): deleting it
//!   while another file still subscribes to, emits or names the event breaks the build (on the
//!   upstream tree before the migrations `tsc` reported every remaining
//!   `ctx.emit('agent/turn-end', …)` as "no overload matches this call");
//! - an emit beside its durable append: deleting it while a listener of the event stays (one
//!   whose migration is only a suggestion, or has none) silences that listener (upstream's own
//!   tests failed that way);
//! - a subscription rewritten to the durable twin: while an emit of the mirror that does not
//!   append the twin stays (a test standing in for the loop, an older host), the rewritten
//!   listener no longer hears it.
//!
//! So over the whole run, such a fix stays machine-applicable only when every use of its event
//! that needs it, in the same program (TypeScript/JavaScript, or Rust; Markdown fences compile
//! with nothing), is itself migrated by a machine-applicable fix of its front end; otherwise it
//! becomes a suggestion that says where the event is still used, and holding it back may hold
//! back others (to a fixpoint). `--fix` runs rounds, so it is applied once those uses are gone.
//! A listener and an emit that can both be migrated are migrated together.

use crate::hash::HashMap;
use crate::model::{Applicability, Finding};

/// The rule of a declaration (`Role::Declare`).
const DECLARE: &str = "ML003";
/// The rule of an emit (`Role::Emit`).
const EMIT: &str = "ML002";
/// The rules of a subscription and of any other use of the name in code.
const SUBSCRIBE: &str = "ML001";
const REFERENCE: &str = "ML004";

/// The uses of the event that a deletion of a finding of rule `rule` would break; with
/// `keeps_references`, one that leaves the other uses compiling (see
/// [`Fix::keeps_references`](crate::model::Fix::keeps_references)).
fn needed_by(rule: &str, keeps_references: bool) -> &'static [&'static str] {
    match rule {
        DECLARE if keeps_references => &[SUBSCRIBE, EMIT],
        DECLARE => &[SUBSCRIBE, EMIT, REFERENCE],
        EMIT => &[SUBSCRIBE, REFERENCE],
        SUBSCRIBE => &[EMIT],
        _ => &[],
    }
}

/// Which program a file's code belongs to, for what a declaration in it is visible to.
fn program(path: &str) -> Option<&'static str> {
    let ext = path.rsplit_once('.').map(|(_, e)| e)?;
    match ext {
        "ts" | "tsx" | "mts" | "cts" | "js" | "jsx" | "mjs" | "cjs" => Some("js"),
        "rs" => Some("rust"),
        _ => None,
    }
}

/// Downgrades each machine-applicable deletion of a declaration or an emit whose event is
/// still needed, by a use without such a fix, in its program (see the module documentation).
pub(crate) fn keep_what_is_still_used(findings: &mut [Finding]) {
    // To a fixpoint: a fix held back here is one more use that remains (a listener kept on the
    // mirror keeps the loop's emit, which keeps the declaration). Only downgrades: it ends.
    while hold_back(findings) {}
}

/// A use of an event in a program, by its rule: (rule, program, event).
type Key<'a> = (&'static str, &'static str, &'a str);

/// The first use of each [`Key`], as the index of its finding.
type Uses<'a> = HashMap<Key<'a>, usize>;

/// Whether finding `a` comes before finding `b` by path (as the walk orders paths), line and
/// rule: not by the order the findings list them in, which is the order the run was given its
/// files in (the language server's changes as documents open and close), so a note names the
/// same use in every run.
fn walks_before(findings: &[Finding], a: usize, b: usize) -> bool {
    use std::cmp::Ordering;
    use std::path::Path;
    let (a, b) = (&findings[a], &findings[b]);
    // Equal strings are equal paths: only different ones are compared component by component.
    let path = match a.path == b.path {
        true => Ordering::Equal,
        false => Path::new(&a.path).cmp(Path::new(&b.path)),
    };
    path.then(a.line.cmp(&b.line)).then(a.rule.cmp(b.rule)) == Ordering::Less
}

/// Keeps under `key` the first of the uses seen ([`walks_before`]).
fn keep_first<'a>(findings: &[Finding], uses: &mut Uses<'a>, key: Key<'a>, use_at: usize) {
    use std::collections::hash_map::Entry;
    match uses.entry(key) {
        Entry::Vacant(v) => {
            v.insert(use_at);
        }
        Entry::Occupied(mut kept) => {
            if walks_before(findings, use_at, *kept.get()) {
                kept.insert(use_at);
            }
        }
    }
}

/// What one pass of [`hold_back`] does to a finding.
enum HoldBack {
    /// The fix goes: the note says why, and whether the finding becomes the human's part.
    NoFix { why: String, human: bool },
    /// The machine-applicable fix becomes a suggestion: what its message and the note add.
    Suggestion { not_yet: String, why: String },
}

/// One pass of [`keep_what_is_still_used`]; whether it held a fix back.
fn hold_back(findings: &mut [Finding]) -> bool {
    // Decided over the findings as the pass found them, then applied.
    let decided = decide(findings);
    let held = !decided.is_empty();
    for (i, change) in decided {
        let f = &mut findings[i];
        let why = match change {
            HoldBack::NoFix { why, human } => {
                f.fix = None;
                f.human |= human;
                why
            }
            HoldBack::Suggestion { not_yet, why } => {
                if let Some(fix) = f.fix.as_mut() {
                    fix.applicability = Applicability::Suggestion;
                    fix.message = format!("{}{not_yet}", fix.message);
                }
                why
            }
        };
        f.note = Some(match f.note.take() {
            Some(n) => format!("{n}; {why}"),
            None => why,
        });
    }
    held
}

/// What one pass of [`hold_back`] changes, by finding.
fn decide(findings: &[Finding]) -> Vec<(usize, HoldBack)> {
    // The first use of each rule, program and event that remains after the machine-applicable
    // fixes.
    let mut remaining = Uses::default();
    // The calls (listeners, emits) with no fix at all, not even a suggestion: no flag of
    // `--fix` migrates them.
    let mut stuck = Uses::default();
    // The same, of the human's part (a test pinning the removed mirror's own behaviour).
    let mut human = Uses::default();
    for (i, f) in findings.iter().enumerate() {
        let (Some(program), Some(event)) = (program(&f.path), f.event.as_deref()) else {
            continue;
        };
        let migrated = f
            .fix
            .as_ref()
            .is_some_and(|x| x.applicability == Applicability::MachineApplicable);
        let key = (f.rule, program, event);
        if !migrated {
            keep_first(findings, &mut remaining, key, i);
        }
        // A reference (a name in an array, an assertion) type-checks without the declaration.
        if f.fix.is_none() && f.rule != REFERENCE {
            let into = if f.human { &mut human } else { &mut stuck };
            keep_first(findings, into, key, i);
        }
    }
    let mut decided = Vec::new();
    for (i, f) in findings.iter().enumerate() {
        let (Some(program), Some(event)) = (program(&f.path), f.event.as_deref()) else {
            continue;
        };
        let keeps = f.fix.as_ref().is_some_and(|x| x.keeps_references);
        // The first (by path, line and rule) of the uses of the rules a deletion by `f` would
        // break.
        let first = |uses: &Uses<'_>| -> Option<&Finding> {
            needed_by(f.rule, keeps)
                .iter()
                .filter_map(|rule| uses.get(&(*rule, program, event)))
                .map(|&u| &findings[u])
                .min_by(|a, b| (&a.path, a.line, a.rule).cmp(&(&b.path, b.line, b.rule)))
        };
        // A declaration or an emit still needed by a use that has no fix at all: deleting it
        // breaks the build, or silences that listener, under any flags (nothing migrates that
        // use), so it has no fix. A use that is the human's part does not keep an emit (the
        // human deletes or rewrites that test; plain `--fix` still holds the emit back below),
        // but does keep a declaration, which is then the human's part too.
        if matches!(f.rule, DECLARE | EMIT) && f.fix.is_some() {
            let stuck_by = first(&stuck);
            let human_by = if f.rule == DECLARE {
                first(&human)
            } else {
                None
            };
            if let Some(by) = stuck_by.or(human_by) {
                let (path, line, what) = (&by.path, by.line, what(by.rule));
                let (deleting, breaks) = if f.rule == EMIT {
                    ("the emit", "silence it")
                } else {
                    ("the declaration", "break it")
                };
                let change = if stuck_by.is_some() {
                    HoldBack::NoFix {
                        why: format!(
                            "no fix: {what} of `{event}` at {path}:{line} has none, and deleting {deleting} would {breaks}"
                        ),
                        human: false,
                    }
                } else {
                    HoldBack::NoFix {
                        why: format!(
                            "the human's part: {what} of `{event}` at {path}:{line} is a test a human rewrites, and deleting {deleting} before that would {breaks}; delete it with that test's rewrite"
                        ),
                        human: true,
                    }
                };
                decided.push((i, change));
                continue;
            }
        }
        let Some(by) = first(&remaining) else {
            continue;
        };
        if f.fix
            .as_ref()
            .is_some_and(|x| x.applicability == Applicability::MachineApplicable)
        {
            let (path, line) = (&by.path, by.line);
            // The report names the one place to look (the listener, emit or use whose own
            // migration is not machine-applicable).
            decided.push((
                i,
                HoldBack::Suggestion {
                    not_yet: format!(" (not yet: `{event}` is still used at {path}:{line})"),
                    why: format!(
                        "`--fix` holds this back: {} of `{event}` at {path}:{line} is not migrated by it",
                        what(by.rule)
                    ),
                },
            ));
        }
    }
    decided
}

/// What a use of rule `rule` is, in a note.
fn what(rule: &str) -> &'static str {
    match rule {
        SUBSCRIBE => "the listener",
        EMIT => "the emit",
        _ => "the use",
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
            line_text_byte_column: 1,
            fix: fix.map(|a| Fix::new(a, "delete it".to_owned(), vec![Edit::new(0, 1, "")])),
            human: false,
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
        keep_what_is_still_used(&mut fs);
        assert_eq!(applicability(&fs[0]), Some(Applicability::Suggestion));
        let message = &fs[0].fix.as_ref().map(|x| x.message.clone());
        assert_eq!(
            message.as_deref(),
            Some("delete it (not yet: `agent/turn-end` is still used at loop/loop.ts:9)")
        );
        assert_eq!(applicability(&fs[1]), Some(Applicability::Suggestion));
    }

    #[test]
    fn a_declaration_needed_by_a_use_without_any_fix_has_no_fix() {
        let mut fs = vec![
            finding(
                DECLARE,
                "types.ts",
                3,
                Some(Applicability::MachineApplicable),
            ),
            finding(EMIT, "tests/ui.spec.ts", 8, None),
        ];
        keep_what_is_still_used(&mut fs);
        assert_eq!(applicability(&fs[0]), None);
        assert_eq!(
            fs[0].note.as_deref(),
            Some(
                "no fix: the emit of `agent/turn-end` at tests/ui.spec.ts:8 has none, and deleting the declaration would break it"
            )
        );
        // A use with a suggestion only holds it back.
        let mut fs = vec![
            finding(
                DECLARE,
                "types.ts",
                3,
                Some(Applicability::MachineApplicable),
            ),
            finding(EMIT, "loop.ts", 8, Some(Applicability::Suggestion)),
        ];
        keep_what_is_still_used(&mut fs);
        assert_eq!(applicability(&fs[0]), Some(Applicability::Suggestion));
    }

    #[test]
    fn a_held_back_emit_names_the_listener_that_holds_it_back() {
        let mut fs = vec![
            finding(
                EMIT,
                "loop/loop.ts",
                9,
                Some(Applicability::MachineApplicable),
            ),
            finding(SUBSCRIBE, "ui/index.ts", 5, Some(Applicability::Suggestion)),
            finding(
                SUBSCRIBE,
                "ui/other.ts",
                7,
                Some(Applicability::MachineApplicable),
            ),
        ];
        keep_what_is_still_used(&mut fs);
        assert_eq!(applicability(&fs[0]), Some(Applicability::Suggestion));
        assert_eq!(
            fs[0].note.as_deref(),
            Some(
                "`--fix` holds this back: the listener of `agent/turn-end` at ui/index.ts:5 is not migrated by it"
            )
        );
        // Which in turn holds back the other listener (to a fixpoint), and says so.
        assert_eq!(
            fs[2].note.as_deref(),
            Some(
                "`--fix` holds this back: the emit of `agent/turn-end` at loop/loop.ts:9 is not migrated by it"
            )
        );
    }

    #[test]
    fn a_listener_and_an_emit_beside_its_append_are_migrated_together() {
        let mut fs = vec![
            finding(
                EMIT,
                "loop/loop.ts",
                9,
                Some(Applicability::MachineApplicable),
            ),
            finding(
                SUBSCRIBE,
                "ui/index.ts",
                5,
                Some(Applicability::MachineApplicable),
            ),
        ];
        keep_what_is_still_used(&mut fs);
        assert_eq!(
            applicability(&fs[0]),
            Some(Applicability::MachineApplicable)
        );
        assert_eq!(
            applicability(&fs[1]),
            Some(Applicability::MachineApplicable)
        );
        // An emit without the durable append beside it keeps the listener on the mirror, and
        // that listener keeps the loop's emit.
        fs.push(finding(
            EMIT,
            "ui/ui.spec.ts",
            7,
            Some(Applicability::Suggestion),
        ));
        keep_what_is_still_used(&mut fs);
        assert_eq!(applicability(&fs[1]), Some(Applicability::Suggestion));
        assert_eq!(applicability(&fs[0]), Some(Applicability::Suggestion));
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
        keep_what_is_still_used(&mut fs);
        assert_eq!(
            applicability(&fs[0]),
            Some(Applicability::MachineApplicable)
        );
    }

    #[test]
    fn an_emit_is_kept_while_a_listener_stays_but_not_for_other_emits() {
        let mut fs = vec![
            finding(
                EMIT,
                "loop/loop.ts",
                9,
                Some(Applicability::MachineApplicable),
            ),
            finding(EMIT, "loop/other.ts", 4, Some(Applicability::Suggestion)),
        ];
        keep_what_is_still_used(&mut fs);
        assert_eq!(
            applicability(&fs[0]),
            Some(Applicability::MachineApplicable)
        );
        fs.push(finding(
            SUBSCRIBE,
            "tests/cancel.spec.ts",
            179,
            Some(Applicability::Suggestion),
        ));
        keep_what_is_still_used(&mut fs);
        assert_eq!(applicability(&fs[0]), Some(Applicability::Suggestion));
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
        keep_what_is_still_used(&mut fs);
        assert_eq!(applicability(&fs[0]), Some(Applicability::Suggestion));
    }

    /// What a generated use of the event is before the pass: no fix (the human's part or not),
    /// a suggestion, or a machine-applicable fix.
    #[derive(Clone, Copy, Debug)]
    enum Given {
        None,
        Human,
        Suggestion,
        Machine,
    }

    fn given(rule: &'static str, path: &str, g: Given) -> Finding {
        let mut f = finding(
            rule,
            path,
            1,
            match g {
                Given::None | Given::Human => None,
                Given::Suggestion => Some(Applicability::Suggestion),
                Given::Machine => Some(Applicability::MachineApplicable),
            },
        );
        f.human = matches!(g, Given::Human);
        f
    }

    /// Issue #29 item 1 (a): an emit and its declaration go only when every subscription to
    /// the event in the run is migrated in the same run, whatever the flags; a safe fix never
    /// silences a listener (not even a test a human rewrites). Checked over every combination
    /// of up to three listeners, two emits and a declaration, under both flags.
    #[test]
    fn an_emit_goes_only_with_every_listener_under_every_flag() {
        let all = [Given::None, Given::Human, Given::Suggestion, Given::Machine];
        let fixed = [Given::None, Given::Suggestion, Given::Machine];
        let mut cases = 0;
        // Both programs: the pass is the same for TypeScript/JavaScript and Rust.
        for ext in ["ts", "rs"] {
            for listeners in 0..=3usize {
                for subs in (0..all.len().pow(listeners as u32)).map(|mut n| {
                    (0..listeners)
                        .map(|_| {
                            let g = all[n % all.len()];
                            n /= all.len();
                            g
                        })
                        .collect::<Vec<_>>()
                }) {
                    for e1 in fixed {
                        for e2 in [None, Some(Given::Suggestion), Some(Given::Machine)] {
                            for declared in [false, true] {
                                let mut fs = Vec::new();
                                for (i, g) in subs.iter().enumerate() {
                                    fs.push(given(SUBSCRIBE, &format!("ui/l{i}.spec.{ext}"), *g));
                                }
                                let first_emit = fs.len();
                                fs.push(given(EMIT, &format!("loop/a.{ext}"), e1));
                                if let Some(e2) = e2 {
                                    fs.push(given(EMIT, &format!("loop/b.{ext}"), e2));
                                }
                                if declared {
                                    fs.push(given(
                                        DECLARE,
                                        &format!("agent/types.{ext}"),
                                        Given::Machine,
                                    ));
                                }
                                keep_what_is_still_used(&mut fs);
                                for unsafe_fixes in [false, true] {
                                    cases += 1;
                                    let applied = |f: &Finding| {
                                        f.fix.as_ref().is_some_and(|x| {
                                            unsafe_fixes
                                                || x.applicability
                                                    == Applicability::MachineApplicable
                                        })
                                    };
                                    let listeners_all = fs[..first_emit].iter().all(applied);
                                    let listeners_but_human =
                                        fs[..first_emit].iter().all(|f| f.human || applied(f));
                                    let emits_all = fs[first_emit..]
                                        .iter()
                                        .filter(|f| f.rule == EMIT)
                                        .all(applied);
                                    for f in &fs[first_emit..] {
                                        let ctx = format!(
                                            "{subs:?} emits {e1:?} {e2:?} declared {declared} unsafe {unsafe_fixes}: {} {:?} {:?}",
                                            f.rule, f.fix, f.note
                                        );
                                        if !applied(f) {
                                            continue;
                                        }
                                        assert!(listeners_but_human, "{ctx}");
                                        if !unsafe_fixes {
                                            assert!(listeners_all, "{ctx}");
                                        }
                                        if f.rule == DECLARE {
                                            assert!(listeners_all && emits_all, "{ctx}");
                                        }
                                    }
                                    // Nothing is held back that could go: with every listener and
                                    // emit machine-applicable, plain `--fix` deletes the emit.
                                    let all_machine =
                                        subs.iter().all(|g| matches!(g, Given::Machine))
                                            && matches!(e1, Given::Machine)
                                            && !matches!(e2, Some(Given::Suggestion | Given::None));
                                    if all_machine {
                                        assert!(applied(&fs[first_emit]), "{subs:?} {e2:?}");
                                    }
                                    // A held emit names the listener that holds it.
                                    let emit = &fs[first_emit];
                                    if matches!(e1, Given::Machine) && !applied(emit) {
                                        assert!(
                                            emit.note
                                                .as_deref()
                                                .is_some_and(|n| n.contains(" at ")),
                                            "{:?}",
                                            emit.note
                                        );
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(cases > 2000, "{cases}");
    }
}
