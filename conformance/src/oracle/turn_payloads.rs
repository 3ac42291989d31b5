//! TURN-10 against the script: what a turn's boundaries say about why it started and why it
//! was cut short — the 2026-07 `turn/start.trigger`, and the cause of an `aborted` end.

use super::expected::Expected;
use super::finding::{Finding, Origin};
use super::log_index::LogIndex;
use crate::driver::Observation;
use crate::scenario::{Case, InterruptKind};
use crate::vocab::Profile;
use crate::vocab::durable::SessionEvent;
use serde_json::{Value, json};

/// The `reason` string of every `cancel` stream item the harness sends (stdio.md §4).
const CANCEL_REASON: &str = "cancelled";

/// What a boundary must carry, and what it carried.
struct Mismatch {
    position: usize,
    message: String,
    expected: String,
}

/// Whether `source` is a `MessageSource`: an object with a string `kind`.
fn is_source(source: Option<&Value>) -> bool {
    source
        .and_then(|s| s.get("kind"))
        .is_some_and(Value::is_string)
}

/// 2026-07: a prompt turn starts `{kind: "message", source: {kind: "user"}}`, an injection
/// `{kind: "injection", source}` with a `MessageSource`.
fn check_trigger(turn: u64, injection: bool, i: usize, e: &SessionEvent) -> Option<Mismatch> {
    let trigger = e.data.get("trigger");
    let ok = if injection {
        trigger.and_then(|t| t.get("kind")) == Some(&json!("injection"))
            && is_source(trigger.and_then(|t| t.get("source")))
    } else {
        trigger == Some(&json!({"kind": "message", "source": {"kind": "user"}}))
    };
    (!ok).then(|| Mismatch {
        position: i,
        message: format!(
            "turn {turn} starts with trigger {}: {}",
            trigger.map_or("<none>".to_owned(), Value::to_string),
            if injection {
                "an idle injection's trigger is `{kind: \"injection\", source}` with the injecting `MessageSource`"
            } else {
                "the user's prompt starts a turn with trigger `{kind: \"message\", source: {kind: \"user\"}}`"
            }
        ),
        expected: if injection {
            r#"trigger: {"kind":"injection","source":{"kind":…}}"#.to_owned()
        } else {
            r#"trigger: {"kind":"message","source":{"kind":"user"}}"#.to_owned()
        },
    })
}

/// The cause an `aborted` (2026-07 also `disposed`) end must carry for `interrupt`.
fn check_cause(
    profile: Profile,
    turn: u64,
    interrupt: InterruptKind,
    i: usize,
    e: &SessionEvent,
) -> Option<Mismatch> {
    let reason = e.data.get("reason")?;
    let cause = reason.get("reason");
    let (ok, expected, why) = match (profile, interrupt) {
        // Era M: `aborted {reason?: string}`, the string given to `cancel(reason)`.
        (Profile::V2026_07, InterruptKind::Cancel) => (
            cause.is_none_or(|c| c == CANCEL_REASON),
            format!(r#"{{"kind":"aborted","reason":"{CANCEL_REASON}"}}"#),
            format!("the cancel reason the user gave, `\"{CANCEL_REASON}\"`"),
        ),
        (Profile::V2026_07, InterruptKind::Dispose) => return None,
        (Profile::V2026_08, InterruptKind::Cancel) => (
            cause == Some(&json!({"kind": "user"})),
            r#"{"kind":"aborted","reason":{"kind":"user"}}"#.to_owned(),
            "the cause of a user's cancel, `{kind: \"user\"}`".to_owned(),
        ),
        (Profile::V2026_08, InterruptKind::Dispose) => (
            cause == Some(&json!({"kind": "disposed"})),
            r#"{"kind":"aborted","reason":{"kind":"disposed"}}"#.to_owned(),
            "the cause of a dispose, `{kind: \"disposed\"}`".to_owned(),
        ),
    };
    (!ok).then(|| Mismatch {
        position: i,
        message: format!(
            "turn {turn} ends `aborted` with cause {}: it must carry {why}",
            cause.map_or("<none>".to_owned(), Value::to_string)
        ),
        expected,
    })
}

/// TURN-10: the 2026-07 trigger of every delivered turn, and the cause of every turn the
/// user cancelled or disposed of that ended with the kind TURN-7 expects.
pub(super) fn check_turn_payloads(
    case: &Case,
    expected: &Expected,
    obs: &Observation,
    ix: &LogIndex,
) -> Vec<Finding> {
    let log = &obs.log;
    let delivered = obs.delivered_actions();
    // Each planned turn is judged on the recorded turn that plays it ([`LogIndex::aligned`]):
    // a turn nothing started, or one the plan does not have, plays none.
    let mut mismatches = Vec::new();
    for (n, turn) in case.script.plan(case.profile).iter().enumerate() {
        if !delivered.contains(&turn.action) {
            continue;
        }
        if case.profile == Profile::V2026_07
            && let Some(i) = ix.turn_start(turn.turn)
        {
            mismatches.extend(check_trigger(turn.turn, turn.injection, i, &log[i]));
        }
        let interrupt = case
            .script
            .calls_of(turn)
            .last()
            .and_then(|(_, c, _)| c.interrupt);
        let want = expected.turns.get(n).map(|t| t.reason);
        if let (Some(interrupt), Some(i)) = (interrupt, ix.turn_end(turn.turn))
            && want == Some(turn.reason)
            && log[i]
                .data
                .get("reason")
                .and_then(|r| r.get("kind"))
                .and_then(Value::as_str)
                == want
        {
            mismatches.extend(check_cause(
                case.profile,
                turn.turn,
                interrupt.kind,
                i,
                &log[i],
            ));
        }
    }
    mismatches
        .into_iter()
        .map(|m| Finding {
            requirement: "TURN-10",
            error: true,
            position: Some(m.position as u64),
            message: m.message,
            expected: vec![m.expected],
            observed: vec![format!(
                "#{} {} {}",
                m.position, log[m.position].kind, log[m.position].data
            )],
            origin: Origin::Oracle,
        })
        .collect()
}
