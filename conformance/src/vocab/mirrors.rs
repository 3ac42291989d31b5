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
    /// What the mirror passed after the agent, in order (2026-07 positional arguments; the
    /// same names are the keys of a 2026-08-style payload object), and where each lives in
    /// the durable twin's `data`. The linter's fixes rewrite handlers from this.
    pub arguments: &'static [MirroredArgument],
    /// Whether, under 2026-08, every `durable_twin_2026_08` event is one the mirror announced
    /// (false for steering: `user/message` also records prompts), so filtering it keeps a
    /// handler's behaviour.
    pub twin_one_to_one_2026_08: bool,
    /// What the 2026-07 twin's `data` carries beyond these arguments, each with the value a
    /// test's stand-in event gives it (`turn/start` also records the turn's `trigger`, which the
    /// mirror never passed). Empty when an event built from the mirror's arguments is a whole
    /// twin.
    pub twin_data_beyond_arguments: &'static [StandInField],
}

/// A field of a durable twin's `data` that the mirror did not pass, and the value a test that
/// stood in for the loop with the mirror gives it when it emits the twin instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct StandInField {
    /// The field of the twin's `data`, e.g. `trigger`.
    pub field: &'static str,
    /// Its value in a stand-in, as TypeScript source with single quotes.
    pub stand_in: &'static str,
    /// What the value claims, for the fix's note.
    pub says: &'static str,
}

/// One argument a removed mirror passed, and the durable field that carries it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct MirroredArgument {
    /// The argument's name in the former signature (and the payload key), e.g. `turn`.
    pub name: &'static str,
    /// The field of the 2026-07 durable twin's `data` holding it.
    pub field: &'static str,
    /// The field of the 2026-08 durable twin's `data`, or `None` when it has none
    /// (`user/message` carries no `turn`).
    pub field_2026_08: Option<&'static str>,
}

const fn same(name: &'static str) -> MirroredArgument {
    MirroredArgument {
        name,
        field: name,
        field_2026_08: Some(name),
    }
}

const AGENT_HANDLE: &str = "If the handler needs the agent handle, keep a map from session to agent, filled by \
`agent/created` and emptied by `agent/disposed`, and look the agent up by the event's session, as upstream's \
`140f818a42` did: the session id is not reliably the agent id (a session can be created with an id of its own), \
so a registry of agents by agent id (`ctx.agents.get(session.id)`) is not a lookup to rely on. `mirrorless lint --fix --unsafe-fixes` writes this map.";

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
        arguments: &[same("turn"), same("step"), same("chunk")],
        twin_one_to_one_2026_08: true,
        twin_data_beyond_arguments: &[],
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
        arguments: &[
            MirroredArgument {
                name: "turn",
                field: "turn",
                field_2026_08: None,
            },
            same("content"),
            same("source"),
        ],
        twin_one_to_one_2026_08: false,
        twin_data_beyond_arguments: &[],
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
        arguments: &[same("turn")],
        twin_one_to_one_2026_08: true,
        // A user's message starts most turns; upstream's own migrated tests say so too.
        twin_data_beyond_arguments: &[StandInField {
            field: "trigger",
            stand_in: "{ kind: 'message', source: { kind: 'user' } }",
            says: "a user's message started the turn",
        }],
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
        arguments: &[same("turn"), same("reason")],
        twin_one_to_one_2026_08: true,
        twin_data_beyond_arguments: &[],
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
        arguments: &[same("turn"), same("step")],
        twin_one_to_one_2026_08: true,
        twin_data_beyond_arguments: &[],
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
        arguments: &[same("turn"), same("step")],
        twin_one_to_one_2026_08: true,
        twin_data_beyond_arguments: &[],
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

    #[test]
    fn mapped_arguments_are_the_former_signature_after_the_agent() {
        for m in &REMOVED_MIRRORS {
            let names: Vec<&str> = m
                .former_signature
                .trim_matches(|c| c == '(' || c == ')')
                .split(',')
                .map(|p| p.split(':').next().unwrap_or("").trim())
                .collect();
            assert_eq!(names[0], "agent", "{}", m.name);
            let mapped: Vec<&str> = m.arguments.iter().map(|a| a.name).collect();
            assert_eq!(mapped, names[1..], "{}", m.name);
        }
    }
}
