//! The `check_events` API the driver uses: owned events, seq re-synthesized when absent.

use mirrorless_conformance::Profile;
use mirrorless_conformance::check::check_events;
use mirrorless_conformance::vocab::durable::SessionEvent;
use serde_json::json;

fn ev(kind: &str, data: serde_json::Value) -> SessionEvent {
    SessionEvent {
        kind: kind.to_owned(),
        seq: None,
        time: None,
        data,
        surface_op: None,
        source_event_seqs: None,
        ignorable: None,
    }
}

fn chunk(turn: u64, step: u64, c: serde_json::Value) -> SessionEvent {
    ev(
        "assistant/chunk",
        json!({"turn": turn, "step": step, "chunk": c}),
    )
}

fn text_turn(answer_deltas: &[&str], message_text: &str) -> Vec<SessionEvent> {
    let mut events = vec![
        ev("turn/start", json!({"turn": 1})),
        ev("step/start", json!({"turn": 1, "step": 1})),
        chunk(
            1,
            1,
            json!({"type": "block-start", "index": 0, "blockType": "text"}),
        ),
    ];
    for d in answer_deltas {
        events.push(chunk(
            1,
            1,
            json!({"type": "text-delta", "index": 0, "text": d}),
        ));
    }
    events.push(chunk(
        1,
        1,
        json!({"type": "finish", "reason": {"kind": "stop"}}),
    ));
    let cited: Vec<u64> = (2..events.len() as u64).collect();
    let mut msg = ev(
        "assistant/message",
        json!({"turn": 1, "step": 1, "message": {"id": "a-1", "role": "assistant", "content": [{"type": "text", "text": message_text}], "source": {"kind": "model", "provider": "mock", "model": "mock-1"}}}),
    );
    msg.surface_op = Some(json!("append"));
    msg.source_event_seqs = Some(cited);
    events.push(msg);
    events.push(ev("step/end", json!({"turn": 1, "step": 1})));
    events.push(ev(
        "turn/end",
        json!({"turn": 1, "reason": {"kind": "completed"}}),
    ));
    events
}

#[test]
fn a_conforming_run_has_no_finding() {
    let findings = check_events(Profile::V2026_08, &text_turn(&["Hel", "lo"], "Hello"));
    assert!(findings.is_empty(), "{findings:?}");
}

#[test]
fn a_lost_delta_is_caught_through_assembly() {
    // The implementation streamed "Hel" "lo" but recorded only "Hel": the message (built
    // from the real stream) no longer equals the assembly of the recorded chunks.
    let findings = check_events(Profile::V2026_08, &text_turn(&["Hel"], "Hello"));
    let ids: Vec<&str> = findings.iter().map(|f| f.requirement).collect();
    assert_eq!(ids, ["MSG-3"], "{findings:?}");
    assert!(findings[0].line.is_none(), "owned events have no line");
    assert_eq!(findings[0].seq, Some(5));
    assert_eq!(
        findings[0].expected.as_deref(),
        Some(r#"{"text":"Hel","type":"text"}"#)
    );
}

#[test]
fn explicit_seqs_are_checked() {
    let mut events = text_turn(&["a"], "a");
    for (i, e) in events.iter_mut().enumerate() {
        e.seq = Some(if i < 3 { i as u64 } else { i as u64 + 1 });
    }
    let ids: Vec<&str> = check_events(Profile::V2026_08, &events)
        .iter()
        .map(|f| f.requirement)
        .collect();
    assert!(ids.contains(&"SEQ-1"), "{ids:?}");
}
