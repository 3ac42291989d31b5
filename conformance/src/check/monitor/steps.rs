//! Steps: `step/start` and `step/end`, what a closed step leaves to its turn, and the
//! turn-and-step check of every step-scoped event (STEP-1, STEP-2, STEP-3).

use super::Monitor;
use super::data::Data;
use super::state::{Step, Turn};
use crate::check::event::{Envelope, Loc};
use crate::check::values::parse_u64;
use crate::vocab::Profile;
use serde_json::Value;

impl Monitor {
    pub(super) fn step_start(&mut self, at: Loc, env: &Envelope<'_>) {
        let Some(data) = self.parse_data(at, env) else {
            return;
        };
        let turn_no = self.require_u64(at, "step/start", "turn", data.turn);
        let Some(number) = self.require_u64(at, "step/start", "step", data.step) else {
            return;
        };
        if self.turn.is_none() {
            self.report(
                "STEP-2",
                at,
                format!("`step/start` of step {number} outside any turn"),
            );
            self.turn = Some(Turn {
                number: turn_no.unwrap_or(0),
                loc: at,
                phantom: true,
                last_step: number.saturating_sub(1),
                steps: 0,
                injection: false,
                max_tokens: false,
                last_call_failed: false,
                unfinished_call: None,
                missing_message: None,
                unanswered_in_last_step: 0,
                message_ids: Vec::new(),
                step: None,
            });
        }
        let Some(mut turn) = self.turn.take() else {
            return;
        };
        if let Some(t) = turn_no
            && t != turn.number
            && !turn.phantom
        {
            self.report_diff(
                "STEP-2",
                at,
                format!(
                    "`step/start` names turn {t} but turn {} is open",
                    turn.number
                ),
                format!("turn {}", turn.number),
                format!("turn {t}"),
            );
        }
        if let Some(open) = turn.step.take() {
            self.report_diff(
                "STEP-2",
                at,
                format!(
                    "`step/start` of step {number} while step {} is open: steps do not nest",
                    open.number
                ),
                format!("`step/end` of step {}", open.number),
                format!("`step/start` of step {number}"),
            );
            self.report(
                "TURN-4",
                at,
                format!("step {} is never closed by a `step/end`", open.number),
            );
            self.close_step(&mut turn, open);
        }
        if number != turn.last_step.saturating_add(1) {
            self.report_diff(
                "STEP-1",
                at,
                format!(
                    "step {number} follows step {} in turn {}: steps are numbered 1 … n",
                    turn.last_step, turn.number
                ),
                format!("step {}", turn.last_step.saturating_add(1)),
                format!("step {number}"),
            );
        }
        turn.last_step = number;
        turn.steps += 1;
        turn.step = Some(Step {
            number,
            turn: turn.number,
            call: None,
            message: None,
            interrupted_message: false,
            tool_calls: Vec::new(),
            answered_unstarted: Vec::new(),
            interleaved: None,
            last_result_pos: None,
            steered_early: Vec::new(),
        });
        self.turn = Some(turn);
    }

    pub(super) fn step_end(&mut self, at: Loc, env: &Envelope<'_>) {
        let Some(data) = self.parse_data(at, env) else {
            return;
        };
        let turn_no = self.require_u64(at, "step/end", "turn", data.turn);
        let step_no = self.require_u64(at, "step/end", "step", data.step);
        let Some(mut turn) = self.turn.take() else {
            self.report("STEP-2", at, "`step/end` with no open turn or step");
            return;
        };
        match turn.step.take() {
            None => self.report("STEP-2", at, "`step/end` with no open step"),
            Some(step) => {
                if turn_no != Some(step.turn) || step_no != Some(step.number) {
                    self.report_diff(
                        "STEP-2",
                        at,
                        "`step/end` does not name the open turn and step",
                        format!("turn {}, step {}", step.turn, step.number),
                        format!(
                            "turn {}, step {}",
                            turn_no.map_or("?".into(), |n| n.to_string()),
                            step_no.map_or("?".into(), |n| n.to_string())
                        ),
                    );
                }
                self.close_step(&mut turn, step);
            }
        }
        self.turn = Some(turn);
    }

    /// Closes a step: final checks on its last model call, bookkeeping for the turn end.
    pub(super) fn close_step(&mut self, turn: &mut Turn, mut step: Step) {
        self.judge_early_steering(&step);
        turn.unanswered_in_last_step = step.tool_calls.iter().filter(|c| !c.answered).count();
        // Tool-call blocks of the message with no tool/call at all count as unanswered too
        // (the crash closer answers them with TOOL_NOT_STARTED).
        if let Some(msg) = &step.message {
            let dispatched = |id: &str| {
                step.tool_calls.iter().any(|c| c.call_id == id)
                    || step.answered_unstarted.iter().any(|a| a == id)
            };
            turn.unanswered_in_last_step += msg
                .tool_blocks
                .iter()
                .filter(|b| !dispatched(b.get("id").and_then(Value::as_str).unwrap_or("")))
                .count();
        }
        let Some(mut call) = step.call.take() else {
            return;
        };
        self.close_call(&mut call);
        match &call.finish {
            Some(f) if f.failure => {
                turn.last_call_failed = true;
            }
            Some(f) => {
                turn.last_call_failed = false;
                if f.kind == "max-tokens" {
                    turn.max_tokens = true;
                }
                if step.message.is_none() {
                    let needed = self.profile == Profile::V2026_08
                        || !call.assembled(false).is_empty()
                        || call.usage.is_some();
                    if needed {
                        turn.missing_message = call.first;
                    }
                }
            }
            None => {
                turn.last_call_failed = false;
                // A run cut short (cancel, crash, a throw) is judged by how the turn ends; a
                // normal message after such a run was already reported as CHUNK-3.
                if !call.seqs.is_empty() && step.message.is_none() {
                    turn.unfinished_call = call.first;
                }
            }
        }
    }

    /// STEP-3 for step-scoped events; returns whether a step is open.
    /// Parses the data of a step-scoped event and checks that it carries the open turn and
    /// step; `None` when either fails (the finding is already reported).
    pub(super) fn step_scoped_data<'a>(
        &mut self,
        at: Loc,
        env: &Envelope<'a>,
        kind: &str,
    ) -> Option<Data<'a>> {
        let data = self.parse_data(at, env)?;
        let turn_no = data.turn.and_then(parse_u64);
        let step_no = data.step.and_then(parse_u64);
        self.step_scoped(at, kind, turn_no, step_no).then_some(data)
    }

    pub(super) fn step_scoped(
        &mut self,
        at: Loc,
        kind: &str,
        turn_no: Option<u64>,
        step_no: Option<u64>,
    ) -> bool {
        let Some(step) = self.turn.as_ref().and_then(|t| t.step.as_ref()) else {
            self.report(
                "TURN-3",
                at,
                format!("`{kind}` must lie inside a step, but no step is open"),
            );
            return false;
        };
        let (t, s) = (step.turn, step.number);
        if turn_no != Some(t) || step_no != Some(s) {
            let show = |n: Option<u64>| n.map_or("none".to_owned(), |n| n.to_string());
            self.report_diff(
                "STEP-3",
                at,
                format!("`{kind}` does not carry the open turn and step"),
                format!("turn {t}, step {s}"),
                format!("turn {}, step {}", show(turn_no), show(step_no)),
            );
        }
        true
    }
}
