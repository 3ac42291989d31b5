//! The one vocabulary of the protocol, for both profiles.
//!
//! * [`profile`] — the two named protocol generations, 2026-07 and 2026-08.
//! * [`chunk`] — `StreamChunk`, `FinishReason`, `TokenUsage`, `ContentBlock`.
//! * [`durable`] — the durable session events: envelope, header, the catalogue of event types
//!   with their scope, and `TurnEndReason`.
//! * [`live`] — the live `agent/*` events of each profile.
//! * [`mirrors`] — the six removed mirror events, each with its durable twin and migration advice.
//! * [`text`] — what counts as whitespace in message text (JavaScript's `trim`).

pub mod chunk;
pub mod durable;
pub mod live;
pub mod mirrors;
pub mod profile;
pub mod text;

pub use profile::Profile;
