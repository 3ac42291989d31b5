//! `tool/call` and `tool/result`: calls come from the step's message, results answer them once,
//! in order, citing their call (TOOL-1 … TOOL-4, CHUNK-6).

use super::Monitor;
use super::data::{CallSource, ErrorObj, MessageObj};
use super::state::{Pending, ToolCallRec};
use crate::check::assemble::arguments_equal;
use crate::check::event::{Envelope, Loc};
use crate::check::values::{clip, parse_seqs, seq_list};
use crate::vocab::Profile;
use serde_json::Value;
use serde_json::value::RawValue;
use std::borrow::Cow;

impl Monitor {
    pub(super) fn tool_call(&mut self, at: Loc, env: &Envelope<'_>) {
        let Some(data) = self.step_scoped_data(at, env, "tool/call") else {
            return;
        };
        let Some(call_id) = data.call_id.as_deref().map(str::to_owned) else {
            self.report("LOG-2", at, "`tool/call` has no `data.callId`");
            return;
        };
        let name = data.name.as_deref().map(str::to_owned);
        let arguments: Value = data
            .arguments
            .and_then(|a| serde_json::from_str(a.get()).ok())
            .unwrap_or(Value::Null);
        let profile = self.profile;
        let mut findings: Pending = Vec::new();
        {
            let Some(step) = self.step_mut() else { return };
            if profile == Profile::V2026_07
                && let Some(prev) = step.tool_calls.iter().find(|c| !c.answered)
            {
                findings.push((
                    "TOOL-3",
                    format!("`tool/call` {call_id} before call {} has its result: 2026-07 runs tools one at a time", prev.call_id),
                    Some((format!("`tool/result` of {}", prev.call_id), format!("`tool/call` {call_id}"))),
                ));
            }
            let mut block_pos = None;
            let after_failed_call = step
                .call
                .as_ref()
                .and_then(|c| c.finish.as_ref())
                .is_some_and(|f| f.failure);
            match &step.message {
                None if after_failed_call => findings.push((
                    "CHUNK-6",
                    format!("`tool/call` {call_id} follows a failed model call: after a failed call the step must end{}", if profile == Profile::V2026_08 { " or retry" } else { "" }),
                    None,
                )),
                None => findings.push((
                    "TOOL-4",
                    format!(
                        "`tool/call` {call_id} has no `assistant/message` in its step to come from"
                    ),
                    None,
                )),
                Some(msg) if msg.max_tokens => findings.push((
                    "TOOL-4",
                    format!("`tool/call` {call_id} dispatched from a `max-tokens` message"),
                    None,
                )),
                Some(msg) => {
                    let pos = msg.tool_blocks.iter().position(|b| {
                        b.get("id").and_then(Value::as_str) == Some(call_id.as_str())
                    });
                    match pos {
                        None => findings.push((
                            "TOOL-4",
                            format!("`tool/call` {call_id} matches no tool-call block of the step's message"),
                            None,
                        )),
                        Some(p) => {
                            block_pos = Some(p);
                            let b = &msg.tool_blocks[p];
                            let bname = b.get("name").and_then(Value::as_str);
                            if bname != name.as_deref() {
                                findings.push((
                                    "TOOL-4",
                                    format!("`tool/call` {call_id} names a different tool than its message block"),
                                    Some((format!("{bname:?}"), format!("{:?}", name.as_deref()))),
                                ));
                            }
                            let bargs = b.get("arguments").unwrap_or(&Value::Null);
                            if !arguments_equal(bargs, &arguments) {
                                findings.push((
                                    "TOOL-4",
                                    format!("`tool/call` {call_id} has different arguments than its message block"),
                                    Some((clip(&bargs.to_string()), clip(&arguments.to_string()))),
                                ));
                            }
                        }
                    }
                }
            }
            step.tool_calls.push(ToolCallRec {
                call_id,
                seq: at.seq,
                answered: false,
                block_pos,
            });
        }
        self.report_pending(at, findings);
    }

    pub(super) fn tool_result(&mut self, at: Loc, env: &Envelope<'_>) {
        let Some(data) = self.step_scoped_data(at, env, "tool/result") else {
            return;
        };
        let msg_obj = data
            .message
            .and_then(|m| serde_json::from_str::<MessageObj<'_>>(m.get()).ok())
            .unwrap_or_default();
        self.tool_result_read(at, env, data.call_id, msg_obj.source, data.error);
    }

    /// A `tool/result`'s own rules once its `data` is read (and the event found in its
    /// step): `call_id` and `error` as `data` holds them, `source` as `data.message` does.
    pub(super) fn tool_result_read(
        &mut self,
        at: Loc,
        env: &Envelope<'_>,
        call_id: Option<Cow<'_, str>>,
        source: Option<&RawValue>,
        error: Option<&RawValue>,
    ) {
        let source_id = source
            .and_then(|s| serde_json::from_str::<CallSource<'_>>(s.get()).ok())
            .and_then(|s| s.call_id)
            .map(Cow::into_owned);
        let call_id = call_id.map(Cow::into_owned).or(source_id);
        let code = error
            .and_then(|e| serde_json::from_str::<ErrorObj<'_>>(e.get()).ok())
            .and_then(|e| e.code)
            .map(Cow::into_owned);
        let synthetic_unstarted =
            matches!(code.as_deref(), Some("TOOL_NOT_STARTED" | "interrupted"));
        let cited: Option<Vec<u64>> = env.source_event_seqs.and_then(parse_seqs);
        let Some(call_id) = call_id else {
            self.report(
                "LOG-2",
                at,
                "`tool/result` names no call id (`data.callId` or `data.message.source.callId`)",
            );
            return;
        };
        let profile = self.profile;
        let mut findings: Pending = Vec::new();
        {
            let Some(step) = self.step_mut() else { return };
            let found = step
                .tool_calls
                .iter_mut()
                .find(|c| c.call_id == call_id && !c.answered);
            match found {
                Some(call) => {
                    call.answered = true;
                    let expected = vec![call.seq];
                    if cited.as_ref() != Some(&expected) {
                        findings.push((
                            "TOOL-2",
                            format!(
                                "the result of {call_id} does not cite exactly its `tool/call`"
                            ),
                            Some((
                                seq_list(&expected),
                                cited.as_deref().map_or("absent".to_owned(), seq_list),
                            )),
                        ));
                    }
                    if profile == Profile::V2026_08
                        && let Some(pos) = call.block_pos
                    {
                        if step.last_result_pos.is_some_and(|last| pos < last) {
                            findings.push((
                                "TOOL-3",
                                format!("the result of {call_id} is committed out of model order"),
                                None,
                            ));
                        }
                        step.last_result_pos =
                            Some(step.last_result_pos.map_or(pos, |l| l.max(pos)));
                    }
                }
                None if synthetic_unstarted => step.answered_unstarted.push(call_id.clone()),
                None => {
                    let twice = step.tool_calls.iter().any(|c| c.call_id == call_id);
                    let msg = if twice {
                        format!("a second `tool/result` for call {call_id}")
                    } else {
                        format!(
                            "`tool/result` for call {call_id}, which has no `tool/call` in this step"
                        )
                    };
                    findings.push(("TOOL-1", msg, None));
                }
            }
        }
        self.report_pending(at, findings);
    }
}
