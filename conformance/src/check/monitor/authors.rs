//! Who wrote a message (MSG-8): every surface message names its author — a `source` object
//! with a string `kind`, and under 2026-08 the `role` of the message shape, the model's
//! `{kind: "model", provider, model}` and a tool result's `{kind: "tool", callId}`.

use super::Monitor;
use crate::check::event::{Envelope, Loc};
use crate::check::values::clip;
use crate::vocab::Profile;
use serde::{Deserialize, Deserializer};
use serde_json::value::RawValue;
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
fn author_problem(
    kind: &str,
    source: Option<&Value>,
    role: Option<&Value>,
    message_shape: bool,
) -> Option<String> {
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

/// The members of a message the author check reads, borrowed: the content, most of a
/// message's bytes, is skipped instead of being built as a `Value`. A member given twice fails
/// the parse, and the caller falls back to the full reading.
#[derive(Deserialize)]
pub(super) struct AuthorFields<'a> {
    #[serde(default, borrow, deserialize_with = "present")]
    pub(super) source: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    pub(super) role: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    pub(super) id: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    pub(super) message: Option<&'a RawValue>,
}

/// A member that is present, `null` included (as a map's `contains_key` sees it).
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<&'de RawValue>, D::Error> {
    <&RawValue>::deserialize(d).map(Some)
}

/// The kind of message `kind` is, where its author is, and whether it is in the message shape
/// (`None`: the event carries no author to check).
fn author_place<'m, M>(
    kind: &str,
    profile: Profile,
    data: &'m M,
    has: impl Fn(&M, &str) -> bool,
    message: impl Fn(&'m M) -> Option<&'m M>,
) -> Option<(&'m M, &'static str, bool)> {
    match (kind, profile) {
        ("user/message", p) => {
            let shape = p == Profile::V2026_08 && (has(data, "id") || has(data, "role"));
            Some((data, "data", shape))
        }
        ("steering/message" | "context/message", _) => Some((data, "data", false)),
        // 2026-08 wraps the message; the flat shape of earlier builds names its author in
        // `provenance` (assistant) or nowhere (tool result), which is not checked.
        ("assistant/message" | "tool/result", Profile::V2026_08) => {
            message(data).map(|m| (m, "data.message", true))
        }
        _ => None,
    }
}

/// Whether the borrowed reading of `data` shows the author as the full reading would see it
/// with nothing to report: `Some(true)`, fine; `Some(false)` or `None` (a member given twice,
/// a value `Value` cannot hold), ask the full reading.
fn author_fine_borrowed(kind: &str, profile: Profile, data: &str) -> Option<bool> {
    let data: AuthorFields<'_> = serde_json::from_str(data).ok()?;
    let inner: AuthorFields<'_>;
    let nested = match data.message {
        Some(m) if m.get().starts_with('{') => {
            inner = serde_json::from_str(m.get()).ok()?;
            Some(&inner)
        }
        _ => None,
    };
    author_fine_read(kind, profile, &data, nested)
}

/// [`author_fine_borrowed`] once `data`, and `data.message` when it is an object, are read.
pub(super) fn author_fine_read(
    kind: &str,
    profile: Profile,
    data: &AuthorFields<'_>,
    nested: Option<&AuthorFields<'_>>,
) -> Option<bool> {
    let has = |f: &AuthorFields<'_>, key: &str| match key {
        "id" => f.id.is_some(),
        _ => f.role.is_some(),
    };
    let Some((m, _, shape)) = author_place(kind, profile, data, has, |_| nested) else {
        return Some(true);
    };
    let value = |r: Option<&RawValue>| match r {
        Some(r) => serde_json::from_str::<Value>(r.get()).ok().map(Some),
        None => Some(None),
    };
    let (source, role) = (value(m.source)?, value(m.role)?);
    Some(author_problem(kind, source.as_ref(), role.as_ref(), shape).is_none())
}

/// `data.message`, when it is an object.
fn nested_message(data: &Map<String, Value>) -> Option<&Map<String, Value>> {
    match data.get("message") {
        Some(Value::Object(m)) => Some(m),
        _ => None,
    }
}

/// The full reading of `data` (a `Value`): where the author is and what is wrong with it.
fn author_problem_full(kind: &str, profile: Profile, data: &str) -> Option<(&'static str, String)> {
    // A malformed `data` is LOG-2's, reported by the event's own handler.
    let Ok(Value::Object(data)) = serde_json::from_str::<Value>(data) else {
        return None;
    };
    let has = |d: &Map<String, Value>, key: &str| d.contains_key(key);
    let (message, place, shape) = author_place(kind, profile, &data, has, nested_message)?;
    author_problem(kind, message.get("source"), message.get("role"), shape).map(|p| (place, p))
}

impl Monitor {
    /// MSG-8 on one surface message event (not a replace).
    pub(super) fn message_author(&mut self, at: Loc, env: &Envelope<'_>) {
        // Nearly every message is fine, which the borrowed reading shows without building the
        // content; anything else is decided by the full reading, as before.
        let fine = author_fine_borrowed(env.kind, self.profile, env.data.get());
        self.message_author_unless(at, env, fine);
    }

    /// MSG-8 on a surface message whose `data` (and `data.message`, an object, when `nested`
    /// is given) were already read with the members the author check reads.
    pub(super) fn message_author_read(
        &mut self,
        at: Loc,
        env: &Envelope<'_>,
        data: &AuthorFields<'_>,
        nested: Option<&AuthorFields<'_>>,
    ) {
        let fine = author_fine_read(env.kind, self.profile, data, nested);
        self.message_author_unless(at, env, fine);
    }

    /// MSG-8 by the full reading, unless the borrowed one found the author `fine`.
    fn message_author_unless(&mut self, at: Loc, env: &Envelope<'_>, fine: Option<bool>) {
        if fine == Some(true) {
            return;
        }
        if let Some((place, problem)) = author_problem_full(env.kind, self.profile, env.data.get())
        {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The borrowed reading never passes a message the full reading reports, and it does pass
    /// well-formed ones (else it saves nothing).
    #[test]
    fn the_borrowed_reading_agrees_with_the_full_one() {
        let model = r#"{"kind":"model","provider":"p","model":"m"}"#;
        let tool = r#"{"kind":"tool","callId":"c"}"#;
        let fine = [
            (
                "assistant/message",
                Profile::V2026_08,
                format!(
                    r#"{{"turn":1,"message":{{"id":"a","role":"assistant","content":[],"source":{model}}}}}"#
                ),
            ),
            (
                "tool/result",
                Profile::V2026_08,
                format!(r#"{{"message":{{"id":"t","role":"user","content":[],"source":{tool}}}}}"#),
            ),
            (
                "user/message",
                Profile::V2026_08,
                r#"{"id":"u","role":"user","content":[],"source":{"kind":"user"}}"#.to_owned(),
            ),
            (
                "user/message",
                Profile::V2026_07,
                r#"{"content":[],"source":{"kind":"user"}}"#.to_owned(),
            ),
            (
                "assistant/message",
                Profile::V2026_07,
                r#"{"content":[{"type":"text","text":"x"}]}"#.to_owned(),
            ),
        ];
        for (kind, profile, data) in &fine {
            assert_eq!(
                author_fine_borrowed(kind, *profile, data),
                Some(true),
                "{data}"
            );
            assert_eq!(author_problem_full(kind, *profile, data), None, "{data}");
        }
        let doubtful = [
            (
                "assistant/message",
                format!(r#"{{"message":{{"role":"assistant","source":{model},"source":{{}}}}}}"#),
            ),
            (
                "assistant/message",
                format!(r#"{{"message":{{"role":"assistant","role":"user","source":{model}}}}}"#),
            ),
            (
                "assistant/message",
                format!(r#"{{"message":{{"role":"user","source":{model}}}}}"#),
            ),
            (
                "assistant/message",
                r#"{"message":{"role":"assistant"}}"#.to_owned(),
            ),
            (
                "assistant/message",
                r#"{"message":{"role":"assistant","source":null}}"#.to_owned(),
            ),
            (
                "assistant/message",
                format!(r#"{{"message":{{"role":"assistant","source":{model}}},"message":{{}}}}"#),
            ),
            (
                "tool/result",
                r#"{"message":{"role":"tool","source":{"kind":"tool","callId":1}}}"#.to_owned(),
            ),
            (
                "user/message",
                r#"{"id":null,"content":[],"source":{"kind":"user"}}"#.to_owned(),
            ),
            (
                "user/message",
                r#"{"id":null,"content":[],"source":{"kind":"user"},"role":"x"}"#.to_owned(),
            ),
            (
                "user/message",
                r#"{"content":[],"source":{"kind":1e400}}"#.to_owned(),
            ),
            (
                "user/message",
                r#"{"content":[1e400],"source":{}}"#.to_owned(),
            ),
            (
                "user/message",
                r#"{"source":{"kind":"user"},"source":3}"#.to_owned(),
            ),
        ];
        for (kind, data) in &doubtful {
            for profile in [Profile::V2026_07, Profile::V2026_08] {
                if author_fine_borrowed(kind, profile, data) == Some(true) {
                    assert_eq!(
                        author_problem_full(kind, profile, data),
                        None,
                        "{profile} {data}"
                    );
                }
            }
        }
        // The full reading still reports what it reported.
        let missing = r#"{"message":{"role":"assistant"}}"#;
        assert!(author_problem_full("assistant/message", Profile::V2026_08, missing).is_some());
        assert_eq!(
            author_fine_borrowed("assistant/message", Profile::V2026_08, missing),
            Some(false)
        );
    }
}
