//! TOOL-4 against the script: a dispatched tool call carries the name and arguments the model
//! streamed, not only those of the recorded message.

use super::finding::{Finding, Origin};
use crate::driver::{Exchange, Observation};
use crate::scenario::{Action, Case};
use serde_json::Value;

/// TOOL-4: every `tool/call` answering a tool call of a successful scripted model call names
/// the tool and carries the arguments the model streamed (its `block-end`, or else its
/// deltas, the name from whichever delta carried it). The checker compares the call with the
/// recorded message; a loop that lost the name while assembling records both wrong alike,
/// which only the script shows. One finding per such call: each is judged on its own.
pub(super) fn check_tool_calls(case: &Case, obs: &Observation) -> Vec<Finding> {
    let mut action = None;
    let mut out = Vec::new();
    for x in &obs.transcript {
        match x {
            Exchange::Input { action: a, .. } => action = Some(*a),
            Exchange::ModelRequest { call: Some(c), .. } => {
                let Some(Action::Prompt { calls, .. }) =
                    action.and_then(|a| case.script.actions.get(a))
                else {
                    continue;
                };
                let Some(call) = calls.get(*c) else { continue };
                for (id, name, arguments) in call.dispatched_tool_calls() {
                    out.extend(compare(obs, &id, &name, &arguments));
                }
            }
            _ => {}
        }
    }
    out
}

/// The recorded `tool/call` for `id`, if it names another tool or carries other arguments.
fn compare(obs: &Observation, id: &str, name: &str, arguments: &str) -> Option<Finding> {
    let (position, e) = obs.log.iter().enumerate().find(|(_, e)| {
        e.kind == "tool/call" && e.data.get("callId").and_then(Value::as_str) == Some(id)
    })?;
    let recorded_name = e.data.get("name").and_then(Value::as_str);
    // Arguments recorded as a string are compared; an implementation may record them parsed.
    let recorded_arguments = e.data.get("arguments").and_then(Value::as_str);
    let wrong_name = recorded_name != Some(name);
    let wrong_arguments = recorded_arguments.is_some_and(|a| a != arguments);
    if !wrong_name && !wrong_arguments {
        return None;
    }
    let what = if wrong_name {
        format!(
            "names the tool {}, but the model streamed `{name}`",
            recorded_name.map_or("(none)".to_owned(), |n| format!("`{n}`"))
        )
    } else {
        "carries other arguments than the model streamed".to_owned()
    };
    Some(Finding {
        requirement: "TOOL-4",
        error: true,
        position: Some(position as u64),
        message: format!("the `tool/call` of `{id}` {what}"),
        expected: vec![format!(
            "tool/call {{callId: {id:?}, name: {name:?}, arguments: {arguments:?}}}"
        )],
        observed: vec![format!("#{position} tool/call {}", e.data)],
        origin: Origin::Oracle,
    })
}
