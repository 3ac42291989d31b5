//! ML001 `subscribe`.

use super::Rule;
use crate::model::Severity;

/// A subscription to a removed event.
pub const RULE: Rule = Rule {
    id: "ML001",
    name: "subscribe",
    default_severity: Severity::Error,
    summary: "Subscribes to a removed mirror event: the handler never runs again.",
    explanation: "
The live `agent/*` mirrors were removed; nothing emits them any more, so a listener on one is dead
code that silently stops seeing turns, steps, chunks or steering. The rule fires when a removed
name, a const holding it, or a typed event declared with it is passed to a subscription: a method
or function call named `on`, `once`, `off`, `subscribe`, `listen`, `add_listener` … (configurable
with `subscribe-methods`), a turbofish such as `bus.on::<TurnStart>(…)`, or a handler attribute
such as `#[on(\"agent/turn-start\")]`.

Subscribe to `session/event` instead and filter the durable twin: the same data, in the same order,
from the log persistence and replay already use.
",
    bad: r#"
bus.on("agent/turn-start", |agent, turn| render_header(agent, turn));
bus.on::<TurnEnd>(|ev| close_turn(ev.turn));
"#,
    good: r#"
bus.on("session/event", |session, event| match event.kind() {
    "turn/start" => render_header(agents.get(session.id), event.data["turn"]),
    "turn/end" => close_turn(event.data["turn"]),
    _ => {}
});
"#,
};
