//! Issue #29 item 1 (c): a subscription whose handler only tells its agent from another keeps
//! comparing, by session, with the agent in scope (`session === agent.session`, what upstream's
//! `140f818a42` wrote), in every form of comparison: identity, the agent's `.id` or `.name`
//! against another agent's, any equality operator, either side, negated, as an early return,
//! inside `&&`/`||`. Only a handler that compares with something that is not an agent (an id
//! or name string held in scope) needs the agent itself, looked up in a map of agents by
//! session, and that rewrite is never machine-applicable. Checked over generated handler
//! bodies, each rewrite applied and parsed.

use mirrorless_lint::config::Config;
use mirrorless_lint::engine::{lint_document, syntax_errors};
use mirrorless_lint::model::{Applicability, Fix};
use std::path::Path;

/// `text` with `fix`'s edits applied.
fn apply(text: &str, fix: &Fix) -> String {
    let mut out = text.to_owned();
    for e in fix.edits.iter().rev() {
        out.replace_range(e.start..e.end, &e.replacement);
    }
    out
}

/// The subscription's fix and the fixed text of a file attaching a listener for `agent`.
fn fixed(body: &str) -> (Fix, String) {
    let text = format!(
        "export function attach(ctx: Context, agent: Agent, host: {{ agent: Agent }}, ui: Ui, agentId: string) {{\n  ctx.on('agent/turn-start', (a: Agent, turn: number) => {{\n    {body}\n  }});\n}}\n"
    );
    let report = lint_document(Path::new("ui.ts"), &text, &Config::default());
    let fix = report
        .findings
        .iter()
        .find(|f| f.rule == "ML001")
        .and_then(|f| f.fix.clone())
        .unwrap_or_else(|| panic!("no fix for:\n{text}"));
    let out = apply(&text, &fix);
    assert_eq!(
        syntax_errors(Path::new("ui.ts"), "ui.ts", &out),
        0,
        "the rewrite does not parse:\n{out}"
    );
    (fix, out)
}

#[test]
fn every_comparison_with_the_agent_in_scope_becomes_one_of_sessions() {
    // (own side, other side, the other side's session)
    let operands = [
        ("a", "agent", "agent.session"),
        ("a.id", "agent.id", "agent.session"),
        ("a.name", "agent.name", "agent.session"),
        ("a", "host.agent", "host.agent.session"),
        ("a.id", "host.agent.id", "host.agent.session"),
    ];
    let mut cases = 0;
    for (own, other, other_session) in operands {
        for op in ["===", "!==", "==", "!="] {
            for swapped in [false, true] {
                let (cmp, want) = if swapped {
                    (
                        format!("{other} {op} {own}"),
                        format!("{other_session} {op} session"),
                    )
                } else {
                    (
                        format!("{own} {op} {other}"),
                        format!("session {op} {other_session}"),
                    )
                };
                let wrappers = [
                    format!("if ({cmp}) return; ui.spinnerOn('x', turn);"),
                    format!("if (!({cmp})) return; ui.spinnerOn('x', turn);"),
                    format!("if ({cmp} && turn > 1) ui.spinnerOn('x', turn);"),
                    format!("if (turn > 1 || {cmp}) ui.spinnerOn('x', turn);"),
                    format!("const same = {cmp}; if (same) ui.spinnerOn('x', turn);"),
                ];
                for body in wrappers {
                    cases += 1;
                    let (fix, out) = fixed(&body);
                    let ctx = format!("{body}\n→\n{out}");
                    assert!(out.contains(&want), "{ctx}");
                    assert!(!out.contains("agentBySession"), "{ctx}");
                    assert!(!out.contains("agent/created"), "{ctx}");
                    assert!(!out.contains("(a:") && !out.contains(" a."), "{ctx}");
                    assert!(out.contains("'session/event'"), "{ctx}");
                    // Sessions tell agents apart only while no two share one: a suggestion.
                    assert_eq!(fix.applicability, Applicability::Suggestion, "{ctx}");
                }
            }
        }
    }
    assert_eq!(cases, 5 * 4 * 2 * 5);
}

#[test]
fn a_comparison_with_no_agent_in_scope_looks_the_agent_up_and_is_never_machine_applicable() {
    for cmp in [
        "a.id === agentId",
        "agentId !== a.id",
        "a.name === 'planner'",
        "a.id === agent.name",
        "a.id === a.id",
        "a === a",
    ] {
        for body in [
            format!("if ({cmp}) return; ui.spinnerOn('x', turn);"),
            format!("if (turn > 1 && {cmp}) ui.spinnerOn('x', turn);"),
        ] {
            let (fix, out) = fixed(&body);
            let ctx = format!("{body}\n→\n{out}");
            assert_ne!(fix.applicability, Applicability::MachineApplicable, "{ctx}");
            assert!(!out.contains("session === agent.session"), "{ctx}");
        }
    }
}
