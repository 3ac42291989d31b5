//! CHUNK-6 for what precedes a 2026-08 retry: the retried call re-sends the step's request,
//! so nothing that request is built from is recorded between the failed attempt and it.

use super::finding::{Finding, Origin};
use super::steering::texts_of;
use crate::driver::{Exchange, Observation};
use crate::scenario::{Action, CallEnding, Case};
use crate::vocab::Profile;
use crate::vocab::durable::SessionEvent;

/// The records a model request is built from: a `user/message` (the prompt or a steer), a
/// tool call or its result. Between a failed attempt and its retry upstream records none
/// (`fixtures/check/2026-08/upstream/retry-after-*`): the retry is the same request again.
const REQUEST_INPUTS: &[&str] = &["user/message", "tool/call", "tool/result"];

/// CHUNK-6: for every retried call the harness served (2026-08, the script's `retry: true`),
/// the log between the failed attempt's request and the retry's holds no [`REQUEST_INPUTS`]
/// event after the failed attempt's last chunk. One finding per retried call, at the first such
/// event: each retry is judged on its own, whatever an earlier one did.
pub(super) fn check_retries(case: &Case, obs: &Observation) -> Vec<Finding> {
    if case.profile != Profile::V2026_08 {
        return Vec::new();
    }
    let mut action = None;
    // The previous request of the action: its call index and the log length then.
    let mut previous: Option<(usize, usize)> = None;
    let mut out = Vec::new();
    for x in &obs.transcript {
        match x {
            Exchange::Input { action: a, .. } => {
                action = Some(*a);
                previous = None;
            }
            Exchange::ModelRequest {
                call: Some(c),
                at,
                turn,
                step,
            } => {
                let at = usize::try_from(*at)
                    .unwrap_or(usize::MAX)
                    .min(obs.log.len());
                let (calls, prompt) = match action.and_then(|a| case.script.actions.get(a)) {
                    Some(Action::Prompt { calls, text }) => (calls.as_slice(), Some(text.as_str())),
                    _ => (&[][..], None),
                };
                if let Some((p, from)) = previous
                    && p + 1 == *c
                    && calls
                        .get(p)
                        .is_some_and(|f| f.retry && f.ending() == CallEnding::Failed)
                    && let Some(finding) = between(obs, from, at, *turn, *step, prompt)
                {
                    out.push(finding);
                }
                previous = Some((*c, at));
            }
            _ => {}
        }
    }
    out
}

/// The first request input recorded in `from..to` after the last chunk there. The prompt's
/// first record is not one: a prompt recorded only after its step's first request was never
/// in that request, which is MSG-7's finding (the prompt's place), not a re-sent request's.
fn between(
    obs: &Observation,
    from: usize,
    to: usize,
    turn: u64,
    step: u64,
    prompt: Option<&str>,
) -> Option<Finding> {
    let is_prompt =
        |e: &SessionEvent| prompt.is_some_and(|p| e.kind == "user/message" && texts_of(e) == [p]);
    let late_prompt = |i: usize| is_prompt(&obs.log[i]) && !obs.log[..i].iter().any(is_prompt);
    let window = obs.log.get(from..to)?;
    let after_chunks = window
        .iter()
        .rposition(|e| e.kind == "assistant/chunk")
        .map_or(0, |i| i + 1);
    let (i, e) = window
        .iter()
        .enumerate()
        .skip(after_chunks)
        .find(|(i, e)| REQUEST_INPUTS.contains(&e.kind.as_str()) && !late_prompt(from + i))?;
    let position = from + i;
    Some(Finding {
        requirement: "CHUNK-6",
        error: true,
        position: Some(position as u64),
        message: format!(
            "a `{}` is recorded between a failed model call and its retry (turn {turn} step {step}): a retry sends the same request again and records nothing it is built from",
            e.kind
        ),
        expected: vec!["the retried call's chunks right after the failed call's".to_owned()],
        observed: vec![format!("#{position} {} {}", e.kind, e.data)],
        origin: Origin::Oracle,
    })
}
