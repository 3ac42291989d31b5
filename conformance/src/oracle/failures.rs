//! TURN-11 against the script: a turn that failed on a model call's `finish` records the
//! failure that `finish` delivered.

use super::expected::Expected;
use super::finding::{Finding, Origin};
use super::log_index::LogIndex;
use crate::driver::Observation;
use crate::scenario::{CallEnding, Case, ModelCall};
use crate::vocab::Profile;
use crate::vocab::chunk::FinishReason;
use crate::vocab::durable::SessionEvent;
use serde_json::Value;

/// The `message` and `code` a failing `finish` delivered, if it carried them: 2026-08 in its
/// `failure` object, 2026-07 flat on the `error` reason. An adapter throw is not here: upstream
/// records a thrown non-`LlmError` as `{message: errorChain(e), code: "UNKNOWN"}`, so the values
/// a throw leads to are the implementation's.
fn delivered(profile: Profile, reason: &FinishReason) -> Option<(&str, &str)> {
    match (profile, reason) {
        (
            Profile::V2026_08,
            FinishReason::Error {
                failure: Some(f), ..
            }
            | FinishReason::Aborted { failure: Some(f) },
        ) => Some((&f.message, &f.code)),
        (
            Profile::V2026_07,
            FinishReason::Error {
                message: Some(m),
                code: Some(c),
                ..
            },
        ) => Some((m, c)),
        _ => None,
    }
}

/// Whether a call fails on a `finish` that delivered its failure (what TURN-11 compares).
pub(super) fn fails_with_failure(profile: Profile, call: &ModelCall) -> bool {
    call.throw.is_none()
        && call.ending() == CallEnding::Failed
        && call.finish().and_then(|r| delivered(profile, r)).is_some()
}

/// 2026-07: an `error` turn end names in `step` the step whose model call failed: its place in
/// the turn, or the number that step's `step/start` gave it (a wrongly numbered step is
/// STEP-1's, whichever of the two the reason follows). A `step` that is no integer is TURN-9's.
fn check_failed_step(log: &[SessionEvent], ix: &LogIndex, turn: u64, step: u64) -> Option<Finding> {
    let i = ix.turn_end(turn)?;
    let reason = log[i]
        .data
        .get("reason")
        .filter(|r| r.get("kind").and_then(Value::as_str) == Some("error"))?;
    let got = reason.get("step")?.as_u64()?;
    let named = log[ix.step_start(turn, step)?].data.get("step")?.as_u64()?;
    let want = step;
    (got != want && got != named).then(|| Finding {
        requirement: "TURN-11",
        error: true,
        position: Some(i as u64),
        message: format!(
            "turn {turn}: the model call of step {want} failed, but its `turn/end` names step {got}: a 2026-07 `error` reason names the step that failed"
        ),
        expected: vec![format!(r#"turn/end {{reason: {{kind: "error", step: {want}, …}}}}"#)],
        observed: vec![format!("#{i} turn/end {}", log[i].data)],
        origin: Origin::Oracle,
    })
}

/// The `message` and `code` a `turn/end` reason records (TURN-9's shapes).
fn recorded(profile: Profile, reason: &Value) -> (Option<&str>, Option<&str>) {
    let failure = match profile {
        Profile::V2026_07 => Some(reason),
        Profile::V2026_08 => reason.get("error").or_else(|| reason.get("failure")),
    };
    let field = |k: &str| failure.and_then(|f| f.get(k)).and_then(Value::as_str);
    (field("message"), field("code"))
}

/// TURN-11: every delivered turn whose last model call failed on a `finish` carrying a
/// failure, and that ended `error` as TURN-7 expects with a failure in TURN-9's shape, records
/// that failure's `message` and `code` (more fields, such as upstream's `status`, are allowed).
pub(super) fn check_failures(
    case: &Case,
    expected: &Expected,
    obs: &Observation,
    ix: &LogIndex,
) -> Vec<Finding> {
    let log = &obs.log;
    let delivered_actions = obs.delivered_actions();
    let mut out = Vec::new();
    for (n, turn) in case.script.plan(case.profile).iter().enumerate() {
        if !delivered_actions.contains(&turn.action)
            || turn.reason != "error"
            || expected.turns.get(n).map(|t| t.reason) != Some("error")
        {
            continue;
        }
        let Some((_, call, step)) = case
            .script
            .calls_of(turn)
            .last()
            .filter(|(_, c, _)| c.ending() == CallEnding::Failed)
        else {
            continue;
        };
        if case.profile == Profile::V2026_07 {
            out.extend(check_failed_step(log, ix, turn.turn, step));
        }
        let Some((message, code)) = call
            .throw
            .is_none()
            .then(|| call.finish())
            .flatten()
            .and_then(|r| delivered(case.profile, r))
        else {
            continue;
        };
        let Some(i) = ix.turn_end(turn.turn) else {
            continue;
        };
        let Some(reason) = log[i]
            .data
            .get("reason")
            .filter(|r| r.get("kind").and_then(Value::as_str) == Some("error"))
        else {
            continue;
        };
        let (got_message, got_code) = recorded(case.profile, reason);
        // A failure not in the profile's shape is TURN-9's; only a well-shaped one is compared.
        let shaped = got_message.is_some()
            && match case.profile {
                Profile::V2026_07 => reason.get("code").is_none_or(Value::is_string),
                Profile::V2026_08 => got_code.is_some(),
            };
        if !shaped {
            continue;
        }
        if (got_message, got_code) != (Some(message), Some(code)) {
            out.push(Finding {
                requirement: "TURN-11",
                error: true,
                position: Some(i as u64),
                message: format!(
                    "turn {}: the model call failed with `{{message: {message:?}, code: {code:?}}}`, but its `turn/end` records `{{message: {}, code: {}}}`",
                    turn.turn,
                    got_message.map_or("<none>".to_owned(), |m| format!("{m:?}")),
                    got_code.map_or("<none>".to_owned(), |c| format!("{c:?}"))
                ),
                expected: vec![match case.profile {
                    Profile::V2026_07 => format!(
                        r#"turn/end {{reason: {{kind: "error", step, message: {message:?}, code: {code:?}}}}}"#
                    ),
                    Profile::V2026_08 => format!(
                        r#"turn/end {{reason: {{kind: "error", error: {{message: {message:?}, code: {code:?}, …}}}}}}"#
                    ),
                }],
                observed: vec![format!("#{i} turn/end {}", log[i].data)],
                origin: Origin::Oracle,
            });
        }
    }
    out
}
