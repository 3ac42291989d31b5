//! The state machine over one log's events: turns, steps, model calls, messages, tools.

use super::Finding;
use super::assemble::{Call, Finish, Loc, arguments_equal, block_type, first_divergence};
use super::reader::{clip, max_kept_findings, parse_u64};
use crate::vocab::Profile;
use crate::vocab::durable::{Scope, TurnEndReason, event_type};
use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;
use std::borrow::Cow;

/// One event's envelope, borrowed from its line.
pub(super) struct Envelope<'a> {
    pub line: Option<u64>,
    pub seq: Option<u64>,
    pub kind: &'a str,
    pub time: Option<&'a RawValue>,
    pub data: &'a RawValue,
    pub surface_op: Option<&'a RawValue>,
    pub source_event_seqs: Option<&'a RawValue>,
    pub ignorable: bool,
}

/// One stream chunk, borrowed.
pub(super) enum Chunk<'a> {
    BlockStart {
        index: u32,
        block_type: &'a str,
    },
    TextDelta {
        index: u32,
        text: &'a str,
    },
    ReasoningDelta {
        index: u32,
        text: &'a str,
    },
    ToolCallDelta {
        index: u32,
        id: &'a str,
        name: Option<&'a str>,
        args: &'a str,
    },
    BlockEnd {
        index: u32,
        block: &'a RawValue,
    },
    Usage {
        usage: &'a RawValue,
    },
    Finish {
        kind: &'a str,
    },
    Malformed {
        kind: &'a str,
        why: &'static str,
    },
}

/// `assistant/chunk.data`, borrowed.
#[derive(Deserialize)]
pub(super) struct ChunkData<'a> {
    turn: Option<u64>,
    step: Option<u64>,
    #[serde(borrow)]
    chunk: Option<RawChunk<'a>>,
}

#[derive(Deserialize)]
struct RawChunk<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    index: Option<u32>,
    #[serde(rename = "blockType", borrow)]
    block_type: Option<Cow<'a, str>>,
    #[serde(borrow)]
    text: Option<Cow<'a, str>>,
    #[serde(borrow)]
    id: Option<Cow<'a, str>>,
    #[serde(borrow)]
    name: Option<Cow<'a, str>>,
    #[serde(rename = "argumentsDelta", borrow)]
    arguments_delta: Option<Cow<'a, str>>,
    #[serde(borrow)]
    block: Option<&'a RawValue>,
    #[serde(borrow)]
    usage: Option<&'a RawValue>,
    #[serde(borrow)]
    reason: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct KindOnly<'a> {
    #[serde(borrow)]
    kind: Option<Cow<'a, str>>,
}

/// The fields of the core events the checker reads (everything else is ignored).
#[derive(Deserialize, Default)]
struct Data<'a> {
    #[serde(borrow)]
    turn: Option<&'a RawValue>,
    #[serde(borrow)]
    step: Option<&'a RawValue>,
    #[serde(borrow)]
    content: Option<&'a RawValue>,
    #[serde(borrow)]
    message: Option<&'a RawValue>,
    #[serde(borrow)]
    usage: Option<&'a RawValue>,
    #[serde(borrow)]
    interrupted: Option<&'a RawValue>,
    #[serde(rename = "callId", borrow)]
    call_id: Option<Cow<'a, str>>,
    #[serde(borrow)]
    name: Option<Cow<'a, str>>,
    #[serde(borrow)]
    arguments: Option<&'a RawValue>,
    #[serde(borrow)]
    reason: Option<&'a RawValue>,
    #[serde(borrow)]
    trigger: Option<&'a RawValue>,
    #[serde(borrow)]
    error: Option<&'a RawValue>,
}

/// `turn/end.data.reason`, as far as the checker reads it.
#[derive(Deserialize)]
struct ReasonObj<'a> {
    #[serde(borrow)]
    kind: Option<Cow<'a, str>>,
    #[serde(borrow)]
    error: Option<ErrorObj<'a>>,
    #[serde(borrow)]
    failure: Option<ErrorObj<'a>>,
}

/// The `message` object of a 2026-08 `assistant/message` / `tool/result`.
#[derive(Deserialize, Default)]
struct MessageObj<'a> {
    #[serde(borrow)]
    content: Option<&'a RawValue>,
    #[serde(borrow)]
    source: Option<&'a RawValue>,
}

#[derive(Deserialize, Default)]
struct CallSource<'a> {
    #[serde(rename = "callId", borrow)]
    call_id: Option<Cow<'a, str>>,
}

#[derive(Deserialize, Default)]
struct ErrorObj<'a> {
    #[serde(borrow)]
    code: Option<Cow<'a, str>>,
}

/// Findings collected while the open step is borrowed: (requirement, message, expected/observed).
type Pending = Vec<(&'static str, String, Option<(String, String)>)>;

struct ToolCallRec {
    call_id: String,
    seq: u64,
    answered: bool,
    /// Position among the message's tool-call blocks.
    block_pos: Option<usize>,
}

struct MessageInfo {
    tool_blocks: Vec<Value>,
    max_tokens: bool,
}

struct Step {
    number: u64,
    turn: u64,
    call: Option<Call>,
    message: Option<MessageInfo>,
    interrupted_message: bool,
    tool_calls: Vec<ToolCallRec>,
    /// Call ids answered by a crash-repair result without a `tool/call` (`TOOL_NOT_STARTED`).
    answered_unstarted: Vec<String>,
    /// An event that came between two chunks of the open model call (reported if the call
    /// continues): where, and its type.
    interleaved: Option<(Loc, String)>,
    last_result_pos: Option<usize>,
}

struct Turn {
    number: u64,
    loc: Loc,
    /// Opened implicitly by a `step/start` outside any turn (already reported).
    phantom: bool,
    last_step: u64,
    steps: u64,
    injection: bool,
    max_tokens: bool,
    last_call_failed: bool,
    /// A model call whose run did not end in `finish` (allowed only on some turn ends).
    unfinished_call: Option<Loc>,
    /// A successful call with no `assistant/message` (allowed only under crash repair).
    missing_message: Option<Loc>,
    /// Tool calls of the last closed step left without a result.
    unanswered_in_last_step: usize,
    step: Option<Step>,
}

/// The checker's state for one log.
pub(super) struct Monitor {
    profile: Profile,
    findings: Vec<Finding>,
    suppressed: u64,
    events: u64,
    next_seq: u64,
    last_turn: u64,
    turn: Option<Turn>,
    /// The previous line could not be read; its seq slot is unknown.
    resync: bool,
    /// The header names a parent session or a seed: the first turn may continue the parent's
    /// numbering instead of starting at 1.
    fork_numbering: bool,
    /// Whether to infer `CHUNK-1` from provenance and assembly (a chunk count that differs
    /// from the citation, reordered delta text). On for recorded logs; off when a driver
    /// checks chunk fidelity exactly against the model script.
    pub(super) infer_chunk_fidelity: bool,
}

fn loc(line: Option<u64>, seq: u64) -> Loc {
    Loc { line, seq }
}

/// Whether two different texts are permutations of each other (reordered deltas).
fn same_characters(a: &str, b: &str) -> bool {
    if a.len() != b.len() || a == b {
        return false;
    }
    let mut x: Vec<char> = a.chars().collect();
    let mut y: Vec<char> = b.chars().collect();
    x.sort_unstable();
    y.sort_unstable();
    x == y
}

/// The block index a chunk belongs to, if any.
fn chunk_index(chunk: &Chunk<'_>) -> Option<u32> {
    match chunk {
        Chunk::BlockStart { index, .. }
        | Chunk::TextDelta { index, .. }
        | Chunk::ReasoningDelta { index, .. }
        | Chunk::ToolCallDelta { index, .. }
        | Chunk::BlockEnd { index, .. } => Some(*index),
        _ => None,
    }
}

/// Parses `sourceEventSeqs`: seqs, where an element may also be an inclusive `[start, end]`
/// range (the compact encoding some writers use for long chunk runs).
fn parse_seqs(raw: &RawValue) -> Option<Vec<u64>> {
    /// A range longer than this is not a real chunk run; refuse it rather than allocate.
    const MAX_RANGE: u64 = 1 << 24;
    let items: Vec<Value> = serde_json::from_str(raw.get()).ok()?;
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        match item {
            Value::Number(n) => out.push(n.as_u64()?),
            Value::Array(pair) if pair.len() == 2 => {
                let (a, b) = (pair[0].as_u64()?, pair[1].as_u64()?);
                if b < a || b - a > MAX_RANGE {
                    return None;
                }
                out.extend(a..=b);
            }
            _ => return None,
        }
    }
    Some(out)
}

fn seq_list(seqs: &[u64]) -> String {
    const MAX: usize = 12;
    if seqs.len() <= MAX {
        format!("{seqs:?}")
    } else {
        let head: Vec<String> = seqs[..MAX].iter().map(u64::to_string).collect();
        format!("[{}, … ({} seqs)]", head.join(", "), seqs.len())
    }
}

impl Monitor {
    pub fn new(profile: Profile) -> Monitor {
        Monitor {
            profile,
            findings: Vec::new(),
            suppressed: 0,
            events: 0,
            next_seq: 0,
            last_turn: 0,
            turn: None,
            resync: false,
            fork_numbering: false,
            infer_chunk_fidelity: true,
        }
    }

    /// The findings kept so far, in order.
    pub fn findings(&self) -> &[Finding] {
        &self.findings
    }

    pub fn push(&mut self, finding: Finding) {
        if self.findings.len() < max_kept_findings() {
            self.findings.push(finding);
        } else {
            self.suppressed += 1;
        }
    }

    fn report(&mut self, req: &'static str, at: Loc, msg: impl Into<String>) {
        let f = Finding::new(self.profile, req, at.line, Some(at.seq), msg);
        self.push(f);
    }

    fn report_diff(
        &mut self,
        req: &'static str,
        at: Loc,
        msg: impl Into<String>,
        expected: impl Into<String>,
        observed: impl Into<String>,
    ) {
        let f = Finding::new(self.profile, req, at.line, Some(at.seq), msg)
            .diverging(expected, observed);
        self.push(f);
    }

    /// Reports findings collected while the monitor's state was borrowed.
    fn report_pending(&mut self, at: Loc, findings: Pending) {
        for (req, msg, diff) in findings {
            match diff {
                Some((e, o)) => self.report_diff(req, at, msg, e, o),
                None => self.report(req, at, msg),
            }
        }
    }

    /// The log belongs to a forked or seeded session (see `fork_numbering`).
    pub fn continue_turn_numbering(&mut self) {
        self.fork_numbering = true;
    }

    /// The seq the next event should carry.
    pub fn next_seq(&self) -> u64 {
        self.next_seq
    }

    /// A line that could not be read: it may be a damaged event or inserted junk, so the next
    /// event's seq is accepted either way.
    pub fn skip_event(&mut self) {
        self.resync = true;
    }

    /// As [`skip_event`](Self::skip_event), when the damaged line still named its seq.
    pub fn skip_event_with_seq(&mut self, seq: Option<u64>) {
        match seq {
            Some(s) => {
                self.next_seq = s.saturating_add(1);
                self.events += 1;
            }
            None => self.resync = true,
        }
    }

    /// Resolves an event's seq (re-synthesized when absent) and checks contiguity.
    fn resolve_seq(&mut self, line: Option<u64>, seq: Option<u64>, kind: &str) -> u64 {
        self.events += 1;
        let expected = self.next_seq;
        let resync = std::mem::take(&mut self.resync);
        match seq {
            Some(s) => {
                if s != expected && !(resync && s == expected.saturating_add(1)) {
                    let what = if s < expected {
                        "repeats or goes back"
                    } else {
                        "skips ahead"
                    };
                    self.report_diff(
                        "SEQ-1",
                        loc(line, s),
                        format!(
                            "`{kind}` has seq {s}, which {what}: seqs must be contiguous from 0"
                        ),
                        format!("seq {expected}"),
                        format!("seq {s}"),
                    );
                }
                self.next_seq = s.saturating_add(1);
                s
            }
            None => {
                self.next_seq = self.next_seq.saturating_add(1);
                expected
            }
        }
    }

    /// One expanded member of a packed chunk row.
    pub fn packed_chunk(
        &mut self,
        line: Option<u64>,
        seq: Option<u64>,
        turn: u64,
        step: u64,
        chunk: Chunk<'_>,
    ) {
        let seq = self.resolve_seq(line, seq, "assistant/chunk");
        let at = loc(line, seq);
        self.chunk(at, Some(turn), Some(step), chunk);
    }

    /// One event.
    pub fn event(&mut self, env: &Envelope<'_>) {
        let seq = self.resolve_seq(env.line, env.seq, env.kind);
        let at = loc(env.line, seq);
        if let Some(time) = env.time
            && time.get() != "null"
            && time.get().parse::<i64>().is_err()
        {
            self.report(
                "SEQ-2",
                at,
                format!("`time` is not an integer: {}", clip(time.get())),
            );
        }
        let spec = event_type(env.kind);
        let mut scope = spec.and_then(|s| s.scope(self.profile));
        let mut surface = spec.is_some_and(|s| s.is_surface(self.profile));
        // 2026-08 logs recorded by earlier builds still carry 2026-07 core types
        // (`steering/message`, `context/message`, …); HEAD readers accept them, so the
        // checker does too, with their 2026-07 scope and surface flag.
        if scope.is_none()
            && self.profile == Profile::V2026_08
            && let Some(legacy) = spec.filter(|s| s.scope_2026_07.is_some())
        {
            scope = legacy.scope_2026_07;
            surface = legacy.is_surface(Profile::V2026_07);
        }
        // Unknown types: 2026-08 refuses them unless ignorable; 2026-07 treats them as
        // plugin events, which must lie inside a turn.
        if scope.is_none() && self.profile == Profile::V2026_08 {
            if !env.ignorable {
                self.report(
                    "LOG-3",
                    at,
                    format!(
                        "`{}` is not a known event type and is not marked `ignorable: true`",
                        env.kind
                    ),
                );
            }
            self.surface_meta(at, env, false);
            return;
        }
        self.surface_meta(at, env, surface);
        let scope = scope.unwrap_or(Scope::Turn);
        self.note_interleaving(at, env.kind, scope);
        let replace = env.surface_op.is_some_and(|op| op.get().starts_with('{'));
        match env.kind {
            "turn/start" => self.turn_start(at, env),
            "turn/end" => self.turn_end(at, env),
            "step/start" => self.step_start(at, env),
            "step/end" => self.step_end(at, env),
            "assistant/chunk" => self.chunk_event(at, env),
            "assistant/message" if !replace => self.message(at, env),
            "tool/call" => self.tool_call(at, env),
            "tool/result" if !replace => self.tool_result(at, env),
            "steering/message" if self.profile == Profile::V2026_07 => {
                self.enclosure(at, env.kind, scope);
                self.steering(at, env);
            }
            _ => {
                // A replace lands wherever the rewrite happens; it needs only an open turn
                // for step-scoped types.
                let scope = if replace && scope == Scope::Step {
                    Scope::Turn
                } else {
                    scope
                };
                self.enclosure(at, env.kind, scope);
            }
        }
    }

    /// Remembers an event that lands inside an open model call's run (CHUNK-2 if the run then
    /// continues). Under 2026-08 free-scope events (a concurrent steer's `agent/inbox/spliced`)
    /// may interleave a run; under 2026-07 nothing may.
    fn note_interleaving(&mut self, at: Loc, kind: &str, scope: Scope) {
        if kind == "assistant/chunk"
            || kind == "assistant/message"
            || (self.profile == Profile::V2026_08 && scope == Scope::Free)
        {
            return;
        }
        if let Some(step) = self.step_mut()
            && step.interleaved.is_none()
            && step
                .call
                .as_ref()
                .is_some_and(|c| c.finish.is_none() && !c.closed && !c.seqs.is_empty())
        {
            step.interleaved = Some((at, kind.to_owned()));
        }
    }

    /// TURN-3: where an event may lie.
    fn enclosure(&mut self, at: Loc, kind: &str, scope: Scope) {
        let in_turn = self.turn.is_some();
        let in_step = self.turn.as_ref().is_some_and(|t| t.step.is_some());
        let needs_turn = self.profile == Profile::V2026_07 || scope == Scope::Turn;
        match scope {
            Scope::Step if !in_step => {
                self.report(
                    "TURN-3",
                    at,
                    format!("`{kind}` must lie inside a step, but no step is open"),
                );
            }
            Scope::Boundary | Scope::Step => {}
            _ if needs_turn && !in_turn => {
                let why = if self.profile == Profile::V2026_07 {
                    "under 2026-07 every non-boundary event must lie inside a turn"
                } else {
                    "it must lie inside a turn"
                };
                self.report(
                    "TURN-3",
                    at,
                    format!("`{kind}` appears between turns; {why}"),
                );
            }
            _ => {}
        }
    }

    /// SURF-1 and SURF-2.
    fn surface_meta(&mut self, at: Loc, env: &Envelope<'_>, surface: bool) {
        match (surface, env.surface_op) {
            (true, None) => self.report(
                "SURF-1",
                at,
                format!("surface event `{}` has no `surfaceOp`", env.kind),
            ),
            (false, Some(_)) => self.report(
                "SURF-1",
                at,
                format!(
                    "`{}` is not a surface event but carries `surfaceOp`",
                    env.kind
                ),
            ),
            (true, Some(op)) => {
                let ok = op.get() == "\"append\"" || op.get().starts_with('{');
                if !ok {
                    self.report(
                        "SURF-1",
                        at,
                        format!(
                            "`surfaceOp` must be \"append\" or a replace object, not {}",
                            clip(op.get())
                        ),
                    );
                }
            }
            (false, None) => {}
        }
        let Some(raw) = env.source_event_seqs else {
            return;
        };
        if !surface {
            self.report(
                "SURF-1",
                at,
                format!(
                    "`{}` is not a surface event but carries `sourceEventSeqs`",
                    env.kind
                ),
            );
            return;
        }
        let Some(seqs) = parse_seqs(raw) else {
            self.report(
                "SURF-2",
                at,
                format!(
                    "`sourceEventSeqs` is not an array of seqs: {}",
                    clip(raw.get())
                ),
            );
            return;
        };
        if seqs.is_empty()
            && !(self.profile == Profile::V2026_08 && env.kind == "assistant/message")
        {
            self.report(
                "SURF-2",
                at,
                format!(
                    "`{}` carries an empty `sourceEventSeqs`; omit the field instead",
                    env.kind
                ),
            );
        }
        let mut sorted = seqs.clone();
        sorted.sort_unstable();
        if sorted.windows(2).any(|w| w[0] == w[1]) {
            self.report("SURF-2", at, "`sourceEventSeqs` lists a seq twice");
        }
        if let Some(bad) = seqs.iter().find(|s| **s >= at.seq) {
            self.report_diff(
                "SURF-2",
                at,
                format!("`sourceEventSeqs` cites seq {bad}, which is not an earlier event"),
                format!("seqs < {}", at.seq),
                seq_list(&seqs),
            );
        }
    }

    fn parse_data<'a>(&mut self, at: Loc, env: &Envelope<'a>) -> Option<Data<'a>> {
        match serde_json::from_str::<Data<'a>>(env.data.get()) {
            Ok(d) => Some(d),
            Err(e) => {
                self.report("LOG-2", at, format!("malformed `{}` data: {e}", env.kind));
                None
            }
        }
    }

    fn require_u64(
        &mut self,
        at: Loc,
        kind: &str,
        field: &str,
        raw: Option<&RawValue>,
    ) -> Option<u64> {
        match raw.map(|r| (r, parse_u64(r))) {
            Some((_, Some(n))) => Some(n),
            Some((r, None)) => {
                self.report(
                    "LOG-2",
                    at,
                    format!(
                        "`{kind}.data.{field}` must be a non-negative integer, not {}",
                        clip(r.get())
                    ),
                );
                None
            }
            None => {
                self.report("LOG-2", at, format!("`{kind}` has no `data.{field}`"));
                None
            }
        }
    }

    // ---- turns ---------------------------------------------------------------------------

    fn turn_start(&mut self, at: Loc, env: &Envelope<'_>) {
        let Some(data) = self.parse_data(at, env) else {
            return;
        };
        let Some(number) = self.require_u64(at, "turn/start", "turn", data.turn) else {
            return;
        };
        if let Some(open) = self.turn.take()
            && !open.phantom
        {
            self.report_diff(
                "TURN-2",
                at,
                format!(
                    "`turn/start` of turn {number} while turn {} is open: turns do not nest",
                    open.number
                ),
                format!("`turn/end` of turn {}", open.number),
                format!("`turn/start` of turn {number}"),
            );
            self.report(
                "TURN-4",
                open.loc,
                format!("turn {} is never closed by a `turn/end`", open.number),
            );
        }
        let first_of_fork = self.fork_numbering && self.last_turn == 0 && number >= 1;
        if number != self.last_turn.saturating_add(1) && !first_of_fork {
            self.report_diff(
                "TURN-1",
                at,
                format!(
                    "turn {number} follows turn {}: turns are numbered 1, 2, 3 … without gaps",
                    self.last_turn
                ),
                format!("turn {}", self.last_turn.saturating_add(1)),
                format!("turn {number}"),
            );
        }
        self.last_turn = number;
        let injection = data.trigger.is_some_and(|t| {
            serde_json::from_str::<KindOnly<'_>>(t.get())
                .ok()
                .and_then(|k| k.kind)
                .is_some_and(|k| k == "injection")
        });
        self.turn = Some(Turn {
            number,
            loc: at,
            phantom: false,
            last_step: 0,
            steps: 0,
            injection,
            max_tokens: false,
            last_call_failed: false,
            unfinished_call: None,
            missing_message: None,
            unanswered_in_last_step: 0,
            step: None,
        });
    }

    fn turn_end(&mut self, at: Loc, env: &Envelope<'_>) {
        let Some(data) = self.parse_data(at, env) else {
            return;
        };
        let number = self.require_u64(at, "turn/end", "turn", data.turn);
        let parsed_reason = data
            .reason
            .and_then(|r| serde_json::from_str::<ReasonObj<'_>>(r.get()).ok());
        // 2026-08 failure code (`reason.error.code`; earlier builds wrote `reason.failure`).
        let failure_code = parsed_reason
            .as_ref()
            .and_then(|r| r.error.as_ref().or(r.failure.as_ref()))
            .and_then(|e| e.code.as_deref())
            .map(str::to_owned);
        let reason = parsed_reason.and_then(|r| r.kind).map(Cow::into_owned);
        let Some(mut turn) = self.turn.take() else {
            self.report("TURN-2", at, "`turn/end` with no open turn");
            return;
        };
        if let Some(n) = number
            && n != turn.number
            && !turn.phantom
        {
            self.report_diff(
                "TURN-2",
                at,
                format!("`turn/end` names turn {n} but turn {} is open", turn.number),
                format!("turn {}", turn.number),
                format!("turn {n}"),
            );
        }
        if let Some(step) = turn.step.take() {
            self.report_diff(
                "TURN-4",
                at,
                format!(
                    "`turn/end` while step {} is open: the step is never closed by a `step/end`",
                    step.number
                ),
                format!("`step/end` of step {}", step.number),
                "`turn/end`",
            );
            self.close_step(&mut turn, step);
        }
        let Some(reason) = reason else {
            self.report("LOG-2", at, "`turn/end` has no `data.reason.kind`");
            return;
        };
        let m = self.profile == Profile::V2026_07;
        // 2026-08 logs recorded by earlier builds may still end turns `disposed`/`rejected`.
        let legacy_reason = !m && matches!(reason.as_str(), "disposed" | "rejected");
        if !TurnEndReason::kinds(self.profile).contains(&reason.as_str()) && !legacy_reason {
            self.report_diff(
                "TURN-6",
                at,
                format!(
                    "turn-end reason `{reason}` is not defined by the {} profile",
                    self.profile
                ),
                TurnEndReason::kinds(self.profile).join(", "),
                reason.clone(),
            );
        } else if turn.steps == 0 {
            let legal = match reason.as_str() {
                "aborted" | "error" | "interrupted" => true,
                "disposed" | "rejected" => true,
                "blocked" => !m,
                "completed" => !m || turn.injection,
                _ => false,
            };
            if !legal {
                self.report(
                    "TURN-6",
                    at,
                    format!("turn {} ran no step but ends `{reason}`", turn.number),
                );
            }
        }
        let failed_end = matches!(
            reason.as_str(),
            "error" | "aborted" | "interrupted" | "disposed"
        );
        if reason == "interrupted" && turn.unanswered_in_last_step > 0 {
            self.report(
                "TURN-5",
                at,
                format!(
                    "an `interrupted` closer must first answer the open step's {} unanswered tool call(s) with synthetic error results",
                    turn.unanswered_in_last_step
                ),
            );
        }
        if turn.max_tokens && reason == "completed" {
            self.report_diff(
                "TURN-7",
                at,
                format!(
                    "turn {} had a `max-tokens` model call but ends `completed`",
                    turn.number
                ),
                "max-tokens",
                reason.clone(),
            );
        }
        if turn.last_call_failed
            && matches!(reason.as_str(), "completed" | "max-tokens" | "blocked")
        {
            self.report_diff(
                "TURN-7",
                at,
                format!("turn {}'s last model call failed and was not retried, but the turn ends `{reason}`", turn.number),
                "error or aborted",
                reason.clone(),
            );
        }
        // Under 2026-08 a provider failure is always recorded as a `finish` chunk; a run may
        // end without one only when a middleware or the consumer threw, which surfaces as a
        // non-provider error (`UNKNOWN`). A provider code here means the `finish` is missing.
        let provider_failure_without_finish = self.profile == Profile::V2026_08
            && reason == "error"
            && failure_code.as_deref().is_some_and(|c| c != "UNKNOWN");
        if let Some(u) = turn.unfinished_call
            && (!failed_end || provider_failure_without_finish)
        {
            self.report_diff(
                "CHUNK-3",
                u,
                format!(
                    "a model call's chunk run has no `finish`, yet turn {} ends `{reason}`",
                    turn.number
                ),
                "a `finish` chunk (or a cancelled turn ending `aborted`)",
                "the run stops without `finish`",
            );
        }
        // A cancel, a throw or a crash between the `finish` and the message append leaves a
        // finished call without its message; only a turn that ended normally owes it.
        if let Some(m_at) = turn.missing_message
            && matches!(reason.as_str(), "completed" | "max-tokens")
        {
            self.report(
                "MSG-5",
                m_at,
                "a model call finished successfully but no `assistant/message` finalizes it",
            );
        }
    }

    // ---- steps ---------------------------------------------------------------------------

    fn step_start(&mut self, at: Loc, env: &Envelope<'_>) {
        let Some(data) = self.parse_data(at, env) else {
            return;
        };
        let turn_no = self.require_u64(at, "step/start", "turn", data.turn);
        let Some(number) = self.require_u64(at, "step/start", "step", data.step) else {
            return;
        };
        if self.turn.is_none() {
            self.report(
                "STEP-2",
                at,
                format!("`step/start` of step {number} outside any turn"),
            );
            self.turn = Some(Turn {
                number: turn_no.unwrap_or(0),
                loc: at,
                phantom: true,
                last_step: number.saturating_sub(1),
                steps: 0,
                injection: false,
                max_tokens: false,
                last_call_failed: false,
                unfinished_call: None,
                missing_message: None,
                unanswered_in_last_step: 0,
                step: None,
            });
        }
        let Some(mut turn) = self.turn.take() else {
            return;
        };
        if let Some(t) = turn_no
            && t != turn.number
            && !turn.phantom
        {
            self.report_diff(
                "STEP-2",
                at,
                format!(
                    "`step/start` names turn {t} but turn {} is open",
                    turn.number
                ),
                format!("turn {}", turn.number),
                format!("turn {t}"),
            );
        }
        if let Some(open) = turn.step.take() {
            self.report_diff(
                "STEP-2",
                at,
                format!(
                    "`step/start` of step {number} while step {} is open: steps do not nest",
                    open.number
                ),
                format!("`step/end` of step {}", open.number),
                format!("`step/start` of step {number}"),
            );
            self.report(
                "TURN-4",
                at,
                format!("step {} is never closed by a `step/end`", open.number),
            );
            self.close_step(&mut turn, open);
        }
        if number != turn.last_step.saturating_add(1) {
            self.report_diff(
                "STEP-1",
                at,
                format!(
                    "step {number} follows step {} in turn {}: steps are numbered 1 … n",
                    turn.last_step, turn.number
                ),
                format!("step {}", turn.last_step.saturating_add(1)),
                format!("step {number}"),
            );
        }
        turn.last_step = number;
        turn.steps += 1;
        turn.step = Some(Step {
            number,
            turn: turn.number,
            call: None,
            message: None,
            interrupted_message: false,
            tool_calls: Vec::new(),
            answered_unstarted: Vec::new(),
            interleaved: None,
            last_result_pos: None,
        });
        self.turn = Some(turn);
    }

    fn step_end(&mut self, at: Loc, env: &Envelope<'_>) {
        let Some(data) = self.parse_data(at, env) else {
            return;
        };
        let turn_no = self.require_u64(at, "step/end", "turn", data.turn);
        let step_no = self.require_u64(at, "step/end", "step", data.step);
        let Some(mut turn) = self.turn.take() else {
            self.report("STEP-2", at, "`step/end` with no open turn or step");
            return;
        };
        match turn.step.take() {
            None => self.report("STEP-2", at, "`step/end` with no open step"),
            Some(step) => {
                if turn_no != Some(step.turn) || step_no != Some(step.number) {
                    self.report_diff(
                        "STEP-2",
                        at,
                        "`step/end` does not name the open turn and step",
                        format!("turn {}, step {}", step.turn, step.number),
                        format!(
                            "turn {}, step {}",
                            turn_no.map_or("?".into(), |n| n.to_string()),
                            step_no.map_or("?".into(), |n| n.to_string())
                        ),
                    );
                }
                self.close_step(&mut turn, step);
            }
        }
        self.turn = Some(turn);
    }

    /// Closes a step: final checks on its last model call, bookkeeping for the turn end.
    fn close_step(&mut self, turn: &mut Turn, mut step: Step) {
        turn.unanswered_in_last_step = step.tool_calls.iter().filter(|c| !c.answered).count();
        // Tool-call blocks of the message with no tool/call at all count as unanswered too
        // (the crash closer answers them with TOOL_NOT_STARTED).
        if let Some(msg) = &step.message {
            let dispatched = |id: &str| {
                step.tool_calls.iter().any(|c| c.call_id == id)
                    || step.answered_unstarted.iter().any(|a| a == id)
            };
            turn.unanswered_in_last_step += msg
                .tool_blocks
                .iter()
                .filter(|b| !dispatched(b.get("id").and_then(Value::as_str).unwrap_or("")))
                .count();
        }
        let Some(mut call) = step.call.take() else {
            return;
        };
        self.close_call(&mut call);
        match &call.finish {
            Some(f) if f.failure => {
                turn.last_call_failed = true;
            }
            Some(f) => {
                turn.last_call_failed = false;
                if f.kind == "max-tokens" {
                    turn.max_tokens = true;
                }
                if step.message.is_none() {
                    let needed = self.profile == Profile::V2026_08
                        || !call.assembled(false).is_empty()
                        || call.usage.is_some();
                    if needed {
                        turn.missing_message = call.first;
                    }
                }
            }
            None => {
                turn.last_call_failed = false;
                // A run cut short (cancel, crash, a throw) is judged by how the turn ends; a
                // normal message after such a run was already reported as CHUNK-3.
                if !call.seqs.is_empty() && step.message.is_none() {
                    turn.unfinished_call = call.first;
                }
            }
        }
    }

    /// MSG-2: deltas against their block ends, once per call.
    fn close_call(&mut self, call: &mut Call) {
        if call.closed {
            return;
        }
        call.closed = true;
        let mismatches: Vec<(Loc, u32, String, String, bool)> = call
            .delta_mismatches()
            .into_iter()
            .map(|(b, deltas, end)| {
                (
                    b.end_loc.unwrap_or(Loc { line: None, seq: 0 }),
                    b.index,
                    clip(deltas),
                    clip(&end),
                    same_characters(deltas, &end),
                )
            })
            .collect();
        for (at, index, deltas, end, reordered) in mismatches {
            self.report_diff(
                "MSG-2",
                at,
                format!("the deltas of block {index} do not concatenate to its `block-end` text: a delta was dropped, duplicated, reordered or rewritten"),
                format!("block-end text {end:?}"),
                format!("deltas {deltas:?}"),
            );
            if reordered && self.infer_chunk_fidelity {
                self.report(
                    "CHUNK-1",
                    at,
                    format!("the deltas of block {index} hold exactly the characters of its `block-end` text in another order: deltas were reordered"),
                );
            }
        }
    }

    /// STEP-3 for step-scoped events; returns whether a step is open.
    /// Parses the data of a step-scoped event and checks that it carries the open turn and
    /// step; `None` when either fails (the finding is already reported).
    fn step_scoped_data<'a>(
        &mut self,
        at: Loc,
        env: &Envelope<'a>,
        kind: &str,
    ) -> Option<Data<'a>> {
        let data = self.parse_data(at, env)?;
        let turn_no = data.turn.and_then(parse_u64);
        let step_no = data.step.and_then(parse_u64);
        self.step_scoped(at, kind, turn_no, step_no).then_some(data)
    }

    fn step_scoped(
        &mut self,
        at: Loc,
        kind: &str,
        turn_no: Option<u64>,
        step_no: Option<u64>,
    ) -> bool {
        let Some(step) = self.turn.as_ref().and_then(|t| t.step.as_ref()) else {
            self.report(
                "TURN-3",
                at,
                format!("`{kind}` must lie inside a step, but no step is open"),
            );
            return false;
        };
        let (t, s) = (step.turn, step.number);
        if turn_no != Some(t) || step_no != Some(s) {
            let show = |n: Option<u64>| n.map_or("none".to_owned(), |n| n.to_string());
            self.report_diff(
                "STEP-3",
                at,
                format!("`{kind}` does not carry the open turn and step"),
                format!("turn {t}, step {s}"),
                format!("turn {}, step {}", show(turn_no), show(step_no)),
            );
        }
        true
    }

    fn step_mut(&mut self) -> Option<&mut Step> {
        self.turn.as_mut().and_then(|t| t.step.as_mut())
    }

    // ---- chunks --------------------------------------------------------------------------

    fn chunk_event(&mut self, at: Loc, env: &Envelope<'_>) {
        let data: ChunkData<'_> = match serde_json::from_str(env.data.get()) {
            Ok(d) => d,
            Err(e) => {
                self.report(
                    "LOG-2",
                    at,
                    format!("malformed `assistant/chunk` data: {e}"),
                );
                return;
            }
        };
        self.chunk_data(at, data);
    }

    /// The fast path for the commonest line: a plain `assistant/chunk` event parsed in one
    /// pass (no surface metadata, which chunks never carry).
    pub fn plain_chunk(
        &mut self,
        line: Option<u64>,
        seq: Option<u64>,
        time: Option<&RawValue>,
        data: ChunkData<'_>,
    ) {
        let seq = self.resolve_seq(line, seq, "assistant/chunk");
        let at = loc(line, seq);
        if let Some(time) = time
            && time.get() != "null"
            && time.get().parse::<i64>().is_err()
        {
            self.report(
                "SEQ-2",
                at,
                format!("`time` is not an integer: {}", clip(time.get())),
            );
        }
        self.chunk_data(at, data);
    }

    fn chunk_data(&mut self, at: Loc, data: ChunkData<'_>) {
        let Some(raw) = data.chunk else {
            self.report("LOG-2", at, "`assistant/chunk` has no `data.chunk`");
            return;
        };
        let kind: &str = &raw.kind;
        let idx = raw.index;
        let chunk = match kind {
            "block-start" => match (idx, raw.block_type.as_deref()) {
                (Some(index), Some(bt)) => Chunk::BlockStart {
                    index,
                    block_type: bt,
                },
                _ => Chunk::Malformed {
                    kind,
                    why: "needs `index` and `blockType`",
                },
            },
            "text-delta" | "reasoning-delta" => match (idx, raw.text.as_deref()) {
                (Some(index), Some(text)) if kind == "text-delta" => {
                    Chunk::TextDelta { index, text }
                }
                (Some(index), Some(text)) => Chunk::ReasoningDelta { index, text },
                _ => Chunk::Malformed {
                    kind,
                    why: "needs `index` and `text`",
                },
            },
            "tool-call-delta" => match (idx, raw.arguments_delta.as_deref()) {
                (Some(index), Some(args)) => Chunk::ToolCallDelta {
                    index,
                    id: raw.id.as_deref().unwrap_or(""),
                    name: raw.name.as_deref(),
                    args,
                },
                _ => Chunk::Malformed {
                    kind,
                    why: "needs `index` and `argumentsDelta`",
                },
            },
            "block-end" => match (idx, raw.block) {
                (Some(index), Some(block)) => Chunk::BlockEnd { index, block },
                _ => Chunk::Malformed {
                    kind,
                    why: "needs `index` and `block`",
                },
            },
            "usage" => match raw.usage {
                Some(usage) => Chunk::Usage { usage },
                None => Chunk::Malformed {
                    kind,
                    why: "needs `usage`",
                },
            },
            "finish" => {
                let k = raw
                    .reason
                    .and_then(|r| serde_json::from_str::<KindOnly<'_>>(r.get()).ok())
                    .and_then(|k| k.kind);
                match k {
                    Some(k) => {
                        let owned = k.into_owned();
                        return self.chunk_finish(at, data.turn, data.step, &owned);
                    }
                    None => Chunk::Malformed {
                        kind,
                        why: "needs `reason.kind`",
                    },
                }
            }
            _ => Chunk::Malformed {
                kind,
                why: "is not a stream chunk type",
            },
        };
        self.chunk(at, data.turn, data.step, chunk);
    }

    fn chunk_finish(&mut self, at: Loc, turn: Option<u64>, step: Option<u64>, kind: &str) {
        self.chunk(at, turn, step, Chunk::Finish { kind });
    }

    fn chunk(&mut self, at: Loc, turn_no: Option<u64>, step_no: Option<u64>, chunk: Chunk<'_>) {
        if let Chunk::Malformed { kind, why } = chunk {
            self.report("LOG-2", at, format!("chunk `{kind}` {why}"));
        }
        if !self.step_scoped(at, "assistant/chunk", turn_no, step_no) {
            return;
        }
        let profile = self.profile;
        let mut pending: Vec<(&'static str, String)> = Vec::new();
        let mut closed_call: Option<Call> = None;
        {
            let Some(step) = self.step_mut() else { return };
            // Which model call does this chunk belong to?
            let after_failure = step
                .call
                .as_ref()
                .and_then(|c| c.finish.as_ref())
                .is_some_and(|f| f.failure);
            if after_failure {
                if profile == Profile::V2026_07 {
                    pending.push((
                        "CHUNK-6",
                        "a chunk follows a failed `finish` in the same step; 2026-07 has no in-step retries".to_owned(),
                    ));
                }
                closed_call = step.call.take();
            }
            if step.message.is_some() || step.interrupted_message {
                pending.push((
                    "CHUNK-2",
                    "a chunk follows the step's `assistant/message`: the model call's run is over"
                        .to_owned(),
                ));
            }
            if let Some((where_, kind)) = step.interleaved.take()
                && step
                    .call
                    .as_ref()
                    .is_some_and(|c| c.finish.is_none() && !c.closed)
            {
                pending.push((
                    "CHUNK-2",
                    format!(
                        "the model call's chunks are interrupted by `{kind}` (seq {}): a call's chunks are consecutive events",
                        where_.seq
                    ),
                ));
            }
            let call = step.call.get_or_insert_with(Call::default);
            if call.first.is_none() {
                call.first = Some(at);
            }
            if call.finish.is_some() && !after_failure {
                pending.push((
                    "CHUNK-2",
                    "a chunk follows `finish` in the same model call: nothing follows `finish`"
                        .to_owned(),
                ));
            }
            call.seqs.push(at.seq);
            if let Some(index) = chunk_index(&chunk)
                && !matches!(chunk, Chunk::BlockStart { .. })
                && !call.has_block(index)
            {
                pending.push((
                    "CHUNK-1",
                    format!("a chunk of block {index} before its `block-start`: a chunk was dropped or reordered"),
                ));
            }
            match chunk {
                Chunk::BlockStart { index, block_type } => {
                    if call.has_block(index) {
                        pending.push((
                            "CHUNK-1",
                            format!("`block-start` of block {index} after other chunks of that block: a chunk was duplicated or reordered"),
                        ));
                    }
                    let b = call.block(index);
                    b.started = true;
                    b.kind.get_or_insert_with(|| block_type.to_owned());
                }
                Chunk::TextDelta { index, text } | Chunk::ReasoningDelta { index, text } => {
                    let k = if matches!(chunk, Chunk::TextDelta { .. }) {
                        "text"
                    } else {
                        "reasoning"
                    };
                    let b = call.block(index);
                    if b.end.is_some() {
                        pending.push((
                            "CHUNK-1",
                            format!("a delta of block {index} after its `block-end`: a chunk was duplicated or reordered"),
                        ));
                    }
                    b.kind.get_or_insert_with(|| k.to_owned());
                    b.text.push_str(text);
                    b.deltas = b.deltas.saturating_add(1);
                }
                Chunk::ToolCallDelta {
                    index,
                    id,
                    name,
                    args,
                } => {
                    let b = call.block(index);
                    if b.end.is_some() {
                        pending.push((
                            "CHUNK-1",
                            format!("a delta of block {index} after its `block-end`: a chunk was duplicated or reordered"),
                        ));
                    }
                    b.kind.get_or_insert_with(|| "tool-call".to_owned());
                    if b.tool_id.is_none() && !id.is_empty() {
                        b.tool_id = Some(id.to_owned());
                    }
                    if let (None, Some(n)) = (&b.tool_name, name) {
                        b.tool_name = Some(n.to_owned());
                    }
                    b.text.push_str(args);
                    b.deltas = b.deltas.saturating_add(1);
                }
                Chunk::BlockEnd { index, block } => {
                    let b = call.block(index);
                    if b.end.is_some() {
                        pending.push((
                            "CHUNK-1",
                            format!(
                                "a second `block-end` of block {index}: a chunk was duplicated"
                            ),
                        ));
                    } else {
                        match serde_json::from_str::<Value>(block.get()) {
                            Ok(v) => {
                                b.kind.get_or_insert_with(|| block_type(&v).to_owned());
                                b.end = Some(v);
                                b.end_loc = Some(at);
                            }
                            Err(e) => {
                                pending.push(("LOG-2", format!("malformed `block-end.block`: {e}")))
                            }
                        }
                    }
                }
                Chunk::Usage { usage } => match serde_json::from_str::<Value>(usage.get()) {
                    Ok(v) => call.usage = Some(v),
                    Err(e) => pending.push(("LOG-2", format!("malformed usage: {e}"))),
                },
                Chunk::Finish { kind } => {
                    if call.finish.is_none() {
                        call.finish = Some(Finish {
                            kind: kind.to_owned(),
                            failure: matches!(kind, "error" | "aborted"),
                        });
                    }
                }
                Chunk::Malformed { .. } => {}
            }
        }
        if let Some(mut old) = closed_call {
            self.close_call(&mut old);
        }
        for (req, msg) in pending {
            self.report(req, at, msg);
        }
    }

    // ---- messages ------------------------------------------------------------------------

    fn message(&mut self, at: Loc, env: &Envelope<'_>) {
        let Some(data) = self.step_scoped_data(at, env, "assistant/message") else {
            return;
        };
        let msg_obj = data
            .message
            .and_then(|m| serde_json::from_str::<MessageObj<'_>>(m.get()).ok())
            .unwrap_or_default();
        let content_raw = msg_obj.content.or(data.content);
        let content: Vec<Value> =
            match content_raw.map(|c| serde_json::from_str::<Vec<Value>>(c.get())) {
                Some(Ok(c)) => c,
                Some(Err(e)) => {
                    self.report(
                        "LOG-2",
                        at,
                        format!("`assistant/message` content is not an array of blocks: {e}"),
                    );
                    return;
                }
                None => {
                    self.report(
                    "LOG-2",
                    at,
                    "`assistant/message` has no content (`data.message.content` or `data.content`)",
                );
                    return;
                }
            };
        let usage: Option<Value> = data
            .usage
            .filter(|u| u.get() != "null")
            .and_then(|u| serde_json::from_str(u.get()).ok());
        let interrupted = self.profile == Profile::V2026_08
            && data.interrupted.is_some_and(|v| v.get() == "true");
        let cited: Option<Vec<u64>> = env.source_event_seqs.and_then(parse_seqs);
        let infer = self.infer_chunk_fidelity;

        let mut findings: Pending = Vec::new();
        let mut closing: Option<Call> = None;
        {
            let Some(step) = self.step_mut() else { return };
            let call = step.call.clone().unwrap_or_default();
            // MSG-6: one non-interrupted message per step, before any tool call.
            if !interrupted && step.message.is_some() {
                findings.push((
                    "MSG-6",
                    "a second `assistant/message` in the same step".to_owned(),
                    None,
                ));
            }
            if !step.tool_calls.is_empty() {
                findings.push((
                    "MSG-6",
                    "the `assistant/message` comes after a `tool/call` of its step".to_owned(),
                    None,
                ));
            }
            // MSG-5: which calls are finalized.
            match &call.finish {
                Some(f) if f.failure => findings.push((
                    "MSG-5",
                    format!("an `assistant/message` finalizes a model call that failed (`finish` `{}`)", f.kind),
                    None,
                )),
                Some(f) if interrupted => findings.push((
                    "MSG-5",
                    format!("an `interrupted` message finalizes a model call that finished normally (`{}`)", f.kind),
                    None,
                )),
                None if !interrupted && !call.seqs.is_empty() => findings.push((
                    "CHUNK-3",
                    "the model call's chunk run has no `finish`, yet a normal `assistant/message` finalizes it".to_owned(),
                    Some(("a `finish` chunk before the message".to_owned(), "no `finish`".to_owned())),
                )),
                _ => {}
            }
            if interrupted && call.assembled(true).is_empty() {
                findings.push((
                    "MSG-5",
                    "an `interrupted` message for a cancelled call that streamed no non-whitespace text or reasoning".to_owned(),
                    None,
                ));
            }
            // MSG-1: provenance.
            let cited_or_empty = cited.clone().unwrap_or_default();
            if cited_or_empty != call.seqs {
                findings.push((
                    "MSG-1",
                    "`sourceEventSeqs` is not exactly the seqs of the model call's chunks"
                        .to_owned(),
                    Some((
                        seq_list(&call.seqs),
                        cited.as_deref().map_or("absent".to_owned(), seq_list),
                    )),
                ));
            }
            // CHUNK-1 through provenance: the message was built from the stream the loop
            // received, so a different number of recorded chunks means one was dropped or
            // duplicated on the way to the log (or the citation itself is wrong).
            if let Some(cited) = &cited
                && infer
                && cited.len() != call.seqs.len()
            {
                let what = if cited.len() > call.seqs.len() {
                    "dropped"
                } else {
                    "duplicated"
                };
                findings.push((
                    "CHUNK-1",
                    format!(
                        "the message cites {} chunk(s) but its model call recorded {}: a chunk was {what} (or the citation is wrong)",
                        cited.len(),
                        call.seqs.len()
                    ),
                    Some((
                        format!("{} chunks", cited.len()),
                        format!("{} chunks", call.seqs.len()),
                    )),
                ));
            }
            // MSG-3: content against the assembly.
            let assembled = call.assembled(interrupted);
            // A text the deltas rebuilt in another order than the message has (deltas only,
            // no block-end to compare with): the recorded deltas were reordered.
            let reordered = assembled.iter().zip(&content).any(|(a, c)| {
                matches!(block_type(a), "text" | "reasoning")
                    && block_type(a) == block_type(c)
                    && match (
                        a.get("text").and_then(Value::as_str),
                        c.get("text").and_then(Value::as_str),
                    ) {
                        (Some(x), Some(y)) => same_characters(x, y),
                        _ => false,
                    }
            });
            if reordered && infer {
                findings.push((
                    "CHUNK-1",
                    "the message text holds exactly the characters of its call's deltas in another order: deltas were reordered".to_owned(),
                    None,
                ));
            }
            if let Some((i, exp, obs)) = first_divergence(&assembled, &content) {
                findings.push((
                    "MSG-3",
                    format!("content block {i} differs from the assembly of the cited chunks"),
                    Some((exp, obs)),
                ));
            }
            // MSG-4: usage.
            if usage != call.usage {
                let show = |u: &Option<Value>| {
                    u.as_ref()
                        .map_or("absent".to_owned(), |v| clip(&v.to_string()))
                };
                findings.push((
                    "MSG-4",
                    "`usage` is not the last `usage` chunk of the call".to_owned(),
                    Some((show(&call.usage), show(&usage))),
                ));
            }
            let tool_blocks: Vec<Value> = content
                .iter()
                .filter(|b| block_type(b) == "tool-call")
                .cloned()
                .collect();
            if interrupted {
                step.interrupted_message = true;
            } else if step.message.is_none() {
                step.message = Some(MessageInfo {
                    tool_blocks,
                    max_tokens: call.finish.as_ref().is_some_and(|f| f.kind == "max-tokens"),
                });
            }
            if let Some(c) = step.call.as_mut()
                && !c.closed
            {
                closing = Some(c.clone());
                c.closed = true;
            }
        }
        if let Some(mut c) = closing {
            c.closed = false;
            self.close_call(&mut c);
        }
        self.report_pending(at, findings);
    }

    // ---- tools ---------------------------------------------------------------------------

    fn tool_call(&mut self, at: Loc, env: &Envelope<'_>) {
        let Some(data) = self.step_scoped_data(at, env, "tool/call") else {
            return;
        };
        let Some(call_id) = data.call_id.as_deref().map(str::to_owned) else {
            self.report("LOG-2", at, "`tool/call` has no `data.callId`");
            return;
        };
        let name = data.name.as_deref().map(str::to_owned);
        let arguments: Value = data
            .arguments
            .and_then(|a| serde_json::from_str(a.get()).ok())
            .unwrap_or(Value::Null);
        let profile = self.profile;
        let mut findings: Pending = Vec::new();
        {
            let Some(step) = self.step_mut() else { return };
            if profile == Profile::V2026_07
                && let Some(prev) = step.tool_calls.iter().find(|c| !c.answered)
            {
                findings.push((
                    "TOOL-3",
                    format!("`tool/call` {call_id} before call {} has its result: 2026-07 runs tools one at a time", prev.call_id),
                    Some((format!("`tool/result` of {}", prev.call_id), format!("`tool/call` {call_id}"))),
                ));
            }
            let mut block_pos = None;
            let after_failed_call = step
                .call
                .as_ref()
                .and_then(|c| c.finish.as_ref())
                .is_some_and(|f| f.failure);
            match &step.message {
                None if after_failed_call => findings.push((
                    "CHUNK-6",
                    format!("`tool/call` {call_id} follows a failed model call: after a failed call the step must end{}", if profile == Profile::V2026_08 { " or retry" } else { "" }),
                    None,
                )),
                None => findings.push((
                    "TOOL-4",
                    format!(
                        "`tool/call` {call_id} has no `assistant/message` in its step to come from"
                    ),
                    None,
                )),
                Some(msg) if msg.max_tokens => findings.push((
                    "TOOL-4",
                    format!("`tool/call` {call_id} dispatched from a `max-tokens` message"),
                    None,
                )),
                Some(msg) => {
                    let pos = msg.tool_blocks.iter().position(|b| {
                        b.get("id").and_then(Value::as_str) == Some(call_id.as_str())
                    });
                    match pos {
                        None => findings.push((
                            "TOOL-4",
                            format!("`tool/call` {call_id} matches no tool-call block of the step's message"),
                            None,
                        )),
                        Some(p) => {
                            block_pos = Some(p);
                            let b = &msg.tool_blocks[p];
                            let bname = b.get("name").and_then(Value::as_str);
                            if bname != name.as_deref() {
                                findings.push((
                                    "TOOL-4",
                                    format!("`tool/call` {call_id} names a different tool than its message block"),
                                    Some((format!("{bname:?}"), format!("{:?}", name.as_deref()))),
                                ));
                            }
                            let bargs = b.get("arguments").unwrap_or(&Value::Null);
                            if !arguments_equal(bargs, &arguments) {
                                findings.push((
                                    "TOOL-4",
                                    format!("`tool/call` {call_id} has different arguments than its message block"),
                                    Some((clip(&bargs.to_string()), clip(&arguments.to_string()))),
                                ));
                            }
                        }
                    }
                }
            }
            step.tool_calls.push(ToolCallRec {
                call_id,
                seq: at.seq,
                answered: false,
                block_pos,
            });
        }
        self.report_pending(at, findings);
    }

    fn tool_result(&mut self, at: Loc, env: &Envelope<'_>) {
        let Some(data) = self.step_scoped_data(at, env, "tool/result") else {
            return;
        };
        let msg_obj = data
            .message
            .and_then(|m| serde_json::from_str::<MessageObj<'_>>(m.get()).ok())
            .unwrap_or_default();
        let source_id = msg_obj
            .source
            .and_then(|s| serde_json::from_str::<CallSource<'_>>(s.get()).ok())
            .and_then(|s| s.call_id)
            .map(Cow::into_owned);
        let call_id = data.call_id.as_deref().map(str::to_owned).or(source_id);
        let code = data
            .error
            .and_then(|e| serde_json::from_str::<ErrorObj<'_>>(e.get()).ok())
            .and_then(|e| e.code)
            .map(Cow::into_owned);
        let synthetic_unstarted =
            matches!(code.as_deref(), Some("TOOL_NOT_STARTED" | "interrupted"));
        let cited: Option<Vec<u64>> = env.source_event_seqs.and_then(parse_seqs);
        let Some(call_id) = call_id else {
            self.report(
                "LOG-2",
                at,
                "`tool/result` names no call id (`data.callId` or `data.message.source.callId`)",
            );
            return;
        };
        let profile = self.profile;
        let mut findings: Pending = Vec::new();
        {
            let Some(step) = self.step_mut() else { return };
            let found = step
                .tool_calls
                .iter_mut()
                .find(|c| c.call_id == call_id && !c.answered);
            match found {
                Some(call) => {
                    call.answered = true;
                    let expected = vec![call.seq];
                    if cited.as_ref() != Some(&expected) {
                        findings.push((
                            "TOOL-2",
                            format!(
                                "the result of {call_id} does not cite exactly its `tool/call`"
                            ),
                            Some((
                                seq_list(&expected),
                                cited.as_deref().map_or("absent".to_owned(), seq_list),
                            )),
                        ));
                    }
                    if profile == Profile::V2026_08
                        && let Some(pos) = call.block_pos
                    {
                        if step.last_result_pos.is_some_and(|last| pos < last) {
                            findings.push((
                                "TOOL-3",
                                format!("the result of {call_id} is committed out of model order"),
                                None,
                            ));
                        }
                        step.last_result_pos =
                            Some(step.last_result_pos.map_or(pos, |l| l.max(pos)));
                    }
                }
                None if synthetic_unstarted => step.answered_unstarted.push(call_id.clone()),
                None => {
                    let twice = step.tool_calls.iter().any(|c| c.call_id == call_id);
                    let msg = if twice {
                        format!("a second `tool/result` for call {call_id}")
                    } else {
                        format!(
                            "`tool/result` for call {call_id}, which has no `tool/call` in this step"
                        )
                    };
                    findings.push(("TOOL-1", msg, None));
                }
            }
        }
        self.report_pending(at, findings);
    }

    // ---- steering (2026-07) ------------------------------------------------------------

    fn steering(&mut self, at: Loc, env: &Envelope<'_>) {
        let Some(data) = self.parse_data(at, env) else {
            return;
        };
        let turn_no = data.turn.and_then(parse_u64);
        let Some(turn) = self.turn.as_ref() else {
            return;
        };
        if turn_no != Some(turn.number) {
            let (expected, observed) = (turn.number, turn_no);
            self.report_diff(
                "STEER-1",
                at,
                "`steering/message` does not name the open turn",
                format!("turn {expected}"),
                observed.map_or("none".to_owned(), |n| format!("turn {n}")),
            );
        }
        let Some(step) = self.turn.as_ref().and_then(|t| t.step.as_ref()) else {
            return;
        };
        let failed = match &step.call {
            None => true,
            Some(c) => c.finish.as_ref().is_none_or(|f| f.failure),
        };
        if failed {
            self.report(
                "STEER-1",
                at,
                "`steering/message` inside a step that has no successful model call: steering lands between steps or after a successful step body",
            );
        }
    }

    /// Ends the log: reports an open tail, returns (findings, suppressed, events).
    pub fn finish(mut self) -> (Vec<Finding>, u64, u64) {
        if let Some(turn) = self.turn.take()
            && !turn.phantom
        {
            let step = turn.step.as_ref().map(|s| s.number);
            let msg = match step {
                Some(s) => format!(
                    "the log ends inside step {s} of turn {}: an open tail (neither closed nor crash-repaired)",
                    turn.number
                ),
                None => format!(
                    "the log ends inside turn {}: an open tail (neither closed nor crash-repaired)",
                    turn.number
                ),
            };
            self.report_diff(
                "TURN-4",
                turn.loc,
                msg,
                "`turn/end` before the end of the log",
                "end of log",
            );
        }
        (self.findings, self.suppressed, self.events)
    }
}
