//! The requirement registry: every rule the checker and the driver enforce.
//!
//! Each requirement has a stable ID that never changes meaning, a tier per profile (or none
//! where it does not apply), one normative sentence, a rationale, and the ways it is enforced.
//! A retired requirement keeps its ID forever; new ones take new IDs. `docs/spec/` is checked
//! against this table by a test, so a rule without a page, or a page without a rule, fails.

use crate::vocab::Profile;
use serde::Serialize;
use std::fmt;

/// How binding a requirement is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Tier {
    /// A violation makes the log or implementation non-conformant.
    Must,
    /// A violation is reported as a warning.
    Should,
}

impl fmt::Display for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Tier::Must => "MUST",
            Tier::Should => "SHOULD",
        })
    }
}

/// Where a requirement can be checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Enforcement {
    /// `mirrorless check` on a durable log alone.
    Log,
    /// `mirrorless check --live` on a live-event trace.
    LiveTrace,
    /// `mirrorless run`, against a known model script (the oracle).
    Driver,
}

/// The group a requirement belongs to; the prefix of its ID.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Area {
    /// `LOG-n`: the file format.
    Log,
    /// `SEQ-n`: sequence numbers.
    Seq,
    /// `SURF-n`: surface metadata.
    Surface,
    /// `TURN-n`: turns.
    Turn,
    /// `STEP-n`: steps.
    Step,
    /// `CHUNK-n`: the durable token stream.
    Chunk,
    /// `MSG-n`: assistant messages against their chunks.
    Message,
    /// `TOOL-n`: tool calls and results.
    Tool,
    /// `STEER-n`: steering.
    Steering,
    /// `MIRROR-n`: the removed live mirrors.
    Mirror,
    /// `LIVE-n`: the live events that remain.
    Live,
}

impl Area {
    /// The human title of the area, as used for spec pages.
    pub const fn title(self) -> &'static str {
        match self {
            Area::Log => "Log format",
            Area::Seq => "Sequence numbers",
            Area::Surface => "Surface metadata",
            Area::Turn => "Turns",
            Area::Step => "Steps",
            Area::Chunk => "The durable token stream",
            Area::Message => "Assistant messages",
            Area::Tool => "Tool calls and results",
            Area::Steering => "Steering",
            Area::Mirror => "Removed mirror events",
            Area::Live => "Live events",
        }
    }
}

/// One requirement of the spec.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Requirement {
    /// Stable ID, e.g. `CHUNK-1`. Never reused, never changes meaning.
    pub id: &'static str,
    /// The group, matching the ID prefix.
    pub area: Area,
    /// A short title.
    pub title: &'static str,
    /// Tier under 2026-07, or `None` if the requirement does not apply there.
    pub tier_2026_07: Option<Tier>,
    /// Tier under 2026-08, or `None` if the requirement does not apply there.
    pub tier_2026_08: Option<Tier>,
    /// The one normative sentence.
    pub statement: &'static str,
    /// Why the rule exists.
    pub rationale: &'static str,
    /// Where it is checked.
    pub enforcement: &'static [Enforcement],
    /// What `mirrorless check` cannot see of it on a recorded log (typically a record that is
    /// missing, where it sees a wrong one), printed with `check` on its page; `None` when
    /// `check` sees all of it or does not enforce it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub check_blind_spot: Option<&'static str>,
}

impl Requirement {
    /// The tier under `profile`, or `None` if the requirement does not apply there.
    pub const fn tier(&self, profile: Profile) -> Option<Tier> {
        match profile {
            Profile::V2026_07 => self.tier_2026_07,
            Profile::V2026_08 => self.tier_2026_08,
        }
    }

    /// Whether the requirement applies under `profile`.
    pub const fn applies_to(&self, profile: Profile) -> bool {
        self.tier(profile).is_some()
    }

    /// Whether `how` is one of the ways the requirement is enforced.
    pub fn enforced_by(&self, how: Enforcement) -> bool {
        self.enforcement.contains(&how)
    }

    /// The profiles the requirement applies to.
    pub fn profiles(&self) -> impl Iterator<Item = Profile> + '_ {
        Profile::ALL.into_iter().filter(|p| self.applies_to(*p))
    }

    /// The file name of the requirement's spec page under `docs/spec/`.
    pub fn page(&self) -> String {
        format!("{}.md", self.id)
    }
}

/// Looks a requirement up by ID (case-insensitive).
pub fn requirement(id: &str) -> Option<&'static Requirement> {
    REQUIREMENTS.iter().find(|r| r.id.eq_ignore_ascii_case(id))
}

use Enforcement::{Driver, LiveTrace, Log};
use Tier::{Must, Should};

const M: Option<Tier> = Some(Must);
const SH: Option<Tier> = Some(Should);
const NA: Option<Tier> = None;
const LOG_AND_DRIVER: &[Enforcement] = &[Log, Driver];
const LIVE_AND_DRIVER: &[Enforcement] = &[LiveTrace, Driver];

const fn mirror(id: &'static str, title: &'static str, statement: &'static str) -> Requirement {
    Requirement {
        id,
        area: Area::Mirror,
        title,
        check_blind_spot: None,
        tier_2026_07: M,
        tier_2026_08: M,
        statement,
        rationale: "The event re-announced a durable fact one line after it was appended. Two sources of truth for \
one fact drift: a throwing listener can hide the mirror while the durable event is already in the log, and every \
change has to touch both. Consumers read `session/event` and filter the durable twin.",
        enforcement: LIVE_AND_DRIVER,
    }
}

/// Every requirement, grouped by area, in ID order within each group.
pub const REQUIREMENTS: &[Requirement] = &[
    // ---- LOG ---------------------------------------------------------------------------
    Requirement {
        id: "LOG-1",
        area: Area::Log,
        title: "The log starts with a session header",
        check_blind_spot: None,
        tier_2026_07: M,
        tier_2026_08: M,
        statement: "The first line of a session log MUST be a header object whose `type` is `session`; the header is not an event and carries no `seq`.",
        rationale: "Readers locate the session's identity, parent and seed length in the header before replaying events; a log without one cannot be resumed or forked.",
        enforcement: &[Log],
    },
    Requirement {
        id: "LOG-2",
        area: Area::Log,
        title: "Every line is one well-formed event",
        check_blind_spot: None,
        tier_2026_07: M,
        tier_2026_08: M,
        statement: "Every line after the header MUST be one JSON object with a string `type` and an object `data` (or, under 2026-08, a packed chunk row), in UTF-8 without a byte order mark, with lossless JSON numbers and no key named twice in the envelope.",
        rationale: "A malformed line is lost history: replay, crash repair and every consumer of the log skip or refuse it.",
        enforcement: &[Log],
    },
    Requirement {
        id: "LOG-3",
        area: Area::Log,
        title: "Unknown event types are marked ignorable",
        check_blind_spot: None,
        tier_2026_07: NA,
        tier_2026_08: M,
        statement: "An event whose `type` is not in the 2026-08 vocabulary MUST carry `ignorable: true`.",
        rationale: "2026-08 readers refuse a log with an unknown required type; marking optional plugin events lets older readers skip them safely.",
        enforcement: &[Log],
    },
    Requirement {
        id: "LOG-4",
        area: Area::Log,
        title: "Packed chunk rows are well formed",
        check_blind_spot: None,
        tier_2026_07: NA,
        tier_2026_08: M,
        statement: "A packed chunk row MUST pack at least 3 delta chunks of one turn, step and block index (and one tool-call id and name), with one `texts`/`args` entry per member and one `dt` gap fewer (member 0 is at `time0`, member k at `time0` plus the first k gaps), starting at the next `seq`.",
        rationale: "Rows are only a storage encoding of `assistant/chunk` runs; a row that cannot be expanded exactly loses or invents token deltas.",
        enforcement: &[Log],
    },
    // ---- SEQ ---------------------------------------------------------------------------
    Requirement {
        id: "SEQ-1",
        area: Area::Seq,
        title: "Sequence numbers are contiguous from 0",
        check_blind_spot: None,
        tier_2026_07: M,
        tier_2026_08: M,
        statement: "Each event's `seq` MUST equal its 0-based index in the log: the first event has seq 0 and every later one the previous seq plus 1, with no gaps or duplicates.",
        rationale: "`sourceEventSeqs`, surface replace ranges and resume all address events by seq; a gap or duplicate makes those references ambiguous.",
        enforcement: LOG_AND_DRIVER,
    },
    Requirement {
        id: "SEQ-2",
        area: Area::Seq,
        title: "Time is an integer",
        check_blind_spot: None,
        tier_2026_07: SH,
        tier_2026_08: SH,
        statement: "An event's `time` SHOULD be an integer count of epoch milliseconds; it is not required to be monotonic.",
        rationale: "Consumers compute durations from `time`; clocks move backwards, so only the type is checked.",
        enforcement: &[Log],
    },
    // ---- SURF --------------------------------------------------------------------------
    Requirement {
        id: "SURF-1",
        area: Area::Surface,
        title: "Surface metadata only on surface events",
        check_blind_spot: None,
        tier_2026_07: M,
        tier_2026_08: M,
        statement: "`surfaceOp` MUST be present on every surface event (`user/message`, `assistant/message`, `tool/result`, and under 2026-07 `context/message` and `steering/message`) and absent on every other event, and `sourceEventSeqs` MUST only appear on surface events.",
        rationale: "Derived history is folded from surface events only; metadata on the wrong events corrupts the fold.",
        enforcement: LOG_AND_DRIVER,
    },
    Requirement {
        id: "SURF-2",
        area: Area::Surface,
        title: "Source references point backwards",
        check_blind_spot: None,
        tier_2026_07: M,
        tier_2026_08: M,
        statement: "`sourceEventSeqs` MUST list unique seqs of earlier events, and MUST NOT be empty except on a 2026-08 `assistant/message`.",
        rationale: "Provenance is how replay and audits find the chunks a message was assembled from; a forward or dangling reference cannot be resolved.",
        enforcement: LOG_AND_DRIVER,
    },
    Requirement {
        id: "SURF-3",
        area: Area::Surface,
        title: "Every message has its own id",
        check_blind_spot: None,
        tier_2026_07: NA,
        tier_2026_08: M,
        statement: "Under 2026-08, every surface message in the message shape (`user/message` with `id`/`role`, and the `message` object of `assistant/message` and `tool/result`) MUST carry a non-empty string `id`, and no two messages of a session may share one.",
        rationale: "Derived history, compaction and replace operations address a message by its id; a missing or repeated id makes two messages one, or one unreachable. The checker compares ids within a turn, the state it holds in memory, so `mirrorless check` does not catch a repeat across turns; `mirrorless run`, which holds the case's whole log, does.",
        enforcement: LOG_AND_DRIVER,
    },
    // ---- TURN --------------------------------------------------------------------------
    Requirement {
        id: "TURN-1",
        area: Area::Turn,
        title: "Turns are numbered 1, 2, 3 …",
        check_blind_spot: None,
        tier_2026_07: M,
        tier_2026_08: M,
        statement: "Each `turn/start` MUST carry the turn number one greater than the previous turn's (starting at 1), with no gaps or repeats.",
        rationale: "Turn numbers key every step-scoped event; a repeated or skipped number merges or splits turns in every consumer.",
        enforcement: LOG_AND_DRIVER,
    },
    Requirement {
        id: "TURN-2",
        area: Area::Turn,
        title: "Turns do not nest",
        check_blind_spot: None,
        tier_2026_07: M,
        tier_2026_08: M,
        statement: "A `turn/start` MUST NOT appear while a turn is open, and a `turn/end` MUST name the open turn and MUST NOT appear while a step is open.",
        rationale: "One open turn at a time is what lets a consumer attribute every event to exactly one turn.",
        enforcement: LOG_AND_DRIVER,
    },
    Requirement {
        id: "TURN-3",
        area: Area::Turn,
        title: "Events lie where their scope allows",
        check_blind_spot: None,
        tier_2026_07: M,
        tier_2026_08: M,
        statement: "Under 2026-07 every non-boundary event MUST lie inside an open turn; under 2026-08 step-scoped events MUST lie inside a step and `todo/write`, `request/header` and `request/context` inside a turn, while other events may sit between turns.",
        rationale: "Enclosure is what makes a turn a complete unit for replay, compaction and rendering; 2026-08 relaxed it for plugin and inbox events that belong to no turn.",
        enforcement: LOG_AND_DRIVER,
    },
    Requirement {
        id: "TURN-4",
        area: Area::Turn,
        title: "Every turn and step is closed",
        check_blind_spot: None,
        tier_2026_07: M,
        tier_2026_08: M,
        statement: "Every `turn/start` MUST be followed by its `turn/end` and every `step/start` by its `step/end`; a log that ends inside a turn is reported as an open tail.",
        rationale: "A consumer waiting for `turn/end` hangs on an unclosed turn; persisted logs that end open are repaired at load, which the checker reports instead of hiding.",
        enforcement: LOG_AND_DRIVER,
    },
    Requirement {
        id: "TURN-5",
        area: Area::Turn,
        title: "`interrupted` only as the crash-repair closer",
        check_blind_spot: None,
        tier_2026_07: M,
        tier_2026_08: M,
        statement: "A `turn/end` with reason `interrupted` (the crash-repair closer of an open tail) MUST come after a synthetic error result for every tool call of its last step left unanswered, including tool-call blocks of the step's message that were never dispatched.",
        rationale: "The reason marks history that crash repair closed; a closer that leaves a tool call unanswered leaves a transcript no provider accepts. Checked on a log only: `mirrorless run` never crashes an implementation and replays its log, so no run reaches crash repair, and a running loop that ends a turn `interrupted` instead of its real reason is TURN-7's.",
        enforcement: &[Log],
    },
    Requirement {
        id: "TURN-6",
        area: Area::Turn,
        title: "Turn-end reasons are legal",
        check_blind_spot: None,
        tier_2026_07: M,
        tier_2026_08: M,
        statement: "A `turn/end` reason kind MUST be one the profile defines (2026-08 also accepts the `disposed` and `rejected` of logs written by earlier builds), and a turn with no steps MUST end `aborted`, `error`, `interrupted`, `disposed` or `rejected`, or (2026-07) an idle-injection `completed`, or (2026-08) `blocked` or `completed`.",
        rationale: "Consumers branch on the reason kind; an undefined kind, or a reason that cannot end a zero-step turn, means the loop lost track of why the turn ended.",
        enforcement: LOG_AND_DRIVER,
    },
    Requirement {
        id: "TURN-7",
        area: Area::Turn,
        title: "The reason agrees with what happened",
        check_blind_spot: Some(
            "`check` judges a turn's reason against what the log records (a `max-tokens` finish, a failed last call). It cannot see a cancel or dispose the log does not record, so a cancelled turn that ends `completed` passes `check`; `mirrorless run`, which sent the cancel, checks it.",
        ),
        tier_2026_07: M,
        tier_2026_08: M,
        statement: "A turn in which a model call hit `max-tokens` MUST end `max-tokens` unless it then failed or was cancelled; a turn whose last model call failed without a retry MUST end `error` or `aborted`; a cancelled turn MUST end `aborted` (2026-07: or `disposed` on dispose).",
        rationale: "The reason is the one durable record of how a turn ended; token meters, retries and UIs act on it.",
        enforcement: LOG_AND_DRIVER,
    },
    Requirement {
        id: "TURN-8",
        area: Area::Turn,
        title: "A turn goes on after its tool results",
        check_blind_spot: None,
        tier_2026_07: M,
        tier_2026_08: M,
        statement: "After a step whose model call succeeded or hit `max-tokens` and that dispatched tool calls, or during which the user steered (2026-08: also during a failed attempt the step retried), the loop MUST run another step in the same turn, unless the turn failed or was cancelled, or (2026-08) a tool's result concluded the turn (upstream's `concludesTurn`, which a tool sets to end the turn with its result). Over `mirrorless-stdio/1` the harness's `tool-result` answer carries no such flag, so a tool cannot conclude a turn there and the loop MUST always go on.",
        rationale: "The model must see the results of the tool calls it made and the steering it was sent; a turn that ends after them silently drops both. Only the driver enforces it: a log alone cannot tell a tool that concluded the turn from a loop that stopped.",
        enforcement: &[Driver],
    },
    // ---- STEP --------------------------------------------------------------------------
    Requirement {
        id: "TURN-9",
        area: Area::Turn,
        title: "An error end carries its failure",
        check_blind_spot: None,
        tier_2026_07: M,
        tier_2026_08: M,
        statement: "A `turn/end` with reason kind `error` MUST carry the failure in the profile's shape: 2026-07 `{kind: \"error\", step, message, code?}` with a non-negative integer `step`, a string `message` and, when present, a string `code`; 2026-08 `{kind: \"error\", error: {message, code}}` with string `message` and `code` (logs written by earlier builds may name the object `failure`).",
        rationale: "The reason is the one durable record of why a turn failed: retry policies branch on the code, and UIs show the message. A failure in another era's shape, or as a bare string, is read as no failure at all. Which `message` and `code` are recorded is the implementation's choice (upstream maps a non-provider error to `UNKNOWN`), so the values are not compared with the failure sent.",
        enforcement: LOG_AND_DRIVER,
    },
    Requirement {
        id: "TURN-10",
        area: Area::Turn,
        title: "A turn records who started it and who cut it short",
        check_blind_spot: None,
        tier_2026_07: M,
        tier_2026_08: M,
        statement: "Under 2026-07 a turn started by the user's prompt MUST carry `trigger: {kind: \"message\", source: {kind: \"user\"}}` and an idle injection `trigger: {kind: \"injection\", source}` with a `MessageSource` (an object with a string `kind`); a turn the user cancelled MUST end `aborted` with the cancel's cause — 2026-07 the reason string given to `cancel(reason)` (when `reason` is present), 2026-08 `reason: {kind: \"user\"}` — and a 2026-08 turn ended by dispose `aborted` with `reason: {kind: \"disposed\"}`. A turn MUST have a starter: the user's prompt or (2026-07) an idle injection delivered since the previous turn, or a `user/message` it records as its prompt (upstream runs steering left over by a failed call that way); a turn with neither was started by nothing.",
        rationale: "The trigger and the cause are the durable record of who started a turn and who stopped it: UIs label the turn by them, and a cancel policy (user, parent, hook, dispose) branches on the cause. TURN-7 checks the reason's kind; this checks what the kind carries, against what the harness did. 2026-07's `reason` string is optional in era M's type (`aborted {reason?: string}`), so only a present one is compared. A turn nothing started (no input, no prompt recorded) is reported here, at its `turn/start`, before the divergences of its unscripted model call.",
        enforcement: &[Driver],
    },
    Requirement {
        id: "TURN-11",
        area: Area::Turn,
        title: "A failed turn records the failure the model delivered",
        check_blind_spot: None,
        tier_2026_07: M,
        tier_2026_08: M,
        statement: "A turn that ends `error` because its model call failed on a `finish` that delivered a failure MUST record that failure's `message` and `code`: 2026-08 in `reason.error` (the `failure` of a `finish` `error` or `aborted`; more fields allowed), 2026-07 as the reason's `message` and `code` (those of the `finish` `error`). A 2026-07 `error` reason MUST name in `step` the step whose model call failed.",
        rationale: "Retry policies branch on the code and users read the message; a loop that replaces the provider's failure by a generic one hides why the turn failed. The values are determined only when the model delivered them: a thrown non-`LlmError` becomes `{message: errorChain(e), code: \"UNKNOWN\"}` upstream, and a 2026-07 `aborted` finish carries no failure, so those stay the implementation's (TURN-9 checks their shape).",
        enforcement: &[Driver],
    },
    Requirement {
        id: "STEP-1",
        area: Area::Step,
        title: "Steps are numbered 1 … n within each turn",
        check_blind_spot: None,
        tier_2026_07: M,
        tier_2026_08: M,
        statement: "Within each turn, `step/start` MUST carry step numbers 1, 2, 3 … with no gaps or repeats, restarting at 1 in every turn.",
        rationale: "The (turn, step) pair keys every chunk, message and tool event; a wrong step number attributes tokens to the wrong model call.",
        enforcement: LOG_AND_DRIVER,
    },
    Requirement {
        id: "STEP-2",
        area: Area::Step,
        title: "Steps open inside a turn and do not nest",
        check_blind_spot: None,
        tier_2026_07: M,
        tier_2026_08: M,
        statement: "A `step/start` MUST name the open turn and MUST NOT appear while a step is open, and a `step/end` MUST name the open turn and step.",
        rationale: "Steps partition a turn; an overlapping or orphaned step makes chunk runs and tool pairing ambiguous.",
        enforcement: LOG_AND_DRIVER,
    },
    Requirement {
        id: "STEP-3",
        area: Area::Step,
        title: "Step-scoped events carry the open step",
        check_blind_spot: None,
        tier_2026_07: M,
        tier_2026_08: M,
        statement: "`assistant/chunk`, `assistant/message`, `tool/call` and `tool/result` MUST carry the `turn` and `step` of the open step (a 2026-08 `tool/result` replace needs only an open turn).",
        rationale: "Consumers filter `session/event` by (turn, step); a stale or future pair moves tokens and results to the wrong step.",
        enforcement: LOG_AND_DRIVER,
    },
    // ---- CHUNK -------------------------------------------------------------------------
    Requirement {
        id: "CHUNK-1",
        area: Area::Chunk,
        title: "One durable chunk per stream chunk",
        check_blind_spot: Some(
            "`check` sees a chunk recorded wrong where the log contradicts itself: a message citing more or fewer chunks than its call recorded, deltas in another order than their `block-end` or the message. It cannot see a chunk dropped, merged or split where the log stays consistent (no message cites the call, or the damage keeps the assembly), because a log holds no copy of what the model delivered; `mirrorless run` compares every chunk with the delivered stream.",
        ),
        tier_2026_07: M,
        tier_2026_08: M,
        statement: "Every chunk the model stream delivers MUST be appended as exactly one `assistant/chunk` event, verbatim and in arrival order, before it is assembled: none dropped, merged, split, duplicated or reordered, `block-start`, `block-end`, `usage` and `finish` included.",
        rationale: "The durable chunk feed is the authoritative token stream: high-fidelity replay, partial failed streams and snapshot replay depend on it now that the live mirror is gone.",
        enforcement: LOG_AND_DRIVER,
    },
    Requirement {
        id: "CHUNK-2",
        area: Area::Chunk,
        title: "Chunk runs are well formed",
        check_blind_spot: None,
        tier_2026_07: M,
        tier_2026_08: M,
        statement: "An event MUST NOT come between two chunks of one model call (under 2026-08 only events that may sit anywhere, such as the `agent/inbox/spliced` a concurrent steer or inject appends, MAY), and a chunk MUST NOT follow its call's `finish` (a `usage` after `finish` included) or its step's `assistant/message`; under 2026-08 chunks after a failed `finish` start a new call (a retry), which is CHUNK-6's to judge.",
        rationale: "Replay splits the chunk feed into model calls at each `finish`; a chunk after `finish` or a usage after it is attributed to the wrong call. Checked on the log as stated; a run's streams always put `usage` before `finish`, so there a reordered `usage` is a recording fault, reported as CHUNK-1, and a chunk recorded in another step is CHUNK-1's too.",
        enforcement: LOG_AND_DRIVER,
    },
    Requirement {
        id: "CHUNK-3",
        area: Area::Chunk,
        title: "A chunk run ends in `finish` unless cancelled",
        check_blind_spot: None,
        tier_2026_07: M,
        tier_2026_08: M,
        statement: "A model call's chunk run MUST end with a `finish` chunk, except when the stream was cancelled (the turn ends `aborted`), or when the adapter (2026-07) or an `llm/stream` middleware or the stream's consumer (2026-08) threw (the turn ends `error`).",
        rationale: "A run without `finish` is indistinguishable from lost chunks; replay refuses it.",
        enforcement: LOG_AND_DRIVER,
    },
    Requirement {
        id: "CHUNK-4",
        area: Area::Chunk,
        title: "Chunks of failed streams are kept",
        check_blind_spot: None,
        tier_2026_07: M,
        tier_2026_08: M,
        statement: "The chunks a failed, aborted or cancelled stream delivered before it ended MUST stay in the log.",
        rationale: "Partial failed streams are one of the reasons chunk persistence was kept when the live mirror was removed.",
        enforcement: &[Driver],
    },
    Requirement {
        id: "CHUNK-5",
        area: Area::Chunk,
        title: "Nothing is recorded past the cancel point",
        check_blind_spot: None,
        tier_2026_07: M,
        tier_2026_08: M,
        statement: "The chunk at which a cancel is observed, and every chunk after it, MUST NOT be appended.",
        rationale: "The loop checks the abort signal before each append; a chunk recorded after the cancel point is output the user already refused.",
        enforcement: &[Driver],
    },
    Requirement {
        id: "CHUNK-6",
        area: Area::Chunk,
        title: "A failed call ends the step or is retried",
        check_blind_spot: Some(
            "`check` sees a `tool/call` after a failed `finish` in its step and a further 2026-07 chunk. It cannot see whether a 2026-08 call after a failed one was a retry `agent/request-error` decided (a log does not record the decision), nor, therefore, what was recorded between a failed attempt and its retry; `mirrorless run` checks both against the script.",
        ),
        tier_2026_07: M,
        tier_2026_08: M,
        statement: "After a model call that fails (`finish` `error` or `aborted`, or an adapter throw) the implementation MUST NOT request another model call in that turn unless (2026-08) `agent/request-error` decided to retry; a retry MUST follow the failed attempt with nothing the request is built from recorded between them (no `user/message`, `tool/call` or `tool/result`); and on the log a `tool/call` MUST NOT follow a failed `finish` in its step, nor (2026-07) any further chunk.",
        rationale: "2026-07 has no in-step retries; 2026-08 keeps the failed attempt's chunks and starts a fresh call with the same request, which provenance must not mix: a prompt or steer recorded again before the retry is sent twice to the model on reload (upstream records nothing between the attempts). A log shows the tool call and the 2026-07 chunk; whether a 2026-08 retry was decided, and so where a retry starts, is known only to `mirrorless run`, which checks every model request after a failed call against the script's decision. A request in a turn started after the failed one (2026-07: the turn its leftover steering starts) is never an in-step retry, so only requests inside the failed call's turn are judged.",
        enforcement: LOG_AND_DRIVER,
    },
    // ---- MSG ---------------------------------------------------------------------------
    Requirement {
        id: "MSG-1",
        area: Area::Message,
        title: "A message cites exactly its call's chunks",
        check_blind_spot: None,
        tier_2026_07: M,
        tier_2026_08: M,
        statement: "An `assistant/message`'s `sourceEventSeqs` MUST list exactly the seqs of the `assistant/chunk` events of the model call it finalizes, in order (2026-07: omitted when no chunk streamed).",
        rationale: "Provenance ties the committed message to the durable token stream; it is how one durable chunk per token is verified on a log alone.",
        enforcement: LOG_AND_DRIVER,
    },
    Requirement {
        id: "MSG-2",
        area: Area::Message,
        title: "Deltas agree with their block end",
        check_blind_spot: None,
        tier_2026_07: M,
        tier_2026_08: M,
        statement: "For a text or reasoning block with at least one delta and a text or reasoning `block-end`, the concatenated deltas MUST equal the text of its (first) `block-end` block.",
        rationale: "A dropped, duplicated or reordered delta shows up as a mismatch between the stream and its authoritative block. Checked on a log only: the streams `mirrorless run` sends always agree with their block ends, so there a mismatch is a recording fault, which the oracle reports as CHUNK-1 against the delivered chunks.",
        enforcement: &[Log],
    },
    Requirement {
        id: "MSG-3",
        area: Area::Message,
        title: "Content equals the assembly of its chunks",
        check_blind_spot: None,
        tier_2026_07: SH,
        tier_2026_08: M,
        statement: "An `assistant/message`'s content MUST (2026-07: SHOULD, as upstream's `agent/step-result` waterfall may rewrite it) equal the assembly of its cited chunks: blocks in first-seen index order, `block-end` authoritative, empty text and reasoning blocks kept (they are content, as in upstream's `BlockAssembler`), tool calls dropped on `max-tokens`, and for an `interrupted` message only text and reasoning blocks with non-whitespace text (whitespace as JavaScript's `String.prototype.trim` defines it).",
        rationale: "Content and chunks are two records of one model output. Under 2026-07 the `agent/step-result` waterfall could rewrite the message before the append, so there a mismatch is a warning.",
        enforcement: LOG_AND_DRIVER,
    },
    Requirement {
        id: "MSG-4",
        area: Area::Message,
        title: "Usage is the last usage chunk",
        check_blind_spot: None,
        tier_2026_07: M,
        tier_2026_08: M,
        statement: "An `assistant/message`'s `usage` MUST equal the last `usage` chunk among its cited chunks, and MUST be absent when there is none.",
        rationale: "Token meters read `assistant/message.usage`; it must agree with the stream it summarizes.",
        enforcement: LOG_AND_DRIVER,
    },
    Requirement {
        id: "MSG-5",
        area: Area::Message,
        title: "A message exists exactly when the protocol says",
        check_blind_spot: Some(
            "`check` sees a message that must not exist (for a failed call, a 2026-08 `interrupted` one for a call that streamed only whitespace, a 2026-07 one with neither content nor usage) and a missing one for a successful call of a turn that ends `completed` or `max-tokens`. It cannot see a missing 2026-08 `interrupted` message: a log does not say whether its build had upstream's interrupted-prefix fix, and logs recorded before it stay valid, so a cancelled call that streamed text and has no `interrupted` message passes `check`; nor the missing message of a successful call in a turn that then failed or was cancelled. `mirrorless run`, which knows which calls were cancelled and what they streamed, checks both.",
        ),
        tier_2026_07: M,
        tier_2026_08: M,
        statement: "A successful model call MUST be finalized by one `assistant/message` (2026-07: exactly when it has content, an empty text block included, or usage; a call with neither gets none); a failed call MUST NOT be; a cancelled call MUST NOT be under 2026-07, and under 2026-08 MUST be finalized by an `interrupted` message exactly when it streamed non-whitespace text or reasoning (whitespace as JavaScript's `String.prototype.trim` defines it).",
        rationale: "The message is the committed turn output that derived history and the SDKs read; a missing one loses output, an extra one commits output that failed.",
        enforcement: LOG_AND_DRIVER,
    },
    Requirement {
        id: "MSG-6",
        area: Area::Message,
        title: "One message per step, after its chunks",
        check_blind_spot: None,
        tier_2026_07: M,
        tier_2026_08: M,
        statement: "A step MUST have at most one non-interrupted `assistant/message`, appended after all of its cited chunks and before any `tool/call` of the step.",
        rationale: "Tool calls are dispatched from the committed message; a message after its calls, or two per step, breaks the call/message correspondence.",
        enforcement: LOG_AND_DRIVER,
    },
    Requirement {
        id: "MSG-7",
        area: Area::Message,
        title: "Every user input is recorded once, with its content",
        check_blind_spot: None,
        tier_2026_07: M,
        tier_2026_08: M,
        statement: "Every prompt the harness delivers MUST be recorded exactly once as a `user/message` whose `content` is the prompt sent and whose `source.kind` is `\"user\"` (under 2026-08 before its turn's first model request, which is built from it), and (2026-07) every idle injection exactly once as a `context/message` whose `content` is the injected content.",
        rationale: "The log is the one durable record of what the user asked: history, replay and the next model request are derived from it, so a prompt that is not recorded is lost on reload and one recorded twice is sent twice. Where the message sits is TURN-3's; only `mirrorless run`, which knows what it delivered, can tell a missing input.",
        enforcement: &[Driver],
    },
    Requirement {
        id: "MSG-8",
        area: Area::Message,
        title: "Messages name their author",
        check_blind_spot: None,
        tier_2026_07: M,
        tier_2026_08: M,
        statement: "Every `user/message`, `steering/message` and `context/message` MUST carry a `source` object with a string `kind`; under 2026-08 a message in the message shape MUST carry its `role` (`\"user\"` on `user/message`, `\"assistant\"` on `assistant/message`, `\"tool\"` or `\"user\"` on `tool/result`), an `assistant/message`'s `message.source` MUST be `{kind: \"model\", provider, model}` and a `tool/result`'s `{kind: \"tool\", callId}`, with string values.",
        rationale: "Derived history is rebuilt from these fields: the role decides which side of the conversation a message is replayed on, and the source tells a user's words from a plugin's and a model's answer from another provider's. The values of `provider`, `model` and a plugin's name are the implementation's; upstream writes `role: \"user\"` on tool results, so both roles are accepted there.",
        enforcement: LOG_AND_DRIVER,
    },
    Requirement {
        id: "MSG-9",
        area: Area::Message,
        title: "2026-07 messages are flat",
        check_blind_spot: None,
        tier_2026_07: M,
        tier_2026_08: NA,
        statement: "Under 2026-07 an `assistant/message` MUST carry its `content` in `data`, and a `tool/result` its `callId`, `content` and `isError`, never only inside a 2026-08 `message` object.",
        rationale: "Era M's readers (derived history, the SDKs, replay) take a message's content from `data.content`; a message written in the 2026-08 shape is, to them, a message without content, and a tool result without its call. Under 2026-08 the flat shape of earlier builds is still accepted, so only the 2026-07 side is a rule.",
        enforcement: LOG_AND_DRIVER,
    },
    // ---- TOOL --------------------------------------------------------------------------
    Requirement {
        id: "TOOL-1",
        area: Area::Tool,
        title: "A result answers a call of the same step",
        check_blind_spot: None,
        tier_2026_07: M,
        tier_2026_08: M,
        statement: "Every appended `tool/result` MUST answer an earlier `tool/call` with the same call id in the same step, at most once (crash-repair synthetic results excepted).",
        rationale: "Models require every result to pair with a call they made; a result from another step or a duplicate is rejected by providers on the next request.",
        enforcement: LOG_AND_DRIVER,
    },
    Requirement {
        id: "TOOL-2",
        area: Area::Tool,
        title: "A result cites its call",
        check_blind_spot: None,
        tier_2026_07: M,
        tier_2026_08: M,
        statement: "A `tool/result`'s `sourceEventSeqs` MUST be exactly the seq of its `tool/call`.",
        rationale: "Provenance from result to call lets audits and replay pair them without relying on call-id uniqueness.",
        enforcement: LOG_AND_DRIVER,
    },
    Requirement {
        id: "TOOL-3",
        area: Area::Tool,
        title: "Results are committed in model order",
        check_blind_spot: None,
        tier_2026_07: M,
        tier_2026_08: M,
        statement: "Under 2026-07 each `tool/call` MUST be followed by its result before the next call; under 2026-08 `tool/result`s MUST be committed in the order of the calls in the assistant message.",
        rationale: "The next request replays results in the order the model asked for them.",
        enforcement: LOG_AND_DRIVER,
    },
    Requirement {
        id: "TOOL-4",
        area: Area::Tool,
        title: "Calls match the message's tool-call blocks",
        check_blind_spot: None,
        tier_2026_07: M,
        tier_2026_08: M,
        statement: "Each `tool/call` MUST correspond to a `tool-call` block of its step's `assistant/message` (same id, name and arguments) and name the tool and carry the arguments the model streamed (from the block's `block-end`, or else its deltas, the name from the deltas that carry it — one name, never joined — with arguments compared by JSON meaning), every tool-call block of a successful call MUST run once, in the order of the message's blocks (a block without a `block-end` too), and no call is dispatched from a `max-tokens` message.",
        rationale: "Dispatching a call the model did not commit, or a truncated one, runs tools on arguments nobody asked for.",
        enforcement: LOG_AND_DRIVER,
    },
    Requirement {
        id: "TOOL-5",
        area: Area::Tool,
        title: "A result records what the tool answered",
        check_blind_spot: None,
        tier_2026_07: M,
        tier_2026_08: M,
        statement: "A `tool/result` MUST record the answer its tool gave: `isError` equal to the answer's, a content whose text (the string, or its text blocks joined) is the answer's text — for an error, containing it — and under 2026-08 inside a `{type: \"tool-result\", toolCallId}` block naming its call; an `error` object MUST NOT accompany a successful result. An absent `isError` reads as `false`: a successful result may omit it, an error result may not.",
        rationale: "The result is what the model sees of the tool on the next request and what a resumed session replays; a lost text, a flipped `isError` or a block that names no call makes the model act on an answer the tool never gave. An error's text may be framed (upstream records a failing tool as `Error: <text>`), and upstream writes the `error` object only for aborted calls, so neither is required beyond this. Upstream declares `isError` optional (`ToolResultBlock.isError?: boolean`, `packages/llm/llm/src/types.ts`) and its readers default it with `?? false` (era M's test its truthiness), although its own writer always sets it: a result without it is read as a success, so omitting it on a success loses nothing.",
        enforcement: &[Driver],
    },
    // ---- STEER -------------------------------------------------------------------------
    Requirement {
        id: "STEER-1",
        area: Area::Steering,
        title: "Steering is recorded where the profile places it",
        check_blind_spot: Some(
            "`check` sees a `steering/message` in the wrong place. It cannot see a steer that was never recorded, or recorded twice as another event: a log does not say what the user steered (STEER-2, which `mirrorless run` checks).",
        ),
        tier_2026_07: M,
        tier_2026_08: NA,
        statement: "Under 2026-07 a `steering/message` MUST name the open turn and lie either between steps of the turn or inside a successful step after its body (the message and the results of all its tool calls) and before `step/end`, never in a failed step.",
        rationale: "Steering changes what the model sees next; its position in the log is the only record of which request first included it.",
        enforcement: LOG_AND_DRIVER,
    },
    Requirement {
        id: "STEER-2",
        area: Area::Steering,
        title: "Each steer is recorded exactly once",
        check_blind_spot: None,
        tier_2026_07: M,
        tier_2026_08: M,
        statement: "Every message steered into a running turn MUST be recorded durably exactly once: as `steering/message` (2026-07; a message left over when a model call fails runs at once as a turn of its own, whose prompt it is: a `user/message` right after that turn's `turn/start`), or as a `user/message` at the start of the next step (2026-08; steering sent during a model call that fails and is retried waits for the call that settles the step: never recorded before the retry, it is claimed by the next step when the retry succeeds and left over when it fails; steering left over when a turn ends early, and after a `cancel` that keeps the inbox, at the start of the first step of the next prompt's turn, before that prompt), unless a cancel discards it first (2026-07: `cancel()` drops the cancelled turn's steering, which MUST NOT be recorded; 2026-08: durably, an `agent/inbox/spliced` with `outcome: canceled`, after which the steer MUST NOT be recorded). Several steers are recorded in the order they were sent.",
        rationale: "With `agent/steering` removed, the durable record is the only way a consumer learns of steering. Upstream never strands it: the 2026-07 loop re-enqueues steering left over at a failed turn's end as a queued message, which starts the next turn at once; a cancel drops it.",
        enforcement: &[Driver],
    },
    // ---- MIRROR ------------------------------------------------------------------------
    mirror(
        "MIRROR-1",
        "No `agent/stream-chunk`",
        "An implementation MUST NOT emit the live event `agent/stream-chunk`; the token stream is the durable `assistant/chunk`.",
    ),
    mirror(
        "MIRROR-2",
        "No `agent/steering`",
        "An implementation MUST NOT emit the live event `agent/steering`; steering is the durable `steering/message` (2026-08: `user/message`).",
    ),
    mirror(
        "MIRROR-3",
        "No `agent/turn-start`",
        "An implementation MUST NOT emit the live event `agent/turn-start`; the turn boundary is the durable `turn/start`.",
    ),
    mirror(
        "MIRROR-4",
        "No `agent/turn-end`",
        "An implementation MUST NOT emit the live event `agent/turn-end`; the turn boundary is the durable `turn/end`.",
    ),
    mirror(
        "MIRROR-5",
        "No `agent/step-start`",
        "An implementation MUST NOT emit the live event `agent/step-start`; the step boundary is the durable `step/start`.",
    ),
    mirror(
        "MIRROR-6",
        "No `agent/step-end`",
        "An implementation MUST NOT emit the live event `agent/step-end`; the step boundary is the durable `step/end`.",
    ),
    // ---- LIVE --------------------------------------------------------------------------
    Requirement {
        id: "LIVE-1",
        area: Area::Live,
        title: "`agent/status` transitions are legal",
        check_blind_spot: None,
        tier_2026_07: M,
        tier_2026_08: M,
        statement: "`agent/status` MUST carry a status the profile defines (2026-07: idle, running, disposed; 2026-08: idle, running), MUST NOT repeat the previous status of the same agent, and under 2026-07 nothing may follow `disposed`.",
        rationale: "Hosts and SDKs end a run on the idle status; a repeated or post-dispose status ends runs early or never.",
        enforcement: LIVE_AND_DRIVER,
    },
    Requirement {
        id: "LIVE-2",
        area: Area::Live,
        title: "Live events come from the profile's vocabulary",
        check_blind_spot: None,
        tier_2026_07: SH,
        tier_2026_08: SH,
        statement: "A live `agent/*` event SHOULD be one the profile defines.",
        rationale: "An unknown `agent/*` event is often a mirror under a new name, or one that belongs to another profile.",
        enforcement: LIVE_AND_DRIVER,
    },
    Requirement {
        id: "LIVE-3",
        area: Area::Live,
        title: "`agent/error` names the failed turn and its message",
        check_blind_spot: None,
        tier_2026_07: M,
        tier_2026_08: M,
        statement: "An `agent/error` live event MUST carry the failed turn and step as non-negative integers `turn` and `step`, and the failure as an object `error` with a string `message` (further fields, such as upstream's `name`, `code` and `failure`, are allowed).",
        rationale: "Listeners show and log the failure from this one event; a payload without the turn, the step or the message tells them that something failed but not what or where.",
        enforcement: LIVE_AND_DRIVER,
    },
    Requirement {
        id: "LIVE-4",
        area: Area::Live,
        title: "`agent/created` announces the agent, once",
        check_blind_spot: None,
        tier_2026_07: M,
        tier_2026_08: M,
        statement: "An implementation MUST emit `agent/created` for an agent exactly once, before any other live `agent/*` event about that agent, and MUST attribute its live events to its agent (under `mirrorless run`, the case's `agent`).",
        rationale: "Hosts and plugins set up their per-agent state (views, meters, subscriptions) on `agent/created`; an agent that never announces itself, or announces itself twice, is tracked wrongly or not at all.",
        enforcement: LIVE_AND_DRIVER,
    },
    Requirement {
        id: "LIVE-5",
        area: Area::Live,
        title: "`agent/session-start` comes once, before the first turn",
        check_blind_spot: None,
        tier_2026_07: M,
        tier_2026_08: M,
        statement: "Under 2026-08 an agent MUST emit `agent/session-start` once, before its first `agent/status`, with `source` one of `startup`, `resume`, `clear`, `compact`. Under 2026-07 an agent MAY omit the event (it arrived part-way through that era); an agent that emits it MUST emit it under the same rules.",
        rationale: "Plugins that prime a session (context files, memory, greeting hooks) run on `agent/session-start`, and `source` tells a fresh start from a resume or a compaction; a loop that skips it or sends it mid-run primes too late or twice.",
        enforcement: LIVE_AND_DRIVER,
    },
    Requirement {
        id: "LIVE-6",
        area: Area::Live,
        title: "`agent/status` is `running` during a turn and `idle` after it",
        check_blind_spot: None,
        tier_2026_07: M,
        tier_2026_08: M,
        statement: "The status MUST be `running` when a turn starts (an `agent/status running` emitted before its `turn/start`, unless it is a 2026-07 idle injection, which changes no status), MUST NOT become `idle` while a turn is open, and MUST be `idle` again after the last turn ends unless the agent was disposed. An agent starts idle, so its first status is never `idle`. Back-to-back turns may stay `running` between them, as upstream does, and a failed 2026-07 turn and the turn its leftover steering starts MUST (upstream's `runLoop` goes idle only when nothing is queued); a disposed agent may go straight to `agent/disposed` (upstream's 2026-08 loop sets `idle` first, the reference adapters do not; both are accepted).",
        rationale: "Hosts and SDKs end a run, enable input and flush views on the idle status, and show progress on `running`: a loop that never reports `running`, or goes idle mid-turn, ends runs early or never. A trace alone (`mirrorless check --live`) shows the first status, and the timing against the turns when it records the session's events as upstream's recorder does (`session/event {seq, type}`; a 2026-07 `turn/start` recorded without its trigger is not judged, since it may be an idle injection); `mirrorless run` checks the timing against the durable log itself.",
        enforcement: LIVE_AND_DRIVER,
    },
    Requirement {
        id: "LIVE-7",
        area: Area::Live,
        title: "A disposed agent emits `agent/disposed`, and then nothing",
        check_blind_spot: None,
        tier_2026_07: M,
        tier_2026_08: M,
        statement: "When an agent is disposed (the user disposes of it while idle, or a turn ends because it was disposed) it MUST emit `agent/disposed`; under 2026-07 the status `disposed` comes right before it. After `agent/disposed` no live `agent/*` event about that agent may follow.",
        rationale: "Hosts release the agent's resources and subscriptions on `agent/disposed`; without it they leak, and an event after it reaches listeners that were already torn down. A trace alone shows an event after `agent/disposed` and a 2026-07 status `disposed` left without it; that a dispose owed it needs the log (a turn that ended disposed) or the script (a `dispose` input), which `mirrorless run` has.",
        enforcement: LIVE_AND_DRIVER,
    },
    Requirement {
        id: "LIVE-8",
        area: Area::Live,
        title: "A failed turn emits `agent/error`, once",
        check_blind_spot: None,
        tier_2026_07: M,
        tier_2026_08: M,
        statement: "A turn that ends with reason `error` MUST emit an `agent/error` while it is open (after its `turn/start`, before its `turn/end`); a failed turn MUST NOT be reported twice.",
        rationale: "`agent/error` is the one live signal that a turn failed: UIs show the failure and plugins alert on it. A loop that records the failure only in the log fails silently for them; one that reports it twice raises two alarms for one failure. A trace alone shows a turn reported twice (two `agent/error`s for one turn without a status change between); a failed turn without one needs the log's `turn/end`, which `mirrorless run` has. Upstream's 2026-07 loop also emits `agent/error` when the `session/flush` after a turn fails; the harness never fails a flush, and a recorded 2026-07 trace in which a failed turn's flush failed too would be flagged (no such recording exists).",
        enforcement: LIVE_AND_DRIVER,
    },
    Requirement {
        id: "LIVE-9",
        area: Area::Live,
        title: "No live event repeats the durable event next to it",
        check_blind_spot: None,
        tier_2026_07: SH,
        tier_2026_08: SH,
        statement: "A live event outside the profile's vocabulary, under any name, SHOULD NOT repeat the fact of a durable event appended next to it: since the last live event of the vocabulary before it (`session/event` aside), or right after it. The fact of the durable twin of a removed mirror is the fields the mirror passed (`assistant/chunk`: `turn`, `step`, `chunk`; `steering/message`: `turn`, `content`, `source`, 2026-08 `user/message`: `content`, `source`; `turn/start`: `turn`; `turn/end`: `turn`, `reason`; `step/start` and `step/end`: `turn`, `step`); of any other durable event, its whole `data`. A payload repeats it when an object in it has every field of the fact under the same name with an equal value (equal as JSON: numbers by value, keys in any order), or an array in it holds the mirror's arguments in order; when the fact holds only numbers and strings, the payload must also be nothing more than that object or array (through wrappers of one key or one element; other keys only as fields of the durable `data` with the same value; an array's one extra element only the agent before the arguments).",
        rationale: "A loop that renamed `agent/stream-chunk` to `agent/chunk` (or to `ui/chunk`, outside `agent/`, where LIVE-2 says nothing) keeps the very duplication the six removals were about: two sources of truth for one fact, which drift when a listener throws or one of them changes. The name no longer says so; the payload does: it is the durable event's fact, fired next to its append. A fact of numbers alone (a turn, a step) is the whole payload of a boundary mirror but also a detail of legitimate events (`agent/status` naming its turn, `agent/error {turn, step, error}`), so it counts only as the whole payload. Events of the vocabulary are not compared: their payloads are defined there (`agent/inbox/claimed` carries the message a `user/message` then records; `session/event` is the durable event itself), and upstream's loops fire none outside it but the mirrors (era M at its eight migration commits, the published 2026-08 package); era M with its mirrors renamed is reported once per mirror, naming its twin. \"Next to it\" is where mirrors fire: upstream fired each after its append, not always right after (era M's `agent/turn-start` followed `turn/start` and the prompt's `user/message`), and a port may fire first; a live event of the vocabulary between them means the loop said something else in between. Between two appends with the same fact (`step/start` and `step/end` of one step), the warning names the one right before the event, else the one right after it. A trace alone shows it when its `session/event` records carry the event's `data`; `mirrorless run` compares every emit with the log.",
        enforcement: LIVE_AND_DRIVER,
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocab::mirrors::REMOVED_MIRRORS;

    /// A blind spot of `check` is printed with `check`'s line, so only a requirement `check`
    /// enforces may have one, and it must say what `run` sees instead.
    #[test]
    fn check_blind_spots_belong_to_log_rules_that_run_also_checks() {
        for r in REQUIREMENTS {
            if let Some(blind) = r.check_blind_spot {
                assert!(r.enforced_by(Log) && r.enforced_by(Driver), "{}", r.id);
                assert!(blind.contains("`mirrorless run`"), "{}: {blind}", r.id);
            }
        }
        let msg_5 = REQUIREMENTS.iter().find(|r| r.id == "MSG-5");
        assert!(
            msg_5
                .and_then(|r| r.check_blind_spot)
                .is_some_and(|b| b.contains("`interrupted` message")),
            "MSG-5 names the missing interrupted message check cannot see"
        );
    }

    #[test]
    fn ids_are_unique_and_prefixed_by_area() {
        for (i, r) in REQUIREMENTS.iter().enumerate() {
            assert!(
                REQUIREMENTS[i + 1..].iter().all(|o| o.id != r.id),
                "{} twice",
                r.id
            );
            let prefix = r.id.split('-').next().unwrap_or_default();
            let expected = match r.area {
                Area::Log => "LOG",
                Area::Seq => "SEQ",
                Area::Surface => "SURF",
                Area::Turn => "TURN",
                Area::Step => "STEP",
                Area::Chunk => "CHUNK",
                Area::Message => "MSG",
                Area::Tool => "TOOL",
                Area::Steering => "STEER",
                Area::Mirror => "MIRROR",
                Area::Live => "LIVE",
            };
            assert_eq!(prefix, expected, "{}", r.id);
            assert!(
                r.tier_2026_07.is_some() || r.tier_2026_08.is_some(),
                "{} applies nowhere",
                r.id
            );
            assert!(!r.enforcement.is_empty(), "{} is enforced nowhere", r.id);
        }
    }

    #[test]
    fn every_removed_mirror_has_its_requirement() {
        for m in REMOVED_MIRRORS {
            let r = requirement(m.requirement).expect("registered");
            assert_eq!(r.area, Area::Mirror);
            assert!(r.statement.contains(m.name));
        }
    }
}
