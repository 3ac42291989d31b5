//! The durable side of a live trace: the turn boundaries of the log the implementation
//! appended, fed to the [`LiveChecker`] in the order the two were produced (an emit's `at` is
//! the log's length when it was emitted), so that live rules can say "before this turn's
//! `turn/end`" (LIVE-6, LIVE-7, LIVE-8).

use super::super::finding::Finding;
use super::LiveChecker;
use crate::vocab::Profile;
use crate::vocab::durable::SessionEvent;
use crate::vocab::live::LiveEmit;
use serde_json::Value;

/// The turn boundaries seen in the log so far.
#[derive(Debug, Default)]
pub(super) struct LogTurns {
    /// The open turn's number (0 if its `turn/start` named none).
    pub(super) open_turn: Option<u64>,
    /// The turns named by the log agent's `agent/error`s while the open turn was open.
    pub(super) errors_in_turn: Vec<Option<u64>>,
    /// The seq of the last `turn/end`.
    pub(super) last_end_seq: Option<u64>,
    /// The turn that ended because the agent was disposed, and the seq of its `turn/end`.
    pub(super) disposed_turn: Option<u64>,
    pub(super) disposed_seq: Option<u64>,
}

/// Whether a `turn/end` reason says the agent was disposed: 2026-07 `{kind: "disposed"}`,
/// 2026-08 `{kind: "aborted", reason: {kind: "disposed"}}`.
fn ended_by_dispose(reason: &Value) -> bool {
    let kind = |v: &Value| v.get("kind").and_then(Value::as_str).map(str::to_owned);
    match kind(reason).as_deref() {
        Some("disposed") => true,
        Some("aborted") => reason
            .get("reason")
            .is_some_and(|r| kind(r).as_deref() == Some("disposed")),
        _ => false,
    }
}

impl LiveChecker {
    /// Feeds one durable event of the log the trace goes with, at its place: after the emits
    /// whose `at` is at most its seq, before the others. Only turn boundaries matter here.
    pub fn durable(&mut self, seq: u64, kind: &str, data: &Value) {
        let turn = data.get("turn").and_then(Value::as_u64);
        match kind {
            "turn/start" => {
                let injection = data
                    .get("trigger")
                    .and_then(|t| t.get("kind"))
                    .and_then(Value::as_str)
                    == Some("injection");
                if !injection {
                    self.running_at_turn_start(seq, turn.unwrap_or(0));
                }
                self.log.open_turn = Some(turn.unwrap_or(0));
                self.log.errors_in_turn.clear();
            }
            "turn/end" => {
                let reason = data.get("reason").unwrap_or(&Value::Null);
                if reason.get("kind").and_then(Value::as_str) == Some("error") {
                    self.error_owed(seq, turn);
                }
                if ended_by_dispose(reason) {
                    self.log.disposed_turn = Some(turn.unwrap_or(0));
                    self.log.disposed_seq = Some(seq);
                }
                self.log.open_turn = None;
                self.log.errors_in_turn.clear();
                self.log.last_end_seq = Some(seq);
            }
            _ => {}
        }
    }
}

/// Checks a live trace together with the durable `log` it was recorded with (as `mirrorless
/// run` observes them): every rule of a trace alone, plus the rules that tie live events to the
/// log's turns (LIVE-6, LIVE-7, LIVE-8). `disposed_by_user` says the user disposed of the
/// agent, so the trace owes `agent/disposed`. When an emit lacks `at`, the two cannot be
/// merged and the trace is checked alone. Findings tied to a durable event carry its seq.
pub fn check_live_with_log(
    profile: Profile,
    log: &[SessionEvent],
    trace: &[LiveEmit],
    disposed_by_user: bool,
) -> Vec<Finding> {
    let mut checker = LiveChecker::new(profile);
    let merge = trace.iter().all(|e| e.at.is_some());
    let mut fed = 0usize;
    let mut feed_until = |checker: &mut LiveChecker, until: u64| {
        while fed < log.len() && (fed as u64) < until {
            let event = &log[fed];
            let seq = event.seq.unwrap_or(fed as u64);
            checker.durable(seq, &event.kind, &event.data);
            fed += 1;
        }
    };
    for emit in trace {
        if merge && let Some(at) = emit.at {
            feed_until(&mut checker, at);
        }
        checker.push(None, emit);
    }
    if merge {
        feed_until(&mut checker, u64::MAX);
    }
    if disposed_by_user {
        checker.expect_disposed();
    }
    checker.finish()
}
