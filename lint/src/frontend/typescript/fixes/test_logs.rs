//! A test's listener that only collects what a removed event carried into a local array the
//! test reads after the run:
//!
//! ```ts
//! const streamed: StreamChunk[] = []
//! ctx.on('agent/stream-chunk', (_agent, _turn, _step, chunk) => void streamed.push(chunk))
//! await run(agent, 'hi')
//! expect(streamed).toHaveLength(7)
//! ```
//!
//! Upstream's own migration (`b84d4828a8`) rewrote such a test to read the durable log after
//! the run: the array and the listener go, and after the run
//! `const streamed: StreamChunk[] = agent.session.events.flatMap(e => e.type === 'assistant/chunk' ? [e.data.chunk] : [])`.
//! Always a suggestion: the listener heard every agent of its receiver from its registration
//! on, the log holds the test's agent's events from the start.

use super::super::listeners;
use super::super::references::References;
use super::range;
use oxc_ast::ast::*;
use oxc_ast_visit::{Visit, walk};
use oxc_span::GetSpan;
use std::ops::Range;

/// A recognised collecting listener, by the statement list it is in ([`candidate`]).
#[derive(Clone)]
pub(super) struct LogRead {
    /// The array's declaration statement (`const streamed: T[] = []`).
    pub(super) decl: Range<usize>,
    /// The listener's statement.
    pub(super) listener: Range<usize>,
    /// The statement holding the array's first read after the run: the new declaration goes
    /// before it.
    pub(super) first_read: Range<usize>,
    /// The array's name and its annotation as written (`: StreamChunk[]`, or empty).
    pub(super) array: String,
    pub(super) annotation: String,
    /// The test's agent (`const agent = …` before the run), whose log is read.
    pub(super) agent: String,
    /// The handler parameter the listener pushes.
    pub(super) pushed: String,
}

/// `ARR.push(ID)` (or `void ARR.push(ID)`): the array's and the parameter's names.
fn push_of<'b>(e: &'b Expression<'_>) -> Option<(&'b str, &'b str)> {
    let e = match e.get_inner_expression() {
        Expression::UnaryExpression(u) if u.operator == UnaryOperator::Void => {
            u.argument.get_inner_expression()
        }
        other => other,
    };
    let Expression::CallExpression(call) = e else {
        return None;
    };
    let Expression::StaticMemberExpression(m) = call.callee.get_inner_expression() else {
        return None;
    };
    let (Expression::Identifier(array), "push", [arg]) = (
        &m.object,
        m.property.name.as_str(),
        call.arguments.as_slice(),
    ) else {
        return None;
    };
    match arg.as_expression()?.get_inner_expression() {
        Expression::Identifier(id) => Some((array.name.as_str(), id.name.as_str())),
        _ => None,
    }
}

/// The push a handler consists of: an expression body, or a block of that one statement.
fn handler_push<'b>(call: &'b CallExpression<'_>) -> Option<(&'b str, &'b str)> {
    let body = match call
        .arguments
        .get(1)?
        .as_expression()?
        .get_inner_expression()
    {
        Expression::ArrowFunctionExpression(f) if f.is_expression() => {
            return push_of(f.get_expression()?);
        }
        Expression::ArrowFunctionExpression(f) => f.get_function_body()?,
        Expression::FunctionExpression(f) => f.body.as_ref()?,
        _ => return None,
    };
    match body.statements.as_slice() {
        [Statement::ExpressionStatement(s)] => push_of(&s.expression),
        _ => None,
    }
}

/// `const NAME[: T] = []`: its annotation's text (empty without one).
fn empty_array_decl<'s>(src: &'s str, stmt: &Statement<'_>, name: &str) -> Option<&'s str> {
    let Statement::VariableDeclaration(v) = stmt else {
        return None;
    };
    let ([d], VariableDeclarationKind::Const) = (v.declarations.as_slice(), v.kind) else {
        return None;
    };
    let BindingPattern::BindingIdentifier(id) = &d.id else {
        return None;
    };
    let Some(Expression::ArrayExpression(a)) = &d.init else {
        return None;
    };
    if id.name != name || !a.elements.is_empty() {
        return None;
    }
    // The annotation sits between the name and the `=`.
    let between = src.get(id.span.end as usize..a.span.start as usize)?.trim();
    Some(between.strip_suffix('=')?.trim_end())
}

/// `const NAME = …`: the name.
/// `const NAME = INIT`: the name and the initializer's range.
fn const_decl<'b>(stmt: &'b Statement<'_>) -> Option<(&'b str, Range<usize>)> {
    let Statement::VariableDeclaration(v) = stmt else {
        return None;
    };
    match (v.declarations.as_slice(), v.kind) {
        ([d], VariableDeclarationKind::Const) => match (&d.id, &d.init) {
            (BindingPattern::BindingIdentifier(id), Some(init)) => {
                Some((id.name.as_str(), range(init.span())))
            }
            _ => None,
        },
        _ => None,
    }
}

/// Whether `text` names the identifier `name` (as a whole word: `ctx` is not in `ctx2`).
fn mentions(text: &str, name: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    text.match_indices(name).any(|(at, _)| {
        !text[..at].chars().next_back().is_some_and(ident)
            && !text[at + name.len()..].chars().next().is_some_and(ident)
    })
}

/// Whether `stmt` awaits (outside the functions it declares): the run the test waits for.
fn awaits(stmt: &Statement<'_>) -> bool {
    struct Awaits(bool);
    impl<'a> Visit<'a> for Awaits {
        fn visit_await_expression(&mut self, _it: &AwaitExpression<'a>) {
            self.0 = true;
        }
        fn visit_function(&mut self, _it: &Function<'a>, _f: oxc_syntax::scope::ScopeFlags) {}
        fn visit_arrow_function_expression(&mut self, _it: &ArrowFunctionExpression<'a>) {}
        fn visit_statement(&mut self, it: &Statement<'a>) {
            walk::walk_statement(self, it);
        }
    }
    let mut a = Awaits(false);
    a.visit_statement(stmt);
    a.0
}

/// The listener statement `stmts[i]` as a [`LogRead`]: it pushes one of its parameters into an
/// array declared empty earlier in the same list; an awaiting statement (the run) comes
/// between it and the statements that read the array, none of which awaits (so the array read
/// once, before the first of them, holds what each read); `const agent` is declared before
/// that first read, from the listener's receiver; nothing but the push reads the array before.
pub(super) fn candidate(
    src: &str,
    refs: &References,
    stmts: &[Statement<'_>],
    i: usize,
) -> Option<LogRead> {
    let call = listeners::on_call(&stmts[i])?;
    let (array, pushed) = handler_push(call)?;
    let (decl, annotation) = stmts[..i]
        .iter()
        .find_map(|s| empty_array_decl(src, s, array).map(|a| (range(s.span()), a)))?;
    let listener = range(stmts[i].span());
    let list_end = stmts.last()?.span().end as usize;
    // The statements (by index) that read the array, the push aside.
    let mut reading = Vec::new();
    for r in refs.of_name(array) {
        if r.start < decl.end || r.start >= list_end {
            continue;
        }
        if listener.start <= r.start && r.end <= listener.end {
            continue;
        }
        let at = stmts.iter().position(|s| {
            let s = range(s.span());
            s.start <= r.start && r.end <= s.end
        })?;
        reading.push(at);
    }
    let (&first, &last) = (reading.iter().min()?, reading.iter().max()?);
    if first <= i || !stmts[i + 1..first].iter().any(awaits) {
        return None;
    }
    if stmts[first..=last].iter().any(awaits) {
        return None;
    }
    let (agent, init) = stmts[..first]
        .iter()
        .filter_map(const_decl)
        .find(|(n, _)| *n == "agent")?;
    // The log read is the agent's: the listener must be on the context the agent was made
    // from (a forked test's `ctx2.on(…)` heard `forked`, not `agent`, made from `ctx`).
    let recv = listeners::receiver(src, call)?;
    let root = recv.split('.').next().unwrap_or(recv);
    if !mentions(src.get(init)?, root) {
        return None;
    }
    let first_read = range(stmts[first].span());
    Some(LogRead {
        decl,
        listener,
        first_read,
        array: array.to_owned(),
        annotation: annotation.to_owned(),
        agent: agent.to_owned(),
        pushed: pushed.to_owned(),
    })
}
