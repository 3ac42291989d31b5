//! MSG-5 against the script for cancelled model calls.

use super::expected::Skipped;
use super::finding::{Finding, Origin};
use super::log_index::LogIndex;
use crate::scenario::{CallEnding, Case};
use crate::vocab::Profile;
use crate::vocab::durable::SessionEvent;
use serde_json::Value;

/// MSG-5 against the script for interrupted calls: under 2026-07 a cancelled stream is not
/// finalized; under 2026-08 it is finalized as an `interrupted` message exactly when its
/// recorded prefix has non-whitespace text or reasoning.
pub(super) fn check_interrupted(
    case: &Case,
    skipped: &Skipped,
    log: &[SessionEvent],
    ix: &LogIndex,
) -> Vec<Finding> {
    let mut out = Vec::new();
    for turn in case.script.plan(case.profile) {
        for (c, call, step) in case.script.calls_of(&turn) {
            let step = &step;
            if skipped.contains(&(turn.action, c)) {
                continue;
            }
            let CallEnding::Interrupted(at) = call.ending() else {
                continue;
            };
            let Some(start) = ix.step_start(turn.turn, *step) else {
                continue;
            };
            let end = ix.step_end(turn.turn, *step).unwrap_or(log.len());
            let messages: Vec<usize> = (start..end)
                .filter(|i| log[*i].kind == "assistant/message")
                .collect();
            let interrupted: Vec<usize> = messages
                .iter()
                .copied()
                .filter(|i| log[*i].data.get("interrupted") == Some(&Value::Bool(true)))
                .collect();
            let want = case.profile == Profile::V2026_08
                && crate::scenario::coverage::has_non_whitespace_prefix(call, at.after);
            let finding = |position: usize, message: String| Finding {
                requirement: "MSG-5",
                error: true,
                position: Some(position as u64),
                message,
                expected: vec![if want {
                    "assistant/message {interrupted: true} with the non-whitespace prefix, before step/end".to_owned()
                } else {
                    "no assistant/message for the cancelled call".to_owned()
                }],
                observed: messages
                    .iter()
                    .map(|i| format!("#{i} assistant/message {}", log[*i].data))
                    .collect(),
                origin: Origin::Oracle,
            };
            match (want, messages.as_slice(), interrupted.is_empty()) {
                (true, _, true) => out.push(finding(
                    end,
                    format!(
                        "turn {} step {}: the cancelled stream had streamed non-whitespace text or reasoning, but no `interrupted` message finalizes it",
                        turn.turn, step
                    ),
                )),
                (false, [first, ..], _) => out.push(finding(
                    *first,
                    format!(
                        "turn {} step {}: a cancelled stream {} no `assistant/message`",
                        turn.turn,
                        step,
                        if case.profile == Profile::V2026_07 {
                            "is finalized by"
                        } else {
                            "that streamed no non-whitespace text or reasoning gets"
                        }
                    ),
                )),
                _ => {}
            }
        }
    }
    out
}
