//! Message ids (SURF-3, 2026-08): every surface message in the 2026-08 message shape names
//! itself with a non-empty string `id`, and no two messages of a turn share one.

use super::Monitor;
use crate::check::event::{Envelope, Loc};
use crate::check::values::clip;
use crate::vocab::Profile;
use serde::Deserialize;
use serde_json::value::RawValue;
use std::borrow::Cow;

/// The fields that carry a message's identity: flat on `user/message`, inside `message` on
/// `assistant/message` and `tool/result`.
#[derive(Deserialize, Default)]
struct Identity<'a> {
    #[serde(borrow)]
    id: Option<&'a RawValue>,
    #[serde(borrow)]
    role: Option<&'a RawValue>,
    #[serde(borrow)]
    message: Option<&'a RawValue>,
}

impl Monitor {
    /// SURF-3 on one surface event (not a replace).
    pub(super) fn message_id(&mut self, at: Loc, env: &Envelope<'_>) {
        if self.profile != Profile::V2026_08 {
            return;
        }
        // A malformed `data` is LOG-2's, reported by the event's own handler.
        let Ok(data) = serde_json::from_str::<Identity<'_>>(env.data.get()) else {
            return;
        };
        let (raw_id, place) = match env.kind {
            // The 2026-08 shape is `{id, role, content, source}`; a flat `{content, source}`
            // (recorded by transitional builds) carries no identity to check.
            "user/message" if data.id.is_some() || data.role.is_some() => (data.id, "data.id"),
            "assistant/message" | "tool/result" => {
                let Some(message) = data
                    .message
                    .filter(|m| m.get().starts_with('{'))
                    .and_then(|m| serde_json::from_str::<Identity<'_>>(m.get()).ok())
                else {
                    return;
                };
                (message.id, "data.message.id")
            }
            _ => return,
        };
        self.message_id_is(at, env.kind, raw_id, place);
    }

    /// SURF-3 on a surface event whose id (`None`: absent or `null`) was read at `place`.
    pub(super) fn message_id_is(
        &mut self,
        at: Loc,
        kind: &str,
        raw_id: Option<&RawValue>,
        place: &str,
    ) {
        let id = raw_id.and_then(|r| serde_json::from_str::<Cow<'_, str>>(r.get()).ok());
        let Some(id) = id.filter(|i| !i.is_empty()) else {
            let observed = raw_id.map_or_else(|| "absent".to_owned(), |r| clip(r.get()));
            self.report_diff(
                "SURF-3",
                at,
                format!("`{kind}` has no message id: `{place}` must be a non-empty string"),
                "a non-empty string",
                observed,
            );
            return;
        };
        let Some(turn) = self.turn.as_mut() else {
            return;
        };
        let number = turn.number;
        match turn.message_ids.iter().find(|(seen, _)| *seen == *id) {
            Some(&(_, first)) => {
                let msg = format!(
                    "`{kind}` reuses message id {} of seq {first} in turn {number}: each message needs its own id",
                    clip(&format!("{id:?}"))
                );
                self.report("SURF-3", at, msg);
            }
            None => turn.message_ids.push((id.into_owned(), at.seq)),
        }
    }
}
