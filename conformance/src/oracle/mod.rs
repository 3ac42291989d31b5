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
//! | MIRROR-* | no removed mirror in the live trace |
//!
//! Everything a log alone can show (numbering, nesting, provenance, assembly, tool pairing,
//! live status) is left to the log checker ([`structural`]), so that one rule has one
//! implementation. [`evaluate`] merges both and attributes a failing case to one requirement:
//! the finding at the earliest log position, and among findings at one position the most
//! specific ([`SPECIFICITY`]).

pub mod structural;

use crate::driver::Observation;
use crate::registry::{self, Enforcement, REQUIREMENTS, Tier};
use crate::scenario::{Action, CallEnding, Case, InterruptKind, tool_calls_of};
use crate::vocab::Profile;
use crate::vocab::chunk::{ContentBlock, FinishReason, StreamChunk};
use crate::vocab::durable::{AssistantChunkData, SessionEvent};
use crate::vocab::live::{LiveStatus, classify};
use serde::Serialize;
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
    "CHUNK-5", "CHUNK-4", "STEER-2", "CHUNK-3", "CHUNK-1", "MIRROR-1", "MIRROR-2", "MIRROR-3",
    "MIRROR-4", "MIRROR-5", "MIRROR-6", "TURN-7",
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
    findings.sort_by_key(|f| {
        (
            !f.error,
            f.position.unwrap_or(u64::MAX),
            rank(f.requirement),
        )
    });
    Verdict { findings }
}

/// Only the oracle's findings (no checker), unsorted.
pub fn oracle_findings(case: &Case, obs: &Observation) -> Vec<Finding> {
    let mut out = Vec::new();
    let expected = Expected::of(case);
    if let Some(f) = compare_chunks(case, &expected, &obs.log) {
        out.push(f);
    }
    out.extend(check_steering(case, &expected, &obs.log));
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
    /// Chunks that must not be recorded: (turn, step, chunk) after each interrupt point, with
    /// the index in `chunks` where they would have appeared.
    forbidden: Vec<(usize, u64, u64, StreamChunk)>,
    steers: Vec<ExpectedSteer>,
    turns: Vec<ExpectedTurn>,
}

impl Expected {
    fn of(case: &Case) -> Expected {
        let mut e = Expected::default();
        let plan = case.script.plan(case.profile);
        let mut call_number = 0;
        for turn in &plan {
            let why = match turn.reason {
                "aborted" => "the user cancelled (or disposed) while the model streamed",
                "disposed" => "the user disposed of the agent while the model streamed",
                "error" => "the turn's last model call failed and was not retried",
                "max-tokens" => "a model call of the turn hit max-tokens",
                _ if turn.injection => "an idle injection turn completes",
                _ => "every model call of the turn succeeded",
            };
            e.turns.push(ExpectedTurn {
                turn: turn.turn,
                reason: turn.reason,
                why,
            });
            let Some(Action::Prompt { calls, .. }) = case.script.actions.get(turn.action) else {
                continue;
            };
            for (call, step) in calls.iter().zip(&turn.steps_of_calls) {
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
                    for chunk in &call.chunks[recorded..] {
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
        }
        e
    }
}

/// A recorded chunk event.
#[derive(Debug, Clone)]
struct ObservedChunk {
    position: u64,
    turn: u64,
    step: u64,
    chunk: StreamChunk,
}

fn observed_chunks(log: &[SessionEvent]) -> Vec<ObservedChunk> {
    log.iter()
        .enumerate()
        .filter(|(_, e)| e.kind == "assistant/chunk")
        .filter_map(|(i, e)| {
            // A malformed chunk event is the checker's to report; it is skipped here.
            let d: AssistantChunkData = serde_json::from_value(e.data.clone()).ok()?;
            Some(ObservedChunk {
                position: i as u64,
                turn: d.turn,
                step: d.step,
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

fn same_finish_kind(a: &StreamChunk, b: &StreamChunk) -> bool {
    matches!((a, b), (StreamChunk::Finish { reason: x, .. }, StreamChunk::Finish { reason: y, .. }) if x.kind() == y.kind())
}

fn matches(e: &ExpectedChunk, o: &ObservedChunk) -> bool {
    e.turn == o.turn
        && e.step == o.step
        && match e.role {
            // The failure payload of a recorded throw is the runtime's to word.
            ChunkRole::Synthetic => {
                same_finish_kind(&e.chunk, &o.chunk)
                    || matches!(&o.chunk, StreamChunk::Finish { reason, .. } if reason.is_failure())
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
                c.turn,
                c.step,
                describe_chunk(&c.chunk)
            )
        })
        .collect();
    (exp, obs)
}

/// Compares the recorded chunks with the delivered ones and reports the first divergence.
fn compare_chunks(case: &Case, expected: &Expected, log: &[SessionEvent]) -> Option<Finding> {
    let exp = &expected.chunks;
    let obs = observed_chunks(log);
    let mut i = 0;
    let mut j = 0;
    while i < exp.len() && j < obs.len() && matches(&exp[i], &obs[j]) {
        i += 1;
        j += 1;
    }
    if i == exp.len() && j == obs.len() {
        return None;
    }
    let position = obs
        .get(j)
        .map(|o| o.position)
        .or_else(|| j.checked_sub(1).map(|p| obs[p].position + 1))
        .or_else(|| {
            // Nothing matched: where the first chunk should have been, i.e. after its step
            // opened.
            exp.first()
                .and_then(|e| {
                    log.iter().position(|ev| {
                        ev.kind == "step/start"
                            && ev.data.get("turn").and_then(Value::as_u64) == Some(e.turn)
                            && ev.data.get("step").and_then(Value::as_u64) == Some(e.step)
                    })
                })
                .map(|p| p as u64 + 1)
        })
        .or(Some(log.len() as u64));
    let (exp_w, obs_w) = window(exp, i, &obs, j);
    let finding = |requirement: &'static str, message: String| Finding {
        requirement,
        error: true,
        position,
        message,
        expected: exp_w.clone(),
        observed: obs_w.clone(),
        origin: Origin::Oracle,
    };
    let o = obs.get(j);
    let e = exp.get(i);
    // CHUNK-5: the chunk at (or after) the cancel point was recorded.
    if let Some(o) = o
        && let Some((_, t, s, c)) = expected
            .forbidden
            .iter()
            .find(|(at, t, s, c)| *at == i && *t == o.turn && *s == o.step && *c == o.chunk)
    {
        return Some(finding(
            "CHUNK-5",
            format!(
                "turn {t} step {s}: `{}` was recorded although the cancel was observed at it: nothing at or after the cancel point may be appended",
                describe_chunk(c)
            ),
        ));
    }
    if let Some(e) = e {
        if e.role == ChunkRole::Synthetic {
            return Some(finding(
                "CHUNK-3",
                format!(
                    "turn {} step {}: the model adapter threw; under {} the throw must be recorded as a terminal `finish {{error}}` chunk",
                    e.turn, e.step, case.profile
                ),
            ));
        }
        // CHUNK-4: the chunks of a failed or interrupted call were dropped (the observed chunk
        // is one expected later, or nothing follows), and everything skipped must be kept.
        let resumes = match o {
            Some(o) => exp[i..].iter().position(|x| matches(x, o)).map(|p| i + p),
            None => Some(exp.len()),
        };
        if let Some(r) = resumes
            && r > i
            && exp[i..r].iter().all(|x| x.role == ChunkRole::Kept)
        {
            return Some(finding(
                "CHUNK-4",
                format!(
                    "turn {} step {}: {} chunk(s) of a {} stream were delivered but not kept, starting with chunk {} `{}`",
                    e.turn,
                    e.step,
                    r - i,
                    if expected
                        .forbidden
                        .iter()
                        .any(|(at, ..)| *at >= i && *at <= r)
                    {
                        "cancelled"
                    } else {
                        "failed"
                    },
                    e.index,
                    describe_chunk(&e.chunk)
                ),
            ));
        }
    }
    let message = match (e, o) {
        (Some(e), Some(o)) if e.chunk == o.chunk => format!(
            "chunk {} of model call {} was recorded with turn {} step {}, but it streamed in turn {} step {}",
            e.index,
            e.call + 1,
            o.turn,
            o.step,
            e.turn,
            e.step
        ),
        (Some(e), Some(o)) => {
            let later = exp[i..].iter().any(|x| x.chunk == o.chunk);
            let earlier = exp[..i]
                .iter()
                .any(|x| x.chunk == o.chunk && x.turn == o.turn && x.step == o.step);
            if earlier {
                format!(
                    "`{}` was recorded again (turn {} step {}): each delivered chunk is recorded exactly once",
                    describe_chunk(&o.chunk),
                    o.turn,
                    o.step
                )
            } else if later {
                format!(
                    "turn {} step {}: chunk {} `{}` of model call {} was delivered but not recorded (the next recorded chunk comes later in the stream)",
                    e.turn,
                    e.step,
                    e.index,
                    describe_chunk(&e.chunk),
                    e.call + 1
                )
            } else {
                format!(
                    "turn {} step {}: recorded `{}` where the model delivered chunk {} `{}`: chunks must be recorded verbatim, never merged or split",
                    e.turn,
                    e.step,
                    describe_chunk(&o.chunk),
                    e.index,
                    describe_chunk(&e.chunk)
                )
            }
        }
        (Some(e), None) => format!(
            "turn {} step {}: chunk {} `{}` of model call {} was delivered but never recorded",
            e.turn,
            e.step,
            e.index,
            describe_chunk(&e.chunk),
            e.call + 1
        ),
        (None, Some(o)) => format!(
            "`{}` (turn {} step {}) was recorded after every delivered chunk was: the model never delivered it there",
            describe_chunk(&o.chunk),
            o.turn,
            o.step
        ),
        (None, None) => return None,
    };
    Some(finding("CHUNK-1", message))
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

fn boundary(log: &[SessionEvent], kind: &str, turn: u64, step: Option<u64>) -> Option<usize> {
    log.iter().position(|e| {
        e.kind == kind
            && e.data.get("turn").and_then(Value::as_u64) == Some(turn)
            && step.is_none_or(|s| e.data.get("step").and_then(Value::as_u64) == Some(s))
    })
}

fn first_chunk_of(log: &[SessionEvent], turn: u64, step: u64) -> Option<usize> {
    boundary(log, "assistant/chunk", turn, Some(step))
}

/// STEER-2: every steering message is recorded exactly once, as the profile's event, before
/// the model call that follows it.
fn check_steering(case: &Case, expected: &Expected, log: &[SessionEvent]) -> Vec<Finding> {
    let mut out = Vec::new();
    for s in &expected.steers {
        let records: Vec<usize> = log
            .iter()
            .enumerate()
            .filter(|(_, e)| {
                matches!(
                    e.kind.as_str(),
                    "steering/message" | "user/message" | "context/message"
                ) && texts_of(e).contains(&s.text.as_str())
            })
            .map(|(i, _)| i)
            .collect();
        let next_request = first_chunk_of(log, s.turn, s.step + 1);
        let turn_end = boundary(log, "turn/end", s.turn, None);
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
                let (want, placed) = match case.profile {
                    Profile::V2026_07 => (
                        "steering/message",
                        e.data.get("turn").and_then(Value::as_u64) == Some(s.turn)
                            && next_request.is_none_or(|n| *only < n)
                            && turn_end.is_none_or(|t| *only < t),
                    ),
                    Profile::V2026_08 => {
                        let opened = boundary(log, "step/start", s.turn, Some(s.step + 1));
                        (
                            "user/message",
                            opened.is_some_and(|o| *only > o)
                                && next_request.is_none_or(|n| *only < n)
                                && log[opened.unwrap_or(0) + 1..*only]
                                    .iter()
                                    .all(|x| x.kind == "user/message"),
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
