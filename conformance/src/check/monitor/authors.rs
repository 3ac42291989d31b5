//! Who wrote a message (MSG-8): every surface message names its author — a `source` object
//! with a string `kind`, and under 2026-08 the `role` of the message shape, the model's
//! `{kind: "model", provider, model}` and a tool result's `{kind: "tool", callId}`.

use super::Monitor;
use crate::check::event::{Envelope, Loc};
use crate::check::values::clip;
use crate::vocab::Profile;
use serde_json::{Map, Value};

/// The roles a 2026-08 `tool/result` message may carry: the document's `"tool"`, and the
/// `"user"` the real upstream loop writes (`fixtures/check/2026-08/upstream/*`).
const TOOL_RESULT_ROLES: &[&str] = &["tool", "user"];

/// Whether `v` is an object whose `key` is a string (equal to `want`, when given).
fn has_string(v: Option<&Value>, key: &str, want: Option<&str>) -> bool {
    v.and_then(|s| s.get(key))
        .and_then(Value::as_str)
        .is_some_and(|s| want.is_none_or(|w| s == w))
}

/// What is wrong with the author of a message held in `m` (the event's `data` for a flat
/// message, `data.message` for an assistant message or tool result in the message shape).
fn author_problem(kind: &str, m: &Map<String, Value>, message_shape: bool) -> Option<String> {
    let source = m.get("source");
    let role = m.get("role");
    let want_role: &[&str] = match kind {
        "user/message" => &["user"],
        "assistant/message" => &["assistant"],
        "tool/result" => TOOL_RESULT_ROLES,
        _ => &[],
    };
    if message_shape
        && !want_role.is_empty()
        && !role
            .and_then(Value::as_str)
            .is_some_and(|r| want_role.contains(&r))
    {
        return Some(format!(
            "its `role` is {}, not {}",
            role.map_or("absent".to_owned(), |r| clip(&r.to_string())),
            want_role
                .iter()
                .map(|r| format!("`\"{r}\"`"))
                .collect::<Vec<_>>()
                .join(" or ")
        ));
    }
    let ok = match kind {
        "assistant/message" => {
            has_string(source, "kind", Some("model"))
                && has_string(source, "provider", None)
                && has_string(source, "model", None)
        }
        "tool/result" => {
            has_string(source, "kind", Some("tool")) && has_string(source, "callId", None)
        }
        _ => has_string(source, "kind", None),
    };
    (!ok).then(|| {
        let want = match kind {
            "assistant/message" => "`{kind: \"model\", provider, model}` (strings)",
            "tool/result" => "`{kind: \"tool\", callId}` (strings)",
            _ => "an object with a string `kind`",
        };
        format!(
            "its `source` is {}, not {want}",
            source.map_or("absent".to_owned(), |s| clip(&s.to_string()))
        )
    })
}

impl Monitor {
    /// MSG-8 on one surface message event (not a replace).
    pub(super) fn message_author(&mut self, at: Loc, env: &Envelope<'_>) {
        // A malformed `data` is LOG-2's, reported by the event's own handler.
        let Ok(Value::Object(data)) = serde_json::from_str::<Value>(env.data.get()) else {
            return;
        };
        let (message, place, shape) = match (env.kind, self.profile) {
            ("user/message", p) => {
                let shape = p == Profile::V2026_08
                    && (data.contains_key("id") || data.contains_key("role"));
                (&data, "data", shape)
            }
            ("steering/message" | "context/message", _) => (&data, "data", false),
            // 2026-08 wraps the message; the flat shape of earlier builds names its author in
            // `provenance` (assistant) or nowhere (tool result), which is not checked.
            ("assistant/message" | "tool/result", Profile::V2026_08) => match data.get("message") {
                Some(Value::Object(m)) => (m, "data.message", true),
                _ => return,
            },
            _ => return,
        };
        if let Some(problem) = author_problem(env.kind, message, shape) {
            self.report(
                "MSG-8",
                at,
                format!(
                    "`{}` does not name its author at `{place}`: {problem}",
                    env.kind
                ),
            );
        }
    }
}
