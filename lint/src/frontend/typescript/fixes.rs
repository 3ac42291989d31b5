//! Fixes for TypeScript/JavaScript: rewrites that migrate a use of a removed event, built
//! from the catalogue's [`Migration`] data (durable twin, argument → field), never from code
//! per event.
//!
//! - an emit statement of a removed event: deleted (with a `try` that held only it, or an
//!   `if (flag)` guard); machine-applicable when the durable twin is appended in the same
//!   block and the emit's arguments have no side effects, a suggestion otherwise;
//! - `X.on('<removed>', handler)`: rewritten into `X.on('session/event', (session, event) => …)`
//!   filtering the durable twin, the handler's parameters destructured from `event.data`
//!   (positional handlers are 2026-07 code, one payload-object parameter is 2026-08 code);
//!   machine-applicable when the handler does not use the agent (or only `agent.session`),
//!   a suggestion that looks the agent up with `X.agents.get(session.id)` when it does;
//! - a removed event's entry in an interface or type literal (an event map, a
//!   `declare module … { interface Events { … } }` block): deleted, and the whole block when
//!   every entry in it is a removed event.
//!
//! Each fix is keyed by the byte range of the occurrence it migrates (the name inside the
//! quotes, or the identifier that stands for it).

use super::syntax::Resolver;
use crate::catalog::{Catalog, Migration};
use crate::frontend::migrate::{self, HandlerStyle, SESSION_EVENT};
use crate::frontend::{Context, OccurrenceFix, line_removal};
use crate::model::{Applicability, Edit, Fix};
use oxc_ast::ast::*;
use oxc_ast_visit::{Visit, walk};
use oxc_span::{GetSpan, Span};
use std::collections::HashSet;
use std::ops::Range;

/// Collects the fixes of one parsed program.
pub(super) struct Fixer<'s, 'c> {
    src: &'s str,
    cx: Context<'c>,
    resolver: Resolver<'c>,
    /// The file's comments (start, end), sorted: a deleted member takes its JSDoc along.
    comments: Vec<(usize, usize)>,
    /// The line ending new lines use (the file's own).
    newline: &'static str,
    /// The fixes found so far.
    pub fixes: Vec<OccurrenceFix>,
}

fn range(span: Span) -> Range<usize> {
    span.start as usize..span.end as usize
}

impl<'s, 'c> Fixer<'s, 'c> {
    pub fn new(
        src: &'s str,
        cx: Context<'c>,
        resolver: Resolver<'c>,
        program: &Program<'_>,
    ) -> Self {
        let mut comments: Vec<(usize, usize)> = program
            .comments
            .iter()
            .map(|c| (c.span.start as usize, c.span.end as usize))
            .collect();
        comments.sort_unstable();
        Fixer {
            src,
            cx,
            resolver,
            comments,
            newline: if src.contains("\r\n") { "\r\n" } else { "\n" },
            fixes: Vec::new(),
        }
    }

    fn catalog(&self) -> &'c Catalog {
        self.cx.catalog
    }

    /// The removed event an argument names, its migration, and the occurrence range the
    /// linter reports for it.
    fn event_arg(&self, e: &Expression<'_>) -> Option<(String, &'c Migration, Range<usize>)> {
        let inner = e.get_inner_expression();
        let (event, _) = self.resolver.eval(inner, self.cx)?;
        let migration = self.catalog().lookup(&event)?.migration.as_ref()?;
        let r = match inner {
            Expression::StringLiteral(s) => s.span.start as usize + 1..s.span.end as usize - 1,
            Expression::TemplateLiteral(t) => range(t.quasis.first()?.span),
            other => range(other.span()),
        };
        // A literal spelled with escapes is not where the name match is: no fix.
        let literal = matches!(inner, Expression::StringLiteral(_));
        (!literal || self.src.get(r.clone()) == Some(event.as_str()))
            .then_some((event, migration, r))
    }

    fn push(&mut self, occurrence: Range<usize>, fix: Fix) {
        self.fixes.push(OccurrenceFix {
            start: occurrence.start,
            end: occurrence.end,
            fix,
        });
    }

    /// The range to delete for a node at `r` (see [`line_removal`]).
    fn removal(&self, r: Range<usize>) -> Range<usize> {
        line_removal(self.src, r)
    }

    /// `r` extended back over the comments directly above it (its JSDoc).
    fn with_leading_comments(&self, r: Range<usize>) -> Range<usize> {
        let mut start = r.start;
        for &(cs, ce) in self.comments.iter().rev() {
            if ce <= start && self.src[ce..start].trim().is_empty() {
                start = cs;
            } else if ce <= start {
                break;
            }
        }
        start..r.end
    }

    fn indent_at(&self, offset: usize) -> &'s str {
        let line_start = self.src[..offset].rfind('\n').map_or(0, |i| i + 1);
        let line = &self.src[line_start..];
        &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
    }

    fn quote_at(&self, r: &Range<usize>) -> char {
        match r
            .start
            .checked_sub(1)
            .and_then(|p| self.src.as_bytes().get(p))
        {
            Some(b'"') => '"',
            Some(b'`') => '`',
            _ => '\'',
        }
    }
}

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

fn callee_name<'b>(callee: &'b Expression<'_>) -> Option<&'b str> {
    match callee.get_inner_expression() {
        Expression::Identifier(id) => Some(id.name.as_str()),
        Expression::StaticMemberExpression(m) => Some(m.property.name.as_str()),
        _ => None,
    }
}

fn callee_object<'b, 'a>(callee: &'b Expression<'a>) -> Option<&'b Expression<'a>> {
    match callee.get_inner_expression() {
        Expression::StaticMemberExpression(m) => Some(&m.object),
        _ => None,
    }
}

/// Whether evaluating `e` can have no side effect (so deleting it keeps behaviour).
fn pure(e: &Expression<'_>) -> bool {
    match e.get_inner_expression() {
        Expression::Identifier(_)
        | Expression::ThisExpression(_)
        | Expression::StringLiteral(_)
        | Expression::NumericLiteral(_)
        | Expression::BooleanLiteral(_)
        | Expression::NullLiteral(_)
        | Expression::BigIntLiteral(_)
        | Expression::ArrowFunctionExpression(_)
        | Expression::FunctionExpression(_) => true,
        Expression::StaticMemberExpression(m) => pure(&m.object),
        Expression::TemplateLiteral(t) => t.expressions.iter().all(pure),
        Expression::ArrayExpression(a) => a
            .elements
            .iter()
            .all(|el| el.as_expression().is_some_and(pure)),
        Expression::ObjectExpression(o) => o.properties.iter().all(|p| match p {
            ObjectPropertyKind::ObjectProperty(p) => !p.computed && pure(&p.value),
            ObjectPropertyKind::SpreadProperty(_) => false,
        }),
        _ => false,
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

/// Identifier uses inside a handler.
#[derive(Default)]
struct Uses {
    /// Every identifier referenced or bound (for fresh names).
    names: HashSet<String>,
    /// References by name: their spans, and whether each is `NAME.session`.
    refs: Vec<(String, Range<usize>, Option<Range<usize>>)>,
    this: bool,
}

impl<'a> Visit<'a> for Uses {
    fn visit_identifier_reference(&mut self, it: &IdentifierReference<'a>) {
        self.names.insert(it.name.as_str().to_owned());
        self.refs
            .push((it.name.as_str().to_owned(), range(it.span), None));
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
                Some(range(it.span)),
            ));
            return;
        }
        walk::walk_static_member_expression(self, it);
    }
}

impl Uses {
    fn of_body(body: &dyn Fn(&mut Uses)) -> Uses {
        let mut u = Uses::default();
        body(&mut u);
        u
    }

    fn count(&self, name: &str) -> usize {
        self.refs.iter().filter(|(n, _, _)| n == name).count()
    }

    /// Whether every use of `name` is `name.session`.
    fn only_session(&self, name: &str) -> bool {
        self.refs
            .iter()
            .filter(|(n, _, _)| n == name)
            .all(|(_, _, s)| s.is_some())
    }

    fn fresh(&self, taken: &HashSet<String>, wanted: &[&str]) -> String {
        wanted
            .iter()
            .find(|w| !self.names.contains(**w) && !taken.contains(**w))
            .map_or_else(|| format!("{}_", wanted[0]), |w| (*w).to_owned())
    }
}

/// What a handler's parameters say: which agent binding, and which fields it reads.
struct Params {
    /// The name bound to the agent, if any.
    agent: Option<String>,
    /// `field: pattern` (or the shorthand `field`) per used parameter.
    fields: Vec<String>,
    /// Whether this is a 2026-08-style payload-object handler.
    payload: bool,
}

impl<'s, 'c> Fixer<'s, 'c> {
    fn pattern_text(&self, p: &BindingPattern<'_>) -> &'s str {
        &self.src[range(p.span())]
    }

    /// Maps a handler's parameters to the twin's fields, or `None` when the shape is not one
    /// a rewrite keeps exactly (rest or default parameters, an unmapped field).
    fn params(&self, params: &FormalParameters<'_>, m: &Migration, uses: &Uses) -> Option<Params> {
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
            let mut out = Params {
                agent: None,
                fields: Vec::new(),
                payload: true,
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
                }
            }
            return Some(out);
        }
        let mut items = params.items.iter();
        let mut out = Params {
            agent: None,
            fields: Vec::new(),
            payload: false,
        };
        if let Some(first) = items.next()
            && used(&first.pattern)
        {
            match &first.pattern {
                BindingPattern::BindingIdentifier(id) => {
                    out.agent = Some(id.name.as_str().to_owned());
                }
                _ => return None,
            }
        }
        for (i, p) in items.enumerate() {
            m.arguments.get(i)?;
            if used(&p.pattern) {
                out.fields
                    .push(entry(migrate::positional_field(m, i)?, &p.pattern));
            }
        }
        Some(out)
    }

    /// `recv.on('<removed>', handler)` → a `session/event` subscription filtering the twin.
    fn subscription(&mut self, call: &CallExpression<'_>) {
        if callee_name(&call.callee) != Some("on") || call.arguments.len() != 2 {
            return;
        }
        let Some(receiver) = callee_object(&call.callee) else {
            return;
        };
        let Some((_, m, occurrence)) = call.arguments[0]
            .as_expression()
            .and_then(|e| self.event_arg(e))
        else {
            return;
        };
        let Some(handler) = call.arguments[1].as_expression() else {
            return;
        };
        let handler = handler.get_inner_expression();
        let (params, body, is_function): (&FormalParameters<'_>, Body<'_, '_>, bool) = match handler
        {
            Expression::ArrowFunctionExpression(f) => (
                &f.params,
                match f.get_function_body() {
                    Some(b) if !f.is_expression() => Body::Block(b),
                    _ => match f.get_expression() {
                        Some(e) => Body::Expr(e),
                        None => return,
                    },
                },
                false,
            ),
            Expression::FunctionExpression(f) if !f.generator => match &f.body {
                Some(b) => (&f.params, Body::Block(b), true),
                None => return,
            },
            _ => return,
        };
        let uses = Uses::of_body(&|u: &mut Uses| match &body {
            Body::Block(b) => u.visit_function_body(b),
            Body::Expr(e) => u.visit_expression(e),
        });
        if is_function && (uses.this || uses.names.contains("arguments")) {
            return;
        }
        let Some(p) = self.params(params, m, &uses) else {
            return;
        };
        let target = migrate::target(
            m,
            if p.payload {
                HandlerStyle::Payload
            } else {
                HandlerStyle::Positional
            },
        );
        let twin = target.twin;
        let mut taken: HashSet<String> = HashSet::new();
        if let Some(a) = &p.agent {
            taken.insert(a.clone());
        }
        let session = uses.fresh(&taken, &["session", "sess"]);
        taken.insert(session.clone());
        let event = uses.fresh(&taken, &["event", "ev", "sessionEvent"]);
        let agent_session_only = p.agent.as_ref().is_none_or(|a| uses.only_session(a));
        let needs_agent = !agent_session_only;
        let q = self.quote_at(&occurrence);
        let nl = self.newline;
        let receiver_text = &self.src[range(receiver.span())];

        // The statements the new body starts with.
        let mut lead = vec![format!("if ({event}.type !== {q}{twin}{q}) return;")];
        if !p.fields.is_empty() {
            lead.push(format!(
                "const {{ {} }} = {event}.data;",
                p.fields.join(", ")
            ));
        }
        if needs_agent && let Some(a) = &p.agent {
            lead.push(format!(
                "const {a} = {receiver_text}.agents.get({session}.id);"
            ));
            lead.push(format!("if (!{a}) return;"));
        }
        // `agent.session` → `session` (the event's session is the agent's).
        let session_refs: Vec<Range<usize>> = match (&p.agent, agent_session_only) {
            (Some(a), true) => uses
                .refs
                .iter()
                .filter(|(n, _, s)| n == a && s.is_some())
                .filter_map(|(_, _, s)| s.clone())
                .collect(),
            _ => Vec::new(),
        };

        let name_literal = match call.arguments[0]
            .as_expression()
            .map(|e| e.get_inner_expression())
        {
            Some(Expression::StringLiteral(s)) => range(s.span),
            Some(Expression::TemplateLiteral(t)) => range(t.span),
            Some(other) => range(other.span()),
            None => return,
        };
        let mut edits = vec![Edit::new(
            name_literal.start,
            name_literal.end,
            format!("{q}{SESSION_EVENT}{q}"),
        )];
        // `(agent, turn)` and a bare `agent` both become `(session, event)`.
        let params_range = range(params.span);
        edits.push(Edit::new(
            params_range.start,
            params_range.end,
            format!("({session}, {event})"),
        ));
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
                        .map(|l| format!("{nl}{indent}{l}"))
                        .collect::<String>()
                } else {
                    lead.iter().map(|l| format!(" {l}")).collect::<String>()
                };
                edits.push(Edit::new(open, open, text));
                for r in &session_refs {
                    edits.push(Edit::new(r.start, r.end, session.clone()));
                }
            }
            Body::Expr(e) => {
                let er = range(e.span());
                let mut expr = String::new();
                let mut at = er.start;
                for r in &session_refs {
                    expr.push_str(&self.src[at..r.start]);
                    expr.push_str(&session);
                    at = r.end;
                }
                expr.push_str(&self.src[at..er.end]);
                let text = format!("{{ {} {expr}; }}", lead.join(" "));
                edits.push(Edit::new(er.start, er.end, text));
            }
        }
        edits.sort_by_key(|e| (e.start, e.end));
        let applicability = if migrate::keeps_behaviour(target, needs_agent) {
            Applicability::MachineApplicable
        } else {
            Applicability::Suggestion
        };
        let lookup = format!("{receiver_text}.agents.get(…)");
        let message = migrate::subscription_message(target, needs_agent.then_some(lookup.as_str()));
        self.push(occurrence, Fix::new(applicability, message, edits));
    }

    /// An emit statement (or a `try`/`if` holding only it) at `stmts[i]`.
    fn emit_statement(&mut self, stmts: &[Statement<'_>], i: usize) {
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
            super::syntax::call_role(self.cx.calls, name),
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
        self.push(
            occurrence,
            Fix::new(applicability, message, vec![Edit::new(r.start, r.end, "")]),
        );
    }

    /// The event-map members of an interface or type literal: the removed ones are deleted;
    /// `whole` is what to delete instead when every member is removed (the `declare module`
    /// block holding only this interface).
    fn members(&mut self, members: &[TSSignature<'_>], whole: Option<Range<usize>>) {
        // Each member's span, and for a removed event's entry its occurrence and name.
        let keyed: Vec<(Range<usize>, Option<RemovedKey>)> = members
            .iter()
            .map(|m| {
                let key = match m {
                    TSSignature::TSPropertySignature(p) => Some(&p.key),
                    TSSignature::TSMethodSignature(p) => Some(&p.key),
                    _ => None,
                };
                let hit = key.and_then(|k| match k {
                    PropertyKey::StringLiteral(s) => {
                        let r = s.span.start as usize + 1..s.span.end as usize - 1;
                        let ev = s.value.as_str();
                        self.catalog().lookup(ev).map(|_| (r, ev.to_owned()))
                    }
                    _ => None,
                });
                (range(m.span()), hit)
            })
            .collect();
        let all_removed = !keyed.is_empty() && keyed.iter().all(|(_, h)| h.is_some());
        for (span, hit) in &keyed {
            let Some((occurrence, event)) = hit else {
                continue;
            };
            let (target, message) = match (&whole, all_removed) {
                (Some(w), true) => (
                    self.removal(self.with_leading_comments(w.clone())),
                    "delete the declaration-merging block: every event it declares was removed"
                        .to_owned(),
                ),
                _ => {
                    // A member's span may stop before its `;`/`,` separator.
                    let mut end = span.end;
                    let rest = &self.src[end..];
                    let sep = rest.trim_start_matches([' ', '\t']);
                    if sep.starts_with([';', ',']) {
                        end += rest.len() - sep.len() + 1;
                    }
                    (
                        self.removal(self.with_leading_comments(span.start..end)),
                        format!("delete the declaration of the removed event `{event}`"),
                    )
                }
            };
            self.push(
                occurrence.clone(),
                Fix::new(
                    Applicability::MachineApplicable,
                    message,
                    vec![Edit::new(target.start, target.end, "")],
                ),
            );
        }
    }
}

/// The occurrence range and name of a member keyed by a removed event.
type RemovedKey = (Range<usize>, String);

enum Body<'b, 'a> {
    Block(&'b FunctionBody<'a>),
    Expr(&'b Expression<'a>),
}

/// The interface a `declare module` block consists of, if it holds nothing else.
fn sole_interface<'b, 'a>(block: &'b TSModuleBlock<'a>) -> Option<&'b TSInterfaceDeclaration<'a>> {
    let [only] = block.body.as_slice() else {
        return None;
    };
    match only {
        Statement::TSInterfaceDeclaration(i) => Some(i),
        Statement::ExportDeclaration(e) => match &e.declaration {
            Declaration::TSInterfaceDeclaration(i) => Some(&**i),
            _ => None,
        },
        _ => None,
    }
}

impl<'a> Visit<'a> for Fixer<'_, '_> {
    fn visit_statements(&mut self, it: &oxc_allocator::Vec<'a, Statement<'a>>) {
        for i in 0..it.len() {
            self.emit_statement(it, i);
        }
        walk::walk_statements(self, it);
    }

    fn visit_call_expression(&mut self, it: &CallExpression<'a>) {
        self.subscription(it);
        walk::walk_call_expression(self, it);
    }

    fn visit_ts_external_module_declaration(&mut self, it: &TSExternalModuleDeclaration<'a>) {
        if let Some(body) = &it.body
            && let Some(iface) = sole_interface(body)
        {
            self.members(&iface.body.body, Some(range(it.span)));
            return;
        }
        walk::walk_ts_external_module_declaration(self, it);
    }

    fn visit_ts_interface_body(&mut self, it: &TSInterfaceBody<'a>) {
        self.members(&it.body, None);
        walk::walk_ts_interface_body(self, it);
    }

    fn visit_ts_type_literal(&mut self, it: &TSTypeLiteral<'a>) {
        self.members(&it.members, None);
        walk::walk_ts_type_literal(self, it);
    }
}
