//! LIVE-9: a live event that repeats the durable event appended next to it — a mirror under
//! another name.
//!
//! The six removed mirrors are caught by name (MIRROR-1 … MIRROR-6), and an unknown `agent/*`
//! name by LIVE-2; a loop that renamed `agent/stream-chunk` to `agent/chunk`, or to `ui/chunk`
//! outside the `agent/` namespace, keeps the duplication the removal was about. This file
//! recognises it by what the payload says, never by its name.
//!
//! **What "repeats the fact" means.** The *fact* of a durable event is what a mirror of it
//! would carry: for the durable twin of a removed mirror, the fields of its `data` that the
//! mirror passed ([`RemovedMirror::arguments`], located per profile: `assistant/chunk` → `turn`,
//! `step`, `chunk`; `turn/start` → `turn`; 2026-08 `user/message` → `content`, `source`); for
//! any other durable event, its whole `data`. A live payload *carries* the fact when some
//! object in it has every fact field under the same name with an equal value (by JSON meaning:
//! `1` and `1.0` are equal, key order does not matter), or some array in it holds the mirror's
//! arguments in their order (upstream's positional `(agent, turn, step, chunk)`). When a fact
//! value is a non-empty object or array (the chunk with its delta, the steering content, the
//! turn-end reason) that is the repeat, whatever else the payload says. When the fact is numbers
//! and strings only (`turn/start {turn}`, `step/start {turn, step}`), a number alone says little
//! (`agent/status {status, turn}` mentions a turn without announcing it), so the payload must be
//! the fact and nothing more: the carrying object or array is the whole payload (through
//! wrappers with one key or one element, such as `{args: […]}`), and every other key it has is
//! a field of the durable `data` with the same value (the twin's `data` whole), or the array is
//! the arguments with at most the agent before them.
//!
//! **Which events.** A live event is compared when its name is not in the profile's vocabulary
//! (any namespace) and is not a removed mirror (whose MIRROR-n finding already names its twin).
//! A vocabulary event's payload is defined by the vocabulary: `agent/inbox/claimed` carries the
//! message a `user/message` records, and `session/event` carries the durable event itself.
//!
//! **Which durable events.** Those appended next to the emit. Before it, where upstream fired
//! its mirrors (`agent/stream-chunk` right after its chunk, era M's `agent/turn-start` after
//! `turn/start` *and* the prompt's `user/message`): every event appended since the last live
//! event of the vocabulary (`session/event` does not count: it is the durable feed), at most
//! 64. After it, where a port that fires first appends: the next event appended. With a log,
//! the two are merged by each emit's `at`; in a trace alone, the `session/event` records stand
//! for the log when they carry the event's `data`.

use super::super::values::clip;
use super::LiveChecker;
use super::durable::turn_name;
use crate::vocab::Profile;
use crate::vocab::live::LiveEmit;
use crate::vocab::mirrors::REMOVED_MIRRORS;
use serde_json::{Map, Value};
use std::collections::VecDeque;

/// Emits kept while they wait for the durable event appended next: the latest ones (a mirror
/// fired before its append is among the last emits before it).
const MAX_WAITING: usize = 32;

/// Durable events appended before an emit that it is compared with, at most: the appends of
/// one burst (a turn's `turn/start`, its prompt and leftover steering) are far fewer.
const MAX_RECENT: usize = 64;

/// Objects and arrays of one payload looked into for one fact, at most: a payload is compared
/// in time linear in its size, whatever its nesting.
const MAX_NODES: usize = 4096;

/// What a durable event says, as a mirror of it would repeat it.
#[derive(Debug, Clone)]
pub(super) struct Fact {
    seq: u64,
    /// The durable event type (clipped for messages).
    kind: String,
    /// The fact's fields in the mirror's argument order (for another event, `data`'s keys).
    fields: Vec<(String, Value)>,
    /// Whether an array may carry the fields positionally (a mirror's arguments have an order).
    positional: bool,
    /// Whether a value of the fact is a non-empty object or array, which repeats it alone.
    distinctive: bool,
    /// The durable event's `data`, whose other fields a payload may repeat besides the fact.
    data: Map<String, Value>,
}

/// A live emit waiting for the durable event appended after it.
#[derive(Debug)]
pub(super) struct Waiting {
    line: Option<u64>,
    event: String,
    data: Value,
    /// An earlier durable event it repeats, reported unless the next append is repeated too.
    before: Option<Fact>,
}

/// The fact of the durable event `kind` with `data` under `profile`, or `None` when it says
/// nothing a payload could repeat (no fields).
pub(super) fn fact_of(profile: Profile, seq: u64, kind: &str, data: &Value) -> Option<Fact> {
    let data = data.as_object()?;
    let twin_of = REMOVED_MIRRORS.iter().find(|m| match profile {
        Profile::V2026_07 => m.durable_twin == kind,
        Profile::V2026_08 => m.durable_twin_2026_08 == kind,
    });
    let (fields, positional): (Vec<(String, Value)>, bool) = match twin_of {
        Some(mirror) => (
            mirror
                .arguments
                .iter()
                .filter_map(|a| match profile {
                    Profile::V2026_07 => Some(a.field),
                    Profile::V2026_08 => a.field_2026_08,
                })
                .filter_map(|f| data.get(f).map(|v| (f.to_owned(), v.clone())))
                .collect(),
            true,
        ),
        None => (
            data.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
            false,
        ),
    };
    if fields.is_empty() {
        return None;
    }
    let distinctive = fields.iter().any(|(_, v)| match v {
        Value::Object(o) => !o.is_empty(),
        Value::Array(a) => !a.is_empty(),
        _ => false,
    });
    Some(Fact {
        seq,
        kind: clip(kind),
        fields,
        positional,
        distinctive,
        data: data.clone(),
    })
}

/// Whether two JSON values are equal by meaning: numbers by value, objects regardless of key
/// order (serde_json's maps compare by key already), arrays element by element.
pub(super) fn same_json(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            if let (Some(x), Some(y)) = (x.as_i64(), y.as_i64()) {
                x == y
            } else if let (Some(x), Some(y)) = (x.as_u64(), y.as_u64()) {
                x == y
            } else {
                x.as_f64() == y.as_f64()
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_json(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_json(v, w)))
        }
        _ => a == b,
    }
}

/// Whether `payload` carries `fact` (see the module documentation).
pub(super) fn carries(payload: &Value, fact: &Fact) -> bool {
    let mut budget = MAX_NODES;
    carries_at(payload, fact, true, &mut budget)
}

/// `whole`: `node` is the whole payload, through wrappers of one key or one element.
fn carries_at(node: &Value, fact: &Fact, whole: bool, budget: &mut usize) -> bool {
    let children: Box<dyn Iterator<Item = &Value>> = match node {
        Value::Object(object) => {
            if object_carries(object, fact, whole) {
                return true;
            }
            Box::new(object.values())
        }
        Value::Array(items) => {
            if array_carries(items, fact, whole) {
                return true;
            }
            Box::new(items.iter())
        }
        scalar => {
            return whole
                && fact.positional
                && fact.fields.len() == 1
                && same_json(scalar, &fact.fields[0].1);
        }
    };
    let alone = whole && node_len(node) == 1;
    for child in children {
        if !matches!(child, Value::Object(_) | Value::Array(_)) && !alone {
            continue;
        }
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        if carries_at(child, fact, alone, budget) {
            return true;
        }
    }
    false
}

fn node_len(node: &Value) -> usize {
    match node {
        Value::Object(o) => o.len(),
        Value::Array(a) => a.len(),
        _ => 1,
    }
}

fn object_carries(object: &Map<String, Value>, fact: &Fact, whole: bool) -> bool {
    let has_fact = fact
        .fields
        .iter()
        .all(|(k, v)| object.get(k).is_some_and(|w| same_json(v, w)));
    has_fact
        && (fact.distinctive
            || (whole
                && object
                    .iter()
                    .all(|(k, v)| fact.data.get(k).is_some_and(|w| same_json(v, w)))))
}

fn array_carries(items: &[Value], fact: &Fact, whole: bool) -> bool {
    let n = fact.fields.len();
    if !fact.positional || items.len() < n {
        return false;
    }
    (0..=items.len() - n).any(|start| {
        let window = &items[start..start + n];
        window
            .iter()
            .zip(&fact.fields)
            .all(|(item, (_, v))| same_json(item, v))
            && (fact.distinctive
                || (whole && (items.len() == n || (items.len() == n + 1 && start == 1))))
    })
}

impl Fact {
    /// The fact's fields as a message names them: `turn, step and chunk`.
    fn named(&self) -> String {
        let names: Vec<String> = self
            .fields
            .iter()
            .map(|(k, _)| format!("`{}`", clip(k)))
            .collect();
        match names.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
            None => String::new(),
        }
    }

    /// The turn the fact is about, when it names one.
    fn turn(&self) -> Option<u64> {
        self.data.get("turn").and_then(Value::as_u64)
    }
}

impl LiveChecker {
    /// A live emit outside the profile's vocabulary: compared with the durable events appended
    /// since the last vocabulary event and with the next one. A repeat of the event appended
    /// last is reported at once; one of an earlier event waits for the next append, which is
    /// named instead when it is repeated too (the nearer twin: `step/end` rather than the
    /// `step/start` with the same numbers).
    pub(super) fn repeated_fact(&mut self, line: Option<u64>, emit: &LiveEmit) {
        if emit.data.is_null() {
            return;
        }
        let recent = &self.twins.recent;
        let before = recent
            .iter()
            .rev()
            .position(|fact| carries(&emit.data, fact))
            .map(|back| (back, recent[recent.len() - 1 - back].clone()));
        if let Some((0, fact)) = &before {
            self.report_repeat(line, &emit.event, fact, "before");
            return;
        }
        if self.twins.waiting.len() == MAX_WAITING
            && let Some(dropped) = self.twins.waiting.pop_front()
        {
            self.settle(dropped);
        }
        self.twins.waiting.push_back(Waiting {
            line,
            event: clip(&emit.event),
            data: emit.data.clone(),
            before: before.map(|(_, fact)| fact),
        });
    }

    /// A live event of the vocabulary (other than `session/event`, the durable feed itself):
    /// the loop has said something else, so what was appended before it is no longer next to
    /// what comes after it.
    pub(super) fn live_boundary(&mut self) {
        self.twins.recent.clear();
        self.settle_waiting();
    }

    /// The end of the trace: the emits still waiting are judged by what came before them.
    pub(super) fn end_twins(&mut self) {
        self.settle_waiting();
    }

    fn settle_waiting(&mut self) {
        for w in std::mem::take(&mut self.twins.waiting) {
            self.settle(w);
        }
    }

    /// A waiting emit that no append after it repeats: reported for the earlier one it repeats.
    fn settle(&mut self, w: Waiting) {
        if let Some(fact) = &w.before {
            self.report_repeat(w.line, &w.event, fact, "before");
        }
    }

    /// A durable event was appended: the emits since the last append are compared with it
    /// (and wait no longer), and it joins the events the next emits are compared with.
    /// `data` is `Null` when the trace records the event without it: it is then compared with
    /// nothing.
    pub(super) fn fact_appended(&mut self, seq: u64, kind: &str, data: &Value) {
        let Some(fact) = fact_of(self.profile, seq, kind, data) else {
            return;
        };
        for w in std::mem::take(&mut self.twins.waiting) {
            if carries(&w.data, &fact) {
                self.report_repeat(w.line, &w.event, &fact, "after");
            } else {
                self.settle(w);
            }
        }
        if self.twins.recent.len() == MAX_RECENT {
            self.twins.recent.pop_front();
        }
        self.twins.recent.push_back(fact);
    }

    fn report_repeat(&mut self, line: Option<u64>, event: &str, fact: &Fact, when: &str) {
        let shown = clip(event);
        let about = fact
            .turn()
            .map_or(String::new(), |t| format!(" of {}", turn_name(t)));
        self.report_at(
            "LIVE-9",
            line,
            Some(fact.seq),
            format!(
                "live `{shown}` repeats the durable `{}`{about} (seq {}) appended {when} it: {}; a mirror under another name, consumers read `session/event` and filter `{}`",
                fact.kind,
                fact.seq,
                fact.named(),
                fact.kind,
            ),
        );
    }
}

/// The durable events a live emit is compared with (see the module documentation).
#[derive(Debug, Default)]
pub(super) struct Twins {
    /// The facts appended since the last vocabulary event (the latest [`MAX_RECENT`]).
    recent: VecDeque<Fact>,
    /// Emits since the last append, waiting for the durable event appended next.
    waiting: VecDeque<Waiting>,
}

#[cfg(test)]
mod tests {
    use super::super::check_live_with_log;
    use super::*;
    use crate::vocab::durable::SessionEvent;
    use crate::vocab::mirrors::RemovedMirror;
    use serde_json::json;

    const AGENT: &str = "a";

    /// The value a generated twin gives the argument `name`.
    fn argument(name: &str) -> Value {
        match name {
            "turn" => json!(2),
            "step" => json!(3),
            "chunk" => json!({"type": "text-delta", "index": 0, "text": "hi"}),
            "content" => json!([{"type": "text", "text": "go"}]),
            "source" => json!({"kind": "user"}),
            "reason" => json!({"kind": "completed"}),
            other => panic!("no generated value for argument `{other}`"),
        }
    }

    /// A mirror's durable twin under `profile`: its type, the fact's fields in argument order,
    /// and its whole `data` (with the fields the mirror never passed).
    fn twin(
        profile: Profile,
        m: &RemovedMirror,
    ) -> (&'static str, Vec<(&'static str, Value)>, Value) {
        let kind = match profile {
            Profile::V2026_07 => m.durable_twin,
            Profile::V2026_08 => m.durable_twin_2026_08,
        };
        let mut data = Map::new();
        let mut fields = Vec::new();
        for a in m.arguments {
            let field = match profile {
                Profile::V2026_07 => Some(a.field),
                Profile::V2026_08 => a.field_2026_08,
            };
            if let Some(f) = field {
                data.insert(f.to_owned(), argument(a.name));
                fields.push((f, argument(a.name)));
            }
        }
        match kind {
            "turn/start" if profile == Profile::V2026_07 => {
                data.insert(
                    "trigger".into(),
                    json!({"kind": "message", "source": {"kind": "user"}}),
                );
            }
            "user/message" => {
                data.insert("role".into(), json!("user"));
                data.insert("id".into(), json!("u-1"));
            }
            _ => {}
        }
        (kind, fields, Value::Object(data))
    }

    fn object(fields: &[(&str, Value)]) -> Value {
        Value::Object(
            fields
                .iter()
                .map(|(k, v)| ((*k).to_owned(), v.clone()))
                .collect(),
        )
    }

    /// Every shape a renamed mirror may give its payload.
    fn repeating_shapes(fields: &[(&str, Value)], data: &Value) -> Vec<(&'static str, Value)> {
        let args: Vec<Value> = fields.iter().map(|(_, v)| v.clone()).collect();
        let mut with_agent = vec![json!(AGENT)];
        with_agent.extend(args.iter().cloned());
        let floats: Vec<(&str, Value)> = fields
            .iter()
            .map(|(k, v)| (*k, v.as_u64().map_or(v.clone(), |n| json!(n as f64))))
            .collect();
        let mut shapes = vec![
            ("the arguments by name", object(fields)),
            ("the twin's data whole", data.clone()),
            ("positional", Value::Array(args.clone())),
            ("positional after the agent", Value::Array(with_agent)),
            ("wrapped positional", json!({ "args": args })),
            ("nested object", json!({ "event": object(fields) })),
            ("numbers as floats", object(&floats)),
        ];
        if args.len() == 1 {
            shapes.push(("a bare value", args[0].clone()));
        }
        shapes
    }

    fn event(seq: u64, kind: &str, data: Value) -> SessionEvent {
        serde_json::from_value(json!({"type": kind, "seq": seq, "data": data}))
            .expect("a session event")
    }

    /// A log with `kind`/`data` at seq 1 between two unrelated events, and `emit` at `at`.
    fn live9(
        profile: Profile,
        kind: &str,
        data: &Value,
        name: &str,
        payload: &Value,
        at: u64,
    ) -> Vec<(Option<u64>, String)> {
        let log = [
            event(0, "x/before", json!({"n": 98})),
            event(1, kind, data.clone()),
            event(2, "x/after", json!({"n": 99})),
            event(3, "x/later", json!({"n": 100})),
        ];
        let trace = [LiveEmit {
            event: name.to_owned(),
            agent: Some(AGENT.to_owned()),
            data: payload.clone(),
            at: Some(at),
        }];
        check_live_with_log(profile, &log, &trace, false)
            .into_iter()
            .filter(|f| f.requirement == "LIVE-9")
            .map(|f| (f.seq, f.message))
            .collect()
    }

    /// Names no profile defines, in and outside `agent/`, and one of the other profile's.
    fn renamed(profile: Profile) -> [&'static str; 4] {
        let other = match profile {
            Profile::V2026_07 => "agent/inbox/claimed",
            Profile::V2026_08 => "agent/queued",
        };
        ["agent/chunk", "ui/stream-delta", "my-loop/mirror", other]
    }

    #[test]
    fn a_mirror_under_any_name_and_shape_repeats_its_twin_before_or_after_it() {
        for profile in Profile::ALL {
            for m in &REMOVED_MIRRORS {
                let (kind, fields, data) = twin(profile, m);
                for (shape, payload) in repeating_shapes(&fields, &data) {
                    for name in renamed(profile) {
                        // at 1: fired before the twin (seq 1) was appended; at 2: right after.
                        for (at, when) in [(1, "appended after it"), (2, "appended before it")] {
                            let found = live9(profile, kind, &data, name, &payload, at);
                            let case =
                                format!("{profile} {kind} {shape} as {name} {when}: {found:?}");
                            assert_eq!(found.len(), 1, "{case}");
                            assert_eq!(found[0].0, Some(1), "{case}");
                            assert!(found[0].1.contains(&format!("durable `{kind}`")), "{case}");
                            assert!(found[0].1.contains(when), "{case}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn partial_or_changed_repeats_are_not_mirrors() {
        for profile in Profile::ALL {
            for m in &REMOVED_MIRRORS {
                let (kind, fields, data) = twin(profile, m);
                let mut near: Vec<(String, Value)> = Vec::new();
                for i in 0..fields.len() {
                    let mut dropped = fields.clone();
                    dropped.remove(i);
                    if !dropped.is_empty() {
                        near.push((format!("without `{}`", fields[i].0), object(&dropped)));
                    }
                    let mut changed = fields.clone();
                    changed[i].1 = match &changed[i].1 {
                        Value::Number(n) => json!(n.as_u64().unwrap_or(0) + 1),
                        other => json!({ "not": other }),
                    };
                    near.push((format!("another `{}`", fields[i].0), object(&changed)));
                    // Positional, out of order.
                    let mut reversed: Vec<Value> = fields.iter().map(|(_, v)| v.clone()).collect();
                    reversed.reverse();
                    if fields.len() > 1 && reversed.first() != fields.first().map(|f| &f.1) {
                        near.push(("reversed arguments".into(), Value::Array(reversed)));
                    }
                }
                let scalar_only = fields.iter().all(|(_, v)| !v.is_object() && !v.is_array());
                if scalar_only {
                    // Mentioning the turn (and step) among other things is not announcing it.
                    let mut status = object(&fields);
                    status["status"] = json!("running");
                    near.push(("with a status".into(), status));
                    near.push((
                        "nested beside a status".into(),
                        json!({"status": "running", "where": object(&fields)}),
                    ));
                    let mut error = object(&fields);
                    error["error"] = json!({"message": "boom"});
                    near.push(("with an error".into(), error));
                    let mut args: Vec<Value> = fields.iter().map(|(_, v)| v.clone()).collect();
                    args.push(json!("more"));
                    near.push(("positional with more".into(), Value::Array(args)));
                }
                for (shape, payload) in &near {
                    for name in renamed(profile) {
                        for at in [1, 2] {
                            let found = live9(profile, kind, &data, name, payload, at);
                            assert!(
                                found.is_empty(),
                                "{profile} {kind} {shape} as {name} at {at}: {found:?}"
                            );
                        }
                    }
                }
                // The whole fact, but with a vocabulary event between.
                let whole = object(&fields);
                let said = |at: u64| -> Vec<(Option<u64>, String)> {
                    let log = [
                        event(0, "x/before", json!({"n": 98})),
                        event(1, kind, data.clone()),
                        event(2, "x/after", json!({"n": 99})),
                    ];
                    let request = LiveEmit {
                        event: "agent/request".to_owned(),
                        agent: Some(AGENT.to_owned()),
                        data: json!({"turn": 9, "step": 9}),
                        at: Some(at),
                    };
                    let mirror = LiveEmit {
                        event: "agent/chunk".to_owned(),
                        at: Some(if at == 2 { 3 } else { 0 }),
                        ..request.clone()
                    };
                    let trace = if at == 2 {
                        [
                            request,
                            LiveEmit {
                                data: whole.clone(),
                                ..mirror
                            },
                        ]
                    } else {
                        [
                            LiveEmit {
                                data: whole.clone(),
                                ..mirror
                            },
                            request,
                        ]
                    };
                    check_live_with_log(profile, &log, &trace, false)
                        .into_iter()
                        .filter(|f| f.requirement == "LIVE-9")
                        .map(|f| (f.seq, f.message))
                        .collect()
                };
                assert!(
                    said(2).is_empty(),
                    "{kind}: said something after the append"
                );
                assert!(
                    said(0).is_empty(),
                    "{kind}: said something before the append"
                );
                // Without one, two appends away is still next to it (era M's
                // `agent/turn-start` came after `turn/start` and the prompt's `user/message`).
                let found = live9(profile, kind, &data, "agent/chunk", &whole, 3);
                assert_eq!(found.len(), 1, "{kind}: {found:?}");
                // A vocabulary event or a removed mirror is not compared.
                for name in ["agent/status", "agent/error", "session/event", m.name] {
                    assert!(
                        live9(profile, kind, &data, name, &whole, 2).is_empty(),
                        "{name}"
                    );
                }
            }
        }
    }

    /// `step/start` and `step/end` have the same fact: an emit between them is named after the
    /// one next to it, and after the earlier one only when nothing nearer repeats it.
    #[test]
    fn the_nearer_twin_is_named() {
        let step = json!({"turn": 1, "step": 1});
        let chunk = json!({"turn": 1, "step": 1, "chunk": argument("chunk")});
        let log = |with_end: bool| {
            let mut log = vec![
                event(0, "step/start", step.clone()),
                event(1, "assistant/chunk", chunk.clone()),
            ];
            if with_end {
                log.push(event(2, "step/end", step.clone()));
            }
            log
        };
        let trace = [LiveEmit {
            event: "ui/step-end".to_owned(),
            agent: Some(AGENT.to_owned()),
            data: step.clone(),
            at: Some(2),
        }];
        let found = |with_end: bool| -> Vec<(Option<u64>, String)> {
            check_live_with_log(Profile::V2026_08, &log(with_end), &trace, false)
                .into_iter()
                .filter(|f| f.requirement == "LIVE-9")
                .map(|f| (f.seq, f.message))
                .collect()
        };
        let nearer = found(true);
        assert_eq!(nearer.len(), 1, "{nearer:?}");
        assert_eq!(nearer[0].0, Some(2));
        assert!(nearer[0].1.contains("`step/end`") && nearer[0].1.contains("after it"));
        let earlier = found(false);
        assert_eq!(earlier.len(), 1, "{earlier:?}");
        assert_eq!(earlier[0].0, Some(0));
        assert!(earlier[0].1.contains("`step/start`") && earlier[0].1.contains("before it"));
    }

    #[test]
    fn any_durable_event_has_a_fact() {
        // `assistant/message` is no mirror's twin: its whole data is the fact.
        let data = json!({"turn": 1, "step": 1, "message": {"role": "assistant", "content": []}});
        let message = |payload: &Value| {
            live9(
                Profile::V2026_08,
                "assistant/message",
                &data,
                "agent/message",
                payload,
                2,
            )
        };
        let found = message(&data);
        assert_eq!(found.len(), 1, "{found:?}");
        // Positional order is a mirror's, so another event is never matched by position.
        assert!(message(&json!([1, 1, {"role": "assistant", "content": []}])).is_empty());
        // Part of it is not the fact.
        assert!(message(&json!({"turn": 1, "step": 1})).is_empty());
        // A durable event with empty data says nothing to repeat.
        assert!(
            live9(
                Profile::V2026_08,
                "x/empty",
                &json!({}),
                "agent/x",
                &json!({}),
                2
            )
            .is_empty()
        );
    }

    #[test]
    fn a_trace_alone_shows_it_when_its_session_events_carry_data() {
        let chunk = json!({"turn": 1, "step": 1, "chunk": argument("chunk")});
        let trace = |with_data: bool| {
            let mark = if with_data {
                json!({"seq": 4, "type": "assistant/chunk", "data": chunk})
            } else {
                json!({"seq": 4, "type": "assistant/chunk"})
            };
            [
                json!({"event": "agent/created", "agent": AGENT}),
                json!({"event": "agent/session-start", "agent": AGENT, "data": {"source": "startup"}}),
                json!({"event": "session/event", "data": mark}),
                json!({"event": "agent/chunk", "agent": AGENT, "data": chunk}),
            ]
            .iter()
            .map(|l| format!("{l}\n"))
            .collect::<String>()
        };
        let outcome = super::super::check_live_reader(Profile::V2026_08, trace(true).as_bytes())
            .expect("in memory");
        let got: Vec<_> = outcome
            .findings
            .iter()
            .map(|f| (f.requirement, f.line))
            .collect();
        assert_eq!(
            got,
            [("LIVE-2", Some(4)), ("LIVE-9", Some(4))],
            "{:?}",
            outcome.findings
        );
        let outcome = super::super::check_live_reader(Profile::V2026_08, trace(false).as_bytes())
            .expect("in memory");
        let got: Vec<_> = outcome.findings.iter().map(|f| f.requirement).collect();
        assert_eq!(got, ["LIVE-2"]);
    }

    /// The requirement's statement lists each twin's fact; it must follow the catalogue.
    #[test]
    fn the_statement_names_every_twin_and_its_fields() {
        let statement = crate::registry::requirement("LIVE-9")
            .expect("registered")
            .statement;
        for m in &REMOVED_MIRRORS {
            for twin in [m.durable_twin, m.durable_twin_2026_08] {
                assert!(statement.contains(&format!("`{twin}`")), "{twin}");
            }
            for a in m.arguments {
                assert!(statement.contains(&format!("`{}`", a.field)), "{}", a.field);
            }
        }
    }

    #[test]
    fn json_equality_is_by_meaning() {
        assert!(same_json(&json!(1), &json!(1.0)));
        assert!(same_json(
            &json!({"a": 1, "b": [2]}),
            &json!({"b": [2.0], "a": 1})
        ));
        assert!(!same_json(&json!(1), &json!("1")));
        assert!(!same_json(&json!([1, 2]), &json!([2, 1])));
        assert!(!same_json(&json!({"a": 1}), &json!({"a": 1, "b": 2})));
        assert!(same_json(&json!(-3), &json!(-3.0)));
    }

    #[test]
    fn deep_or_wide_payloads_are_compared_within_bounds() {
        let data = json!({"turn": 1, "step": 1, "chunk": argument("chunk")});
        let fact = fact_of(Profile::V2026_08, 0, "assistant/chunk", &data).expect("a fact");
        // Many objects before the one that carries it: past the budget, not looked at.
        let mut wide: Vec<Value> = (0..MAX_NODES * 2).map(|i| json!({"i": i})).collect();
        wide.push(data.clone());
        assert!(!carries(&Value::Array(wide), &fact));
        let mut deep = data.clone();
        for _ in 0..100 {
            deep = json!({ "inner": deep });
        }
        assert!(carries(&deep, &fact));
    }
}
