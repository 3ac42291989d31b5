//! The dimensions of a generated plugin shape, its stable name, and the seeded sample of
//! shapes `fix_equivalence.rs` runs.

/// How the plugin reaches the host's events.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wiring {
    /// `ctx.on(…)` on the context the host passes to `apply(ctx, …)`.
    Ctx,
    /// `bus.on(…)` on a local taken from the host (`const bus = host.bus`).
    Bus,
    /// `agent.on(…)` on each agent's own emitter (`attach(agent, …)`).
    Agent,
}

/// The handler registered on the mirror.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Handler {
    /// Reads only the mirror's payload arguments.
    Plain,
    /// Reads the agent only for `agent.session.id`.
    SessionId,
    /// Reads the agent itself (`agent.name`).
    AgentValue,
    /// `if (a !== watched) return`: the agent only tells one from another, by object.
    CompareObject,
    /// `if (a.id !== watched.id) return`, by id.
    CompareId,
    /// `if (a.name !== watched.name) return`, by name.
    CompareName,
    /// Records, then throws.
    Throws,
    /// `async`, records after an `await`.
    Async,
    /// Registered with `once`.
    Once,
    /// Registered in a `for` over two mirror names.
    Loop,
    /// Every parameter annotated with its type.
    Annotated,
    /// A `session/event` listener of the plugin already exists beside it.
    Merge,
    /// The plugin also appends a durable event itself and emits its mirror beside it.
    EmitsAndListens,
    /// A `session/event` listener beside it reads `event.data` uncast, which shows how the
    /// host types `data` (a host that types it by event).
    MergeReadsData,
    /// Two functions of the plugin each register a handler that reads the agent itself.
    SplitScopes,
}

/// A removed mirror and what it passed after the agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mirror {
    /// `agent/turn-start` …
    pub name: &'static str,
    /// The durable twin the host appends.
    pub twin: &'static str,
    /// The positional parameters after the agent, with their types.
    pub params: &'static [(&'static str, &'static str)],
}

/// The mirrors the shapes use (the host's runs fire all of them).
pub const MIRRORS: &[Mirror] = &[
    Mirror {
        name: "agent/turn-start",
        twin: "turn/start",
        params: &[("turn", "number")],
    },
    Mirror {
        name: "agent/turn-end",
        twin: "turn/end",
        params: &[("turn", "number"), ("reason", "TurnEndReason")],
    },
    Mirror {
        name: "agent/step-start",
        twin: "step/start",
        params: &[("turn", "number"), ("step", "number")],
    },
    Mirror {
        name: "agent/step-end",
        twin: "step/end",
        params: &[("turn", "number"), ("step", "number")],
    },
    Mirror {
        name: "agent/stream-chunk",
        twin: "assistant/chunk",
        params: &[
            ("turn", "number"),
            ("step", "number"),
            ("chunk", "StreamChunk"),
        ],
    },
];

pub const WIRINGS: &[Wiring] = &[Wiring::Ctx, Wiring::Bus, Wiring::Agent];

pub const HANDLERS: &[Handler] = &[
    Handler::Plain,
    Handler::SessionId,
    Handler::AgentValue,
    Handler::CompareObject,
    Handler::CompareId,
    Handler::CompareName,
    Handler::Throws,
    Handler::Async,
    Handler::Once,
    Handler::Loop,
    Handler::Annotated,
    Handler::Merge,
    Handler::EmitsAndListens,
    Handler::MergeReadsData,
    Handler::SplitScopes,
];

/// One generated shape: a plugin, the host it runs against and how the driver runs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    pub wiring: Wiring,
    /// The host's `on`/`emit` are typed by its `Events` map (else `(name: string, …any)`).
    pub typed_map: bool,
    /// The host declares (and emits) `agent/created` and `agent/disposed`.
    pub lifecycle: bool,
    /// `session/event`'s `data` is typed by event type (else `unknown`).
    pub data_typed: bool,
    /// The agents exist before the plugin attaches its listeners.
    pub created_before: bool,
    /// How many agents run a turn (the first is the one compared with).
    pub agents: usize,
    pub handler: Handler,
    pub mirror: Mirror,
}

impl Shape {
    /// A stable name from every dimension, e.g.
    /// `ctx-typed-lifecycle-datatyped-before-3-compareid-turn-start`: the known-failure list
    /// names shapes by it, and [`Shape::parse`] reads it back.
    pub fn name(&self) -> String {
        format!(
            "{}-{}-{}-{}-{}-{}-{}-{}",
            match self.wiring {
                Wiring::Ctx => "ctx",
                Wiring::Bus => "bus",
                Wiring::Agent => "agent",
            },
            if self.typed_map { "typed" } else { "untyped" },
            if self.lifecycle {
                "lifecycle"
            } else {
                "nolifecycle"
            },
            if self.data_typed {
                "datatyped"
            } else {
                "dataunknown"
            },
            if self.created_before {
                "before"
            } else {
                "after"
            },
            self.agents,
            handler_name(self.handler),
            self.mirror.name.trim_start_matches("agent/"),
        )
    }

    /// The shape [`Shape::name`] names, or `None` for a name no shape has.
    pub fn parse(name: &str) -> Option<Shape> {
        let mut parts = name.splitn(8, '-');
        let wiring = match parts.next()? {
            "ctx" => Wiring::Ctx,
            "bus" => Wiring::Bus,
            "agent" => Wiring::Agent,
            _ => return None,
        };
        let flag = |part: Option<&str>, yes: &str, no: &str| match part {
            Some(p) if p == yes => Some(true),
            Some(p) if p == no => Some(false),
            _ => None,
        };
        let typed_map = flag(parts.next(), "typed", "untyped")?;
        let lifecycle = flag(parts.next(), "lifecycle", "nolifecycle")?;
        let data_typed = flag(parts.next(), "datatyped", "dataunknown")?;
        let created_before = flag(parts.next(), "before", "after")?;
        let agents = parts.next()?.parse().ok()?;
        let handler_part = parts.next()?;
        let handler = *HANDLERS
            .iter()
            .find(|h| handler_name(**h) == handler_part)?;
        let mirror_part = parts.next()?;
        let mirror = *MIRRORS
            .iter()
            .find(|m| m.name.trim_start_matches("agent/") == mirror_part)?;
        let shape = Shape {
            wiring,
            typed_map,
            lifecycle,
            data_typed,
            created_before,
            agents,
            handler,
            mirror,
        };
        (shape.name() == name).then_some(shape)
    }
}

fn handler_name(h: Handler) -> &'static str {
    match h {
        Handler::Plain => "plain",
        Handler::SessionId => "sessionid",
        Handler::AgentValue => "agentvalue",
        Handler::CompareObject => "compareobject",
        Handler::CompareId => "compareid",
        Handler::CompareName => "comparename",
        Handler::Throws => "throws",
        Handler::Async => "async",
        Handler::Once => "once",
        Handler::Loop => "loop",
        Handler::Annotated => "annotated",
        Handler::Merge => "merge",
        Handler::EmitsAndListens => "emitsandlistens",
        Handler::MergeReadsData => "mergereadsdata",
        Handler::SplitScopes => "splitscopes",
    }
}

/// splitmix64: a seeded stream of choices, so a failing sample is reproduced by its seed.
pub struct Choices(u64);

impl Choices {
    pub fn new(seed: u64) -> Self {
        Choices(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn flag(&mut self) -> bool {
        self.next() & 1 == 1
    }
}

/// Every (wiring, handler, mirror) once, each with the host dimensions drawn from `seed`,
/// and each of `named` (whatever the seed draws).
pub fn sample(seed: u64, named: &[Shape]) -> Vec<Shape> {
    let mut choices = Choices::new(seed);
    let mut out = Vec::new();
    for &wiring in WIRINGS {
        for &handler in HANDLERS {
            for &mirror in MIRRORS {
                let mut shape = Shape {
                    wiring,
                    typed_map: choices.flag(),
                    lifecycle: choices.flag(),
                    data_typed: choices.flag(),
                    created_before: choices.flag(),
                    agents: if choices.flag() { 3 } else { 1 },
                    handler,
                    mirror,
                };
                // An uncast read of `data` type-checks only where the host types it (or
                // gives the listener no type at all).
                if handler == Handler::MergeReadsData && shape.typed_map {
                    shape.data_typed = true;
                }
                out.push(shape);
            }
        }
    }
    for shape in named {
        if !out.contains(shape) {
            out.push(*shape);
        }
    }
    out
}
