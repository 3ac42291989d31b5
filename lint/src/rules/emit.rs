//! ML002 `emit`.

use super::Rule;
use crate::model::Severity;

/// An emit of a removed event.
pub const RULE: Rule = Rule {
    id: "ML002",
    name: "emit",
    default_severity: Severity::Error,
    summary: "Emits a removed mirror event: a second source of truth for a durable fact.",
    explanation: "
Emitting a mirror re-announces a fact the loop has already appended to the session log. Two sources
of truth drift: a throwing listener can hide the mirror while the durable event is in the log, and
every change has to touch both. The rule fires when a removed name (directly, through a const, or
as a typed event value such as `bus.emit(TurnStart { turn })`) is passed to `emit`, `dispatch`,
`publish`, `fire`, `trigger`, `broadcast`, `parallel`, `serial`, `bail`, `waterfall` … (configurable
with `emit-methods`).

Delete the emit: append the durable event (if the code does not already) and let consumers read
`session/event`.
",
    fixes: "
An emit statement is deleted. **TypeScript/JavaScript** (also in Markdown code fences):
`ctx.emit(…)`, `await ctx.emit(…)`, the `emit(carrier, name, …)` overload, with the
`try { … } catch` that holds only it or an `if (flag)` guard. **Rust** (also in fences):
`ctx.emit(\"<removed>\", …);`, awaited or with `?`.

- *Machine-applicable* (`--fix`) when the durable twin is appended earlier in the same block
  (`session.append('<twin>', …)` or `append({ type: '<twin>', … })`), the emit's arguments have
  no side effects (names, member accesses, literals), and no listener of the event stays in the
  run's TypeScript/JavaScript (a subscription `--fix` does not migrate would go silent; the emit
  is deleted in a later round once it is).
- *Suggestion* (`--fix --unsafe-fixes`) otherwise: make sure the path appends the twin, or that
  the arguments' side effects are not needed.
- *No fix* when the name is not a string literal in the call (a const, a typed event value),
  or while a listener of the event in the run has no fix at all (not even a suggestion): no flag
  migrates that listener, so deleting the emit, even under `--unsafe-fixes`, would leave it
  waiting for an event that never comes. The note names the listener. A listener that is the
  human's part (a test pinning the mirror's own behaviour, see ML001) does not keep the emit
  under `--unsafe-fixes`, but holds it back from plain `--fix`, which never changes behaviour.
- In a test file (`*.spec.*`, `*.test.*`, under `tests/`) without the append beside it, the emit
  stands in for the loop to drive the code under test, and deleting it would delete the test's
  stimulus. In TypeScript/JavaScript it becomes, as a *suggestion*, the `session/event` the loop
  now announces (what upstream's own tests became): `ctx.emit('agent/stream-chunk', agent, 1, 0,
  chunk)` → `ctx.emit('session/event', agent.session, { type: 'assistant/chunk', seq: 0, time:
  0, data: { turn: 1, step: 0, chunk } })` (`seq` and `time` are made up: check the listener
  does not read them). `turn/start` also records the turn's `trigger`, which the mirror never
  passed: a stand-in `ctx.emit('agent/turn-start', agent, 3)` gives it the common case, a turn a
  user's message started (`data: { turn: 3, trigger: { kind: 'message', source: { kind: 'user'
  } } }`, the value the vocabulary gives a stand-in), and announces the agent first with
  `ctx.emit('agent/created', agent)`, once per test and agent and not where the test emits
  `agent/created` before it: the loop announces an agent before its first turn, and a migrated
  listener that needs the agent recovers it from that announcement (upstream's `140f818a42`
  rewrote its UI test the same way). The fix's note says what is made up.

In TypeScript/JavaScript a parameter of the enclosing function that only the deleted emit used
(`ctx`, `agent`) goes, so code built with `noUnusedParameters` still compiles: when the function
is declared in the file, not exported, only called directly and the argument it drops has no
side effects, the parameter is deleted with the argument of every call (upstream's own
`drainSteering(ctx, agent, turn)` → `drainSteering(agent, turn)`); otherwise it is renamed
`_ctx`, `_agent` and no caller changes.

The imports only the deleted emit named are removed with it (the whole `import` declaration when
nothing of it is left), as for ML003's deletions, so `tsc --noUnusedLocals` still accepts the file.
",
    bad: r#"
session.append("turn/start", json!({ "turn": turn }));
ctx.emit("agent/turn-start", (agent, turn));
"#,
    good: r#"
session.append("turn/start", json!({ "turn": turn }));
"#,
};
