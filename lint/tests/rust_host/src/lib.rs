//! `agent_host`: a stub of the host API the Rust lint fixtures and the migration guide are
//! written against (`ctx.on(name, closure)`, `Session`, `SessionEvent { kind, data }` with a
//! JSON `data`, `Agent::session_id()`, host types with `from_value`; and a typed bus, `Bus`,
//! whose subscriptions name a typed `Event`, `SessionEvent` among them). It has no behaviour:
//! `tests/rust_fix_compiles.rs` type-checks the fixtures against it before and after `--fix`.
//! It has no dependencies, so the check runs offline on a fresh machine.

use std::collections::BTreeMap;
use std::ops::Index;

/// A JSON value, as the host hands `SessionEvent::data` over.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum Value {
    /// `null`, and what indexing a missing key gives.
    #[default]
    Null,
    /// A boolean.
    Bool(bool),
    /// A number.
    Number(f64),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Value>),
    /// An object.
    Object(BTreeMap<String, Value>),
}

static NULL: Value = Value::Null;

impl Index<&str> for Value {
    type Output = Value;
    fn index(&self, key: &str) -> &Value {
        match self {
            Value::Object(m) => m.get(key).unwrap_or(&NULL),
            _ => &NULL,
        }
    }
}

impl Value {
    /// The value as an unsigned integer.
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Value::Number(n) if *n >= 0.0 && n.fract() == 0.0 => Some(*n as u64),
            _ => None,
        }
    }
    /// The value as a signed integer.
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Value::Number(n) if n.fract() == 0.0 => Some(*n as i64),
            _ => None,
        }
    }
    /// The value as a float.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Number(n) => Some(*n),
            _ => None,
        }
    }
    /// The value as a boolean.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }
    /// The value as a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }
}

impl From<u64> for Value {
    fn from(n: u64) -> Value {
        Value::Number(n as f64)
    }
}

/// A value that does not decode as the type asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecodeError;

macro_rules! host_type {
    ($($(#[$doc:meta])* $name:ident),* $(,)?) => {$(
        $(#[$doc])*
        #[derive(Debug, Clone, Default, PartialEq)]
        pub struct $name;
        impl $name {
            /// Decodes it from a JSON value.
            pub fn from_value(_: &Value) -> Result<$name, DecodeError> {
                Ok($name)
            }
        }
    )*};
}

host_type! {
    /// One model stream chunk.
    StreamChunk,
    /// Why a turn ended.
    TurnEndReason,
    /// One content block of a message.
    ContentBlock,
    /// Where a steering message came from.
    MessageSource,
}

/// The id of a session (and of the agent running it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct SessionId(pub u64);

/// An agent handle.
#[derive(Debug, Clone, Default)]
pub struct Agent;

impl Agent {
    /// The session the agent runs.
    pub fn session_id(&self) -> SessionId {
        SessionId(0)
    }
    /// Wakes the agent's follow-up queue.
    pub fn wake_follow_ups(&self) {}
}

/// A session.
#[derive(Debug, Clone, Default)]
pub struct Session;

impl Session {
    /// The session's id (its agent's `session_id()`).
    pub fn id(&self) -> SessionId {
        SessionId(0)
    }
    /// Appends a durable event.
    pub fn append<T>(&mut self, _kind: &str, _data: T) {}
}

/// One durable event, as `session/event` delivers it.
#[derive(Debug, Clone, Default)]
pub struct SessionEvent {
    /// The durable type (`turn/start`).
    pub kind: String,
    /// Its payload.
    pub data: Value,
    /// Its position in the log.
    pub seq: u64,
}

/// A listener of any arity (`Fn(A)`, `Fn(A, B)`, …).
pub trait Handler<Args> {}
impl<F: Fn(A), A> Handler<(A,)> for F {}
impl<F: Fn(A, B), A, B> Handler<(A, B)> for F {}
impl<F: Fn(A, B, C), A, B, C> Handler<(A, B, C)> for F {}
impl<F: Fn(A, B, C, D), A, B, C, D> Handler<(A, B, C, D)> for F {}

/// The plugin context: subscriptions and emits by event name.
#[derive(Debug, Default)]
pub struct Context;

impl Context {
    /// Subscribes `handler` to live event `name`.
    pub fn on<H: Handler<M> + 'static, M>(&self, _name: &str, _handler: H) {}
    /// Subscribes `handler` to the next `name` only.
    pub fn once<H: Handler<M> + 'static, M>(&self, _name: &str, _handler: H) {}
    /// Emits live event `name` with `args`.
    pub fn emit<A>(&self, _name: &str, _args: A) {}
}

/// A typed live event: a payload type with its event name.
pub trait Event {
    /// The live event's name.
    const NAME: &'static str;
}

impl Event for SessionEvent {
    const NAME: &'static str = "session/event";
}

/// A typed bus: subscriptions by event type, handlers take the event by reference.
#[derive(Debug, Default)]
pub struct Bus;

impl Bus {
    /// Subscribes `handler` to typed event `E` (`bus.on::<E>(…)`).
    pub fn on<E: Event>(&self, _handler: impl Fn(&E) + 'static) {}
    /// Subscribes `handler` to typed event `E` (`bus.subscribe::<E, _>(…)`).
    pub fn subscribe<E: Event, H: Fn(&E) + 'static>(&self, _handler: H) {}
    /// Subscribes `handler` to the event named `name`, delivered as an `E`.
    pub fn listen<E: Event, H: Fn(&E) + 'static>(&self, _name: &str, _handler: H) {}
}
