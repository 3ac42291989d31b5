//! The shape of a listener's handler, as the subscription rewrites read it: its body, and
//! what its parameters say. Shared by the rewrite in place and the merge into an existing
//! listener, which use no other of each other's parts.

use oxc_ast::ast::*;

/// What a handler's parameters say: which agent binding, and which fields it reads.
pub(super) struct Params {
    /// The name bound to the agent, if any.
    pub(super) agent: Option<String>,
    /// `field: pattern` (or the shorthand `field`) per used parameter.
    pub(super) fields: Vec<String>,
    /// Each used positional parameter's field and its position after the agent (`None` for a
    /// payload-object handler): what a cast of `event.data` spells from the host's event map.
    pub(super) positions: Option<Vec<(String, usize)>>,
    /// Whether this is a 2026-08-style payload-object handler.
    pub(super) payload: bool,
    /// The types the handler's annotations give, when it carries them (see [`Annotations`]).
    pub(super) types: Annotations,
}

/// The type annotations a rewritten handler keeps, built from the original's: without them
/// `(session, event) =>` relies on contextual typing, which an untyped `ctx` (`any`) does not
/// give, and `noImplicitAny` rejects it.
#[derive(Default)]
pub(super) struct Annotations {
    /// The agent's type (`Agent`, or `P['agent']` for a payload `P`), when annotated.
    pub(super) agent: Option<String>,
    /// `field: Type` per used field, when every field parameter is annotated.
    pub(super) fields: Option<Vec<String>>,
}

/// A handler's body: a block, or the expression an arrow returns.
pub(super) enum Body<'b, 'a> {
    Block(&'b FunctionBody<'a>),
    Expr(&'b Expression<'a>),
}
