//! Pass 2: the contexts that decide a name's role, and the uses of identifiers standing for
//! removed events.

use super::expr::{
    CallRoles, array_elements, call_role, callee_name, callee_object, callee_root, direct_target,
    is_stringish, range, receiver_name, static_string,
};
use super::scope::{Resolver, reachable};
use crate::frontend::locals::{Binding, Locals};
use crate::frontend::{CallNames, Context, DeclKind, Declaration};
use crate::hash::HashMap;
use crate::model::Role;
use oxc_ast::ast::*;
use oxc_ast_visit::{Visit, walk};
use oxc_span::{GetSpan, Span};
use std::ops::Range;

/// Test-framework functions whose first argument is a title (vitest, jest, mocha, node:test).
const TEST_FUNCTIONS: &[&str] = &[
    "it",
    "test",
    "describe",
    "suite",
    "context",
    "bench",
    "specify",
    "xit",
    "fit",
    "xdescribe",
    "fdescribe",
    "xtest",
];

/// Logger methods whose string arguments are messages.
const LOG_METHODS: &[&str] = &[
    "log", "warn", "error", "info", "debug", "trace", "fatal", "verbose", "success",
];

/// Matchers and asymmetric matchers whose string argument matches a message.
const MESSAGE_MATCHERS: &[&str] = &[
    "stringContaining",
    "stringMatching",
    "toMatch",
    "toThrow",
    "toThrowError",
    "toContainEqual",
];

/// Iteration methods that hand each element of an array to a callback.
const ITERATORS: &[&str] = &["forEach", "map", "flatMap", "filter", "some", "every"];

/// Pass 2: contexts that decide roles, and uses of identifiers standing for removed events.
pub(in crate::frontend::typescript) struct Classifier<'a> {
    pub cx: Context<'a>,
    pub resolver: Resolver<'a>,
    /// Byte range → role of a name found inside it (the innermost range wins).
    pub contexts: Vec<(Range<usize>, Option<Role>)>,
    /// Uses of identifiers resolved to removed events: range, event, how it was resolved.
    pub occurrences: Vec<(Range<usize>, String, Option<String>)>,
    /// String, template and JSX-text tokens (the comments come from the parser).
    pub strings: Vec<crate::frontend::typescript::lex::Token>,
    /// Names a loop hands to a subscribe or emit call (`for (const n of ['agent/…']) ctx.on(n, …)`):
    /// no fix rewrites those, and their findings say why.
    pub looped: Vec<Range<usize>>,
    /// Names subscribed with `once`: no fix rewrites those either, and their findings say why.
    pub once: Vec<Range<usize>>,
    /// Array literals bound in functions so far (module-level ones are in the scope).
    local_arrays: HashMap<String, Vec<Range<usize>>>,
    /// Function- and block-level bindings in scope; the program's own scope is the first.
    local_names: Locals,
    /// Byte offsets of the line starts, for describing where a local was bound.
    line_starts: Vec<usize>,
    /// The role of each callee name met so far.
    roles: CallRoles,
}

impl<'a> Classifier<'a> {
    pub fn new(cx: Context<'a>, resolver: Resolver<'a>) -> Self {
        Classifier {
            cx,
            resolver,
            contexts: Vec::new(),
            occurrences: Vec::new(),
            strings: Vec::new(),
            looped: Vec::new(),
            once: Vec::new(),
            local_arrays: HashMap::default(),
            local_names: Locals::default(),
            line_starts: Vec::new(),
            roles: CallRoles::default(),
        }
    }

    /// A `const`/`let` inside a function or block whose value is a removed name (a literal, a
    /// module-level const, another such local): its uses are followed like a const's.
    fn local_binding(&self, name: &str, init: &Expression<'_>, at: u32) -> Option<Binding> {
        let events = match init.get_inner_expression() {
            Expression::Identifier(id) => match self.local_names.get(id.name.as_str()) {
                Some(bound) => bound.map(|b| b.events.clone()),
                None => self.resolver.eval(init, self.cx).map(|(ev, _)| vec![ev]),
            },
            _ => self.resolver.eval(init, self.cx).map(|(ev, _)| vec![ev]),
        }?;
        let line = self.line_starts.partition_point(|&s| s <= at as usize);
        Some(Binding {
            events,
            via: format!(
                "through local `{name}` bound at {}:{line}",
                self.resolver.path
            ),
        })
    }

    fn mark(&mut self, r: Range<usize>, role: Option<Role>) {
        self.contexts.push((r, role));
    }

    fn hit(&mut self, span: Span, d: &Declaration) {
        self.occurrences.push((
            range(span),
            d.event.clone(),
            Some(format!(
                "through {} declared at {}",
                d.description, d.location
            )),
        ));
    }

    fn call_context(&mut self, call: &CallExpression<'_>) {
        let name = callee_name(&call.callee);
        if let Some(role) = name.and_then(|n| self.roles.of(self.cx.calls, n)) {
            let foreign = callee_object(&call.callee)
                .and_then(receiver_name)
                .is_some_and(|r| self.cx.calls.ignore_receivers.iter().any(|x| x == r));
            let role = (!foreign).then_some(role);
            for a in &call.arguments {
                if let Some(r) = a.as_expression().and_then(direct_target) {
                    if name == Some("once") && role == Some(Role::Subscribe) {
                        self.once.push(r.clone());
                    }
                    self.mark(r, role);
                }
            }
            return;
        }
        let message_args = |call: &CallExpression<'_>| -> Vec<Range<usize>> {
            call.arguments
                .iter()
                .filter_map(Argument::as_expression)
                .filter(|e| is_stringish(e))
                .map(|e| range(e.span()))
                .collect()
        };
        let is_member = callee_object(&call.callee).is_some();
        let is_log =
            name.is_some_and(|n| LOG_METHODS.contains(&n)) && (is_member || name == Some("debug"));
        let is_matcher = name.is_some_and(|n| MESSAGE_MATCHERS.contains(&n));
        if is_log || is_matcher {
            for r in message_args(call) {
                self.mark(r, Some(Role::Mention));
            }
            return;
        }
        if callee_root(&call.callee).is_some_and(|r| TEST_FUNCTIONS.contains(&r))
            && let Some(first) = call.arguments.first().and_then(Argument::as_expression)
            && is_stringish(first)
        {
            self.mark(range(first.span()), Some(Role::Mention));
        }
        // `NAMES.forEach((name) => ctx.on(name, …))`.
        if name.is_some_and(|n| ITERATORS.contains(&n))
            && let Some(obj) = callee_object(&call.callee)
            && self.is_known_array(obj)
            && let Some(Expression::ArrowFunctionExpression(_) | Expression::FunctionExpression(_)) =
                call.arguments
                    .first()
                    .and_then(Argument::as_expression)
                    .map(Expression::get_inner_expression)
        {
            let (param, body_span): (Option<String>, Span) = match call
                .arguments
                .first()
                .and_then(Argument::as_expression)
                .map(Expression::get_inner_expression)
            {
                Some(Expression::ArrowFunctionExpression(f)) => {
                    (first_param(&f.params), f.body.span())
                }
                Some(Expression::FunctionExpression(f)) => (
                    first_param(&f.params),
                    f.body.as_ref().map_or(f.span, |b| b.span),
                ),
                _ => (None, call.span),
            };
            if let Some(param) = param {
                self.iterated(obj, &param, body_span, call);
            }
        }
    }

    /// An array literal, or a name bound to one: only then are its elements worth following
    /// into a loop body (which is walked a second time to find the call).
    fn is_known_array(&self, e: &Expression<'_>) -> bool {
        match e.get_inner_expression() {
            Expression::ArrayExpression(_) => true,
            Expression::Identifier(id) => {
                self.local_arrays.contains_key(id.name.as_str())
                    || self.resolver.scope.arrays.contains_key(id.name.as_str())
            }
            _ => false,
        }
    }

    /// Elements of an array that a loop hands, one by one, to a subscribe or emit call.
    fn iterated(
        &mut self,
        array: &Expression<'_>,
        var: &str,
        body: Span,
        whole: &CallExpression<'_>,
    ) {
        let mut finder = LoopUse {
            calls: self.cx.calls,
            var,
            body,
            role: None,
        };
        finder.visit_call_expression(whole);
        self.apply_iteration(array, finder.role);
    }

    fn apply_iteration(&mut self, array: &Expression<'_>, role: Option<Role>) {
        let Some(role) = role else { return };
        let elems: Vec<Range<usize>> = match array.get_inner_expression() {
            Expression::ArrayExpression(a) => a
                .elements
                .iter()
                .filter_map(|el| el.as_expression().and_then(direct_target))
                .collect(),
            Expression::Identifier(id) => self
                .local_arrays
                .get(id.name.as_str())
                .or_else(|| self.resolver.scope.arrays.get(id.name.as_str()))
                .cloned()
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        for r in elems {
            self.looped.push(r.clone());
            self.mark(r, Some(role));
        }
    }
}

fn first_param(params: &FormalParameters<'_>) -> Option<String> {
    match params.items.first().map(|p| &p.pattern) {
        Some(BindingPattern::BindingIdentifier(id)) => Some(id.name.as_str().to_owned()),
        _ => None,
    }
}

/// Finds whether a loop variable is passed to a subscribe or emit call inside a body.
struct LoopUse<'c> {
    calls: &'c CallNames,
    var: &'c str,
    body: Span,
    role: Option<Role>,
}

impl<'a> Visit<'a> for LoopUse<'_> {
    fn visit_call_expression(&mut self, it: &CallExpression<'a>) {
        let inside = self.body.start <= it.span.start && it.span.end <= self.body.end;
        if inside
            && self.role.is_none()
            && let Some(role) = callee_name(&it.callee).and_then(|n| call_role(self.calls, n))
            && it.arguments.iter().any(|a| {
                matches!(a.as_expression().map(Expression::get_inner_expression),
                    Some(Expression::Identifier(id)) if id.name.as_str() == self.var)
            })
        {
            self.role = Some(role);
        }
        walk::walk_call_expression(self, it);
    }
}

impl<'a> Visit<'a> for Classifier<'_> {
    fn visit_program(&mut self, it: &Program<'a>) {
        self.line_starts = std::iter::once(0)
            .chain(memchr::memchr_iter(b'\n', it.source_text.as_bytes()).map(|i| i + 1))
            .collect();
        walk::walk_program(self, it);
    }

    fn enter_scope(
        &mut self,
        _flags: oxc_syntax::scope::ScopeFlags,
        _id: &std::cell::Cell<Option<oxc_syntax::scope::ScopeId>>,
    ) {
        self.local_names.push();
    }

    fn leave_scope(&mut self) {
        self.local_names.pop();
    }

    fn visit_binding_identifier(&mut self, it: &BindingIdentifier<'a>) {
        // Below the program's scope, every name bound shadows: a parameter, a loop variable,
        // a local function. Module-level names are declarations, resolved across files.
        if self.local_names.depth() > 1 {
            self.local_names.bind(it.name.as_str().to_owned(), None);
        }
    }

    fn visit_assignment_expression(&mut self, it: &AssignmentExpression<'a>) {
        // A reassigned local is no longer known to hold the name (nor is its target a use).
        if let AssignmentTarget::AssignmentTargetIdentifier(id) = &it.left
            && self.local_names.get(id.name.as_str()).is_some()
        {
            self.local_names.bind(id.name.as_str().to_owned(), None);
        }
        walk::walk_assignment_expression(self, it);
    }

    fn visit_string_literal(&mut self, it: &StringLiteral<'a>) {
        let r = range(it.span);
        // Quotes are one byte each; a literal from a JSX attribute or import is the same.
        if r.end >= r.start + 2 {
            self.strings.push(crate::frontend::typescript::lex::Token {
                kind: crate::frontend::typescript::lex::TokenKind::Str,
                start: r.start,
                end: r.end,
                content_start: r.start + 1,
                content_end: r.end - 1,
                whole: true,
            });
        }
    }

    fn visit_template_literal(&mut self, it: &TemplateLiteral<'a>) {
        let whole = it.expressions.is_empty();
        for q in &it.quasis {
            let r = range(q.span);
            self.strings.push(crate::frontend::typescript::lex::Token {
                kind: crate::frontend::typescript::lex::TokenKind::Str,
                start: r.start,
                end: r.end,
                content_start: r.start,
                content_end: r.end,
                whole,
            });
        }
        walk::walk_template_literal(self, it);
    }

    fn visit_jsx_text(&mut self, it: &JSXText<'a>) {
        let r = range(it.span);
        self.strings.push(crate::frontend::typescript::lex::Token {
            kind: crate::frontend::typescript::lex::TokenKind::Str,
            start: r.start,
            end: r.end,
            content_start: r.start,
            content_end: r.end,
            whole: false,
        });
        self.mark(r, Some(Role::Mention));
    }

    fn visit_call_expression(&mut self, it: &CallExpression<'a>) {
        self.call_context(it);
        walk::walk_call_expression(self, it);
    }

    fn visit_for_of_statement(&mut self, it: &ForOfStatement<'a>) {
        let var = match &it.left {
            ForStatementLeft::VariableDeclaration(d) => match d.declarations.first().map(|d| &d.id)
            {
                Some(BindingPattern::BindingIdentifier(id)) => Some(id.name.as_str().to_owned()),
                _ => None,
            },
            _ => None,
        };
        if let Some(var) = var
            && self.is_known_array(&it.right)
        {
            let mut finder = LoopUse {
                calls: self.cx.calls,
                var: &var,
                body: it.body.span(),
                role: None,
            };
            finder.visit_statement(&it.body);
            let role = finder.role;
            self.apply_iteration(&it.right, role);
        }
        walk::walk_for_of_statement(self, it);
    }

    fn visit_variable_declarator(&mut self, it: &VariableDeclarator<'a>) {
        if let (BindingPattern::BindingIdentifier(id), Some(init)) = (&it.id, &it.init)
            && let Some(elems) = array_elements(init)
        {
            self.local_arrays.insert(id.name.as_str().to_owned(), elems);
        }
        // Read before the declarator binds its name (`const name = name`).
        let local = match (&it.id, &it.init) {
            (BindingPattern::BindingIdentifier(id), Some(init)) if self.local_names.depth() > 1 => {
                self.local_binding(id.name.as_str(), init, it.span.start)
                    .map(|b| (id.name.as_str().to_owned(), b))
            }
            _ => None,
        };
        if let Some(init) = &it.init {
            match init.get_inner_expression() {
                e @ (Expression::StringLiteral(_) | Expression::TemplateLiteral(_)) => {
                    self.mark(range(e.span()), Some(Role::Declare));
                }
                Expression::ObjectExpression(obj) => {
                    for p in &obj.properties {
                        if let ObjectPropertyKind::ObjectProperty(p) = p
                            && let Some(r) = direct_target(&p.value)
                            && static_string(&p.value).is_some()
                        {
                            self.mark(r, Some(Role::Declare));
                        }
                    }
                }
                _ => {}
            }
        }
        walk::walk_variable_declarator(self, it);
        if let Some((name, binding)) = local {
            self.local_names.bind(name, Some(binding));
        }
    }

    fn visit_property_definition(&mut self, it: &PropertyDefinition<'a>) {
        if let Some(v) = &it.value
            && static_string(v).is_some()
        {
            self.mark(range(v.get_inner_expression().span()), Some(Role::Declare));
        }
        walk::walk_property_definition(self, it);
    }

    fn visit_ts_enum_member(&mut self, it: &TSEnumMember<'a>) {
        if let Some(init) = &it.initializer {
            self.mark(range(init.span()), Some(Role::Declare));
        }
        walk::walk_ts_enum_member(self, it);
    }

    fn visit_ts_method_signature(&mut self, it: &TSMethodSignature<'a>) {
        self.mark(range(it.key.span()), Some(Role::Declare));
        walk::walk_ts_method_signature(self, it);
    }

    fn visit_ts_property_signature(&mut self, it: &TSPropertySignature<'a>) {
        self.mark(range(it.key.span()), Some(Role::Declare));
        walk::walk_ts_property_signature(self, it);
    }

    fn visit_identifier_reference(&mut self, it: &IdentifierReference<'a>) {
        if let Some(bound) = self.local_names.get(it.name.as_str()) {
            // A local: it holds removed names, or shadows whatever else has this name.
            if let Some(b) = bound {
                for ev in &b.events {
                    self.occurrences
                        .push((range(it.span), ev.clone(), Some(b.via.clone())));
                }
            }
            return;
        }
        if self.cx.symbols.is_empty() {
            return;
        }
        if let Some(d) = self.resolver.ident(it.name.as_str()) {
            self.hit(it.span, d);
        }
    }

    fn visit_static_member_expression(&mut self, it: &StaticMemberExpression<'a>) {
        if !self.cx.symbols.is_empty()
            && let Expression::Identifier(o) = it.object.get_inner_expression()
            && let Some(d) = self
                .resolver
                .member(o.name.as_str(), it.property.name.as_str())
        {
            self.hit(it.span, d);
            return;
        }
        walk::walk_static_member_expression(self, it);
    }

    fn visit_import_specifier(&mut self, it: &ImportSpecifier<'a>) {
        // Report the import through what it imports (`TURN_START` in `events.ts`), not
        // through the alias it creates on this very line.
        let imported = it.imported.name();
        let source = self.resolver.scope.sources.get(it.local.name.as_str());
        let original = self.cx.symbols.all_of(imported.as_str()).iter().find(|d| {
            d.kind == DeclKind::Const
                && d.file != self.resolver.path
                && source.is_none_or(|s| reachable(s, d))
        });
        if let Some(d) = original.or_else(|| self.resolver.ident(it.local.name.as_str())) {
            self.hit(it.span, d);
        }
    }

    fn visit_export_specifier(&mut self, it: &ExportSpecifier<'a>) {
        // `export { X } from './events'` names another module's binding.
        if let ModuleExportName::IdentifierName(n) = &it.local
            && let Some(d) = self.cx.symbols.get(n.name.as_str(), DeclKind::Const)
        {
            self.hit(it.span, d);
            return;
        }
        walk::walk_export_specifier(self, it);
    }
}
