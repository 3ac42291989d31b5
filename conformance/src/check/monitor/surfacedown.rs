//! A `tool/result` or `user/message` line read once (issue #32 item 4): its `data` read in the
//! same serde_json pass as its envelope (`reader.rs`, `LineDown`), down through `data.message`,
//! into the union of the members every rule on such an event reads — SURF-3's id
//! (`ids.rs`), MSG-8's author (`authors.rs`), MSG-9's shape (`shapes.rs`) and the result's own
//! rules (`tools.rs`) — instead of once per rule.
//!
//! Correct by construction, as `onepass.rs` is for `assistant/message`: each member is read
//! with the type the rules' own readings read it with, and a member named twice or of another
//! type fails this reading as it fails theirs (the union names more members, so it fails at
//! least as often); `data.message` must be `null` or an object, the one case no rule reads
//! otherwise. A line this reading refuses, or that [`Monitor::surface_line`] hands back
//! before anything is reported (a replace, an author MSG-8 would report, which reads the
//! whole `data`), is read as before. So the findings are those of the general path; the
//! property test `a_result_or_prompt_read_in_one_pass_reports_what_each_rule_reports`
//! (`check/fast_equiv.rs`) compares them.

use super::authors::{AuthorFields, author_fine_read};
use super::onepass::{non_null, once};
use super::{Down, Monitor};
use crate::check::event::{Envelope, Loc};
use crate::check::values::{Str, parse_u64};
use crate::vocab::Profile;
use crate::vocab::durable::Scope;
use serde::de::{IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::value::RawValue;
use std::borrow::Cow;

/// A `tool/result`'s or `user/message`'s `data`: the members `Data` (`data.rs`), `Identity`
/// (`ids.rs`), `AuthorFields` (`authors.rs`) and `Flat` (`shapes.rs`) read, with the types
/// they read them with (as present, `null` included, where a rule tells `null` from absent),
/// but `message` read as the object it is.
#[derive(Default)]
pub(in crate::check) struct SurfaceDown<'a> {
    turn: Option<&'a RawValue>,
    step: Option<&'a RawValue>,
    /// `content` is there and not `null` (MSG-9).
    content: bool,
    /// Absent, `null` (`Some(None)`) or an object.
    message: Option<Option<SurfaceMessage<'a>>>,
    call_id: Option<Cow<'a, str>>,
    error: Option<&'a RawValue>,
    id: Option<&'a RawValue>,
    role: Option<&'a RawValue>,
    source: Option<&'a RawValue>,
}

/// `data.message`, read as `Identity`, `AuthorFields` and `MessageObj` read it (its
/// `content` skipped: no rule on these events reads it).
#[derive(Default)]
struct SurfaceMessage<'a> {
    source: Option<&'a RawValue>,
    role: Option<&'a RawValue>,
    id: Option<&'a RawValue>,
}

impl<'de> Deserialize<'de> for SurfaceDown<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(SurfaceDownVisitor)
    }
}

struct SurfaceDownVisitor;

impl<'de> Visitor<'de> for SurfaceDownVisitor {
    type Value = SurfaceDown<'de>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a tool result's or user message's data")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<SurfaceDown<'de>, A::Error> {
        // `Some(reading)` once a member is read; the reading of an `Option` member is itself
        // `None` for `null`, as `Option` reads it.
        let mut turn: Option<Option<&'de RawValue>> = None;
        let mut step: Option<Option<&'de RawValue>> = None;
        let mut content: Option<Option<&'de RawValue>> = None;
        let mut message: Option<Nested<'de>> = None;
        let mut call_id: Option<Option<Str<'de>>> = None;
        let mut error: Option<Option<&'de RawValue>> = None;
        // Read as `Data` reads them (a `name` that is no string fails it), not kept.
        let mut name: Option<Option<Str<'de>>> = None;
        let mut usage: Option<Option<&'de RawValue>> = None;
        let mut interrupted: Option<Option<&'de RawValue>> = None;
        let mut arguments: Option<Option<&'de RawValue>> = None;
        let mut reason: Option<Option<&'de RawValue>> = None;
        let mut trigger: Option<Option<&'de RawValue>> = None;
        let mut id: Option<&'de RawValue> = None;
        let mut role: Option<&'de RawValue> = None;
        let mut source: Option<&'de RawValue> = None;
        while let Some(key) = map.next_key::<Str<'de>>()?.map(|k| k.0) {
            match key.as_ref() {
                "turn" => once(&mut map, &mut turn, "turn")?,
                "step" => once(&mut map, &mut step, "step")?,
                "content" => once(&mut map, &mut content, "content")?,
                "message" => once(&mut map, &mut message, "message")?,
                "callId" => once(&mut map, &mut call_id, "callId")?,
                "error" => once(&mut map, &mut error, "error")?,
                "name" => once(&mut map, &mut name, "name")?,
                "usage" => once(&mut map, &mut usage, "usage")?,
                "interrupted" => once(&mut map, &mut interrupted, "interrupted")?,
                "arguments" => once(&mut map, &mut arguments, "arguments")?,
                "reason" => once(&mut map, &mut reason, "reason")?,
                "trigger" => once(&mut map, &mut trigger, "trigger")?,
                "id" => once(&mut map, &mut id, "id")?,
                "role" => once(&mut map, &mut role, "role")?,
                "source" => once(&mut map, &mut source, "source")?,
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(SurfaceDown {
            turn: turn.flatten(),
            step: step.flatten(),
            content: content.flatten().is_some(),
            message: message.map(|m| m.0),
            call_id: call_id.flatten().map(|s| s.0),
            error: error.flatten(),
            id,
            role,
            source,
        })
    }
}

/// `data.message` as it is written: `null` or an object (anything else fails the reading).
struct Nested<'a>(Option<SurfaceMessage<'a>>);

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
        // `content` as `MessageObj` reads it, `message` as `Identity` and `AuthorFields`
        // read it: not kept, but named twice they fail those readings, so this one.
        let mut content: Option<Option<&'de RawValue>> = None;
        let mut message: Option<&'de RawValue> = None;
        let mut source: Option<&'de RawValue> = None;
        let mut role: Option<&'de RawValue> = None;
        let mut id: Option<&'de RawValue> = None;
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
        Ok(Nested(Some(SurfaceMessage { source, role, id })))
    }
}

/// The author members of a reading, as the author check holds them (it reads `message` only
/// through the nested reading it is given).
fn author_fields<'a>(
    source: Option<&'a RawValue>,
    role: Option<&'a RawValue>,
    id: Option<&'a RawValue>,
) -> AuthorFields<'a> {
    AuthorFields {
        source,
        role,
        id,
        message: None,
    }
}

impl Monitor {
    /// A `tool/result` or `user/message` whose line was read in one pass (`data` in `env` is
    /// then not read): checked by [`surface_read_down`](Monitor::surface_read_down), or
    /// `false` (nothing done) when a rule would read `data` itself — another event type, a
    /// replace, an author MSG-8 would report — and the caller reads the line as before.
    pub(in crate::check) fn surface_line(
        &mut self,
        env: &Envelope<'_>,
        data: SurfaceDown<'_>,
    ) -> bool {
        if !matches!(env.kind, "tool/result" | "user/message") || !self.message_once {
            return false;
        }
        let (scope, surface) = self.scope_of(env.kind);
        let replace = env.surface_op.is_some_and(|op| op.get().starts_with('{'));
        if scope.is_none() || !surface || replace {
            return false;
        }
        let nested = data.message.as_ref().and_then(Option::as_ref);
        let outer = author_fields(data.source, data.role, data.id);
        let inner = nested.map(|m| author_fields(m.source, m.role, m.id));
        if author_fine_read(env.kind, self.profile, &outer, inner.as_ref()) != Some(true) {
            return false;
        }
        self.event_with(env, Some(Down::Surface(data)));
        true
    }

    /// The rules on a surface `tool/result` or `user/message` (not a replace) that
    /// [`surface_line`](Monitor::surface_line) accepted (its author known to be fine), in the
    /// order `event_with` runs them on the general path: SURF-3, MSG-9, then the result's own
    /// rules or, for a prompt, where it lies (TURN-3).
    pub(super) fn surface_read_down(
        &mut self,
        at: Loc,
        env: &Envelope<'_>,
        scope: Scope,
        data: SurfaceDown<'_>,
    ) {
        let nested = data.message.flatten();
        // SURF-3, as `message_id` reads it: `Identity`'s members, `null` absent.
        if self.profile == Profile::V2026_08 {
            match env.kind {
                "user/message" if non_null(data.id).is_some() || non_null(data.role).is_some() => {
                    self.message_id_is(at, env.kind, non_null(data.id), "data.id");
                }
                "tool/result" => {
                    if let Some(m) = &nested {
                        self.message_id_is(at, env.kind, non_null(m.id), "data.message.id");
                    }
                }
                _ => {}
            }
        }
        // MSG-8: nothing to report (`surface_line` asked).
        // MSG-9.
        self.message_shape_read(
            at,
            env,
            data.content,
            data.call_id.is_some(),
            nested.is_some(),
        );
        if env.kind != "tool/result" {
            self.enclosure(at, env.kind, scope);
            return;
        }
        let turn_no = data.turn.and_then(parse_u64);
        let step_no = data.step.and_then(parse_u64);
        if !self.step_scoped(at, "tool/result", turn_no, step_no) {
            return;
        }
        let source = nested.and_then(|m| non_null(m.source));
        self.tool_result_read(at, env, data.call_id, source, data.error);
    }
}
