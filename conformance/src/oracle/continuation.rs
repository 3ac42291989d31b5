//! TURN-8 against the transcript: a turn goes on after tool results or steering.

use super::expected::Skipped;
use super::finding::{Finding, Origin};
use super::log_index::LogIndex;
use super::steering::records_steer;
use crate::driver::Observation;
use crate::scenario::{Case, ModelCall, continues_at, pending_steers};
use std::collections::BTreeSet;

/// TURN-8 against the transcript: a prompt whose call `c` was requested and continues the
/// turn (it dispatched tool calls or was steered, and neither failed nor was cancelled), but
/// whose call `c + 1` was never requested, ended its turn too early. Returns the findings and
/// the calls skipped that way, whose chunks, steers, interrupts and reason were therefore
/// never in play. A crash that cut the turn off is the crash's, not TURN-8's; a steer-only
/// call whose steering was never recorded is STEER-2's (the loop lost the reason to go on).
pub(super) fn check_continuation(
    case: &Case,
    obs: &Observation,
    ix: &LogIndex,
) -> (Vec<Finding>, Skipped) {
    let mut requested: Skipped = BTreeSet::new();
    let mut action = None;
    for x in &obs.transcript {
        match x {
            crate::driver::Exchange::Input { action: a, .. } => action = Some(*a),
            crate::driver::Exchange::ModelRequest { call: Some(c), .. } => {
                if let Some(a) = action {
                    requested.insert((a, *c));
                }
            }
            _ => {}
        }
    }
    let mut findings = Vec::new();
    let mut skipped = BTreeSet::new();
    for turn in case.script.plan(case.profile) {
        let calls: Vec<(usize, &ModelCall, u64)> = case.script.calls_of(&turn).collect();
        let Some(next) =
            (1..calls.len()).find(|k| !requested.contains(&(turn.action, calls[*k].0)))
        else {
            continue;
        };
        let (last_index, call, step) = calls[next - 1];
        let prompt_calls = case.script.prompt_calls(turn.action);
        if !requested.contains(&(turn.action, last_index))
            || !continues_at(prompt_calls, last_index)
        {
            continue;
        }
        // The steering pending at the step's end: sent during this call or during a failed
        // attempt it retried.
        let steers = pending_steers(prompt_calls, last_index);
        let ended = ix.turn_end(turn.turn);
        if ended.is_none() && obs.crash.is_some() {
            continue;
        }
        skipped.extend(calls[next..].iter().map(|(c, _, _)| (turn.action, *c)));
        // A step whose tool calls never ran (none of them) is TOOL-4's: as far as the loop
        // knew, it had nothing to go on with.
        let tools = call.dispatched_tool_calls().iter().any(|(id, _, _)| {
            obs.log.iter().any(|e| {
                e.kind == "tool/call"
                    && e.data.get("callId").and_then(serde_json::Value::as_str) == Some(id.as_str())
            })
        });
        // A loop that lost the steering had, as far as it knew, nothing to go on with: that
        // is STEER-2's finding, not TURN-8's (the calls it never requested stay skipped).
        if !tools && steers.is_empty() {
            continue;
        }
        if !tools
            && !steers
                .iter()
                .all(|s| obs.log.iter().any(|e| records_steer(e, &s.text)))
        {
            continue;
        }
        let because = match (tools, steers.is_empty()) {
            (true, false) => {
                format!("step {step} dispatched tool calls and the user steered during it")
            }
            (true, true) => format!("step {step} dispatched tool calls"),
            _ => format!("the user steered during step {step}"),
        };
        let position = ended.unwrap_or(obs.log.len());
        findings.push(Finding {
            requirement: "TURN-8",
            error: true,
            position: Some(position as u64),
            message: format!(
                "turn {} {} after step {step} although {because}: the model was never asked for step {}",
                turn.turn,
                if ended.is_some() { "ended" } else { "stopped" },
                step + 1
            ),
            expected: vec![format!(
                "step/start {{turn: {}, step: {}}} and a model request for it",
                turn.turn,
                step + 1
            )],
            observed: vec![match ended {
                Some(i) => format!("#{i} turn/end {}", obs.log[i].data),
                None => "(no further model request; the turn never ended)".to_owned(),
            }],
            origin: Origin::Oracle,
        });
    }
    (findings, skipped)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::{AgentLoop, Driver, Exchange, InProcess};
    use crate::oracle::{exercised, oracle_findings};
    use crate::reference::ReferenceLoop;
    use serde_json::json;

    /// One prompt: a call that dispatches a tool call (and so continues the turn), then a
    /// call that answers.
    fn tool_then_answer() -> Case {
        serde_json::from_value(json!({"profile":"2026-08","script":{"actions":[{"action":"prompt","text":"prompt 1","calls":[
            {"chunks":[
                {"type":"block-start","index":0,"blockType":"tool-call"},
                {"type":"block-end","index":0,"block":{"type":"tool-call","id":"call-1-1-0","name":"read","arguments":""}},
                {"type":"finish","reason":{"kind":"tool-calls"}}],
             "tools":[{"callId":"call-1-1-0","isError":false,"content":"result of call-1-1-0"}]},
            {"chunks":[
                {"type":"block-start","index":0,"blockType":"text"},
                {"type":"text-delta","index":0,"text":"done"},
                {"type":"block-end","index":0,"block":{"type":"text","text":"done"}},
                {"type":"finish","reason":{"kind":"stop"}}]}]}]}}))
        .expect("a valid case")
    }

    fn reference_run(case: &Case) -> Observation {
        let mut driver = InProcess::new("reference", |p| {
            Box::new(ReferenceLoop::new(p)) as Box<dyn AgentLoop>
        });
        driver.run_case(case).expect("the reference runs")
    }

    /// The reference run cut right after step 1, as a loop that never asks for step 2 leaves it.
    fn stopped_after_step_1(obs: &Observation) -> Observation {
        let mut cut = obs.clone();
        let second = cut
            .transcript
            .iter()
            .position(|x| matches!(x, Exchange::ModelRequest { call: Some(1), .. }))
            .expect("the reference asks for call 2");
        cut.transcript.truncate(second);
        let step_end = cut
            .log
            .iter()
            .position(|e| e.kind == "step/end")
            .expect("step 1 ends");
        cut.log.truncate(step_end + 1);
        cut.live.clear();
        cut
    }

    #[test]
    fn a_turn_ended_after_tool_results_is_turn_8_and_nothing_else() {
        let case = tool_then_answer();
        let obs = reference_run(&case);
        assert!(oracle_findings(&case, &obs).is_empty());
        let mut stopped = stopped_after_step_1(&obs);
        let turn_end = obs
            .log
            .iter()
            .find(|e| e.kind == "turn/end")
            .cloned()
            .expect("the turn ends");
        stopped.log.push(turn_end);
        let findings = oracle_findings(&case, &stopped);
        let ids: Vec<&str> = findings.iter().map(|f| f.requirement).collect();
        assert_eq!(ids, ["TURN-8"], "{findings:#?}");
        assert_eq!(findings[0].position, Some(stopped.log.len() as u64 - 1));
        assert!(
            findings[0]
                .message
                .contains("ended after step 1 although step 1 dispatched tool calls"),
            "{}",
            findings[0].message
        );
    }

    #[test]
    fn a_crash_after_tool_results_is_not_turn_8() {
        let case = tool_then_answer();
        let mut crashed = stopped_after_step_1(&reference_run(&case));
        crashed.crash = Some("the implementation panicked".to_owned());
        let findings = oracle_findings(&case, &crashed);
        assert!(
            findings.iter().all(|f| f.requirement != "TURN-8"),
            "{findings:#?}"
        );
        // The call it never reached is still expected, as before TURN-8.
        assert!(
            findings.iter().any(|f| f.requirement == "CHUNK-1"),
            "{findings:#?}"
        );
    }

    #[test]
    fn every_call_that_continues_exercises_turn_8() {
        assert!(exercised(&tool_then_answer()).contains("TURN-8"));
    }
}
