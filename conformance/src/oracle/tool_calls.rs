//! TOOL-4 against the script: every tool call the model streamed in a successful call is run
//! once, in the model's order, and each dispatched call carries the name and arguments the
//! model streamed, not only those of the recorded message.

use super::finding::{Finding, Origin};
use super::log_index::LogIndex;
use crate::check::arguments_equal;
use crate::driver::{Exchange, Observation};
use crate::scenario::{Action, Case};
use serde_json::Value;

/// TOOL-4: every `tool/call` answering a tool call of a successful scripted model call names
/// the tool and carries the arguments the model streamed (its `block-end`, or else its
/// deltas, the name from whichever delta carried it). The checker compares the call with the
/// recorded message; a loop that lost the name while assembling records both wrong alike,
/// which only the script shows. One finding per such call, each judged on its own; a call
/// not run, or run out of the model's order, is reported alone (every TOOL-4).
pub(super) fn check_tool_calls(case: &Case, obs: &Observation, ix: &LogIndex) -> Vec<Finding> {
    if let Some(f) = check_dispatch(case, obs, ix) {
        return vec![f];
    }
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
    // Compared by JSON meaning: an implementation may record the arguments parsed.
    let wrong_arguments = !e
        .data
        .get("arguments")
        .is_some_and(|a| arguments_equal(&Value::String(arguments.to_owned()), a));
    let wrong_name = recorded_name != Some(name);
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

/// TOOL-4: in every requested step whose scripted call succeeded, the `tool/call`s recorded in
/// the step are the model's tool calls, each once, in the order of the message's blocks (a
/// block is placed where its `block-start` came, not where it ended), including a call named
/// by its deltas alone (no `block-end`). Reported at the first call out of place, or where the
/// step ends when a call never ran. Steps whose turn was cut short before them are TURN-8's.
fn check_dispatch(case: &Case, obs: &Observation, ix: &LogIndex) -> Option<Finding> {
    let mut requested = std::collections::BTreeSet::new();
    let mut action = None;
    for x in &obs.transcript {
        match x {
            Exchange::Input { action: a, .. } => action = Some(*a),
            Exchange::ModelRequest { call: Some(c), .. } => {
                requested.extend(action.map(|a| (a, *c)));
            }
            _ => {}
        }
    }
    for turn in case.script.plan(case.profile) {
        for (c, call, step) in case.script.calls_of(&turn) {
            if !requested.contains(&(turn.action, c)) {
                continue;
            }
            let want: Vec<String> = call
                .dispatched_tool_calls()
                .into_iter()
                .map(|(id, _, _)| id)
                .collect();
            if want.is_empty() {
                continue;
            }
            let recorded: Vec<(usize, &str)> = (0..obs.log.len())
                .filter(|i| ix.ords[*i] == (turn.turn, step) && obs.log[*i].kind == "tool/call")
                .filter_map(|i| Some((i, obs.log[i].data.get("callId")?.as_str()?)))
                .collect();
            let Some(k) =
                (0..want.len()).find(|k| recorded.get(*k).is_none_or(|r| r.1 != want[*k]))
            else {
                continue;
            };
            let (position, message) = match recorded.get(k) {
                Some((i, id)) => (
                    *i,
                    format!(
                        "turn {} step {step}: the implementation ran `{id}` where the model's next tool call is `{}`: every tool-call block runs once, in the order of the message's blocks",
                        turn.turn, want[k]
                    ),
                ),
                None => (
                    ix.step_end(turn.turn, step).unwrap_or(obs.log.len()),
                    format!(
                        "turn {} step {step}: the model's tool call `{}` never ran: every tool-call block of a successful call runs once (one without a `block-end` too, named by its deltas)",
                        turn.turn, want[k]
                    ),
                ),
            };
            return Some(Finding {
                requirement: "TOOL-4",
                error: true,
                position: Some(position as u64),
                message,
                expected: vec![format!("tool/call {} in this order", want.join(", "))],
                observed: recorded
                    .iter()
                    .map(|(i, id)| format!("#{i} tool/call {id}"))
                    .collect(),
                origin: Origin::Oracle,
            });
        }
    }
    None
}
