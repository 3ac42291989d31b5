//! An `assistant/message` read once: its `data` and `data.message` parsed in one pass each
//! into the union of the members every rule on a message reads (SURF-3's id, MSG-8's author,
//! MSG-9's shape, the message's own rules), instead of once per rule.
//!
//! Correct by construction: each member is read with the same type as the rule's own reading,
//! and a member given twice or of another type fails this reading as it would fail that one
//! (the union names more members, so it fails at least as often). When it fails, or
//! `data.message` is neither absent nor an object, every rule reads the event itself, as
//! before.

use super::Monitor;
use super::authors::AuthorFields;
use super::data::{Data, MessageObj};
use crate::check::event::{Envelope, Loc};
use crate::check::values::parse_u64;
use crate::vocab::Profile;
use serde::{Deserialize, Deserializer};
use serde_json::value::RawValue;
use std::borrow::Cow;

/// `assistant/message.data`: the members of [`Data`], and those the author and id checks read
/// (as present, `null` included, where a rule tells `null` from absent).
#[derive(Deserialize)]
struct MessageData<'a> {
    #[serde(borrow)]
    turn: Option<&'a RawValue>,
    #[serde(borrow)]
    step: Option<&'a RawValue>,
    #[serde(borrow)]
    content: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    message: Option<&'a RawValue>,
    #[serde(borrow)]
    usage: Option<&'a RawValue>,
    #[serde(borrow)]
    interrupted: Option<&'a RawValue>,
    #[serde(rename = "callId", borrow)]
    call_id: Option<Cow<'a, str>>,
    #[serde(borrow)]
    name: Option<Cow<'a, str>>,
    #[serde(borrow)]
    arguments: Option<&'a RawValue>,
    #[serde(borrow)]
    reason: Option<&'a RawValue>,
    #[serde(borrow)]
    trigger: Option<&'a RawValue>,
    #[serde(borrow)]
    error: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    id: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    role: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    source: Option<&'a RawValue>,
}

/// `data.message`: the members of [`MessageObj`] and those the author and id checks read.
#[derive(Deserialize)]
struct MessageFields<'a> {
    #[serde(borrow)]
    content: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    source: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    role: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    id: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    message: Option<&'a RawValue>,
}

/// A member that is present, `null` included.
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<&'de RawValue>, D::Error> {
    <&RawValue>::deserialize(d).map(Some)
}

/// A present member as `Option<&RawValue>` reads it: `null` is absent.
fn non_null(raw: Option<&RawValue>) -> Option<&RawValue> {
    raw.filter(|r| r.get() != "null")
}

/// The author members of a reading, as the author check holds them.
fn author_fields<'a>(
    source: Option<&'a RawValue>,
    role: Option<&'a RawValue>,
    id: Option<&'a RawValue>,
    message: Option<&'a RawValue>,
) -> AuthorFields<'a> {
    AuthorFields {
        source,
        role,
        id,
        message,
    }
}

impl Monitor {
    /// Checks a surface `assistant/message` (not a replace) from one reading of its `data`;
    /// `false` when that reading fails, and the caller checks it rule by rule.
    pub(super) fn message_read_once(&mut self, at: Loc, env: &Envelope<'_>) -> bool {
        let Ok(data) = serde_json::from_str::<MessageData<'_>>(env.data.get()) else {
            return false;
        };
        let nested = match data.message {
            None => None,
            Some(m) if m.get().starts_with('{') => {
                match serde_json::from_str::<MessageFields<'_>>(m.get()) {
                    Ok(fields) => Some(fields),
                    Err(_) => return false,
                }
            }
            Some(_) => return false,
        };
        // SURF-3: the id is in the message object (none to check without one).
        if self.profile == Profile::V2026_08
            && let Some(m) = &nested
        {
            self.message_id_is(at, env.kind, non_null(m.id), "data.message.id");
        }
        // MSG-8.
        let outer = author_fields(data.source, data.role, data.id, data.message);
        let inner = nested
            .as_ref()
            .map(|m| author_fields(m.source, m.role, m.id, m.message));
        self.message_author_read(at, env, &outer, inner.as_ref());
        // MSG-9.
        self.message_shape_read(
            at,
            env,
            data.content.is_some(),
            data.call_id.is_some(),
            nested.is_some(),
        );
        // The message's own rules.
        let turn_no = data.turn.and_then(parse_u64);
        let step_no = data.step.and_then(parse_u64);
        if !self.step_scoped(at, "assistant/message", turn_no, step_no) {
            return true;
        }
        let msg_obj = nested
            .as_ref()
            .map(|m| MessageObj {
                content: m.content,
                source: non_null(m.source),
            })
            .unwrap_or_default();
        let data = Data {
            turn: data.turn,
            step: data.step,
            content: data.content,
            message: non_null(data.message),
            usage: data.usage,
            interrupted: data.interrupted,
            call_id: data.call_id,
            name: data.name,
            arguments: data.arguments,
            reason: data.reason,
            trigger: data.trigger,
            error: data.error,
        };
        self.message_read(at, env, data, msg_obj);
        true
    }
}
