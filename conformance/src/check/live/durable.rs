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

/// A turn as a message names it: `turn 3`, or `a turn` when its number is unknown (0).
pub(super) fn turn_name(turn: u64) -> String {
    if turn == 0 {
        "a turn".to_owned()
    } else {
        format!("turn {turn}")
    }
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
    /// A `session/event` record of a trace recorded without its log (as upstream's recorder
    /// writes them: `data: {seq, type}`, optionally the event's own `data`): its turn
    /// boundaries stand for the log's. A 2026-07 `turn/start` whose trigger is not recorded may
    /// be an idle injection, which changes no status, so it is not held to LIVE-6.
    pub(super) fn session_event(&mut self, line: Option<u64>, emit: &LiveEmit) {
        let d = &emit.data;
        let (Some(seq), Some(kind)) = (
            d.get("seq").and_then(Value::as_u64),
            d.get("type").and_then(Value::as_str),
        ) else {
            return;
        };
        let data = d.get("data").cloned().unwrap_or(Value::Null);
        let unknown_trigger = data.get("trigger").is_none() && self.profile == Profile::V2026_07;
        if kind == "turn/start" && unknown_trigger {
            self.fact_appended(seq, kind, &data);
            self.log.open_turn = Some(data.get("turn").and_then(Value::as_u64).unwrap_or(0));
            self.log.errors_in_turn.clear();
            self.log.idle_in_turn = None;
            return;
        }
        let before = self.findings.len();
        self.durable(seq, kind, &data);
        // Point the findings at the trace line of the record.
        for f in &mut self.findings[before..] {
            f.line = f.line.or(line);
        }
    }

    /// Feeds one durable event of the log the trace goes with, at its place: after the emits
    /// whose `at` is at most its seq, before the others. Turn boundaries matter here, and every
    /// event's fact for LIVE-9 (a live emit next to it that repeats it).
    pub fn durable(&mut self, seq: u64, kind: &str, data: &Value) {
        self.fact_appended(seq, kind, data);
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
                self.log.idle_in_turn = None;
            }
            "turn/end" => {
                self.idle_before_turn_end(seq);
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
    checker.marks_from_trace = false;
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn durable(seq: u64, kind: &str, data: Value) -> SessionEvent {
        serde_json::from_value(json!({"type": kind, "seq": seq, "data": data}))
            .expect("a session event")
    }

    fn emit(event: &str, data: Value, at: u64) -> LiveEmit {
        LiveEmit {
            event: event.to_owned(),
            agent: Some("a".to_owned()),
            data,
            at: Some(at),
        }
    }

    fn status(s: &str, at: u64) -> LiveEmit {
        emit("agent/status", json!({ "status": s }), at)
    }

    fn start() -> Vec<LiveEmit> {
        vec![
            emit("agent/created", Value::Null, 0),
            emit("agent/session-start", json!({"source": "startup"}), 0),
        ]
    }

    /// One 2026-08 turn, `turn/start` at seq 0 and `turn/end` at seq 1 with `reason`.
    fn turn(reason: Value) -> Vec<SessionEvent> {
        vec![
            durable(0, "turn/start", json!({"turn": 1})),
            durable(1, "turn/end", json!({"turn": 1, "reason": reason})),
        ]
    }

    fn ids(log: &[SessionEvent], trace: &[LiveEmit], disposed: bool) -> Vec<&'static str> {
        check_live_with_log(Profile::V2026_08, log, trace, disposed)
            .iter()
            .map(|f| f.requirement)
            .collect()
    }

    #[test]
    fn a_well_timed_turn_passes() {
        let mut trace = start();
        trace.extend([status("running", 0), status("idle", 2)]);
        assert!(ids(&turn(json!({"kind": "completed"})), &trace, false).is_empty());
    }

    #[test]
    fn status_timing_is_checked_against_the_turn() {
        let log = turn(json!({"kind": "completed"}));
        // `running` only after `turn/start` was appended
        let mut late = start();
        late.extend([status("running", 1), status("idle", 2)]);
        assert_eq!(ids(&log, &late, false), ["LIVE-6"]);
        // `idle` before the `turn/end`
        let mut early = start();
        early.extend([status("running", 0), status("idle", 1)]);
        assert_eq!(ids(&log, &early, false), ["LIVE-6"]);
        // `idle` inside a turn that never ends is left to TURN-4
        let open = &log[..1];
        assert!(ids(open, &early, false).is_empty());
        // still running at the end
        let mut running = start();
        running.push(status("running", 0));
        let found = check_live_with_log(Profile::V2026_08, &log, &running, false);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!((found[0].requirement, found[0].seq), ("LIVE-6", Some(1)));
        // alone, the same traces show nothing about timing
        assert!(ids(&[], &late, false).is_empty());
    }

    #[test]
    fn a_2026_07_idle_injection_changes_no_status() {
        let log = vec![
            durable(
                0,
                "turn/start",
                json!({"turn": 1, "trigger": {"kind": "injection"}}),
            ),
            durable(
                1,
                "turn/end",
                json!({"turn": 1, "reason": {"kind": "completed"}}),
            ),
        ];
        let trace = [emit("agent/created", Value::Null, 0)];
        assert!(check_live_with_log(Profile::V2026_07, &log, &trace, false).is_empty());
    }

    #[test]
    fn a_failed_turn_owes_an_agent_error_naming_it() {
        let log = turn(json!({"kind": "error", "error": {"message": "boom", "code": "E"}}));
        let error = |turn: u64, at: u64| {
            emit(
                "agent/error",
                json!({"turn": turn, "step": 1, "error": {"message": "boom"}}),
                at,
            )
        };
        let mut trace = start();
        trace.extend([status("running", 0), error(1, 1), status("idle", 2)]);
        assert!(ids(&log, &trace, false).is_empty());
        let mut missing = start();
        missing.extend([status("running", 0), status("idle", 2)]);
        assert_eq!(ids(&log, &missing, false), ["LIVE-8"]);
        // the number it names is TURN-1's business, not LIVE-8's
        let mut other = start();
        other.extend([status("running", 0), error(7, 1), status("idle", 2)]);
        assert!(ids(&log, &other, false).is_empty());
        // after the `turn/end` is too late
        let mut late = start();
        late.extend([status("running", 0), error(1, 2), status("idle", 2)]);
        assert_eq!(ids(&log, &late, false), ["LIVE-8"]);
    }

    #[test]
    fn a_dispose_owes_agent_disposed() {
        let log = turn(json!({"kind": "aborted", "reason": {"kind": "disposed"}}));
        let mut trace = start();
        trace.push(status("running", 0));
        assert_eq!(ids(&log, &trace, false), ["LIVE-7"]);
        trace.push(emit("agent/disposed", Value::Null, 2));
        assert!(ids(&log, &trace, false).is_empty());
        // the user disposed of an idle agent: no turn says so, the script does
        let idle = start();
        assert_eq!(ids(&[], &idle, true), ["LIVE-7"]);
        assert!(ids(&[], &idle, false).is_empty());
    }

    #[test]
    fn session_events_recorded_in_a_trace_stand_for_the_log() {
        let mark = |seq: u64, kind: &str, at: u64| {
            let mut e = emit("session/event", json!({"seq": seq, "type": kind}), at);
            e.agent = None;
            e
        };
        let mut late = start();
        late.extend([
            mark(0, "turn/start", 1),
            status("running", 1),
            mark(1, "turn/end", 2),
            status("idle", 2),
        ]);
        let mut checker = LiveChecker::new(Profile::V2026_08);
        for (i, e) in late.iter().enumerate() {
            checker.push(Some(i as u64 + 1), e);
        }
        let found = checker.finish();
        let got: Vec<_> = found.iter().map(|f| (f.requirement, f.line)).collect();
        assert_eq!(got, [("LIVE-6", Some(3))], "{found:?}");
        // fed the log as well, the trace's own records are not counted twice
        assert_eq!(
            ids(&turn(json!({"kind": "completed"})), &late, false),
            ["LIVE-6"]
        );
        // a 2026-07 turn whose trigger is not recorded may be an idle injection
        let mut checker = LiveChecker::new(Profile::V2026_07);
        for e in &late {
            checker.push(None, e);
        }
        assert!(checker.finish().is_empty());
    }

    #[test]
    fn a_trace_without_at_is_checked_alone() {
        let log = turn(json!({"kind": "completed"}));
        let mut trace = start();
        trace.push(status("running", 0));
        trace[2].at = None;
        assert!(ids(&log, &trace, false).is_empty());
    }
}
