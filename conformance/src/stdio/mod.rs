//! `mirrorless-stdio/1`: testing an implementation in any language over its standard input
//! and output.
//!
//! The harness plays the user, the model and the tools; the implementation plays the agent
//! loop and reports, line by line, every durable event it appends and every live event it
//! emits. The conversation is the [`Host`](crate::driver::Host) interface of the in-process
//! driver, one JSON message per call, in lockstep: the implementation asks (`next-input`,
//! `request-model`, `run-tool`, `request-error`), the harness answers each request with one
//! message, and nothing else is ever in flight. A model call is answered with its whole
//! stream — chunks with steering, cancel and dispose at their exact positions — so a case
//! costs a handful of round trips, not one per token.
//!
//! * [`message`] — the message types of both directions.
//! * [`StdioDriver`] — the [`Driver`](crate::driver::Driver) that spawns the implementation,
//!   performs the handshake, resets it per case, enforces the startup, message and case
//!   timeouts, captures its stderr, and restarts it after a fault.
//! * [`serve`] — the implementation side for Rust [`AgentLoop`](crate::driver::AgentLoop)s.
//! * [`schema`] — the protocol's JSON Schemas and a validator for them.
//!
//! The protocol is specified for implementers in `docs/protocol/stdio.md`.

mod disposal;
mod driver;
#[cfg(unix)]
mod group;
pub mod message;
mod process;
pub mod schema;
mod server;
mod text;

pub use driver::{StdioConfig, StdioDriver, Tap};
pub use message::Direction;
pub use server::serve;

/// The protocol name and version, exchanged in `hello`.
pub const PROTOCOL: &str = "mirrorless-stdio/1";
