//! Whether a file shows that its host types `session/event`'s `data` by event type.
//!
//! A rewritten handler destructures its fields from `event.data`
//! (`const { turn } = event.data`). That type-checks only where the host types `event` as a
//! union discriminated on `type` (or `data` as `any`); a host typing `data` as `unknown`
//! rejects it (TS2339) where the original handler, typed by the mirror's own signature,
//! passed. The file proves the host's typing when it already reads a field of a durable
//! event's `data` without a cast, in one of its own `session/event` listeners or in a callback
//! over a session's log (`agent.session.events.filter(e => … e.data.reason …)`: the log holds
//! the same events): the file type-checks, so that read does too.

use super::emits::callee_name;
use oxc_ast::ast::*;
use oxc_ast_visit::{Visit, walk};

/// Whether `program` holds a `session/event` listener, or a callback over a session's
/// `events`, reading `event.data.field` (or destructuring `event.data`) without a cast.
pub(super) fn data_typed_by_host(program: &Program<'_>) -> bool {
    let mut v = Listeners { found: false };
    v.visit_program(program);
    v.found
}

struct Listeners {
    found: bool,
}

/// The callback holding durable events and the name of its event parameter: a
/// `session/event` listener's second parameter, or the first of a callback given to a method
/// of a session's log (`X.events.filter(e => …)`).
fn event_param<'b, 'a>(call: &'b CallExpression<'a>) -> Option<(&'b Argument<'a>, &'b str)> {
    let (callback, index) = match callee_name(&call.callee) {
        Some("on" | "once") if call.arguments.len() == 2 => {
            match call.arguments[0].as_expression()?.get_inner_expression() {
                Expression::StringLiteral(s) if s.value == "session/event" => {}
                _ => return None,
            }
            (&call.arguments[1], 1)
        }
        _ => {
            let Expression::StaticMemberExpression(m) = call.callee.get_inner_expression() else {
                return None;
            };
            if !from_log(&m.object) {
                return None;
            }
            (call.arguments.first()?, 0)
        }
    };
    let params = match callback.as_expression()?.get_inner_expression() {
        Expression::ArrowFunctionExpression(f) => &f.params,
        Expression::FunctionExpression(f) => &f.params,
        _ => return None,
    };
    match &params.items.get(index)?.pattern {
        BindingPattern::BindingIdentifier(id) => Some((callback, id.name.as_str())),
        _ => None,
    }
}

/// Whether `e` is a session's log or an array method chain on it
/// (`agent.session.events.filter(…)`).
fn from_log(e: &Expression<'_>) -> bool {
    match e.get_inner_expression() {
        Expression::StaticMemberExpression(m) => m.property.name == "events",
        Expression::CallExpression(c) => match c.callee.get_inner_expression() {
            Expression::StaticMemberExpression(m) => from_log(&m.object),
            _ => false,
        },
        _ => false,
    }
}

impl<'a> Visit<'a> for Listeners {
    fn visit_call_expression(&mut self, it: &CallExpression<'a>) {
        if self.found {
            return;
        }
        if let Some((callback, event)) = event_param(it) {
            let mut reads = DataReads {
                event,
                found: false,
            };
            reads.visit_argument(callback);
            self.found |= reads.found;
        }
        walk::walk_call_expression(self, it);
    }
}

/// Finds `EVENT.data.field` and `const { … } = EVENT.data` (a cast, `EVENT.data as T`, is
/// neither: it proves nothing about the host).
struct DataReads<'n> {
    event: &'n str,
    found: bool,
}

impl DataReads<'_> {
    fn is_data(&self, e: &Expression<'_>) -> bool {
        matches!(e, Expression::StaticMemberExpression(m)
            if m.property.name == "data"
                && matches!(&m.object, Expression::Identifier(id) if id.name == self.event))
    }
}

impl<'a> Visit<'a> for DataReads<'_> {
    fn visit_static_member_expression(&mut self, it: &StaticMemberExpression<'a>) {
        self.found |= self.is_data(&it.object);
        walk::walk_static_member_expression(self, it);
    }

    fn visit_variable_declarator(&mut self, it: &VariableDeclarator<'a>) {
        if matches!(it.id, BindingPattern::ObjectPattern(_))
            && it.init.as_ref().is_some_and(|e| self.is_data(e))
        {
            self.found = true;
        }
        walk::walk_variable_declarator(self, it);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oxc_allocator::Allocator;
    use oxc_parser::Parser;
    use oxc_span::SourceType;

    fn typed(src: &str) -> bool {
        let alloc = Allocator::default();
        let parsed = Parser::new(&alloc, src, SourceType::ts()).parse();
        assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
        data_typed_by_host(&parsed.program)
    }

    #[test]
    fn an_uncast_read_of_data_proves_the_host_types_it() {
        assert!(typed(
            "ctx.on('session/event', (_s, e) => { if (e.type === 'turn/end') r.push(e.data.reason) })"
        ));
        assert!(typed(
            "ctx.on('session/event', function (s, ev) { if (ev.type !== 'turn/start') return; const { turn } = ev.data })"
        ));
        assert!(typed(
            "const r = agent.session.events.filter(e => e.type === 'turn/end' && e.data.reason.kind === 'error')"
        ));
        assert!(typed(
            "agent.session.events.filter(e => e.type === 'user/message').flatMap(e => e.type === 'user/message' ? e.data.content : [])"
        ));
    }

    #[test]
    fn a_cast_or_another_listener_proves_nothing() {
        assert!(!typed(
            "ctx.on('session/event', (_s, e) => { const { turn } = e.data as { turn: number } })"
        ));
        assert!(!typed(
            "ctx.on('session/event', (_s, e) => { use((e.data as { turn: number }).turn) })"
        ));
        assert!(!typed("ctx.on('agent/turn-end', (_a, e) => e.data.reason)"));
        assert!(!typed("items.filter(e => e.data.reason)"));
        assert!(!typed(
            "agent.session.events.filter(e => (e.data as { reason: string }).reason)"
        ));
        assert!(!typed(
            "ctx.on('session/event', (_s, e) => { other.data.turn; e.type })"
        ));
    }
}
