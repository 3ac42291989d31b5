//! The state machine over one log's events: turns, steps, model calls, messages, tools.
//!
//! This file holds the monitor itself (its state, seq resolution, dispatch by event type and
//! the end of the log); each event family is checked in its own file.

mod authors;
mod chunks;
mod data;
mod failure;
mod ids;
mod messages;
mod onepass;
mod placement;
mod shapes;
mod state;
mod steering;
mod steps;
mod surface;
mod surfacedown;
mod tools;
mod turns;

use crate::check::event::{Envelope, Loc, loc};
use crate::check::finding::Finding;
use crate::check::finding::MAX_KEPT_FINDINGS;
use crate::check::values::{clip, parse_u64};
use crate::vocab::Profile;
use crate::vocab::durable::{Scope, event_type};
use data::Data;
pub(super) use onepass::MessageDown;
use serde_json::value::RawValue;
use state::{Pending, Step, Turn};
pub(super) use surfacedown::SurfaceDown;

/// A line's `data` read in the same pass as its envelope (the reader's `LineDown`), for the
/// event types read that way; `Envelope::data` is then not read.
pub(super) enum Down<'a> {
    /// An `assistant/message` (`onepass.rs`).
    Message(MessageDown<'a>),
    /// A `tool/result` or `user/message` (`surfacedown.rs`).
    Surface(SurfaceDown<'a>),
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
    /// The current event's `sourceEventSeqs`, once SURF-2 has read them (the message's MSG-1
    /// reads the same list: one parse per citation).
    citation: Option<Vec<u64>>,
    /// Whether an `assistant/message` is read once for all its rules (always, but in the
    /// tests that compare that with each rule's own reading).
    pub(super) message_once: bool,
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
            citation: None,
            message_once: true,
        }
    }

    /// The findings kept so far, in order.
    pub fn findings(&self) -> &[Finding] {
        &self.findings
    }

    pub fn push(&mut self, finding: Finding) {
        if self.findings.len() < MAX_KEPT_FINDINGS {
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

    /// One event.
    pub fn event(&mut self, env: &Envelope<'_>) {
        self.event_with(env, None);
    }

    /// The scope of event type `kind` under this profile, and whether it is a surface event
    /// (2026-08 logs recorded by earlier builds still carry 2026-07 core types, such as
    /// `steering/message` or `context/message`; HEAD readers accept them, so the checker
    /// does too, with their 2026-07 scope and surface flag).
    fn scope_of(&self, kind: &str) -> (Option<Scope>, bool) {
        let spec = event_type(kind);
        let mut scope = spec.and_then(|s| s.scope(self.profile));
        let mut surface = spec.is_some_and(|s| s.is_surface(self.profile));
        if scope.is_none()
            && self.profile == Profile::V2026_08
            && let Some(legacy) = spec.filter(|s| s.scope_2026_07.is_some())
        {
            scope = legacy.scope_2026_07;
            surface = legacy.is_surface(Profile::V2026_07);
        }
        (scope, surface)
    }

    /// One event; an `assistant/message`, `tool/result` or `user/message` whose whole line
    /// was read in one pass comes with that reading (`down`, see `onepass.rs` and
    /// `surfacedown.rs`), and its `env.data` is then not read.
    fn event_with(&mut self, env: &Envelope<'_>, down: Option<Down<'_>>) {
        self.citation = None;
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
        let (scope, surface) = self.scope_of(env.kind);
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
        match down {
            Some(Down::Message(message)) if surface && !replace => {
                self.message_read_down(at, env, message);
                return;
            }
            Some(Down::Surface(data)) if surface && !replace => {
                self.surface_read_down(at, env, scope, data);
                return;
            }
            _ => {}
        }
        if surface
            && !replace
            && env.kind == "assistant/message"
            && self.message_once
            && self.message_read_once(at, env)
        {
            return;
        }
        if surface && !replace {
            self.message_id(at, env);
            self.message_author(at, env);
            self.message_shape(at, env);
        }
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

    fn step_mut(&mut self) -> Option<&mut Step> {
        self.turn.as_mut().and_then(|t| t.step.as_mut())
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
