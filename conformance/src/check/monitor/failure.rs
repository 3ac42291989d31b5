//! The failure an `error` turn end carries (TURN-9): its shape per profile, not its values.

use super::Monitor;
use crate::check::event::Loc;
use crate::check::values::clip;
use crate::vocab::Profile;
use serde_json::Value;
use serde_json::value::RawValue;

impl Monitor {
    /// TURN-9 on the `reason` of a `turn/end` whose kind is `error`.
    pub(super) fn error_payload(&mut self, at: Loc, turn: u64, reason: &RawValue) {
        let Ok(Value::Object(r)) = serde_json::from_str::<Value>(reason.get()) else {
            return;
        };
        let is_string = |v: Option<&Value>| v.is_some_and(Value::is_string);
        let problem = match self.profile {
            Profile::V2026_07 => {
                if r.get("step").is_none_or(|s| s.as_u64().is_none()) {
                    Some("`step` must be a non-negative integer")
                } else if !is_string(r.get("message")) {
                    Some("`message` must be a string")
                } else if r.get("code").is_some_and(|c| !c.is_string()) {
                    Some("`code`, when present, must be a string")
                } else {
                    None
                }
            }
            Profile::V2026_08 => {
                // Logs written by earlier 2026-08 builds name the object `failure`.
                match r.get("error").or_else(|| r.get("failure")) {
                    Some(Value::Object(e)) => {
                        if !is_string(e.get("message")) {
                            Some("`error.message` must be a string")
                        } else if !is_string(e.get("code")) {
                            Some("`error.code` must be a string")
                        } else {
                            None
                        }
                    }
                    _ => Some("`error` must be the failure object `{message, code}`"),
                }
            }
        };
        if let Some(problem) = problem {
            let expected = match self.profile {
                Profile::V2026_07 => r#"{"kind":"error","step":…,"message":"…","code"?:"…"}"#,
                Profile::V2026_08 => r#"{"kind":"error","error":{"message":"…","code":"…"}}"#,
            };
            self.report_diff(
                "TURN-9",
                at,
                format!("turn {turn} ends `error` without its failure: {problem}"),
                expected,
                clip(reason.get()),
            );
        }
    }
}
