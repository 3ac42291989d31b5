//! The identifiers a function body references and binds: what deleting or rewriting part of
//! it leaves unused, and which fresh names are free.
//!
//! They are collected once per top-level statement, each with where it is
//! ([`Uses::of_statement`]), and read for one function at a time through a [`View`] of the
//! function's body: a nested function is not read again for each function around it (issue
//! 32 item 1; 6,000 nested arrows took seconds). What a collection records of a node depends
//! only on the node's own subtree, and a statement's collection reaches every function body
//! inside it as a collection of that body alone would, so a view of a body is what collecting
//! the body alone finds (`uses::tests` compares them on generated functions).

use crate::hash::{HashMap, HashSet};
use oxc_ast::ast::*;
use oxc_ast_visit::{Visit, walk};
use oxc_span::GetSpan;
use std::ops::Range;

use super::range;

/// Identifier uses inside a stretch of code, each with its place.
#[derive(Default)]
pub(super) struct Uses {
    /// Every identifier referenced or bound (for fresh names): the offsets it is at.
    names: HashMap<String, Vec<usize>>,
    /// References by name, in the order of a visit: their spans, and what each reference is
    /// part of.
    refs: HashMap<String, Vec<(Range<usize>, Role)>>,
    /// Where `this` is read.
    this: Vec<usize>,
    /// The stretch whose uses are wanted, when not everything visited: a statement or an
    /// expression wholly outside it is not walked ([`Uses::of_statement_around`]).
    only: Option<Range<usize>>,
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
    fn visit_statement(&mut self, it: &Statement<'a>) {
        // A class's decorators may precede its span (and an export's): a class and a module
        // declaration are always walked.
        let class = matches!(it, Statement::ClassDeclaration(_)) || it.is_module_declaration();
        if !class && self.outside(it.span()) {
            return;
        }
        walk::walk_statement(self, it);
    }

    fn visit_expression(&mut self, it: &Expression<'a>) {
        if !matches!(it, Expression::ClassExpression(_)) && self.outside(it.span()) {
            return;
        }
        walk::walk_expression(self, it);
    }

    fn visit_identifier_reference(&mut self, it: &IdentifierReference<'a>) {
        self.reference(it, Role::Plain);
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
                    self.reference(id, Role::ComparedBy { own, other, object });
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
                    self.reference(id, Role::Compared(other.clone()));
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
        self.name(it.name.as_str(), it.span.start as usize);
    }

    fn visit_this_expression(&mut self, it: &ThisExpression) {
        self.this.push(it.span.start as usize);
    }

    fn visit_static_member_expression(&mut self, it: &StaticMemberExpression<'a>) {
        if let Expression::Identifier(id) = &it.object
            && it.property.name.as_str() == "session"
        {
            self.reference(id, Role::Session(range(it.span)));
            return;
        }
        walk::walk_static_member_expression(self, it);
    }
}

impl Uses {
    /// The uses of one top-level statement (or of anything a caller visits with them).
    #[cfg(test)]
    pub(super) fn of(visit: impl FnOnce(&mut Uses)) -> Uses {
        let mut u = Uses::default();
        visit(&mut u);
        u
    }

    /// The uses of the top-level statement `stmt`.
    #[cfg(test)]
    pub(super) fn of_statement(stmt: &Statement<'_>) -> Uses {
        Uses::of(|u| u.visit_statement(stmt))
    }

    /// The uses of the top-level statement `stmt` inside `body` (a range of it): what
    /// [`Uses::of_statement`] holds there, without walking the statements and expressions
    /// that lie wholly outside `body` (a test's `describe(…)` spans its file; issue 32 item 1).
    pub(super) fn of_statement_around(stmt: &Statement<'_>, body: Range<usize>) -> Uses {
        let mut u = Uses {
            only: Some(body),
            ..Uses::default()
        };
        u.visit_statement(stmt);
        u
    }

    /// The uses of `program` inside `body` (see [`Uses::of_statement_around`]).
    pub(super) fn of_program_around(program: &Program<'_>, body: Range<usize>) -> Uses {
        let mut u = Uses {
            only: Some(body),
            ..Uses::default()
        };
        u.visit_program(program);
        u
    }

    /// Whether a node at `span` lies wholly outside the stretch wanted, so that nothing it
    /// holds is in it (a node touching the stretch's ends is walked).
    fn outside(&self, span: oxc_span::Span) -> bool {
        self.only
            .as_ref()
            .is_some_and(|o| (span.end as usize) < o.start || (span.start as usize) > o.end)
    }

    /// The uses inside `body` (a range of the code these uses were collected from).
    pub(super) fn view(&self, body: Range<usize>) -> View<'_> {
        View { uses: self, body }
    }

    fn name(&mut self, name: &str, at: usize) {
        match self.names.get_mut(name) {
            Some(v) => v.push(at),
            None => {
                self.names.insert(name.to_owned(), vec![at]);
            }
        }
    }

    fn reference(&mut self, id: &IdentifierReference<'_>, role: Role) {
        let (name, at) = (id.name.as_str(), range(id.span));
        self.name(name, at.start);
        match self.refs.get_mut(name) {
            Some(v) => v.push((at, role)),
            None => {
                self.refs.insert(name.to_owned(), vec![(at, role)]);
            }
        }
    }
}

/// The uses inside one function's body ([`Uses::view`]).
pub(super) struct View<'u> {
    uses: &'u Uses,
    body: Range<usize>,
}

impl View<'_> {
    fn holds(&self, at: &Range<usize>) -> bool {
        self.body.start <= at.start && at.end <= self.body.end
    }

    /// Whether an identifier (or `this`) that starts at `at` is in the body.
    fn starts_in(&self, at: usize) -> bool {
        self.body.start <= at && at < self.body.end
    }

    /// The references to `name` in the body, in the order of a visit, with their roles.
    fn refs_of<'v>(&'v self, name: &str) -> impl Iterator<Item = &'v (Range<usize>, Role)> {
        (self
            .uses
            .refs
            .get(name)
            .map_or(&[][..], Vec::as_slice)
            .iter())
        .filter(|(at, _)| self.holds(at))
    }

    /// The spans of the references to `name` in the body.
    pub(super) fn spans_of<'v>(&'v self, name: &str) -> impl Iterator<Item = &'v Range<usize>> {
        self.refs_of(name).map(|(at, _)| at)
    }

    /// How many times the body references `name`.
    pub(super) fn count(&self, name: &str) -> usize {
        self.refs_of(name).count()
    }

    /// Whether the body references or binds `name`.
    pub(super) fn names(&self, name: &str) -> bool {
        (self.uses.names.get(name)).is_some_and(|v| v.iter().any(|&at| self.starts_in(at)))
    }

    /// Whether the body reads `this`.
    pub(super) fn this(&self) -> bool {
        self.uses.this.iter().any(|&at| self.starts_in(at))
    }

    /// How a rewrite reading the session spells every use of the agent `name`, in source
    /// order; `None` when one use needs the agent itself (anything but `name.session` and a
    /// comparison of `name` with another agent).
    pub(super) fn agent_refs(&self, name: &str) -> Option<Vec<AgentRef>> {
        let mut out = Vec::new();
        for (at, role) in self.refs_of(name) {
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

    /// The first of `wanted` the body neither references nor binds and `taken` does not
    /// hold; the first with `_` appended when every one is.
    pub(super) fn fresh(&self, taken: &HashSet<String>, wanted: &[&str]) -> String {
        wanted
            .iter()
            .find(|w| !self.names(w) && !taken.contains(**w))
            .map_or_else(|| format!("{}_", wanted[0]), |w| (*w).to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;
    use oxc_allocator::Allocator;
    use oxc_parser::Parser;
    use oxc_span::SourceType;

    impl Uses {
        /// What these uses hold inside `body`, as a collection of its own.
        fn restricted(&self, body: &Range<usize>) -> Uses {
            let v = self.view(body.clone());
            let mut out = Uses::default();
            for (name, at) in &self.names {
                let inside: Vec<usize> = at.iter().copied().filter(|&a| v.starts_in(a)).collect();
                if !inside.is_empty() {
                    out.names.insert(name.clone(), inside);
                }
            }
            for name in self.refs.keys() {
                let inside: Vec<_> = v.refs_of(name).cloned().collect();
                if !inside.is_empty() {
                    out.refs.insert(name.clone(), inside);
                }
            }
            out.this = self
                .this
                .iter()
                .copied()
                .filter(|&a| v.starts_in(a))
                .collect();
            out
        }
    }

    /// Every function body of a program with the index of its top-level statement, and the
    /// uses of that body collected alone (what the fixer computed for each function before).
    #[derive(Default)]
    struct Bodies {
        top: usize,
        found: Vec<(usize, Range<usize>, Uses)>,
    }

    impl<'a> Visit<'a> for Bodies {
        fn visit_function_body(&mut self, it: &FunctionBody<'a>) {
            let alone = Uses::of(|u| u.visit_function_body(it));
            self.found.push((self.top, range(it.span), alone));
            walk::walk_function_body(self, it);
        }

        fn visit_arrow_function_expression(&mut self, it: &ArrowFunctionExpression<'a>) {
            // An expression body, as the subscription fixes read it.
            if let Some(e) = it.body.as_expression() {
                let alone = Uses::of(|u| u.visit_expression(e));
                self.found.push((self.top, range(e.span()), alone));
            }
            walk::walk_arrow_function_expression(self, it);
        }
    }

    /// An expression of names, comparisons, member reads and nested functions.
    fn expr(r: &mut Rng, depth: usize) -> String {
        const NAMES: &[&str] = &["a", "b", "agent", "other", "undefined", "arguments", "x"];
        let n = |r: &mut Rng| r.pick(NAMES).to_owned();
        match r.below(if depth < 4 { 16 } else { 9 }) {
            0 => n(r),
            1 => format!("{}.session", n(r)),
            2 => format!("{} === {}", n(r), n(r)),
            3 => format!("{}.id === {}.id", n(r), n(r)),
            4 => format!("{}.name !== this.{}.name", n(r), n(r)),
            5 => format!("this.{} == {}", n(r), n(r)),
            6 => format!("{}.{}.id === {}.id", n(r), n(r), n(r)),
            7 => format!("f({}, {})", n(r), n(r)),
            8 => "this".to_owned(),
            9 => format!("(({}) => {})", n(r), expr(r, depth + 1)),
            10 => format!("({} => {{ {} }})", n(r), body(r, depth + 1)),
            11 => format!(
                "(function ({} = () => {}) {{ {} }})",
                n(r),
                expr(r, depth + 1),
                body(r, depth + 1)
            ),
            12 => format!("{} === (() => {})", n(r), expr(r, depth + 1)),
            13 => format!("({}).id === {}.id", expr(r, depth + 1), n(r)),
            14 => format!("({{ m() {{ {} }}, [{}]: 1 }})", body(r, depth + 1), n(r)),
            _ => format!("({} && {})", expr(r, depth + 1), expr(r, depth + 1)),
        }
    }

    fn body(r: &mut Rng, depth: usize) -> String {
        let mut out = String::new();
        for _ in 0..1 + r.below(3) {
            let e = expr(r, depth);
            out.push_str(&match r.below(4) {
                0 => format!("const {} = {e}; ", ["v", "w", "session"][r.below(3)]),
                1 => format!("if ({e}) return; "),
                _ => format!("{e}; "),
            });
        }
        out
    }

    /// Issue 32 item 1 (and item 5: nested functions read once): the uses a view of a
    /// statement's collection gives for a function body are those of collecting the body
    /// alone (names and their places, references with their roles in visit order, `this`),
    /// on generated programs of nested functions, comparisons and member reads.
    #[test]
    fn a_view_of_a_statement_is_the_body_collected_alone() {
        let mut bodies = 0;
        for seed in 1..=300u64 {
            let mut r = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            let mut src = String::new();
            for _ in 0..1 + r.below(3) {
                match r.below(3) {
                    0 => src.push_str(&format!("function top(a, b) {{ {} }}\n", body(&mut r, 0))),
                    1 => src.push_str(&format!(
                        "class C {{ m(agent) {{ {} }} }}\n",
                        body(&mut r, 0)
                    )),
                    _ => src.push_str(&format!("bus.on('e', {});\n", expr(&mut r, 0))),
                }
            }
            let alloc = Allocator::default();
            let ret = Parser::new(&alloc, &src, SourceType::ts()).parse();
            // Early errors (a name declared twice) leave a tree, which the linter reads too.
            assert!(!ret.panicked, "seed {seed}:\n{src}");
            let mut found = Bodies::default();
            let mut whole = Vec::new();
            for (i, stmt) in ret.program.body.iter().enumerate() {
                found.top = i;
                found.visit_statement(stmt);
                whole.push(Uses::of_statement(stmt));
            }
            for (top, body, alone) in &found.found {
                let view = whole[*top].restricted(body);
                assert_eq!(view.names, alone.names, "seed {seed} at {body:?}:\n{src}");
                assert_eq!(view.refs, alone.refs, "seed {seed} at {body:?}:\n{src}");
                assert_eq!(view.this, alone.this, "seed {seed} at {body:?}:\n{src}");
                bodies += 1;
            }
        }
        assert!(bodies > 1_000, "{bodies} bodies");
    }

    /// A program of top-level statements the generator above builds, with decorated classes
    /// (whose decorators may lie before the class's own span).
    fn program(r: &mut Rng) -> String {
        let mut src = String::new();
        for _ in 0..1 + r.below(4) {
            match r.below(6) {
                0 => src.push_str(&format!("function top(a, b) {{ {} }}\n", body(r, 0))),
                1 => src.push_str(&format!("class C {{ m(agent) {{ {} }} }}\n", body(r, 0))),
                2 => src.push_str(&format!(
                    "describe('d', () => {{ {} it('t', () => {{ {} }}); {} }});\n",
                    body(r, 0),
                    body(r, 0),
                    body(r, 0)
                )),
                3 => src.push_str(&format!(
                    "@dec({}) export class D {{ @m({}) x = 1; m(agent) {{ {} }} }}\n",
                    expr(r, 0),
                    expr(r, 0),
                    body(r, 0)
                )),
                4 => src.push_str(&format!(
                    "const k = @dec({}) class {{ m() {{ {} }} }};\n",
                    expr(r, 0),
                    body(r, 0)
                )),
                _ => src.push_str(&format!("bus.on('e', {});\n", expr(r, 0))),
            }
        }
        src
    }

    /// Issue 32 item 1 (a test's `describe(…)` spans its file: its uses were collected whole
    /// for each handler in it): the uses collected around a stretch of a statement, walking
    /// only what touches it, are those of the whole statement inside it, for every function
    /// body of generated programs; and a collection around a body answers for every body
    /// nested in it as a collection around that body does (what [`Fixer::uses_around`] keeps
    /// and reuses).
    #[test]
    fn uses_around_a_body_are_the_statements_inside_it() {
        let (mut bodies, mut nested) = (0, 0);
        for seed in 1..=300u64 {
            let mut r = Rng(seed.wrapping_mul(0x2545_F491_4F6C_DD1D));
            let src = program(&mut r);
            let alloc = Allocator::default();
            let ret = Parser::new(&alloc, &src, SourceType::ts()).parse();
            assert!(!ret.panicked, "seed {seed}:\n{src}");
            let mut found = Bodies::default();
            for (i, stmt) in ret.program.body.iter().enumerate() {
                found.top = i;
                found.visit_statement(stmt);
            }
            let stmts = &ret.program.body;
            for (top, body, _) in &found.found {
                let whole = Uses::of_statement(&stmts[*top]).restricted(body);
                let around = Uses::of_statement_around(&stmts[*top], body.clone());
                let program = Uses::of_program_around(&ret.program, body.clone());
                for got in [around.restricted(body), program.restricted(body)] {
                    assert_eq!(got.names, whole.names, "seed {seed} at {body:?}:\n{src}");
                    assert_eq!(got.refs, whole.refs, "seed {seed} at {body:?}:\n{src}");
                    assert_eq!(got.this, whole.this, "seed {seed} at {body:?}:\n{src}");
                }
                bodies += 1;
                for (inner_top, inner, alone) in &found.found {
                    if inner_top != top || inner == body {
                        continue;
                    }
                    if body.start <= inner.start && inner.end <= body.end {
                        let got = around.restricted(inner);
                        assert_eq!(got.names, alone.names, "seed {seed} at {inner:?}:\n{src}");
                        assert_eq!(got.refs, alone.refs, "seed {seed} at {inner:?}:\n{src}");
                        assert_eq!(got.this, alone.this, "seed {seed} at {inner:?}:\n{src}");
                        nested += 1;
                    }
                }
            }
        }
        assert!(
            bodies > 1_000 && nested > 1_000,
            "{bodies} bodies, {nested} nested"
        );
    }
}
