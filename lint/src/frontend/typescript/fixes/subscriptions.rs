//! `X.on('<removed>', handler)`: rewritten into a `session/event` listener filtering the
//! durable twin.

use super::super::listeners::Throws;
use super::exprs::{callee_name, callee_object};
use super::handler::{Annotations, Body, Params};
use super::merge::Merge;
use super::uses::{AgentRef, Uses, View};
use super::{Fixer, range};
use crate::catalog::Migration;
use crate::frontend::migrate::{self, HandlerStyle, SESSION_EVENT};
use crate::hash::HashSet;
use crate::model::{Applicability, Claim, DataRead, Edit, Fix, HandlerRead, HostNeeds};
use oxc_ast::ast::*;
use oxc_ast_visit::Visit;
use oxc_span::GetSpan;
use std::ops::Range;

/// `ty` ready to be indexed (`T['session']`): parenthesized unless it is a plain name or a
/// type literal, whose indexed access needs no parentheses.
fn indexable(ty: &TSType<'_>, text: &str) -> String {
    match ty {
        TSType::TSTypeReference(_) | TSType::TSTypeLiteral(_) | TSType::TSIndexedAccessType(_) => {
            text.to_owned()
        }
        _ => format!("({text})"),
    }
}
impl<'s, 'c> Fixer<'s, 'c, '_> {
    fn pattern_text(&self, p: &BindingPattern<'_>) -> &'s str {
        &self.src[range(p.span())]
    }

    /// Maps a handler's parameters to the twin's fields, or `None` when the shape is not one
    /// a rewrite keeps exactly (rest or default parameters, an unmapped field).
    fn params(
        &self,
        params: &FormalParameters<'_>,
        m: &Migration,
        uses: &View<'_>,
    ) -> Option<Params> {
        if params.rest.is_some() || params.items.iter().any(|p| p.initializer.is_some()) {
            return None;
        }
        let used = |p: &BindingPattern<'_>| match p {
            BindingPattern::BindingIdentifier(id) => uses.count(id.name.as_str()) > 0,
            _ => true,
        };
        let entry = |field: &str, p: &BindingPattern<'_>| match p {
            BindingPattern::BindingIdentifier(id) if id.name.as_str() == field => field.to_owned(),
            other => format!("{field}: {}", self.pattern_text(other)),
        };
        if let [only] = params.items.as_slice()
            && let BindingPattern::ObjectPattern(obj) = &only.pattern
        {
            if obj.rest.is_some() {
                return None;
            }
            // `({ turn }: P) =>`: the fields keep their types, as `P['turn']` (or the type a
            // type literal gives `turn`).
            let payload_ty = only.type_annotation.as_ref().map(|t| &t.type_annotation);
            let payload_type = payload_ty.map(|t| indexable(t, self.type_text(t)));
            let member_type = |key: &str| -> Option<String> {
                let TSType::TSTypeLiteral(lit) = payload_ty? else {
                    return None;
                };
                lit.members.iter().find_map(|m| match m {
                    TSSignature::TSPropertySignature(p)
                        if !p.optional && p.key.static_name().is_some_and(|k| k == key) =>
                    {
                        p.type_annotation
                            .as_ref()
                            .map(|t| self.type_text(&t.type_annotation).to_owned())
                    }
                    _ => None,
                })
            };
            let mut out = Params {
                agent: None,
                fields: Vec::new(),
                positions: None,
                payload: true,
                types: Annotations {
                    agent: member_type("agent")
                        .map(|t| {
                            if t.chars().all(|c| c.is_alphanumeric() || "_$.".contains(c)) {
                                t
                            } else {
                                format!("({t})")
                            }
                        })
                        .or_else(|| payload_type.as_ref().map(|p| format!("{p}['agent']"))),
                    fields: payload_type.as_ref().map(|_| Vec::new()),
                },
            };
            for prop in &obj.properties {
                let key = prop.key.static_name()?;
                if key == "agent" {
                    if used(&prop.value) {
                        match &prop.value {
                            BindingPattern::BindingIdentifier(id) => {
                                out.agent = Some(id.name.as_str().to_owned());
                            }
                            _ => return None,
                        }
                    }
                    continue;
                }
                if used(&prop.value) {
                    let field = migrate::payload_field(m, &key)?;
                    out.fields.push(entry(field, &prop.value));
                    if let (Some(p), Some(types)) = (&payload_type, &mut out.types.fields) {
                        let ty = member_type(&key).unwrap_or_else(|| format!("{p}['{key}']"));
                        types.push(format!("{field}: {ty}"));
                    }
                }
            }
            return Some(out);
        }
        let mut items = params.items.iter();
        let mut out = Params {
            agent: None,
            fields: Vec::new(),
            positions: Some(Vec::new()),
            payload: false,
            types: Annotations::default(),
        };
        if let Some(first) = items.next() {
            out.types.agent = first
                .type_annotation
                .as_ref()
                .map(|t| indexable(&t.type_annotation, self.type_text(&t.type_annotation)));
            if used(&first.pattern) {
                match &first.pattern {
                    BindingPattern::BindingIdentifier(id) => {
                        out.agent = Some(id.name.as_str().to_owned());
                    }
                    _ => return None,
                }
            }
        }
        // The event is annotated only when every field parameter is (else the original relied
        // on contextual typing too, or did not type-check).
        let mut field_types = Some(Vec::new());
        for (i, p) in items.enumerate() {
            let arg = m.arguments.get(i)?;
            match &p.type_annotation {
                Some(t) if used(&p.pattern) => {
                    if let Some(types) = &mut field_types {
                        types.push(format!(
                            "{}: {}",
                            arg.field.as_deref()?,
                            self.type_text(&t.type_annotation)
                        ));
                    }
                }
                Some(_) => {}
                None => field_types = None,
            }
            if used(&p.pattern) {
                let field = migrate::positional_field(m, i)?;
                out.fields.push(entry(field, &p.pattern));
                if let Some(positions) = &mut out.positions {
                    positions.push((field.to_owned(), i));
                }
            }
        }
        out.types.fields = if params.items.len() > 1 {
            field_types
        } else {
            // `(agent: Agent) =>`: nothing but the agent, annotated or not.
            out.types.agent.as_ref().map(|_| Vec::new())
        };
        Some(out)
    }

    /// Whether the fields a rewrite destructures from `event.data` type-check whatever the
    /// host: none read, a cast to the handler's own annotations, or a file that shows its host
    /// types `data` by event type.
    fn fields_typed(&self, p: &Params) -> bool {
        p.fields.is_empty() || p.types.fields.is_some() || self.data_typed()
    }

    fn type_text(&self, t: &TSType<'_>) -> &'s str {
        &self.src[range(t.span())]
    }

    /// `recv.on('<removed>', handler)` → a `session/event` subscription filtering the twin:
    /// merged into the scope's existing `session/event` listener when there is one, else a
    /// rewrite of the call in place.
    pub(super) fn subscription(&mut self, call: &CallExpression<'_>) {
        let Some(on) = self.on_call(call) else {
            return;
        };
        let throws = {
            let mut t = Throws::default();
            match &on.body {
                Body::Block(b) => t.visit_function_body(b),
                Body::Expr(e) => t.visit_expression(e),
            }
            t.0
        };
        let Some(plan) = self.plan(call, &on) else {
            return;
        };
        // What the host must declare for the handler's parameters to be the mirror's
        // arguments; the run-level pass checks it against the host's event map.
        let handler = HandlerRead {
            mirror: on.event.clone(),
            arguments: std::iter::once("agent".to_owned())
                .chain(on.migration.arguments.iter().map(|a| a.name.clone()))
                .collect(),
            payload: plan.params.payload,
        };
        if let Some(mut fix) = self.merged_subscription(call, &on, &plan) {
            fix.host.handler = Some(handler);
            if !self.fields_typed(&plan.params)
                && let Some((t, _)) = self.merge_for.get(&(call.span.start as usize))
            {
                fix.host.data_read = Some(data_read(&plan.params, &on.event, &t.event, ""));
            }
            self.push(on.occurrence, fix);
            return;
        }
        let machine = migrate::keeps_behaviour(plan.target, plan.needs_agent)
            && !plan.compares_agent
            && !throws
            && self.fields_typed(&plan.params);
        if !machine && let Some(mut fix) = self.log_read(call, &on, &plan) {
            fix.host.handler = Some(handler);
            self.push(on.occurrence, fix);
            return;
        }
        let Some(mut edits) = self.in_place_edits(call, &on, &plan) else {
            return;
        };
        let mut claims = Vec::new();
        let mut host = HostNeeds {
            handler: Some(handler),
            ..HostNeeds::default()
        };
        if let Some(map) = plan.new_map {
            host.agent_type = map.typed_by_receiver;
            edits.push(Edit::new(map.at, map.at, map.text));
            // One map per file and round: the next round finds it and looks agents up there.
            claims.push(Claim {
                start: 0,
                end: 1,
                exclusive: true,
            });
        }
        edits.sort_by_key(|e| (e.start, e.end));
        let types_shown = self.fields_typed(&plan.params);
        let applicability = if machine {
            Applicability::MachineApplicable
        } else {
            Applicability::Suggestion
        };
        let shown = plan.lookup.replace(&format!("{}.id", plan.session), "…");
        let mut message =
            migrate::subscription_message(plan.target, plan.needs_agent.then_some(shown.as_str()));
        if plan.compares_agent {
            message.push_str(&format!(
                "; it compares agents by their sessions (`{} === other.session`), the same while no two agents share a session, which the file cannot show",
                plan.session
            ));
        }
        if throws {
            message.push_str(&format!(
                "; the handler throws: on `{SESSION_EVENT}` its throw reaches the loop where it appends `{}`, which handles it as it handles any `{SESSION_EVENT}` listener's, not as it handled the removed event's (a test of how such a throw is reported needs rewriting by hand, as upstream's own migrations did)",
                plan.target.twin
            ));
        }
        if !types_shown {
            let warning = format!(
                "; it reads `{}.data` uncast, which type-checks only where the host types `data` by event type (not `unknown`): annotate the handler's parameters and the rewrite casts to them",
                plan.event
            );
            message.push_str(&warning);
            host.data_read = Some(data_read(&plan.params, &on.event, &plan.event, &warning));
        }
        let mut fix = Fix::new(applicability, message, edits);
        fix.claims = claims;
        fix.host = host;
        self.push(on.occurrence, fix);
    }

    /// The parts of `recv.on('<removed>', handler)` a rewrite works on; `None` when the call
    /// has another shape or its handler is one no rewrite keeps exactly.
    fn on_call<'b, 'a>(&self, call: &'b CallExpression<'a>) -> Option<OnCall<'b, 'a, 'c>> {
        if callee_name(&call.callee) != Some("on") || call.arguments.len() != 2 {
            return None;
        }
        let receiver = callee_object(&call.callee)?;
        let (event, migration, occurrence) = call.arguments[0]
            .as_expression()
            .and_then(|e| self.event_arg(e))?;
        let handler = call.arguments[1].as_expression()?.get_inner_expression();
        let (params, body, is_function) = match handler {
            Expression::ArrowFunctionExpression(f) => (
                &f.params,
                match f.get_function_body() {
                    Some(b) if !f.is_expression() => Body::Block(b),
                    _ => Body::Expr(f.get_expression()?),
                },
                false,
            ),
            // A `this` parameter sits inside the parentheses the rewrite replaces: no fix.
            Expression::FunctionExpression(f) if !f.generator && f.this_param.is_none() => {
                (&f.params, Body::Block(f.body.as_ref()?), true)
            }
            _ => return None,
        };
        let body_range = match &body {
            Body::Block(b) => range(b.span),
            Body::Expr(e) => range(e.span()),
        };
        let uses = self.uses_around(&body_range);
        let view = uses.view(body_range.clone());
        if is_function && (view.this() || view.names("arguments")) {
            return None;
        }
        Some(OnCall {
            receiver: self.src[range(receiver.span())].to_owned(),
            event,
            migration,
            occurrence,
            params,
            body,
            uses,
            body_range,
        })
    }

    /// What the rewritten handler starts with and the names it binds: the twin filter, the
    /// fields destructured from `event.data`, and the agent looked up by session when the
    /// handler needs it.
    fn plan(&self, call: &CallExpression<'_>, on: &OnCall<'_, '_, 'c>) -> Option<Plan<'c>> {
        let m = on.migration;
        let uses = &on.uses.view(on.body_range.clone());
        let p = self.params(on.params, m, uses)?;
        let target = migrate::target(
            m,
            if p.payload {
                HandlerStyle::Payload
            } else {
                HandlerStyle::Positional
            },
        );
        let mut taken: HashSet<String> = HashSet::default();
        if let Some(a) = &p.agent {
            taken.insert(a.clone());
        }
        // The handler keeps working on the session when it reads only `agent.session` or
        // compares the agent with another (`subject === agent` → `session === agent.session`,
        // as upstream's `140f818a42` wrote); otherwise the agent is looked up by session.
        let agent_refs = match &p.agent {
            Some(a) => uses.agent_refs(a),
            None => Some(Vec::new()),
        };
        let needs_agent = agent_refs.is_none();
        let agent_refs = agent_refs.unwrap_or_default();
        let compares_agent = agent_refs.iter().any(AgentRef::compares);
        // The new body reads the session only where the handler used the agent (its
        // `agent.session`, or the agent lookup); otherwise the parameter is `_session`, which
        // `noUnusedParameters` accepts.
        let session = if p.agent.is_some() {
            uses.fresh(&taken, &["session", "sess"])
        } else {
            uses.fresh(&taken, &["_session", "_sess"])
        };
        taken.insert(session.clone());
        let event = uses.fresh(&taken, &["event", "ev", "sessionEvent"]);
        let quote = self.quote_at(&on.occurrence);

        // The lead statements go without their `;`: a one-line body separates them with one,
        // lines end as the file's do.
        let mut lead = vec![format!(
            "if ({event}.type !== {quote}{}{quote}) return",
            target.twin
        )];
        if !p.fields.is_empty() {
            let cast = match &p.types.fields {
                Some(types) => format!(" as {{ {} }}", types.join("; ")),
                None => String::new(),
            };
            lead.push(format!(
                "const {{ {} }} = {event}.data{cast}",
                p.fields.join(", ")
            ));
        }
        // The agent, recovered from the file's own `agent/created` map, or from one the fix
        // declares before the statement (the session id is not reliably the agent id).
        let mut new_map = None;
        // Only a map its name reaches from here (one kept in another function is not).
        let visible = self
            .agent_map()
            .filter(|m| m.visible_at(call.span.start as usize));
        let lookup = match (visible, needs_agent) {
            (Some(m), _) => m.lookup(&session),
            (None, true) => {
                let map = self.new_agent_map(call, &on.receiver, &p, uses, quote)?;
                let lookup = map.lookup.replace("{session}", &session);
                new_map = Some(map);
                lookup
            }
            (None, false) => String::new(),
        };
        if needs_agent && let Some(a) = &p.agent {
            lead.push(format!("const {a} = {lookup}"));
            lead.push(format!("if (!{a}) return"));
        }
        Some(Plan {
            params: p,
            target,
            needs_agent,
            session,
            event,
            quote,
            lead,
            lookup,
            new_map,
            agent_refs,
            compares_agent,
        })
    }

    /// The suggestion that merges the handler into the scope's `session/event` listener, when
    /// there is one and the merge keeps what the handler reads.
    fn merged_subscription(
        &self,
        call: &CallExpression<'_>,
        on: &OnCall<'_, '_, '_>,
        plan: &Plan<'_>,
    ) -> Option<Fix> {
        let (target, stmt) = self.merge_for.get(&(call.span.start as usize)).cloned()?;
        self.merged(
            &target,
            stmt,
            &on.body,
            &Merge {
                params: &plan.params,
                uses: &on.uses.view(on.body_range.clone()),
                twin: plan.target.twin,
                quote: plan.quote,
                agent_refs: &plan.agent_refs,
                needs_agent: plan.needs_agent,
                receiver: &on.receiver,
            },
        )
    }

    /// The suggestion for a test's collecting listener ([`super::test_logs`]): the array and
    /// the listener deleted, the array read from the test agent's log after the run.
    fn log_read(
        &self,
        call: &CallExpression<'_>,
        on: &OnCall<'_, '_, '_>,
        plan: &Plan<'_>,
    ) -> Option<Fix> {
        let read = self.log_reads.get(&(call.span.start as usize))?;
        let p = &plan.params;
        let [entry] = p.fields.as_slice() else {
            return None;
        };
        let (field, binding) = entry.split_once(": ").unwrap_or((entry, entry));
        if p.agent.is_some() || binding != read.pushed {
            return None;
        }
        let (q, twin, semi, nl) = (plan.quote, plan.target.twin, self.semi(), self.newline);
        let indent = self.indent_at(read.first_read.start);
        // Above the first read's own comments, which stay with it.
        let above = self.with_leading_comments(read.first_read.clone()).start;
        let at = self.src[..above].rfind('\n').map_or(0, |n| n + 1);
        let events = format!("{}.session.events", read.agent);
        let text = format!(
            "{indent}const {}{} = {events}.flatMap(e => e.type === {q}{twin}{q} ? [e.data.{field}] : []){semi}{nl}",
            read.array, read.annotation,
        );
        let (decl, mut listener) = (
            self.removal(read.decl.clone()),
            self.removal(read.listener.clone()),
        );
        // The two formed a paragraph of their own: one of the blank lines around it goes too.
        let blank_before = self.src[..decl.start]
            .trim_end_matches([' ', '\t'])
            .strip_suffix('\n')
            .is_some_and(|b| b.trim_end_matches([' ', '\t', '\r']).ends_with('\n'));
        let rest = &self.src[listener.end..];
        if decl.end == listener.start
            && blank_before
            && let Some(n) = rest.find('\n')
            && rest[..n].trim().is_empty()
        {
            listener.end += n + 1;
        }
        let mut edits = vec![
            Edit::new(at, at, text),
            Edit::new(decl.start, decl.end, ""),
            Edit::new(listener.start, listener.end, ""),
        ];
        edits.sort_by_key(|e| (e.start, e.end));
        let message = format!(
            "read the durable log after the run: `{events}` filtered by `{twin}`, as upstream's tests do (the listener heard every agent of `{}` from its registration on; the log holds `{}`'s events from its start: check that the test runs no other agent and nothing earlier)",
            on.receiver, read.agent
        );
        let mut fix = Fix::new(Applicability::Suggestion, message, edits);
        // `e.data.chunk` reads the log's `data` uncast, as the rewrite of a handler does.
        if !self.data_typed() {
            fix.host.data_read = Some(DataRead {
                statement: format!("[e.data.{field}]"),
                cast: format!("[(e.data as {{types}}).{field}]"),
                mirror: on.event.clone(),
                fields: p.positions.clone(),
                warning: String::new(),
            });
        }
        Some(fix)
    }

    /// The edits of the rewrite in place: the name, the parameters, and the body's lead.
    fn in_place_edits(
        &self,
        call: &CallExpression<'_>,
        on: &OnCall<'_, '_, '_>,
        plan: &Plan<'_>,
    ) -> Option<Vec<Edit>> {
        let name_literal = match call.arguments[0].as_expression()?.get_inner_expression() {
            Expression::StringLiteral(s) => range(s.span),
            Expression::TemplateLiteral(t) => range(t.span),
            other => range(other.span()),
        };
        let q = plan.quote;
        let mut edits = vec![Edit::new(
            name_literal.start,
            name_literal.end,
            format!("{q}{SESSION_EVENT}{q}"),
        )];
        // `(agent, turn)` and a bare `agent` both become `(session, event)`; annotated
        // parameters give annotated ones, so the handler type-checks without contextual typing.
        let (session, event) = (&plan.session, &plan.event);
        let session_used = plan.needs_agent || !plan.agent_refs.is_empty();
        // A handler without parameters gave contextual typing nothing to do: its new ones are
        // annotated unless the file shows its receiver types listeners' parameters.
        let bare = on.params.items.is_empty() && !self.listeners_typed();
        let session_param = match &plan.params.types.agent {
            Some(a) if session_used => format!("{session}: {a}['session']"),
            Some(_) => format!("{session}: unknown"),
            None if bare => format!("{session}: unknown"),
            None => session.clone(),
        };
        let event_param = match &plan.params.types.fields {
            Some(_) => format!("{event}: {{ type: string; data: unknown }}"),
            None if bare => format!("{event}: {{ type: string }}"),
            None => event.clone(),
        };
        let params_range = range(on.params.span);
        edits.push(Edit::new(
            params_range.start,
            params_range.end,
            format!("({session_param}, {event_param})"),
        ));
        edits.extend(self.body_edits(&on.body, plan));
        Some(edits)
    }

    /// The body's edits: the lead statements first (a block keeps its layout; an expression
    /// body becomes a block), `agent.session` read as the session.
    fn body_edits(&self, body: &Body<'_, '_>, plan: &Plan<'_>) -> Vec<Edit> {
        let (nl, semi, session) = (self.newline, self.semi(), &plan.session);
        let lead = &plan.lead;
        let mut edits = Vec::new();
        match body {
            Body::Block(b) => {
                let open = b.span.start as usize + 1;
                let first = b.statements.first().map(|s| s.span().start as usize);
                let multiline = first.is_some_and(|f| self.src[open..f].contains('\n'))
                    || (first.is_none() && self.src[open..b.span.end as usize].contains('\n'));
                let text = if multiline {
                    let indent = match first {
                        Some(f) => self.indent_at(f).to_owned(),
                        None => format!("{}  ", self.indent_at(b.span.start as usize)),
                    };
                    lead.iter()
                        .map(|l| format!("{nl}{indent}{l}{semi}"))
                        .collect::<String>()
                } else {
                    lead.iter().map(|l| format!(" {l};")).collect::<String>()
                };
                edits.push(Edit::new(open, open, text));
                for r in &plan.agent_refs {
                    let at = r.range();
                    edits.push(Edit::new(at.start, at.end, r.text(self.src, session)));
                }
            }
            Body::Expr(e) => {
                let er = range(e.span());
                // `=> void f(x)` only kept the arrow from returning `f`'s value: as a statement
                // in the new block it is `f(x)`.
                let kept = match e {
                    Expression::UnaryExpression(u)
                        if u.operator == UnaryOperator::Void
                            && matches!(u.argument, Expression::CallExpression(_)) =>
                    {
                        range(u.argument.span())
                    }
                    _ => er.clone(),
                };
                let mut expr = String::new();
                let mut at = kept.start;
                for r in &plan.agent_refs {
                    expr.push_str(&self.src[at..r.range().start]);
                    expr.push_str(&r.text(self.src, session));
                    at = r.range().end;
                }
                expr.push_str(&self.src[at..kept.end]);
                let lead: String = lead.iter().map(|l| format!("{l}; ")).collect();
                let text = format!("{{ {lead}{expr}{semi} }}");
                edits.push(Edit::new(er.start, er.end, text));
            }
        }
        edits
    }

    /// The map of agents by session a rewrite that needs the agent declares before the
    /// subscription's statement, kept by `agent/created`/`agent/disposed` listeners on the same
    /// receiver (what upstream's own migration did); `None` when the statement has no line of
    /// its own to insert before or the agent's type cannot be spelled.
    fn new_agent_map(
        &self,
        call: &CallExpression<'_>,
        receiver: &str,
        p: &Params,
        uses: &View<'_>,
        q: char,
    ) -> Option<NewAgentMap> {
        let start = call.span.start as usize;
        let line_start = self.src[..start].rfind('\n').map_or(0, |i| i + 1);
        // The call starts its statement: `recv.on(…)`, `const off = recv.on(…)`, `return …`.
        let before = self.src[line_start..start].trim_start_matches([' ', '\t']);
        let starts_statement = before.is_empty()
            || before == "return "
            || ["const ", "let ", "var "].iter().any(|k| {
                before.strip_prefix(k).is_some_and(|rest| {
                    rest.strip_suffix(" = ").is_some_and(|n| {
                        !n.is_empty()
                            && n.chars()
                                .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
                    })
                })
            });
        if !starts_statement {
            return None;
        }
        // The agent's type: the handler's annotation, else what the receiver's `agent/created`
        // listener is given (an instantiation expression: no name to import).
        let plain_receiver = !receiver.is_empty()
            && !receiver.starts_with("this")
            && receiver.split('.').all(|part| {
                part.chars()
                    .next()
                    .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
                    && part
                        .chars()
                        .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
            });
        let q = if q == '`' { '\'' } else { q };
        let (agent_type, typed_by_receiver) = match &p.types.agent {
            // JavaScript: no type to write.
            _ if !self.typescript => (String::new(), None),
            Some(t) => (t.clone(), None),
            None if plain_receiver => {
                let t = format!(
                    "Parameters<Parameters<typeof {receiver}.on<{q}agent/created{q}>>[1]>[0]"
                );
                (t.clone(), Some(t))
            }
            None => return None,
        };
        let taken = |n: &str| !self.refs.of_name(n).is_empty() || uses.names(n);
        let name = ["agentBySession", "agentsBySession", "sessionAgents"]
            .into_iter()
            .find(|n| !taken(n))?;
        // The listeners' own parameter (it shadows nothing they read), annotated as the
        // handler's was: an untyped receiver gives no contextual type.
        let a = match &p.types.agent {
            Some(t) => format!("agent: {t}"),
            None => "agent".to_owned(),
        };
        let indent = self.indent_at(start);
        let nl = self.newline;
        let semi = self.semi();
        let type_args = if self.typescript {
            format!("<unknown, {agent_type}>")
        } else {
            String::new()
        };
        let text = format!(
            "{indent}const {name} = new Map{type_args}(){semi}{nl}\
             {indent}{receiver}.on({q}agent/created{q}, ({a}) => {{ {name}.set(agent.session, agent) }}){semi}{nl}\
             {indent}{receiver}.on({q}agent/disposed{q}, ({a}) => {{ {name}.delete(agent.session) }}){semi}{nl}"
        );
        // Above the statement's own comments, which stay with it.
        let above = self.with_leading_comments(line_start..line_start).start;
        let at = self.src[..above].rfind('\n').map_or(0, |i| i + 1);
        Some(NewAgentMap {
            at,
            text,
            lookup: format!("{name}.get({{session}})"),
            typed_by_receiver,
        })
    }
}

/// The agent map [`Fixer::new_agent_map`] declares: where, its text, and the lookup (with
/// `{session}` standing for the listener's session parameter).
struct NewAgentMap {
    at: usize,
    text: String,
    lookup: String,
    /// The agent's type when spelled from the receiver's `on` ([`HostNeeds::agent_type`]).
    typed_by_receiver: Option<String>,
}

/// The uncast destructuring of `{event}.data` a rewrite of `mirror`'s handler writes, for the
/// run-level pass to cast as the host declares it ([`HostNeeds::data_read`]).
fn data_read(p: &Params, mirror: &str, event: &str, warning: &str) -> DataRead {
    let statement = format!("const {{ {} }} = {event}.data", p.fields.join(", "));
    DataRead {
        cast: format!("{statement} as {{types}}"),
        statement,
        mirror: mirror.to_owned(),
        fields: p.positions.clone(),
        warning: warning.to_owned(),
    }
}

/// The parts of a `recv.on('<removed>', handler)` call ([`Fixer::on_call`]).
struct OnCall<'b, 'a, 'c> {
    /// The receiver's text (`ctx`, `this.ctx`).
    receiver: String,
    /// The removed event subscribed to.
    event: String,
    migration: &'c Migration,
    /// The range the linter reports for the name.
    occurrence: Range<usize>,
    params: &'b FormalParameters<'a>,
    body: Body<'b, 'a>,
    /// The identifier uses of the statement around the handler ([`Fixer::uses_around`]).
    uses: std::rc::Rc<Uses>,
    /// The handler's body (its block, or its expression), whose uses are the handler's.
    body_range: Range<usize>,
}

/// What a rewritten handler is made of ([`Fixer::plan`]).
struct Plan<'c> {
    params: Params,
    target: migrate::Target<'c>,
    /// Whether the handler uses the agent beyond `agent.session` (it is looked up by session).
    needs_agent: bool,
    /// The new parameters' names.
    session: String,
    event: String,
    /// The quote the file spells the name with.
    quote: char,
    /// The statements the new body starts with, without their `;`.
    lead: Vec<String>,
    /// The agent lookup (empty when the handler needs no agent).
    lookup: String,
    /// The agent map the fix declares, when the file keeps none.
    new_map: Option<NewAgentMap>,
    /// The handler's uses of the agent, read as the session (`agent.session`, comparisons).
    agent_refs: Vec<AgentRef>,
    /// Whether the handler compares its agent with another, which the rewrite does by
    /// session: an agent's session is its own, which the file cannot show.
    compares_agent: bool,
}
