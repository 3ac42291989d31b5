//! STEER-2 against the script: every steering message is recorded once, as the profile's
//! event, where the profile puts it.

use super::expected::Expected;
use super::finding::{Finding, Origin};
use super::log_index::LogIndex;
use crate::scenario::Case;
use crate::vocab::Profile;
use crate::vocab::durable::SessionEvent;
use serde_json::Value;

/// Whether `event` is a durable record of the steering message `text`, in either profile.
pub(super) fn records_steer(event: &SessionEvent, text: &str) -> bool {
    matches!(
        event.kind.as_str(),
        "steering/message" | "user/message" | "context/message"
    ) && texts_of(event).contains(&text)
}

/// The text blocks of a message-like event (2026-07 `content` or 2026-08 `message.content`).
pub(super) fn texts_of(event: &SessionEvent) -> Vec<&str> {
    let content = event
        .data
        .get("content")
        .or_else(|| event.data.get("message").and_then(|m| m.get("content")));
    content
        .and_then(Value::as_array)
        .map(|blocks| {
            blocks
                .iter()
                .filter_map(|b| b.get("text").and_then(Value::as_str))
                .collect()
        })
        .unwrap_or_default()
}

/// STEER-2: every steering message is recorded exactly once, as the profile's event, before
/// the model call that follows it.
pub(super) fn check_steering(
    case: &Case,
    expected: &Expected,
    log: &[SessionEvent],
    ix: &LogIndex,
) -> Vec<Finding> {
    let mut out = Vec::new();
    for s in &expected.steers {
        let records: Vec<usize> = log
            .iter()
            .enumerate()
            .filter(|(_, e)| records_steer(e, &s.text))
            .map(|(i, _)| i)
            .collect();
        let next_request = ix.first_in_step(log, "assistant/chunk", s.turn, s.step + 1);
        let turn_end = ix.turn_end(s.turn);
        let finding = |position: usize, message: String| Finding {
            requirement: "STEER-2",
            error: true,
            position: Some(position as u64),
            message,
            expected: vec![format!(
                "{} {:?} in turn {}, before the first chunk of step {}",
                match case.profile {
                    Profile::V2026_07 => "steering/message",
                    Profile::V2026_08 => "user/message (first events of the next step)",
                },
                s.text,
                s.turn,
                s.step + 1
            )],
            observed: records
                .iter()
                .map(|i| format!("#{i} {} {:?}", log[*i].kind, texts_of(&log[*i])))
                .collect(),
            origin: Origin::Oracle,
        };
        let fallback = next_request.or(turn_end).unwrap_or(log.len());
        match records.as_slice() {
            [] => out.push(finding(
                fallback,
                format!(
                    "the steering message {:?} sent during turn {} step {} was never recorded durably",
                    s.text, s.turn, s.step
                ),
            )),
            [only] => {
                let e = &log[*only];
                let before_next = next_request.is_none_or(|n| *only < n);
                let (want, placed) = match case.profile {
                    // Where exactly inside the turn is STEER-1's to judge.
                    Profile::V2026_07 => (
                        "steering/message",
                        before_next && ix.ords[*only].0 == s.turn && turn_end.is_none_or(|t| *only < t),
                    ),
                    Profile::V2026_08 => {
                        let opened = ix.step_start(s.turn, s.step + 1);
                        (
                            "user/message",
                            before_next
                                && opened.is_some_and(|o| {
                                    *only > o && log[o + 1..*only].iter().all(|x| x.kind == "user/message")
                                }),
                        )
                    }
                };
                if e.kind != want {
                    out.push(finding(
                        *only,
                        format!(
                            "the steering message {:?} was recorded as `{}`; under {} it is a `{want}`",
                            s.text, e.kind, case.profile
                        ),
                    ));
                } else if !placed {
                    out.push(finding(
                        *only,
                        format!(
                            "the steering message {:?} (turn {} step {}) was recorded at #{only}, {}",
                            s.text,
                            s.turn,
                            s.step,
                            match case.profile {
                                Profile::V2026_07 => "outside its turn or after the next model call started",
                                Profile::V2026_08 => "not among the first events of the next step",
                            }
                        ),
                    ));
                }
            }
            [_, second, ..] => out.push(finding(
                *second,
                format!(
                    "the steering message {:?} was recorded {} times: each steer is recorded exactly once",
                    s.text,
                    records.len()
                ),
            )),
        }
    }
    out
}
