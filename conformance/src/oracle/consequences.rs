//! Which findings of a case are judged on their own, and which may be the consequences of
//! another finding (and so cannot judge their requirement in that case).
//!
//! Every requirement is judged on every case. A finding counts against its requirement unless
//! it is a known consequence of another finding in the same turn: a chunk a loop drops from
//! the durable log (CHUNK-1) also leaves the message's provenance (MSG-1) and assembly (MSG-3)
//! without it, although the loop assembled the message correctly from what it received. Such a
//! finding *masks* its requirement in that case: the requirement is not judged there, neither
//! passed nor failed, and the report says by which finding ([`Verdict::masked_by`]).
//!
//! The relation is explicit ([`CONSEQUENCES`], each pair with the reason) and scoped: a cause
//! masks only findings of the same turn of the durable log (or of no position), so that an
//! early fault — a turn trigger in the wrong shape at log #0 — hides nothing else in the case;
//! only when the log's turns are not the script's (a turn added or lost, so that later turns
//! cannot be compared with theirs) does it mask its consequences in the turns after it.
//! Requirements that are no effect in the table (the shape of an event, a field present, a
//! removed mirror) are always judged.

use super::Verdict;
use super::finding::Finding;
use crate::driver::{Exchange, Observation};
use crate::scenario::Case;
use crate::vocab::durable::SessionEvent;

/// One known consequence: a finding of `cause` may bring a finding of `effect` in the same
/// turn, for the reason `why`, without the loop breaking `effect` itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Consequence {
    /// The requirement whose violation brings the other finding.
    pub cause: &'static str,
    /// The requirement found violated as a consequence.
    pub effect: &'static str,
    /// Why a violation of `cause` shows as one of `effect`.
    pub why: &'static str,
    /// Whether the effect may show in any later turn of the case, not only in the cause's.
    pub later_turns: bool,
}

const fn c(cause: &'static str, effect: &'static str, why: &'static str) -> Consequence {
    Consequence {
        cause,
        effect,
        why,
        later_turns: false,
    }
}

/// A consequence that may show in the turns after the cause's too.
const fn c_later(cause: &'static str, effect: &'static str, why: &'static str) -> Consequence {
    Consequence {
        cause,
        effect,
        why,
        later_turns: true,
    }
}

/// Every known consequence. A pair is listed only when a loop that breaks `cause` alone shows
/// findings of `effect` (the broken fixtures prove each one: `tests/stdio_broken.rs`,
/// `conformance/tests/driver_mutants.rs` fail exactly their own requirement).
pub const CONSEQUENCES: &[Consequence] = &[
    c(
        "CHUNK-1",
        "MSG-1",
        "the message cites the chunks it was assembled from, and those are not the recorded ones",
    ),
    c(
        "CHUNK-1",
        "MSG-2",
        "the message's provenance names chunks that are not the ones recorded",
    ),
    c(
        "CHUNK-1",
        "MSG-3",
        "the message is assembled from the delivered chunks, which the log does not hold",
    ),
    c(
        "CHUNK-1",
        "MSG-5",
        "a chunk recorded twice or not at all changes what the interrupted message holds",
    ),
    c(
        "CHUNK-1",
        "TOOL-4",
        "chunks of a failed attempt recorded again are assembled into the message, and the loop runs the tool calls that message holds, not the model's",
    ),
    c(
        "CHUNK-1",
        "TURN-7",
        "a finish chunk recorded twice or rewritten changes the reason the turn ends with",
    ),
    c(
        "CHUNK-3",
        "CHUNK-1",
        "the throw not recorded leaves the chunks after it out of place",
    ),
    c(
        "CHUNK-3",
        "MSG-1",
        "the message cites a failure chunk that was never recorded",
    ),
    c(
        "CHUNK-3",
        "MSG-2",
        "the message's provenance cannot name the unrecorded failure",
    ),
    c(
        "CHUNK-3",
        "MSG-3",
        "the message is assembled without the failure chunk",
    ),
    c(
        "CHUNK-5",
        "MSG-5",
        "the chunk recorded after the cancel changes what the interrupted message holds",
    ),
    c_later(
        "CHUNK-5",
        "MSG-1",
        "the message does not cite the chunk recorded after the cancel, which it was not assembled from; a loop that records it behind its own bookkeeping cites shifted seqs in the turns after it too",
    ),
    c(
        "CHUNK-5",
        "MSG-3",
        "the chunk recorded after the cancel is not part of what the interrupted message holds",
    ),
    c(
        "CHUNK-5",
        "MSG-4",
        "a `usage` chunk recorded after the cancel is not the usage the message reports",
    ),
    c(
        "CHUNK-6",
        "MSG-7",
        "a user input recorded again before the retry is a second record of the prompt",
    ),
    c(
        "CHUNK-6",
        "STEER-2",
        "steering recorded between a failed call and its retry is recorded at the wrong point",
    ),
    c(
        "CHUNK-6",
        "TURN-8",
        "steering claimed by the retry leaves no call to follow the steered one",
    ),
    c(
        "LOG-2",
        "MSG-8",
        "a tool result whose source names the call under another key has no valid source",
    ),
    c(
        "STEER-2",
        "CHUNK-1",
        "steering recorded at the wrong point (or lost) moves the turn and step the chunks after it are compared in",
    ),
    c(
        "STEER-2",
        "CHUNK-4",
        "steering recorded at the wrong point (or lost) moves the step a failed stream's chunks are compared in",
    ),
    c(
        "STEER-2",
        "MSG-5",
        "steering recorded at the wrong point (or lost) moves the step an interrupted message is expected in",
    ),
    c(
        "STEER-2",
        "TURN-7",
        "steering lost or kept too long changes which turn the calls after it serve, and so how it ends",
    ),
    c(
        "STEER-2",
        "TURN-10",
        "2026-07 leftover steering is the prompt of a turn of its own: lost or moved, that turn has no starter or another one",
    ),
    c(
        "STEER-2",
        "TURN-11",
        "steering lost or kept too long changes which turn a failure is expected in",
    ),
    c(
        "STEP-1",
        "STEP-3",
        "a step numbered wrongly makes the chunks that name the step name another",
    ),
    c(
        "STEP-2",
        "STEP-1",
        "a step opened inside an open step repeats its number",
    ),
    c(
        "STEP-2",
        "TURN-4",
        "a step opened inside an open step leaves the first one unclosed",
    ),
    c(
        "SURF-2",
        "MSG-1",
        "a seq cited twice by a message is not exactly the seqs of its call's chunks",
    ),
    c(
        "TOOL-1",
        "STEER-1",
        "a tool result answering another call is recorded where that call's result was due, before the steering",
    ),
    c(
        "TOOL-1",
        "TOOL-2",
        "a tool result answering another call cites that call's event",
    ),
    c(
        "TOOL-1",
        "TOOL-3",
        "a tool result answering another call leaves its own call without a result in its step",
    ),
    c(
        "TOOL-4",
        "CHUNK-2",
        "a tool call dispatched while its arguments stream records events between the chunks of its message",
    ),
    c(
        "TOOL-4",
        "MSG-3",
        "a tool call dispatched from the wrong chunks is recorded with content the message does not hold",
    ),
    c(
        "TOOL-4",
        "MSG-6",
        "a tool call dispatched before its message is committed puts the message after its calls",
    ),
    c(
        "TURN-4",
        "TURN-2",
        "a turn never closed is still open at the next `turn/start`",
    ),
    c(
        "TURN-7",
        "STEP-2",
        "a model call after the turn ended records its step outside any turn",
    ),
    c(
        "TURN-8",
        "CHUNK-1",
        "a turn that stops before the call it owes leaves the script's later turns compared with other turns",
    ),
    c(
        "TURN-8",
        "CHUNK-4",
        "a turn that stops before the call it owes leaves the failed call the script plans after it expected where no request for it was made",
    ),
    c(
        "TURN-8",
        "STEER-2",
        "the steering of a call that was never followed is recorded where no request follows it",
    ),
    c(
        "TURN-10",
        "CHUNK-1",
        "a turn nothing started takes the turn ordinal the script's next turn is compared at",
    ),
    c(
        "TURN-10",
        "CHUNK-4",
        "a turn nothing started takes the turn ordinal the script's next turn is compared at",
    ),
    c(
        "TURN-10",
        "MSG-5",
        "a turn nothing started takes the turn ordinal the script's next turn is compared at",
    ),
    c(
        "TURN-10",
        "STEER-2",
        "a turn nothing started takes the turn ordinal the script's next turn is compared at",
    ),
    c(
        "TURN-10",
        "TURN-7",
        "a turn nothing started ends with a reason no turn of the script has",
    ),
    c(
        "TURN-10",
        "TURN-11",
        "a turn nothing started takes the turn ordinal a failure is expected in",
    ),
];

/// The consequence of `cause` that `effect` is, if any.
pub fn consequence(cause: &str, effect: &str) -> Option<&'static Consequence> {
    CONSEQUENCES
        .iter()
        .find(|c| c.cause == cause && c.effect == effect)
}

/// A finding that does not count against its requirement in its case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Masking {
    /// The index of the finding in [`Verdict::findings`].
    pub finding: usize,
    /// The requirement of the finding it may be a consequence of (the root cause, when that
    /// finding is itself masked).
    pub by: &'static str,
}

/// Whether the case stayed on its script, so that each of its turns can be compared with the
/// script's turn of the same ordinal: the log has the planned number of turns and the
/// implementation requested no model call the script does not have.
pub(super) fn on_script(case: &Case, obs: &Observation) -> bool {
    let turns = obs.log.iter().filter(|e| e.kind == "turn/start").count();
    turns == case.script.plan(case.profile).len()
        && !obs
            .transcript
            .iter()
            .any(|x| matches!(x, Exchange::ModelRequest { call: None, .. }))
}

/// The turn a log position lies in: how many `turn/start` events the log holds up to it.
fn turn_at(turn_starts: &[u64], position: u64) -> usize {
    turn_starts.partition_point(|s| *s <= position)
}

/// The findings of a verdict (in attribution order) that are consequences of an earlier one.
/// A finding is masked by an earlier finding of its case when the pair is a known
/// [`Consequence`] and it lies in the same turn of `log` or at the `turn/start` after it (a
/// finding with no position lies in every turn; a consequence marked `later_turns`, in the
/// turns after the cause's too). When the case went off its script
/// (`on_script` false, see [`on_script`]: a turn added, lost or merged, a model call the script
/// does not have), the turns after the cause cannot be compared with the script's turn for
/// turn, so the cause masks its consequences in every later turn too. A finding masked by a
/// masked one is masked by that one's cause.
pub(super) fn masked(findings: &[Finding], log: &[SessionEvent], on_script: bool) -> Vec<Masking> {
    let turn_starts: Vec<u64> = log
        .iter()
        .enumerate()
        .filter(|(_, e)| e.kind == "turn/start")
        .map(|(i, _)| i as u64)
        .collect();
    let in_scope = |cause: &Finding, effect: &Finding, later_turns: bool| match (
        cause.position,
        effect.position,
    ) {
        (Some(c), Some(e)) => {
            let boundary = turn_starts.binary_search(&e).is_ok();
            let (c, e) = (turn_at(&turn_starts, c), turn_at(&turn_starts, e));
            // The `turn/start` that ends the cause's turn shows what that turn left undone
            // (a turn never closed is found open there).
            c == e || (boundary && e == c + 1) || ((later_turns || !on_script) && e > c)
        }
        _ => true,
    };
    let mut out: Vec<Masking> = Vec::new();
    for (k, f) in findings.iter().enumerate() {
        let cause = findings[..k].iter().enumerate().find(|(_, g)| {
            g.requirement != f.requirement
                && consequence(g.requirement, f.requirement)
                    .is_some_and(|c| in_scope(g, f, c.later_turns))
        });
        if let Some((g, cause)) = cause {
            let by = out
                .iter()
                .find(|m| m.finding == g)
                .map_or(cause.requirement, |m| m.by);
            out.push(Masking { finding: k, by });
        }
    }
    out
}

impl Masking {
    /// In `masked`, the requirement whose finding masks finding `index`, if any.
    pub fn of(masked: &[Masking], index: usize) -> Option<&'static str> {
        masked.iter().find(|m| m.finding == index).map(|m| m.by)
    }
}

impl Verdict {
    /// The requirement whose finding masks finding `index` of this verdict, if it is masked.
    pub fn masked_by(&self, index: usize) -> Option<&'static str> {
        Masking::of(&self.masked, index)
    }

    /// The findings that count against their requirement: every finding but the masked ones.
    pub fn counted(&self) -> impl Iterator<Item = &Finding> {
        self.findings
            .iter()
            .enumerate()
            .filter(|(k, _)| self.masked_by(*k).is_none())
            .map(|(_, f)| f)
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::oracle::Origin;
    use crate::registry;

    /// An error finding of `requirement` at log `position`, by the oracle.
    pub(in crate::oracle) fn finding(requirement: &'static str, position: u64) -> Finding {
        Finding {
            requirement,
            error: true,
            position: Some(position),
            message: String::new(),
            expected: Vec::new(),
            observed: Vec::new(),
            origin: Origin::Oracle,
        }
    }

    fn log(kinds: &[&str]) -> Vec<SessionEvent> {
        kinds
            .iter()
            .map(|k| serde_json::from_value(serde_json::json!({"type": k})).expect("an event"))
            .collect()
    }

    #[test]
    fn every_consequence_names_two_requirements_and_none_is_its_own_cause() {
        for c in CONSEQUENCES {
            assert!(registry::requirement(c.cause).is_some(), "{c:?}");
            assert!(registry::requirement(c.effect).is_some(), "{c:?}");
            assert_ne!(c.cause, c.effect);
            assert!(!c.why.is_empty());
        }
    }

    /// A pair listed both ways (STEER-2 and TURN-10) never hides both findings: only an earlier
    /// finding masks a later one, so the first finding of a case always counts.
    #[test]
    fn the_first_finding_always_counts() {
        let log = log(&["turn/start", "user/message", "turn/end"]);
        for (a, b) in [("STEER-2", "TURN-10"), ("TURN-10", "STEER-2")] {
            let findings = [finding(a, 1), finding(b, 1)];
            assert_eq!(
                masked(&findings, &log, true),
                vec![Masking { finding: 1, by: a }]
            );
        }
    }

    /// Issue #28: a cause masks its consequences in its own turn (and at the `turn/start` after
    /// it), never in a later turn of a case that stayed on its script.
    #[test]
    fn a_cause_masks_only_within_its_turn() {
        let log = log(&[
            "turn/start",
            "assistant/chunk",
            "assistant/message",
            "turn/end",
            "turn/start",
            "assistant/chunk",
            "assistant/message",
            "turn/end",
        ]);
        let findings = [
            finding("CHUNK-1", 1),
            finding("MSG-3", 2),
            finding("MSG-3", 6),
            finding("SURF-1", 2),
        ];
        let masked = masked(&findings, &log, true);
        assert_eq!(
            masked,
            vec![Masking {
                finding: 1,
                by: "CHUNK-1"
            }]
        );
        // Off its script, the turns after the cause cannot be compared: masked there too.
        let masked_off = super::masked(&findings, &log, false);
        assert_eq!(masked_off.len(), 2, "{masked_off:?}");
        // A turn never closed is found open at the next `turn/start`.
        let at_boundary = [finding("TURN-4", 0), finding("TURN-2", 4)];
        assert_eq!(super::masked(&at_boundary, &log, true).len(), 1);
    }
}
