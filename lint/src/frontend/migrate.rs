//! The language-neutral half of a subscription rewrite, shared by the TypeScript and Rust
//! fixes: which durable twin a handler filters, which field of its `data` each handler
//! parameter reads, and how the fix describes itself. Everything comes from the catalogue's
//! [`Migration`] (the vocabulary, or a `[[lint.events]]` entry), never from code per event.
//! The front ends only turn this plan into their language's syntax.

use crate::catalog::Migration;

/// The live event every rewritten subscription listens to.
pub const SESSION_EVENT: &str = "session/event";

/// How a handler of the removed event received its arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HandlerStyle {
    /// `(agent, turn, step, …)`: 2026-07 code, read against the 2026-07 twin.
    Positional,
    /// One payload object `({ agent, turn, … })`: 2026-08 code, read against the 2026-08 twin.
    Payload,
}

/// The durable event a rewritten handler filters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Target<'m> {
    /// The durable twin's type (`turn/start`).
    pub twin: &'m str,
    /// Whether every twin event is one the removed event announced, so filtering it keeps the
    /// handler's behaviour.
    pub exact: bool,
}

/// The twin a handler written in `style` filters.
pub fn target(m: &Migration, style: HandlerStyle) -> Target<'_> {
    match style {
        HandlerStyle::Positional => Target {
            twin: &m.twin,
            exact: true,
        },
        HandlerStyle::Payload => Target {
            twin: &m.twin_2026_08,
            exact: m.one_to_one_2026_08,
        },
    }
}

/// The twin field holding positional argument `index` (counted after the agent).
pub fn positional_field(m: &Migration, index: usize) -> Option<&str> {
    m.arguments.get(index)?.field.as_deref()
}

/// The 2026-08 twin field holding payload key `key`.
pub fn payload_field<'m>(m: &'m Migration, key: &str) -> Option<&'m str> {
    m.arguments
        .iter()
        .find(|a| a.name == key)?
        .field_2026_08
        .as_deref()
}

/// The twin field holding the removed event's argument `name` (a typed event's field of that
/// name), read against the twin of `style`.
pub fn named_field<'m>(m: &'m Migration, style: HandlerStyle, name: &str) -> Option<&'m str> {
    let a = m.arguments.iter().find(|a| a.name == name)?;
    match style {
        HandlerStyle::Positional => a.field.as_deref(),
        HandlerStyle::Payload => a.field_2026_08.as_deref(),
    }
}

/// The message of a subscription rewrite filtering `twin`. `agent_lookup` is the expression
/// the rewrite looks the agent up with, when the handler needs it.
pub fn subscription_message(target: Target<'_>, agent_lookup: Option<&str>) -> String {
    let twin = target.twin;
    match (agent_lookup, target.exact) {
        (None, true) => format!("subscribe to `{SESSION_EVENT}` and filter `{twin}`"),
        (Some(lookup), _) => format!(
            "subscribe to `{SESSION_EVENT}`, filter `{twin}`, and look the agent up with `{lookup}`"
        ),
        (None, false) => format!(
            "subscribe to `{SESSION_EVENT}` and filter `{twin}` (it records more than the removed event announced: check the handler)"
        ),
    }
}

/// The applicability a rewrite has: machine-applicable only when it keeps behaviour (the
/// twin is exact and the handler needs no agent lookup).
pub fn keeps_behaviour(target: Target<'_>, needs_agent: bool) -> bool {
    target.exact && !needs_agent
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Catalog;

    fn migration(name: &str) -> Migration {
        let c = Catalog::new(&[]).unwrap();
        c.lookup(name).unwrap().migration.clone().unwrap()
    }

    #[test]
    fn positional_and_payload_fields_come_from_the_vocabulary() {
        let m = migration("agent/steering");
        assert_eq!(positional_field(&m, 0), Some("turn"));
        assert_eq!(positional_field(&m, 2), Some("source"));
        assert_eq!(positional_field(&m, 3), None);
        assert_eq!(payload_field(&m, "turn"), None, "user/message has no turn");
        assert_eq!(payload_field(&m, "content"), Some("content"));
        assert_eq!(
            named_field(&m, HandlerStyle::Positional, "turn"),
            Some("turn")
        );
        assert_eq!(named_field(&m, HandlerStyle::Payload, "turn"), None);
        assert_eq!(named_field(&m, HandlerStyle::Positional, "agent"), None);
        let t = target(&m, HandlerStyle::Payload);
        assert_eq!((t.twin, t.exact), ("user/message", false));
        let t = target(&m, HandlerStyle::Positional);
        assert_eq!((t.twin, t.exact), ("steering/message", true));
        assert!(!keeps_behaviour(target(&m, HandlerStyle::Payload), false));
        assert!(!keeps_behaviour(t, true));
        assert!(keeps_behaviour(t, false));
    }

    #[test]
    fn messages_say_what_to_check() {
        let m = migration("agent/turn-end");
        let t = target(&m, HandlerStyle::Positional);
        assert_eq!(
            subscription_message(t, None),
            "subscribe to `session/event` and filter `turn/end`"
        );
        assert!(subscription_message(t, Some("ctx.agents.get(…)")).contains("ctx.agents.get(…)"));
    }
}
