//! Whether a file shows that its host types `session/event`'s `data` by event type.
//!
//! A rewritten handler destructures its fields from `event.data`
//! (`const { turn } = event.data`). That type-checks only where the host types `event` as a
//! union discriminated on `type` (or `data` as `any`); a host typing `data` as `unknown`
//! rejects it (TS2339) where the original handler, typed by the mirror's own signature,
//! passed. The file proves the host's typing when it already reads a field of a durable
//! event's `data` without a cast, in one of its own `session/event` listeners or in a callback
//! over a session's log (`agent.session.events.filter(e => … e.data.reason …)`: the log holds
//! the same events, and so does a `const` copy of it, `const events = [...agent.session.events]`):
//! the file type-checks, so that read does too.

use super::exprs::callee_name;
use crate::hash::HashSet;
use oxc_ast::ast::*;
use oxc_ast_visit::{Visit, walk};

/// Whether `program` holds a `session/event` listener, or a callback over a session's
/// `events`, reading `event.data.field` (or destructuring `event.data`) without a cast.
/// `copies` are the program's [`LogCopies`], found by the fixer's one walk ([`super::walked`]).
pub(super) fn data_typed_by_host(program: &Program<'_>, copies: &LogCopies) -> bool {
    let mut v = Listeners {
        copies: &copies.names,
        found: false,
    };
    v.visit_program(program);
    v.found
}

/// Whether `it` is an `X.on(…)`/`X.once(…)` listener with a parameter it does not annotate:
/// under `noImplicitAny` that type-checks only where the receiver types its listeners'
/// parameters, so a rewrite's new `(session, event)` needs no annotations there either (or
/// the file does not check implicit `any`, and needs none anyway). A program holding one types
/// its listeners; so does a file that shows how its host types `data`
/// ([`data_typed_by_host`]). Asked of every call by the fixer's one walk.
pub(super) fn unannotated_listener(it: &CallExpression<'_>) -> bool {
    if !matches!(callee_name(&it.callee), Some("on" | "once")) {
        return false;
    }
    let Some(handler) = it.arguments.get(1).and_then(Argument::as_expression) else {
        return false;
    };
    let params = match handler.get_inner_expression() {
        Expression::ArrowFunctionExpression(f) => Some(&f.params),
        Expression::FunctionExpression(f) => Some(&f.params),
        _ => None,
    };
    params.is_some_and(|p| p.items.iter().any(|i| i.type_annotation.is_none()))
}

struct Listeners<'c> {
    /// The `const` names bound to a session's log or a copy of it.
    copies: &'c HashSet<String>,
    found: bool,
}

/// The `const` names bound to a session's log or a copy of it (`const e = [...a.session.events]`,
/// `Array.from(…)`, an array method chain on it), in source order so a copy of a copy counts.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct LogCopies {
    names: HashSet<String>,
}

impl LogCopies {
    /// Adds the names `it` binds to the log or a copy (the walk reaches the declarations
    /// inside it).
    pub(super) fn note(&mut self, it: &VariableDeclaration<'_>) {
        if it.kind == VariableDeclarationKind::Const {
            for d in &it.declarations {
                if let (BindingPattern::BindingIdentifier(id), Some(init)) = (&d.id, &d.init)
                    && from_log(init, &self.names)
                {
                    self.names.insert(id.name.to_string());
                }
            }
        }
    }
}

/// The program's [`LogCopies`] and whether it holds an [`unannotated_listener`], each by a walk
/// of its own: the one walk's oracle.
#[cfg(test)]
pub(super) fn walked_alone(program: &Program<'_>) -> (LogCopies, bool) {
    struct Copies(LogCopies);
    impl<'a> Visit<'a> for Copies {
        fn visit_variable_declaration(&mut self, it: &VariableDeclaration<'a>) {
            self.0.note(it);
            walk::walk_variable_declaration(self, it);
        }
    }
    struct Unannotated(bool);
    impl<'a> Visit<'a> for Unannotated {
        fn visit_call_expression(&mut self, it: &CallExpression<'a>) {
            self.0 |= unannotated_listener(it);
            walk::walk_call_expression(self, it);
        }
    }
    let mut copies = Copies(LogCopies::default());
    copies.visit_program(program);
    let mut unannotated = Unannotated(false);
    unannotated.visit_program(program);
    (copies.0, unannotated.0)
}

/// The callback holding durable events and the name of its event parameter: a
/// `session/event` listener's second parameter, or the first of a callback given to a method
/// of a session's log (`X.events.filter(e => …)`).
fn event_param<'b, 'a>(
    call: &'b CallExpression<'a>,
    copies: &HashSet<String>,
) -> Option<(&'b Argument<'a>, &'b str)> {
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
            if !from_log(&m.object, copies) {
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

/// Whether `e` is a session's log, a copy of it (`[...log]`, `Array.from(log)`, a `const` of
/// `copies`) or an array method chain on one (`agent.session.events.filter(…)`).
fn from_log(e: &Expression<'_>, copies: &HashSet<String>) -> bool {
    match e.get_inner_expression() {
        Expression::StaticMemberExpression(m) => m.property.name == "events",
        Expression::Identifier(id) => copies.contains(id.name.as_str()),
        Expression::ArrayExpression(a) => match a.elements.as_slice() {
            [ArrayExpressionElement::SpreadElement(s)] => from_log(&s.argument, copies),
            _ => false,
        },
        Expression::CallExpression(c) => match c.callee.get_inner_expression() {
            Expression::StaticMemberExpression(m)
                if m.property.name == "from"
                    && matches!(&m.object, Expression::Identifier(id) if id.name == "Array") =>
            {
                c.arguments
                    .first()
                    .and_then(Argument::as_expression)
                    .is_some_and(|a| from_log(a, copies))
            }
            Expression::StaticMemberExpression(m) => from_log(&m.object, copies),
            _ => false,
        },
        _ => false,
    }
}

impl<'a> Visit<'a> for Listeners<'_> {
    fn visit_call_expression(&mut self, it: &CallExpression<'a>) {
        if self.found {
            return;
        }
        if let Some((callback, event)) = event_param(it, self.copies) {
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
        data_typed_by_host(&parsed.program, &walked_alone(&parsed.program).0)
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
    fn a_read_over_a_copy_of_the_log_proves_it_too() {
        assert!(typed(
            "const events = [...subject.session.events]\nconst saw = events.some(e => e.type === 'step/start' && e.data.turn === 1)"
        ));
        assert!(typed(
            "const ok = [...agent.session.events].some(x => x.type === 'turn/end' && x.data.reason.kind === 'error')"
        ));
        assert!(typed(
            "const all = Array.from(agent.session.events)\nconst ends = all.filter(e => e.type === 'turn/end')\nends.map(e => e.data.reason)"
        ));
        // A `let` may be rebound to anything; an array that merely holds the log is not it.
        assert!(!typed(
            "let events = [...agent.session.events]\nevents.some(e => e.data.turn)"
        ));
        assert!(!typed(
            "const both = [...agent.session.events, ...other]\nboth.some(e => e.data.turn)"
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
