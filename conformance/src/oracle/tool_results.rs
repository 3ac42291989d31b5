//! TOOL-5 against the script: a `tool/result` records what the tool answered — its text, its
//! `isError` flag and (2026-08) the call it answers in its `tool-result` block.

use super::finding::{Finding, Origin};
use super::log_index::LogIndex;
use crate::scenario::{Case, ToolOutcome, TurnPlan};
use crate::vocab::Profile;
use crate::vocab::durable::SessionEvent;
use serde_json::Value;

/// The text of a recorded tool-result `content`: the string itself, or the concatenated
/// text blocks of a content array (upstream records `[{type: "text", text}]`).
fn text_of(content: &Value) -> Option<String> {
    match content {
        Value::String(s) => Some(s.clone()),
        Value::Array(blocks) => blocks
            .iter()
            .map(|b| {
                (b.get("type").and_then(Value::as_str) == Some("text"))
                    .then(|| b.get("text").and_then(Value::as_str))
                    .flatten()
            })
            .collect::<Option<String>>(),
        _ => None,
    }
}

/// Whether the recorded text carries the answer: verbatim for a success; for a failure the
/// loop may frame the tool's error text (upstream writes `Error: <text>` for a failing tool),
/// so the text need only contain it.
fn carries(recorded: &str, outcome: &ToolOutcome) -> bool {
    if outcome.is_error {
        recorded.contains(&outcome.content)
    } else {
        recorded == outcome.content
    }
}

/// The scripted answers to the tool calls of the model call that served ordinal step
/// `(turn, step)`: the step's last call (earlier calls of a step failed and were retried).
fn answers_of<'c>(case: &'c Case, plan: &[TurnPlan], turn: u64, step: u64) -> &'c [ToolOutcome] {
    let Some(t) = plan.iter().find(|t| t.turn == turn) else {
        return &[];
    };
    case.script
        .calls_of(t)
        .filter(|(_, _, s)| *s == step)
        .last()
        .map_or(&[], |(_, c, _)| c.tools.as_slice())
}

/// The call id a `tool/result` names (2026-07 `callId`, 2026-08 `message.source.callId`).
fn named_call(profile: Profile, e: &SessionEvent) -> Option<&str> {
    match profile {
        Profile::V2026_07 => e.data.get("callId"),
        Profile::V2026_08 => e.data.pointer("/message/source/callId"),
    }
    .and_then(Value::as_str)
}

/// What is wrong with one result that answers `outcome`, if anything.
fn problem(profile: Profile, e: &SessionEvent, outcome: &ToolOutcome) -> Option<String> {
    let id = &outcome.call_id;
    let (content, is_error) = match profile {
        Profile::V2026_07 => (e.data.get("content"), e.data.get("isError")),
        Profile::V2026_08 => {
            let blocks = e.data.pointer("/message/content").and_then(Value::as_array);
            let Some(block) = blocks.and_then(|bs| {
                bs.iter().find(|b| {
                    b.get("type").and_then(Value::as_str) == Some("tool-result")
                        && b.get("toolCallId").and_then(Value::as_str) == Some(id)
                })
            }) else {
                return Some(format!(
                    "its `message.content` has no `{{type: \"tool-result\", toolCallId: \"{id}\"}}` block"
                ));
            };
            (block.get("content"), block.get("isError"))
        }
    };
    // An absent `isError` reads as `false`: upstream declares it optional (2026-08
    // `ToolResultBlock.isError?: boolean`) and its readers default it (`?? false`, era M's
    // truthiness test), although its own writer always sets it.
    let flag = match is_error {
        None => Some(false),
        Some(v) => v.as_bool(),
    };
    if flag != Some(outcome.is_error) {
        return Some(format!(
            "`isError` is {}, but the tool answered `isError: {}`",
            is_error.map_or("missing".to_owned(), Value::to_string),
            outcome.is_error
        ));
    }
    let text = content.and_then(text_of);
    if !text.as_deref().is_some_and(|t| carries(t, outcome)) {
        return Some(format!(
            "its content is {}, but the tool answered {:?}{}",
            content.map_or("missing".to_owned(), Value::to_string),
            outcome.content,
            if outcome.is_error {
                " (an error text may be framed, never lost)"
            } else {
                ""
            }
        ));
    }
    if e.data.get("error").is_some() && !outcome.is_error {
        return Some("it carries an `error` although the tool succeeded".to_owned());
    }
    None
}

/// TOOL-5: every `tool/result` that cites the `tool/call` of the call it names (the pairing
/// and the citation are TOOL-1's and TOOL-2's) records the scripted answer to that call.
pub(super) fn check_tool_results(case: &Case, log: &[SessionEvent], ix: &LogIndex) -> Vec<Finding> {
    let plan = case.script.plan(case.profile);
    let mut out = Vec::new();
    for (i, e) in log.iter().enumerate() {
        if e.kind != "tool/result" {
            continue;
        }
        let Some(id) = named_call(case.profile, e) else {
            continue;
        };
        let cited = match e.source_event_seqs.as_deref() {
            Some([seq]) => log.iter().find(|c| c.seq == Some(*seq)),
            _ => None,
        };
        if !cited.is_some_and(|c| {
            c.kind == "tool/call" && c.data.get("callId").and_then(Value::as_str) == Some(id)
        }) {
            continue;
        }
        let (turn, step) = ix.ords[i];
        let Some(outcome) = answers_of(case, &plan, turn, step)
            .iter()
            .find(|o| o.call_id == id)
        else {
            continue;
        };
        if let Some(problem) = problem(case.profile, e, outcome) {
            out.push(Finding {
                requirement: "TOOL-5",
                error: true,
                position: Some(i as u64),
                message: format!(
                    "turn {turn} step {step}: the result of tool call `{id}` does not record what the tool answered: {problem}"
                ),
                expected: vec![format!(
                    "tool/result answering `{id}`: content {:?}, isError {}",
                    outcome.content, outcome.is_error
                )],
                observed: vec![format!("#{i} tool/result {}", e.data)],
                origin: Origin::Oracle,
            });
        }
    }
    out
}
