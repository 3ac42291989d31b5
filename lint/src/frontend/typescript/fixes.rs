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
//!   every entry in it is a removed event; the types only that entry used are deleted with it;
//! - a `const` holding a removed name and a string enum member spelled with one: deleted when
//!   nothing in the file uses them and they are not exported (a suggestion for a member of an
//!   enum that is used as a whole, `Object.values(Ev)`; no fix while anything else uses them:
//!   those uses carry their own fixes, and the round after them deletes the declaration).
//!
//! Every fix also removes the imports it leaves unused ([`super::imports`]).
//!
//! Each fix is keyed by the byte range of the occurrence it migrates (the name inside the
//! quotes, or the identifier that stands for it).

use super::imports::Imports;
use super::listeners::{self, AgentMaps, MergeTarget, Returns};
use super::references::References;
use super::syntax::Resolver;
use crate::catalog::{Catalog, Migration};
use crate::frontend::migrate::{self, HandlerStyle, SESSION_EVENT};
use crate::frontend::{Context, OccurrenceFix, line_removal};
use crate::model::{Applicability, Edit, Fix};
use oxc_ast::ast::*;
use oxc_ast_visit::{Visit, walk};
use oxc_span::{GetSpan, Span};
use std::collections::{HashMap, HashSet};
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
    /// Where each name is referenced (a declaration is deleted only when unused).
    refs: References,
    /// The file's imports (a fix removes those it leaves unused).
    imports: Imports,
    /// The statement range of each top-level, unexported `type`/`interface` declaration, by
    /// name (more than one range: merged declarations, never deleted).
    type_decls: HashMap<String, Vec<Range<usize>>>,
    /// The start of each top-level statement of a file whose top level other files can see (a
    /// script without `import`/`export`: its declarations are global), whose declarations are
    /// therefore never deleted as unused.
    global_statements: HashSet<usize>,
    /// For a removed event's `on` statement (by the call's start): the existing
    /// `session/event` listener in the same statement list to merge it into, and the statement.
    merge_for: HashMap<usize, (MergeTarget, Range<usize>)>,
    /// The map of agents by session id that `agent/created`/`agent/disposed` listeners keep.
    agent_map: Option<String>,
    /// The fixes found so far.
    fixes: Vec<OccurrenceFix>,
    /// The functions the visitor is inside, innermost last.
    scopes: Vec<FnScope>,
}

/// A function the visitor is inside: what deleting a statement of it can leave unused.
struct FnScope {
    /// Each parameter bound to a plain name: the name and its binding's range.
    params: Vec<(String, Range<usize>)>,
    /// The identifiers its body references (nested functions included), for fresh names.
    uses: Uses,
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
        let path = resolver.path;
        let mut comments: Vec<(usize, usize)> = program
            .comments
            .iter()
            .map(|c| (c.span.start as usize, c.span.end as usize))
            .collect();
        comments.sort_unstable();
        // A script's top level is global (TypeScript merges every script's declarations, and
        // classic scripts share one global scope); a module's and a CommonJS file's are not.
        let module = program.source_type.is_commonjs()
            || program.body.iter().any(Statement::is_module_declaration);
        let global_statements: HashSet<usize> = if module {
            HashSet::new()
        } else {
            program
                .body
                .iter()
                .map(|s| s.span().start as usize)
                .collect()
        };
        let mut type_decls: HashMap<String, Vec<Range<usize>>> = HashMap::new();
        for stmt in program.body.iter().filter(|_| module) {
            let name = match stmt {
                Statement::TSTypeAliasDeclaration(t) if !t.declare => t.id.name.as_str(),
                Statement::TSInterfaceDeclaration(i) if !i.declare => i.id.name.as_str(),
                _ => continue,
            };
            type_decls
                .entry(name.to_owned())
                .or_default()
                .push(range(stmt.span()));
        }
        Fixer {
            src,
            cx,
            resolver,
            comments,
            newline: if src.contains("\r\n") { "\r\n" } else { "\n" },
            refs: References::of(program),
            imports: Imports::of(program, src, path),
            type_decls,
            global_statements,
            merge_for: HashMap::new(),
            agent_map: AgentMaps::find(src, program),
            fixes: Vec::new(),
            scopes: Vec::new(),
        }
    }

    /// The fixes of the program, once visited: with claims on the imports that only several
    /// of them together leave unused.
    pub fn finish(mut self) -> Vec<OccurrenceFix> {
        self.imports.claim_shared(&self.refs, &mut self.fixes);
        self.fixes
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

    /// Keeps `fix` for `occurrence`, with the removal of the imports it leaves unused.
    fn push(&mut self, occurrence: Range<usize>, mut fix: Fix) {
        let removal = self
            .imports
            .removals(self.src, &self.refs, &fix.edits, &|r| self.removal(r));
        fix.claims.extend(removal.claims);
        if !removal.names.is_empty() {
            let names: Vec<String> = removal.names.iter().map(|n| format!("`{n}`")).collect();
            let what = if names.len() == 1 {
                "import"
            } else {
                "imports"
            };
            fix.message = format!(
                "{}, and the {what} {} it leaves unused",
                fix.message,
                names.join(", ")
            );
            fix.edits.extend(removal.edits);
            fix.edits.sort_by_key(|e| (e.start, e.end));
        }
        self.fixes.push(OccurrenceFix {
            start: occurrence.start,
            end: occurrence.end,
            fix,
        });
    }

    /// The range to delete for a node at `r` (see [`line_removal`]).
    fn removal(&self, r: Range<usize>) -> Range<usize> {
        let mut r = line_removal(self.src, r);
        // The file's first lines deleted: the blank line after them goes too (a file does not
        // start with one).
        if r.start == 0 {
            let rest = &self.src[r.end..];
            let blank = rest.trim_start_matches([' ', '\t']);
            if let Some(after) = blank
                .strip_prefix("\r\n")
                .or_else(|| blank.strip_prefix('\n'))
            {
                r.end += rest.len() - after.len();
            }
        }
        r
    }

    /// `r` extended back over the comments directly above it (its JSDoc), up to a blank line
    /// (a comment above one is about more than this node).
    fn with_leading_comments(&self, r: Range<usize>) -> Range<usize> {
        let mut start = r.start;
        for &(cs, ce) in self.comments.iter().rev() {
            let gap = &self.src[ce.min(start)..start];
            if ce <= start && gap.trim().is_empty() && gap.matches('\n').count() <= 1 {
                start = cs;
            } else if ce <= start {
                break;
            }
        }
        start..r.end
    }

    /// `end` extended over the `;`/`,` separator that follows a member (its span may stop
    /// before it).
    fn past_separator(&self, end: usize) -> usize {
        let rest = &self.src[end..];
        let sep = rest.trim_start_matches([' ', '\t']);
        if sep.starts_with([';', ',']) {
            end + rest.len() - sep.len() + 1
        } else {
            end
        }
    }

    /// The declarations of types that only `deleted` references, so they go with it, and the
    /// types only those reference, and so on: the typed-event declarations of a deleted
    /// event-map entry (`type StreamChunkPayload = …`).
    fn types_only_used_in(&self, deleted: Range<usize>) -> Vec<Range<usize>> {
        let mut gone = vec![deleted];
        let mut found = Vec::new();
        loop {
            let inside =
                |r: &Range<usize>| gone.iter().any(|g| g.start <= r.start && r.end <= g.end);
            let next = self.type_decls.iter().find_map(|(name, decls)| {
                let [decl] = decls.as_slice() else {
                    return None;
                };
                let uses = self.refs.of_name(name);
                // Not already going, used, and used nowhere else.
                (!inside(decl) && !uses.is_empty() && uses.iter().all(inside)).then(|| decl.clone())
            });
            match next {
                Some(decl) => {
                    gone.push(decl.clone());
                    found.push(self.removal(self.with_leading_comments(decl)));
                }
                None => break,
            }
        }
        found.sort_by_key(|r| r.start);
        found
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
    /// The types the handler's annotations give, when it carries them (see [`Annotations`]).
    types: Annotations,
}

/// The type annotations a rewritten handler keeps, built from the original's: without them
/// `(session, event) =>` relies on contextual typing, which an untyped `ctx` (`any`) does not
/// give, and `noImplicitAny` rejects it.
#[derive(Default)]
struct Annotations {
    /// The agent's type (`Agent`, or `P['agent']` for a payload `P`), when annotated.
    agent: Option<String>,
    /// `field: Type` per used field, when every field parameter is annotated.
    fields: Option<Vec<String>>,
}

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
                out.fields
                    .push(entry(migrate::positional_field(m, i)?, &p.pattern));
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

    fn type_text(&self, t: &TSType<'_>) -> &'s str {
        &self.src[range(t.span())]
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
            // A `this` parameter sits inside the parentheses the rewrite replaces: no fix.
            Expression::FunctionExpression(f) if !f.generator && f.this_param.is_none() => {
                match &f.body {
                    Some(b) => (&f.params, Body::Block(b), true),
                    None => return,
                }
            }
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
        let agent_session_only = p.agent.as_ref().is_none_or(|a| uses.only_session(a));
        let needs_agent = !agent_session_only;
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
        let q = self.quote_at(&occurrence);
        let nl = self.newline;
        let receiver_text = &self.src[range(receiver.span())];

        // The statements the new body starts with.
        let mut lead = vec![format!("if ({event}.type !== {q}{twin}{q}) return;")];
        if !p.fields.is_empty() {
            let cast = match &p.types.fields {
                Some(types) => format!(" as {{ {} }}", types.join("; ")),
                None => String::new(),
            };
            lead.push(format!(
                "const {{ {} }} = {event}.data{cast};",
                p.fields.join(", ")
            ));
        }
        // The agent, recovered from the file's own `agent/created` map or the host's registry.
        let lookup = match &self.agent_map {
            Some(m) => format!("{m}.get({session}.id)"),
            None => format!("{receiver_text}.agents.get({session}.id)"),
        };
        if needs_agent && let Some(a) = &p.agent {
            lead.push(format!("const {a} = {lookup};"));
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

        if let Some((target, stmt)) = self.merge_for.get(&(call.span.start as usize)).cloned()
            && let Some(fix) = self.merged(
                &target,
                stmt,
                &body,
                &Merge {
                    params: &p,
                    uses: &uses,
                    twin,
                    quote: q,
                    session_refs: &session_refs,
                    needs_agent,
                    receiver: receiver_text,
                },
            )
        {
            self.push(occurrence, fix);
            return;
        }

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
        // `(agent, turn)` and a bare `agent` both become `(session, event)`; annotated
        // parameters give annotated ones, so the handler type-checks without contextual typing.
        let session_used = needs_agent || !session_refs.is_empty();
        let session_param = match &p.types.agent {
            Some(a) if session_used => format!("{session}: {a}['session']"),
            Some(_) => format!("{session}: unknown"),
            None => session.clone(),
        };
        let event_param = match &p.types.fields {
            Some(_) => format!("{event}: {{ type: string; data: unknown }}"),
            None => event.clone(),
        };
        let params_range = range(params.span);
        edits.push(Edit::new(
            params_range.start,
            params_range.end,
            format!("({session_param}, {event_param})"),
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
        let shown = lookup.replace(&format!("{session}.id"), "…");
        let message = migrate::subscription_message(target, needs_agent.then_some(shown.as_str()));
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
        let mut edits = vec![Edit::new(r.start, r.end, "")];
        edits.extend(self.unused_after_deleting(&r));
        edits.sort_by_key(|e| (e.start, e.end));
        self.push(occurrence, Fix::new(applicability, message, edits));
    }

    /// Renames (`ctx` → `_ctx`) for the parameters of the enclosing function that deleting `r`
    /// leaves unused, so code built with `noUnusedParameters` still compiles and no caller
    /// changes.
    fn unused_after_deleting(&self, r: &Range<usize>) -> Vec<Edit> {
        let Some(scope) = self.scopes.last() else {
            return Vec::new();
        };
        let mut taken: HashSet<String> = HashSet::new();
        let mut edits = Vec::new();
        for (name, binding) in &scope.params {
            let refs = scope.uses.refs.iter().filter(|(n, _, _)| n == name);
            let mut inside = 0;
            let mut outside = 0;
            for (_, at, _) in refs {
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
            let fresh = scope.uses.fresh(&taken, &[wanted.as_str()]);
            if fresh != wanted || scope.params.iter().any(|(p, _)| *p == wanted) {
                continue;
            }
            taken.insert(fresh.clone());
            edits.push(Edit::new(binding.start, binding.end, fresh));
        }
        edits
    }

    /// Enters a function: its plain parameters and the references of its body.
    fn enter_function(&mut self, params: &FormalParameters<'_>, body: &dyn Fn(&mut Uses)) {
        let params = params
            .items
            .iter()
            .filter_map(|p| match &p.pattern {
                BindingPattern::BindingIdentifier(id) => {
                    Some((id.name.as_str().to_owned(), range(id.span)))
                }
                _ => None,
            })
            .collect();
        let uses = Uses::of_body(body);
        self.scopes.push(FnScope { params, uses });
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
                    let end = self.past_separator(span.end);
                    (
                        self.removal(self.with_leading_comments(span.start..end)),
                        format!("delete the declaration of the removed event `{event}`"),
                    )
                }
            };
            let types = self.types_only_used_in(target.clone());
            let message = if types.is_empty() {
                message
            } else {
                format!("{message}, and the types only it uses")
            };
            let mut edits = vec![Edit::new(target.start, target.end, "")];
            edits.extend(types.into_iter().map(|r| Edit::new(r.start, r.end, "")));
            edits.sort_by_key(|e| (e.start, e.end));
            self.push(
                occurrence.clone(),
                Fix::new(Applicability::MachineApplicable, message, edits),
            );
        }
    }
}

impl Fixer<'_, '_> {
    /// The range of the name inside a string literal spelled exactly as a removed event.
    fn removed_literal(&self, e: &Expression<'_>) -> Option<(Range<usize>, String)> {
        let Expression::StringLiteral(lit) = e.get_inner_expression() else {
            return None;
        };
        let r = lit.span.start as usize + 1..lit.span.end as usize - 1;
        let ev = lit.value.as_str();
        (self.catalog().lookup(ev).is_some() && self.src.get(r.clone()) == Some(ev))
            .then(|| (r, ev.to_owned()))
    }

    /// `const TURN_START = 'agent/turn-start'` (one declarator, not exported): deleted when
    /// nothing references it.
    fn unused_const(&mut self, v: &VariableDeclaration<'_>, stmt: Range<usize>) {
        if v.kind != VariableDeclarationKind::Const || v.declare {
            return;
        }
        let [d] = v.declarations.as_slice() else {
            return;
        };
        let (BindingPattern::BindingIdentifier(id), Some(init)) = (&d.id, &d.init) else {
            return;
        };
        let Some((occurrence, event)) = self.removed_literal(init) else {
            return;
        };
        let name = id.name.as_str();
        if !self.refs.of_name(name).is_empty() {
            return;
        }
        let r = self.removal(self.with_leading_comments(stmt));
        self.push(
            occurrence,
            Fix::new(
                Applicability::MachineApplicable,
                format!("delete `{name}`: nothing uses it, and `{event}` was removed"),
                vec![Edit::new(r.start, r.end, "")],
            ),
        );
    }

    /// The members of a string enum (not exported) spelled with a removed event: each unused
    /// one is deleted, the whole enum when every member goes and nothing names the enum.
    fn unused_enum_members(&mut self, e: &TSEnumDeclaration<'_>, stmt: Range<usize>) {
        let enum_name = e.id.name.as_str();
        let members: Vec<(Range<usize>, Option<RemovedMember>)> = e
            .body
            .members
            .iter()
            .map(|m| {
                let name = match &m.id {
                    TSEnumMemberName::Identifier(id) => Some(id.name.as_str()),
                    TSEnumMemberName::String(s) => Some(s.value.as_str()),
                    _ => None,
                };
                let hit = name.zip(m.initializer.as_ref()).and_then(|(n, init)| {
                    self.removed_literal(init)
                        .map(|(r, ev)| (r, ev, n.to_owned()))
                });
                (range(m.span), hit)
            })
            .collect();
        // A member is unused when no `Ev.Member` and no bare `Member` (another member's
        // initializer) refers to it.
        let unused = |member: &str| {
            self.refs.member_uses(enum_name, member) == 0 && self.refs.of_name(member).is_empty()
        };
        let whole_enum = members
            .iter()
            .all(|(_, hit)| hit.as_ref().is_some_and(|(_, _, n)| unused(n)))
            && self.refs.of_name(enum_name).is_empty();
        let whole_uses = self.refs.whole_uses(enum_name);
        let mut fixes = Vec::new();
        for (span, hit) in &members {
            let Some((occurrence, event, member)) = hit else {
                continue;
            };
            if !unused(member) {
                continue;
            }
            let (target, message, applicability) = if whole_enum {
                (
                    self.removal(self.with_leading_comments(stmt.clone())),
                    format!(
                        "delete the enum `{enum_name}`: every member names a removed event, and nothing uses it"
                    ),
                    Applicability::MachineApplicable,
                )
            } else if whole_uses > 0 {
                (
                    self.removal(
                        self.with_leading_comments(span.start..self.past_separator(span.end)),
                    ),
                    format!(
                        "delete `{enum_name}.{member}` (`{event}` was removed; `{enum_name}` is also used as a whole: check those uses)"
                    ),
                    Applicability::Suggestion,
                )
            } else {
                (
                    self.removal(
                        self.with_leading_comments(span.start..self.past_separator(span.end)),
                    ),
                    format!(
                        "delete `{enum_name}.{member}`: nothing uses it, and `{event}` was removed"
                    ),
                    Applicability::MachineApplicable,
                )
            };
            fixes.push((
                occurrence.clone(),
                Fix::new(
                    applicability,
                    message,
                    vec![Edit::new(target.start, target.end, "")],
                ),
            ));
        }
        for (occurrence, fix) in fixes {
            self.push(occurrence, fix);
        }
    }
}

/// What [`Fixer::merged`] needs of the subscription being migrated.
struct Merge<'x> {
    params: &'x Params,
    uses: &'x Uses,
    twin: &'x str,
    quote: char,
    /// `agent.session` ranges in the handler (they become the listener's session).
    session_refs: &'x [Range<usize>],
    needs_agent: bool,
    receiver: &'x str,
}

impl Fixer<'_, '_> {
    /// The suggestion that moves a removed event's handler into the existing `session/event`
    /// listener `t` (as `if (event.type === twin) { … }` after its last statement) and deletes
    /// the subscription statement `stmt`; `None` when that would change what the code reads
    /// (a name the listener shadows or its parameters) or where it returns.
    fn merged(
        &self,
        t: &MergeTarget,
        stmt: Range<usize>,
        body: &Body<'_, '_>,
        m: &Merge<'_>,
    ) -> Option<Fix> {
        let u = m.uses;
        if u.names.contains(&t.session) || u.names.contains(&t.event) {
            return None;
        }
        if u.refs.iter().any(|(n, _, _)| t.bindings.contains(n)) {
            return None;
        }
        let nl = self.newline;
        let (s, e, q, twin) = (&t.session, &t.event, m.quote, m.twin);
        // The handler's code, `agent.session` spelled as the listener's session.
        let (code, code_start) = match body {
            Body::Block(b) => {
                let mut returns = Returns::default();
                returns.visit_function_body(b);
                if returns.0 {
                    return None;
                }
                let first = b.statements.first()?.span().start as usize;
                let last = b.statements.last()?.span().end as usize;
                (first..last, first)
            }
            Body::Expr(x) => {
                let r = range(x.span());
                (r.clone(), r.start)
            }
        };
        let mut text = String::new();
        let mut at = code.start;
        for r in m.session_refs {
            text.push_str(&self.src[at..r.start]);
            text.push_str(s);
            at = r.end;
        }
        text.push_str(&self.src[at..code.end]);
        if matches!(body, Body::Expr(_)) {
            text.push(';');
        }
        let depth = if m.needs_agent { 2 } else { 1 };
        let inner = format!("{}{}", t.indent, "  ".repeat(depth));
        let old_indent = self.indent_at(code_start);
        let code_lines: Vec<String> = text
            .split('\n')
            .enumerate()
            .map(|(i, line)| {
                let line = line.trim_end_matches('\r');
                if i == 0 {
                    format!("{inner}{line}")
                } else if let Some(rest) = line.strip_prefix(old_indent) {
                    format!("{inner}{rest}")
                } else {
                    line.to_owned()
                }
            })
            .collect();

        let ind = &t.indent;
        let mut out = format!("{nl}{ind}if ({e}.type === {q}{twin}{q}) {{");
        let p = m.params;
        if !p.fields.is_empty() {
            let cast = match &p.types.fields {
                Some(types) => format!(" as {{ {} }}", types.join("; ")),
                None => String::new(),
            };
            out.push_str(&format!(
                "{nl}{ind}  const {{ {} }} = {e}.data{cast};",
                p.fields.join(", ")
            ));
        }
        let agent = p.agent.as_ref().filter(|_| m.needs_agent);
        if let Some(a) = agent {
            let lookup = match &self.agent_map {
                Some(map) => format!("{map}.get({s}.id)"),
                None => format!("{}.agents.get({s}.id)", m.receiver),
            };
            out.push_str(&format!("{nl}{ind}  const {a} = {lookup};"));
            out.push_str(&format!("{nl}{ind}  if ({a}) {{"));
        }
        for line in &code_lines {
            out.push_str(nl);
            out.push_str(line);
        }
        if agent.is_some() {
            out.push_str(&format!("{nl}{ind}  }}"));
        }
        out.push_str(&format!("{nl}{ind}}}"));

        let mut gone = self.removal(self.with_leading_comments(stmt));
        // The blank line that separated the statement from the one before goes with it when
        // nothing follows it in its block.
        let after = self.src[gone.end..].trim_start_matches([' ', '\t']);
        if after.starts_with('}') || after.starts_with(['\n', '\r']) {
            let before = &self.src[..gone.start];
            for blank in ["\r\n", "\n"] {
                if before.ends_with(&format!("{blank}{blank}")) {
                    gone.start -= blank.len();
                    break;
                }
            }
        }
        let mut edits = vec![
            Edit::new(gone.start, gone.end, ""),
            Edit::new(t.insert_at, t.insert_at, out),
        ];
        edits.sort_by_key(|e| (e.start, e.end));
        Some(Fix::new(
            Applicability::Suggestion,
            format!(
                "merge into the existing `session/event` listener on `{}`, filtering `{twin}` there (the code then shares that listener's order and error handling: check it)",
                m.receiver
            ),
            edits,
        ))
    }
}

/// An enum member spelled with a removed event: its occurrence, the event, the member's name.
type RemovedMember = (Range<usize>, String, String);

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
    fn visit_function(&mut self, it: &Function<'a>, flags: oxc_syntax::scope::ScopeFlags) {
        let Some(body) = &it.body else {
            return walk::walk_function(self, it, flags);
        };
        self.enter_function(&it.params, &|u: &mut Uses| u.visit_function_body(body));
        walk::walk_function(self, it, flags);
        self.scopes.pop();
    }

    fn visit_arrow_function_expression(&mut self, it: &ArrowFunctionExpression<'a>) {
        self.enter_function(&it.params, &|u: &mut Uses| {
            u.visit_arrow_function_body(&it.body)
        });
        walk::walk_arrow_function_expression(self, it);
        self.scopes.pop();
    }

    fn visit_statements(&mut self, it: &oxc_allocator::Vec<'a, Statement<'a>>) {
        // Subscriptions to removed events beside an existing `session/event` listener on the
        // same receiver: merging into it is the suggestion.
        let targets: Vec<MergeTarget> = it
            .iter()
            .filter_map(|s| listeners::merge_target(self.src, s))
            .collect();
        if !targets.is_empty() {
            for stmt in it.iter() {
                let Some(call) = listeners::on_call(stmt) else {
                    continue;
                };
                let Some(recv) = listeners::receiver(self.src, call) else {
                    continue;
                };
                if let Some(t) = targets.iter().find(|t| t.receiver == recv) {
                    self.merge_for
                        .insert(call.span.start as usize, (t.clone(), range(stmt.span())));
                }
            }
        }
        for i in 0..it.len() {
            self.emit_statement(it, i);
            if self
                .global_statements
                .contains(&(it[i].span().start as usize))
            {
                continue;
            }
            match &it[i] {
                Statement::VariableDeclaration(v) => self.unused_const(v, range(it[i].span())),
                Statement::TSEnumDeclaration(e) => self.unused_enum_members(e, range(it[i].span())),
                _ => {}
            }
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
