//! The terms the requirement pages rely on, defined once on the spec's front page
//! (`docs/spec/README.md#glossary`); each page links the terms its text uses.

/// One defined term.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Term {
    /// The term as the pages write it.
    pub term: &'static str,
    /// Its anchor on the front page (the heading's slug).
    pub anchor: &'static str,
    /// The definition, in Markdown.
    pub definition: &'static str,
    /// Lower-case words whose presence in a page's text means the page uses the term.
    pub used_as: &'static [&'static str],
}

/// Every term, in the order the front page defines them.
pub const TERMS: &[Term] = &[
    Term {
        term: "RFC 2119 keywords",
        anchor: "rfc-2119-keywords",
        definition: "MUST, MUST NOT, SHOULD, SHOULD NOT and MAY, in capitals, mean what \
[RFC 2119](https://www.rfc-editor.org/rfc/rfc2119) says. A requirement's tier is the strongest \
keyword of its statement: a MUST requirement broken is an error (the log or implementation does \
not conform), a SHOULD requirement broken is a warning. MAY marks what an implementation is free \
to do; the suite accepts either choice.",
        used_as: &["must", "should", " may "],
    },
    Term {
        term: "profile",
        anchor: "profile",
        definition: "The protocol generation a log or implementation is judged under: **2026-07** \
(upstream's loop when the live mirrors were removed: positional live events, `steering/message`, \
`turn/start.trigger`, every event inside a turn) or **2026-08** (upstream's release: payload-object \
live events, steering as `user/message`, the durable inbox, retries within a step, `interrupted` \
messages). Each requirement states its tier per profile, or that it does not apply; each page cites \
upstream evidence for every profile it applies to. `--profile` picks one; `check` can guess it \
from the log.",
        used_as: &["profile", "2026-07", "2026-08"],
    },
    Term {
        term: "session log",
        anchor: "session-log",
        definition: "The durable record of a session: a JSONL file whose first line is the session \
header and every later line one event `{type, seq, time, data}` (2026-08 also a packed chunk row). \
`mirrorless check` reads one; over `mirrorless-stdio/1` the implementation sends each event in an \
`append` message and the driver keeps the log.",
        used_as: &["log", "durable"],
    },
    Term {
        term: "live event",
        anchor: "live-event",
        definition: "An `agent/*` event the loop emits to listeners as it runs and does not record \
in the log (`agent/status`, `agent/error`, …). A *live trace* is the list of them, one JSON \
`{event, agent, data, at}` per line; `mirrorless check --live` reads one, and over stdio the \
implementation sends each in an `emit` message.",
        used_as: &["live", "emit"],
    },
    Term {
        term: "mirror",
        anchor: "mirror",
        definition: "One of the six removed live events that re-announced a durable event one line \
after it was appended (`agent/stream-chunk`, `agent/steering`, `agent/turn-start`, \
`agent/turn-end`, `agent/step-start`, `agent/step-end`). The durable event it repeated is its \
*durable twin*. No profile allows a mirror.",
        used_as: &["mirror", "durable twin"],
    },
    Term {
        term: "turn",
        anchor: "turn",
        definition: "What the loop does for one prompt (or injection, or leftover steering): the \
events from `turn/start {turn}` to its `turn/end {turn, reason}`. Turns are numbered 1, 2, 3 … in \
a session.",
        used_as: &["turn"],
    },
    Term {
        term: "step",
        anchor: "step",
        definition: "One round inside a turn: the events from `step/start {turn, step}` to its \
`step/end`, holding the model call(s) of that round, the assistant message and the tool calls it \
dispatched. Steps are numbered 1 … n within each turn.",
        used_as: &["step"],
    },
    Term {
        term: "boundary event",
        anchor: "boundary-event",
        definition: "`turn/start`, `turn/end`, `step/start` and `step/end`: the events that open and \
close turns and steps. Every other event is a *non-boundary event*.",
        used_as: &["boundary", "boundaries"],
    },
    Term {
        term: "step-scoped event",
        anchor: "step-scoped-event",
        definition: "An event that belongs to one step and names it in `data.turn` and `data.step`: \
`assistant/chunk`, `assistant/message`, `tool/call` and `tool/result` (2026-07 also \
`steering/message`, which names its turn only). It must lie inside the step it names.",
        used_as: &["step-scoped"],
    },
    Term {
        term: "enclosure",
        anchor: "enclosure",
        definition: "Where an event may lie. Under 2026-07 every non-boundary event lies inside an \
open turn. Under 2026-08 only the core execution events are enclosed: the step-scoped events \
inside their step; `todo/write`, `request/header` and `request/context` inside a turn; \
`user/message`, `session/end-seed`, `agent/inbox/spliced` and plugin events may lie between turns.",
        used_as: &[
            "enclos",
            "inside a turn",
            "between turns",
            "where their scope",
        ],
    },
    Term {
        term: "surface event",
        anchor: "surface-event",
        definition: "An event that becomes part of the conversation history the next model request \
is built from, and so carries `surfaceOp` (and may carry `sourceEventSeqs`): `user/message`, \
`assistant/message`, `tool/result`, and under 2026-07 also `context/message` and \
`steering/message`. Every other event carries neither field.",
        used_as: &["surface"],
    },
    Term {
        term: "provenance",
        anchor: "provenance",
        definition: "`sourceEventSeqs`: the seqs of the earlier events a surface event was built \
from: an `assistant/message` cites its model call's chunks, a `tool/result` its `tool/call`.",
        used_as: &["provenance", "sourceeventseqs", "cites"],
    },
    Term {
        term: "model call",
        anchor: "model-call",
        definition: "One request to the model and the stream of chunks it delivers, which ends in a \
`finish` chunk (or is cut short by a cancel). Its durable chunks form a *chunk run*: consecutive \
`assistant/chunk` events of one step. A step has one model call, or under 2026-08 several when a \
failed call is retried (each try is an *attempt*); the call that settles the step is the last.",
        used_as: &["model call", "chunk run", "attempt", "retr", "call's"],
    },
    Term {
        term: "packed chunk row",
        anchor: "packed-chunk-row",
        definition: "A 2026-08 storage line (`text-chunks`, `reasoning-chunks`, `tool-call-chunks`) \
that stands for a run of at least three delta chunks of one block: member `k` is the chunk event \
with seq `seq0 + k`. A row is an encoding of the log, never an event of its own.",
        used_as: &["packed", "row"],
    },
    Term {
        term: "inbox",
        anchor: "inbox",
        definition: "Under 2026-08, the agent's queue of user input not yet recorded: prompts wait \
for the next turn (`next-turn`), steering for the next step (`next-step`). A change to it is \
recorded as `agent/inbox/spliced`, which may lie anywhere, and a claimed message is recorded as a \
`user/message` at the start of the step that claims it. Under 2026-07 the queue is in memory only.",
        used_as: &["inbox", "splice", "claim"],
    },
    Term {
        term: "steering",
        anchor: "steering",
        definition: "User input sent while a turn runs, for the model to see before its next call. \
Under 2026-07 it is recorded as `steering/message`, at the end of a successful step; under 2026-08 \
as a `user/message` at the start of the next step. *Leftover* steering is what is still queued when \
its turn ends.",
        used_as: &["steer", "leftover"],
    },
    Term {
        term: "injection",
        anchor: "injection",
        definition: "Context a plugin adds while the agent is idle (`inject`). Under 2026-07 it is a \
turn of its own with no step: `turn/start {trigger: injection}`, `context/message`, \
`turn/end {completed}`; under 2026-08 a `user/message` with a plugin source.",
        used_as: &["inject"],
    },
    Term {
        term: "cancel point",
        anchor: "cancel-point",
        definition: "The place in a model call's stream where the harness cancels the turn: the \
chunks delivered before it are recorded, nothing the stream would deliver after it is. Over stdio \
it is the `cancel` item of a scripted model stream; the implementation learns of it from the \
`cancel` message and must record no chunk the driver sends after it.",
        used_as: &["cancel point", "cancel"],
    },
    Term {
        term: "crash repair",
        anchor: "crash-repair",
        definition: "What a persistence backend appends when it reloads a log that ends inside a \
turn: an error `tool/result` for each unanswered tool call of the open step, `step/end` if a step \
is open, then `turn/end {kind: \"interrupted\"}`. The loop itself never writes `interrupted`.",
        used_as: &["crash", "interrupted", "closer"],
    },
    Term {
        term: "model script",
        anchor: "model-script",
        definition: "What `mirrorless run` plays against an implementation: the user's actions \
(prompts, steering, cancels, injections, dispose) and every chunk each model call delivers. The \
*oracle* derives from it what a conforming log holds; a failure is shown with the minimal script \
that still fails.",
        used_as: &["script", "oracle", "harness"],
    },
    Term {
        term: "finding",
        anchor: "finding",
        definition: "What `check` or `run` reports for one violation: the requirement ID, the line \
or seq, and one sentence. A SHOULD requirement's finding is a warning.",
        used_as: &["finding", "report"],
    },
];

/// The terms whose `used_as` words occur in `text` (compared in lower case).
pub fn used_in(text: &str) -> impl Iterator<Item = &'static Term> {
    let lower = text.to_lowercase();
    TERMS
        .iter()
        .filter(move |t| t.used_as.iter().any(|w| lower.contains(w)))
}

/// The glossary section of the front page.
pub fn section() -> String {
    let mut out = String::from(
        "## Glossary\n\nThe words the requirement pages rely on. Each page links the ones it uses.\n",
    );
    for t in TERMS {
        out.push_str(&format!("\n### {}\n\n{}\n", t.term, t.definition));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each anchor is the slug of its heading (lower case, spaces to `-`, other punctuation
    /// dropped), so a page's link reaches its definition.
    #[test]
    fn every_anchor_is_the_slug_of_its_heading() {
        for t in TERMS {
            let slug = crate::spec::audit::slug(t.term);
            assert_eq!(slug, t.anchor, "{}", t.term);
        }
    }

    /// A term is found by any of its words, and only then.
    #[test]
    fn a_term_is_used_when_one_of_its_words_occurs() {
        let used: Vec<_> = used_in("The CANCEL point of a call")
            .map(|t| t.anchor)
            .collect();
        assert!(used.contains(&"cancel-point"), "{used:?}");
        assert!(!used.contains(&"inbox"), "{used:?}");
    }
}
