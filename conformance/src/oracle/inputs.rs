//! MSG-7 against the transcript: every user input the harness delivered is recorded once, as
//! its durable message, with the content sent.

use super::finding::{Finding, Origin};
use super::log_index::LogIndex;
use crate::driver::{Exchange, Observation};
use crate::scenario::{Action, Case};
use crate::vocab::Profile;
use crate::vocab::chunk::ContentBlock;
use serde_json::Value;

/// The `source.kind` of a prompt's `user/message`: the harness plays the user.
const USER: &str = "user";

/// 2026-08: whether the prompt of action `a`, recorded at `at`, precedes the first model
/// request after its delivery (step 1 claims the prompt before building its request; a later
/// record is one the request never carried). Under 2026-07 its place is TURN-3's.
fn before_first_request(obs: &Observation, a: usize, at: usize) -> bool {
    let mut delivered = false;
    for x in &obs.transcript {
        match x {
            Exchange::Input { action, .. } => delivered = *action == a,
            Exchange::ModelRequest { at: request, .. } if delivered => {
                return (at as u64) < *request;
            }
            _ => {}
        }
    }
    true
}

/// How many durable events had been recorded when action `a` was delivered.
fn delivered_at(obs: &Observation, a: usize) -> Option<usize> {
    obs.transcript.iter().find_map(|x| match x {
        Exchange::Input { action, at } if *action == a => usize::try_from(*at).ok(),
        _ => None,
    })
}

/// MSG-7: each delivered prompt is one `user/message` whose `content` is the prompt sent and
/// whose `source.kind` is `"user"`; each delivered 2026-07 injection is one `context/message`
/// with the content injected. Where the message sits is TURN-3's; the script's texts are unique
/// within a case, so a message is found by its content wherever it was put.
pub(super) fn check_inputs(case: &Case, obs: &Observation, ix: &LogIndex) -> Vec<Finding> {
    let log = &obs.log;
    let delivered = obs.delivered_actions();
    let plan = case.script.plan(case.profile);
    // How many inputs of the script carry `text`: generated texts are unique, but a hand-written
    // case may repeat one (or steer with a prompt's words), which is then recorded that often.
    let sent = |text: &str| {
        let inputs = case
            .script
            .actions
            .iter()
            .filter(|a| matches!(a, Action::Prompt { text: t, .. } | Action::Inject { text: t } if t == text))
            .count();
        let steers: usize = case
            .script
            .calls()
            .map(|(_, c)| c.steer.iter().filter(|s| s.text == text).count())
            .sum();
        inputs + steers
    };
    let mut out = Vec::new();
    for (a, action) in case.script.actions.iter().enumerate() {
        let (kind, text, what) = match action {
            Action::Prompt { text, .. } => ("user/message", text, "prompt"),
            Action::Inject { text } => ("context/message", text, "injected context"),
            Action::Dispose => continue,
        };
        if !delivered.contains(&a) {
            continue;
        }
        let Ok(content) = serde_json::to_value([ContentBlock::text(text.as_str())]) else {
            continue;
        };
        let turn = plan.iter().find(|t| t.action == a).map_or(0, |t| t.turn);
        let recorded: Vec<usize> = log
            .iter()
            .enumerate()
            .filter(|(_, e)| e.kind == kind && e.data.get("content") == Some(&content))
            .map(|(i, _)| i)
            .collect();
        let finding = |position: usize, message: String| Finding {
            requirement: "MSG-7",
            error: true,
            position: Some(position as u64),
            message,
            expected: vec![format!(
                "one {kind} {{content: {content}{}}}",
                if kind == "user/message" {
                    ", source: {kind: \"user\"}"
                } else {
                    ", source"
                }
            )],
            observed: recorded
                .iter()
                .map(|i| format!("#{i} {kind} {}", log[*i].data))
                .collect(),
            origin: Origin::Oracle,
        };
        match recorded.as_slice() {
            [] => out.push(finding(
                // Where its turn ended, or, when it opened no turn, where it was delivered.
                ix.turn_end(turn)
                    .or_else(|| delivered_at(obs, a))
                    .unwrap_or(log.len()),
                format!(
                    "turn {turn}: the {what} the harness delivered is recorded by no `{kind}` with its content {content}"
                ),
            )),
            many if many.len() > sent(text) => out.push(finding(
                many[sent(text)],
                format!(
                    "turn {turn}: the {what} the harness delivered is recorded {} times",
                    many.len()
                ),
            )),
            [one, ..]
                if kind == "user/message"
                    && case.profile == Profile::V2026_08
                    && !before_first_request(obs, a, *one) =>
            {
                out.push(finding(
                    *one,
                    format!(
                        "turn {turn}: the prompt is recorded at #{one}, after its step's model request: under 2026-08 step 1 records the prompt before the model is asked, so the request carries it"
                    ),
                ));
            }
            [one, ..] if kind == "user/message" => {
                let source = log[*one].data.get("source");
                let source_kind = source.and_then(|s| s.get("kind")).and_then(Value::as_str);
                if source_kind != Some(USER) {
                    out.push(finding(
                        *one,
                        format!(
                            "turn {turn}: the prompt's `user/message` names {} as its source: the harness delivered it as the user's (`source: {{kind: \"user\"}}`)",
                            source.map_or("nothing".to_owned(), |s| format!("`{s}`"))
                        ),
                    ));
                }
            }
            _ => {}
        }
    }
    out
}
