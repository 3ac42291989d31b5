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
    fixes: "
**TypeScript/JavaScript** (also in Markdown code fences): `X.on('<removed>', handler)` with an
arrow or `function` handler is rewritten into `X.on('session/event', (session, event) => …)` that
returns unless `event.type` is the durable twin and destructures the handler's parameters from
`event.data`, renamed where the names differ (`(_agent, t) =>` gives `const { turn: t } =
event.data`). A handler that never used the agent gets `(_session, event)`, so code built with
`noUnusedParameters` still compiles. Positional handlers are 2026-07 code and filter the 2026-07 twin; a handler taking
one payload object (`({ turn, step }) =>`) is 2026-08 code and filters the 2026-08 twin. The
mapping (twin, argument → field) comes from the vocabulary, or from `[[lint.events]]` for an
event you declare (`twin`, `arguments`, `fields`).

Type annotations are kept, so the rewrite type-checks where the original did even when `ctx` is
untyped (`any`) and gives the new parameters no contextual type: an annotated agent
(`agent: Agent`) makes `session: Agent['session']` (`unknown` when the handler does not use it),
annotated fields make `event: { type: string; data: unknown }` and destructure
`event.data as { turn: number; … }` with the original types (`P['turn']` for a payload typed
`P`). Unannotated handlers stay unannotated (they relied on contextual typing, and still do).
`lint/tests/fix_typecheck.rs` checks this with `tsc --noEmit --strict`.

- *Machine-applicable* (`--fix`) when the handler does not use the agent, or only as
  `agent.session` (which becomes `session`), the twin records exactly what the mirror
  announced, and no emit of the mirror without its durable append stays in the run's
  TypeScript/JavaScript (a test or host emitting only the mirror would no longer be heard).
- *Suggestion* (`--fix --unsafe-fixes`) when the handler uses the agent (the fix looks it up with
  `X.agents.get(session.id)`, or in the file's own map when `agent/created`/`agent/disposed`
  listeners keep one, `agents.set(agent.session.id, agent)` / `agents.delete(agent.session.id)`,
  and returns when there is none), or when the twin records more (`user/message` under 2026-08
  also records prompts).
- *Suggestion*, instead of a second listener, when the same statement list already has an
  `X.on('session/event', (session, event) => { … })` on the same receiver: the handler's code
  moves to the end of that listener as `if (event.type === '<twin>') { … }` and the old
  subscription is deleted. It then runs in that listener's order and under its error handling,
  so it is never applied by `--fix` alone. Not offered (the rewrite above is) when the listener
  returns early, when the handler returns, or when a name either reads would be shadowed.
- *No fix* for `once`/`off`, rest or default parameters, a `function` handler reading `this` or
  `arguments`, a field the twin does not carry, and in Rust (typed closure parameters would need
  the durable event's Rust types).
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
