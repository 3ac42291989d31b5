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
/// the model call that follows it. Steering sent during a call that ended its turn early (a
/// failure, a cancel) is left over. Under 2026-07 a failure re-enqueues it, and it runs at
/// once as a turn of its own: its `user/message`s, right after `turn/start`, are that turn's
/// prompt; a cancel drops it (upstream `Agent.cancel`), so it is never recorded. Under 2026-08
/// the next turn claims it among the first events of its first step. Never in the failed step
/// (STEER-1 judges that on the log under 2026-07).
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
        // The turn and step that claim the steering.
        let (turn, step) = match s.leftover_to {
            Some(next) => (next, 1),
            None => (s.turn, s.step + 1),
        };
        let next_request = ix.first_in_step(log, "assistant/chunk", turn, step);
        let turn_end = ix.turn_end(turn);
        let want_text = match (case.profile, s.leftover_to) {
            (Profile::V2026_07, None) => format!(
                "steering/message {:?} in turn {turn}, before the first chunk of step {step}",
                s.text
            ),
            (Profile::V2026_08, None) => format!(
                "user/message {:?} among the first events of turn {turn} step {step}",
                s.text
            ),
            _ if s.dropped => format!(
                "no record of {:?}: the cancel of turn {} dropped it",
                s.text, s.turn
            ),
            (Profile::V2026_07, Some(_)) => format!(
                "user/message {:?} as the prompt of turn {turn}, right after its turn/start (left over from turn {}, whose call failed)",
                s.text, s.turn
            ),
            (Profile::V2026_08, Some(_)) => format!(
                "user/message {:?} in turn {turn} step 1 right after its `step/start`, before the prompt (left over from turn {}, which ended early)",
                s.text, s.turn
            ),
        };
        // A 2026-07 leftover turn starts right after the failed turn's `turn/end`.
        let leftover_start = match (case.profile, s.leftover_to) {
            (Profile::V2026_07, Some(_)) if !s.dropped => ix.turn_end(s.turn).map(|i| i + 1),
            _ => None,
        };
        let fallback = leftover_start
            .or(next_request)
            .or(turn_end)
            .unwrap_or(log.len())
            .min(log.len());
        // A missing or misplaced 2026-07 leftover turn is found where it should have begun,
        // at the failed turn's `turn/end`: everything after it is numbered one turn off, so
        // later findings are its consequences.
        let failed_turn_end = leftover_start.map(|i| i - 1);
        let finding = |position: usize, message: String| Finding {
            requirement: "STEER-2",
            error: true,
            position: Some(failed_turn_end.map_or(position, |end| end.min(position)) as u64),
            message,
            expected: vec![want_text.clone()],
            observed: records
                .iter()
                .map(|i| format!("#{i} {} {:?}", log[*i].kind, texts_of(&log[*i])))
                .collect(),
            origin: Origin::Oracle,
        };
        let leftover = if s.leftover_to.is_some() {
            ", whose call ended the turn early,"
        } else {
            ""
        };
        if s.dropped {
            if let Some(first) = records.first() {
                out.push(finding(
                    *first,
                    format!(
                        "the steering message {:?} sent during turn {} step {} was recorded, but the cancel of that turn drops pending steering (2026-07 `cancel()`: steering for the cancelled turn is not re-enqueued)",
                        s.text, s.turn, s.step
                    ),
                ));
            }
            continue;
        }
        // The other steers left over by the same call: a 2026-07 leftover turn's prompt is all
        // of them, in order.
        let siblings: Vec<&str> = expected
            .steers
            .iter()
            .filter(|o| o.turn == s.turn && o.step == s.step && o.leftover_to == s.leftover_to)
            .map(|o| o.text.as_str())
            .collect();
        // 2026-08: the log records the cancel of the steer's turn discarding the inbox, so
        // the steer is gone; a record of it all the same is one the user's inbox never held.
        let discarded = s.optional
            && log
                .iter()
                .enumerate()
                .any(|(i, e)| ix.ords[i].0 == s.turn && is_cancel_discard(e));
        match records.as_slice() {
            [] if s.optional && discards_on_cancel(log) => {}
            [first, ..] if discarded => out.push(finding(
                *first,
                format!(
                    "the steering message {:?} sent during turn {} step {} was recorded, but the log records the cancel of that turn discarding it (`agent/inbox/spliced {{outcome: \"canceled\"}}`): a discarded steer is never recorded",
                    s.text, s.turn, s.step
                ),
            )),
            [] => out.push(finding(
                fallback,
                format!(
                    "the steering message {:?} sent during turn {} step {}{leftover} was never recorded durably{}",
                    s.text,
                    s.turn,
                    s.step,
                    if leftover_start.is_some() {
                        format!(
                            ": under 2026-07 a failed call's leftover steering runs at once as a turn of its own, right after turn {}'s `turn/end`",
                            s.turn
                        )
                    } else {
                        String::new()
                    }
                ),
            )),
            [only] => {
                let e = &log[*only];
                let before_next = next_request.is_none_or(|n| *only < n);
                // Among the first events of the claiming step (after its `step/start`).
                let first_in_step = || {
                    ix.step_start(turn, step).is_some_and(|o| {
                        *only > o && log[o + 1..*only].iter().all(|x| x.kind == "user/message")
                    })
                };
                let (want, placed) = match (case.profile, s.leftover_to) {
                    // Where exactly inside the turn is STEER-1's to judge.
                    (Profile::V2026_07, None) => (
                        "steering/message",
                        before_next && ix.ords[*only].0 == turn && turn_end.is_none_or(|t| *only < t),
                    ),
                    // The turn's prompt: between the failed turn's end and the first step of
                    // the turn it starts, with nothing but that turn's `turn/start` and the
                    // records of the steers left over with it around it (whether it lies inside
                    // the turn is TURN-3's).
                    (Profile::V2026_07, Some(_)) => (
                        "user/message",
                        leftover_start.is_some_and(|from| {
                            from <= *only
                                && ix.step_start(turn, 1).is_none_or(|first| *only < first)
                                && log[from..*only].iter().all(|x| {
                                    x.kind == "turn/start"
                                        || (x.kind == "user/message"
                                            && siblings.iter().any(|t| texts_of(x).contains(t)))
                                })
                        }),
                    ),
                    // Claimed from the `next-step` inbox before the prompt's `next-turn` one:
                    // the first events of step 1, preceded only by the other leftover records.
                    (Profile::V2026_08, Some(_)) => (
                        "user/message",
                        before_next
                            && ix.step_start(turn, step).is_some_and(|o| {
                                *only > o
                                    && log[o + 1..*only].iter().all(|x| {
                                        x.kind == "user/message"
                                            && siblings.iter().any(|t| texts_of(x).contains(t))
                                    })
                            }),
                    ),
                    (Profile::V2026_08, None) => ("user/message", before_next && first_in_step()),
                };
                if e.kind != want {
                    out.push(finding(
                        *only,
                        format!(
                            "the steering message {:?}{} was recorded as `{}`; under {} it is a `{want}`",
                            s.text,
                            if s.leftover_to.is_some() { " (left over from a turn that ended early)" } else { "" },
                            e.kind,
                            case.profile
                        ),
                    ));
                } else if !placed {
                    out.push(finding(
                        *only,
                        format!(
                            "the steering message {:?} (turn {} step {}{}) was recorded at #{only}, {}",
                            s.text,
                            s.turn,
                            s.step,
                            if s.leftover_to.is_some() { "; left over, as its call ended the turn early" } else { "" },
                            match (case.profile, s.leftover_to) {
                                (Profile::V2026_07, None) => "outside its turn or after the next model call started".to_owned(),
                                (Profile::V2026_08, None) => "not among the first events of the next step".to_owned(),
                                (Profile::V2026_07, Some(next)) => format!("not as the prompt of turn {next}, the turn it starts (right after its `turn/start`)"),
                                (Profile::V2026_08, Some(next)) => format!("not among the first events of turn {next} step 1, before its prompt (upstream claims the `next-step` inbox before the `next-turn` one)"),
                            }
                        ),
                    ));
                }
            }
            [_, second, ..] => {
                // A record that opens a turn (a 2026-07 leftover turn the script never started)
                // is found at that turn's start: the turn exists only because of it.
                let opens_turn = *second > 0 && log[*second - 1].kind == "turn/start";
                out.push(finding(
                    if opens_turn { *second - 1 } else { *second },
                    format!(
                        "the steering message {:?} was recorded {} times: each steer is recorded exactly once{}",
                        s.text,
                        records.len(),
                        if opens_turn {
                            " (a second record starts a turn of its own: steering already recorded was queued again)"
                        } else {
                            ""
                        }
                    ),
                ));
            }
        }
    }
    if out.is_empty() {
        out.extend(check_order(expected, log));
    }
    out
}

/// Whether the log durably records a cancel discarding the inbox (2026-08 `agent/inbox/spliced`
/// with `outcome: "canceled"`), which releases a pending steer from being recorded.
fn discards_on_cancel(log: &[SessionEvent]) -> bool {
    log.iter().any(is_cancel_discard)
}

/// Whether `e` is the durable record of a cancel discarding the inbox.
fn is_cancel_discard(e: &SessionEvent) -> bool {
    e.kind == "agent/inbox/spliced"
        && e.data.get("outcome").and_then(serde_json::Value::as_str) == Some("canceled")
}

/// STEER-2's order: steers are recorded in the order the user sent them (each inbox is a FIFO
/// in upstream's loop, and a 2026-07 leftover turn's prompt lists them in order). Judged only
/// on steers recorded once each; the first recorded before one sent earlier is reported.
fn check_order(expected: &Expected, log: &[SessionEvent]) -> Option<Finding> {
    let mut last: Option<(usize, &str)> = None;
    for s in expected.steers.iter().filter(|s| !s.dropped) {
        let records: Vec<usize> = (0..log.len())
            .filter(|i| records_steer(&log[*i], &s.text))
            .collect();
        let [at] = records.as_slice() else { continue };
        if let Some((before, earlier)) = last
            && *at < before
        {
            return Some(Finding {
                requirement: "STEER-2",
                error: true,
                position: Some(*at as u64),
                message: format!(
                    "the steering message {:?} was recorded at #{at}, before {earlier:?} (#{before}), which the user sent first: steering is recorded in the order it was sent",
                    s.text
                ),
                expected: vec![format!("{earlier:?} recorded, then {:?}", s.text)],
                observed: vec![
                    format!("#{at} {} {:?}", log[*at].kind, texts_of(&log[*at])),
                    format!(
                        "#{before} {} {:?}",
                        log[before].kind,
                        texts_of(&log[before])
                    ),
                ],
                origin: Origin::Oracle,
            });
        }
        last = Some((*at, &s.text));
    }
    None
}

#[cfg(test)]
mod tests {
    use crate::driver::{AgentLoop, Driver, InProcess, Observation};
    use crate::oracle::evaluate;
    use crate::reference::ReferenceLoop;
    use crate::scenario::Case;
    use serde_json::json;

    fn run(case: &Case) -> Observation {
        let mut driver = InProcess::new("reference", |p| {
            Box::new(ReferenceLoop::new(p)) as Box<dyn AgentLoop>
        });
        driver.run_case(case).expect("the reference runs")
    }

    fn stop(text: &str) -> serde_json::Value {
        json!({"chunks":[
            {"type":"block-start","index":0,"blockType":"text"},
            {"type":"text-delta","index":0,"text":text},
            {"type":"block-end","index":0,"block":{"type":"text","text":text}},
            {"type":"finish","reason":{"kind":"stop"}}]})
    }

    /// 2026-07: a failed call steered during its stream, then the call of the turn the leftover
    /// starts, then a second prompt.
    fn leftover_case() -> Case {
        serde_json::from_value(json!({"profile":"2026-07","script":{"actions":[
            {"action":"prompt","text":"prompt 1","calls":[
                {"chunks":[{"type":"finish","reason":{"kind":"error","message":"m","code":"E"}}],
                 "steer":[{"after":0,"text":"steer 1"}]},
                stop("leftover answer")]},
            {"action":"prompt","text":"prompt 2","calls":[stop("done")]}]}}))
        .expect("a valid case")
    }

    fn primary(case: &Case, obs: &Observation) -> Option<&'static str> {
        evaluate(case, obs).primary().map(|f| f.requirement)
    }

    #[test]
    fn the_reference_runs_the_leftover_as_a_turn_of_its_own() {
        let case = leftover_case();
        let obs = run(&case);
        assert!(
            evaluate(&case, &obs).passed(),
            "{:#?}",
            evaluate(&case, &obs)
        );
        let kinds: Vec<&str> = obs.log.iter().map(|e| e.kind.as_str()).collect();
        let second_turn = kinds
            .iter()
            .enumerate()
            .filter(|(_, k)| **k == "turn/start")
            .nth(1)
            .map(|(i, _)| i)
            .expect("a second turn");
        assert_eq!(kinds[second_turn + 1], "user/message");
        assert_eq!(super::texts_of(&obs.log[second_turn + 1]), ["steer 1"]);
    }

    #[test]
    fn a_leftover_moved_into_the_next_prompts_turn_is_steer_2() {
        let case = leftover_case();
        let mut obs = run(&case);
        // Move the leftover record behind the prompt of the next turn, as a loop that waits for
        // the next prompt records it.
        let at = obs
            .log
            .iter()
            .position(|e| e.kind == "user/message" && super::texts_of(e) == ["steer 1"])
            .expect("the leftover is recorded");
        let record = obs.log.remove(at);
        let prompt_2 = obs
            .log
            .iter()
            .position(|e| e.kind == "user/message" && super::texts_of(e) == ["prompt 2"])
            .expect("prompt 2 is recorded");
        obs.log.insert(prompt_2 + 1, record);
        assert_eq!(primary(&case, &obs), Some("STEER-2"));
    }

    /// 2026-08: a call steered during its stream fails and is retried; the retry succeeds
    /// (then `after` is the steered step's call) or fails too (then a next prompt claims it),
    /// as upstream's `retry-after-steer` and `retry-fails-after-steer` recordings.
    fn retried_steer_case(retry_fails: bool) -> Case {
        let failed = json!({"chunks":[
            {"type":"block-start","index":0,"blockType":"text"},
            {"type":"text-delta","index":0,"text":"Par"},
            {"type":"finish","reason":{"kind":"error","failure":{"message":"overloaded","code":"E"}}}]});
        let mut first = failed.clone();
        first["steer"] = json!([{"after":0,"text":"steer 1"}]);
        first["retry"] = json!(true);
        let actions = if retry_fails {
            json!([{"action":"prompt","text":"prompt 1","calls":[first, failed]},
                   {"action":"prompt","text":"prompt 2","calls":[stop("done")]}])
        } else {
            json!([{"action":"prompt","text":"prompt 1","calls":[first, stop("second"), stop("brief")]}])
        };
        serde_json::from_value(json!({"profile":"2026-08","script":{"actions":actions}}))
            .expect("a valid case")
    }

    #[test]
    fn steering_in_a_retried_call_is_claimed_after_the_retry_as_upstream_does() {
        for retry_fails in [false, true] {
            let case = retried_steer_case(retry_fails);
            let obs = run(&case);
            assert!(
                evaluate(&case, &obs).passed(),
                "{:#?}",
                evaluate(&case, &obs)
            );
            // The steer is the first record of the claiming step, after the retry's chunks.
            let at = obs
                .log
                .iter()
                .position(|e| super::texts_of(e) == ["steer 1"])
                .expect("the steer is recorded");
            assert_eq!(obs.log[at - 1].kind, "step/start");
            let (turn, step) = if retry_fails { (2, 1) } else { (1, 2) };
            assert_eq!(obs.log[at - 1].data["turn"], turn);
            assert_eq!(obs.log[at - 1].data["step"], step);
        }
    }

    #[test]
    fn a_steer_moved_before_the_retry_is_chunk_6() {
        let case = retried_steer_case(false);
        let mut obs = run(&case);
        let at = obs
            .log
            .iter()
            .position(|e| super::texts_of(e) == ["steer 1"])
            .expect("the steer is recorded");
        let record = obs.log.remove(at);
        // Right after the failed attempt's finish, before the retry's chunks.
        let failed_finish = obs
            .log
            .iter()
            .position(|e| e.kind == "assistant/chunk" && e.data["chunk"]["type"] == "finish")
            .expect("the failed finish is recorded");
        obs.log.insert(failed_finish + 1, record);
        for (seq, e) in obs.log.iter_mut().enumerate() {
            e.seq = Some(seq as u64);
        }
        // The retry's request is built from nothing new (CHUNK-6); the steer is out of place.
        assert_eq!(primary(&case, &obs), Some("CHUNK-6"));
        let verdict = evaluate(&case, &obs);
        assert!(
            verdict.findings.iter().any(|f| f.requirement == "STEER-2"),
            "{verdict:#?}"
        );
    }

    #[test]
    fn a_2026_07_cancel_drops_pending_steering() {
        let case: Case = serde_json::from_value(json!({"profile":"2026-07","script":{"actions":[
            {"action":"prompt","text":"prompt 1","calls":[{"chunks":[
                {"type":"block-start","index":0,"blockType":"text"},
                {"type":"text-delta","index":0,"text":"a"},
                {"type":"text-delta","index":0,"text":"b"},
                {"type":"finish","reason":{"kind":"stop"}}],
              "steer":[{"after":0,"text":"steer 1"}],
              "interrupt":{"after":1,"kind":"cancel"}}]},
            {"action":"prompt","text":"prompt 2","calls":[stop("done")]}]}}))
        .expect("a valid case");
        let obs = run(&case);
        assert!(
            evaluate(&case, &obs).passed(),
            "{:#?}",
            evaluate(&case, &obs)
        );
        assert!(!obs.log.iter().any(|e| super::texts_of(e) == ["steer 1"]));
        // Recording it in the next prompt's turn is what the cancel forbids.
        let mut kept = obs.clone();
        let prompt_2 = kept
            .log
            .iter()
            .position(|e| e.kind == "user/message" && super::texts_of(e) == ["prompt 2"])
            .expect("prompt 2 is recorded");
        let mut record = kept.log[prompt_2].clone();
        record.data =
            json!({"content":[{"type":"text","text":"steer 1"}],"source":{"kind":"user"}});
        kept.log.insert(prompt_2 + 1, record);
        for (seq, e) in kept.log.iter_mut().enumerate() {
            e.seq = Some(seq as u64);
        }
        assert_eq!(primary(&case, &kept), Some("STEER-2"));
    }
}
