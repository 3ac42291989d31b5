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

/// How the host's `on` (and `once`, `emit`) is typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostOn {
    /// `on<K extends keyof Events>(name: K, fn: Events[K])` (`typed`).
    Map,
    /// `on(name: string, fn: (...args: any[]) => unknown)` (`untyped`).
    Plain,
    /// Two overloads: by the event map, and by any name with an untyped listener
    /// (`overloaded`).
    Overloaded,
    /// Generic through aliases, `on<K extends EventName>(name: K, fn: Handler<K>)` with
    /// `EventName = keyof Events & string` (`constrained`).
    Constrained,
    /// Node's `EventEmitter` style, `on(name: string | symbol, fn: (...args: any[]) => void):
    /// this` (`emitter`).
    Emitter,
}

/// Where and how the host declares its event map.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventsForm {
    /// `export interface Events { … }` in `host.ts` (no name suffix).
    Interface,
    /// `export type Events = { … }` in `host.ts` (`+alias`).
    Alias,
    /// `host.ts` declares part of `interface Events`; `events.ts`, which `host.ts` imports,
    /// adds `agent/turn-start` and the lifecycle entries by module augmentation
    /// (`declare module './host'`, `+augmented`).
    Augmented,
    /// As [`EventsForm::Augmented`], but nothing imports `events.ts`: only the project (here
    /// `tsc`'s file list) includes it, so a linter following imports does not see it
    /// (`+apart`).
    Apart,
    /// As [`EventsForm::Interface`], but the entries type the agent and the payloads with
    /// aliases `host.ts` does not export (`HiddenAgent`, …): a plugin sees those types only
    /// through the event map, as upstream's UI plugin saw its host's `Agent` (declared in a
    /// package it does not import, by augmenting `cordis`'s `Events`), so a rewrite naming
    /// them must go through the map (`+hidden`).
    Hidden,
}

/// The signatures the host declares (and calls its listeners with) for the mirrors' names and
/// `session/event`: upstream's, or a host of its own under the same names, as third-party
/// harnesses have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signatures {
    /// Upstream's: `'agent/turn-end'(agent, turn, reason)`, `'session/event'(session, event)`
    /// (no name suffix).
    Upstream,
    /// The host's own events under the mirrors' names, one payload object of its own
    /// (`{ agentId, label }`), fired whether or not the host fires mirrors: not the removed
    /// mirrors, so no fix may rewrite them into their durable twins (`+own`).
    Own,
    /// `session/event` called with one payload object, `({ session, event })` (`+sessionpayload`).
    SessionPayload,
    /// `agent/created` and `agent/disposed` called with a payload holding the agent,
    /// `({ agent })`, as upstream's later host does (`+createdpayload`).
    CreatedPayload,
}

/// How the host types `session/event`'s `data`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Data {
    /// A mapped type, by event type (`datatyped`).
    Typed,
    /// `data: unknown` (`dataunknown`).
    Unknown,
    /// `data: any` (`dataany`).
    Any,
    /// A union of one object type per event type, spelled out (`dataunion`).
    Union,
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
    /// How the host's `on`/`once`/`emit` are typed.
    pub on: HostOn,
    /// Where and how the host declares its `Events`.
    pub events: EventsForm,
    /// The host declares (and emits) `agent/created` and `agent/disposed`.
    pub lifecycle: bool,
    /// How `session/event`'s `data` is typed.
    pub data: Data,
    /// The agents exist before the plugin attaches its listeners.
    pub created_before: bool,
    /// How many agents run a turn (the first is the one compared with).
    pub agents: usize,
    pub handler: Handler,
    pub mirror: Mirror,
    /// The signatures the host declares for the mirrors' names and `session/event`.
    pub signatures: Signatures,
}

impl Shape {
    /// Whether the host types a listener's parameters by the event map (an unannotated
    /// listener of an event the map lacks does not type-check).
    pub fn typed_listeners(&self) -> bool {
        matches!(
            self.on,
            HostOn::Map | HostOn::Overloaded | HostOn::Constrained
        )
    }

    /// Whether the handler dimension can be written against a host of its own signatures:
    /// one that registers no `session/event` listener of its own (its shape would be the
    /// host's) — and, for [`Signatures::Own`], one that reads no agent beyond the payload's id.
    pub fn supports(handler: Handler, signatures: Signatures) -> bool {
        match signatures {
            Signatures::Upstream => true,
            Signatures::Own => matches!(
                handler,
                Handler::Plain
                    | Handler::CompareId
                    | Handler::Throws
                    | Handler::Async
                    | Handler::Once
                    | Handler::Loop
                    | Handler::Annotated
                    | Handler::EmitsAndListens
            ),
            Signatures::SessionPayload => {
                !matches!(handler, Handler::Merge | Handler::MergeReadsData)
            }
            Signatures::CreatedPayload => true,
        }
    }

    /// A stable name from every dimension, e.g.
    /// `ctx-typed-lifecycle-datatyped-before-3-compareid-turn-start+alias`: the known-failure
    /// list names shapes by it, and [`Shape::parse`] reads it back.
    pub fn name(&self) -> String {
        format!(
            "{}-{}-{}-{}-{}-{}-{}-{}{}{}",
            match self.wiring {
                Wiring::Ctx => "ctx",
                Wiring::Bus => "bus",
                Wiring::Agent => "agent",
            },
            on_name(self.on),
            if self.lifecycle {
                "lifecycle"
            } else {
                "nolifecycle"
            },
            data_name(self.data),
            if self.created_before {
                "before"
            } else {
                "after"
            },
            self.agents,
            handler_name(self.handler),
            self.mirror.name.trim_start_matches("agent/"),
            match self.events {
                EventsForm::Interface => "",
                EventsForm::Alias => "+alias",
                EventsForm::Augmented => "+augmented",
                EventsForm::Apart => "+apart",
                EventsForm::Hidden => "+hidden",
            },
            match self.signatures {
                Signatures::Upstream => "",
                Signatures::Own => "+own",
                Signatures::SessionPayload => "+sessionpayload",
                Signatures::CreatedPayload => "+createdpayload",
            },
        )
    }

    /// The shape [`Shape::name`] names, or `None` for a name no shape has.
    pub fn parse(name: &str) -> Option<Shape> {
        let mut suffixes = name.split('+');
        let name_part = suffixes.next()?;
        let mut events = EventsForm::Interface;
        let mut signatures = Signatures::Upstream;
        for suffix in suffixes {
            match suffix {
                "alias" => events = EventsForm::Alias,
                "augmented" => events = EventsForm::Augmented,
                "apart" => events = EventsForm::Apart,
                "hidden" => events = EventsForm::Hidden,
                "own" => signatures = Signatures::Own,
                "sessionpayload" => signatures = Signatures::SessionPayload,
                "createdpayload" => signatures = Signatures::CreatedPayload,
                _ => return None,
            }
        }
        let mut parts = name_part.splitn(8, '-');
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
        let on_part = parts.next()?;
        let on = *ONS.iter().find(|o| on_name(**o) == on_part)?;
        let lifecycle = flag(parts.next(), "lifecycle", "nolifecycle")?;
        let data_part = parts.next()?;
        let data = *DATAS.iter().find(|d| data_name(**d) == data_part)?;
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
            on,
            events,
            lifecycle,
            data,
            created_before,
            agents,
            handler,
            mirror,
            signatures,
        };
        (shape.name() == name
            && Shape::supports(handler, signatures)
            && (lifecycle || signatures != Signatures::CreatedPayload))
            .then_some(shape)
    }
}

pub const ONS: &[HostOn] = &[
    HostOn::Map,
    HostOn::Plain,
    HostOn::Overloaded,
    HostOn::Constrained,
    HostOn::Emitter,
];

pub const DATAS: &[Data] = &[Data::Typed, Data::Unknown, Data::Any, Data::Union];

fn on_name(o: HostOn) -> &'static str {
    match o {
        HostOn::Map => "typed",
        HostOn::Plain => "untyped",
        HostOn::Overloaded => "overloaded",
        HostOn::Constrained => "constrained",
        HostOn::Emitter => "emitter",
    }
}

fn data_name(d: Data) -> &'static str {
    match d {
        Data::Typed => "datatyped",
        Data::Unknown => "dataunknown",
        Data::Any => "dataany",
        Data::Union => "dataunion",
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

    /// One of `options`, each as likely.
    fn pick<T: Copy>(&mut self, options: &[T]) -> T {
        options[(self.next() % options.len() as u64) as usize]
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
                // The map and the plain `on` as often as before; each other form of `on`, of
                // the event map and of `data` less often.
                let on = if choices.flag() {
                    choices.pick(&[
                        HostOn::Map,
                        HostOn::Map,
                        HostOn::Overloaded,
                        HostOn::Constrained,
                    ])
                } else {
                    choices.pick(&[HostOn::Plain, HostOn::Plain, HostOn::Emitter])
                };
                let mut shape = Shape {
                    wiring,
                    on,
                    events: choices.pick(&[
                        EventsForm::Interface,
                        EventsForm::Interface,
                        EventsForm::Alias,
                        EventsForm::Augmented,
                        EventsForm::Apart,
                        EventsForm::Hidden,
                    ]),
                    lifecycle: choices.flag(),
                    data: choices.pick(&[
                        Data::Typed,
                        Data::Unknown,
                        Data::Typed,
                        Data::Unknown,
                        Data::Any,
                        Data::Union,
                    ]),
                    created_before: choices.flag(),
                    agents: if choices.flag() { 3 } else { 1 },
                    handler,
                    mirror,
                    signatures: Signatures::Upstream,
                };
                // A host of its own signatures, one shape in six where the handler can be
                // written against it.
                if choices.next().is_multiple_of(6) {
                    let signatures = choices.pick(&[
                        Signatures::Own,
                        Signatures::SessionPayload,
                        Signatures::CreatedPayload,
                    ]);
                    // A payload for `agent/created` needs a host that announces agents.
                    if signatures == Signatures::CreatedPayload {
                        shape.lifecycle = true;
                    }
                    if Shape::supports(handler, signatures) {
                        shape.signatures = signatures;
                    }
                }
                // An uncast read of `data` type-checks only where the host types it (or
                // gives the listener no type at all).
                if handler == Handler::MergeReadsData
                    && shape.typed_listeners()
                    && shape.data == Data::Unknown
                {
                    shape.data = Data::Typed;
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
