//! A model call the script does not have (CHUNK-6 after a failed call in its turn, TURN-7
//! otherwise).

use super::finding::{Finding, Origin};
use super::log_index::{LogIndex, UNPLANNED};
use crate::driver::Observation;
use crate::scenario::{Action, CallEnding, Case};
use crate::vocab::Profile;

/// A model call the script does not have: the implementation went on where the protocol
/// says the step or the turn ends. After a failed call that is CHUNK-6 (2026-07 has no in-step
/// retries; 2026-08 retries only when `agent/request-error` says so), but only inside the failed
/// call's turn: a request in a turn started after it is never an in-step retry. Otherwise the
/// turn should have ended (no tool call, no steering), or the turn is one the script never
/// started, which is TURN-7's.
///
/// A request in a turn the plan does not have ([`LogIndex::aligned`]) is not reported here:
/// that turn is judged on its own (TURN-10 when nothing started it, STEER-2 when steering that
/// was dropped, left over for the next prompt or already recorded started it), and its model
/// call is its consequence.
pub(super) fn check_unscripted_calls(
    case: &Case,
    obs: &Observation,
    ix: &LogIndex,
) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut action = None;
    let mut last_call: Option<(usize, u64)> = None;
    for x in &obs.transcript {
        match x {
            crate::driver::Exchange::Input { action: a, .. } => {
                action = Some(*a);
                last_call = None;
            }
            crate::driver::Exchange::ModelRequest {
                call: Some(c), at, ..
            } => last_call = Some((*c, *at)),
            crate::driver::Exchange::ModelRequest {
                call: None,
                at,
                turn,
                step,
            } => {
                let previous = match (action.and_then(|a| case.script.actions.get(a)), last_call) {
                    (Some(Action::Prompt { calls, .. }), Some((c, since))) => {
                        calls.get(c).map(|call| (call, since))
                    }
                    _ => None,
                };
                // A `turn/start` recorded since the previous request: this one is in a new turn.
                let new_turn = previous.is_some_and(|(_, since)| {
                    let range = usize::try_from(since).unwrap_or(usize::MAX)
                        ..usize::try_from(*at).unwrap_or(usize::MAX);
                    obs.log
                        .get(range)
                        .is_some_and(|events| events.iter().any(|e| e.kind == "turn/start"))
                });
                let failed =
                    previous.is_some_and(|(c, _)| c.ending() == CallEnding::Failed) && !new_turn;
                let in_unplanned_turn = usize::try_from(*at)
                    .ok()
                    .and_then(|at| at.checked_sub(1))
                    .and_then(|i| ix.ords.get(i))
                    .is_some_and(|(t, _)| *t == UNPLANNED);
                if in_unplanned_turn && !failed {
                    continue;
                }
                let (requirement, message) = if failed {
                    (
                        "CHUNK-6",
                        format!(
                            "after a failed model call the implementation requested another one (turn {turn} step {step}); {}",
                            match case.profile {
                                Profile::V2026_07 =>
                                    "2026-07 has no in-step retries: a failed call ends the step and the turn",
                                Profile::V2026_08 =>
                                    "2026-08 retries only when `agent/request-error` says so, and it did not",
                            }
                        ),
                    )
                } else if new_turn {
                    (
                        "TURN-7",
                        format!(
                            "the implementation started a turn the script has no model call for and requested one (turn {turn} step {step}): no input and no leftover steering starts a turn here"
                        ),
                    )
                } else {
                    (
                        "TURN-7",
                        format!(
                            "the implementation requested another model call (turn {turn} step {step}) after the turn had ended: the last call succeeded with no tool call to run and no steering"
                        ),
                    )
                };
                // The first of each requirement: the requests after it continue what it
                // started, but a retry and a turn that goes on are two faults.
                if out.iter().any(|f: &Finding| f.requirement == requirement) {
                    continue;
                }
                out.push(Finding {
                    requirement,
                    error: true,
                    position: Some(at.saturating_sub(1)),
                    message,
                    expected: vec!["the turn ends (step/end, turn/end)".to_owned()],
                    observed: vec![format!("a model request for turn {turn} step {step}")],
                    origin: Origin::Oracle,
                });
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::{AgentLoop, Driver, Exchange, InProcess};
    use crate::reference::ReferenceLoop;
    use serde_json::json;

    /// A 2026-07 prompt whose only call fails, run by the reference.
    fn failed_turn() -> (Case, Observation) {
        let case: Case = serde_json::from_value(json!({"profile":"2026-07","script":{"actions":[
            {"action":"prompt","text":"prompt 1","calls":[
                {"chunks":[{"type":"finish","reason":{"kind":"error","message":"m","code":"E"}}]}]}]}}))
        .expect("a valid case");
        let mut driver = InProcess::new("reference", |p| {
            Box::new(ReferenceLoop::new(p)) as Box<dyn AgentLoop>
        });
        let obs = driver.run_case(&case).expect("the reference runs");
        (case, obs)
    }

    fn unscripted_request(obs: &mut Observation, turn: u64) {
        obs.transcript.push(Exchange::ModelRequest {
            turn,
            step: 1,
            call: None,
            at: obs.log.len() as u64,
        });
    }

    #[test]
    fn a_request_in_the_failed_calls_turn_is_chunk_6() {
        let (case, mut obs) = failed_turn();
        let end = obs
            .log
            .iter()
            .position(|e| e.kind == "turn/end")
            .expect("the turn ends");
        obs.log.truncate(end);
        unscripted_request(&mut obs, 1);
        let ix = LogIndex::aligned(&case, &obs);
        let ids: Vec<&str> = check_unscripted_calls(&case, &obs, &ix)
            .iter()
            .map(|f| f.requirement)
            .collect();
        assert_eq!(ids, ["CHUNK-6"]);
    }

    #[test]
    fn a_request_in_a_later_turn_is_never_an_in_step_retry() {
        let (case, mut obs) = failed_turn();
        let mut start = obs
            .log
            .iter()
            .find(|e| e.kind == "turn/start")
            .cloned()
            .expect("the turn starts");
        start.data = json!({"turn": 2, "trigger": {"kind": "message", "source": {"kind": "user"}}});
        obs.log.push(start);
        unscripted_request(&mut obs, 2);
        let ix = LogIndex::aligned(&case, &obs);
        let findings = check_unscripted_calls(&case, &obs, &ix);
        assert!(findings.is_empty(), "{findings:#?}");
        // The turn the plan lacks is judged on its own: nothing started it (TURN-10).
        let all = crate::oracle::oracle_findings(&case, &obs);
        let ids: Vec<&str> = all.iter().map(|f| f.requirement).collect();
        assert_eq!(ids, ["TURN-10"], "{all:#?}");
    }
}
