//! A case's durable log and live trace as one timeline, and two timelines aligned row by row.
//!
//! The HTML report shows a counterexample as the expected timeline (what the embedded
//! reference implementation records for the minimal script) beside the observed one (what the
//! implementation recorded). Each live event sits after the durable event it followed (its
//! `at`). The two are aligned on what an event *says* (its type, turn, step and chunk), never
//! on ids or times, which conforming implementations may choose freely.

use crate::driver::Observation;
use crate::oracle::describe_chunk;
use crate::vocab::chunk::StreamChunk;
use crate::vocab::durable::SessionEvent;
use crate::vocab::live::LiveEmit;
use serde_json::Value;

/// Above this many cells (expected rows × observed rows) the alignment pairs rows by position
/// instead of by content, so that a huge log cannot make the report quadratic in time.
const ALIGN_CELLS: usize = 4_000_000;
/// How many characters of an event's detail a row shows.
const DETAIL_CHARS: usize = 160;

/// What kind of fact a row records: the label the report prints beside its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowKind {
    /// `turn/start`, `turn/end`.
    Turn,
    /// `step/start`, `step/end`.
    Step,
    /// `assistant/chunk`.
    Chunk,
    /// Steering: 2026-07 `steering/message`, 2026-08 a steered `user/message` or an inbox splice.
    Steering,
    /// A user, context or assistant message.
    Message,
    /// A tool call or result.
    Tool,
    /// Any other durable event.
    Other,
    /// A live event.
    Live,
}

impl RowKind {
    /// The word the report prints for the kind (and the CSS class it is painted with).
    pub fn label(self) -> &'static str {
        match self {
            RowKind::Turn => "turn",
            RowKind::Step => "step",
            RowKind::Chunk => "chunk",
            RowKind::Steering => "steering",
            RowKind::Message => "message",
            RowKind::Tool => "tool",
            RowKind::Other => "event",
            RowKind::Live => "live",
        }
    }
}

/// One event of a timeline, as a report row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// The kind of fact.
    pub kind: RowKind,
    /// The index in the durable log (`None` for a live event).
    pub index: Option<usize>,
    /// For a live event, the durable log's length when it was emitted.
    pub at: Option<u64>,
    /// The event's `data.turn`, if any.
    pub turn: Option<u64>,
    /// The event's `data.step`, if any.
    pub step: Option<u64>,
    /// The event type or live event name.
    pub name: String,
    /// A short rendering of what it says (a chunk as the findings name it, a message's text).
    pub detail: String,
    /// What alignment compares: everything but ids and times.
    key: String,
}

/// The timeline of one observation: the durable events in order, each live event after the
/// durable event it followed. A message whose text is one of `steering` (the script's
/// steering texts, unique within a case) is a steering row: under 2026-08 a steer is recorded
/// as a plain `user/message`, which only the script tells apart from a prompt.
pub fn timeline(obs: &Observation, steering: &[&str]) -> Vec<Row> {
    let mut rows = Vec::with_capacity(obs.log.len() + obs.live.len());
    let mut live = obs.live.iter().peekable();
    // A live event without `at` keeps its place after the previous live event.
    let mut last_at = 0;
    for (i, e) in obs.log.iter().enumerate() {
        while let Some(l) = live.peek() {
            let at = l.at.unwrap_or(last_at);
            if at > i as u64 {
                break;
            }
            last_at = at;
            rows.push(live_row(l, at));
            live.next();
        }
        rows.push(durable_row(i, e, steering));
    }
    for l in live {
        let at = l.at.unwrap_or(last_at);
        last_at = at;
        rows.push(live_row(l, at));
    }
    rows
}

fn field(data: &Value, name: &str) -> Option<u64> {
    data.get(name).and_then(Value::as_u64)
}

/// `s` clipped to [`DETAIL_CHARS`] characters, with an ellipsis when cut.
fn clip(s: &str) -> String {
    if s.chars().count() <= DETAIL_CHARS {
        return s.to_owned();
    }
    let mut out: String = s.chars().take(DETAIL_CHARS).collect();
    out.push('…');
    out
}

fn compact(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

/// The texts of a message's content blocks, quoted and joined.
fn content_text(content: Option<&Value>) -> String {
    let Some(Value::Array(blocks)) = content else {
        return content.map(compact).unwrap_or_default();
    };
    blocks
        .iter()
        .map(|b| {
            let kind = b.get("type").and_then(Value::as_str).unwrap_or("?");
            match b.get("text").and_then(Value::as_str) {
                Some(t) => format!("{kind} {}", compact(&Value::from(t))),
                None => kind.to_owned(),
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn durable_row(index: usize, e: &SessionEvent, steering: &[&str]) -> Row {
    let data = &e.data;
    let content = data
        .get("content")
        .or_else(|| data.pointer("/message/content"));
    let steered = matches!(
        e.kind.as_str(),
        "user/message" | "context/message" | "steering/message"
    ) && content.and_then(Value::as_array).is_some_and(|blocks| {
        blocks.iter().any(|b| {
            b.get("text")
                .and_then(Value::as_str)
                .is_some_and(|t| steering.contains(&t))
        })
    });
    let source_kind = data
        .pointer("/source/kind")
        .and_then(Value::as_str)
        .unwrap_or("");
    let kind = match e.kind.as_str() {
        "turn/start" | "turn/end" => RowKind::Turn,
        "step/start" | "step/end" => RowKind::Step,
        "assistant/chunk" => RowKind::Chunk,
        "steering/message" | "agent/inbox/spliced" => RowKind::Steering,
        "user/message" if steered || (source_kind != "user" && !source_kind.is_empty()) => {
            RowKind::Steering
        }
        "context/message" if steered => RowKind::Steering,
        t if t.starts_with("tool/") => RowKind::Tool,
        t if t.ends_with("/message") => RowKind::Message,
        _ => RowKind::Other,
    };
    let (detail, key_detail) = match e.kind.as_str() {
        "assistant/chunk" => match data
            .get("chunk")
            .cloned()
            .map(serde_json::from_value::<StreamChunk>)
        {
            Some(Ok(c)) => {
                let d = describe_chunk(&c);
                (d.clone(), d)
            }
            _ => {
                let d = data.get("chunk").map(compact).unwrap_or_default();
                (d.clone(), d)
            }
        },
        "turn/end" => {
            let d = data.get("reason").map(compact).unwrap_or_default();
            (d.clone(), d)
        }
        "turn/start" | "step/start" | "step/end" => (String::new(), String::new()),
        "assistant/message" => {
            let d = content_text(data.pointer("/message/content"));
            (d.clone(), d)
        }
        "user/message" | "steering/message" | "context/message" => {
            let d = content_text(content.or_else(|| data.get("text")));
            let d = if source_kind.is_empty() || source_kind == "user" {
                d
            } else {
                format!("({source_kind}) {d}")
            };
            (d.clone(), d)
        }
        _ => {
            // Ids, times and seqs would make every row differ between two implementations.
            (compact(data), String::new())
        }
    };
    let turn = field(data, "turn");
    let step = field(data, "step");
    Row {
        kind,
        index: Some(index),
        at: None,
        turn,
        step,
        key: format!("D {} {turn:?} {step:?} {key_detail}", e.kind),
        name: e.kind.clone(),
        detail: clip(&detail),
    }
}

fn live_row(l: &LiveEmit, at: u64) -> Row {
    let mut detail = String::new();
    if let Some(agent) = &l.agent {
        detail.push_str(agent);
    }
    if !l.data.is_null() {
        if !detail.is_empty() {
            detail.push(' ');
        }
        detail.push_str(&compact(&l.data));
    }
    let status = l.data.get("status").map(compact).unwrap_or_default();
    Row {
        kind: RowKind::Live,
        index: None,
        at: Some(at),
        turn: field(&l.data, "turn"),
        step: field(&l.data, "step"),
        key: format!("L {} {status}", l.event),
        name: l.event.clone(),
        detail: clip(&detail),
    }
}

/// Whether [`align`] pairs timelines of these lengths by content (otherwise by position).
pub fn aligns_by_content(expected: usize, observed: usize) -> bool {
    expected.saturating_mul(observed) <= ALIGN_CELLS
}

/// Two timelines aligned: each pair is one report row, with the expected row's index, the
/// observed row's, or both when they say the same thing. Rows keep their order on both sides.
pub fn align(expected: &[Row], observed: &[Row]) -> Vec<(Option<usize>, Option<usize>)> {
    let (n, m) = (expected.len(), observed.len());
    if !aligns_by_content(n, m) {
        return (0..n.max(m))
            .map(|i| ((i < n).then_some(i), (i < m).then_some(i)))
            .collect();
    }
    // Longest common subsequence, from the ends, so that the walk below goes forward.
    let w = m + 1;
    let mut lcs = vec![0u32; (n + 1) * w];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i * w + j] = if expected[i].key == observed[j].key {
                lcs[(i + 1) * w + j + 1] + 1
            } else {
                lcs[(i + 1) * w + j].max(lcs[i * w + j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::with_capacity(n.max(m));
    while i < n || j < m {
        if i < n && j < m && expected[i].key == observed[j].key {
            out.push((Some(i), Some(j)));
            i += 1;
            j += 1;
        } else if j < m && (i == n || lcs[i * w + j + 1] >= lcs[(i + 1) * w + j]) {
            out.push((None, Some(j)));
            j += 1;
        } else {
            out.push((Some(i), None));
            i += 1;
        }
    }
    out
}

/// The observed row a finding points at: for a live-trace requirement, the first live event at
/// `position` (or after it) whose name the finding's message quotes, else the first live event
/// there; otherwise the durable event at `position`. `None` when the position is past the end
/// (something missing at the end of the log).
pub fn divergence_row(
    rows: &[Row],
    position: Option<u64>,
    live: bool,
    message: &str,
) -> Option<usize> {
    let position = position?;
    if live {
        let candidates = || {
            rows.iter()
                .enumerate()
                .filter(|(_, r)| r.kind == RowKind::Live && r.at.is_some_and(|a| a >= position))
        };
        let named = candidates()
            .find(|(_, r)| message.contains(&r.name))
            .map(|(i, _)| i);
        return named.or_else(|| candidates().next().map(|(i, _)| i));
    }
    rows.iter()
        .position(|r| r.index.is_some_and(|i| i as u64 == position))
}

/// The pair where the first divergence shows, given the pair `k` of the row a finding names.
/// That row, when the two sides differ there; when they agree there (a turn that ended too
/// early is itself an ordinary `turn/end`), the rows only the expected side has right before
/// it (from the first of them) or else right after it: what the implementation left out.
pub fn first_divergence(pairs: &[(Option<usize>, Option<usize>)], k: usize) -> usize {
    let only_expected = |i: usize| matches!(pairs.get(i), Some((Some(_), None)));
    let matched = matches!(pairs.get(k), Some((Some(_), Some(_))));
    if !matched {
        return k;
    }
    if k > 0 && only_expected(k - 1) {
        let mut start = k - 1;
        while start > 0 && only_expected(start - 1) {
            start -= 1;
        }
        return start;
    }
    if only_expected(k + 1) {
        return k + 1;
    }
    k
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn event(kind: &str, data: Value) -> SessionEvent {
        serde_json::from_value(json!({"type": kind, "data": data})).expect("event")
    }

    fn obs(log: Vec<SessionEvent>, live: Vec<(&str, u64)>) -> Observation {
        Observation {
            log,
            live: live
                .into_iter()
                .map(|(event, at)| LiveEmit {
                    event: event.into(),
                    agent: Some("a".into()),
                    data: Value::Null,
                    at: Some(at),
                })
                .collect(),
            ..Observation::default()
        }
    }

    fn chunk(text: &str) -> SessionEvent {
        event(
            "assistant/chunk",
            json!({"turn": 1, "step": 1, "chunk": {"type": "text-delta", "index": 0, "text": text}}),
        )
    }

    #[test]
    fn live_events_sit_after_the_durable_event_they_followed() {
        let o = obs(
            vec![event("turn/start", json!({"turn": 1})), chunk("a")],
            // mirrorless: allow(ML004) a live trace that fires a removed mirror, on purpose
            vec![("agent/created", 0), ("x", 1), ("agent/stream-chunk", 2)],
        );
        let names: Vec<String> = timeline(&o, &[]).into_iter().map(|r| r.name).collect();
        assert_eq!(
            names,
            [
                "agent/created",
                "turn/start",
                "x",
                "assistant/chunk",
                // mirrorless: allow(ML004) the row of that removed mirror
                "agent/stream-chunk"
            ]
        );
    }

    #[test]
    fn alignment_pairs_what_says_the_same_and_leaves_gaps_for_the_rest() {
        let e = timeline(&obs(vec![chunk("a"), chunk("b"), chunk("c")], vec![]), &[]);
        let o = timeline(&obs(vec![chunk("a"), chunk("bc")], vec![]), &[]);
        assert_eq!(
            align(&e, &o),
            [
                (Some(0), Some(0)),
                (None, Some(1)),
                (Some(1), None),
                (Some(2), None)
            ]
        );
        assert_eq!(e[1].kind, RowKind::Chunk);
        assert_eq!(e[1].detail, "text-delta[0] \"b\"");
    }

    #[test]
    fn the_first_divergence_is_what_is_missing_around_an_agreeing_row() {
        let (m, e, o) = ((Some(0), Some(0)), (Some(0), None), (None, Some(0)));
        // The finding's row differs: it is the divergence.
        assert_eq!(first_divergence(&[m, o, e], 1), 1);
        // It agrees: the expected-only rows before it, from the first.
        assert_eq!(first_divergence(&[m, e, e, m, m], 3), 1);
        // …or right after it.
        assert_eq!(first_divergence(&[m, m, e, e], 1), 2);
        // An extra observed row next to it is not what is missing.
        assert_eq!(first_divergence(&[o, m, o], 1), 1);
    }

    #[test]
    fn a_message_with_a_scripted_steering_text_is_a_steering_row() {
        let message = |text: &str| {
            event(
                "user/message",
                json!({"message": {"content": [{"type": "text", "text": text}]}}),
            )
        };
        let rows = timeline(
            &obs(vec![message("prompt 1"), message("steer 1")], vec![]),
            &["steer 1"],
        );
        let kinds: Vec<RowKind> = rows.iter().map(|r| r.kind).collect();
        assert_eq!(kinds, [RowKind::Message, RowKind::Steering]);
        assert_eq!(rows[1].detail, "text \"steer 1\"");
    }

    #[test]
    fn a_live_finding_points_at_the_named_live_event() {
        let rows = timeline(
            &obs(
                vec![chunk("a")],
                // mirrorless: allow(ML004) a live trace that fires a removed mirror, on purpose
                vec![("agent/status", 1), ("agent/stream-chunk", 1)],
            ),
            &[],
        );
        assert_eq!(
            // mirrorless: allow(ML006) the finding's text names the removed mirror
            divergence_row(&rows, Some(1), true, "agent/stream-chunk fired"),
            Some(2)
        );
        assert_eq!(divergence_row(&rows, Some(0), false, ""), Some(0));
        assert_eq!(divergence_row(&rows, Some(5), false, ""), None);
    }
}
