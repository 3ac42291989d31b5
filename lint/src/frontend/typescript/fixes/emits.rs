//! Emit statements of removed events: deleted, with what deleting them leaves unused.

use super::exprs::{callee_name, callee_object, pure};
use super::{Fixer, range};
use crate::hash::HashSet;
use crate::model::{Applicability, Edit, Fix};
use oxc_ast::ast::*;
use oxc_span::GetSpan;
use std::ops::Range;

/// The emit call a statement consists of (`ctx.emit(…)`, `await ctx.emit(…)`,
/// `void ctx.emit(…)`, `ctx?.emit(…)`).
fn statement_call<'b, 'a>(stmt: &'b Statement<'a>) -> Option<&'b CallExpression<'a>> {
    let Statement::ExpressionStatement(es) = stmt else {
        return None;
    };
    expression_call(&es.expression)
}

fn expression_call<'b, 'a>(e: &'b Expression<'a>) -> Option<&'b CallExpression<'a>> {
    match e.get_inner_expression() {
        Expression::CallExpression(c) => Some(c),
        Expression::AwaitExpression(a) => expression_call(&a.argument),
        Expression::UnaryExpression(u) if u.operator == UnaryOperator::Void => {
            expression_call(&u.argument)
        }
        Expression::ChainExpression(c) => match &c.expression {
            ChainElement::CallExpression(c) => Some(c),
            _ => None,
        },
        _ => None,
    }
}

/// Whether `stmt` appends durable event `twin` (`session.append('turn/start', …)`,
/// `append({ type: 'turn/start', … })`, awaited or assigned).
fn appends(stmt: &Statement<'_>, twins: &[&str]) -> bool {
    let call = match stmt {
        Statement::VariableDeclaration(v) => v
            .declarations
            .iter()
            .find_map(|d| d.init.as_ref().and_then(expression_call)),
        other => statement_call(other),
    };
    let Some(call) = call else { return false };
    if !callee_name(&call.callee).is_some_and(|n| n.to_ascii_lowercase().contains("append")) {
        return false;
    }
    let Some(first) = call.arguments.first().and_then(Argument::as_expression) else {
        return false;
    };
    match first.get_inner_expression() {
        Expression::StringLiteral(s) => twins.contains(&s.value.as_str()),
        Expression::ObjectExpression(o) => o.properties.iter().any(|p| match p {
            ObjectPropertyKind::ObjectProperty(p) => {
                p.key.static_name().is_some_and(|k| k == "type")
                    && matches!(p.value.get_inner_expression(),
                        Expression::StringLiteral(s) if twins.contains(&s.value.as_str()))
            }
            _ => false,
        }),
        _ => false,
    }
}

/// Whether `code` emits `agent/created` (`….emit('agent/created'`, any quote): a comment
/// that names the event is no announcement.
fn emits_agent_created(code: &str) -> bool {
    code.match_indices("agent/created").any(|(at, _)| {
        let before = code[..at].trim_end_matches(['\'', '"', '`']);
        before.len() + 1 == at && before.trim_end().ends_with("emit(")
    })
}

impl Fixer<'_, '_, '_> {
    /// An emit statement (or a `try`/`if` holding only it) at `stmts[i]`.
    pub(super) fn emit_statement(&mut self, stmts: &[Statement<'_>], i: usize) {
        let stmt = &stmts[i];
        let call = match stmt {
            Statement::TryStatement(t) if t.finalizer.is_none() && t.block.body.len() == 1 => {
                statement_call(&t.block.body[0])
            }
            Statement::IfStatement(s) if s.alternate.is_none() && pure(&s.test) => {
                match &s.consequent {
                    Statement::BlockStatement(b) if b.body.len() == 1 => statement_call(&b.body[0]),
                    other => statement_call(other),
                }
            }
            other => statement_call(other),
        };
        let Some(call) = call else { return };
        let Some(name) = callee_name(&call.callee) else {
            return;
        };
        if !matches!(
            super::super::syntax::call_role(self.cx.calls, name),
            Some(crate::model::Role::Emit)
        ) {
            return;
        }
        let args: Vec<&Expression<'_>> = call
            .arguments
            .iter()
            .filter_map(Argument::as_expression)
            .collect();
        if args.len() != call.arguments.len() {
            return;
        }
        // `emit(name, …)` or the `thisArg` overload `emit(carrier, name, …)`.
        let Some((_, m, occurrence)) = args.iter().take(2).find_map(|a| self.event_arg(a)) else {
            return;
        };
        let twins = [m.twin.as_str(), m.twin_2026_08.as_str()];
        let beside = stmts[..i].iter().any(|s| appends(s, &twins));
        let side_effect_free =
            args.iter().all(|a| pure(a)) && callee_object(&call.callee).is_none_or(pure);
        let what = match stmt {
            Statement::TryStatement(_) => "the `try` that holds only the emit",
            Statement::IfStatement(_) => "the guarded emit",
            _ => "the emit",
        };
        let (applicability, message) = if beside && side_effect_free {
            (
                Applicability::MachineApplicable,
                format!("delete {what}: `{}` is appended just before it", twins[0]),
            )
        } else if beside {
            (
                Applicability::Suggestion,
                format!("delete {what} (its arguments may have side effects: check them)"),
            )
        } else if crate::frontend::is_test(self.resolver.path) {
            // A test's emit stands in for the loop to drive the code under test: deleting it
            // deletes the test's stimulus (and leaves its locals unused). It can only become
            // the `session/event` the loop now announces, where its arguments make a whole twin.
            if let Statement::ExpressionStatement(_) = stmt
                && let Some(fix) = self.stand_in(stmt, call, &args, m, &occurrence)
            {
                self.push(occurrence, fix);
            }
            return;
        } else {
            (
                Applicability::Suggestion,
                format!(
                    "delete {what}, and make sure this path appends the durable `{}`",
                    twins[0]
                ),
            )
        };
        let r = self.removal(range(stmt.span()));
        let mut edits = vec![Edit::new(r.start, r.end, "")];
        edits.extend(self.unused_after_deleting(&r));
        edits.sort_by_key(|e| (e.start, e.end));
        self.push(occurrence, Fix::new(applicability, message, edits));
    }

    /// A test's stand-in `recv.emit('<removed>', agent, …args)` rewritten into the
    /// `recv.emit('session/event', agent.session, { type: '<twin>', seq: 0, time: 0, data })`
    /// the loop now announces (what upstream's own tests became); `None` unless the twin's
    /// `data` is known (the arguments, plus the fields the vocabulary gives a stand-in value:
    /// `turn/start`'s `trigger`) and the name is the first argument. A suggestion: the listener
    /// sees a made-up `seq` and `time`. A stand-in `turn/start` is preceded by
    /// `recv.emit('agent/created', agent)` unless its function already names `agent/created`:
    /// the loop announces an agent before its first turn, and a listener that needs the agent
    /// recovers it from that announcement (upstream's `140f818a42` did the same in its tests).
    fn stand_in(
        &mut self,
        stmt: &Statement<'_>,
        call: &CallExpression<'_>,
        args: &[&Expression<'_>],
        m: &crate::catalog::Migration,
        occurrence: &Range<usize>,
    ) -> Option<Fix> {
        let receiver = callee_object(&call.callee)?;
        let name = args.first()?;
        let extra = m.stand_in_data.as_ref()?;
        if args.len() != m.arguments.len() + 2
            || range(name.get_inner_expression().span()).start > occurrence.start
            || call
                .arguments
                .iter()
                .any(|a| matches!(a, Argument::SpreadElement(_)))
        {
            return None;
        }
        let agent = args[1];
        let agent_text = &self.src[range(agent.span())];
        // `x.session` binds tighter than anything but a name, a member or a call.
        let agent_text = match agent.get_inner_expression() {
            Expression::Identifier(_)
            | Expression::StaticMemberExpression(_)
            | Expression::CallExpression(_) => agent_text.to_owned(),
            _ => format!("({agent_text})"),
        };
        let q = self.quote_at(occurrence);
        let mut fields = Vec::new();
        for (a, value) in m.arguments.iter().zip(&args[2..]) {
            let field = a.field.as_deref()?;
            let text = &self.src[range(value.span())];
            fields.push(if text == field {
                field.to_owned()
            } else {
                format!("{field}: {text}")
            });
        }
        let mut says = Vec::new();
        for (field, value, said) in extra {
            fields.push(format!("{field}: {}", value.replace('\'', &q.to_string())));
            says.push(format!("its `{field}` says {said}"));
        }
        let twin = &m.twin;
        let receiver_text = &self.src[range(receiver.span())];
        let text = format!(
            "{receiver_text}.emit({q}{}{q}, {agent_text}.session, {{ type: {q}{twin}{q}, seq: 0, time: 0, data: {{ {} }} }})",
            crate::frontend::migrate::SESSION_EVENT,
            fields.join(", ")
        );
        let r = range(call.span);
        let mut edits = vec![Edit::new(r.start, r.end, text)];
        let mut announces = String::new();
        if twin == "turn/start" {
            let body_start = self.scopes.last().map_or(0, |s| s.body.start);
            let before = &self.src[body_start..range(stmt.span()).start];
            let key = (body_start, agent_text.clone());
            if !emits_agent_created(before) && !self.announced.contains(&key) {
                let at = range(stmt.span()).start;
                let indent = self.indent_at(at).to_owned();
                let (nl, semi) = (self.newline, self.semi());
                edits.insert(
                    0,
                    Edit::new(
                        at,
                        at,
                        format!("{receiver_text}.emit({q}agent/created{q}, {agent_text}){semi}{nl}{indent}"),
                    ),
                );
                self.announced.insert(key);
                announces = ", after announcing the agent with `agent/created` as the loop does before its first turn".to_owned();
            }
        }
        says.insert(0, "its `seq` and `time` are made up".to_owned());
        Some(Fix::new(
            Applicability::Suggestion,
            format!(
                "emit the durable `{twin}` on `session/event` instead, as the loop now does{announces} ({}: check the listener does not depend on them)",
                says.join(", ")
            ),
            edits,
        ))
    }

    /// What keeps code built with `noUnusedParameters` compiling once `r` is deleted, for the
    /// parameters of the enclosing function it leaves unused: the parameter goes with the
    /// argument of every call when the function is local and only called directly
    /// ([`Fixer::dropped_parameter`]), else it is renamed (`ctx` → `_ctx`) and no caller changes.
    fn unused_after_deleting(&self, r: &Range<usize>) -> Vec<Edit> {
        let Some(scope) = self.scopes.last() else {
            return Vec::new();
        };
        let uses = self.uses_around(&scope.body);
        let uses = uses.view(scope.body.clone());
        let unused: Vec<usize> = (0..scope.params.len())
            .filter(|&i| {
                let name = &scope.params[i].0;
                let (mut inside, mut outside) = (0, 0);
                for at in uses.spans_of(name) {
                    if r.start <= at.start && at.end <= r.end {
                        inside += 1;
                    } else {
                        outside += 1;
                    }
                }
                inside > 0 && outside == 0 && !name.starts_with('_')
            })
            .collect();
        if let [i] = unused.as_slice()
            && let Some(edits) = self.dropped_parameter(scope, *i, r)
        {
            return edits;
        }
        let mut taken: HashSet<String> = HashSet::default();
        let mut edits = Vec::new();
        for (name, binding) in &scope.params {
            let mut inside = 0;
            let mut outside = 0;
            for at in uses.spans_of(name) {
                if r.start <= at.start && at.end <= r.end {
                    inside += 1;
                } else {
                    outside += 1;
                }
            }
            if inside == 0 || outside > 0 || name.starts_with('_') {
                continue;
            }
            let wanted = format!("_{name}");
            let fresh = uses.fresh(&taken, &[wanted.as_str()]);
            if fresh != wanted || scope.params.iter().any(|(p, _)| *p == wanted) {
                continue;
            }
            taken.insert(fresh.clone());
            edits.push(Edit::new(binding.start, binding.end, fresh));
        }
        edits
    }

    /// Deletes parameter `i` of the local function `scope` and the argument of every call of
    /// it; `None` when the function is named anywhere but as a direct call, or a call passes
    /// other than one argument per parameter, or one with side effects for this one.
    fn dropped_parameter(
        &self,
        scope: &super::FnScope,
        i: usize,
        deleted: &Range<usize>,
    ) -> Option<Vec<Edit>> {
        let (name, items) = scope.local.as_ref()?;
        let calls = self.calls().of_name(name);
        if calls.is_empty() || self.refs.of_name(name).len() != calls.len() {
            return None;
        }
        let mut edits = Vec::new();
        let p = super::calls::list_removal(items, i);
        edits.push(Edit::new(p.start, p.end, ""));
        for call in calls {
            let args = call.as_ref().filter(|a| a.len() == items.len())?;
            if !args[i].1 {
                return None;
            }
            let ranges: Vec<Range<usize>> = args.iter().map(|(r, _)| r.clone()).collect();
            let a = super::calls::list_removal(&ranges, i);
            // A call inside the deleted statement goes with it.
            if !(deleted.start <= a.start && a.end <= deleted.end) {
                edits.push(Edit::new(a.start, a.end, ""));
            }
        }
        Some(edits)
    }
}
