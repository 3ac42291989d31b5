//! The fields of the core events the monitor reads, borrowed from the event's `data`.

use serde::Deserialize;
use serde_json::value::RawValue;
use std::borrow::Cow;

/// The fields of the core events the checker reads (everything else is ignored).
#[derive(Deserialize, Default)]
pub(super) struct Data<'a> {
    #[serde(borrow)]
    pub(super) turn: Option<&'a RawValue>,
    #[serde(borrow)]
    pub(super) step: Option<&'a RawValue>,
    #[serde(borrow)]
    pub(super) content: Option<&'a RawValue>,
    #[serde(borrow)]
    pub(super) message: Option<&'a RawValue>,
    #[serde(borrow)]
    pub(super) usage: Option<&'a RawValue>,
    #[serde(borrow)]
    pub(super) interrupted: Option<&'a RawValue>,
    #[serde(rename = "callId", borrow)]
    pub(super) call_id: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub(super) name: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub(super) arguments: Option<&'a RawValue>,
    #[serde(borrow)]
    pub(super) reason: Option<&'a RawValue>,
    #[serde(borrow)]
    pub(super) trigger: Option<&'a RawValue>,
    #[serde(borrow)]
    pub(super) error: Option<&'a RawValue>,
}

/// `turn/end.data.reason`, as far as the checker reads it.
#[derive(Deserialize)]
pub(super) struct ReasonObj<'a> {
    #[serde(borrow)]
    pub(super) kind: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub(super) error: Option<ErrorObj<'a>>,
    #[serde(borrow)]
    pub(super) failure: Option<ErrorObj<'a>>,
}

/// The `message` object of a 2026-08 `assistant/message` / `tool/result`.
#[derive(Deserialize, Default)]
pub(super) struct MessageObj<'a> {
    #[serde(borrow)]
    pub(super) content: Option<&'a RawValue>,
    #[serde(borrow)]
    pub(super) source: Option<&'a RawValue>,
}

/// `message.source` of a 2026-08 `tool/result`.
#[derive(Deserialize, Default)]
pub(super) struct CallSource<'a> {
    #[serde(rename = "callId", borrow)]
    pub(super) call_id: Option<Cow<'a, str>>,
}

/// An error object, as far as its `code`.
#[derive(Deserialize, Default)]
pub(super) struct ErrorObj<'a> {
    #[serde(borrow)]
    pub(super) code: Option<Cow<'a, str>>,
}
