//! LIVE-4 against the harness: the live events of a case are about the agent the case created.
//!
//! The harness creates one agent per case and names it (the stdio `case` message's `agent`);
//! hosts route every live event by its agent id. A loop that attributes its events to another
//! id (a constant, its own counter) announces and runs an agent nobody created, while the
//! agent the host created is never announced. The log checker keeps state per agent and cannot
//! tell which agent is the case's; `mirrorless run` knows.

use super::finding::{Finding, Origin};
use crate::driver::{CASE_AGENT, Observation};

/// LIVE-4: the first live event attributed to an agent other than the case's.
pub(super) fn check_live_agent(obs: &Observation) -> Option<Finding> {
    let emit = obs
        .live
        .iter()
        .find(|e| e.agent.as_deref().is_some_and(|a| a != CASE_AGENT))?;
    let agent = emit.agent.as_deref().unwrap_or_default();
    Some(Finding {
        requirement: "LIVE-4",
        error: true,
        position: emit.at,
        message: format!(
            "`{}` is attributed to agent {agent:?}, which the harness never created: the case's agent is {CASE_AGENT:?} (the `agent` of the `case` message), and its live events name it",
            emit.event
        ),
        expected: vec![format!("live {} about agent {CASE_AGENT:?}", emit.event)],
        observed: vec![format!("live {} about agent {agent:?}", emit.event)],
        origin: Origin::Oracle,
    })
}
