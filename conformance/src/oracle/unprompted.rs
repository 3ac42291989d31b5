//! A turn nothing started (TURN-10): the implementation opened a turn by itself, with no input
//! delivered since the previous turn and no user message in it.
//!
//! A turn starts for a prompt or (2026-07) an idle injection the harness delivered; upstream
//! also runs steering left over by a failed call as a turn of its own, with that steering's
//! `user/message` as its prompt. A turn with neither — say, one opened for leftover steering
//! that it then never records — is named first, at its `turn/start`: the chunk and call
//! divergences that follow (its model call is one the script does not have) are its
//! consequences.

use super::finding::{Finding, Origin};
use crate::driver::{Exchange, Observation};
use crate::scenario::{Action, Case};

/// The log positions of the `turn/start`s that no delivered input started and whose turn
/// records no `user/message` (in it, or between the previous turn's end and its start).
pub(super) fn unprompted_turns(case: &Case, obs: &Observation) -> Vec<usize> {
    let log = &obs.log;
    // Where each delivered prompt or injection was delivered (the log's length then).
    let mut inputs = obs.transcript.iter().filter_map(|x| match x {
        Exchange::Input { action, at } => matches!(
            case.script.actions.get(*action),
            Some(Action::Prompt { .. } | Action::Inject { .. })
        )
        .then_some(*at),
        _ => None,
    });
    let mut next_input = inputs.next();
    let mut out = Vec::new();
    for (i, e) in log.iter().enumerate() {
        if e.kind != "turn/start" {
            continue;
        }
        if next_input.is_some_and(|at| at <= i as u64) {
            next_input = inputs.next();
            continue;
        }
        // A prompt recorded before its `turn/start` (after the previous turn's end) still
        // started this turn: its place is TURN-3's to judge.
        let before = log[..i]
            .iter()
            .rev()
            .take_while(|e| e.kind != "turn/end" && e.kind != "turn/start");
        let prompted = log[i + 1..]
            .iter()
            .take_while(|e| e.kind != "turn/start")
            .chain(before)
            .any(|e| e.kind == "user/message");
        if !prompted {
            out.push(i);
        }
    }
    out
}

/// TURN-10 for every turn nothing started.
pub(super) fn check_unprompted(case: &Case, obs: &Observation) -> Vec<Finding> {
    let turns = unprompted_turns(case, obs);
    let ordinal = |i: usize| {
        obs.log[..=i]
            .iter()
            .filter(|e| e.kind == "turn/start")
            .count()
    };
    turns
        .into_iter()
        .map(|i| Finding {
            requirement: "TURN-10",
            error: true,
            position: Some(i as u64),
            message: format!(
                "turn {} was started by nothing: no prompt or injection was delivered since the previous turn, and the turn records no user message (no prompt, no trigger); a turn starts for the user's input (or runs leftover steering as its prompt), never on its own",
                ordinal(i)
            ),
            expected: vec!["no turn until the next input".to_owned()],
            observed: vec![format!("#{i} turn/start {}", obs.log[i].data)],
            origin: Origin::Oracle,
        })
        .collect()
}
