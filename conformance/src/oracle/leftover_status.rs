//! LIVE-6 against the plan: a failed 2026-07 turn and the turn its leftover steering starts
//! follow each other without the agent going idle.
//!
//! Upstream's era-M `runLoop` re-enqueues the steering still queued when a turn ends and sets
//! `idle` only `if (!agent.inbox.hasQueued)` (`packages/core/agent-loop/src/loop.ts` at
//! `c6d2eeea6b`, the end of the loop body): something is queued, so the next turn starts while
//! the agent is still `running`. A host that ends its run on `idle` would stop before that turn.
//! The log alone cannot tell a leftover turn from the next prompt's; the plan can.

use super::finding::{Finding, Origin};
use super::log_index::LogIndex;
use crate::driver::Observation;
use crate::scenario::Case;
use crate::vocab::Profile;

/// LIVE-6: an `agent/status idle` emitted between a failed 2026-07 turn's `turn/end` and the
/// `turn/start` of the leftover turn it starts.
pub(super) fn check_leftover_status(
    case: &Case,
    obs: &Observation,
    ix: &LogIndex,
) -> Option<Finding> {
    if case.profile != Profile::V2026_07 {
        return None;
    }
    for turn in case.script.plan(case.profile).iter().filter(|t| t.leftover) {
        let (Some(end), Some(start)) = (ix.turn_end(turn.turn - 1), ix.turn_start(turn.turn))
        else {
            continue;
        };
        let idle = obs.live.iter().find(|e| {
            e.event == "agent/status"
                && e.data.get("status").and_then(serde_json::Value::as_str) == Some("idle")
                && e.at.is_some_and(|at| at > end as u64 && at <= start as u64)
        });
        if let Some(emit) = idle {
            return Some(Finding {
                requirement: "LIVE-6",
                error: true,
                position: emit.at,
                message: format!(
                    "the agent went `idle` between turn {} (failed, with steering still queued) and turn {}, which that steering starts: under 2026-07 the leftover turn runs at once, the agent still `running`",
                    turn.turn - 1,
                    turn.turn
                ),
                expected: vec![format!(
                    "no agent/status between #{end} turn/end and #{start} turn/start"
                )],
                observed: vec![format!("live agent/status {}", emit.data)],
                origin: Origin::Oracle,
            });
        }
    }
    None
}
