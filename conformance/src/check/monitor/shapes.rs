//! The era of a message's shape (MSG-9, 2026-07): era M's `assistant/message` and
//! `tool/result` are flat; the 2026-08 `message` object is unknown to its readers.

use super::Monitor;
use crate::check::event::{Envelope, Loc};
use crate::vocab::Profile;
use serde::Deserialize;
use serde_json::value::RawValue;

/// The fields of a 2026-07 message payload an era-M reader needs.
#[derive(Deserialize, Default)]
struct Flat<'a> {
    #[serde(borrow)]
    content: Option<&'a RawValue>,
    #[serde(rename = "callId", borrow)]
    call_id: Option<&'a RawValue>,
    #[serde(borrow)]
    message: Option<&'a RawValue>,
}

impl Monitor {
    /// MSG-9 on one surface event (not a replace).
    pub(super) fn message_shape(&mut self, at: Loc, env: &Envelope<'_>) {
        if self.profile != Profile::V2026_07
            || !matches!(env.kind, "assistant/message" | "tool/result")
        {
            return;
        }
        // A malformed `data` is LOG-2's, reported by the event's own handler.
        let Ok(data) = serde_json::from_str::<Flat<'_>>(env.data.get()) else {
            return;
        };
        let object = data.message.is_some_and(|m| m.get().starts_with('{'));
        self.message_shape_read(
            at,
            env,
            data.content.is_some(),
            data.call_id.is_some(),
            object,
        );
    }

    /// MSG-9 once `data` is read: whether it has `content` and `callId` (not `null`), and
    /// whether its `message` is an object.
    pub(super) fn message_shape_read(
        &mut self,
        at: Loc,
        env: &Envelope<'_>,
        has_content: bool,
        has_call_id: bool,
        message_object: bool,
    ) {
        if self.profile != Profile::V2026_07
            || !matches!(env.kind, "assistant/message" | "tool/result")
        {
            return;
        }
        if !message_object {
            return;
        }
        let mut missing = Vec::new();
        if !has_content {
            missing.push("`content`");
        }
        if env.kind == "tool/result" && !has_call_id {
            missing.push("`callId`");
        }
        if !missing.is_empty() {
            self.report_diff(
                "MSG-9",
                at,
                format!(
                    "`{}` is in the 2026-08 message shape (`data.message`) and lacks {} in `data`: a 2026-07 reader finds no message",
                    env.kind,
                    missing.join(", ")
                ),
                match env.kind {
                    "tool/result" => "{turn, step, callId, content, isError, error?}",
                    _ => "{turn, step, content, usage?}",
                },
                "{turn, step, message: {…}}",
            );
        }
    }
}
