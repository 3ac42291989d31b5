//! The live listeners a subscription fix can build on, found in the file itself:
//!
//! - an existing `X.on('session/event', (session, event) => { … })` in the same statement list,
//!   which a removed event's handler can be merged into instead of adding a second listener;
//! - a map of agents by session (or its id) kept by `agent/created`/`agent/disposed` listeners
//!   (`agents.set(agent.session.id, agent)` / `agents.delete(agent.session.id)`), through which
//!   a handler that uses the agent can recover it when the host has no `ctx.agents`.

use crate::hash::HashSet;
use oxc_ast::ast::*;
use oxc_ast_visit::{Visit, walk};
use oxc_span::GetSpan;
use oxc_syntax::scope::ScopeFlags;
use std::ops::Range;

/// An existing `session/event` listener a removed event's handler can be merged into.
#[derive(Debug, Clone)]
pub(super) struct MergeTarget {
    /// The receiver's text (`ctx`): only a subscription on the same receiver merges.
    pub receiver: String,
    /// Where the merged code goes: the end of the listener's last statement.
    pub insert_at: usize,
    /// The listener's session and event parameter names.
    pub session: String,
    pub event: String,
    /// The indentation of the listener's statements.
    pub indent: String,
    /// Every name the listener's body binds (the merged code must not read a shadowed one).
    pub bindings: HashSet<String>,
}

/// Whether a body returns (outside nested functions): code appended after it might not run,
/// and code moved into another listener must not return from it.
#[derive(Default)]
pub(super) struct Returns(pub bool);

impl<'a> Visit<'a> for Returns {
    fn visit_return_statement(&mut self, _it: &ReturnStatement<'a>) {
        self.0 = true;
    }
    fn visit_function(&mut self, _it: &Function<'a>, _flags: ScopeFlags) {}
    fn visit_arrow_function_expression(&mut self, _it: &ArrowFunctionExpression<'a>) {}
}

/// Whether a body throws (outside nested functions and `try` blocks that catch): moved onto
/// `session/event`, its throw reaches the loop where it appends the durable event, which
/// handles it as it handles any `session/event` listener's, not as it handled the mirror's.
#[derive(Default)]
pub(super) struct Throws(pub bool);

impl<'a> Visit<'a> for Throws {
    fn visit_throw_statement(&mut self, _it: &ThrowStatement<'a>) {
        self.0 = true;
    }
    fn visit_try_statement(&mut self, it: &TryStatement<'a>) {
        if it.handler.is_none() {
            self.visit_block_statement(&it.block);
        }
        if let Some(h) = &it.handler {
            self.visit_block_statement(&h.body);
        }
        if let Some(f) = &it.finalizer {
            self.visit_block_statement(f);
        }
    }
    fn visit_function(&mut self, _it: &Function<'a>, _flags: ScopeFlags) {}
    fn visit_arrow_function_expression(&mut self, _it: &ArrowFunctionExpression<'a>) {}
}

/// Every name bound by a pattern.
#[derive(Default)]
struct Names(HashSet<String>);

impl<'a> Visit<'a> for Names {
    fn visit_binding_identifier(&mut self, it: &BindingIdentifier<'a>) {
        self.0.insert(it.name.as_str().to_owned());
    }
}

/// The names a function body binds in its own scope, which code placed in a block at its top
/// level sees: its top-level declarations and every `var` (hoisted), not nested functions'.
#[derive(Default)]
struct Bindings(Names);

impl<'a> Visit<'a> for Bindings {
    fn visit_variable_declaration(&mut self, it: &VariableDeclaration<'a>) {
        if it.kind == VariableDeclarationKind::Var {
            for d in &it.declarations {
                self.0.visit_binding_pattern(&d.id);
            }
        }
        walk::walk_variable_declaration(self, it);
    }
    fn visit_function(&mut self, _it: &Function<'a>, _flags: ScopeFlags) {}
    fn visit_arrow_function_expression(&mut self, _it: &ArrowFunctionExpression<'a>) {}
    fn visit_class(&mut self, _it: &Class<'a>) {}
}

fn body_bindings(body: &FunctionBody<'_>) -> HashSet<String> {
    let mut b = Bindings::default();
    b.visit_function_body(body);
    for stmt in &body.statements {
        match stmt {
            Statement::VariableDeclaration(v) => {
                for d in &v.declarations {
                    b.0.visit_binding_pattern(&d.id);
                }
            }
            Statement::FunctionDeclaration(f) => {
                if let Some(id) = &f.id {
                    b.0.visit_binding_identifier(id);
                }
            }
            Statement::ClassDeclaration(c) => {
                if let Some(id) = &c.id {
                    b.0.visit_binding_identifier(id);
                }
            }
            _ => {}
        }
    }
    b.0.0
}

/// `recv.on(name, handler)` as a statement: the call.
pub(super) fn on_call<'b, 'a>(stmt: &'b Statement<'a>) -> Option<&'b CallExpression<'a>> {
    let Statement::ExpressionStatement(es) = stmt else {
        return None;
    };
    let Expression::CallExpression(call) = es.expression.get_inner_expression() else {
        return None;
    };
    let Expression::StaticMemberExpression(m) = call.callee.get_inner_expression() else {
        return None;
    };
    (m.property.name.as_str() == "on" && call.arguments.len() == 2).then_some(&**call)
}

/// The receiver text of an `on` call.
pub(super) fn receiver<'s>(src: &'s str, call: &CallExpression<'_>) -> Option<&'s str> {
    match call.callee.get_inner_expression() {
        Expression::StaticMemberExpression(m) => {
            src.get(m.object.span().start as usize..m.object.span().end as usize)
        }
        _ => None,
    }
}

fn first_arg_is(call: &CallExpression<'_>, name: &str) -> bool {
    matches!(
        call.arguments.first().and_then(Argument::as_expression).map(|e| e.get_inner_expression()),
        Some(Expression::StringLiteral(s)) if s.value.as_str() == name
    )
}

/// `stmt` as a listener removed events can be merged into: `R.on('session/event', …)` with an
/// arrow or `function` handler of two plain parameters whose block body spans lines, holds a
/// statement and never returns.
pub(super) fn merge_target(src: &str, stmt: &Statement<'_>) -> Option<MergeTarget> {
    let call = on_call(stmt)?;
    if !first_arg_is(call, "session/event") {
        return None;
    }
    let (params, body) = match call.arguments[1].as_expression()?.get_inner_expression() {
        Expression::ArrowFunctionExpression(f) if !f.is_expression() => {
            (&f.params, f.get_function_body()?)
        }
        Expression::FunctionExpression(f) if !f.generator && f.this_param.is_none() => {
            (&f.params, &**f.body.as_ref()?)
        }
        _ => return None,
    };
    let names: Vec<&str> = params
        .items
        .iter()
        .map(|p| match &p.pattern {
            BindingPattern::BindingIdentifier(id) if p.initializer.is_none() => {
                Some(id.name.as_str())
            }
            _ => None,
        })
        .collect::<Option<_>>()?;
    let [session, event] = names.as_slice() else {
        return None;
    };
    if params.rest.is_some() {
        return None;
    }
    let first = body.statements.first()?;
    let last = body.statements.last()?;
    let open = body.span.start as usize + 1;
    let first_start = first.span().start as usize;
    if !src.get(open..first_start)?.contains('\n') {
        return None;
    }
    let mut returns = Returns::default();
    returns.visit_function_body(body);
    if returns.0 {
        return None;
    }
    let line_start = src[..first_start].rfind('\n').map_or(0, |i| i + 1);
    Some(MergeTarget {
        receiver: receiver(src, call)?.to_owned(),
        insert_at: last.span().end as usize,
        session: (*session).to_owned(),
        event: (*event).to_owned(),
        indent: src[line_start..first_start].to_owned(),
        bindings: body_bindings(body),
    })
}

/// `M.set(a.session.id, a)` / `M.delete(a.session.id)` (or keyed by the session itself,
/// `a.session`) in a handler of one agent parameter (or a payload `({ agent })`): the map.
fn map_call<'b, 'a>(src: &str, call: &'b CallExpression<'a>, method: &str) -> Option<AgentMap> {
    let handler = call
        .arguments
        .get(1)?
        .as_expression()?
        .get_inner_expression();
    // The handler's parameters and its one expression (`a => M.set(…)`, `{ M.set(…); }`).
    let one_expression = |b: &'b FunctionBody<'a>| match b.statements.as_slice() {
        [Statement::ExpressionStatement(es)] => Some(&es.expression),
        _ => None,
    };
    let (params, expr) = match handler {
        Expression::ArrowFunctionExpression(f) if f.is_expression() => {
            (&f.params, f.get_expression()?)
        }
        Expression::ArrowFunctionExpression(f) => {
            (&f.params, one_expression(f.get_function_body()?)?)
        }
        Expression::FunctionExpression(f) if f.this_param.is_none() => {
            (&f.params, one_expression(f.body.as_ref()?)?)
        }
        _ => return None,
    };
    let [param] = params.items.as_slice() else {
        return None;
    };
    let agent = match &param.pattern {
        BindingPattern::BindingIdentifier(id) => id.name.as_str(),
        BindingPattern::ObjectPattern(o) => {
            o.properties
                .iter()
                .find_map(|p| match (p.key.static_name(), &p.value) {
                    (Some(k), BindingPattern::BindingIdentifier(id)) if k == "agent" => {
                        Some(id.name.as_str())
                    }
                    _ => None,
                })?
        }
        _ => return None,
    };
    let Expression::CallExpression(c) = expr.get_inner_expression() else {
        return None;
    };
    let Expression::StaticMemberExpression(m) = c.callee.get_inner_expression() else {
        return None;
    };
    if m.property.name.as_str() != method {
        return None;
    }
    let key = c.arguments.first()?.as_expression()?;
    let key_text = src.get(key.span().start as usize..key.span().end as usize)?;
    let key = key_text.strip_prefix(agent)?.strip_prefix(".session")?;
    if !matches!(key, "" | ".id") {
        return None;
    }
    if method == "set" {
        let value = c.arguments.get(1)?.as_expression()?;
        if !matches!(value.get_inner_expression(), Expression::Identifier(id) if id.name.as_str() == agent)
        {
            return None;
        }
    }
    let name = src.get(m.object.span().start as usize..m.object.span().end as usize)?;
    Some(AgentMap {
        name: name.to_owned(),
        key: key.to_owned(),
        scope: 0..0,
    })
}

/// A map of agents by session that `agent/created`/`agent/disposed` listeners keep.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(super) struct AgentMap {
    /// The map's text (`agents`, `this.bySession`).
    pub name: String,
    /// What of the session it is keyed by: `""` (the session itself) or `".id"`.
    pub key: String,
    /// Where its name certainly means this map (byte range): the whole program for a map
    /// declared at the top level, the class body for `this.…`, else the function whose
    /// listeners keep it. A listener outside it must not name the map: it may not be visible
    /// there (`ReferenceError`, tsc's TS2304), or be another binding of the same name.
    pub scope: Range<usize>,
}

impl AgentMap {
    /// The expression that looks up the agent of the session bound to `session`.
    pub fn lookup(&self, session: &str) -> String {
        format!("{}.get({session}{})", self.name, self.key)
    }

    /// Whether code at byte `at` can name the map.
    pub fn visible_at(&self, at: usize) -> bool {
        self.scope.contains(&at)
    }
}

/// The agent maps of one program: the text of each map that an `agent/created` listener fills
/// and an `agent/disposed` listener empties, by session or session id.
#[derive(Default)]
pub(super) struct AgentMaps<'s> {
    src: &'s str,
    created: Vec<AgentMap>,
    disposed: Vec<AgentMap>,
    /// The names the program declares at its top level (visible everywhere in it).
    top_level: HashSet<String>,
    /// The enclosing functions' and classes' ranges, innermost last.
    functions: Vec<Range<usize>>,
    classes: Vec<Range<usize>>,
    program: Range<usize>,
}

impl<'s> AgentMaps<'s> {
    /// The map kept by both listeners in one scope, if the program has one. Only a program
    /// whose text can hold both listeners' names is visited (issue 32 item 1): a string literal
    /// whose value is `agent/created` spells it in the text, or holds an escape (`\\`).
    pub fn find(src: &'s str, program: &Program<'_>) -> Option<AgentMap> {
        let escapes = src.contains('\\');
        let spelled =
            |name: &str| escapes || memchr::memmem::find(src.as_bytes(), name.as_bytes()).is_some();
        if !spelled("agent/created") || !spelled("agent/disposed") {
            return None;
        }
        Self::find_in(src, program)
    }

    /// [`AgentMaps::find`], visiting whatever the text.
    fn find_in(src: &'s str, program: &Program<'_>) -> Option<AgentMap> {
        let mut maps = AgentMaps {
            src,
            program: 0..src.len() + 1,
            ..AgentMaps::default()
        };
        for stmt in &program.body {
            let decl = match stmt {
                Statement::VariableDeclaration(d) => Some(d),
                Statement::ExportDeclaration(e) => match &e.declaration {
                    Declaration::VariableDeclaration(d) => Some(d),
                    _ => None,
                },
                _ => None,
            };
            for d in decl.into_iter().flat_map(|d| d.declarations.iter()) {
                if let BindingPattern::BindingIdentifier(id) = &d.id {
                    maps.top_level.insert(id.name.as_str().to_owned());
                }
            }
        }
        maps.visit_program(program);
        maps.created
            .iter()
            .find(|m| maps.disposed.contains(m))
            .cloned()
    }

    /// Where the map named `name` is visible from a listener at the current position.
    fn scope_of(&self, name: &str) -> Range<usize> {
        let root = name.split(['.', '[']).next().unwrap_or(name);
        if root == "this" {
            return self.classes.last().cloned().unwrap_or(0..0);
        }
        if self.top_level.contains(root) {
            return self.program.clone();
        }
        self.functions
            .last()
            .cloned()
            .unwrap_or_else(|| self.program.clone())
    }
}

impl<'a> Visit<'a> for AgentMaps<'_> {
    fn visit_call_expression(&mut self, it: &CallExpression<'a>) {
        let is_on = matches!(it.callee.get_inner_expression(),
            Expression::StaticMemberExpression(m) if m.property.name.as_str() == "on");
        if is_on {
            if first_arg_is(it, "agent/created")
                && let Some(mut m) = map_call(self.src, it, "set")
            {
                m.scope = self.scope_of(&m.name);
                self.created.push(m);
            } else if first_arg_is(it, "agent/disposed")
                && let Some(mut m) = map_call(self.src, it, "delete")
            {
                m.scope = self.scope_of(&m.name);
                self.disposed.push(m);
            }
        }
        walk::walk_call_expression(self, it);
    }

    fn visit_function(&mut self, it: &Function<'a>, flags: ScopeFlags) {
        self.functions
            .push(it.span.start as usize..it.span.end as usize);
        walk::walk_function(self, it, flags);
        self.functions.pop();
    }

    fn visit_arrow_function_expression(&mut self, it: &ArrowFunctionExpression<'a>) {
        self.functions
            .push(it.span.start as usize..it.span.end as usize);
        walk::walk_arrow_function_expression(self, it);
        self.functions.pop();
    }

    fn visit_class(&mut self, it: &Class<'a>) {
        self.classes
            .push(it.span.start as usize..it.span.end as usize);
        walk::walk_class(self, it);
        self.classes.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;
    use oxc_allocator::Allocator;
    use oxc_parser::Parser;
    use oxc_span::SourceType;

    /// Issue 32 item 1: a program whose text spells neither listener's name (nor an escape)
    /// is not visited for its agent map, and what `find` gives is what a visit gives, on
    /// generated modules of `agent/created`/`agent/disposed` listeners keeping maps (names
    /// spelled plainly or with escapes, in functions, classes and at the top level).
    #[test]
    fn the_guard_finds_what_a_visit_finds() {
        const CREATED: &[&str] = &[
            "agent/created",
            "agent\\/created",
            "agent\\u002fcreated",
            "agent/create",
        ];
        const DISPOSED: &[&str] = &["agent/disposed", "agent\\u002Fdisposed", "agent/dispose"];
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let (mut found, mut skipped) = (0, 0);
        for _ in 0..3_000 {
            let mut src = String::new();
            for _ in 0..1 + rng.below(5) {
                let c = rng.pick(CREATED);
                let d = rng.pick(DISPOSED);
                src.push_str(match rng.below(7) {
                    0 => "const agents = new Map();\n",
                    1 => "function f(bus) {\n",
                    2 => "}\n",
                    3 => "class K { m(bus) { this.x = 1 } }\n",
                    4 => "log('\\n');\n",
                    _ => "",
                });
                src.push_str(&match rng.below(4) {
                    0 => format!("bus.on('{c}', (a) => agents.set(a.session.id, a));\n"),
                    1 => format!("bus.on(\"{d}\", (a) => {{ agents.delete(a.session.id) }});\n"),
                    2 => format!(
                        "bus.on('{c}', ({{ agent }}) => agents.set(agent.session, agent));\n"
                    ),
                    _ => format!("bus.on('{d}', function (a) {{ agents.delete(a.session) }});\n"),
                });
            }
            let alloc = Allocator::default();
            let ret = Parser::new(&alloc, &src, SourceType::ts()).parse();
            let guarded = AgentMaps::find(&src, &ret.program);
            let visited = AgentMaps::find_in(&src, &ret.program);
            assert_eq!(guarded, visited, "{src}");
            found += usize::from(visited.is_some());
            let spelled = |name: &str| src.contains('\\') || src.contains(name);
            skipped += usize::from(!spelled("agent/created") || !spelled("agent/disposed"));
        }
        assert!(
            found > 100 && skipped > 100,
            "{found} maps found, {skipped} texts skipped"
        );
    }
}
