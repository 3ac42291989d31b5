//! SURF-3 over the whole session: a message id is never reused, in another turn either.
//!
//! The log checker compares ids within a turn, the state it holds in memory, so that
//! `mirrorless check` stays bounded on long logs; `mirrorless run` holds the whole case's log
//! and checks the rest of the sentence: an id used in an earlier turn may not come back.

use super::finding::{Finding, Origin};
use crate::vocab::Profile;
use crate::vocab::durable::SessionEvent;
use serde_json::Value;
use std::collections::BTreeMap;

/// The id of a 2026-08 message in the message shape (`user/message` with its `id`, the
/// `message` object of `assistant/message` and `tool/result`).
fn message_id(e: &SessionEvent) -> Option<&str> {
    match e.kind.as_str() {
        "user/message" => e.data.get("id"),
        "assistant/message" | "tool/result" => e.data.get("message").and_then(|m| m.get("id")),
        _ => None,
    }
    .and_then(Value::as_str)
    .filter(|id| !id.is_empty())
}

/// SURF-3: the first message whose id a message of an earlier turn already had. A repeat
/// within one turn is the checker's finding.
pub(super) fn check_message_ids(profile: Profile, log: &[SessionEvent]) -> Option<Finding> {
    if profile != Profile::V2026_08 {
        return None;
    }
    let mut turn = 0u64;
    let mut seen: BTreeMap<&str, (u64, usize)> = BTreeMap::new();
    for (i, e) in log.iter().enumerate() {
        if e.kind == "turn/start" {
            turn += 1;
        }
        let Some(id) = message_id(e) else { continue };
        match seen.get(id) {
            Some(&(first_turn, first)) if first_turn != turn => {
                return Some(Finding {
                    requirement: "SURF-3",
                    error: true,
                    position: Some(i as u64),
                    message: format!(
                        "message id {id:?} of this `{}` was already used by #{first} `{}` in an earlier turn: every message of the session has its own id",
                        e.kind, log[first].kind
                    ),
                    expected: vec![format!("an id no earlier message has (not {id:?})")],
                    observed: vec![
                        format!("#{first} {} {{id: {id:?}}}", log[first].kind),
                        format!("#{i} {} {{id: {id:?}}}", e.kind),
                    ],
                    origin: Origin::Oracle,
                });
            }
            Some(_) => {}
            None => {
                seen.insert(id, (turn, i));
            }
        }
    }
    None
}
