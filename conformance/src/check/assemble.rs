//! The chunks of one model call and their assembly (the upstream `BlockAssembler` rules).

use super::content::ContentBlock;
use super::event::Loc;
use super::values::clip;
use crate::vocab::text::is_blank;
use serde_json::{Value, json};
use std::borrow::{Borrow, Cow};

/// How a model call ended.
#[derive(Debug, Clone)]
pub(super) struct Finish {
    /// `reason.kind` of the `finish` chunk.
    pub kind: String,
    /// `error` or `aborted`.
    pub failure: bool,
}

/// One block of a model call, accumulated from its chunks.
#[derive(Debug, Clone)]
pub(super) struct Block {
    pub index: u32,
    /// `text`, `reasoning`, `tool-call`, … from `block-start` or the first delta.
    pub kind: Option<String>,
    /// Concatenated text/reasoning deltas, or tool-call `argumentsDelta`s.
    pub text: String,
    pub deltas: u32,
    pub tool_id: Option<String>,
    pub tool_name: Option<String>,
    pub started: bool,
    /// The first `block-end.block` (authoritative).
    pub end: Option<Value>,
    pub end_loc: Option<Loc>,
}

/// The chunks of one model call.
#[derive(Debug, Clone, Default)]
pub(super) struct Call {
    pub seqs: Vec<u64>,
    pub first: Option<Loc>,
    pub blocks: Vec<Block>,
    /// The last `usage` chunk's usage.
    pub usage: Option<Value>,
    pub finish: Option<Finish>,
    /// Whether the deltas-vs-block-end check already ran.
    pub closed: bool,
}

impl Call {
    /// The block at `index`, created on first sight (first-seen order is assembly order).
    pub fn block(&mut self, index: u32) -> &mut Block {
        let pos = match self.blocks.iter().position(|b| b.index == index) {
            Some(p) => p,
            None => {
                self.blocks.push(Block {
                    index,
                    kind: None,
                    text: String::new(),
                    deltas: 0,
                    tool_id: None,
                    tool_name: None,
                    started: false,
                    end: None,
                    end_loc: None,
                });
                self.blocks.len() - 1
            }
        };
        &mut self.blocks[pos]
    }

    /// Whether the block at `index` has been seen.
    pub fn has_block(&self, index: u32) -> bool {
        self.blocks.iter().any(|b| b.index == index)
    }

    /// The assembled content: blocks in first-seen order, `block-end` authoritative, tool
    /// calls dropped on `max-tokens`; for an interrupted message only text and reasoning
    /// blocks with non-whitespace text (whitespace as JavaScript's `trim` sees it). A
    /// `block-end` block is borrowed, not copied.
    pub fn assembled(&self, interrupted: bool) -> Vec<Cow<'_, Value>> {
        let max_tokens = self.finish.as_ref().is_some_and(|f| f.kind == "max-tokens");
        let mut out = Vec::with_capacity(self.blocks.len());
        for b in &self.blocks {
            let value = match (&b.end, b.kind.as_deref()) {
                (Some(end), _) => Cow::Borrowed(end),
                (None, Some(kind @ ("text" | "reasoning"))) => {
                    Cow::Owned(json!({"type": kind, "text": b.text}))
                }
                // Without a delta, upstream's assembler names the call `call-<index>`.
                (None, Some("tool-call")) => Cow::Owned(json!({
                    "type": "tool-call",
                    "id": b.tool_id.clone().unwrap_or_else(|| if b.deltas == 0 {
                        format!("call-{}", b.index)
                    } else {
                        String::new()
                    }),
                    "name": b.tool_name.clone().unwrap_or_default(),
                    "arguments": b.text,
                })),
                _ => continue,
            };
            let kind = block_type(&value);
            if max_tokens && kind == "tool-call" {
                continue;
            }
            if interrupted {
                let keep = matches!(kind, "text" | "reasoning")
                    && block_text(&value).is_some_and(|t| !is_blank(t));
                if !keep {
                    continue;
                }
            }
            out.push(value);
        }
        out
    }

    /// Text/reasoning blocks whose deltas (at least one) disagree with their `block-end`:
    /// (block, concatenated deltas, block-end text).
    pub fn delta_mismatches(&self) -> Vec<(&Block, &str, String)> {
        let mut out = Vec::new();
        for b in &self.blocks {
            let Some(end) = &b.end else { continue };
            if b.deltas == 0 || !matches!(b.kind.as_deref(), Some("text" | "reasoning")) {
                continue;
            }
            if !matches!(block_type(end), "text" | "reasoning") {
                continue;
            }
            let end_text = block_text(end).unwrap_or("");
            if end_text != b.text {
                out.push((b, b.text.as_str(), end_text.to_owned()));
            }
        }
        out
    }
}

/// A content block's `type`.
pub(super) fn block_type(v: &Value) -> &str {
    v.get("type").and_then(Value::as_str).unwrap_or("")
}

fn block_text(v: &Value) -> Option<&str> {
    v.get("text").and_then(Value::as_str)
}

/// Tool-call arguments compared by JSON meaning: equal as strings, or as parsed JSON (adapters
/// re-serialize, and some record the arguments parsed: an object, or the string a JSON string
/// decodes to).
pub(crate) fn arguments_equal(a: &Value, b: &Value) -> bool {
    if a == b {
        return true;
    }
    // What a recorded value can mean: a string is the arguments' JSON text, or (recorded by a
    // loop that parsed them) a JSON string the text decoded to; any other value is the parsed
    // arguments themselves.
    let meanings = |v: &Value| -> Vec<Value> {
        match v {
            Value::String(s) => serde_json::from_str::<Value>(s)
                .ok()
                .into_iter()
                .chain(std::iter::once(v.clone()))
                .collect(),
            other => vec![other.clone()],
        }
    };
    let theirs = meanings(b);
    meanings(a).iter().any(|m| theirs.contains(m))
}

fn blocks_equal(expected: &Value, actual: &ContentBlock<'_>) -> bool {
    let kind = block_type(expected);
    if kind != actual.kind() {
        return false;
    }
    match kind {
        "text" | "reasoning" => block_text(expected) == actual.text(),
        "tool-call" => {
            let actual = actual.to_value();
            expected.get("id") == actual.get("id")
                && expected.get("name") == actual.get("name")
                && arguments_equal(
                    expected.get("arguments").unwrap_or(&Value::Null),
                    actual.get("arguments").unwrap_or(&Value::Null),
                )
        }
        // Images and other blocks may be re-encoded (attachments); the type must agree.
        _ => true,
    }
}

/// The first divergence between the assembled content and a message's content:
/// (block position, expected, observed), or `None` when they agree. An empty text or
/// reasoning block is content like any other, as upstream's `BlockAssembler` keeps it: a
/// message that drops or adds one diverges, and it prints as itself (`{"text":""}`).
pub(super) fn first_divergence<E: Borrow<Value>>(
    expected: &[E],
    actual: &[ContentBlock<'_>],
) -> Option<(usize, String, String)> {
    for i in 0..expected.len().max(actual.len()) {
        match (expected.get(i).map(Borrow::borrow), actual.get(i)) {
            (Some(x), Some(y)) if blocks_equal(x, y) => continue,
            (x, y) => {
                let show = |v: Option<&Value>| match v {
                    Some(v) => clip(&v.to_string()),
                    None => "no block".to_owned(),
                };
                let y = y.map(ContentBlock::to_value);
                return Some((i, show(x), show(y.as_deref())));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_compare_as_json() {
        assert!(arguments_equal(
            &json!("{\"command\": \"ls\"}"),
            &json!("{\"command\":\"ls\"}")
        ));
        assert!(!arguments_equal(&json!("{\"a\":1}"), &json!("{\"a\":2}")));
        assert!(arguments_equal(&json!("not json"), &json!("not json")));
    }

    #[test]
    fn divergence_names_the_first_differing_block() {
        let blocks = |v: &[Value]| -> Vec<ContentBlock<'static>> {
            v.iter().cloned().map(ContentBlock::Value).collect()
        };
        let e = vec![json!({"type":"text","text":"ab"})];
        let a = vec![json!({"type":"text","text":"ba"})];
        let d = first_divergence(&e, &blocks(&a)).expect("differs");
        assert_eq!(d.0, 0);
        assert!(first_divergence(&e, &blocks(&e)).is_none());
        // An empty block is content: dropping it diverges, and it prints as itself.
        let empty = vec![json!({"type":"text","text":""})];
        let d = first_divergence(&empty, &[]).expect("an empty block is content");
        assert_eq!(d.1, r#"{"text":"","type":"text"}"#);
        assert_eq!(d.2, "no block");
        let d = first_divergence(&e, &blocks(&empty)).expect("differs");
        assert_eq!(d.2, r#"{"text":"","type":"text"}"#);
        // A text block read in place prints as the `Value` it stands for.
        let in_place = [ContentBlock::Text {
            kind: "text",
            text: "".into(),
        }];
        let d = first_divergence(&e, &in_place).expect("differs");
        assert_eq!(d.2, r#"{"text":"","type":"text"}"#);
        assert!(first_divergence(&empty, &in_place).is_none());
    }
}
