//! 2026-07 `steering/message`: it names the open turn and lands only where steering may
//! land (STEER-1): between steps, or after a successful step body (after the message and the
//! results of all its tool calls), never in a failed step.

use super::Monitor;
use crate::check::event::{Envelope, Loc};
use crate::check::values::parse_u64;
use serde_json::Value;

impl Monitor {
    pub(super) fn steering(&mut self, at: Loc, env: &Envelope<'_>) {
        let Some(data) = self.parse_data(at, env) else {
            return;
        };
        let turn_no = data.turn.and_then(parse_u64);
        let Some(turn) = self.turn.as_ref() else {
            return;
        };
        if turn_no != Some(turn.number) {
            let (expected, observed) = (turn.number, turn_no);
            self.report_diff(
                "STEER-1",
                at,
                "`steering/message` does not name the open turn",
                format!("turn {expected}"),
                observed.map_or("none".to_owned(), |n| format!("turn {n}")),
            );
        }
        let Some(step) = self.turn.as_ref().and_then(|t| t.step.as_ref()) else {
            return;
        };
        let failed = match &step.call {
            None => true,
            Some(c) => c.finish.as_ref().is_none_or(|f| f.failure),
        };
        if failed {
            self.report(
                "STEER-1",
                at,
                "`steering/message` inside a step that has no successful model call: steering lands between steps or after a successful step body",
            );
            return;
        }
        // The step body ends with the results of the message's tool calls: steering drained
        // between the message and a tool call (or its result) lands inside the body, which the
        // step's close tells (`close_step`) once it knows whether those calls ran at all.
        let unran: Vec<String> =
            step.message
                .as_ref()
                .filter(|m| !m.max_tokens)
                .map_or(Vec::new(), |m| {
                    m.tool_blocks
                        .iter()
                        .map(|b| b.get("id").and_then(Value::as_str).unwrap_or("").to_owned())
                        .filter(|id| {
                            !step
                                .tool_calls
                                .iter()
                                .any(|c| &c.call_id == id && c.answered)
                        })
                        .collect()
                });
        if !unran.is_empty()
            && let Some(step) = self.step_mut()
        {
            step.steered_early.push((at, unran));
        }
    }

    /// STEER-1 for each `steering/message` of a closing step recorded before tool calls of the
    /// step that ran after it.
    pub(super) fn judge_early_steering(&mut self, step: &super::state::Step) {
        for (at, ids) in &step.steered_early {
            let ran = ids
                .iter()
                .filter(|id| step.tool_calls.iter().any(|c| &c.call_id == *id))
                .count();
            if ran > 0 {
                self.report(
                    "STEER-1",
                    *at,
                    format!(
                        "`steering/message` in turn {} step {} before {ran} of the step's tool call(s) ran: 2026-07 drains steering after the step body, after every tool result",
                        step.turn, step.number
                    ),
                );
            }
        }
    }
}
