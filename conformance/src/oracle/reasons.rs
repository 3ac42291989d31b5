//! TURN-7 against the script: each turn ends with the reason the script implies.

use super::expected::Expected;
use super::finding::{Finding, Origin};
use super::log_index::LogIndex;
use crate::vocab::durable::SessionEvent;
use serde_json::Value;

/// TURN-7 against the script: each turn ends with the reason the script implies. An expected
/// turn is judged by the `turn/end` recorded inside the recorded turn that plays it (after its
/// `turn/start`, before the next; [`LogIndex::aligned`]): a turn left open has none, which is
/// TURN-4's finding, and the next turn's end is never taken for its own.
pub(super) fn check_reasons(
    expected: &Expected,
    log: &[SessionEvent],
    ix: &LogIndex,
) -> Vec<Finding> {
    expected
        .turns
        .iter()
        .filter_map(|t| {
            let i = ix.turn_end(t.turn)?;
            let e = &log[i];
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
