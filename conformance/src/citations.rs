//! The upstream evidence each requirement rests on: permalinks into the public history of
//! `deepseek-ai/deepseek-harness` at a full commit, with a line range. The registry keeps the
//! project's own wording; this table keeps the evidence, apart from it, keyed by requirement ID,
//! so that a new requirement is added in one place and cited in another.
//!
//! Every requirement cites at least one source for each profile it applies to: the 2026-07
//! profile is upstream's "era M" (the loop before and at the migrations that removed the live
//! mirrors, [`ERA_M`] and [`MIGRATION`]), the 2026-08 profile is upstream's release [`HEAD`].
//! `conformance/tests/spec_citations.rs` checks the table against `conformance/data/upstream-files.tsv`
//! (every cited path existed at its commit and has the cited lines) offline, and against a copy of
//! the upstream repository when `MIRRORLESS_UPSTREAM_GIT` names one.

use crate::vocab::Profile;

/// The public repository every citation points into.
pub const UPSTREAM: &str = "https://github.com/deepseek-ai/deepseek-harness";
/// Era M as the migrations found it: the last commit with all six live mirrors (2026-06-29).
pub const ERA_M: &str = "3f85f522ead8cd11f390d09c65fbcf0db548680f";
/// The parent of the last migration (2026-07-04): era M's vocabulary at its end.
pub const ERA_M_END: &str = "226a8b5e4cc8872c9c438515498d376550440c77";
/// The last migration, `agent/steering` removed: the first commit with no mirror (2026-07-04).
pub const MIGRATION: &str = "c6d2eeea6b1b510ca9a9ec66dd3f1722eae6acd3";
/// The release the 2026-08 profile follows (dsh-0.1.1-rc.2).
pub const HEAD: &str = "b150a551b8d465e31e418e1b2eaf5e79bbb7d28e";

/// The four upstream commits that removed the live mirrors (P1 … P4), in order.
pub const MIGRATION_COMMITS: &[&str] = &[
    "05b75abbca004f263191f803873a87697fdb7290",
    "140f818a4245f53670bf3cc5275a0ccfc0031c87",
    "b84d4828a8eeaf66f9ba308fd8d1445e268a5eee",
    MIGRATION,
];

/// The permalink of the upstream commit whose full SHA starts with `short` (one of
/// [`MIGRATION_COMMITS`] or an era's commit), `None` for a commit this table does not know.
pub fn commit_url(short: &str) -> Option<String> {
    MIGRATION_COMMITS
        .iter()
        .chain(&[ERA_M, ERA_M_END, HEAD])
        .find(|full| short.len() >= 7 && full.starts_with(short))
        .map(|full| format!("{UPSTREAM}/commit/{full}"))
}

/// One piece of upstream evidence for one requirement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Citation {
    /// The requirement it supports, e.g. `CHUNK-2`.
    pub requirement: &'static str,
    /// The profile whose behaviour it shows.
    pub profile: Profile,
    /// The full 40-hex commit the path and lines are read at.
    pub commit: &'static str,
    /// The file, relative to the repository root.
    pub path: &'static str,
    /// The first and last line cited (1-based, inclusive); `None` cites the whole file.
    pub lines: Option<(u32, u32)>,
    /// What the cited lines show, in a few words.
    pub shows: &'static str,
}

impl Citation {
    /// The permalink: `https://github.com/…/blob/<commit>/<path>#L<a>-L<b>`.
    pub fn url(&self) -> String {
        let base = format!("{UPSTREAM}/blob/{}/{}", self.commit, self.path);
        match self.lines {
            Some((a, b)) if a == b => format!("{base}#L{a}"),
            Some((a, b)) => format!("{base}#L{a}-L{b}"),
            None => base,
        }
    }

    /// `path:a-b` at the commit's short form, for a terminal.
    pub fn short(&self) -> String {
        let lines = match self.lines {
            Some((a, b)) if a == b => format!(":{a}"),
            Some((a, b)) => format!(":{a}-{b}"),
            None => String::new(),
        };
        format!("{} {}{lines}", &self.commit[..10], self.path)
    }
}

/// The citations of requirement `id`, in table order (2026-07 evidence before 2026-08).
pub fn of(id: &str) -> impl Iterator<Item = &'static Citation> + '_ {
    CITATIONS.iter().filter(move |c| c.requirement == id)
}

const fn m(
    requirement: &'static str,
    path: &'static str,
    a: u32,
    b: u32,
    shows: &'static str,
) -> Citation {
    at(requirement, Profile::V2026_07, ERA_M, path, a, b, shows)
}

const fn h(
    requirement: &'static str,
    path: &'static str,
    a: u32,
    b: u32,
    shows: &'static str,
) -> Citation {
    at(requirement, Profile::V2026_08, HEAD, path, a, b, shows)
}

const fn at(
    requirement: &'static str,
    profile: Profile,
    commit: &'static str,
    path: &'static str,
    a: u32,
    b: u32,
    shows: &'static str,
) -> Citation {
    Citation {
        requirement,
        profile,
        commit,
        path,
        lines: if a == 0 { None } else { Some((a, b)) },
        shows,
    }
}

// The files cited most, by era.
const M_LOOP: &str = "packages/core/agent-loop/src/loop.ts";
const M_AGENT: &str = "packages/core/agent-loop/src/agent.ts";
const M_INV: &str = "packages/support/invariants/src/index.ts";
const M_INV_TEST: &str = "packages/support/invariants/tests/invariants.spec.ts";
const M_LOOP_TEST: &str = "packages/core/agent-loop/tests/loop.spec.ts";
const M_TYPES: &str = "packages/core/session/src/types.ts";
const M_LLM: &str = "packages/llm/llm/src/types.ts";
const M_EVENTS: &str = "packages/core/agent/src/types.ts";
const M_FORMAT: &str = "packages/session-persistence/session-persistence-jsonl/src/format.ts";
const H_AGENT: &str = "packages/core/agent-loop/src/agent.ts";
const H_TOOLS: &str = "packages/core/agent-loop/src/tool-calls.ts";
const H_INV: &str = "packages/core/session/src/invariant.ts";
const H_INV_TEST: &str = "packages/core/session/tests/invariant.spec.ts";
const H_TYPES: &str = "packages/core/session/src/types.ts";
const H_SESSION: &str = "packages/core/session/src/index.ts";
const H_SURFACE: &str = "packages/core/session/src/surface.ts";
const H_REPAIR: &str = "packages/core/session/src/repair.ts";
const H_ROWS: &str = "packages/core/session/src/chunk-rows.ts";
const H_LLM: &str = "packages/llm/llm/src/types.ts";
const H_MESSAGE: &str = "packages/llm/llm/src/message.ts";
const H_ASSEMBLER: &str = "packages/llm/llm/src/assembler.ts";
const H_EVENTS: &str = "packages/core/agent/src/runtime-types.ts";
const H_LOOP_TEST: &str = "packages/core/agent-loop/tests/loop.spec.ts";
const H_CANCEL_TEST: &str = "packages/core/agent-loop/tests/cancel.spec.ts";
const H_CONTRACT_TEST: &str = "packages/core/agent-loop/tests/contract-regressions.spec.ts";
const H_FORMAT: &str = "packages/session/session-persistence-jsonl/src/format.ts";
const NOTE_BOUNDARY: &str =
    ".agents/notes/implemented/simplification/2026-06-20-remove-agent-boundary-mirror-events.md";
const NOTE_STREAM: &str =
    ".agents/notes/archived/simplification/2026-07-02-remove-stream-chunk-mirror.md";
const NOTE_STEERING: &str =
    ".agents/notes/archived/simplification/2026-07-04-remove-agent-steering-mirror.md";
const NOTE_ENCLOSURE: &str =
    ".agents/notes/archived/architecture/2026-06-15-turn-enclosure-invariant.md";
const NOTE_NO_LOG_TURNS: &str =
    ".agents/notes/implemented/simplification/2026-07-28-remove-synthetic-log-only-turns.md";
const NOTE_CHUNKS_KEPT: &str =
    ".agents/notes/rejected/simplification/2026-06-20-assembled-assistant-messages-only.md";
const NOTE_PREFIX: &str =
    ".agents/notes/implemented/architecture/2026-08-10-cancelled-stream-prefix-finalize.md";

/// Every citation, grouped by requirement in registry order.
pub const CITATIONS: &[Citation] = &[
    // ---- LOG ---------------------------------------------------------------------------
    m(
        "LOG-1",
        M_FORMAT,
        20,
        40,
        "the JSONL header line `{type: 'session', version, id, …}` the writer puts first",
    ),
    h(
        "LOG-1",
        H_FORMAT,
        33,
        65,
        "the header line; the reader requires it before any event",
    ),
    m(
        "LOG-2",
        M_TYPES,
        302,
        320,
        "the envelope `{type, seq, time, data}` and surface metadata",
    ),
    h(
        "LOG-2",
        H_TYPES,
        408,
        440,
        "the envelope `{type, seq, time, data, ignorable?}`",
    ),
    h(
        "LOG-2",
        H_SESSION,
        614,
        622,
        "`data` is snapshotted as lossless JSON on append",
    ),
    h(
        "LOG-3",
        H_TYPES,
        416,
        426,
        "a reader meeting an unknown type without `ignorable` MUST refuse the log",
    ),
    h(
        "LOG-3",
        "packages/core/session/src/known-event-types.ts",
        0,
        0,
        "the generated catalogue of known event types",
    ),
    h(
        "LOG-4",
        H_ROWS,
        25,
        77,
        "packed chunk rows: which chunks pack, `seq0 + k`, the `dt` gaps, runs of at least 3",
    ),
    // ---- SEQ ---------------------------------------------------------------------------
    m(
        "SEQ-1",
        "packages/core/session/src/index.ts",
        216,
        220,
        "`Session.append` assigns `seq: this.log.length`",
    ),
    m(
        "SEQ-1",
        M_INV,
        115,
        120,
        "the dev invariant: seq strictly increases from -1",
    ),
    m(
        "SEQ-1",
        M_INV_TEST,
        39,
        47,
        "test: a non-monotonic seq is rejected",
    ),
    h(
        "SEQ-1",
        H_SESSION,
        625,
        633,
        "`Session.append` assigns `seq: this.log.length`",
    ),
    h(
        "SEQ-1",
        H_SESSION,
        523,
        529,
        "a seed is checked for `seq === index`",
    ),
    h(
        "SEQ-1",
        H_INV,
        60,
        62,
        "the dev invariant: seq strictly increases",
    ),
    h(
        "SEQ-1",
        "packages/core/session/tests/session.spec.ts",
        527,
        533,
        "test: a seed with a non-contiguous seq is rejected",
    ),
    m(
        "SEQ-2",
        M_TYPES,
        307,
        308,
        "`time`: Unix epoch milliseconds",
    ),
    h(
        "SEQ-2",
        H_TYPES,
        413,
        414,
        "`time`: Unix epoch milliseconds",
    ),
    h(
        "SEQ-2",
        H_ROWS,
        31,
        36,
        "time is not monotonic: packed rows store signed gaps",
    ),
    // ---- SURF --------------------------------------------------------------------------
    m(
        "SURF-1",
        M_TYPES,
        238,
        243,
        "the 2026-07 surface types, five of them",
    ),
    m(
        "SURF-1",
        M_INV,
        122,
        139,
        "surface metadata on a non-surface event is rejected",
    ),
    h(
        "SURF-1",
        H_TYPES,
        347,
        350,
        "the 2026-08 surface types, three of them",
    ),
    h(
        "SURF-1",
        H_SURFACE,
        185,
        243,
        "the surface fold reads `surfaceOp` and rejects what it cannot place",
    ),
    m(
        "SURF-2",
        M_INV,
        140,
        156,
        "`sourceEventSeqs`: not empty, unique, earlier, known",
    ),
    h(
        "SURF-2",
        H_SURFACE,
        185,
        243,
        "the surface fold checks each cited seq",
    ),
    h(
        "SURF-2",
        H_TYPES,
        428,
        436,
        "`sourceEventSeqs` cites earlier events; `[]` only on `assistant/message`",
    ),
    h(
        "SURF-3",
        H_MESSAGE,
        175,
        215,
        "every message is created with a fresh `id`",
    ),
    h(
        "SURF-3",
        H_MESSAGE,
        128,
        138,
        "a message is `{id, role, content, source}`",
    ),
    // ---- TURN --------------------------------------------------------------------------
    m(
        "TURN-1",
        M_INV,
        198,
        211,
        "`turn/start` must be `nextTurn`, from 1",
    ),
    h("TURN-1", H_INV, 72, 82, "`turn/start` must be `nextTurn`"),
    h(
        "TURN-1",
        H_CONTRACT_TEST,
        516,
        549,
        "test: a forked agent continues turn numbers after its seed",
    ),
    m(
        "TURN-2",
        M_INV,
        198,
        222,
        "no `turn/start` while a turn is open; `turn/end` names the open turn, no open step",
    ),
    h("TURN-2", H_INV, 72, 93, "the same at 2026-08"),
    m(
        "TURN-3",
        M_INV,
        270,
        285,
        "every non-boundary event must be turn-enclosed (the `default` case)",
    ),
    at(
        "TURN-3",
        Profile::V2026_07,
        HEAD,
        NOTE_ENCLOSURE,
        0,
        0,
        "decision (2026-07, archived since): every session event is enclosed in a turn",
    ),
    h(
        "TURN-3",
        H_INV,
        145,
        160,
        "only core execution events are enclosed; `user/message` and plugin events are not",
    ),
    h(
        "TURN-3",
        NOTE_NO_LOG_TURNS,
        0,
        0,
        "decision: synthetic log-only turns removed, enclosure relaxed",
    ),
    h(
        "TURN-3",
        H_INV_TEST,
        119,
        170,
        "test: turn numbering and core execution enclosure",
    ),
    m(
        "TURN-4",
        M_LOOP,
        368,
        380,
        "once `turn/start` is appended a `turn/end` is owed",
    ),
    m(
        "TURN-4",
        M_LOOP,
        290,
        302,
        "`closeStep` appends `step/end` on every path",
    ),
    h(
        "TURN-4",
        H_AGENT,
        279,
        323,
        "`step/end` and `turn/end` are appended in `finally` blocks",
    ),
    h(
        "TURN-4",
        H_REPAIR,
        27,
        133,
        "crash repair closes an open tail",
    ),
    m(
        "TURN-5",
        M_TYPES,
        137,
        147,
        "`interrupted` is synthesized by crash repair; no loop emits it",
    ),
    h(
        "TURN-5",
        H_TYPES,
        169,
        173,
        "`interrupted`: a persistence backend closed a crash-orphaned turn",
    ),
    h(
        "TURN-5",
        H_REPAIR,
        27,
        133,
        "the closer's exact shape: error results, `step/end`, `turn/end {interrupted}`",
    ),
    m(
        "TURN-6",
        M_TYPES,
        125,
        148,
        "the 2026-07 `TurnEndReason` kinds",
    ),
    h(
        "TURN-6",
        H_TYPES,
        155,
        174,
        "the 2026-08 `TurnEndReason` kinds",
    ),
    h(
        "TURN-6",
        H_CONTRACT_TEST,
        190,
        207,
        "test: an empty admitted batch closes a turn without a step",
    ),
    m(
        "TURN-7",
        M_LOOP,
        322,
        335,
        "`failTurn`: the first error wins and ends the turn `error`",
    ),
    m(
        "TURN-7",
        M_LOOP,
        598,
        605,
        "a `finish` error or abort raises the step error",
    ),
    h(
        "TURN-7",
        H_AGENT,
        285,
        315,
        "max-tokens is sticky; an abort ends `aborted`, any other throw `error`",
    ),
    h(
        "TURN-7",
        H_CONTRACT_TEST,
        570,
        644,
        "test: a finish-error chunk ends the turn as error, not completed",
    ),
    m(
        "TURN-8",
        M_LOOP,
        382,
        392,
        "the turn loops: each iteration is a step",
    ),
    m(
        "TURN-8",
        M_LOOP,
        644,
        672,
        "tool results are recorded and the loop continues to the next step",
    ),
    h(
        "TURN-8",
        H_AGENT,
        410,
        419,
        "a step with tool calls returns `null` (go on) unless a result `concludesTurn`",
    ),
    h(
        "TURN-8",
        H_TOOLS,
        145,
        160,
        "`concluded` is set only by a result's `concludesTurn`",
    ),
    h(
        "TURN-8",
        H_AGENT,
        294,
        300,
        "fresh steering in the next-step inbox runs another step",
    ),
    m(
        "TURN-9",
        M_TYPES,
        128,
        134,
        "2026-07: `error {step, message, code?}`",
    ),
    h(
        "TURN-9",
        H_TYPES,
        161,
        166,
        "2026-08: `error {error: LlmFailure}`",
    ),
    m(
        "TURN-10",
        M_LOOP,
        368,
        380,
        "`turn/start {turn, trigger}` then the prompt's `user/message`",
    ),
    m(
        "TURN-10",
        M_TYPES,
        127,
        127,
        "`aborted {reason?}`: the cancel's reason string",
    ),
    h("TURN-10", H_TYPES, 155, 158, "`aborted {reason: cause}`"),
    h(
        "TURN-10",
        H_AGENT,
        302,
        305,
        "an abort records the signal's cause",
    ),
    m(
        "TURN-11",
        M_LOOP,
        322,
        335,
        "the error reason carries the failure's message and code",
    ),
    h(
        "TURN-11",
        H_AGENT,
        302,
        315,
        "an `LlmError` keeps the delivered failure verbatim",
    ),
    h(
        "TURN-11",
        H_AGENT,
        372,
        388,
        "a `finish` error not retried becomes `LlmError(finish.failure)`",
    ),
    // ---- STEP --------------------------------------------------------------------------
    m(
        "STEP-1",
        M_INV,
        223,
        236,
        "`step/start` must be `nextStep`, from 1 in each turn",
    ),
    h("STEP-1", H_INV, 94, 106, "the same at 2026-08"),
    m(
        "STEP-2",
        M_INV,
        223,
        245,
        "steps open inside the open turn, do not nest, and close by name",
    ),
    h("STEP-2", H_INV, 94, 113, "the same at 2026-08"),
    m(
        "STEP-3",
        M_INV,
        246,
        258,
        "step-scoped events carry the open turn and step",
    ),
    h("STEP-3", H_INV, 114, 126, "the same at 2026-08"),
    // ---- CHUNK -------------------------------------------------------------------------
    m(
        "CHUNK-1",
        M_LOOP,
        581,
        591,
        "each stream chunk is appended, verbatim, before assembly",
    ),
    m(
        "CHUNK-1",
        M_LOOP_TEST,
        135,
        157,
        "test: `textResponse('abc')` records 7 chunk events",
    ),
    h(
        "CHUNK-1",
        H_AGENT,
        343,
        353,
        "each stream chunk is appended before assembly",
    ),
    h(
        "CHUNK-1",
        H_LOOP_TEST,
        529,
        547,
        "test: raw chunks recorded as `assistant/chunk`",
    ),
    m(
        "CHUNK-2",
        M_LLM,
        153,
        160,
        "the `StreamChunk` union; `usage` before `finish`, nothing after it",
    ),
    h("CHUNK-2", H_LLM, 312, 324, "the same contract at 2026-08"),
    h(
        "CHUNK-2",
        H_AGENT,
        348,
        352,
        "one call's chunks are appended in one loop, one after another",
    ),
    m(
        "CHUNK-3",
        M_LOOP,
        593,
        600,
        "an adapter ends a stream with `finish` or throws",
    ),
    h(
        "CHUNK-3",
        "packages/llm/llm/src/index.ts",
        1003,
        1011,
        "adapter throws become a terminal `finish` chunk",
    ),
    m(
        "CHUNK-4",
        M_LOOP,
        584,
        600,
        "chunks are appended before the failure is raised, and stay",
    ),
    at(
        "CHUNK-4",
        Profile::V2026_07,
        HEAD,
        NOTE_CHUNKS_KEPT,
        0,
        0,
        "rejected: persisting only assembled messages, which would lose failed prefixes",
    ),
    h(
        "CHUNK-4",
        H_AGENT,
        343,
        371,
        "chunks of a failed or cancelled call stay in the log",
    ),
    m(
        "CHUNK-5",
        M_LOOP,
        584,
        587,
        "the abort is checked before each append",
    ),
    h(
        "CHUNK-5",
        H_AGENT,
        348,
        350,
        "`signal.throwIfAborted()` before each append",
    ),
    m(
        "CHUNK-6",
        M_LOOP,
        593,
        600,
        "2026-07: a failed `finish` ends the step",
    ),
    h(
        "CHUNK-6",
        H_AGENT,
        372,
        389,
        "2026-08: `agent/request-error` may retry within the step",
    ),
    h(
        "CHUNK-6",
        H_CANCEL_TEST,
        588,
        617,
        "test: a retry's message cites only its own chunks",
    ),
    // ---- MSG ---------------------------------------------------------------------------
    m(
        "MSG-1",
        M_LOOP,
        634,
        641,
        "`sourceEventSeqs` = the step's chunk seqs, omitted when none streamed",
    ),
    h(
        "MSG-1",
        H_AGENT,
        343,
        344,
        "`chunkSeqs` is reset per attempt",
    ),
    h(
        "MSG-1",
        H_AGENT,
        400,
        409,
        "the message cites the attempt's `chunkSeqs`",
    ),
    m(
        "MSG-2",
        "packages/llm/llm/src/assembler.ts",
        0,
        0,
        "2026-07 `BlockAssembler`: `block-end` is authoritative",
    ),
    h(
        "MSG-2",
        H_ASSEMBLER,
        0,
        0,
        "2026-08 `BlockAssembler`: deltas accumulate per index, the first `block-end` wins",
    ),
    m(
        "MSG-3",
        "packages/core/agent-loop/tests/review-fixes.spec.ts",
        44,
        92,
        "a `agent/step-result` rewrite is what the log records (so 2026-07 only warns)",
    ),
    m(
        "MSG-3",
        M_LOOP,
        601,
        642,
        "content is the assembled (or rewritten) message",
    ),
    h(
        "MSG-3",
        H_AGENT,
        392,
        409,
        "content is `assembler.blocks()`",
    ),
    h(
        "MSG-3",
        H_ASSEMBLER,
        134,
        148,
        "max-tokens drops `tool-call` blocks",
    ),
    m(
        "MSG-4",
        M_LOOP,
        636,
        641,
        "`usage` is the assembler's, absent when none",
    ),
    h(
        "MSG-4",
        H_AGENT,
        400,
        409,
        "`usage` is the assembler's last usage chunk",
    ),
    m("MSG-5", M_LOOP, 598, 600, "no message for a failed call"),
    m(
        "MSG-5",
        M_LOOP,
        628,
        642,
        "a message only with content or usage",
    ),
    m(
        "MSG-5",
        M_LOOP_TEST,
        458,
        507,
        "tests: no message for an empty step without usage",
    ),
    h(
        "MSG-5",
        H_AGENT,
        354,
        369,
        "a cancelled call appends an `interrupted` message iff its prefix has text",
    ),
    h(
        "MSG-5",
        H_LOOP_TEST,
        1107,
        1151,
        "test: an empty completion still appends its anchor message",
    ),
    h(
        "MSG-5",
        H_CANCEL_TEST,
        482,
        513,
        "test: cancel mid-stream finalizes the prefix",
    ),
    h(
        "MSG-5",
        NOTE_PREFIX,
        0,
        0,
        "decision: a cancelled stream's prefix is finalized",
    ),
    m(
        "MSG-6",
        M_LOOP,
        636,
        651,
        "one message per step, before its tool calls",
    ),
    h(
        "MSG-6",
        H_AGENT,
        392,
        415,
        "one message per settled call, before its tool calls",
    ),
    m(
        "MSG-7",
        M_LOOP,
        373,
        379,
        "each queued prompt is recorded as a `user/message`",
    ),
    h(
        "MSG-7",
        H_AGENT,
        279,
        284,
        "claimed inbox messages are recorded first in the step",
    ),
    m(
        "MSG-8",
        M_LLM,
        89,
        99,
        "2026-07 `MessageSource`: user, plugin, agent",
    ),
    h(
        "MSG-8",
        H_MESSAGE,
        100,
        105,
        "2026-08 `MessageSource`: user, plugin, model, tool",
    ),
    m(
        "MSG-9",
        M_LOOP,
        636,
        641,
        "2026-07 `assistant/message {turn, step, content, usage?}`",
    ),
    m(
        "MSG-9",
        M_LOOP,
        665,
        680,
        "2026-07 `tool/result {turn, step, callId, content, isError}`",
    ),
    // ---- TOOL --------------------------------------------------------------------------
    m(
        "TOOL-1",
        M_INV,
        254,
        269,
        "a result needs a pending call of the same step",
    ),
    m(
        "TOOL-1",
        M_INV_TEST,
        122,
        129,
        "test: a result with no prior call is rejected",
    ),
    h(
        "TOOL-1",
        H_INV,
        122,
        144,
        "the same at 2026-08, repair's not-started results exempt",
    ),
    h(
        "TOOL-1",
        H_INV_TEST,
        327,
        354,
        "test: not-started repair results are allowed",
    ),
    m(
        "TOOL-2",
        M_LOOP,
        665,
        680,
        "a result cites `[seq of its tool/call]`",
    ),
    h("TOOL-2", H_TOOLS, 261, 289, "a result cites `[callSeq]`"),
    m(
        "TOOL-3",
        M_LOOP,
        644,
        651,
        "calls run sequentially: call, result, call, result",
    ),
    h(
        "TOOL-3",
        H_TOOLS,
        145,
        160,
        "results are committed in model order",
    ),
    h(
        "TOOL-3",
        H_TOOLS,
        237,
        259,
        "on abort, calls not started get a call and a synthetic result",
    ),
    m(
        "TOOL-4",
        M_LOOP,
        644,
        651,
        "calls are the message's `tool-call` blocks",
    ),
    m(
        "TOOL-4",
        M_LOOP_TEST,
        415,
        456,
        "test: no calls after a max-tokens step",
    ),
    h(
        "TOOL-4",
        H_AGENT,
        410,
        417,
        "calls are the message's `tool-call` blocks; none after max-tokens",
    ),
    h(
        "TOOL-4",
        H_LOOP_TEST,
        1054,
        1105,
        "test: no calls after a max-tokens step",
    ),
    m(
        "TOOL-5",
        M_LOOP,
        658,
        680,
        "the result records what `tools.execute` returned",
    ),
    h(
        "TOOL-5",
        H_TOOLS,
        267,
        289,
        "the result message carries the tool's content and `isError`",
    ),
    // ---- STEER -------------------------------------------------------------------------
    m(
        "STEER-1",
        M_LOOP,
        542,
        550,
        "`drainSteering` appends `steering/message` with the open turn",
    ),
    m(
        "STEER-1",
        M_LOOP,
        382,
        391,
        "steering drained before `step/start`",
    ),
    m(
        "STEER-2",
        M_LOOP,
        252,
        257,
        "leftover steering becomes a queued message: never stranded",
    ),
    m(
        "STEER-2",
        "packages/core/agent-loop/tests/review-fixes.spec.ts",
        394,
        419,
        "test: steering keeps its source",
    ),
    h(
        "STEER-2",
        H_AGENT,
        262,
        300,
        "steering is claimed from the next-step inbox by `preStep`",
    ),
    h(
        "STEER-2",
        "packages/core/agent/src/inbox.ts",
        186,
        192,
        "the durable inbox splice",
    ),
    // ---- MIRROR ------------------------------------------------------------------------
    m(
        "MIRROR-1",
        M_LOOP,
        587,
        589,
        "`agent/stream-chunk` re-announced each appended chunk",
    ),
    m(
        "MIRROR-1",
        M_EVENTS,
        209,
        209,
        "the removed event's signature",
    ),
    h(
        "MIRROR-1",
        NOTE_STREAM,
        0,
        0,
        "decision: stop mirroring the token stream",
    ),
    m(
        "MIRROR-2",
        M_LOOP,
        542,
        550,
        "`agent/steering` re-announced each `steering/message`",
    ),
    m(
        "MIRROR-2",
        M_EVENTS,
        214,
        214,
        "the removed event's signature",
    ),
    at(
        "MIRROR-2",
        Profile::V2026_07,
        MIGRATION,
        M_LOOP,
        0,
        0,
        "the loop after the last migration: no mirror left",
    ),
    h(
        "MIRROR-2",
        NOTE_STEERING,
        0,
        0,
        "decision: remove the `agent/steering` mirror",
    ),
    m(
        "MIRROR-3",
        M_LOOP,
        373,
        380,
        "`agent/turn-start` after `turn/start` and its prompts",
    ),
    m(
        "MIRROR-3",
        M_EVENTS,
        163,
        163,
        "the removed event's signature",
    ),
    h(
        "MIRROR-3",
        NOTE_BOUNDARY,
        0,
        0,
        "decision: stop mirroring durable boundaries",
    ),
    m(
        "MIRROR-4",
        M_LOOP,
        360,
        365,
        "`agent/turn-end` after `turn/end`",
    ),
    m(
        "MIRROR-4",
        M_EVENTS,
        169,
        169,
        "the removed event's signature",
    ),
    h(
        "MIRROR-4",
        NOTE_BOUNDARY,
        0,
        0,
        "decision: stop mirroring durable boundaries",
    ),
    m(
        "MIRROR-5",
        M_LOOP,
        389,
        391,
        "`agent/step-start` after `step/start`",
    ),
    m(
        "MIRROR-5",
        M_EVENTS,
        175,
        175,
        "the removed event's signature",
    ),
    h(
        "MIRROR-5",
        NOTE_BOUNDARY,
        0,
        0,
        "decision: stop mirroring durable boundaries",
    ),
    m(
        "MIRROR-6",
        M_LOOP,
        294,
        302,
        "`agent/step-end` after `step/end`",
    ),
    m(
        "MIRROR-6",
        M_EVENTS,
        180,
        180,
        "the removed event's signature",
    ),
    h(
        "MIRROR-6",
        NOTE_BOUNDARY,
        0,
        0,
        "decision: stop mirroring durable boundaries",
    ),
    // ---- LIVE --------------------------------------------------------------------------
    m(
        "LIVE-1",
        M_INV,
        291,
        304,
        "legal status transitions: no repeat, `disposed` terminal",
    ),
    m(
        "LIVE-1",
        M_INV_TEST,
        352,
        393,
        "tests: agent status invariants",
    ),
    h(
        "LIVE-1",
        "packages/core/agent/src/invariant.ts",
        15,
        24,
        "no repeated status",
    ),
    h(
        "LIVE-1",
        H_AGENT,
        103,
        111,
        "status is emitted only when it changes",
    ),
    m("LIVE-2", M_EVENTS, 129, 222, "the 2026-07 live vocabulary"),
    h("LIVE-2", H_EVENTS, 146, 292, "the 2026-08 live vocabulary"),
    m(
        "LIVE-3",
        M_EVENTS,
        220,
        220,
        "`agent/error(agent, turn, step, error)`",
    ),
    h(
        "LIVE-3",
        H_EVENTS,
        290,
        290,
        "`agent/error {agent, turn, step, error}`",
    ),
    m(
        "LIVE-4",
        "packages/core/agent/src/index.ts",
        185,
        197,
        "`agent/created` on registration",
    ),
    h("LIVE-4", H_EVENTS, 159, 159, "`agent/created {agent}`"),
    at(
        "LIVE-5",
        Profile::V2026_07,
        ERA_M_END,
        M_EVENTS,
        265,
        265,
        "`agent/session-start` arrived during era M",
    ),
    h(
        "LIVE-5",
        H_EVENTS,
        217,
        217,
        "`agent/session-start {agent, source}`",
    ),
    h(
        "LIVE-5",
        "packages/core/agent-loop/src/index.ts",
        558,
        568,
        "emitted once when the agent starts",
    ),
    m(
        "LIVE-6",
        M_AGENT,
        80,
        90,
        "status `running`/`idle` follows the loop",
    ),
    h(
        "LIVE-6",
        H_AGENT,
        97,
        111,
        "status is `idle` unless a turn runs",
    ),
    m("LIVE-7", M_AGENT, 285, 299, "dispose: status `disposed`"),
    m(
        "LIVE-7",
        "packages/core/agent/src/index.ts",
        185,
        197,
        "`agent/disposed` on unregistration",
    ),
    h("LIVE-7", H_EVENTS, 168, 168, "`agent/disposed {agent}`"),
    m(
        "LIVE-8",
        M_LOOP,
        316,
        335,
        "`failTurn` emits `agent/error` once per failed turn",
    ),
    h(
        "LIVE-8",
        H_AGENT,
        202,
        208,
        "`throwError` emits `agent/error` at the failure",
    ),
    m(
        "LIVE-9",
        M_LOOP,
        587,
        589,
        "a mirror fired next to its twin's append: the duplication under any name",
    ),
    m(
        "LIVE-9",
        M_LOOP,
        373,
        380,
        "`agent/turn-start` after `turn/start` and the prompt's `user/message`",
    ),
    h(
        "LIVE-9",
        NOTE_STREAM,
        0,
        0,
        "decision: one source of truth for the stream",
    ),
    h(
        "LIVE-9",
        NOTE_BOUNDARY,
        0,
        0,
        "decision: one source of truth for turn and step boundaries",
    ),
];
