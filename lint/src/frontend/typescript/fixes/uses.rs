//! The identifiers a function body references and binds: what deleting or rewriting part of
//! it leaves unused, and which fresh names are free.

use oxc_ast::ast::*;
use oxc_ast_visit::{Visit, walk};
use oxc_span::GetSpan;
use std::collections::HashSet;
use std::ops::Range;

use super::range;

/// Identifier uses inside a handler.
#[derive(Default)]
pub(super) struct Uses {
    /// Every identifier referenced or bound (for fresh names).
    pub(super) names: HashSet<String>,
    /// References by name: their spans, and what each reference is part of.
    pub(super) refs: Vec<(String, Range<usize>, Role)>,
    pub(super) this: bool,
}

/// What a reference to a name is part of, as far as a rewrite that replaces an agent by its
/// session cares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Role {
    /// Anything else.
    Plain,
    /// `NAME.session`, whose range this is.
    Session(Range<usize>),
    /// One side of `NAME === OTHER` (or `!==`, `==`, `!=`), `OTHER` an identifier or a member
    /// chain, whose range this is.
    Compared(Range<usize>),
    /// One side of `NAME.id === OTHER.id` (or `.name`, any equality operator): the range of
    /// `NAME.id`, of `OTHER.id` and of `OTHER`. Agents with the same id (or name) are the same
    /// agent, so the comparison is one of sessions.
    ComparedBy {
        /// `NAME.id`.
        own: Range<usize>,
        /// `OTHER.id`.
        other: Range<usize>,
        /// `OTHER`.
        object: Range<usize>,
    },
}

/// The properties that identify an agent: two agents with the same one are the same agent.
const IDENTIFYING: [&str; 2] = ["id", "name"];

/// How a rewrite that reads the session instead of the agent spells one use of the agent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum AgentRef {
    /// `agent.session`, or the agent compared with another: the listener's session.
    AsSession(Range<usize>),
    /// The other side of a comparison with the agent: `OTHER.session`.
    SessionOf(Range<usize>),
    /// The other side of a comparison of the agent's id (or name): `OTHER.id` (the first
    /// range) becomes `OTHER.session` (`OTHER` the second).
    SessionInstead(Range<usize>, Range<usize>),
}

impl AgentRef {
    pub(super) fn range(&self) -> &Range<usize> {
        match self {
            AgentRef::AsSession(r) | AgentRef::SessionOf(r) | AgentRef::SessionInstead(r, _) => r,
        }
    }

    /// The text that replaces [`AgentRef::range`] in `src`, `session` the listener's session.
    pub(super) fn text(&self, src: &str, session: &str) -> String {
        match self {
            AgentRef::AsSession(_) => session.to_owned(),
            AgentRef::SessionOf(r) | AgentRef::SessionInstead(_, r) => {
                format!("{}.session", &src[r.clone()])
            }
        }
    }

    /// Whether this is the other side of a comparison (the rewrite compares sessions).
    pub(super) fn compares(&self) -> bool {
        matches!(self, AgentRef::SessionOf(_) | AgentRef::SessionInstead(..))
    }
}

/// An operand that names an agent the way `agent` or `this.agent` does: an identifier (not
/// `undefined`) or a chain of plain member reads that does not end in `.session`.
fn names_a_value(e: &Expression<'_>) -> bool {
    match e {
        Expression::Identifier(id) => !matches!(id.name.as_str(), "undefined" | "NaN"),
        Expression::StaticMemberExpression(m) => {
            !m.optional
                && m.property.name.as_str() != "session"
                && matches!(
                    &m.object,
                    Expression::Identifier(_)
                        | Expression::ThisExpression(_)
                        | Expression::StaticMemberExpression(_)
                )
                && (!matches!(&m.object, Expression::StaticMemberExpression(_))
                    || names_a_value(&m.object))
        }
        _ => false,
    }
}

/// `VALUE.id` (or `.name`, see [`IDENTIFYING`]): `VALUE` and the property.
fn identifying<'b, 'a>(e: &'b Expression<'a>) -> Option<(&'b Expression<'a>, &'b str)> {
    match e.without_parentheses() {
        Expression::StaticMemberExpression(m)
            if !m.optional && IDENTIFYING.contains(&m.property.name.as_str()) =>
        {
            Some((&m.object, m.property.name.as_str()))
        }
        _ => None,
    }
}

impl<'a> Visit<'a> for Uses {
    fn visit_identifier_reference(&mut self, it: &IdentifierReference<'a>) {
        self.names.insert(it.name.as_str().to_owned());
        self.refs
            .push((it.name.as_str().to_owned(), range(it.span), Role::Plain));
    }

    fn visit_binary_expression(&mut self, it: &BinaryExpression<'a>) {
        if it.operator.is_equality() {
            let sides = [(&it.left, &it.right), (&it.right, &it.left)];
            let compared: Vec<_> = sides
                .iter()
                .filter_map(|(one, other)| match one {
                    Expression::Identifier(id) if names_a_value(other) && names_a_value(one) => {
                        Some((id, range(other.span())))
                    }
                    _ => None,
                })
                .collect();
            // `NAME.id === OTHER.id`: the identifying property of two values naming agents
            // (each side whose value is a name stands for one: the handler's agent may be
            // either).
            let by: Vec<_> = sides
                .iter()
                .filter_map(|(one, other)| {
                    let (Expression::Identifier(id), prop) = identifying(one)? else {
                        return None;
                    };
                    let (object, other_prop) = identifying(other)?;
                    (prop == other_prop
                        && names_a_value(object)
                        && !matches!(object, Expression::Identifier(o) if o.name == id.name))
                    .then(|| {
                        (
                            id,
                            range(one.span()),
                            range(other.span()),
                            range(object.span()),
                        )
                    })
                })
                .collect();
            if !by.is_empty() {
                for (id, own, other, object) in by {
                    self.names.insert(id.name.as_str().to_owned());
                    self.refs.push((
                        id.name.as_str().to_owned(),
                        range(id.span),
                        Role::ComparedBy { own, other, object },
                    ));
                }
                // A side no name stands for alone (`host.agent.id`) is walked as usual: its
                // names, and the handler's agent when it is part of it (which then needs the
                // agent itself).
                for side in [&it.left, &it.right] {
                    if let Some((object, _)) = identifying(side)
                        && !matches!(object, Expression::Identifier(_))
                    {
                        self.visit_expression(object);
                    }
                }
                return;
            }
            let same = matches!((&it.left, &it.right), (Expression::Identifier(a), Expression::Identifier(b)) if a.name == b.name);
            if !compared.is_empty() && !same {
                for (id, other) in &compared {
                    self.names.insert(id.name.as_str().to_owned());
                    self.refs.push((
                        id.name.as_str().to_owned(),
                        range(id.span),
                        Role::Compared(other.clone()),
                    ));
                }
                // The sides no identifier stands for alone are walked as usual.
                for side in [&it.left, &it.right] {
                    if !matches!(side, Expression::Identifier(_)) {
                        self.visit_expression(side);
                    }
                }
                return;
            }
        }
        walk::walk_binary_expression(self, it);
    }

    fn visit_binding_identifier(&mut self, it: &BindingIdentifier<'a>) {
        self.names.insert(it.name.as_str().to_owned());
    }

    fn visit_this_expression(&mut self, _it: &ThisExpression) {
        self.this = true;
    }

    fn visit_static_member_expression(&mut self, it: &StaticMemberExpression<'a>) {
        if let Expression::Identifier(id) = &it.object
            && it.property.name.as_str() == "session"
        {
            self.names.insert(id.name.as_str().to_owned());
            self.refs.push((
                id.name.as_str().to_owned(),
                range(id.span),
                Role::Session(range(it.span)),
            ));
            return;
        }
        walk::walk_static_member_expression(self, it);
    }
}

impl Uses {
    pub(super) fn of_body(body: &dyn Fn(&mut Uses)) -> Uses {
        let mut u = Uses::default();
        body(&mut u);
        u
    }

    pub(super) fn count(&self, name: &str) -> usize {
        self.refs.iter().filter(|(n, _, _)| n == name).count()
    }

    /// How a rewrite reading the session spells every use of the agent `name`, in source
    /// order; `None` when one use needs the agent itself (anything but `name.session` and a
    /// comparison of `name` with another agent).
    pub(super) fn agent_refs(&self, name: &str) -> Option<Vec<AgentRef>> {
        let mut out = Vec::new();
        for (_, at, role) in self.refs.iter().filter(|(n, _, _)| n == name) {
            match role {
                Role::Plain => return None,
                Role::Session(r) => out.push(AgentRef::AsSession(r.clone())),
                Role::Compared(other) => {
                    out.push(AgentRef::AsSession(at.clone()));
                    out.push(AgentRef::SessionOf(other.clone()));
                }
                Role::ComparedBy { own, other, object } => {
                    out.push(AgentRef::AsSession(own.clone()));
                    out.push(AgentRef::SessionInstead(other.clone(), object.clone()));
                }
            }
        }
        out.sort_by_key(|r| r.range().start);
        Some(out)
    }

    pub(super) fn fresh(&self, taken: &HashSet<String>, wanted: &[&str]) -> String {
        wanted
            .iter()
            .find(|w| !self.names.contains(**w) && !taken.contains(**w))
            .map_or_else(|| format!("{}_", wanted[0]), |w| (*w).to_owned())
    }
}
