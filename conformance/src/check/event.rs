//! The borrowed shapes of one event, as the reader hands them to the monitor: the envelope,
//! `assistant/chunk` data and the stream chunk, and where an event is ([`Loc`]).

use serde::Deserialize;
use serde_json::value::RawValue;
use std::borrow::Cow;

/// Where an event is: its line (for files) and seq.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Loc {
    pub line: Option<u64>,
    pub seq: u64,
}

/// The location of the event at `line` with `seq`.
pub(super) fn loc(line: Option<u64>, seq: u64) -> Loc {
    Loc { line, seq }
}

/// One event's envelope, borrowed from its line.
pub(super) struct Envelope<'a> {
    pub line: Option<u64>,
    pub seq: Option<u64>,
    pub kind: &'a str,
    pub time: Option<&'a RawValue>,
    pub data: &'a RawValue,
    pub surface_op: Option<&'a RawValue>,
    pub source_event_seqs: Option<&'a RawValue>,
    pub ignorable: bool,
}

/// One stream chunk, borrowed.
pub(super) enum Chunk<'a> {
    BlockStart {
        index: u32,
        block_type: &'a str,
    },
    TextDelta {
        index: u32,
        text: &'a str,
    },
    ReasoningDelta {
        index: u32,
        text: &'a str,
    },
    ToolCallDelta {
        index: u32,
        id: &'a str,
        name: Option<&'a str>,
        args: &'a str,
    },
    BlockEnd {
        index: u32,
        block: &'a RawValue,
    },
    Usage {
        usage: &'a RawValue,
    },
    Finish {
        kind: &'a str,
    },
    Malformed {
        kind: &'a str,
        why: &'static str,
    },
}

/// `assistant/chunk.data`, borrowed.
#[derive(Deserialize)]
pub(super) struct ChunkData<'a> {
    pub(super) turn: Option<u64>,
    pub(super) step: Option<u64>,
    #[serde(borrow)]
    pub(super) chunk: Option<RawChunk<'a>>,
}

/// One stream chunk as written, before it is checked and borrowed as a [`Chunk`].
#[derive(Deserialize)]
pub(super) struct RawChunk<'a> {
    #[serde(rename = "type", borrow)]
    pub(super) kind: Cow<'a, str>,
    pub(super) index: Option<u32>,
    #[serde(rename = "blockType", borrow)]
    pub(super) block_type: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub(super) text: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub(super) id: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub(super) name: Option<Cow<'a, str>>,
    #[serde(rename = "argumentsDelta", borrow)]
    pub(super) arguments_delta: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub(super) block: Option<&'a RawValue>,
    #[serde(borrow)]
    pub(super) usage: Option<&'a RawValue>,
    #[serde(borrow)]
    pub(super) reason: Option<&'a RawValue>,
}

/// An object of which only `kind` is read (`reason`, `trigger`).
#[derive(Deserialize)]
pub(super) struct KindOnly<'a> {
    #[serde(borrow)]
    pub(super) kind: Option<Cow<'a, str>>,
}

/// The block index a chunk belongs to, if any.
pub(super) fn chunk_index(chunk: &Chunk<'_>) -> Option<u32> {
    match chunk {
        Chunk::BlockStart { index, .. }
        | Chunk::TextDelta { index, .. }
        | Chunk::ReasoningDelta { index, .. }
        | Chunk::ToolCallDelta { index, .. }
        | Chunk::BlockEnd { index, .. } => Some(*index),
        _ => None,
    }
}
