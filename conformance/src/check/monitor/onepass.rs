//! An `assistant/message` read once: its `data` and `data.message` parsed in one pass each
//! into the union of the members every rule on a message reads (SURF-3's id, MSG-8's author,
//! MSG-9's shape, the message's own rules), instead of once per rule.
//!
//! Correct by construction: each member is read with the same type as the rule's own reading,
//! and a member given twice or of another type fails this reading as it would fail that one
//! (the union names more members, so it fails at least as often). When it fails, or
//! `data.message` is neither absent nor an object, every rule reads the event itself, as
//! before.

use super::authors::{AuthorFields, author_fine_read};
use super::data::{Data, MessageObj};
use super::{Down, Monitor};
use crate::check::content::ContentBlock;
use crate::check::event::{Envelope, Loc};
use crate::check::values::{Str, parse_u64};
use crate::vocab::Profile;
use serde::de::{Error as _, IgnoredAny, MapAccess, Visitor};
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
pub(super) fn non_null(raw: Option<&RawValue>) -> Option<&RawValue> {
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

/// `assistant/message.data` read in the same pass as its line's envelope (see
/// `reader.rs`, `MessageLine`), down through `data.message` and the content, whose blocks are
/// read as they are read (`check/content.rs`: the writer's text blocks kept as their text,
/// any other block as its `Value`): the members [`MessageData`] and [`MessageFields`] read,
/// with the types they read them with, but `message` read as the object it is and `content`
/// as the blocks it holds. A member given twice, `data` or `data.message` not an object (`null` for
/// `data.message` aside) or a `content` that is not an array of blocks fails the reading, and
/// the line is read as before: so this reading is stricter than theirs, never laxer.
#[derive(Default)]
pub(in crate::check) struct MessageDown<'a> {
    turn: Option<&'a RawValue>,
    step: Option<&'a RawValue>,
    content: Option<Vec<ContentBlock<'a>>>,
    /// Absent, `null` (`Some(None)`) or an object.
    message: Option<Option<NestedDown<'a>>>,
    usage: Option<&'a RawValue>,
    interrupted: Option<&'a RawValue>,
    call_id: Option<Cow<'a, str>>,
    id: Option<&'a RawValue>,
    role: Option<&'a RawValue>,
    source: Option<&'a RawValue>,
}

/// `data.message`, read as [`MessageFields`] reads it, its content read as it is read.
#[derive(Default)]
struct NestedDown<'a> {
    content: Option<Vec<ContentBlock<'a>>>,
    source: Option<&'a RawValue>,
    role: Option<&'a RawValue>,
    id: Option<&'a RawValue>,
}

/// Reads the next value into `slot`, which must still be empty (a member given twice fails
/// the reading). `slot` holds `Some(value)` once read, `value` being the member's reading.
pub(super) fn once<'de, A: MapAccess<'de>, T: Deserialize<'de>>(
    map: &mut A,
    slot: &mut Option<T>,
    key: &str,
) -> Result<(), A::Error> {
    if slot.is_some() {
        return Err(A::Error::custom(format_args!("duplicate field `{key}`")));
    }
    *slot = Some(map.next_value()?);
    Ok(())
}

impl<'de> Deserialize<'de> for MessageDown<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(MessageDownVisitor)
    }
}

struct MessageDownVisitor;

impl<'de> Visitor<'de> for MessageDownVisitor {
    type Value = MessageDown<'de>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an assistant message's data")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<MessageDown<'de>, A::Error> {
        // `Some(reading)` once a member is read; the reading of an `Option` member is itself
        // `None` for `null`, as `Option` reads it.
        let mut turn = None;
        let mut step = None;
        let mut content = None;
        let mut message: Option<Nested<'de>> = None;
        let mut usage = None;
        let mut interrupted = None;
        let mut call_id = None;
        // Read as `MessageData` reads them (a `name` that is no string fails it), not kept.
        let mut name: Option<Option<Cow<'de, str>>> = None;
        let mut arguments: Option<Option<&'de RawValue>> = None;
        let mut reason: Option<Option<&'de RawValue>> = None;
        let mut trigger: Option<Option<&'de RawValue>> = None;
        let mut error: Option<Option<&'de RawValue>> = None;
        let mut id: Option<&'de RawValue> = None;
        let mut role: Option<&'de RawValue> = None;
        let mut source: Option<&'de RawValue> = None;
        while let Some(key) = map.next_key::<Str<'de>>()?.map(|k| k.0) {
            match key.as_ref() {
                "turn" => once(&mut map, &mut turn, "turn")?,
                "step" => once(&mut map, &mut step, "step")?,
                "content" => once(&mut map, &mut content, "content")?,
                "message" => once(&mut map, &mut message, "message")?,
                "usage" => once(&mut map, &mut usage, "usage")?,
                "interrupted" => once(&mut map, &mut interrupted, "interrupted")?,
                "callId" => once(&mut map, &mut call_id, "callId")?,
                "name" => once(&mut map, &mut name, "name")?,
                "arguments" => once(&mut map, &mut arguments, "arguments")?,
                "reason" => once(&mut map, &mut reason, "reason")?,
                "trigger" => once(&mut map, &mut trigger, "trigger")?,
                "error" => once(&mut map, &mut error, "error")?,
                "id" => once(&mut map, &mut id, "id")?,
                "role" => once(&mut map, &mut role, "role")?,
                "source" => once(&mut map, &mut source, "source")?,
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(MessageDown {
            turn: turn.flatten(),
            step: step.flatten(),
            content: content.flatten(),
            message: message.map(|m| m.0),
            usage: usage.flatten(),
            interrupted: interrupted.flatten(),
            call_id: call_id.flatten(),
            id,
            role,
            source,
        })
    }
}

/// `data.message` as it is written: `null` or an object (anything else fails the reading).
struct Nested<'a>(Option<NestedDown<'a>>);

impl<'de> Deserialize<'de> for Nested<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(NestedVisitor)
    }
}

struct NestedVisitor;

impl<'de> Visitor<'de> for NestedVisitor {
    type Value = Nested<'de>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("null or an object")
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<Nested<'de>, E> {
        Ok(Nested(None))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Nested<'de>, A::Error> {
        let mut content = None;
        let mut source: Option<&'de RawValue> = None;
        let mut role: Option<&'de RawValue> = None;
        let mut id: Option<&'de RawValue> = None;
        let mut message: Option<&'de RawValue> = None;
        while let Some(key) = map.next_key::<Str<'de>>()?.map(|k| k.0) {
            match key.as_ref() {
                "content" => once(&mut map, &mut content, "content")?,
                "source" => once(&mut map, &mut source, "source")?,
                "role" => once(&mut map, &mut role, "role")?,
                "id" => once(&mut map, &mut id, "id")?,
                "message" => once(&mut map, &mut message, "message")?,
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(Nested(Some(NestedDown {
            content: content.flatten(),
            source,
            role,
            id,
        })))
    }
}

impl Monitor {
    /// An `assistant/message` whose line was read in one pass, down through its content
    /// (`data` in `env` is then not read): checked as [`message_read_once`] checks it, or
    /// `false` (nothing done) when that reading would hand the message back to the
    /// rule-by-rule readings, which need `data` itself: `data.message` `null`, no content,
    /// an author to report, a replace, and the caller reads the line as before.
    ///
    /// [`message_read_once`]: Monitor::message_read_once
    pub(in crate::check) fn message_line(
        &mut self,
        env: &Envelope<'_>,
        message: MessageDown<'_>,
    ) -> bool {
        let (scope, surface) = self.scope_of(env.kind);
        let replace = env.surface_op.is_some_and(|op| op.get().starts_with('{'));
        if env.kind != "assistant/message"
            || scope.is_none()
            || !surface
            || replace
            || !self.message_once
        {
            return false;
        }
        let nested = match &message.message {
            None => None,
            Some(Some(m)) => Some(m),
            Some(None) => return false,
        };
        if nested
            .and_then(|m| m.content.as_ref())
            .or(message.content.as_ref())
            .is_none()
        {
            return false;
        }
        let outer = author_fields(message.source, message.role, message.id, None);
        let inner = nested.map(|m| author_fields(m.source, m.role, m.id, None));
        if author_fine_read(env.kind, self.profile, &outer, inner.as_ref()) != Some(true) {
            return false;
        }
        self.event_with(env, Some(Down::Message(message)));
        true
    }

    /// [`message_read_once`](Monitor::message_read_once)'s checks on a message
    /// [`message_line`](Monitor::message_line) accepted (its author known to be fine).
    pub(super) fn message_read_down(&mut self, at: Loc, env: &Envelope<'_>, data: MessageDown<'_>) {
        let nested = data.message.flatten();
        // SURF-3: the id is in the message object (none to check without one).
        if self.profile == Profile::V2026_08
            && let Some(m) = &nested
        {
            self.message_id_is(at, env.kind, non_null(m.id), "data.message.id");
        }
        // MSG-8: nothing to report (`message_line` asked).
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
            return;
        }
        let Some(content) = nested.and_then(|m| m.content).or(data.content) else {
            return;
        };
        self.message_content(at, env, data.usage, data.interrupted, content);
    }
}
