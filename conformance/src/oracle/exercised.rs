//! Which requirements a case exercises, and which ones a driver run must exercise.

use crate::registry::{Enforcement, REQUIREMENTS, Tier};
use crate::scenario::{Action, CallEnding, Case, InterruptKind, continues_at, tool_calls_of};
use crate::vocab::Profile;
use std::collections::BTreeSet;

/// The requirements a case exercises: the behaviour each one constrains occurs in it. A MUST
/// requirement that no case of a run exercised fails the run (nothing passes vacuously).
/// Requirements checked on a log only (TURN-5, MSG-2, …) are never exercised by a run.
pub fn exercised(case: &Case) -> BTreeSet<&'static str> {
    let mut on: BTreeSet<&'static str> = BTreeSet::new();
    let mut add = |ids: &[&'static str]| on.extend(ids.iter().copied());
    let plan = case.script.plan(case.profile);
    add(&["LIVE-1", "LIVE-2", "LIVE-4", "LIVE-5"]);
    if case
        .script
        .actions
        .iter()
        .any(|a| matches!(a, Action::Dispose))
        || case.script.calls().any(|(_, c)| {
            c.interrupt
                .is_some_and(|i| i.kind == InterruptKind::Dispose)
        })
    {
        add(&["LIVE-7"]);
    }
    if plan.is_empty() {
        return on;
    }
    add(&["LIVE-6"]);
    add(&[
        "SEQ-1", "SURF-1", "SURF-2", "SURF-3", "TURN-1", "TURN-2", "TURN-3", "TURN-4", "TURN-6",
        "TURN-7", "MIRROR-3", "MIRROR-4", "MSG-7", "MSG-8",
        // A durable event is appended, which a live event could repeat.
        "LIVE-9",
    ]);
    if case.profile == Profile::V2026_07 {
        // Every 2026-07 turn/start carries its trigger.
        add(&["TURN-10"]);
    }
    let calls = (0..case.script.actions.len()).flat_map(|a| {
        let calls = case.script.prompt_calls(a);
        (0..calls.len()).map(move |c| (calls, c))
    });
    for (calls, c) in calls {
        let call = &calls[c];
        add(&[
            "STEP-1", "STEP-2", "STEP-3", "MIRROR-5", "MIRROR-6", "CHUNK-3", "MSG-5",
        ]);
        let delivered = call.delivered_len();
        if delivered > 0 {
            add(&["CHUNK-1", "CHUNK-2", "MIRROR-1"]);
        }
        if continues_at(calls, c) {
            add(&["TURN-8"]);
        }
        match call.ending() {
            CallEnding::Success | CallEnding::MaxTokens => {
                add(&["MSG-1", "MSG-3", "MSG-4", "MSG-6"]);
                if case.profile == Profile::V2026_07 {
                    add(&["MSG-9"]);
                }
                if !tool_calls_of(&call.chunks).is_empty() {
                    add(&["TOOL-4"]);
                }
                if !call.dispatched_tool_calls().is_empty() {
                    add(&["TOOL-1", "TOOL-2", "TOOL-3", "TOOL-5"]);
                }
            }
            CallEnding::Failed => {
                add(&["CHUNK-6"]);
                if !call.retry {
                    // The turn fails with this call's failure.
                    add(&["TURN-9", "LIVE-3", "LIVE-8"]);
                    if super::failures::fails_with_failure(case.profile, call) {
                        add(&["TURN-11"]);
                    }
                }
                if call.chunks.len() > usize::from(call.throw.is_none()) {
                    add(&["CHUNK-4"]);
                }
            }
            CallEnding::Interrupted(i) => {
                add(&["CHUNK-4", "CHUNK-5", "TURN-10"]);
                if i.kind == InterruptKind::Cancel || case.profile == Profile::V2026_08 {
                    add(&["MSG-1", "MSG-3"]);
                }
            }
        }
        if !call.steer.is_empty() {
            add(&["STEER-1", "STEER-2", "MIRROR-2"]);
        }
    }
    on
}

/// The requirements a driver run must exercise under `profile`: every MUST requirement that
/// applies there and is enforced by the driver.
pub fn required(profile: Profile) -> impl Iterator<Item = &'static str> {
    REQUIREMENTS
        .iter()
        .filter(move |r| r.tier(profile) == Some(Tier::Must) && r.enforced_by(Enforcement::Driver))
        .map(|r| r.id)
}
