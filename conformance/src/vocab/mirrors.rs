//! The catalogue of the six removed live mirror events.
//!
//! Each removed `agent/*` event re-announced a durable fact one line after the loop appended
//! it to the session log. Two sources of truth for one fact drift, so each mirror was removed
//! and consumers read `session/event` instead. This catalogue is the only list of them: the
//! requirement registry, the checker, the driver and the linter all read it.

use serde::Serialize;

/// One removed mirror event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RemovedMirror {
    /// The live event name, e.g. `agent/stream-chunk`.
    pub name: &'static str,
    /// The requirement that forbids it (`MIRROR-1` … `MIRROR-6`).
    pub requirement: &'static str,
    /// A Rust-style identifier for the event, used by typed APIs and the linter's type
    /// resolution (e.g. `StreamChunk` for `agent/stream-chunk`).
    pub ident: &'static str,
    /// The durable twin under 2026-07.
    pub durable_twin: &'static str,
    /// The durable twin under 2026-08 (steering became `user/message`).
    pub durable_twin_2026_08: &'static str,
    /// The date the upstream emit was removed.
    pub removed_on: &'static str,
    /// The upstream commit that removed the emit.
    pub removed_by: &'static str,
    /// The upstream decision that removed it.
    pub decision: &'static str,
    /// The live signature it had before removal (positional arguments, agent first).
    pub former_signature: &'static str,
    /// What to use instead, as one imperative phrase.
    pub replacement: &'static str,
    /// The migration advice a consumer needs, in a few sentences.
    pub migration: &'static str,
}

const AGENT_HANDLE: &str = "If the handler needs the agent handle, keep a map from session id to agent built from \
`agent/created` and `agent/disposed` (or look it up with `ctx.agents.get(session.id)`).";

/// The six removed mirrors, in requirement order (`MIRROR-1` … `MIRROR-6`).
pub const REMOVED_MIRRORS: [RemovedMirror; 6] = [
    RemovedMirror {
        name: "agent/stream-chunk",
        requirement: "MIRROR-1",
        ident: "StreamChunk",
        durable_twin: "assistant/chunk",
        durable_twin_2026_08: "assistant/chunk",
        removed_on: "2026-07-02",
        removed_by: "b84d4828a8",
        decision: "Stop mirroring the token stream as an agent event",
        former_signature: "(agent, turn, step, chunk: StreamChunk)",
        replacement: "subscribe to `session/event` and filter `assistant/chunk`",
        migration: "The token stream is the durable `assistant/chunk` event: `data` carries the same `turn`, \
`step` and `chunk` the mirror passed, in the same order, and it is the feed persistence and replay use.",
    },
    RemovedMirror {
        name: "agent/steering",
        requirement: "MIRROR-2",
        ident: "Steering",
        durable_twin: "steering/message",
        durable_twin_2026_08: "user/message",
        removed_on: "2026-07-04",
        removed_by: "c6d2eeea6b",
        decision: "Remove the agent/steering mirror emit",
        former_signature: "(agent, turn, content: ContentBlock[], source: MessageSource)",
        replacement: "subscribe to `session/event` and filter `steering/message` (2026-08: `user/message`)",
        migration: "Steering is recorded durably: `steering/message {turn, content, source}` in the 2026-07 \
profile, and a `user/message` claimed from the next-step inbox in the 2026-08 profile.",
    },
    RemovedMirror {
        name: "agent/turn-start",
        requirement: "MIRROR-3",
        ident: "TurnStart",
        durable_twin: "turn/start",
        durable_twin_2026_08: "turn/start",
        removed_on: "2026-07-02",
        removed_by: "140f818a42",
        decision: "Stop mirroring durable boundaries as agent events",
        former_signature: "(agent, turn: number)",
        replacement: "subscribe to `session/event` and filter `turn/start`",
        migration: "`turn/start {turn}` is appended for every turn, including idle injection turns the mirror \
never announced, so a consumer of the durable event sees every turn exactly once.",
    },
    RemovedMirror {
        name: "agent/turn-end",
        requirement: "MIRROR-4",
        ident: "TurnEnd",
        durable_twin: "turn/end",
        durable_twin_2026_08: "turn/end",
        removed_on: "2026-07-02",
        removed_by: "140f818a42",
        decision: "Stop mirroring durable boundaries as agent events",
        former_signature: "(agent, turn: number, reason: TurnEndReason)",
        replacement: "subscribe to `session/event` and filter `turn/end`",
        migration: "`turn/end {turn, reason}` carries the same `TurnEndReason`, and unlike the mirror it is also \
appended when the turn closes from the outer error path.",
    },
    RemovedMirror {
        name: "agent/step-start",
        requirement: "MIRROR-5",
        ident: "StepStart",
        durable_twin: "step/start",
        durable_twin_2026_08: "step/start",
        removed_on: "2026-06-30",
        removed_by: "05b75abbca",
        decision: "Event domain semantics (step mirrors); Stop mirroring durable boundaries as agent events",
        former_signature: "(agent, turn: number, step: number)",
        replacement: "subscribe to `session/event` and filter `step/start`",
        migration: "`step/start {turn, step}` is appended when the step opens, before any of its chunks.",
    },
    RemovedMirror {
        name: "agent/step-end",
        requirement: "MIRROR-6",
        ident: "StepEnd",
        durable_twin: "step/end",
        durable_twin_2026_08: "step/end",
        removed_on: "2026-06-30",
        removed_by: "05b75abbca",
        decision: "Event domain semantics (step mirrors); Stop mirroring durable boundaries as agent events",
        former_signature: "(agent, turn: number, step: number)",
        replacement: "subscribe to `session/event` and filter `step/end`",
        migration: "`step/end {turn, step}` is appended on every close path, cancel and failure included.",
    },
];

impl RemovedMirror {
    /// The advice on recovering the agent handle that every mirror shares.
    pub const AGENT_HANDLE_ADVICE: &'static str = AGENT_HANDLE;
}

/// Looks a removed mirror up by its exact live event name.
pub fn removed_mirror(name: &str) -> Option<&'static RemovedMirror> {
    REMOVED_MIRRORS.iter().find(|m| m.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirrors_are_numbered_in_order_and_match_exactly() {
        for (i, m) in REMOVED_MIRRORS.iter().enumerate() {
            assert_eq!(m.requirement, format!("MIRROR-{}", i + 1));
            assert_eq!(removed_mirror(m.name), Some(m));
        }
        assert_eq!(removed_mirror("agent/turn-stopping"), None);
        assert_eq!(removed_mirror("agent/step-result"), None);
        assert_eq!(removed_mirror("steering/message"), None);
    }
}
