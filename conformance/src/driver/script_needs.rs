//! What a script needs at the least, against the [`CaseLimits`]: a script that cannot be
//! played within them (a hand-written or grown case file) is refused before it is played,
//! naming the limit, rather than played until the harness stops it and the stop blamed on the
//! implementation.

use super::{CaseLimits, Limit, LimitExceeded};
use crate::scenario::{Action, Case};

/// The least each limit a case costs: its model calls (each served once), its chunks (each
/// recorded as at least one durable event) and, for an out-of-process implementation, the
/// bytes of those chunks (each sent back inside an event).
fn needs(case: &Case, count_bytes: bool) -> CaseLimits {
    let mut need = CaseLimits {
        calls: 0,
        events: 0,
        bytes: 0,
    };
    for action in &case.script.actions {
        if let Action::Prompt { calls, .. } = action {
            for call in calls {
                need.calls = need.calls.saturating_add(1);
                need.events = need.events.saturating_add(call.chunks.len() as u64);
                if count_bytes {
                    for chunk in &call.chunks {
                        let bytes = serde_json::to_vec(chunk).map_or(0, |b| b.len() as u64);
                        need.bytes = need.bytes.saturating_add(bytes);
                    }
                }
            }
        }
    }
    need
}

/// Why `case` cannot be played within `limits` (the first limit it is over, with what it
/// needs and the option that raises it), or `None`. `count_bytes`: the driver counts bytes
/// (an out-of-process one).
pub fn over_limits(case: &Case, limits: &CaseLimits, count_bytes: bool) -> Option<String> {
    let need = needs(case, count_bytes);
    let over = [
        (Limit::Calls, need.calls, limits.calls, "model calls"),
        (
            Limit::Events,
            need.events,
            limits.events,
            "chunks, each recorded as an event",
        ),
        (
            Limit::Bytes,
            need.bytes,
            limits.bytes,
            "bytes of chunks, each sent back in an event",
        ),
    ]
    .into_iter()
    .find(|(_, need, max, _)| need > max)?;
    let (limit, need, max, what) = over;
    let flag = LimitExceeded { limit, value: max }.flag();
    Some(format!(
        "case {} (profile {}) cannot be played within the case limits: its script has {need} {what}, over {flag} {max}; it was not played (raise {flag} to play it)",
        case.id(),
        case.profile
    ))
}
