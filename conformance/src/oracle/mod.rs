//! The oracle: what a script implies, compared with what the implementation recorded.
//!
//! From the script alone the oracle computes the exact sequence of durable chunks (one per
//! delivered chunk, in order, with its turn and step; none for the chunk at which a cancel is
//! observed), where each steering message must be recorded, and how each turn must end. It
//! checks what only a known script can check exactly:
//!
//! | requirement | what the oracle compares |
//! |---|---|
//! | CHUNK-1 | the recorded chunk sequence against the delivered one |
//! | CHUNK-3 | 2026-08: an adapter throw recorded as a terminal `finish {error}` |
//! | CHUNK-4 | the chunks of failed and interrupted streams are kept |
//! | CHUNK-5 | nothing recorded at or after the cancel point |
//! | STEER-2 | every steering message recorded exactly once, before the next request |
//! | TURN-7 | every turn ends with the reason its script implies |
//! | TURN-8 | a call that dispatched tool calls or was steered is followed by the next one |
//! | MIRROR-* | no removed mirror in the live trace |
//!
//! Everything a log alone can show (numbering, nesting, provenance, assembly, tool pairing,
//! live status) is left to the log checker ([`structural`]), so that one rule has one
//! implementation. The oracle compares turns and steps by ordinal (the n-th `turn/start`, the
//! n-th `step/start` in it), so wrong numbering is the checker's finding, not a divergence.
//!
//! [`evaluate`] merges both and attributes a failing case to one requirement: the oracle's
//! findings (which know the script, so they are the cause) before the checker's (often their
//! consequences); within each, the earliest log position; at one position, the most specific
//! requirement ([`SPECIFICITY`]).

pub mod structural;

use crate::driver::Observation;
use crate::registry::{self, Enforcement, REQUIREMENTS, Tier};
use crate::scenario::{Action, CallEnding, Case, InterruptKind, tool_calls_of};
use crate::vocab::Profile;
use crate::vocab::chunk::{ContentBlock, FinishReason, StreamChunk};
use crate::vocab::durable::{AssistantChunkData, SessionEvent};
use crate::vocab::live::{LiveStatus, classify};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeSet;

/// Who found a finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Origin {
    /// The oracle, against the script.
    Oracle,
    /// The log checker, on the recorded log or live trace.
    Checker,
    /// The implementation crashed.
    Crash,
}

/// One divergence between what the script implies and what the implementation did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// The requirement violated (`CRASH` for an implementation crash with no other finding).
    pub requirement: &'static str,
    /// Whether the requirement is a MUST here (a SHOULD finding is a warning).
    pub error: bool,
    /// The index in the durable log where the divergence shows (for a live event, the log
    /// length when it was emitted; for something missing, where it should have been).
    pub position: Option<u64>,
    /// What is wrong, in one sentence.
    pub message: String,
    /// The expected side of the window around the divergence.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub expected: Vec<String>,
    /// The observed side of the window.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub observed: Vec<String>,
    /// Who found it.
    pub origin: Origin,
}

/// The requirement a crash is reported under when nothing else diverged.
pub const CRASH: &str = "CRASH";

/// Tie-break order among findings at the same log position: the most specific first. A
/// requirement not listed ranks after all listed ones, in registry order.
pub const SPECIFICITY: &[&str] = &[
    "CHUNK-5", "CHUNK-4", "TURN-8", "STEER-2", "CHUNK-3", "CHUNK-1", "MIRROR-1", "MIRROR-2",
    "MIRROR-3", "MIRROR-4", "MIRROR-5", "MIRROR-6", "TURN-7",
];

fn rank(requirement: &str) -> usize {
    SPECIFICITY
        .iter()
        .position(|r| *r == requirement)
        .or_else(|| {
            REQUIREMENTS
                .iter()
                .position(|r| r.id == requirement)
                .map(|p| p + SPECIFICITY.len())
        })
        .unwrap_or(usize::MAX)
}

/// The findings of one case, in attribution order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// Errors first, each group by position then specificity.
    pub findings: Vec<Finding>,
}

impl Verdict {
    /// The finding the case is attributed to: the first error, if any.
    pub fn primary(&self) -> Option<&Finding> {
        self.findings.iter().find(|f| f.error)
    }

    /// Whether the case conforms (no error).
    pub fn passed(&self) -> bool {
        self.primary().is_none()
    }
}

fn is_error(profile: Profile, requirement: &str) -> bool {
    registry::requirement(requirement)
        .and_then(|r| r.tier(profile))
        .is_none_or(|t| t == Tier::Must)
}

/// Evaluates one case: the oracle's findings and the checker's, attributed.
pub fn evaluate(case: &Case, obs: &Observation) -> Verdict {
    let mut findings = oracle_findings(case, obs);
    let covered: BTreeSet<(&str, Option<u64>)> = findings
        .iter()
        .map(|f| (f.requirement, f.position))
        .collect();
    for f in structural::findings(case.profile, obs) {
        if !covered.contains(&(f.requirement, f.position)) {
            findings.push(f);
        }
    }
    for f in &mut findings {
        f.error = f.error && is_error(case.profile, f.requirement);
    }
    if let Some(crash) = &obs.crash {
        findings.push(Finding {
            requirement: CRASH,
            error: true,
            position: Some(obs.log.len() as u64),
            message: crash.clone(),
            expected: Vec::new(),
            observed: Vec::new(),
            origin: Origin::Crash,
        });
    }
    // The oracle knows the script, so its findings are the root cause; the checker's,
    // computed from the log alone, come next (a dropped chunk also breaks provenance).
    findings.sort_by_key(|f| {
        (
            !f.error,
            f.origin != Origin::Oracle,
            f.position.unwrap_or(u64::MAX),
            rank(f.requirement),
        )
    });
    Verdict { findings }
}

/// Only the oracle's findings (no checker), unsorted.
pub fn oracle_findings(case: &Case, obs: &Observation) -> Vec<Finding> {
    let mut out = Vec::new();
    let ix = LogIndex::of(&obs.log);
    let (stops, skipped) = check_continuation(case, obs, &ix);
    out.extend(stops);
    let expected = Expected::of(case, &skipped);
    if let Some(f) = compare_chunks(case, &expected, &obs.log, &ix) {
        out.push(f);
    }
    out.extend(check_steering(case, &expected, &obs.log, &ix));
    out.extend(check_interrupted(case, &skipped, &obs.log, &ix));
    out.extend(check_unscripted_calls(case, obs));
    out.extend(check_reasons(&expected, &obs.log));
    out.extend(check_mirrors(obs));
    out
}

/// What a delivered chunk is, for attribution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ChunkRole {
    /// A chunk of a call that succeeded.
    Normal,
    /// A chunk of a failed or interrupted call, which must be kept (CHUNK-4).
    Kept,
    /// 2026-08: the `finish {error}` chunk an adapter throw is recorded as (CHUNK-3).
    Synthetic,
}

#[derive(Debug, Clone)]
struct ExpectedChunk {
    turn: u64,
    step: u64,
    chunk: StreamChunk,
    role: ChunkRole,
    /// Index of the call in script order.
    call: usize,
    /// Index of the chunk within its call.
    index: usize,
}

#[derive(Debug, Clone)]
struct ExpectedSteer {
    turn: u64,
    step: u64,
    text: String,
}

#[derive(Debug, Clone)]
struct ExpectedTurn {
    turn: u64,
    reason: &'static str,
    why: &'static str,
}

/// Everything the oracle derives from a script.
#[derive(Debug, Clone, Default)]
struct Expected {
    chunks: Vec<ExpectedChunk>,
    /// The chunk at which each interrupt is observed, which must not be recorded: (turn,
    /// step, chunk), with the index in `chunks` where it would have appeared.
    forbidden: Vec<(usize, u64, u64, StreamChunk)>,
    steers: Vec<ExpectedSteer>,
    turns: Vec<ExpectedTurn>,
    /// The script-order indices of the interrupted calls.
    interrupted_calls: BTreeSet<usize>,
}

/// The model calls, as (action, call index), that the implementation never requested because
/// it ended their turn early (TURN-8's). Nothing of theirs was delivered, so nothing of theirs
/// is expected.
type Skipped = BTreeSet<(usize, usize)>;

impl Expected {
    fn of(case: &Case, skipped: &Skipped) -> Expected {
        let mut e = Expected::default();
        let plan = case.script.plan(case.profile);
        let mut call_number = 0;
        for turn in &plan {
            let calls = match case.script.actions.get(turn.action) {
                Some(Action::Prompt { calls, .. }) => calls.as_slice(),
                _ => &[],
            };
            let requested = (0..calls.len())
                .take_while(|c| !skipped.contains(&(turn.action, *c)))
                .count();
            // A turn ended early ends with the reason of the calls it ran: each of them
            // continued the turn, so only a max-tokens among them matters.
            let reason = if requested < calls.len() {
                if calls[..requested]
                    .iter()
                    .any(|c| c.ending() == CallEnding::MaxTokens)
                {
                    "max-tokens"
                } else {
                    "completed"
                }
            } else {
                turn.reason
            };
            let why = match reason {
                "aborted" => "the user cancelled (or disposed) while the model streamed",
                "disposed" => "the user disposed of the agent while the model streamed",
                "error" => "the turn's last model call failed and was not retried",
                "max-tokens" => "a model call of the turn hit max-tokens",
                _ if turn.injection => "an idle injection turn completes",
                _ => "every model call of the turn succeeded",
            };
            e.turns.push(ExpectedTurn {
                turn: turn.turn,
                reason,
                why,
            });
            for (call, step) in calls.iter().zip(&turn.steps_of_calls).take(requested) {
                let ending = call.ending();
                let role = match ending {
                    CallEnding::Failed | CallEnding::Interrupted(_) => ChunkRole::Kept,
                    _ => ChunkRole::Normal,
                };
                let recorded = match ending {
                    CallEnding::Interrupted(i) => i.after + 1,
                    _ => call.chunks.len(),
                };
                for (index, chunk) in call.chunks.iter().take(recorded).enumerate() {
                    e.chunks.push(ExpectedChunk {
                        turn: turn.turn,
                        step: *step,
                        chunk: chunk.clone(),
                        role,
                        call: call_number,
                        index,
                    });
                }
                if let CallEnding::Interrupted(_) = ending {
                    e.interrupted_calls.insert(call_number);
                    // Only the chunk at which the cancel is observed is ever delivered; a
                    // later one recorded would be one the model never delivered (CHUNK-1).
                    if let Some(chunk) = call.chunks.get(recorded) {
                        e.forbidden
                            .push((e.chunks.len(), turn.turn, *step, chunk.clone()));
                    }
                }
                if let Some(failure) = &call.throw
                    && case.profile == Profile::V2026_08
                    && !matches!(ending, CallEnding::Interrupted(_))
                {
                    e.chunks.push(ExpectedChunk {
                        turn: turn.turn,
                        step: *step,
                        chunk: StreamChunk::Finish {
                            reason: FinishReason::Error {
                                message: None,
                                code: None,
                                failure: Some(failure.clone()),
                            },
                            replay_state: None,
                        },
                        role: ChunkRole::Synthetic,
                        call: call_number,
                        index: call.chunks.len(),
                    });
                }
                for s in &call.steer {
                    e.steers.push(ExpectedSteer {
                        turn: turn.turn,
                        step: *step,
                        text: s.text.clone(),
                    });
                }
                call_number += 1;
            }
            // The skipped calls keep their script-order numbers, so later calls are named right.
            call_number += calls.len() - requested;
        }
        e
    }
}

/// Where each event of a log sits: the ordinal of the open turn and step (the n-th
/// `turn/start`, the n-th `step/start` since it). The oracle compares by ordinals, so that a
/// wrongly *numbered* turn or step is the checker's finding (TURN-1, STEP-1, STEP-3), not a
/// chunk divergence.
struct LogIndex {
    ords: Vec<(u64, u64)>,
    step_starts: Vec<((u64, u64), usize)>,
    step_ends: Vec<((u64, u64), usize)>,
    turn_ends: Vec<(u64, usize)>,
}

impl LogIndex {
    fn of(log: &[SessionEvent]) -> LogIndex {
        let (mut t, mut s) = (0, 0);
        let mut ix = LogIndex {
            ords: Vec::with_capacity(log.len()),
            step_starts: Vec::new(),
            step_ends: Vec::new(),
            turn_ends: Vec::new(),
        };
        for (i, e) in log.iter().enumerate() {
            match e.kind.as_str() {
                "turn/start" => {
                    t += 1;
                    s = 0;
                }
                "step/start" => {
                    s += 1;
                    ix.step_starts.push(((t, s), i));
                }
                "step/end" => ix.step_ends.push(((t, s), i)),
                "turn/end" => ix.turn_ends.push((t, i)),
                _ => {}
            }
            ix.ords.push((t, s));
        }
        ix
    }

    fn step_start(&self, turn: u64, step: u64) -> Option<usize> {
        self.step_starts
            .iter()
            .find(|(k, _)| *k == (turn, step))
            .map(|(_, i)| *i)
    }

    fn step_end(&self, turn: u64, step: u64) -> Option<usize> {
        self.step_ends
            .iter()
            .find(|(k, _)| *k == (turn, step))
            .map(|(_, i)| *i)
    }

    fn turn_end(&self, turn: u64) -> Option<usize> {
        self.turn_ends
            .iter()
            .find(|(k, _)| *k == turn)
            .map(|(_, i)| *i)
    }

    /// The first event of `kind` in the ordinal step.
    fn first_in_step(
        &self,
        log: &[SessionEvent],
        kind: &str,
        turn: u64,
        step: u64,
    ) -> Option<usize> {
        let start = self.step_start(turn, step)?;
        (start..log.len()).find(|i| self.ords[*i] == (turn, step) && log[*i].kind == kind)
    }
}

/// A recorded chunk event.
#[derive(Debug, Clone)]
struct ObservedChunk {
    position: u64,
    /// The ordinal turn and step it was recorded in.
    turn: u64,
    step: u64,
    /// The turn and step it names.
    named: (u64, u64),
    chunk: StreamChunk,
}

fn observed_chunks(log: &[SessionEvent], ix: &LogIndex) -> Vec<ObservedChunk> {
    log.iter()
        .enumerate()
        .filter(|(_, e)| e.kind == "assistant/chunk")
        .filter_map(|(i, e)| {
            // A malformed chunk event is the checker's to report; it is skipped here.
            let d = AssistantChunkData::deserialize(&e.data).ok()?;
            let (turn, step) = ix.ords[i];
            Some(ObservedChunk {
                position: i as u64,
                turn,
                step,
                named: (d.turn, d.step),
                chunk: d.chunk,
            })
        })
        .collect()
}

/// A short human rendering of a chunk.
pub fn describe_chunk(chunk: &StreamChunk) -> String {
    let q = |s: &str| serde_json::to_string(s).unwrap_or_default();
    match chunk {
        StreamChunk::BlockStart { index, block_type } => {
            format!(
                "block-start[{index}] {}",
                serde_json::to_value(block_type)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default()
            )
        }
        StreamChunk::TextDelta { index, text } => format!("text-delta[{index}] {}", q(text)),
        StreamChunk::ReasoningDelta { index, text } => {
            format!("reasoning-delta[{index}] {}", q(text))
        }
        StreamChunk::ToolCallDelta {
            index,
            id,
            arguments_delta,
            ..
        } => format!("tool-call-delta[{index}] {id} {}", q(arguments_delta)),
        StreamChunk::BlockEnd { index, block } => match block {
            ContentBlock::Text { text, .. } => format!("block-end[{index}] text {}", q(text)),
            ContentBlock::Reasoning { text, .. } => {
                format!("block-end[{index}] reasoning {}", q(text))
            }
            ContentBlock::ToolCall { id, arguments, .. } => {
                format!("block-end[{index}] tool-call {id} {}", q(arguments))
            }
            other => format!("block-end[{index}] {:?}", other.block_type()),
        },
        StreamChunk::Usage { usage } => {
            format!(
                "usage in={} out={}",
                usage.input_tokens, usage.output_tokens
            )
        }
        StreamChunk::Finish { reason, .. } => format!("finish {}", reason.kind()),
    }
}

fn matches_at(exp: &[ExpectedChunk], i: usize, o: &ObservedChunk) -> bool {
    let e = &exp[i];
    (e.turn, e.step) == (o.turn, o.step)
        && match e.role {
            // The failure payload of a recorded throw is the runtime's to word, so any failed
            // `finish` stands for it — unless it is the next delivered chunk itself.
            ChunkRole::Synthetic => {
                e.chunk == o.chunk
                    || (matches!(&o.chunk, StreamChunk::Finish { reason, .. } if reason.is_failure())
                        && exp
                            .get(i + 1)
                            .is_none_or(|n| n.role == ChunkRole::Synthetic || n.chunk != o.chunk))
            }
            _ => e.chunk == o.chunk,
        }
}

fn window(
    expected: &[ExpectedChunk],
    i: usize,
    observed: &[ObservedChunk],
    j: usize,
) -> (Vec<String>, Vec<String>) {
    let lo_e = i.saturating_sub(2);
    let lo_o = j.saturating_sub(2);
    let exp = expected
        .iter()
        .enumerate()
        .skip(lo_e)
        .take(5)
        .map(|(k, c)| {
            format!(
                "{} {}/{} {}",
                if k == i { ">" } else { " " },
                c.turn,
                c.step,
                describe_chunk(&c.chunk)
            )
        })
        .collect();
    let obs = observed
        .iter()
        .enumerate()
        .skip(lo_o)
        .take(5)
        .map(|(k, c)| {
            format!(
                "{} #{} {}/{} {}",
                if k == j { ">" } else { " " },
                c.position,
                c.named.0,
                c.named.1,
                describe_chunk(&c.chunk)
            )
        })
        .collect();
    (exp, obs)
}

/// One step of the alignment of the delivered chunks with the recorded ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Edit {
    /// Expected chunk `i` was recorded as observed chunk `j`.
    Match(usize, usize),
    /// Expected chunk `i` is missing (before observed chunk `j`).
    Missing(usize, usize),
    /// Observed chunk `j` was recorded where expected chunk `i` would come next.
    Extra(usize, usize),
}

/// Aligns the expected with the observed chunks at minimal cost. Losing a chunk of a failed or
/// interrupted stream costs less than losing any other, so that when equal chunks repeat
/// (a retried call that starts like the failed one) the alignment explains a divergence by
/// the most specific fault.
fn align(exp: &[ExpectedChunk], obs: &[ObservedChunk]) -> Vec<Edit> {
    let (n, m) = (exp.len(), obs.len());
    let miss = |i: usize| {
        if exp[i].role == ChunkRole::Normal {
            2
        } else {
            1
        }
    };
    let width = m + 1;
    let mut dp = vec![0u32; (n + 1) * width];
    for i in (0..=n).rev() {
        for j in (0..=m).rev() {
            dp[i * width + j] = if i == n {
                2 * (m - j) as u32
            } else if j == m {
                miss(i) + dp[(i + 1) * width + j]
            } else {
                let mut best = (miss(i) + dp[(i + 1) * width + j]).min(2 + dp[i * width + j + 1]);
                if matches_at(exp, i, &obs[j]) {
                    best = best.min(dp[(i + 1) * width + j + 1]);
                }
                best
            };
        }
    }
    let mut edits = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < n || j < m {
        let here = dp[i * width + j];
        if i < n && j < m && matches_at(exp, i, &obs[j]) && here == dp[(i + 1) * width + j + 1] {
            edits.push(Edit::Match(i, j));
            i += 1;
            j += 1;
        } else if i < n && here == miss(i) + dp[(i + 1) * width + j] {
            edits.push(Edit::Missing(i, j));
            i += 1;
        } else {
            edits.push(Edit::Extra(i, j));
            j += 1;
        }
    }
    edits
}

/// Compares the recorded chunks with the delivered ones and reports the first divergence.
fn compare_chunks(
    case: &Case,
    expected: &Expected,
    log: &[SessionEvent],
    ix: &LogIndex,
) -> Option<Finding> {
    let exp = &expected.chunks;
    let obs = observed_chunks(log, ix);
    if exp.len() == obs.len() && (0..exp.len()).all(|k| matches_at(exp, k, &obs[k])) {
        return None;
    }
    let edits = align(exp, &obs);
    let first = edits.iter().position(|e| !matches!(e, Edit::Match(..)))?;
    let (i, j) = match edits[first] {
        Edit::Match(i, j) | Edit::Missing(i, j) | Edit::Extra(i, j) => (i, j),
    };
    let missing = |k: usize| {
        edits
            .iter()
            .any(|e| matches!(e, Edit::Missing(x, _) if *x == k))
    };
    // Where the divergence shows: at the observed chunk when it belongs to the expected
    // chunk's step; otherwise where the missing chunk should have been — right after the
    // previous recorded chunk of its step, or right after its step opened.
    let position = match (edits[first], exp.get(i), obs.get(j)) {
        (Edit::Extra(..), _, Some(o)) => o.position,
        (_, Some(e), o) if o.is_none_or(|o| (o.turn, o.step) != (e.turn, e.step)) => j
            .checked_sub(1)
            .map(|p| &obs[p])
            .filter(|prev| (prev.turn, prev.step) == (e.turn, e.step))
            .map(|prev| prev.position + 1)
            .or_else(|| ix.step_start(e.turn, e.step).map(|p| p as u64 + 1))
            .or(o.map(|o| o.position))
            .unwrap_or(log.len() as u64),
        (_, _, Some(o)) => o.position,
        (_, _, None) => j
            .checked_sub(1)
            .map_or(log.len() as u64, |p| obs[p].position + 1),
    };
    let (exp_w, obs_w) = window(exp, i, &obs, j);
    let finding = |requirement: &'static str, message: String| {
        Some(Finding {
            requirement,
            error: true,
            position: Some(position),
            message,
            expected: exp_w.clone(),
            observed: obs_w.clone(),
            origin: Origin::Oracle,
        })
    };
    match edits[first] {
        Edit::Extra(i, j) => {
            let o = &obs[j];
            if let Some((_, t, s, c)) = expected
                .forbidden
                .iter()
                .find(|(at, t, s, c)| *at == i && (*t, *s) == (o.turn, o.step) && *c == o.chunk)
            {
                let mut f = finding(
                    "CHUNK-5",
                    format!(
                        "turn {t} step {s}: `{}` was recorded although the cancel was observed at it: nothing at or after the cancel point may be appended",
                        describe_chunk(c)
                    ),
                );
                if let Some(f) = &mut f {
                    f.expected.push(format!(
                        "  (cancel observed at {}: nothing more is recorded)",
                        describe_chunk(c)
                    ));
                }
                return f;
            }
            let again = exp
                .iter()
                .any(|x| x.chunk == o.chunk && (x.turn, x.step) == (o.turn, o.step));
            let replaces = edits[first..]
                .iter()
                .take_while(|e| !matches!(e, Edit::Match(..)))
                .any(|e| matches!(e, Edit::Missing(..)));
            finding(
                "CHUNK-1",
                if replaces {
                    format!(
                        "turn {} step {}: recorded `{}`, which the model never delivered there: chunks must be recorded verbatim, never merged or split",
                        o.named.0,
                        o.named.1,
                        describe_chunk(&o.chunk)
                    )
                } else if again {
                    format!(
                        "`{}` was recorded again (turn {} step {}): each delivered chunk is recorded exactly once",
                        describe_chunk(&o.chunk),
                        o.named.0,
                        o.named.1
                    )
                } else {
                    format!(
                        "turn {} step {}: recorded `{}`, which the model never delivered there",
                        o.named.0,
                        o.named.1,
                        describe_chunk(&o.chunk)
                    )
                },
            )
        }
        Edit::Missing(i, _) => {
            let e = &exp[i];
            if e.role == ChunkRole::Synthetic {
                return finding(
                    "CHUNK-3",
                    format!(
                        "turn {} step {}: the model adapter threw; under {} the throw must be recorded as a terminal `finish {{error}}` chunk",
                        e.turn, e.step, case.profile
                    ),
                );
            }
            // CHUNK-4: everything from here to the end of a failed or cancelled stream is lost.
            let tail_lost = (i..exp.len())
                .take_while(|k| exp[*k].call == e.call)
                .all(|k| exp[k].role == ChunkRole::Synthetic || missing(k));
            // …and nothing was recorded in their place (that would be a rewrite: CHUNK-1).
            let replaced = edits[first..]
                .iter()
                .take_while(|x| !matches!(x, Edit::Match(..)))
                .any(|x| matches!(x, Edit::Extra(..)));
            // A lost tail of nothing but empty deltas is what merging them into the previous
            // delta looks like: that is CHUNK-1's.
            let only_empty_deltas = (i..exp.len())
                .take_while(|k| exp[*k].call == e.call)
                .filter(|k| missing(*k))
                .all(|k| match &exp[k].chunk {
                    StreamChunk::TextDelta { text, .. }
                    | StreamChunk::ReasoningDelta { text, .. } => text.is_empty(),
                    StreamChunk::ToolCallDelta {
                        arguments_delta, ..
                    } => arguments_delta.is_empty(),
                    _ => false,
                });
            if e.role == ChunkRole::Kept && tail_lost && !replaced && !only_empty_deltas {
                let lost = (i..exp.len())
                    .take_while(|k| exp[*k].call == e.call)
                    .filter(|k| missing(*k))
                    .count();
                return finding(
                    "CHUNK-4",
                    format!(
                        "turn {} step {}: the last {lost} chunk(s) a {} model call delivered were not kept, starting with chunk {} `{}`",
                        e.turn,
                        e.step,
                        if expected.interrupted_calls.contains(&e.call) {
                            "cancelled"
                        } else {
                            "failed"
                        },
                        e.index,
                        describe_chunk(&e.chunk)
                    ),
                );
            }
            finding(
                "CHUNK-1",
                format!(
                    "turn {} step {}: chunk {} `{}` of model call {} was delivered but not recorded",
                    e.turn,
                    e.step,
                    e.index,
                    describe_chunk(&e.chunk),
                    e.call + 1
                ),
            )
        }
        Edit::Match(..) => None,
    }
}

/// Whether `event` is a durable record of the steering message `text`, in either profile.
fn records_steer(event: &SessionEvent, text: &str) -> bool {
    matches!(
        event.kind.as_str(),
        "steering/message" | "user/message" | "context/message"
    ) && texts_of(event).contains(&text)
}

fn texts_of(event: &SessionEvent) -> Vec<&str> {
    let content = event
        .data
        .get("content")
        .or_else(|| event.data.get("message").and_then(|m| m.get("content")));
    content
        .and_then(Value::as_array)
        .map(|blocks| {
            blocks
                .iter()
                .filter_map(|b| b.get("text").and_then(Value::as_str))
                .collect()
        })
        .unwrap_or_default()
}

/// STEER-2: every steering message is recorded exactly once, as the profile's event, before
/// the model call that follows it.
fn check_steering(
    case: &Case,
    expected: &Expected,
    log: &[SessionEvent],
    ix: &LogIndex,
) -> Vec<Finding> {
    let mut out = Vec::new();
    for s in &expected.steers {
        let records: Vec<usize> = log
            .iter()
            .enumerate()
            .filter(|(_, e)| records_steer(e, &s.text))
            .map(|(i, _)| i)
            .collect();
        let next_request = ix.first_in_step(log, "assistant/chunk", s.turn, s.step + 1);
        let turn_end = ix.turn_end(s.turn);
        let finding = |position: usize, message: String| Finding {
            requirement: "STEER-2",
            error: true,
            position: Some(position as u64),
            message,
            expected: vec![format!(
                "{} {:?} in turn {}, before the first chunk of step {}",
                match case.profile {
                    Profile::V2026_07 => "steering/message",
                    Profile::V2026_08 => "user/message (first events of the next step)",
                },
                s.text,
                s.turn,
                s.step + 1
            )],
            observed: records
                .iter()
                .map(|i| format!("#{i} {} {:?}", log[*i].kind, texts_of(&log[*i])))
                .collect(),
            origin: Origin::Oracle,
        };
        let fallback = next_request.or(turn_end).unwrap_or(log.len());
        match records.as_slice() {
            [] => out.push(finding(
                fallback,
                format!(
                    "the steering message {:?} sent during turn {} step {} was never recorded durably",
                    s.text, s.turn, s.step
                ),
            )),
            [only] => {
                let e = &log[*only];
                let before_next = next_request.is_none_or(|n| *only < n);
                let (want, placed) = match case.profile {
                    // Where exactly inside the turn is STEER-1's to judge.
                    Profile::V2026_07 => (
                        "steering/message",
                        before_next && ix.ords[*only].0 == s.turn && turn_end.is_none_or(|t| *only < t),
                    ),
                    Profile::V2026_08 => {
                        let opened = ix.step_start(s.turn, s.step + 1);
                        (
                            "user/message",
                            before_next
                                && opened.is_some_and(|o| {
                                    *only > o && log[o + 1..*only].iter().all(|x| x.kind == "user/message")
                                }),
                        )
                    }
                };
                if e.kind != want {
                    out.push(finding(
                        *only,
                        format!(
                            "the steering message {:?} was recorded as `{}`; under {} it is a `{want}`",
                            s.text, e.kind, case.profile
                        ),
                    ));
                } else if !placed {
                    out.push(finding(
                        *only,
                        format!(
                            "the steering message {:?} (turn {} step {}) was recorded at #{only}, {}",
                            s.text,
                            s.turn,
                            s.step,
                            match case.profile {
                                Profile::V2026_07 => "outside its turn or after the next model call started",
                                Profile::V2026_08 => "not among the first events of the next step",
                            }
                        ),
                    ));
                }
            }
            [_, second, ..] => out.push(finding(
                *second,
                format!(
                    "the steering message {:?} was recorded {} times: each steer is recorded exactly once",
                    s.text,
                    records.len()
                ),
            )),
        }
    }
    out
}

/// MSG-5 against the script for interrupted calls: under 2026-07 a cancelled stream is not
/// finalized; under 2026-08 it is finalized as an `interrupted` message exactly when its
/// recorded prefix has non-whitespace text or reasoning.
fn check_interrupted(
    case: &Case,
    skipped: &Skipped,
    log: &[SessionEvent],
    ix: &LogIndex,
) -> Vec<Finding> {
    let mut out = Vec::new();
    for turn in case.script.plan(case.profile) {
        let Some(Action::Prompt { calls, .. }) = case.script.actions.get(turn.action) else {
            continue;
        };
        for (c, (call, step)) in calls.iter().zip(&turn.steps_of_calls).enumerate() {
            if skipped.contains(&(turn.action, c)) {
                continue;
            }
            let CallEnding::Interrupted(at) = call.ending() else {
                continue;
            };
            let Some(start) = ix.step_start(turn.turn, *step) else {
                continue;
            };
            let end = ix.step_end(turn.turn, *step).unwrap_or(log.len());
            let messages: Vec<usize> = (start..end)
                .filter(|i| log[*i].kind == "assistant/message")
                .collect();
            let interrupted: Vec<usize> = messages
                .iter()
                .copied()
                .filter(|i| log[*i].data.get("interrupted") == Some(&Value::Bool(true)))
                .collect();
            let want = case.profile == Profile::V2026_08
                && crate::scenario::coverage::has_non_whitespace_prefix(call, at.after);
            let finding = |position: usize, message: String| Finding {
                requirement: "MSG-5",
                error: true,
                position: Some(position as u64),
                message,
                expected: vec![if want {
                    "assistant/message {interrupted: true} with the non-whitespace prefix, before step/end".to_owned()
                } else {
                    "no assistant/message for the cancelled call".to_owned()
                }],
                observed: messages
                    .iter()
                    .map(|i| format!("#{i} assistant/message {}", log[*i].data))
                    .collect(),
                origin: Origin::Oracle,
            };
            match (want, messages.as_slice(), interrupted.is_empty()) {
                (true, _, true) => out.push(finding(
                    end,
                    format!(
                        "turn {} step {}: the cancelled stream had streamed non-whitespace text or reasoning, but no `interrupted` message finalizes it",
                        turn.turn, step
                    ),
                )),
                (false, [first, ..], _) => out.push(finding(
                    *first,
                    format!(
                        "turn {} step {}: a cancelled stream {} no `assistant/message`",
                        turn.turn,
                        step,
                        if case.profile == Profile::V2026_07 {
                            "is finalized by"
                        } else {
                            "that streamed no non-whitespace text or reasoning gets"
                        }
                    ),
                )),
                _ => {}
            }
        }
    }
    out
}

/// TURN-8 against the transcript: a prompt whose call `c` was requested and continues the
/// turn (it dispatched tool calls or was steered, and neither failed nor was cancelled), but
/// whose call `c + 1` was never requested, ended its turn too early. Returns the findings and
/// the calls skipped that way, whose chunks, steers, interrupts and reason were therefore
/// never in play. A crash that cut the turn off is the crash's, not TURN-8's; a steer-only
/// call whose steering was never recorded is STEER-2's (the loop lost the reason to go on).
fn check_continuation(case: &Case, obs: &Observation, ix: &LogIndex) -> (Vec<Finding>, Skipped) {
    let mut requested: Skipped = BTreeSet::new();
    let mut action = None;
    for x in &obs.transcript {
        match x {
            crate::driver::Exchange::Input { action: a } => action = Some(*a),
            crate::driver::Exchange::ModelRequest { call: Some(c), .. } => {
                if let Some(a) = action {
                    requested.insert((a, *c));
                }
            }
            _ => {}
        }
    }
    let mut findings = Vec::new();
    let mut skipped = BTreeSet::new();
    for turn in case.script.plan(case.profile) {
        let Some(Action::Prompt { calls, .. }) = case.script.actions.get(turn.action) else {
            continue;
        };
        let Some(next) = (1..calls.len()).find(|c| !requested.contains(&(turn.action, *c))) else {
            continue;
        };
        let last = next - 1;
        if !requested.contains(&(turn.action, last)) || !calls[last].continues() {
            continue;
        }
        let ended = ix.turn_end(turn.turn);
        if ended.is_none() && obs.crash.is_some() {
            continue;
        }
        skipped.extend((next..calls.len()).map(|c| (turn.action, c)));
        let call = &calls[last];
        let tools = !call.dispatched_tool_calls().is_empty();
        // A loop that lost the steering had, as far as it knew, nothing to go on with: that
        // is STEER-2's finding, not TURN-8's (the calls it never requested stay skipped).
        if !tools
            && !call
                .steer
                .iter()
                .all(|s| obs.log.iter().any(|e| records_steer(e, &s.text)))
        {
            continue;
        }
        let step = turn.steps_of_calls.get(last).copied().unwrap_or(0);
        let because = match (tools, call.steer.is_empty()) {
            (true, false) => {
                format!("step {step} dispatched tool calls and the user steered during it")
            }
            (true, true) => format!("step {step} dispatched tool calls"),
            _ => format!("the user steered during step {step}"),
        };
        let position = ended.unwrap_or(obs.log.len());
        findings.push(Finding {
            requirement: "TURN-8",
            error: true,
            position: Some(position as u64),
            message: format!(
                "turn {} {} after step {step} although {because}: the model was never asked for step {}",
                turn.turn,
                if ended.is_some() { "ended" } else { "stopped" },
                step + 1
            ),
            expected: vec![format!(
                "step/start {{turn: {}, step: {}}} and a model request for it",
                turn.turn,
                step + 1
            )],
            observed: vec![match ended {
                Some(i) => format!("#{i} turn/end {}", obs.log[i].data),
                None => "(no further model request; the turn never ended)".to_owned(),
            }],
            origin: Origin::Oracle,
        });
    }
    (findings, skipped)
}

/// A model call the script does not have: the implementation went on where the protocol
/// says the step or the turn ends. After a failed call that is CHUNK-6 (2026-07 has no in-step
/// retries; 2026-08 retries only when `agent/request-error` says so); otherwise the turn should
/// have ended (no tool call, no steering), which is TURN-7's.
fn check_unscripted_calls(case: &Case, obs: &Observation) -> Vec<Finding> {
    let mut action = None;
    let mut last_call: Option<usize> = None;
    for x in &obs.transcript {
        match x {
            crate::driver::Exchange::Input { action: a } => {
                action = Some(*a);
                last_call = None;
            }
            crate::driver::Exchange::ModelRequest { call: Some(c), .. } => last_call = Some(*c),
            crate::driver::Exchange::ModelRequest {
                call: None,
                at,
                turn,
                step,
            } => {
                let previous = match (action.and_then(|a| case.script.actions.get(a)), last_call) {
                    (Some(Action::Prompt { calls, .. }), Some(c)) => calls.get(c),
                    _ => None,
                };
                let failed = previous.is_some_and(|c| c.ending() == CallEnding::Failed);
                let (requirement, message) = if failed {
                    (
                        "CHUNK-6",
                        format!(
                            "after a failed model call the implementation requested another one (turn {turn} step {step}); {}",
                            match case.profile {
                                Profile::V2026_07 =>
                                    "2026-07 has no in-step retries: a failed call ends the step and the turn",
                                Profile::V2026_08 =>
                                    "2026-08 retries only when `agent/request-error` says so, and it did not",
                            }
                        ),
                    )
                } else {
                    (
                        "TURN-7",
                        format!(
                            "the implementation requested another model call (turn {turn} step {step}) after the turn had ended: the last call succeeded with no tool call to run and no steering"
                        ),
                    )
                };
                return vec![Finding {
                    requirement,
                    error: true,
                    position: Some(at.saturating_sub(1)),
                    message,
                    expected: vec!["the turn ends (step/end, turn/end)".to_owned()],
                    observed: vec![format!("a model request for turn {turn} step {step}")],
                    origin: Origin::Oracle,
                }];
            }
            _ => {}
        }
    }
    Vec::new()
}

/// TURN-7 against the script: each turn ends with the reason the script implies.
fn check_reasons(expected: &Expected, log: &[SessionEvent]) -> Vec<Finding> {
    let ends: Vec<(usize, &SessionEvent)> = log
        .iter()
        .enumerate()
        .filter(|(_, e)| e.kind == "turn/end")
        .collect();
    expected
        .turns
        .iter()
        .zip(ends)
        .filter_map(|(t, (i, e))| {
            let kind = e
                .data
                .get("reason")
                .and_then(|r| r.get("kind"))
                .and_then(Value::as_str)
                .unwrap_or("<none>");
            (kind != t.reason).then(|| Finding {
                requirement: "TURN-7",
                error: true,
                position: Some(i as u64),
                message: format!(
                    "turn {} ended `{kind}`, but {}: it must end `{}`",
                    t.turn, t.why, t.reason
                ),
                expected: vec![format!(
                    "turn/end {{turn: {}, reason: {}}}",
                    t.turn, t.reason
                )],
                observed: vec![format!("#{i} turn/end {}", e.data)],
                origin: Origin::Oracle,
            })
        })
        .collect()
}

/// MIRROR-*: a removed mirror in the live trace.
fn check_mirrors(obs: &Observation) -> Vec<Finding> {
    let mut seen = BTreeSet::new();
    obs.live
        .iter()
        .filter_map(|emit| match classify(&emit.event, Profile::DEFAULT) {
            Some(LiveStatus::Removed(m)) if seen.insert(m.requirement) => Some(Finding {
                requirement: m.requirement,
                error: true,
                position: emit.at,
                message: format!(
                    "the implementation emitted the removed live event `{}`: {} instead",
                    m.name, m.replacement
                ),
                expected: vec![format!(
                    "(no live event; the durable `{}` is the record)",
                    m.durable_twin
                )],
                observed: vec![format!("live {} {}", emit.event, emit.data)],
                origin: Origin::Oracle,
            }),
            _ => None,
        })
        .collect()
}

/// The requirements a case exercises: the behaviour each one constrains occurs in it. A MUST
/// requirement that no case of a run exercised fails the run (nothing passes vacuously).
pub fn exercised(case: &Case) -> BTreeSet<&'static str> {
    let mut on: BTreeSet<&'static str> = BTreeSet::new();
    let mut add = |ids: &[&'static str]| on.extend(ids.iter().copied());
    let plan = case.script.plan(case.profile);
    add(&["LIVE-1", "LIVE-2"]);
    if plan.is_empty() {
        return on;
    }
    add(&[
        "SEQ-1", "SURF-1", "SURF-2", "TURN-1", "TURN-2", "TURN-3", "TURN-4", "TURN-5", "TURN-6",
        "TURN-7", "MIRROR-3", "MIRROR-4",
    ]);
    for (_, call) in case.script.calls() {
        add(&[
            "STEP-1", "STEP-2", "STEP-3", "MIRROR-5", "MIRROR-6", "CHUNK-3", "MSG-5",
        ]);
        let delivered = call.delivered_len();
        if delivered > 0 {
            add(&["CHUNK-1", "CHUNK-2", "MIRROR-1"]);
        }
        if call.continues() {
            add(&["TURN-8"]);
        }
        match call.ending() {
            CallEnding::Success | CallEnding::MaxTokens => {
                add(&["MSG-1", "MSG-3", "MSG-4", "MSG-6"]);
                if call.chunks.iter().any(|c| {
                    matches!(
                        c,
                        StreamChunk::TextDelta { .. } | StreamChunk::ReasoningDelta { .. }
                    )
                }) {
                    add(&["MSG-2"]);
                }
                if !tool_calls_of(&call.chunks).is_empty() {
                    add(&["TOOL-4"]);
                }
                if !call.dispatched_tool_calls().is_empty() {
                    add(&["TOOL-1", "TOOL-2", "TOOL-3"]);
                }
            }
            CallEnding::Failed => {
                add(&["CHUNK-6"]);
                if call.chunks.len() > usize::from(call.throw.is_none()) {
                    add(&["CHUNK-4"]);
                }
            }
            CallEnding::Interrupted(i) => {
                add(&["CHUNK-4", "CHUNK-5"]);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::{AgentLoop, Driver, Exchange, InProcess};
    use crate::reference::ReferenceLoop;
    use serde_json::json;

    /// One prompt: a call that dispatches a tool call (and so continues the turn), then a
    /// call that answers.
    fn tool_then_answer() -> Case {
        serde_json::from_value(json!({"profile":"2026-08","script":{"actions":[{"action":"prompt","text":"prompt 1","calls":[
            {"chunks":[
                {"type":"block-start","index":0,"blockType":"tool-call"},
                {"type":"block-end","index":0,"block":{"type":"tool-call","id":"call-1-1-0","name":"read","arguments":""}},
                {"type":"finish","reason":{"kind":"tool-calls"}}],
             "tools":[{"callId":"call-1-1-0","isError":false,"content":"result of call-1-1-0"}]},
            {"chunks":[
                {"type":"block-start","index":0,"blockType":"text"},
                {"type":"text-delta","index":0,"text":"done"},
                {"type":"block-end","index":0,"block":{"type":"text","text":"done"}},
                {"type":"finish","reason":{"kind":"stop"}}]}]}]}}))
        .expect("a valid case")
    }

    fn reference_run(case: &Case) -> Observation {
        let mut driver = InProcess::new("reference", |p| {
            Box::new(ReferenceLoop::new(p)) as Box<dyn AgentLoop>
        });
        driver.run_case(case).expect("the reference runs")
    }

    /// The reference run cut right after step 1, as a loop that never asks for step 2 leaves it.
    fn stopped_after_step_1(obs: &Observation) -> Observation {
        let mut cut = obs.clone();
        let second = cut
            .transcript
            .iter()
            .position(|x| matches!(x, Exchange::ModelRequest { call: Some(1), .. }))
            .expect("the reference asks for call 2");
        cut.transcript.truncate(second);
        let step_end = cut
            .log
            .iter()
            .position(|e| e.kind == "step/end")
            .expect("step 1 ends");
        cut.log.truncate(step_end + 1);
        cut.live.clear();
        cut
    }

    #[test]
    fn a_turn_ended_after_tool_results_is_turn_8_and_nothing_else() {
        let case = tool_then_answer();
        let obs = reference_run(&case);
        assert!(oracle_findings(&case, &obs).is_empty());
        let mut stopped = stopped_after_step_1(&obs);
        let turn_end = obs
            .log
            .iter()
            .find(|e| e.kind == "turn/end")
            .cloned()
            .expect("the turn ends");
        stopped.log.push(turn_end);
        let findings = oracle_findings(&case, &stopped);
        let ids: Vec<&str> = findings.iter().map(|f| f.requirement).collect();
        assert_eq!(ids, ["TURN-8"], "{findings:#?}");
        assert_eq!(findings[0].position, Some(stopped.log.len() as u64 - 1));
        assert!(
            findings[0]
                .message
                .contains("ended after step 1 although step 1 dispatched tool calls"),
            "{}",
            findings[0].message
        );
    }

    #[test]
    fn a_crash_after_tool_results_is_not_turn_8() {
        let case = tool_then_answer();
        let mut crashed = stopped_after_step_1(&reference_run(&case));
        crashed.crash = Some("the implementation panicked".to_owned());
        let findings = oracle_findings(&case, &crashed);
        assert!(
            findings.iter().all(|f| f.requirement != "TURN-8"),
            "{findings:#?}"
        );
        // The call it never reached is still expected, as before TURN-8.
        assert!(
            findings.iter().any(|f| f.requirement == "CHUNK-1"),
            "{findings:#?}"
        );
    }

    #[test]
    fn every_call_that_continues_exercises_turn_8() {
        assert!(exercised(&tool_then_answer()).contains("TURN-8"));
    }
}
