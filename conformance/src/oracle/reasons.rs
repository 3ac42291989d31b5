//! TURN-7 against the script: each turn ends with the reason the script implies.

use super::expected::Expected;
use super::finding::{Finding, Origin};
use crate::vocab::durable::SessionEvent;
use serde_json::Value;

/// TURN-7 against the script: each turn ends with the reason the script implies.
pub(super) fn check_reasons(expected: &Expected, log: &[SessionEvent]) -> Vec<Finding> {
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
